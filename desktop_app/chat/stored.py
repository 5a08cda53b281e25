"""An answer as a conversation stores it, and back: the one place that writes and reads
the assistant message's trace.

Stored: the answer service's trace (the diagnostic record: query, hits, timings, the
memories and earlier chats used), the warnings as codes, the badges and a "not found"
answer's closest passages as ids (`Citation.to_stored`, with the search legs that found
them), the query searched for, who wrote the answer (`AnswerMode`) and, for a memory
command, what it did. Read back for the window (`reloaded`): each message with, for an
answer, a `Done` whose badges are rebuilt from the index (`Citation.from_stored`, given a
lookup of the stored passages) and the earlier chats it drew on that still exist — a
reopened chat shows what the live answer showed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_app.answer.events import AnswerWarning, Citation, Done, RecallUsed, stored_library
from desktop_app.memory.types import StoredMessage, chat_date
from desktop_app.retrieval.index_api import ChunkRow

if TYPE_CHECKING:
    from desktop_app.answer.mode import AnswerMode
    from desktop_app.chat.conversations import ConversationStore

# the stored trace's "mode" of answers not written by a model
SOURCES_MODES = frozenset({"sources_only", "abstained", "not_found", "from_context"})
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
        # ids, the exact quoted span and the claim: a reloaded answer highlights the same
        # words; and which search legs found each ("found by keywords + meaning")
        trace["citations"] = [_with_legs(c) for c in done.citations]
        # a "not found" answer's closest passages (ids only, as badges are kept)
        if done.closest:
            trace["closest"] = [_with_legs(c) for c in done.closest]
        if done.searched_for:
            trace["searched_for"] = done.searched_for
        if done.answer_mode is not None:
            trace["answer_mode"] = done.answer_mode.as_dict()
    trace.update(command_trace)
    return trace


def _with_legs(citation: Citation) -> dict[str, Any]:
    return {**citation.to_stored(), "legs": sorted(citation.legs)}


def stored_mode(trace: Mapping[str, Any]) -> AnswerMode | None:
    """Who wrote a stored answer (None for what no answer service decided, or unreadable)."""
    from desktop_app.answer.mode import AnswerMode

    raw = trace.get("answer_mode")
    if not isinstance(raw, Mapping):
        return None
    try:
        return AnswerMode(**{k: raw[k] for k in raw
                             if k in AnswerMode.__dataclass_fields__})
    except (TypeError, ValueError):
        return None


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
            if citation is not None and entry.get("legs") and not citation.legs:
                citation = dataclasses.replace(
                    citation, legs=frozenset(str(leg) for leg in entry["legs"]))
            if citation is not None:
                out.append(citation)
        return tuple(out)

    warnings = tuple(AnswerWarning.from_stored(w) for w in trace.get("warnings") or ())
    return Done(answer=answer, citations=rebuilt("citations"), warnings=warnings,
                closest=rebuilt("closest"), answer_mode=stored_mode(trace),
                searched_for=str(trace.get("searched_for") or ""),
                sources_only=bool(trace.get("mode") in SOURCES_MODES),
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
