"""Stored conversations read as they were shown: a stopped answer keeps its marker."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from desktop_app.answer.events import Done, Token
from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui


class EndlessAnswerer:
    """A model that never stops by itself (the one thing a test cannot get from a real one
    in bounded time); everything around it — chat service, stores, window — is real."""

    def __init__(self) -> None:
        self.started = threading.Event()

    def ask(self, question: str, *, cancel: Callable[[], bool] | None = None,
            **_options: Any) -> Iterator[Any]:
        yield Token("O titular pode ")
        self.started.set()
        while True:
            time.sleep(0.01)
            yield Token("pedir ")
        yield Done(answer="", citations=())  # never reached


def test_a_stopped_answer_keeps_its_marker_after_the_chat_is_reopened(
        qtbot, window: MainWindow, gui_app: App) -> None:
    answerer = EndlessAnswerer()
    gui_app.__dict__["answer_service"] = answerer
    window.chat.question.setPlainText("Quais são os direitos do titular?")
    qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(answerer.started.is_set, timeout=30_000)
    with qtbot.waitSignal(window.chat.busyChanged, timeout=10_000,
                          check_params_cb=lambda busy: busy is False):
        qtbot.mouseClick(window.chat.stop_button, Qt.MouseButton.LeftButton)
    live = window.chat.view.toPlainText()
    assert "O titular pode" in live and "⚠ stopped" in live
    conversation = window.chat.conversation_id
    assert conversation

    window.new_chat()
    assert "⚠ stopped" not in window.chat.view.toPlainText()
    window.conversations.open(conversation)
    qtbot.waitUntil(lambda: window.chat.conversation_id == conversation, timeout=10_000)
    reloaded = window.chat.view.toPlainText()
    assert "O titular pode" in reloaded and "⚠ stopped" in reloaded
