"""A law written as plain text, printed as a PDF the way an official site prints a compiled
law: one provision a line, wrapped, and a revoked wording struck through (the line drawn
over it is what PyMuPDF reads as strike-out, as on the LGPD printed from planalto.gov.br).

The text file has one line per provision, as the law prints it; a line starting with "~~"
is a revoked wording. bench/data/laws/constituicao.txt is such a file (arts. 1º–7º, 12–16
and 37 of the Constitution and the start of its transitional provisions, from the official
text), asked by bench/data/legal_cf.jsonl.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pymupdf

REVOKED = "~~"
WIDTH = 95  # characters a printed line holds
FONT_SIZE = 9
LINE_HEIGHT = 13
TOP, BOTTOM, LEFT = 50, 800, 40


def render_law(text: str, pdf: Path) -> int:
    """Print `text` into `pdf`; returns its number of pages."""
    doc = pymupdf.open()
    try:
        page = doc.new_page()
        y = TOP
        for line in text.splitlines():
            revoked = line.startswith(REVOKED)
            for part in textwrap.wrap(line.removeprefix(REVOKED), WIDTH) or [""]:
                if y > BOTTOM:
                    page, y = doc.new_page(), TOP
                page.insert_text((LEFT, y), part, fontsize=FONT_SIZE)
                if revoked:
                    width = pymupdf.get_text_length(part, fontsize=FONT_SIZE)
                    page.draw_line((LEFT, y - 3), (LEFT + width + 2, y - 3), width=0.6)
                y += LINE_HEIGHT
        doc.save(pdf)
        return len(doc)
    finally:
        doc.close()
