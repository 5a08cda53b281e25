"""OpenDocument text (ODT) and spreadsheets (ODS), read with the standard library.

Both are zip packages whose `content.xml` is streamed (`zipxml.stream_elements`: sizes,
element count, nesting depth, entity declarations and parse time bounded; each paragraph
or row is dropped from memory once read).

ODT: one page (like DOCX). `text:h` are headings (their outline level), paragraphs and
list items are paragraphs, tables are rows with cells separated by " | ", footnotes
follow their paragraph, tracked deletions and comments are left out. Text in a
struck-through automatic style is recorded as struck (`PageText.revoked`: shown, never
searched or quoted).
ODS: each sheet a page of row blocks (`sheets.sheet_page`), repeated rows and columns
expanded only where they hold text (files often declare a million empty rows).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree.ElementTree import Element

from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import Paragraph, assemble_page, normalize_text, table_to_text
from desktop_app.ingest.sheets import (
    MAX_COLUMNS,
    MAX_ROWS,
    Merge,
    SheetBudget,
    cell_text,
    fold_merged_header,
    sheet_page,
)
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.ingest.zipxml import (
    ElementBudget,
    attribute,
    local,
    member,
    open_package,
    parse_small,
    stream_elements,
    unreadable,
)

_SKIPPED = frozenset({"tracked-changes", "annotation", "note-citation", "sequence-decls",
                      "forms", "bookmark-ref", "soft-page-break", "change-start", "change-end",
                      "deletion"})
_SKIPPED_BLOCKS = frozenset({"tracked-changes", "annotation", "forms"})
_NO_LINE_THROUGH = ("", "none")


def _title(archive: zipfile.ZipFile, name: str, kind: str) -> str:
    meta = parse_small(archive, "meta.xml", name, kind)
    if meta is None:
        return ""
    found = next((e for e in meta.iter() if local(e.tag) == "title"), None)
    return " ".join((found.text or "").split()) if found is not None else ""


def _content(archive: zipfile.ZipFile, name: str, kind: str) -> zipfile.ZipInfo:
    info = member(archive, "content.xml")
    if info is None:
        raise unreadable(name, kind, "no content.xml")
    return info


class _Inline:
    """The text of a paragraph element, with its struck-through runs and its footnotes."""

    def __init__(self, struck_styles: set[str]) -> None:
        self.struck_styles = struck_styles
        self.parts: list[str] = []
        self.struck: list[str] = []
        self.notes: list[str] = []

    def text_of(self, element: Element) -> str:
        inner = _Inline(self.struck_styles)
        inner.walk(element, striking=True)  # already struck: no runs recorded inside
        self.notes += inner.notes
        return "".join(inner.parts)

    def walk(self, element: Element, striking: bool = False) -> None:
        tag = local(element.tag)
        if tag in _SKIPPED:
            return
        if tag == "note":
            body = next((c for c in element if local(c.tag) == "note-body"), None)
            if body is not None:
                self.notes.append(" ".join("".join(body.itertext()).split()))
            return
        if tag == "s":
            self.parts.append(" " * min(int(attribute(element, "c", "1") or 1), 100))
        elif tag == "tab":
            self.parts.append(" ")
        elif tag == "line-break":
            self.parts.append("\n")
        if not striking and attribute(element, "style-name") in self.struck_styles:
            self.struck.append(self.text_of(element))
            striking = True
        if element.text:
            self.parts.append(element.text)
        for child in element:
            self.walk(child, striking)
            if child.tail:
                self.parts.append(child.tail)


def _struck_style(element: Element) -> str | None:
    """The name of an automatic style that strikes its text through, else None."""
    for props in element:
        if local(props.tag) == "text-properties" and (
                attribute(props, "text-line-through-style") not in _NO_LINE_THROUGH
                or attribute(props, "text-line-through-type") not in _NO_LINE_THROUGH):
            return attribute(element, "name") or None
    return None


def _paragraph(element: Element, struck_styles: set[str]) -> list[Paragraph]:
    inline = _Inline(struck_styles)
    whole = attribute(element, "style-name") in struck_styles
    inline.walk(element, striking=whole)
    text = normalize_text("".join(inline.parts)).strip()
    level = None
    if local(element.tag) == "h":
        value = attribute(element, "outline-level", "1")
        level = max(1, min(int(value), 9)) if value.isdigit() else 1
    struck = tuple(normalize_text(s).strip() for s in ([text] if whole else inline.struck))
    out = [Paragraph(text, level, tuple(s for s in struck if s))] if text else []
    return out + [Paragraph(normalize_text(note)) for note in inline.notes if note.strip()]


def _cell(element: Element, struck_styles: set[str]) -> str:
    """A table cell's paragraphs (and whatever a nested table holds) as lines."""
    lines = []
    for child in element:
        inline = _Inline(struck_styles)
        inline.walk(child)
        lines.append(" ".join("".join(inline.parts).split()))
    return "\n".join(line for line in lines if line)


def _repeat(element: Element, attribute_name: str, cap: int) -> int:
    value = attribute(element, attribute_name, "1")
    return max(1, min(int(value), cap)) if value.isdigit() else 1


