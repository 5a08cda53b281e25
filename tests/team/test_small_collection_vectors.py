"""A small collection that shares the server's HNSW graph with a large one keeps its vector
results. pgvector's iterative scan gives up after `hnsw.max_scan_tuples` (20,000) visited
rows; when more rows than that of another collection lie nearer the question, an analyst who
reads only the small collection got no vector results at all (measured in the team benchmark:
vector nDCG 0.108 instead of 0.834 beside 60k rows). Few readable rows are scanned exactly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from desktop_app.retrieval.index import DocumentRecord
from desktop_app.retrieval.types import Chunk

pytestmark = pytest.mark.slow

BIG_ROWS = 40_000  # twice pgvector's max_scan_tuples (20,000), all nearer the question
PER_DOC = 2_000
DIM = 384


def _record(doc_id: str, n: int) -> DocumentRecord:
    return DocumentRecord(doc_id, doc_id, f"/docs/{doc_id}.txt", "txt", "pt", 1, f"h-{doc_id}",
                          1, n, "2026-11-30T00:00:00Z", "2026-11-30T00:00:00Z", "")


def _chunks(doc_id: str, n: int) -> list[Chunk]:
    return [Chunk(doc_id, i, f"trecho {doc_id} {i}", 1, 1, (), 0, 10, "") for i in range(n)]


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def crowded(team_db: Any) -> Iterator[tuple[Any, np.ndarray, np.ndarray]]:
    """"casos" (bia) holds BIG_ROWS vectors close to the question; "leis" (ana) 12 far ones."""
    from desktop_app.team import admin
    from tests.conftest import E5_ID

    rng = np.random.default_rng(7)
    question = _unit(rng.normal(size=(1, DIM)))[0]
    with team_db.admin() as conn:  # a bulk load: the graph is built once, after the rows
        conn.execute("DROP INDEX acervo.chunk_vectors_hnsw")
    bia = team_db.index("bia", collection="casos")
    for d in range(BIG_ROWS // PER_DOC):
        near = _unit(question + rng.normal(scale=0.04, size=(PER_DOC, DIM)))
        assert bia.add_document(_record(f"big{d}", PER_DOC), _chunks(f"big{d}", PER_DOC), near)
    ana = team_db.index("ana", collection="leis")
    far = _unit(rng.normal(size=(12, DIM)))
    assert ana.add_document(_record("small", 12), _chunks("small", 12), far)
    with team_db.admin() as conn:
        conn.execute("SET maintenance_work_mem = '256MB'")
        admin.init_server(conn, embedder_id=E5_ID, dim=DIM)  # recreates the HNSW index
        conn.execute("VACUUM (ANALYZE) acervo.chunk_vectors")
    yield ana, question, far
    ana.close()
    bia.close()


def test_the_small_collection_still_gets_its_nearest_rows(crowded: Any) -> None:
    ana, question, far = crowded
    found = ana.search_vector(question, 5, None)
    expected = np.argsort(-(far @ question))[:5]
    assert [r.row.position for r in found] == [int(i) for i in expected]
    assert [round(r.score, 5) for r in found] == [round(float(far[i] @ question), 5)
                                                  for i in expected]


def test_a_reader_of_the_big_collection_still_uses_the_graph(team_db: Any, crowded: Any) -> None:
    _ana, question, _far = crowded
    bia = team_db.index("bia", collection="casos")
    try:
        found = bia.search_vector(question, 10, None)
    finally:
        bia.close()
    assert len(found) == 10 and all(r.row.title.startswith("big") for r in found)
