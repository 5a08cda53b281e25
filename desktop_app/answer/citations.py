"""Citation markers: streaming parser and final verification (pure, no I/O).

While tokens stream, `CitationStream` turns `[n]` markers into badges the moment
they complete, holds back a half-written `[12` at a chunk boundary, and drops
markers that name no provided source. When the answer is complete,
`verify_answer` is the authority: it removes unknown ids, drops citations whose
chunk shares no meaningful words with the sentence citing it, keeps at most two
cited chunks per document (best relevance), and decides the warning. Invariant:
`citations` empty ⇔ exactly one of WarningCode.NOT_FOUND / NO_SUPPORTING_EVIDENCE is warned.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from desktop_app.answer.events import AnswerWarning, Citation, CitationEvent, Token, WarningCode
from desktop_app.answer.injection import is_instruction
from desktop_app.retrieval.types import Hit
from desktop_app.text.analyze import prefix_terms
from desktop_app.text.fold import fold
from desktop_app.text.sentences import sentence_spans

MAX_CITATIONS_PER_DOCUMENT = 2

# reasons a marker is removed (keys of Verification.dropped and of the trace)
UNKNOWN_SOURCE = "unknown_source"
NO_OVERLAP = "no_overlap"
OVER_DOCUMENT_LIMIT = "over_document_limit"
UNTERMINATED = "unterminated"
INSTRUCTION = "instruction"  # the claim is an order planted in a document (answer.injection)

MARKER = re.compile(r"\[\s*(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\s*\]")
_PARTIAL_AT_END = re.compile(r"\[[\d\s,;]{0,20}$")


def grounding_terms(text: str) -> frozenset[str]:
    """The terms a claim and the passage it cites must share (`text.analyze.prefix_terms`,
    markers removed): 'informação'/'informações' or 'trabalhar'/'trabalhando' still meet."""
    return prefix_terms(MARKER.sub(" ", text))


def relevance(hit: Hit) -> float:
    return hit.rerank_score if hit.rerank_score is not None else hit.score


def citation_from_hit(number: int, hit: Hit) -> Citation:
    return Citation(
        number=number, doc_id=hit.doc_id, chunk_id=hit.chunk_id, title=hit.title,
        source_path=hit.source_path, file_type=hit.file_type, page=hit.page_start,
        page_end=hit.page_end, char_start=hit.char_start, char_end=hit.char_end,
        score=relevance(hit), legs=hit.legs, snippet=hit.text, library=hit.library,
        ocr_confidence=hit.ocr_confidence, ocr_boxes=hit.ocr_boxes,
    )


@dataclass(frozen=True)
class Marker:
    numbers: tuple[int, ...]
    raw: str


def parse_marker_numbers(inner: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", inner))


class MarkerStreamParser:
    """Splits streamed text into plain text and complete `[n]` / `[n, m]` markers."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, text: str) -> list[str | Marker]:
        buffer = self._pending + text
        out: list[str | Marker] = []
        position = 0
        for match in MARKER.finditer(buffer):
            if match.start() > position:
                out.append(buffer[position:match.start()])
            out.append(Marker(parse_marker_numbers(match.group(1)), match.group(0)))
            position = match.end()
        rest = buffer[position:]
        partial = _PARTIAL_AT_END.search(rest)
        self._pending = rest[partial.start():] if partial else ""
        text_part = rest[:partial.start()] if partial else rest
        if text_part:
            out.append(text_part)
        return out

    def flush(self) -> str:
        """The held-back tail at the end of the stream (an unterminated marker)."""
        pending, self._pending = self._pending, ""
        return pending


class CitationStream:
    """Stream-time badges: known ids become `[n]` tokens plus one `CitationEvent` per
    number on first use; unknown ids are dropped from the stream (and counted).
    The final answer and citation list come from `verify_answer`."""

    def __init__(self, sources: Mapping[int, Hit]) -> None:
        self.sources = sources
        self.parser = MarkerStreamParser()
        self.announced: set[int] = set()
        self.unknown = 0

    def feed(self, text: str) -> list[Token | CitationEvent]:
        return self._events(self.parser.feed(text))

    def flush(self) -> list[Token | CitationEvent]:
        """End of stream: only a half-written marker can be pending; it is not shown
        (verify_answer drops it from the final text too)."""
        self.parser.flush()
        return []

    def _events(self, parts: Iterable[str | Marker]) -> list[Token | CitationEvent]:
        events: list[Token | CitationEvent] = []
        text = ""
        for part in parts:
            if isinstance(part, str):
                text += part
                continue
            known = [n for n in dict.fromkeys(part.numbers) if n in self.sources]
            self.unknown += len(part.numbers) - len(known)
            if not known:
                continue
            text += "".join(f"[{n}]" for n in known)
            if text:
                events.append(Token(text))
                text = ""
            for n in known:
                if n not in self.announced:
                    self.announced.add(n)
                    events.append(CitationEvent(citation_from_hit(n, self.sources[n])))
        if text:
            events.append(Token(text))
        return events


