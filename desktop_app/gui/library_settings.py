"""Settings → Libraries: this computer's library and team libraries on a PostgreSQL server.

A team library is a name, a connection URL (never with the password: it goes to
the OS keyring or a 0600 file when Settings is accepted), read-only or
read-write, whether questions search it, the collection to add to, and — for a
server on another computer — the user's explicit permission to reach it
(Acervo is offline otherwise). "Test connection" connects with the values typed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.config.secrets import split_url_password
from desktop_app.config.settings import Settings, TeamLibrary
from desktop_app.errors import AppError

# (library, password or None) -> a line for the user; raises AppError
LibraryTester = Callable[[TeamLibrary, "str | None"], str]
KEEP = object()  # the password field was left as it was


def _remote_hosts(url: str) -> list[str]:
    from desktop_app.team.connection import network_hosts

    try:
        return network_hosts(url)
    except AppError:
        return []


class TeamLibraryDialog(QDialog):
    """Add or edit one team library; `library()` and `password()` after OK."""

    def __init__(self, existing: TeamLibrary | None, taken: list[str], *,
                 tester: LibraryTester | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Team library"))
        self._taken = taken
        self._tester = tester
        self._editing = existing is not None
        lib = existing or TeamLibrary(name="", url="postgresql://")
        self.name = QLineEdit(lib.name)
        self.url = QLineEdit(lib.url)
        self.url.setPlaceholderText("postgresql://ana@server.example:5432/acervo")
        self.password_edit = QLineEdit()
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        if self._editing:
            self.password_edit.setPlaceholderText(self.tr("unchanged"))
        self.collection = QLineEdit(lib.collection)
        self.collection.setPlaceholderText(self.tr("the one you may write to"))
        self.read_only = QCheckBox(self.tr("Read-only: never add or remove documents there"))
        self.read_only.setChecked(lib.read_only)
        self.search = QCheckBox(self.tr("Search it with every question"))
        self.search.setChecked(lib.search)
        self.allow = QCheckBox()
        self.allow.setChecked(lib.allow_network)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #c62828;")
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self.url.textChanged.connect(self._update_network)
        self.allow.toggled.connect(self._update_network)
        form = QFormLayout()
        form.addRow(self.tr("Name:"), self.name)
        form.addRow(self.tr("Server URL:"), self.url)
        form.addRow(self.tr("Password:"), self.password_edit)
        form.addRow(self.tr("Add documents to collection:"), self.collection)
        form.addRow("", self.read_only)
        form.addRow("", self.search)
        form.addRow("", self.allow)
        form.addRow("", self.warning)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_result, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(test_row)
        layout.addWidget(buttons)
        self.resize(560, 0)
        self._update_network()

    def _update_network(self) -> None:
        hosts = _remote_hosts(self.url.text())
        self.allow.setVisible(bool(hosts))
        self.allow.setText(self.tr("Allow the connection to %1 (Acervo is offline otherwise)")
                           .replace("%1", ", ".join(hosts)))
        if not hosts:
            self.warning.setText("")
        elif self.allow.isChecked():
            self.warning.setText(self.tr("Not air-gapped for this server: your questions and the passages found go to it."))
        else:
            self.warning.setText(self.tr("This server is on another computer. Tick the box to allow it."))

    def library(self) -> TeamLibrary:
        url, _password = split_url_password(self.url.text())
        return TeamLibrary(name=" ".join(self.name.text().split()), url=url,
                           read_only=self.read_only.isChecked(), search=self.search.isChecked(),
                           collection=self.collection.text().strip(),
                           allow_network=self.allow.isChecked() and bool(_remote_hosts(url)))

    def password(self) -> object:
        """The typed password (a password in the URL counts), or KEEP when left empty."""
        _url, in_url = split_url_password(self.url.text())
        typed = self.password_edit.text() or in_url
        return typed if typed else (KEEP if self._editing else None)

    def problem(self) -> str:
        from desktop_app.team.connection import check_allowed, describe, unique_name

        library = self.library()
        try:
            unique_name(library.name, self._taken)
            describe(library.url)
            check_allowed(library)
        except AppError as exc:
            return exc.user_message
        return ""

    def test_connection(self) -> None:
        problem = self.problem()
        if problem or self._tester is None:
            self.test_result.setText(problem)
            return
        password = self.password()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.test_result.setText("✓ " + self._tester(
                self.library(), password if isinstance(password, str) else None))
        except AppError as exc:
            self.test_result.setText("✗ " + exc.user_message)
        finally:
            QGuiApplication.restoreOverrideCursor()

    def accept(self) -> None:
        problem = self.problem()
        if problem:
            QMessageBox.warning(self, self.tr("Team library"), problem)
            return
        super().accept()


class LibrariesTab(QWidget):
    """The Libraries tab of Settings; edits `settings` in place, collects new passwords."""

    def __init__(self, settings: Settings, *, tester: LibraryTester | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.tester = tester
        self.passwords: dict[str, str | None] = {}  # name → new password (None: forget it)
        self.renamed: dict[str, str] = {}  # new name → old name (its stored password moves)
        self.search_local = QCheckBox(self.tr("Search this computer's library"))
        self.search_local.setChecked(settings.search_local)
        self.search_local.toggled.connect(lambda on: setattr(self.settings, "search_local", on))
        self.list = QListWidget()
        self.list.itemDoubleClicked.connect(lambda _item: self.edit_selected())
        self.add_button = QPushButton(self.tr("Add team library…"))
        self.add_button.clicked.connect(self.add_library)
        self.edit_button = QPushButton(self.tr("Edit…"))
        self.edit_button.clicked.connect(self.edit_selected)
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.clicked.connect(self.remove_selected)
        hint = QLabel(self.tr("A team library lives on your team's PostgreSQL server: a question searches every library ticked here, and each source says which library it came from. Passwords are kept in the system keyring (or a private file), never in the settings file."))
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(mid);")
        buttons = QHBoxLayout()
        for button in (self.add_button, self.edit_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search_local)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(hint)
        self.reload()

    def reload(self) -> None:
        from desktop_app.team.connection import describe

        self.list.clear()
        for library in self.settings.team_libraries:
            try:
                where = describe(library.url)
            except AppError:
                where = library.url
            mode = self.tr("read-only") if library.read_only else self.tr("read-write")
            flags = [mode, self.tr("searched") if library.search else self.tr("not searched")]
            if _remote_hosts(library.url):
                flags.append(self.tr("network allowed") if library.allow_network
                             else self.tr("network NOT allowed"))
            item = QListWidgetItem(f"{library.name} — {where}\n    {' · '.join(flags)}")
            item.setData(Qt.ItemDataRole.UserRole, library.name)
            self.list.addItem(item)

    def _selected(self) -> TeamLibrary | None:
        item = self.list.currentItem()
        name = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return next((t for t in self.settings.team_libraries if t.name == name), None)

    def add_library(self) -> None:
        dialog = TeamLibraryDialog(None, [t.name for t in self.settings.team_libraries],
                                   tester=self.tester, parent=self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.add(dialog.library(), dialog.password())

    def add(self, library: TeamLibrary, password: object) -> None:
        self.settings.team_libraries.append(library)
        if isinstance(password, str):
            self.passwords[library.name] = password
        self.reload()

    def edit_selected(self) -> None:
        current = self._selected()
        if current is None:
            return
        others = [t.name for t in self.settings.team_libraries if t.name != current.name]
        dialog = TeamLibraryDialog(copy.deepcopy(current), others, tester=self.tester,
                                   parent=self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        edited, password = dialog.library(), dialog.password()
        index = self.settings.team_libraries.index(current)
        self.settings.team_libraries[index] = edited
        if edited.name != current.name and password is KEEP:
            self.renamed[edited.name] = self.renamed.pop(current.name, current.name)
        elif edited.name != current.name:
            self.passwords[current.name] = None
        if isinstance(password, str):
            self.passwords[edited.name] = password
        self.reload()

    def remove_selected(self) -> None:
        current = self._selected()
        if current is not None:
            self.settings.team_libraries.remove(current)
            self.passwords[current.name] = None
            self.reload()
