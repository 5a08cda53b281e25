"""A tiny, randomly initialised BERT cross-encoder written to disk for plumbing tests.

Its scores mean nothing: it exists so the CrossEncoder loading, batching and
ordering code runs for real without any downloaded weights. Never judge quality
with it.
"""

from __future__ import annotations

import re
from pathlib import Path

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def build_tiny_cross_encoder(folder: Path, *, words: str = "", seed: int = 0, hidden_size: int = 32,
                             num_hidden_layers: int = 2, num_attention_heads: int = 2,
                             intermediate_size: int = 64) -> Path:
    """Random-weight BERT cross-encoder; `words` become whole-word vocabulary entries.
    The defaults are tiny; other shapes serve latency benchmarks (still random)."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    vocabulary = sorted(set(re.findall(r"\w+", words.lower())))
    tokens = SPECIALS + vocabulary + list("abcdefghijklmnopqrstuvwxyz0123456789")
    vocab = {t: i for i, t in enumerate(dict.fromkeys(tokens))}
    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                   model_max_length=512)
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(vocab), hidden_size=hidden_size,
                        num_hidden_layers=num_hidden_layers, num_attention_heads=num_attention_heads,
                        intermediate_size=intermediate_size, max_position_embeddings=512,
                        num_labels=1)
    BertForSequenceClassification(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder
