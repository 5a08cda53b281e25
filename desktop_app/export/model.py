"""What an export holds: the questions, the answers as they were shown, and numbered
references — built from a stored conversation, never through a model.

An answer's `[n]` badges are renumbered into one list of references for the whole export
(the first badge of the first answer is [1]; the same quoted span cited twice is one
reference). Each reference names the document's title, its page (or pages), the section
its passage starts in ("Art. 18, § 2º") when the document has structure, the exact words
quoted (`QuoteSpan.text`, else the passage) and the file's path. Words around the content
(headings, "p.", the warnings) come from `ExportLabels`: English by default (the CLI), the
window passes its own in the UI language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from desktop_app.answer.citations import Marker, MarkerStreamParser
from desktop_app.answer.events import AnswerWarning, Citation, WarningCode
from desktop_app.chat.stored import ReloadedMessage
from desktop_app.ingest.pathnames import display_path


@dataclass(frozen=True)
class ExportLabels:
    """The words an export adds around the content (the window translates them)."""

    question: str = "Question"
    answer: str = "Answer"
    references: str = "References"
    page: str = "p."
    pages: str = "pp."
    file: str = "File"
    library: str = "Team library"
    searched_for: str = "Searched for: %1"
    closest: str = "Closest passages (not an answer)"
    revoked: str = "revoked"
    exported: str = "Exported from Acervo on %1. The quotes are the documents' own words."
    no_answer: str = "(no answer)"
    warning: Callable[[AnswerWarning], str] = AnswerWarning.english


@dataclass(frozen=True)
class Reference:
    """One numbered source of the export."""

    number: int
    title: str
    page: int
    page_end: int
    section: str  # the structural unit its passage starts in ("" when none)
    quote: str  # the exact words quoted, as the document has them
    source_path: str  # shown form of the file's path
    library: str = "local"
    # struck-through (revoked) ranges of `quote`: shown, and labelled "revoked"
    revoked: tuple[tuple[int, int], ...] = ()

    def pages(self, labels: ExportLabels) -> str:
        if self.page_end > self.page:
            return f"{labels.pages} {self.page}–{self.page_end}"
        return f"{labels.page} {self.page}"

    def lines(self) -> list[list[tuple[str, bool]]]:
        """The quote line by line, each line as (words, revoked) pieces in order."""
        out: list[list[tuple[str, bool]]] = []
        at = 0
        for line in self.quote.split("\n"):
            pieces: list[tuple[str, bool]] = []
            cuts = sorted({at, at + len(line), *(
                edge for a, b in self.revoked for edge in (a, b) if at < edge < at + len(line))})
            for start, end in zip(cuts, cuts[1:], strict=False):
                struck = any(a <= start and end <= b for a, b in self.revoked)
                pieces.append((self.quote[start:end], struck))
            out.append(pieces or [("", False)])
            at += len(line) + 1
        return out

    def location(self, labels: ExportLabels) -> str:
        """"p. 12 · Art. 18, § 2º"."""
        return " · ".join(part for part in (self.pages(labels), self.section) if part)


@dataclass(frozen=True)
class ExportedTurn:
    question: str
    answer: str  # the answer's words with its badges as reference numbers "[3]"
    notes: tuple[str, ...] = ()  # warnings and "searched for", in the labels' words
    closest: tuple[Reference, ...] = ()  # a "not found" answer's closest passages


@dataclass(frozen=True)
class ExportDocument:
    title: str
    turns: tuple[ExportedTurn, ...]
    references: tuple[Reference, ...]
    labels: ExportLabels = field(default_factory=ExportLabels)
    exported_at: str = ""  # shown as it is (the caller formats the date)

    def reference(self, number: int) -> Reference:
        return self.references[number - 1]


@dataclass(frozen=True)
class Located:
    """Where a quote sits in its document's structure, and its struck-through ranges."""

    section: str = ""
    revoked: tuple[tuple[int, int], ...] = ()


