"""PDF loading with PyMuPDF: page by page, cleaned, in reading order, with headings.

PyMuPDF 2.0's `import pymupdf` also imports `pymupdf.layout` (it builds an ONNX model with
onnxruntime at import time and writes ~/.cache/Microsoft/DeveloperTools/.onnxruntime) and
`pymupdf4llm` (whose OCR helpers import onnxruntime too); PyMuPDF 2.0 depends on both, so
they cannot simply be uninstalled. Both imports sit in `try/except ImportError` inside
PyMuPDF, so `import_pymupdf()` marks them absent in `sys.modules` before the first import.
Measured here: import 0.41 s → 0.08 s, onnxruntime not loaded, nothing written under ~/.cache,
and text extraction, `find_tables()` and rendering work the same — `find_tables()` is even
faster (0.14 s instead of 1.6 s on the NICS page) because with the layout model present it
runs the model on every page. There is no environment variable that does this;
`PYMUPDF_SUGGEST_LAYOUT_ANALYZER=0` (set too) only silences the "Consider using the
pymupdf_layout package" message. Every module of the app must get PyMuPDF through
`import_pymupdf()`: a plain `import pymupdf` that runs first loads the model.
"""

from __future__ import annotations

import bisect
import os
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from desktop_app.errors import LimitExceededError, UnreadableDocumentError
from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    document_vocabulary,
    fold_header,
    normalize_line,
    pages_note,
    repeated_edge_lines,
    table_to_text,
    unwrap_lines,
)
from desktop_app.ingest.pdf_layout import (
    Box,
    LayoutBlock,
    TextLine,
    join_cell_lines,
    join_line_blocks,
    line_number_blocks,
    merge_rows,
    paragraph_rows,
    reading_order,
    split_block_paragraphs,
)
from desktop_app.ingest.types import LoadedDocument, PageProgress, PageText
from desktop_app.text.sentences import runs_on
from desktop_app.text.tables import is_figure

if TYPE_CHECKING:
    from desktop_app.ingest.ocr import OcrRun

_BLOCKED_SUBMODULES = ("pymupdf.layout", "pymupdf4llm")
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_LEGAL_HEADING = re.compile(
    r"^(LIVRO|PARTE|T[ÍI]TULO|CAP[ÍI]TULO|SE[ÇC][ÃA]O|SECCI[ÓO]N|SUBSE[ÇC][ÃA]O)\s+"
    r"([IVXLCDM]+|\d+|[ÚU]NIC[OA])\b",
    re.IGNORECASE,
)
_LEGAL_RANK = {"livro": 0, "parte": 0, "titulo": 1, "capitulo": 2, "secao": 3, "seccion": 3,
               "subsecao": 4}
_ASCII_FOLD = str.maketrans("ÍíÇçÃãÓóÚú", "IiCcAaOoUu")
MIN_PAGE_CHARS = 20  # fewer non-space characters than this on a page with images: a scan
FRONT_MATTER_BODY_CHARS = 80
# A heading set in capitals needs less size than one in mixed case ("COMPETÊNCIAS GERAIS DA
# BASE NACIONAL COMUM CURRICULAR" at 12 pt over 11 pt text): `CAPS_HEADING_SIZE` × the body
# size, at least `CAPS_HEADING_LETTERS` letters, two words, no lower-case letter
HEADING_SIZE = 1.15
CAPS_HEADING_SIZE = 1.05
CAPS_HEADING_LETTERS = 8
MARGIN_ZONE = 0.25  # running headers/footers live in the top/bottom quarter of the page
STRIKE_OUT = 1  # MuPDF's char flag for struck-through characters
MIN_STRUCK_CHARS = 4


def import_pymupdf() -> ModuleType:
    """Import PyMuPDF without its layout model (see the module docstring for why)."""
    if "pymupdf" not in sys.modules:
        for name in _BLOCKED_SUBMODULES:
            sys.modules.setdefault(name, None)  # type: ignore[arg-type]
        os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")
    import pymupdf

    pymupdf.no_recommend_layout()
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    return pymupdf


@dataclass
class _RawPage:
    number: int
    blocks: list[LayoutBlock] = field(default_factory=list)
    rotated: list[TextLine] = field(default_factory=list)
    has_images: bool = False
    failed: bool = False
    height: float = 0.0


