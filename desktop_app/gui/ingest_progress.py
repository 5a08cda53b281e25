"""Per-file ingestion progress: one row per file, an overall bar, and Cancel.

Turns the pipeline's events (and reindex progress) into row texts: queued → reading
→ parsed n of N pages → embedding n/N → indexed / skipped / failed + reason. The
overall bar counts finished files plus the embedding fraction of the current one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ingest.events import (
    ChunksEmbedded,
    FileDone,
    FileFailed,
    FileRemoved,
    FileSkipped,
    FileStarted,
    PagesParsed,
    RunDone,
)
from desktop_app.ingest.pathnames import display_path


class IngestProgress(QFrame):
    """The progress box under the library table."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.files = QTreeWidget()
        self.files.setColumnCount(2)
        self.files.setRootIsDecorated(False)
        self.files.setHeaderHidden(True)
        self.files.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.files.header().resizeSection(0, 150)
        self.files.header().setStretchLastSection(True)  # the status; full text in its tooltip
        self.files.setMaximumHeight(160)
        row = QHBoxLayout()
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(row)
        layout.addWidget(self.files)
        self._rows: dict[str, QTreeWidgetItem] = {}
        self._files_total = 0
        self._files_finished = 0
        self._current = ""  # path of the file in progress
        self.hide()
        self.retranslate()

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))

    # ---- runs ---------------------------------------------------------------------
    def begin(self, paths: list[Path], title: str) -> None:
        self.files.clear()
        self._rows.clear()
        self._files_total = 0
        self._files_finished = 0
        for path in paths:
            self.queue(path)
        self.bar.setValue(0)
        self.title.setText(title)
        self.cancel_button.setEnabled(True)
        self.show()

    def queue(self, path: Path) -> None:
        self.set_row(str(path), self.tr("queued (folder)") if path.is_dir() else self.tr("queued"))

    def cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self.title.setText(self.tr("Cancelling…"))

    def end(self, cancelled: bool) -> None:
        self.cancel_button.setEnabled(False)
        if cancelled and not self.title.text().startswith(self.tr("Cancelled: ")):
            self.title.setText(self.tr("Cancelled."))

    def on_event(self, event: Any) -> str:
        """Show one pipeline (or reindex) event; returns the summary line for `RunDone`."""
        if isinstance(event, FileStarted):
            self._current = event.path
            self._files_total = max(self._files_total, event.total, len(self._rows))
            self.set_row(event.path, self.tr("reading…"))
            self._set_fraction(0.0)
        elif isinstance(event, PagesParsed):
            self.set_row(event.path, self.tr("parsed %1 of %2 pages").replace(
                "%1", str(event.pages_done)).replace("%2", str(event.pages_total)))
            # reading pages is the first half of a file's bar (OCR makes it the long half)
            self._set_fraction(0.5 * event.pages_done / max(1, event.pages_total))
        elif isinstance(event, ChunksEmbedded):
            self.set_row(event.path, self.tr("embedding %1/%2").replace(
                "%1", str(event.chunks_done)).replace("%2", str(event.chunks_total)))
            self._set_fraction(0.5 + 0.5 * event.chunks_done / max(1, event.chunks_total))
        elif isinstance(event, FileDone):
            note = f" · {'; '.join(event.notes)}" if event.notes else ""
            self.set_row(event.path, self.tr("indexed · %n page(s)", "", event.pages) + ", "
                         + self.tr("%n passage(s)", "", event.chunks) + note, "ok")
            self._file_finished()
        elif isinstance(event, FileSkipped):
            self.set_row(event.path, self.tr("skipped: unchanged") if event.reason == "unchanged"
                         else self.tr("skipped: %1").replace("%1", event.reason))
            self._file_finished()
        elif isinstance(event, FileFailed):
            self.set_row(event.path, self.tr("failed: %1").replace("%1", event.reason), "error")
            self._file_finished()
        elif isinstance(event, FileRemoved):
            self.set_row(event.path, self.tr("removed (file no longer exists)"))
        elif isinstance(event, RunDone):
            return self._run_done(event)
        elif hasattr(event, "documents_done"):  # ReindexProgress
            self.bar.setValue(int(1000 * event.documents_done / max(1, event.documents_total)))
            self.title.setText(self.tr("Reindexing %1 of %2 documents…").replace(
                "%1", str(event.documents_done)).replace("%2", str(event.documents_total)))
        return ""

    def _run_done(self, event: RunDone) -> str:
        queued = (self.tr("queued (folder)"), self.tr("queued"))
        for path, item in self._rows.items():  # folder placeholders are done too
            if item.text(1) in queued and Path(path).is_dir():
                item.setText(1, self.tr("scanned"))
        text = self.tr("%1 indexed, %2 unchanged, %3 failed, %4 removed").replace(
            "%1", str(event.indexed)).replace("%2", str(event.skipped)).replace(
            "%3", str(event.failed)).replace("%4", str(event.removed))
        if event.cancelled:
            text = self.tr("Cancelled: ") + text
            if self._current:  # the file being read when Cancel was pressed
                self.set_row(self._current, self.tr("cancelled; nothing from this file was indexed"))
                self._current = ""
        elif not event.stopped:
            self.bar.setValue(1000)
        if event.stopped:  # a full disk, a read-only folder: the reason, after the counts
            text += " — " + event.stopped
        self.title.setText(text)
        return text

    # ---- rows ---------------------------------------------------------------------
    @staticmethod
    def _key(path: str) -> str:
        """Rows are keyed by the resolved path: the pipeline reports resolved paths."""
        try:
            return str(Path(path).resolve())
        except OSError:
            return path

    def set_row(self, path: str, status: str, kind: str = "") -> None:
        path = self._key(path)
        item = self._rows.get(path)
        if item is None:
            item = QTreeWidgetItem([display_path(Path(path).name or path), status])
            item.setToolTip(0, display_path(path))
            self.files.addTopLevelItem(item)
            self._rows[path] = item
            self.files.scrollToItem(item)
        item.setText(1, status)
        item.setToolTip(1, status)
        if kind == "error":
            item.setForeground(1, QColor("#d32f2f"))
        elif kind == "ok":
            item.setForeground(1, QColor("#2e7d32"))

    def row_status(self, path: str) -> str:
        item = self._rows.get(self._key(path))
        return item.text(1) if item is not None else ""

    def _file_finished(self) -> None:
        self._current = ""
        self._files_finished += 1
        self._set_fraction(0.0)

    def _set_fraction(self, fraction_of_current: float) -> None:
        total = max(self._files_total, self._files_finished + 1, 1)
        value = (self._files_finished + fraction_of_current) / total
        self.bar.setValue(int(1000 * min(1.0, value)))

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == event.Type.LanguageChange:
            self.retranslate()
