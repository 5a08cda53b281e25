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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from desktop_app.answer.prompt import MemoryItem, PromptTexts, neutralize
from desktop_app.memory.types import EarlierExchange
from desktop_app.text.analyze import content_terms
from desktop_app.text.caches import forget_with
from desktop_app.text.fold import fold
from desktop_app.text.sentences import turn_sentences
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.values import specifics, value_kind

MAX_MEMORIES = 5  # profile facts are few and short; the rest of the budget goes to recall
MEMORY_SHARE = 0.5  # memories may take at most this share of the budget
GAP = " … "
SHORT_ANSWER_WORDS = 8  # a user reply this short is shown with the question it answers
NO_VALUE_GAIN = 0.05  # a sentence with the question's words but nothing specific, vs one value
OLDEST_WEIGHT = 0.5  # the oldest candidate chat's sentences count this much, the newest 1
MEMORY_FLOOR = 0.5  # the best memory's least gain (found for the question by meaning); the
# n-th best memory's is MEMORY_FLOOR / n: the lower the search ranked it, the less surely it
# is about the question when it shares no word with it and states nothing new
# what a stated value adds, by kind (`value_kind`); 1 for the others (amounts, codes, times,
# dates). A count ("2-3 hours", "12-month") or a capitalised word (a greeting's name, a
# show's title) is weaker evidence of a fact someone will ask for again: on the layer1
# memory cases, 3 % of the counts and 10 % of the names stated are needed facts, against
# 19 % of the amounts, 26 % of the codes and 33 % of the times.
KIND_WEIGHT = {"number": 0.2, "name": 0.5}
FILL_ROUNDS = 3  # packings tried: the estimate is corrected by the real count in between
FILL_MIN = 8  # tokens left over worth another packing


@dataclass(frozen=True)
class ContextBlock:
    memories: tuple[MemoryItem, ...]
    exchanges: tuple[EarlierExchange, ...]
    text: str  # what goes into the prompt before the sources
    tokens: int

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


@lru_cache(maxsize=16384)  # recalled sentences come back question after question
def _analyzed(sentence: str) -> tuple[frozenset[str], frozenset[str]]:
    """(content terms, specific things) of a sentence."""
    return content_terms(sentence), specifics(sentence)


def _short_answer(text: str) -> bool:
    """A reply that means little without the question it answers ("March 15th, 1985.",
    "Yes, the second one.")."""
    return len(text.split()) <= SHORT_ANSWER_WORDS


def _pieces(exchanges: Sequence[EarlierExchange], terms: set[str]) -> list[_Piece]:
    """The sentences recall can show: those with something specific (a number, an amount,
    a code, a name) or a word of the question; greetings and filler are left out. A short
    user answer carries the assistant's question before it as its `lead`. Each is weighed
    by how recent its chat is among the candidates: when two sentences add as much, the
    later one (a correction, the current value) goes first."""
    dates = sorted({e.started_at for e in exchanges})
    step = (1.0 - OLDEST_WEIGHT) / (len(dates) - 1) if len(dates) > 1 else 0.0
    recency = {d: OLDEST_WEIGHT + i * step if len(dates) > 1 else 1.0
               for i, d in enumerate(dates)}
    pieces: list[_Piece] = []
    seen: set[str] = set()
    for rank, exchange in enumerate(exchanges):
        weight = recency[exchange.started_at]
        previous: tuple[str, tuple[str, ...]] | None = None  # the turn before: role, sentences
        for turn, (message_id, role, text) in enumerate(exchange.turns):
            sentences = _sentences(text)
            if message_id not in seen:
                seen.add(message_id)
                for number, sentence in enumerate(sentences):
                    own, values = _analyzed(sentence)
                    if not (terms & own or values):
                        continue
                    lead = None
                    if (role == "user" and previous is not None and previous[0] != "user"
                            and previous[1][-1].endswith("?") and number == 0
                            and _short_answer(text)):
                        asked = previous[1][-1]
                        lead = _Piece(exchange, exchange.turns[turn - 1][0], previous[0],
                                      (exchange.position + turn - 1, len(previous[1]) - 1),
                                      asked, rank, *_analyzed(asked), recency=weight)
                    pieces.append(_Piece(exchange, message_id, role,
                                         (exchange.position + turn, number), sentence, rank,
                                         own, values, lead, weight))
            previous = (role, sentences)
    return pieces


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
          asked: set[str]) -> float:
    """What showing a sentence adds: the question's words it has (weighted) times the
    specific things it states that the block does not show yet (an amount, a code, a time
    or a date counts more than a count or a name: `KIND_WEIGHT`). One with nothing new to
    state adds a little only while it has a word of the question the block does not show
    yet (`asked`: the question's words shown so far): the same sentence said twelve times
    is shown once. The search chose which exchanges are candidates; among them its rank
    only breaks ties (a broad question's facts are spread over many exchanges, none of
    which matches it best). A profile memory always adds a little (the memory search found
    it for this question, even when it shares no word with it), less the lower it ranked."""
    relevance = sum(w for t, w in weights.items() if t in candidate.terms)
    new = sum(_weight(v) for v in candidate.values - shown)
    unasked = any(t in candidate.terms and t not in asked for t in weights)
    gain = (1.0 + relevance) * (new + (NO_VALUE_GAIN if unasked else 0.0))
    if isinstance(candidate, _Memory):
        return max(gain, MEMORY_FLOOR / (1 + candidate.rank))
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
            lines[-1][1].append(piece.text)
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


