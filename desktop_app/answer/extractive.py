"""Sources-only answers: the best sentences of the top chunks, each with its badge.

Used when no LLM is available or the user chose not to use one. Zero model calls:
sentences are scored by the question words they share (accent- and case-folded,
crude 5-letter stems), so the result is quotable text, never a paraphrase.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.answer.citations import MAX_CITATIONS_PER_DOCUMENT, content_terms
from desktop_app.answer.prompt import NumberedSource

_SPLIT = re.compile(r"(?<=[.!?])\s+(?![a-zà-ÿ0-9])|\n\s*\n|\n(?=\s*[-•*]\s)")
MAX_SOURCES_CONSIDERED = 5


@dataclass(frozen=True)
class ExtractiveAnswer:
    text: str  # one sentence per line, each ending with its [n] badge
    numbers: tuple[int, ...]  # the sources quoted
    matched: bool  # False when no sentence shares a word with the question (top passages shown)


@dataclass(frozen=True)
class _Candidate:
    number: int
    doc_id: str
    position: int
    sentence: str
    score: float


def split_sentences(text: str) -> list[str]:
    parts = (" ".join(p.split()) for p in _SPLIT.split(text))
    return [p for p in parts if len(p) >= 3]


def is_statement(sentence: str) -> bool:
    """False for questions and headings: they quote badly as an answer ("CAPÍTULO III …")."""
    if sentence.rstrip().endswith("?"):
        return False
    letters = [ch for ch in sentence if ch.isalpha()]
    if not letters:
        return False
    upper = sum(ch.isupper() for ch in letters) / len(letters)
    return upper < 0.6 and not (len(sentence) < 60 and sentence[-1] not in ".!;:…")


def _with_badge(sentence: str, number: int, max_chars: int) -> str:
    if len(sentence) > max_chars:
        sentence = sentence[:max_chars].rsplit(" ", 1)[0] + " …"
    if sentence[-1] in ".!?;:" and not sentence.endswith("…"):
        return f"{sentence[:-1].rstrip()} [{number}]{sentence[-1]}"
    return f"{sentence} [{number}]"


def extract_answer(question: str, sources: Sequence[NumberedSource], *, max_sentences: int = 4,
                   max_per_source: int = 2, max_sentence_chars: int = 400) -> ExtractiveAnswer:
    """Pick up to `max_sentences` sentences, at most `max_per_source` per chunk and chunks
    from at most two per document; print them in source order."""
    question_terms = content_terms(question)
    candidates: list[_Candidate] = []
    for source in sources[:MAX_SOURCES_CONSIDERED]:
        for position, sentence in enumerate(split_sentences(source.hit.text)):
            terms = content_terms(sentence)
            if not terms or not is_statement(sentence):
                continue
            shared = len(terms & question_terms)
            # prefer sentences dense in question words; short boilerplate loses to real content
            score = shared + shared / (len(terms) ** 0.5)
            candidates.append(_Candidate(source.number, source.hit.doc_id, position, sentence, score))
    matched = any(c.score > 0 for c in candidates)
    if matched:
        ranked = sorted((c for c in candidates if c.score > 0),
                        key=lambda c: (-c.score, c.number, c.position))
    else:  # nothing shares a word (e.g. a cross-language vector hit): the top passages' openings
        ranked = sorted(candidates, key=lambda c: (c.number, c.position))
        max_per_source = 1
    chosen: list[_Candidate] = []
    per_source: dict[int, int] = {}
    chunks_per_doc: dict[str, set[int]] = {}
    for cand in ranked:
        if len(chosen) >= max_sentences:
            break
        doc_chunks = chunks_per_doc.setdefault(cand.doc_id, set())
        if cand.number not in doc_chunks and len(doc_chunks) >= MAX_CITATIONS_PER_DOCUMENT:
            continue
        if per_source.get(cand.number, 0) >= max_per_source:
            continue
        per_source[cand.number] = per_source.get(cand.number, 0) + 1
        doc_chunks.add(cand.number)
        chosen.append(cand)
        if not matched and len(per_source) >= 2:
            break
    chosen.sort(key=lambda c: (c.number, c.position))
    lines = [_with_badge(c.sentence, c.number, max_sentence_chars) for c in chosen]
    return ExtractiveAnswer("\n".join(lines), tuple(dict.fromkeys(c.number for c in chosen)), matched)
