"""An export as PDF, laid out here with PyMuPDF's `TextWriter` (already a dependency for
reading PDFs): A4 pages, the questions as headings, the answers line by line, the numbered
references with their quotes in italics, "n / N" at the foot of every page.

Why not PyMuPDF's HTML `Story`: its typesetter joins "fi", "fl", "ffi" into ligature
glyphs, so a reader copying a quote out of the PDF gets "conﬁrmação" instead of the
document's "confirmação". `TextWriter` places each character as itself (the fonts are the
PDF base-14 families, with MuPDF's fallback for a script they lack), so the quotes come out
of the file exactly as they went in.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.export.model import ExportDocument, Reference

MARGIN = 56.0  # points
FOOTER = 28.0
BLACK, GREY, AMBER = (0.0, 0.0, 0.0), (0.35, 0.35, 0.35), (0.54, 0.35, 0.0)


@dataclass(frozen=True)
class Style:
    font: str  # a base-14 name of PyMuPDF ("helv", "hebo", "heit", "cour")
    size: float
    color: tuple[float, float, float] = BLACK
    indent: float = 0.0
    before: float = 0.0  # space above the paragraph
    after: float = 4.0
    strike: bool = False  # revoked words: a line through them
    suffix: str = ""  # after the last line, not struck ("(revoked)")
    keep_next: bool = False  # a heading: never the last thing on a page


TITLE = Style("hebo", 16, before=0, after=4)
META = Style("heit", 8.5, GREY, after=10)
HEADING = Style("hebo", 12.5, before=12, after=4, keep_next=True)
BODY = Style("helv", 10.5)
NOTE = Style("helv", 10, AMBER)
STRONG = Style("hebo", 10.5, before=6, keep_next=True)
REF = Style("helv", 10.5, before=6, after=1, keep_next=True)
QUOTE = Style("heit", 10.5, indent=16, after=1)
QUOTE_LINE = Style("heit", 10.5, indent=16, after=0)
FILE = Style("cour", 8, GREY, indent=16, after=4)


def paragraphs(document: ExportDocument) -> list[tuple[str, Style]]:
    """The export as (text, style) paragraphs; a text's lines stay lines."""
    labels = document.labels
    out: list[tuple[str, Style]] = [(document.title, TITLE)]
    if document.exported_at:
        out.append((labels.exported.replace("%1", document.exported_at), META))

    def reference(ref: Reference, numbered: bool) -> None:
        where = f" · {labels.library} “{ref.library}”" if ref.library != "local" else ""
        head = f"[{ref.number}] " if numbered else ""
        out.append((f"{head}{ref.title} — {ref.location(labels)}{where}", REF))
        lines = ref.lines()
        for n, pieces in enumerate(lines):
            style = QUOTE if n == len(lines) - 1 else QUOTE_LINE
            text = "".join(t for t, _struck in pieces)
            if any(struck and t.strip() for t, struck in pieces):
                out.append((text, dataclasses.replace(style, strike=True,
                                                      suffix=f" ({labels.revoked})")))
            else:
                out.append((text, style))
        out.append((f"{labels.file}: {ref.source_path}", FILE))

    for number, turn in enumerate(document.turns, start=1):
        out.append((f"{number}. {turn.question or labels.answer}", HEADING))
        out.append((turn.answer, BODY))
        out += [(f"⚠ {note}", NOTE) for note in turn.notes]
        if turn.closest:
            out.append((labels.closest, STRONG))
            for ref in turn.closest:
                reference(ref, numbered=False)
    if document.references:
        out.append((labels.references, HEADING))
        for ref in document.references:
            reference(ref, numbered=True)
    return out


