"""XLSX (openpyxl, read-only streaming) and CSV/TSV (the standard library) as row blocks.

Each sheet becomes one page of row blocks (`sheets.sheet_page`); a CSV file is one sheet.
XLSX: before openpyxl opens the workbook, the zip directory and every worksheet and the
shared strings are checked against the limits (`zipxml`: sizes, element count, nesting,
no entity declarations), then cells are read row by row (cached formula results, dates
as dates). CSV: decoded like any text file (`loaders.decode_bytes`), the delimiter
sniffed among , ; tab and |.
"""

from __future__ import annotations

import csv
import io
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.sheets import Merge, SheetBudget, cell_text, sheet_page
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.ingest.zipxml import ElementBudget, open_package, stream_elements, unreadable

SPREADSHEET = "spreadsheet"
_CHECKED_PARTS = ("xl/worksheets/", "xl/sharedStrings.xml", "xl/workbook.xml")


Merges = dict[str, list[Merge]]  # a worksheet part's merged ranges


def check_xlsx_limits(path: Path, deadline: limits.Deadline) -> Merges:
    """Refuse a workbook whose parts exceed the limits, before openpyxl builds anything.
    Returns each worksheet's merged cells (openpyxl's streaming reader does not give
    them): a header's group labels span their columns."""
    budget = ElementBudget(path.name)
    merges: Merges = {}
    with open_package(path, SPREADSHEET) as archive:
        names = {m.filename for m in archive.infolist()}
        if "xl/workbook.xml" not in names:
            raise unreadable(path.name, SPREADSHEET, "no xl/workbook.xml")
        for info in archive.infolist():
            if info.filename.startswith(_CHECKED_PARTS) and info.filename.endswith(".xml"):
                for event, element, _depth in stream_elements(
                        archive, info, name=path.name, kind=SPREADSHEET, deadline=deadline,
                        budget=budget):
                    if event == "end":
                        if element.tag.endswith("}mergeCell"):
                            merge = _merge(element.get("ref", ""))
                            if merge:
                                merges.setdefault(info.filename, []).append(merge)
                        element.clear()
    return merges


def _merge(ref: str) -> Merge | None:
    """"B3:C3" as (first column, first row, last column, last row), 1-based."""
    from openpyxl.utils.cell import range_boundaries

    try:
        first_col, first_row, last_col, last_row = range_boundaries(ref)
    except (ValueError, TypeError):
        return None
    if None in (first_col, first_row, last_col, last_row):
        return None  # a whole row or column: no header
    return Merge(first_col, first_row, last_col, last_row)


def _xlsx_rows(sheet: Any) -> Iterator[tuple[int, list[str]]]:
    for number, row in enumerate(sheet.iter_rows(), start=1):
        if not row:
            continue
        number = next((c.row for c in row if getattr(c, "row", None)), number)
        yield number, [cell_text(c.value) for c in row[:512]]


def load_xlsx(path: Path) -> LoadedDocument:
    """Every worksheet as a page of row blocks (chart sheets have no cells)."""
    import openpyxl

    deadline = limits.Deadline(path.name)
    merges = check_xlsx_limits(path, deadline)
    budget = SheetBudget(path.name, deadline)
    pages: list[PageText] = []
    try:
        with warnings.catch_warnings():  # "no default style", unknown extensions: harmless
            warnings.simplefilter("ignore")
            workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            title = (workbook.properties.title or "").strip()
            for number, sheet in enumerate(workbook.worksheets, start=1):
                sheet.reset_dimensions()  # a bogus "A1:XFD1048576" would pad every row
                pages.append(sheet_page(
                    number, sheet.title, _xlsx_rows(sheet), budget,
                    merges.get(getattr(sheet, "_worksheet_path", ""), [])))
        finally:
            workbook.close()
    except UnreadableDocumentError:
        raise
    except Exception as error:  # InvalidFileException, KeyError, XML errors, bad values
        raise UnreadableDocumentError(
            f"“{path.name}” is not a readable spreadsheet (damaged, an old .xls, or "
            "password-protected).", detail=f"{type(error).__name__}: {error}") from error
    notes = budget.notes()
    if not any(page.text for page in pages):
        notes.append("no text found")
    return LoadedDocument(path=str(path), file_type="xlsx", title=title or path.stem,
                          pages=pages, notes=notes)


def _dialect(sample: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel_tab if sample.count("\t") > sample.count(",") else csv.excel


def load_csv(path: Path) -> LoadedDocument:
    """A CSV/TSV file as one sheet of row blocks (records numbered from 1, the header)."""
    from desktop_app.ingest.loaders import decode_bytes, read_document_bytes

    size = path.stat().st_size
    if size > limits.MAX_TEXT_BYTES:
        raise limits.too_big(path.name, "is", size, limits.MAX_TEXT_BYTES)
    text, notes = decode_bytes(read_document_bytes(path), name=path.name)
    deadline = limits.Deadline(path.name)
    budget = SheetBudget(path.name, deadline)
    dialect = _dialect(text[:65536])
    reader = csv.reader(io.StringIO(text, newline=""), dialect)

    def rows() -> Iterator[tuple[int, list[str]]]:
        try:
            for number, record in enumerate(reader, start=1):
                yield number, [cell_text(value) for value in record[:512]]
        except csv.Error as error:  # a field past csv's size limit, a NUL inside a field
            raise UnreadableDocumentError(
                f"“{path.name}” is not a readable CSV file past record {reader.line_num:,} "
                f"({error}); nothing was indexed from it.", detail=str(error)) from error

    page = sheet_page(1, None, rows(), budget)
    notes += budget.notes()
    if not page.text:
        notes.append("no text found")
    return LoadedDocument(path=str(path), file_type="csv", title=path.stem, pages=[page],
                          notes=notes)
