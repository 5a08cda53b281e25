"""CLI: `desktop-app doctor` and `desktop-app logs export FILE`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop_app.errors import AppError


def app_sanitizer(app: Any) -> Callable[[str], str]:
    """The App's sanitizer (its own, or the logging one), else a fresh offline one."""
    existing = getattr(app, "sanitizer", None)
    if existing is not None:
        return existing.sanitize
    handle = getattr(app, "log_handle", None)
    if handle is not None and callable(getattr(handle, "sanitize", None)):
        return handle.sanitize
    from desktop_app.privacy.sanitizer import Sanitizer

    return Sanitizer.offline().sanitize


def run_doctor_command(args: argparse.Namespace, app: Any) -> int:
    from desktop_app.privacy.doctor import format_report, run_doctor
    from desktop_app.privacy.stderr import tell_user

    report = run_doctor(app, sanitize=app_sanitizer(app), deep=not args.quick,
                        repair=args.repair, progress=tell_user)
    print(format_report(report))
    return 0 if report.ok else 1


def run_logs_export_command(args: argparse.Namespace, app: Any) -> int:
    from desktop_app.privacy.doctor import format_report, run_doctor
    from desktop_app.privacy.export import export_support_bundle

    sanitize = app_sanitizer(app)
    llm_pass = None
    if args.llm_pass:
        from desktop_app.privacy.export import llm_redactor

        llm = getattr(app, "llm", None)  # raises a clear AppError when no model is set up
        if llm is None:
            raise AppError("The LLM pass for exported logs needs a local model (Settings → "
                           "Model); export without --llm-pass, the logs are sanitized anyway.")
        llm_pass = llm_redactor(llm)
    sections = {}
    if not args.no_doctor:
        sections["doctor.txt"] = format_report(run_doctor(app, sanitize=sanitize, deep=False))
    destination = Path(args.file).expanduser()
    try:
        summary = export_support_bundle(Path(app.paths.log_dir), destination, sanitize,
                                        llm_pass=llm_pass, extra_sections=sections)
    except OSError as error:
        raise AppError(f"Could not write {destination}: {error.strerror or error}") from error
    print(f"wrote {summary.destination}: {len(summary.files)} log files, "
          f"{summary.characters} characters, sanitized"
          + (" + LLM pass" if summary.llm_pass_applied else ""))
    for problem in summary.problems:
        print(f"  note: {problem}")
    return 0


def register(subparsers: Any) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check models, index, offline switches and that nothing goes online")
    doctor.add_argument("--quick", action="store_true",
                        help="skip the slow checks: the transformers offline load, reading "
                             "every index row, SQLite's full integrity check")
    doctor.add_argument("--repair", action="store_true",
                        help="fix what the checks find: damaged or missing index files "
                             "(rebuilt from the other table and your files), a damaged "
                             "database (set aside, what it holds recovered), interrupted "
                             "ingests, duplicates, keyword/vector indexes behind the table")
    doctor.set_defaults(handler=run_doctor_command)

    logs = subparsers.add_parser("logs", help="sanitized application logs")
    actions = logs.add_subparsers(dest="logs_command", metavar="ACTION", required=True)
    export = actions.add_parser("export", help="write a sanitized support bundle (.zip or text)")
    export.add_argument("file", help="destination, e.g. acervo-support.zip")
    export.add_argument("--no-doctor", action="store_true", help="leave out the doctor report")
    export.add_argument("--llm-pass", action="store_true",
                        help="also mask free-text secrets with the local LLM (slow)")
    export.set_defaults(handler=run_logs_export_command)
