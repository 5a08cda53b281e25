"""Text cleaning shared by all loaders: pure functions on strings, no I/O.

- `normalize_line`: Unicode NFC, ligatures expanded, odd spaces and control characters removed.
- `repeated_edge_lines`: running headers/footers — lines among the first/last few of a page
  that recur (after digits are normalized, so "3/26" matches "4/26") on a large share of pages.
- `unwrap_lines`: joins hard-wrapped lines of one paragraph, de-hyphenates "infor-\\nmação",
  keeps list items and short lines on their own line.
- `table_to_text`: table rows as lines with cells separated by " | ".
- `assemble_page`: paragraphs → `PageText` with heading offsets and the offsets of
  struck-through (revoked) text, found back in the cleaned paragraph (`locate_runs`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from desktop_app.ingest.types import Heading, PageText
from desktop_app.text.structure import opens_article
from desktop_app.text.tables import CELL_SEPARATOR, is_figure

__all__ = ["CELL_SEPARATOR"]  # (the loaders write tables with it; text/tables.py owns it)
PARAGRAPH_SEPARATOR = "\n\n"

_LIGATURES = {
    "\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
    "\ufb05": "st", "\ufb06": "st",
}
# Zero-width characters and the soft hyphen inside a line carry no text.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_ODD_SPACES = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\t]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_MULTI_SPACE = re.compile(r" {2,}")
_DIGITS = re.compile(r"\d+")
_HYPHENS = "-\u2010\u2011"
# A line that starts a list item keeps its own line when paragraphs are unwrapped.
_LIST_MARKER = re.compile(
    r"^(?:[•·▪●◦‣∙*\-–—]\s|\(?\d{1,3}[.)]\s|\(?[a-z]\)\s|[IVXLC]{1,6}\s*[-–.)]\s|§)"
)
# Portuguese enclitic pronouns that keep their hyphen at a line break ("aplica-\nse") when
# the document's own vocabulary cannot decide. Short syllables such as "te", "la", "no" are
# left out on purpose: "par-\nte", "esco-\nla", "pla-\nno" are far more common.
_CLITICS = frozenset({"se", "lhe", "lhes"})
_WORD = re.compile(r"[\w\-\u2010\u2011]+")
_LEADER_DOTS = re.compile(r"\s*(?:\.\s?){4,}\s*")


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of a page before assembly; `heading_level` is set for headings."""

    text: str
    heading_level: int | None = None
    struck: tuple[str, ...] = ()  # raw struck-through runs (revoked wording), in order


def normalize_line(text: str) -> str:
    """One line of text: NFC, ligatures expanded, odd spaces and stray line breaks → " ",
    control characters dropped, runs of spaces collapsed, trimmed."""
    text = unicodedata.normalize("NFC", text)
    for ligature, letters in _LIGATURES.items():
        if ligature in text:
            text = text.replace(ligature, letters)
    text = _ODD_SPACES.sub(" ", text.translate(_INVISIBLE))
    if "...." in text or ". . . ." in text:  # table-of-contents leader dots
        text = _LEADER_DOTS.sub(" ", text)
    text = _CONTROL.sub("", text.replace("\r", " ").replace("\n", " "))
    return _MULTI_SPACE.sub(" ", text).strip()


def normalize_text(text: str) -> str:
    """Normalize every line of a multi-line text, keeping the line structure."""
    return "\n".join(normalize_line(line) for line in text.replace("\r\n", "\n").split("\n"))


def edge_line_key(line: str) -> str:
    """The comparison key of a header/footer candidate: digits → '#', case and spaces folded."""
    return _MULTI_SPACE.sub(" ", _DIGITS.sub("#", normalize_line(line).casefold()))


