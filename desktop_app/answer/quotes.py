"""Where a quote lives: chunk offsets → page offsets, and the citation that carries it.

A written answer's badge carries its claim (the answer's sentence) and the sentence of
the passage that supports it best (`claim_citation`), located the same way, so the
viewer highlights exact source words instead of searching for the answer's paraphrase.

A chunk's `char_start`/`char_end` are offsets into the text of `page_start`/`page_end`
(see `ingest.chunking`). A chunk on one page is `page.text[char_start:char_end]`, so a
quote at chunk offsets [a, b) is at [char_start + a, char_start + b) on that page. A
chunk that crosses one page break is `first_page.text[char_start:…] + join +
last_page.text[:char_end]` with `join` a space or a blank line, so the break sits
`char_end` characters before the chunk's end; quotes on either side (or across it) map
exactly. Chunks over three or more pages only happen around near-empty pages; their
quotes are placed at the chunk level and marked inexact.
"""

from __future__ import annotations

import dataclasses

from desktop_app.answer.citations import citation_from_hit
from desktop_app.answer.events import Citation, QuoteSpan
from desktop_app.retrieval.types import Hit


def _page_break(hit: Hit) -> int | None:
    """Offset in `hit.text` where the last page's text begins, for a two-page chunk."""
    if hit.page_end != hit.page_start + 1:
        return None
    boundary = len(hit.text) - hit.char_end
    if boundary <= 0 or boundary >= len(hit.text):
        return None
    if not hit.text[boundary - 1].isspace() or hit.text[boundary].isspace():
        return None  # not where a page join can be: do not guess
    return boundary


def locate_quote(hit: Hit, start: int, end: int) -> QuoteSpan:
    """The span of `hit.text[start:end]` in page coordinates."""
    if not 0 <= start <= end <= len(hit.text):
        raise ValueError(f"quote [{start}, {end}) outside the chunk (length {len(hit.text)})")
    text = hit.text[start:end]
    hidden = tuple((max(a, start) - start, min(b, end) - start)
                   for a, b in hit.revoked if a < end and b > start)
    if hit.page_end <= hit.page_start:
        return QuoteSpan(text, start, end, hit.page_start, hit.char_start + start,
                         hit.page_start, hit.char_start + end, hidden=hidden)
    boundary = _page_break(hit)
    if boundary is None:
        return QuoteSpan(text, start, end, hit.page_start, hit.char_start, hit.page_end,
                         hit.char_end, exact=False, hidden=hidden)
    first_page_len = len(hit.text[:boundary].rstrip())  # the join is whitespace

    def where(offset: int, *, is_end: bool) -> tuple[int, int]:
        if offset < boundary and not (is_end and offset > first_page_len):
            return hit.page_start, hit.char_start + min(offset, first_page_len)
        if is_end and offset <= boundary:
            return hit.page_start, hit.char_start + first_page_len
        return hit.page_end, max(0, offset - boundary)

    page, char_start = where(start, is_end=False)
    page_end, char_end = where(end, is_end=True)
    return QuoteSpan(text, start, end, page, char_start, page_end, char_end, hidden=hidden)


def quote_citation(number: int, hit: Hit, start: int, end: int) -> Citation:
    """The badge [number] for the quote `hit.text[start:end]`."""
    citation = citation_from_hit(number, hit)
    return dataclasses.replace(citation, quote=locate_quote(hit, start, end))


def supporting_span(passage: str, claim: str) -> tuple[int, int] | None:
    """The sentence (or list item) of `passage` sharing the most meaningful words with
    `claim` — the words the verifier checked — as offsets into `passage`; None when none
    shares any. Ties go to the earlier sentence."""
    from desktop_app.answer.citations import grounding_terms
    from desktop_app.answer.segments import segment

    wanted = grounding_terms(claim)
    best: tuple[int, int, int] | None = None  # (-shared, start, end)
    for unit in segment(passage):
        if unit.kind == "block":
            continue  # its sentences are units of their own
        shared = len(wanted & grounding_terms(unit.text))
        if shared and (best is None or (-shared, unit.start) < best[:2]):
            best = (-shared, unit.start, unit.end)
    return None if best is None else (best[1], best[2])


def claim_citation(number: int, hit: Hit, claim: str) -> Citation:
    """The badge [number] of a written answer: the claim it supports and, when found, the
    exact span of the passage's supporting sentence."""
    citation = dataclasses.replace(citation_from_hit(number, hit), claim=claim)
    span = supporting_span(hit.text, claim) if claim else None
    if span is None:
        return citation
    return dataclasses.replace(citation, quote=locate_quote(hit, *span))
