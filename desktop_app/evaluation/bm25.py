"""A plain BM25 over short texts (single dialogue turns): the baseline the memory
evaluation sets beside conversation recall.

Terms are the keyword leg's (`text.analyze`: folded, stop words out, stemmed), so the
baseline and the app read words the same way; scoring is Okapi BM25 (k1 1.2, b 0.75)
with the usual non-negative idf. In memory, brute force: a conversation has a few
hundred turns.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from desktop_app.text.analyze import analyze

K1 = 1.2
B = 0.75


class BM25:
    """BM25 scores of every document for a query, and the documents ranked by them."""

    def __init__(self, documents: Sequence[str]) -> None:
        self.docs = [Counter(analyze(d).split()) for d in documents]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.mean_length = (sum(self.lengths) / len(self.lengths)) if self.docs else 0.0
        frequency: Counter[str] = Counter()
        for d in self.docs:
            frequency.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in frequency.items()}

    def scores(self, query: str) -> list[float]:
        terms = [t for t in dict.fromkeys(analyze(query).split()) if t in self.idf]
        out = []
        for doc, length in zip(self.docs, self.lengths, strict=True):
            norm = K1 * (1 - B + B * length / (self.mean_length or 1))
            out.append(sum(self.idf[t] * doc[t] * (K1 + 1) / (doc[t] + norm)
                           for t in terms if t in doc))
        return out

    def ranked(self, query: str) -> list[int]:
        """Indexes of the documents with a score above zero, best first (ties: in order)."""
        scores = self.scores(query)
        return sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
