"""Spreadsheets as text: each sheet one page, its rows in blocks that repeat the header.

A block is a heading naming its rows ("rows 2–21") followed by the sheet's header row and
then the rows, cells separated by " | " — one block fits one chunk of the default size,
and chunks never span two blocks (each block is its own section), so every passage found
carries its column names and a citation names the sheet (the page's first heading, the
page number being the sheet's position) and the rows. Rows are numbered as the
spreadsheet program shows them (CSV: record numbers, the header being 1).

Bounded for hostile or absurd files: at most `MAX_ROWS` non-empty rows per document (the
rest is reported, not read), `MAX_COLUMNS` cells per row, `MAX_CELL_CHARS` per cell; the
caller's `Deadline` is checked on every row. XLSX and CSV readers are in
`sheet_loaders.py`, ODS in `odf_loader.py`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import (
    CELL_SEPARATOR,
    Paragraph,
    assemble_page,
    clean_cell,
    fold_header,
)
from desktop_app.ingest.types import PageText

BLOCK_CHARS = 700  # a block and its headings fit a default chunk (1,000 characters)
BLOCK_ROWS = 40
MAX_ROWS = 100_000  # per document, all sheets together
MAX_COLUMNS = 512
MAX_CELL_CHARS = 2_000
_NUMBER = re.compile(r"^[-+(]?[$€£R]*\s?\d[\d.,\s]*%?\)?$")


def cell_text(value: object) -> str:
    """A cell's value as the sheet shows it, more or less: 3.0 → "3", dates in ISO form,
    booleans as TRUE/FALSE; long cells cut at `MAX_CELL_CHARS`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "TRUE" if value else "FALSE"
    elif isinstance(value, float):
        text = str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    elif isinstance(value, dt.datetime):
        text = (value.date().isoformat() if value.time() == dt.time()
                else value.isoformat(sep=" ", timespec="minutes"))
    elif isinstance(value, dt.date | dt.time):
        text = value.isoformat()
    else:
        text = str(value)
    if len(text) > MAX_CELL_CHARS:
        text = text[:MAX_CELL_CHARS] + "…"
    return clean_cell(text)


def row_line(cells: Iterable[str]) -> str:
    """One row: cells in their columns (empty ones kept, so columns line up with the
    header), trailing empty cells dropped."""
    row = list(cells)[:MAX_COLUMNS]
    while row and not row[-1]:
        row.pop()
    return CELL_SEPARATOR.join(row)


def _looks_like_header(cells: list[str]) -> bool:
    filled = [c for c in cells if c]
    return bool(filled) and not any(_NUMBER.match(c) for c in filled)


class Merge(NamedTuple):
    """A merged range of cells, 1-based and inclusive, as the spreadsheet stores it."""

    first_col: int
    first_row: int
    last_col: int
    last_row: int


TITLE_LINES = 3  # one-cell lines above a sheet's table taken for its title, at most


def _titles_apart(rows: Iterable[tuple[int, list[str]]]
                  ) -> tuple[list[str], Iterator[tuple[int, list[str]]]]:
    """A sheet's title lines above its table ("Tabela 1612 - Área plantada…", each in one
    cell) apart from its rows: up to `TITLE_LINES` one-cell rows before the first row of
    two or more cells. A sheet of one column keeps them all as rows (its first line is its
    header), and so does a list of one-cell rows that only later meets a wider one."""
    rows = iter(rows)
    ahead: list[tuple[int, list[str]]] = []
    for number, cells in rows:
        ahead.append((number, cells))
        if sum(1 for cell in cells if cell) >= 2:
            titles = [row_line(c) for _, c in ahead[:-1] if any(c)]
            return titles, itertools.chain(ahead[-1:], rows)
        if len(ahead) > TITLE_LINES:
            break
    return [], itertools.chain(ahead, rows)


def fold_merged_header(rows: list[list[str]], merges: Sequence[Merge]) -> list[list[str]]:
    """A table (a document's, not a sheet's: its first row is its header) with a header
    over several rows (`merges`, row 1 its first) folded into one row."""
    depth = _header_depth(1, merges)
    if not 2 <= depth < len(rows):
        return rows
    texts: dict[tuple[int, int], str] = {}
    header = [_with_merged(i + 1, rows[i], merges, texts) for i in range(depth)]
    return [fold_header(header), *rows[depth:]]


