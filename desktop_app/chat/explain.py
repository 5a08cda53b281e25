"""What the search found, for the user to check — the window's Search view, and the
explanation of a "not found" answer.

`inspect_search` runs the search the answers run (the same searcher: the libraries the
settings search, the same fusion) and reports every passage with what found it: the legs
(keywords, meaning), its rank in each, the fused score, the question's words it contains
(and where, to mark them), the unit it starts in and its revoked (struck-through) ranges.
Beside the passages: which libraries were searched, how many documents the filters left
out and which libraries the settings leave out, and — for "why not found" — the question's
words that occur nowhere in the library (looked up with a keyword-only search, as the
"not found" gate does). Qt-free: the CLI and tests use it as the window does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from desktop_app.answer.abstain import CLOSEST_PASSAGES
from desktop_app.answer.citations import citation_from_hit
from desktop_app.answer.events import Citation
from desktop_app.answer.kinds import asked_value, states
from desktop_app.answer.question_fit import terms
from desktop_app.errors import AppError
from desktop_app.retrieval.index_api import DocumentRecord, folder_filter
from desktop_app.retrieval.search import SearchResult, SearchWarning
from desktop_app.retrieval.types import Hit, SearchFilters
from desktop_app.text.fold import fold
from desktop_app.text.stopwords import NOT_CONTENT

_WORD = re.compile(r"\w+")
MAX_LOOKUPS = 8  # question words looked up in the whole library, at most
SEARCH_K = 10


class Searcher(Protocol):
    def search_with_report(self, query: str, *, k: int | None = None,
                           filters: SearchFilters | None = None,
                           legs: tuple[str, ...] = ...) -> SearchResult: ...


@dataclass(frozen=True)
class FoundPassage:
    """One passage of the search, as the Search view lists it."""

    rank: int  # 1-based, in the fused order
    citation: Citation  # to open it in the viewer (title, pages, path, text)
    section: str  # the unit it starts in ("Art. 18, § 2º"; "" when none)
    legs: frozenset[str]  # "keyword", "vector"
    vector_rank: int | None
    keyword_rank: int | None
    score: float  # the fused (reciprocal-rank) score
    matched: tuple[str, ...]  # the question's words found in it, as the question says them
    marks: tuple[tuple[int, int], ...]  # where those words are in its text
    revoked: tuple[tuple[int, int], ...]  # struck-through ranges of its text

    @property
    def text(self) -> str:
        return self.citation.snippet


@dataclass(frozen=True)
class LeftOut:
    """Documents a search did not look at: by the filters, or a library not searched."""

    library: str
    documents: int | None  # None: not known (a team library out of reach)
    reason: str  # "filters" | "scope"


@dataclass(frozen=True)
class SearchInspection:
    query: str
    passages: tuple[FoundPassage, ...]
    libraries: tuple[str, ...]  # searched
    legs_used: tuple[str, ...]
    warnings: tuple[SearchWarning, ...]
    left_out: tuple[LeftOut, ...] = ()
    absent: tuple[str, ...] = ()  # the query's words that occur nowhere in the libraries
    # the kind of value only which answers the query ("money", "duration"…: answer/kinds.py)
    # when none of the closest passages states one; None otherwise
    missing_value: str | None = None

    @property
    def left_out_by_filters(self) -> int:
        return sum(x.documents or 0 for x in self.left_out if x.reason == "filters")


def query_words(query: str) -> list[str]:
    """The query's content words as typed (asking words and short words left out), once."""
    seen: set[frozenset[str]] = set()
    words = []
    for word in _WORD.findall(query):
        key = terms(word)
        if key and key not in seen and fold(word) not in NOT_CONTENT:
            seen.add(key)
            words.append(word)
    return words


