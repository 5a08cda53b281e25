"""The vector index of a large library (IVF_RQ, re-ranked with the stored vectors): built on
request, found again after a reopen, near-exact on a real LanceDB table; an index built by an
earlier release (IVF_HNSW_SQ) keeps answering with its own probe settings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from desktop_app.retrieval.index import (
    VECTOR_INDEX,
    DocumentRecord,
    LanceIndex,
    ann_nprobes,
    ann_partitions,
)
from desktop_app.retrieval.types import Chunk

DIM = 384
ROWS = 3000
PER_DOC = 100
EMBEDDER_ID = "test-embedder"


def _library(root: Path) -> tuple[LanceIndex, np.ndarray]:
    """ROWS unit vectors in clusters (like documents on a few topics), 100 to a document."""
    rng = np.random.default_rng(5)
    centres = rng.normal(size=(30, DIM))
    vectors = centres[rng.integers(0, 30, ROWS)] + rng.normal(scale=0.6, size=(ROWS, DIM))
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    index = LanceIndex.open(root / "index", embedder_id=EMBEDDER_ID, dim=DIM)
    for d in range(ROWS // PER_DOC):
        doc_id = f"d{d:03}"
        chunks = [Chunk(doc_id, p, f"passage {d} {p}", 1, 1, (), 0, 10, doc_id)
                  for p in range(PER_DOC)]
        record = DocumentRecord(doc_id, doc_id, f"/lib/{doc_id}.txt", "txt", "pt", 1, doc_id, 1,
                                PER_DOC, "2026-12-01T00:00:00Z", "2026-12-01T00:00:00Z",
                                EMBEDDER_ID)
        index.add_document(record, chunks, vectors[d * PER_DOC:(d + 1) * PER_DOC])
    index.purge()
    return index, vectors


def _recall(index: LanceIndex, vectors: np.ndarray, queries: np.ndarray) -> float:
    found = 0
    for q in queries:
        exact = {f"d{i // PER_DOC:03}:{i % PER_DOC}" for i in np.argsort(-(vectors @ q))[:10]}
        got = {(h.row.doc_id, h.row.position) for h in index.search_vector(q, 10, None)}
        found += len(exact & {f"{d}:{p}" for d, p in got})
    return found / (10 * len(queries))


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[LanceIndex, np.ndarray]:
    return _library(tmp_path_factory.mktemp("vector-index"))


def test_the_partitions_and_probes_grow_with_the_library() -> None:
    assert ann_partitions(60_000) == 122 and ann_nprobes(60_000) == 20
    assert ann_partitions(1_000_000) == 500 and ann_nprobes(1_000_000) == 75


@pytest.mark.slow  # over a second: the full tier only
def test_an_ivf_rq_index_is_built_on_request_and_stays_near_exact(
        library: tuple[LanceIndex, np.ndarray]) -> None:
    index, vectors = library
    queries = vectors[::150] + np.random.default_rng(1).normal(scale=0.05, size=(20, DIM))
    queries = (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32)
    flat = _recall(index, vectors, queries)
    assert index.ensure_vector_index(min_rows=ROWS) is True
    assert index.ensure_vector_index(min_rows=ROWS) is False  # once
    reopened = LanceIndex.open(index.directory.parent, embedder_id=EMBEDDER_ID, dim=DIM)
    assert reopened._vector_index_type == "IvfRq"
    assert flat == 1.0 and _recall(reopened, vectors, queries) >= 0.95
    assert reopened.check() == []


@pytest.mark.slow  # over a second: the full tier only
def test_an_older_hnsw_index_is_still_searched(tmp_path: Path) -> None:
    from lancedb.index import HnswSq

    index, vectors = _library(tmp_path)
    index._chunks.create_index("vector", config=HnswSq(distance_type="dot", num_partitions=2))
    reopened = LanceIndex.open(index.directory.parent, embedder_id=EMBEDDER_ID, dim=DIM)
    assert "Hnsw" in reopened._vector_index_type
    # the re-ranking of IVF_RQ (k x refine candidates) would exceed this index's ef: not used
    hits = reopened.search_vector(vectors[7], 40, None)
    assert len(hits) == 40 and (hits[0].row.doc_id, hits[0].row.position) == ("d000", 7)
    assert VECTOR_INDEX in {ix.name for ix in reopened._chunks.list_indices()}
