"""A document's page texts rebuilt from its stored chunks, with exact page offsets.

A chunk is the page text it claims (ingest/chunking.py): on one page it is
`page.text[char_start:char_end]`; across a page break it is the first page's text from
`char_start`, a whitespace join, and the next page's first `char_end` characters. Chunks
overlap or meet, so laying each at its offsets gives back every page's text with the same
offsets the viewer and the citations use; a gap between two chunks (only ever whitespace)
is filled with a space, or line breaks when it is longer than one character or lies
between table rows (a row is one line, so a chunk that ends or opens with one broke a
line there). A chunk over
three or more pages (around near-empty pages) is laid out by its two ends only.

`DocumentText` joins the pages with a blank line for the structure parser
(`text.structure`), keeps the revoked ranges of every page, and turns a span of the joined
text back into a `Hit` that obeys the chunk invariant, so a quote that crosses chunks or
pages still gets exact page offsets (`answer/quotes.py`). `DocumentTexts` caches the last
few documents per library (a changed file gets a new doc id, so entries never go stale).
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from desktop_app.retrieval.index_api import ChunkRow
from desktop_app.retrieval.types import Hit
from desktop_app.text.caches import forget_owner
from desktop_app.text.structure import Structure, parse_structure
from desktop_app.text.tables import is_row

PAGE_JOIN = "\n\n"
CACHED_DOCUMENTS = 24


def _two_page_split(row: ChunkRow) -> int | None:
    """Where the last page's part of a two-page chunk begins in its text."""
    boundary = len(row.text) - row.char_end
    if 0 < boundary < len(row.text) and row.text[boundary - 1].isspace():
        return boundary
    return None


@dataclass
class _Page:
    pieces: list[tuple[int, str]] = field(default_factory=list)  # (offset, text)
    revoked: list[tuple[int, int]] = field(default_factory=list)

    def put(self, offset: int, text: str, revoked: Sequence[tuple[int, int]], shift: int) -> None:
        self.pieces.append((offset, text))
        self.revoked += [(offset + max(a - shift, 0), offset + min(b - shift, len(text)))
                         for a, b in revoked if b > shift and a - shift < len(text)]

    def text(self) -> str:
        out: list[str] = []
        length = 0
        for offset, piece in sorted(self.pieces):
            if offset > length:
                gap = offset - length
                row_ends = bool(out) and is_row(out[-1].rsplit("\n", 1)[-1])
                row_starts = is_row(piece.split("\n", 1)[0])
                out.append(" " if gap == 1 and not (row_ends or row_starts) else "\n" * gap)
                length = offset
            if offset + len(piece) > length:
                out.append(piece[length - offset:])
                length = offset + len(piece)
        return "".join(out)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching ranges as one (overlapping chunks repeat their marks)."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


class DocumentText:
    """One document's pages (1-based numbers) rebuilt from its chunks."""

    def __init__(self, rows: Sequence[ChunkRow]) -> None:
        if not rows:
            raise ValueError("a document without chunks")
        self.rows = sorted(rows, key=lambda r: r.position)
        pages: dict[int, _Page] = {}
        for row in self.rows:
            revoked = [(max(a, 0), b) for a, b in row.revoked]
            if row.page_end == row.page_start:
                pages.setdefault(row.page_start, _Page()).put(row.char_start, row.text,
                                                              revoked, 0)
                continue
            boundary = _two_page_split(row) if row.page_end == row.page_start + 1 else None
            last = len(row.text) - row.char_end
            head = row.text[:boundary].rstrip() if boundary is not None else ""
            pages.setdefault(row.page_start, _Page()).put(row.char_start, head, revoked, 0)
            pages.setdefault(row.page_end, _Page()).put(0, row.text[last:], revoked, last)
        self.page_numbers = sorted(pages)
        self.pages = {n: pages[n].text() for n in self.page_numbers}
        self.revoked_by_page = {n: _merged(pages[n].revoked) for n in self.page_numbers}
        self.offsets: list[int] = []
        joined: list[str] = []
        position = 0
        for n in self.page_numbers:
            self.offsets.append(position)
            joined.append(self.pages[n])
            position += len(self.pages[n]) + len(PAGE_JOIN)
        self.text = PAGE_JOIN.join(joined)
        self.revoked = [(self.offsets[i] + a, self.offsets[i] + b)
                        for i, n in enumerate(self.page_numbers)
                        for a, b in self.revoked_by_page[n]]

    @property
    def doc_id(self) -> str:
        return self.rows[0].doc_id

    @cached_property
    def structure(self) -> Structure:
        return parse_structure(self.text, self.revoked)

    def page_at(self, offset: int) -> tuple[int, int]:
        """(page number, offset in that page's text) of a joined-text offset."""
        i = max(0, bisect.bisect_right(self.offsets, offset) - 1)
        number = self.page_numbers[i]
        return number, min(offset - self.offsets[i], len(self.pages[number]))

    def offset_of(self, page: int, char: int) -> int | None:
        """The joined-text offset of a page offset (None: a page this text lacks)."""
        if page not in self.pages:
            return None
        return self.offsets[self.page_numbers.index(page)] + char

    def hit_span(self, hit: Hit) -> tuple[int, int] | None:
        """Where a passage of this document lies in the joined text."""
        start = self.offset_of(hit.page_start, hit.char_start)
        end = self.offset_of(hit.page_end, hit.char_end)
        if start is None or end is None or end < start:
            return None
        return start, end

    def revoked_in(self, start: int, end: int) -> list[tuple[int, int]]:
        """Revoked ranges of the joined text within [start, end), relative to `start`."""
        return [(max(a, start) - start, min(b, end) - start) for a, b in self.revoked
                if a < end and b > start]

    def as_hit(self, base: Hit, start: int, end: int) -> Hit:
        """The span [start, end) of the joined text as a passage (chunk invariant kept):
        `text` is the span, pages and offsets where it begins and ends, the chunk that holds
        its start as its id; scores and library from `base`."""
        page, char_start = self.page_at(start)
        page_end, char_end = self.page_at(max(start, end - 1))
        char_end += 1 if end > start else 0
        row = next((r for r in reversed(self.rows)
                    if (r.page_start, r.char_start) <= (page, char_start)), self.rows[0])
        return replace(base, chunk_id=row.chunk_id, position=row.position,
                       text=self.text[start:end], page_start=page, page_end=page_end,
                       char_start=char_start, char_end=char_end,
                       revoked=tuple(self.revoked_in(start, end)), path="")


class DocumentTexts:
    """Rebuilt documents by (library, doc id), the last `size` kept. `load(library, doc_id)`
    gives the stored chunks of a document (wired in app.py for every library)."""

    def __init__(self, load: Callable[[str, str], Sequence[ChunkRow]],
                 size: int = CACHED_DOCUMENTS) -> None:
        self._load = load
        self._size = size
        self._cache: OrderedDict[tuple[str, str], DocumentText | None] = OrderedDict()
        self._lock = threading.Lock()
        forget_owner(self)  # an erasure or a removal empties it (text.caches)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()

    def get(self, library: str, doc_id: str) -> DocumentText | None:
        key = (library, doc_id)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        rows = self._load(library, doc_id)
        document = DocumentText(rows) if rows else None
        with self._lock:
            self._cache[key] = document
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return document


def stored_pages(chunks: Sequence[ChunkRow]) -> list[str]:
    """A document's text rebuilt from its stored chunks, one string per page (page 1
    first; pages without text are empty) — shown when the original file is not here."""
    if not chunks:
        return []
    document = DocumentText(chunks)
    return [document.pages.get(n, "") for n in range(1, max(document.page_numbers) + 1)]
