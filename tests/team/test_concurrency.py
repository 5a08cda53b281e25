"""Eight analysts' processes add the same documents to one team library and search while they
do: every document ends up there exactly once, complete, and none of them ever sees a row of a
collection it was not granted (real server, real embeddings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.pipeline import embedding_text
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.retrieval.index import DocumentRecord
from desktop_app.team.stress import StressDocument, race

CLIENTS = 8
DOCUMENTS = 24
HIDDEN = 3


@pytest.fixture(scope="module")
def documents(eval_dir: Path, embedder) -> list[StressDocument]:  # type: ignore[no-untyped-def]
    out = []
    with (eval_dir / "retrieval" / "faquad_pt" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in list(fh)[:DOCUMENTS + HIDDEN]:
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
def test_eight_clients_ingesting_and_searching_lose_duplicate_and_leak_nothing(
        team_db, documents, embedder) -> None:  # type: ignore[no-untyped-def]
    raced, hidden = documents[:DOCUMENTS], documents[DOCUMENTS:]
    queries = [(q, embedder.embed_query(q)) for q in
               ("universidade federal", "história do Brasil", "quem fundou a cidade")]
    with team_db.admin() as conn:
        result = race(conn, lambda user: team_db.server.user_url(user, team_db.name), raced,
                      queries, hidden=hidden, clients=CLIENTS)
    assert result.errors == []
    assert result.clients == CLIENTS and result.searches == CLIENTS * DOCUMENTS
    assert result.lost_documents == 0 and result.duplicate_documents == 0
    assert result.incomplete_documents == 0
    assert result.documents_found == DOCUMENTS == result.adds_won
    assert result.adds_found_there == DOCUMENTS * (CLIENTS - 1)
    assert result.rls_probes == CLIENTS * DOCUMENTS and result.rls_leaks == 0
    assert result.rls_control_rows >= 5 * HIDDEN  # the owner's own probe does find them
