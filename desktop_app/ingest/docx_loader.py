"""DOCX loading with python-docx: body paragraphs and tables in document order, one page.

DOCX has no pages, so the whole body is page 1. Paragraphs with a heading style ("Heading
2", localized "Título 2") or an explicit outline level become headings; tables become rows
with cells separated by " | " (a merged cell appears once). Page headers/footers live in
separate parts and are not read, so they never repeat into the text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest.cleaning import Paragraph, assemble_page, normalize_text, table_to_text
from desktop_app.ingest.types import LoadedDocument

_HEADING_STYLE = re.compile(r"^(?:heading|t[íi]tulo|titre|überschrift|encabezado)\s*(\d)$",
                            re.IGNORECASE)
_TITLE_STYLE = re.compile(r"^(?:title|t[íi]tulo)$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _heading_level(paragraph: Any) -> int | None:
    style_name = (paragraph.style.name if paragraph.style is not None else "") or ""
    match = _HEADING_STYLE.match(style_name.strip())
    if match:
        return max(1, int(match.group(1)))
    if _TITLE_STYLE.match(style_name.strip()):
        return 1
    outline = paragraph._p.find(f"{_W}pPr/{_W}outlineLvl")
    if outline is not None:
        value = outline.get(f"{_W}val")
        if value is not None and value.isdigit() and int(value) < 9:
            return int(value) + 1
    return None


def _table_rows(table: Any) -> list[list[str | None]]:
    rows: list[list[str | None]] = []
    for row in table.rows:
        cells: list[str | None] = []
        previous = None
        for cell in row.cells:
            if previous is not None and cell._tc is previous:
                continue  # python-docx repeats a horizontally merged cell per grid column
            previous = cell._tc
            cells.append(cell.text)
        rows.append(cells)
    return rows


def _body_paragraphs(document: Any) -> list[Paragraph]:
    from docx.table import Table
    from docx.text.paragraph import Paragraph as DocxParagraph

    paragraphs: list[Paragraph] = []

    def visit(element: Any) -> None:
        for child in element.iterchildren():
            if child.tag == f"{_W}p":
                paragraph = DocxParagraph(child, document)
                text = normalize_text(paragraph.text).strip()
                if text:
                    paragraphs.append(Paragraph(text, _heading_level(paragraph)))
            elif child.tag == f"{_W}tbl":
                paragraphs.append(Paragraph(table_to_text(_table_rows(Table(child, document)))))
            elif child.tag in (f"{_W}sdt", f"{_W}sdtContent", f"{_W}customXml"):
                visit(child)  # content controls wrap ordinary paragraphs and tables

    visit(document.element.body)
    return paragraphs


def load_docx(path: Path) -> LoadedDocument:
    """Load a .docx file as one page of text with headings and table rows."""
    import docx

    try:
        document = docx.Document(str(path))
    except Exception as error:  # PackageNotFoundError, BadZipFile, KeyError, XML errors
        raise UnreadableDocumentError(
            f"“{path.name}” is not a readable Word document (damaged, an old .doc, or "
            "password-protected).",
            detail=str(error),
        ) from error
    paragraphs = _body_paragraphs(document)
    title = (document.core_properties.title or "").strip()
    if not title:
        first_heading = next((p.text for p in paragraphs if p.heading_level == 1), "")
        title = first_heading if first_heading and first_heading == paragraphs[0].text else ""
    notes = [] if any(p.text for p in paragraphs) else ["no text found"]
    return LoadedDocument(
        path=str(path), file_type="docx", title=title or path.stem,
        pages=[assemble_page(1, paragraphs)], notes=notes)
