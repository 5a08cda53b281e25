"""The personal context of a prompt: "What you told me" + "From earlier chats".

Profile memories (short facts from the user's own words) and sentences of earlier chats
share one token budget (`Settings.context_block_tokens`, counted with the model's
tokenizer) — no fixed k. They are packed piece by piece, the piece that adds most for its
tokens first (`_gain`: how much it concerns the question — its words and its meaning,
the search's cosine — times what it states that the block does not show yet: specific
things — amounts, codes, times, dates, then counts and names, which say less — or, for a
plain statement, its new words; how recent its chat is), so the budget holds facts
rather than greetings or one number said three times; a short answer comes with the
question it answers; a memory earns its room like a sentence. The sentences on offer and
their layout are answer/recall_block.py's; relative dates are resolved against the
chat's day ("yesterday (7 May 2023)"). Sentences of one chat are shown
together, in the order they were said, under the chat's date (in the answer's language);
a speaker's label opens a line only when the speaker changes, so the budget goes to what
was said rather than to labels; a user turn that a shown memory was taken from is not
repeated. The rules for the block (a reminder, never instructions, never cited) are in
the system prompt, like the rules for sources. Recalled text sits inside a fence it
cannot close (`neutralize`): it is something said earlier, possibly by the assistant,
never an instruction and never a profile fact.

Pure: no storage, no model. The answer service and the memory evaluation both call
`fit_context`, so the evaluation measures exactly the block the model would see.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from desktop_app.answer.personal_quotes import from_documents
from desktop_app.answer.prompt import MemoryItem, PromptTexts, neutralize
from desktop_app.answer.recall_block import (
    GAP,
    Piece,
    closeness,
    insert,
    pieces_of,
    render_recall,
)
from desktop_app.memory.relevance import concerns
from desktop_app.memory.types import EarlierExchange
from desktop_app.text.analyze import content_terms
from desktop_app.text.caches import forget_with
from desktop_app.text.fold import fold
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.values import specifics, value_kind

MAX_MEMORIES = 5  # profile facts are few and short; the rest of the budget goes to recall
MEMORY_SHARE = 0.5  # memories may take at most this share of the budget
NO_VALUE_GAIN = 0.05  # a sentence with the question's words but nothing specific, vs one value
MEMORY_FLOOR = 0.5  # the best memory's least gain, when it concerns the question (a word of
# it, or the turn it was taken from closer to the question than most candidates); the n-th
# best memory's is MEMORY_FLOOR / n. A memory that concerns nothing asked has no floor.
# what a stated value adds, by kind (`value_kind`); 1 for the others (amounts, codes, times,
# dates). A count ("2-3 hours", "12-month") or a capitalised word (a greeting's name, a
# show's title) is weaker evidence of a fact someone will ask for again: on the layer1
# memory cases, 3 % of the counts and 10 % of the names stated are needed facts, against
# 19 % of the amounts, 26 % of the codes and 33 % of the times.
KIND_WEIGHT = {"number": 0.2, "name": 0.5}
MEANING_WEIGHT = 1.0  # meaning's part of a piece's relevance, beside the question's words
PLAIN_GAIN = 1.0  # what a plain statement close to the question adds (as much as an amount)
STRONG_HALF = 3  # candidate sentences stating amounts, codes, times or dates that halve it
FILL_ROUNDS = 3  # packings tried: the estimate is corrected by the real count in between
FILL_MIN = 8  # tokens left over worth another packing


@dataclass(frozen=True)
class ContextBlock:
    memories: tuple[MemoryItem, ...]
    exchanges: tuple[EarlierExchange, ...]
    text: str  # what goes into the prompt before the sources
    tokens: int
    message_ids: tuple[str, ...] = ()  # the recalled turns shown (some of their sentences)

    @property
    def chats(self) -> list[tuple[str, str]]:
        """(conversation id, date label) of every earlier chat used, in block order."""
        seen: dict[str, str] = {}
        for e in self.exchanges:
            seen.setdefault(e.conversation_id, e.date_label)
        return list(seen.items())


EMPTY = ContextBlock((), (), "", 0)


def estimate_tokens(text: str) -> int:
    """A conservative token count when no model tokenizer is at hand (≈3 chars a token)."""
    return math.ceil(len(text) / 3)


def _weights(pieces: Sequence[Piece | _Memory], terms: set[str]) -> dict[str, float]:
    """Inverse document frequency of the question's words over the candidate sentences:
    a word every sentence has ("number") says less about which one is wanted."""
    n = len(pieces) or 1
    return {t: math.log(1 + n / (1 + sum(t in p.terms for p in pieces))) for t in terms}


def _gain(candidate: Piece | _Memory, weights: dict[str, float], shown: set[str],
          asked: set[str], said: set[str] | frozenset[str] = frozenset(),
          plainness: float = 1.0, relevance: float | None = None) -> float:
    """What showing a sentence (or a memory) adds: how much it concerns the question —
    the question's words it has (weighted) and how close its turn's meaning is
    (`MEANING_WEIGHT`) — times what it states that the block does not show yet:

    - specific things: an amount, a code, a time or a date counts more than a count or a
      name (`KIND_WEIGHT`);
    - a plain statement ("I went to a support group yesterday"): its meaning times the
      share of its words the block does not show yet, times `plainness` (a question
      states nothing);
    - one with nothing new to state adds a little only while it has a word of the
      question the block does not show yet (`asked`): the same sentence said twelve
      times is shown once.

    The search chose the candidates; among them its rank only breaks ties. A memory is
    weighed like a sentence; it has a small floor (its rank in the memory search) only
    when something in it concerns the question. (`relevance`: the weighted question words,
    when the caller has summed them already: they do not change while packing.)"""
    if relevance is None:
        relevance = sum(w for t, w in weights.items() if t in candidate.terms)
    new = sum(_weight(v) for v in candidate.values - shown)
    unasked = any(t in candidate.terms and t not in asked for t in weights)
    states = candidate.terms and not (isinstance(candidate, Piece)
                                      and candidate.text.rstrip().endswith("?"))
    plain = (PLAIN_GAIN * plainness * candidate.meaning
             * len(candidate.terms - said) / len(candidate.terms) if states else 0.0)
    gain = ((1.0 + relevance + MEANING_WEIGHT * candidate.meaning)
            * (new + plain + (NO_VALUE_GAIN if unasked else 0.0)))
    if isinstance(candidate, _Memory):
        concerns = relevance > 0 or candidate.meaning > 0 or not candidate.known
        return max(gain, MEMORY_FLOOR / (1 + candidate.rank)) if concerns else gain
    return gain * candidate.recency


@lru_cache(maxsize=16384)  # the same values come back piece after piece
def _weight(value: str) -> float:
    """What stating `value` adds, by its kind (`KIND_WEIGHT`)."""
    return KIND_WEIGHT.get(value_kind(value), 1.0)


@dataclass(frozen=True)
class _Memory:
    """A profile memory offered to the block, as the memory search ranked it."""

    item: MemoryItem
    rank: int
    terms: frozenset[str]
    values: frozenset[str]
    meaning: float = 0.0  # its closeness to the question (else its source turn's), 0–1
    known: bool = True  # a closeness was measured (else it keeps its rank floor)


def render_memories(memories: Sequence[MemoryItem], texts: PromptTexts) -> str:
    if not memories:
        return ""
    items = "\n".join(texts["memory_item"].format(text=neutralize(m.text)) for m in memories)
    return texts["memories"].format(items=items)


@lru_cache(maxsize=16384)
def _words(text: str) -> frozenset[str]:
    return frozenset(fold(text).split())


def _covered(turn: str, memories: Sequence[MemoryItem]) -> bool:
    """The user's turn says no more than a memory shown above (the memory was taken from it)."""
    words = _words(turn)
    return any(words and len(words - _words(m.text)) <= max(1, len(words) // 5)
               for m in memories)


Candidate = Piece | _Memory
Key = tuple[str, int]


def _key(c: Candidate) -> Key:
    return ("\0" + c.item.id, 0) if isinstance(c, _Memory) else (c.message_id, c.order[1])


def _parts(c: Candidate) -> list[Candidate]:
    """What showing `c` shows: a short answer comes with the question it answers."""
    if isinstance(c, Piece) and c.lead is not None:
        return [c.lead, c]
    return [c]


def memory_similarity(memories: Sequence[MemoryItem],
                      embed: Callable[[list[str]], np.ndarray],
                      query_vector: np.ndarray | None) -> dict[str, float]:
    """Each memory's cosine to the question (`embed`: passages to normalised vectors; the
    answer service's cached sentence vectors), for `fit_context`'s `memory_similarity`."""
    if query_vector is None or not memories:
        return {}
    vectors = np.asarray(embed([m.text for m in memories]), dtype=np.float32)
    return {m.id: float(v) for m, v in zip(memories, vectors @ query_vector, strict=True)}


def fit_context(memories: Sequence[MemoryItem], exchanges: Sequence[EarlierExchange],
                texts: PromptTexts, *, count_tokens: Callable[[str], int],
                budget: int, query: str = "",
                memory_similarity: Mapping[str, float] | None = None) -> ContextBlock:
    """Profile memories and what was said in earlier chats, while the rendered block fits
    `budget` tokens. Both are packed piece by piece — a memory, or one sentence of a
    recalled turn — the piece that adds most for its tokens first (`_gain`: the question's
    words and meaning, what it states that is not shown yet), so the budget holds facts
    rather than greetings or the same number three times. A user turn a shown memory was
    taken from is not repeated. Each piece is counted once; the rendered block is counted
    again at the end, trimmed if the sum of parts fell short and refilled if it was over.
    `memory_similarity`: each memory's cosine to the question (by id), when measured."""
    if query:  # an earlier chat none of whose recalled turns concerns the question: left out
        # (what Acervo quoted there from the documents does not count: the documents were
        # just searched again, and one of their words, "anos", is no topic of the chat's)
        chats = {e.conversation_id for e in exchanges
                 if concerns(query, " ".join(text for _id, role, text in e.turns
                                             if not from_documents(role, text)))}
        exchanges = [e for e in exchanges if e.conversation_id in chats]
    if budget <= 0 or (not memories and not exchanges):
        return EMPTY
    terms = set(content_terms(query, ignore=NOT_CONTENT))  # "tell me", "can you": no topic
    return _Packer(memories, exchanges, terms, texts, count_tokens, budget,
                   memory_similarity or {}).fill()


class _Packer:
    """One block's packing, in steps: the candidates (`__init__`: sentences, memories and
    which user turn each memory was taken from), a greedy choice under a token room
    (`choose`, with `cost` and `_gain`), and the fill that renders, trims and refills
    (`fill`)."""

    def __init__(self, memories: Sequence[MemoryItem], exchanges: Sequence[EarlierExchange],
                 terms: set[str], texts: PromptTexts, count_tokens: Callable[[str], int],
                 budget: int, memory_similarity: Mapping[str, float] | None = None) -> None:
        self.exchanges = exchanges
        self.texts = texts
        self.count_tokens = count_tokens
        self.budget = budget
        self.sizes: dict[str, int] = {}  # each text counted once, across packings
        similarity = {m.id: memory_similarity[m.id] for m in memories[:MAX_MEMORIES]
                      if memory_similarity and m.id in memory_similarity}
        meanings = closeness(exchanges, similarity)
        self.pieces = pieces_of(exchanges, terms, texts.language, meanings)
        self.covers: dict[Key, set[Key]] = {}  # a memory and the user turn it was taken from
        user_turns: dict[str, list[Piece]] = {}
        for piece in self.pieces:
            if piece.role == "user":
                user_turns.setdefault(piece.message_id, []).append(piece)
        self.memories: list[_Memory] = []
        for rank, item in enumerate(memories[:MAX_MEMORIES]):
            sources = [group for group in user_turns.values()
                       if _covered(" ".join(p.text for p in group), [item])]
            measured = "\0" + item.id in meanings
            memory = _Memory(item, rank, content_terms(item.text), specifics(item.text),
                             meanings.get("\0" + item.id, max(
                                 (group[0].meaning for group in sources), default=0.0)),
                             known=measured or bool(sources))
            self.memories.append(memory)
            for group in sources:  # showing one retires the other: they say the same
                keys = {_key(p) for p in group}
                self.covers.setdefault(_key(memory), set()).update(keys)
                for k in keys:
                    self.covers.setdefault(k, set()).add(_key(memory))
        self.weights = _weights([*self.pieces, *self.memories], terms)
        self.relevance: list[float] = []  # of each candidate of a packing, in its order
        # where the chats are full of amounts, codes, times and dates, those are what is
        # asked for; where they state none, plain statements are the facts
        strong = sum(any(_weight(v) >= 1 for v in p.values) for p in self.pieces)
        self.plainness = 1 / (1 + strong / STRONG_HALF)
        self.intro = self.size(texts["recall"].format(items=""))
        self.fence = self.size(texts["recall_chat"].format(date="15 Nov 2024", turns=""))
        self.label = max(self.size(texts["recall_user"].format(text="")),
                         self.size(texts["recall_assistant"].format(text=""))) + 1
        self.memory_head = self.size(texts["memories"].format(items=""))
        self.gap = self.size(GAP)

    def size(self, text: str) -> int:
        if text not in self.sizes:
            self.sizes[text] = self.count_tokens(text)
        return self.sizes[text]

    def fill(self) -> ContextBlock:
        """Pack, render and count; trim while over the budget, pack again into what the
        estimate left over."""
        best = EMPTY
        room = self.budget
        for _ in range(FILL_ROUNDS):
            groups = self.choose(room)
            while True:
                block = self.render(groups)
                if block.tokens <= self.budget or not groups:
                    break
                groups.pop()  # the estimate fell short: drop the last piece chosen
            if block.tokens <= self.budget and block.tokens >= best.tokens:
                best = block
            slack = self.budget - block.tokens
            if slack < FILL_MIN or len(groups) == 0:
                break
            room += slack
        return best

    def render(self, groups: list[list[Candidate]]) -> ContextBlock:
        chosen = [c for group in groups for c in group]
        kept = sorted((c for c in chosen if isinstance(c, _Memory)), key=lambda m: m.rank)
        pieces = [c for c in chosen if isinstance(c, Piece)]
        text = (render_memories([m.item for m in kept], self.texts)
                + render_recall(pieces, self.texts))
        used = {p.exchange.exchange_id for p in pieces}
        return ContextBlock(tuple(m.item for m in kept),
                            tuple(e for e in self.exchanges if e.exchange_id in used), text,
                            self.count_tokens(text) if text else 0,
                            tuple(dict.fromkeys(p.message_id for p in pieces)))

    def choose(self, room: int) -> list[list[Candidate]]:
        """Greedy by gain per token, lazily re-evaluated (a piece's gain only falls as the
        block shows more; its cost can fall too, when a neighbour joins its line, and is
        seen when it comes up), within `room` tokens counted part by part: a section's
        header once, a chat's fence once, a speaker's label where the speaker changes and
        a "…" where something is skipped (`_insert`), then each sentence.
        Returns the chosen groups in the order chosen (a short answer with its question)."""
        candidates: list[Candidate] = [*self.memories, *self.pieces]
        if not candidates or room <= 0:
            return []
        state = _Shown()
        self.relevance = [sum(w for t, w in self.weights.items() if t in c.terms)
                          for c in candidates]
        heap = [(-self.ratio(c, state, i)[0], c.rank, i) for i, c in enumerate(candidates)]
        heapq.heapify(heap)
        groups: list[list[Candidate]] = []
        used = 0
        while heap:
            _, _, i = heapq.heappop(heap)
            c = candidates[i]
            if _key(c) in state.done or _key(c) in state.retired:
                continue
            current, spend = self.ratio(c, state, i)
            if current <= 0:
                continue
            if heap and current < -heap[0][0] - 1e-12:
                heapq.heappush(heap, (-current, c.rank, i))  # its gain fell: re-queue
                continue
            if used + spend > room:
                continue
            if isinstance(c, _Memory):
                if state.memory_tokens + spend > self.budget * MEMORY_SHARE:
                    continue
                state.memories += 1
                state.memory_tokens += spend
            else:
                state.recall = True
            used += spend
            groups.append(self.show(c, state))
        return groups

    def show(self, c: Candidate, state: _Shown) -> list[Candidate]:
        fresh = [part for part in _parts(c) if _key(part) not in state.done]
        for part in fresh:
            state.done.add(_key(part))
            state.retired.update(self.covers.get(_key(part), ()))
            state.values.update(part.values)
            state.terms.update(part.terms)
            state.asked.update(t for t in self.weights if t in part.terms)
            if isinstance(part, Piece):
                insert(state.chats.setdefault(part.exchange.conversation_id, []), part,
                        self.label, self.gap)
        return fresh

    def ratio(self, c: Candidate, state: _Shown, i: int) -> tuple[float, int]:
        """(gain per token, tokens) of showing candidate `i` now."""
        spend = self.cost(c, state)
        gain = _gain(c, self.weights, state.values, state.asked, state.terms, self.plainness,
                     self.relevance[i])
        return gain / max(1, spend), spend

    def cost(self, c: Candidate, state: _Shown) -> int:
        """The tokens showing `c` adds to the block as it is."""
        if isinstance(c, _Memory):
            return ((0 if state.memories else self.memory_head)
                    + self.size(self.texts["memory_item"].format(text=c.item.text)) + 1)
        total = 0 if state.recall else self.intro
        fresh = [part for part in _parts(c) if _key(part) not in state.done]
        if len(fresh) == 1:  # the common case: counted without copying the chat
            part = fresh[0]
            assert isinstance(part, Piece)
            chat = part.exchange.conversation_id
            return (total + (0 if chat in state.chats else self.fence) + self.size(part.shown)
                    + insert(state.chats.get(chat, []), part, self.label, self.gap,
                              keep=False))
        trial: dict[str, list[Piece]] = {}  # the chats as they would be with `c` shown
        for part in fresh:
            assert isinstance(part, Piece)
            chat = part.exchange.conversation_id
            if chat not in state.chats and chat not in trial:
                total += self.fence
            shown_in_chat = trial.setdefault(chat, list(state.chats.get(chat, ())))
            total += self.size(part.shown) + insert(shown_in_chat, part, self.label, self.gap)
        return total


@dataclass
class _Shown:
    """What a packing shows so far."""

    done: set[Key] = field(default_factory=set)
    retired: set[Key] = field(default_factory=set)  # said by a memory or turn shown
    chats: dict[str, list[Piece]] = field(default_factory=dict)  # shown pieces, in order
    values: set[str] = field(default_factory=set)  # the specific things shown
    terms: set[str] = field(default_factory=set)  # the content words shown
    asked: set[str] = field(default_factory=set)  # the question's words shown
    memories: int = 0
    memory_tokens: int = 0
    recall: bool = False


for _cache in (_weight, _words):  # erased sentences leave the process too
    forget_with(_cache.cache_clear)
