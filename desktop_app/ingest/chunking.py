"""Structure-aware chunking: headings → paragraphs → sentences → words, with overlap.

`chunk_document(doc, doc_id)` cuts a `LoadedDocument` into `Chunk`s of about `max_chars`:

- Headings open sections; a chunk never mixes two sections, and a section that is only a
  heading is carried into the next one (no heading-only chunks). `heading_path` is the
  stack of enclosing headings; `prefix` is "title › section › subsection".
- Whole paragraphs are packed greedily; a paragraph longer than the budget is split into
  sentences, a sentence longer than the budget at spaces. Chunk boundaries fall on
  whitespace, never inside a word (only a single "word" longer than `max_chars`, such as a
  huge URL, is cut).
- Each chunk after the first in a section starts up to `overlap` × `max_chars` earlier, at
  a sentence start when there is one in that window, else at a word start — but never
  inside a table row (no overlap then: a row without its first cells names nothing).
- Chunks stay on one page, which keeps citations exact, with two exceptions: a paragraph
  that continues across a page break (no final punctuation, next page starts in lower
  case) may be chunked across it, and a chunk that is so far only a heading or less than a
  quarter of the budget continues onto the next page rather than standing alone (never
  across pages without text). Such a small chunk may also grow to 1.25 × `max_chars`.
- Each chunk carries the struck-through (revoked) ranges of its pages in its own offsets,
  and `path`, the structural unit its first character belongs to ("Art. 18, § 2º",
  `text.structure`), when the document has one.
- Invariant: `chunk.text` is the page text it claims. On one page it is
  `page.text[char_start:char_end]`; across pages it is `page_start.text[char_start:]`, the
  full text of any page in between, and `page_end.text[:char_end]`, joined by
  `SOFT_JOIN` (continued paragraph) or `HARD_JOIN`. Pages without text are skipped, and
  page numbers missing from `doc.pages` (scans) count as pages without text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from desktop_app.ingest.types import Heading, LoadedDocument
from desktop_app.retrieval.types import Chunk
from desktop_app.text.sentences import sentence_breaks, sentence_spans
from desktop_app.text.structure import Structure, parse_structure
from desktop_app.text.tables import is_row

PREFIX_SEPARATOR = " › "
SOFT_JOIN = " "
HARD_JOIN = "\n\n"
MAX_PREFIX_PART = 120


_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_CLOSED = re.compile(r"[.!?:;…][\"'”’)\]»]*$")


@dataclass(frozen=True)
class _Piece:
    """An atomic span of one page's text; `join` says how it attaches to the piece before it."""

    page: int  # index into doc.pages
    start: int
    end: int
    join: str = ""  # "" same page, SOFT_JOIN or HARD_JOIN across a page break
    heading: bool = False
    skips_pages: bool = False  # pages without text lie between this piece and the one before


@dataclass
class _Section:
    path: tuple[str, ...]
    paragraphs: list[_Piece]


