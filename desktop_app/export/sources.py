"""Where an exported quote sits in its document: the structural unit it is in ("Art. 18",
"Art. 18, § 4º", "3.2") and the struck-through (revoked) ranges within it.

Read from the document rebuilt from its stored passages (`retrieval.doc_text`, the same
text the answer quoted units from), at the quote's page coordinates (`QuoteSpan`), so a
unit quoted whole across several passages is placed where it begins. When the document
cannot be rebuilt (a team server out of reach) the passage's own path stands.
"""

from __future__ import annotations

from collections.abc import Callable

from desktop_app.answer.events import Citation
from desktop_app.export.model import Located
from desktop_app.retrieval.doc_text import DocumentText, DocumentTexts
from desktop_app.retrieval.index_api import ChunkRow


def _span(document: DocumentText, citation: Citation) -> tuple[int, int, str] | None:
    """(start, end) of the quoted words in the document's text, and the words."""
    quote = citation.quote
    if quote is not None:
        start = document.offset_of(quote.page, quote.char_start)
        end = document.offset_of(quote.page_end, quote.char_end)
        text = quote.text
    else:
        start = document.offset_of(citation.page, citation.char_start)
        end = document.offset_of(citation.page_end, citation.char_end)
        text = citation.snippet
    if start is None or end is None or end < start:
        return None
    if document.text[start:end] != text:  # offsets of an older ingest: find the words
        found = document.text.find(text)
        if found < 0:
            return None
        start, end = found, found + len(text)
    return start, end, text


class SourceLocator:
    """`locate(citation)` for `export.build_export`."""

    def __init__(self, documents: DocumentTexts | None,
                 row: Callable[[Citation], ChunkRow | None]) -> None:
        self.documents = documents
        self.row = row  # the badge's passage (its own path: the fallback)

    def __call__(self, citation: Citation) -> Located:
        try:
            document = (self.documents.get(citation.library, citation.doc_id)
                        if self.documents is not None else None)
        except Exception:  # noqa: BLE001 - a library out of reach: the fallback below
            document = None
        span = _span(document, citation) if document is not None else None
        if document is None or span is None:
            row = self.row(citation)
            return Located(row.path if row is not None else "")
        start, end, text = span
        lead = len(text) - len(text.lstrip())  # the unit begins at its first word
        node = document.structure.at(start + lead)
        return Located(document.structure.label(node),
                       tuple(document.revoked_in(start, end)))