def matches(text: str, words: Sequence[str]) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """Which of `words` occur in `text` (compared as the keyword leg compares: folded and
    stemmed) and where."""
    wanted = {word: terms(word) for word in words}
    found: dict[str, None] = {}
    marks: list[tuple[int, int]] = []
    for match in _WORD.finditer(text):
        stems = terms(match.group())
        if not stems:
            continue
        for word, key in wanted.items():
            if key and key <= stems:
                found.setdefault(word)
                marks.append((match.start(), match.end()))
                break
    return tuple(found), tuple(marks)


def passes(record: DocumentRecord, filters: SearchFilters) -> bool:
    """Whether a document can appear under `filters` (the same tests the legs make)."""
    if filters.file_types and record.file_type not in filters.file_types:
        return False
    if filters.since and record.ingested_at < filters.since:
        return False
    if filters.until and record.ingested_at >= filters.until:
        return False
    if filters.modified_since and record.modified_at < filters.modified_since:
        return False
    if filters.folder:
        folder, prefix = folder_filter(filters.folder)
        if record.folder != folder and not record.folder.startswith(prefix):
            return False
    return not (filters.language and record.language != filters.language)


def found_passage(rank: int, hit: Hit, words: Sequence[str]) -> FoundPassage:
    matched, marks = matches(hit.text, words)
    return FoundPassage(rank, citation_from_hit(rank, hit), hit.path, hit.legs,
                        hit.vector_rank, hit.keyword_rank, hit.score, matched, marks,
                        hit.revoked)


def inspect_search(searcher: Searcher, query: str, *, libraries: Sequence[str],
                   filters: SearchFilters | None = None, k: int = SEARCH_K,
                   documents: Callable[[str], Sequence[DocumentRecord]] | None = None,
                   not_searched: Sequence[tuple[str, int | None]] = (),
                   look_up_absent: bool = False) -> SearchInspection:
    """The search of `query` over `libraries` (what `searcher` searches), explained.

    `documents(library)` lists a library's documents (to count what `filters` leave out);
    `not_searched` names the libraries the settings leave out, with their sizes;
    `look_up_absent`: also find the query's words no passage of the libraries uses."""
    found = searcher.search_with_report(query, k=k, filters=filters)
    words = query_words(query)
    passages = tuple(found_passage(n, hit, words) for n, hit in enumerate(found.hits, start=1))
    left_out = [LeftOut(name, size, "scope") for name, size in not_searched]
    if filters is not None and documents is not None:
        for name in libraries:
            try:
                records = documents(name)
            except AppError:  # a library out of reach: its count is unknown
                left_out.append(LeftOut(name, None, "filters"))
                continue
            excluded = sum(1 for r in records if not passes(r, filters))
            if excluded:
                left_out.append(LeftOut(name, excluded, "filters"))
    absent: tuple[str, ...] = ()
    missing_value = None
    if look_up_absent:
        absent = absent_words(searcher, words, passages)
        missing_value = unstated_value(query, passages)
    return SearchInspection(query, passages, tuple(libraries), found.report.legs_used,
                            tuple(found.report.warnings), tuple(left_out), absent,
                            missing_value)


def unstated_value(query: str, passages: Sequence[FoundPassage]) -> str | None:
    """The kind of value only which answers `query` ("Quanto ganha…?": money), when none of
    the closest passages (the three a "not found" answer shows) states one."""
    kind = asked_value(query)
    if kind is None or any(states(kind, p.text) for p in passages[:CLOSEST_PASSAGES]):
        return None
    return kind


def absent_words(searcher: Searcher, words: Sequence[str],
                 passages: Sequence[FoundPassage] = ()) -> tuple[str, ...]:
    """The words no passage of the libraries uses (a keyword-only search for each; words
    the passages found already use are not looked up; at most `MAX_LOOKUPS`)."""
    seen = {w for p in passages for w in p.matched}
    out = []
    for word in [w for w in words if w not in seen][:MAX_LOOKUPS]:
        try:
            hits = searcher.search_with_report(word, k=1, legs=("keyword",)).hits
        except AppError:  # unknown is never evidence of absence
            continue
        if not hits:
            out.append(word)
    return tuple(out)
