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

Miss analysis and measured effect of each signal: docs/answers.md.
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

from desktop_app.answer.kinds import asked_kind, asked_value, states
from desktop_app.answer.prompt import MemoryItem, NumberedSource
from desktop_app.answer.rewrite import topic_words
from desktop_app.answer.segments import Unit, segment
from desktop_app.answer.units import (
    StructuralUnit,
    may_be_law,
    may_have_sections,
    mostly_revoked,
    search_units,
    section_label,
    show,
    units_near,
)
from desktop_app.memory.types import EarlierExchange
from desktop_app.retrieval.doc_text import DocumentTexts
from desktop_app.retrieval.types import Embedder, Hit
from desktop_app.text.analyze import content_terms
from desktop_app.text.caches import forget_owner
from desktop_app.text.fold import fold
from desktop_app.text.language import question_language
from desktop_app.text.stem import light_stem
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.when import resolve

MAX_SOURCES_CONSIDERED = 8  # passages whose sentences compete (FaQuAD: gold in the top 8 ~0.98)
MAX_CANDIDATES = 32  # sentences embedded per question, best keyword evidence first
MAX_QUOTES = 3
# another article's whole list is quoted after the first only within this of its score
# ("Que tipos de multa…?": art. 52, not then art. 7º's and art. 55-J's lists, 0.07-0.09 behind)
LATER_UNIT_MARGIN = 0.05
MAX_QUOTE_CHARS = 1000  # a quote longer than this is cut at a word (blocks: per item)
LEXICAL_WEIGHT = 0.08  # × the shared terms' rarity (a term in every candidate counts ~0)
RANK_PRIOR = 0.01  # added for the top passage, falling as 1/rank
LIST_BONUS = 0.08  # a question asking for several things ("quais são…") prefers a list's lead
TYPE_BONUS = 0.01  # "quem/quando/quanto/onde…": the sentence names a person/date/number/place
# a unit of a law states the kind of value asked (a duration for "prazo", an amount for
# "quanto custa", a percentage…: answer/kinds.py): a law's units are full of numbers that
# are not values (labels, references are taken out), so one that states the kind is strong
# evidence, unlike a sentence naming any number or name (TYPE_BONUS)
STATES_WEIGHT = 0.04
# and as much again when the question can only be answered by such a value ("Qual o prazo…?",
# "Quanto ganha…?", kinds.asked_value): a unit without one does not answer it
STATES_VALUE_WEIGHT = 0.04
DEFINITION_BONUS = 0.1  # "o que é X?": the sentence or item that defines exactly X ("X: …")
COGNATE_RATIO = 0.7  # dato/dado 0.75, personal/pessoal 0.80, sensible/sensivel 0.75
SECOND_OPINION_MARGIN = 0.05  # the top passage's best sentence joins a close answer from elsewhere
# a unit of a law: how much of what its lead and its division's title say the question asks
LEAD_PRECISION_WEIGHT = 0.05
HEADING_PRECISION_WEIGHT = 0.03
UNIT_SEARCH_DOCUMENTS = 2  # structured documents whose own units are searched
LIST_NEIGHBOURS = 6  # two items of one list among this many best candidates: quote the list
UNIT_SEARCH_LIMIT = 10  # units taken from each
PHRASE_WEIGHT = 0.05  # a unit of a law: the question's word pairs it says in the same order
PREVIOUS_WEIGHT = 0.03  # a follow-up: a unit of an article the previous answer quoted
ASKED_WEIGHT = 0.1  # a follow-up: the share of its own words (not the carried ones) a unit has
NARROWS_WEIGHT = -0.02  # a unit of a law about a special case of what was asked
CONTRASTS_WEIGHT = -0.04  # a unit of a law about a sibling of what was asked (extractive.contrasts)
PREVIOUS_DOC_WEIGHT = 0.02  # a follow-up: a candidate of a document the last answer quoted
# a follow-up: a candidate with none of its own words that does not state what it asks for
# either ("e qual o prazo…?" answered by a § that only repeats the previous question's topic)
UNASKED_WEIGHT = -0.1
PREVIOUS_OTHER_SHARE = 0.5  # an article the last answer quoted after its first quote
CARRIED_TERM_SHARE = 0.5  # a follow-up: what a word its rewrite carried counts as evidence
# a unit of a law that says nothing the question does not ("II - Conselho Nacional de
# Proteção de Dados…;" asked who sits on that council): it names the topic, answers nothing
ECHO_WEIGHT = -0.05
# a candidate's score: the weighted sum of its features (`rank_candidates`)
WEIGHTS = {"cosine": 1.0, "keywords": LEXICAL_WEIGHT, "prior": RANK_PRIOR, "names": TYPE_BONUS,
           "states": STATES_WEIGHT, "states_value": STATES_VALUE_WEIGHT,
           "list": LIST_BONUS, "defines": DEFINITION_BONUS,
           "lead_precision": LEAD_PRECISION_WEIGHT, "heading_precision": HEADING_PRECISION_WEIGHT,
           "phrases": PHRASE_WEIGHT, "previous": PREVIOUS_WEIGHT, "asked": ASKED_WEIGHT,
           "narrows": NARROWS_WEIGHT, "contrasts": CONTRASTS_WEIGHT, "previous_doc": PREVIOUS_DOC_WEIGHT,
           "unasked": UNASKED_WEIGHT, "echo": ECHO_WEIGHT}
