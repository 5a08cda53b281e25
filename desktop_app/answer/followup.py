"""A follow-up reads the previous answer: the passages it quoted, and the articles they are in.

"Quais são os direitos do titular?" quotes art. 18; the follow-up "e qual o prazo para
atender essas solicitações?" is answered by art. 19, II, right after it. The rewritten
query alone may not find it, so the previous answer's quotes come back as candidates: each
stored citation (`chat/turn.py` keeps its document, library and the quote's page offsets)
is placed in its document rebuilt from the stored chunks (`retrieval.doc_text`), and the
chunks holding the quote, its article's start and end, and the next article's start join
the follow-up's passages. Their
units then compete as any other (`answer/units.py`), with a small preference for units of
the articles just quoted (`Carried.articles`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop_app.retrieval.doc_text import DocumentText, DocumentTexts
from desktop_app.retrieval.index_api import ChunkRow
from desktop_app.retrieval.search import Ranked, hit_from
from desktop_app.retrieval.types import Hit
from desktop_app.text.structure import ARTICLE

MAX_CARRIED_PASSAGES = 6


@dataclass(frozen=True)
class Carried:
    """What a follow-up takes from the previous answer."""

    hits: tuple[Hit, ...] = ()
    # (doc id, "Art. 18") of each quoted article, and (doc id, "") of each quoted document
    articles: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    # the articles of its first quote (what it answered with; the others only added to it)
    first: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    # (doc id, node index) of the units of a law its first quote shows: a unit naming one
    # of them by number ("nos incisos II e III") says something about what was just read
    units: frozenset[tuple[str, int]] = field(default_factory=frozenset)

    def trace(self) -> dict[str, Any]:
        return {"passages": [h.chunk_id for h in self.hits],
                "articles": sorted(label for _, label in self.articles if label)}


NOTHING = Carried()


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _row_at(document: DocumentText, offset: int) -> ChunkRow | None:
    """The first stored chunk whose text holds the joined-text `offset`."""
    for row in document.rows:
        span = document.hit_span(hit_from(Ranked(row, 0.0, {})))
        if span is not None and span[0] <= offset < span[1]:
            return row
    return None


def carried_context(documents: DocumentTexts | None,
                    previous: Sequence[Mapping[str, Any]]) -> Carried:
    """The passages and articles the previous answer's citations point at."""
    if documents is None or not previous:
        return NOTHING
    hits: dict[str, Hit] = {}
    articles: set[tuple[str, str]] = set()
    first: frozenset[tuple[str, str]] = frozenset()
    units: frozenset[tuple[str, int]] = frozenset()
    for cited in previous:
        doc_id, library = str(cited.get("doc_id") or ""), str(cited.get("library") or "local")
        quote = cited.get("quote") if isinstance(cited.get("quote"), Mapping) else None
        document = documents.get(library, doc_id) if doc_id else None
        if document is None:
            continue
        if quote is not None:
            start = document.offset_of(_int(quote.get("page")) or 0,
                                       _int(quote.get("char_start")) or 0)
            end = document.offset_of(_int(quote.get("page_end")) or 0,
                                     _int(quote.get("char_end")) or 0)
        else:  # an older stored citation: its whole chunk
            row = next((r for r in document.rows if r.chunk_id == cited.get("chunk_id")), None)
            span = document.hit_span(hit_from(Ranked(row, 0.0, {}))) if row else None
            start, end = span if span else (None, None)
        if start is None or end is None or end < start:
            continue
        articles.add((doc_id, ""))  # the document itself
        structure = document.structure
        quoted = [n for n in structure.nodes
                  if n.kind == ARTICLE and n.start < max(end, start + 1) and n.end > start]
        labels = {(doc_id, structure.label(n)) for n in quoted}
        articles |= labels
        if not first:
            first = frozenset(labels)
            # the units it shows whole, not the items of a list it shows (a paragraph naming
            # one of art. 52's twelve sanctions is not about the list as a whole); a unit's
            # own text may end in the blank after the quote's last word
            stop, text = max(end, start + 1), document.text
            while stop < len(text) and text[stop].isspace():
                stop += 1
            shown = {n.index for n in structure.nodes
                     if n.legal and start <= n.start and n.body_end <= stop}
            units = frozenset((doc_id, i) for i in shown
                              if structure.nodes[i].parent not in shown)
        # where each quoted article begins and ends, and where the next one begins (what
        # comes next in the law); a unit comes whole from any passage that touches it
        places = [start, max(start, end - 1)]
        for node in quoted:
            places += [node.start, max(node.start, node.end - 1)]
            following = next((n for n in structure.nodes[node.index + 1:]
                              if n.kind == ARTICLE), None)
            if following is not None:
                places.append(following.text_start)
        for place in places:
            row = _row_at(document, place)
            if row is not None:
                hit = hit_from(Ranked(row, 0.0, {}))
                hits.setdefault(hit.chunk_id, hit)
    return Carried(tuple(list(hits.values())[:MAX_CARRIED_PASSAGES]), frozenset(articles),
                   first, units)


def with_carried(hits: Sequence[Hit], carried: Carried, *, after: int) -> list[Hit]:
    """The search's passages with the carried ones placed after the first `after`. A carried
    passage that search ranked lower moves up (only a few passages' units compete: left at
    its rank, the article right after the one just quoted would never be read)."""
    first = list(hits[:after])
    have = {h.chunk_id for h in first}
    extra = [h for h in carried.hits if h.chunk_id not in have]
    moved = {h.chunk_id for h in extra}
    return [*first, *extra, *(h for h in hits[after:] if h.chunk_id not in moved)]
