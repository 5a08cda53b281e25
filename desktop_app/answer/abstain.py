"""Abstention: answer "not found" when the documents do not support an answer.

Decided once per question, before any model is called, for both answer modes, from
the evidence the sources-only ranking already computed:

- `margin`: the best question↔sentence cosine among the candidates minus the
  library's floor. A raw cosine threshold does not travel: with e5 an unrelated
  question scores 0.80–0.83 depending on the corpus (docs/answers.md, "Abstention"), so the threshold is
  relative to the library: the floor is the median best-passage similarity that
  everyday off-topic questions (`resources/abstention/probes.txt`, in the question's
  language) reach in this library, recomputed when the library grows or shrinks by
  10 %. Probes in the question's language keep cross-language questions fair: an
  English question scores lower against Portuguese text, and so do English probes.
- `coverage`: the share of the question's content terms (folded, stemmed, asking
  words left out) that occur in the top passages. "A capital da Austrália" shares
  "capital" with a privacy law but never "Austrália". Only used when the question and
  the passages are in the same language: across languages the gate counts every feature
  that compares words at its mean (`measurable`), and the meaning decides.

"Not found" when the margin is below `abstain_min_margin` or the coverage below
`abstain_min_coverage` (settings). When the passages use every content term of the
question (two or more terms), the two signals agree on the topic and half the margin
is enough (`abstain_min_margin_full_coverage`): on FaQuAD this halves false abstention
(0.031 → 0.013) with no change for the other set's questions; on Pirá false abstention
falls 0.049 → 0.035 while abstention on FaQuAD's questions falls 0.959 → 0.937.
Calibrated on Pirá (its own questions against FaQuAD's), checked on FaQuAD (docs/answers.md
"Abstention"). Those thresholds are the fallback; the bundled gate (answer/gate.py) decides
when its file is readable, from `gate_features`. Besides the margins and coverages, these
tell a passage on the same subject that does not hold the answer (a sibling paragraph)
from the one that does: the question's words weighted by their rarity in the whole library
(`passages_using`: how many passages the keyword leg finds for a word) found in the quote
and its passage, and contrasts of the first quote's document or article with the best
other one (`_specific_features`).
"""

from __future__ import annotations

import json
import math
import re
import statistics
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.answer.extractive import ExtractiveAnswer
from desktop_app.answer.gate import fit_summary, gate_path, load_gate
from desktop_app.answer.kinds import (
    asked_kind,
    asked_value,
    fills_slot,
    proper_names,
    specifics,
    stated_where_asked,
    states,
)
from desktop_app.answer.question_fit import shared_phrases, terms, without_qualifier
from desktop_app.answer.units import caputs
from desktop_app.config.paths import resource
from desktop_app.config.settings import Settings
from desktop_app.retrieval.types import Embedder, Hit
from desktop_app.text.fold import fold
from desktop_app.text.language import words_comparable
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.tables import cells

CLOSEST_PASSAGES = 3  # shown, collapsed, beside "not found"
EVIDENCE_PASSAGES = 4  # the passages whose terms count as evidence (as many as are ranked)
FULL_COVERAGE_MIN_TERMS = 2  # one covered word is weak evidence ("Qual a capital?")
FLOOR_REFRESH = 0.1  # recompute the floor when the library grew or shrank by this fraction
ABSENT_LOOKUPS = 6  # question words looked up in the whole library, at most
SPECIFIC_LOOKUPS = 10  # question words whose rarity in the library is looked up, at most
CONTRAST_CANDIDATES = 30  # the best candidates compared with the first quote
SPECIFIC_FEATURES = ("specific_quote", "specific_passage", "rarest_missing", "names_found",
                     "fills_slot", "phrases", "quote_rank", "sentence_gap", "top_agree",
                     "sentence_lead", "specific_lead", "quote_lead", "phrases_lead")

# the features that compare the question's words with the passages' words: across languages
# ("What rights does the data subject have?" asked of a Portuguese law) they measure the
# translation, not the answer, so the gate counts them at their mean (`measurable`)
LEXICAL_FEATURES = frozenset(("coverage", "quote_coverage", "absent", "both_legs",
                              "specific_quote", "specific_passage", "rarest_missing",
                              "phrases", "specific_lead", "quote_lead", "phrases_lead"))


