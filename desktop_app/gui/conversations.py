"""The conversations list: open an earlier chat, rename it, delete it.

Reads go through `GuiServices` in a worker (the state database is shared with the
background memory extraction); a single click (or Enter) opens the conversation.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QInputDialog,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui.dialogs import confirm
from desktop_app.gui.panel import PanelMixin
from desktop_app.gui.services import ChatServices, ConversationInfo, MemoryServices
from desktop_app.gui.workers import WorkerSet

CONVERSATION_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class ConversationsPanel(PanelMixin, QWidget):
    """List of stored conversations, newest first."""

    openRequested = Signal(str, list)  # conversation id, its messages
    newChatRequested = Signal()
    deleted = Signal(str)
    listed = Signal()  # the list was (re)loaded

    def __init__(self, chat: ChatServices, memory: MemoryServices, workers: WorkerSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services: ChatServices = chat
        self.memory_services = memory  # deleting a chat erases it everywhere (a receipt)
        self.workers = workers
        self._select_after_refresh = ""
        self._open_after_refresh = False
        self._shown = ""  # the conversation the chat shows ("" for a new chat)
        self.new_button = QPushButton()
        self.new_button.clicked.connect(self.newChatRequested)
        self.list = QListWidget()
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._context_menu)
        self.list.itemClicked.connect(self._open_item)
        self.list.itemActivated.connect(self._open_item)  # Enter (and a double-click)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.new_button)
        layout.addWidget(self.list, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.new_button.setText(self.tr("New chat"))

    def refresh(self, select: str | None = None, *, open_it: bool = False) -> None:
        """Reload the list; `select` marks that conversation as the current one, and
        `open_it` also opens it (when it still exists: the last chat at launch)."""
        if select:
            self._select_after_refresh = select
            self._open_after_refresh = open_it
        self.workers.call(self.services.conversations, name="conversations",
                          on_result=self._show, on_failed=self.show_failure)

    def show_list(self, conversations: list[ConversationInfo], select: str = "") -> None:
        """Show a list read elsewhere (the stored state at start-up), marking `select`."""
        self._select_after_refresh = select
        self._open_after_refresh = False
        self._show(conversations)

    def _show(self, conversations: list[ConversationInfo]) -> None:
        current = self._select_after_refresh or self.current_id()
        open_it, self._open_after_refresh = self._open_after_refresh, False
        self._select_after_refresh = ""
        self.list.clear()
        for conversation in conversations:
            title = conversation.title or self.tr("Untitled chat")
            item = QListWidgetItem(title)
            item.setToolTip(f"{conversation.updated_at[:16].replace('T', ' ')} · "
                            + self.tr("%n message(s)", "", conversation.messages))
            item.setData(CONVERSATION_ID_ROLE, conversation.id)
            self.list.addItem(item)
            if conversation.id == current:
                self.list.setCurrentItem(item)
                if open_it:
                    self._open_item(item)
        self.listed.emit()

    def title_of(self, conversation_id: str) -> str:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(CONVERSATION_ID_ROLE) == conversation_id:
                return item.text()
        return ""

    def current_id(self) -> str:
        item = self.list.currentItem()
        return str(item.data(CONVERSATION_ID_ROLE)) if item is not None else ""

    def select(self, conversation_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(CONVERSATION_ID_ROLE) == conversation_id:
                self.list.setCurrentRow(row)
                return

    def set_shown(self, conversation_id: str) -> None:
        """The chat now shows this conversation ("" for a new chat): clicking it again does
        nothing, and a new chat leaves no item current."""
        self._shown = conversation_id
        if not conversation_id:
            self.list.setCurrentRow(-1)
            self.list.clearSelection()

    def open(self, conversation_id: str) -> None:
        """Load a conversation's messages and ask the chat to show them."""
        self.workers.call(lambda: self.services.messages(conversation_id),
                          name="conversation-open", on_failed=self.show_failure,
                          on_result=lambda messages: self.openRequested.emit(
                              conversation_id, list(messages)))

    def _open_item(self, item: QListWidgetItem) -> None:
        conversation_id = str(item.data(CONVERSATION_ID_ROLE))
        if conversation_id == self._shown:
            return  # already in the chat (a double-click also sends a click)
        self._shown = conversation_id
        self.open(conversation_id)

    def _context_menu(self, pos: Any) -> None:
        item = self.list.itemAt(pos)
        if item is None:
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: self.open(str(item.data(CONVERSATION_ID_ROLE))))
        menu.addAction(self.tr("Rename…"), lambda: self._rename(item))
        menu.addAction(self.tr("Delete…"), lambda: self._delete(item))
        menu.exec(self.list.viewport().mapToGlobal(pos))

    def _rename(self, item: QListWidgetItem) -> None:
        title, ok = QInputDialog.getText(self, self.tr("Rename chat"), self.tr("Title:"),
                                         text=item.text())
        if ok and title.strip():
            conversation_id = str(item.data(CONVERSATION_ID_ROLE))
            self.workers.call(
                lambda: self.services.rename_conversation(conversation_id, title.strip()),
                name="conversation-rename", on_failed=self.show_failure,
                on_result=lambda _r: self.refresh())

    def _delete(self, item: QListWidgetItem) -> None:
        if not confirm(self, self.tr("Delete chat"),
                       self.tr("Delete this chat and its messages? Memories you saved from it stay until you delete them in the Memory panel.")):
            return
        conversation_id = str(item.data(CONVERSATION_ID_ROLE))

        def delete() -> str:
            self.memory_services.delete_conversation(conversation_id)
            return conversation_id

        self.workers.call(delete, name="conversation-delete", on_failed=self.show_failure,
                          on_result=self._deleted)

    def _deleted(self, conversation_id: str) -> None:
        self.deleted.emit(conversation_id)
        self.refresh()

    def language_changed(self) -> None:
        self.retranslate()
        self.refresh()  # "Untitled chat" and the message counts in the new language
