"""Sources-only answers: the passages' best sentences and enumeration blocks, quoted.

Used when no capable LLM answers. Zero model text: every line is a verbatim quote with
its own badge and its exact span in the passage. How a quote is chosen:

- Candidates are the sentences and list items (`segments.segment`) of the top few
  passages; headings, questions and instructions addressed to the reader are dropped.
- Each is scored by the embedder (question vs sentence vectors, one batched call;
  vectors cached by sentence text, so overlapping chunks and repeated questions cost
  nothing) plus keyword evidence (the question's content terms it shares, each weighted
  by how rare it is among the candidates, so "austrália" counts more than "dados") plus
  a small prior for the passage's retrieval rank. A sentence that points back ("Isso…",
  "Essa metodologia…", "Ela foi…") also counts the terms of the sentence before it (what
  it refers to). A question asking for a date, number, person or place ("quando",
  "quantos", "quem", "onde") gives a small bonus to sentences that name one the question
  does not. Without an embedder the keyword evidence alone decides.
- The best one leads. Up to `max_quotes - 1` more come from the same document, best
  first: an answer cites what holds it, not every passage it skimmed. One exception:
  when the lead comes from another document than search's top passage and that
  passage's best sentence scores close to it, that sentence is quoted too (search and
  sentence ranking disagree; the user sees both).
- A sentence is quoted with its context: one that points back comes with the sentence
  before it, one followed by a sentence that points back comes with that sentence
  (neither stands alone; on FaQuAD the answer is the sentence right after the best
  match in ~5 % of questions). A chosen sentence that introduces a list ("… nas
  seguintes hipóteses:") is shown with its items as one block; near-duplicates (chunks
  overlap) are skipped.

Miss analysis and measured effect of each signal: README "Sources-only answers".
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
from difflib import SequenceMatcher

import numpy as np

from desktop_app.answer.prompt import MemoryItem, NumberedSource
from desktop_app.answer.segments import Unit, segment
from desktop_app.memory.types import EarlierExchange
from desktop_app.retrieval.types import Embedder, Hit
from desktop_app.text.analyze import content_terms
from desktop_app.text.caches import forget_owner
from desktop_app.text.fold import fold
from desktop_app.text.language import question_language
from desktop_app.text.stopwords import NOT_CONTENT

MAX_SOURCES_CONSIDERED = 8  # passages whose sentences compete (FaQuAD: gold in the top 8 ~0.98)
MAX_CANDIDATES = 32  # sentences embedded per question, best keyword evidence first
MAX_QUOTES = 3
MAX_QUOTE_CHARS = 1000  # a quote longer than this is cut at a word (blocks: per item)
LEXICAL_WEIGHT = 0.08  # × the shared terms' rarity (a term in every candidate counts ~0)
RANK_PRIOR = 0.01  # added for the top passage, falling as 1/rank
LIST_BONUS = 0.08  # a question asking for several things ("quais são…") prefers a list's lead
TYPE_BONUS = 0.01  # "quem/quando/quanto/onde…": the sentence names a person/date/number/place
DEFINITION_BONUS = 0.1  # "o que é X?": the sentence or item that defines exactly X ("X: …")
COGNATE_RATIO = 0.7  # dato/dado 0.75, personal/pessoal 0.80, sensible/sensivel 0.75
SECOND_OPINION_MARGIN = 0.05  # the top passage's best sentence joins a close answer from elsewhere
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


def terms(text: str) -> frozenset[str]:
    """Content terms: folded, without asking words, stemmed as the keyword leg stems."""
    return content_terms(text, ignore=NOT_CONTENT)


class SentenceVectors:
    """Sentence vectors by text, with a bounded LRU cache (thread-safe)."""

    def __init__(self, embedder: Embedder, max_entries: int = 8192) -> None:
        self.embedder = embedder
        self.max_entries = max_entries
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._last_query: tuple[str, np.ndarray] | None = None
        self._lock = threading.Lock()
        forget_owner(self)  # an erasure empties it (text.caches)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._last_query = None

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
        """The question's vector; the last one is kept, so one turn embeds its question once
        (the answer service searches documents and memories with it, then ranks sentences)."""
        with self._lock:
            last = self._last_query
        if last is not None and last[0] == text:
            return last[1]
        vector = np.asarray(self.embedder.embed_query(text), dtype=np.float32)
        with self._lock:
            self._last_query = (text, vector)
        return vector


# What kind of thing a question asks for, from its asking words (folded; pt / en / es).
_ASKS = {
    "date": re.compile(r"\b(?:quando|when|cuando)\b|\b(?:que|qual|which|what|cual|en que|em que)"
                       r" (?:ano|anos|data|dia|seculo|decada|epoca|mes|year|date|day|century"
                       r"|decade|month|fecha|siglo)\b"),
    "number": re.compile(r"\b(?:quantos|quantas|quanto|quanta|cuantos|cuantas|cuanto|cuanta"
                         r"|how (?:many|much|long|old|far))\b|\b(?:qual|what|cual) (?:e |es |is )?"
                         r"(?:o |a |el |la |the )?(?:numero|valor|quantidade|cantidad|percentual"
                         r"|porcentagem|porcentaje|tamanho|idade|edad|populacao|number|amount"
                         r"|percentage|size|age|population)\b"),
    "person": re.compile(r"\b(?:quem|who|whom|whose|quien|quienes)\b"),
    "place": re.compile(r"\b(?:onde|aonde|where|donde)\b|\b(?:que|qual|which|what|cual|em que"
                        r"|en que|in which|in what) (?:pais|paises|cidade|estado|lugar|local"
                        r"|regiao|continente|country|city|state|place|region|ciudad|region)\b"),
}
_MONTHS = ("janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro "
           "dezembro january february march april june july august september october november "
           "december enero febrero marzo mayo junio julio septiembre octubre noviembre diciembre")
_TOKEN = re.compile(r"[0-9a-z]+")  # a folded word or number (what a question already names)
_DATE = re.compile(r"\b(?:1\d{3}|20\d{2})\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\bseculo\b|\bcentury\b"
                   r"|\bsiglo\b|\b(?:" + "|".join(_MONTHS.split()) + r")\b")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*\b|\b(?:dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez"
                     r"|onze|doze|vinte|trinta|cem|cento|mil|milhao|milhoes|bilhao|bilhoes|dezenas"
                     r"|centenas|milhares|two|three|four|five|six|seven|eight|nine|ten|hundred"
                     r"|thousand|million|billion|dos|cuatro|seis|siete|ocho|nueve|diez|cien|millon"
                     r"|millones)\b|%")
_PROPER = re.compile(r"(?<=[\w,;:)]\s)[A-ZÀ-ÖØ-Þ][\wÀ-ÿ'’-]+")  # capitalized, not opening


# A sentence that points back ("Isso…", "Essa metodologia…", "Ela foi…", "Para isto,…"):
# it continues the sentence before it and does not stand alone.
_POINTS_BACK = re.compile(
    r"^\W*(?:e\s+|and\s+|y\s+)?(?:(?:para|por|com|de|em|a|como|apos|for|in|by|en|con)\s+)?(?:isso|isto|esse|essa|esses|essas|este|esta|estes|estas"
    r"|ele|ela|eles|elas|tal|tais|aquele|aquela|aqueles|aquelas|dessa|desta|nesse|neste|nessa|nesta"
    r"|disso|disto|assim|trata-se|ou seja|em outras palavras|por isso|com isso|alem disso"
    r"|it|its|this|these|those|he|she|they|their|such|thus|therefore|in other words"
    r"|eso|esto|ese|esos|esas|ellos|ellas|asi|es decir|por eso|ademas)\b")


def points_back(sentence: str) -> bool:
    """Whether `sentence` opens by referring to the one before it (see `_POINTS_BACK`)."""
    return bool(_POINTS_BACK.match(fold(sentence)))


def asks_for(question: str) -> str | None:
    """"date", "number", "person", "place" or None: what the question's asking words want."""
    folded = fold(question)
    for kind, pattern in _ASKS.items():
        if pattern.search(folded):
            return kind
    return None


