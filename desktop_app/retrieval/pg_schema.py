"""The team library's schema on PostgreSQL + pgvector, with access control in the server.

Tables (schema `acervo`): `meta` (schema version, embedder id, dimension),
`collections`, `grants` (collection → role, read or write), `documents`,
`chunks` (text, the app's analysed keyword column and its `tsvector` under the
`simple` configuration with a GIN index), `chunk_terms` (the keyword leg's postings:
one row per chunk and lexeme of that tsvector with its term frequency, the chunk's
length and (schema 4) its impact, under a covering B-tree on (term, impact)),
`term_df` and `collection_stats` (schema 4: per collection, how many passages hold
each term, and the passages and tokens; kept by triggers), `chunk_vectors`
(vector(dim) with an HNSW index) and `audit` (who added or removed what, written by a
trigger).

Why impacts and per-collection counts (schema 4): BM25 from every posting of the query's
terms read hundreds of thousands of rows for a common term at 1M passages (26 s a search
under 16 analysts, bench/team_scale.py). A term's postings in impact order let a search
read only the top of each list; its document frequency and the collection sizes come
from a few rows of counts, summed over the collections the user may read (RLS on those
tables too), so the statistics still never reveal hidden collections.

Why postings beside the GIN index (schema 2): under row-level security PostgreSQL may
use an index only for leakproof operators, and tsvector's `@@` is not one, so an
analyst's keyword query read every chunk (a sequential scan, measured); and BM25 needs
each match's term frequencies, which the tsvector gives only after unnesting it row by
row. `term = ANY(…)` on text is leakproof: the B-tree answers it with an index-only
scan of (term, chunk, tf, length), RLS checked on the covering `collection_id`.

Access control lives in PostgreSQL: every user is a login role in the group
`acervo_user`, which holds the table privileges; row-level security limits each
table to the collections granted to the session's role (a user without a grant
sees no rows: never an error, never a name). Writes are checked against write
grants by the same policies. `collection_id` is repeated on every row so a
policy never needs a join; composite foreign keys keep it consistent.

The text-bearing tables (documents, chunks, audit) are the ones `VACUUM FULL` rewrites
on purge: a plain VACUUM leaves deleted bytes in the data files (measured), the
rewrite does not. Vectors live in their own table so a purge does not rebuild
the HNSW graph.
"""

from __future__ import annotations

from typing import Any

# 2: chunk_terms (keyword postings); 3: chunks.marks (revoked, path); 4: postings ordered by
# impact, per-collection document frequencies and sizes (term_df, collection_stats); 5: the
# keyword column analysed by text.analyze.ANALYZER_VERSION 2 (team.admin.reanalyse_keyword_terms);
# 6: and by ANALYZER_VERSION 3; 7: by ANALYZER_VERSION 4
SCHEMA_VERSION = 7
GROUP_ROLE = "acervo_user"
# Tables a member can read; RLS decides which rows.
READ_TABLES = ("meta", "collections", "grants", "documents", "chunks", "chunk_terms",
               "term_df", "collection_stats", "chunk_vectors", "audit")
WRITE_TABLES = ("documents", "chunks", "chunk_terms", "chunk_vectors")
# Rewritten by a purge (they hold text, chunk_terms and term_df its stemmed words);
# chunk_vectors only gets a plain VACUUM.
TEXT_TABLES = ("documents", "chunks", "chunk_terms", "term_df", "audit")
# Okapi BM25 (LanceDB's constants: both backends rank alike)
BM25_K1 = 1.2
BM25_B = 0.75
# A posting's impact orders a term's postings (schema 4): its BM25 term-frequency part with a
# fixed reference passage length in place of the library's average (which differs per user
# under RLS and moves as documents come and go), x 10,000 as a smallint (at most 2.2 x
# 10,000). Only the order of candidates comes from it: their scores are computed exactly.
# 80 analysed tokens: about the average of the app's 1,000-character passages.
IMPACT_REFERENCE_DL = 80
IMPACT_SQL = (f"round(10000 * tf * {BM25_K1 + 1} / (tf + {BM25_K1} * (1 - {BM25_B} + "
              f"{BM25_B} * dl::float8 / {IMPACT_REFERENCE_DL})))::smallint")
# term_df and collection_stats counted whole (schema 4's upgrade; a bulk load that bypassed
# the triggers)
STATS_REBUILD = """DELETE FROM acervo.term_df;
INSERT INTO acervo.term_df (term, collection_id, df)
  SELECT term, collection_id, count(*) FROM acervo.chunk_terms GROUP BY term, collection_id;
DELETE FROM acervo.collection_stats;
INSERT INTO acervo.collection_stats (collection_id, chunks, tokens)
  SELECT collection_id, sum(chunk_count), sum(token_count) FROM acervo.documents
  GROUP BY collection_id"""