# "quais", "cuáles", "what are", "which were", "list the": a question that wants a list
_LIST_QUESTION = re.compile(r"\b(?:quais|cuales|(?:what|which) (?:are|were)|list|liste|enumere)\b")
# "Que princípios…", "Em que situações…", "De que formas…", "Which courses…", "¿En qué
# casos…": an asking word before a plural noun (a law's units only: `wants_many`)
_PLURAL_ASKED = re.compile(
    r"\b(?:que|quais|which|what|cuales|cuantas|cuantos)\s+(?:(?:[a-z]+)\s+)?(?!(?:does|was|is"
    r"|has|des|tres|mais|menos)\b)[a-z]{3,}(?:s|es)\b")


def wants_many(question: str) -> bool:
    """Whether the question asks for several things (a list), also without "quais"."""
    folded = fold(question)
    return bool(_LIST_QUESTION.search(folded) or _PLURAL_ASKED.search(folded))
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
    structural: StructuralUnit | None = None  # a unit of a law (its path, lines, notes)
    features: dict[str, float] = dataclasses.field(default_factory=dict, compare=False)

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
                     r"|thousand|million|billion|cuatro|seis|siete|ocho|nueve|diez|cien|millon"
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
    r"|definicao de|definicion de|significado de|meaning of|quem e|who is|quien es))"
    r"\s+(?:(?:o|a|os|as|um|uma|the|an?|el|la|los|las|un|una)\s+)?(.+?)\W*$")
# The same asked anywhere in the question: "O que a LGPD entende por controlador?", "Qual a
# definição de consentimento …?", "Como a LDB define …?", "What does the act mean by …?"
_DEFINITION_CUE = re.compile(
    r"\b(?:entende(?:-se)? por|entendem por|se entiende por|considera(?:-se)? como"
    r"|(?:conceito|definicao|definicion|significado|meaning) (?:de|of)|means? by"
    r"|(?:define|defines|definem|conceitua)) (?:(?:o|a|os|as|um|uma|the|an?|el|la|los|las"
    r"|un|una) )?(.+?)\W*$")
# "…, segundo a LGPD", "… na lei de proteção de dados", "… under the act": where the
# question says what it asks about, not what it asks (matched on the unfolded question: an
# acronym is a run of capitals)
_QUALIFIER = re.compile(
    r"\W*,?\s+(?i:segundo|conforme|de acordo com|para|pela|pelo|na|no|nesta|neste"
    r"|according to|under|según|segun|de acuerdo con)\s+(?i:(?:a|o|as|os|la|el|the|esta|este"
    r"|essa|esse)\s+)?(?:(?i:lei|norma|legisla[çc][ãa]o|law|act|ley|regulamento|decreto"
    r"|documento|texto|c[óo]digo|constitui[çc][ãa]o)|[A-Z]{2,6})\b[^?!.]*")


