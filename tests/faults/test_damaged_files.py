"""Damaged files on disk: real LanceDB tables truncated and deleted, a real SQLite file garbled.

Issue 26: one truncated data file of the chunks table made `search`, `ask`, `documents list`,
`ingest` and `reindex` print tracebacks, and `doctor --repair` said OK with exit 0 although
nothing was checked. Here: the damage is found when the library opens, set aside in one
sentence, search keeps working on what is intact, `doctor` says NOT OK, and `doctor --repair`
rebuilds from what still exists — the other table and the source files (re-embedding only
the passages that were lost) — until every document is back. The memory and recall indexes
are made again from the database; a damaged database is set aside, never overwritten, and
what it still holds is recovered.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.errors import DamagedStoreError, StorageError
from desktop_app.locking import add_wait_notice
from desktop_app.privacy.doctor import DoctorReport, format_report, run_doctor
from desktop_app.retrieval import lancedb_io
from desktop_app.retrieval.index import LanceIndex
from desktop_app.retrieval.search import SearchWarningCode

from .helpers import REPO, assert_clear, cli_env, library_state, write_notes


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    return build_app(embedder=embedder)


def _library(app: App, folder: Path, count: int = 6) -> list[Path]:
    notes = write_notes(folder, count)
    assert list(app.pipeline.run(notes))[-1].indexed == count
    return notes


def _generation(app: App) -> Path:
    return app.index.directory


def _data_files(app: App, table: str) -> list[Path]:
    return sorted((_generation(app) / f"{table}.lance" / "data").glob("*.lance"),
                  key=lambda p: p.stat().st_size)


def _reopened(app: App) -> App:
    """A new process's view of the same home (nothing cached)."""
    return build_app(embedder=app.embedder)


def _stores_ok(report: DoctorReport) -> bool:
    """No problem with the stores (an in-process doctor also misses the CLI's logging)."""
    return not [p for p in report.problems if "logging" not in p]


def _titles(app: App, query: str) -> set[str]:
    return {h.title for h in app.searcher.search(query, k=20)}


