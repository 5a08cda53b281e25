"""Memory from the chat and the panel on the real services: the chip's Undo undoes only
its own save (and asks when the memory was changed since); erasure from the panel can
take the messages that contain the fact, and the transcript then reads in the UI language."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.memory_panel import TEXT

pytestmark = pytest.mark.gui


def ask(qtbot, window: MainWindow, question: str) -> None:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=60_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)


def answer_questions(monkeypatch, answers: list[QMessageBox.StandardButton]) -> list[str]:
    """QMessageBox.question answers from `answers`, in order; returns the texts asked."""
    asked: list[str] = []

    def question(_parent, _title, text, *_args: Any, **_kwargs: Any):  # type: ignore[no-untyped-def]
        asked.append(text)
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def edit_in_panel(qtbot, window: MainWindow, new_text: str) -> str:
    panel = window.memory_panel
    window.show_memory()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=30_000)
    with qtbot.waitSignal(panel.memoryChanged, timeout=30_000):
        panel.proxy.setData(panel.proxy.index(0, TEXT), new_text, Qt.ItemDataRole.EditRole)
    return str(panel.model.items[0].id)


def test_undo_after_an_edit_in_the_panel_asks_and_keeps_the_edit_when_told(
        qtbot, window: MainWindow, gui_app: App, monkeypatch) -> None:
    asked = answer_questions(monkeypatch, [QMessageBox.StandardButton.No])
    ask(qtbot, window, "Lembre que eu moro em Recife.")
    assert window.chat.undo_button.isVisible()
    memory_id = edit_in_panel(qtbot, window, "Eu moro em Olinda.")

    qtbot.mouseClick(window.chat.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked), timeout=10_000)
    assert "Eu moro em Olinda." in asked[0]  # it says what would be lost
    qtbot.waitUntil(lambda: not window.chat.undo_button.isVisible(), timeout=5_000)
    assert "Kept" in window.chat.memory_label.text()
    kept = gui_app.memory.get(memory_id)
    assert kept is not None and kept.text == "Eu moro em Olinda." and kept.status == "active"


def test_undo_after_an_edit_erases_it_only_when_confirmed_and_plain_undo_does_not_ask(
        qtbot, window: MainWindow, gui_app: App, monkeypatch) -> None:
    asked = answer_questions(monkeypatch, [QMessageBox.StandardButton.Yes])
    ask(qtbot, window, "Lembre que eu moro em Recife.")
    memory_id = edit_in_panel(qtbot, window, "Eu moro em Olinda.")
    with qtbot.waitSignal(window.chat.memoryChanged, timeout=30_000):
        qtbot.mouseClick(window.chat.undo_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1 and gui_app.memory.get(memory_id) is None

    ask(qtbot, window, "Lembre que eu trabalho na Cooperativa Aurora.")
    saved = [i.id for i in gui_app.memory.list_items()]
    assert len(saved) == 1
    with qtbot.waitSignal(window.chat.memoryChanged, timeout=30_000):
        qtbot.mouseClick(window.chat.undo_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1  # nothing changed since the save: no question
    assert gui_app.memory.list_items() == []
    assert window.chat.memory_label.text() == "Memory removed."


def test_undo_after_the_memory_was_deleted_in_the_panel_says_so(
        qtbot, window: MainWindow, gui_app: App, monkeypatch) -> None:
    ask(qtbot, window, "Lembre que eu moro em Recife.")
    (item,) = gui_app.memory.list_items()
    gui_app.memory.delete(item.id)
    errors: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _p, _t, text, *_a: errors.append(text)))
    qtbot.mouseClick(window.chat.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "already removed" in window.chat.memory_label.text(),
                    timeout=10_000)
    assert errors == [] and not window.chat.undo_button.isVisible()


def delete_in_panel(qtbot, window: MainWindow, monkeypatch, *,
                    untick: bool = False) -> tuple[bool, dict[str, Any]]:
    """Select the only memory, press Delete, accept the dialog; (box ticked?, receipt)."""
    from PySide6.QtWidgets import QDialog

    from desktop_app.gui.memory_dialogs import EraseDialog

    offered: list[bool] = []

    def accept(dialog: EraseDialog) -> QDialog.DialogCode:
        offered.append(dialog.with_messages.isChecked())
        if untick:
            dialog.with_messages.setChecked(False)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(EraseDialog, "exec", accept)
    panel = window.memory_panel
    window.show_memory()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=30_000)
    panel.table.selectRow(0)
    with qtbot.waitSignal(panel.receiptShown, timeout=60_000) as shown:
        qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    return offered[0], shown.args[0]


def test_panel_erasure_of_a_sensitive_fact_also_deletes_the_message_that_said_it(
        qtbot, window: MainWindow, gui_app: App, monkeypatch) -> None:
    gui_app.memory.set_consent("health", True)
    ask(qtbot, window, "Lembre que eu tomo remédio para ansiedade.")
    conversation = window.chat.conversation_id
    assert "ansiedade" in window.chat.view.toPlainText()

    ticked, receipt = delete_in_panel(qtbot, window, monkeypatch)
    assert ticked  # offered, and on by default for a sensitive category
    assert receipt["stores"]["messages"]["rows"] == 1
    stored = gui_app.conversations.messages(conversation)
    assert [m.role for m in stored] == ["assistant"]  # the user's own words are gone
    assert "ansiedade" not in stored[0].content and "[erased]" in stored[0].content
    # the chat on screen is reloaded from the store, the placeholder in the UI language
    qtbot.waitUntil(lambda: "ansiedade" not in window.chat.view.toPlainText(), timeout=10_000)
    assert "Vou lembrar: [erased]" in window.chat.view.toPlainText()
    assert "1 message of yours" in window.memory_panel.receipt.text()

    window.translations.apply("pt_BR")
    try:
        window.conversations.open(conversation)
        qtbot.waitUntil(lambda: "Vou lembrar: [apagado]" in window.chat.view.toPlainText(),
                        timeout=10_000)
    finally:
        window.translations.apply("en")


def test_panel_erasure_of_an_ordinary_fact_keeps_the_message_unless_asked(
        qtbot, window: MainWindow, gui_app: App, monkeypatch) -> None:
    ask(qtbot, window, "Lembre que eu moro em Recife.")
    conversation = window.chat.conversation_id
    ticked, receipt = delete_in_panel(qtbot, window, monkeypatch)
    assert not ticked  # offered, off by default for an ordinary fact
    assert "messages" not in receipt["stores"]
    user = gui_app.conversations.messages(conversation)[0]
    assert (user.role, user.content) == ("user", "Lembre que eu moro em Recife.")
