"""A document index on a shared PostgreSQL + pgvector server (a team library).

The same contract as the local index (`index_api.DocumentIndex`): typed rows,
normalised scores, keyword analysis inside, filters from `SearchFilters`.

- Search: a vector leg (HNSW, or an exact scan when few chunks are readable) and a
  keyword leg (Okapi BM25 computed in SQL, ranked as LanceDB ranks). The statements,
  their settings and how each leg ranks are in `pg_sql.py`; this class picks the
  statement for the server's schema and for how many chunks the user may read.
- Writes are idempotent by content hash: the document row is claimed first
  (`ON CONFLICT DO NOTHING` on (collection, content hash)) in the same
  transaction as its chunks, so two analysts adding one file make one document
  (the id derives from collection and hash, so any unique conflict is that case),
  and a killed client leaves nothing half-written.
- Deletion: DELETE, then (purge) VACUUM FULL of the text tables, so deleted text
  leaves the data files; vectors get a plain VACUUM.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from desktop_app.retrieval.index_api import (
    ChunkRow,
    DocumentRecord,
    IndexStats,
    Scored,
    chunk_text_hash,
    keyword_text,
    marks_json,
    parse_marks,
)
from desktop_app.retrieval.pg_connection import (
    ServerConnection,
    TeamLibraryError,
    first_line,
    server_errors,
)
from desktop_app.retrieval.pg_schema import POSTINGS_SELECT, SCHEMA_VERSION, TEXT_TABLES
from desktop_app.retrieval.pg_sql import (
    EXACT_SCAN_MAX_CHUNKS,
    KEYWORD_DEPTH,
    KEYWORD_RANKINGS,
    KEYWORD_RESCORE,
    KEYWORD_WHOLE,
    ROW_COLUMNS,
    bm25_sql,
    bm25_top_sql,
    bm25_tsvector_sql,
    exact_vector_sql,
    filters_sql,
    for_schema,
    keyword_terms,
    parse_vector,
    readable_chunks_sql,
    ts_rank_sql,
    vector_literal,
    vector_sql,
)
from desktop_app.retrieval.search import SearchWarning, SearchWarningCode
from desktop_app.retrieval.types import SearchFilters
from desktop_app.text.analyze import analyze

if TYPE_CHECKING:
    from desktop_app.retrieval.types import Chunk

log = logging.getLogger(__name__)

_DOC_COLUMNS = """d.doc_id, d.title, d.source_path, d.file_type, d.language, d.size,
  d.content_hash, d.page_count, d.chunk_count, d.ingested_at, d.modified_at, d.embedder_id,
  d.notes"""


def team_doc_id(collection_id: int, content_hash: str) -> str:
    """The same file in the same collection has the same id on every analyst's machine."""
    return hashlib.sha256(f"{collection_id}\0{content_hash}".encode()).hexdigest()[:16]


