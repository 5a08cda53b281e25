"""Stored conversations read as they were shown: a stopped answer keeps its marker."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from desktop_app.app import build_app
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui


class EndlessLLM:
    """A model that never stops by itself (the one thing a test cannot get from a real one
    in bounded time), injected through `build_app(llm=…)`: the answer service, retrieval,
    chat service, stores and window around it are the real ones."""

    name = "endless"
    n_ctx = 4096

    def __init__(self) -> None:
        self.started = threading.Event()

    def stream_chat(self, messages: list[dict[str, str]], *, max_tokens: int,
                    temperature: float, cancel: Callable[[], bool] | None = None
                    ) -> Iterator[str]:
        yield "O titular pode "
        self.started.set()
        for n in itertools.count():
            if cancel is not None and cancel():
                return
            time.sleep(0.01)
            yield f"pedir{n} "  # never the same word twice: not a loop for the stream guard

    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]:
        return {}

    def count_tokens(self, text: str) -> int:
        return len(text) // 4 + 1


@pytest.fixture()
def endless_window(qtbot, tmp_path: Path, embedder: Any) -> Iterator[tuple[MainWindow, Any]]:
    from PySide6.QtCore import QThreadPool

    from desktop_app.gui.run import build_window

    doc = tmp_path / "lgpd.md"
    doc.write_text("# Direitos do titular\n\nO titular dos dados pessoais tem direito a obter "
                   "do controlador a confirmação da existência de tratamento e o acesso aos "
                   "dados.\n", encoding="utf-8")
    llm = EndlessLLM()
    app = build_app(embedder=embedder, llm=llm)
    app.settings.answer_mode = "written"
    assert list(app.pipeline.run([doc]))[-1].indexed == 1
    main = build_window(app)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    yield main, llm
    main.workers.cancel_all()
    QThreadPool.globalInstance().waitForDone()


@pytest.mark.ranking
def test_a_stopped_answer_keeps_its_marker_after_the_chat_is_reopened(
        qtbot, endless_window: tuple[MainWindow, Any]) -> None:
    window, answerer = endless_window
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
