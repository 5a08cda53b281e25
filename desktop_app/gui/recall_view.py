"""The memory window's "Conversations" view: what conversation recall can use, erasable.

A tree of earlier chats (title and date) with the exchanges recall has indexed under
each, newest first; the search box asks recall itself (the same hybrid search answers
use), so the user sees what a question would bring back. "Delete conversation" erases the
chat with its recall rows, vectors and keyword entries, and shows the receipt; "Delete
message" erases one message the same way (the rest of the chat stays, re-indexed).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui.dialogs import confirm
from desktop_app.gui.memory_dialogs import receipt_texts
from desktop_app.gui.panel import PanelMixin, Text
from desktop_app.gui.services import MemoryServices
from desktop_app.gui.workers import WorkerSet
from desktop_app.memory.erasure import ErasureReceipt
from desktop_app.memory.recall import RecalledExchange, chat_date

CONVERSATION_ROLE = Qt.ItemDataRole.UserRole + 1
MESSAGE_ROLE = Qt.ItemDataRole.UserRole + 2
EXCERPT_CHARS = 220


class ConversationsView(PanelMixin, QWidget):
    """Earlier chats as conversation recall sees them; search and delete."""

    conversationDeleted = Signal(str)
    messageDeleted = Signal(str, str)  # conversation id, message id
    receiptShown = Signal(dict)

    def __init__(self, services: MemoryServices, workers: WorkerSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services: MemoryServices = services
        self.workers = workers
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.refresh)
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.delete_button = QPushButton()
        self.delete_button.clicked.connect(self.delete_selected)
        self.delete_message_button = QPushButton()
        self.delete_message_button.clicked.connect(self.delete_selected_message)
        self.delete_message_button.setEnabled(False)
        self.tree.currentItemChanged.connect(lambda *_a: self._update_buttons())
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.receipt = QLabel()
        self.receipt.setWordWrap(True)
        self.receipt.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.receipt.hide()
        self._receipt: dict[str, Any] | None = None  # the last receipt, worded at each show
        self._labels: list[tuple[QTreeWidgetItem, Text]] = []  # the tree's rows, likewise
        buttons = QHBoxLayout()
        buttons.addWidget(self.delete_button)
        buttons.addWidget(self.delete_message_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.search)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty)
        layout.addLayout(buttons)
        layout.addWidget(self.receipt)
        self.retranslate()

    def retranslate(self) -> None:
        self.intro.setText(self.tr("Earlier conversations Acervo can recall when it answers (what you and the assistant said). Delete a conversation to erase it and its search entries for good; Settings can turn recall off."))
        self.search.setPlaceholderText(self.tr("Search earlier conversations"))
        self.delete_button.setText(self.tr("Delete conversation"))
        self.delete_message_button.setText(self.tr("Delete message"))
        self.empty.setText(self.tr("Nothing to recall yet: earlier conversations appear here after you chat (or recall is switched off in Settings)."))
        for item, label in self._labels:
            item.setText(0, label())
        if self._receipt is not None:
            self.receipt.setText(receipt_texts(self._receipt)[0])

    # ---- loading ------------------------------------------------------------------
    def refresh(self) -> None:
        query = self.search.text()
        self.workers.call(lambda: self.services.recalled_exchanges(query),
                          name="recall-list", on_result=self._loaded, on_failed=self.show_failure)

    def _chat_label(self, exchange: RecalledExchange) -> Text:
        def text() -> str:
            title = exchange.title or self.tr("Untitled chat")
            return self.tr("%1 — chat of %2").replace("%1", title).replace(
                "%2", chat_date(exchange.started_at, QLocale().name()))
        return text

    def _turn_label(self, role: str, short: str) -> Text:
        return lambda: (self.tr("You") if role == "user" else self.tr("Assistant")) + f": {short}"

    def _labelled(self, label: Text) -> QTreeWidgetItem:
        item = QTreeWidgetItem([label()])
        self._labels.append((item, label))
        return item

    def _loaded(self, exchanges: list[RecalledExchange]) -> None:
        self.tree.clear()
        self._labels = []
        chats: dict[str, QTreeWidgetItem] = {}
        shown: set[str] = set()  # exchanges overlap (an answer closes one, opens the next)
        for exchange in exchanges:
            parent = chats.get(exchange.conversation_id)
            if parent is None:
                parent = self._labelled(self._chat_label(exchange))
                parent.setData(0, CONVERSATION_ROLE, exchange.conversation_id)
                chats[exchange.conversation_id] = parent
                self.tree.addTopLevelItem(parent)
            for message_id, (role, text) in zip(exchange.message_ids, exchange.turns,
                                                 strict=True):
                if message_id in shown:
                    continue
                shown.add(message_id)
                short = " ".join(text.split())
                if len(short) > EXCERPT_CHARS:
                    short = short[:EXCERPT_CHARS].rstrip() + "…"
                child = self._labelled(self._turn_label(role, short))
                child.setData(0, CONVERSATION_ROLE, exchange.conversation_id)
                child.setData(0, MESSAGE_ROLE, message_id)
                child.setToolTip(0, text)
                parent.addChild(child)
        if len(chats) <= 3 or self.search.text().strip():
            self.tree.expandAll()
        self.empty.setVisible(not chats)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.delete_button.setEnabled(self.tree.topLevelItemCount() > 0)
        self.delete_message_button.setEnabled(self.selected_message() is not None)

    # ---- erasure ------------------------------------------------------------------
    def selected_conversation(self) -> str | None:
        item = self.tree.currentItem()
        return str(item.data(0, CONVERSATION_ROLE)) if item is not None else None

    def selected_message(self) -> tuple[str, str] | None:
        """(conversation id, message id) of the selected message row, if one is selected."""
        item = self.tree.currentItem()
        message_id = item.data(0, MESSAGE_ROLE) if item is not None else None
        if item is None or not message_id:
            return None
        return str(item.data(0, CONVERSATION_ROLE)), str(message_id)

    def delete_selected_message(self) -> None:
        selected = self.selected_message()
        if selected is None:
            return
        conversation_id, message_id = selected
        if not confirm(self, self.tr("Delete message"),
                       self.tr("Erase this message from the chat and from what recall can use? The rest of the conversation stays.")):
            return
        self.workers.call(lambda: self.services.delete_messages([message_id]),
                          name="message-delete", on_failed=self.show_failure,
                          on_result=lambda receipt: self._message_deleted(
                              conversation_id, message_id, receipt))

    def _message_deleted(self, conversation_id: str, message_id: str,
                         receipt: ErasureReceipt) -> None:
        self.show_receipt(receipt)
        self.messageDeleted.emit(conversation_id, message_id)
        self.refresh()

    def delete_selected(self) -> None:
        conversation_id = self.selected_conversation()
        if conversation_id is None:
            return
        if not confirm(self, self.tr("Delete conversation"),
                       self.tr("Erase this conversation, its messages and everything recall indexed from it? Memories you saved from it stay until you delete them.")):
            return
        self.workers.call(lambda: self.services.delete_conversation(conversation_id),
                          name="conversation-delete", on_failed=self.show_failure,
                          on_result=lambda receipt: self._deleted(conversation_id, receipt))

    def _deleted(self, conversation_id: str, receipt: ErasureReceipt) -> None:
        self.show_receipt(receipt)
        self.conversationDeleted.emit(conversation_id)
        self.refresh()

    def show_receipt(self, receipt: Any) -> None:
        data = receipt.to_dict() if hasattr(receipt, "to_dict") else dict(receipt)
        self._receipt = data
        plain, _details = receipt_texts(data)
        self.receipt.setText(plain)
        self.receipt.show()
        self.receiptShown.emit(data)
