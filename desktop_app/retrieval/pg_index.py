"""A document index on a shared PostgreSQL + pgvector server (a team library).

The same contract as the local index (`index_api.DocumentIndex`): typed rows,
normalised scores, keyword analysis inside, filters from `SearchFilters`.

- Vector leg: HNSW over `vector(dim)` with inner product (the vectors are
  L2-normalised, so the score is the cosine, as in LanceDB's dot distance);
  iterative index scans keep `k` rows when row-level security or a filter
  removes candidates. When few chunks are readable (`EXACT_SCAN_MAX_CHUNKS`, after
  row-level security and filters) they are scanned exactly instead: the graph is
  shared with every other collection, and a walk past too many foreign rows gives up.
- Keyword leg: the app's own analysed column (`text.analyze.analyze`: folded, then
  stemmed — the one LanceDB indexes) as a `tsvector` under the `simple`
  configuration; its lexemes and frequencies are kept as postings (`chunk_terms`,
  written with the chunks) and the leg ranks with Okapi BM25 computed in SQL
  (k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + 0.5)/(df + 0.5)), a repeated query
  term counts twice — LanceDB's formula, so both backends rank alike). N, the
  average length and df are taken over the rows the user may read, so statistics
  never reveal hidden collections: df from per-collection counts (`term_df`).
  Candidates (schema 4): each query term's first readable postings in impact order
  (their BM25 term-frequency part, stored with the posting) — `KEYWORD_DEPTH` for the
  weightiest term, fewer for lighter ones, the whole list for the rarest — so a search
  reads a bounded number of postings whether a term is in ten passages or in half the
  library; the `KEYWORD_RESCORE` best by the postings read are then scored exactly
  from their tsvectors. A passage outside every term's top list (or ranked low by
  the postings read) is missed: bench/team_scale.py measures recall of the exact
  top 10. Few readable chunks after a filter are all scored, exactly.
  `keyword_ranking="bm25_exact"` scores every posting of the query's terms (schema
  2-3, slow for common terms in a large library: kept for comparison); schema 1
  servers, not yet upgraded by `team init`, are ranked by unnesting each match's
  tsvector (`"bm25_tsvector"`); `ts_rank` is available for comparison. Only the
  chunks whose score reaches the k-th best are joined to their rows.
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
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from desktop_app.errors import AppError, storage_error
from desktop_app.retrieval.index_api import (
    ChunkRow,
    DocumentRecord,
    IndexStats,
    Scored,
    chunk_text_hash,
    folder_filter,
    keyword_text,
    marks_json,
    parse_marks,
)
from desktop_app.retrieval.pg_schema import (
    BM25_B,
    BM25_K1,
    POSTINGS_SELECT,
    SCHEMA_VERSION,
    TEXT_TABLES,
)
from desktop_app.retrieval.search import SearchWarning, SearchWarningCode
from desktop_app.retrieval.types import SearchFilters
from desktop_app.text.analyze import analyze

if TYPE_CHECKING:
    from desktop_app.retrieval.types import Chunk

log = logging.getLogger(__name__)

MAX_TOKEN_CHARS = 40  # LanceDB's FTS drops longer tokens; so do we, on both sides
# "bm25": candidates from the top of each term's impact-ordered postings, scored exactly
# (schema 4); "bm25_exact": every posting of the query's terms (schema 2-3's way);
# "bm25_tsvector": the same BM25 from each match's tsvector at query time (schema 1's way,
# kept for schema 1 servers and for comparison); "ts_rank": PostgreSQL's own ranking
KEYWORD_RANKINGS = ("bm25", "bm25_exact", "bm25_tsvector", "ts_rank")
# Postings read for the query's weightiest term, best impact first (schema 4; a term of
# half its idf weight reads half as many), and how many of the passages they name (ranked
# by weight x impact of the postings read) are scored exactly. Reading postings is the
# cost (~1 µs each, under RLS); scoring 200 passages from their tsvectors ~5 ms.
KEYWORD_DEPTH = 2400
KEYWORD_RESCORE = 200  # at least k
# The rarest query terms' postings are read whole while they add up to at most this many:
# every passage holding a rare word of the question is a candidate. Recall of the exact
# top 10 against these settings: bench/team_scale.py (at 1M passages, 60 questions:
# 0.85 with ~11,600 postings read; the same postings flat, 1,600 a term: 0.77).
KEYWORD_WHOLE = 10_000
HNSW_EF_SEARCH = 200
# At most this many chunks readable (and passing the filters): the vector leg scans them
# exactly instead of walking the HNSW graph. The graph is shared by every collection on the
# server, and pgvector's iterative scan gives up after `hnsw.max_scan_tuples` (20,000)
# visited rows: a small collection beside a large one lost its vector results (team
# benchmark: vector nDCG 0.108 instead of 0.834 beside 60k rows; tests/team). Measured
# here: an exact scan costs ~2.3 µs per chunk (~23 ms at this bound), while the graph walk
# that skips 20,000 foreign rows took 178 ms — and still missed rows past its budget.
EXACT_SCAN_MAX_CHUNKS = 10_000

_ROW_COLUMNS = """c.chunk_id, d.doc_id, c.position, c.text, c.prefix, d.title, d.source_path,
  d.folder, d.file_type, d.language, c.page_start, c.page_end, c.char_start, c.char_end,
  c.heading_path, d.ingested_at, d.modified_at, c.marks AS marks"""
# A schema 2 server has no `marks` column (read as null until `team init` adds it).
# `to_jsonb(c) ->> 'marks'` read it on any schema, but serialised the whole row (text and
# tsvector) for each hit: ~50 µs a row, measured, on every search.
_NO_MARKS = ("c.marks AS marks", "NULL::text AS marks")
_DOC_COLUMNS = """d.doc_id, d.title, d.source_path, d.file_type, d.language, d.size,
  d.content_hash, d.page_count, d.chunk_count, d.ingested_at, d.modified_at, d.embedder_id,
  d.notes"""


class TeamLibraryError(AppError):
    """The team server is unreachable, not set up, or refused an operation."""


def server_place(library: str) -> str:
    return f"the server of the team library “{library}”"


@contextmanager
def server_errors(library: str) -> Iterator[None]:
    """The storage boundary of a team library: the server's storage failures (a full disk,
    SQLSTATE 53100) become the app's `StorageError` with its one sentence, as LanceDB's and
    SQLite's do (`errors.storage_error`); anything else passes unchanged."""
    import psycopg

    try:
        yield
    except psycopg.Error as exc:
        mapped = storage_error(exc, server_place(library))
        if mapped is None:
            raise
        raise mapped from exc