# A question asking what something is ("O que é dado pessoal sensível?", "What are the
# base rates?", "¿Qué es un plazo?", "Defina consentimento"), folded; group 1: the thing.
_DEFINITION_QUESTION = re.compile(
    r"^\W*(?:(?:e |mas |and |y )?(?:o que (?:e|sao|significa|quer dizer)|o que se entende por"
    r"|que (?:e|es|son|significa|se entiende por)|what (?:is|are|does)|what's|define|defina"
    r"|definicao de|definicion de|significado de|meaning of))\s+(?:(?:o|a|os|as|um|uma|the|an?"
    r"|el|la|los|las|un|una)\s+)?(.+?)\W*$")
# What opens a definition: an enumeration label ("II - ", "a) ", "1. ", "§ 2º "), then the
# defined thing up to a colon or a copula ("X: …", "X é …", "X means …", "X son …").
_LABEL = re.compile(r"^\s*(?:(?:[ivxlcdm]+|[a-z]|\d+)\s*[-–—.)]\s+|§\s*\d+\S*\s+)?",
                    re.IGNORECASE)
_DEFINES = re.compile(r"^(.{2,80}?)(?:\s*:|\s+(?:é|são|is|are|means|significa|es|son"
                      r"|consiste|refere-se|corresponde)\s)")


