"""CLI: `folders add|list|remove`, `watch`, `collections …`, and the scope options
(`--collection NAME`, `--doc ID`, repeatable) of `search` and `ask`.

`watch` is the window's watcher without the window: it finishes interrupted runs, brings
every watched folder up to date, then follows their changes until Ctrl+C (or, with
`--once`, stops after the catch-up), printing one line per file like `ingest`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.ingest.pathnames import display_path, one_line

if TYPE_CHECKING:
    from desktop_app.app import App
    from desktop_app.retrieval.types import SearchFilters


def register(sub: argparse._SubParsersAction) -> None:
    f = sub.add_parser("folders", help="the library's folders: add (watched by default), "
                                       "list, remove")
    fsub = f.add_subparsers(dest="folders_command", required=True)
    fa = fsub.add_parser("add", help="add a folder: index it now and keep it in sync")
    fa.add_argument("path", type=Path)
    fa.add_argument("--no-watch", action="store_true",
                    help="index it now only; changes are picked up by `ingest` or `watch`")
    fa.add_argument("--polling", action="store_true",
                    help="check it every few seconds instead of waiting for file events "
                         "(chosen by itself for network shares)")
    fa.set_defaults(handler=cmd_folders_add)
    fsub.add_parser("list").set_defaults(handler=cmd_folders_list)
    fr = fsub.add_parser("remove", help="stop keeping a folder; its documents leave too")
    fr.add_argument("path", type=Path)
    fr.add_argument("--keep-documents", action="store_true",
                    help="keep what was indexed from it (no longer kept in sync)")
    fr.set_defaults(handler=cmd_folders_remove)

    w = sub.add_parser("watch", help="keep the watched folders in sync until Ctrl+C")
    w.add_argument("--once", action="store_true",
                   help="catch up with what changed (and finish interrupted work), then stop")
    w.set_defaults(handler=cmd_watch)

    c = sub.add_parser("collections", help="named sets of folders and documents, to scope "
                                           "questions (`ask --collection NAME`)")
    csub = c.add_subparsers(dest="collections_command", required=True)
    csub.add_parser("list").set_defaults(handler=cmd_collections_list)
    for name, helptext in (("create", "a new, empty collection"), ("delete", "forget it "
                                                                           "(documents stay)"),
                           ("show", "its folders, documents and what it holds now")):
        p = csub.add_parser(name, help=helptext)
        p.add_argument("name")
        p.set_defaults(handler=cmd_collections)
    for name, helptext in (("add", "add folders, files or document ids (created if new)"),
                           ("remove", "take folders, files or document ids out")):
        p = csub.add_parser(name, help=helptext)
        p.add_argument("name")
        p.add_argument("members", nargs="+", metavar="FOLDER|FILE|DOC_ID")
        p.set_defaults(handler=cmd_collections)
    rn = csub.add_parser("rename")
    rn.add_argument("name")
    rn.add_argument("new_name")
    rn.set_defaults(handler=cmd_collections)

    for name in ("ask", "chat"):  # theirs; their scope options are added here
        parser = sub.choices.get(name)
        if parser is not None:
            add_scope_options(parser)
            parser.set_defaults(handler=_scoped(parser.get_default("handler")))


def add_scope_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--collection", action="append", default=[], metavar="NAME",
                        help="only the documents of this collection; repeatable")
    parser.add_argument("--doc", action="append", default=[], metavar="DOC_ID",
                        help="only this document (ids: `documents list`); repeatable")


def scope_from_args(args: argparse.Namespace, app: App,
                    base: SearchFilters | None = None) -> SearchFilters | None:
    """The filters for `--collection`/`--doc` (None, or `base`, when neither is given)."""
    from desktop_app.library.collections import Collections
    from desktop_app.library.scope import Scope, scope_filters

    scope = Scope(tuple(getattr(args, "collection", []) or ()),
                  tuple(getattr(args, "doc", []) or ()))
    if scope.everything:
        return base
    return scope_filters(scope, app.index.documents(), Collections(app.library_state), base)


def _scoped(run: Any) -> Any:
    """`ask` or `chat` with its scope: the answer service (and the chat's turns) are asked
    with the scope's filters, which the answer's trace records; the scope is said before
    the answer."""

    def handler(args: argparse.Namespace, app: App) -> int:
        filters = scope_from_args(args, app)
        if filters is None:
            return int(run(args, app))
        if not getattr(args, "json", False):
            print(f"(scope: {filters.scope}, {len(filters.doc_ids)} documents)", flush=True)
        return int(run(args, _ScopedApp(app, filters)))

    return handler


class _ScopedApp:
    """The app as `ask` and `chat` see it, asking within a scope."""

    def __init__(self, app: App, filters: SearchFilters) -> None:
        self._app = app
        self.answer_service = _WithFilters(app.answer_service, filters, "ask")
        self.chat = _WithFilters(app.chat, filters, "turn")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._app, name)


class _WithFilters:
    """A service whose `method` is called with the scope's filters unless given others."""

    def __init__(self, service: Any, filters: SearchFilters, method: str) -> None:
        self._service = service
        self._filters = filters
        self._method = method

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._service, name)
        if name == self._method:
            def scoped(*args: Any, **kwargs: Any) -> Any:
                kwargs.setdefault("filters", self._filters)
                return found(*args, **kwargs)
            return scoped
        if name == "with_llm":  # `ask --model`: the other model, the same scope
            return lambda llm: _WithFilters(found(llm), self._filters, self._method)
        return found


