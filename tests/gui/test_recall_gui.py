"""Conversation recall in the window, on the real services: an answer says which earlier
chat it drew on (a link that opens it), and the memory window's "Conversations" view
lists what recall can use and deletes a conversation with its recall rows for good."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui

CANARY = "HX4-RECALL-73310"


def ask(qtbot: Any, window: MainWindow, question: str) -> None:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=60_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)


@pytest.fixture
def earlier_chat(gui_app: App) -> str:
    conversations = gui_app.conversations
    conv = conversations.new_conversation("Lisbon hotel")
    when = "2026-11-15T10:00:00Z"
    conversations.add_user_message(conv, "Please book a hotel in Lisbon for the conference.",
                                   timestamp=when)
    conversations.add_assistant_message(
        conv, f"Booked Hotel Avenida; your confirmation number is {CANARY}.", timestamp=when)
    conversations.add_user_message(conv, "Great, thanks.", timestamp=when)
    gui_app.recall.sync()
    return conv


def test_an_answer_shows_the_earlier_chat_it_drew_on(qtbot: Any, window: MainWindow,
                                                     earlier_chat: str) -> None:
    ask(qtbot, window, "What was my hotel confirmation number?")
    text = window.chat.view.toPlainText()
    assert "From your chat of 15 Nov" in text and CANARY in text
    links = [href for _pos, href in window.chat.view.action_positions()]
    assert f"action:recall-{earlier_chat}" in links
    # the link opens that chat
    with qtbot.waitSignal(window.chat.recallOpened, timeout=5_000) as opened:
        window.chat.view.actionClicked.emit(f"recall-{earlier_chat}")
    assert opened.args == [earlier_chat]


def test_a_conversation_is_deleted_from_the_memory_window(qtbot: Any, window: MainWindow,
                                                          gui_app: App, earlier_chat: str,
                                                          monkeypatch: Any) -> None:
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Yes))
    window.show_recall()
    view = window.recall_view
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 1, timeout=30_000)
    chat = view.tree.topLevelItem(0)
    assert "Lisbon hotel" in chat.text(0) and "15 Nov" in chat.text(0)
    assert any(CANARY in chat.child(i).text(0) for i in range(chat.childCount()))
    view.tree.setCurrentItem(chat)
    with qtbot.waitSignal(view.conversationDeleted, timeout=30_000):
        qtbot.mouseClick(view.delete_button, Qt.MouseButton.LeftButton)
    assert "exchange" in view.receipt.text()
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 0, timeout=30_000)
    assert gui_app.recall.earlier("hotel confirmation number") == []
    home = Path(gui_app.paths.data_dir).parent
    leftovers = [p for p in home.rglob("*") if p.is_file() and b"73310" in p.read_bytes()]
    assert leftovers == []


def test_the_earlier_chat_is_dated_in_the_ui_language(qtbot: Any, window: MainWindow,
                                                      earlier_chat: str) -> None:
    window.translations.apply("pt_BR")
    try:
        ask(qtbot, window, "What was my hotel confirmation number?")
        text = window.chat.view.toPlainText()
        assert "Da sua conversa de 15 de nov." in text and "15 Nov" not in text
        window.show_recall()
        view = window.recall_view
        qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 1, timeout=30_000)
        assert "15 de nov." in view.tree.topLevelItem(0).text(0)
    finally:
        window.translations.apply("en")