def keyword_terms(analysed: str) -> list[str]:
    """The tokens of an analysed text as both backends count them (long tokens dropped)."""
    return [t for t in analysed.split() if len(t) <= MAX_TOKEN_CHARS]


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form; 9 significant digits round-trip a float32 exactly."""
    return "[" + ",".join(f"{x:.9g}" for x in np.asarray(vector, dtype=np.float32)) + "]"


def parse_vector(text: str) -> np.ndarray:
    return np.asarray(json.loads(text), dtype=np.float32)


def team_doc_id(collection_id: int, content_hash: str) -> str:
    """The same file in the same collection has the same id on every analyst's machine."""
    return hashlib.sha256(f"{collection_id}\0{content_hash}".encode()).hexdigest()[:16]


def filters_sql(filters: SearchFilters | None) -> tuple[str, dict[str, Any]]:
    """A predicate over `acervo.documents d` and its parameters ("TRUE" when unfiltered)."""
    if filters is None:
        return "TRUE", {}
    parts: list[str] = []
    params: dict[str, Any] = {}
    if filters.file_types:
        parts.append("d.file_type = ANY(%(f_types)s)")
        params["f_types"] = list(filters.file_types)
    if filters.since:
        parts.append("d.ingested_at >= %(f_since)s")
        params["f_since"] = filters.since
    if filters.until:
        parts.append("d.ingested_at < %(f_until)s")
        params["f_until"] = filters.until
    if filters.modified_since:
        parts.append("d.modified_at >= %(f_modified)s")
        params["f_modified"] = filters.modified_since
    if filters.folder:
        folder, prefix = folder_filter(filters.folder)
        parts.append("(d.folder = %(f_folder)s OR starts_with(d.folder, %(f_prefix)s))")
        params.update(f_folder=folder, f_prefix=prefix)
    if filters.language:
        parts.append("d.language = %(f_lang)s")
        params["f_lang"] = filters.language
    if filters.doc_ids:
        parts.append("d.doc_id = ANY(%(f_docs)s)")
        params["f_docs"] = list(filters.doc_ids)
    return " AND ".join(parts) or "TRUE", params


