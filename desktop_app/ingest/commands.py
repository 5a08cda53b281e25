"""CLI: `ingest PATH…`, `documents list`, `documents remove DOC_ID [--purge-chats]`.

Every output line is one file (names are shown decoded and escaped by
`pathnames.display_path`) and is flushed at once, so a pipe or a supervising process sees
"indexed …" the moment the document is committed. Exit codes: 0, 3 when some files
failed, and the storage codes of `desktop_app.errors.EXIT_CODES` when the run stopped early.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.ingest.events import (
    ChunksEmbedded,
    FileDone,
    FileFailed,
    FileRemoved,
    FileSkipped,
    IngestEvent,
    PagesParsed,
    RunDone,
)
from desktop_app.ingest.pathnames import display_path, one_line

if TYPE_CHECKING:
    from desktop_app.app import App


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ingest", help="add files or folders to the library (incremental)")
    p.add_argument("paths", nargs="+", type=Path)
    p.add_argument("--no-prune", action="store_true",
                   help="keep documents whose files disappeared from the given folders")
    p.add_argument("--no-ocr", action="store_true",
                   help="do not OCR scanned pages or images this time (they are reported)")
    p.add_argument("--ocr-pages", type=int, default=None, metavar="N",
                   help="OCR at most N scanned pages per document this time "
                        "(setting ocr_max_pages_per_document)")
    p.add_argument("--library", default="local",
                   help="add to this team library instead of this computer's (never prunes)")
    p.set_defaults(handler=cmd_ingest)

    demo = sub.add_parser("demo", help="ingest the bundled sample documents and run a search")
    demo.set_defaults(handler=cmd_demo)

    d = sub.add_parser("documents", help="list or remove indexed documents")
    dsub = d.add_subparsers(dest="documents_command", required=True)
    dl = dsub.add_parser("list")
    dl.add_argument("--json", action="store_true")
    dl.add_argument("--library", default="local")
    dl.set_defaults(handler=cmd_documents_list)
    dr = dsub.add_parser("remove", help="remove a document and purge its text from disk")
    dr.add_argument("doc_id")
    dr.add_argument("--purge-chats", action="store_true",
                    help="also erase the assistant answers in your chats that quote the "
                         "document, and its entries in answer traces (your questions stay)")
    dr.add_argument("--library", default="local")
    dr.set_defaults(handler=cmd_documents_remove)
    ds = dsub.add_parser("status", help="every file's status: indexed, unchanged, waiting, "
                                        "failed (with why), skipped by a limit")
    ds.add_argument("--problems", action="store_true", help="only failed and skipped files")
    ds.add_argument("--json", action="store_true")
    ds.add_argument("--library", default="local")
    ds.set_defaults(handler=cmd_documents_status)
    dt = dsub.add_parser("retry", help="read the failed files again (all, or those named)")
    dt.add_argument("paths", nargs="*", type=Path)
    dt.set_defaults(handler=cmd_documents_retry)
    dsub.add_parser("resume", help="finish the indexing a crash, kill or quit interrupted"
                    ).set_defaults(handler=cmd_documents_resume)
    dsub.add_parser("reread", help="read again the documents an older version of Acervo "
                                   "read (headings, list labels and sections improved since)"
                    ).set_defaults(handler=cmd_documents_reread)


def cmd_ingest(args: argparse.Namespace, app: App) -> int:
    if args.no_ocr:  # for this run only: settings are not saved by `ingest`
        app.settings.ocr_enabled = False
    if args.ocr_pages is not None:
        app.settings.ocr_max_pages_per_document = max(0, args.ocr_pages)
    team = args.library != "local"
    result = ingest_and_print(app, args.paths, prune_missing=not (args.no_prune or team),
                              library=args.library, resume=not team)
    if result.exit_code:
        return result.exit_code
    return 0 if result.failed == 0 else 3


def _say(line: str) -> None:
    print(line, flush=True)


def ingest_and_print(app: App, paths: list[Path], *, prune_missing: bool,
                     library: str = "local", resume: bool = False) -> RunDone:
    """Run the pipeline, printing one line per file and a summary; returns the summary.
    `resume`: the runs a crash, kill or quit left unfinished are finished too."""
    pipeline = app.pipeline if library == "local" else app.team_pipeline(library)
    return print_run(pipeline.run(paths, prune_missing=prune_missing, resume=resume))


def print_run(events: Iterable[IngestEvent]) -> RunDone:
    """Print a run's events (one line per file, progress on a terminal) and its summary."""
    last_embed = ""
    result: RunDone | None = None
    for event in events:
        if isinstance(event, (ChunksEmbedded, PagesParsed)):
            line = (f"  embedding {event.chunks_done}/{event.chunks_total}"
                    if isinstance(event, ChunksEmbedded)
                    else f"  reading page {event.pages_done}/{event.pages_total}")
            if sys.stdout.isatty() and line != last_embed:
                print(line.ljust(40), end="\r", flush=True)
                last_embed = line
        elif isinstance(event, FileDone):
            notes = f"  ({one_line('; '.join(event.notes))})" if event.notes else ""
            _say(f"indexed  {display_path(event.path)}  pages={event.pages} "
                 f"chunks={event.chunks}{notes}")
        elif isinstance(event, FileSkipped):
            _say(f"skipped  {display_path(event.path)}  ({event.reason})")
        elif isinstance(event, FileFailed):
            word = "limit   " if event.limit else "failed  "
            _say(f"{word} {display_path(event.path)}  {one_line(event.reason)}")
        elif isinstance(event, FileRemoved):
            _say(f"removed  {display_path(event.path)}  (file no longer exists)")
        elif isinstance(event, RunDone):
            result = event
    assert result is not None
    if result.stopped:
        _say(f"stopped: {result.stopped}")
    links = (f", {result.links_skipped} linked folder{'s' if result.links_skipped > 1 else ''}"
             " skipped (read once)" if result.links_skipped else "")
    _say(f"done: {result.indexed} indexed, {result.skipped} unchanged, "
         f"{result.failed} failed, {result.removed} removed{links}"
         + (" (cancelled)" if result.cancelled else ""))
    return result


