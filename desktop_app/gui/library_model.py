"""The library table's model: the documents as rows, filtered and sorted by a proxy.

`DocumentTableModel` is a `QAbstractTableModel` over the `DocumentRecord`s themselves (a
library of thousands of documents is set in one call, not built item by item), with the
whole row in its tooltip — the title the column cuts, the file, pages, passages, when it
was added and any notes — and the same words for the details pane (`details`).
`DocumentFilterProxy` filters by type, by when a document was added and by title/folder
text.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import QWidget

from desktop_app.ingest.pathnames import display_path
from desktop_app.retrieval.index_api import DocumentRecord

AnyIndex = QModelIndex | QPersistentModelIndex
DOC_ID_ROLE = Qt.ItemDataRole.UserRole + 1
DATE_ROLE = Qt.ItemDataRole.UserRole + 2
TYPE_ROLE = Qt.ItemDataRole.UserRole + 3
PATH_ROLE = Qt.ItemDataRole.UserRole + 4
TITLE, TYPE, PAGES, CHUNKS, FOLDER, ADDED = range(6)


def title_of(record: DocumentRecord) -> str:
    return record.title or Path(display_path(record.source_path)).name


class DocumentTableModel(QAbstractTableModel):
    """Rows are the library's documents (read-only)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.records: list[DocumentRecord] = []

    def set_records(self, records: list[DocumentRecord]) -> None:
        self.beginResetModel()
        self.records = list(records)
        self.endResetModel()

    def details(self, record: DocumentRecord) -> str:
        """Everything about one document, a fact a line (tooltip and details pane)."""
        lines = [title_of(record), display_path(record.source_path),
                 record.file_type.upper() + " · " + self.tr("%n page(s)", "", record.page_count)
                 + " · " + self.tr("%n passage(s)", "", record.chunk_count),
                 self.tr("Added %1").replace("%1", record.ingested_at[:16].replace("T", " "))]
        lines += list(record.notes)
        return "\n".join(lines)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.records)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 6

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        names = (self.tr("Title"), self.tr("Type"), self.tr("Pages"), self.tr("Passages"),
                 self.tr("Folder"), self.tr("Added"))
        return names[section] if 0 <= section < len(names) else None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.records):
            return None
        record = self.records[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (title_of(record), record.file_type.upper(), record.page_count,
                    record.chunk_count, display_path(str(Path(record.source_path).parent)),
                    record.ingested_at[:10])[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.details(record)
        if role == DOC_ID_ROLE:
            return record.doc_id
        if role == DATE_ROLE:
            return record.ingested_at
        if role == TYPE_ROLE:
            return record.file_type
        if role == PATH_ROLE:
            return record.source_path
        return None

    def language_changed(self) -> None:
        """Headers and tooltips in the new language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)


class DocumentFilterProxy(QSortFilterProxyModel):
    """Filters documents by type, by when they were added and by title/folder text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.file_type = ""
        self.since = ""
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def set_type(self, file_type: str) -> None:
        self.file_type = file_type
        self.invalidateFilter()

    def set_since_days(self, days: int) -> None:
        self.since = ("" if days <= 0 else
                      (datetime.now(UTC) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent: AnyIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        first = model.index(row, 0, parent)
        if self.file_type and model.data(first, TYPE_ROLE) != self.file_type:
            return False
        if self.since and str(model.data(first, DATE_ROLE) or "") < self.since:
            return False
        needle = self.filterRegularExpression().pattern().lower()
        if not needle:
            return True
        title = str(model.data(first) or "").lower()
        folder = str(model.data(model.index(row, FOLDER, parent)) or "").lower()
        return needle in title or needle in folder