Locate = Callable[[Citation], Located]
QUIET = frozenset({WarningCode.SOURCES_ONLY, WarningCode.NOT_FOUND})
CLOSEST_CHARS = 400  # a closest passage is evidence to judge, not a quote: its beginning


def _closest(ref: Reference, limit: int = CLOSEST_CHARS) -> Reference:
    """A closest passage's beginning (it is evidence to judge, not a quote)."""
    if len(ref.quote) <= limit:
        return ref
    cut = ref.quote[:limit].rsplit(" ", 1)[0]
    revoked = tuple((a, min(b, len(cut))) for a, b in ref.revoked if a < len(cut))
    return dataclasses.replace(ref, quote=cut + " …", revoked=revoked)


class _Numbering:
    """Reference numbers across the export: one per (passage, quoted words)."""

    def __init__(self, locate: Locate) -> None:
        self.locate = locate
        self.references: list[Reference] = []
        self._by_key: dict[tuple[str, str, str], int] = {}

    def number(self, citation: Citation) -> int:
        quote = citation.quote.text if citation.quote is not None else citation.snippet
        key = (citation.library, citation.chunk_id, quote)
        if key not in self._by_key:
            self.references.append(reference(len(self.references) + 1, citation,
                                             self.locate(citation)))
            self._by_key[key] = len(self.references)
        return self._by_key[key]


def reference(number: int, citation: Citation, located: Located | None = None) -> Reference:
    located = located or Located()
    quote = citation.quote.text if citation.quote is not None else citation.snippet
    page_end = citation.quote.page_end if citation.quote is not None else citation.page_end
    page = citation.quote.page if citation.quote is not None else citation.page
    return Reference(number, citation.title, page, max(page, page_end), located.section, quote,
                     display_path(citation.source_path), citation.library, located.revoked)


def renumbered(answer: str, citations: Sequence[Citation],
               number: Callable[[Citation], int]) -> str:
    """The answer's words with each `[n]` replaced by the export's reference number; a
    marker without a known citation is dropped (as the window drops it)."""
    by_number = {c.number: c for c in citations}
    parser = MarkerStreamParser()
    out: list[str] = []
    for part in [*parser.feed(answer), parser.flush()]:
        if isinstance(part, Marker):
            numbers = [number(by_number[n]) for n in part.numbers if n in by_number]
            if numbers:
                out.append("[" + ", ".join(str(n) for n in dict.fromkeys(numbers)) + "]")
        else:
            out.append(part)
    return "".join(out)


def build_export(messages: Sequence[ReloadedMessage], *, title: str,
                 labels: ExportLabels | None = None, locate: Locate | None = None,
                 answers: Collection[str] | None = None,
                 exported_at: str = "") -> ExportDocument:
    """The export of a stored chat: every question with its answer, or only the answers
    whose message ids are in `answers`, each with its question."""
    labels = labels or ExportLabels()
    numbering = _Numbering(locate or (lambda _c: Located()))
    turns: list[ExportedTurn] = []
    question = ""
    for shown in messages:
        if shown.answer is None:
            question = shown.message.content
            continue
        if answers is not None and shown.message.id not in answers:
            continue
        done = shown.answer
        text = shown.message.content
        # "not found" is the answer itself: not repeated as a note (nor "sources only")
        notes = [labels.warning(w) for w in done.warnings if w.code not in QUIET]
        if done.searched_for:
            notes.append(labels.searched_for.replace("%1", done.searched_for))
        closest = tuple(_closest(reference(n, c, numbering.locate(c)))
                        for n, c in enumerate(done.closest, start=1))
        turns.append(ExportedTurn(question,
                                  renumbered(text, done.citations, numbering.number)
                                  or labels.no_answer, tuple(notes), closest))
        question = ""
    return ExportDocument(title, tuple(turns), tuple(numbering.references), labels,
                          exported_at)
