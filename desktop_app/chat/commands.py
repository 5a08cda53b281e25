"""CLI: `chat MESSAGE` — one chat turn from the command line, as the window runs it
(memory commands applied, the answer streamed, the after-the-answer extraction run inline).

    desktop-app chat MESSAGE [--conversation ID] [--no-llm]
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from desktop_app.answer.events import CitationEvent, Done, MemoryUsed, RecallUsed, Token
from desktop_app.chat.conversations import CLI_CONVERSATION
from desktop_app.chat.events import TurnComplete
from desktop_app.memory.events import MemoryForgotten, MemoryNotSaved, MemorySaved
from desktop_app.privacy.stderr import tell_user

if TYPE_CHECKING:
    from desktop_app.app import App


def register(sub: argparse._SubParsersAction[Any]) -> None:
    chat = sub.add_parser("chat", help="one chat turn: remembers, answers with your memories")
    chat.add_argument("message")
    chat.add_argument("--conversation", default=CLI_CONVERSATION)
    chat.add_argument("--no-llm", action="store_true", help="sources-only answer")
    chat.set_defaults(handler=cmd_chat)


def cmd_chat(args: argparse.Namespace, app: App) -> int:
    app.conversations.ensure_conversation(args.conversation, "command line")
    job = None
    for event in app.chat.turn(args.conversation, args.message, sources_only=args.no_llm):
        if isinstance(event, Token):
            print(event.text, end="", flush=True)
        elif isinstance(event, MemoryUsed):
            # words, like `ask`: the user's channel, never the log (it quotes the memory)
            tell_user(f"(using what you told me: {event.text})")
        elif isinstance(event, RecallUsed):
            tell_user(f"(from your chat of {event.date_label})")
        elif isinstance(event, CitationEvent):
            pass  # badges are in the text; the list follows the answer
        elif isinstance(event, Done):
            print()
            if event.searched_for:
                print(f"  (searched for: {event.searched_for})")
            for c in event.citations:
                print(f"  [{c.number}] {c.title} p. {c.page} — {c.source_path}")
            for c in event.closest:
                print(f"  closest: {c.title} p. {c.page} — {' '.join(c.snippet.split())[:100]}")
            for warning in event.warnings:
                tell_user(f"  ({warning.english()})")
        elif isinstance(event, TurnComplete):
            job = event.extraction
        else:
            _print_memory_event(event)
    if job is not None:
        for event in job.run():
            _print_memory_event(event)
    return 0


def _print_memory_event(event: Any) -> None:
    if isinstance(event, MemorySaved):
        tell_user(f"[memory saved: {', '.join(event.memory_ids)}]")
    elif isinstance(event, MemoryNotSaved):
        tell_user(f"[{event.reason} ({event.category}): run `desktop-app memory consent "
                  f"{event.category} on`]")
    elif isinstance(event, MemoryForgotten):
        tell_user(f"[memory erased: {', '.join(event.memory_ids) or 'nothing matched'}]")