def measurable(features: dict[str, float], same_language: bool) -> dict[str, float]:
    """The features that mean something for this question: all of them when the question
    and its passages share a language, else those that do not compare words (the meaning's
    margins, the agreement of the candidates, the kind of value asked and found, names)."""
    if same_language:
        return features
    return {name: value for name, value in features.items() if name not in LEXICAL_FEATURES}


@dataclass(frozen=True)
class Evidence:
    best_cosine: float | None  # best question↔sentence similarity (None: no embedder)
    floor: float | None  # what off-topic questions reach in this library
    coverage: float  # share of the question's content terms found in the top passages
    coverage_used: bool  # False when question and passages are in different languages
    question_terms: int
    missing: tuple[str, ...]  # content terms of the question the passages never use
    abstain: bool
    reason: str | None
    features: dict[str, float] = field(default_factory=dict)  # what the gate weighs
    support: float | None = None  # the gate's probability that the passages answer
    # abstaining, and the question can only be answered by a value of this kind that no
    # quote nor its passage states (answer/kinds.py: "money", "duration"…); else None
    missing_value: str | None = None

    @property
    def margin(self) -> float | None:
        if self.best_cosine is None or self.floor is None:
            return None
        return self.best_cosine - self.floor

    def trace(self) -> dict[str, Any]:
        return {"best_cosine": _round(self.best_cosine), "floor": _round(self.floor),
                "margin": _round(self.margin), "coverage": round(self.coverage, 3),
                "coverage_used": self.coverage_used, "question_terms": self.question_terms,
                "missing": list(self.missing), "abstain": self.abstain, "reason": self.reason,
                "features": {k: round(v, 4) for k, v in self.features.items()},
                "support": _round(self.support), "missing_value": self.missing_value}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def passages_language(hits: Sequence[Hit]) -> str | None:
    languages = Counter(h.language for h in hits[:EVIDENCE_PASSAGES] if h.language not in ("", "und"))
    return languages.most_common(1)[0][0] if languages else None


def _rarity(term: str, texts: Sequence[frozenset[str]]) -> float:
    """How rare a term is among the passages (an idf over the top passages)."""
    holding = sum(1 for t in texts if term in t)
    return math.log((len(texts) + 1) / (holding + 1)) + 1.0


def gate_features(question: str, extract: ExtractiveAnswer, hits: Sequence[Hit],
                  best: float | None, floor: float | None, coverage: float,
                  same_language: bool = True, absent: float = 0.0,
                  passages_using: Callable[[str], int] | None = None,
                  library_size: int = 0) -> dict[str, float]:
    """The evidence a transferable gate weighs, each meaning the same in any library:
    - `margin`: best question↔sentence cosine above the library's off-topic floor;
    - `coverage`: share of the question's terms the top passages use;
    - `quote_coverage`: rarity-weighted share of them the first quote itself uses;
    - `asks_type` / `type_found`: the question asks for an amount, a percentage, a
      duration, a date, a count… (answer/kinds.py) and the first quote states one;
    - `both_legs`: the top passage was found by keywords and by meaning;
    - `agree`: the two best candidates come from the same document;
    - `lead`: the first candidate's score above the best one from another document (or
      another article of a law);
    - `absent`: share of the question's words that occur nowhere in the library;
    - `first_margin`: the first quote's own cosine above the floor;
    - `other_language`: the passages are in a language whose words cannot be compared
      with the question's (English against Portuguese; a Spanish question of Portuguese
      passages is compared, in their spelling: text/cognates.py);
    - `value_missing`: the question can only be answered by a value ("Quanto ganha…?",
      "Em quantos anos prescreve…?", kinds.asked_value) and the first quote states none of
      that kind; `value_missing_passage`: no quote of the answer nor its passage does."""
    question_terms = extract.question_terms
    passages = [terms(h.text) for h in hits[:10]]
    first = extract.quotes[0] if extract.quotes else None
    quote_terms = terms(first.unit.shown) if first is not None else frozenset()
    weight = {t: _rarity(t, passages) for t in question_terms}
    total = sum(weight.values())
    kind = asked_kind(question)
    value = asked_value(question)  # `kind` when only a value of it answers, else None
    type_found = kind is not None and first is not None and states(kind, first.unit.shown)
    ranked = list(extract.candidates)

    other = next((c for c in ranked[1:] if _place(c) != _place(ranked[0])), None)
    features = {
        "margin": (best - floor) if best is not None and floor is not None else 0.0,
        "coverage": coverage,
        "quote_coverage": (sum(weight[t] for t in question_terms & quote_terms) / total
                           if total else 1.0),
        "asks_type": float(kind is not None),
        "type_found": float(type_found),
        "both_legs": float(bool(hits) and len(hits[0].legs) >= 2),
        "agree": float(len(ranked) >= 2 and ranked[0].hit.doc_id == ranked[1].hit.doc_id),
        "lead": (ranked[0].score - other.score) if ranked and other is not None else 0.1,
        "first_margin": (first.semantic - floor) if first is not None and first.semantic
        is not None and floor is not None else 0.0,
        "other_language": float(not same_language),
        "absent": absent,
        "value_missing": float(value is not None and first is not None and not type_found),
        "value_missing_passage": float(value is not None and first is not None and not (
            states(value, first.unit.shown) or states(value, first.hit.text))),
    }
    features.update(_specific_features(question, first, ranked, hits, passages_using,
                                       library_size))
    return features