# The BM25 statements share the query terms, the collection statistics and the idf: one
# text for each, so the rankings cannot drift.
_STATS_FROM_DOCUMENTS = """
  SELECT coalesce(sum(chunk_count), 0)::float8 AS n,
         coalesce(sum(token_count), 0)::float8 / greatest(coalesce(sum(chunk_count), 0), 1)
           AS avgdl
  FROM acervo.documents"""
_BM25_QUERY_STATS = f"""
WITH q AS (SELECT * FROM unnest(%(terms)s::text[], %(counts)s::int[]) AS q(term, repeats)),
stats AS ({_STATS_FROM_DOCUMENTS}),
"""
_BM25_IDF = """idf AS (
  SELECT h.term,
         q.repeats * ln(1 + (s.n - count(*) + 0.5) / (count(*) + 0.5)) AS weight
  FROM hits h JOIN q USING (term) CROSS JOIN stats s
  GROUP BY h.term, q.repeats, s.n),
"""


_BM25_TOP_ROWS = f"""cut AS (SELECT score FROM scored ORDER BY score DESC
             OFFSET greatest(%(k)s - 1, 0) LIMIT 1)
SELECT {_ROW_COLUMNS}, t.score
FROM scored t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
WHERE t.score >= coalesce((SELECT score FROM cut), '-infinity'::float8)
ORDER BY t.score DESC, d.doc_id, c.position
LIMIT %(k)s"""


def _bm25_sql(where: str) -> str:
    """One statement: the query terms' postings (an index-only scan under RLS), BM25 over the
    readable rows, and only the chunks scoring at least the k-th best joined to their rows
    (ties at the cut all come along, so the order below is the full tie-break). A chunk's
    term contributions are summed in term order: equal texts get bit-equal scores, and the
    order of equal scores is the documented tie-break, never the plan's."""
    # unfiltered, every posting the user may read counts (RLS already applied to them)
    doc_filter = "" if where == "TRUE" else (
        f"WHERE h.doc_key IN (SELECT d.doc_key FROM acervo.documents d WHERE {where})")
    return _BM25_QUERY_STATS + f"""
hits AS MATERIALIZED (
  SELECT t.chunk_key, t.doc_key, t.term, t.tf, t.dl
  FROM acervo.chunk_terms t
  WHERE t.term = ANY (%(terms)s::text[])),
{_BM25_IDF}scored AS MATERIALIZED (
  SELECT h.chunk_key,
         sum(i.weight * h.tf * {BM25_K1 + 1}
             / (h.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * h.dl / s.avgdl))
             ORDER BY h.term) AS score
  FROM hits h JOIN idf i USING (term) CROSS JOIN stats s
  {doc_filter}
  GROUP BY h.chunk_key),
{_BM25_TOP_ROWS}"""


# A passage's BM25 from its own tsvector: the query's lexemes with their frequencies (the
# postings' tf and dl, the same summation order by term: bit-equal to the postings' score)
_TSVECTOR_SCORE = f"""sum(i.weight * u.tf * {BM25_K1 + 1}
             / (u.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * c.token_count / s.avgdl))
             ORDER BY u.term)"""
_TSVECTOR_TERMS = """CROSS JOIN LATERAL (
    SELECT x.lexeme AS term, array_length(x.positions, 1) AS tf
    FROM unnest(ts_filter(setweight(c.terms, 'A', %(terms)s::text[]), '{a}')) AS x) u"""


