"""Page geometry for PDF text: visual rows, paragraphs and multi-column reading order.

Pure functions on small dataclasses (no PyMuPDF here), so the rules are testable alone:

- `merge_rows`: MuPDF splits one visual line into several "lines" at wide gaps (justified
  LaTeX sentence spacing, table cells). Pieces on the same baseline are merged back into one
  row; in a block that looks tabular (most rows have ≥ 3 widely spaced pieces) the pieces
  are joined with " | " so table rows stay rows.
- `split_block_paragraphs`: a MuPDF block can hold several paragraphs (LaTeX indents instead
  of spacing); a short line followed by an indent or a vertical gap starts a new one.
- `reading_order`: columns are found from x-gaps ("gutters") in the height-weighted
  coverage of narrow blocks; blocks crossing a gutter (titles, full-width tables) and wide
  horizontal white bands split the page into sections; each section is read column by
  column, top to bottom. `get_text(sort=True)` alone interleaves three columns.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from desktop_app.ingest.cleaning import CELL_SEPARATOR, starts_list_item
from desktop_app.text.tables import is_row

_SENTENCE_END = re.compile(r"[.!?:;]['\"”’)]*$")


@dataclass
class TextLine:
    """A piece of text on one baseline, with the font facts heading detection needs."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float  # dominant font size (weighted by characters)
    chars: int  # non-space characters
    bold_chars: int
    horizontal: bool = True
    pieces: int = 1  # how many MuPDF lines were merged into this row
    struck: tuple[str, ...] = ()  # runs of struck-through text, in order (revoked wording)
    cells: tuple[float, ...] = ()  # a table row's cells: where each starts across (x0)


@dataclass
class LayoutBlock:
    """A text block (rows of `TextLine`) or a table (`table_text`) with its bounding box."""

    x0: float
    y0: float
    x1: float
    y1: float
    rows: list[TextLine] = field(default_factory=list)
    table_text: str | None = None

    @property
    def width(self) -> float:
        return self.x1 - self.x0


def _vertical_overlap(a: TextLine, b: TextLine) -> float:
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap / max(1e-6, min(a.y1 - a.y0, b.y1 - b.y0))


def _join_row(pieces: list[TextLine], separator_gap: float | None) -> TextLine:
    pieces = sorted(pieces, key=lambda piece: piece.x0)
    text = pieces[0].text
    cells = [pieces[0].x0]
    for previous, piece in zip(pieces, pieces[1:], strict=False):
        gap = piece.x0 - previous.x1
        wide = separator_gap is not None and gap >= separator_gap * max(piece.size, 1.0)
        if wide:
            text = f"{text.rstrip()}{CELL_SEPARATOR}{piece.text.lstrip()}"
            cells.append(piece.x0)
        elif text.endswith(" ") or piece.text.startswith(" "):
            text += piece.text
        else:
            text = f"{text} {piece.text}"
    chars = sum(piece.chars for piece in pieces)
    sizes: dict[float, int] = {}
    for piece in pieces:
        sizes[piece.size] = sizes.get(piece.size, 0) + piece.chars
    return TextLine(
        text=text,
        x0=min(piece.x0 for piece in pieces),
        y0=min(piece.y0 for piece in pieces),
        x1=max(piece.x1 for piece in pieces),
        y1=max(piece.y1 for piece in pieces),
        size=max(sizes, key=lambda size: sizes[size]),
        chars=chars,
        bold_chars=sum(piece.bold_chars for piece in pieces),
        horizontal=pieces[0].horizontal,
        pieces=len(pieces),
        struck=tuple(run for piece in pieces for run in piece.struck),
        cells=tuple(cells) if len(cells) > 1 else (),
    )


def _wide_gaps(pieces: list[TextLine], factor: float) -> int:
    pieces = sorted(pieces, key=lambda piece: piece.x0)
    return sum(
        1 for a, b in zip(pieces, pieces[1:], strict=False) if b.x0 - a.x1 >= factor * b.size
    )


