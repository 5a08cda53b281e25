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


def conversations_view(qtbot: Any, window: MainWindow, monkeypatch: Any) -> Any:
    """The memory window's Conversations view, listing the one earlier chat; confirmations
    answered yes."""
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Yes))
    window.show_recall()
    view = window.recall_view
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 1, timeout=30_000)
    return view


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
    view = conversations_view(qtbot, window, monkeypatch)
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


def test_a_reopened_chat_still_links_the_earlier_chat_it_drew_on(qtbot: Any, window: MainWindow,
                                                                 gui_app: App,
                                                                 earlier_chat: str) -> None:
    ask(qtbot, window, "What was my hotel confirmation number?")
    current = window.chat.conversation_id
    assert current and current != earlier_chat
    window.new_chat()
    assert "From your chat of" not in window.chat.view.toPlainText()
    with qtbot.waitSignal(window.conversations.openRequested, timeout=30_000):
        window.conversations.open(current)
    qtbot.waitUntil(lambda: "From your chat of 15 Nov" in window.chat.view.toPlainText(),
                    timeout=10_000)
    links = [href for _pos, href in window.chat.view.action_positions()]
    assert f"action:recall-{earlier_chat}" in links
    # once that earlier chat is erased, the reopened answer no longer links to it
    gui_app.memory.delete_conversation(earlier_chat)
    with qtbot.waitSignal(window.conversations.openRequested, timeout=30_000):
        window.conversations.open(current)
    qtbot.waitUntil(lambda: "What was my hotel" in window.chat.view.toPlainText(),
                    timeout=10_000)
    assert "From your chat of" not in window.chat.view.toPlainText()
    assert f"action:recall-{earlier_chat}" not in [
        href for _pos, href in window.chat.view.action_positions()]


def test_one_message_is_deleted_from_the_memory_window(qtbot: Any, window: MainWindow,
                                                       gui_app: App, earlier_chat: str,
                                                       monkeypatch: Any) -> None:
    view = conversations_view(qtbot, window, monkeypatch)
    chat = view.tree.topLevelItem(0)
    view.tree.setCurrentItem(chat)
    assert not view.delete_message_button.isEnabled()  # a chat row: the whole chat only
    booking = next(chat.child(i) for i in range(chat.childCount())
                   if CANARY in chat.child(i).text(0))
    view.tree.setCurrentItem(booking)
    assert view.delete_message_button.isEnabled()
    with qtbot.waitSignal(view.messageDeleted, timeout=30_000) as deleted:
        qtbot.mouseClick(view.delete_message_button, Qt.MouseButton.LeftButton)
    assert deleted.args[0] == earlier_chat
    assert view.receipt.isVisible() or view.receipt.text()
    # the chat stays, without that message; nothing of it is left on disk
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 1 and not any(
        CANARY in view.tree.topLevelItem(0).child(i).text(0)
        for i in range(view.tree.topLevelItem(0).childCount())), timeout=30_000)
    remaining = [m.content for m in gui_app.conversations.messages(earlier_chat)]
    assert remaining == ["Please book a hotel in Lisbon for the conference.", "Great, thanks."]
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
