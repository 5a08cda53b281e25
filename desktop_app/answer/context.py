"""The personal context of a prompt: "What you told me" + "From earlier conversations".

Profile memories (short facts from the user's own words) come first, then exchanges of
earlier chats, best first, as long as the whole block stays under a token budget
(`Settings.context_block_tokens`, counted with the model's tokenizer) — no fixed k.
Exchanges of one chat are shown together, in the order they were said, under the chat's
date; a user turn that a shown memory was taken from is not repeated. Recalled text sits
inside a fence it cannot close (`neutralize`): it is something said earlier, possibly by
the assistant, never an instruction and never a profile fact.

Pure: no storage, no model. The answer service and the memory evaluation both call
`fit_context`, so the evaluation measures exactly the block the model would see.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desktop_app.answer.prompt import MemoryItem, PromptTexts, neutralize
from desktop_app.memory.types import EarlierExchange
from desktop_app.text.analyze import content_terms
from desktop_app.text.fold import fold
from desktop_app.text.sentences import chat_sentences

MAX_MEMORIES = 5  # profile facts are few and short; the rest of the budget goes to recall
MEMORY_SHARE = 0.5  # memories may take at most this share of the budget
GAP = " … "
# a sentence that carries something specific: a number, an amount, a code, an e-mail, or a
# capitalised word inside it (a name): what the user will ask about later
_SPECIFIC = re.compile(r"\d|[$€£]|[\w.+-]+@[\w-]+|(?<=\S )[A-ZÀ-Ý][\w-]+")


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
    overlap: int  # words of the question it contains


def _pieces(exchanges: Sequence[EarlierExchange], skip: frozenset[str],
            terms: set[str]) -> list[_Piece]:
    """The sentences recall can show: those with something specific (a number, an amount,
    a code, a name) or a word of the question; greetings and filler are left out."""
    pieces: list[_Piece] = []
    seen: set[str] = set()
    for rank, exchange in enumerate(exchanges):
        for turn, (message_id, role, text) in enumerate(exchange.turns):
            if message_id in seen or message_id in skip:
                continue
            seen.add(message_id)
            flat = " ".join(text.split())
            for number, sentence in enumerate(chat_sentences(flat) or [flat]):
                overlap = len(terms & content_terms(sentence))
                if overlap or _SPECIFIC.search(sentence):
                    pieces.append(_Piece(exchange, message_id, role,
                                         (exchange.position + turn, number), sentence, rank,
                                         overlap))
    return pieces


def _by_relevance(pieces: list[_Piece]) -> list[_Piece]:
    """Best first: the exchange's rank and the sentence's share of the question's words,
    fused with the same reciprocal-rank formula as search (k = 60)."""
    by_overlap = sorted(pieces, key=lambda p: (-p.overlap, p.rank, p.order))
    overlap_rank = {id(p): r for r, p in enumerate(by_overlap)}
    by_exchange = sorted(pieces, key=lambda p: (p.rank, p.order))
    exchange_rank = {id(p): r for r, p in enumerate(by_exchange)}
    return sorted(pieces, key=lambda p: (-(1 / (60 + overlap_rank[id(p)])
                                           + 1 / (60 + exchange_rank[id(p)])), p.rank, p.order))


def render_memories(memories: Sequence[MemoryItem], texts: PromptTexts) -> str:
    if not memories:
        return ""
    items = "\n".join(texts["memory_item"].format(text=neutralize(m.text)) for m in memories)
    return texts["memories"].format(items=items)


def render_recall(pieces: Sequence[_Piece], texts: PromptTexts) -> str:
    """Chosen sentences grouped by chat (oldest chat first, so the newest word comes last),
    each chat in the order things were said; skipped sentences of a turn become "…"."""
    chats: dict[str, list[_Piece]] = {}
    for piece in sorted(pieces, key=lambda p: (p.exchange.started_at,
                                                p.exchange.conversation_id, p.order)):
        chats.setdefault(piece.exchange.conversation_id, []).append(piece)
    blocks = []
    for group in chats.values():
        turns: list[tuple[str, list[str]]] = []  # (role, sentences) of each message shown
        current, last = "", -1
        for piece in group:
            if piece.message_id != current:
                turns.append((piece.role, []))
                current, last = piece.message_id, -1
            words = turns[-1][1]
            if last >= 0 and piece.order[1] != last + 1:
                words.append(GAP.strip())
            words.append(piece.text)
            last = piece.order[1]
        lines = [texts["recall_user" if role == "user" else "recall_assistant"].format(
            text=neutralize(" ".join(words))) for role, words in turns]
        blocks.append(texts["recall_chat"].format(date=group[0].exchange.date_label,
                                                  turns="\n".join(lines)))
    return texts["recall"].format(items="\n".join(blocks)) if blocks else ""


def _covered(turn: str, memories: Sequence[MemoryItem]) -> bool:
    """The user's turn says no more than a memory shown above (the memory was taken from it)."""
    words = set(fold(turn).split())
    return any(words and len(words - set(fold(m.text).split())) <= max(1, len(words) // 5)
               for m in memories)


def fit_context(memories: Sequence[MemoryItem], exchanges: Sequence[EarlierExchange],
                texts: PromptTexts, *, count_tokens: Callable[[str], int],
                budget: int, query: str = "") -> ContextBlock:
    """Memories, then what was said in earlier chats, best first, while the rendered block
    fits `budget` tokens. Recalled turns are packed sentence by sentence (`_pieces`), so
    the budget holds facts rather than greetings."""
    terms = set(content_terms(query))
    if budget <= 0 or (not memories and not exchanges):
        return EMPTY
    kept: list[MemoryItem] = []
    for memory in memories[:MAX_MEMORIES]:
        if count_tokens(render_memories([*kept, memory], texts)) <= budget * MEMORY_SHARE:
            kept.append(memory)
    head = render_memories(kept, texts)
    skip = frozenset(message_id for e in exchanges for message_id, role, text in e.turns
                     if role == "user" and _covered(text, kept))
    chosen: list[_Piece] = []
    tokens = count_tokens(head) if head else 0
    for piece in _by_relevance(_pieces(exchanges, skip, terms)):
        trial = head + render_recall([*chosen, piece], texts)
        cost = count_tokens(trial)
        if cost <= budget:
            chosen.append(piece)
            tokens = cost
    text = head + render_recall(chosen, texts)
    used = {p.exchange.exchange_id for p in chosen}
    return ContextBlock(tuple(kept), tuple(e for e in exchanges if e.exchange_id in used), text,
                        tokens if text else 0)
