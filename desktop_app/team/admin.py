"""Setting up a team server, as its owner: schema, users, collections, grants, the audit trail.

Every function takes an open psycopg connection of a role that owns the schema
(the server's superuser on a trial server, a dedicated owner role on a real one).
A user is a login role in the `acervo_user` group; a password never travels in
clear text to the server (the client sends a SCRAM verifier) and never reaches
a log line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from desktop_app.errors import AppError, CancelledError
from desktop_app.ingest.pathnames import one_line
from desktop_app.retrieval.pg_schema import (
    GROUP_ROLE,
    SCHEMA_VERSION,
    maintain_grant_sql,
    meta_rows,
    private_statistics_sql,
    schema_sql,
    upgrade_sql,
)

if TYPE_CHECKING:
    from desktop_app.retrieval.types import Embedder

_NAME = re.compile(r"^[a-z_][a-z0-9_.\-]{0,62}$")
# names PostgreSQL reserves (pg_*) or gives a meaning of its own; Acervo's own group role
RESERVED_ROLES = frozenset({GROUP_ROLE, "postgres", "public", "current_user", "current_role",
                            "session_user", "user", "none", "all"})
MAX_COLLECTION_NAME = 100


@dataclass(frozen=True)
class AuditEntry:
    at: str
    actor: str
    action: str
    collection: str
    doc_id: str
    title: str


def role_name(name: str) -> str:
    shown = one_line(name)
    if name.startswith("pg_") or name in RESERVED_ROLES:
        raise AppError(f"“{shown}” is a name PostgreSQL reserves for its own roles; choose "
                       "another user name.")
    if not _NAME.match(name):
        raise AppError(f"Not a usable user name: “{shown}” (lower-case letters, digits, '_', "
                       "'.', '-'; at most 63 characters).")
    return name


def collection_name(name: str) -> str:
    """A collection's name as stored: trimmed, printable, on one line."""
    name = name.strip()
    if not name:
        raise AppError("A collection needs a name.")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise AppError(f"Not a usable collection name: “{one_line(name)}” (no line breaks, "
                       "tabs or control characters).")
    if len(name) > MAX_COLLECTION_NAME:
        raise AppError(f"A collection name has at most {MAX_COLLECTION_NAME} characters.")
    return name


def _acervo_role(cur: Any, user: str) -> bool | None:
    """None: no such role; True: one of Acervo's users; False: another role of the server."""
    cur.execute("SELECT pg_has_role(r.oid, %s, 'MEMBER') AND r.rolcanlogin "
                "AND NOT r.rolsuper FROM pg_roles r WHERE r.rolname = %s", (GROUP_ROLE, user))
    row = cur.fetchone()
    return None if row is None else bool(row[0])


def init_server(conn: Any, *, embedder_id: str, dim: int) -> bool:
    """Create (or upgrade in place) the Acervo schema; returns True when it was created now.

    Refuses a server whose library was set up for another vector size."""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT to_regclass('acervo.meta') IS NOT NULL")
        existed = bool(cur.fetchone()[0])
        version = SCHEMA_VERSION
        if existed:
            cur.execute("SELECT value FROM acervo.meta WHERE key = 'dim'")
            row = cur.fetchone()
            if row and int(row[0]) != dim:
                raise AppError(f"This server's team library stores {row[0]}-dimensional "
                               f"vectors; the current embedder makes {dim}.")
            cur.execute("SELECT value FROM acervo.meta WHERE key = 'schema_version'")
            row = cur.fetchone()
            version = int(row[0]) if row else SCHEMA_VERSION
        cur.execute(schema_sql(dim))
        cur.execute(upgrade_sql(version) or "SELECT 1")
        if existed and version < 7:  # (5, 6 and 7: the analyzer changed)
            reanalyse_keyword_terms(conn)
        cur.execute(maintain_grant_sql(conn.info.server_version) or "SELECT 1")
        for statement in private_statistics_sql(conn.info.server_version):
            cur.execute(statement)
        for key, value in meta_rows(embedder_id, dim).items():
            cur.execute("INSERT INTO acervo.meta (key, value) VALUES (%s, %s) "
                        "ON CONFLICT (key) DO NOTHING", (key, value))
        cur.execute("UPDATE acervo.meta SET value = %s WHERE key = 'schema_version' "
                    "AND value::int < %s", (str(SCHEMA_VERSION), SCHEMA_VERSION))
    return not existed