def _struck_runs(spans: list[tuple[str, bool]]) -> tuple[str, ...]:
    """Runs of struck-through text in a line's spans (text, struck), spaces between struck
    spans belonging to the run. A run needs `MIN_STRUCK_CHARS` letters or digits: MuPDF
    also flags a lone "n" or "1" beside an underlined superscript "º" as struck."""
    runs: list[str] = []
    current = ""
    for piece, struck in [*spans, ("x", False)]:
        if struck or (current and not piece.strip()):
            current += piece
            continue
        if sum(ch.isalnum() for ch in current) >= MIN_STRUCK_CHARS:
            runs.append(current.strip())
        current = ""
    return tuple(runs)


def _line_from_spans(line: dict[str, Any]) -> TextLine | None:
    text = ""
    chars = bold = 0
    sizes: Counter[float] = Counter()
    previous_x1: float | None = None
    styled: list[tuple[str, bool]] = []
    for span in line["spans"]:
        piece = span["text"]
        if not piece:
            continue
        if (previous_x1 is not None and span["bbox"][0] - previous_x1 > 0.15 * span["size"]
                and not text.endswith(" ") and not piece.startswith(" ")):
            text += " "
            styled.append((" ", False))
        text += piece
        styled.append((piece, bool(span.get("char_flags", 0) & STRIKE_OUT)))
        previous_x1 = span["bbox"][2]
        visible = sum(1 for ch in piece if not ch.isspace())
        chars += visible
        sizes[round(span["size"] * 2) / 2] += visible
        if span["flags"] & 16 or _BOLD_FONT.search(span.get("font", "")):
            bold += visible
    if not chars:
        return None
    dx, dy = line["dir"]
    x0, y0, x1, y1 = line["bbox"]
    return TextLine(text=text, x0=x0, y0=y0, x1=x1, y1=y1, size=sizes.most_common(1)[0][0],
                    chars=chars, bold_chars=bold, horizontal=dx > 0.95 and abs(dy) < 0.05,
                    struck=_struck_runs(styled))


def _has_table_rules(page: Any) -> bool:
    """Cheap pre-check for `find_tables()` (≈0.1 s/page): ≥ 2 horizontal and ≥ 2 vertical rules."""
    horizontal = vertical = 0
    for path in page.get_cdrawings():
        for item in path["items"]:
            if item[0] == "l":
                (ax, ay), (bx, by) = item[1], item[2]
                w, h = abs(ax - bx), abs(ay - by)
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                w, h = abs(x1 - x0), abs(y1 - y0)
                if w >= 5 and h >= 5:
                    horizontal, vertical = horizontal + 2, vertical + 2
                    continue
            else:
                continue
            if w >= 5 and h < 3:
                horizontal += 1
            elif h >= 5 and w < 3:
                vertical += 1
        if horizontal >= 2 and vertical >= 2:
            return True
    return False


_Lines = list[tuple[float, str]]  # a cell's lines, top to bottom: (middle height, text)
SAME_LINE = 3.0  # points: lines of two cells this close in height are one row's


def _cell_rows(table: Any, words: list[tuple[Any, ...]]) -> list[list[str | None]]:
    """Cell texts from the page's words (the table finder's own text splits "FUNCTION_ID"
    into "FUNCTION ID _" because it measures glyphs with small heights); a row the finder
    left unsplit is split where its cells' lines start together (`_stacked_rows`), a cell
    of figures spanning sub-columns at the sub-columns (`_split_figures`), and a header
    printed over several rows becomes one (`_folded_header`)."""
    centered = sorted((((w[1] + w[3]) / 2, (w[0] + w[2]) / 2), w) for w in words)
    keys = [center for center, _ in centered]

    def words_in(bbox: Sequence[float]) -> list[tuple[Any, ...]]:
        x0, y0, x1, y1 = bbox
        low = bisect.bisect_left(keys, (y0, float("-inf")))
        high = bisect.bisect_right(keys, (y1, float("inf")))
        return [word for (_, cx), word in centered[low:high] if x0 <= cx <= x1]

    columns = _grid_columns(table)
    header, first = _folded_header(table, columns, lambda bbox: _lines_of(words_in(bbox)))
    rows: list[list[str | None]] = [list(header)] if header else []
    for row in table.rows[first:]:
        cells: list[_Lines | None] = []
        for j, bbox in enumerate(row.cells):
            if bbox is None:
                if j >= len(cells):  # not filled by a split neighbour
                    cells.append(None)
                continue
            inside = words_in(bbox)
            spanned = _spanned(bbox, columns, j)
            split = _split_figures(inside, spanned) or _split_labels(inside, spanned)
            cells.extend(_lines_of(part) for part in split) if split else cells.append(
                _lines_of(inside))
        rows.extend(_stacked_rows(cells))
    return rows