def without_qualifier(question: str) -> str:
    """The question without a trailing phrase naming its source ("…, segundo a LGPD?")."""
    return _QUALIFIER.sub("", question)


# What opens a definition: an enumeration label ("II - ", "a) ", "1. ", "§ 2º "), then the
# defined thing up to a colon or a copula ("X: …", "X é …", "X means …", "X son …").
_LABEL = re.compile(r"^\s*(?:(?:[ivxlcdm]+|[a-z]|\d+)\s*[-–—.)]\s+|§\s*\d+\S*\s+"
                    r"|art(?:igo)?\.?\s*\d+[º°o]?(?:-[a-z])?\.?\s+)?", re.IGNORECASE)
_DEFINES = re.compile(r"^(.{2,80}?)(?:\s*:|\s+(?:é|são|is|are|means|significa|es|son"
                      r"|consiste|refere-se|corresponde)\s"
                      # "públicas, assim entendidas as criadas …" (a law's classification)
                      r"|,\s+assim\s+(?:entendid|considerad|definid|denominad|compreendid)"
                      # "A educação infantil, primeira etapa da educação básica, tem como
                      # finalidade …" (an apposition, then what it is or is for)
                      r"|,\s+[^,:;]{3,80},\s+(?:(?:tem|têm)\s+(?:como|por)\s+(?:finalidade"
                      r"|objetivo|fim)|é|são|consiste)\s)")


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
    """What a definition question asks about (falsy: not one), without the qualifier that
    names the source ("…, segundo a LGPD")."""
    folded = fold(without_qualifier(question))
    match = _DEFINITION_CUE.search(folded) or _DEFINITION_QUESTION.match(folded)
    if not match:
        return NOT_A_DEFINITION
    thing = match.group(1)
    return Defined(terms(thing), _content_words(thing), question_language(question))


def defines(unit_text: str, thing: Defined, language: str = "") -> bool:
    """Whether the sentence or item opens by defining exactly `thing` ("dado pessoal
    sensível: dado pessoal sobre origem racial…"; not "dado pessoal: …"). In a passage in
    another `language` than the question's, the head may match word for word, each a close
    cognate ("dato personal sensible" → "dado pessoal sensível", `COGNATE_RATIO`); within
    one language a near word is another word ("pesquisa" is not "pesquisador")."""
    if not thing:
        return False
    head = _defined_head(unit_text)
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


def _defined_head(text: str) -> re.Match[str] | None:
    """The thing `text` opens by defining, past its label (`_DEFINES`'s group 1), or None."""
    return _DEFINES.match(text[_LABEL.match(text).end():])  # type: ignore[union-attr]


def _defines_in_list(law: StructuralUnit, thing: Defined) -> bool:
    """An item of a law's list defining the asked thing with its list's lead: "As
    instituições de ensino … classificam-se nas seguintes categorias: I – públicas, assim
    entendidas as …" defines "instituições de ensino públicas" (the item names what the
    lead does not; together they name exactly the thing)."""
    if not thing or law.holder is None or not law.lines:
        return False
    head = _defined_head(law.lead)
    if head is None:
        return False
    named = terms(head.group(1))
    rest = thing.terms - named
    return bool(named) and bool(rest) and named < thing.terms and rest <= terms(law.lines[0])


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


def _pairs(text: str) -> set[tuple[str, str]]:
    words = [light_stem(w) for w in _TOKEN.findall(fold(text))
             if w not in NOT_CONTENT and (len(w) >= 3 or w.isdigit())]
    return set(zip(words, words[1:], strict=False))


# words that go on a sentence without narrowing the thing it names: verbs of a law's
# provisions and adverbs ("O tratamento de dados pessoais somente poderá…")
_NOT_NARROWING = frozenset(fold(w) for w in ["será", "serão", "poderá", "poderão", "deverá", "deverão", "é", "são", "tem", "têm", "terá", "terão", "fica", "ficam", "deve", "devem", "pode", "podem", "compete", "cabe", "constitui", "constituem", "compreende", "compreendem", "abrange", "inclui", "shall", "may", "must", "will", "is", "are", "has", "have", "can", "será", "podrá", "deberá", "es", "son", "tiene", "puede", "deben"])