def _bm25_top_sql(where: str, *, all_filtered: bool = False) -> str:
    """Schema 4: the query terms' df from `term_df` (RLS: readable collections only), each
    term's first `depth` readable postings in impact order (index-only, LIMIT inside a
    LATERAL: RLS and the filter are applied before the limit counts), their passages ranked
    by the BM25 of the postings read (a lower bound: a passage may hold a term whose top list
    it missed), and the best `rescore` of them scored exactly from their tsvectors.
    `all_filtered`: no postings; every chunk of the filtered documents is scored (few of
    them: `EXACT_SCAN_MAX_CHUNKS`)."""
    if all_filtered:
        candidates = f"""cand AS MATERIALIZED (
  SELECT c.chunk_key FROM acervo.chunks c
  WHERE c.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))),"""
    else:
        doc_filter = "" if where == "TRUE" else (
            "AND EXISTS (SELECT 1 FROM acervo.documents d WHERE d.doc_key = t.doc_key "
            f"AND {where})")
        # the rarest terms' lists whole while their postings add up to `whole` (LIMIT NULL:
        # no limit), the others' first `depth` x their weight / the query's top weight;
        # candidates ranked by weight x impact
        candidates = f"""cand AS MATERIALIZED (
  SELECT p.chunk_key FROM idf i CROSS JOIN LATERAL (
    SELECT t.chunk_key, t.impact FROM acervo.chunk_terms t
    WHERE t.term = i.term {doc_filter}
    ORDER BY t.impact DESC
    LIMIT CASE WHEN i.rarer <= %(whole)s THEN NULL
               ELSE ceil(%(depth)s * i.weight / i.top)::int END) p
  GROUP BY p.chunk_key
  ORDER BY sum(i.weight * p.impact) DESC
  LIMIT %(rescore)s),"""
    return _BM25_QUERY_STATS + f"""
idf AS MATERIALIZED (
  SELECT w.*, sum(w.df) OVER (ORDER BY w.df, w.term) AS rarer, max(w.weight) OVER () AS top
  FROM (SELECT f.term, f.df, q.repeats * ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) AS weight
        FROM (SELECT t.term, sum(t.df) AS df FROM acervo.term_df t
              WHERE t.term = ANY (%(terms)s::text[]) GROUP BY t.term) f
        JOIN q USING (term) CROSS JOIN stats s) w),
{candidates}
scored AS MATERIALIZED (
  SELECT c.chunk_key, {_TSVECTOR_SCORE} AS score
  FROM cand JOIN acervo.chunks c USING (chunk_key)
  {_TSVECTOR_TERMS}
  JOIN idf i USING (term) CROSS JOIN stats s
  GROUP BY c.chunk_key),
{_BM25_TOP_ROWS}"""


def _bm25_tsvector_sql(where: str) -> str:
    """Schema 1 (no postings): match through GIN, tf from the tsvector positions."""
    return _BM25_QUERY_STATS + f"""
hits AS MATERIALIZED (
  SELECT c.chunk_key, c.doc_key, c.chunk_id, c.position, c.token_count AS dl,
         u.lexeme AS term, array_length(u.positions, 1) AS tf
  FROM acervo.chunks c,
       unnest(ts_filter(setweight(c.terms, 'A', %(terms)s::text[]), '{{a}}')) AS u
  WHERE c.terms @@ %(tsquery)s::tsquery),
{_BM25_IDF}scored AS (
  SELECT h.chunk_key, h.doc_key, h.chunk_id, h.position,
         sum(i.weight * h.tf * {BM25_K1 + 1}
             / (h.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * h.dl / s.avgdl))) AS score
  FROM hits h JOIN idf i USING (term) CROSS JOIN stats s
  WHERE h.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))
  GROUP BY h.chunk_key, h.doc_key, h.chunk_id, h.position
  ORDER BY score DESC, split_part(h.chunk_id, ':', 1), h.position
  LIMIT %(k)s)
SELECT {_ROW_COLUMNS}, t.score
FROM scored t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


def _ts_rank_sql(where: str) -> str:
    return f"""
WITH scored AS (
  SELECT c.chunk_key, ts_rank(c.terms, %(tsquery)s::tsquery) AS score,
         split_part(c.chunk_id, ':', 1) AS doc_id, c.position
  FROM acervo.chunks c
  WHERE c.terms @@ %(tsquery)s::tsquery
    AND c.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))
  ORDER BY score DESC, doc_id, c.position
  LIMIT %(k)s)
SELECT {_ROW_COLUMNS}, t.score
FROM scored t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


