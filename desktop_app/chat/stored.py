"""An answer as a conversation stores it, and back: the one place that writes and reads
the assistant message's trace.

Stored: the answer service's trace (the diagnostic record: query, hits, timings, the
memories and earlier chats used), the warnings as codes, the badges as ids
(`Citation.to_stored`) and, for a memory command, what it did. Read back for the window
(`reloaded`): each message with, for an answer, a `Done` whose badges are rebuilt from the
index (`Citation.from_stored`, given a lookup of the stored passages) and the earlier
chats it drew on that still exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_app.answer.events import AnswerWarning, Citation, Done, RecallUsed, stored_library
from desktop_app.memory.types import StoredMessage, chat_date
from desktop_app.retrieval.index_api import ChunkRow

if TYPE_CHECKING:
    from desktop_app.chat.conversations import ConversationStore

# (library, chunk id) → the passage as stored now; None when it is gone or unreachable
ChunkLookup = Callable[[str, str], ChunkRow | None]


@dataclass(frozen=True)
class ReloadedMessage:
    """A stored message as a reopened chat shows it."""

    message: StoredMessage
    answer: Done | None = None  # an assistant message: its answer, badges rebuilt
    recalled: tuple[RecallUsed, ...] = ()  # the earlier chats it drew on, still there


def reloaded(store: ConversationStore, conversation_id: str,
             lookup: ChunkLookup) -> list[ReloadedMessage]:
    """A conversation's messages read back: an answer's badges come back from the index (a
    removed document's are gone), its "from your chat of …" links only to chats that still
    exist."""
    out: list[ReloadedMessage] = []
    existing: set[str] | None = None
    for message in store.messages(conversation_id):
        if message.role != "assistant":
            out.append(ReloadedMessage(message))
            continue
        recalled: tuple[RecallUsed, ...] = ()
        if message.trace and message.trace.get("recall"):
            if existing is None:  # listed once, and only when an answer drew on chats
                existing = {str(c["id"]) for c in store.conversations()}
            recalled = recalled_chats(message.trace, existing)
        out.append(ReloadedMessage(message, stored_answer(message.content, message.trace,
                                                          lookup), recalled))
    return out


def stored_trace(done: Done | None, command_trace: Mapping[str, Any]) -> dict[str, Any]:
    """The trace kept with an assistant message (ids, codes: no passage text)."""
    trace = dict(done.trace) if done is not None else {}
    if done is not None:
        trace["warnings"] = [w.as_dict() for w in done.warnings]
        # ids, the exact quoted span and the claim: a reloaded answer highlights the same words
        trace["citations"] = [c.to_stored() for c in done.citations]
    trace.update(command_trace)
    return trace


def stored_answer(answer: str, trace: Mapping[str, Any] | None, lookup: ChunkLookup) -> Done:
    """A stored assistant message as a `Done`: its badges (those whose passage is still in
    the index) and warnings."""
    trace = trace or {}

    def rebuilt(key: str) -> tuple[Citation, ...]:
        out = []
        for entry in trace.get(key) or ():
            if not isinstance(entry, Mapping):
                continue
            row = None
            if "source_path" not in entry:  # ids only: the passage comes from the index
                row = lookup(stored_library(entry), str(entry.get("chunk_id", "")))
            citation = Citation.from_stored(entry, row)
            if citation is not None:
                out.append(citation)
        return tuple(out)

    warnings = tuple(AnswerWarning.from_stored(w) for w in trace.get("warnings") or ())
    return Done(answer=answer, citations=rebuilt("citations"), warnings=warnings,
                closest=rebuilt("closest"),
                scope=str((trace.get("filters") or {}).get("scope") or ""))


def recalled_chats(trace: Mapping[str, Any] | None,
                   existing: set[str] | None = None) -> tuple[RecallUsed, ...]:
    """The earlier chats a stored answer drew on, one per chat in the order used, leaving
    out those not in `existing` (deleted since). The trace keeps ids and dates only, never
    what was said: the excerpt is not shown again."""
    chats: dict[str, RecallUsed] = {}
    for entry in (trace or {}).get("recall") or ():
        try:
            conversation_id = str(entry["conversation_id"])
            if existing is not None and conversation_id not in existing:
                continue
            if conversation_id not in chats:
                started_at = str(entry["date"])
                chats[conversation_id] = RecallUsed(conversation_id, chat_date(started_at), (),
                                                    "", started_at)
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(chats.values())