_PREPOSITIONS = frozenset(["de", "da", "do", "das", "dos", "pelo", "pela", "pelos", "pelas", "por", "para", "em", "no", "na", "nos", "nas", "com", "of", "for", "by", "in", "para", "del", "con"])
# an adverb (-mente), a participle or an infinitive: the sentence goes on, it does not
# qualify the thing named ("… será composto de", "… definidos como", "… somente poderá")
_GOES_ON = re.compile(r"(?:mente|[aei]d[oa]s?|[aei]r|ndo)$")


def _content_tokens(text: str) -> list[str]:
    return [w for w in _TOKEN.findall(fold(text)) if w not in NOT_CONTENT
            and (len(w) >= 3 or w.isdigit())]


def narrows(question: str, text: str) -> bool:
    """Whether `text` names what the question asks about with a qualifier the question does
    not have: asked about "tratamento de dados pessoais", it says "tratamento de dados
    pessoais sensíveis" (the special case, not the rule). The longest run of the question's
    content words (two or more) that `text` says in order, and the word right after it in
    `text` (past one preposition: "… pelas pessoas jurídicas"): a qualifier unless it is in
    the question, a function word, an adverb, a participle, an infinitive or a verb that
    goes on the sentence ("… será composto de", "… somente poderá")."""
    asked = [light_stem(w) for w in _content_tokens(without_qualifier(question))]
    raw = _TOKEN.findall(fold(text))
    content = [i for i, w in enumerate(raw) if w not in NOT_CONTENT and (len(w) >= 3
                                                                          or w.isdigit())]
    stems = [light_stem(raw[i]) for i in content]
    best, end = 0, -1
    for i in range(len(stems)):
        for j in range(len(asked)):
            n = 0
            while i + n < len(stems) and j + n < len(asked) and stems[i + n] == asked[j + n]:
                n += 1
            if n > best:
                best, end = n, content[i + n - 1]
    if best < 2:
        return False
    after = end + 1
    if after < len(raw) and raw[after] in _PREPOSITIONS:
        after += 1
    if after >= len(raw):
        return False
    following = raw[after]
    return (following not in NOT_CONTENT and following not in _NOT_NARROWING
            and light_stem(following) not in asked and not _GOES_ON.search(following))


_ADJACENT = re.compile(r"(\w+)(?=\s+(\w+))")


# what cannot qualify a thing: a verb's plural or past ("despesas contam", "dados ficaram")
# and adverbs ("os dados ainda…")
_NOT_QUALIFIER = re.compile(r"(?:am|em|ou|iam|mente)$|^(?:ainda|sempre|apenas|somente|tambem"
                            r"|ja|mais|menos|muito|bem|mal|hoje|agora|nunca|jamais|so)$")


def _adjacent_pairs(text: str) -> list[tuple[str, str]]:
    """A thing and the word right after it (no punctuation between, both content words, the
    second one not a verb or an adverb: "educação básica", "trabalho escolar"),
    light-stemmed."""
    out = []
    for match in _ADJACENT.finditer(fold(text)):
        first, second = match.group(1), match.group(2)
        if (all(w not in NOT_CONTENT and len(w) >= 3 and not w.isdigit() for w in (first, second))
                and not _NOT_QUALIFIER.search(second) and not _GOES_ON.search(second)
                and second not in _NOT_NARROWING):
            out.append((light_stem(first), light_stem(second)))
    return out


def contrasts(question: str, text: str) -> bool:
    """Whether `text` names a thing of the question with another qualifier, and never with
    the question's: asked about "educação básica", it says "educação superior"; asked about
    "trabalho escolar", "trabalho acadêmico" (a sibling provision, not the one asked). Only
    a qualifier right after the thing counts, and not a word that goes on the sentence."""
    asked = _adjacent_pairs(without_qualifier(question))
    if not asked:
        return False
    said = _adjacent_pairs(text)
    said_set = set(said)
    asked_words = {w for pair in asked for w in pair} | {
        light_stem(w) for w in _content_tokens(question)}
    for head, qualifier in asked:
        if (head, qualifier) in said_set:
            continue
        for first, second in said:
            if first == head and second not in asked_words:
                return True
    return False