def _exact_vector_sql(where: str) -> str:
    """The vector leg as an exact scan of the readable (and filtered) chunks: through the
    documents' chunk index, distances computed for each, no HNSW graph. A materialized CTE
    keeps the planner from ordering by the HNSW index again."""
    return f"""
WITH readable AS MATERIALIZED (
  SELECT c.chunk_key, -(v.embedding <#> %(vector)s::vector) AS score
  FROM acervo.chunks c JOIN acervo.chunk_vectors v USING (chunk_key)
  WHERE c.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))),
top AS (SELECT chunk_key, score FROM readable ORDER BY score DESC LIMIT %(k)s)
SELECT {_ROW_COLUMNS}, t.score
FROM top t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


def _readable_chunks_sql(where: str) -> str:
    return f"SELECT coalesce(sum(d.chunk_count), 0) FROM acervo.documents d WHERE {where}"


# Schema 4 keeps the same sums per collection (`collection_stats`, by triggers): the same
# numbers from a few rows instead of every readable document's (20,000 at 1M passages).
_SCHEMA4_STATS = (
    (_STATS_FROM_DOCUMENTS, """
  SELECT coalesce(sum(chunks), 0)::float8 AS n,
         coalesce(sum(tokens), 0)::float8 / greatest(coalesce(sum(chunks), 0), 1) AS avgdl
  FROM acervo.collection_stats"""),
    (_readable_chunks_sql("TRUE"), "SELECT coalesce(sum(chunks), 0) FROM acervo.collection_stats"))


def _vector_sql(where: str) -> str:
    # Without a filter the HNSW scan is ordered by distance directly; with one, the
    # documents predicate is applied during the iterative scan.
    doc_filter = "" if where == "TRUE" else (
        f"WHERE v.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))")
    return f"""
