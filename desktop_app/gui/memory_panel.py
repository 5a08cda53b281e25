"""The memory panel: everything Acervo remembers, with the user's rights one click away.

Model/view: `MemoryTableModel` (a `QAbstractTableModel` over `MemoryItem`s) behind a
`QSortFilterProxyModel` for the search box. Editing the text cell asks the memory
service to re-embed and persist it (in a worker); delete, forget-all, export,
consent and provenance go through the same `GuiServices` adapter. Deleting can also
delete the user's messages that stated the fact (ticked for sensitive facts). After an
erasure the receipt says in plain words what was erased; the technical detail (stores,
rows, bytes, file sizes, physical cleanup) is behind "Details".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui.dialogs import confirm
from desktop_app.gui.memory_dialogs import (
    ConsentDialog,
    EraseDialog,
    ProvenanceDialog,
    category_label,
    erased_placeholders,
    merge_receipts,
    receipt_texts,
)
from desktop_app.gui.panel import PanelMixin, Text
from desktop_app.gui.services import MemoryServices
from desktop_app.gui.workers import WorkerSet
from desktop_app.memory.types import MemoryItem

AnyIndex = QModelIndex | QPersistentModelIndex
TEXT, CATEGORY, SUBJECT, SOURCE, CREATED, EXPIRES, SENSITIVE = range(7)
MEMORY_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class MemoryTableModel(QAbstractTableModel):
    """Rows are memory items; only the text is editable (a change is persisted by the panel)."""

    editRequested = Signal(str, str)  # memory id, new text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[MemoryItem] = []

    def set_items(self, items: list[MemoryItem]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def replace_item(self, item: MemoryItem) -> None:
        for row, existing in enumerate(self.items):
            if existing.id == item.id:
                self.items[row] = item
                self.dataChanged.emit(self.index(row, 0), self.index(row, SENSITIVE))
                return

    def remove_ids(self, ids: set[str]) -> None:
        for row in range(len(self.items) - 1, -1, -1):
            if self.items[row].id in ids:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self.items[row]
                self.endRemoveRows()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 7

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        names = (self.tr("Text"), self.tr("Category"), self.tr("About"), self.tr("Source"),
                 self.tr("Saved"), self.tr("Expires"), self.tr("Sensitive"))
        return names[section] if 0 <= section < len(names) else None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == TEXT and self.items[index.row()].status == "active":
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.items):
            return None
        item = self.items[index.row()]
        column = index.column()
        if role == MEMORY_ID_ROLE:
            return item.id
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._display(item, column, edit=role == Qt.ItemDataRole.EditRole)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == SOURCE and item.source is not None:
                return self.tr("You said on %1: “%2” (click to see the message)").replace(
                    "%1", item.source.timestamp[:16].replace("T", " ")).replace(
                    "%2", erased_placeholders(item.source.quote))
            if column == TEXT:
                return item.text
        if role == Qt.ItemDataRole.ForegroundRole and column == SOURCE:
            return QColor("#3a8fd6")  # clickable: opens the message it came from
        if role == Qt.ItemDataRole.CheckStateRole and column == SENSITIVE:
            return Qt.CheckState.Checked if item.sensitive else Qt.CheckState.Unchecked
        return None

    def _display(self, item: MemoryItem, column: int, *, edit: bool) -> Any:
        if column == TEXT:
            if edit or item.status == "active":
                return item.text
            if item.superseded_by == item.id:  # an earlier wording, before an edit
                when = item.updated_at[:16].replace("T", " ")
                before = self.tr("before the edit of %1").replace("%1", when)
                return f"{item.text} ({before})"
            superseded = self.tr("superseded")
            return f"{item.text} ({superseded})"
        if column == CATEGORY:
            return item.category if edit else category_label(item.category)
        if column == SUBJECT:
            return self.tr("you") if item.subject == "user" else item.subject
        if column == SOURCE:
            return erased_placeholders(item.source.quote) if item.source is not None else ""
        if column == CREATED:
            return item.created_at[:10]
        if column == EXPIRES:
            return (item.expires_at or "")[:10] or self.tr("never")
        if column == SENSITIVE:
            return self.tr("yes") if item.sensitive else ""
        return None

    def setData(self, index: AnyIndex, value: Any,  # noqa: N802
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or index.column() != TEXT or role != Qt.ItemDataRole.EditRole:
            return False
        text = str(value).strip()
        item = self.items[index.row()]
        if not text or text == item.text or item.status != "active":
            return False
        self.items[index.row()] = replace(item, text=text)
        self.dataChanged.emit(index, index)
        self.editRequested.emit(item.id, text)
        return True


class MemoryPanel(PanelMixin, QWidget):
    """Table of memories plus delete, forget all, export, consent and receipts."""

    memoryChanged = Signal()
    receiptShown = Signal(dict)

    def __init__(self, services: MemoryServices, workers: WorkerSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services: MemoryServices = services
        self.workers = workers
        self._receipt: dict[str, Any] | None = None
        self._note: Text | None = None  # or a one-line note in its place (export done…)
        self.model = MemoryTableModel(self)
        self.model.editRequested.connect(self.save_edit)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.history = QCheckBox()
        self.history.toggled.connect(lambda _on: self.refresh())
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.history)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(TEXT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(SOURCE, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(SOURCE, 220)
        self.table.clicked.connect(self._cell_clicked)

        self.delete_button = QPushButton()
        self.delete_button.clicked.connect(self.delete_selected)
        self.forget_button = QPushButton()
        self.forget_button.clicked.connect(self.forget_all)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export)
        self.consent_button = QPushButton()
        self.consent_button.clicked.connect(self.edit_consents)
        buttons = QHBoxLayout()
        for button in (self.delete_button, self.forget_button, self.export_button,
                       self.consent_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        # the receipt: what was erased in plain words; the technical detail behind a toggle
        self.receipt = QLabel()
        self.receipt.setWordWrap(True)
        self.receipt.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.receipt_details_button = QToolButton()
        self.receipt_details_button.setCheckable(True)
        self.receipt_details_button.setToolButtonStyle(
            Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.receipt_details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.receipt_details_button.toggled.connect(self._toggle_receipt_details)
        self.receipt_details = QLabel()
        self.receipt_details.setWordWrap(True)
        self.receipt_details.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse)
        self.receipt_details.setStyleSheet("color: palette(mid); font-family: monospace;")
        self.receipt_box = QWidget()
        receipt_row = QHBoxLayout()
        receipt_row.setContentsMargins(0, 0, 0, 0)
        receipt_row.addWidget(self.receipt, 1)
        receipt_row.addWidget(self.receipt_details_button, 0, Qt.AlignmentFlag.AlignTop)
        receipt_layout = QVBoxLayout(self.receipt_box)
        receipt_layout.setContentsMargins(0, 0, 0, 0)
        receipt_layout.addLayout(receipt_row)
        receipt_layout.addWidget(self.receipt_details)
        self.receipt_details.hide()
        self.receipt_box.hide()
        self.erase_dialog: EraseDialog | None = None

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.receipt_box)
        self.retranslate()

    def retranslate(self) -> None:
        self.intro.setText(self.tr("What Acervo remembers from what you told it. Double-click a text to correct it; click a source to see the message it came from."))
        self.search.setPlaceholderText(self.tr("Search memories"))
        self.history.setText(self.tr("Show older versions"))
        self.delete_button.setText(self.tr("Delete"))
        self.forget_button.setText(self.tr("Forget everything…"))
        self.export_button.setText(self.tr("Export JSON…"))
        self.consent_button.setText(self.tr("Sensitive data consent…"))
        self.receipt_details_button.setText(self.tr("Details"))
        if self._receipt is not None:
            self.show_receipt(self._receipt)
        elif self._note is not None:
            self.receipt.setText(self._note())
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, SENSITIVE)

    # ---- loading ------------------------------------------------------------------
    def refresh(self) -> None:
        status = "history" if self.history.isChecked() else "active"
        self.workers.call(lambda: self.services.memories(status=status), name="memory-list",
                          on_result=self._loaded, on_failed=self.show_failure)

    def _loaded(self, items: list[MemoryItem]) -> None:
        self.model.set_items(items)
        self.table.resizeRowsToContents()

    # ---- rights -------------------------------------------------------------------
    def save_edit(self, memory_id: str, text: str) -> None:
        self.workers.call(lambda: self.services.edit_memory(memory_id, text), name="memory-edit",
                          on_result=self._edited, on_failed=self._edit_failed)

    def _edited(self, item: MemoryItem) -> None:
        self.model.replace_item(item)
        if self.history.isChecked():
            self.refresh()  # the earlier wording joins the older versions
        self.memoryChanged.emit()

    def _edit_failed(self, error: BaseException) -> None:
        self.show_failure(error)
        self.refresh()  # the table shows what is really stored

    def selected_ids(self) -> list[str]:
        rows = self.table.selectionModel().selectedRows(TEXT)
        return list(dict.fromkeys(str(self.proxy.data(index, MEMORY_ID_ROLE)) for index in rows))

    def delete_selected(self) -> None:
        ids = self.selected_ids()
        # a memory once, with its older wordings (an earlier version row has its id)
        items = list({item.id: item for item in reversed(self.model.items)
                      if item.id in ids}.values())
        if not items:
            return
        dialog = EraseDialog(items, self)
        self.erase_dialog = dialog  # reachable while it is open (tests, screenshots)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        with_messages = dialog.with_messages.isChecked()
        self.erase_dialog = None
        if not accepted:
            return

        def delete() -> list[Any]:
            return [self.services.delete_memory(memory_id, with_messages=with_messages)
                    for memory_id in ids]

        self.workers.call(delete, name="memory-delete", on_failed=self.show_failure,
                          on_result=lambda receipts: self._erased(set(ids), receipts))

    def forget_all(self) -> None:
        if not confirm(self, self.tr("Forget everything"),
                       self.tr("Erase everything Acervo remembers about you, with every copy? This cannot be undone.")):
            return
        self.workers.call(self.services.forget_all, name="memory-forget-all",
                          on_failed=self.show_failure,
                          on_result=lambda receipt: self._erased(None, [receipt]))

    def _erased(self, ids: set[str] | None, receipts: list[Any]) -> None:
        if ids is None:
            self.model.set_items([])
        else:
            self.model.remove_ids(ids)
        merged = merge_receipts(receipts)
        self.show_receipt(merged, announce=True)
        self.memoryChanged.emit()

    def show_receipt(self, receipt: dict[str, Any], *, announce: bool = False) -> None:
        self._receipt, self._note = receipt, None
        plain, details = receipt_texts(receipt)
        self.receipt.setText(plain)
        self.receipt_details.setText(details)
        self.receipt_details_button.show()
        self.receipt_box.show()
        if announce:
            self.receiptShown.emit(receipt)

    def _toggle_receipt_details(self, shown: bool) -> None:
        self.receipt_details.setVisible(shown)
        self.receipt_details_button.setArrowType(Qt.ArrowType.DownArrow if shown
                                                 else Qt.ArrowType.RightArrow)

    def _show_note(self, text: Text) -> None:
        """A one-line note where the receipt goes (export done…)."""
        self._receipt, self._note = None, text
        self.receipt.setText(text())
        self.receipt_details.hide()
        self.receipt_details_button.hide()
        self.receipt_box.show()

    def export(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Export memories"), str(Path.home() / "acervo-memories.json"),
            self.tr("JSON files (*.json)"))
        if path:
            self.workers.call(lambda: self.services.export_memories(Path(path)),
                              name="memory-export", on_failed=self.show_failure,
                              on_result=lambda _r: self._show_note(
                                  lambda: self.tr("Exported to %1").replace("%1", path)))

    def edit_consents(self) -> None:
        self.workers.call(self.services.consents, name="memory-consents",
                          on_result=self._show_consents, on_failed=self.show_failure)

    def _show_consents(self, state: dict[str, Any]) -> None:
        dialog = ConsentDialog(state, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        changes = dialog.changes()
        withdrawn = [c for c, granted in changes.items() if not granted]
        if withdrawn and not confirm(self, self.tr("Withdraw consent"),
                                     self.tr("Withdrawing consent erases what is stored in: %1. Continue?").replace("%1", ", ".join(category_label(c) for c in withdrawn))):
            return

        def apply() -> list[Any]:
            return [self.services.set_consent(c, g) for c, g in changes.items()]

        self.workers.call(apply, name="memory-consent", on_failed=self.show_failure,
                          on_result=self._consents_saved)

    def _consents_saved(self, results: list[Any]) -> None:
        receipts = [r[1] for r in results if isinstance(r, tuple) and r[1] is not None]
        if receipts:
            self.show_receipt(merge_receipts(receipts), announce=True)
        self.refresh()
        self.memoryChanged.emit()

    def _cell_clicked(self, index: QModelIndex) -> None:
        if index.column() != SOURCE:
            return
        memory_id = str(self.proxy.data(index, MEMORY_ID_ROLE))
        self.workers.call(lambda: self.services.provenance(memory_id), name="memory-provenance",
                          on_result=self._show_provenance, on_failed=self.show_failure)

    def _show_provenance(self, provenance: Any) -> None:
        ProvenanceDialog(provenance, self).open()
