"""The LanceDB index and hybrid search on a tiny real corpus (real embedder, real LanceDB)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.ingest.pipeline import embedding_text
from desktop_app.retrieval.index import DocumentRecord, LanceIndex
from desktop_app.retrieval.reindex import reindex
from desktop_app.retrieval.search import HybridSearcher
from desktop_app.retrieval.types import Chunk, SearchFilters

CORPUS = {
    "devolucao": ("Política de devolução", "pdf", "pt",
                  ["A devolução de produtos deve ser solicitada em até sete dias após a entrega.",
                   "O reembolso é feito na mesma forma de pagamento usada na compra."]),
    "informacao": ("Acesso à informação", "md", "pt",
                   ["O titular tem direito de acesso às informações sobre o tratamento de "
                    "seus dados pessoais."]),
    "coffee": ("Coffee brewing notes", "txt", "en",
               ["Espresso needs finely ground coffee and water at about 93 degrees Celsius.",
                "A French press uses coarse grounds and four minutes of steeping."]),
    "canary": ("Relatório confidencial", "md", "pt",
               ["O código interno do projeto é ZEBRA-CANARY-77341 e não deve vazar."]),
}


def _add(index: LanceIndex, embedder, doc_id: str, folder: Path) -> DocumentRecord:  # type: ignore[no-untyped-def]
    title, ftype, lang, paragraphs = CORPUS[doc_id]
    chunks = [Chunk(doc_id, i, p, i + 1, i + 1, (), 0, len(p), title)
              for i, p in enumerate(paragraphs)]
    texts = [embedding_text(c) for c in chunks]
    record = DocumentRecord(
        doc_id=doc_id, title=title, source_path=str(folder / f"{doc_id}.{ftype}"),
        file_type=ftype, language=lang, size=100, content_hash=doc_id, page_count=len(chunks),
        chunk_count=len(chunks), ingested_at="2026-11-01T00:00:00Z",
        modified_at="2026-10-01T00:00:00Z", embedder_id=embedder.id)
    index.add_document(record, chunks, embedder.embed_passages(texts))
    return record


@pytest.fixture()
def index(tmp_path: Path, embedder) -> LanceIndex:  # type: ignore[no-untyped-def]
    idx = LanceIndex.open(tmp_path / "index", embedder_id=embedder.id, dim=embedder.dim)
    for doc_id in CORPUS:
        _add(idx, embedder, doc_id, tmp_path / "docs")
    return idx


@pytest.fixture()
def searcher(index: LanceIndex, embedder) -> HybridSearcher:  # type: ignore[no-untyped-def]
    return HybridSearcher(index, embedder, Settings())


@pytest.mark.parametrize("query", ["devolucao de produtos", "devolução de produtos",
                                   "DEVOLUÇÕES"])
def test_keyword_leg_ignores_accents(searcher: HybridSearcher, query: str) -> None:
    hits = searcher.search(query, k=3, legs=("keyword",))
    assert hits and hits[0].doc_id == "devolucao"
    assert hits[0].legs == {"keyword"}


def test_unaccented_query_finds_accented_plural(searcher: HybridSearcher) -> None:
    hits = searcher.search("informacao", k=3, legs=("keyword",))
    assert [h.doc_id for h in hits][:1] == ["informacao"]


def test_hybrid_records_both_legs_and_ranks(searcher: HybridSearcher) -> None:
    hits = searcher.search("prazo para devolução de produtos", k=5)
    top = hits[0]
    assert top.doc_id == "devolucao" and top.position == 0
    assert top.legs == {"vector", "keyword"}
    assert top.vector_rank is not None and top.keyword_rank is not None
    assert top.score > hits[-1].score


@pytest.mark.ranking
def test_cross_lingual_question_reaches_the_english_note(searcher: HybridSearcher) -> None:
    hits = searcher.search("Qual a temperatura da água para o café expresso?", k=3)
    assert hits[0].doc_id == "coffee"


def test_same_query_same_order(searcher: HybridSearcher) -> None:
    runs = [[h.chunk_id for h in searcher.search("dados pessoais e café", k=10)]
            for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]


def test_filters_apply_inside_both_legs(searcher: HybridSearcher, tmp_path: Path) -> None:
    hits = searcher.search("devolução café informação", k=10,
                           filters=SearchFilters(file_types=("txt",)))
    assert hits and {h.doc_id for h in hits} == {"coffee"}
    hits = searcher.search("devolução", k=10, filters=SearchFilters(language="en"))
    assert {h.file_type for h in hits} <= {"txt"}
    assert searcher.search("devolução", filters=SearchFilters(since="2027-01-01")) == []
    in_folder = searcher.search("café", filters=SearchFilters(folder=str(tmp_path / "docs")))
    assert in_folder
    assert searcher.search("café", filters=SearchFilters(folder=str(tmp_path / "other"))) == []


def test_another_embedder_degrades_to_keyword_only_and_reindex_fixes_it(
        index: LanceIndex, embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "index"
    meta_file = index.directory / "index_meta.json"  # as if built by another embedder
    meta_file.write_text(meta_file.read_text().replace(embedder.id, "some-other-model@1"))
    reopened = LanceIndex.open(root, embedder_id=embedder.id, dim=embedder.dim)
    assert not reopened.vector_usable
    searcher = HybridSearcher(reopened, embedder, Settings())
    found = searcher.search_with_report("devolução de produtos", k=3)
    hits = found.hits
    assert hits and all(h.legs == {"keyword"} for h in hits)
    assert "run reindex" in str(found.report.warnings[0])
    assert "some-other-model@1" in str(found.report.warnings[0])

    progress = list(reindex(root, reopened, embedder))
    assert progress[-1].documents_done == len(CORPUS)
    fresh = LanceIndex.open(root, embedder_id=embedder.id, dim=embedder.dim)
    assert fresh.vector_usable and fresh.stats().chunks == 6
    hits = HybridSearcher(fresh, embedder, Settings()).search("devolução de produtos", k=3)
    assert "vector" in hits[0].legs
    assert len([p for p in root.iterdir() if p.is_dir()]) == 1  # old generation deleted


def test_delete_removes_text_physically(index: LanceIndex, searcher: HybridSearcher,
                                        tmp_path: Path) -> None:
    canary = b"ZEBRA-CANARY-77341"
    assert searcher.search("ZEBRA-CANARY-77341", legs=("keyword",))
    index.delete_document("canary")
    assert not searcher.search("ZEBRA-CANARY-77341", legs=("keyword",))
    leftovers = [p for p in (tmp_path / "index").rglob("*")
                 if p.is_file() and canary in p.read_bytes()]
    assert leftovers == []
    assert index.stats().documents == 3


def test_recover_drops_chunks_of_an_incomplete_document(
        index: LanceIndex, embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Simulate a crash between writing chunks and writing the document row.
    vec = np.zeros((1, embedder.dim), dtype=np.float32)
    chunk = Chunk("halfdoc", 0, "texto pela metade", 1, 1, (), 0, 17, "x")
    record = DocumentRecord("halfdoc", "x", str(tmp_path / "x.md"), "md", "pt", 1, "h", 1, 1,
                            "2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z", embedder.id)
    index._docs.add = lambda rows: (_ for _ in ()).throw(OSError(5, "killed"))  # type: ignore[method-assign]
    with pytest.raises(AppError):  # the OSError surfaces as a user-facing AppError
        index.add_document(record, [chunk], vec)
    reopened = LanceIndex.open(tmp_path / "index", embedder_id=embedder.id, dim=embedder.dim)
    assert reopened.get_chunk("halfdoc:0") is None
    assert {d.doc_id for d in reopened.documents()} == set(CORPUS)
