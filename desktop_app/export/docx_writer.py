"""An export as a Word document (python-docx): the questions as headings, each answer's
lines, its warnings, then the numbered references — title, page and section, the quoted
words in italics (exactly as the document has them, one paragraph line each) and the
file's path. The numbers are written in the text ("[3]"), not as a list style, so they
stay the same in any word processor and match the badges in the answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.export.model import ExportDocument, Reference

GREY = (0x55, 0x55, 0x55)
AMBER = (0x8A, 0x5A, 0x00)


def _lines_into(paragraph: Any, text: str, *, italic: bool = False) -> None:
    """`text` into one paragraph, a line break per line (the lines stay lines)."""
    from docx.enum.text import WD_BREAK

    for n, line in enumerate(text.splitlines() or [""]):
        run = paragraph.add_run(line)
        run.italic = italic
        if n < len(text.splitlines()) - 1:
            run.add_break(WD_BREAK.LINE)


def _quote_into(paragraph: Any, ref: Reference, revoked: str) -> None:
    """The quote in italics, line by line; revoked words struck through and labelled."""
    from docx.enum.text import WD_BREAK

    lines = ref.lines()
    for n, pieces in enumerate(lines):
        for text, struck in pieces:
            run = paragraph.add_run(text)
            run.italic = True
            if struck and text.strip():
                run.font.strike = True
                _coloured(paragraph, f" ({revoked})", GREY, size=8.5)
        if n < len(lines) - 1:
            paragraph.add_run().add_break(WD_BREAK.LINE)


def _coloured(paragraph: Any, text: str, rgb: tuple[int, int, int], *, size: float | None = None,
              italic: bool = False) -> None:
    from docx.shared import Pt, RGBColor

    run = paragraph.add_run(text)
    run.font.color.rgb = RGBColor(*rgb)
    run.italic = italic
    if size is not None:
        run.font.size = Pt(size)


def _reference(doc: Any, ref: Reference, document: ExportDocument, *, numbered: bool) -> None:
    from docx.shared import Pt

    labels = document.labels
    head = doc.add_paragraph()
    head.paragraph_format.space_after = Pt(0)
    if numbered:
        head.add_run(f"[{ref.number}] ")
    head.add_run(ref.title).bold = True
    where = f" · {labels.library} “{ref.library}”" if ref.library != "local" else ""
    head.add_run(f" — {ref.location(labels)}{where}")
    quote = doc.add_paragraph()
    quote.paragraph_format.left_indent = Pt(18)
    quote.paragraph_format.space_after = Pt(0)
    _quote_into(quote, ref, labels.revoked)
    path = doc.add_paragraph()
    path.paragraph_format.left_indent = Pt(18)
    _coloured(path, f"{labels.file}: {ref.source_path}", GREY, size=8.5)


def write_docx(document: ExportDocument, path: Path) -> None:
    """Write `document` to `path` (.docx)."""
    from docx import Document

    labels = document.labels
    doc = Document()
    doc.core_properties.title = document.title
    doc.add_heading(document.title, level=1)
    if document.exported_at:
        _coloured(doc.add_paragraph(), labels.exported.replace("%1", document.exported_at),
                  GREY, size=9, italic=True)
    for number, turn in enumerate(document.turns, start=1):
        doc.add_heading(f"{number}. {turn.question or labels.answer}", level=2)
        _lines_into(doc.add_paragraph(), turn.answer)
        for note in turn.notes:
            _coloured(doc.add_paragraph(), f"⚠ {note}", AMBER)
        if turn.closest:
            doc.add_paragraph().add_run(labels.closest).bold = True
            for ref in turn.closest:
                _reference(doc, ref, document, numbered=False)
    if document.references:
        doc.add_heading(labels.references, level=2)
        for ref in document.references:
            _reference(doc, ref, document, numbered=True)
    doc.save(str(path))