def merge_rows(lines: Sequence[TextLine], *, cell_gap: float = 1.0) -> list[TextLine]:
    """Merge the pieces of each visual row (same baseline) of one block, top to bottom.

    A block is tabular when at least two rows, and half of all rows, have three or more
    pieces separated by gaps ≥ `cell_gap` × font size (or one row has four); its pieces are
    then joined with " | ".
    """
    groups: list[list[TextLine]] = []
    for line in sorted(lines, key=lambda item: ((item.y0 + item.y1) / 2, item.x0)):
        if groups and _vertical_overlap(groups[-1][-1], line) >= 0.5:
            groups[-1].append(line)
        else:
            groups.append([line])
    gaps = [_wide_gaps(group, cell_gap) for group in groups]
    cell_rows = sum(1 for count in gaps if count >= 2)
    tabular = (cell_rows >= 2 and cell_rows * 2 >= len(groups)) or max(gaps, default=0) >= 3
    return [_join_row(group, cell_gap if tabular else None) for group in groups]


def _reaches_margin(row: TextLine, following: TextLine | None, block: LayoutBlock,
                    size: float) -> bool:
    """Whether a row was wrapped by the typesetter (so the next row continues it).

    Ragged-right text leaves rows well short of the margin; the row still wrapped if the
    next row's first word would not have fitted in the space left.
    """
    space_left = block.x1 - row.x1
    if space_left <= max(1.5 * size, 0.06 * block.width):
        return True
    if following is None or not row.text.strip():
        return False
    char_width = (row.x1 - row.x0) / max(1, len(row.text))
    first_word = following.text.strip().split(" ", 1)[0]
    return space_left < (len(first_word) + 1) * char_width


_LINE_NUMBER = re.compile(r"\d{1,3}")
MIN_NUMBERED_LINES = 5  # a column of this many line numbers, counting up, is a margin


def line_number_blocks(blocks: Sequence[LayoutBlock]) -> set[int]:
    """The blocks of a margin's line numbers ("1" … "25" beside a transcript's lines, a
    bill's or a pleading's): blocks that are a bare number, aligned in one column, at
    least `MIN_NUMBERED_LINES` of them counting up by one from top to bottom (most steps),
    the column wholly left or right of the page's other text. Their indexes."""
    numbers = [i for i, b in enumerate(blocks) if b.table_text is None and len(b.rows) == 1
               and _LINE_NUMBER.fullmatch(b.rows[0].text.strip())]
    found: set[int] = set()
    columns: list[list[int]] = []
    for i in sorted(numbers, key=lambda i: blocks[i].x1):
        if columns and abs(blocks[i].x1 - blocks[columns[-1][-1]].x1) <= 3.0:
            columns[-1].append(i)
        else:
            columns.append([i])
    for column in columns:
        if len(column) < MIN_NUMBERED_LINES:
            continue
        column.sort(key=lambda i: blocks[i].y0)
        values = [int(blocks[i].rows[0].text) for i in column]
        steps = sum(b == a + 1 for a, b in zip(values, values[1:], strict=False))
        if steps < 0.8 * (len(values) - 1):
            continue
        inside = set(column)
        others = [b for j, b in enumerate(blocks) if j not in inside and b.rows]
        left, right = max(blocks[i].x1 for i in column), min(blocks[i].x0 for i in column)
        if others and (all(left <= b.x0 + 1.0 for b in others)
                       or all(right >= b.x1 - 1.0 for b in others)):
            found |= inside
    return found


MAX_LINE_PITCH = 2.6  # baseline to baseline, × the font size: double spacing and a little


def _continues(above: TextLine, row: TextLine, right: float) -> bool:
    """Whether `row`, a block of its own, goes on with the line `above` (another block).
    Two table rows (`TextLine.cells`) go on when they have as many cells and the row is
    below the other (its cells' further lines joined: `join_cell_lines`). Lines of text:
    the same font, right below it (single to double spacing), overlapping it across, the
    line above ends no clause, the row is no list item ("c) …; ou" over "d) …"), and it
    starts in lower case or the line above was wrapped (the row's first word would not
    have fitted before the page's right margin)."""
    if above.cells and row.cells:  # rows of one table, a row's long cell wrapped or not
        return (len(above.cells) == len(row.cells) and abs(row.size - above.size) <= 0.5
                and row.y0 > above.y0
                and -0.5 * row.size <= row.y0 - above.y1 <= (MAX_LINE_PITCH - 1) * row.size)
    pitch = row.y0 - above.y0
    if (abs(row.size - above.size) > 0.5 or not 0 < pitch <= MAX_LINE_PITCH * row.size
            or row.x0 >= above.x1 or above.x0 >= row.x1
            or _SENTENCE_END.search(above.text.rstrip()) or starts_list_item(row.text)):
        return False
    first = row.text.lstrip()[:1]
    return first.islower() or _reaches_margin(
        above, row, LayoutBlock(min(above.x0, row.x0), above.y0, right, row.y1), row.size)