def _place(candidate: Any) -> tuple[str, str]:
    """Where a candidate comes from: a document, or an article of a law."""
    law = candidate.structural
    return (candidate.hit.doc_id, law.article if law is not None else "")


def _hit_place(hit: Hit) -> tuple[str, str]:
    """Where a passage comes from: a document, or the article of a law it starts in."""
    return (hit.doc_id, hit.path.split(",")[0] if hit.path else "")


def _specific_features(question: str, first: Any, ranked: Sequence[Any], hits: Sequence[Hit],
                       passages_using: Callable[[str], int] | None,
                       library_size: int) -> dict[str, float]:
    """What separates "the library talks about this, and says the answer" from "it talks
    about this, but the answer is not there" (a sibling paragraph on the same subject):
    - `specific_quote` / `specific_passage`: share of the question's words, weighted by
      how rare each is in the whole library (idf over the library's passages), that the
      first quote / its passage uses;
    - `rarest_missing`: the rarity (0–1) of the rarest question word its passage lacks;
    - `names_found`: share of the question's names and numbers its passage holds;
    - `fills_slot`: the quote holds a value of the kind asked that the question does not
      already say (a new year, amount, name…);
    - `phrases`: share of the question's pairs of consecutive words the first quote has
      side by side;
    - `quote_rank`: 1 / the retrieval rank of the first quote's passage;
    - `sentence_gap`: the best sentence's cosine above the second best (anywhere);
    - `top_agree`: share of the top three passages from the first quote's place.
    Contrasts with the best of another place (document, or article of a law), which a
    corpus's style of questions shifts less than the absolute values: `sentence_lead`
    (best sentence cosines), `specific_lead` (passages), `quote_lead` (quotes),
    `phrases_lead`."""
    words = list(dict.fromkeys(w for w in re.findall(r"\w+", fold(question))
                               if len(w) >= 3 and not w.isdigit() and w not in NOT_CONTENT))
    size = max(library_size, 1)

    def rarity(word: str) -> float:  # idf over the library, 0 (everywhere) to 1 (nowhere)
        if passages_using is None or library_size <= 0:
            return 1.0
        using = min(passages_using(word), size)
        return math.log((size + 1) / (using + 1)) / math.log(size + 1)

    weight = {w: rarity(w) for w in words[:SPECIFIC_LOOKUPS]}
    total = sum(weight.values())

    def uses(text: str) -> list[str]:
        folded = fold(text)
        plain, stems = set(re.findall(r"\w+", folded)), terms(folded)
        return [w for w in weight if w in plain or bool(terms(w)) and terms(w) <= stems]

    def share(text: str) -> float:
        return sum(weight[w] for w in uses(text)) / total if total else 1.0

    if first is None:
        return {name: 0.0 for name in SPECIFIC_FEATURES}
    place = _place(first)
    near = ranked[:CONTRAST_CANDIDATES]
    own = [c.semantic for c in ranked if c.semantic is not None and _place(c) == place]
    others = [c for c in near if _place(c) != place]
    other_cosines = [c.semantic for c in ranked if c.semantic is not None and _place(c) != place]
    other_hits = [h for h in hits[:10] if _hit_place(h) != _hit_place(first.hit)]
    cosines = sorted((c.semantic for c in ranked if c.semantic is not None), reverse=True)
    found = set(uses(first.hit.text))
    names = specifics(question)
    passage_words = set(re.findall(r"\w+", fold(first.hit.text)))
    quote_share, passage_share = share(first.unit.shown), share(first.hit.text)
    phrases = shared_phrases(question, first.unit.shown)
    return {
        "specific_quote": quote_share,
        "specific_passage": passage_share,
        "rarest_missing": max((v for w, v in weight.items() if w not in found), default=0.0),
        "names_found": (sum(n in passage_words for n in names) / len(names) if names else 1.0),
        "fills_slot": float(fills_slot(question, first.unit.shown)),
        "phrases": phrases,
        "quote_rank": 1.0 / first.source if first.source > 0 else 0.0,
        "sentence_gap": (cosines[0] - cosines[1]) if len(cosines) >= 2 else 0.0,
        "top_agree": (sum(_hit_place(h) == _hit_place(first.hit) for h in hits[:3])
                      / min(len(hits), 3) if hits else 0.0),
        "sentence_lead": (max(own) - max(other_cosines)) if own and other_cosines else 0.1,
        "specific_lead": passage_share - max((share(h.text) for h in other_hits), default=0.0),
        "quote_lead": quote_share - max((share(c.unit.shown) for c in others), default=0.0),
        "phrases_lead": phrases - max((shared_phrases(question, c.unit.shown) for c in others),
                                      default=0.0),
    }