REANALYSE_BATCH = 500


def reanalyse_keyword_terms(conn: Any) -> int:
    """Schemas 5, 6 and 7: every passage's keyword column analysed again by this Acervo's analyzer
    (`text.analyze.ANALYZER_VERSION`; the stemmer changed), with its postings. Only passages
    whose terms change are rewritten; the postings' triggers keep the document frequencies.
    Runs inside the caller's transaction (`init_server`); returns the passages rewritten."""
    from desktop_app.retrieval.index_api import stored_keyword_text
    from desktop_app.retrieval.pg_schema import POSTINGS_SELECT

    changed: list[tuple[int, str]] = []
    with conn.cursor(name="acervo_reanalyse") as read:
        read.itersize = REANALYSE_BATCH
        read.execute("SELECT chunk_key, prefix, text, marks, search_text FROM acervo.chunks")
        for key, prefix, text, marks, stored in read:
            terms = stored_keyword_text(prefix, text, marks)
            if terms != stored:
                changed.append((int(key), terms))
    with conn.cursor() as cur:
        for start in range(0, len(changed), REANALYSE_BATCH):
            keys = [k for k, _ in changed[start:start + REANALYSE_BATCH]]
            texts = [t for _, t in changed[start:start + REANALYSE_BATCH]]
            cur.execute("""UPDATE acervo.chunks c SET search_text = u.search_text
                           FROM unnest(%s::bigint[], %s::text[]) AS u(chunk_key, search_text)
                           WHERE c.chunk_key = u.chunk_key""", (keys, texts))
            cur.execute("DELETE FROM acervo.chunk_terms WHERE chunk_key = ANY(%s)", (keys,))
            cur.execute(f"""INSERT INTO acervo.chunk_terms (term, chunk_key, collection_id,
                              doc_key, tf, dl)
                            {POSTINGS_SELECT} WHERE c.chunk_key = ANY(%s)""", (keys,))
    return len(changed)


def set_password(conn: Any, user: str, password: str) -> None:
    from psycopg import sql

    if len(password) < 8:
        raise AppError("Use a password of at least 8 characters.")
    verifier = conn.pgconn.encrypt_password(password.encode(), user.encode(), b"scram-sha-256")
    with conn.cursor() as cur:
        cur.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
            sql.Identifier(user), sql.Literal(verifier.decode())))


def add_user(conn: Any, user: str, password: str) -> None:
    """A login role in the Acervo group (or a new password for an existing one)."""
    from psycopg import sql

    user = role_name(user)
    with conn.transaction(), conn.cursor() as cur:
        known = _acervo_role(cur, user)
        if known is False:
            raise AppError(f"“{one_line(user)}” is already a role on this server that is not "
                           "an Acervo user; choose another user name.")
        if known is None:
            cur.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(user)))
        cur.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(GROUP_ROLE),
                                                     sql.Identifier(user)))
        set_password(conn, user, password)


def remove_user(conn: Any, user: str) -> None:
    """Drop the role and its grants; what the user added stays (and stays audited)."""
    from psycopg import sql

    user = role_name(user)
    with conn.transaction(), conn.cursor() as cur:
        if _acervo_role(cur, user) is False:
            raise AppError(f"“{one_line(user)}” is not an Acervo user; nothing was removed.")
        cur.execute("DELETE FROM acervo.grants WHERE grantee = %s", (user,))
        cur.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(user)))


def add_collection(conn: Any, name: str) -> int:
    name = collection_name(name)
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("INSERT INTO acervo.collections (name) VALUES (%s) ON CONFLICT (name) "
                    "DO UPDATE SET name = EXCLUDED.name RETURNING collection_id", (name,))
        return int(cur.fetchone()[0])