class PgIndex:
    """One team library: a connection to the server as the analyst's own role."""

    schema_version = SCHEMA_VERSION
    content_addressed = True  # one document per content and collection, whoever added it

    def __init__(self, connect: Callable[[], Any], *, library: str, current_embedder_id: str,
                 collection: str = "", read_only: bool = False,
                 keyword_ranking: str = "bm25", location: str = "",
                 keyword_depth: int = KEYWORD_DEPTH,
                 keyword_rescore: int = KEYWORD_RESCORE,
                 keyword_whole: int = KEYWORD_WHOLE) -> None:
        if keyword_ranking not in KEYWORD_RANKINGS:
            raise ValueError(f"keyword ranking must be one of {KEYWORD_RANKINGS}")
        self.library = library
        self.current_embedder_id = current_embedder_id
        self.collection = collection
        self.read_only = read_only
        self.keyword_ranking = keyword_ranking
        self.keyword_depth = keyword_depth
        self.keyword_rescore = keyword_rescore
        self.keyword_whole = keyword_whole
        self.location = location
        self._server = ServerConnection(connect, library)
        self._write_collection: int | None = None
        self._purge_pending = False
        self._found_rows = False  # the last search's legs found something (search_notice)
        self._no_access_said = False
        self.meta = self._read_meta()
        # schema 1 servers (not upgraded yet by `team init`) have no postings table
        self._postings = int(self.meta.get("schema_version", "0")) >= 2
        # schema 4: postings in impact order and per-collection document frequencies
        self._impacts = int(self.meta.get("schema_version", "0")) >= 4
        # schema 2 servers have no marks column: passages are added without their marks
        self._marks = int(self.meta.get("schema_version", "0")) >= 3

    # ---- connection ------------------------------------------------------------
    def close(self) -> None:
        self._server.close()

    def _read_meta(self) -> dict[str, str]:
        import psycopg

        try:
            with self._server.cursor() as cur:
                cur.execute("SELECT key, value FROM acervo.meta")
                meta = {k: v for k, v in cur.fetchall()}
        except (psycopg.errors.UndefinedTable, psycopg.errors.InvalidSchemaName,
                psycopg.errors.InsufficientPrivilege) as exc:
            raise TeamLibraryError(
                f"The server of “{self.library}” has no Acervo team library you can use "
                "(an administrator runs `desktop-app team init` and adds you as a user)."
            ) from exc
        if not meta:
            raise TeamLibraryError(f"The team library “{self.library}” is not initialised.")
        if int(meta.get("schema_version", "0")) > SCHEMA_VERSION:
            raise TeamLibraryError(f"The team library “{self.library}” was set up by a newer "
                                   "version of Acervo; update the app to use it.")
        return meta

    # ---- identity --------------------------------------------------------------
    @property
    def embedder_id(self) -> str:
        return self.meta.get("embedder_id", "")

    @property
    def dim(self) -> int:
        return int(self.meta.get("dim", "0"))

    @property
    def vector_usable(self) -> bool:
        return not self.current_embedder_id or self.current_embedder_id == self.embedder_id

    def mismatch_message(self) -> str:
        return (f"team library {self.library} was built with {self.embedder_id}, current "
                f"embedder {self.current_embedder_id}: keyword search only")

    # ---- the writer surface: the server keeps concurrent clients apart ---------------
    def writing(self, purpose: str, *, timeout: float | None = None,
                cancel: Callable[[], bool] | None = None) -> AbstractContextManager[None]:
        """Nothing to lock on this computer: each write is one server transaction and
        `ON CONFLICT` makes adding the same content twice a no-op."""
        del purpose, timeout, cancel
        return nullcontext()

    def is_current(self) -> bool:
        return True  # a server library has no local generations to switch

    def check_writable(self) -> None:
        return None  # permissions are the server's (RLS): refused writes fail per document

    def unindexed_rows(self) -> int:
        return 0  # the server's GIN and HNSW indexes follow every insert

    def optimize(self) -> None:
        """After a run that replaced documents: purge what was deleted."""
        if self._purge_pending:
            self.purge()

    # ---- writes ----------------------------------------------------------------
    def _require_writable(self) -> int:
        if self.read_only:
            raise TeamLibraryError(f"The team library “{self.library}” is read-only in your "
                                   "settings.")
        if self._write_collection is None:
            self._write_collection = self._resolve_write_collection()
        return self._write_collection

    def _resolve_write_collection(self) -> int:
        with self._server.cursor() as cur:
            cur.execute("SELECT collection_id, name FROM acervo.collections "
                        "WHERE collection_id = ANY (acervo.writable_collections()) ORDER BY name")
            rows = cur.fetchall()
        if self.collection:
            rows = [r for r in rows if r[1] == self.collection]
            if not rows:  # never says whether the collection exists
                raise TeamLibraryError(
                    f"You cannot add documents to a collection named “{self.collection}” in "
                    f"“{self.library}”: ask an administrator for a write grant.")
        if len(rows) != 1:
            raise TeamLibraryError(
                f"“{self.library}”: choose the collection to add to in the library settings "
                if rows else f"You cannot add documents to “{self.library}”: no collection "
                "grants you write access.")
        return int(rows[0][0])

    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk],
                     vectors: np.ndarray) -> bool:
        """Add a document with its chunks; False when the collection already holds the same
        content (added by anyone). Atomic: the chunks come with the document or not at all."""
        if len(chunks) != len(vectors):
            raise ValueError("chunks and vectors must align")
        collection_id = self._require_writable()
        doc_id = team_doc_id(collection_id, record.content_hash)
        search_texts = [keyword_text(c) for c in chunks]
        token_counts = [len(keyword_terms(s)) for s in search_texts]
        with self._server.cursor() as cur, cur.connection.transaction():
            cur.execute(
                """INSERT INTO acervo.documents (doc_id, collection_id, title, source_path,
                     folder, file_type, language, size, content_hash, page_count, chunk_count,
                     token_count, ingested_at, modified_at, embedder_id, notes)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                   ON CONFLICT DO NOTHING RETURNING doc_key""",
                (doc_id, collection_id, record.title, record.source_path, record.folder,
                 record.file_type, record.language, record.size, record.content_hash,
                 record.page_count, len(chunks), sum(token_counts), record.ingested_at,
                 record.modified_at, record.embedder_id or self.current_embedder_id,
                 json.dumps(list(record.notes), ensure_ascii=False)))
            row = cur.fetchone()
            if row is None:
                return False
            doc_key = int(row[0])
            # Read after the insert, which waits for a `team reindex` switching the server's
            # vectors: never store vectors of another embedder than the server's.
            cur.execute("SELECT value FROM acervo.meta WHERE key = 'embedder_id'")
            served = cur.fetchone()
            if self.current_embedder_id and served and served[0] != self.current_embedder_id:
                raise TeamLibraryError(
                    f"The team library “{self.library}” holds vectors of {served[0]}; this "
                    f"computer embeds with {self.current_embedder_id}. Nothing was added (the "
                    "two kinds of vectors are never mixed): its administrator can rebuild the "
                    "library's vectors with `desktop-app team reindex`, or use the same "
                    "embedder here (`desktop-app embedder`).")
            # COPY is not allowed under row-level security: one INSERT over unnested arrays
            # the marks column (schema 3) only where the server has it
            column, value = (", marks", ", u.marks") if self._marks else ("", "")
            cur.execute(
                f"""INSERT INTO acervo.chunks (chunk_id, doc_key, collection_id, position, text,
                     prefix, search_text, text_hash, page_start, page_end, char_start, char_end,
                     heading_path, token_count{column})
                   SELECT %(doc_id)s || ':' || u.position, %(doc_key)s, %(collection)s,
                          u.position, u.text, u.prefix, u.search_text, u.text_hash,
                          u.page_start, u.page_end, u.char_start, u.char_end,
                          ARRAY(SELECT jsonb_array_elements_text(u.headings)), u.tokens{value}
                   FROM unnest(%(position)s::int[], %(text)s::text[], %(prefix)s::text[],
                               %(search_text)s::text[], %(text_hash)s::text[],
                               %(page_start)s::int[], %(page_end)s::int[],
                               %(char_start)s::int[], %(char_end)s::int[],
                               %(headings)s::jsonb[], %(tokens)s::int[], %(marks)s::text[])
                     AS u(position, text, prefix, search_text, text_hash, page_start, page_end,
                          char_start, char_end, headings, tokens, marks)
                   RETURNING position, chunk_key""",
                {"doc_id": doc_id, "doc_key": doc_key, "collection": collection_id,
                 "position": [c.position for c in chunks], "text": [c.text for c in chunks],
                 "prefix": [c.prefix for c in chunks], "search_text": search_texts,
                 "text_hash": [chunk_text_hash(c) for c in chunks],
                 "page_start": [c.page_start for c in chunks],
                 "page_end": [c.page_end for c in chunks],
                 "char_start": [c.char_start for c in chunks],
                 "char_end": [c.char_end for c in chunks],
                 "headings": [json.dumps(list(c.heading_path), ensure_ascii=False)
                              for c in chunks],
                 "tokens": token_counts,
                 "marks": [marks_json(c.revoked, c.path) for c in chunks]})
            keys = dict(cur.fetchall())
            if self._postings:
                cur.execute(f"""INSERT INTO acervo.chunk_terms (term, chunk_key, collection_id,
                                  doc_key, tf, dl)
                                {POSTINGS_SELECT} WHERE c.doc_key = %s""", (doc_key,))
            cur.execute(
                """INSERT INTO acervo.chunk_vectors (chunk_key, collection_id, doc_key, embedding)
                   SELECT u.chunk_key, %s, %s, u.embedding::vector
                   FROM unnest(%s::bigint[], %s::text[]) AS u(chunk_key, embedding)""",
                (collection_id, doc_key, [keys[c.position] for c in chunks],
                 [vector_literal(v) for v in vectors]))
        return True

    def delete_document(self, doc_id: str, *, purge: bool = True) -> None:
        """Remove a document (RLS: only from a collection you may write to)."""
        if self.read_only:
            raise TeamLibraryError(f"The team library “{self.library}” is read-only in your "
                                   "settings.")
        with self._server.cursor() as cur, cur.connection.transaction():
            if self._impacts:  # postings first, in one statement: term_df rows locked in
                # term order (the cascade would go chunk by chunk: two writers could deadlock)
                cur.execute("""DELETE FROM acervo.chunk_terms t WHERE t.chunk_key IN (
                                 SELECT c.chunk_key FROM acervo.chunks c
                                 JOIN acervo.documents d ON d.doc_key = c.doc_key
                                 WHERE d.doc_id = %s)""", (doc_id,))
            cur.execute("DELETE FROM acervo.documents WHERE doc_id = %s", (doc_id,))
            deleted = cur.rowcount
        if not deleted and self.document(doc_id) is not None:
            raise TeamLibraryError(f"You cannot remove documents from this collection of "
                                   f"“{self.library}” (read-only grant).")
        if deleted:
            self._purge_pending = True
            if purge:
                self.purge()

    def purge(self) -> None:
        """Rewrite the text tables so deleted text leaves the data files (VACUUM FULL; needs
        PostgreSQL 17+ for members, or the owner). When the server refuses or the library
        stays busy it is tried again after the next deletion; the rows are already invisible
        either way."""
        import psycopg

        done = True
        with self._server.cursor() as cur:
            cur.execute("SET lock_timeout = '60s'")
            self._server.notices.clear()
            try:
                for table in TEXT_TABLES:
                    cur.execute(f"VACUUM (FULL, ANALYZE) acervo.{table}")
                cur.execute("VACUUM (ANALYZE) acervo.chunk_vectors")
                # without the privilege VACUUM only warns ("permission denied … skipping")
                done = not any("skipping" in n for n in self._server.notices)
            except psycopg.errors.LockNotAvailable:
                done = False
            finally:
                cur.execute("RESET lock_timeout")
        if done:
            self._purge_pending = False
        else:
            log.warning("team library purge deferred (server refused or busy)")

    # ---- reads -----------------------------------------------------------------
    def _records(self, where: str, params: Sequence[Any] = ()) -> list[DocumentRecord]:
        with self._server.cursor() as cur:
            cur.execute(f"SELECT {_DOC_COLUMNS} FROM acervo.documents d {where}", params)
            rows = cur.fetchall()
        out = [DocumentRecord(
            doc_id=r[0], title=r[1], source_path=r[2], file_type=r[3], language=r[4], size=r[5],
            content_hash=r[6], page_count=r[7], chunk_count=r[8], ingested_at=r[9],
            modified_at=r[10], embedder_id=r[11], notes=tuple(r[12] or ())) for r in rows]
        out.sort(key=lambda d: (d.title.casefold(), d.doc_id))
        return out

    def documents(self) -> list[DocumentRecord]:
        return self._records("")

    def document(self, doc_id: str) -> DocumentRecord | None:
        found = self._records("WHERE d.doc_id = %s", (doc_id,))
        return found[0] if found else None

    def documents_at(self, source_path: str) -> list[DocumentRecord]:
        return self._records("WHERE d.source_path = %s", (source_path,))

    def document_by_hash(self, content_hash: str) -> DocumentRecord | None:
        """In the collection this client adds to (any readable one when none is set)."""
        if self._write_collection is not None:
            found = self._records("WHERE d.content_hash = %s AND d.collection_id = %s",
                                  (content_hash, self._write_collection))
        else:
            found = self._records("WHERE d.content_hash = %s", (content_hash,))
        return found[0] if found else None

    def _row(self, r: Sequence[Any]) -> ChunkRow:
        revoked, path = parse_marks(r[17])
        return ChunkRow(
            chunk_id=r[0], doc_id=r[1], position=r[2], text=r[3], prefix=r[4], title=r[5],
            source_path=r[6], folder=r[7], file_type=r[8], language=r[9], page_start=r[10],
            page_end=r[11], char_start=r[12], char_end=r[13], heading_path=tuple(r[14] or ()),
            ingested_at=r[15], modified_at=r[16], library=self.library, revoked=revoked,
            path=path)

    def get_chunk(self, chunk_id: str) -> ChunkRow | None:
        with self._server.cursor() as cur:
            cur.execute(self._sql(f"SELECT {ROW_COLUMNS} FROM acervo.chunks c JOIN "
                                  "acervo.documents d ON d.doc_key = c.doc_key "
                                  "WHERE c.chunk_id = %s"), (chunk_id,))
            row = cur.fetchone()
        return self._row(row) if row else None

    def document_chunks(self, doc_id: str) -> list[ChunkRow]:
        """A document's stored chunks in order (the text shown when the file is not reachable)."""
        with self._server.cursor() as cur:
            cur.execute(self._sql(f"SELECT {ROW_COLUMNS} FROM acervo.chunks c JOIN "
                                  "acervo.documents d ON d.doc_key = c.doc_key "
                                  "WHERE d.doc_id = %s ORDER BY c.position"), (doc_id,))
            return [self._row(r) for r in cur.fetchall()]

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        if not self.vector_usable:
            return {}
        with self._server.cursor() as cur:
            cur.execute("""SELECT c.text_hash, v.embedding::text FROM acervo.chunks c
                           JOIN acervo.chunk_vectors v USING (chunk_key)
                           JOIN acervo.documents d ON d.doc_key = c.doc_key
                           WHERE d.doc_id = %s""", (doc_id,))
            return {h: parse_vector(v) for h, v in cur.fetchall()}

    def iter_chunks(self, batch: int = 512) -> Iterator[ChunkRow]:
        """Every readable chunk in (doc_id, position) order, fetched `batch` rows at a time."""
        import psycopg

        conn = self._server.new_connection()  # its own: a long read never holds the lock
        try:
            with server_errors(self.library), conn.transaction(), \
                    conn.cursor(name="acervo_iter_chunks") as cur:
                cur.itersize = batch
                cur.execute(self._sql(f"SELECT {ROW_COLUMNS} FROM acervo.chunks c JOIN "
                                      "acervo.documents d ON d.doc_key = c.doc_key "
                                      "ORDER BY d.doc_id, c.position"))
                for row in cur:
                    yield self._row(row)
        except psycopg.OperationalError as exc:
            raise TeamLibraryError(f"The team library “{self.library}” is unreachable: "
                                   f"{first_line(exc)}") from exc
        finally:
            conn.close()

    def _sql(self, text: str) -> str:
        """A statement as this server's schema runs it."""
        return for_schema(text, marks=self._marks, impacts=self._impacts)

    def _search(self, sql: str, params: dict[str, Any]) -> list[Scored[ChunkRow]]:
        with self._server.cursor() as cur:
            cur.execute(self._sql(sql), params)
            rows = cur.fetchall()
        self._found_rows = self._found_rows or bool(rows)
        return [self._row(r).scored(float(r[18])) for r in rows]

    def search_notice(self) -> SearchWarning | None:
        """Once per session, when a search found nothing because this user may read no
        collection any more (a grant revoked): row-level security hides rows silently, so
        without this the searches just came back empty."""
        found, self._found_rows = self._found_rows, False
        if found or self._no_access_said:
            return None
        with self._server.cursor() as cur:
            cur.execute("SELECT cardinality(acervo.readable_collections())")
            readable = int(cur.fetchone()[0] or 0)
        if readable:
            return None
        self._no_access_said = True
        return SearchWarning(SearchWarningCode.LIBRARY_UNAVAILABLE,
                             f"you may no longer read any collection of the team library "
                             f"“{self.library}” (ask its administrator for a grant)",
                             self.library)

    def search_vector(self, vector: np.ndarray, k: int,
                      filters: SearchFilters | None) -> list[Scored[ChunkRow]]:
        if not self.vector_usable or k <= 0:
            return []
        where, params = filters_sql(filters)
        with self._server.cursor() as cur:
            cur.execute(self._sql(readable_chunks_sql(where)), params)
            readable = int(cur.fetchone()[0])
        sql = exact_vector_sql if readable <= EXACT_SCAN_MAX_CHUNKS else vector_sql
        return self._search(sql(where), {**params, "vector": vector_literal(vector), "k": k})

    def search_keyword(self, text: str, k: int,
                       filters: SearchFilters | None) -> list[Scored[ChunkRow]]:
        counts = Counter(keyword_terms(analyze(text)))
        if not counts or k <= 0:
            return []
        terms = sorted(counts)
        where, params = filters_sql(filters)
        ranking = self.keyword_ranking
        if ranking == "bm25" and not self._impacts:
            ranking = "bm25_exact"
        if ranking == "bm25_exact" and not self._postings:
            ranking = "bm25_tsvector"
        if ranking == "bm25":
            all_filtered = False
            if where != "TRUE":  # few chunks pass the filter: score them all, exactly
                with self._server.cursor() as cur:
                    cur.execute(self._sql(readable_chunks_sql(where)), params)
                    all_filtered = int(cur.fetchone()[0]) <= EXACT_SCAN_MAX_CHUNKS
            sql = bm25_top_sql(where, all_filtered=all_filtered)
        else:
            sql = {"bm25_exact": bm25_sql, "bm25_tsvector": bm25_tsvector_sql,
                   "ts_rank": ts_rank_sql}[ranking](where)
        return self._search(sql, {**params, "terms": terms, "counts": [counts[t] for t in terms],
                                  "tsquery": " | ".join(f"'{t}'" for t in terms), "k": k,
                                  "depth": self.keyword_depth,
                                  "rescore": max(self.keyword_rescore, k),
                                  "whole": self.keyword_whole})

    def stats(self) -> IndexStats:
        with self._server.cursor() as cur:
            cur.execute("SELECT count(*), coalesce(sum(chunk_count), 0) FROM acervo.documents")
            documents, chunks = cur.fetchone()
        return IndexStats(int(documents), int(chunks), 0, self.embedder_id, self.dim,
                          int(self.meta.get("schema_version", "0")), self.vector_usable,
                          self.location or self.library)

