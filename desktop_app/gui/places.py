"""Where a cited passage is, in the window's words and the user's language: "p. 8" in a
PDF, "slide 3" in a presentation, "sheet 2" in a spreadsheet, "message 12" in a mailbox,
nothing for a one-page document (a Word file, an e-mail). The terminal's English twin is
`ingest.places.place_label`; both follow the loaders' page numbering."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from desktop_app.ingest.places import ONE_PAGE, UNIT_WORDS

# the unit words of `ingest.places.UNIT_WORDS`, named here for lupdate (translated by value)
_FOR_LUPDATE = (QT_TRANSLATE_NOOP("Places", "slide"), QT_TRANSLATE_NOOP("Places", "slides"),
                QT_TRANSLATE_NOOP("Places", "sheet"), QT_TRANSLATE_NOOP("Places", "sheets"),
                QT_TRANSLATE_NOOP("Places", "message"), QT_TRANSLATE_NOOP("Places", "messages"))


def place_text(file_type: str, page: int, page_end: int, page_label: str) -> str:
    """" — p. 8", " — slides 2–3", "" (to follow the title)."""
    end = max(page, page_end)
    if page <= 0 or (file_type in ONE_PAGE and page == end == 1):
        return ""
    span = str(page) if end == page else f"{page}–{end}"
    if file_type not in UNIT_WORDS:
        return f" — {page_label} {span}"
    one, many = UNIT_WORDS[file_type]
    word = QCoreApplication.translate("Places", one if end == page else many)
    return f" — {word} {span}"