@dataclass(frozen=True)
class Verification:
    answer: str
    citations: tuple[Citation, ...]
    warnings: tuple[AnswerWarning, ...]
    dropped: dict[str, int] = field(default_factory=dict)
    not_found: bool = False


def _claim_for(text: str, spans: list[tuple[int, int]], position: int) -> str:
    """The sentence a marker at `position` supports; the previous one when the marker
    stands alone after it ("… 30 days. [2]")."""
    index = max((i for i, (start, _) in enumerate(spans) if start <= position), default=-1)
    while index >= 0:
        start, end = spans[index]
        sentence = text[start:end]
        if grounding_terms(sentence):
            return sentence
        index -= 1
    return ""


def claim_text(sentence: str) -> str:
    """A claim as the viewer shows it: the sentence without its markers, spaces squashed."""
    return re.sub(r"\s+(?=[.,;:!?])", "", " ".join(MARKER.sub(" ", sentence).split()))


def contains_not_found(answer: str, phrases: Iterable[str]) -> bool:
    folded = " ".join(re.findall(r"\w+", fold(answer)))
    return any(" ".join(re.findall(r"\w+", fold(p))) in folded for p in phrases if p.strip())


def verify_answer(raw: str, sources: Mapping[int, Hit], *,
                  not_found_phrases: Iterable[str] = ()) -> Verification:
    """Check every marker in the finished answer; return the cleaned text, the
    citations that survived and the warning that matches them."""
    dropped: Counter[str] = Counter()
    text = raw
    tail = _PARTIAL_AT_END.search(text)
    if tail:
        dropped[UNTERMINATED] += 1
        text = text[:tail.start()].rstrip()
    spans = sentence_spans(text, lines=True)
    markers = list(MARKER.finditer(text))
    # per occurrence: the numbers that pass the id and overlap checks
    passing: list[list[int]] = []
    for match in markers:
        claim = _claim_for(text, spans, match.start())
        claim_terms = grounding_terms(claim)
        planted = is_instruction(claim)  # a document's order repeated: never a sourced claim
        ok: list[int] = []
        for n in dict.fromkeys(parse_marker_numbers(match.group(1))):
            hit = sources.get(n)
            if planted:
                dropped[INSTRUCTION] += 1
            elif hit is None:
                dropped[UNKNOWN_SOURCE] += 1
            elif not claim_terms & grounding_terms(hit.text):
                dropped[NO_OVERLAP] += 1
            else:
                ok.append(n)
        passing.append(ok)
    # at most N distinct chunks per document: the most relevant ones win
    cited = sorted({n for ok in passing for n in ok})
    by_doc: dict[str, list[int]] = {}
    for n in cited:
        by_doc.setdefault(sources[n].doc_id, []).append(n)
    kept: set[int] = set()
    for numbers in by_doc.values():
        numbers.sort(key=lambda n: (-relevance(sources[n]), n))
        kept.update(numbers[:MAX_CITATIONS_PER_DOCUMENT])
    for ok in passing:
        dropped[OVER_DOCUMENT_LIMIT] += sum(1 for n in ok if n not in kept)
    answer = _rebuild(text, markers, [[n for n in ok if n in kept] for ok in passing])
    claims: dict[int, str] = {}  # a badge supports the first sentence that cites it
    for match, ok in zip(markers, passing, strict=True):
        for n in ok:
            if n in kept and n not in claims:
                claims[n] = claim_text(_claim_for(text, spans, match.start()))
    from desktop_app.answer.quotes import claim_citation  # quotes builds on this module

    citations = tuple(claim_citation(n, sources[n], claims.get(n, "")) for n in sorted(kept))
    not_found = not citations and contains_not_found(answer, not_found_phrases)
    if citations:
        warnings: tuple[AnswerWarning, ...] = ()
    else:
        warnings = (AnswerWarning(WarningCode.NOT_FOUND if not_found
                                  else WarningCode.NO_SUPPORTING_EVIDENCE),)
    return Verification(answer, citations, warnings, {k: v for k, v in dropped.items() if v},
                        not_found)


def _rebuild(text: str, markers: list[re.Match[str]], keep: list[list[int]]) -> str:
    out: list[str] = []
    position = 0
    for match, numbers in zip(markers, keep, strict=True):
        out.append(text[position:match.start()])
        position = match.end()
        if numbers:
            out.append("".join(f"[{n}]" for n in numbers))
            continue
        following = text[position:position + 1]
        if out and (not following or following in " \t\n.,;:!?)"):
            out[-1] = out[-1].rstrip(" \t")  # "claim [9]." → "claim."
            if following in (" ", "\t") and out[-1] and out[-1][-1] in "\n(":
                position += 1
    out.append(text[position:])
    return "".join(out).strip()