def _numbers_run_with_pages(a: tuple[int, ...], b: tuple[int, ...], page_gap: int) -> bool:
    """Each number is the same on both pages (a date, a law number) or moves with the page
    (a page number): how running lines differ, unlike totals that happen to share a layout.
    Long printer's slugs (≥ 4 numbers) may have a quarter of their numbers differ."""
    odd = sum(1 for x, y in zip(a, b, strict=True) if x != y and y - x != page_gap)
    return odd == 0 or (len(a) >= 4 and odd <= len(a) // 4)


def repeated_edge_lines(
    pages: Sequence[Sequence[str]], *, edge: int = 3, min_share: float = 0.25
) -> list[set[int]]:
    """Indices, per page, of lines that are running headers or footers.

    A candidate is one of the first or last `edge` non-blank lines of a page. Its key
    (`edge_line_key`, digits folded) must occur as a candidate on at least `min_share` of
    the pages (and on at least 3 pages; 2 when the document has exactly 2 pages), and its
    numbers must be page-like compared with the nearest other page carrying it: equal, or
    differing by exactly the page distance ("3/26" → "4/26"). Documents of one page have no
    running headers.
    """
    page_count = len(pages)
    if page_count < 2:
        return [set() for _ in pages]
    needed = 2 if page_count == 2 else max(3, math.ceil(min_share * page_count))
    occurrences: dict[str, list[tuple[int, int, tuple[int, ...]]]] = {}
    for page_index, lines in enumerate(pages):
        nonblank = [i for i, line in enumerate(lines) if line.strip()]
        chosen = sorted(set(nonblank[:edge] + nonblank[-edge:])) if edge else []
        for i in chosen:
            numbers = tuple(int(digits) for digits in _DIGITS.findall(lines[i]))
            occurrences.setdefault(edge_line_key(lines[i]), []).append((page_index, i, numbers))
    result: list[set[int]] = [set() for _ in pages]
    for places in occurrences.values():
        if len({page for page, _, _ in places}) < needed:
            continue
        for k, (page, index, numbers) in enumerate(places):
            neighbours = [places[j] for j in (k - 1, k + 1) if 0 <= j < len(places)]
            if any(other_page != page
                   and _numbers_run_with_pages(numbers, other_numbers, other_page - page)
                   for other_page, _, other_numbers in neighbours):
                result[page].add(index)
    return result


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def whole_number(value: object) -> int | None:
    """A markup attribute's whole number ("3", " -1 "), None when it is not one."""
    text = str(value).strip() if value is not None else ""
    return int(text) if text.lstrip("-").isdigit() else None


def list_number(number: int, style: str = "decimal") -> str:
    """A list item's number as its list writes it: "decimal" (7), "lowerLetter" (g; 27 is
    aa), "upperLetter", "lowerRoman" (vii), "upperRoman" (VII), "decimalZero" (07) — the
    names of Word's numbering formats, which the DOCX and HTML loaders share."""
    if number <= 0:
        return str(number)
    if style in ("lowerLetter", "upperLetter"):
        text = chr(ord("a") + (number - 1) % 26) * ((number - 1) // 26 + 1)
        return text.upper() if style == "upperLetter" else text
    if style in ("lowerRoman", "upperRoman"):
        out, rest = [], number
        for value, letters in _ROMAN:
            while rest >= value:
                out.append(letters)
                rest -= value
        return "".join(out).upper() if style == "upperRoman" else "".join(out)
    if style == "decimalZero":
        return f"{number:02d}"
    return str(number)  # decimal and the rest (ordinal words, other scripts): the digits


def starts_list_item(line: str) -> bool:
    """True when a line opens a bullet/numbered item (it keeps its own line)."""
    return bool(_LIST_MARKER.match(line))


def document_vocabulary(texts: Iterable[str]) -> set[str]:
    """Lower-cased words (hyphenated ones kept whole) used to decide line-end hyphens."""
    words: set[str] = set()
    for text in texts:
        words.update(word.casefold() for word in _WORD.findall(text))
    return words


def _joined_at_break(left: str, right: str, vocabulary: Collection[str] | None) -> str | None:
    """`left + right` joined at a line-end hyphen/dash/slash, or None for an ordinary break.

    "infor-" + "mação" → "informação"; "2018–" + "23–51" → "2018–23–51" (dash kept between
    digits/capitals); "https://" + "www…" → no space. A hyphen stays when the document's
    vocabulary knows the hyphenated word, or (without a verdict) before "se"/"lhe".
    """
    if len(left) < 2 or not right:
        return None
    last, before = left[-1], left[-2]
    if last == "/" and "://" in left.rsplit(" ", 1)[-1]:
        return left + right
    if last not in _HYPHENS and last != "\u2013":
        return None
    if (before.isdigit() or before.isupper()) and (right[0].isdigit() or right[0].isupper()):
        return left + right
    if last == "\u2013" or not before.isalpha() or not right[0].islower():
        return None
    head = re.search(r"[\w\-\u2010\u2011]+$", left[:-1])
    tail = re.match(r"\w+", right)
    if head and tail and vocabulary:
        hyphenated = f"{head.group(0)}-{tail.group(0)}".casefold()
        solid = f"{head.group(0)}{tail.group(0)}".casefold()
        if solid in vocabulary:
            return left[:-1] + right
        if hyphenated in vocabulary:
            return left + right
    if tail and tail.group(0).casefold() in _CLITICS:
        return left + right
    return left[:-1] + right


def unwrap_lines(
    lines: Sequence[str],
    full: Sequence[bool] | None = None,
    vocabulary: Collection[str] | None = None,
) -> str:
    """Join the hard-wrapped lines of one paragraph.

    `full[i]` says line i reaches the right margin (so the next line continues it). Without
    geometry, a line counts as full when it is at least 70% as long as the paragraph's
    longest line (and that one has ≥ 40 characters). Line-end hyphens are resolved by
    `_joined_at_break` (with the document's `vocabulary` when given); a line that is not
    full, a next line that starts a list item, and an article after a sentence's end
    (`structure.opens_article`) keep their line break.
    """
    flags = list(full) if full is not None else [False] * len(lines)
    kept = [(normalize_line(line), line.rstrip().endswith("\u00ad"), flag)
            for line, flag in zip(lines, flags, strict=True)]
    kept = [item for item in kept if item[0]]
    if not kept:
        return ""
    cleaned = [line for line, _, _ in kept]
    if full is None:
        longest = max(len(line) for line in cleaned)
        full_flags = [longest >= 40 and len(line) >= 0.7 * longest for line in cleaned]
    else:
        full_flags = [flag for _, _, flag in kept]
    text = cleaned[0]
    for i in range(1, len(cleaned)):
        line = cleaned[i]
        previous_full = full_flags[i - 1]
        joined = _joined_at_break(text, line, vocabulary)
        if kept[i - 1][1]:  # a soft hyphen marks a word the typesetter broke
            text += line
        elif joined is not None and not starts_list_item(line):
            text = joined
        elif previous_full and not starts_list_item(line) and not (
                opens_article(line) and text.rstrip().endswith((".", ";", ":", ")"))):
            # (an article after a sentence's end starts its own line, however full the
            # line above: "… pela autoridade competente." then "Art. 37. A administração")
            text = f"{text} {line}"
        else:
            text = f"{text}\n{line}"
    return text


def split_paragraphs(text: str) -> list[list[str]]:
    """Blank-line separated paragraphs of a plain text, each as its list of lines."""
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for raw in text.split("\n"):
        if raw.strip():
            current.append(raw)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs


def clean_cell(cell: str | None) -> str:
    """A table cell on one line: wrapped lines joined, leader dots and odd spaces removed."""
    if not cell:
        return ""
    text = unwrap_lines(cell.split("\n"), [True] * len(cell.split("\n")))
    return normalize_line(_LEADER_DOTS.sub(" ", text.replace("\n", " ")))


def split_stacked_rows(row: Sequence[str | None]) -> list[list[str | None]]:
    """Split a row whose cells hold several stacked values ("Alabama\\nAlaska", "18,870\\n209").

    Tables ruled every few rows come out of PDF table finders with several data rows per
    cell. When at least two cells hold the same number (≥ 2) of short lines and the other
    cells are empty, the row is split into that many rows. A cell of one line beside them
    is a label printed once for all of them ("4" encoder layers beside "OTSL\\nHTML" and
    "1.22\\n2"): it stands in each row — when two or more of the stacked cells hold only
    figures, so that lines wrapped in a cell of words are never taken for rows.
    """
    filled = [cell.strip().split("\n") for cell in row if cell and cell.strip()]
    stacked = [lines for lines in filled if len(lines) > 1]
    if len(stacked) < 2 or len({len(lines) for lines in stacked}) != 1:
        return [list(row)]
    count = len(stacked[0])
    longest = max(len(line) for lines in filled for line in lines)
    if longest > 30:
        return [list(row)]
    if len(stacked) < len(filled) and sum(
            1 for lines in stacked if all(is_figure(line) for line in lines)) < 2:
        return [list(row)]
    split_cells = [cell.strip().split("\n") if cell and cell.strip() else None for cell in row]
    return [
        [(cells[k] if len(cells) > 1 else cells[0]) if cells is not None
         else (None if row[j] is None else "")
         for j, cells in enumerate(split_cells)]
        for k in range(count)
    ]


def fold_header(rows: Sequence[Sequence[str]]) -> list[str]:
    """A header printed over several rows (each row with a merged cell's text in every
    column it covers) as one row: each column labelled by what is printed above it, top
    to bottom, a text repeated down a column once ("REGION / STATE", "AREA (In thousand
    ha) 11/12 Crop (a)"; a spreadsheet's "Área plantada (Hectares) 2022")."""
    labels: list[str] = []
    for j in range(max((len(row) for row in rows), default=0)):
        parts: list[str] = []
        for row in rows:
            text = clean_cell(row[j]) if j < len(row) else ""
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        labels.append(" ".join(parts))
    return labels


def table_to_text(rows: Sequence[Sequence[str | None]]) -> str:
    """Table rows as text: one row per line, cells in order separated by " | ".

    `None` cells (covered by a merged neighbour) are dropped, and so are empty cells at either
    end of a row; rows with no text are skipped.
    """
    lines: list[str] = []
    for raw_row in rows:
        for row in split_stacked_rows(raw_row):
            cells = [clean_cell(cell) for cell in row if cell is not None]
            if any(cells):
                while not cells[-1]:
                    cells.pop()
                while not cells[0]:
                    cells.pop(0)
                lines.append(CELL_SEPARATOR.join(cells))
    return "\n".join(lines)


def _run_pattern(run: str) -> re.Pattern[str] | None:
    """A raw run as it may read after cleaning: words in order, any spaces between them, a
    word broken at a line-end hyphen possibly joined to its end."""
    words = normalize_line(run).split()
    if not words:
        return None
    parts = [re.escape(w[:-1]) + r"\S*" if w[-1] in _HYPHENS and len(w) > 1 else re.escape(w)
             for w in words]
    return re.compile(r"\s+".join(parts))


def locate_runs(text: str, runs: Sequence[str]) -> list[tuple[int, int]]:
    """Where the struck-through `runs` are in the cleaned `text`, in order, widened to whole
    words and merged when only spaces or punctuation lie between them. A run that cannot be
    found is left out (its words stay ordinary text)."""
    found: list[tuple[int, int]] = []
    position = 0
    for run in runs:
        pattern = _run_pattern(run)
        match = pattern.search(text, position) if pattern is not None else None
        if match is None:
            continue
        start, end = match.start(), match.end()
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        if found and (start < found[-1][1] or not re.search(r"\w", text[found[-1][1]:start])):
            found[-1] = (found[-1][0], max(end, found[-1][1]))
        else:
            found.append((start, end))
        # the next run may be the rest of a word broken at a line-end hyphen
        position = max(match.start(), text.rfind(" ", 0, match.end()) + 1,
                       text.rfind("\n", 0, match.end()) + 1)
    return found


def assemble_page(number: int, paragraphs: Sequence[Paragraph]) -> PageText:
    """Join paragraphs with blank lines; record where each heading starts and where the
    struck-through text is."""
    parts: list[str] = []
    headings: list[Heading] = []
    revoked: list[tuple[int, int]] = []
    offset = 0
    for paragraph in paragraphs:
        text = paragraph.text.strip()
        if not text:
            continue
        if parts:
            offset += len(PARAGRAPH_SEPARATOR)
        if paragraph.heading_level is not None:
            title = " ".join(text.split())
            headings.append(Heading(start=offset, level=paragraph.heading_level, title=title))
        revoked += [(offset + a, offset + b) for a, b in locate_runs(text, paragraph.struck)]
        parts.append(text)
        offset += len(text)
    return PageText(number=number, text=PARAGRAPH_SEPARATOR.join(parts), headings=headings,
                    revoked=revoked)


def compact_ranges(numbers: Sequence[int]) -> str:
    """[3, 4, 5, 9] → "3–5, 9" (en dash), for status notes."""
    runs: list[list[int]] = []
    for value in sorted(set(numbers)):
        if runs and value == runs[-1][1] + 1:
            runs[-1][1] = value
        else:
            runs.append([value, value])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def pages_note(prefix: str, numbers: Sequence[int]) -> str:
    """"no text layer on pages 3–9" / "… on page 4"."""
    word = "page" if len(set(numbers)) == 1 else "pages"
    return f"{prefix} {word} {compact_ranges(numbers)}"