def _merged(element: Element, column: int, row: int) -> Merge | None:
    """The range a cell at 0-based (`column`, `row`) covers when it spans others."""
    across = _repeat(element, "number-columns-spanned", MAX_COLUMNS)
    down = _repeat(element, "number-rows-spanned", 1_000)
    if (across == 1 and down == 1) or column >= MAX_COLUMNS:
        return None
    return Merge(column + 1, row + 1, column + across, row + down)


def load_odt(path: Path) -> LoadedDocument:
    """An .odt file as one page of text with headings, lists, tables and footnotes."""
    name, kind = path.name, "OpenDocument text"
    deadline = limits.Deadline(name)
    paragraphs: list[Paragraph] = []
    struck_styles: set[str] = set()
    with open_package(path, kind) as archive:
        title = _title(archive, name, kind)
        in_body = False
        paragraph_depth = table_depth = skipping = 0
        row: list[str] = []
        rows: list[list[str]] = []
        merges: list[Merge] = []
        for event, element, _depth in stream_elements(archive, _content(archive, name, kind),
                                                      name=name, kind=kind, deadline=deadline):
            tag = local(element.tag)
            if tag in _SKIPPED_BLOCKS:  # tracked deletions, comments: not the text
                skipping += 1 if event == "start" else -1
                element.clear()
                continue
            if skipping:
                continue
            if event == "start":
                if tag == "body":
                    in_body = True
                elif tag in ("p", "h"):
                    paragraph_depth += 1
                elif tag == "table":
                    table_depth += 1
                continue
            if not in_body:
                found = _struck_style(element) if tag == "style" else None
                if found:
                    struck_styles.add(found)
            elif tag in ("p", "h"):
                paragraph_depth -= 1
                if paragraph_depth == 0 and table_depth == 0:
                    paragraphs += _paragraph(element, struck_styles)
                    element.clear()
            elif paragraph_depth:
                if tag == "table":  # in a text box inside a paragraph: read with it
                    table_depth -= 1
            elif tag in ("table-cell", "covered-table-cell") and table_depth == 1:
                text = _cell(element, struck_styles)
                merge = _merged(element, len(row), len(rows))
                if merge:
                    merges.append(merge)
                row += [text] * _repeat(element, "number-columns-repeated",
                                        MAX_COLUMNS - len(row) if text else 1)
                element.clear()
            elif tag == "table-row" and table_depth == 1:
                rows.append(list(row))
                row = []
                element.clear()
            elif tag == "table":
                table_depth -= 1
                if table_depth == 0:
                    paragraphs.append(Paragraph(table_to_text(fold_merged_header(rows, merges))))
                    rows, merges = [], []
                    element.clear()
    notes = [] if any(p.text for p in paragraphs) else ["no text found"]
    if not title:
        first = next((p.text for p in paragraphs if p.heading_level == 1), "")
        title = first if paragraphs and first == paragraphs[0].text else ""
    return LoadedDocument(path=str(path), file_type="odt", title=title or path.stem,
                          pages=[assemble_page(1, paragraphs)], notes=notes)


def _cell_value(element: Element) -> str:
    texts = ["".join(child.itertext()) for child in element if local(child.tag) == "p"]
    return cell_text(" ".join(" ".join(t.split()) for t in texts if t.strip()))


def load_ods(path: Path) -> LoadedDocument:
    """An .ods file: each sheet a page of row blocks that repeat its header."""
    name, kind = path.name, "spreadsheet"
    deadline = limits.Deadline(name)
    budget = SheetBudget(name, deadline)
    pages: list[PageText] = []
    with open_package(path, kind) as archive:
        title = _title(archive, name, kind)
        sheet = ""
        row_number = 0
        rows: list[tuple[int, list[str]]] = []
        merges: list[Merge] = []
        cells: list[str] = []
        elements = ElementBudget(name)
        for event, element, _depth in stream_elements(archive, _content(archive, name, kind),
                                                      name=name, kind=kind, deadline=deadline,
                                                      budget=elements):
            tag = local(element.tag)
            if event == "start":
                if tag == "table":
                    sheet, row_number, rows, merges = attribute(element, "name"), 0, [], []
                continue
            if tag in ("table-cell", "covered-table-cell"):
                value = _cell_value(element)
                room = MAX_COLUMNS - len(cells)
                merge = _merged(element, len(cells), row_number)
                if merge:  # a merged cell: a header's label, maybe
                    merges.append(merge)
                if room > 0:
                    cells += [value] * _repeat(element, "number-columns-repeated",
                                               room if value else min(room, 1_000))
                element.clear()
            elif tag == "table-row":
                repeat = _repeat(element, "number-rows-repeated", 1 << 20)
                if any(cells) and budget.rows + len(rows) <= MAX_ROWS:
                    for k in range(min(repeat, MAX_ROWS + 1 - budget.rows - len(rows))):
                        rows.append((row_number + 1 + k, list(cells)))
                row_number += repeat
                cells = []
                element.clear()
            elif tag == "table" and sheet is not None:
                pages.append(sheet_page(len(pages) + 1, sheet or f"Sheet {len(pages) + 1}",
                                        rows, budget, merges))
                rows = []
                element.clear()
    notes = budget.notes()
    if not any(page.text for page in pages):
        notes.append("no text found")
    return LoadedDocument(path=str(path), file_type="ods", title=title or path.stem,
                          pages=pages, notes=notes)
