"""Per-file ingestion progress: one row per file, an overall bar, and Cancel.

Turns the pipeline's events (and reindex progress) into row texts: queued → reading
→ parsed n of N pages → embedding n/N → indexed / skipped / failed + reason. The
overall bar counts finished files plus the current file's share: parsing its pages
is the first `PARSE_SHARE` of it (a 472-page PDF parses for minutes before the first
passage is embedded, and the bar must move then too), embedding the rest.
Texts are kept as `Text`s (small functions that call `tr()`, gui/panel.py), so a language
switch re-labels the title and every row, not only the ones the next event touches.
`activity(str)` carries the title for the window's status bar; a run's summary is handed
on as a `Text` too, for the same reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

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

from desktop_app.gui.panel import PanelMixin, Text
from desktop_app.ingest.events import (
    ChunksEmbedded,
    FileDone,
    FileFailed,
    FileRemoved,
    FileSkipped,
    FileStarted,
    IngestEvent,
    PagesParsed,
    RunDone,
)
from desktop_app.ingest.pathnames import display_path

if TYPE_CHECKING:
    from desktop_app.retrieval.reindex import ReindexProgress  # (imports LanceDB)

PARSE_SHARE = 0.3  # of one file's bar: reading its pages; the rest is embedding passages


class IngestProgress(PanelMixin, QFrame):
    """The progress box under the library table."""

    cancelRequested = Signal()
    activity = Signal(str)  # the title, whenever it changes (status bar)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)  # the run summary is long in Portuguese
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.files = QTreeWidget()
        self.files.setColumnCount(2)
        self.files.setRootIsDecorated(False)
        self.files.setHeaderHidden(True)
        self.files.setWordWrap(True)  # a narrow pane wraps the status instead of cutting it
        self.files.setUniformRowHeights(False)
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
        self._row_texts: dict[str, Text] = {}
        self._title: Text = str
        self._files_total = 0
        self._files_finished = 0
        self._current = ""  # path of the file in progress
        self._parsed = 0.0  # fraction of the current file's pages read
        self._cancelled = False
        self._completed = False  # the run reported its own end (a reindex's "done")
        self.hide()
        self.retranslate()

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
        self._set_title(self._title)
        for path, text in self._row_texts.items():
            self._show_status(path, self._rows[path], text())

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        # the file name gets ~40 % of a narrow pane, the status the rest (wrapped)
        self.files.header().resizeSection(0, max(90, min(200, int(self.files.width() * 0.4))))

    # ---- runs ---------------------------------------------------------------------
    def begin(self, paths: list[Path], title: Text) -> None:
        self.files.clear()
        self._rows.clear()
        self._row_texts.clear()
        self._files_total = 0
        self._files_finished = 0
        self._current = ""
        self._parsed = 0.0
        self._cancelled = False
        self._completed = False
        self.files.setVisible(False)  # shown with its first row (a reindex has none)
        for path in paths:
            self.queue(path)
        self.bar.setValue(0)
        self._set_title(title)
        self.cancel_button.setEnabled(True)
        self.show()

    def queue(self, path: Path) -> None:
        if path.is_dir():
            self.set_row(str(path), lambda: self.tr("queued (folder)"))
        else:
            self.set_row(str(path), lambda: self.tr("queued"))

    def cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self._set_title(lambda: self.tr("Cancelling…"))

    def end(self, cancelled: bool) -> None:
        self.cancel_button.setEnabled(False)
        if cancelled and not self._cancelled and not self._completed:
            self._set_title(lambda: self.tr("Cancelled."))

    def failed(self, message: str) -> None:
        """The run stopped on an error (shown in a dialog too): the box must not keep
        saying that work is in progress."""
        self.cancel_button.setEnabled(False)
        self._cancelled = True  # the end of the run is not a cancellation to report
        self._set_title(lambda: self.tr("Stopped: %1").replace("%1", message))

    def _set_title(self, title: Text) -> None:
        self._title = title
        self.title.setText(title())
        self.activity.emit(title())

    def title_text(self) -> str:
        return self._title()

    def on_event(self, event: IngestEvent | ReindexProgress) -> Text | None:
        """Show one pipeline (or reindex) event; returns the summary line for `RunDone`."""
        if isinstance(event, FileStarted):
            self._current = event.path
            self._files_total = max(self._files_total, event.total, len(self._rows))
            self._parsed = 0.0
            self.set_row(event.path, lambda: self.tr("reading…"))
            self._set_fraction(0.0)
        elif isinstance(event, PagesParsed):
            done, total = str(event.pages_done), str(event.pages_total)
            self.set_row(event.path, lambda: self.tr("parsed %1 of %2 pages").replace(
                "%1", done).replace("%2", total))
            self._parsed = event.pages_done / max(1, event.pages_total)
            self._set_fraction(PARSE_SHARE * self._parsed)
        elif isinstance(event, ChunksEmbedded):
            done, total = str(event.chunks_done), str(event.chunks_total)
            self.set_row(event.path, lambda: self.tr("embedding %1/%2").replace(
                "%1", done).replace("%2", total))
            embedded = event.chunks_done / max(1, event.chunks_total)
            self._set_fraction(PARSE_SHARE + (1 - PARSE_SHARE) * embedded)
        elif isinstance(event, FileDone):
            note = f" · {'; '.join(event.notes)}" if event.notes else ""
            pages, chunks = event.pages, event.chunks
            self.set_row(event.path, lambda: self.tr("indexed · %n page(s)", "", pages) + ", "
                         + self.tr("%n passage(s)", "", chunks) + note, "ok")
            self._file_finished()
        elif isinstance(event, FileSkipped):
            reason = event.reason
            self.set_row(event.path, lambda: self.tr("skipped: unchanged")
                         if reason == "unchanged"
                         else self.tr("skipped: %1").replace("%1", reason))
            self._file_finished()
        elif isinstance(event, FileFailed):
            failure = event.reason
            self.set_row(event.path, lambda: self.tr("failed: %1").replace("%1", failure),
                         "error")
            self._file_finished()
        elif isinstance(event, FileRemoved):
            self.set_row(event.path, lambda: self.tr("removed (file no longer exists)"))
        elif isinstance(event, RunDone):
            return self._run_done(event)
        elif hasattr(event, "documents_done"):  # ReindexProgress
            self._reindex_progress(event)
        return None

    def _reindex_progress(self, event: ReindexProgress) -> None:
        count = event.documents_total
        self.bar.setValue(int(1000 * event.documents_done / max(1, count)))
        done, total = str(event.documents_done), str(count)
        if event.stage == "switching":  # purge + pointer switch: past the point of cancelling
            self.cancel_button.setEnabled(False)
            self._set_title(lambda: self.tr("Switching to the new index…"))
        elif event.stage == "done":
            self._completed = True
            self.bar.setValue(1000)
            self._set_title(lambda: self.tr("Reindexed %n document(s); search uses the new "
                                            "index.", "", count))
        else:
            self._set_title(lambda: self.tr("Reindexing %1 of %2 documents…").replace(
                "%1", done).replace("%2", total))

    def _run_done(self, event: RunDone) -> Text:
        for path in list(self._rows):  # folder placeholders are done too
            if Path(path).is_dir() and self.row_status(path) in (self.tr("queued (folder)"),
                                                                 self.tr("queued")):
                self.set_row(path, lambda: self.tr("scanned"))
        counts = [str(n) for n in (event.indexed, event.skipped, event.failed, event.removed)]
        cancelled, stopped = event.cancelled, event.stopped
        self._cancelled = cancelled
        if cancelled and self._current:  # the file being read when Cancel was pressed
            self.set_row(self._current,
                         lambda: self.tr("cancelled; nothing from this file was indexed"))
            self._current = ""

        def summary() -> str:
            text = self.tr("%1 indexed, %2 unchanged, %3 failed, %4 removed")
            for number, count in enumerate(counts, start=1):
                text = text.replace(f"%{number}", count)
            text = self.tr("Cancelled: ") + text if cancelled else text
            # a full disk, a read-only folder: the reason, after the counts
            return f"{text} — {stopped}" if stopped else text

        if not cancelled and not stopped:
            self.bar.setValue(1000)
        self._set_title(summary)
        return summary

    # ---- rows ---------------------------------------------------------------------
    @staticmethod
    def _key(path: str) -> str:
        """Rows are keyed by the resolved path: the pipeline reports resolved paths."""
        try:
            return str(Path(path).resolve())
        except OSError:
            return path

    def set_row(self, path: str, status: Text, kind: str = "") -> None:
        path = self._key(path)
        item = self._rows.get(path)
        if item is None:
            item = QTreeWidgetItem([display_path(Path(path).name or path), ""])
            self.files.addTopLevelItem(item)
            self.files.setVisible(True)
            self._rows[path] = item
            self.files.scrollToItem(item)
        self._row_texts[path] = status
        self._show_status(path, item, status())
        if kind == "error":
            item.setForeground(1, QColor("#d32f2f"))
        elif kind == "ok":
            item.setForeground(1, QColor("#2e7d32"))

    @staticmethod
    def _show_status(path: str, item: QTreeWidgetItem, status: str) -> None:
        """The status in its column; the whole row (file and status, never cut) on hover
        over either column."""
        item.setText(1, status)
        whole = f"{display_path(path)}\n{status}"
        item.setToolTip(0, whole)
        item.setToolTip(1, whole)

    def row_status(self, path: str) -> str:
        item = self._rows.get(self._key(path))
        return item.text(1) if item is not None else ""

    def _file_finished(self) -> None:
        self._current = ""
        self._files_finished += 1
        self._parsed = 0.0
        self._set_fraction(0.0)

    def _set_fraction(self, fraction_of_current: float) -> None:
        total = max(self._files_total, self._files_finished + 1, 1)
        value = (self._files_finished + fraction_of_current) / total
        self.bar.setValue(max(self.bar.value(), int(1000 * min(1.0, value))))
