"""The scope chip above the question box: what the next questions are asked about — the
whole library, a collection, or the documents selected in the Library panel.

The chip sets the chat's filters (`ChatServices.filters`, a `SearchFilters` with the
chosen documents' ids and the scope's name), so every answer searches only there until
the chip is cleared; the answer's trace records the scope and the answer shows it
(`Done.scope`). A scope that holds no document is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMenu, QToolButton, QWidget

from desktop_app.errors import AppError
from desktop_app.gui.services import ChatServices, LibraryServices
from desktop_app.library.scope import Scope


class ScopeChip(QFrame):
    """"Asking: the whole library ▾"; a menu of collections and the selected documents."""

    scopeChanged = Signal(str)  # the scope's label ("" for the whole library)
    refused = Signal(str)  # why a scope could not be used (it holds no document…)

    def __init__(self, library: LibraryServices, chat: ChatServices,
                 selected: Callable[[], list[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.chat = chat
        self.selected = selected  # ids of the documents selected in the Library panel
        self.scope = Scope()
        self._count = 0
        self.setObjectName("scopeChip")
        self.setStyleSheet("#scopeChip { background: rgba(33, 150, 243, 0.12); "
                           "border-radius: 10px; }")
        self.label = QLabel()
        self.menu = QMenu(self)
        self.menu.aboutToShow.connect(self._fill_menu)
        self.choose = QToolButton()
        self.choose.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.choose.setMenu(self.menu)
        self.choose.setAutoRaise(True)
        self.clear_button = QToolButton()
        self.clear_button.setText("×")
        self.clear_button.setAutoRaise(True)
        self.clear_button.clicked.connect(lambda: self.set_scope(Scope()))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 0, 4, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.choose)
        layout.addWidget(self.clear_button)
        self.retranslate()

    def retranslate(self) -> None:
        self.choose.setText(self.tr("Change"))
        self.clear_button.setToolTip(self.tr("Ask the whole library again"))
        self._show()

    def _show(self) -> None:
        if self.scope.everything:
            text = self.tr("Asking: the whole library")
        else:
            parts = [self.tr("collection “%1”").replace("%1", name)
                     for name in self.scope.collections]
            if self.scope.documents:
                parts.append(self.tr("%n selected document(s)", "", len(self.scope.documents)))
            text = self.tr("Asking: %1 (%n document(s))", "", self._count).replace(
                "%1", " + ".join(parts))
        self.label.setText(text)
        self.clear_button.setVisible(not self.scope.everything)

    def _fill_menu(self) -> None:
        self.menu.clear()
        everything = self.menu.addAction(self.tr("The whole library"))
        everything.setCheckable(True)
        everything.setChecked(self.scope.everything)
        everything.triggered.connect(lambda: self.set_scope(Scope()))
        names = self.library.collection_names()
        if names:
            self.menu.addSection(self.tr("Collections"))
        for name in names:
            action = self.menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(self.scope.collections == (name,))
            action.triggered.connect(lambda _checked=False, n=name: self.set_scope(Scope((n,))))
        chosen = self.selected()
        self.menu.addSeparator()
        selected = self.menu.addAction(self.tr("The %n document(s) selected in the library",
                                               "", len(chosen)))
        selected.setEnabled(bool(chosen))
        selected.triggered.connect(lambda: self.set_scope(Scope(documents=tuple(chosen))))

    def set_scope(self, scope: Scope) -> bool:
        """Ask the next questions about `scope`; False (and `refused`) when it holds nothing."""
        try:
            filters = self.library.scope_filters(scope)
        except AppError as exc:
            self.refused.emit(exc.user_message)
            return False
        self.scope = scope if filters is not None else Scope()
        self._count = len(filters.doc_ids) if filters is not None else 0
        self.chat.filters = filters
        self._show()
        self.scopeChanged.emit(filters.scope if filters is not None else "")
        return True
