"""Watched folders: real file events (watchdog, and its polling fallback) through the real
pipeline and index — a saved file becomes searchable, a changed one re-embeds only what
changed, a renamed one reuses its vectors, a deleted one leaves the library."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS
from desktop_app.library.folders import Folders, WatchedFolder
from desktop_app.library.sync import SummaryCollector, apply_batch, indexed_paths, start_up
from desktop_app.library.watch import ChangeBatch, FolderWatcher

SUPPORTED = frozenset(SUPPORTED_EXTENSIONS)


class CountingEmbedder:
    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.id, self.dim, self.passages = inner, inner.id, inner.dim, 0

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        self.passages += len(texts)
        return self.inner.embed_passages(texts)

    def embed_query(self, text):  # type: ignore[no-untyped-def]
        return self.inner.embed_query(text)


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    return build_app(embedder=CountingEmbedder(embedder), llm=None)


def _next(watcher: FolderWatcher, timeout: float = 20.0) -> ChangeBatch:
    batch = watcher.next_batch(timeout=timeout)
    assert batch, "no change was reported"
    return batch


def _titles(app: App) -> set[str]:
    return {r.title for r in app.index.documents()}


@pytest.mark.parametrize("polling", [False, True], ids=["events", "polling"])
@pytest.mark.slow  # over a second: the full tier only
def test_saved_changed_renamed_deleted_files_follow_the_folder(
        app: App, tmp_path: Path, polling: bool) -> None:
    folder = tmp_path / "watched"
    folder.mkdir()
    added = Folders(app.library_state).add(folder, polling=polling)
    assert added.polling is polling
    watcher = FolderWatcher([added], SUPPORTED, debounce=0.3, poll_seconds=0.5)
    watcher.start()
    try:
        assert watcher.polled == ([added.path] if polling else [])
        # saved: searchable
        note = folder / "sub" / "prazo.md"
        note.parent.mkdir()
        note.write_text("# Prazo\n\nO recurso deve ser interposto em quinze dias úteis.\n",
                        encoding="utf-8")
        (folder / "~$prazo.docx").write_bytes(b"lock")  # an office lock file: ignored
        (folder / ".oculto.md").write_text("# hidden\n", encoding="utf-8")
        batch = _next(watcher)
        collector = SummaryCollector(indexed_paths(app.pipeline))
        for event in apply_batch(app.pipeline, batch):
            collector.add(event)
        assert collector.summary.added == ["prazo.md"], collector.summary.english()
        assert _titles(app) == {"Prazo"}
        hits = app.searcher.search("prazo do recurso quinze dias", k=3)
        assert hits and hits[0].title == "Prazo"

        # renamed: the new name reuses the vectors, the old one leaves
        embedded = app.embedder.passages  # type: ignore[attr-defined]
        note.rename(folder / "prazo-recurso.md")
        batch = _next(watcher)
        assert batch.removed and batch.files  # both halves of the move, in one batch
        list(apply_batch(app.pipeline, batch))
        docs = app.index.documents()
        assert [Path(d.source_path).name for d in docs] == ["prazo-recurso.md"]
        assert app.embedder.passages == embedded  # type: ignore[attr-defined]

        # deleted: it leaves the library
        (folder / "prazo-recurso.md").unlink()
        collector = SummaryCollector()
        for event in apply_batch(app.pipeline, _next(watcher)):
            collector.add(event)
        assert collector.summary.removed == ["prazo-recurso.md"]
        assert app.index.documents() == []
    finally:
        watcher.stop()


def test_a_file_still_being_written_waits_for_a_quiet_moment(tmp_path: Path) -> None:
    folder = WatchedFolder(str(tmp_path), watch=True, polling=False)
    watcher = FolderWatcher([folder], SUPPORTED, debounce=1.0)
    growing = tmp_path / "big.txt"
    growing.write_text("a", encoding="utf-8")
    watcher.file_changed(growing, "created")
    t0 = time.monotonic()
    assert not watcher.take_ready(t0 + 0.5)  # not quiet long enough
    growing.write_text("a much longer text now", encoding="utf-8")  # still being written
    assert not watcher.take_ready(t0 + 1.5)
    assert watcher.take_ready(t0 + 3.0).created == {growing}
    # a file created then deleted within the quiet period is only a removal
    gone = tmp_path / "gone.md"
    watcher.file_changed(gone, "created")
    watcher.file_removed(gone)
    batch = watcher.take_ready(time.monotonic() + 2)
    assert not batch.files and batch.removed
    assert not watcher.wanted(tmp_path / "~$x.docx") and not watcher.wanted(tmp_path / "a.exe")


def test_start_up_catches_up_with_what_changed_while_closed(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "watched"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nPrimeiro texto sobre contratos.\n", encoding="utf-8")
    (folder / "b.md").write_text("# B\n\nSegundo texto sobre licitações.\n", encoding="utf-8")
    folders = Folders(app.library_state)
    folders.add(folder)
    assert list(start_up(app.pipeline, folders))[-1].indexed == 2
    # while "closed": one deleted, one added, one unchanged
    (folder / "a.md").unlink()
    (folder / "c.md").write_text("# C\n\nTerceiro texto sobre convênios.\n", encoding="utf-8")
    done = list(start_up(app.pipeline, folders))[-1]
    assert (done.indexed, done.skipped, done.removed) == (1, 1, 1)
    assert _titles(app) == {"B", "C"}