def meant_terms(question_terms: frozenset[str],
                meant: Mapping[str, str]) -> frozenset[str]:
    """A question's terms with each word read by meaning (typed → the passages' word closest
    to it: `cognates.respell_by_meaning`) counted as the passages' word's terms."""
    read = set(question_terms)
    for typed, word in meant.items():
        if (typed_terms := terms(typed)) and typed_terms <= read:
            read = (read - typed_terms) | terms(word)
    return frozenset(read)


def absent_share(question: str, hits: Sequence[Hit],
                 in_library: Callable[[str], int] | None) -> float:
    """The share of the question's content words (four letters or more) that occur in no
    passage of the library: "alíquota" asked of a law that never says it. Words the top
    passages use are not looked up; at most `ABSENT_LOOKUPS` are."""
    words = list(dict.fromkeys(w for w in re.findall(r"\w+", fold(question))
                               if len(w) >= 4 and not w.isdigit() and w not in NOT_CONTENT))
    if not words or in_library is None:
        return 0.0
    seen = set().union(*(terms(h.text) for h in hits[:10])) if hits else set()
    absent = 0
    for word in [w for w in words if not terms(w) <= seen][:ABSENT_LOOKUPS]:
        absent += not in_library(word)
    return absent / len(words)


def assess(extract: ExtractiveAnswer, hits: Sequence[Hit], settings: Settings,
           floors: dict[str, float] | None, language: str, question: str = "",
           absent: float = 0.0, passages_using: Callable[[str], int] | None = None,
           library_size: int = 0) -> Evidence:
    """Does the evidence support answering? (see the module docstring)"""
    question_terms = extract.question_terms
    found: set[str] = set()
    for hit in hits[:EVIDENCE_PASSAGES]:
        found |= question_terms & terms(hit.text)
    coverage = len(found) / len(question_terms) if question_terms else 1.0
    missing = tuple(sorted(question_terms - found))
    cosines = [q.semantic for q in extract.candidates if q.semantic is not None]
    best = max(cosines) if cosines else None
    floor = (floors or {}).get(language, (floors or {}).get("all"))
    written_in = passages_language(hits)
    coverage_used = written_in is None or written_in == language
    comparable = written_in is None or words_comparable(language, written_in)
    features = gate_features(question, extract, hits, best, floor, coverage, comparable,
                             absent, passages_using, library_size)
    gate = load_gate(settings.abstain_gate_file) if settings.abstention_enabled else None
    reason = None
    support = None
    if not settings.abstention_enabled:
        reason = None
    elif not extract.candidates:
        reason = "no quotable sentence"
    elif gate is not None and best is not None and floor is not None:
        support = gate.probability(measurable(features, comparable))
        if support < gate.threshold and not named_row_answers(question, extract):
            reason = "the passages do not answer the question"
    elif best is not None and floor is not None and best - floor < _margin_needed(
            settings, coverage if coverage_used else 0.0, len(question_terms)):
        reason = "passages not close enough in meaning"
    elif coverage_used and coverage < settings.abstain_min_coverage:
        reason = "question terms missing from the passages"
    value = asked_value(question)
    missing_value = value if value is not None and (
        features.get("value_missing_passage")
        or not first_states(question, value, extract, on_subject=coverage_used)) else None
    if reason is None and settings.abstention_enabled and missing_value is not None:
        # "Quanto ganha…?" answered by a passage that names no amount is not an answer,
        # however close its words are
        reason = f"asked for a value ({missing_value}); no quoted passage states one"
    return Evidence(best, floor, coverage, coverage_used, len(question_terms), missing,
                    reason is not None, reason, features, support,
                    missing_value if reason is not None else None)


