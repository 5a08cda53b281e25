"""Optional reranking of the fused hits with a cross-encoder from a local folder.

No cross-encoder weights ship on PyPI (docs/models.md), so this stage is off by
default: the user points `reranker_path` at a sentence-transformers CrossEncoder
folder they copied onto the laptop. It rescores the fused top-20 and keeps the
top-5; without it the fused order stands. sentence-transformers (and torch) are
imported only when the first ranking happens.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from desktop_app.errors import InvalidModelError, MissingModelError
from desktop_app.retrieval.types import Hit

if TYPE_CHECKING:
    from desktop_app.config.settings import Settings

RERANK_CANDIDATES = 20
RERANK_KEEP = 5


class Reranker(Protocol):
    name: str

    def rank(self, query: str, hits: Sequence[Hit], *, top_n: int = RERANK_KEEP) -> list[Hit]:
        """Best `top_n` hits for `query`, each with `rerank_score` set; deterministic."""
        ...


def passage_for(hit: Hit) -> str:
    """What the cross-encoder reads: the chunk's 'title › section' prefix, then its text."""
    return f"{hit.prefix}\n{hit.text}" if hit.prefix else hit.text


class CrossEncoderReranker:
    """A sentence-transformers `CrossEncoder` loaded lazily from `path` on the CPU."""

    def __init__(self, path: str | Path, *, max_length: int = 512, batch_size: int = 16) -> None:
        self.path = Path(path).expanduser()
        if not self.path.is_dir():
            raise MissingModelError(
                f"Reranker folder not found: {self.path}. Point 'reranker_path' at a "
                "sentence-transformers cross-encoder folder, or turn reranking off.")
        if not (self.path / "config.json").is_file():
            raise InvalidModelError(
                f"{self.path} is not a cross-encoder model folder (no config.json). Copy the whole "
                "model folder (config.json, weights, tokenizer files).")
        self.name = f"cross-encoder:{self.path.name}"
        self.max_length = max_length
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import CrossEncoder
                except ImportError as exc:  # the installed bundle ships no torch
                    raise MissingModelError(
                        "Reranking needs torch, which this installation of Acervo does not "
                        "include. Turn reranking off, or run Acervo from source.",
                        detail=str(exc)) from exc

                try:
                    self._model = CrossEncoder(str(self.path), device="cpu",
                                               max_length=self.max_length, local_files_only=True)
                except (OSError, ValueError, RuntimeError) as exc:
                    raise InvalidModelError(
                        f"Could not load the reranker from {self.path}: it is incomplete or not a "
                        "cross-encoder. Copy the model folder again or turn reranking off.",
                        detail=str(exc)) from exc
            return self._model

    def rank(self, query: str, hits: Sequence[Hit], *, top_n: int = RERANK_KEEP) -> list[Hit]:
        if not hits:
            return []
        model = self._load()
        scores = model.predict([(query, passage_for(h)) for h in hits], batch_size=self.batch_size,
                               show_progress_bar=False, convert_to_numpy=True)
        rescored = [dataclasses.replace(h, rerank_score=float(s)) for h, s in zip(hits, scores, strict=True)]
        # ties keep the fused order (stable sort on the original index)
        order = sorted(range(len(rescored)), key=lambda i: (-(rescored[i].rerank_score or 0.0), i))
        return [rescored[i] for i in order[:top_n]]


def build_reranker(settings: Settings) -> Reranker | None:
    """The configured reranker, or None when reranking is off (the default)."""
    if not settings.reranker_enabled:
        return None
    if not settings.reranker_path:
        raise MissingModelError("Reranking is on but no reranker folder is set (settings: "
                                "reranker_path). Set it or turn reranking off.")
    return CrossEncoderReranker(settings.reranker_path)
