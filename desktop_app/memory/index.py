"""The memory search index: a LanceDB table with vectors and a native FTS index.

Lives in its own LanceDB directory (`data_dir/memory`), not in the document index:
the document index is rebuilt in blue/green generations on reindex, and memories must
survive that. Each row holds only what search needs — id, status, the keyword-leg
text (accent-folded, lightly stemmed, the same analyzer as document search so
"informacao" finds "informação") and the vector. The readable text stays in SQLite.

Every write makes a LanceDB version; `erase` deletes rows, then compacts and drops
every old version and index file (`optimize(cleanup_older_than=0)`), so erased text
does not linger on disk.

It implements `index_api.SearchLegs` (rows are memory ids, filtered by status inside
LanceDB), so `MemoryCore.search` runs the one `HybridSearcher`; SQL quoting, the FTS
set-up and compaction are the document index's own helpers (`retrieval.lancedb_io`).

Writes hold the data folder's `memory` writer lock (the window and a terminal may both
save memories); reads retry when a compaction in another process removed the files of
the version they started on (`retrieval.lancedb_io`). The table is derived from SQLite, so
one with damaged or missing files is removed and made again when opened (its owner
re-embeds from the database); a read that still meets a damaged file is one sentence.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from desktop_app.locking import MEMORY, notify, writer_lock
from desktop_app.memory.erasure import dir_bytes
from desktop_app.retrieval import lancedb_io
from desktop_app.retrieval.index_api import Scored, best_first
from desktop_app.retrieval.lancedb_io import sql_in

log = logging.getLogger(__name__)

T = TypeVar("T")
TABLE = "memories"
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class MemoryFilters:
    """Which memories a search may return (translated once, into the LanceDB `where`)."""

    statuses: tuple[str, ...] = ("active",)

    def sql(self) -> str:
        return sql_in("status", self.statuses)


def _schema(dim: int) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("id", pa.string()), ("status", pa.string()), ("search_text", pa.string()),
        ("vector", pa.list_(pa.float32(), dim)),
    ], metadata={"schema_version": str(SCHEMA_VERSION)})


def keyword_text(text: str) -> str:
    from desktop_app.text.analyze import analyze

    return analyze(text, drop_stopwords=False)


class SearchTable:
    """One LanceDB table with a vector column and an FTS-indexed `search_text` column, in
    its own directory, written under the data folder's `memory` writer lock: the common
    machinery of the memory index and the conversation-recall index (memory/recall_index)
    — retries, FTS set-up, deletion, compaction that removes old versions from disk."""

    table_name = TABLE
    what = "the memory index"

    def _arrow_schema(self) -> Any:
        return _schema(self.dim)

    def __init__(self, directory: Path, *, dim: int) -> None:
        self.directory = directory
        self.dim = dim
        self.writer = writer_lock(directory.parent, MEMORY)
        schema = self._arrow_schema()
        if not directory.is_dir():
            with self.writer.hold("creating the memory index"):
                directory.mkdir(parents=True, exist_ok=True)
        self._db = lancedb_io.connect(directory)
        # derived from SQLite: a damaged table is made again, empty, and re-embedded by its
        # owner (`MemoryCore` compares ids; recall re-indexes every chat)
        self.rebuilt_after_damage = False
        damage = lancedb_io.table_damage(directory, self.table_name)
        if damage:
            with self.writer.hold("rebuilding a damaged index"):
                lancedb_io.remove_table_files(directory, self.table_name)
            self.rebuilt_after_damage = True
            log.info("%s: %s; made again", self.table_name, damage.describe("the index"))
            notify(f"{self.what[0].upper()}{self.what[1:]} had damaged or missing files; "
                   "Acervo is making it again from the conversation and memory database.")
        if self.table_name in self._db.list_tables().tables:
            self._table = self._db.open_table(self.table_name)
            if self._table.schema.field("vector").type.list_size != dim:
                # built by an embedder of another size: the caller re-embeds from SQLite
                with self.writer.hold("rebuilding the memory index"):
                    self._write(lambda: self._db.drop_table(self.table_name))
                    self._table = self._write(lambda: self._db.create_table(
                        self.table_name, schema=schema, exist_ok=True))
        else:
            with self.writer.hold("creating the memory index"):
                self._table = self._write(lambda: self._db.create_table(
                    self.table_name, schema=schema, exist_ok=True))
        self._fts_ready = lancedb_io.has_fts(self._table)

    def _refresh(self) -> None:
        self._table.checkout_latest()

    def _write(self, action: Callable[[], T]) -> T:
        return lancedb_io.write(action, where=str(self.directory.parent), refresh=self._refresh)

    def _read(self, action: Callable[[], T]) -> T:
        return lancedb_io.read(action, refresh=self._refresh, what=self.what)

    def count(self) -> int:
        return int(self._read(self._table.count_rows))

    def ids(self) -> set[str]:
        if self.count() == 0:
            return set()
        rows = self._read(lambda: self._table.search().select(["id"]).limit(None).to_list())
        return {r["id"] for r in rows}

    def _ensure_fts(self) -> None:
        if self._fts_ready or self.count() == 0:
            return
        with self.writer.hold("indexing memories"):
            self._write(lambda: lancedb_io.create_fts(self._table))
        self._fts_ready = True

    def delete(self, ids: Sequence[str]) -> int:
        """Delete rows (logically); call `compact()` to remove them from disk."""
        ids = list(ids)
        if not ids:
            return 0
        with self.writer.hold("erasing memories"):
            before = self.count()
            self._write(lambda: self._table.delete(sql_in("id", ids)))
            return before - self.count()

    def compact(self) -> None:
        """Fold rows into the FTS index and drop every older version and index file."""
        with self.writer.hold("erasing memories"):
            self._optimize()
            if self.count() > 0:
                # rebuild the FTS index from the surviving rows only, then drop the old files
                self._fts_ready = False
                self._ensure_fts()
                self._optimize()

    def _optimize(self) -> None:
        self._write(lambda: lancedb_io.compact(self._table))

    def drop_all(self) -> int:
        """Remove the table and its directory entirely (forget everything)."""
        with self.writer.hold("erasing memories"):
            rows = self.count()
            self._write(lambda: self._db.drop_table(self.table_name))
            self._table = self._write(lambda: self._db.create_table(
                self.table_name, schema=self._arrow_schema(), exist_ok=True))
            self._fts_ready = False
            return rows

    def file_bytes(self) -> int:
        return dir_bytes(self.directory)

    def stats(self) -> dict[str, Any]:
        return {"rows": self.count(), "bytes": self.file_bytes(), "fts": self._fts_ready}


class MemoryIndex(SearchTable):
    """Vector + keyword search over memory rows (status-filtered)."""

    def add(self, ids: Sequence[str], texts: Sequence[str], vectors: np.ndarray,
            statuses: Sequence[str]) -> None:
        rows = [{"id": i, "status": s, "search_text": keyword_text(t),
                 "vector": np.asarray(v, dtype=np.float32)}
                for i, t, v, s in zip(ids, texts, vectors, statuses, strict=True)]
        if rows:
            with self.writer.hold("saving a memory"):
                self._write(lambda: self._table.add(rows))
                self._ensure_fts()

    def set_status(self, ids: Sequence[str], status: str) -> None:
        if ids:
            with self.writer.hold("updating a memory"):
                self._write(lambda: self._table.update(where=sql_in("id", ids),
                                                       values={"status": status}))

    # ---- SearchLegs[str, MemoryFilters]: rows are memory ids ----
    @property
    def vector_usable(self) -> bool:
        return True  # rebuilt from SQLite whenever the embedder changes (`MemoryCore`)

    def mismatch_message(self) -> str:
        return ""

    def search_vector(self, vector: np.ndarray, k: int,
                      filters: MemoryFilters | None) -> list[Scored[str]]:
        if k <= 0 or self.count() == 0:
            return []
        where = (filters or MemoryFilters()).sql()

        def run() -> list[dict[str, Any]]:
            query: Any = self._table.search(np.asarray(vector, dtype=np.float32),
                                            query_type="vector", vector_column_name="vector")
            return list(query.distance_type("dot").where(where, prefilter=True).limit(k)
                        .select(["id", "_distance"]).to_list())

        # LanceDB's dot distance is 1 − cosine
        return best_first([_scored(r["id"], 1.0 - float(r["_distance"]))
                           for r in self._read(run)])

    def search_keyword(self, text: str, k: int,
                       filters: MemoryFilters | None) -> list[Scored[str]]:
        analyzed = keyword_text(text)
        if k <= 0 or not analyzed.strip() or self.count() == 0:
            return []
        if not self._fts_ready:
            self._fts_ready = lancedb_io.has_fts(self._table)
        if not self._fts_ready:
            with self.writer.hold_if_free("indexing memories") as held:
                if not held:
                    return []
                self._ensure_fts()
        where = (filters or MemoryFilters()).sql()

        def run() -> list[dict[str, Any]]:
            return list(self._table.search(analyzed, query_type="fts", fts_columns="search_text")
                        .where(where, prefilter=True).limit(k).select(["id", "_score"])
                        .to_list())

        return best_first([_scored(r["id"], float(r["_score"])) for r in self._read(run)])


def _scored(memory_id: str, score: float) -> Scored[str]:
    return Scored(memory_id, score, memory_id, (memory_id,))
