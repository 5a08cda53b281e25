"""The library table's model: the documents as rows, filtered and sorted by a proxy.

`DocumentTableModel` holds the `DocumentRecord`s and shows them as Qt's own items (set in
one reset, painted without calling Python), with the whole row in its tooltip — the title the column cuts, the file, pages, passages, when it
was added and any notes — and the same words for the details pane (`details`).
`DocumentFilter` keeps the documents of a type, added since a date, or whose title or
folder has the words typed; `SortProxy` sorts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QWidget

from desktop_app.ingest.pathnames import display_path
from desktop_app.retrieval.index_api import DocumentRecord

DOC_ID_ROLE = Qt.ItemDataRole.UserRole + 1
DATE_ROLE = Qt.ItemDataRole.UserRole + 2
TYPE_ROLE = Qt.ItemDataRole.UserRole + 3
PATH_ROLE = Qt.ItemDataRole.UserRole + 4
TITLE, TYPE, PAGES, CHUNKS, FOLDER, ADDED = range(6)


def title_of(record: DocumentRecord) -> str:
    return record.title or Path(display_path(record.source_path)).name


class DocumentTableModel(QStandardItemModel):
    """Rows are the library's documents (read-only). The cells are Qt's own items, filled
    once per listing: painting, sorting and sizing the table then call no Python — at
    start-up a worker holds the interpreter much of the time (imports), and a model that
    answered every `data()` call in Python made each repaint of a thousand rows wait for it
    (seconds of frozen typing)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 6, parent)
        self.records: list[DocumentRecord] = []
        self.language_changed()

    def details(self, record: DocumentRecord) -> str:
        """Everything about one document, a fact a line (tooltip and details pane)."""
        lines = [title_of(record), display_path(record.source_path),
                 record.file_type.upper() + " · " + self.tr("%n page(s)", "", record.page_count)
                 + " · " + self.tr("%n passage(s)", "", record.chunk_count),
                 self.tr("Added %1").replace("%1", record.ingested_at[:16].replace("T", " "))]
        lines += list(record.notes)
        return "\n".join(lines)

    def set_records(self, records: list[DocumentRecord],
                    rows: list[list[QStandardItem]] | None = None) -> None:
        """Show `records` (one reset: the view and its proxy re-read the table once).
        `rows`: their cells made beforehand by `rows_for` (in a worker, at start-up)."""
        if records == self.records:
            return  # the same listing (stored at the last start, now read from the index)
        rows = rows if rows is not None and len(rows) == len(records) else self.rows_for(
            records)
        self.beginResetModel()
        self.blockSignals(True)  # no per-row signals: the reset below says it all
        try:
            self.setRowCount(0)
            for row in rows:
                self.appendRow(row)
        finally:
            self.blockSignals(False)
        self.records = list(records)
        self.endResetModel()

    def rows_for(self, records: list[DocumentRecord]) -> list[list[QStandardItem]]:
        """The cells of `records`. Items are plain data (no QObject), so a worker may make
        them: a thousand rows then cost the window's thread only their insertion."""
        return [self._row(record) for record in records]

    def _row(self, record: DocumentRecord) -> list[QStandardItem]:
        tip = self.details(record)
        values: tuple[object, ...] = (
            title_of(record), record.file_type.upper(), record.page_count, record.chunk_count,
            display_path(str(Path(record.source_path).parent)), record.ingested_at[:10])
        row = []
        for value in values:
            item = QStandardItem()
            item.setData(value, Qt.ItemDataRole.DisplayRole)
            item.setToolTip(tip)
            item.setEditable(False)
            row.append(item)
        first = row[0]
        first.setData(record.doc_id, DOC_ID_ROLE)
        first.setData(record.ingested_at, DATE_ROLE)
        first.setData(record.file_type, TYPE_ROLE)
        first.setData(record.source_path, PATH_ROLE)
        return row

    def language_changed(self) -> None:
        """Headers and tooltips in the new language."""
        self.setHorizontalHeaderLabels([
            self.tr("Title"), self.tr("Type"), self.tr("Pages"), self.tr("Passages"),
            self.tr("Folder"), self.tr("Added")])
        for row, record in enumerate(self.records):
            tip = self.details(record)
            for column in range(self.columnCount()):
                item = self.item(row, column)
                if item is not None:
                    item.setToolTip(tip)


@dataclass(frozen=True)
class DocumentFilter:
    """What the filter row asks for: a type, added since, words of the title or folder.
    Applied in Python to the listing (the model then holds the matching documents): a
    proxy's per-row Python test would be called back from Qt for every row."""

    file_type: str = ""
    days: int = 0  # 0: any time
    text: str = ""

    def __bool__(self) -> bool:
        return bool(self.file_type or self.days or self.text.strip())

    def apply(self, records: list[DocumentRecord]) -> list[DocumentRecord]:
        if not self:
            return records
        since = ("" if self.days <= 0 else (datetime.now(UTC) - timedelta(days=self.days))
                 .strftime("%Y-%m-%dT%H:%M:%SZ"))
        needle = self.text.strip().lower()
        return [r for r in records
                if (not self.file_type or r.file_type == self.file_type)
                and (not since or r.ingested_at >= since)
                and (not needle or needle in title_of(r).lower()
                     or needle in display_path(str(Path(r.source_path).parent)).lower())]


class SortProxy(QSortFilterProxyModel):
    """Sorting only (in Qt, case-insensitive); the filtering is `DocumentFilter`'s."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