# A chunk's postings, from its tsvector: the same lexemes and frequencies the keyword
# leg counted when it unnested the tsvector of each match at query time (schema 1).
POSTINGS_SELECT = """SELECT u.lexeme, c.chunk_key, c.collection_id, c.doc_key,
         array_length(u.positions, 1), c.token_count
  FROM acervo.chunks c, unnest(c.terms) AS u"""


def schema_sql(dim: int) -> str:
    """The whole schema, idempotent (IF NOT EXISTS); run by the server's owner."""
    if not 1 <= dim <= 16000:
        raise ValueError(f"vector dimension out of range: {dim}")
    return f"""
CREATE EXTENSION IF NOT EXISTS vector;
CREATE SCHEMA IF NOT EXISTS acervo;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{GROUP_ROLE}') THEN
    CREATE ROLE {GROUP_ROLE} NOLOGIN;
  END IF;
END $$;

CREATE TABLE IF NOT EXISTS acervo.meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE IF NOT EXISTS acervo.collections (
  collection_id serial PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (name <> ''),
  created_at timestamptz NOT NULL DEFAULT now());

CREATE TABLE IF NOT EXISTS acervo.grants (
  collection_id int NOT NULL REFERENCES acervo.collections ON DELETE CASCADE,
  grantee name NOT NULL,
  can_write boolean NOT NULL DEFAULT false,
  PRIMARY KEY (collection_id, grantee));

CREATE TABLE IF NOT EXISTS acervo.documents (
  doc_key bigserial PRIMARY KEY,
  doc_id text NOT NULL UNIQUE,
  collection_id int NOT NULL REFERENCES acervo.collections,
  title text NOT NULL,
  source_path text NOT NULL,
  folder text NOT NULL,
  file_type text NOT NULL,
  language text NOT NULL,
  size bigint NOT NULL,
  content_hash text NOT NULL,
  page_count int NOT NULL,
  chunk_count int NOT NULL,
  token_count bigint NOT NULL,
  ingested_at text NOT NULL,
  modified_at text NOT NULL,
  embedder_id text NOT NULL,
  notes jsonb NOT NULL DEFAULT '[]',
  added_by name NOT NULL DEFAULT session_user,
  UNIQUE (collection_id, content_hash),
  UNIQUE (doc_key, collection_id));

CREATE TABLE IF NOT EXISTS acervo.chunks (
  chunk_key bigserial PRIMARY KEY,
  chunk_id text NOT NULL UNIQUE,
  doc_key bigint NOT NULL,
  collection_id int NOT NULL,
  position int NOT NULL,
  text text NOT NULL,
  prefix text NOT NULL,
  search_text text NOT NULL,
  text_hash text NOT NULL,
  page_start int NOT NULL,
  page_end int NOT NULL,
  char_start int NOT NULL,
  char_end int NOT NULL,
  heading_path text[] NOT NULL DEFAULT '{{}}',
  token_count int NOT NULL,
  marks text,
  terms tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
  UNIQUE (chunk_key, collection_id),
  FOREIGN KEY (doc_key, collection_id) REFERENCES acervo.documents (doc_key, collection_id)
    ON DELETE CASCADE);
-- keep the tsvector in the row (the keyword leg reads it for every match); text goes to TOAST
ALTER TABLE acervo.chunks ALTER COLUMN terms SET STORAGE MAIN;
CREATE INDEX IF NOT EXISTS chunks_doc ON acervo.chunks (doc_key, position);
CREATE INDEX IF NOT EXISTS chunks_terms ON acervo.chunks USING gin (terms);

CREATE TABLE IF NOT EXISTS acervo.chunk_terms (
  term text NOT NULL,
  chunk_key bigint NOT NULL,
  collection_id int NOT NULL,
  doc_key bigint NOT NULL,
  tf int NOT NULL,
  dl int NOT NULL,
  FOREIGN KEY (chunk_key, collection_id) REFERENCES acervo.chunks (chunk_key, collection_id)
    ON DELETE CASCADE);
-- schema 4: a term's postings in impact order (a search reads only the top of each list);
-- on a schema 2-3 server adding the column rewrites the table once (the old term index is
-- dropped first, so the rewrite does not rebuild it)
DROP INDEX IF EXISTS acervo.chunk_terms_term;
ALTER TABLE acervo.chunk_terms ADD COLUMN IF NOT EXISTS impact smallint
  GENERATED ALWAYS AS ({IMPACT_SQL}) STORED;
CREATE INDEX IF NOT EXISTS chunk_terms_impact ON acervo.chunk_terms
  (term, impact DESC, chunk_key) INCLUDE (collection_id, doc_key, tf, dl);
CREATE INDEX IF NOT EXISTS chunk_terms_chunk ON acervo.chunk_terms (chunk_key);

-- How many readable passages hold each term, per collection: idf without counting postings
-- (a common term has hundreds of thousands). Kept by the postings' triggers below.
CREATE TABLE IF NOT EXISTS acervo.term_df (
  term text NOT NULL,
  collection_id int NOT NULL REFERENCES acervo.collections ON DELETE CASCADE,
  df int NOT NULL,
  PRIMARY KEY (term, collection_id));

-- SECURITY DEFINER: members never write term_df themselves (their postings are checked by
-- the RLS policies of chunk_terms). Rows are locked in term order (one statement per
-- document added or removed): two writers of one collection never deadlock on them.
CREATE OR REPLACE FUNCTION acervo.count_terms() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, acervo AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO acervo.term_df AS t (term, collection_id, df)
    SELECT term, collection_id, count(*) FROM added_terms
    GROUP BY term, collection_id ORDER BY term, collection_id
    ON CONFLICT (term, collection_id) DO UPDATE SET df = t.df + excluded.df;
  ELSE
    INSERT INTO acervo.term_df AS t (term, collection_id, df)
    SELECT term, collection_id, -count(*) FROM removed_terms
    GROUP BY term, collection_id ORDER BY term, collection_id
    ON CONFLICT (term, collection_id) DO UPDATE SET df = t.df + excluded.df;
    DELETE FROM acervo.term_df t USING (SELECT DISTINCT term, collection_id
                                         FROM removed_terms) r
    WHERE t.term = r.term AND t.collection_id = r.collection_id AND t.df <= 0;
  END IF;
  RETURN NULL;
END $$;
-- Passages and their analysed tokens per collection: N and the average length of BM25, and
-- the vector leg's count of readable chunks, without summing every document's row. Kept by
-- the documents' triggers (the same statement-level way as term_df).
CREATE TABLE IF NOT EXISTS acervo.collection_stats (
  collection_id int PRIMARY KEY REFERENCES acervo.collections ON DELETE CASCADE,
  chunks bigint NOT NULL,
  tokens bigint NOT NULL);
CREATE OR REPLACE FUNCTION acervo.count_documents() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, acervo AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO acervo.collection_stats AS t (collection_id, chunks, tokens)
    SELECT collection_id, sum(chunk_count), sum(token_count) FROM added_documents
    GROUP BY collection_id ORDER BY collection_id
    ON CONFLICT (collection_id) DO UPDATE
      SET chunks = t.chunks + excluded.chunks, tokens = t.tokens + excluded.tokens;
  ELSE
    INSERT INTO acervo.collection_stats AS t (collection_id, chunks, tokens)
    SELECT collection_id, -sum(chunk_count), -sum(token_count) FROM removed_documents
    GROUP BY collection_id ORDER BY collection_id
    ON CONFLICT (collection_id) DO UPDATE
      SET chunks = t.chunks + excluded.chunks, tokens = t.tokens + excluded.tokens;
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS documents_added ON acervo.documents;
CREATE TRIGGER documents_added AFTER INSERT ON acervo.documents
  REFERENCING NEW TABLE AS added_documents FOR EACH STATEMENT
  EXECUTE FUNCTION acervo.count_documents();
DROP TRIGGER IF EXISTS documents_removed ON acervo.documents;
CREATE TRIGGER documents_removed AFTER DELETE ON acervo.documents
  REFERENCING OLD TABLE AS removed_documents FOR EACH STATEMENT
  EXECUTE FUNCTION acervo.count_documents();
DROP TRIGGER IF EXISTS chunk_terms_added ON acervo.chunk_terms;
CREATE TRIGGER chunk_terms_added AFTER INSERT ON acervo.chunk_terms
  REFERENCING NEW TABLE AS added_terms FOR EACH STATEMENT EXECUTE FUNCTION acervo.count_terms();
DROP TRIGGER IF EXISTS chunk_terms_removed ON acervo.chunk_terms;
CREATE TRIGGER chunk_terms_removed AFTER DELETE ON acervo.chunk_terms
  REFERENCING OLD TABLE AS removed_terms FOR EACH STATEMENT
  EXECUTE FUNCTION acervo.count_terms();

CREATE TABLE IF NOT EXISTS acervo.chunk_vectors (
  chunk_key bigint PRIMARY KEY,
  collection_id int NOT NULL,
  doc_key bigint NOT NULL,
  embedding vector({dim}) NOT NULL,
  FOREIGN KEY (chunk_key, collection_id) REFERENCES acervo.chunks (chunk_key, collection_id)
    ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS chunk_vectors_hnsw ON acervo.chunk_vectors
  USING hnsw (embedding vector_ip_ops);

CREATE TABLE IF NOT EXISTS acervo.audit (
  audit_id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor name NOT NULL,
  action text NOT NULL CHECK (action IN ('add', 'remove')),
  collection_id int NOT NULL,
  collection text NOT NULL,
  doc_id text NOT NULL,
  title text NOT NULL,
  content_hash text NOT NULL);
CREATE INDEX IF NOT EXISTS audit_doc ON acervo.audit (doc_id);

-- What the session's role may read / write: SECURITY DEFINER so a member need not read
-- everyone's grants; `session_user` is the login role (SET ROLE does not widen the view).
CREATE OR REPLACE FUNCTION acervo.readable_collections() RETURNS int[]
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, acervo AS $$
  SELECT coalesce(array_agg(DISTINCT g.collection_id), '{{}}')
  FROM acervo.grants g JOIN pg_roles r ON r.rolname = g.grantee
  WHERE pg_has_role(session_user, r.oid, 'MEMBER') $$;
CREATE OR REPLACE FUNCTION acervo.writable_collections() RETURNS int[]
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, acervo AS $$
  SELECT coalesce(array_agg(DISTINCT g.collection_id), '{{}}')
  FROM acervo.grants g JOIN pg_roles r ON r.rolname = g.grantee
  WHERE g.can_write AND pg_has_role(session_user, r.oid, 'MEMBER') $$;

CREATE OR REPLACE FUNCTION acervo.audit_documents() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, acervo AS $$
DECLARE
  d acervo.documents;
BEGIN
  IF TG_OP = 'INSERT' THEN d := NEW; ELSE d := OLD; END IF;
  -- a removed document's title is erased from the trail too (it can hold personal data);
  -- who added and removed which content, and when, stays
  IF TG_OP = 'DELETE' THEN
    UPDATE acervo.audit SET title = '' WHERE doc_id = d.doc_id;
  END IF;
  INSERT INTO acervo.audit (actor, action, collection_id, collection, doc_id, title, content_hash)
  SELECT session_user, CASE TG_OP WHEN 'INSERT' THEN 'add' ELSE 'remove' END,
         d.collection_id, coalesce(c.name, ''), d.doc_id,
         CASE TG_OP WHEN 'INSERT' THEN d.title ELSE '' END, d.content_hash
  FROM (SELECT 1) one LEFT JOIN acervo.collections c ON c.collection_id = d.collection_id;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS documents_audit ON acervo.documents;
CREATE TRIGGER documents_audit AFTER INSERT OR DELETE ON acervo.documents
  FOR EACH ROW EXECUTE FUNCTION acervo.audit_documents();

{_policies_sql()}

GRANT USAGE ON SCHEMA acervo TO {GROUP_ROLE};
GRANT SELECT ON {", ".join("acervo." + t for t in READ_TABLES)} TO {GROUP_ROLE};
GRANT INSERT, DELETE ON {", ".join("acervo." + t for t in WRITE_TABLES)} TO {GROUP_ROLE};
GRANT USAGE ON SEQUENCE acervo.documents_doc_key_seq, acervo.chunks_chunk_key_seq TO {GROUP_ROLE};
REVOKE ALL ON FUNCTION acervo.audit_documents() FROM PUBLIC;
REVOKE ALL ON FUNCTION acervo.count_terms() FROM PUBLIC;
REVOKE ALL ON FUNCTION acervo.count_documents() FROM PUBLIC;
"""


