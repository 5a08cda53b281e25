"""Error and confirmation dialogs shared by every panel.

`AppError` means the user can act on it: show its `user_message`. Anything else is a
bug: it was already logged (sanitized) by the worker; show a short crash notice that
points at the log folder instead of a traceback.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QMessageBox, QWidget

from desktop_app.errors import AppError


def show_error(parent: QWidget | None, error: BaseException, *, log_dir: str = "") -> None:
    """One dialog per failure; the user message for `AppError`, a bug notice otherwise."""
    if isinstance(error, AppError):
        QMessageBox.warning(parent, QCoreApplication.translate("Dialogs", "Acervo"), error.user_message)
        return
    text = QCoreApplication.translate(
        "Dialogs",
        "Something went wrong inside Acervo ({name}). Your documents and memories are safe.").replace("{name}", type(error).__name__)
    if log_dir:
        text += "\n\n" + QCoreApplication.translate(
            "Dialogs", "Details were written to the log in {folder}.").replace(
            "{folder}", log_dir)
    QMessageBox.critical(parent, QCoreApplication.translate("Dialogs", "Unexpected error"), text)


def confirm(parent: QWidget | None, title: str, text: str, *, destructive: bool = True) -> bool:
    """Yes/No question; the safe answer (No) is the default for destructive actions."""
    default = (QMessageBox.StandardButton.No if destructive
               else QMessageBox.StandardButton.Yes)
    answer = QMessageBox.question(
        parent, title, text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, default)
    return answer == QMessageBox.StandardButton.Yes


def confirm_with_option(parent: QWidget | None, title: str, text: str, option: str,
                        *, checked: bool = False) -> tuple[bool, bool]:
    """A destructive Yes/No question with one checkbox; returns (confirmed, option checked)."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text,
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    check = QCheckBox(option)
    check.setChecked(checked)
    box.setCheckBox(check)
    confirmed = box.exec() == QMessageBox.StandardButton.Yes
    return confirmed, check.isChecked()


def open_with_system(parent: QWidget | None, path: str) -> bool:
    """Open a file in the application the system associates with it; when there is none
    (no xdg-open, or no handler for its type) say so and offer to copy the path."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices, QGuiApplication

    if has_system_viewer(path) and QDesktopServices.openUrl(QUrl.fromLocalFile(path)):
        return True
    box = QMessageBox(QMessageBox.Icon.Information,
                      QCoreApplication.translate("Dialogs", "No application to open it"),
                      QCoreApplication.translate("Dialogs", "No application on this computer opens this kind of file. The file is here:") + f"\n\n{path}",
                      QMessageBox.StandardButton.Close, parent)
    copy = box.addButton(QCoreApplication.translate("Dialogs", "Copy path"),
                         QMessageBox.ButtonRole.ActionRole)
    box.exec()
    if box.clickedButton() is copy:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(path)
    return False


def has_system_viewer(path: str) -> bool:
    """False when we can tell that nothing would open `path` (Linux: xdg-mime knows no
    default application for its type). Qt's openUrl reports success as soon as xdg-open
    starts, even when xdg-open then finds no application."""
    import shutil
    import subprocess
    import sys

    if not sys.platform.startswith("linux"):
        return True
    if shutil.which("xdg-open") is None:
        return False
    query = shutil.which("xdg-mime")
    if query is None:
        return True  # cannot tell: let xdg-open try
    from PySide6.QtCore import QMimeDatabase

    mime = QMimeDatabase().mimeTypeForFile(path).name()
    try:
        answer = subprocess.run([query, "query", "default", mime], capture_output=True,
                                text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return True
    return bool(answer.stdout.strip())
