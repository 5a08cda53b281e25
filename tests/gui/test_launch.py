"""Launch and the chat list as an analyst meets them: the library shows before the models,
the last chat comes back, one click opens a chat, dialogs start in the home folder, and
the window title names the chat once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from desktop_app.app import App, build_app
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui

NOTE = "# Prazos\n\nO controlador deve responder ao titular em até quinze dias.\n"


class SlowWarmUp:
    """The real embedder whose first query (the start-up warm-up) waits to be released:
    a laptop where torch takes its time."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.release = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def embed_query(self, text: str) -> Any:
        self.release.wait(60)
        return self.real.embed_query(text)


def launch(qtbot, app: App) -> MainWindow:
    from desktop_app.gui.run import build_window

    window = build_window(app)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.start()
    return window


def test_the_library_is_listed_while_the_embedder_still_loads(
        qtbot, gui_app: App, embedder, tmp_path: Path) -> None:
    note = tmp_path / "prazos.md"
    note.write_text(NOTE, encoding="utf-8")
    list(gui_app.pipeline.run([note]))
    gui_app.close()
    slow = SlowWarmUp(embedder)
    app = build_app(embedder=slow)  # the next start, with an embedder that loads slowly
    app.settings.llm_backend = "none"
    window = launch(qtbot, app)
    try:
        qtbot.waitUntil(lambda: window.library.model.rowCount() == 1, timeout=30_000)
        embedder_state = window.model_states.get("embedder")
        assert embedder_state is None or embedder_state.state == "loading"  # not loaded yet
        assert window.index_label.text().startswith("1 document")
        qtbot.waitUntil(lambda: "embedder" in window.model_states, timeout=30_000)
        assert window.model_states["embedder"].state == "loading"  # (once typing pauses)
    finally:
        slow.release.set()
    qtbot.waitUntil(window.models_loaded, timeout=60_000)


def test_the_last_chat_is_reopened_at_launch_and_one_click_opens_another(
        qtbot, gui_app: App) -> None:
    store = gui_app.conversations
    first = store.new_conversation("Férias")
    store.add_user_message(first, "Quantos dias de férias?")
    store.add_assistant_message(first, "Trinta dias.", {})
    second = store.new_conversation("Prazos da LGPD")
    store.add_user_message(second, "Qual é o prazo de resposta?")
    store.add_assistant_message(second, "Quinze dias.", {})
    gui_app.settings.last_conversation = first

    window = launch(qtbot, gui_app)
    qtbot.waitUntil(lambda: window.chat.conversation_id == first, timeout=30_000)
    # (drawn a message per turn of the event loop: keys typed meanwhile are handled)
    qtbot.waitUntil(lambda: "Trinta dias." in window.chat.view.toPlainText(), timeout=10_000)
    assert window.windowTitle() == "Férias"  # Qt shows "Férias — Acervo"

    listing = window.conversations.list
    row = next(r for r in range(listing.count())
               if listing.item(r).text() == "Prazos da LGPD")
    window.left_tabs.setCurrentWidget(window.conversations)
    qtbot.waitUntil(listing.isVisible)
    rect = listing.visualItemRect(listing.item(row))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: window.chat.conversation_id == second, timeout=10_000)
    assert "Quinze dias." in window.chat.view.toPlainText()
    assert window.windowTitle() == "Prazos da LGPD"

    window.close()  # remembered for the next launch
    from desktop_app.config.settings import load_settings

    assert load_settings(gui_app.paths.settings_file).last_conversation == second

    window.new_chat()
    assert window.windowTitle() == "Acervo"  # not "Acervo — Acervo"
    assert gui_app.settings.last_conversation == ""


def test_add_files_opens_in_the_home_folder(qtbot, window: MainWindow, monkeypatch) -> None:
    seen: list[str] = []

    def fake_dialog(_parent, _title, folder, _filter):  # type: ignore[no-untyped-def]
        seen.append(folder)
        return [], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(fake_dialog))
    window.add_files_action.trigger()
    assert seen == [str(Path.home())]
