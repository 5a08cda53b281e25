"""The conversation-recall index: past exchanges, searchable by vector and by keywords.

One row per exchange (a user turn with the assistant turn before and after it), in its
own LanceDB directory
(`data_dir/recall`) beside the memory index and with the same machinery (writer lock,
retries, FTS set-up, compaction that drops old versions so erased text leaves the disk).
A row holds ids, the conversation, its date, the analysed keyword text and the vector;
the readable text stays in SQLite (the messages table), so a search result is rendered
from the messages that still exist.

It is a `SearchLegs[ExchangeRow]` (retrieval/index_api.py): two legs, best first, with a
normalised score, a stable key and a deterministic tie-break, fused by the same RRF as
documents and memories.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from desktop_app.memory.index import SearchTable, keyword_text
from desktop_app.retrieval import lancedb_io
from desktop_app.retrieval.index_api import Scored
from desktop_app.retrieval.lancedb_io import sql_in
from desktop_app.retrieval.lancedb_io import sql_str as _sql_str

SCHEMA_VERSION = 1
ACTIVE = "active"


@dataclass(frozen=True)
class ExchangeRow:
    """One indexed exchange: which conversation, which messages, when it started."""

    exchange_id: str
    conversation_id: str
    message_ids: tuple[str, ...]
    started_at: str  # ISO 8601 UTC of its first message


def _schema(dim: int) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("id", pa.string()), ("status", pa.string()), ("conversation_id", pa.string()),
        ("message_ids", pa.list_(pa.string())), ("started_at", pa.string()),
        ("search_text", pa.string()), ("vector", pa.list_(pa.float32(), dim)),
    ], metadata={"schema_version": str(SCHEMA_VERSION)})


@dataclass(frozen=True)
class RecallFilters:
    """Which exchanges a search may return: dates of the exchange (ISO 8601)."""

    since: str | None = None
    until: str | None = None

    def sql(self) -> str:
        """The filter, or "" for none. Every stored row is active (erasure deletes rows
        physically), so the status column needs no clause: a prefilter on it made each
        vector search at 10,000 exchanges scan a column for nothing."""
        clauses = []
        if self.since:
            clauses.append(f"started_at >= {_sql_str(self.since)}")
        if self.until:
            clauses.append(f"started_at < {_sql_str(self.until)}")
        return " AND ".join(clauses)


def _where(filters: RecallFilters | None) -> str:
    return (filters or RecallFilters()).sql()


class RecallIndex(SearchTable):
    """Exchanges of past conversations for hybrid search (vector + FTS)."""

    table_name = "exchanges"
    what = "the conversation-recall index"

    def __init__(self, directory: Any, *, dim: int, embedder_id: str = "") -> None:
        super().__init__(directory, dim=dim)
        self.embedder_id = embedder_id

    def _arrow_schema(self) -> Any:
        return _schema(self.dim)

    # --- SearchLegs ---

    @property
    def vector_usable(self) -> bool:
        return True  # a dimension change rebuilds the table; the service re-embeds on id change

    def mismatch_message(self) -> str:
        return ""

    @staticmethod
    def _scored(rows: list[dict[str, Any]], score: Any) -> list[Scored[ExchangeRow]]:
        # ties: newer exchange first, then id (deterministic; also through the fusion)
        out = [Scored(ExchangeRow(r["id"], r["conversation_id"], tuple(r["message_ids"] or ()),
                                  r["started_at"]), score(r), r["id"],
                      (_desc(r["started_at"]), r["id"])) for r in rows]
        return sorted(out, key=lambda s: (-s.score, s.tiebreak))

    def search_vector(self, vector: np.ndarray, k: int,
                      filters: RecallFilters | None = None) -> list[Scored[ExchangeRow]]:
        where = _where(filters)  # an empty table simply returns no rows

        def run() -> list[dict[str, Any]]:
            query: Any = self._table.search(np.asarray(vector, dtype=np.float32),
                                            query_type="vector", vector_column_name="vector")
            query = query.distance_type("dot")
            if where:
                query = query.where(where, prefilter=True)
            return list(query.limit(k).select(["id", "conversation_id", "message_ids", "started_at",
                                 "_distance"]).to_list())

        # dot distance of normalised vectors is 1 - cosine
        return self._scored(self._read(run), lambda r: 1.0 - float(r["_distance"]))

    def search_keyword(self, text: str, k: int,
                       filters: RecallFilters | None = None) -> list[Scored[ExchangeRow]]:
        analyzed = keyword_text(text)
        if not analyzed.strip():
            return []
        if not self._fts_ready:
            if self.count() == 0:
                return []
            self._fts_ready = lancedb_io.has_fts(self._table)
        if not self._fts_ready:
            with self.writer.hold_if_free("indexing conversations") as held:
                if not held:
                    return []
                self._ensure_fts()
        where = _where(filters)

        def run() -> list[dict[str, Any]]:
            query: Any = self._table.search(analyzed, query_type="fts",
                                            fts_columns="search_text")
            if where:
                query = query.where(where, prefilter=True)
            return list(query.limit(k).select(["id", "conversation_id", "message_ids", "started_at",
                                 "_score"]).to_list())

        return self._scored(self._read(run), lambda r: float(r["_score"]))

    def keyword_rows(self, text: str, limit: int) -> int:
        """How many rows hold all of `text`'s terms, counted up to `limit`."""
        analyzed = keyword_text(text)
        if not analyzed.strip() or not self._fts_ready:
            return 0

        def run() -> list[dict[str, Any]]:
            return list(self._table.search(analyzed, query_type="fts",
                                           fts_columns="search_text")
                        .limit(limit).select(["id", "_score"]).to_list())

        return len(self._read(run))

    # --- writes ---

    def add_exchanges(self, rows: Sequence[ExchangeRow], texts: Sequence[str],
                      vectors: np.ndarray) -> None:
        data = [{"id": r.exchange_id, "status": ACTIVE, "conversation_id": r.conversation_id,
                 "message_ids": list(r.message_ids), "started_at": r.started_at,
                 "search_text": keyword_text(t), "vector": np.asarray(v, dtype=np.float32)}
                for r, t, v in zip(rows, texts, vectors, strict=True)]
        if data:
            with self.writer.hold("indexing conversations"):
                self._write(lambda: self._table.add(data))
                self._ensure_fts()

    def ids_in(self, conversation_ids: Sequence[str] | None = None) -> dict[str, str]:
        """{exchange id: conversation id}, for some conversations or all."""
        if self.count() == 0:
            return {}
        where = None
        if conversation_ids is not None:
            if not conversation_ids:
                return {}
            where = ("conversation_id IN ("
                     + ", ".join(_sql_str(c) for c in conversation_ids) + ")")

        def run() -> list[dict[str, Any]]:
            query = self._table.search()
            if where:
                query = query.where(where)
            return list(query.select(["id", "conversation_id"]).limit(None).to_list())

        return {r["id"]: r["conversation_id"] for r in self._read(run)}

    def vectors(self) -> dict[str, tuple[tuple[str, ...], np.ndarray]]:
        """{row id: (message ids, vector)} of every row (evaluation: offline re-ranking)."""
        if self.count() == 0:
            return {}

        def run() -> list[dict[str, Any]]:
            return list(self._table.search().select(["id", "message_ids", "vector"])
                        .limit(None).to_list())

        return {r["id"]: (tuple(r["message_ids"] or ()), np.asarray(r["vector"], np.float32))
                for r in self._read(run)}

    def ids_with_messages(self, message_ids: Sequence[str]) -> list[str]:
        """Exchanges that hold any of these messages."""
        if not message_ids or self.count() == 0:
            return []
        wanted = set(message_ids)

        def run() -> list[dict[str, Any]]:
            return list(self._table.search().select(["id", "message_ids"]).limit(None)
                        .to_list())

        return sorted(r["id"] for r in self._read(run) if wanted & set(r["message_ids"] or ()))

    def rows_before(self, started_before: str) -> list[str]:
        """Exchanges older than a date (retention)."""
        if self.count() == 0:
            return []

        def run() -> list[dict[str, Any]]:
            return list(self._table.search().where(f"started_at < {_sql_str(started_before)}")
                        .select(["id"]).limit(None).to_list())

        return sorted(r["id"] for r in self._read(run))

    def delete(self, ids: Sequence[str]) -> int:
        ids = list(ids)
        if not ids:
            return 0
        total = 0
        for start in range(0, len(ids), 500):  # keep each SQL predicate small
            part = ids[start:start + 500]
            with self.writer.hold("erasing conversations"):
                before = self.count()
                self._write(lambda part=part: self._table.delete(  # type: ignore[misc]
                    sql_in("id", part)))
                total += before - self.count()
        return total


def _desc(text: str) -> str:
    """A sort key that orders ISO dates newest first."""
    return "".join(chr(0x10FFFF - ord(c)) for c in text)
