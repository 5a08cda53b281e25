"""CLI: `ask` (streamed, cited answers) and `models list|add|use|remove`.

Handlers take `(args, app)` where `app` is `desktop_app.app.App`; they use
`app.answer_service`, `app.settings` and `app.save_settings()`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from desktop_app.answer.events import Citation, Done, MemoryUsed, Token
from desktop_app.answer.gguf_info import format_size
from desktop_app.privacy.stderr import tell_user


def register(subparsers: Any) -> None:
    ask = subparsers.add_parser("ask", help="answer a question from your documents, with sources")
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--model", metavar="PATH", help="use this GGUF file for this answer only")
    ask.add_argument("--no-llm", action="store_true",
                     help="sources only: best sentences from the top passages, no model")
    ask.add_argument("--json", action="store_true", help="print the final answer and trace as JSON")
    ask.add_argument("--k", type=int, metavar="N", help="how many passages to retrieve")
    ask.set_defaults(handler=run_ask)

    models = subparsers.add_parser("models", help="list, add or choose the local language model")
    sub = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="models known to Acervo").set_defaults(handler=run_models_list)
    add = sub.add_parser("add", help="add a GGUF file from disk")
    add.add_argument("path", help="path to a .gguf file")
    add.add_argument("--name", help="name to show (default: the file name)")
    add.add_argument("--template", help="chat template when the GGUF has none (e.g. chatml)")
    add.add_argument("--use", action="store_true", help="make it the active model")
    add.set_defaults(handler=run_models_add)
    use = sub.add_parser("use", help="make a model the active one")
    use.add_argument("name")
    use.set_defaults(handler=run_models_use)
    remove = sub.add_parser("remove", help="forget a model you added (the file is kept)")
    remove.add_argument("name")
    remove.set_defaults(handler=run_models_remove)


def _page(c: Citation) -> str:
    if c.page <= 0:
        return ""
    return f", p. {c.page}" if c.page_end <= c.page else f", pp. {c.page}–{c.page_end}"


def print_sources(done: Done, out: TextIO) -> None:
    if done.citations:
        print("\nSources:", file=out)
        for c in done.citations:
            print(f"  [{c.number}] {c.title}{_page(c)} — {c.source_path}", file=out)
    for warning in done.warnings:
        print(f"({warning})", file=out)


def run_ask(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.llm import build_llm
    from desktop_app.answer.service import done_as_dict

    out = out or sys.stdout
    service = app.answer_service
    if args.model and not args.no_llm:
        service = service.with_llm(build_llm(app.settings, model_path=args.model))
    elif service.llm is None and service.llm_error is not None and not args.no_llm:
        print(f"note: {service.llm_error.user_message} Answering from sources only.", file=sys.stderr)
    if args.k is not None and args.k < 1:
        print("error: --k must be at least 1", file=sys.stderr)
        return 2
    streamed: list[str] = []
    done: Done | None = None
    for event in service.ask(args.question, sources_only=args.no_llm, k=args.k):
        if isinstance(event, Token):
            streamed.append(event.text)
            if not args.json:
                print(event.text, end="", flush=True, file=out)
        elif isinstance(event, MemoryUsed) and not args.json:
            # the user's channel, never the log: it quotes the memory (erasable, LGPD)
            tell_user(f"(using what you told me: {event.text})")
        elif isinstance(event, Done):
            done = event
    if done is None:  # the service always ends with Done; guard against a broken stream
        print("error: the answer stream ended unexpectedly", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(done_as_dict(done), ensure_ascii=False, indent=2), file=out)
        return 0
    print(file=out)
    if done.answer.strip() != "".join(streamed).strip():
        # verification removed citations the stream had shown
        print("\nVerified answer:\n" + done.answer, file=out)
    print_sources(done, out)
    return 0


def run_models_list(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.models import describe_models

    out = out or sys.stdout
    statuses = describe_models(app.settings)
    if not statuses:
        print("No models. Add a GGUF with `desktop-app models add PATH`.", file=out)
    for status in statuses:
        mark = "*" if status.active else " "
        kind = " (bundled)" if status.bundled else ""
        template = f" · template {status.entry.chat_template}" if status.entry.chat_template else ""
        print(f"{mark} {status.entry.name}{kind}", file=out)
        if status.info is not None:
            print(f"    {status.info.describe()}{template}", file=out)
        else:
            print(f"    unavailable: {status.problem}", file=out)
        print(f"    {status.entry.path}", file=out)
    backend = app.settings.llm_backend
    if backend != "llama_cpp":
        print(f"note: the active backend is {backend!r}; these models are used with 'llama_cpp'.",
              file=out)
    return 0


def run_models_add(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.models import add_model, use_model

    out = out or sys.stdout
    added = add_model(app.settings, args.path, name=args.name, template=args.template)
    if args.use:
        use_model(app.settings, added.entry.name)
    app.save_settings()
    info = added.info
    print(f"added {added.entry.name}: {info.describe()}", file=out)
    print(f"  architecture {info.architecture}, size {format_size(info.size_bytes)}, "
          f"quantization {info.quantization}, context {info.context_length or 'unknown'}", file=out)
    for warning in added.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not args.use:
        print(f"use it with: desktop-app models use {added.entry.name}", file=out)
    return 0


def run_models_use(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.gguf_info import read_gguf_info
    from desktop_app.answer.models import check_template, find_model, use_model

    out = out or sys.stdout
    candidate = find_model(app.settings, args.name)
    if candidate is not None:  # still there and usable? (settings stay unchanged if not)
        check_template(read_gguf_info(candidate.path), candidate.chat_template)
    entry = use_model(app.settings, args.name)
    app.save_settings()
    print(f"active model: {entry.name}", file=out)
    return 0


def run_models_remove(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.models import remove_model

    out = out or sys.stdout
    entry = remove_model(app.settings, args.name)
    app.save_settings()
    print(f"removed {entry.name} from the list (file kept at {entry.path})", file=out)
    return 0
