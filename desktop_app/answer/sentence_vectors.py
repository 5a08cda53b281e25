"""Sentence vectors for the sources-only answer, by sentence text, in a bounded LRU cache.

The answer ranks the sentences of the top passages by meaning (answer/extractive.py);
overlapping chunks and repeated questions bring the same sentences back, so a sentence is
embedded once (keyed by a hash of its text) until the cache drops it or an erasure empties
it (`text.caches`).

`alone`: each text is embedded in a run of its own. The default model is quantized to int8
dynamically: each run is scaled by its largest activation, so a sentence embedded beside
others comes out a little different (cosines move by ~0.001) from the same sentence beside
others, and which ones it met depended on what was asked before and which sentences were
cached. Two candidates that close then swapped places, and one question got a different
answer in a fresh window than after other questions. Alone, a sentence's vector is its own
(~15 % more time per sentence embedded, measured on 50 sentences of the LGPD).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from desktop_app.retrieval.types import Embedder
from desktop_app.text.caches import forget_owner


class SentenceVectors:
    """Sentence vectors by text, with a bounded LRU cache (thread-safe)."""

    def __init__(self, embedder: Embedder, max_entries: int = 8192, *,
                 alone: bool = False) -> None:
        self.embedder = embedder
        self.max_entries = max_entries
        self.alone = alone  # one run a text: its vector does not depend on the others
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._last_query: tuple[str, np.ndarray] | None = None
        self._lock = threading.Lock()
        forget_owner(self)  # an erasure empties it (text.caches)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._last_query = None

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()

    def vectors(self, texts: Sequence[str]) -> tuple[np.ndarray, int]:
        """(n, dim) vectors for `texts`; the second value counts the ones embedded now."""
        keys = [self._key(t) for t in texts]
        with self._lock:
            found = {k: self._cache[k] for k in keys if k in self._cache}
            for k in found:
                self._cache.move_to_end(k)
        missing = list(dict.fromkeys((k, t) for k, t in zip(keys, texts, strict=True)
                                     if k not in found))
        if missing:
            texts = [t for _, t in missing]
            new = (np.stack([self.embedder.embed_passages([t])[0] for t in texts]) if self.alone
                   else self.embedder.embed_passages(texts))
            with self._lock:
                for (k, _), vector in zip(missing, new, strict=True):
                    found[k] = vector
                    self._cache[k] = vector
                while len(self._cache) > self.max_entries:
                    self._cache.popitem(last=False)
        out = np.stack([found[k] for k in keys]) if keys else np.zeros((0, self.embedder.dim))
        return out.astype(np.float32, copy=False), len(missing)

    def query(self, text: str) -> np.ndarray:
        """The question's vector; the last one is kept, so one turn embeds its question once
        (the answer service searches documents and memories with it, then ranks sentences)."""
        with self._lock:
            last = self._last_query
        if last is not None and last[0] == text:
            return last[1]
        vector = np.asarray(self.embedder.embed_query(text), dtype=np.float32)
        with self._lock:
            self._last_query = (text, vector)
        return vector
