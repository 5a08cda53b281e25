"""The library as the window keeps it, on the real services: a watched folder (save → it is
searchable → ask; delete → it leaves), the scope chip (a collection), the Library status
dialog with a failed file and Retry, and Read again for what an older version read, and the
question before a long reindex."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from desktop_app.app import App
from desktop_app.gui import big_jobs
from desktop_app.gui.main_window import MainWindow
from desktop_app.library.collections import Collections, member_folder

pytestmark = pytest.mark.gui

PRAZO = ("# Prazo de recurso\n\nO recurso administrativo deve ser interposto em quinze dias "
         "úteis contados da ciência da decisão.\n")
CAFE = "# Café\n\nO espresso usa água a cerca de 93 graus Celsius e nove bar de pressão.\n"


def _ask(qtbot, window: MainWindow, question: str) -> str:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=60_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    return window.chat.view.toPlainText()


def _started(qtbot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.modelsReady, timeout=120_000):
        window.start()
    window.chat.sources_only.setChecked(True)


@pytest.mark.slow  # over a second: the full tier only
def test_a_file_saved_into_a_watched_folder_is_answered_and_a_deleted_one_leaves(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path) -> None:
    folder = tmp_path / "pasta"
    folder.mkdir()
    keeper = window.library_extras.keeper
    window.library_extras.folder_added(folder)  # as "Add folder…" does
    summaries: list[Any] = []
    keeper.synced.connect(summaries.append)
    messages: list[str] = []
    keeper.statusMessage.connect(lambda text: messages.append(text()))  # a `Text`
    with qtbot.waitSignal(keeper.synced, timeout=120_000):  # the catch-up at start
        _started(qtbot, window)
    qtbot.waitUntil(lambda: keeper._listening is not None, timeout=10_000)
    qtbot.wait(500)  # the observer thread is scheduling the folder

    (folder / "prazo.md").write_text(PRAZO, encoding="utf-8")
    qtbot.waitUntil(lambda: any(s.added == ["prazo.md"] for s in summaries), timeout=60_000)
    assert any("1 added (prazo.md)" in m for m in messages)
    qtbot.waitUntil(lambda: window.library.model.rowCount() == 1, timeout=30_000)
    text = _ask(qtbot, window, "Qual é o prazo do recurso administrativo?")
    assert "quinze dias" in text

    (folder / "prazo.md").unlink()
    qtbot.waitUntil(lambda: any(s.removed == ["prazo.md"] for s in summaries), timeout=60_000)
    assert any("1 removed (prazo.md)" in m for m in messages)
    assert gui_app.index.documents() == []
    qtbot.waitUntil(lambda: window.library.model.rowCount() == 0, timeout=30_000)


@pytest.mark.slow  # over a second: the full tier only
def test_the_scope_chip_asks_only_the_collection_and_the_answer_says_so(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path) -> None:
    for name, text in (("direito/prazo.md", PRAZO), ("cozinha/cafe.md", CAFE)):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert list(gui_app.pipeline.run([tmp_path / "direito", tmp_path / "cozinha"]))[-1].indexed == 2
    Collections(gui_app.library_state).add("Cozinha", folders=[member_folder(tmp_path / "cozinha")])
    Collections(gui_app.library_state).create("Vazia")
    _started(qtbot, window)
    chip = window.library_extras.scope_chip
    assert chip.label.text() == "Asking: the whole library" and not chip.clear_button.isVisibleTo(chip)

    chip._fill_menu()  # as the menu does when it opens
    names = [a.text() for a in chip.menu.actions()]
    assert "Cozinha" in names and "Vazia" in names
    refusals: list[str] = []
    chip.refused.connect(refusals.append)
    next(a for a in chip.menu.actions() if a.text() == "Vazia").trigger()
    assert refusals and "has no documents" in refusals[0]
    assert chip.label.text() == "Asking: the whole library"
    next(a for a in chip.menu.actions() if a.text() == "Cozinha").trigger()
    assert chip.label.text().startswith("Asking: collection “Cozinha” (1 document")

    text = _ask(qtbot, window, "Qual é o prazo do recurso administrativo?")
    assert "quinze dias" not in text  # the law note is outside the scope
    assert "Scope: collection “Cozinha”" in text
    chip.clear_button.click()
    text = _ask(qtbot, window, "Qual é o prazo do recurso administrativo?")
    assert "quinze dias" in text


def test_library_status_lists_a_failed_file_and_retries_it(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ok.md").write_text(CAFE, encoding="utf-8")
    (folder / "outro.md").write_text("# Chá\n\nO chá verde usa água a 80 graus Celsius.\n",
                                     encoding="utf-8")
    (folder / "quebrado.pdf").write_bytes(b"%PDF-1.7 not really")
    list(gui_app.pipeline.run([folder]))
    dialog = window.library_extras.show_status()
    qtbot.addWidget(dialog)
    assert dialog.summary.text() == "1 failed, 2 indexed"
    window.translations.apply("pt_BR")  # the count agrees with its word in Portuguese
    try:
        qtbot.waitUntil(lambda: dialog.summary.text() == "1 com falha, 2 indexados",
                        timeout=5_000)
    finally:
        window.translations.apply("en")
    qtbot.waitUntil(lambda: dialog.summary.text() == "1 failed, 2 indexed", timeout=5_000)
    rows = {dialog.tree.topLevelItem(i).text(1): dialog.tree.topLevelItem(i)
            for i in range(dialog.tree.topLevelItemCount())}
    broken = next(item for path, item in rows.items() if path.endswith("quebrado.pdf"))
    assert broken.text(0) == "failed" and broken.text(2)
    assert dialog.retry_button.isEnabled()
    dialog.problems_only.setChecked(True)
    assert dialog.tree.topLevelItemCount() == 1
    with qtbot.waitSignal(window.library.runFinished, timeout=60_000) as finished:
        dialog.retry_button.click()
    assert finished.args[0].failed == 1  # still broken, read again


def test_library_status_reads_again_what_an_older_version_read(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.ingest import loaders

    cafe = tmp_path / "cafe.md"
    cafe.write_text(CAFE, encoding="utf-8")
    list(gui_app.pipeline.run([cafe]))
    dialog = window.library_extras.show_status()
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: window.library.workers.running == 0, timeout=10_000)
    assert dialog.reread_button.isHidden()  # everything read by this version: counted 0
    monkeypatch.setitem(loaders.TYPE_READER_VERSIONS, "md", 9)  # Markdown is read better now
    dialog.refresh()  # counted in a worker: the button shows when the count arrives
    qtbot.waitUntil(lambda: not dialog.reread_button.isHidden(), timeout=10_000)
    assert dialog.reread_button.isEnabled()
    assert dialog.reread_button.text() == "Read again (1 file)"
    with qtbot.waitSignal(window.library.runFinished, timeout=60_000) as finished:
        dialog.reread_button.click()
    assert finished.args[0].indexed == 1
    assert [d.reader for d in gui_app.index.documents()] == [loaders.reader_version("md")]


def test_the_window_says_at_start_what_an_older_version_read(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.ingest import loaders

    cafe = tmp_path / "cafe.md"  # dropped in, not in a watched folder
    cafe.write_text(CAFE, encoding="utf-8")
    list(gui_app.pipeline.run([cafe]))
    monkeypatch.setitem(loaders.TYPE_READER_VERSIONS, "md", 9)  # Markdown is read better now
    _started(qtbot, window)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == (
        "1 file to read again: Tools ▸ Library status"),
        timeout=30_000)


def test_a_long_reindex_asks_first_with_the_estimate(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cafe.md").write_text(CAFE, encoding="utf-8")
    list(gui_app.pipeline.run([tmp_path / "cafe.md"]))
    _started(qtbot, window)
    # measured here: one passage a minute (a slow machine): the reindex is a big job
    state = gui_app.library_state
    state.add_rate(gui_app.embedder.id, 1, 10_000.0)
    asked: list[str] = []
    monkeypatch.setattr(big_jobs, "ask_yes_no", lambda _p, _t, text: asked.append(text) or False)
    window.library.start_reindex()
    assert asked and "1 documents (1 passages)" in asked[0] and "measured" in asked[0]
    assert not window.library.is_running()  # declined: nothing runs
    monkeypatch.setattr(big_jobs, "ask_yes_no", lambda _p, _t, _text: True)
    with qtbot.waitSignal(window.library.runningChanged, timeout=120_000,
                          check_params_cb=lambda running: not running):
        window.library.start_reindex()
    assert gui_app.index.vector_usable


def test_citations_name_the_slide_sheet_or_message(qapp) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.gui.places import place_text
    from desktop_app.ingest.places import place_label

    assert place_text("pptx", 3, 3, "p.") == " — slide 3"
    assert place_text("xlsx", 1, 2, "p.") == " — sheets 1–2"
    assert place_text("mbox", 12, 12, "p.") == " — message 12"
    assert place_text("pdf", 8, 9, "p.") == " — p. 8–9"
    assert place_text("eml", 1, 1, "p.") == "" and place_text("docx", 1, 1, "p.") == ""
    assert place_label("pptx", 3) == "slide 3" and place_label("pdf", 8, 9) == "pp. 8–9"