def collections(conn: Any) -> list[tuple[str, int, list[str]]]:
    """(name, documents, grants as 'user:rw'/'user:r') for every collection."""
    with conn.cursor() as cur:
        cur.execute("""
            SELECT c.name,
                   (SELECT count(*) FROM acervo.documents d WHERE d.collection_id = c.collection_id),
                   coalesce(array_agg(g.grantee || CASE WHEN g.can_write THEN ':rw' ELSE ':r' END
                                      ORDER BY g.grantee) FILTER (WHERE g.grantee IS NOT NULL),
                            '{}')
            FROM acervo.collections c LEFT JOIN acervo.grants g USING (collection_id)
            GROUP BY c.collection_id, c.name ORDER BY c.name""")
        return [(str(n), int(docs), list(g)) for n, docs, g in cur.fetchall()]


def grant(conn: Any, user: str, collection: str, *, write: bool) -> None:
    user = role_name(user)
    with conn.transaction(), conn.cursor() as cur:
        known = _acervo_role(cur, user)
        if not known:
            raise AppError(f"No such user: {one_line(user)} (add it first)." if known is None
                           else f"“{one_line(user)}” is not an Acervo user.")
        cur.execute("SELECT collection_id FROM acervo.collections WHERE name = %s", (collection,))
        row = cur.fetchone()
        if row is None:
            raise AppError(f"No such collection: {one_line(collection)}.")
        cur.execute("INSERT INTO acervo.grants (collection_id, grantee, can_write) "
                    "VALUES (%s, %s, %s) ON CONFLICT (collection_id, grantee) "
                    "DO UPDATE SET can_write = EXCLUDED.can_write", (row[0], user, write))


def revoke(conn: Any, user: str, collection: str) -> bool:
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("DELETE FROM acervo.grants g USING acervo.collections c "
                    "WHERE g.collection_id = c.collection_id AND c.name = %s AND g.grantee = %s",
                    (collection, user))
        return bool(cur.rowcount)


def audit(conn: Any, *, limit: int = 50) -> list[AuditEntry]:
    """The newest entries first (the owner sees all; a member sees their collections')."""
    with conn.cursor() as cur:
        cur.execute("SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
                    "actor, action, collection, doc_id, title FROM acervo.audit "
                    "ORDER BY audit_id DESC LIMIT %s", (limit,))
        return [AuditEntry(*map(str, r)) for r in cur.fetchall()]


# --- rebuilding the server's vectors with another embedder -----------------------------------

STAGING_TABLE = "acervo.chunk_vectors_next"  # the owner's own: no analyst can read it
REINDEX_BATCH = 64


@dataclass(frozen=True)
class VectorReindexProgress:
    chunks_done: int
    chunks_total: int
    stage: Literal["embedding", "switching", "done"] = "embedding"


def server_embedder(conn: Any) -> tuple[str, int]:
    with conn.cursor() as cur:
        cur.execute("SELECT key, value FROM acervo.meta WHERE key IN ('embedder_id', 'dim')")
        meta = dict(cur.fetchall())
    return str(meta.get("embedder_id", "")), int(meta.get("dim", 0))