def _covered(turn: str, memories: Sequence[MemoryItem]) -> bool:
    """The user's turn says no more than a memory shown above (the memory was taken from it)."""
    words = set(fold(turn).split())
    return any(words and len(words - set(fold(m.text).split())) <= max(1, len(words) // 5)
               for m in memories)


def fit_context(memories: Sequence[MemoryItem], exchanges: Sequence[EarlierExchange],
                texts: PromptTexts, *, count_tokens: Callable[[str], int],
                budget: int, query: str = "") -> ContextBlock:
    """Profile memories and what was said in earlier chats, while the rendered block fits
    `budget` tokens. Both are packed piece by piece — a memory, or one sentence of a
    recalled turn — the piece that adds most for its tokens first (`_gain`: the question's
    words, specific things not shown yet, its search rank), so the budget holds facts
    rather than greetings or the same number three times. A user turn a shown memory was
    taken from is not repeated. Each piece is counted once; the rendered block is counted
    again at the end, trimmed if the sum of parts fell short and refilled if it was over."""
    if budget <= 0 or (not memories and not exchanges):
        return EMPTY
    terms = set(content_terms(query, ignore=NOT_CONTENT))  # "tell me", "can you": no topic
    offered = [_Memory(m, rank, content_terms(m.text), specifics(m.text))
               for rank, m in enumerate(memories[:MAX_MEMORIES])]
    pieces = _pieces(exchanges, terms)
    weights = _weights([*pieces, *offered], terms)
    best = EMPTY
    room = budget
    sizes: dict[str, int] = {}  # each text counted once, across packings
    for _ in range(FILL_ROUNDS):
        groups = _pack(offered, pieces, weights, texts, count_tokens, room, budget, sizes)
        while True:
            block = _render(groups, exchanges, texts, count_tokens)
            if block.tokens <= budget or not groups:
                break
            groups.pop()  # the estimate fell short: drop the last piece chosen
        if block.tokens <= budget and block.tokens >= best.tokens:
            best = block
        slack = budget - block.tokens
        if slack < FILL_MIN or len(groups) == 0:
            break
        room += slack
    return best


def _render(groups: list[list[_Piece | _Memory]], exchanges: Sequence[EarlierExchange],
            texts: PromptTexts, count_tokens: Callable[[str], int]) -> ContextBlock:
    chosen = [c for group in groups for c in group]
    kept = sorted((c for c in chosen if isinstance(c, _Memory)), key=lambda m: m.rank)
    pieces = [c for c in chosen if isinstance(c, _Piece)]
    text = render_memories([m.item for m in kept], texts) + render_recall(pieces, texts)
    used = {p.exchange.exchange_id for p in pieces}
    return ContextBlock(tuple(m.item for m in kept),
                        tuple(e for e in exchanges if e.exchange_id in used), text,
                        count_tokens(text) if text else 0)


def _pack(memories: list[_Memory], pieces: list[_Piece], weights: dict[str, float],
          texts: PromptTexts, count_tokens: Callable[[str], int], room: int,
          budget: int, sizes: dict[str, int]) -> list[list[_Piece | _Memory]]:
    """Greedy by gain per token, lazily re-evaluated (a piece's gain only falls as the
    block shows more; its cost can fall too, when a neighbour joins its line, and is
    seen when it comes up), within `room` tokens counted part by part: a section's
    header once, a chat's fence once, a speaker's label where the speaker changes and
    a "…" where something is skipped (`_insert`), then each sentence.
    Returns the chosen groups in the order chosen (a short answer with its question)."""
    candidates: list[_Piece | _Memory] = [*memories, *pieces]
    if not candidates or room <= 0:
        return []
    def size(text: str) -> int:
        if text not in sizes:
            sizes[text] = count_tokens(text)
        return sizes[text]

    intro = size(texts["recall"].format(items=""))
    fence = size(texts["recall_chat"].format(date="15 Nov 2024", turns=""))
    label = max(size(texts["recall_user"].format(text="")),
                size(texts["recall_assistant"].format(text="")))
    memory_head = size(texts["memories"].format(items=""))
    gap = size(GAP)

    def parts(c: _Piece | _Memory) -> list[_Piece | _Memory]:
        if isinstance(c, _Piece) and c.lead is not None:
            return [c.lead, c]
        return [c]

    def key(c: _Piece | _Memory) -> tuple[str, int]:
        return ("\0" + c.item.id, 0) if isinstance(c, _Memory) else (c.message_id, c.order[1])

    # a user turn and a memory taken from it say the same: showing one retires the other
    covers: dict[tuple[str, int], set[tuple[str, int]]] = {}
    by_message: dict[str, list[_Piece]] = {}
    for piece in pieces:
        by_message.setdefault(piece.message_id, []).append(piece)
    for memory in memories:
        for group in by_message.values():
            if group[0].role == "user" and _covered(" ".join(p.text for p in group),
                                                    [memory.item]):
                keys = {key(p) for p in group}
                covers.setdefault(key(memory), set()).update(keys)
                for k in keys:
                    covers.setdefault(k, set()).add(key(memory))

    done: set[tuple[str, int]] = set()
    retired: set[tuple[str, int]] = set()
    chats: dict[str, list[_Piece]] = {}  # the pieces shown of each chat, in the order said
    shown: set[str] = set()
    asked: set[str] = set()  # the question's words the block shows
    state = {"memories": 0, "memory_tokens": 0, "recall": False}

    def cost(c: _Piece | _Memory) -> int:
        if isinstance(c, _Memory):
            return (0 if state["memories"] else memory_head) \
                + size(texts["memory_item"].format(text=c.item.text)) + 1
        total = 0 if state["recall"] else intro
        fresh = [part for part in parts(c) if key(part) not in done]
        if len(fresh) == 1:  # the common case: counted without copying the chat
            part = fresh[0]
            assert isinstance(part, _Piece)
            chat = part.exchange.conversation_id
            return (total + (0 if chat in chats else fence) + size(part.text)
                    + _insert(chats.get(chat, []), part, label + 1, gap, keep=False))
        trial: dict[str, list[_Piece]] = {}  # the chats as they would be with `c` shown
        for part in fresh:
            assert isinstance(part, _Piece)
            chat = part.exchange.conversation_id
            if chat not in chats and chat not in trial:
                total += fence
            shown_in_chat = trial.setdefault(chat, list(chats.get(chat, ())))
            total += size(part.text) + _insert(shown_in_chat, part, label + 1, gap)
        return total

    def ratio(c: _Piece | _Memory) -> float:
        return _gain(c, weights, shown, asked) / max(1, cost(c))

    heap = [(-ratio(c), c.rank, i) for i, c in enumerate(candidates)]
    heapq.heapify(heap)
    groups: list[list[_Piece | _Memory]] = []
    used = 0
    while heap:
        _, _, i = heapq.heappop(heap)
        c = candidates[i]
        if key(c) in done or key(c) in retired:
            continue
        current = ratio(c)
        if current <= 0:
            continue
        if heap and current < -heap[0][0] - 1e-12:
            heapq.heappush(heap, (-current, c.rank, i))  # its gain fell: re-queue
            continue
        spend = cost(c)
        if used + spend > room:
            continue
        if isinstance(c, _Memory):
            if state["memory_tokens"] + spend > budget * MEMORY_SHARE:
                continue
            state["memories"] += 1
            state["memory_tokens"] += spend
        else:
            state["recall"] = True
        used += spend
        fresh = [part for part in parts(c) if key(part) not in done]
        for part in fresh:
            done.add(key(part))
            retired.update(covers.get(key(part), ()))
            shown.update(part.values)
            asked.update(t for t in weights if t in part.terms)
            if isinstance(part, _Piece):
                _insert(chats.setdefault(part.exchange.conversation_id, []), part,
                        label + 1, gap)
        groups.append(fresh)
    return groups


for _cache in (_analyzed, _sentences, _weight):  # erased sentences leave the process too
    forget_with(_cache.cache_clear)