def cmd_demo(args: argparse.Namespace, app: App) -> int:
    return run_sample_demo(app)


def run_sample_demo(app: App) -> int:
    """Ingest the bundled sample documents and run an example search (headless)."""
    from desktop_app.config.paths import resource
    from desktop_app.retrieval.commands import print_hits

    print("Acervo headless demo: ingesting the bundled samples…")
    ingest_and_print(app, [resource("samples")], prune_missing=False)
    query = "Quais são os direitos do titular?"
    print(f"\nsearch: {query}")
    print_hits(app.searcher.search(query, k=5))
    print("\nTry: python -m desktop_app search \"sua pergunta\"  (or --help)")
    return 0


def cmd_documents_list(args: argparse.Namespace, app: App) -> int:
    index = app.index if args.library == "local" else app.team_index(args.library)
    docs = index.documents()
    if args.json:
        print(json.dumps([d.__dict__ for d in docs], ensure_ascii=False, indent=2, default=list))
        return 0
    for d in docs:
        notes = f"  [{'; '.join(d.notes)}]" if d.notes else ""
        print(one_line(f"{d.doc_id}  {d.file_type:4}  {d.language:3}  pages={d.page_count:<4} "
                       f"chunks={d.chunk_count:<5} {d.title}  ({display_path(d.source_path)})"
                       f"{notes}"))
    stats = index.stats()
    print(f"{stats.documents} documents, {stats.chunks} chunks, "
          f"{stats.bytes / 1e6:.1f} MB, embedder {stats.embedder_id}")
    return 0


