"""The whole window on the real services: start-up, drag-and-drop ingestion, a cited
answer, the text viewer, memory through the chat, the language switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import click_anchor
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication

from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui

VACATION_POLICY = """# Política de férias da Cooperativa Aurora

O colaborador tem direito a trinta dias de férias remuneradas após doze meses de trabalho.
As férias podem ser divididas em até três períodos, e um deles não pode ser menor que
quatorze dias corridos.

## Abono

O abono pecuniário permite vender um terço das férias, mediante pedido por escrito
até quinze dias antes do fim do período aquisitivo.
"""


def drop_files(window: MainWindow, paths: list[Path]) -> None:
    """Drag enter + drop with real mime data, as a file manager would send them."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    centre = window.rect().center()
    enter = QDragEnterEvent(QPoint(centre), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(centre), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)


def ask(qtbot, window: MainWindow, question: str) -> None:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=60_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)


@pytest.mark.slow  # over a second: the full tier only
def test_window_shows_before_models_then_a_dropped_file_is_answered_with_badges(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path) -> None:
    assert window.isVisible()
    assert "_index" not in gui_app.__dict__ and "_pipeline" not in gui_app.__dict__
    with qtbot.waitSignal(window.modelsReady, timeout=120_000):
        window.start()
    assert window.model_states["embedder"].state == "ready"
    # llm_backend "none" in this test: the user chose it, so no "add a model" nudge
    assert window.model_label.text() == "❝ Answers from your sources"

    document = tmp_path / "política de férias.md"
    document.write_text(VACATION_POLICY, encoding="utf-8")
    with qtbot.waitSignal(window.library.runFinished, timeout=120_000) as finished:
        drop_files(window, [document])
    assert finished.args[0].indexed == 1 and finished.args[0].failed == 0
    assert window.library.row_status(str(document.resolve())).startswith("indexed")
    qtbot.waitUntil(lambda: window.library.model.rowCount() == 1, timeout=30_000)
    assert window.index_label.text().startswith("1 document ·")

    window.chat.sources_only.setChecked(True)
    ask(qtbot, window, "Quantos dias de férias o colaborador tem?")
    view = window.chat.view
    text = view.toPlainText()
    assert "trinta dias" in text
    hrefs = [h for _p, h in view.anchor_positions()]
    assert hrefs and hrefs[0].startswith("cite:0/")
    with qtbot.waitSignal(window.viewer.passageShown, timeout=30_000):
        click_anchor(qtbot, view, hrefs[0])
    assert window.viewer.stack.currentWidget() is window.viewer.text_view
    assert "trinta dias" in window.viewer.highlighted_text()

    # the conversation was persisted by the chat service and is listed
    qtbot.waitUntil(lambda: window.conversations.list.count() == 1, timeout=10_000)


def test_a_preference_told_in_chat_appears_in_the_memory_panel(
        qtbot, window: MainWindow) -> None:
    window.chat.sources_only.setChecked(True)
    ask(qtbot, window, "Lembre que eu prefiro respostas curtas.")
    assert window.chat.memory_chip.isVisible()
    assert "respostas curtas" in window.chat.memory_label.text()
    window.show_memory()
    model = window.memory_panel.model
    qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=30_000)
    assert "respostas curtas" in model.items[0].text
    assert model.items[0].source is not None
    assert "Lembre que eu prefiro" in model.items[0].source.quote


def test_menus_have_the_documented_shortcuts(window: MainWindow) -> None:
    shortcuts = {
        window.new_chat_action: "Ctrl+N", window.focus_question_action: "Ctrl+L",
        window.add_files_action: "Ctrl+O", window.settings_action: "Ctrl+,",
    }
    for action, keys in shortcuts.items():
        assert action.shortcut() == QKeySequence(keys), action.text()
    window.focus_question_action.trigger()
    assert window.chat.question.hasFocus() or QApplication.focusWidget() is window.chat.question


def test_language_switches_to_portuguese_and_back(qtbot, window: MainWindow) -> None:
    assert window.chat.ask_button.text() == "Ask"
    window.translations.apply("pt_BR")
    qtbot.waitUntil(lambda: window.chat.ask_button.text() == "Perguntar", timeout=5_000)
    assert window.left_tabs.tabText(0) == "Biblioteca"
    assert window.library.add_files_button.text() == "Adicionar arquivos…"
    window.translations.apply("en")
    qtbot.waitUntil(lambda: window.chat.ask_button.text() == "Ask", timeout=5_000)
