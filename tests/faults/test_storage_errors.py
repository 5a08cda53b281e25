"""Full disks and read-only homes: one sentence, the summary still printed, a documented code.

Two ways to make storage fail: fault injection at the write boundary (LanceDB's and
SQLite's own error texts, raised where they would be; runs anywhere), and the real thing
when the tests run as root — a 1.5 MB tmpfs that fills up, and a read-only bind mount of
a populated home (chmod does not stop root, so that is not used).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.errors import (
    EXIT_CODES,
    DiskFullError,
    ReadOnlyStorageError,
    storage_error,
)
from desktop_app.ingest.events import FileFailed, RunDone

from .helpers import REPO, assert_clear, cli_env, library_state, link_models, write_notes

LANCE_ENOSPC = ("lance error: LanceError(IO): No space left on device (os error 28), "
                "/root/.cargo/registry/src/lance-file-13.0.0/src/writer/structural.rs:191:9")


@pytest.mark.parametrize(("error", "expected"), [
    (RuntimeError(LANCE_ENOSPC), DiskFullError),
    (OSError(28, "No space left on device"), DiskFullError),
    (sqlite3.OperationalError("database or disk is full"), DiskFullError),
    (RuntimeError("lance error: Read-only file system (os error 30)"), ReadOnlyStorageError),
    (sqlite3.OperationalError("attempt to write a readonly database"), ReadOnlyStorageError),
    (OSError(13, "Permission denied"), ReadOnlyStorageError),
    (RuntimeError("lance error: Retryable commit conflict for version 21"), type(None)),
    (ValueError("Table 'chunks' already exists"), type(None)),
])
def test_storage_errors_are_recognised_in_every_dialect(error: BaseException,
                                                        expected: type) -> None:
    mapped = storage_error(error, "/home/ana/.local/share/Acervo")
    assert isinstance(mapped, expected)
    if mapped is not None:
        assert mapped.exit_code in EXIT_CODES and mapped.user_message.endswith("lost.")
        assert "os error" not in mapped.user_message


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    application = build_app(embedder=embedder)
    return application


def test_a_full_disk_mid_ingest_stops_the_run_keeps_the_library_and_reports(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notes = write_notes(tmp_path / "docs", 4)
    events = list(app.pipeline.run(notes[:2]))
    assert events[-1].indexed == 2
    table = app.index._chunks

    def full(rows):  # type: ignore[no-untyped-def]
        raise RuntimeError(LANCE_ENOSPC)  # what LanceDB raises when the disk fills

    monkeypatch.setattr(table, "add", full)
    events = list(app.pipeline.run(notes))
    done = events[-1]
    assert isinstance(done, RunDone)
    assert done.exit_code == 4 and "The disk is full" in done.stopped
    failures = [e for e in events if isinstance(e, FileFailed)]
    assert len(failures) == 1 and "The disk is full" in failures[0].reason  # then it stopped
    assert (done.indexed, done.skipped, done.failed) == (0, 2, 1)
    assert sorted(d.title for d in app.index.documents()) == ["Nota 0", "Nota 1"]


def test_a_full_disk_at_the_final_compaction_still_yields_the_summary(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notes = write_notes(tmp_path / "docs", 2)

    def full() -> None:
        raise DiskFullError("The disk is full: free some space and try again.")

    monkeypatch.setattr(app.index, "purge", full)
    done = list(app.pipeline.run(notes))[-1]
    assert done.indexed == 2 and done.exit_code == 4 and done.stopped


def test_a_read_only_state_database_reads_and_refuses_writes_clearly(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.state_db import StateDB

    db = StateDB.open(app.paths.state_db)
    db.set_kv("probe", "1")

    class ReadOnlyConnection:
        """The real connection; every write answers as SQLite does on a read-only file."""

        def __init__(self, inner: sqlite3.Connection) -> None:
            self._inner = inner

        def execute(self, sql: str, *args):  # type: ignore[no-untyped-def]
            if sql.split()[0].upper() in ("BEGIN", "INSERT", "UPDATE", "DELETE", "VACUUM"):
                raise sqlite3.OperationalError("attempt to write a readonly database")
            return self._inner.execute(sql, *args)

        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(self._inner, name)

    monkeypatch.setattr(db, "_conn", ReadOnlyConnection(db._conn))
    assert db.get_kv("probe") == "1"
    with pytest.raises(ReadOnlyStorageError, match="read-only"):
        db.set_kv("probe", "2")
    with pytest.raises(ReadOnlyStorageError):
        db.vacuum()


# ---- the real thing (root only) ---------------------------------------------------------


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


@pytest.fixture()
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    target = tmp_path / "tiny"
    target.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None or not _mount(
            "-t", "tmpfs", "-o", "size=1500k", "tmpfs", str(target)):
        pytest.skip("needs root and tmpfs to fill a real disk (fault injection covers it)")
    yield target
    subprocess.run(["umount", "-l", str(target)], check=False)


def _cli(home: Path, *args: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "desktop_app", *map(str, args)], cwd=REPO,
                            env=cli_env(home), capture_output=True, text=True, timeout=900)
    assert_clear(result)
    return result


def _bulky_notes(folder: Path, count: int) -> None:
    import random

    rng = random.Random(5)
    words = ["dados", "pessoais", "titular", "controlador", "tratamento", "finalidade",
             "consentimento", "anonimização", "agente", "segurança", "incidente", "proteção"]
    folder.mkdir()
    for i in range(count):
        body = "\n\n".join(" ".join(rng.choice(words) for _ in range(120)) + "."
                           for _ in range(30))
        (folder / f"big{i:02}.md").write_text(f"# Big {i}\n\n{body}\n", encoding="utf-8")


@pytest.mark.slow
def test_a_real_full_disk(tiny_tmpfs: Path, tmp_path: Path, e5_model_dir: Path) -> None:
    link_models(tiny_tmpfs, e5_model_dir)
    folder = tmp_path / "docs"
    _bulky_notes(folder, 40)
    result = _cli(tiny_tmpfs, "ingest", folder)
    assert result.returncode == 4, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[-2].startswith("stopped: The disk is full")
    assert lines[-1].startswith("done: ")
    indexed = sum(line.startswith("indexed") for line in lines)
    listed = _cli(tiny_tmpfs, "documents", "list")
    assert listed.returncode == 0  # reading works on a full disk
    per_path, per_doc, duplicates = library_state(tiny_tmpfs)
    assert len(per_path) == indexed and duplicates == 0  # 0 lost, 0 twice
    assert _cli(tiny_tmpfs, "search", "titular").returncode == 0


@pytest.mark.slow
def test_a_real_read_only_home(tmp_path: Path, e5_model_dir: Path) -> None:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root for a read-only bind mount (fault injection covers it)")
    home = tmp_path / "home"
    link_models(home, e5_model_dir)
    write_notes(tmp_path / "docs", 2)
    assert _cli(home, "ingest", tmp_path / "docs").returncode == 0
    assert _cli(home, "memory", "remember", "Lembre que eu prefiro café sem açúcar"
                ).returncode == 0
    read_only = tmp_path / "ro"
    read_only.mkdir()
    if not (_mount("--bind", str(home), str(read_only))
            and _mount("-o", "remount,ro,bind", str(read_only))):
        pytest.skip("bind mounts are not permitted here")
    try:
        for args in (["search", "titular"], ["documents", "list"], ["memory", "list"],
                     ["ask", "--no-llm", "quais são os direitos do titular?"]):
            assert _cli(read_only, *args).returncode == 0, args
        for args in (["memory", "remember", "Lembre que eu moro em Recife"],
                     ["ingest", tmp_path / "docs"], ["chat", "--no-llm", "olá"]):
            refused = _cli(read_only, *args)
            assert refused.returncode == 5, args
            assert "read-only" in refused.stdout + refused.stderr
        assert "café sem açúcar" in _cli(read_only, "memory", "list").stdout
    finally:
        subprocess.run(["umount", "-l", str(read_only)], check=False)