WITH top AS (
  SELECT v.chunk_key, -(v.embedding <#> %(vector)s::vector) AS score
  FROM acervo.chunk_vectors v {doc_filter}
  ORDER BY v.embedding <#> %(vector)s::vector
  LIMIT %(k)s)
SELECT {_ROW_COLUMNS}, t.score
FROM top t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


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
        self._connect = connect
        self.library = library
        self.current_embedder_id = current_embedder_id
        self.collection = collection
        self.read_only = read_only
        self.keyword_ranking = keyword_ranking
        self.keyword_depth = keyword_depth
        self.keyword_rescore = keyword_rescore
        self.keyword_whole = keyword_whole
        self.location = location
        self._lock = threading.RLock()
        self._conn: Any = None
        self._write_collection: int | None = None
        self._purge_pending = False
        self._notices: list[str] = []
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
    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        """A cursor on a live connection; a broken connection is replaced once."""
        import psycopg

        with self._lock:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._conn = self._open()
            try:
                with server_errors(self.library), self._conn.cursor() as cur:
                    yield cur
            except psycopg.OperationalError as exc:
                if self._conn.broken or self._conn.closed:
                    self._conn = None
                    raise TeamLibraryError(
                        f"The team library “{self.library}” is unreachable: {_first_line(exc)}"
                    ) from exc
                raise

    def _new_connection(self) -> Any:
        """A new connection; a refusal is the user's sentence: a full server disk (which can
        refuse the connection itself) as the storage error, anything else as unreachable."""
        import psycopg

        try:
            with server_errors(self.library):
                return self._connect()
        except psycopg.OperationalError as exc:
            raise TeamLibraryError(
                f"Cannot connect to the team library “{self.library}”: {_first_line(exc)}"
            ) from exc

    def _open(self) -> Any:
        conn = self._new_connection()
        conn.autocommit = True
        conn.add_notice_handler(lambda diag: self._notices.append(diag.message_primary or ""))
        with conn.cursor() as cur:
            cur.execute("SET hnsw.iterative_scan = strict_order")
            cur.execute(f"SET hnsw.ef_search = {HNSW_EF_SEARCH}")
        return conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _read_meta(self) -> dict[str, str]:
        import psycopg

        try:
            with self._cursor() as cur:
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
        with self._cursor() as cur:
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
        with self._cursor() as cur, cur.connection.transaction():
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
        with self._cursor() as cur, cur.connection.transaction():
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
        with self._cursor() as cur:
            cur.execute("SET lock_timeout = '60s'")
            self._notices.clear()
            try:
                for table in TEXT_TABLES:
                    cur.execute(f"VACUUM (FULL, ANALYZE) acervo.{table}")
                cur.execute("VACUUM (ANALYZE) acervo.chunk_vectors")
                # without the privilege VACUUM only warns ("permission denied … skipping")
                done = not any("skipping" in n for n in self._notices)
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
        with self._cursor() as cur:
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
        with self._cursor() as cur:
            cur.execute(self._sql(f"SELECT {_ROW_COLUMNS} FROM acervo.chunks c JOIN "
                                  "acervo.documents d ON d.doc_key = c.doc_key "
                                  "WHERE c.chunk_id = %s"), (chunk_id,))
            row = cur.fetchone()
        return self._row(row) if row else None

    def document_chunks(self, doc_id: str) -> list[ChunkRow]:
        """A document's stored chunks in order (the text shown when the file is not reachable)."""
        with self._cursor() as cur:
            cur.execute(self._sql(f"SELECT {_ROW_COLUMNS} FROM acervo.chunks c JOIN "
                                  "acervo.documents d ON d.doc_key = c.doc_key "
                                  "WHERE d.doc_id = %s ORDER BY c.position"), (doc_id,))
            return [self._row(r) for r in cur.fetchall()]

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        if not self.vector_usable:
            return {}
        with self._cursor() as cur:
            cur.execute("""SELECT c.text_hash, v.embedding::text FROM acervo.chunks c
                           JOIN acervo.chunk_vectors v USING (chunk_key)
                           JOIN acervo.documents d ON d.doc_key = c.doc_key
                           WHERE d.doc_id = %s""", (doc_id,))
            return {h: parse_vector(v) for h, v in cur.fetchall()}

    def iter_chunks(self, batch: int = 512) -> Iterator[ChunkRow]:
        """Every readable chunk in (doc_id, position) order, fetched `batch` rows at a time."""
        import psycopg

        conn = self._new_connection()  # its own: a long read never holds the lock
        try:
            with server_errors(self.library), conn.transaction(), \
                    conn.cursor(name="acervo_iter_chunks") as cur:
                cur.itersize = batch
                cur.execute(self._sql(f"SELECT {_ROW_COLUMNS} FROM acervo.chunks c JOIN "
                                      "acervo.documents d ON d.doc_key = c.doc_key "
                                      "ORDER BY d.doc_id, c.position"))
                for row in cur:
                    yield self._row(row)
        except psycopg.OperationalError as exc:
            raise TeamLibraryError(f"The team library “{self.library}” is unreachable: "
                                   f"{_first_line(exc)}") from exc
        finally:
            conn.close()

    def _sql(self, text: str) -> str:
        """A statement as this server's schema runs it."""
        if not self._marks:
            text = text.replace(*_NO_MARKS)
        if self._impacts:
            for old, new in _SCHEMA4_STATS:
                text = text.replace(old, new)
        return text

    def _search(self, sql: str, params: dict[str, Any]) -> list[Scored[ChunkRow]]:
        with self._cursor() as cur:
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
        with self._cursor() as cur:
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
        with self._cursor() as cur:
            cur.execute(self._sql(_readable_chunks_sql(where)), params)
            readable = int(cur.fetchone()[0])
        sql = _exact_vector_sql if readable <= EXACT_SCAN_MAX_CHUNKS else _vector_sql
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
                with self._cursor() as cur:
                    cur.execute(self._sql(_readable_chunks_sql(where)), params)
                    all_filtered = int(cur.fetchone()[0]) <= EXACT_SCAN_MAX_CHUNKS
            sql = _bm25_top_sql(where, all_filtered=all_filtered)
        else:
            sql = {"bm25_exact": _bm25_sql, "bm25_tsvector": _bm25_tsvector_sql,
                   "ts_rank": _ts_rank_sql}[ranking](where)
        return self._search(sql, {**params, "terms": terms, "counts": [counts[t] for t in terms],
                                  "tsquery": " | ".join(f"'{t}'" for t in terms), "k": k,
                                  "depth": self.keyword_depth,
                                  "rescore": max(self.keyword_rescore, k),
                                  "whole": self.keyword_whole})

    def stats(self) -> IndexStats:
        with self._cursor() as cur:
            cur.execute("SELECT count(*), coalesce(sum(chunk_count), 0) FROM acervo.documents")
            documents, chunks = cur.fetchone()
        return IndexStats(int(documents), int(chunks), 0, self.embedder_id, self.dim,
                          int(self.meta.get("schema_version", "0")), self.vector_usable,
                          self.location or self.library)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
