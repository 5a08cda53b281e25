"""Headless command line on the same services the window uses.

Each feature package contributes its sub-commands through a `commands` module
with `register(subparsers)`; every handler has the signature
`handler(args: argparse.Namespace, app: App) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from desktop_app.errors import AppError

COMMAND_MODULES: tuple[str, ...] = (
    "desktop_app.ingest.commands",
    "desktop_app.retrieval.commands",
    "desktop_app.answer.commands",
    "desktop_app.privacy.commands",
    "desktop_app.memory.commands",
    "desktop_app.team.commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="desktop-app",
        description="Acervo: ask questions about your local documents, offline.",
    )
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation offline (samples, search, answer, memory, "
                             "air gap) in a temporary home; exit 0 if all pass")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    eval_parser = sub.add_parser("eval", help="quality benchmarks (retrieval, memory)")
    eval_sub = eval_parser.add_subparsers(dest="eval_command", required=True)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
        if hasattr(module, "register_eval"):
            module.register_eval(eval_sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from desktop_app.app import build_app

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        from desktop_app.selftest import main as self_test

        return self_test([])
    handler = getattr(args, "handler", None)
    if handler is None and getattr(args, "command", None) is not None:
        parser.print_help()
        return 2
    try:
        app = build_app()  # runs data migrations; a newer data dir is refused here
    except AppError as exc:
        print(f"error: {exc.user_message}", file=sys.stderr)
        return 1
    if handler is None:
        from desktop_app.app import run_gui_or_demo

        return run_gui_or_demo(app)
    handle = app.start_logging()
    try:
        return int(handler(args, app) or 0)
    except AppError as exc:
        print(f"error: {exc.user_message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        handle.shutdown()
