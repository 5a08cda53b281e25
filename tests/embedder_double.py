"""A deterministic stand-in for the embedder, for tests that are not about ranking
(`make check` runs them with it: ACERVO_TEST_EMBEDDER=fake).

Each text becomes a hashed bag of its folded words (and their 4-letter prefixes, so
"prazos" and "prazo" share a little), signed and L2-normalised into 384 dimensions: the
same text always gives the same vector, texts sharing words are close, and nothing is
loaded. It ranks like a keyword index, not like e5: a test whose assertion depends on
what the real model finds similar is about ranking (`@pytest.mark.ranking`) and runs
only with the real one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from desktop_app.text.fold import fold

FAKE_EMBEDDER_ID = "test-hashed-words@1"
_WORD = re.compile(r"\w+")


class FakeEmbedder:
    """Same calls as the app's embedders (`retrieval.types.Embedder`)."""

    id = FAKE_EMBEDDER_ID
    dim = 384
    backend = "fake"

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_passages(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed_passages takes a list of texts")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts])

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, dtype=np.float32)
        for word in _WORD.findall(fold(text)):
            for feature, weight in ((word, 1.0), (word[:4], 0.5)):
                digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dim
                vector[bucket] += weight if digest[4] & 1 else -weight
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:  # no words: one fixed direction, still a unit vector
            vector[0], norm = 1.0, 1.0
        return vector / norm
