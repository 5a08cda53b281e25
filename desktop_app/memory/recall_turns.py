"""The two stages of conversation recall: exchanges, then single turns.

The recall index holds every exchange (a user turn with the assistant turns around it)
and every turn of it on its own (memory/recall.py, `units_of`). One search of each leg
(vector, keywords) over both kinds of row gives:

1. the exchanges, fused by RRF as before: the first `CANDIDATES` are offered to the
   block whole (a short answer with the question it answers);
2. the turns, ranked by RRF of three lists — the turn rows by vector, by keywords, and
   the rank of the best exchange each turn belongs to (its context; that list fuses both
   legs already, so it weighs as much as the two together). Turns the first
   stage did not reach come in as candidates of their own, so a long history's facts
   past the first exchanges can still reach the block; and every candidate turn's
   cosine to the question goes to the packing (`similarity`: meaning, beside values).

Pure: rows and scores in, rows and scores out; `RecallService.search` reads the legs and
renders the rows from the stored messages, and the memory evaluation replays it offline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from desktop_app.memory.recall_index import ExchangeRow
from desktop_app.retrieval.fusion import rrf_fuse
from desktop_app.retrieval.index_api import Scored

TURN_PREFIX = "tu_"
EXTRA_TURNS = 60  # turns beyond the first stage's exchanges offered to the block
TURN_RRF_K = 10  # the second stage trusts the top of each list more than the first does


def is_turn(row_id: str) -> bool:
    return row_id.startswith(TURN_PREFIX)


@dataclass(frozen=True)
class Stages:
    """What the search found: candidates best first (exchanges, then turns the exchanges
    did not hold), turns by the second stage, and each found turn's cosine."""

    candidates: list[tuple[ExchangeRow, float]]
    turns: list[str] = field(default_factory=list)  # message ids, best first
    similarity: dict[str, float] = field(default_factory=dict)  # message id → cosine


def _keys(scored: Sequence[Scored[ExchangeRow]]) -> list[tuple[str, str, int]]:
    return [(s.key, "\0".join(str(t) for t in s.tiebreak) or s.key, 0) for s in scored]


def stages(vector: Sequence[Scored[ExchangeRow]], keyword: Sequence[Scored[ExchangeRow]], *,
           k: int, extra: int = EXTRA_TURNS, rrf_k: int = 60,
           weights: Mapping[str, float] | None = None,
           keep: Callable[[ExchangeRow], bool] = lambda row: True) -> Stages:
    """Both stages over one search's legs (`keep`: rows the caller may show — not the
    current chat, not past retention)."""
    vector = [s for s in vector if keep(s.row)]
    keyword = [s for s in keyword if keep(s.row)]
    rows = {s.key: s.row for s in [*vector, *keyword]}
    legs = {"vector": vector, "keyword": keyword}
    exchanges = rrf_fuse({leg: _keys([s for s in scored if not is_turn(s.key)])
                          for leg, scored in legs.items()}, k=rrf_k, weights=weights)
    first = [(rows[f.key], f.score) for f in exchanges[:k]]
    # the second stage: a turn is ranked by what it says and by the exchange it was said in
    context: list[tuple[str, str, int]] = []
    placed: set[str] = set()
    for f in exchanges:
        for message_id in rows[f.key].message_ids:
            if message_id not in placed:
                placed.add(message_id)
                context.append((message_id, message_id, 0))
    turn_rows = {rows[s.key].message_ids[0]: s for s in [*vector, *keyword]
                 if is_turn(s.key)}
    by_turn = {leg: [(rows[s.key].message_ids[0], rows[s.key].message_ids[0], 0)
                     for s in scored if is_turn(s.key)] for leg, scored in legs.items()}
    # the exchange ranks fuse both legs already: they count as much as both legs together
    legs_weight = {"vector": 1.0, "keyword": 1.0, **(weights or {})}
    ranked = rrf_fuse({**by_turn, "exchange": context}, k=TURN_RRF_K,
                      weights={**legs_weight, "exchange": legs_weight["vector"]
                               + legs_weight["keyword"]})
    turns = [f.key for f in ranked]
    shown = {m for row, _ in first for m in row.message_ids}
    beyond = [(turn_rows[f.key].row, f.score) for f in ranked
              if f.key not in shown and f.key in turn_rows][:extra]
    similarity = {s.row.message_ids[0]: s.score for s in vector if is_turn(s.key)}
    return Stages([*first, *beyond], turns, similarity)
