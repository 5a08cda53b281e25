"""The personal context of a prompt: "What you told me" + "From earlier chats".

Profile memories (short facts from the user's own words) and sentences of earlier chats
share one token budget (`Settings.context_block_tokens`, counted with the model's
tokenizer) — no fixed k. They are packed piece by piece, the piece that adds most for its
tokens first (`_gain`: the question's words, specific things — amounts, codes, times,
dates, then counts and names, which say less — the block does not show yet, how recent
its chat is), so the budget holds facts rather than greetings or one number said three
times; a short answer comes with the question it answers. Sentences of one chat are shown
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

import bisect
import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from desktop_app.answer.prompt import MemoryItem, PromptTexts, neutralize
from desktop_app.memory.types import EarlierExchange
from desktop_app.text.analyze import content_terms
from desktop_app.text.fold import fold
from desktop_app.text.sentences import turn_sentences
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.values import specifics, value_kind
from desktop_app.text.when import resolve

MAX_MEMORIES = 5  # profile facts are few and short; the rest of the budget goes to recall
MEMORY_SHARE = 0.5  # memories may take at most this share of the budget
GAP = " … "
SHORT_ANSWER_WORDS = 8  # a user reply this short is shown with the question it answers
NO_VALUE_GAIN = 0.05  # a sentence with the question's words but nothing specific, vs one value
OLDEST_WEIGHT = 0.5  # the oldest candidate chat's sentences count this much, the newest 1
MEMORY_FLOOR = 0.5  # the best memory's least gain, when it concerns the question (a word of
# it, or the turn it was taken from closer to the question than most candidates); the n-th
# best memory's is MEMORY_FLOOR / n. A memory that concerns nothing asked has no floor.
# what a stated value adds, by kind (`value_kind`); 1 for the others (amounts, codes, times,
# dates). A count ("2-3 hours", "12-month") or a capitalised word (a greeting's name, a
# show's title) is weaker evidence of a fact someone will ask for again: on the layer1
# memory cases, 3 % of the counts and 10 % of the names stated are needed facts, against
# 19 % of the amounts, 26 % of the codes and 33 % of the times.
KIND_WEIGHT = {"number": 0.2, "name": 0.5}
MEANING_FLOOR = 0.5  # the candidates' median cosine is no closer than any unfound turn
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


@dataclass(frozen=True)
class _Piece:
    """One sentence of a recalled turn, with where it was said and how it ranks."""

    exchange: EarlierExchange  # the best-ranked exchange its message was found in
    message_id: str
    role: str
    order: tuple[int, int]  # (message seq in its chat, sentence number)
    text: str
    rank: int  # of its exchange, 0 = most relevant
    terms: frozenset[str]  # its content terms
    values: frozenset[str]  # the specific things it states (numbers, amounts, codes, names)
    lead: _Piece | None = None  # the question a short answer needs beside it
    recency: float = 1.0  # the newest chat 1, the oldest OLDEST_WEIGHT (a correction wins)
    meaning: float = 0.0  # how close its turn is to the question, among the candidates (0–1)
    shown: str = ""  # as the block shows it: relative dates resolved (`text.when`)


@lru_cache(maxsize=16384)  # recalled sentences come back question after question
def _analyzed(sentence: str) -> tuple[frozenset[str], frozenset[str]]:
    """(content terms, specific things) of a sentence."""
    return content_terms(sentence), specifics(sentence)


def _short_answer(text: str) -> bool:
    """A reply that means little without the question it answers ("March 15th, 1985.",
    "Yes, the second one.")."""
    return len(text.split()) <= SHORT_ANSWER_WORDS


def _meanings(exchanges: Sequence[EarlierExchange],
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


def _pieces(exchanges: Sequence[EarlierExchange], terms: set[str],
            language: str = "en", meanings: Mapping[str, float] | None = None) -> list[_Piece]:
    """The sentences recall can show: those with something specific (a number, an amount,
    a code, a name) or a word of the question; greetings and filler are left out. A short
    user answer carries the assistant's question before it as its `lead`. Each is weighed
    by how recent its chat is among the candidates: when two sentences add as much, the
    later one (a correction, the current value) goes first."""
    dates = sorted({e.started_at for e in exchanges})
    step = (1.0 - OLDEST_WEIGHT) / (len(dates) - 1) if len(dates) > 1 else 0.0
    recency = {d: OLDEST_WEIGHT + i * step if len(dates) > 1 else 1.0
               for i, d in enumerate(dates)}
    meanings = _meanings(exchanges, {}) if meanings is None else meanings
    pieces: list[_Piece] = []
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
                    own, values = _analyzed(sentence)
                    if not (terms & own or values or (meaning > 0 and own)):
                        continue
                    lead = None
                    if (role == "user" and previous is not None and previous[0] != "user"
                            and previous[1][-1].endswith("?") and number == 0
                            and _short_answer(text)):
                        asked = previous[1][-1]
                        lead = _Piece(exchange, exchange.turns[turn - 1][0], previous[0],
                                      (exchange.position + turn - 1, len(previous[1]) - 1),
                                      asked, rank, *_analyzed(asked), recency=weight,
                                      shown=asked)
                    pieces.append(_Piece(exchange, message_id, role,
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


def _weights(pieces: Sequence[_Piece | _Memory], terms: set[str]) -> dict[str, float]:
    """Inverse document frequency of the question's words over the candidate sentences:
    a word every sentence has ("number") says less about which one is wanted."""
    n = len(pieces) or 1
    return {t: math.log(1 + n / (1 + sum(t in p.terms for p in pieces))) for t in terms}


def _gain(candidate: _Piece | _Memory, weights: dict[str, float], shown: set[str],
          asked: set[str], said: set[str] | frozenset[str] = frozenset(),
          plainness: float = 1.0) -> float:
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
    when something in it concerns the question."""
    relevance = sum(w for t, w in weights.items() if t in candidate.terms)
    new = sum(_weight(v) for v in candidate.values - shown)
    unasked = any(t in candidate.terms and t not in asked for t in weights)
    states = candidate.terms and not (isinstance(candidate, _Piece)
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


def render_recall(pieces: Sequence[_Piece], texts: PromptTexts) -> str:
    """Chosen sentences grouped by chat (oldest chat first, so the newest word comes last),
    each chat in the order things were said. A speaker's label opens a line only when the
    speaker changes: what one side said in a row (one message, or several with the turns
    between them left out) shares a line, and skipped words are shown as "…"."""
    chats: dict[str, list[_Piece]] = {}
    for piece in sorted(pieces, key=lambda p: (p.exchange.started_at,
                                                p.exchange.conversation_id, p.order)):
        chats.setdefault(piece.exchange.conversation_id, []).append(piece)
    blocks = []
    for group in chats.values():
        lines: list[tuple[str, list[str]]] = []  # (role, words) of each line
        before: _Piece | None = None
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


def _follows(before: _Piece, piece: _Piece) -> bool:
    """`piece` is the sentence right after `before` in the same message: nothing between."""
    return piece.message_id == before.message_id and piece.order[1] == before.order[1] + 1


def _insert(shown: list[_Piece], piece: _Piece, line: int, gap: int, *,
            keep: bool = True) -> int:
    """Put `piece` into a chat's shown pieces (kept in the order said; only counted when
    not `keep`) and return the tokens it adds besides its own words, as `render_recall`
    lays them out: a new line with its speaker's label (`line`) after the other speaker,
    a "…" (`gap`) after the same speaker with something skipped, a space after the
    sentence it follows — less what the join it splits cost before."""
    def join(a: _Piece | None, b: _Piece) -> int:
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


@lru_cache(maxsize=16384)
def _words(text: str) -> frozenset[str]:
    return frozenset(fold(text).split())


def _covered(turn: str, memories: Sequence[MemoryItem]) -> bool:
    """The user's turn says no more than a memory shown above (the memory was taken from it)."""
    words = _words(turn)
    return any(words and len(words - _words(m.text)) <= max(1, len(words) // 5)
               for m in memories)


Candidate = _Piece | _Memory
Key = tuple[str, int]


def _key(c: Candidate) -> Key:
    return ("\0" + c.item.id, 0) if isinstance(c, _Memory) else (c.message_id, c.order[1])


def _parts(c: Candidate) -> list[Candidate]:
    """What showing `c` shows: a short answer comes with the question it answers."""
    if isinstance(c, _Piece) and c.lead is not None:
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
        meanings = _meanings(exchanges, similarity)
        self.pieces = _pieces(exchanges, terms, texts.language, meanings)
        self.covers: dict[Key, set[Key]] = {}  # a memory and the user turn it was taken from
        user_turns: dict[str, list[_Piece]] = {}
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
        pieces = [c for c in chosen if isinstance(c, _Piece)]
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
        heap = [(-self.ratio(c, state), c.rank, i) for i, c in enumerate(candidates)]
        heapq.heapify(heap)
        groups: list[list[Candidate]] = []
        used = 0
        while heap:
            _, _, i = heapq.heappop(heap)
            c = candidates[i]
            if _key(c) in state.done or _key(c) in state.retired:
                continue
            current = self.ratio(c, state)
            if current <= 0:
                continue
            if heap and current < -heap[0][0] - 1e-12:
                heapq.heappush(heap, (-current, c.rank, i))  # its gain fell: re-queue
                continue
            spend = self.cost(c, state)
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
            if isinstance(part, _Piece):
                _insert(state.chats.setdefault(part.exchange.conversation_id, []), part,
                        self.label, self.gap)
        return fresh

    def ratio(self, c: Candidate, state: _Shown) -> float:
        return (_gain(c, self.weights, state.values, state.asked, state.terms, self.plainness)
                / max(1, self.cost(c, state)))

    def cost(self, c: Candidate, state: _Shown) -> int:
        """The tokens showing `c` adds to the block as it is."""
        if isinstance(c, _Memory):
            return ((0 if state.memories else self.memory_head)
                    + self.size(self.texts["memory_item"].format(text=c.item.text)) + 1)
        total = 0 if state.recall else self.intro
        fresh = [part for part in _parts(c) if _key(part) not in state.done]
        if len(fresh) == 1:  # the common case: counted without copying the chat
            part = fresh[0]
            assert isinstance(part, _Piece)
            chat = part.exchange.conversation_id
            return (total + (0 if chat in state.chats else self.fence) + self.size(part.shown)
                    + _insert(state.chats.get(chat, []), part, self.label, self.gap,
                              keep=False))
        trial: dict[str, list[_Piece]] = {}  # the chats as they would be with `c` shown
        for part in fresh:
            assert isinstance(part, _Piece)
            chat = part.exchange.conversation_id
            if chat not in state.chats and chat not in trial:
                total += self.fence
            shown_in_chat = trial.setdefault(chat, list(state.chats.get(chat, ())))
            total += self.size(part.shown) + _insert(shown_in_chat, part, self.label, self.gap)
        return total


@dataclass
class _Shown:
    """What a packing shows so far."""

    done: set[Key] = field(default_factory=set)
    retired: set[Key] = field(default_factory=set)  # said by a memory or turn shown
    chats: dict[str, list[_Piece]] = field(default_factory=dict)  # shown pieces, in order
    values: set[str] = field(default_factory=set)  # the specific things shown
    terms: set[str] = field(default_factory=set)  # the content words shown
    asked: set[str] = field(default_factory=set)  # the question's words shown
    memories: int = 0
    memory_tokens: int = 0
    recall: bool = False