def shared_phrases(question: str, text: str) -> float:
    """The share of the question's pairs of consecutive content words that `text` also has
    side by side ("dados pessoais sensíveis", "efetivo trabalho escolar")."""
    asked = _pairs(without_qualifier(question))
    return len(asked & _pairs(text)) / len(asked) if asked else 0.0


def rank_candidates(question: str, sources: Sequence[NumberedSource],
                    vectors: SentenceVectors | None, *,
                    max_sources: int = MAX_SOURCES_CONSIDERED,
                    documents: DocumentTexts | None = None,
                    previous_articles: frozenset[tuple[str, str]] = frozenset(),
                    first_articles: frozenset[tuple[str, str]] = frozenset(),
                    asked: str = "") -> tuple[list[Quote], int]:
    """Score every quotable sentence and item of the top passages; best first.
    Returns the ranked candidates and how many sentence vectors were computed. `asked`: a
    follow-up's own words when `question` is its rewrite (the carried topic words find the
    passages; the asked words say what is wanted from them)."""
    thing = defined_thing(question)
    # what the question asks about: a definition's thing; else its words without the
    # phrase naming the source ("segundo a LGPD")
    question_terms = thing.terms or terms(without_qualifier(question))
    # a follow-up's own topic words ("e qual o prazo para atender essas solicitações?":
    # prazo, atender, solicitações — not "essas", which points back)
    own_terms = (terms(" ".join(topic_words(without_qualifier(asked)))) & question_terms
                 if asked else question_terms)
    wants_list = bool(_LIST_QUESTION.search(fold(question))) and not thing
    wants_units_list = wants_many(question) and not thing  # for the units of a law
    if thing:  # a glossary passage may rank low among passages that use the term a lot
        max_sources = max(max_sources, len(sources))
    wants = asks_for(question)
    unit_kind = asked_kind(question)  # a law's units: the kinds of answer/kinds.py
    unit_value = asked_value(question)  # … when only a value of that kind answers
    pool: list[tuple[int, NumberedSource, Unit, frozenset[str]]] = []
    leads: set[tuple[int, int]] = set()  # (source, start) of sentences that open a list
    structural: dict[int, StructuralUnit] = {}  # pool index → the unit of a law it quotes
    seen_units: set[tuple[str, int, str]] = set()
    searched: dict[tuple[str, str], NumberedSource] = {}  # laws among the passages, best first

    def add_unit(found: StructuralUnit, rank: int, source: NumberedSource) -> None:
        if found.key in seen_units:
            return
        seen_units.add(found.key)
        text = show(found)
        unit = Unit(0, len(found.hit.text), found.hit.text, found.kind, found.key[1],
                    items=found.items, display=text)
        structural[len(pool)] = found
        pool.append((rank, dataclasses.replace(source, hit=found.hit), unit,
                     question_terms & terms(" ".join((*found.headings[-1:], text)))))
    for rank, source in enumerate(sources[:max_sources], start=1):
        document = (documents.get(source.hit.library, source.hit.doc_id)
                    if documents is not None and may_be_law(source.hit) else None)
        laws = units_near(document, source.hit) if document is not None else None
        if laws is not None:  # a law: its units compete, not the chunk's sentences
            searched.setdefault((source.hit.library, source.hit.doc_id), source)
            for found in laws:
                add_unit(found, rank, source)
            continue
        previous: Unit | None = None
        units = segment(source.hit.text)
        # a list's lead is quoted as the whole block: its items are evidence for it too
        blocks = {u.start: u for u in units if u.kind == "block"}
        for unit in units:
            if unit.kind == "block":
                leads.add((source.number, unit.start))
            elif unit.quotable and not mostly_revoked(
                    unit.text, [(a - unit.start, b - unit.start) for a, b in source.hit.revoked]):
                block = blocks.get(unit.start)
                shared = question_terms & terms(unit.text if block is None else block.text)
                if previous is not None and points_back(unit.text):
                    shared |= question_terms & terms(previous.text)  # what "isso" stands for
                pool.append((rank, source, unit, shared))
            if unit.kind != "block":
                previous = unit
    # a structured document's own units that use the question's words (an article search
    # ranked low, a glossary item): one search per document, after its passages
    language = question_language(question)
    for (library, doc_id), source in list(searched.items())[:UNIT_SEARCH_DOCUMENTS]:
        document = documents.get(library, doc_id) if documents is not None else None
        if document is None:
            continue
        found_units = search_units(
            document, source.hit, " ".join(topic_words(without_qualifier(question))),
            limit=UNIT_SEARCH_LIMIT,
            also=(lambda text: defines(text, thing, language)) if thing else None)
        for found in found_units:
            add_unit(found, max_sources + 1, source)
    # a long list of passages: embed the sentences with keyword evidence first
    # (a law's item defining the asked thing always competes)
    defining = {i for i, law in structural.items() if defines(law.lead, thing, language)}
    order = sorted(range(len(pool)), key=lambda i: (i not in defining,
                                                     -len(pool[i][3] & own_terms),
                                                     -len(pool[i][3]), pool[i][0],
                                                     pool[i][2].position))[:MAX_CANDIDATES]
    chosen_laws = [structural.get(i) for i in order]
    pool = [pool[i] for i in order]
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
    for i, ((rank, source, unit, shared), cosine) in enumerate(zip(pool, semantic, strict=True)):
        law = chosen_laws[i]
        keywords = sum(math.log(1 + len(pool) / frequency[t]) * (1.0 if t in own_terms
                                                                  else CARRIED_TERM_SHARE)
                       for t in shared) / scale
        is_list = law.is_list if law is not None else (source.number, unit.start) in leads
        asks_list = wants_units_list if law is not None else wants_list
        features = {
            "cosine": cosine or 0.0, "keywords": keywords, "prior": 1 / rank,
            "names": float(law is None and names_a(wants, unit.text, question)),
            "states": float(law is not None and states(unit_kind, unit.shown)),
            "states_value": float(law is not None and unit_value is not None
                                  and states(unit_value, unit.shown)),
            "list": float(asks_list and is_list),
            "defines": float(defines(law.lead if law is not None else unit.text, thing,
                                     source.hit.language)),
        }
        if law is not None and not features["defines"]:
            features["defines"] = float(_defines_in_list(law, thing))
        if law is not None:
            features["lead_precision"] = law.lead_precision(question_terms)
            features["heading_precision"] = law.heading_precision(question_terms)
            features["phrases"] = shared_phrases(question, law.lead + " " + law.title)
            features["narrows"] = float(narrows(question, law.topic))
            features["contrasts"] = float(contrasts(question, law.lead + "\n" + law.topic))
            says = terms(law.topic)
            features["echo"] = float(not law.is_list and bool(says) and says <= question_terms)
            place = (law.key[0], law.article)  # the first quote's article counts in full
            features["previous"] = (1.0 if place in first_articles else
                                    PREVIOUS_OTHER_SHARE * (place in previous_articles))
            if asked and own_terms:
                features["asked"] = len(own_terms & shared) / len(own_terms)
        if previous_articles:
            features["previous_doc"] = float((source.hit.doc_id, "") in previous_articles)
        if asked and own_terms:  # the carried words find the passages, its own say what
            features["unasked"] = float(not (own_terms & shared) and not features["names"]
                                        and not features["states"])
        score = sum(WEIGHTS[name] * value for name, value in features.items())
        quotes.append(Quote(source.number, source.hit, unit, score, cosine, len(shared), law,
                            features))
    quotes.sort(key=lambda c: (-c.score, c.source, c.unit.position))
    return quotes, embedded