def join_line_blocks(blocks: Sequence[LayoutBlock]) -> list[LayoutBlock]:
    """One-line blocks that go on from the one before (`_continues`) joined into one block.
    Some writers, transcripts among them, place every line as a block of its own; joined,
    a sentence wrapped over lines is one paragraph (`split_block_paragraphs`) instead of
    lines that stand alone ("of the Respondent."). A line that ends a clause ends the
    join, so a law printed one short paragraph per block keeps its paragraphs."""
    right = max((b.x1 for b in blocks if b.table_text is None), default=0.0)
    out: list[LayoutBlock] = []
    chain: list[LayoutBlock] = []

    def flush() -> None:
        if len(chain) > 1:
            rows = [b.rows[0] for b in chain]
            out.append(LayoutBlock(min(r.x0 for r in rows), min(r.y0 for r in rows),
                                   max(r.x1 for r in rows), max(r.y1 for r in rows), rows=rows))
        else:
            out.extend(chain)
        chain.clear()

    for block in blocks:
        one_line = block.table_text is None and len(block.rows) == 1
        if chain and one_line and _continues(chain[-1].rows[0], block.rows[0], right):
            chain.append(block)
            continue
        flush()
        (chain if one_line else out).append(block)
    flush()
    return out


CELL_ALIGN = 2.0  # points: a line starting this close to a cell's start is in its column
CELL_LINE_GAP = 0.5  # × the font size: a cell's next line is right below the row


def _continued_cell(row: TextLine, line: TextLine) -> int | None:
    """The cell of table `row` that `line`, placed right below it as a line of its own,
    goes on: the line starts where that cell starts, ends before the next cell starts,
    holds words, and is no row itself. The first cell is left out: a line there opens a
    row whose other cells are empty (a group's label). None when it goes on no cell."""
    if (len(row.cells) < 3 or line.cells or is_row(line.text)
            or not any(ch.isalpha() for ch in line.text)
            or not -row.size < line.y0 - row.y1 <= CELL_LINE_GAP * line.size):
        return None
    for index in range(1, len(row.cells)):
        end = row.cells[index + 1] if index + 1 < len(row.cells) else float("inf")
        if abs(line.x0 - row.cells[index]) <= CELL_ALIGN and line.x1 < end:
            return index
    return None


def join_cell_lines(blocks: Sequence[LayoutBlock]) -> list[LayoutBlock]:
    """A table cell's further lines joined to their cell. Some reports print each row, and
    each line of a row's long description, as blocks of their own: "DHAW20190001 | … |
    STAFF TRANSPORTATION | 920.68" over "AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON
    DC AND RETURN", which starts where "STAFF TRANSPORTATION" starts. Read apart, the
    line was a paragraph of its own and the row told whose airfare it was to no one; now
    the row is "… | STAFF TRANSPORTATION AIRFARE FOR E JOHNSON … | 920.68"
    (`_continued_cell`)."""
    out: list[LayoutBlock] = []
    for block in blocks:
        above = out[-1] if out else None
        if (above is not None and above.table_text is None and above.rows
                and block.table_text is None and len(block.rows) == 1):
            row, line = above.rows[-1], block.rows[0]
            cell = _continued_cell(row, line)
            if cell is not None:
                texts = row.text.split(CELL_SEPARATOR)
                texts[cell] = f"{texts[cell].rstrip()} {line.text.strip()}"
                joined = replace(row, text=CELL_SEPARATOR.join(texts), y1=max(row.y1, line.y1),
                                 chars=row.chars + line.chars,
                                 bold_chars=row.bold_chars + line.bold_chars,
                                 struck=row.struck + line.struck)
                out[-1] = LayoutBlock(above.x0, above.y0, max(above.x1, block.x1),
                                      max(above.y1, block.y1), rows=[*above.rows[:-1], joined])
                continue
        out.append(block)
    return out