def _policies_sql() -> str:
    readable = "collection_id = ANY ((SELECT acervo.readable_collections())::int[])"
    writable = "collection_id = ANY ((SELECT acervo.writable_collections())::int[])"
    lines = []
    for table in ("collections", "documents", "chunks", "chunk_terms", "term_df",
                  "collection_stats", "chunk_vectors", "audit"):
        lines += [f"ALTER TABLE acervo.{table} ENABLE ROW LEVEL SECURITY;",
                  f"DROP POLICY IF EXISTS member_read ON acervo.{table};",
                  f"CREATE POLICY member_read ON acervo.{table} FOR SELECT USING ({readable});"]
    for table in WRITE_TABLES:
        lines += [f"DROP POLICY IF EXISTS member_add ON acervo.{table};",
                  f"CREATE POLICY member_add ON acervo.{table} FOR INSERT WITH CHECK ({writable});",
                  f"DROP POLICY IF EXISTS member_remove ON acervo.{table};",
                  f"CREATE POLICY member_remove ON acervo.{table} FOR DELETE USING ({writable});"]
    lines += ["ALTER TABLE acervo.grants ENABLE ROW LEVEL SECURITY;",
              "DROP POLICY IF EXISTS own_grants ON acervo.grants;",
              "CREATE POLICY own_grants ON acervo.grants FOR SELECT USING (grantee = session_user);"]
    return "\n".join(lines)