# ---- folders ---------------------------------------------------------------------------------
def cmd_folders_add(args: argparse.Namespace, app: App) -> int:
    from desktop_app.ingest.commands import ingest_and_print
    from desktop_app.library.folders import Folders

    folder = Folders(app.library_state).add(args.path, watch=not args.no_watch,
                                            polling=True if args.polling else None)
    how = ("watched by polling" if folder.polling else "watched") if folder.watch \
        else "not watched"
    print(one_line(f"folder {display_path(folder.path)} added ({how})"))
    result = ingest_and_print(app, [folder.folder], prune_missing=True, resume=True)
    if folder.watch:
        print("its changes are picked up while the window is open, or by `desktop-app watch`")
    return result.exit_code or (3 if result.failed else 0)


def cmd_folders_list(args: argparse.Namespace, app: App) -> int:
    from desktop_app.library.folders import Folders

    folders = Folders(app.library_state).all()
    if not folders:
        print("no folders (add one with `desktop-app folders add PATH`)")
    for folder in folders:
        how = ("watched (polling)" if folder.polling else "watched") if folder.watch \
            else "not watched"
        missing = "" if folder.folder.is_dir() else "  [missing]"
        print(one_line(f"{display_path(folder.path)}  {how}{missing}"))
    return 0


def cmd_folders_remove(args: argparse.Namespace, app: App) -> int:
    from desktop_app.library.folders import Folders
    from desktop_app.retrieval.index_api import folder_key, in_folder

    folder = Folders(app.library_state).remove(args.path)
    print(one_line(f"folder {display_path(folder.path)} is no longer kept in sync"))
    if args.keep_documents:
        return 0
    removed = 0
    key = folder_key(folder.path)
    for record in app.index.documents():
        if in_folder(record.folder, key) and app.pipeline.remove_document(record.doc_id):
            removed += 1
    print(f"{removed} documents removed from the library (the files stay on disk)")
    return 0


def cmd_watch(args: argparse.Namespace, app: App) -> int:
    from desktop_app.ingest.commands import print_run
    from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS
    from desktop_app.library.folders import Folders
    from desktop_app.library.sync import apply_batch, start_up
    from desktop_app.library.watch import FolderWatcher

    folders = Folders(app.library_state)
    watched = folders.watched()
    if not watched and args.once:
        print_run(app.pipeline.run([], resume=True))
        return 0
    if not watched:
        print("no watched folders (add one with `desktop-app folders add PATH`)",
              file=sys.stderr)
        return 2
    watcher = FolderWatcher(watched, frozenset(SUPPORTED_EXTENSIONS))
    if not args.once:
        watcher.start()  # before the catch-up: nothing saved meanwhile is missed
    try:
        print_run(start_up(app.pipeline, folders))
        if args.once:
            return 0
        polled = f" ({len(watcher.polled)} by polling)" if watcher.polled else ""
        print(f"watching {len(watched)} folder(s){polled}; Ctrl+C to stop", flush=True)
        for batch in watcher.batches(lambda: False):
            print_run(apply_batch(app.pipeline, batch))
    finally:
        watcher.stop()
    return 0


# ---- collections -------------------------------------------------------------------------------
def cmd_collections_list(args: argparse.Namespace, app: App) -> int:
    from desktop_app.library.collections import Collections

    collections = Collections(app.library_state)
    found = collections.all()
    if not found:
        print("no collections (create one with `desktop-app collections add NAME FOLDER`)")
        return 0
    records = app.index.documents()
    for collection in found:
        held = sum(1 for r in records if collection.holds(r.source_path))
        print(one_line(f"{collection.name}  {len(collection.folders)} folders, "
                       f"{len(collection.documents)} files, {held} documents now"))
    return 0


def _members(values: list[str], app: App) -> tuple[list[str], list[str]]:
    """Folders, files and document ids given on the command line → (folder keys, paths)."""
    from desktop_app.errors import AppError
    from desktop_app.ingest.pathnames import path_key
    from desktop_app.library.collections import member_folder

    folders: list[str] = []
    documents: list[str] = []
    for value in values:
        path = Path(value).expanduser()
        if path.is_dir():
            folders.append(member_folder(path))
        elif path.is_file():
            documents.append(path_key(path.resolve()))
        else:
            record = app.index.document(value)
            if record is None:
                raise AppError(f"“{value}” is not a folder, a file or a document id of the "
                               "library.")
            documents.append(record.source_path)
    return folders, documents


def cmd_collections(args: argparse.Namespace, app: App) -> int:
    from desktop_app.library.collections import Collections

    collections = Collections(app.library_state)
    action = args.collections_command
    if action == "create":
        print(f"collection “{collections.create(args.name).name}” created")
    elif action == "delete":
        collections.delete(args.name)
        print(f"collection “{args.name}” deleted (its documents stay in the library)")
    elif action == "rename":
        collections.rename(args.name, args.new_name)
        print(f"collection “{args.name}” renamed to “{args.new_name}”")
    elif action in ("add", "remove"):
        folders, documents = _members(args.members, app)
        change = collections.add if action == "add" else collections.remove
        found = change(args.name, folders=folders, documents=documents)
        held = len(collections.members(found.name, app.index.documents()))
        print(f"collection “{found.name}”: {len(found.folders)} folders, "
              f"{len(found.documents)} files, {held} documents now")
    else:  # show
        found = collections.find(args.name)
        print(f"collection “{found.name}”")
        for folder in found.folders:
            print(one_line(f"  folder  {display_path(folder)}"))
        for document in found.documents:
            print(one_line(f"  file    {display_path(document)}"))
        for record in collections.members(found.name, app.index.documents()):
            print(one_line(f"  holds   {record.doc_id}  {record.title}"))
    return 0
