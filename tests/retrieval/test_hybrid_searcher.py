"""The one hybrid searcher over any `SearchLegs`, on the in-memory index (fast, real embedder):
one embedding per query (none when the caller passes the vector), fusion by RRF with
deterministic ties, `Hit`s built from stored rows, keyword-only with a warning when the
vectors came from another embedder; and the ingestion pipeline on the same double."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from index_double import InMemoryIndex

from desktop_app.config.settings import Settings
from desktop_app.ingest.events import FileDone, FileSkipped, RunDone
from desktop_app.ingest.pipeline import IngestPipeline, embedding_text
from desktop_app.retrieval.fusion import rrf_fuse
from desktop_app.retrieval.index_api import DocumentRecord, Scored
from desktop_app.retrieval.search import HybridSearcher
from desktop_app.retrieval.types import Chunk, SearchFilters

PARAGRAPHS = {
    "a": ["A devolução de produtos deve ser solicitada em até sete dias.",
          "O reembolso é feito na forma de pagamento da compra."],
    "b": ["Espresso needs finely ground coffee at about 93 degrees.",
          "A French press steeps coarse grounds for four minutes."],
    "c": ["O titular tem direito de acesso às informações sobre seus dados."],
}


class CountingEmbedder:
    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.id, self.dim, self.queries = inner, inner.id, inner.dim, 0

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries += 1
        return self.inner.embed_query(text)


@pytest.fixture(scope="module")
def index(embedder) -> InMemoryIndex:  # type: ignore[no-untyped-def]
    idx = InMemoryIndex(embedder_id=embedder.id, dim=embedder.dim)
    for doc_id, paragraphs in PARAGRAPHS.items():
        chunks = [Chunk(doc_id, i, p, 1, 1, (), 0, len(p), f"Doc {doc_id}")
                  for i, p in enumerate(paragraphs)]
        record = DocumentRecord(doc_id, f"Doc {doc_id}", f"/docs/{doc_id}.md", "md",
                                "en" if doc_id == "b" else "pt", 1, doc_id, 1, len(chunks),
                                "2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z", embedder.id)
        idx.add_document(record, chunks,
                         embedder.embed_passages([embedding_text(c) for c in chunks]))
    return idx


def test_fused_hits_match_rrf_over_the_legs(index: InMemoryIndex, embedder) -> None:  # type: ignore[no-untyped-def]
    counting = CountingEmbedder(embedder)
    searcher = HybridSearcher(index, counting, Settings())
    query = "prazo de devolução do produto"
    found = searcher.search_with_report(query, k=5)
    hits = found.hits
    assert counting.queries == 1 and found.report.legs_used == ("vector", "keyword")
    vector = index.search_vector(embedder.embed_query(query), 40, None)
    keyword = index.search_keyword(query, 40, None)
    expected = rrf_fuse({leg: [(s.key, s.row.doc_id, s.row.position) for s in rows]
                         for leg, rows in (("vector", vector), ("keyword", keyword))})[:5]
    assert [h.chunk_id for h in hits] == [f.key for f in expected]
    assert [h.score for h in hits] == pytest.approx([f.score for f in expected])
    top = hits[0]
    assert (top.doc_id, top.position, top.legs) == ("a", 0, {"vector", "keyword"})
    assert top.vector_rank == 1 and top.keyword_rank == 1
    assert top.text == PARAGRAPHS["a"][0] and top.source_path == "/docs/a.md"


def test_a_passed_vector_is_not_embedded_again(index: InMemoryIndex, embedder) -> None:  # type: ignore[no-untyped-def]
    counting = CountingEmbedder(embedder)
    searcher = HybridSearcher(index, counting, Settings())
    vector = embedder.embed_query("coffee temperature")
    hits = searcher.search("coffee temperature", k=3, query_vector=vector)
    assert counting.queries == 0 and hits[0].doc_id == "b"


def test_filters_reach_both_legs(index: InMemoryIndex, embedder) -> None:  # type: ignore[no-untyped-def]
    searcher = HybridSearcher(index, embedder, Settings())
    hits = searcher.search("devolução coffee dados", k=10, filters=SearchFilters(language="en"))
    assert hits and {h.doc_id for h in hits} == {"b"}


def test_another_embedders_vectors_mean_keyword_only(embedder) -> None:  # type: ignore[no-untyped-def]
    stale = InMemoryIndex(embedder_id="old-model@1", dim=embedder.dim,
                          current_embedder_id=embedder.id)
    chunk = Chunk("a", 0, PARAGRAPHS["a"][0], 1, 1, (), 0, 10, "")
    stale.add_document(DocumentRecord("a", "A", "/a.md", "md", "pt", 1, "a", 1, 1, "x", "x",
                                      "old-model@1"), [chunk],
                       np.zeros((1, embedder.dim), dtype=np.float32))
    counting = CountingEmbedder(embedder)
    searcher = HybridSearcher(stale, counting, Settings())
    found = searcher.search_with_report("devolução", k=3)
    assert [h.legs for h in found.hits] == [{"keyword"}] and counting.queries == 0
    assert "old-model@1" in str(found.report.warnings[0])


def test_rows_without_positions_fuse_by_key() -> None:
    """Memories and exchanges: any row type, ties broken by the key."""

    class Legs:
        vector_usable = True

        def mismatch_message(self) -> str:
            return ""

        def search_vector(self, vector, k, filters):  # type: ignore[no-untyped-def]
            return [Scored("m2", 0.9, "m2", ("m2",)), Scored("m1", 0.8, "m1", ("m1",))]

        def search_keyword(self, text, k, filters):  # type: ignore[no-untyped-def]
            return [Scored("m1", 3.0, "m1", ("m1",)), Scored("m2", 2.0, "m2", ("m2",))]

    searcher: HybridSearcher[str, None] = HybridSearcher(Legs(), embedder=None, settings=None)  # type: ignore[arg-type]
    ranked = searcher.search_rows("q", k=5, query_vector=np.zeros(3, dtype=np.float32))
    assert [r.row for r in ranked] == ["m1", "m2"]  # equal RRF scores: by key
    assert ranked[0].ranks == {"vector": 2, "keyword": 1}


def test_the_pipeline_runs_on_any_document_index(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    note = tmp_path / "docs" / "nota.md"
    note.parent.mkdir()
    note.write_text("# Nota\n\nO prazo de devolução de produtos é de sete dias.\n",
                    encoding="utf-8")
    index = InMemoryIndex(embedder_id=embedder.id, dim=embedder.dim)
    pipeline = IngestPipeline(index, embedder, Settings())
    first = list(pipeline.run([note.parent]))
    assert [type(e) for e in first if isinstance(e, FileDone | RunDone)] == [FileDone, RunDone]
    again = [e for e in pipeline.run([note.parent]) if isinstance(e, FileSkipped)]
    assert again and again[0].reason == "unchanged"
    hits = HybridSearcher(index, embedder, Settings()).search("devolucao", k=1)
    assert hits and hits[0].source_path.endswith("nota.md")
    note.unlink()
    removed = list(pipeline.run([note.parent]))[-1]
    assert isinstance(removed, RunDone) and removed.removed == 1 and index.documents() == []
