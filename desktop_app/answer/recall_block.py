"""What earlier chats offer the context block, and how the block shows them.

A recalled turn is offered sentence by sentence (`Piece`): each with where it was said,
the rank of its exchange, its content terms and specific things, how close its turn is to
the question among the candidates (`meanings`: the recall search's cosines), how recent
its chat is, the question a short answer needs beside it, and the words the block shows
(relative dates resolved against the chat's day: `text.when`). `render_recall` lays the
chosen sentences out by chat and speaker; `insert` counts what a sentence adds to that
layout, so the packing (answer/context.py) can cost a piece before showing it.

Pure: no storage, no model.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from desktop_app.answer.prompt import PromptTexts, neutralize
from desktop_app.memory.types import EarlierExchange
from desktop_app.text.analyze import content_terms
from desktop_app.text.caches import forget_with
from desktop_app.text.sentences import turn_sentences
from desktop_app.text.values import specifics
from desktop_app.text.when import resolve

GAP = " … "
SHORT_ANSWER_WORDS = 8  # a user reply this short is shown with the question it answers
OLDEST_WEIGHT = 0.5  # the oldest candidate chat's sentences count this much, the newest 1
MEANING_FLOOR = 0.5  # the candidates' median cosine is no closer than any unfound turn


@dataclass(frozen=True)
class Piece:
    """One sentence of a recalled turn, with where it was said and how it ranks."""

    exchange: EarlierExchange  # the best-ranked exchange its message was found in
    message_id: str
    role: str
    order: tuple[int, int]  # (message seq in its chat, sentence number)
    text: str
    rank: int  # of its exchange, 0 = most relevant
    terms: frozenset[str]  # its content terms
    values: frozenset[str]  # the specific things it states (numbers, amounts, codes, names)
    lead: Piece | None = None  # the question a short answer needs beside it
    recency: float = 1.0  # the newest chat 1, the oldest OLDEST_WEIGHT (a correction wins)
    meaning: float = 0.0  # how close its turn is to the question, among the candidates (0–1)
    shown: str = ""  # as the block shows it: relative dates resolved (`text.when`)


@lru_cache(maxsize=16384)  # recalled sentences come back question after question
def analyzed(sentence: str) -> tuple[frozenset[str], frozenset[str]]:
    """(content terms, specific things) of a sentence."""
    return content_terms(sentence), specifics(sentence)


def _short_answer(text: str) -> bool:
    """A reply that means little without the question it answers ("March 15th, 1985.",
    "Yes, the second one.")."""
    return len(text.split()) <= SHORT_ANSWER_WORDS


def closeness(exchanges: Sequence[EarlierExchange],
              memories: Mapping[str, float]) -> dict[str, float]:
    """Each candidate's closeness to the question (turns by message id, memories by
    memory id), from the searches' cosines, scaled among the candidates: the closest 1,
    the `MEANING_FLOOR` quantile and below 0 (cosines of one embedder sit in a narrow
    band whose place moves with the question)."""
    cosines: dict[str, float] = {}
    for e in exchanges:
        for (message_id, _, _), cosine in zip(e.turns, e.similarity, strict=False):
            if cosine is not None:
                cosines[message_id] = max(cosine, cosines.get(message_id, -1.0))
    cosines.update({"\0" + m: c for m, c in memories.items()})
    if len(cosines) < 2:
        return {}
    ordered = sorted(cosines.values())
    low = ordered[int(MEANING_FLOOR * (len(ordered) - 1))]
    top = ordered[-1]
    if top <= low:
        return {}
    return {m: max(0.0, (c - low) / (top - low)) for m, c in cosines.items()}


def pieces_of(exchanges: Sequence[EarlierExchange], terms: set[str],
            language: str = "en", meanings: Mapping[str, float] | None = None) -> list[Piece]:
    """The sentences recall can show: those with something specific (a number, an amount,
    a code, a name) or a word of the question; greetings and filler are left out. A short
    user answer carries the assistant's question before it as its `lead`. Each is weighed
    by how recent its chat is among the candidates: when two sentences add as much, the
    later one (a correction, the current value) goes first."""
    dates = sorted({e.started_at for e in exchanges})
    step = (1.0 - OLDEST_WEIGHT) / (len(dates) - 1) if len(dates) > 1 else 0.0
    recency = {d: OLDEST_WEIGHT + i * step if len(dates) > 1 else 1.0
               for i, d in enumerate(dates)}
    meanings = closeness(exchanges, {}) if meanings is None else meanings
    pieces: list[Piece] = []
    seen: set[str] = set()
    for rank, exchange in enumerate(exchanges):
        weight = recency[exchange.started_at]
        previous: tuple[str, tuple[str, ...]] | None = None  # the turn before: role, sentences
        for turn, (message_id, role, text) in enumerate(exchange.turns):
            sentences = _sentences(text)
            if message_id not in seen:
                seen.add(message_id)
                meaning = meanings.get(message_id, 0.0)
                for number, sentence in enumerate(sentences):
                    own, values = analyzed(sentence)
                    if not (terms & own or values or (meaning > 0 and own)):
                        continue
                    lead = None
                    if (role == "user" and previous is not None and previous[0] != "user"
                            and previous[1][-1].endswith("?") and number == 0
                            and _short_answer(text)):
                        asked = previous[1][-1]
                        lead = Piece(exchange, exchange.turns[turn - 1][0], previous[0],
                                      (exchange.position + turn - 1, len(previous[1]) - 1),
                                      asked, rank, *analyzed(asked), recency=weight,
                                      shown=asked)
                    pieces.append(Piece(exchange, message_id, role,
                                         (exchange.position + turn, number), sentence,
                                         rank, own, values, lead, weight, meaning,
                                         _resolved(sentence, exchange.started_at, language)))
            previous = (role, sentences)
    return pieces


@lru_cache(maxsize=16384)
def _resolved(sentence: str, said_on: str, language: str) -> str:
    return resolve(sentence, said_on, language)


@lru_cache(maxsize=8192)
def _sentences(text: str) -> tuple[str, ...]:
    """A turn's sentences (`turn_sentences`: a trailing-off "Let me check... Your balance
    is $80." is two)."""
    return turn_sentences(text)