def split_block_paragraphs(block: LayoutBlock) -> list[tuple[list[str], list[bool]]]:
    """Paragraphs of a text block: each as (row texts, row-reaches-right-margin flags).
    They take the block's non-blank rows in order (`paragraph_rows` pairs them back)."""
    rows = [row for row in block.rows if row.text.strip()]
    if not rows:
        return []
    size = max(1.0, sorted(row.size for row in rows)[len(rows) // 2])
    full = [_reaches_margin(row, rows[i + 1] if i + 1 < len(rows) else None, block, size)
            for i, row in enumerate(rows)]
    cells = [CELL_SEPARATOR in row.text for row in rows]
    for i in range(len(rows)):  # table rows stay one per line
        if cells[i] or (i + 1 < len(rows) and cells[i + 1]):
            full[i] = False
    gaps = sorted(max(0.0, b.y0 - a.y1) for a, b in zip(rows, rows[1:], strict=False))
    usual_gap = gaps[len(gaps) // 2] if gaps else 0.0  # the leading, which varies by document
    paragraphs: list[tuple[list[str], list[bool]]] = [([rows[0].text], [full[0]])]
    for i in range(1, len(rows)):
        previous, row = rows[i - 1], rows[i]
        gap = row.y0 - previous.y1 - usual_gap
        indented = row.x0 > block.x0 + 0.8 * size
        ends_sentence = bool(_SENTENCE_END.search(previous.text.rstrip()))
        if cells[i] and cells[i - 1]:
            new_paragraph = False
        else:
            new_paragraph = (
                gap > 0.8 * size
                or (indented and ends_sentence)
                or (not full[i - 1] and not starts_list_item(row.text)
                    and (indented or ends_sentence))
            )
        if new_paragraph:
            paragraphs.append(([row.text], [full[i]]))
        else:
            paragraphs[-1][0].append(row.text)
            paragraphs[-1][1].append(full[i])
    return paragraphs


def paragraph_rows(block: LayoutBlock,
                   paragraphs: Sequence[tuple[list[str], list[bool]]]) -> list[list[TextLine]]:
    """The rows behind each paragraph of `split_block_paragraphs(block)`."""
    rows = iter([row for row in block.rows if row.text.strip()])
    return [[next(rows) for _ in lines] for lines, _ in paragraphs]


@dataclass(frozen=True)
class Box:
    """What reading order needs of a block: its bounding box."""

    x0: float
    y0: float
    x1: float
    y1: float


def _coverage_segments(boxes: Sequence[Box]) -> list[tuple[float, float, float]]:
    """(x_start, x_end, summed height of boxes covering it) over the boxes' x-range."""
    events: list[tuple[float, float]] = []
    for box in boxes:
        height = box.y1 - box.y0
        events.append((box.x0, height))
        events.append((box.x1, -height))
    events.sort()
    segments: list[tuple[float, float, float]] = []
    level = 0.0
    for (x, delta), (next_x, _) in zip(events, events[1:], strict=False):
        level += delta
        if next_x > x:
            segments.append((x, next_x, level))
    return segments


def find_gutters(boxes: Sequence[Box], *, min_width: float = 4.0) -> list[tuple[float, float]]:
    """Vertical white stripes between text columns, as (x0, x1), left to right.

    Only blocks narrower than 55 % of the text width count (full-width titles and tables
    would hide the gutter), and of those the tall ones (column bodies) when there are two;
    a stripe counts as white when the blocks crossing it add up to less than 5 % of the
    busiest x-position, and each side must carry at least 12 % of the text.
    """
    if len(boxes) < 2:
        return []
    left, right = min(box.x0 for box in boxes), max(box.x1 for box in boxes)
    narrow = [box for box in boxes if box.x1 - box.x0 <= 0.55 * (right - left)]
    if len(narrow) < 2:
        return []
    # Column bodies are the tall blocks; one-line titles or page numbers may sit in a gutter.
    heights = sorted(box.y1 - box.y0 for box in narrow)
    tall = [box for box in narrow if box.y1 - box.y0 >= 1.8 * heights[(len(heights) - 1) // 2]]
    narrow = tall if len(tall) >= 2 else narrow
    segments = _coverage_segments(narrow)
    peak = max((level for _, _, level in segments), default=0.0)
    if peak <= 0:
        return []
    gutters: list[tuple[float, float]] = []
    start: float | None = None
    for x0, x1, level in segments:
        if level <= 0.05 * peak:
            start = x0 if start is None else start
            end = x1
            continue
        if start is not None and end - start >= min_width:
            gutters.append((start, end))
        start = None
    total = sum((box.x1 - box.x0) * (box.y1 - box.y0) for box in narrow)
    kept: list[tuple[float, float]] = []
    for g0, g1 in gutters:
        middle = (g0 + g1) / 2
        left_mass = sum(
            (b.x1 - b.x0) * (b.y1 - b.y0) for b in narrow if (b.x0 + b.x1) / 2 < middle
        )
        if 0.12 * total <= left_mass <= 0.88 * total:
            kept.append((g0, g1))
    return kept


def _white_bands(boxes: Sequence[Box], min_height: float) -> list[float]:
    """y-positions of horizontal white bands at least `min_height` tall across all boxes."""
    cuts: list[float] = []
    ordered = sorted(boxes, key=lambda box: box.y0)
    bottom = ordered[0].y1
    for box in ordered[1:]:
        if box.y0 - bottom >= min_height:
            cuts.append((box.y0 + bottom) / 2)
        bottom = max(bottom, box.y1)
    return cuts


def reading_order(boxes: Sequence[Box], *, min_band: float = 14.0) -> list[int]:
    """Indices of `boxes` in reading order (columns left to right within page sections)."""
    if len(boxes) < 2:
        return list(range(len(boxes)))
    gutters = find_gutters(boxes)
    if not gutters:
        return sorted(range(len(boxes)), key=lambda i: (boxes[i].y0, boxes[i].x0))
    centers = [(g0 + g1) / 2 for g0, g1 in gutters]

    def spans_gutter(box: Box) -> bool:  # crosses a gutter's middle, not just its edge
        return any(box.x0 < middle - 1.0 and box.x1 > middle + 1.0 for middle in centers)

    spanning = [i for i, box in enumerate(boxes) if spans_gutter(box)]
    # A white band must be clearly taller than the usual gap between blocks of a column, or
    # generously leaded text (one block per line, aligned across columns) is cut row by row.
    in_columns = sorted((bisect.bisect_right(centers, (b.x0 + b.x1) / 2), b.y0, b.y1)
                        for i, b in enumerate(boxes) if i not in set(spanning))
    column_gaps = sorted(b[1] - a[2] for a, b in zip(in_columns, in_columns[1:], strict=False)
                         if a[0] == b[0] and b[1] > a[2])
    usual_gap = column_gaps[len(column_gaps) // 2] if column_gaps else 0.0
    boundaries = sorted(
        [((boxes[i].y0 + boxes[i].y1) / 2, i) for i in spanning]
        + [(y, -1) for y in _white_bands(boxes, max(min_band, 2.5 * usual_gap))]
    )
    boundary_ys = [y for y, _ in boundaries]
    keys: dict[int, tuple[float, ...]] = {}
    for position, (_, index) in enumerate(boundaries):
        if index >= 0:
            keys[index] = (position, 1, 0, boxes[index].y0, boxes[index].x0)
    for i, box in enumerate(boxes):
        if i in keys:
            continue
        section = bisect.bisect_right(boundary_ys, (box.y0 + box.y1) / 2)
        column = bisect.bisect_right(centers, (box.x0 + box.x1) / 2)
        keys[i] = (section, 0, column, box.y0, box.x0)
    return sorted(range(len(boxes)), key=lambda i: keys[i])
