"""Sources-only answers: the passages' best sentences and enumeration blocks, quoted.

Used when no capable LLM answers. Zero model text: every line is a verbatim quote with
its own badge and its exact span in the passage. How a quote is chosen:

- Candidates are the sentences and list items (`segments.segment`) of the top few
  passages; headings, questions and instructions addressed to the reader are dropped.
- Each is scored by the embedder (question vs sentence vectors, one batched call;
  vectors cached by sentence text, so overlapping chunks and repeated questions cost
  nothing) plus keyword evidence (the question's content terms it shares, each weighted
  by how rare it is among the candidates, so "austrália" counts more than "dados") plus
  a small prior for the passage's retrieval rank. Without an embedder the keyword
  evidence alone decides.
- The best one leads. Up to `max_quotes - 1` more come from the same document, best
  first: an answer cites what holds it, not every passage it skimmed (on FaQuAD this
  keeps ~0.88 of badges in the gold paragraph while the gold span is in the answer
  ~0.88 of the time; quoting the best of any passage instead gave 0.74 / 0.86).
- A chosen sentence that introduces a list ("… nas seguintes hipóteses:") is shown with
  its items as one block; near-duplicates (chunks overlap) are skipped.

Weights were chosen on half of FaQuAD's paragraphs and checked on the other half
(README "Sources-only answers").
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from desktop_app.answer.prompt import NumberedSource
from desktop_app.answer.segments import Unit, segment
from desktop_app.retrieval.types import Embedder, Hit
from desktop_app.text.analyze import content_terms
from desktop_app.text.fold import fold
from desktop_app.text.stopwords import ASKING_WORDS, STOPWORDS

MAX_SOURCES_CONSIDERED = 5  # passages whose sentences compete (the gold is in the top 3 ~93 %)
MAX_CANDIDATES = 32  # sentences embedded per question, best keyword evidence first
MAX_QUOTES = 3
MAX_QUOTE_CHARS = 600  # a single sentence longer than this is cut at a word (blocks: per item)
LEXICAL_WEIGHT = 0.08  # × the shared terms' rarity (a term in every candidate counts ~0)
RANK_PRIOR = 0.01  # added for the top passage, falling as 1/rank
LIST_BONUS = 0.08  # a question asking for several things ("quais são…") prefers a list's lead
# "quais", "cuáles", "what are", "which were", "list the": a question that wants a list
_LIST_QUESTION = re.compile(r"\b(?:quais|cuales|(?:what|which) (?:are|were)|list|liste|enumere)\b")
DUPLICATE_OVERLAP = 0.8


@dataclass(frozen=True)
class Quote:
    """One line of a sources-only answer: a unit of one retrieved passage."""

    source: int  # number of the passage in retrieval order (NumberedSource.number)
    hit: Hit
    unit: Unit  # the sentence, item or block quoted (its span is in hit.text)
    score: float
    semantic: float | None  # cosine question ↔ sentence, when an embedder ranked
    shared_terms: int

    @property
    def start(self) -> int:
        return self.unit.start

    @property
    def end(self) -> int:
        return self.unit.end


@dataclass(frozen=True)
class ExtractiveAnswer:
    quotes: tuple[Quote, ...]  # best first (the display order)
    candidates: tuple[Quote, ...]  # every scored candidate, best first (abstention evidence)
    matched: bool  # some candidate shares a content term with the question
    question_terms: frozenset[str]
    embedded: int = 0  # sentence vectors computed for this answer (cache misses)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(q.source for q in self.quotes))


# Words that ask or request rather than say something: never evidence, never a topic.
NOT_CONTENT = STOPWORDS | ASKING_WORDS


def terms(text: str) -> frozenset[str]:
    """Content terms: folded, without asking words, stemmed as the keyword leg stems."""
    return content_terms(text, ignore=NOT_CONTENT)


class SentenceVectors:
    """Sentence vectors by text, with a bounded LRU cache (thread-safe)."""

    def __init__(self, embedder: Embedder, max_entries: int = 8192) -> None:
        self.embedder = embedder
        self.max_entries = max_entries
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()

    def vectors(self, texts: Sequence[str]) -> tuple[np.ndarray, int]:
        """(n, dim) vectors for `texts`; the second value counts the ones embedded now."""
        keys = [self._key(t) for t in texts]
        with self._lock:
            found = {k: self._cache[k] for k in keys if k in self._cache}
            for k in found:
                self._cache.move_to_end(k)
        missing = list(dict.fromkeys((k, t) for k, t in zip(keys, texts, strict=True)
                                     if k not in found))
        if missing:
            new = self.embedder.embed_passages([t for _, t in missing])
            with self._lock:
                for (k, _), vector in zip(missing, new, strict=True):
                    found[k] = vector
                    self._cache[k] = vector
                while len(self._cache) > self.max_entries:
                    self._cache.popitem(last=False)
        out = np.stack([found[k] for k in keys]) if keys else np.zeros((0, self.embedder.dim))
        return out.astype(np.float32, copy=False), len(missing)

    def query(self, text: str) -> np.ndarray:
        return np.asarray(self.embedder.embed_query(text), dtype=np.float32)


def _near_duplicate(a: str, b: str) -> bool:
    """Same words mostly (overlapping chunks, a re-worded repeat), or one inside the other
    (an item already shown in its block)."""
    if a in b or b in a:
        return True
    words_a, words_b = frozenset(a.split()), frozenset(b.split())
    return len(words_a & words_b) / max(len(words_a | words_b), 1) >= DUPLICATE_OVERLAP


def _folded_words(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold(text)))


def rank_candidates(question: str, sources: Sequence[NumberedSource],
                    vectors: SentenceVectors | None, *,
                    max_sources: int = MAX_SOURCES_CONSIDERED) -> tuple[list[Quote], int]:
    """Score every quotable sentence and item of the top passages; best first.
    Returns the ranked candidates and how many sentence vectors were computed."""
    question_terms = terms(question)
    wants_list = bool(_LIST_QUESTION.search(fold(question)))
    pool: list[tuple[int, NumberedSource, Unit, frozenset[str]]] = []
    leads: set[tuple[int, int]] = set()  # (source, start) of sentences that open a list
    for rank, source in enumerate(sources[:max_sources], start=1):
        for unit in segment(source.hit.text):
            if unit.kind == "block":
                leads.add((source.number, unit.start))
            elif unit.quotable:
                pool.append((rank, source, unit, question_terms & terms(unit.text)))
    # a long list of passages: embed the sentences with keyword evidence first
    pool.sort(key=lambda c: (-len(c[3]), c[0], c[2].position))
    pool = pool[:MAX_CANDIDATES]
    semantic: list[float | None] = [None] * len(pool)
    embedded = 0
    if vectors is not None and pool:
        query = vectors.query(question)
        matrix, embedded = vectors.vectors([unit.shown for _, _, unit, _ in pool])
        semantic = [float(x) for x in matrix @ query]
    # rarity of each question term among the candidates (an inverse document frequency)
    frequency: dict[str, int] = {}
    for *_, shared in pool:
        for term in shared:
            frequency[term] = frequency.get(term, 0) + 1
    scale = math.log(1 + len(pool)) or 1.0
    quotes = []
    for (rank, source, unit, shared), cosine in zip(pool, semantic, strict=True):
        keywords = sum(math.log(1 + len(pool) / frequency[t]) for t in shared) / scale
        score = (cosine or 0.0) + LEXICAL_WEIGHT * keywords + RANK_PRIOR / rank
        if wants_list and (source.number, unit.start) in leads:
            score += LIST_BONUS
        quotes.append(Quote(source.number, source.hit, unit, score, cosine, len(shared)))
    quotes.sort(key=lambda c: (-c.score, c.source, c.unit.position))
    return quotes, embedded


def _as_block(quote: Quote) -> Quote:
    """A lead sentence ("… seguintes hipóteses:") becomes the block with its items."""
    if not quote.unit.text.rstrip().endswith(":"):
        return quote
    block = next((u for u in segment(quote.hit.text)
                  if u.kind == "block" and u.start == quote.unit.start), None)
    if block is None:
        return quote
    return dataclasses.replace(quote, unit=block)


def extract_answer(question: str, sources: Sequence[NumberedSource],
                   vectors: SentenceVectors | None = None, *,
                   max_quotes: int = MAX_QUOTES) -> ExtractiveAnswer:
    """The best quotes for `question` from `sources` (see the module docstring)."""
    ranked, embedded = rank_candidates(question, sources, vectors)
    matched = any(q.shared_terms for q in ranked)
    ordered = ranked
    if vectors is None and not matched:
        # no evidence at all: the openings of the top two passages (the caller flags it)
        firsts: dict[int, Quote] = {}
        for quote in sorted(ranked, key=lambda q: (q.source, q.unit.position)):
            firsts.setdefault(quote.source, quote)
        ordered = list(firsts.values())[:2]
    chosen: list[Quote] = []
    seen: list[str] = []
    for candidate in ordered:
        if len(chosen) >= max_quotes:
            break
        if chosen and ordered is ranked and candidate.hit.doc_id != chosen[0].hit.doc_id:
            continue  # the answer quotes the document that holds it
        if chosen and ordered is ranked and candidate.semantic is None \
                and not candidate.shared_terms:
            continue  # keywords alone rank: a sentence without any is no evidence
        quote = _as_block(candidate)
        words = _folded_words(quote.unit.text)
        if any(_near_duplicate(words, other) for other in seen):
            continue  # overlapping chunks repeat sentences; a block already holds its items
        chosen.append(quote)
        seen.append(words)
    return ExtractiveAnswer(tuple(chosen), tuple(ranked), matched, terms(question), embedded)


def shown_text(quote: Quote, max_chars: int = MAX_QUOTE_CHARS) -> str:
    """The quote as displayed (long sentences cut at a word with " …")."""
    lines = quote.unit.shown.split("\n")
    out = []
    for line in lines:
        if len(line) > max_chars:
            line = line[:max_chars].rsplit(" ", 1)[0] + " …"
        out.append(line)
    if quote.unit.continues:
        out.append("…")
    return "\n".join(out)


def with_badge(text: str, number: int) -> str:
    """The badge goes on the first line (a block's lead), before its final punctuation."""
    first, _, rest = text.partition("\n")
    if first and first[-1] in ".!?;:" and not first.endswith("…"):
        first = f"{first[:-1].rstrip()} [{number}]{first[-1]}"
    else:
        first = f"{first} [{number}]"
    return first + ("\n" + rest if rest else "")
