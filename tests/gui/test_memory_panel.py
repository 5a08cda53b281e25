"""The memory panel over the real memory service: edit and delete persist, with a receipt."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QDialog

from desktop_app.app import App
from desktop_app.gui.memory_dialogs import EraseDialog
from desktop_app.gui.memory_panel import TEXT, MemoryPanel
from desktop_app.gui.services import GuiServices
from desktop_app.gui.workers import WorkerSet

pytestmark = pytest.mark.gui


def remember(services: GuiServices, words: str, fact: str) -> None:
    memory = services.memory.service()
    conversation = memory.conversations.new_conversation("teste")
    message = memory.conversations.add_user_message(conversation, words)
    outcomes = memory.remember(message, fact)
    assert [o.status for o in outcomes] == ["saved"]


def test_memory_table_edit_and_delete_persist_through_the_service(
        qtbot, gui_app: App, monkeypatch) -> None:
    services = GuiServices(gui_app)
    remember(services, "Lembre que meu dentista é o Dr. Zhang.", "meu dentista é o Dr. Zhang")
    remember(services, "Lembre que eu trabalho na Cooperativa Aurora.",
             "eu trabalho na Cooperativa Aurora")
    panel = MemoryPanel(services.memory, WorkerSet())
    qtbot.addWidget(panel)
    QAbstractItemModelTester(panel.model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    QAbstractItemModelTester(panel.proxy, QAbstractItemModelTester.FailureReportingMode.Fatal)
    panel.show()
    panel.refresh()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 2, timeout=30_000)

    # the search box filters through the proxy
    panel.search.setText("dentista")
    assert panel.proxy.rowCount() == 1
    dentist = panel.proxy.index(0, TEXT)
    dentist_id = panel.model.items[panel.proxy.mapToSource(dentist).row()].id

    # edit in place: persisted (and re-embedded) by the service
    with qtbot.waitSignal(panel.memoryChanged, timeout=30_000):
        assert panel.proxy.setData(dentist, "Meu dentista é a Dra. Lima.", Qt.ItemDataRole.EditRole)
    stored = services.memory.service().get(dentist_id)
    assert stored.text.startswith("Meu dentista é a Dra. Lima")
    assert [i.text for i in services.memory.memories()].count(stored.text) == 1

    # delete with confirmation: gone from the service, receipt shown
    monkeypatch.setattr(EraseDialog, "exec", lambda _self: QDialog.DialogCode.Accepted)
    panel.table.selectRow(0)
    with qtbot.waitSignal(panel.receiptShown, timeout=60_000) as shown:
        panel.delete_selected()
    receipt = shown.args[0]
    assert receipt["memory_ids"] and dentist_id in receipt["memory_ids"]
    assert panel.receipt.isVisible() and panel.receipt.text().startswith(
        "Erased for good: 1 memory item")
    assert not panel.receipt_details.isVisible()  # the technical detail is behind a toggle
    panel.receipt_details_button.click()
    details = panel.receipt_details.text()
    assert panel.receipt_details.isVisible() and "\n  memories: 3 row" in details  # + 2 old texts
    assert "sqlite: secure_delete + VACUUM" in details
    remaining = services.memory.memories()
    assert [i.id for i in remaining] != [] and dentist_id not in [i.id for i in remaining]
    panel.search.clear()
    assert panel.model.rowCount() == 1
