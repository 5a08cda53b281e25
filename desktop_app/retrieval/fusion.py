"""Reciprocal Rank Fusion (pure functions, no I/O).

score(d) = Σ_legs weight_leg / (k + rank_leg(d)), ranks 1-based. Ties are broken
by (score desc, doc id, chunk position) so the same query always returns the
same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from desktop_app.retrieval.types import Hit


@dataclass
class Fused:
    key: str
    doc_id: str
    position: int
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)


def rrf_fuse(
    legs: Mapping[str, Sequence[tuple[str, str, int]]],
    *,
    k: int = 60,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Fuse ranked lists. `legs` maps leg name → [(key, doc_id, position), …] best first."""
    fused: dict[str, Fused] = {}
    for leg, items in legs.items():
        weight = 1.0 if weights is None else weights.get(leg, 1.0)
        for rank, (key, doc_id, position) in enumerate(items, start=1):
            entry = fused.setdefault(key, Fused(key, doc_id, position))
            if leg in entry.ranks:  # a leg lists a key once; keep its best rank
                continue
            entry.ranks[leg] = rank
            entry.score += weight / (k + rank)
    return sorted(fused.values(), key=lambda f: (-f.score, f.doc_id, f.position))


def fuse_hits(searches: Sequence[Sequence[Hit]], *, k: int = 60) -> list[tuple[Hit, float]]:
    """The hits of several searches (of one library, or one search per library), fused by
    RRF, each search a leg of weight 1, with their fused scores: a passage several found at
    good ranks comes first. A passage is its library's chunk: one found twice counts once
    per search, two libraries' chunks of one id are two passages."""
    found: dict[str, Hit] = {}
    legs: dict[str, list[tuple[str, str, int]]] = {}
    for number, hits in enumerate(searches):
        ranked = legs[str(number)] = []
        for hit in hits:
            key = f"{hit.library}\0{hit.chunk_id}"
            found.setdefault(key, hit)
            ranked.append((key, hit.doc_id, hit.position))
    return [(found[f.key], f.score) for f in rrf_fuse(legs, k=k)]
