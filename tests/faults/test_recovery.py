"""Recovery and consistency after interruptions, on a real LanceDB library.

Issue 11: recovery deleted both copies of a document two ingests had written (it keyed on
doc id); a kill before the run's final index step left keyword search degraded for good;
`doctor` looked for tables in `data/index` instead of the active generation. Here: the
recovery plan keys rows by identity, a library written twice comes back once, an ingest
cut before its final step is repaired when the library is next opened (and ranks like a
clean ingest), `doctor --repair` fixes what opening could not, and `doctor` reads the
active generation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.config.settings import Settings
from desktop_app.ingest.pipeline import IngestPipeline
from desktop_app.retrieval.index import LanceIndex
from desktop_app.retrieval.index_repair import plan_recovery
from desktop_app.retrieval.search import HybridSearcher

from .helpers import library_state, write_notes

QUERIES = ("direitos do titular", "prazos de resposta número 23", "proteção de dados nota 4")


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    application = build_app(embedder=embedder)
    return application


def _doc(doc_id: str, path: str, at: str, chunks: int, rowid: int) -> dict[str, object]:
    return {"doc_id": doc_id, "source_path": path, "ingested_at": at, "chunk_count": chunks,
            "_rowid": rowid}


def _chunks(doc_id: str, count: int, first_rowid: int) -> list[dict[str, object]]:
    return [{"doc_id": doc_id, "chunk_id": f"{doc_id}:{i}", "_rowid": first_rowid + i}
            for i in range(count)]


def test_the_recovery_plan_keys_rows_by_identity_and_never_drops_the_only_complete_copy(
        ) -> None:
    # Two unlocked ingests wrote document "a" twice: same doc id, different row ids.
    twice = plan_recovery([_doc("a", "/n/a.md", "t1", 2, 0), _doc("a", "/n/a.md", "t1", 2, 9)],
                          _chunks("a", 2, 1) + _chunks("a", 2, 10))
    assert twice.duplicate_document_rows == [9] and twice.duplicate_chunk_rows == [10, 11]
    assert not (twice.superseded_documents or twice.incomplete_documents
                or twice.orphan_chunk_docs)

    plan = plan_recovery(
        [_doc("b1", "/n/b.md", "t1", 1, 0), _doc("b2", "/n/b.md", "t2", 1, 1),  # edited file
         _doc("c1", "/n/c.md", "t1", 2, 2), _doc("c2", "/n/c.md", "t2", 3, 3),  # new one cut
         _doc("e", "/n/e.md", "t1", 1, 4)],
        _chunks("b1", 1, 10) + _chunks("b2", 1, 20) + _chunks("c1", 2, 30)
        + _chunks("c2", 1, 40) + _chunks("d", 2, 50) + _chunks("e", 1, 60))
    assert plan.superseded_documents == ["b1"]  # the newer complete version stays
    assert plan.incomplete_documents == ["c2"]  # c1, the only complete copy of c.md, stays
    assert plan.orphan_chunk_docs == ["d"]  # killed between the chunks and the document row
    assert plan.fixes == 3 and len(plan.problems()) == 3


def test_a_library_written_twice_comes_back_once_not_empty(app: App, tmp_path: Path,
                                                           acervo_home: Path) -> None:
    notes = write_notes(tmp_path / "docs", 4)
    assert list(app.pipeline.run(notes))[-1].indexed == 4
    index = app.index
    docs, chunks = index._docs.to_arrow(), index._chunks.to_arrow()
    index._docs.add(docs)  # what two unlocked ingests did: every row twice, same doc ids
    index._chunks.add(chunks)
    assert library_state(acervo_home)[2] == 4

    reopened = LanceIndex.open(app.paths.index_dir, embedder_id=app.embedder.id,
                               dim=app.embedder.dim)
    assert any("duplicate" in p for p in reopened.repaired_on_open)
    per_path, per_doc, duplicates = library_state(acervo_home)
    assert duplicates == 0 and sorted(per_path) == sorted(str(p.resolve()) for p in notes)
    assert all(n == 1 for n in per_path.values())
    assert {d.doc_id: d.chunk_count for d in reopened.documents()} == per_doc
    assert reopened.check() == []


def _keyword_ranking(index: LanceIndex, embedder) -> list[list[str]]:  # type: ignore[no-untyped-def]
    searcher = HybridSearcher(index, embedder, Settings())
    return [[h.chunk_id for h in searcher.search(q, k=10, legs=("keyword",))] for q in QUERIES]


def _ingest_cut_before_the_final_step(app: App, notes: list[Path],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file indexed, then the process 'dies' before compaction folds the later rows
    into the keyword index (what a kill after the last 'indexed' line left)."""
    index = app.index
    with monkeypatch.context() as patch:
        patch.setattr(index, "optimize", lambda: None)  # the run's final index step
        assert list(app.pipeline.run(notes))[-1].indexed == len(notes)
    assert index.unindexed_rows() > 0  # the damaged state, for real
    assert any("keyword index" in p for p in index.check())


def test_an_ingest_cut_before_its_final_index_step_is_repaired_on_the_next_open(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notes = write_notes(tmp_path / "docs", 6)
    _ingest_cut_before_the_final_step(app, notes, monkeypatch)

    reopened = LanceIndex.open(app.paths.index_dir, embedder_id=app.embedder.id,
                               dim=app.embedder.dim)
    assert any("keyword index" in p for p in reopened.repaired_on_open)
    assert reopened.check() == [] and reopened.unindexed_rows() == 0

    clean = LanceIndex.open(tmp_path / "clean" / "index", embedder_id=app.embedder.id,
                            dim=app.embedder.dim)
    list(IngestPipeline(clean, app.embedder, Settings()).run(notes))
    assert _keyword_ranking(reopened, app.embedder) == _keyword_ranking(clean, app.embedder)


def test_doctor_repair_fixes_what_opening_left(app: App, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.privacy.doctor import format_report, run_doctor

    _ingest_cut_before_the_final_step(app, write_notes(tmp_path / "docs", 5), monkeypatch)
    # The next window opened it while another process was writing: no repair on open.
    monkeypatch.setattr(LanceIndex, "recover_if_idle", lambda self: [])
    later = build_app(embedder=app.embedder)
    checked = format_report(run_doctor(later, deep=False))
    assert "INCONSISTENT" in checked and "doctor --repair" in checked

    repaired = format_report(run_doctor(later, deep=False, repair=True))
    assert "repaired: " in repaired and "keyword index" in repaired
    assert later.index.check() == []
    assert "consistency: sound" in format_report(run_doctor(later, deep=False))


def test_doctor_reads_the_active_generation(app: App, tmp_path: Path) -> None:
    from desktop_app.privacy.doctor import format_report, run_doctor
    from desktop_app.retrieval.reindex import reindex

    list(app.pipeline.run(write_notes(tmp_path / "docs", 2)))
    list(reindex(app.paths.index_dir, app.index, app.embedder))
    report = format_report(run_doctor(app, deep=False))
    assert "active generation: g2" in report
    assert "table chunks" in report and "table documents" in report
    assert "(no tables)" not in report and "consistency: sound" in report