@dataclass(frozen=True)
class Defined:
    """What a definition question asks about: its content terms, and its content words in
    order (folded, unstemmed) and its language, for a head written in another language."""

    terms: frozenset[str]
    words: tuple[str, ...]
    language: str = ""

    def __bool__(self) -> bool:
        return bool(self.terms)


NOT_A_DEFINITION = Defined(frozenset(), ())


def _content_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in _TOKEN.findall(fold(text)) if len(w) >= 3 and w not in NOT_CONTENT)


def defined_thing(question: str) -> Defined:
    """What a definition question asks about (falsy: not one)."""
    match = _DEFINITION_QUESTION.match(fold(question))
    if not match:
        return NOT_A_DEFINITION
    return Defined(terms(match.group(1)), _content_words(match.group(1)),
                   question_language(question))


def defines(unit_text: str, thing: Defined, language: str = "") -> bool:
    """Whether the sentence or item opens by defining exactly `thing` ("dado pessoal
    sensível: dado pessoal sobre origem racial…"; not "dado pessoal: …"). In a passage in
    another `language` than the question's, the head may match word for word, each a close
    cognate ("dato personal sensible" → "dado pessoal sensível", `COGNATE_RATIO`); within
    one language a near word is another word ("pesquisa" is not "pesquisador")."""
    if not thing:
        return False
    text = unit_text[_LABEL.match(unit_text).end():]  # type: ignore[union-attr]
    head = _DEFINES.match(text)
    if head is None:
        return False
    if terms(head.group(1)) == thing.terms:
        return True
    if not language or not thing.language or language == thing.language:
        return False
    words = _content_words(head.group(1))
    return len(words) == len(thing.words) and all(
        SequenceMatcher(None, a, b).ratio() >= COGNATE_RATIO
        for a, b in zip(words, thing.words, strict=True))


def names_a(kind: str | None, sentence: str, question: str) -> bool:
    """Whether `sentence` holds a `kind` (see `asks_for`) that the question does not."""
    if kind is None:
        return False
    asked = set(_TOKEN.findall(fold(question)))
    if kind in ("date", "number"):
        pattern = _DATE if kind == "date" else _NUMBER
        return any(m.group(0) == "%" or m.group(0) not in asked
                   for m in pattern.finditer(fold(sentence)))
    return any(fold(m.group(0)) not in asked for m in _PROPER.finditer(sentence))


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
    thing = defined_thing(question)
    wants_list = bool(_LIST_QUESTION.search(fold(question))) and not thing
    if thing:  # a glossary passage may rank low among passages that use the term a lot
        max_sources = max(max_sources, len(sources))
    wants = asks_for(question)
    pool: list[tuple[int, NumberedSource, Unit, frozenset[str]]] = []
    leads: set[tuple[int, int]] = set()  # (source, start) of sentences that open a list
    for rank, source in enumerate(sources[:max_sources], start=1):
        previous: Unit | None = None
        units = segment(source.hit.text)
        # a list's lead is quoted as the whole block: its items are evidence for it too
        blocks = {u.start: u for u in units if u.kind == "block"}
        for unit in units:
            if unit.kind == "block":
                leads.add((source.number, unit.start))
            elif unit.quotable:
                block = blocks.get(unit.start)
                shared = question_terms & terms(unit.text if block is None else block.text)
                if previous is not None and points_back(unit.text):
                    shared |= question_terms & terms(previous.text)  # what "isso" stands for
                pool.append((rank, source, unit, shared))
            if unit.kind != "block":
                previous = unit
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
        if names_a(wants, unit.text, question):
            score += TYPE_BONUS
        if wants_list and (source.number, unit.start) in leads:
            score += LIST_BONUS
        if defines(unit.text, thing, source.hit.language):
            score += DEFINITION_BONUS
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


