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
