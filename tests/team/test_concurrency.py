"""Eight analysts' processes add the same documents to one team library and search while they
do: every document ends up there exactly once, complete (real server, real embeddings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.pipeline import embedding_text
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.retrieval.index import DocumentRecord
from desktop_app.team import admin
from desktop_app.team.stress import StressClient, StressDocument, run_clients, verify

CLIENTS = 8
DOCUMENTS = 24


@pytest.fixture(scope="module")
def documents(eval_dir: Path, embedder) -> list[StressDocument]:  # type: ignore[no-untyped-def]
    out = []
    with (eval_dir / "retrieval" / "faquad_pt" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in list(fh)[:DOCUMENTS]:
            doc = json.loads(line)
            loaded = LoadedDocument(doc["_id"], "txt", doc.get("title") or doc["_id"],
                                    [PageText(1, doc["text"])])
            chunks = tuple(chunk_document(loaded, doc["_id"], max_chars=600, overlap=0.1))
            record = DocumentRecord(
                doc["_id"], loaded.title, f"/shared/{doc['_id']}.txt", "txt", "pt",
                len(doc["text"]), f"sha-{doc['_id']}", 1, len(chunks), "2026-11-01T00:00:00Z",
                "2026-11-01T00:00:00Z", embedder.id)
            out.append(StressDocument(record, chunks,
                                      embedder.embed_passages([embedding_text(c) for c in chunks])))
    return out


@pytest.mark.slow
def test_eight_clients_ingesting_and_searching_lose_and_duplicate_nothing(
        team_db, documents, embedder) -> None:  # type: ignore[no-untyped-def]
    users = [f"analista{n}" for n in range(1, CLIENTS + 1)]
    with team_db.admin() as conn:
        admin.add_collection(conn, "compartilhada")
        for user in users:
            admin.add_user(conn, user, f"{user}-senha")
            admin.grant(conn, user, "compartilhada", write=True)
    queries = [(q, embedder.embed_query(q)) for q in
               ("universidade federal", "história do Brasil", "quem fundou a cidade")]
    clients = [StressClient(team_db.server.user_url(u, team_db.name), f"{u}-senha",
                            "compartilhada") for u in users]
    reports, seconds = run_clients(clients, documents, queries)
    with team_db.admin() as conn:
        result = verify(conn, "compartilhada", documents, reports, seconds)
    assert result.errors == []
    assert result.clients == CLIENTS and all(r.searches == DOCUMENTS for r in reports)
    assert result.lost_documents == 0 and result.duplicate_documents == 0
    assert result.incomplete_documents == 0
    assert result.documents_found == DOCUMENTS == result.adds_won
    assert sum(r.already_there for r in reports) == DOCUMENTS * (CLIENTS - 1)
