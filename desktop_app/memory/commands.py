"""CLI: `memory …` (the user's rights) and `eval memory DIR`.

    desktop-app memory list [--history|--all] [--category C] [--subject S] [--query Q]
    desktop-app memory show ID            provenance: source message, history, edits
    desktop-app memory remember TEXT      tell a fact (stored as your message, saved now)
    desktop-app memory recall QUESTION    the "What you told me" block for a question
    desktop-app memory edit ID TEXT [--erase-old]
    desktop-app memory delete ID [--with-messages]
    desktop-app memory forget-all --yes [--with-conversations]
    desktop-app memory export FILE [--with-conversations]
    desktop-app memory consent [CATEGORY on|off]
    desktop-app memory receipts | sweep
    desktop-app memory conversations [--query Q] [--ids]   what conversation recall can use
    desktop-app memory delete-conversation ID | delete-message MESSAGE_ID...
    desktop-app eval memory DIR|LOCOMO.json [--mode patterns|llm|both] [--k 3] [--limit N] [--json FILE]

Handlers need `app.memory` (MemoryService) and `app.conversations`; the `chat` command
(one turn) is in chat/commands.py.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from desktop_app.chat.conversations import CLI_CONVERSATION
from desktop_app.errors import AppError, StorageError
from desktop_app.memory.types import SENSITIVE_CATEGORIES, MemoryItem
from desktop_app.privacy.stderr import tell_user

if TYPE_CHECKING:
    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.config.paths import AppPaths
    from desktop_app.config.settings import Settings
    from desktop_app.memory.recall import RecallService
    from desktop_app.memory.service import MemoryService


class App(Protocol):
    """What these handlers need from `desktop_app.app.App`."""

    paths: AppPaths
    settings: Settings

    @property
    def memory(self) -> MemoryService: ...

    @property
    def conversations(self) -> ConversationStore: ...

    @property
    def embedder(self) -> Any: ...

    @property
    def recall(self) -> RecallService: ...

    def save_settings(self) -> None: ...



def register(sub: argparse._SubParsersAction[Any]) -> None:
    memory = sub.add_parser("memory", help="what Acervo remembers about you: list, edit, erase")
    msub = memory.add_subparsers(dest="memory_command", metavar="ACTION", required=True)

    p = msub.add_parser("list", help="list memories (active by default)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--history", action="store_true", help="include superseded versions")
    group.add_argument("--all", action="store_true", help="include deleted tombstones")
    p.add_argument("--category")
    p.add_argument("--subject")
    p.add_argument("--query", help="hybrid search instead of listing")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_list)

    p = msub.add_parser("show", help="one memory with its source message, history and edits")
    p.add_argument("memory_id")
    p.set_defaults(handler=cmd_show)

    p = msub.add_parser("remember", help="tell Acervo a fact about you (saved now)")
    p.add_argument("text")
    p.add_argument("--conversation", default=CLI_CONVERSATION)
    p.set_defaults(handler=cmd_remember)

    p = msub.add_parser("recall", help="the memory block a question would get")
    p.add_argument("question")
    p.add_argument("-k", type=int, default=3)
    p.set_defaults(handler=cmd_recall)

    p = msub.add_parser("edit", help="correct a memory (re-embedded)")
    p.add_argument("memory_id")
    p.add_argument("text")
    p.add_argument("--erase-old", action="store_true",
                   help="keep no copy of the old text (history keeps only the date)")
    p.set_defaults(handler=cmd_edit)

    p = msub.add_parser("delete", help="erase one memory and its older versions")
    p.add_argument("memory_id")
    p.add_argument("--with-messages", action="store_true",
                   help="also erase the conversation messages it came from")
    p.set_defaults(handler=cmd_delete)

    p = msub.add_parser("forget-all", help="erase every memory")
    p.add_argument("--yes", action="store_true", help="confirm (required)")
    p.add_argument("--with-conversations", action="store_true",
                   help="also erase every conversation")
    p.set_defaults(handler=cmd_forget_all)

    p = msub.add_parser("export", help="write everything remembered as JSON")
    p.add_argument("file", type=Path)
    p.add_argument("--with-conversations", action="store_true")
    p.set_defaults(handler=cmd_export)

    p = msub.add_parser("consent", help="consent for a sensitive category: on|off (no args: list)")
    p.add_argument("category", nargs="?", choices=SENSITIVE_CATEGORIES)
    p.add_argument("state", nargs="?", choices=("on", "off"))
    p.set_defaults(handler=cmd_consent)

    p = msub.add_parser("conversations",
                        help="earlier chats conversation recall can use (--query: search them)")
    p.add_argument("--query", default="", help="what a question would bring back")
    p.add_argument("--ids", action="store_true", help="show message ids (for delete-message)")
    p.set_defaults(handler=cmd_conversations)
    p = msub.add_parser("delete-conversation",
                        help="erase a chat with its recall rows, vectors and keyword entries")
    p.add_argument("conversation_id")
    p.set_defaults(handler=cmd_delete_conversation)
    p = msub.add_parser("delete-message",
                        help="erase single messages (ids from `memory conversations --ids`) with "
                        "their recall rows; the rest of the chat stays")
    p.add_argument("message_ids", nargs="+")
    p.set_defaults(handler=cmd_delete_messages)
    p = msub.add_parser("recall-index", help="conversation recall: on (index earlier chats), off "
                        "(erase its index), sync (bring the index level with the chats)")
    p.add_argument("state", choices=("on", "off", "sync"))
    p.set_defaults(handler=cmd_recall_switch)

    p = msub.add_parser("receipts", help="erasure receipts (no content, for accountability)")
    p.set_defaults(handler=cmd_receipts)

    p = msub.add_parser("sweep", help="erase expired memories now (also runs at start-up)")
    p.set_defaults(handler=cmd_sweep)



def register_eval(eval_sub: argparse._SubParsersAction[Any]) -> None:
    e = eval_sub.add_parser("memory", help="memory extraction + recall on user-memory cases")
    e.add_argument("directory", type=Path)
    e.add_argument("--mode", choices=("patterns", "llm", "both"), default="patterns")
    e.add_argument("--k", type=int, default=3, help="memories in the prompt block (app: 3)")
    e.add_argument("--limit", type=int, default=None, help="first N cases only")
    e.add_argument("--json", type=Path, default=None, help="also write full results here")
    e.add_argument("--gold", type=Path, default=None,
                   help="gold facts JSON (default: gold_facts.json beside the cases)")
    e.add_argument("--no-recall", action="store_true",
                   help="profile memories only in the context block (recall off)")
    e.add_argument("--budget", type=int, default=None,
                   help="tokens of the memories + recall block (default: the app's setting)")
    e.add_argument("--conversations", default=None,
                   help="LoCoMo file: only these conversations (comma-separated ids)")
    e.add_argument("--capture", type=Path, default=None,
                   help="keep each case's search results in this folder (offline packing)")
    e.set_defaults(handler=cmd_eval_memory)


# --- printing ---


def _line(item: MemoryItem) -> str:
    flags = " [sensitive]" if item.sensitive else ""
    status = "" if item.status == "active" else f" ({item.status})"
    return f"{item.id}  {item.category:<17} {item.subject:<10} {item.text}{flags}{status}"


def _receipt(receipt: Any) -> None:
    print(receipt.summary_line())
    print(json.dumps(receipt.to_dict(), indent=2))


# --- handlers ---


def _sweep_first(app: App) -> None:
    try:
        receipt = app.memory.sweep_expired()
    except StorageError as exc:  # a read-only folder: listing still works
        tell_user(f"note: expired memories could not be erased now: {exc.user_message}")
        return
    if receipt.memory_ids:
        tell_user(f"({len(receipt.memory_ids)} expired memories erased)")


def cmd_list(args: argparse.Namespace, app: App) -> int:
    _sweep_first(app)
    status = "all" if args.all else "history" if args.history else "active"
    items = app.memory.list_items(status=status, category=args.category, subject=args.subject,
                                  query=args.query)
    if args.json:
        print(json.dumps([i.to_dict() for i in items], indent=2, ensure_ascii=False))
    elif not items:
        print("No memories.")
    for item in items if not args.json else []:
        print(_line(item))
    return 0


def cmd_show(args: argparse.Namespace, app: App) -> int:
    prov = app.memory.provenance(args.memory_id)
    item = prov.item
    print(_line(item))
    print(f"  created {item.created_at}, updated {item.updated_at}, "
          f"expires {item.expires_at or 'never'}, by {item.extracted_by}")
    if item.supersedes:
        print(f"  replaces {item.supersedes}")
    if item.superseded_by:
        print(f"  replaced by {item.superseded_by}")
    for source in item.sources:
        print(f"  source: conversation {source.conversation_id}, message {source.message_id} "
              f"at {source.timestamp}\n    you said: \"{source.quote}\"")
    if item.search_context:
        print(f"  indexed with the question you answered: \"{item.search_context}\"")
    for old in prov.history:
        print(f"  older version {old.id} ({old.status}, {old.created_at}): {old.text}")
    for edit in prov.edits:
        print(f"  edited {edit.edited_at}: "
              + ("old text erased" if edit.old_text_erased else f"was \"{edit.old_text}\""))
    return 0


def cmd_remember(args: argparse.Namespace, app: App) -> int:
    from desktop_app.memory.patterns import parse_command

    app.conversations.ensure_conversation(args.conversation, "command line")
    message = app.conversations.add_user_message(args.conversation, args.text)
    command = parse_command(args.text)
    fact = command.text if command is not None and command.kind == "remember" else None
    outcomes = app.memory.remember(message, fact)
    for outcome in outcomes:
        if outcome.status in ("saved", "merged"):
            verb = "saved" if outcome.status == "saved" else "already known, merged into"
            extra = f" (replaces {outcome.superseded_id})" if outcome.superseded_id else ""
            print(f"{verb} {outcome.memory_id}{extra}: {outcome.candidate.text}")
        else:
            print(f"{outcome.reason or outcome.status} ({outcome.candidate.category}); "
                  f"run `desktop-app memory consent {outcome.candidate.category} on` to allow it")
            return 1
    return 0


def cmd_recall(args: argparse.Namespace, app: App) -> int:
    items = app.memory.recall(args.question, args.k)
    print("What you told me:" if items else "No memories for this question.")
    for item in items:
        print(f"- {item.text}  ({item.id})")
    return 0


def cmd_edit(args: argparse.Namespace, app: App) -> int:
    item = app.memory.edit(args.memory_id, args.text, erase_old_text=args.erase_old)
    print(f"edited: {_line(item)}")
    return 0


def cmd_delete(args: argparse.Namespace, app: App) -> int:
    kept = [] if args.with_messages else app.memory.source_message_ids(args.memory_id)
    _receipt(app.memory.delete(args.memory_id, erase_messages=args.with_messages))
    if kept:  # like `documents remove` for the answers that quote a document
        tell_user(f"note: your chat message(s) that said this ({len(kept)}) still hold the "
                  "text, and conversation recall can find it; erase them too with: "
                  f"desktop-app memory delete-message {' '.join(kept)}")
    return 0


def cmd_forget_all(args: argparse.Namespace, app: App) -> int:
    if not args.yes:
        raise AppError("This erases every memory for good: add --yes to confirm.")
    _receipt(app.memory.forget_all(erase_conversations=args.with_conversations))
    return 0


def cmd_export(args: argparse.Namespace, app: App) -> int:
    count = app.memory.export_file(args.file, include_conversations=args.with_conversations)
    print(f"exported {count} memories to {args.file}")
    return 0


def cmd_consent(args: argparse.Namespace, app: App) -> int:
    if args.category is None:
        for category, record in app.memory.consents.state().items():
            state = ("on" if record.granted else "off") if record else "never asked"
            when = f" since {record.recorded_at}" if record else ""
            print(f"{category:<18} {state}{when}")
        return 0
    if args.state is None:
        raise AppError("Say on or off, e.g. `desktop-app memory consent health on`.")
    record, receipt = app.memory.set_consent(args.category, args.state == "on")
    print(f"consent for {record.category}: {args.state} (recorded {record.recorded_at})")
    if receipt is not None and receipt.memory_ids:
        _receipt(receipt)
    return 0


def cmd_conversations(args: argparse.Namespace, app: App) -> int:
    from desktop_app.memory.recall import chat_date

    recall = app.recall
    if not recall.enabled:
        tell_user("Conversation recall is off (`desktop-app memory recall on`).")
        return 0
    if not args.query:
        recall.sync()
    for exchange in recall.indexed(args.query):
        print(f"{exchange.conversation_id}  chat of {chat_date(exchange.started_at)}  "
              f"{exchange.title}")
        for message_id, (role, text) in zip(exchange.message_ids, exchange.turns, strict=True):
            who = "you" if role == "user" else "assistant"
            if args.ids:
                who = f"{message_id}  {who}"
            print(f"    {who}: {' '.join(text.split())[:160]}")
    return 0


def cmd_delete_conversation(args: argparse.Namespace, app: App) -> int:
    if not any(c["id"] == args.conversation_id for c in app.conversations.conversations()):
        raise AppError(f"No conversation with id {args.conversation_id}.")
    _receipt(app.memory.delete_conversation(args.conversation_id))
    return 0


def cmd_delete_messages(args: argparse.Namespace, app: App) -> int:
    found = app.conversations.messages_by_id(args.message_ids)
    missing = [m for m in args.message_ids if m not in found]
    if missing:
        raise AppError(f"No message with id {', '.join(missing)}.")
    _receipt(app.memory.delete_messages(list(args.message_ids)))
    return 0


def cmd_recall_switch(args: argparse.Namespace, app: App) -> int:
    if args.state == "sync":
        tell_user(f"{app.recall.sync()} exchanges indexed.")
        return 0
    app.settings.recall_enabled = args.state == "on"
    app.save_settings()
    receipt = app.memory.recall_switched(app.settings.recall_enabled)
    if receipt is not None:
        _receipt(receipt)
    else:
        tell_user(f"Conversation recall is on ({app.recall.count()} exchanges indexed).")
    return 0


def cmd_receipts(args: argparse.Namespace, app: App) -> int:
    print(json.dumps(app.memory.receipts(), indent=2))
    return 0


def cmd_sweep(args: argparse.Namespace, app: App) -> int:
    receipt = app.memory.sweep_expired()
    print(receipt.summary_line())
    return 0


def cmd_eval_memory(args: argparse.Namespace, app: App) -> int:
    from desktop_app.evaluation.memory import run_memory_eval

    result = run_memory_eval(app, args.directory, mode=args.mode, k=args.k, limit=args.limit,
                             progress=tell_user, gold_file=args.gold,
                             recall=not args.no_recall, budget=args.budget,
                             conversations=args.conversations.split(",")
                             if args.conversations else None, capture_dir=args.capture)
    print(json.dumps({k: v for k, v in result.items()
                      if k not in ("cases", "questions_detail")}, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0
