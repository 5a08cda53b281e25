"""Headless command line on the same services the window uses.

Each feature package contributes its sub-commands through a `commands` module
with `register(subparsers)`; every handler has the signature
`handler(args: argparse.Namespace, app: App) -> int`.

Errors end as one sentence on the terminal and a documented exit code
(`desktop_app.errors.EXIT_CODES`): an `AppError` shows its message; a storage failure
that escaped a store's own mapping (full disk, read-only folder) is mapped here; a closed
output pipe (`| head`) ends quietly; anything else is a bug — one sentence pointing at the
log, where the traceback is (sanitized), never a traceback on the terminal.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from desktop_app.errors import AppError, storage_error
from desktop_app.privacy.stderr import tell_user

if TYPE_CHECKING:
    from desktop_app.app import App

log = logging.getLogger(__name__)

COMMAND_MODULES: tuple[str, ...] = (
    "desktop_app.ingest.commands",
    "desktop_app.retrieval.commands",
    "desktop_app.answer.commands",
    "desktop_app.privacy.commands",
    "desktop_app.memory.commands",
    "desktop_app.chat.commands",
    "desktop_app.library.commands",  # after answer and chat: adds the scope to `ask`, `chat`
    "desktop_app.team.commands",
    "desktop_app.export.commands",
)
BUG_EXIT = 70  # EX_SOFTWARE
BROKEN_PIPE_EXIT = 141


def _add_wait_option(parser: argparse.ArgumentParser, *, default: Any) -> None:
    parser.add_argument(
        "--wait", type=float, metavar="SECONDS", default=default,
        help="when another Acervo process (the window, another command) is updating the "
             "library, wait up to SECONDS for it (default 600; 0 = give up at once)")


def _leaf_parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    leaves = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                leaves += _leaf_parsers(sub) or [sub]
    return leaves

# Commands that search or add to the document index: they offer a reindex after an embedder change.
INDEX_COMMANDS = frozenset({"ingest", "search", "ask", "chat", "watch", "folders"})


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="desktop-app",
        description="Acervo: ask questions about your local documents, offline.",
    )
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation offline (samples, search, answer, memory, "
                             "air gap) in a temporary home; exit 0 if all pass")
    parser.add_argument("--reindex", choices=("ask", "yes", "no"), default="ask",
                        help="if the library was indexed with another embedder: ask on a "
                             "terminal (default), rebuild it first (yes), or keep it (no)")
    _add_wait_option(parser, default=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    eval_parser = sub.add_parser("eval", help="quality benchmarks (retrieval, memory)")
    eval_sub = eval_parser.add_subparsers(dest="eval_command", required=True)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
        if hasattr(module, "register_eval"):
            module.register_eval(eval_sub)
    for leaf in _leaf_parsers(parser):  # `desktop-app ingest --wait 30 DIR` works too
        if not any("--wait" in a.option_strings for a in leaf._actions):
            _add_wait_option(leaf, default=argparse.SUPPRESS)
    return parser


def _silence_stdout() -> None:
    """After EPIPE, point stdout at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _fail(exc: BaseException) -> int:
    """One sentence for the user, ids only in the log; returns the exit code."""
    if isinstance(exc, AppError):
        log.info("command ended with %s", type(exc).__name__)
        tell_user(f"error: {exc.user_message}")
        return exc.exit_code
    if isinstance(exc, OSError) and exc.filename and exc.errno not in (errno.ENOSPC,
                                                                       errno.EDQUOT):
        # a file the user named (an export destination, a document), not our data folder
        log.info("command ended with %s (errno %s)", type(exc).__name__, exc.errno)
        tell_user(f"error: cannot use {exc.filename}: {exc.strerror or type(exc).__name__}.")
        return 1
    mapped = storage_error(exc)
    if mapped is not None:
        log.warning("storage error (%s) mapped to %s", type(exc).__name__,
                    type(mapped).__name__)
        tell_user(f"error: {mapped.user_message}")
        return mapped.exit_code
    log.critical("unexpected error in a command", exc_info=exc)
    tell_user(f"error: something went wrong inside Acervo ({type(exc).__name__}). Your "
              "documents and memories are safe; details are in the log (desktop-app logs "
              "export FILE makes a sanitized copy to share).")
    return BUG_EXIT


def run_gui_or_demo(app: App) -> int:
    """No sub-command: open the window; without a display, run the headless sample demo."""
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                       or os.environ.get("QT_QPA_PLATFORM") or os.name == "nt"
                       or sys.platform == "darwin")
    if has_display:
        try:
            from desktop_app.gui.run import run_gui
        except ImportError as exc:  # the GUI is optional for the headless core
            print(f"GUI unavailable ({exc}); running the headless demo", file=sys.stderr)
        else:
            app.reserve_ui_core = True
            return run_gui(app)
    from desktop_app.ingest.commands import run_sample_demo

    return run_sample_demo(app)


def main(argv: Sequence[str] | None = None) -> int:
    from desktop_app.app import build_app
    from desktop_app.locking import LIBRARY, MEMORY, add_wait_notice, writer_lock

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
    except Exception as exc:
        return _fail(exc)
    if args.wait is not None:
        for name in (LIBRARY, MEMORY):
            writer_lock(app.paths.data_dir, name).default_wait = max(0.0, args.wait)
    remove_notice = add_wait_notice(tell_user)
    if handler is None:
        return run_gui_or_demo(app)
    handle = app.start_logging()
    try:
        if args.command in INDEX_COMMANDS:
            from desktop_app.retrieval.commands import offer_reindex

            offer_reindex(app, args.reindex)
        return int(handler(args, app) or 0)
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE_EXIT
    except KeyboardInterrupt:
        tell_user("interrupted")
        return 130
    except Exception as exc:
        return _fail(exc)
    finally:
        remove_notice()
        try:
            sys.stdout.flush()
        except (BrokenPipeError, OSError, ValueError):
            _silence_stdout()
        handle.shutdown()