def _in_context(quote: Quote) -> Quote:
    """A sentence that points back is quoted with the sentence before it; one followed by
    a sentence that points back, with that sentence (neither stands alone)."""
    if quote.unit.kind != "sentence":
        return quote
    units = [u for u in segment(quote.hit.text) if u.kind != "block"]
    at = next((i for i, u in enumerate(units) if u.start == quote.unit.start), None)
    if at is None:
        return quote
    start, end = quote.unit.start, quote.unit.end
    if at > 0 and units[at - 1].kind == "sentence" and points_back(quote.unit.text) \
            and units[at - 1].quotable:
        start = units[at - 1].start
    elif at + 1 < len(units) and units[at + 1].kind == "sentence" \
            and points_back(units[at + 1].text) and units[at + 1].quotable:
        end = units[at + 1].end
    if (start, end) == (quote.unit.start, quote.unit.end):
        return quote
    text = quote.hit.text[start:end]
    return dataclasses.replace(quote, unit=dataclasses.replace(quote.unit, start=start, end=end,
                                                               text=text))


def _second_opinion(candidate: Quote, chosen: list[Quote],
                    sources: Sequence[NumberedSource]) -> bool:
    """Whether `candidate`, from another document than the first quote, is quoted too: it is
    the best sentence of the top-ranked passage's document (search and sentence ranking
    disagree), it scores close to the first quote, and no other document is quoted yet."""
    return (bool(sources) and candidate.hit.doc_id == sources[0].hit.doc_id
            and all(q.hit.doc_id == chosen[0].hit.doc_id for q in chosen)
            and candidate.score >= chosen[0].score - SECOND_OPINION_MARGIN)


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
        if chosen and ordered is ranked and candidate.hit.doc_id != chosen[0].hit.doc_id \
                and not _second_opinion(candidate, chosen, sources):
            continue  # the answer quotes the document that holds it
        if chosen and ordered is ranked and candidate.semantic is None \
                and not candidate.shared_terms:
            continue  # keywords alone rank: a sentence without any is no evidence
        quote = _as_block(candidate)
        quote = _in_context(quote)
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


@dataclass(frozen=True)
class PersonalQuote:
    """A line of a sources-only answer that the documents could not give: a memory, or a
    turn of an earlier chat (`date_label` set), quoted as it was said."""

    text: str
    date_label: str = ""  # of its chat, in the answer's language
    conversation_id: str = ""
    started_at: str = ""  # of its chat (ISO 8601): the window dates it in the UI's language


def personal_quotes(question: str, memories: Sequence[MemoryItem],
                    exchanges: Sequence[EarlierExchange]) -> list[PersonalQuote]:
    """What the context block holds that speaks to the question, for an answer without a
    model when the documents do not answer: the memories and the turns of earlier chats
    that share a content term with the question, each turn with the one it answers
    ("What is your date of birth?" → "March 15th, 1985."). Empty when nothing does: the
    block always has its best matches, relevant or not."""
    wanted = terms(question)
    if not wanted:
        return []
    quotes = [PersonalQuote(m.text) for m in memories if terms(m.text) & wanted]
    said: list[tuple[tuple[str, str, int], PersonalQuote]] = []  # in the order said
    for exchange in exchanges:
        turns = exchange.turns
        shown: set[int] = set()
        for i, (_, _, text) in enumerate(turns):
            if terms(text) & wanted:
                shown.add(i)
                if (text.rstrip().endswith("?") and i + 1 < len(turns)
                        and turns[i][1] != turns[i + 1][1]):
                    shown.add(i + 1)  # the reply to a matching question
        said += [((exchange.started_at, exchange.conversation_id, exchange.position + i),
                  PersonalQuote(" ".join(turns[i][2].split()), exchange.date_label,
                                exchange.conversation_id, exchange.started_at))
                 for i in shown]
    quotes += [q for _, q in sorted(said, key=lambda pair: pair[0])]
    return list({q.text: q for q in quotes}.values())