def cmd_documents_status(args: argparse.Namespace, app: App) -> int:
    from desktop_app.ingest.journal import FAILED, SKIPPED, STATUSES

    state = app.library_state
    statuses = (FAILED, SKIPPED) if args.problems else ()
    files = state.files(args.library, statuses)
    older = _read_before(app) if args.library == "local" else []
    if args.json:
        print(json.dumps({"counts": state.counts(args.library),
                          "unfinished_runs": len(state.unfinished_runs(args.library)),
                          "read_by_an_older_version": [str(p) for p in older],
                          "files": [f.__dict__ for f in files]}, ensure_ascii=False, indent=2))
        return 0
    for f in files:
        reason = f"  {one_line(f.reason)}" if f.reason else ""
        print(one_line(f"{f.status:9} {display_path(f.path)}") + reason)
    counts = state.counts(args.library)
    print(", ".join(f"{counts.get(s, 0)} {s}" for s in STATUSES)
          + (f"; {len(state.unfinished_runs(args.library))} interrupted run(s) to resume "
             "(`desktop-app documents resume`)" if state.unfinished_runs(args.library) else ""))
    if older:
        print(f"{len(older)} file(s) read by an older version of Acervo "
              "(`desktop-app documents reread`)")
    return 0


def _read_before(app: App) -> list[Path]:
    """The files present that an older version of the readers read."""
    from desktop_app.ingest.pipeline import read_before_paths

    return read_before_paths(app.index.documents())[0]


def cmd_documents_retry(args: argparse.Namespace, app: App) -> int:
    from desktop_app.ingest.journal import FAILED, SKIPPED
    from desktop_app.ingest.pathnames import path_from_key, path_key

    failed = [f.path for f in app.library_state.files("local", (FAILED, SKIPPED))]
    if args.paths:
        wanted = {path_key(p.expanduser().resolve()) for p in args.paths}
        failed = [key for key in failed if key in wanted]
    # an attachment is read again with its message
    from desktop_app.ingest.attachments import owner_of

    paths = sorted({path_from_key(owner_of(key)) for key in failed})
    if not paths:
        print("no failed files to retry")
        return 0
    result = ingest_and_print(app, paths, prune_missing=False)
    return result.exit_code or (3 if result.failed else 0)


def cmd_documents_reread(args: argparse.Namespace, app: App) -> int:
    from desktop_app.ingest.pipeline import read_before_paths

    found, gone = read_before_paths(app.index.documents())
    for path in gone:
        _say(f"kept     {display_path(path)}  (file not found: stays as it was read)")
    if not found:
        print("every document present was read by this version" if gone else
              "every document was read by this version")
        return 0
    result = ingest_and_print(app, found, prune_missing=False)
    return result.exit_code or (3 if result.failed else 0)


def cmd_documents_resume(args: argparse.Namespace, app: App) -> int:
    result = ingest_and_print(app, [], prune_missing=True, resume=True)
    return result.exit_code or (3 if result.failed else 0)


def cmd_documents_remove(args: argparse.Namespace, app: App) -> int:
    pipeline = app.pipeline if args.library == "local" else app.team_pipeline(args.library)
    # the document's passages, to find answers in the chats that quote it, before it goes
    passages = [c.text for c in pipeline.index.document_chunks(args.doc_id)]
    record = pipeline.remove_document(args.doc_id)
    conversations = app.conversations
    if record is None and not args.purge_chats:
        print(f"no document with id {args.doc_id}", file=sys.stderr)
        return 1
    if record is not None:
        print(one_line(f"removed {record.title} ({display_path(record.source_path)}); "
                       "index compacted"))
    if args.purge_chats:
        deleted, scrubbed, _bytes = conversations.purge_document(args.doc_id, passages)
        print(f"chats: erased {deleted} assistant answers that quoted it and removed it from "
              f"{scrubbed} answer traces")
        return 0
    quoting = len(conversations.document_quotes(args.doc_id, passages))
    if quoting:
        print(f"note: {quoting} assistant answers in your chats still quote this document; "
              f"erase them with: desktop-app documents remove {args.doc_id} --purge-chats")
    else:
        print("chats: no answer quotes this document")
    return 0