def _as_block(quote: Quote) -> Quote:
    """A lead sentence ("… seguintes hipóteses:") becomes the block with its items."""
    if quote.structural is not None or not quote.unit.text.rstrip().endswith(":"):
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
                   max_quotes: int = MAX_QUOTES,
                   documents: DocumentTexts | None = None,
                   previous_articles: frozenset[tuple[str, str]] = frozenset(),
                   first_articles: frozenset[tuple[str, str]] = frozenset(),
                   asked: str = "") -> ExtractiveAnswer:
    """The best quotes for `question` from `sources` (see the module docstring)."""
    ranked, embedded = rank_candidates(question, sources, vectors, documents=documents,
                                       previous_articles=previous_articles,
                                       first_articles=first_articles, asked=asked)
    matched = any(q.shared_terms for q in ranked)
    many = wants_many(question) and not defined_thing(question)
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
        candidate = _whole_list(candidate, ordered, many)
        if chosen and ordered is ranked and candidate.hit.doc_id != chosen[0].hit.doc_id \
                and not _second_opinion(candidate, chosen, sources):
            continue  # the answer quotes the document that holds it
        if chosen and ordered is ranked and candidate.semantic is None \
                and not candidate.shared_terms:
            continue  # keywords alone rank: a sentence without any is no evidence
        if chosen and ordered is ranked and _unrelated_list(candidate, chosen[0]):
            continue  # another article's whole list, well behind: noise, not context
        quote = _as_block(candidate)
        quote = _in_context(quote)
        words = _folded_words(quote.unit.text)
        if any(_near_duplicate(words, other) for other in seen):
            continue  # overlapping chunks repeat sentences; a block already holds its items
        chosen.append(_under_section(quote, documents))
        seen.append(words)
    return ExtractiveAnswer(tuple(chosen), tuple(ranked), matched, terms(question), embedded)