def upgrade_sql(from_version: int) -> str:
    """What an older schema lacks, added by the owner after `schema_sql` (idempotent).
    Schema 3's `marks` (a passage's revoked ranges and structural path) stays null for the
    passages added before: they are shown and quoted as before until added again. Schema 4's
    impacts come with the column (`schema_sql`); its document frequencies are counted here,
    after any postings an older schema lacked."""
    statements = []
    if from_version < 3:
        statements.append("ALTER TABLE acervo.chunks ADD COLUMN IF NOT EXISTS marks text")
    if from_version < 2:
        statements.append(f"""INSERT INTO acervo.chunk_terms (term, chunk_key, collection_id,
  doc_key, tf, dl)
  {POSTINGS_SELECT}
  WHERE NOT EXISTS (SELECT 1 FROM acervo.chunk_terms t WHERE t.chunk_key = c.chunk_key)""")
    if from_version < 4:
        statements.append(STATS_REBUILD)
    return ";\n".join(statements)


def maintain_grant_sql(server_version: int) -> str:
    """PostgreSQL 17+ lets members VACUUM FULL the text tables (the purge); 16 cannot."""
    if server_version < 170000:
        return ""
    tables = ", ".join("acervo." + t for t in (*TEXT_TABLES, "chunk_vectors"))
    return f"GRANT MAINTAIN ON {tables} TO {GROUP_ROLE};"


