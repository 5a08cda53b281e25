"""The library: indexed documents, ingestion with per-file progress, reindex banner.

Ingestion runs in a worker through the real pipeline; each pipeline event updates
one row (queued → parsing → embedding n/N → indexed / skipped / failed + reason) and
the overall bar. New drops while a run is going are queued and start when it ends.
Rows and the bar live in `ingest_progress.IngestProgress`. The document list is read
in a worker too (opening the index loads the embedder).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtGui import QStandardItem
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from desktop_app.errors import AppError
from desktop_app.gui.big_jobs import confirm_reindex
from desktop_app.gui.dialogs import confirm_with_option, open_with_system
from desktop_app.gui.ingest_progress import IngestProgress
from desktop_app.gui.library_model import (
    DOC_ID_ROLE,
    DocumentFilter,
    DocumentTableModel,
    SortProxy,
)
from desktop_app.gui.panel import PanelMixin
from desktop_app.gui.services import (
    IndexSummary,
    LibraryListing,
    LibraryServices,
    RemovalSummary,
)
from desktop_app.gui.workers import GeneratorWorker, WorkerSet
from desktop_app.ingest.events import IngestEvent, RunDone
from desktop_app.locking import BUSY_MESSAGE, MEMORY_BUSY_MESSAGE, add_wait_notice

if TYPE_CHECKING:
    from desktop_app.retrieval.reindex import ReindexProgress  # (imports LanceDB)

FILE_TYPES = ("pdf", "docx", "md", "txt", "html", "image")
DATE_RANGES = (0, 7, 30, 365)  # days; 0 = any time
NARROW_TABLE = 400  # px: below this the Pages and Added columns are hidden


class LibraryPanel(PanelMixin, QWidget):
    """Documents in the index plus the ingestion progress of the current run."""

    indexChanged = Signal(IndexSummary)
    documentsShown = Signal(int)  # the table was filled (how many documents)
    guideRequested = Signal()  # "How Acervo works" in the empty-library banner
    # RunDone, or None after a reindex: Signal(object), as a class type cannot carry None
    runFinished = Signal(object)
    runningChanged = Signal(bool)  # an ingestion or reindex started (True) / ended
    statusMessage = Signal(object)  # a `Text` (gui/panel.py): re-worded on a language switch
    libraryBusy = Signal(str)  # emitted from worker threads while another process writes

    def __init__(self, services: LibraryServices, workers: WorkerSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services: LibraryServices = services
        self.workers = workers
        self._pending: list[Path] = []
        self._run: GeneratorWorker | None = None
        self._summary: IndexSummary | None = None
        self._samples_dismissed = False
        self._build()
        self.retranslate()
        self.libraryBusy.connect(self._library_busy)
        drop_notice = add_wait_notice(self.libraryBusy.emit)
        self.destroyed.connect(lambda *_args: drop_notice())

    # ---- construction -------------------------------------------------------------
    def _build(self) -> None:
        self.banner = QFrame()
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setObjectName("reindexBanner")
        self.banner.setStyleSheet("#reindexBanner { background: rgba(255, 193, 7, 0.18); }")
        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        self.reindex_button = QPushButton()
        self.reindex_button.clicked.connect(self.start_reindex)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.addWidget(self.banner_label, 1)
        banner_layout.addWidget(self.reindex_button)
        self.banner.hide()

        self.samples_banner = QFrame()
        self.samples_banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.samples_label = QLabel()
        self.samples_label.setWordWrap(True)
        self.samples_button = QPushButton()
        self.samples_button.clicked.connect(self.load_samples)
        self.samples_close = QPushButton("×")
        self.samples_close.setFlat(True)
        self.samples_close.setFixedWidth(28)
        self.samples_close.clicked.connect(self._dismiss_samples)
        self.guide_link = QLabel()  # the short guide (Help → How Acervo works)
        self.guide_link.setTextFormat(Qt.TextFormat.RichText)
        self.guide_link.linkActivated.connect(lambda _link: self.guideRequested.emit())
        words = QVBoxLayout()
        words.addWidget(self.samples_label)
        words.addWidget(self.guide_link)
        samples_layout = QHBoxLayout(self.samples_banner)
        samples_layout.addLayout(words, 1)
        samples_layout.addWidget(self.samples_button)
        samples_layout.addWidget(self.samples_close)
        self.samples_banner.hide()

        self.library_combo = QComboBox()  # this computer's library or a team library
        self.library_combo.currentIndexChanged.connect(self._library_chosen)
        self.add_files_button = QPushButton()
        self.add_folder_button = QPushButton()
        buttons = QHBoxLayout()
        buttons.addWidget(self.library_combo)
        buttons.addWidget(self.add_files_button)
        buttons.addWidget(self.add_folder_button)
        buttons.addStretch(1)

        self.filter_edit = QLineEdit()
        self.filter_edit.setClearButtonEnabled(True)
        self.type_combo = QComboBox()
        self.date_combo = QComboBox()
        for combo in (self.type_combo, self.date_combo):  # grow with the translated labels
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.filters = QGridLayout()  # one row, or two on a narrow pane (see resizeEvent)
        self._filters_on_two_rows: bool | None = None
        self._arrange_filters(two_rows=False)

        self.model = DocumentTableModel(self)
        self.proxy = SortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTreeView()
        self.table.setModel(self.proxy)
        self.table.setRootIsDecorated(False)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.doubleClicked.connect(lambda _index: self.open_selected())
        self.table.setUniformRowHeights(True)  # (a thousand rows: no per-row measuring)
        header = self.table.header()
        header.setResizeContentsPrecision(100)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # chunks and folder are in the row tooltip (and the folder in the filter)
        self.table.setColumnHidden(3, True)
        self.table.setColumnHidden(4, True)
        self._listing: LibraryListing | None = None  # every document (before the filters)
        self._filter_timer = QTimer(self)  # typing in the filter box: once it pauses
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(150)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.filter_edit.textChanged.connect(lambda _t: self._filter_timer.start())
        self.type_combo.currentIndexChanged.connect(lambda _i: self._apply_filter())
        self.date_combo.currentIndexChanged.connect(lambda _i: self._apply_filter())

        # the selected document in full: the title the column cuts, its file, pages…
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setObjectName("documentDetails")
        self.details.hide()
        self.table.selectionModel().selectionChanged.connect(lambda *_a: self._show_details())

        self.progress_box = IngestProgress()
        self.progress_box.cancelRequested.connect(self.cancel)
        self.progress = self.progress_box.bar

        layout = self.main_layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addWidget(self.samples_banner)
        layout.addLayout(buttons)
        layout.addLayout(self.filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.progress_box)

    # ---- narrow panes: filters on two rows, fewer columns ----------------------------
    def _arrange_filters(self, *, two_rows: bool) -> None:
        if two_rows == self._filters_on_two_rows:
            return
        self._filters_on_two_rows = two_rows
        for widget in (self.filter_edit, self.type_combo, self.date_combo):
            self.filters.removeWidget(widget)
        if two_rows:
            self.filters.addWidget(self.filter_edit, 0, 0, 1, 3)
            self.filters.addWidget(self.type_combo, 1, 0)
            self.filters.addWidget(self.date_combo, 1, 1)
            self.filters.setColumnStretch(0, 0)
            self.filters.setColumnStretch(2, 1)
        else:
            self.filters.addWidget(self.filter_edit, 0, 0)
            self.filters.addWidget(self.type_combo, 0, 1)
            self.filters.addWidget(self.date_combo, 0, 2)
            self.filters.setColumnStretch(0, 1)
            self.filters.setColumnStretch(2, 0)

    def _adapt_to_width(self) -> None:
        """The filter box keeps room for its hint (else the combos go below it), and the
        Pages/Added columns give way to the title on a narrow pane (they are in the row's
        tooltip)."""
        hint = self.filter_edit.fontMetrics().horizontalAdvance(
            self.filter_edit.placeholderText()) + 40
        combos = self.type_combo.sizeHint().width() + self.date_combo.sizeHint().width()
        spacing = 2 * max(0, self.filters.horizontalSpacing())
        margins = self.main_layout.contentsMargins()
        room = self.width() - margins.left() - margins.right()
        self._arrange_filters(two_rows=hint + combos + spacing > room)
        narrow = room < NARROW_TABLE
        self.table.setColumnHidden(2, narrow)
        self.table.setColumnHidden(5, narrow)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._adapt_to_width()
    def libraries_changed(self) -> None:
        """Offer the libraries of the settings (the combo hides when there is only one)."""
        names = self.services.library_names()
        self.library_combo.blockSignals(True)
        self.library_combo.clear()
        for name in names:
            label = self.tr("This computer") if name == "local" else self.tr("Team: %1").replace(
                "%1", name)
            self.library_combo.addItem(label, name)
        self.library_combo.setCurrentIndex(max(0, self.library_combo.findData(
            self.services.current_library)))
        self.library_combo.blockSignals(False)
        self.library_combo.setVisible(len(names) > 1)
        self._library_chosen(self.library_combo.currentIndex())

    def _library_chosen(self, index: int) -> None:
        name = self.library_combo.itemData(index) or "local"
        if name != self.services.current_library:
            self.services.set_library(str(name))
            self.refresh()
        read_only = self.services.library_read_only()
        for button in (self.add_files_button, self.add_folder_button):
            button.setEnabled(not read_only)
            button.setToolTip(self.tr("This team library is read-only in your settings.")
                              if read_only else "")

    def retranslate(self) -> None:
        if self.library_combo.count() != len(self.services.library_names()) \
                or self.library_combo.count() == 0:
            self.libraries_changed()
        else:
            for i in range(self.library_combo.count()):
                name = self.library_combo.itemData(i)
                self.library_combo.setItemText(i, self.tr("This computer") if name == "local"
                                               else self.tr("Team: %1").replace("%1", name))
        self.add_files_button.setText(self.tr("Add files…"))
        self.add_folder_button.setText(self.tr("Add folder…"))
        self.filter_edit.setPlaceholderText(self.tr("Filter by title or folder"))
        self.reindex_button.setText(self.tr("Reindex"))
        self.samples_label.setText(self.tr("Your library is empty. Drop files or folders here, or start with the sample documents."))
        self.samples_button.setText(self.tr("Load samples"))
        self.model.language_changed()
        self.guide_link.setText('<a href="guide">' + self.tr("How Acervo works") + "</a>")
        self._show_details()
        type_index = max(0, self.type_combo.currentIndex())
        self.type_combo.blockSignals(True)
        self.type_combo.clear()
        self.type_combo.addItem(self.tr("All types"), "")
        for file_type in FILE_TYPES:
            self.type_combo.addItem(file_type.upper(), file_type)
        self.type_combo.setCurrentIndex(type_index)
        self.type_combo.blockSignals(False)
        date_index = max(0, self.date_combo.currentIndex())
        self.date_combo.blockSignals(True)
        self.date_combo.clear()
        labels = (self.tr("Any time"), self.tr("Last 7 days"), self.tr("Last 30 days"),
                  self.tr("Last year"))
        for label, days in zip(labels, DATE_RANGES, strict=True):
            self.date_combo.addItem(label, days)
        self.date_combo.setCurrentIndex(date_index)
        self.date_combo.blockSignals(False)
        if self._summary is not None:
            self._update_banners(self._summary)
        self._adapt_to_width()  # translated labels have other widths

    # ---- documents ----------------------------------------------------------------
    def refresh(self) -> None:
        self.workers.call(lambda: self.prepared(self.services.listing()), name="library-refresh",
                          on_result=self.show_prepared, on_failed=self._failed)

    def prepared(self, listing: LibraryListing) -> PreparedListing:
        """A listing with its table cells made (call it in a worker); none when the table
        already shows these documents or a filter is on (the filter picks the rows)."""
        rows = None
        if not self.filter() and listing.documents != self.model.records:
            rows = self.model.rows_for(listing.documents)
        return PreparedListing(listing, rows)

    def show_prepared(self, prepared: PreparedListing) -> None:
        self.show_listing(prepared.listing, prepared.rows)

    def show_listing(self, listing: LibraryListing,
                     rows: list[list[QStandardItem]] | None = None) -> None:
        """Show the documents (from the index, or the listing stored at the last refresh,
        which the window shows at start-up before the index is open)."""
        self._summary = listing.summary
        self._listing = listing
        self._apply_filter(rows)
        self._update_banners(listing.summary)
        self.indexChanged.emit(listing.summary)
        self.documentsShown.emit(len(listing.documents))

    def has_listing(self) -> bool:
        """Documents (or an empty library) are on screen."""
        return self._listing is not None

    def filter(self) -> DocumentFilter:
        return DocumentFilter(str(self.type_combo.currentData() or ""),
                              int(self.date_combo.currentData() or 0), self.filter_edit.text())

    def _apply_filter(self, rows: list[list[QStandardItem]] | None = None) -> None:
        if self._listing is None:
            return
        selected = {doc for doc, _path in self.selected_doc_ids()}
        wanted = self.filter()
        self.model.set_records(wanted.apply(self._listing.documents),
                               None if wanted else rows)
        if selected:
            for row in range(self.proxy.rowCount()):
                index = self.proxy.index(row, 0)
                if self.proxy.data(index, DOC_ID_ROLE) in selected:
                    self.table.selectionModel().select(
                        index, QItemSelectionModel.SelectionFlag.Select
                        | QItemSelectionModel.SelectionFlag.Rows)
        self._show_details()

    def _show_details(self) -> None:
        rows = self.table.selectionModel().selectedRows(0)
        if len(rows) != 1:
            self.details.hide()
            return
        record = self.model.records[self.proxy.mapToSource(rows[0]).row()]
        self.details.setText(self.model.details(record))
        self.details.show()

    def _update_banners(self, summary: IndexSummary) -> None:
        self.banner.setVisible(not summary.embedder_matches)
        self.banner_label.setText(self.tr("This library was indexed with another embedding model, so only keyword search works. Reindex to restore meaning-based search (the current index keeps working meanwhile)."))
        show_samples = (summary.documents == 0 and not self._samples_dismissed
                        and not self.is_running() and bool(self.services.sample_documents()))
        self.samples_banner.setVisible(show_samples)

    def document_ids(self) -> list[str]:
        return [record.doc_id for record in (self._listing.documents if self._listing else [])]

    def selected_doc_ids(self) -> list[tuple[str, str]]:
        """(doc_id, source_path) of the selected rows."""
        chosen = []
        for index in self.table.selectionModel().selectedRows(0):
            record = self.model.records[self.proxy.mapToSource(index).row()]
            chosen.append((record.doc_id, record.source_path))
        return chosen

    def remove_selected(self) -> None:
        chosen = self.selected_doc_ids()
        if not chosen:
            return
        names = "\n".join(Path(path).name for _doc, path in chosen[:8])
        confirmed, purge = confirm_with_option(
            self, self.tr("Remove documents"),
            self.tr("Remove these documents from the library? Their text and vectors are erased from the index; the files themselves stay on disk.") + "\n\n" + names,
            self.tr("Also erase chat answers that quote them"))
        if not confirmed:
            return

        def remove() -> RemovalSummary:
            return self.services.remove_documents([doc for doc, _path in chosen],
                                                  purge_chats=purge)

        self.workers.call(remove, name="remove-documents", on_failed=self._failed,
                          on_result=self._removed)

    def _removed(self, summary: RemovalSummary) -> None:
        def text() -> str:
            said = self.tr("Removed %n document(s).", "", summary.documents)
            if summary.answers_erased:
                said += " " + self.tr("Erased %n chat answer(s) that quoted them.", "",
                                      summary.answers_erased)
            if summary.answers_quoting:
                said += " " + self.tr("%n chat answer(s) still quote them; delete those chats "
                                      "to erase the text.", "", summary.answers_quoting)
            return said

        self.statusMessage.emit(text)
        self.refresh()

    def _library_busy(self, notice: str) -> None:
        """A notice of the core's (locking.notify): another process holds the library's or
        the memory's writer lock (say why nothing moves), or anything else it tells the
        user (damaged index files set aside: its own words)."""
        library = notice.startswith(BUSY_MESSAGE[:-1])
        memory = notice.startswith(MEMORY_BUSY_MESSAGE[:-1])

        def text() -> str:
            if library:
                return self.tr("Another Acervo process is updating the library; waiting…")
            if memory:
                return self.tr("Another Acervo process is updating the memory; waiting…")
            return notice  # (worded by the core, not by `tr`)

        self.statusMessage.emit(text)
        if library and self.is_running():
            self.progress_box.title.setText(text())

    def open_selected(self) -> None:
        for _doc, path in self.selected_doc_ids()[:1]:
            open_with_system(self, path)

    def reingest_selected(self) -> None:
        chosen = self.selected_doc_ids()
        if chosen and not self.is_running():
            doc_id = chosen[0][0]
            self._start_run(lambda cancel: self.services.reingest_document(doc_id, cancel),
                            [Path(chosen[0][1])])

    def _context_menu(self, pos: Any) -> None:
        if not self.selected_doc_ids():
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Open original"), self.open_selected)
        menu.addAction(self.tr("Re-index"), self.reingest_selected)
        menu.addSeparator()
        menu.addAction(self.tr("Remove from library…"), self.remove_selected)
        menu.exec(self.table.viewport().mapToGlobal(pos))

    # ---- ingestion ----------------------------------------------------------------
    def is_running(self) -> bool:
        return self._run is not None

    def add_paths(self, paths: list[Path]) -> None:
        """Ingest files and folders (queued behind a running ingestion)."""
        if not paths:
            return
        if self.services.library_read_only():
            self.statusMessage.emit(lambda: self.tr("This team library is read-only in your settings."))
            return
        if self.is_running():
            self._pending.extend(paths)
            for path in paths:
                self.progress_box.queue(path)
            return
        self._start_run(lambda cancel: self.services.ingest(paths, cancel), paths)

    def load_samples(self) -> None:
        self.samples_banner.hide()
        self.add_paths(self.services.sample_documents())

    def _dismiss_samples(self) -> None:
        self._samples_dismissed = True
        self.samples_banner.hide()

    def _start_run(self, factory: Any, paths: list[Path]) -> None:
        self.samples_banner.hide()
        self.progress_box.begin(paths, lambda: self.tr("Adding documents…"))
        self._run = self.workers.start(factory, name="ingest", on_item=self.on_ingest_event,
                                       on_failed=self._failed, on_finished=self._run_finished)
        self.runningChanged.emit(True)

    def run_job(self, factory: Any, paths: list[Path]) -> bool:
        """Run another ingestion job here (a watched folder's changes); False when busy."""
        if self.is_running():
            return False
        self._start_run(factory, paths)
        return True

    def start_reindex(self) -> None:
        if self.is_running() or not confirm_reindex(self, self.services):
            return
        self.progress_box.begin([], lambda: self.tr("Reindexing…"))
        self._run = self.workers.start(self.services.reindex, name="reindex",
                                       on_item=self.on_ingest_event, on_failed=self._failed,
                                       on_finished=self._run_finished)
        self.runningChanged.emit(True)

    def cancel(self) -> None:
        if self._run is not None:
            self._run.cancel()
            self._pending.clear()
            self.progress_box.cancelling()

    def on_ingest_event(self, event: IngestEvent | ReindexProgress) -> None:
        summary = self.progress_box.on_event(event)
        if isinstance(event, RunDone) and summary is not None:
            self.runFinished.emit(event)
            self.statusMessage.emit(summary)

    def _run_finished(self, cancelled: bool) -> None:
        self._run = None
        self.progress_box.end(cancelled)
        self.refresh()
        if self._pending:
            paths, self._pending = self._pending, []
            self.add_paths(paths)
        if self._run is None:
            self.runningChanged.emit(False)

    def row_status(self, path: str) -> str:
        return self.progress_box.row_status(path)

    def _failed(self, error: BaseException) -> None:
        self.progress_box.failed(error.user_message if isinstance(error, AppError)
                                 else self.tr("an unexpected error (details in the log)"))
        self.show_failure(error)


@dataclass(frozen=True)
class PreparedListing:
    """A listing and, when made in a worker, its table cells."""

    listing: LibraryListing
    rows: list[list[QStandardItem]] | None
