"""Session memory: the history handed to the answer service for one turn.

The last turns go verbatim; when the conversation is longer than the budget, older
turns are folded into a running summary stored on the conversation (so it is computed
once per dropped turn, not per question). With an LLM the summary is written by the
model (constrained JSON); without one it is extractive: the first sentence of each
older user message. The summary is a derived copy, so erasing a message or a memory
resets it (see `ConversationStore.delete_messages` / `redact`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from desktop_app.chat.conversations import ConversationStore
from desktop_app.memory.types import StoredMessage
from desktop_app.text.sentences import chat_sentences

log = logging.getLogger(__name__)

SUMMARY_PREFIX = "Summary of the earlier conversation: "
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"summary": {"type": "string", "maxLength": 800}},
    "required": ["summary"],
}


LAST_EXCHANGE = 2  # the last question and its answer stay verbatim (cut, never dropped)


def fit(history: list[dict[str, str]], budget: int) -> list[dict[str, str]]:
    """`history` cut to `budget` characters: the answers first, the longest first, each
    keeping its opening. A follow-up ("e qual o prazo?") is read against the last question
    and what its answer quoted; a long answer (a law's whole list) must not push them out
    into a one-line summary."""
    sizes = [len(m["content"]) for m in history]
    excess = sum(sizes) - budget
    floor = budget // (2 * max(len(history), 1))  # what every message keeps at least
    order = sorted(range(len(history)), key=lambda i: (history[i]["role"] == "user", -sizes[i]))
    for i in order:
        if excess <= 0:
            break
        cut = min(excess, sizes[i] - floor)
        if cut > 0:
            content = history[i]["content"]
            history[i] = {**history[i], "content": content[:sizes[i] - cut].rstrip() + " …"}
            excess -= cut
    return history


class SummaryLLM(Protocol):
    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]: ...


def extractive_summary(previous: str | None, messages: Sequence[StoredMessage],
                       *, max_chars: int = 800) -> str:
    """First sentence of each older user message, newest kept when over `max_chars`."""
    points = [p for p in (previous or "").split(" | ") if p]
    for m in messages:
        if m.role != "user" or not m.content.strip():
            continue
        first = chat_sentences(m.content.strip())[0]
        points.append(first[:160])
    while points and len(" | ".join(points)) > max_chars:
        points.pop(0)
    return " | ".join(points)


def llm_summary(llm: SummaryLLM, previous: str | None,
                messages: Sequence[StoredMessage]) -> str:
    lines = [f"{m.role}: {' '.join(m.content.split())[:400]}" for m in messages]
    prompt = ("Update the running summary of a conversation between a user and an assistant. "
              "Keep names, numbers, decisions and open questions; at most 5 sentences.\n\n"
              f"Summary so far: {previous or '(none)'}\n\nNew turns:\n" + "\n".join(lines))
    result = llm.complete_json([{"role": "user", "content": prompt}], SUMMARY_SCHEMA,
                               max_tokens=200)
    return str(result.get("summary", "")).strip()


class HistoryBuilder:
    """Builds `history: list[dict]` for `AnswerService.ask` within a character budget."""

    def __init__(self, conversations: ConversationStore, *, keep_last_messages: int = 4,
                 budget_chars: int = 4000, llm: SummaryLLM | None = None) -> None:
        # the answer service reads at most 6 history messages: summary + 4 recent fit
        self.conversations = conversations
        self.keep_last_messages = keep_last_messages
        self.budget_chars = budget_chars
        self.llm = llm

    def build(self, conversation_id: str, *, before_seq: int | None = None,
              llm: SummaryLLM | None = None) -> list[dict[str, str]]:
        """History of `conversation_id` up to (excluding) message `before_seq`. `llm`
        (else the builder's own) writes the summary of older turns; without one it is
        extractive."""
        messages = [m for m in self.conversations.messages(conversation_id)
                    if before_seq is None or m.seq < before_seq]
        recent = messages[-self.keep_last_messages:] if self.keep_last_messages else []
        while len(recent) > LAST_EXCHANGE and \
                sum(len(m.content) for m in recent) > self.budget_chars:
            recent = recent[1:]  # over budget: the oldest of the recent turns joins the summary
        while len(recent) > LAST_EXCHANGE and recent[0].role != "user":
            recent = recent[1:]  # an answer whose question went into the summary goes too
        older = messages[: len(messages) - len(recent)]
        history = fit([{"role": m.role, "content": m.content} for m in recent],
                      self.budget_chars)
        if not older:
            return history
        summary = self._summary(conversation_id, older, llm or self.llm)
        if summary:
            history.insert(0, {"role": "assistant", "content": SUMMARY_PREFIX + summary})
        return history

    def _summary(self, conversation_id: str, older: list[StoredMessage],
                 llm: SummaryLLM | None) -> str:
        summary, upto = self.conversations.summary(conversation_id)
        new = [m for m in older if m.seq > upto]
        if not new:
            return summary or ""
        updated = ""
        if llm is not None:
            try:
                updated = llm_summary(llm, summary, new)
            except Exception as exc:  # the summary is a convenience: never fail a turn on it
                log.warning("llm summary failed for %s: %s", conversation_id,
                            type(exc).__name__)
        if not updated:
            updated = extractive_summary(summary, new)
        self.conversations.set_summary(conversation_id, updated, older[-1].seq)
        return updated
