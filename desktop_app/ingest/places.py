"""Where a passage is, in the words of its document's kind: "p. 8" in a PDF, "slide 3" in
a presentation, "sheet 2" in a spreadsheet, "message 12" in a mailbox.

Loaders number pages so that these words are right: a presentation's page n is its slide
n, a spreadsheet's its n-th sheet (the sheet's name and the rows are the passage's
headings), a mailbox's its n-th message. Documents that are one page (a Word or
OpenDocument text, an e-mail, a CSV file, a web page) have no place to name.
"""

from __future__ import annotations

UNIT_WORDS = {"pptx": ("slide", "slides"), "xlsx": ("sheet", "sheets"),
              "ods": ("sheet", "sheets"), "mbox": ("message", "messages")}
ONE_PAGE = frozenset({"docx", "odt", "eml", "csv", "html", "md", "txt"})


def place_label(file_type: str, page: int, page_end: int | None = None) -> str:
    """"p. 8", "pp. 8–9", "slide 3", "sheets 1–2", "" for a one-page kind of document."""
    end = page if page_end is None else max(page, page_end)
    if file_type in ONE_PAGE and page == end == 1:
        return ""
    one, many = UNIT_WORDS.get(file_type, ("p.", "pp."))
    return f"{one} {page}" if page == end else f"{many} {page}–{end}"