def first_states(question: str, value: str, extract: ExtractiveAnswer, *,
                 on_subject: bool = True) -> bool:
    """Whether the first quote, or the passage it comes from, states the `value` asked where
    it speaks of the question's subject (kinds.stated_where_asked; `on_subject` False: the
    question's words cannot be compared with the passage's, any value counts). A question
    naming a place or a person (`kinds.proper_names`) is answered only by a quote or
    passage that names one of them. No quote: nothing to miss."""
    first = extract.quotes[0] if extract.quotes else None
    if first is None:
        return True
    # (not the source a question names: "… prevista na Lei Geral de Proteção de Dados?")
    names = [terms(name) for name in proper_names(without_qualifier(question))]
    if on_subject and names:
        said = terms(f"{first.unit.shown} {first.hit.text}")
        if not any(name and name <= said for name in names):
            return False  # ("os países Ásia-Pacífico": a growth rate of Africa's)
    asked = extract.question_terms
    return any(stated_where_asked(question, value, text, asked, terms, on_subject=on_subject)
               for text in (first.unit.shown, first.hit.text, _under_caput(first, extract)))


def _under_caput(first: Any, extract: ExtractiveAnswer) -> str:
    """A paragraph or item of a law under its article's caput (the lead it is read with),
    when the caput is among the candidates: "§ 1º … o valor orçado terá validade pelo prazo
    de dez dias" states the time limit of art. 40's "orçamento prévio"; "" otherwise."""
    law = first.structural
    if law is None or not law.article or law.label == law.article:
        return ""
    caput = caputs(c.structural for c in extract.candidates
                   if c.structural is not None).get((law.key[0], law.article))
    return f"{caput.lead.rstrip().rstrip(':')}:\n{first.unit.shown}" if caput is not None else ""


def named_row_answers(question: str, extract: ExtractiveAnswer) -> bool:
    """Whether the first quote is a table row the question names by the name in its label
    ("How many votes did Tom Lackey get?": "TOM LACKEY | REP | 249"; "… in Wyoming?":
    "Wyoming | 383 | …") and that states the value asked, if one is. Such a row answers,
    whatever the gate says: a row is a label and figures, far in meaning and words from
    a question ("votes" is printed nowhere on a precinct bulletin), and the gate was
    fitted on prose. The label must hold a name the question writes as one (capitalised,
    `specifics`): a row "Total | …" is named by no "What is the total…?"."""
    first = extract.quotes[0] if extract.quotes else None
    if first is None or not first.features.get("row_named"):
        return False
    label = set(re.findall(r"\w+", fold(cells(first.unit.text)[0])))
    if not label & specifics(question):
        return False
    value = asked_value(question)
    return value is None or states(value, first.unit.shown)


