"""Answer modes in the window: the mode in the status bar, the one-time "answers come
from your sources" notice with its links, the progress line before the first word,
and Stop during the model's long silent phase.

Scripted event streams where the rendering is under test; the real services (the
bundled SmolLM2, the real index) where the policy and Stop are.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QDialog
from services_double import ScriptedServices

from desktop_app.answer.events import (
    READING,
    SEARCHING,
    WRITING,
    AnswerWarning,
    Citation,
    Done,
    Progress,
    Token,
    WarningCode,
)
from desktop_app.answer.mode import AnswerMode
from desktop_app.answer.models import BUNDLED_NAME
from desktop_app.app import App, build_app
from desktop_app.gui.answer_view import AnswerView
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.services import GuiServices, ModelLoadState
from desktop_app.gui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.gui

TOO_SMALL = AnswerMode(False, "too_small", BUNDLED_NAME, 134_515_008)


def citation(number: int = 1) -> Citation:
    return Citation(number=number, doc_id="d", chunk_id=f"d:{number}", title="LGPD",
                    source_path="/nonexistent/lgpd.pdf", file_type="pdf", page=9, page_end=9,
                    char_start=0, char_end=10, score=0.5, legs=frozenset({"keyword"}),
                    snippet="O prazo é de 15 dias.")


def make_window(qtbot, services: GuiServices) -> MainWindow:
    window = MainWindow(services)
    window.translations.apply("en")  # English plural forms ("5 passages")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def ask_and_wait(qtbot, window: MainWindow, question: str = "Qual é o prazo?",
                 timeout: int = 10_000) -> None:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=timeout,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)


def click_action(qtbot, view: AnswerView, href: str) -> None:
    """A real mouse click on an `action:` link of a notice."""
    position = next(p for p, h in view.action_positions() if h == href)
    cursor = QTextCursor(view.document())
    cursor.setPosition(position + 1)
    rect = view.cursorRect(cursor)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.x() + 2, rect.center().y()))


def sources_answer(_cancel: Callable[[], bool]) -> Iterator[Any]:
    yield Progress(SEARCHING)
    yield Progress(READING, 3)
    yield Token("O prazo é de 15 dias [1].")
    yield Done(answer="O prazo é de 15 dias [1].", citations=(citation(),),
               warnings=(AnswerWarning(WarningCode.SOURCES_ONLY),), sources_only=True,
               answer_mode=TOO_SMALL)


def test_the_sources_mode_is_explained_once_with_links_to_add_a_model_and_to_experiment(
        qtbot, monkeypatch) -> None:
    services = ScriptedServices(sources_answer)
    window = make_window(qtbot, services)
    opened: list[str] = []
    monkeypatch.setattr(SettingsDialog, "exec",
                        lambda self: opened.append(self.tabs.tabText(self.tabs.currentIndex()))
                        or QDialog.DialogCode.Rejected)
    ask_and_wait(qtbot, window)
    ask_and_wait(qtbot, window, "E a multa?")
    text = window.chat.view.toPlainText()
    assert text.count("is too small to write answers that stick to your documents") == 1
    assert "The bundled model (SmolLM2, 135M parameters)" in text
    assert "answered from sources only" not in text
    hrefs = [h for _p, h in window.chat.view.action_positions()]
    assert hrefs == ["action:add-model", "action:experiment"]

    click_action(qtbot, window.chat.view, "action:add-model")
    qtbot.waitUntil(lambda: opened == ["Models"], timeout=5_000)

    with qtbot.waitSignal(window.chat.busyChanged, timeout=10_000,
                          check_params_cb=lambda busy: busy is False):
        click_action(qtbot, window.chat.view, "action:experiment")
    assert services.calls[-1] == {"question": "E a multa?", "sources_only": False,
                                  "experiment": True}
    assert "Acervo · experiment (small model)" in window.chat.view.toPlainText()


@pytest.mark.slow  # over a second: the full tier only
def test_progress_shows_before_the_first_word_and_the_view_scrolls_to_it(qtbot) -> None:
    go_on, reading_shown = threading.Event(), threading.Event()

    def slow_model(cancel: Callable[[], bool]) -> Iterator[Any]:
        yield Progress(SEARCHING)
        yield Progress(READING, 5)
        reading_shown.set()
        go_on.wait(10)
        yield Progress(WRITING)
        yield Token("O prazo é de 15 dias [1].")
        yield Done(answer="O prazo é de 15 dias [1].", citations=(citation(),))

    window = make_window(qtbot, ScriptedServices(slow_model))
    view = window.chat.view
    for n in range(30):  # a long transcript, so scrolling matters
        view.add_user_message(f"pergunta antiga {n}", "You")
    view.verticalScrollBar().setValue(0)
    window.chat.question.setPlainText("Qual é o prazo?")
    qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.progress_text().startswith("Reading 5 passages…"),
                    timeout=5_000)
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()
    qtbot.waitUntil(lambda: view.progress_text().endswith(" s"), timeout=5_000)  # seconds count
    with qtbot.waitSignal(window.chat.busyChanged, timeout=10_000,
                          check_params_cb=lambda busy: busy is False):
        go_on.set()
    assert view.progress_text() == ""
    assert "Reading" not in view.toPlainText() and "O prazo é de 15 dias" in view.toPlainText()


def test_the_status_bar_shows_each_mode_and_links_to_settings(qtbot) -> None:
    window = make_window(qtbot, GuiServices(build_app()))

    def show(mode: AnswerMode) -> str:
        window._model_state(ModelLoadState("llm", "ready" if mode.use_llm else "sources",
                                           mode=mode))
        return window.model_label.text()

    assert show(AnswerMode(True, "capable", "qwen2.5-3b", 3_000_000_000)) == \
        "✎ Written answers: qwen2.5-3b"
    assert window.chat.sources_only.isEnabled()
    small = show(AnswerMode(False, "too_small", BUNDLED_NAME, 134_515_008))
    assert small.startswith("❝ Answers from your sources — <a href=\"settings:models\">")
    assert not window.chat.sources_only.isEnabled()  # nothing to switch off
    assert show(AnswerMode(True, "experiment", BUNDLED_NAME, 134_515_008, experiment=True)) == \
        f"⚗ Experiment: {BUNDLED_NAME} writes answers"
    window.translations.apply("pt_BR")
    try:
        qtbot.waitUntil(lambda: "Experimento" in window.model_label.text(), timeout=5_000)
        assert show(AnswerMode(False, "too_small", BUNDLED_NAME, 134_515_008)).startswith(
            "❝ Respostas das suas fontes — <a")
    finally:
        window.translations.apply("en")


@pytest.fixture()
def fresh_app(embedder) -> App:
    """A first start: default settings (the bundled SmolLM2 is the active model)."""
    application = build_app(embedder=embedder)
    return application


@pytest.mark.slow
def test_a_fresh_install_answers_from_sources_with_badges_and_never_runs_the_small_model(
        qtbot, fresh_app: App, tmp_path: Path) -> None:
    from desktop_app.gui.run import build_window

    window = build_window(fresh_app)
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.modelsReady, timeout=120_000):
        window.start()
    assert window.model_states["llm"].state == "sources"
    assert window.model_label.text().startswith("❝ Answers from your sources — <a")
    llm = fresh_app.llm
    assert llm is not None and llm._llama is None  # the weights were not even loaded

    note = tmp_path / "prazos.md"
    note.write_text("# Prazos\n\nO controlador deve responder ao titular em até quinze dias. "
                    "A multa simples pode chegar a dois por cento do faturamento.\n",
                    encoding="utf-8")
    list(fresh_app.pipeline.run([note]))
    ask_and_wait(qtbot, window, "Em quantos dias o controlador deve responder?", timeout=60_000)
    view = window.chat.view
    text = view.toPlainText()
    assert "quinze dias" in text
    assert [h for _p, h in view.anchor_positions()][0] == "cite:0/1"  # a badge
    assert "is too small to write answers that stick to your documents" in text
    assert "experiment" not in text.split("Sources")[0].lower().replace(
        "(experiment)", "")  # nothing written by the small model
    assert llm._llama is None  # still never loaded: no bundled-model text is possible
    window.workers.cancel_all()


@pytest.mark.slow
def test_stop_during_the_models_prompt_processing_ends_the_answer_at_once(
        qtbot, fresh_app: App, tmp_path: Path) -> None:
    """The real SmolLM2 as an experiment, on a long prompt (~10 passages of ~1000
    characters: about a minute of prompt processing here). Stop is clicked while the
    model is still reading; the turn must end before the prompt was processed. The
    latency figure is measured by bench/stop.py."""
    from desktop_app.gui.run import build_window

    fresh_app.settings.answer_mode = "written"  # the small model writes (labelled)
    text = (Path(__file__).parents[2] / "resources" / "samples" / "faq-lgpd.md").read_text(
        encoding="utf-8")
    for n in range(4):
        (tmp_path / f"faq-{n}.md").write_text(text.replace("LGPD", f"LGPD {n}"),
                                              encoding="utf-8")
    list(fresh_app.pipeline.run(sorted(tmp_path.glob("*.md"))))
    window = build_window(fresh_app)
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.modelsReady, timeout=120_000):
        window.start()
    assert window.model_states["llm"].state == "ready"
    view = window.chat.view
    seen: list[Any] = []
    show_event = window.chat.on_event
    window.chat.on_event = lambda event: (seen.append(event), show_event(event))  # type: ignore[method-assign]
    window.chat.question.setPlainText("Quais são os direitos do titular?")
    qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.progress_text().startswith("Reading"), timeout=60_000)
    time.sleep(0.5)  # well inside the prompt processing
    with qtbot.waitSignal(window.chat.busyChanged, timeout=20_000,
                          check_params_cb=lambda busy: busy is False):
        qtbot.mouseClick(window.chat.stop_button, Qt.MouseButton.LeftButton)
    done = next(e for e in seen if isinstance(e, Done))
    # only "stopped" is said
    assert done.warnings == (AnswerWarning(WarningCode.CANCELLED),) and done.answer == ""
    assert not any(isinstance(e, Token) for e in seen)
    trace = done.trace
    llama = fresh_app.llm._llama
    # llama.cpp had not finished reading the prompt: the abort interrupted it
    assert llama is not None and 0 <= llama.n_tokens < trace["prompt_tokens"]
    assert "⚠ stopped" in view.toPlainText()
    assert view.progress_text() == ""


def test_settings_show_who_can_write_and_a_capable_gguf_becomes_the_active_model(
        qtbot, monkeypatch, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QMessageBox

    from tests.answer.test_mode import write_sparse_gguf

    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "information",
                        staticmethod(lambda _p, _t, text, *_a: messages.append(text)))
    app = build_app()
    dialog = SettingsDialog(app.settings)
    qtbot.addWidget(dialog)
    assert dialog.answer_mode.currentData() == "auto"
    bundled = dialog.model_list.item(0).text()
    assert "too small to write answers (135M)" in bundled
    big = write_sparse_gguf(tmp_path / "qwen2.5-3b-instruct-q4_0.gguf", 3_085_938_688)
    assert dialog.add_model_from_path(str(big))
    assert "now the active model" in messages[-1]
    rows = [dialog.model_list.item(i).text() for i in range(dialog.model_list.count())]
    assert rows[1].startswith("✓ qwen2.5-3b-instruct-q4_0") and "✎ writes answers" in rows[1]
    dialog.answer_mode.setCurrentIndex(dialog.answer_mode.findData("sources"))
    dialog.accept()
    edited = dialog.result_settings()
    assert (edited.active_model, edited.answer_mode) == ("qwen2.5-3b-instruct-q4_0", "sources")
    assert app.settings.active_model == ""  # nothing changed before OK was applied
