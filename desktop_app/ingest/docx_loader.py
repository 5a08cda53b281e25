"""DOCX loading with python-docx: body paragraphs and tables in document order, one page.

DOCX has no pages, so the whole body is page 1. Paragraphs with a heading style ("Heading
2", localized "Título 2") or an explicit outline level become headings; tables become rows
with cells separated by " | " (a merged cell appears once). Page headers/footers live in
separate parts and are not read, so they never repeat into the text. Struck-through runs
(`w:strike`, `w:dstrike`: the revoked wording of a compiled law) are recorded as such.
Word's automatic numbering is not in a paragraph's text: each numbered paragraph (its own
`w:numPr`, or its style's) gets the label Word shows ("1.", "a)", "IV.", "2.1.", "•"),
rendered from the numbering part's level formats and counted per list, so a list keeps
its items' labels (an answer quotes it as a list; a report's sections keep their numbers).

Before python-docx builds any tree, the zip directory and a streaming scan of the main
part are checked against `limits` (unpacked size, XML size, element count); the walk has
a time budget. Style names are looked up once per style id: python-docx resolves a
paragraph's style with a linear search of the styles part on every call, which made a
20,000-paragraph document take 70 s.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    fold_header,
    list_number,
    normalize_text,
    table_to_text,
    whole_number,
)
from desktop_app.ingest.types import LoadedDocument

_HEADING_STYLE = re.compile(r"^(?:heading|t[íi]tulo|titre|überschrift|encabezado)\s*(\d)$",
                            re.IGNORECASE)
_TITLE_STYLE = re.compile(r"^(?:title|t[íi]tulo)$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _style_names(document: Any) -> dict[str | None, str]:
    """Paragraph style id → name, once per document (None: the default paragraph style)."""
    from docx.enum.style import WD_STYLE_TYPE

    names: dict[str | None, str] = {}
    for style in document.styles:
        if style.type == WD_STYLE_TYPE.PARAGRAPH and style.style_id:
            names[style.style_id] = style.name or ""
    default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
    names[None] = (default.name or "") if default is not None else ""
    return names


def _style_elements(document: Any) -> dict[str | None, Any]:
    """Paragraph style id → its `w:style` element (their numbering, looked up once)."""
    from docx.enum.style import WD_STYLE_TYPE

    return {style.style_id: style.element for style in document.styles
            if style.type == WD_STYLE_TYPE.PARAGRAPH and style.style_id}


def _heading_level(p_element: Any, style_names: dict[str | None, str]) -> int | None:
    style_id = p_element.style  # the w:pStyle value, or None
    style_name = style_names.get(style_id, style_names.get(None, "")).strip()
    match = _HEADING_STYLE.match(style_name)
    if match:
        return max(1, int(match.group(1)))
    if _TITLE_STYLE.match(style_name):
        return 1
    outline = p_element.find(f"{_W}pPr/{_W}outlineLvl")
    if outline is not None:
        value = outline.get(f"{_W}val")
        if value is not None and value.isdigit() and int(value) < 9:
            return int(value) + 1
    return None


MAX_LEVELS = 9


class _Numbering:
    """The labels of Word's automatic numbering (module docstring): per list (`w:num`), a
    counter per level; a paragraph at level L counts up at L and restarts the deeper ones."""

    def __init__(self, document: Any, style_ids: dict[str | None, Any]) -> None:
        self.formats: dict[str, dict[int, tuple[str, str, int]]] = {}  # numId → level → fmt
        self.counters: dict[str, list[int | None]] = {}
        self.style_numbering: dict[str, tuple[str, int]] = {}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError, ValueError):
            root = None
        if root is None:
            return
        abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        for node in root.findall(f"{_W}abstractNum"):
            abstract[node.get(f"{_W}abstractNumId", "")] = self._levels(node)
        for num in root.findall(f"{_W}num"):
            ref = num.find(f"{_W}abstractNumId")
            levels = dict(abstract.get(ref.get(f"{_W}val", "") if ref is not None else "", {}))
            for override in num.findall(f"{_W}lvlOverride"):
                level = whole_number(override.get(f"{_W}ilvl"))
                start = override.find(f"{_W}startOverride")
                if level is not None and start is not None and level in levels:
                    fmt, text, _ = levels[level]
                    levels[level] = (fmt, text, whole_number(start.get(f"{_W}val")) or 1)
                if level is not None and (lvl := override.find(f"{_W}lvl")) is not None:
                    levels.update(self._levels(override, lvl))
            self.formats[num.get(f"{_W}numId", "")] = levels
        for style_id, style in style_ids.items():
            found = _num_pr(style)
            if style_id is not None and found is not None:
                self.style_numbering[style_id] = found

    @staticmethod
    def _levels(node: Any, *only: Any) -> dict[int, tuple[str, str, int]]:
        levels = {}
        for lvl in only or node.findall(f"{_W}lvl"):
            level = whole_number(lvl.get(f"{_W}ilvl"))
            if level is None or level >= MAX_LEVELS:
                continue
            fmt = lvl.find(f"{_W}numFmt")
            text = lvl.find(f"{_W}lvlText")
            start = lvl.find(f"{_W}start")
            levels[level] = (fmt.get(f"{_W}val", "decimal") if fmt is not None else "decimal",
                             text.get(f"{_W}val", "") if text is not None else "",
                             (whole_number(start.get(f"{_W}val")) or 0) if start is not None else 1)
        return levels

    def label(self, p_element: Any) -> str:
        """The label Word shows before this paragraph ("" when it is not numbered)."""
        found = _num_pr(p_element)
        if found is None and p_element.style in self.style_numbering:
            found = self.style_numbering[p_element.style]
        if found is None:
            return ""
        num_id, level = found
        levels = self.formats.get(num_id)
        if not levels or level not in levels:
            return ""
        counters = self.counters.setdefault(num_id, [None] * MAX_LEVELS)
        fmt, text, start = levels[level]
        current = counters[level]
        counters[level] = start if current is None else current + 1
        for deeper in range(level + 1, MAX_LEVELS):
            counters[deeper] = None
        if fmt == "none":
            return ""
        if fmt == "bullet":
            return "•"

        def value(match: re.Match[str]) -> str:
            at = int(match.group(1)) - 1
            if not 0 <= at < MAX_LEVELS:
                return ""
            own_fmt, _, own_start = levels.get(at, (fmt, "", 1))
            count = counters[at]
            return list_number(own_start if count is None else count, own_fmt)

        return re.sub(r"%(\d)", value, text).strip()


def _num_pr(element: Any) -> tuple[str, int] | None:
    """(numId, level) of a paragraph's or a style's own numbering; None without (numId 0
    switches a style's numbering off)."""
    props = element.find(f"{_W}pPr")
    num_pr = props.find(f"{_W}numPr") if props is not None else None
    if num_pr is None:
        return None
    num = num_pr.find(f"{_W}numId")
    level = num_pr.find(f"{_W}ilvl")
    num_id = num.get(f"{_W}val", "0") if num is not None else "0"
    if num_id == "0":
        return None
    return num_id, (whole_number(level.get(f"{_W}val")) or 0) if level is not None else 0


def _on(element: Any) -> bool:
    """A w:strike / w:dstrike toggle is on unless its w:val says false."""
    return element is not None and element.get(f"{_W}val", "true").lower() not in (
        "false", "0", "off", "none")


def _struck_runs(p_element: Any, paragraph: Any) -> tuple[str, ...]:
    """The paragraph's struck-through text (a compiled law's revoked wording), as runs of
    consecutive struck `w:r` elements, in order."""
    from docx.text.run import Run

    runs: list[str] = []
    current: list[str] = []
    for r in p_element.iter(f"{_W}r"):
        props = r.find(f"{_W}rPr")
        struck = props is not None and (_on(props.find(f"{_W}strike"))
                                        or _on(props.find(f"{_W}dstrike")))
        text = Run(r, paragraph).text
        if struck:
            current.append(text)
        elif text.strip() and current:
            runs.append("".join(current))
            current = []
    if current:
        runs.append("".join(current))
    return tuple(normalize_text(run).strip() for run in runs if run.strip())


def _table_rows(table: Any) -> list[list[str | None]]:
    """A table's rows, a merged cell once; a header over several rows (its first cell
    merged down across them, a group merged across its columns) folded into one row, each
    column named by what is above it ("Custo (R$) Previsto")."""
    rows: list[list[str | None]] = []
    grid = [list(row.cells) for row in table.rows]  # a merged cell in each column it covers
    depth = 1
    while (depth < len(grid) and grid[0] and grid[depth]
           and grid[depth][0]._tc is grid[0][0]._tc):
        depth += 1
    grouped = bool(grid) and any(
        a._tc is b._tc for a, b in zip(grid[0], grid[0][1:], strict=False))
    if 2 <= depth < len(grid) and grouped:
        rows.append(list(fold_header([[cell.text for cell in row] for row in grid[:depth]])))
    else:
        depth = 0
    for row in table.rows[depth:]:
        cells: list[str | None] = []
        previous = None
        for cell in row.cells:
            if previous is not None and cell._tc is previous:
                continue  # python-docx repeats a horizontally merged cell per grid column
            previous = cell._tc
            cells.append(cell.text)
        rows.append(cells)
    return rows


def _body_paragraphs(document: Any, deadline: limits.Deadline | None = None) -> list[Paragraph]:
    from docx.table import Table
    from docx.text.paragraph import Paragraph as DocxParagraph

    paragraphs: list[Paragraph] = []
    style_names = _style_names(document)
    numbering = _Numbering(document, _style_elements(document))

    def visit(element: Any) -> None:
        for child in element.iterchildren():
            if deadline is not None:
                deadline.check()
            if child.tag == f"{_W}p":
                paragraph = DocxParagraph(child, document)
                text = normalize_text(paragraph.text).strip()
                label = numbering.label(child)
                if text:
                    text = f"{label} {text}" if label else text
                    paragraphs.append(Paragraph(text, _heading_level(child, style_names),
                                                _struck_runs(child, paragraph)))
            elif child.tag == f"{_W}tbl":
                paragraphs.append(Paragraph(table_to_text(_table_rows(Table(child, document)))))
            elif child.tag in (f"{_W}sdt", f"{_W}sdtContent", f"{_W}customXml"):
                visit(child)  # content controls wrap ordinary paragraphs and tables

    visit(document.element.body)
    return paragraphs


def _stream(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[bytes]:
    with archive.open(info) as fh:
        while block := fh.read(1 << 20):
            yield block


def check_docx_limits(path: Path) -> None:
    """Refuse a DOCX whose parts unpack beyond the limits, before anything is parsed.

    Sizes come from the zip directory (zipfile never inflates past a member's declared
    size: a lying header fails its CRC check instead); elements of the main document are
    counted, and their nesting measured, by streaming scans."""
    name = path.name
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            unpacked = sum(m.file_size for m in members)
            if unpacked > limits.MAX_UNPACKED_BYTES:
                raise limits.too_big(name, "unpacks to", unpacked, limits.MAX_UNPACKED_BYTES)
            xml = sum(m.file_size for m in members if m.filename.endswith((".xml", ".rels")))
            if xml > limits.MAX_XML_BYTES:
                raise limits.too_big(name, "holds XML text of", xml, limits.MAX_XML_BYTES)
            main = next((m for m in members if m.filename == "word/document.xml"), None)
            if main is not None:
                elements = limits.count_elements(_stream(archive, main), limits.MAX_XML_ELEMENTS)
                if elements > limits.MAX_XML_ELEMENTS:
                    raise limits.too_many(name, "XML elements", elements,
                                          limits.MAX_XML_ELEMENTS)
                if limits.xml_depth(_stream(archive, main), limits.MAX_XML_DEPTH) \
                        > limits.MAX_XML_DEPTH:
                    raise limits.too_deep(name, "XML elements", limits.MAX_XML_DEPTH)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as error:
        raise UnreadableDocumentError(
            f"“{name}” is not a readable Word document (damaged, an old .doc, or "
            "password-protected).", detail=str(error)) from error


def load_docx(path: Path) -> LoadedDocument:
    """Load a .docx file as one page of text with headings and table rows."""
    import docx

    check_docx_limits(path)
    deadline = limits.Deadline(path.name)
    try:
        document = docx.Document(str(path))
    except Exception as error:  # PackageNotFoundError, BadZipFile, KeyError, XML errors
        raise UnreadableDocumentError(
            f"“{path.name}” is not a readable Word document (damaged, an old .doc, or "
            "password-protected).",
            detail=str(error),
        ) from error
    paragraphs = _body_paragraphs(document, deadline)
    title = (document.core_properties.title or "").strip()
    if not title:
        first_heading = next((p.text for p in paragraphs if p.heading_level == 1), "")
        title = first_heading if first_heading and first_heading == paragraphs[0].text else ""
    notes = [] if any(p.text for p in paragraphs) else ["no text found"]
    return LoadedDocument(
        path=str(path), file_type="docx", title=title or path.stem,
        pages=[assemble_page(1, paragraphs)], notes=notes)