def _header_depth(row_number: int, merges: Sequence[Merge]) -> int:
    """How many rows a header starting at `row_number` takes: as many as a cell merged
    down from it spans ("Unidade da Federação" over the rows of "Área plantada
    (Hectares)" and its years)."""
    return max((m.last_row - m.first_row + 1 for m in merges
                if m.first_row == row_number and m.last_row - m.first_row < 5), default=1)


def _with_merged(row_number: int, cells: list[str], merges: Sequence[Merge],
                 texts: dict[tuple[int, int], str]) -> list[str]:
    """A header row's cells with each merged cell's text in every column it covers."""
    width = max([len(cells), *(m.last_col for m in merges
                               if m.first_row <= row_number <= m.last_row)])
    filled = [*cells, *[""] * (width - len(cells))][:MAX_COLUMNS]
    for j, text in enumerate(filled, start=1):
        texts[(row_number, j)] = text
    for m in merges:
        if m.first_row <= row_number <= m.last_row:
            origin = texts.get((m.first_row, m.first_col), "")
            for j in range(m.first_col, min(m.last_col, MAX_COLUMNS) + 1):
                if not filled[j - 1]:
                    filled[j - 1] = origin
    return filled


@dataclass
class SheetBudget:
    """What one document may still read, and what was left out (for its notes)."""

    name: str
    deadline: limits.Deadline
    rows: int = 0
    cut_sheets: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        if not self.cut_sheets:
            return []
        sheets = ", ".join(f"“{s}”" for s in self.cut_sheets[:5])
        return [f"only the first {MAX_ROWS:,} rows were read (more rows in {sheets})"]


def rows_label(first: int, last: int) -> str:
    return f"row {first}" if first == last else f"rows {first}–{last}"


def sheet_page(number: int, sheet: str | None, rows: Iterable[tuple[int, list[str]]],
               budget: SheetBudget, merges: Sequence[Merge] = ()) -> PageText:
    """One sheet as a page of row blocks. `rows`: (row number, cell texts), in order;
    empty rows may be left out. `sheet`: its name as the page's first heading (None for a
    CSV file, which has one sheet). One-cell lines above the table are its title, not its
    header; a header over several rows — a cell merged down across them, group labels
    merged across their columns (`merges`) — is folded into one row, each column named by
    what is above it."""
    paragraphs: list[Paragraph] = []
    if sheet:
        paragraphs.append(Paragraph(sheet, 1))
    titles, rows = _titles_apart(rows)
    paragraphs.extend(Paragraph(title) for title in titles)
    header = ""
    header_rows: list[list[str]] = []  # of a header over several rows, while it is read
    header_end = 0
    texts: dict[tuple[int, int], str] = {}
    block: list[str] = []
    first = last = 0
    size = 0

    def flush() -> None:
        nonlocal block, size
        if block:
            paragraphs.append(Paragraph(rows_label(first, last), 2))
            paragraphs.append(Paragraph("\n".join(([header] if header else []) + block)))
        block, size = [], 0

    seen_data = False
    for row_number, cells in rows:
        budget.deadline.check()
        line = row_line(cells)
        if not line.strip(" |"):
            continue
        if budget.rows >= MAX_ROWS:
            if sheet or not budget.cut_sheets:
                budget.cut_sheets.append(sheet or budget.name)
            break
        budget.rows += 1
        if header_rows and row_number <= header_end:
            header_rows.append(_with_merged(row_number, cells, merges, texts))
            continue
        if header_rows:
            header, header_rows = row_line(fold_header(header_rows)), []
        if not header and not seen_data and _looks_like_header(cells):
            header = line
            header_end = row_number + _header_depth(row_number, merges) - 1
            if header_end > row_number:
                header_rows = [_with_merged(row_number, cells, merges, texts)]
            continue
        seen_data = True
        if block and (size + len(line) > BLOCK_CHARS or len(block) >= BLOCK_ROWS):
            flush()
        if not block:
            first = row_number
        block.append(line)
        last = row_number
        size += len(line) + 1
    if header_rows:
        header = row_line(fold_header(header_rows))
    if not block and header and not seen_data:  # a sheet that is only its header row
        paragraphs.append(Paragraph(header))
    flush()
    return assemble_page(number, paragraphs)