def _paragraphs(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    position = 0
    for match in [*_PARAGRAPH_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        raw = text[position:end]
        if raw.strip():
            start = position + len(raw) - len(raw.lstrip())
            spans.append((start, position + len(raw.rstrip())))
        position = match.end() if match else len(text)
    return spans


def _sections(doc: LoadedDocument) -> list[_Section]:
    sections: list[_Section] = []
    stack: list[Heading] = []
    current = _Section(path=(), paragraphs=[])
    previous: tuple[str, bool] | None = None  # (text, is heading) of the last paragraph
    previous_number = 0
    for page_index, page in enumerate(doc.pages):
        headings = sorted(page.headings, key=lambda heading: heading.start)
        first_on_page = True
        for start, end in _paragraphs(page.text):
            heading = next((h for h in headings if start <= h.start < end), None)
            join = ""
            if first_on_page and previous is not None:
                text = page.text[start:end]
                continues = (not previous[1] and heading is None
                             and not _CLOSED.search(previous[0]) and text[:1].islower())
                join = SOFT_JOIN if continues else HARD_JOIN
            skips = first_on_page and previous is not None and page.number > previous_number + 1
            first_on_page = False
            previous_number = page.number
            piece = _Piece(page_index, start, end, join, heading is not None, skips)
            if heading is not None:
                while stack and stack[-1].level >= heading.level:
                    stack.pop()
                stack.append(heading)
                if any(not p.heading for p in current.paragraphs):
                    sections.append(current)
                    current = _Section(path=(), paragraphs=[])
                current.path = tuple(h.title for h in stack)
            current.paragraphs.append(piece)
            previous = (page.text[start:end], heading is not None)
    if current.paragraphs:
        sections.append(current)
    return sections


def _words(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """Split [start, end) at spaces into spans of at most `limit` characters."""
    spans: list[tuple[int, int]] = []
    while end - start > limit:
        cut = text.rfind(" ", start + 1, start + limit + 1)
        next_start = cut + 1 if cut > start else start + limit
        cut = cut if cut > start else start + limit  # a single "word" longer than the budget
        piece_end = cut
        while piece_end > start and text[piece_end - 1].isspace():
            piece_end -= 1
        spans.append((start, piece_end))
        start = next_start
        while start < end and text[start].isspace():
            start += 1
    if start < end:
        spans.append((start, end))
    return spans


def _split(piece: _Piece, text: str, limit: int) -> list[_Piece]:
    """A paragraph as pieces of at most `limit` characters (sentences, then words)."""
    if piece.end - piece.start <= limit:
        return [piece]
    spans: list[tuple[int, int]] = []
    for start, end in sentence_spans(text, piece.start, piece.end, lines=True):
        spans.extend(_words(text, start, end, limit) if end - start > limit else [(start, end)])
    return [
        _Piece(piece.page, start, end, piece.join if i == 0 else "", piece.heading,
               piece.skips_pages and i == 0)
        for i, (start, end) in enumerate(spans)
    ]


def _overlap_start(text: str, low: int, high: int) -> int | None:
    """Where an overlap taken from text[low:high] should begin: a sentence, else a word start."""
    if high - low < 2:
        return None
    # the first candidate boundary, abbreviations not checked: the retrieval figures in
    # docs/measurements.md were measured with chunks cut this way (checking them moves overlaps in
    # 3 of Pirá's 309 documents)
    position = next((b for b in sentence_breaks(text, max(0, low - 1), high, lines=True)
                     if low <= b < high), None)
    if position is None:
        line_start, line_end = text.rfind("\n", 0, low) + 1, text.find("\n", low, high)
        if is_row(text[line_start:line_end if line_end >= 0 else high]):
            return None  # half a table row, its first cells cut off, opens no passage
        position = low
        if position > 0 and not text[position - 1].isspace():
            next_space = next((i for i in range(position, high) if text[i].isspace()), -1)
            if next_space < 0:
                return None
            position = next_space
    while position < high and text[position].isspace():
        position += 1
    return position if position < high else None


class _ChunkBuilder:
    """Greedy packing of a section's pieces into chunks."""

    def __init__(self, doc: LoadedDocument, doc_id: str, max_chars: int, overlap: float) -> None:
        self.doc = doc
        # the document's structure, over its pages joined by HARD_JOIN (`_page_offsets`)
        self._page_offsets: list[int] = []
        offset = 0
        for page in doc.pages:
            self._page_offsets.append(offset)
            offset += len(page.text) + len(HARD_JOIN)
        revoked = [(start + a, start + b) for start, page in zip(self._page_offsets, doc.pages,
                                                                 strict=True)
                   for a, b in page.revoked]
        self.structure: Structure = parse_structure(HARD_JOIN.join(p.text for p in doc.pages),
                                                    revoked)
        self.doc_id = doc_id
        self.max_chars = max_chars
        self.overlap_chars = int(max_chars * overlap)
        self.min_chars = max_chars // 4
        self.chunks: list[Chunk] = []
        self._current_length = 0  # characters in the chunk being built

    def _texts(self, piece: _Piece) -> str:
        return self.doc.pages[piece.page].text

    def _revoked(self, page: int, start: int, end: int, at: int) -> list[tuple[int, int]]:
        """The revoked ranges of page `page` within [start, end), moved to chunk offset `at`."""
        return [(at + max(a, start) - start, at + min(b, end) - start)
                for a, b in self.doc.pages[page].revoked if a < end and b > start]

    def _emit(self, pieces: list[_Piece], path: tuple[str, ...]) -> None:
        first, last = pieces[0], pieces[-1]
        parts: list[str] = []
        revoked: list[tuple[int, int]] = []
        segment_start = first.start
        for previous, piece in zip(pieces, pieces[1:], strict=False):
            if piece.page != previous.page:
                revoked += self._revoked(previous.page, segment_start, previous.end,
                                         sum(map(len, parts)))
                parts.append(self._texts(previous)[segment_start:previous.end])
                parts.append(piece.join)
                segment_start = piece.start
        revoked += self._revoked(last.page, segment_start, last.end, sum(map(len, parts)))
        parts.append(self._texts(last)[segment_start:last.end])
        unit = self.structure.at(self._page_offsets[first.page] + first.start)
        title = self.doc.title
        shown = [part[:MAX_PREFIX_PART] for part in path]
        if shown and shown[0] == title:
            shown = shown[1:]
        self.chunks.append(Chunk(
            doc_id=self.doc_id,
            position=len(self.chunks),
            text="".join(parts),
            page_start=self.doc.pages[first.page].number,
            page_end=self.doc.pages[last.page].number,
            heading_path=path,
            char_start=first.start,
            char_end=last.end,
            prefix=PREFIX_SEPARATOR.join([title, *shown]),
            revoked=tuple(revoked),
            path=self.structure.label(unit),
        ))

    def _length(self, pieces: list[_Piece], extra: _Piece) -> int:
        last = pieces[-1]
        if extra.page == last.page:
            gap = extra.end - last.end
        else:
            gap = len(extra.join) + extra.end - extra.start
        return self._current_length + gap

    def add_section(self, section: _Section) -> None:
        pieces: list[_Piece] = []
        for paragraph in section.paragraphs:
            pieces.extend(_split(paragraph, self._texts(paragraph), self.max_chars))
        chunk: list[_Piece] = []
        self._current_length = 0
        for piece in pieces:
            if not chunk:
                chunk, self._current_length = [piece], piece.end - piece.start
                continue
            length = self._length(chunk, piece)
            heading_only = all(p.heading for p in chunk)
            small = heading_only or self._current_length < self.min_chars
            if piece.join == HARD_JOIN and (not small or piece.skips_pages):
                fits = False  # a finished chunk does not cross a page break
            elif heading_only:
                fits = True  # a heading always travels with the text it introduces
            else:
                fits = length <= (self.max_chars * 5 // 4 if small else self.max_chars)
            if fits:
                chunk.append(piece)
                self._current_length = length
                continue
            self._emit(chunk, section.path)
            chunk = self._start_with_overlap(chunk, piece)
        if chunk:
            self._emit(chunk, section.path)

    def _start_with_overlap(self, previous: list[_Piece], piece: _Piece) -> list[_Piece]:
        size = piece.end - piece.start
        budget = min(self.overlap_chars, self.max_chars - size)
        last = previous[-1]
        self._current_length = size
        if budget < 20 or (piece.page != last.page and piece.join != SOFT_JOIN):
            return [piece]
        first_on_page = next(p for p in previous if p.page == last.page)
        low = max(last.end - budget, first_on_page.start + 1)
        text = self._texts(last)
        start = _overlap_start(text, low, last.end)
        if start is None:
            return [piece]
        tail = _Piece(last.page, start, last.end, "", False)
        if piece.page == last.page:
            self._current_length = piece.end - start
            return [tail, _Piece(piece.page, piece.start, piece.end, "", piece.heading)]
        self._current_length = (last.end - start) + len(piece.join) + size
        return [tail, piece]


def chunk_document(
    doc: LoadedDocument, doc_id: str, *, max_chars: int = 1000, overlap: float = 0.15
) -> list[Chunk]:
    """Cut a loaded document into chunks (see the module docstring for the rules)."""
    if max_chars < 50:
        raise ValueError("max_chars must be at least 50")
    if not 0 <= overlap < 0.5:
        raise ValueError("overlap must be in [0, 0.5)")
    builder = _ChunkBuilder(doc, doc_id, max_chars, overlap)
    for section in _sections(doc):
        builder.add_section(section)
    return builder.chunks
