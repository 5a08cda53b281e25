"""The SQL of a team library's search (PostgreSQL + pgvector) and the settings it runs with.

`PgIndex` (`pg_index.py`) runs these statements; each builder takes the documents
predicate of `filters_sql` and returns one statement over the `acervo` schema
(`pg_schema.py`). `for_schema` adapts a statement to an older server's schema.

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
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from desktop_app.retrieval.index_api import folder_filter
from desktop_app.retrieval.pg_schema import BM25_B, BM25_K1
from desktop_app.retrieval.types import SearchFilters

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

ROW_COLUMNS = """c.chunk_id, d.doc_id, c.position, c.text, c.prefix, d.title, d.source_path,
  d.folder, d.file_type, d.language, c.page_start, c.page_end, c.char_start, c.char_end,
  c.heading_path, d.ingested_at, d.modified_at, c.marks AS marks"""
# A schema 2 server has no `marks` column (read as null until `team init` adds it).
# `to_jsonb(c) ->> 'marks'` read it on any schema, but serialised the whole row (text and
# tsvector) for each hit: ~50 µs a row, measured, on every search.
_NO_MARKS = ("c.marks AS marks", "NULL::text AS marks")


def keyword_terms(analysed: str) -> list[str]:
    """The tokens of an analysed text as both backends count them (long tokens dropped)."""
    return [t for t in analysed.split() if len(t) <= MAX_TOKEN_CHARS]


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form; 9 significant digits round-trip a float32 exactly."""
    return "[" + ",".join(f"{x:.9g}" for x in np.asarray(vector, dtype=np.float32)) + "]"


def parse_vector(text: str) -> np.ndarray:
    return np.asarray(json.loads(text), dtype=np.float32)


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
SELECT {ROW_COLUMNS}, t.score
FROM scored t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
WHERE t.score >= coalesce((SELECT score FROM cut), '-infinity'::float8)
ORDER BY t.score DESC, d.doc_id, c.position
LIMIT %(k)s"""


def bm25_sql(where: str) -> str:
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


def bm25_top_sql(where: str, *, all_filtered: bool = False) -> str:
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


def bm25_tsvector_sql(where: str) -> str:
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
SELECT {ROW_COLUMNS}, t.score
FROM scored t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


def ts_rank_sql(where: str) -> str:
    return f"""
WITH scored AS (
  SELECT c.chunk_key, ts_rank(c.terms, %(tsquery)s::tsquery) AS score,
         split_part(c.chunk_id, ':', 1) AS doc_id, c.position
  FROM acervo.chunks c
  WHERE c.terms @@ %(tsquery)s::tsquery
    AND c.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))
  ORDER BY score DESC, doc_id, c.position
  LIMIT %(k)s)
SELECT {ROW_COLUMNS}, t.score
FROM scored t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


def exact_vector_sql(where: str) -> str:
    """The vector leg as an exact scan of the readable (and filtered) chunks: through the
    documents' chunk index, distances computed for each, no HNSW graph. A materialized CTE
    keeps the planner from ordering by the HNSW index again."""
    return f"""
WITH readable AS MATERIALIZED (
  SELECT c.chunk_key, -(v.embedding <#> %(vector)s::vector) AS score
  FROM acervo.chunks c JOIN acervo.chunk_vectors v USING (chunk_key)
  WHERE c.doc_key = ANY (ARRAY(SELECT d.doc_key FROM acervo.documents d WHERE {where}))),
top AS (SELECT chunk_key, score FROM readable ORDER BY score DESC LIMIT %(k)s)
SELECT {ROW_COLUMNS}, t.score
FROM top t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""


def readable_chunks_sql(where: str) -> str:
    return f"SELECT coalesce(sum(d.chunk_count), 0) FROM acervo.documents d WHERE {where}"


# Schema 4 keeps the same sums per collection (`collection_stats`, by triggers): the same
# numbers from a few rows instead of every readable document's (20,000 at 1M passages).
_SCHEMA4_STATS = (
    (_STATS_FROM_DOCUMENTS, """
  SELECT coalesce(sum(chunks), 0)::float8 AS n,
         coalesce(sum(tokens), 0)::float8 / greatest(coalesce(sum(chunks), 0), 1) AS avgdl
  FROM acervo.collection_stats"""),
    (readable_chunks_sql("TRUE"), "SELECT coalesce(sum(chunks), 0) FROM acervo.collection_stats"))


def vector_sql(where: str) -> str:
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
SELECT {ROW_COLUMNS}, t.score
FROM top t JOIN acervo.chunks c USING (chunk_key) JOIN acervo.documents d ON d.doc_key = c.doc_key
ORDER BY t.score DESC, d.doc_id, c.position"""



def for_schema(text: str, *, marks: bool, impacts: bool) -> str:
    """A statement as a server of this schema runs it: no `marks` column before schema 3,
    per-collection statistics from schema 4."""
    if not marks:
        text = text.replace(*_NO_MARKS)
    if impacts:
        for old, new in _SCHEMA4_STATS:
            text = text.replace(old, new)
    return text