class _Pages:
    """Pages filled top to bottom; a paragraph's lines wrap at word boundaries."""

    def __init__(self) -> None:
        import pymupdf

        self.pymupdf = pymupdf
        self.pdf = pymupdf.open()
        self.fonts: dict[str, Any] = {}
        self.fallback = pymupdf.Font("cjk")  # scripts the base-14 fonts lack
        self.rect = pymupdf.paper_rect("a4")
        # one writer at a time, written out when the colour changes: the page's text then
        # follows the reading order (extraction and copying read it in that order)
        self.writer: Any = None
        self.color: tuple[float, float, float] = BLACK
        self.page: Any = None
        self.y = 0.0
        self._new_page()

    def font(self, name: str) -> Any:
        if name not in self.fonts:
            self.fonts[name] = self.pymupdf.Font(name)
        return self.fonts[name]

    def _new_page(self) -> None:
        self._flush()
        self.page = self.pdf.new_page(width=self.rect.width, height=self.rect.height)
        self.y = MARGIN

    def _flush(self) -> None:
        if self.page is not None and self.writer is not None:
            self.writer.write_text(self.page, color=self.color)
        self.writer = None

    def _writer(self, color: tuple[float, float, float]) -> Any:
        if self.writer is None or color != self.color:
            self._flush()
            self.writer, self.color = self.pymupdf.TextWriter(self.page.rect), color
        return self.writer

    def _runs(self, text: str, font: Any) -> list[tuple[str, Any]]:
        """`text` split where a character needs the fallback font."""
        runs: list[tuple[str, Any]] = []
        for char in text:
            use = font if font.has_glyph(ord(char)) or not self.fallback.has_glyph(
                ord(char)) else self.fallback
            if runs and runs[-1][1] is use:
                runs[-1] = (runs[-1][0] + char, use)
            else:
                runs.append((char, use))
        return runs

    def _width(self, text: str, font: Any, size: float) -> float:
        return sum(f.text_length(part, size) for part, f in self._runs(text, font))

    def _wrap(self, line: str, font: Any, size: float, width: float) -> list[str]:
        words, lines, current = line.split(" "), [], ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if current and self._width(trial, font, size) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        return [*lines, current]

    def _lines(self, text: str, style: Style) -> list[int]:
        """How many lines each of `text`'s source lines wraps into."""
        font = self.font(style.font)
        width = self.rect.width - 2 * MARGIN - style.indent
        return [len(self._wrap(line, font, style.size, width))
                for line in text.splitlines() or [""]]

    def keep_with(self, text: str, style: Style, following: tuple[str, Style]) -> None:
        """A new page now unless `text` fits on this one with the start of what follows
        (its first source line: `add` keeps such a line on one page)."""
        then_text, then = following
        first = self._lines(then_text, then)[0]
        bottom = self.rect.height - MARGIN - FOOTER
        if MARGIN + first * then.size * 1.3 > bottom:
            first = 2  # a line longer than a page breaks anyway
        need = (style.before + sum(self._lines(text, style)) * style.size * 1.3 + style.after
                + then.before + first * then.size * 1.3)
        if self.y > MARGIN and self.y + need > bottom:
            self._new_page()

    def add(self, text: str, style: Style) -> None:
        font = self.font(style.font)
        left = MARGIN + style.indent
        width = self.rect.width - MARGIN - left
        height = style.size * 1.3
        self.y += style.before if self.y > MARGIN else 0
        bottom = self.rect.height - MARGIN - FOOTER
        for source_line in text.splitlines() or [""]:
            wrapped = self._wrap(source_line, font, style.size, width)
            # a line of the source (a list item of a law) stays on one page when it can
            if self.y + len(wrapped) * height > bottom >= MARGIN + len(wrapped) * height:
                self._new_page()
            for line in wrapped:
                if self.y + height > bottom:
                    self._new_page()
                writer = self._writer(style.color)
                x = left
                base = self.y + style.size
                for part, part_font in self._runs(line, font):
                    writer.append((x, base), part, font=part_font, fontsize=style.size)
                    x += part_font.text_length(part, style.size)
                if style.strike and line.strip():
                    middle = base - style.size * 0.3
                    self.page.draw_line((left, middle), (x, middle), color=GREY, width=0.6)
                self.y += height
        if style.suffix:
            label = self.font("helv")
            writer = self._writer(GREY)
            writer.append((x + 2, self.y - height + style.size), style.suffix.strip(),
                          font=label, fontsize=style.size * 0.8)
        self.y += style.after

    def save(self, path: Path, title: str) -> None:
        self._flush()
        total = self.pdf.page_count
        footer = self.font("helv")
        for number in range(1, total + 1):
            page = self.pdf[number - 1]
            label = f"{number} / {total}"
            x = (self.rect.width - footer.text_length(label, 8)) / 2
            writer = self.pymupdf.TextWriter(page.rect)
            writer.append((x, self.rect.height - MARGIN + 8), label, font=footer, fontsize=8)
            writer.write_text(page, color=GREY)
        self.pdf.set_metadata({"title": title, "creator": "Acervo", "producer": "Acervo"})
        self.pdf.save(str(path), garbage=3, deflate=True)
        self.pdf.close()


def write_pdf(document: ExportDocument, path: Path) -> None:
    """Write `document` to `path` (.pdf)."""
    pages = _Pages()
    laid_out = paragraphs(document)
    for n, (text, style) in enumerate(laid_out):
        if style.keep_next and n + 1 < len(laid_out):
            pages.keep_with(text, style, laid_out[n + 1])
        pages.add(text, style)
    pages.save(path, document.title)
