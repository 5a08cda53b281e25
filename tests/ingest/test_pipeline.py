"""The ingestion pipeline end to end: real files, real embedder, real LanceDB."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.ingest.events import (
    ChunksEmbedded,
    FileDone,
    FileFailed,
    FileRemoved,
    FileSkipped,
    RunDone,
)

REPO = Path(__file__).resolve().parents[2]


class CountingEmbedder:
    """The real embedder, counting how many passages it was asked to embed."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.id = inner.id
        self.dim = inner.dim
        self.passages = 0

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        self.passages += len(texts)
        return self.inner.embed_passages(texts)

    def embed_query(self, text):  # type: ignore[no-untyped-def]
        return self.inner.embed_query(text)


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    application = build_app(embedder=CountingEmbedder(embedder))
    return application


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _run(app: App, *paths: Path, **kw) -> list:  # type: ignore[no-untyped-def]
    return list(app.pipeline.run(list(paths), **kw))


NOTE_PT = "# Férias\n\nO pedido de férias deve ser feito com trinta dias de antecedência.\n"
NOTE_EN = "# Coffee\n\nEspresso needs water at about 93 degrees Celsius.\n"


def test_folder_ingest_is_incremental(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    a = _write(folder / "ferias.md", NOTE_PT)
    _write(folder / "sub" / "coffee.txt", NOTE_EN)
    events = _run(app, folder)
    assert [e.path for e in events if isinstance(e, FileDone)] == sorted(
        [str(a.resolve()), str((folder / "sub" / "coffee.txt").resolve())])
    assert events[-1] == RunDone(indexed=2, skipped=0, failed=0, removed=0)
    assert any(isinstance(e, ChunksEmbedded) for e in events)

    again = _run(app, folder)
    assert again[-1] == RunDone(indexed=0, skipped=2, failed=0, removed=0)
    assert all(e.reason == "unchanged" for e in again if isinstance(e, FileSkipped))

    # A changed file replaces only its own chunks; unchanged chunk text is not re-embedded.
    embedder: CountingEmbedder = app.embedder  # type: ignore[assignment]
    before = embedder.passages
    a.write_text(NOTE_PT + "\n## Abono\n\nO abono pecuniário converte um terço das férias.\n",
                 encoding="utf-8")
    changed = _run(app, folder)
    assert changed[-1].indexed == 1 and changed[-1].skipped == 1
    docs = {Path(d.source_path).name: d for d in app.index.documents()}
    assert len(docs) == 2  # the old version of ferias.md is gone
    new_chunks = docs["ferias.md"].chunk_count
    assert embedder.passages - before < new_chunks + 1
    hits = app.searcher.search("abono pecuniario", k=3)
    assert hits[0].source_path == str(a.resolve())

    # A file that disappeared from the folder is removed from the index.
    a.unlink()
    pruned = _run(app, folder)
    assert [e.path for e in pruned if isinstance(e, FileRemoved)] == [str(a.resolve())]
    assert [Path(d.source_path).name for d in app.index.documents()] == ["coffee.txt"]


def test_a_document_read_by_an_older_reader_is_read_again_keeping_its_vectors(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import argparse

    from desktop_app.ingest import loaders
    from desktop_app.ingest.commands import cmd_documents_reread, cmd_documents_status
    from desktop_app.ingest.pipeline import read_before, read_before_paths

    folder = tmp_path / "docs"
    kept = _write(folder / "ferias.md", NOTE_PT)
    gone = _write(tmp_path / "solto.txt", NOTE_EN)
    assert _run(app, folder, gone)[-1].indexed == 2
    first = {Path(d.source_path).name: d for d in app.index.documents()}
    assert first["ferias.md"].reader == loaders.reader_version("md")
    assert read_before_paths(app.index.documents()) == ([], [])

    # a later Acervo reads Markdown better: what this one stored was read before it
    monkeypatch.setitem(loaders.TYPE_READER_VERSIONS, "md", 7)
    assert read_before(first["ferias.md"]) and not read_before(first["solto.txt"])
    monkeypatch.setattr(loaders, "READER_VERSION", loaders.READER_VERSION + 1)
    gone.unlink()
    assert read_before_paths(app.index.documents()) == ([kept.resolve()], [gone.resolve()])
    cmd_documents_status(argparse.Namespace(problems=False, json=False, library="local"), app)
    assert "1 file(s) read by an older version" in capsys.readouterr().out

    # a scan of its folder reads it again; its unchanged passages keep their vectors
    embedder: CountingEmbedder = app.embedder  # type: ignore[assignment]
    before = embedder.passages
    events = _run(app, folder, prune_missing=False)
    assert events[-1].indexed == 1
    assert embedder.passages == before  # the same text: no passage embedded again
    now = {Path(d.source_path).name: d for d in app.index.documents()}
    assert now["ferias.md"].doc_id != first["ferias.md"].doc_id  # replaced, not doubled
    assert now["ferias.md"].reader == loaders.reader_version("md")
    assert _run(app, folder, prune_missing=False)[-1].skipped == 1  # read once

    # `documents reread`: the file no longer found stays as it was read, and is said so
    assert cmd_documents_reread(argparse.Namespace(), app) == 0
    out = capsys.readouterr().out
    assert "solto.txt" in out and "file not found" in out
    assert "every document present was read by this version" in out
    assert {Path(d.source_path).name for d in app.index.documents()} == {"ferias.md",
                                                                         "solto.txt"}
    hits = app.searcher.search("pedido de férias antecedência", k=1)
    assert hits and hits[0].source_path == str(kept.resolve())


def test_bad_input_fails_one_file_and_the_run_continues(app: App, tmp_path: Path) -> None:
    good = _write(tmp_path / "ok.md", NOTE_PT)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    corrupt = tmp_path / "broken.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n1 0 obj <<>> garbage without xref")
    odd = _write(tmp_path / "data.xyz", "whatever")
    missing = tmp_path / "nope.md"
    events = _run(app, good, empty, corrupt, odd, missing)
    failed = {Path(e.path).name: e.reason for e in events if isinstance(e, FileFailed)}
    assert set(failed) == {"empty.txt", "broken.pdf", "data.xyz", "nope.md"}
    assert all(reason.strip() for reason in failed.values())
    assert events[-1].indexed == 1 and events[-1].failed == 4
    assert [Path(d.source_path).name for d in app.index.documents()] == ["ok.md"]


def test_symlink_loops_and_big_folders_are_walked_once(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "big"
    folder.mkdir()
    for i in range(10_000):
        (folder / f"blob{i:05}.dat").write_bytes(b"x")
    _write(folder / "nested" / "note.md", NOTE_PT)
    os.symlink(folder, folder / "nested" / "loop")
    events = _run(app, folder)
    assert [Path(e.path).name for e in events if isinstance(e, FileDone)] == ["note.md"]
    # the loop is said once and counted in the summary (issue 26), never read twice
    assert events[-1] == RunDone(indexed=1, skipped=0, failed=0, removed=0, links_skipped=1)
    assert [Path(e.path).name for e in events if isinstance(e, FileSkipped)] == ["loop"]


def test_cancel_leaves_nothing_half_written(app: App, tmp_path: Path) -> None:
    files = [_write(tmp_path / f"n{i}.md", NOTE_PT + f"\nnota {i}\n") for i in range(3)]
    seen: list = []

    def cancel() -> bool:
        return any(isinstance(e, FileDone) for e in seen)

    for event in app.pipeline.run(files, cancel=cancel):
        seen.append(event)
    assert seen[-1].cancelled and seen[-1].indexed == 1
    docs = app.index.documents()
    assert len(docs) == 1
    rows = app.index.iter_chunks()
    assert sum(1 for _ in rows) == docs[0].chunk_count


def test_disk_full_keeps_what_was_indexed(app: App, tmp_path: Path) -> None:
    first = _write(tmp_path / "a.md", NOTE_PT)
    assert _run(app, first)[-1].indexed == 1
    second = _write(tmp_path / "b.md", NOTE_EN)

    def full(rows):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    app.index._chunks.add = full  # type: ignore[method-assign]
    events = _run(app, second)
    failure = next(e for e in events if isinstance(e, FileFailed))
    assert "disk is full" in failure.reason
    assert [Path(d.source_path).name for d in app.index.documents()] == ["a.md"]


def test_deleting_a_document_purges_its_text_from_disk(app: App, tmp_path: Path) -> None:
    canary = "ORNITORRINCO-CANARIO-99120"
    doc = _write(tmp_path / "secret.md", f"# Segredo\n\nA senha do cofre é {canary}.\n")
    _write(tmp_path / "other.md", NOTE_EN)
    _run(app, tmp_path)
    record = next(d for d in app.index.documents() if d.source_path == str(doc.resolve()))
    assert app.searcher.search(canary.lower(), legs=("keyword",))
    app.pipeline.remove_document(record.doc_id)
    data_dir = app.paths.data_dir
    holders = [p for p in data_dir.rglob("*") if p.is_file() and canary.encode() in p.read_bytes()]
    assert holders == []
    grep = subprocess.run(["grep", "-r", "-l", canary, str(data_dir)], capture_output=True)
    assert grep.returncode == 1, grep.stdout


@pytest.mark.slow
def test_killed_mid_ingest_leaves_a_consistent_index_and_resumes(
        tmp_path: Path, acervo_home: Path, e5_model_dir: Path) -> None:
    folder = tmp_path / "docs"
    para = "Parágrafo sobre proteção de dados pessoais e direitos do titular. " * 12
    for i in range(6):
        _write(folder / f"doc{i}.md", f"# Documento {i}\n\n" + "\n\n".join([para] * 15))
    env = dict(os.environ, ACERVO_HOME=str(acervo_home))
    env.pop("PYTHONUNBUFFERED", None)  # the CLI must flush "indexed" lines itself
    models = acervo_home / "data" / "models"
    models.mkdir(parents=True, exist_ok=True)
    os.symlink(e5_model_dir, models / e5_model_dir.name)
    proc = subprocess.Popen([sys.executable, "-m", "desktop_app", "ingest", str(folder)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 300
    for line in proc.stdout:
        if line.startswith("indexed") or time.monotonic() > deadline:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()

    app = build_app()
    docs = app.index.documents()
    assert 1 <= len(docs) < 6
    per_doc: dict[str, int] = {}
    for row in app.index.iter_chunks():
        per_doc[row.doc_id] = per_doc.get(row.doc_id, 0) + 1
    assert per_doc == {d.doc_id: d.chunk_count for d in docs}  # every document complete

    resumed = list(app.pipeline.run([folder]))
    assert resumed[-1].skipped == len(docs) and resumed[-1].indexed == 6 - len(docs)