# Planner statistics keep column values (most common values, histogram bounds) and the
# planner's row estimates come from them even under row-level security: an analyst's
# EXPLAIN confirmed a guessed title ("rows=40" against "rows=1") and counted another
# collection's rows through `collection_id`. Columns that hold names, text, hashes of
# content or the collection are kept out of the statistics; the planner uses its default
# estimates for them (the keyword leg's index-only scan on `chunk_terms` keeps its plan).
# What remains visible to every analyst is each table's total size (`pg_class.reltuples`:
# how many documents, passages and postings the server holds in all collections together).
PRIVATE_COLUMNS: dict[str, tuple[str, ...]] = {
    "collections": ("name",),
    "grants": ("grantee", "collection_id"),
    "documents": ("doc_id", "collection_id", "title", "source_path", "folder", "content_hash",
                  "notes", "added_by"),
    "chunks": ("chunk_id", "collection_id", "text", "prefix", "search_text", "text_hash",
               "heading_path", "terms"),
    "chunk_terms": ("term", "collection_id"),
    "term_df": ("term", "collection_id"),
    "collection_stats": ("collection_id",),
    "chunk_vectors": ("collection_id",),
    "audit": ("actor", "collection_id", "collection", "doc_id", "title", "content_hash"),
}


def private_statistics_sql(server_version: int) -> list[str]:
    """No statistics for `PRIVATE_COLUMNS`, and the ones gathered before dropped (PostgreSQL
    18's `pg_clear_attribute_stats`; on older servers the next purge removes them as
    superuser). Idempotent; run by the owner (`team init`, `team purge`)."""
    statements = []
    for table, columns in PRIVATE_COLUMNS.items():
        statements.append(f"ALTER TABLE acervo.{table} "
                          + ", ".join(f"ALTER COLUMN {c} SET STATISTICS 0" for c in columns))
        if server_version >= 180000:
            statements += [f"SELECT pg_clear_attribute_stats('acervo', '{table}', '{c}', false)"
                           for c in columns]
    return statements


def meta_rows(embedder_id: str, dim: int) -> dict[str, Any]:
    return {"schema_version": str(SCHEMA_VERSION), "embedder_id": embedder_id, "dim": str(dim)}