def _unrelated_list(candidate: Quote, first: Quote) -> bool:
    """Whether `candidate` is the whole list of an article in another division (chapter,
    section) than the first quote's, scoring more than `LATER_UNIT_MARGIN` behind it. The
    next article of the same chapter is context (art. 19's deadlines after art. 18's
    rights, which a follow-up reads); another chapter's list is not."""
    law, top = candidate.structural, first.structural
    return (law is not None and top is not None and law.is_list
            and (law.key[0], law.headings) != (top.key[0], top.headings)
            and candidate.score < first.score - LATER_UNIT_MARGIN)


def _whole_list(candidate: Quote, ranked: Sequence[Quote], many: bool = False) -> Quote:
    """An item of a law's list gives way to the whole list when the question asks for
    several things ("Which courses does higher education comprise?": the list, not its
    line III) or another item of the same list is also among the best candidates (the
    answer is the list, not two of its lines)."""
    law = candidate.structural
    if law is None or law.holder is None or candidate.features.get("defines"):
        return candidate  # (a glossary item defining the asked thing is the answer)
    near = [q for q in ranked[:LIST_NEIGHBOURS] if q is not candidate]
    if not many and not any(q.structural is not None and q.structural.holder == law.holder
                            and q.structural.key[0] == law.key[0] for q in near):
        return candidate
    whole = next((q for q in ranked if q.structural is not None
                  and q.structural.key == (law.key[0], law.holder, "list")), None)
    return whole if whole is not None else candidate


def _under_section(quote: Quote, documents: DocumentTexts | None) -> Quote:
    """A sentence of a report or contract shown under its numbered section or clause
    ("Cláusula SEGUNDA, 2.1 › O prazo é de 12 meses."); a law's units carry their path."""
    if quote.structural is not None or documents is None or not may_have_sections(quote.hit):
        return quote
    document = documents.get(quote.hit.library, quote.hit.doc_id)
    label = section_label(document, quote.hit, quote.start) if document is not None else ""
    if not label:
        return quote
    return dataclasses.replace(quote, unit=dataclasses.replace(
        quote.unit, display=f"{label} › {quote.unit.shown}"))


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
    language = question_language(question)
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
        # "yesterday" in a chat of 8 May is quoted as "yesterday [7 May 2023]"
        said += [((exchange.started_at, exchange.conversation_id, exchange.position + i),
                  PersonalQuote(resolve(" ".join(turns[i][2].split()), exchange.started_at,
                                        language, brackets="[]"),
                                exchange.date_label, exchange.conversation_id,
                                exchange.started_at))
                 for i in shown]
    quotes += [q for _, q in sorted(said, key=lambda pair: pair[0])]
    return list({q.text: q for q in quotes}.values())
