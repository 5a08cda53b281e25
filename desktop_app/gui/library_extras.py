"""The window's library keeping, wired in one place: watched folders (`LibraryKeeper`),
the scope chip above the question box (`ScopeChip`) and the Library status dialog
(Tools ▸ Library status…). The main window calls `LibraryExtras(window)` once and tells
it when the models are loaded, a folder is added, the language changes and it closes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QBoxLayout

from desktop_app.gui.library_status import LibraryStatusDialog
from desktop_app.gui.library_watch import LibraryKeeper
from desktop_app.gui.scope_chip import ScopeChip

if TYPE_CHECKING:
    from desktop_app.gui.main_window import MainWindow


class LibraryExtras:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        services, library, chat = window.services, window.library, window.chat
        self.keeper = LibraryKeeper(services.library, library, window.workers, window)
        self.keeper.statusMessage.connect(lambda text: window.status_line.show(text, 15000))
        self.scope_chip = ScopeChip(services.library, services.chat,
                                    lambda: [doc for doc, _path in library.selected_doc_ids()])
        # (the reason is an AppError's user message: worded by the core, not by `tr`)
        self.scope_chip.refused.connect(
            lambda text: window.status_line.show(lambda: text, 15000))
        layout = chat.layout()
        assert isinstance(layout, QBoxLayout)  # the chat panel's column: above the question
        layout.insertWidget(layout.indexOf(chat.question), self.scope_chip)
        self.status_action = QAction(window)
        self.status_action.triggered.connect(self.show_status)
        window.tools_menu.insertAction(window.settings_action, self.status_action)

    def retranslate(self) -> None:
        self.status_action.setText(QCoreApplication.translate("LibraryExtras", "Library status…"))
        self.scope_chip.retranslate()

    def models_loaded(self) -> None:
        self.keeper.start()

    def folder_added(self, folder: Path) -> None:
        if self.window.services.library.current_library == "local":
            self.keeper.watch(folder)  # folders added in the window are watched

    def close(self) -> None:
        self.keeper.stop()

    def show_status(self) -> LibraryStatusDialog:
        dialog = LibraryStatusDialog(self.window.library, self.window)
        dialog.setModal(False)
        dialog.show()
        return dialog
