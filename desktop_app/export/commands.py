"""CLI: `export` — a chat, or some of its answers, to Markdown, Word or PDF with numbered
references (no model involved: the stored answers and the documents' own words).

    desktop-app export [CONVERSATION] -o FILE [--format md|docx|pdf] [--answer N ...]

CONVERSATION defaults to the chat the window showed last (else the most recent one);
`memory conversations` lists the ids. `--answer 2` exports only the chat's second answer
(with its question); `--answer -1` the last one. The format follows FILE's suffix unless
`--format` says otherwise; `-o -` prints Markdown.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.errors import AppError
from desktop_app.export import FORMATS, export_conversation, to_markdown, write_export

if TYPE_CHECKING:
    from desktop_app.app import App


def register(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser("export", help="write a chat with numbered references to Markdown, "
                                      "Word (.docx) or PDF")
    p.add_argument("conversation", nargs="?", default="",
                   help="chat id (default: the last chat shown in the window)")
    p.add_argument("-o", "--output", required=True, help="the file to write ('-' prints Markdown)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="md, docx or pdf (default: from the file's suffix)")
    p.add_argument("--answer", type=int, action="append", default=None, metavar="N",
                   help="only the chat's N-th answer (1 = first, -1 = last); repeatable")
    p.set_defaults(handler=cmd_export)


def _conversation(app: App, wanted: str) -> str:
    chats = app.conversations.conversations()
    ids = [str(c["id"]) for c in chats]
    if wanted:
        if wanted not in ids:
            raise AppError(f"No chat with id {wanted} (`memory conversations` lists them).")
        return wanted
    last = app.settings.last_conversation
    if last in ids:
        return last
    if not ids:
        raise AppError("There is no chat to export yet.")
    return ids[0]


def _answers(app: App, conversation_id: str, wanted: list[int] | None) -> list[str] | None:
    """The message ids of the answers asked for by position (1 = first, -1 = last)."""
    if not wanted:
        return None
    ids = [m.id for m in app.conversations.messages(conversation_id) if m.role == "assistant"]
    chosen = []
    for n in wanted:
        index = n - 1 if n > 0 else len(ids) + n
        if not 0 <= index < len(ids):
            raise AppError(f"This chat has {len(ids)} answer(s); there is no answer {n}.")
        chosen.append(ids[index])
    return chosen


def cmd_export(args: argparse.Namespace, app: App) -> int:
    conversation_id = _conversation(app, args.conversation)
    document = export_conversation(
        app.conversations, conversation_id, app.stored_chunk, documents=app.document_texts,
        answers=_answers(app, conversation_id, args.answer),
        exported_at=time.strftime("%Y-%m-%d %H:%M"))
    if args.output == "-":
        sys.stdout.write(to_markdown(document))
        return 0
    path = write_export(document, Path(args.output).expanduser(), args.format)
    print(f"{path}: {len(document.turns)} answer(s), {len(document.references)} reference(s)")
    return 0