def _margin_needed(settings: Settings, coverage: float, question_terms: int) -> float:
    """The semantic margin required: lower when every content term of the question (two
    or more) occurs in the passages."""
    if coverage >= 1.0 and question_terms >= FULL_COVERAGE_MIN_TERMS:
        return min(settings.abstain_min_margin, settings.abstain_min_margin_full_coverage)
    return settings.abstain_min_margin


def describe(settings: Settings, floors: dict[str, float] | None) -> dict[str, Any]:
    gate = load_gate(settings.abstain_gate_file)
    return {"enabled": settings.abstention_enabled,
            "gate": fit_summary(gate) if gate is not None else None,
            "gate_file": str(gate_path(settings.abstain_gate_file)),
            "min_margin": settings.abstain_min_margin,
            "min_coverage": settings.abstain_min_coverage,
            "min_margin_full_coverage": settings.abstain_min_margin_full_coverage,
            "library_floor": {k: round(v, 4) for k, v in (floors or {}).items()}}


def load_probes(path: Path | None = None) -> list[tuple[str, str]]:
    """(language, question) pairs of the off-topic probe file."""
    source = path or resource("abstention") / "probes.txt"
    probes = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and "\t" in line:
            language, question = line.split("\t", 1)
            probes.append((language.strip(), question.strip()))
    return probes


class LibraryFloor:
    """Per-language floor of the library: the median best-passage similarity of the
    probe questions, cached per library size. `best_similarity(vector)` searches the
    library (wired in `app.py`); probe vectors are embedded once per embedder and kept
    in `cache_file` when given."""

    def __init__(self, embedder: Embedder, best_similarity: Callable[[np.ndarray], float | None],
                 size: Callable[[], int], *, cache_file: Path | None = None,
                 probes: list[tuple[str, str]] | None = None) -> None:
        self.embedder = embedder
        self._best = best_similarity
        self._size = size
        self._cache_file = cache_file
        self._probes = probes
        self._lock = threading.Lock()
        self._cached: tuple[int, dict[str, float]] | None = None
        self._vectors: np.ndarray | None = None

    def size(self) -> int:
        """How many passages the library holds (what its floor and vocabulary depend on)."""
        return self._size()

    def floors(self) -> dict[str, float]:
        size = self._size()
        with self._lock:
            cached = self._cached
            if cached is not None and abs(size - cached[0]) <= FLOOR_REFRESH * max(cached[0], 1):
                return cached[1]
            probes = self._probes or load_probes()
            vectors = self._probe_vectors(probes)
            by_language: dict[str, list[float]] = {}
            for (language, _), vector in zip(probes, vectors, strict=True):
                best = self._best(vector)
                if best is not None:
                    by_language.setdefault(language, []).append(best)
                    by_language.setdefault("all", []).append(best)
            floors = {k: float(statistics.median(v)) for k, v in by_language.items() if v}
            self._cached = (size, floors)
            return floors

    def _probe_vectors(self, probes: list[tuple[str, str]]) -> np.ndarray:
        if self._vectors is not None and len(self._vectors) == len(probes):
            return self._vectors
        key = f"{self.embedder.id}|" + "|".join(q for _, q in probes)
        if self._cache_file is not None and self._cache_file.exists():
            try:
                stored = json.loads(self._cache_file.read_text(encoding="utf-8"))
                if stored.get("key") == key:
                    self._vectors = np.asarray(stored["vectors"], dtype=np.float32)
                    return self._vectors
            except (OSError, ValueError, KeyError):
                pass  # rebuilt below
        texts = [q for _, q in probes]
        many = getattr(self.embedder, "embed_queries", None)
        vectors = (np.asarray(many(texts), dtype=np.float32) if many is not None
                   else np.stack([self.embedder.embed_query(t) for t in texts]))
        self._vectors = vectors
        if self._cache_file is not None:
            try:
                self._cache_file.parent.mkdir(parents=True, exist_ok=True)
                tmp = self._cache_file.with_name(self._cache_file.name + ".tmp")
                tmp.write_text(json.dumps({"key": key, "vectors": vectors.round(6).tolist()}),
                               encoding="utf-8")
                tmp.replace(self._cache_file)
            except OSError:
                pass  # a cache, not state
        return vectors
