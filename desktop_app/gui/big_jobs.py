"""Asking before the big jobs: a reindex (after an embedder change, or chosen in the menu)
re-embeds every passage of the library, which on a large library takes hours. The window
says how long, from the rate measured on this computer (`library.estimate`), and asks;
a job under a minute just runs. Either way it runs in the background with its progress
in the Library panel, and search keeps working meanwhile (the reindex is blue/green).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_app.errors import AppError

if TYPE_CHECKING:
    from desktop_app.gui.services import LibraryServices
    from desktop_app.library.estimate import JobEstimate


def _tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate("BigJobs", text, "", n)


def duration_text(seconds: float) -> str:
    """"about 12 minutes", "about 3.5 hours" in the user's language."""
    if seconds < 60:
        return _tr("under a minute")
    if seconds < 90 * 60:
        return _tr("about %n minute(s)", round(seconds / 60))
    hours = seconds / 3600
    if hours < 48:
        return _tr("about %1 hours").replace("%1", f"{hours:.1f}")
    return _tr("about %1 days").replace("%1", f"{hours / 24:.1f}")


def estimate_text(estimate: JobEstimate) -> str:
    how = _tr("at the rate measured on this computer") if estimate.measured else \
        _tr("a first guess: the rate is measured as documents are added")
    return (_tr("Reindexing re-embeds all %1 documents (%2 passages): %3 (%4).")
            .replace("%1", f"{estimate.documents:,}").replace("%2", f"{estimate.passages:,}")
            .replace("%3", duration_text(estimate.seconds)).replace("%4", how))


def ask_yes_no(parent: QWidget, title: str, text: str) -> bool:
    """The question itself (tests replace it)."""
    answer = QMessageBox.question(parent, title, text, QMessageBox.StandardButton.Yes
                                  | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def confirm_reindex(parent: QWidget, services: LibraryServices) -> bool:
    """Whether to go ahead with a reindex: yes at once for a short one, else the user's."""
    if services.current_library != "local":
        return True  # a team library's reindex is the team's own (its own confirmation)
    try:
        estimate = services.reindex_estimate()
    except AppError:
        return True  # the reindex itself will say what is wrong
    if not estimate.big:
        return True
    text = estimate_text(estimate) + "\n\n" + _tr(
        "It runs in the background with its progress in the Library panel; search keeps "
        "working meanwhile. You can cancel it: the current index stays as it is.")
    return ask_yes_no(parent, _tr("Reindex the library?"), text)
