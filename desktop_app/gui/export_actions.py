"""Taking answers out of the window: "Copy with citations" (the clipboard gets rich text
and Markdown) and "Export…" (Markdown, Word or PDF), for one answer or the whole chat.

The export is built from the stored chat in a worker (`ChatServices.export_document`,
desktop_app/export): the answers' own words and the documents' own quotes, numbered
references, nothing through a model. The words around them (headings, "p.", warnings, a
"not found" answer) are in the UI language, as the window shows them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QDateTime, QLocale, QMimeData, QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from desktop_app.answer.events import AnswerWarning
from desktop_app.export import ExportDocument, ExportLabels, to_html, to_markdown
from desktop_app.gui.dialogs import show_error
from desktop_app.gui.services import ChatServices
from desktop_app.gui.workers import WorkerSet

FILTERS = {"md": "Markdown (*.md)", "docx": "Word (*.docx)", "pdf": "PDF (*.pdf)"}


class ExportActions(QObject):
    """Copy and export, with their messages for the status bar (`done`)."""

    done = Signal(object)  # what happened, a `Text` for the status bar
    exported = Signal(str)  # the file written

    def __init__(self, services: ChatServices, workers: WorkerSet, window: QWidget,
                 warning_text: Callable[[AnswerWarning], str]) -> None:
        super().__init__(window)
        self.services = services
        self.workers = workers
        self.window = window
        self.warning_text = warning_text  # the chat's words for a warning
        self.folder = Path.home()

    def labels(self) -> ExportLabels:
        return ExportLabels(
            question=self.tr("Question"), answer=self.tr("Answer"),
            references=self.tr("References"), page=self.tr("p."), pages=self.tr("pp."),
            file=self.tr("File"), library=self.tr("Team library"),
            searched_for=self.tr("Searched for: %1"),
            closest=self.tr("Closest passages (not an answer)"), revoked=self.tr("revoked"),
            exported=self.tr("Exported from Acervo on %1. The quotes are the documents' own words."),
            no_answer=self.tr("(no answer)"), warning=self.warning_text)

    def _build(self, conversation_id: str, answers: list[str] | None,
               then: Callable[[ExportDocument], None]) -> None:
        labels = self.labels()
        when = QLocale().toString(QDateTime.currentDateTime(), QLocale.FormatType.ShortFormat)
        self.workers.call(lambda: self.services.export_document(
                              conversation_id, labels, answers=answers, exported_at=when),
                          name="export", on_result=then,
                          on_failed=lambda e: show_error(self.window, e))

    # ---- copy ---------------------------------------------------------------------
    def copy(self, conversation_id: str, answers: list[str] | None = None) -> None:
        """The answer(s) on the clipboard: rich text for a word processor or mail, and
        Markdown as the plain text."""
        self._build(conversation_id, answers, self._copied)

    def _copied(self, document: ExportDocument) -> None:
        mime = QMimeData()
        markdown = to_markdown(document)
        mime.setHtml(to_html(document, standalone=False))
        mime.setText(markdown)
        mime.setData("text/markdown", markdown.encode("utf-8"))
        QGuiApplication.clipboard().setMimeData(mime)
        count = len(document.references)
        self.done.emit(lambda: self.tr("Copied with %n reference(s).", "", count))

    # ---- export -------------------------------------------------------------------
    def export(self, conversation_id: str, answers: list[str] | None = None,
               path: Path | None = None, title: str = "") -> None:
        """Write the answer(s) to a file: `path`, else the one the user picks."""
        if path is None:
            path = self.ask_path(title)
            if path is None:
                return
        target = path
        self.folder = target.parent

        def write(document: ExportDocument) -> None:
            self.workers.call(lambda: self.services.export(document, target),
                              name="export-write", on_result=self._written,
                              on_failed=lambda e: show_error(self.window, e))

        self._build(conversation_id, answers, write)

    def ask_path(self, title: str = "") -> Path | None:
        chosen, selected = QFileDialog.getSaveFileName(
            self.window, self.tr("Export with citations"),
            str(self.folder / f"{safe_name(title)}.md"), ";;".join(FILTERS.values()))
        if not chosen:
            return None
        path = Path(chosen)
        if path.suffix.lower() not in (".md", ".docx", ".pdf"):
            suffix = next((k for k, v in FILTERS.items() if v == selected), "md")
            path = path.with_name(path.name + "." + suffix)
        return path

    def _written(self, path: Path) -> None:
        self.done.emit(lambda: self.tr("Exported to %1").replace("%1", str(path)))
        self.exported.emit(str(path))


def safe_name(title: str) -> str:
    """A file name from a chat's title."""
    return re.sub(r"[^\w\- ]+", "", title).strip()[:60] or "acervo"
