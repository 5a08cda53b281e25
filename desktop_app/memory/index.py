"""The memory search index: a LanceDB table with vectors and a native FTS index.

Lives in its own LanceDB directory (`data_dir/memory`), not in the document index:
the document index is rebuilt in blue/green generations on reindex, and memories must
survive that. Each row holds only what search needs — id, status, the keyword-leg
text (accent-folded, lightly stemmed, the same analyzer as document search so
"informacao" finds "informação") and the vector. The readable text stays in SQLite.

Every write makes a LanceDB version; `erase` deletes rows, then compacts and drops
every old version and index file (`optimize(cleanup_older_than=0)`), so erased text
does not linger on disk.

Writes hold the data folder's `memory` writer lock (the window and a terminal may both
save memories); reads retry when a compaction in another process removed the files of
the version they started on (`retrieval.lancedb_io`).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from desktop_app.locking import MEMORY, writer_lock
from desktop_app.memory.erasure import dir_bytes
from desktop_app.retrieval import lancedb_io

log = logging.getLogger(__name__)

T = TypeVar("T")
TABLE = "memories"
SCHEMA_VERSION = 1


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _in_list(ids: Sequence[str]) -> str:
    return "id IN (" + ", ".join(_sql_str(i) for i in ids) + ")"


def _schema(dim: int) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("id", pa.string()), ("status", pa.string()), ("search_text", pa.string()),
        ("vector", pa.list_(pa.float32(), dim)),
    ], metadata={"schema_version": str(SCHEMA_VERSION)})


def keyword_text(text: str) -> str:
    from desktop_app.retrieval.textnorm import analyze

    return analyze(text, drop_stopwords=False)


class SearchTable:
    """One LanceDB table with a vector column and an FTS-indexed `search_text` column, in
    its own directory, written under the data folder's `memory` writer lock. The common
    machinery of the memory index and the conversation-recall index (memory/recall_index):
    retries, FTS set-up, deletion, compaction that removes old versions from disk."""

    table_name = TABLE

    def __init__(self, directory: Path, *, dim: int) -> None:
        self.directory = directory
        self.dim = dim
        self.writer = writer_lock(directory.parent, MEMORY)
        schema = self._arrow_schema()
        table = self.table_name
        if not directory.is_dir():
            with self.writer.hold("creating the memory index"):
                directory.mkdir(parents=True, exist_ok=True)
        self._db = lancedb_io.connect(directory)
        if table in self._db.list_tables().tables:
            self._table = self._db.open_table(table)
            if self._table.schema.field("vector").type.list_size != dim:
                # built by an embedder of another size: the caller re-embeds from SQLite
                with self.writer.hold("rebuilding the memory index"):
                    self._write(lambda: self._db.drop_table(table))
                    self._table = self._write(lambda: self._db.create_table(
                        table, schema=schema, exist_ok=True))
        else:
            with self.writer.hold("creating the memory index"):
                self._table = self._write(lambda: self._db.create_table(
                    table, schema=schema, exist_ok=True))
        self._fts_ready = any(i.index_type == "FTS" for i in self._table.list_indices())

    def _arrow_schema(self) -> Any:
        return _schema(self.dim)

    def _refresh(self) -> None:
        self._table.checkout_latest()

    def _write(self, action: Callable[[], T]) -> T:
        return lancedb_io.write(action, where=str(self.directory.parent), refresh=self._refresh)

    def _read(self, action: Callable[[], T]) -> T:
        return lancedb_io.read(action, refresh=self._refresh)

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
        from lancedb.index import FTS

        with self.writer.hold("indexing memories"):
            self._write(lambda: self._table.create_index(
                "search_text",
                config=FTS(base_tokenizer="simple", lower_case=True, stem=False,
                           remove_stop_words=False, ascii_folding=True, with_position=False),
                replace=True,
            ))
        self._fts_ready = True

    def delete(self, ids: Sequence[str]) -> int:
        """Delete rows (logically); call `compact()` to remove them from disk."""
        ids = list(ids)
        if not ids:
            return 0
        with self.writer.hold("erasing memories"):
            before = self.count()
            self._write(lambda: self._table.delete(_in_list(ids)))
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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "removes every version" is the point
            self._write(lambda: self._table.optimize(cleanup_older_than=timedelta(0),
                                                     delete_unverified=True))

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
                self._write(lambda: self._table.update(where=_in_list(ids),
                                                       values={"status": status}))

    def search_vector(self, vector: np.ndarray, k: int, statuses: Sequence[str]) -> list[str]:
        if self.count() == 0:
            return []
        where = "status IN (" + ", ".join(_sql_str(s) for s in statuses) + ")"

        def run() -> list[str]:
            query: Any = self._table.search(np.asarray(vector, dtype=np.float32),
                                            query_type="vector", vector_column_name="vector")
            rows = (query.distance_type("dot").where(where, prefilter=True).limit(k)
                    .select(["id", "_distance"]).to_list())
            return [r["id"] for r in rows]

        return self._read(run)

    def search_keyword(self, query: str, k: int, statuses: Sequence[str]) -> list[str]:
        analyzed = keyword_text(query)
        if not analyzed.strip() or self.count() == 0:
            return []
        if not self._fts_ready:
            self._fts_ready = any(i.index_type == "FTS" for i in self._table.list_indices())
        if not self._fts_ready:
            with self.writer.hold_if_free("indexing memories") as held:
                if not held:
                    return []
                self._ensure_fts()
        where = "status IN (" + ", ".join(_sql_str(s) for s in statuses) + ")"

        def run() -> list[str]:
            rows = (self._table.search(analyzed, query_type="fts", fts_columns="search_text")
                    .where(where, prefilter=True).limit(k).select(["id", "_score"]).to_list())
            return [r["id"] for r in rows]

        return self._read(run)