def test_a_truncated_chunks_file_is_set_aside_and_doctor_repair_reads_it_again(
        app: App, tmp_path: Path, acervo_home: Path) -> None:
    notes = _library(app, tmp_path / "docs")
    for note in notes[3:]:  # a second write: the table gets a second data file
        note.write_text(note.read_text() + "\nAcréscimo sobre retenção de faturas.\n")
    list(app.pipeline.run(notes))
    counts = {d.doc_id: d.chunk_count for d in app.index.documents()}
    damaged = _data_files(app, "chunks")[-1]
    assert len(_data_files(app, "chunks")) >= 2
    with damaged.open("r+b") as fh:  # a disk error cut it short
        fh.truncate(damaged.stat().st_size // 3)
    assert lancedb_io.table_damage(_generation(app), "chunks").fragments

    notices: list[str] = []
    remove = add_wait_notice(notices.append)
    try:
        later = _reopened(app)
        documents = later.index.documents()
    finally:
        remove()
    assert len(notices) == 1 and "set aside" in notices[0] and "doctor --repair" in notices[0]
    assert "Traceback" not in notices[0] and ".lance" not in notices[0]
    lost = [d for d in documents if d.notes and "damaged index file" in d.notes[-1]]
    assert len(documents) == 6 and lost  # every document still listed, the lost ones noted
    found = _titles(later, "proteção de dados pessoais direitos do titular")
    assert found and found <= {d.title for d in documents}
    report = later.searcher.search_with_report(
        "proteção de dados pessoais direitos do titular").report
    assert any(w.code == SearchWarningCode.DAMAGED for w in report.warnings)

    checked = run_doctor(later, deep=True)
    assert not _stores_ok(checked) and "lost passages" in format_report(checked)

    repaired = run_doctor(later, deep=True, repair=True)
    text = format_report(repaired)
    assert _stores_ok(repaired), text
    assert f"read again from their files: {len(lost)} of {len(lost)} documents" in text
    embedded = int(text.split("documents (")[1].split(" passages embedded")[0])
    assert embedded == sum(counts[d.doc_id] for d in lost)  # only what was lost

    fresh = _reopened(app)
    per_path, per_doc, duplicates = library_state(acervo_home)
    assert duplicates == 0 and len(per_path) == 6
    assert {d.doc_id: d.chunk_count for d in fresh.index.documents()} == per_doc
    assert not any(d.notes for d in fresh.index.documents())
    assert fresh.index.check(deep=True) == []
    assert _titles(fresh, "Acréscimo sobre retenção de faturas") >= {
        d.title for d in fresh.index.documents() if d.source_path.endswith(("03.md", "04.md",
                                                                             "05.md"))}


def test_a_deleted_deletion_file_is_healed_and_the_removed_document_stays_removed(
        app: App, tmp_path: Path, acervo_home: Path) -> None:
    """LanceDB cannot delete from a table one of whose deletion files is gone: the heal writes
    the chunks table again without that fragment (its search indexes built anew), and the
    rows the deletion file hid — a removed document's passages — do not come back."""
    _library(app, tmp_path / "docs")
    removed = next(d for d in app.index.documents() if d.source_path.endswith("03.md"))
    app.index.delete_document(removed.doc_id, purge=False)  # leaves a deletion file
    deletions = list((_generation(app) / "chunks.lance" / "_deletions").iterdir())
    assert deletions
    for path in deletions:
        path.unlink()
    assert lancedb_io.table_damage(_generation(app), "chunks").fragments

    later = _reopened(app)
    documents = later.index.documents()
    assert len(documents) == 5 and removed.doc_id not in {d.doc_id for d in documents}
    repaired = run_doctor(later, deep=True, repair=True)
    assert _stores_ok(repaired), format_report(repaired)

    fresh = _reopened(app)
    assert fresh.index.check(deep=True) == []
    assert removed.doc_id not in {d.doc_id for d in fresh.index.documents()}
    found = _titles(fresh, "proteção de dados pessoais direitos do titular")
    assert found and removed.title not in found
    per_path, _per_doc, duplicates = library_state(acervo_home)
    assert duplicates == 0 and len(per_path) == 5


def test_a_deleted_documents_table_is_rebuilt_from_the_passages(
        app: App, tmp_path: Path, acervo_home: Path) -> None:
    _library(app, tmp_path / "docs", 4)
    before = {d.doc_id: d for d in app.index.documents()}
    shutil.rmtree(_generation(app) / "documents.lance")  # a sync tool removed it

    later = _reopened(app)
    rebuilt = {d.doc_id: d for d in later.index.documents()}
    assert rebuilt.keys() == before.keys()
    assert all(rebuilt[i].title == before[i].title and rebuilt[i].source_path
               == before[i].source_path for i in before)
    assert _titles(later, "direitos do titular")  # search never stopped

    text = format_report(run_doctor(later, deep=False, repair=True))
    assert "4 documents (0 passages embedded, 4 reused)" in text  # nothing embedded again
    fresh = _reopened(app).index
    assert {d.doc_id: d.content_hash for d in fresh.documents()} == {
        i: d.content_hash for i, d in before.items()}
    assert fresh.check() == [] and library_state(acervo_home)[2] == 0


def test_a_deleted_chunks_table_keeps_the_list_and_is_read_again_from_the_files(
        app: App, tmp_path: Path, acervo_home: Path) -> None:
    notes = _library(app, tmp_path / "docs", 3)
    shutil.rmtree(_generation(app) / "chunks.lance")
    notes[0].unlink()  # and one source file is gone too: that one cannot come back

    later = _reopened(app)
    assert len(later.index.documents()) == 3
    found = later.searcher.search_with_report("direitos do titular")
    assert found.hits == []
    assert any(w.code == SearchWarningCode.DAMAGED for w in found.report.warnings)

    report = run_doctor(later, deep=False, repair=True)
    text = format_report(report)
    assert "read again from their files: 2 of 2 documents" in text
    assert "could not recover" in text and notes[0].name in text
    assert not _stores_ok(report)  # what could not be recovered is still a problem
    assert len(_titles(_reopened(app), "direitos do titular")) == 2



def _clear_cli(home: Path, *args: object) -> subprocess.CompletedProcess[str]:
    """`desktop-app ARGS` in `home`, its output checked for tracebacks and raw errors."""
    result = subprocess.run([sys.executable, "-m", "desktop_app", *map(str, args)],
                            cwd=REPO, env=cli_env(home), capture_output=True, text=True,
                            timeout=600)
    assert_clear(result)
    return result

@pytest.mark.slow  # over a second: the full tier only
def test_damage_found_while_another_process_writes_is_one_sentence_in_every_command(
        home: Path, tmp_path: Path) -> None:
    notes = write_notes(tmp_path / "docs", 3)

    def cli(*args: object) -> subprocess.CompletedProcess[str]:
        return _clear_cli(home, *args)

    cli("ingest", notes[0].parent)
    generation = home / "data" / "index" / "g1"
    for data in (generation / "chunks.lance" / "data").glob("*.lance"):
        data.write_bytes(data.read_bytes()[:200])
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(home / "data")], cwd=REPO,
                              env=cli_env(home), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        searched = cli("search", "titular")
        assert searched.returncode == 0 and "doctor --repair" in searched.stderr
        assert cli("documents", "list").returncode == 0
        doctor = cli("doctor", "--quick")
        assert doctor.returncode == 1 and "NOT OK" in doctor.stdout
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(60)
    assert cli("ingest", notes[0].parent).returncode == 0  # heals on open, then re-reads
    doctor = cli("doctor", "--quick")
    assert doctor.returncode == 0, doctor.stdout


HOLDER = '''
import sys
from pathlib import Path
from desktop_app.locking import LIBRARY, writer_lock
with writer_lock(Path(sys.argv[1]), LIBRARY).hold("a long reindex in another window"):
    print("held", flush=True)
    sys.stdin.readline()
'''