def _lines_of(words: list[tuple[Any, ...]]) -> _Lines:
    """Words as a cell's lines, top to bottom, lines printed apart at one height left to
    right: (middle height, text)."""
    lines: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
    for word in words:
        lines.setdefault((word[5], word[6]), []).append(word)
    placed = sorted(((sum((w[1] + w[3]) / 2 for w in line) / len(line), min(w[0] for w in line),
                      " ".join(w[4] for w in sorted(line, key=lambda w: w[0])))
                     for line in lines.values()), key=lambda line: line[0])
    ordered: list[tuple[float, float, str]] = []
    for y, x, text in placed:  # a run of lines at one height, in order across
        at = len(ordered)
        while at and y - ordered[at - 1][0] <= SAME_LINE and ordered[at - 1][1] > x:
            at -= 1
        ordered.insert(at, (y, x, text))
    return [(y, text) for y, _, text in ordered]


def _grid_columns(table: Any) -> list[tuple[float, float]]:
    """Where each of the finder's grid columns starts and ends across the page."""
    starts: list[float] = []
    for j in range(table.col_count):
        lefts = sorted(row.cells[j][0] for row in table.rows if row.cells[j] is not None)
        if not lefts:
            return []  # a column no cell starts in: not a grid to split by
        starts.append(lefts[len(lefts) // 2])
    ends = [*starts[1:], table.bbox[2]]
    if any(b <= a for a, b in zip(starts, ends, strict=True)):
        return []
    return list(zip(starts, ends, strict=True))


def _spanned(bbox: Sequence[float], columns: list[tuple[float, float]],
             j: int) -> list[tuple[float, float]]:
    """The grid columns a cell starting in column `j` covers (itself included)."""
    return [(a, b) for a, b in columns[j:] if bbox[0] - 1 <= (a + b) / 2 <= bbox[2] + 1]


def _split_figures(words: list[tuple[Any, ...]],
                   columns: list[tuple[float, float]]) -> list[list[tuple[Any, ...]]] | None:
    """A cell spanning sub-columns that are ruled only in the header ("AREA" over "11/12
    Crop | 12/13 Crop | VAR. %", a data cell "318,8 298,3 (6,4)") as one cell per
    sub-column: when every word is a figure (`is_figure`), lies inside one sub-column, and
    two or more sub-columns get one. Words — a group's label centred over its sub-columns
    — are never split. None when the cell stays whole."""
    if len(columns) < 2 or not words or not all(is_figure(w[4]) for w in words):
        return None
    parts: list[list[tuple[Any, ...]]] = [[] for _ in columns]
    for word in words:
        at = [k for k, (a, b) in enumerate(columns) if a - 1 <= word[0] and word[2] <= b + 1]
        if len(at) != 1:
            return None  # it crosses a sub-column's edge
        parts[at[0]].append(word)
    return parts if sum(1 for part in parts if part) >= 2 else None


def _split_labels(words: list[tuple[Any, ...]],
                  columns: list[tuple[float, float]]) -> list[list[tuple[Any, ...]]] | None:
    """A header cell over sub-columns whose labels are printed in it, each line over its
    sub-column ("Pre-Pawn" above "Handgun", "Long Gun", "*Other") as one cell per
    sub-column, each labelled by the lines above too ("Pre-Pawn Handgun"). The labels are
    the cell's last printed line, each a line of its own (a phrase centred over the
    sub-columns, "AREA (In thousand ha)", is one line, never split), each inside one
    sub-column, and every sub-column has one. None when the cell stays whole."""
    if len(columns) < 2 or not words:
        return None
    lines: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
    for word in words:
        lines.setdefault((word[5], word[6]), []).append(word)
    bottom = max((w[1] + w[3]) / 2 for w in words)
    last = [line for line in lines.values()
            if all(abs((w[1] + w[3]) / 2 - bottom) <= SAME_LINE for w in line)]
    if len(last) < 2:
        return None
    parts: list[list[tuple[Any, ...]]] = [[] for _ in columns]
    for line in last:
        x0, x1 = min(w[0] for w in line), max(w[2] for w in line)
        at = [k for k, (a, b) in enumerate(columns) if a - 1 <= x0 and x1 <= b + 1]
        if len(at) != 1:
            return None  # a line over two sub-columns: not their labels
        parts[at[0]].extend(line)
    if not all(parts):
        return None
    above = [w for line in lines.values() if not any(line is low for low in last) for w in line]
    return [above + part for part in parts]


def _folded_header(table: Any, columns: list[tuple[float, float]],
                   lines: Any) -> tuple[list[str], int]:
    """A statistical table's header printed over several rows — a stub head ("REGION /
    STATE") spanning them, group labels ("AREA (In thousand ha)") over their sub-columns
    ("11/12 Crop", "(a)") — as one header row, each column labelled by everything printed
    above it: "AREA (In thousand ha) 11/12 Crop (a)". Only when the first cell spans the
    header rows down and the first row groups columns; else ([], 0), the rows as they are.
    Returns the header and the index of the finder's first row below it."""
    rows = table.rows
    top = rows[0].cells[0] if rows and columns else None
    if top is None or len(rows) < 3:
        return [], 0
    depth = 1
    while (depth < len(rows) and rows[depth].cells[0] is None
           and rows[depth].bbox[3] <= top[3] + 1):
        depth += 1
    grouped = any(cell is not None and len(_spanned(cell, columns, j)) > 1
                  for j, cell in enumerate(rows[0].cells))
    if depth < 2 or depth == len(rows) or not grouped or rows[depth].cells[0] is None:
        return [], 0
    grid: list[list[str]] = []
    for row in rows[:depth]:
        texts = []
        for a, b in columns:  # the cell over each column: its own, or one spanning it
            cell = next((c for c in row.cells[::-1]
                         if c is not None and c[0] - 1 <= (a + b) / 2 <= c[2] + 1), None)
            texts.append("" if cell is None else "\n".join(t for _, t in lines(cell)))
        grid.append(texts)
    labels = fold_header(grid)
    return labels, depth


def _stacked_rows(cells: list[_Lines | None]) -> list[list[str | None]]:
    """A table row as one or more rows of cell texts. A borderless table ruled only around
    its header comes out of the finder as one row holding every data row ("Stabilizer
    wiring change / AOA sensor system test | Up to $6,715 / $3,400 | …"). A line of the
    first cell that opens a label (capital letter or digit) at a height where every other
    filled cell has a line too starts a row of its own; the lines below it, up to the next
    such start, are that row's (a label wrapped over two lines stays one row's). When
    fewer than half the first cell's lines start rows, the cells are columns of their own
    that merely share heights (a ballot's lists of contests), and the row stays whole; so
    it does unless every cell beside the label holds a figure in every row (a cell of
    code and description, "(EI02TS01) / Criar sons com…", is one record)."""
    def text(lines: _Lines | None, low: float = float("-inf"),
             high: float = float("inf")) -> str | None:
        return None if lines is None else "\n".join(t for y, t in lines if low <= y < high)

    filled = [i for i, lines in enumerate(cells) if lines]
    if len(filled) < 2:
        return [[text(lines) for lines in cells]]
    label, others = cells[filled[0]] or [], [cells[i] or [] for i in filled[1:]]
    visual = [(y, words) for i, (y, words) in enumerate(label)  # (a leader-dot line beside)
              if i == 0 or y - label[i - 1][0] > SAME_LINE]
    starts = [y for i, (y, words) in enumerate(visual)
              if (i == 0 or words[:1].isupper() or words[:1].isdigit())
              and all(any(abs(y - other) <= SAME_LINE for other, _ in lines) for lines in others)]
    if len(visual) >= 3 and 2 * len(starts) < len(visual):
        return _listed(cells) or [[text(lines) for lines in cells]]  # columns of their own
    if len(starts) < 2 or starts[0] != visual[0][0]:
        return [[text(lines) for lines in cells]]
    bounds = [float("-inf"), *(y - SAME_LINE for y in starts[1:]), float("inf")]
    rows = [[text(lines, low, high) for lines in cells]
            for low, high in zip(bounds, bounds[1:], strict=False)]
    figures = all(any(ch.isdigit() for ch in cell) for row in rows
                  for cell in row[filled[0] + 1:] if cell)
    return rows if figures else [[text(lines) for lines in cells]]


LIST_FIELDS = 0.4  # share of a column's lines printed as fields apart: a list of records


def _listed(cells: list[_Lines | None]) -> list[list[str | None]] | None:
    """Cells that are columns of their own, each a list of records printed as fields apart
    on a line (a ballot's contests: "ATTORNEY GENERAL", then "RONALD GOLD  REP  245"), read
    column after column, a line a row: its fields the row's cells, a line of one field
    (a contest's title) a line of text. None when the columns are not lists of records
    (paragraphs side by side: each line one piece of text), and the row stays whole."""
    columns: list[list[list[str]]] = []
    for lines in cells:
        if not lines:
            continue
        visual: list[tuple[float, list[str]]] = []
        for y, line in lines:
            if visual and y - visual[-1][0] <= SAME_LINE:
                visual[-1][1].append(line)
            else:
                visual.append((y, [line]))
        columns.append([fields for _, fields in visual])
    if not all(sum(1 for fields in column if len(fields) > 1) >= LIST_FIELDS * len(column)
               for column in columns):
        return None
    return [list(fields) for column in columns for fields in column]


def _cells_overlap(table: Any) -> bool:
    """Cells of a real table tile its area; nested, overlapping cells mean a boxed diagram."""
    boxes = sorted((tuple(cell) for row in table.rows for cell in row.cells if cell), key=lambda b: b[1])
    for i, (ax0, ay0, ax1, ay1) in enumerate(boxes):
        for bx0, by0, bx1, by1 in boxes[i + 1:]:
            if by0 >= ay1:
                break
            overlap = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
            smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
            if smaller > 0 and overlap > 0.5 * smaller:
                return True
    return False


def _tables(page: Any) -> list[LayoutBlock]:
    if not _has_table_rules(page):
        return []
    found: list[LayoutBlock] = []
    words: list[tuple[Any, ...]] | None = None
    for table in page.find_tables().tables:
        if table.row_count < 2 or table.col_count < 2 or _cells_overlap(table):
            continue  # a ruled box around a paragraph or a diagram, not a table
        words = page.get_text("words") if words is None else words
        text = table_to_text(_cell_rows(table, words))
        if text.strip():
            x0, y0, x1, y1 = table.bbox
            found.append(LayoutBlock(x0, y0, x1, y1, table_text=text))
    return found


def _extract_page(pymupdf: ModuleType, page: Any) -> _RawPage:
    raw = _RawPage(number=page.number + 1, has_images=bool(page.get_images()),
                   height=page.rect.height)
    # (find_tables works in the unrotated page: on a rotated one it cuts the text apart)
    tables = _tables(page) if not page.rotation else []
    # TEXT_COLLECT_STYLES: each span's `char_flags` says whether it is struck through
    # (compiled laws strike revoked wording); the text itself is the same without it
    flags = (pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
             | pymupdf.TEXT_COLLECT_STYLES)
    blocks = page.get_text("dict", flags=flags)["blocks"]
    if page.rotation:
        _as_displayed(blocks, page.rotation_matrix)
    for block in blocks:
        if block.get("type") != 0:
            continue
        lines: list[TextLine] = []
        for line in block["lines"]:
            text_line = _line_from_spans(line)
            if text_line is None:
                continue
            cx, cy = (text_line.x0 + text_line.x1) / 2, (text_line.y0 + text_line.y1) / 2
            if any(t.x0 <= cx <= t.x1 and t.y0 <= cy <= t.y1 for t in tables):
                continue  # its text is in the table's rows
            (lines if text_line.horizontal else raw.rotated).append(text_line)
        if lines:
            rows = merge_rows(lines)
            raw.blocks.append(LayoutBlock(
                min(r.x0 for r in rows), min(r.y0 for r in rows),
                max(r.x1 for r in rows), max(r.y1 for r in rows), rows=rows))
    numbers = line_number_blocks(raw.blocks)  # a margin's line numbers: not text
    raw.blocks = [b for i, b in enumerate(raw.blocks) if i not in numbers]
    raw.blocks.extend(tables)
    return raw


def _as_displayed(blocks: list[dict[str, Any]], matrix: Any) -> None:
    """A page with a /Rotate (a landscape report printed on portrait paper) gives its text
    in the unrotated page's coordinates, where every line runs up or down the page and
    would be read as rotated text, its words in reverse order ("LOUIS SAINT TO DC
    WASHINGTON"). Its boxes and directions become the displayed page's, as a reader
    sees it."""
    def box(bbox: Sequence[float]) -> tuple[float, float, float, float]:
        corners = [(x * matrix.a + y * matrix.c + matrix.e, x * matrix.b + y * matrix.d + matrix.f)
                   for x in (bbox[0], bbox[2]) for y in (bbox[1], bbox[3])]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)

    for block in blocks:
        block["bbox"] = box(block["bbox"])
        for line in block.get("lines", []):
            dx, dy = line["dir"]
            line["dir"] = (dx * matrix.a + dy * matrix.c, dx * matrix.b + dy * matrix.d)
            line["bbox"] = box(line["bbox"])
            for span in line["spans"]:
                span["bbox"] = box(span["bbox"])


def _in_margin_zone(row: TextLine, page: _RawPage) -> bool:
    middle = (row.y0 + row.y1) / 2
    return middle < MARGIN_ZONE * page.height or middle > (1 - MARGIN_ZONE) * page.height


def _remove_running_lines(pages: list[_RawPage]) -> None:
    """Drop running headers/footers and repeated margin notes.

    Candidates are the top/bottom three rows of a page among the short blocks (≤ 3 rows)
    lying in the top or bottom quarter of the page, so body text that happens to repeat (a
    boilerplate paragraph) is safe.
    """
    ordered = [
        sorted((row for block in page.blocks if len(block.rows) <= 3 for row in block.rows
                if _in_margin_zone(row, page)), key=lambda r: (r.y0, r.x0))
        for page in pages
    ]
    drop: set[int] = set()
    for rows, indices in zip(ordered, repeated_edge_lines([[r.text for r in rows] for rows in ordered]),
                             strict=True):
        drop.update(id(rows[i]) for i in indices)
    rotated_texts = [[line.text for line in page.rotated] for page in pages]
    longest = max((len(texts) for texts in rotated_texts), default=0)
    for page, indices in zip(pages, repeated_edge_lines(rotated_texts, edge=longest), strict=True):
        page.rotated = [line for i, line in enumerate(page.rotated) if i not in indices]
    for page in pages:
        for block in page.blocks:
            # a title wrapped onto a line that reads as a running title ("DIREITOS DE
            # APRENDIZAGEM E DESENVOLVIMENTO NA" / "EDUCAÇÃO INFANTIL") keeps that line
            block.rows = [row for i, row in enumerate(block.rows) if id(row) not in drop or (
                i > 0 and id(block.rows[i - 1]) not in drop and runs_on(block.rows[i - 1].text))]
        page.blocks = [b for b in page.blocks if b.rows or b.table_text]


def _body_size(pages: list[_RawPage]) -> float:
    sizes: Counter[float] = Counter()
    for page in pages:
        for block in page.blocks:
            for row in block.rows:
                sizes[row.size] += row.chars
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _heading_key(block: LayoutBlock, body_size: float) -> tuple[int, float] | None:
    """Style key of a heading block (sorted ascending = higher level), or None for body text."""
    if block.table_text is not None or not block.rows or len(block.rows) > 3:
        return None
    text = " ".join(row.text.strip() for row in block.rows)
    if len(text) > 200 or not _words(text):
        return None  # no word: a number, or a code ("EI02TS01" in a figure)
    chars = sum(row.chars for row in block.rows)
    size = Counter({row.size: row.chars for row in block.rows}).most_common(1)[0][0]
    legal = _LEGAL_HEADING.match(text)
    if legal:
        return (1, _LEGAL_RANK.get(legal.group(1).translate(_ASCII_FOLD).lower(), 2))
    if text.rstrip()[-1] in ".;,":
        return None
    if size >= HEADING_SIZE * body_size or size >= CAPS_HEADING_SIZE * body_size and \
            _in_capitals(text):
        return (0, -size)
    bold = sum(row.bold_chars for row in block.rows)
    if bold >= 0.9 * chars and size >= 0.95 * body_size and len(text) <= 120:
        return (2, -size)
    return None


def _words(text: str) -> list[str]:
    """The words of `text`: two letters or more, no digit ("EI02TS01" is a code)."""
    return [w for w in re.findall(r"\w+", text) if w.isalpha() and len(w) >= 2]


def _in_capitals(text: str) -> bool:
    """Words in capitals only, two of them at least: "COMPETÊNCIAS GERAIS", not "EI02TS01"
    (a code) nor "Art. 5"."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= CAPS_HEADING_LETTERS and not any(ch.islower() for ch in letters) \
        and len(_words(text)) >= 2


@dataclass
class _Item:
    text: str
    key: tuple[int, float] | None = None
    struck: tuple[str, ...] = ()


def _page_items(page: _RawPage, body_size: float, vocabulary: set[str]) -> list[_Item]:
    order = reading_order([Box(b.x0, b.y0, b.x1, b.y1) for b in page.blocks])
    items: list[_Item] = []
    # (joined after the reading order is found: the columns are told by the blocks as drawn)
    for block in join_line_blocks(join_cell_lines([page.blocks[index] for index in order])):
        if block.table_text is not None:
            items.append(_Item(block.table_text))
            continue
        key = _heading_key(block, body_size)
        if key is not None:
            items.append(_Item(normalize_line(" ".join(row.text for row in block.rows)), key,
                               tuple(run for row in block.rows for run in row.struck)))
            continue
        paragraphs = split_block_paragraphs(block)
        for (lines, full), rows in zip(paragraphs, paragraph_rows(block, paragraphs),
                                       strict=True):
            items.append(_Item(unwrap_lines(lines, full, vocabulary), None,
                               tuple(run for row in rows for run in row.struck)))
    items.extend(_Item(unwrap_lines([line.text])) for line in page.rotated)
    return items


def _demote_front_matter(pages_items: list[list[_Item]]) -> None:
    """Headings stacked on the first page before the first real paragraph are a title block:
    only the last of them (the one introducing that paragraph, e.g. "Abstract") stays a
    heading."""
    for items in pages_items:
        if not items:
            continue
        front: list[_Item] = []
        for item in items:
            if item.key is None and len(item.text) >= FRONT_MATTER_BODY_CHARS:
                break
            if item.key is not None:
                front.append(item)
        for item in front[:-1]:
            item.key = None
        return


def _usable_title(metadata_title: str, stem: str) -> str:
    title = " ".join((metadata_title or "").split())
    lowered = title.lower()
    if (len(title) < 4 or " " not in title or lowered == stem.lower()
            or re.match(r"^(microsoft (word|powerpoint)|untitled|document\d*\b)", lowered)
            or re.search(r"\.(docx?|pdf|indd|tex|html?|odt|rtf)$", lowered)):
        return stem
    return title


def _scan_text(raw: _RawPage) -> str | None:
    """The text layer of a page that looks scanned (images, and too little or garbage
    text), for the OCR step to decide on; None for ordinary pages."""
    if not raw.has_images:
        return None
    text = " ".join([row.text for block in raw.blocks for row in block.rows]
                    + [block.table_text or "" for block in raw.blocks]
                    + [line.text for line in raw.rotated])
    return text
def damaged_pdf(name: str, error: BaseException) -> UnreadableDocumentError:
    """The message for a PDF MuPDF cannot make sense of (truncated, broken page tree…)."""
    return UnreadableDocumentError(
        f"“{name}” is a damaged PDF (its structure is broken or the file was cut short), "
        "so nothing was indexed from it. Open it in a PDF viewer and save a new copy, or "
        "get the original again.", detail=f"{type(error).__name__}: {error}")


def unopenable_pdf(path: Path, error: BaseException) -> UnreadableDocumentError:
    """A PDF MuPDF could not open: damaged when it starts like a PDF, else not a PDF at all."""
    try:
        with path.open("rb") as fh:
            looks_like_pdf = b"%PDF" in fh.read(1024)
    except OSError:
        looks_like_pdf = False
    if looks_like_pdf:
        return damaged_pdf(path.name, error)
    return UnreadableDocumentError(
        f"“{path.name}” is not a PDF (its contents are something else), so nothing was "
        "indexed from it.", detail=f"{type(error).__name__}: {error}")


def check_pdf_structure(document: Any, name: str) -> None:
    """Refuse, before any page is parsed, a PDF whose page tree cannot be read or whose
    object table is beyond `limits.MAX_PDF_OBJECTS` (the page limit is a setting)."""
    from desktop_app.ingest import limits

    try:
        objects = int(document.xref_length())
        _ = document.page_count  # a broken page tree raises here ("Invalid number of pages")
    except Exception as error:  # MuPDF raises RuntimeError/ValueError/FileDataError
        raise damaged_pdf(name, error) from error
    if objects > limits.MAX_PDF_OBJECTS:
        raise limits.too_many(name, "PDF objects", objects, limits.MAX_PDF_OBJECTS)


def read_pages(pymupdf: ModuleType, document: Any, *, progress: PageProgress | None = None,
               ocr: OcrRun | None = None, running_lines: bool = True
               ) -> tuple[list[PageText], list[int], list[str]]:
    """The clean pages of an open MuPDF document (a PDF, or an e-book laid out in pages),
    the numbers of its image-only pages and the notes about them (see `load_pdf`).
    `running_lines=False`: no running headers to remove (an e-book's own layout has none,
    and chapter titles on the pages that open them look like one)."""
    notes: list[str] = []
    raw_pages: list[_RawPage] = []
    for page_index in range(document.page_count):
        try:
            raw = _extract_page(pymupdf, document[page_index])
            if ocr is not None and ocr.wants(_scan_text(raw)):
                raw.blocks, raw.rotated = [], []  # the image's text replaces the layer's
                ocr.read(document[page_index], pymupdf)
            raw_pages.append(raw)
        except Exception:  # one bad page must not lose the rest of the document
            raw_pages.append(_RawPage(number=page_index + 1, failed=True))
        if progress is not None:
            progress(page_index + 1, document.page_count)
    if running_lines:
        _remove_running_lines(raw_pages)
    body_size = _body_size(raw_pages)
    vocabulary = document_vocabulary(
        row.text for page in raw_pages for block in page.blocks for row in block.rows)
    pages_items = [_page_items(page, body_size, vocabulary) for page in raw_pages]
    _demote_front_matter(pages_items)
    levels = {key: level for level, key in enumerate(
        sorted({item.key for items in pages_items for item in items if item.key}), start=1)}
    pages: list[PageText] = []
    empty: list[int] = []
    failed = [page.number for page in raw_pages if page.failed]
    read_by_ocr = ocr.page_texts() if ocr is not None else {}
    for raw, items in zip(raw_pages, pages_items, strict=True):
        if raw.number in read_by_ocr:
            pages.append(read_by_ocr[raw.number])
            continue
        paragraphs = [Paragraph(item.text, levels[item.key] if item.key else None, item.struck)
                      for item in items]
        page = assemble_page(raw.number, paragraphs)
        if sum(not ch.isspace() for ch in page.text) < MIN_PAGE_CHARS and raw.has_images:
            empty.append(raw.number)  # a scan: reported, and absent from `pages`
            continue
        pages.append(page)
    if ocr is not None:
        notes += ocr.notes()
    unexplained = [n for n in empty if ocr is None or n not in ocr.reported]
    if unexplained:
        notes.append(pages_note("no text layer on", unexplained))
    if failed:
        notes.append(pages_note("could not read", failed))
    return pages, empty, notes


def load_pdf(path: Path, *, progress: PageProgress | None = None,
             max_pages: int | None = None, ocr: OcrRun | None = None) -> LoadedDocument:
    """Load a PDF: clean text per page (1-based numbers).

    Pages without a text layer but with images (scans; fewer than 20 characters of text) are
    left out of `pages`, listed in `empty_pages` and reported in a note ("no text layer on
    pages 3–9"), so `len(pages) + len(empty_pages)` is the page count. Blank pages (no text,
    no image) stay in `pages` with empty text. A page that fails to parse is kept empty and
    noted ("could not read page 4"). With `ocr`, scanned pages (and pages whose text layer
    is garbage) are read from their image instead (ingest/ocr.py) and carry `PageText.ocr`.
    """
    pymupdf = import_pymupdf()
    name = path.name
    try:
        document = pymupdf.open(path, filetype="pdf")
    except Exception as error:  # MuPDF raises FileDataError/RuntimeError/ValueError
        raise unopenable_pdf(path, error) from error
    with document:
        if document.needs_pass:
            raise UnreadableDocumentError(
                f"“{name}” is password-protected. Save a copy without the password and add it again.")
        check_pdf_structure(document, name)
        if document.page_count == 0:
            raise UnreadableDocumentError(f"“{name}” is a damaged PDF: no page could be read.")
        if max_pages is not None and document.page_count > max_pages:
            raise LimitExceededError(
                f"“{name}” has {document.page_count:,} pages, more than the limit of "
                f"{max_pages:,} (Settings → maximum pages per document). Split the file or "
                "raise the limit; nothing was indexed from it.")
        pages, empty, notes = read_pages(pymupdf, document, progress=progress, ocr=ocr)
        metadata_title = (document.metadata or {}).get("title", "")
        if getattr(document, "is_repaired", False):
            notes.insert(0, "the PDF file is damaged and was repaired; some text may be missing")
    read_by_ocr = ocr.page_texts() if ocr is not None else {}
    if not any(page.text for page in pages) and not empty:
        notes.append("no text found in the PDF")
    return LoadedDocument(
        path=str(path), file_type="pdf", title=_usable_title(metadata_title, path.stem),
        pages=pages, notes=notes, empty_pages=empty,
        ocr_engine=ocr.engine.id if read_by_ocr and ocr is not None else "")