def render_recall(pieces: Sequence[Piece], texts: PromptTexts) -> str:
    """Chosen sentences grouped by chat (oldest chat first, so the newest word comes last),
    each chat in the order things were said. A speaker's label opens a line only when the
    speaker changes: what one side said in a row (one message, or several with the turns
    between them left out) shares a line, and skipped words are shown as "…"."""
    chats: dict[str, list[Piece]] = {}
    for piece in sorted(pieces, key=lambda p: (p.exchange.started_at,
                                                p.exchange.conversation_id, p.order)):
        chats.setdefault(piece.exchange.conversation_id, []).append(piece)
    blocks = []
    for group in chats.values():
        lines: list[tuple[str, list[str]]] = []  # (role, words) of each line
        before: Piece | None = None
        for piece in group:
            if before is None or piece.role != before.role:
                lines.append((piece.role, []))
            elif not _follows(before, piece):
                lines[-1][1].append(GAP.strip())
            lines[-1][1].append(piece.shown or piece.text)
            before = piece
        rendered = [texts["recall_user" if role == "user" else "recall_assistant"].format(
            text=neutralize(" ".join(" ".join(words).split()))) for role, words in lines]
        blocks.append(texts["recall_chat"].format(date=group[0].exchange.date_label,
                                                  turns="\n".join(rendered)))
    return texts["recall"].format(items="\n".join(blocks)) if blocks else ""


def _follows(before: Piece, piece: Piece) -> bool:
    """`piece` is the sentence right after `before` in the same message: nothing between."""
    return piece.message_id == before.message_id and piece.order[1] == before.order[1] + 1


def insert(shown: list[Piece], piece: Piece, line: int, gap: int, *,
            keep: bool = True) -> int:
    """Put `piece` into a chat's shown pieces (kept in the order said; only counted when
    not `keep`) and return the tokens it adds besides its own words, as `render_recall`
    lays them out: a new line with its speaker's label (`line`) after the other speaker,
    a "…" (`gap`) after the same speaker with something skipped, a space after the
    sentence it follows — less what the join it splits cost before."""
    def join(a: Piece | None, b: Piece) -> int:
        if a is None or a.role != b.role:
            return line
        return 1 if _follows(a, b) else gap

    i = bisect.bisect(shown, piece.order, key=lambda p: p.order)
    before = shown[i - 1] if i else None
    after = shown[i] if i < len(shown) else None
    added = join(before, piece)
    if after is not None:
        added += join(piece, after) - join(before, after)
    if keep:
        shown.insert(i, piece)
    return added


for _cache in (analyzed, _resolved, _sentences):  # erased turns leave the process too
    forget_with(_cache.cache_clear)