def reindex_vectors(conn: Any, embedder: Embedder, *,
                    cancel: Callable[[], bool] | None = None
                    ) -> Iterator[VectorReindexProgress]:
    """Re-embed every chunk on the server with `embedder`, then switch in one transaction.

    Blue/green like the local reindex: new vectors go to a staging table (committed per batch,
    so a killed run resumes where it stopped) while every client keeps searching the old ones.
    The switch locks the tables writers use (in-flight additions finish first; later ones
    wait), embeds the chunks added meanwhile, copies the new vectors over, and records the
    new embedder for the documents and the server. Readers are never blocked: until the
    commit they see the old vectors under the old embedder id. A client still on the old
    embedder then gets keyword-only search and is refused when it adds documents
    (`PgIndex.add_document`), so the two kinds of vectors are never mixed.
    `conn` is the owner's connection in autocommit mode."""
    from desktop_app.retrieval.pg_sql import vector_literal

    cancelled = cancel or (lambda: False)
    old_id, dim = server_embedder(conn)
    if dim != embedder.dim:
        raise AppError(f"This server's team library stores {dim}-dimensional vectors; "
                       f"{embedder.id} makes {embedder.dim}.")
    with conn.cursor() as cur:
        cur.execute(f"""CREATE TABLE IF NOT EXISTS {STAGING_TABLE} (
                          chunk_key bigint PRIMARY KEY
                            REFERENCES acervo.chunks (chunk_key) ON DELETE CASCADE,
                          embedder_id text NOT NULL,
                          text_hash text NOT NULL,
                          embedding vector({dim}) NOT NULL)""")
        cur.execute(f"DELETE FROM {STAGING_TABLE} WHERE embedder_id <> %s", (embedder.id,))
        cur.execute("SELECT count(*) FROM acervo.chunks")
        total = int(cur.fetchone()[0])

    def stop_if_cancelled() -> None:
        if cancelled():
            raise CancelledError(f"Reindex cancelled; the team library still uses {old_id} "
                                 "(run it again to continue where it stopped).")

    def embed_pending(cur: Any, *, check_cancel: bool) -> Iterator[int]:
        while True:
            cur.execute(f"""SELECT c.chunk_key, c.prefix, c.text, c.text_hash
                            FROM acervo.chunks c LEFT JOIN {STAGING_TABLE} s
                              ON s.chunk_key = c.chunk_key AND s.text_hash = c.text_hash
                            WHERE s.chunk_key IS NULL ORDER BY c.chunk_key LIMIT %s""",
                        (REINDEX_BATCH,))
            rows = cur.fetchall()
            if not rows:
                return
            if check_cancel:
                stop_if_cancelled()
            from desktop_app.retrieval.index_api import compose_embedding_text

            vectors = embedder.embed_passages([compose_embedding_text(p, t)
                                               for _k, p, t, _h in rows])
            cur.executemany(
                f"""INSERT INTO {STAGING_TABLE} (chunk_key, embedder_id, text_hash, embedding)
                    VALUES (%s, %s, %s, %s::vector) ON CONFLICT (chunk_key) DO UPDATE
                    SET text_hash = EXCLUDED.text_hash, embedding = EXCLUDED.embedding""",
                [(k, embedder.id, h, vector_literal(v))
                 for (k, _p, _t, h), v in zip(rows, vectors, strict=True)])
            yield len(rows)

    with conn.cursor() as cur:
        cur.execute(f"SELECT count(*) FROM {STAGING_TABLE}")
        done = int(cur.fetchone()[0])
        for n in embed_pending(cur, check_cancel=True):
            done += n
            yield VectorReindexProgress(min(done, total), total)
    stop_if_cancelled()  # pressed after the last batch: not switched
    yield VectorReindexProgress(total, total, "switching")
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("LOCK TABLE acervo.documents, acervo.chunks, acervo.chunk_vectors "
                    "IN EXCLUSIVE MODE")
        for _n in embed_pending(cur, check_cancel=False):  # added while we embedded
            pass
        cur.execute(f"""UPDATE acervo.chunk_vectors v SET embedding = s.embedding
                        FROM {STAGING_TABLE} s WHERE s.chunk_key = v.chunk_key""")
        cur.execute("UPDATE acervo.documents SET embedder_id = %s", (embedder.id,))
        cur.execute("UPDATE acervo.meta SET value = %s WHERE key = 'embedder_id'",
                    (embedder.id,))
        cur.execute("SELECT count(*) FROM acervo.chunks")
        total = int(cur.fetchone()[0])
        cur.execute(f"DROP TABLE {STAGING_TABLE}")
    conn.execute("VACUUM (ANALYZE) acervo.chunk_vectors")  # the old vectors' dead rows
    yield VectorReindexProgress(total, total, "done")
