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


def duration_text(seconds: float) -> str:
    """"about 12 minutes", "about 3.5 hours" in the user's language."""
    if seconds < 60:
        return QCoreApplication.translate("BigJobs", "under a minute")
    if seconds < 90:
        return QCoreApplication.translate("BigJobs", "about a minute")
    if seconds < 90 * 60:  # two minutes or more: no plural forms needed
        minutes = str(round(seconds / 60))
        return QCoreApplication.translate("BigJobs", "about %1 minutes").replace("%1", minutes)
    hours = seconds / 3600
    if hours < 48:
        return QCoreApplication.translate("BigJobs", "about %1 hours").replace(
            "%1", f"{hours:.1f}")
    return QCoreApplication.translate("BigJobs", "about %1 days").replace(
        "%1", f"{hours / 24:.1f}")


def estimate_text(estimate: JobEstimate) -> str:
    if estimate.measured:
        how = QCoreApplication.translate("BigJobs", "at the rate measured on this computer")
    else:
        how = QCoreApplication.translate(
            "BigJobs", "a first guess: the rate is measured as documents are added")
    text = QCoreApplication.translate(
        "BigJobs", "Reindexing re-embeds all %1 documents (%2 passages): %3 (%4).")
    return (text.replace("%1", f"{estimate.documents:,}")
            .replace("%2", f"{estimate.passages:,}")
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
    text = estimate_text(estimate) + "\n\n" + QCoreApplication.translate(
        "BigJobs",
        "It runs in the background with its progress in the Library panel; search keeps "
        "working meanwhile. You can cancel it: the current index stays as it is.")
    title = QCoreApplication.translate("BigJobs", "Reindex the library?")
    return ask_yes_no(parent, title, text)