def test_doctor_is_not_ok_about_what_it_could_not_check(app: App, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _library(app, tmp_path / "docs", 1)

    def full_disk(self: LanceIndex, **_kw: object) -> list[str]:
        raise StorageError("The disk is full: free some space and try again.")

    monkeypatch.setattr(LanceIndex, "repair", full_disk)
    report = run_doctor(app, deep=False, repair=True)
    assert not _stores_ok(report) and "could not be checked" in " ".join(report.problems)


def test_an_unreadable_pointer_falls_back_to_the_newest_generation(app: App,
                                                                   tmp_path: Path) -> None:
    _library(app, tmp_path / "docs", 2)
    (app.paths.index_dir / "current.json").write_text("{garbled", encoding="utf-8")
    later = _reopened(app)
    assert len(later.index.documents()) == 2
    assert '"g1"' in (app.paths.index_dir / "current.json").read_text(encoding="utf-8")


def test_damaged_memory_and_recall_indexes_are_made_again_from_the_database(
        app: App, acervo_home: Path) -> None:
    conversation = app.conversations.new_conversation("t")
    for n in range(3):
        message = app.conversations.add_user_message(conversation, f"Meu ramal {n} é 40{n}1.")
        app.memory.remember(message)
        app.conversations.add_assistant_message(conversation, "Anotado.", {})
    app.recall.sync()
    rows = app.recall.index.count()  # its exchanges and, as rows of their own, their turns
    assert rows >= 3
    memory_dir, recall_dir = app.paths.memory_index_dir, app.paths.data_dir / "recall"
    for folder, table in ((memory_dir, "memories"), (recall_dir, "exchanges")):
        for data in (folder / f"{table}.lance" / "data").glob("*.lance"):
            data.write_bytes(b"")
        assert lancedb_io.table_damage(folder, table)
    app.close()

    later = _reopened(app)
    assert not format_report(run_doctor(later, deep=False)).count("files sound")
    assert {m.text for m in later.memory.search("ramal 1")}  # rebuilt on open
    assert later.recall.reopen_index() == rows
    assert not lancedb_io.table_damage(memory_dir, "memories")
    assert "files sound" in format_report(run_doctor(_reopened(app), deep=False))


def test_a_damaged_state_database_is_set_aside_and_what_it_holds_recovered(
        app: App, acervo_home: Path) -> None:
    from desktop_app.state_db import StateDB

    conversation = app.conversations.new_conversation("t")
    for n in range(40):
        message = app.conversations.add_user_message(conversation, f"Meu ramal {n} é {n}01.")
        if n < 3:
            app.memory.remember(message)
    app.close()
    path = app.paths.state_db
    original = path.read_bytes()
    page = 4096
    garbled = bytearray(original)
    garbled[6 * page:7 * page] = b"\xff" * page  # one page of the file overwritten
    path.write_bytes(bytes(garbled))

    later = _reopened(app)
    checked = run_doctor(later, deep=True)
    assert not _stores_ok(checked) and "database is damaged" in " ".join(checked.problems)
    repaired = format_report(run_doctor(later, deep=True, repair=True))
    assert "set aside" in repaired and "recovered:" in repaired
    aside = sorted(path.parent.glob("state.sqlite3.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == bytes(garbled)  # kept, not overwritten
    assert StateDB.open(path).integrity_problems() == []
    assert len(_reopened(app).memory.list_items()) == 3


def test_a_state_file_that_is_not_a_database_is_one_sentence(app: App) -> None:
    from desktop_app.state_db import StateDB

    app.paths.state_db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DamagedStoreError, match="doctor --repair"):
        StateDB.open(app.paths.state_db)
    later = _reopened(app)
    list(later.answer_service.ask("direitos do titular", sources_only=True))  # still answers


@pytest.mark.slow  # over a second: the full tier only
def test_the_cli_shows_no_traceback_for_a_damaged_library(home: Path, tmp_path: Path) -> None:
    notes = write_notes(tmp_path / "docs", 3)

    def cli(*args: object) -> subprocess.CompletedProcess[str]:
        return _clear_cli(home, *args)

    cli("ingest", notes[0].parent)
    for data in (home / "data" / "index" / "g1" / "documents.lance" / "data").glob("*.lance"):
        data.unlink()
    listed = cli("documents", "list")
    assert listed.returncode == 0 and listed.stdout.splitlines()[-1].startswith("3 documents")
    assert "rebuilt from their passages" in listed.stderr
    assert cli("search", "titular").returncode == 0
    assert cli("doctor", "--quick").returncode == 1
    assert cli("doctor", "--quick", "--repair").returncode == 0
    assert cli("doctor", "--quick").returncode == 0


def test_indexes_side_by_side_are_not_generations_of_one_library(tmp_path: Path) -> None:
    """Evaluation caches keep several indexes in one folder, without a pointer: each is
    current (writable, checked on open), and only g1, g2… count as generations."""
    from desktop_app.retrieval.index import LanceIndex, current_generation

    first = LanceIndex.open_generation(tmp_path / "faquad", embedder_id="e", dim=4)
    second = LanceIndex.open_generation(tmp_path / "pira", embedder_id="e", dim=4)
    assert current_generation(tmp_path) is None
    assert first.is_current() and second.is_current()
    with first.writing("a test"):
        pass
