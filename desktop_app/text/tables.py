"""What a table row is in the library's text, for every layer that reads it.

Every loader writes a table one row per line, its cells joined by `CELL_SEPARATOR`
(ingest/cleaning.py, ingest/pdf_layout.py, ingest/sheets.py). The chunker never opens an
overlap inside a row (ingest/chunking.py), a document rebuilt from its chunks breaks the
line between two rows (retrieval/doc_text.py), and the answer shows a row under its
header (answer/segments.py) — all with this one test.
"""

from __future__ import annotations

import re

CELL_SEPARATOR = " | "
_CELL_BREAK = re.compile(r" \|(?= |$)")


def is_row(line: str) -> bool:
    """A table row as the loaders write it: one line, cells separated by " | "."""
    return CELL_SEPARATOR in line and "\n" not in line


_FIGURE = re.compile(r"[^\W\d_]")  # a letter


def is_figure(text: str) -> bool:
    """A table figure: a number with its signs and no word ("318,8", "(6,4)", "1.098",
    "12%"), or a placeholder for none ("-", "–", "..."). "US$ 5" and "2 km" are not."""
    text = text.strip()
    if not text or _FIGURE.search(text):
        return False
    return any(ch.isdigit() for ch in text) or all(ch in "-–—.…" for ch in text)


_YEAR = re.compile(r"(?:1[5-9]|20)\d\d")


def is_year(text: str) -> bool:
    """A year alone ("2019"): a column's name as often as a figure, and no count."""
    return _YEAR.fullmatch(text.strip()) is not None


def cells(row: str) -> list[str]:
    """The cells of a row, stripped; of a row as shown too, its spaces squashed, where an
    empty cell is " | | " ("0 | | | 1" is four cells, not three)."""
    return [cell.strip() for cell in _CELL_BREAK.split(row)]
