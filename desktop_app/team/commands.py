"""CLI: `library …` (the libraries this user searches) and `team …` (setting up a server).

`library add NAME URL` stores the URL without its password (the password goes
to the OS keyring or a 0600 file), refuses a server on another computer unless
`--allow-network` says the user allows it, and checks the connection. `team …`
commands are for whoever runs the server: schema, users, collections, grants,
the audit trail, a purge, and a trial server from the pgserver package.
"""

from __future__ import annotations

import argparse
import getpass
import secrets as random_secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.config.settings import TeamLibrary
from desktop_app.errors import AppError
from desktop_app.ingest.pathnames import one_line
from desktop_app.privacy.stderr import confirm

if TYPE_CHECKING:
    from desktop_app.app import App

ADMIN_URL_ENV = "ACERVO_TEAM_ADMIN_URL"


def register(sub: argparse._SubParsersAction) -> None:
    lib = sub.add_parser("library", help="the libraries you search: this computer's and team "
                                         "libraries on a PostgreSQL server")
    lsub = lib.add_subparsers(dest="library_command", required=True)
    ls = lsub.add_parser("list", help="libraries in the settings (no connection made)")
    ls.set_defaults(handler=cmd_library_list)
    add = lsub.add_parser("add", help="add a team library (checks the connection)")
    add.add_argument("name")
    add.add_argument("url", help="postgresql://USER@HOST:PORT/DATABASE (a password in it is "
                                 "moved to the keyring)")
    add.add_argument("--collection", default="", help="collection to add documents to")
    add.add_argument("--read-only", action="store_true", help="never add or remove documents")
    add.add_argument("--no-search", action="store_true",
                     help="do not search it by default (use `search --library NAME`)")
    add.add_argument("--allow-network", action="store_true",
                     help="allow this server on another computer (Acervo is offline otherwise)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from stdin")
    add.add_argument("--no-check", action="store_true", help="save without connecting")
    add.set_defaults(handler=cmd_library_add)
    for name, help_text in (("remove", "forget a team library and its stored password"),
                            ("show", "connect and show what you can read there"),
                            ("allow", "allow its server on another computer"),
                            ("disallow", "block its server again (offline)")):
        p = lsub.add_parser(name, help=help_text)
        p.add_argument("name")
        p.set_defaults(handler=cmd_library_action)
    st = lsub.add_parser("set", help="change how a library is used")
    st.add_argument("name", help="a team library, or `local` (this computer)")
    st.add_argument("--search", choices=("on", "off"))
    st.add_argument("--read-only", choices=("on", "off"))
    st.add_argument("--collection")
    st.add_argument("--password", action="store_true", help="enter a new password")
    st.set_defaults(handler=cmd_library_set)

    team = sub.add_parser("team", help="set up a team server (for its administrator)")
    tsub = team.add_subparsers(dest="team_command", required=True)
    trial = tsub.add_parser("trial", help="start a trial server from the pgserver package")
    trial.add_argument("directory", type=Path)
    trial.add_argument("--listen", default="127.0.0.1",
                       help="address to listen on (0.0.0.0: the whole network; default: this "
                            "computer only)")
    trial.add_argument("--port", type=int, default=None)
    trial.add_argument("--user", action="append", default=[], help="create this user (repeat)")
    trial.add_argument("--collection", default="geral")
    trial.add_argument("--stop", action="store_true", help="stop the trial server")
    trial.set_defaults(handler=cmd_team_trial)

    def admin_parser(name: str, help_text: str) -> argparse.ArgumentParser:
        p = tsub.add_parser(name, help=help_text)
        p.add_argument("--url", default=None,
                       help=f"the owner's connection URL (or ${ADMIN_URL_ENV}; password from "
                            "$PGPASSWORD or a prompt)")
        return p

    admin_parser("init", "create the Acervo schema, roles and policies").set_defaults(
        handler=cmd_team_init)
    user = admin_parser("user", "add a user (or set a new password) or remove one")
    user.add_argument("action", choices=("add", "remove"))
    user.add_argument("user")
    user.add_argument("--password-stdin", action="store_true")
    user.set_defaults(handler=cmd_team_user)
    coll = admin_parser("collection", "add a collection")
    coll.add_argument("name")
    coll.set_defaults(handler=cmd_team_collection)
    admin_parser("collections", "collections, documents and grants").set_defaults(
        handler=cmd_team_collections)
    grant = admin_parser("grant", "let a user read (or write) a collection")
    grant.add_argument("user")
    grant.add_argument("collection")
    grant.add_argument("--write", action="store_true")
    grant.set_defaults(handler=cmd_team_grant)
    revoke = admin_parser("revoke", "take a collection away from a user")
    revoke.add_argument("user")
    revoke.add_argument("collection")
    revoke.set_defaults(handler=cmd_team_revoke)
    audit = admin_parser("audit", "who added or removed what, newest first")
    audit.add_argument("--limit", type=int, default=50)
    audit.set_defaults(handler=cmd_team_audit)
    admin_parser("purge", "rewrite the text tables and the write-ahead log so deleted text "
                          "leaves the server's files (says what it checked)").set_defaults(
        handler=cmd_team_purge)
    reindex = admin_parser("reindex", "rebuild the server's vectors with this computer's "
                                      "embedder (after an embedder upgrade)")
    reindex.add_argument("--yes", action="store_true", help="do not ask")
    reindex.set_defaults(handler=cmd_team_reindex)


# ---- library ----------------------------------------------------------------------------

def _read_password(prompt: str, *, stdin: bool) -> str | None:
    if stdin:
        return sys.stdin.readline().rstrip("\n") or None
    if sys.stdin.isatty():
        return getpass.getpass(prompt) or None
    return None


def _describe(library: TeamLibrary) -> str:
    from desktop_app.team.connection import describe

    try:
        return describe(library.url)
    except AppError:
        return "(unreadable URL)"


def cmd_library_list(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team.connection import network_hosts, secret_key

    s = app.settings
    print(f"local    this computer  search={'on' if s.search_local else 'off'}")
    for t in s.team_libraries:
        try:
            remote = network_hosts(t.url)
        except AppError:
            remote = []
        network = ("allowed" if t.allow_network else "BLOCKED (library allow NAME)") \
            if remote else "this computer"
        mode = "read-only" if t.read_only else "read-write" + (
            f" (collection {t.collection})" if t.collection else "")
        stored = "stored" if app.secrets.get(secret_key(t.name)) else "none stored"
        print(one_line(f"{t.name}  {_describe(t)}  {mode}  "
                       f"search={'on' if t.search else 'off'}  network={network}  "
                       f"password={stored}"))
    print(f"passwords are kept in: {app.secrets.where}")
    return 0


def _connect_and_report(app: App, name: str) -> None:
    stats = app.team_index(name).stats()
    print(f"connected to {stats.location}: {stats.documents} documents, {stats.chunks} chunks "
          f"you can read; embedder {stats.embedder_id}"
          + ("" if stats.embedder_matches else " (differs from yours: keyword search only)"))


def cmd_library_add(args: argparse.Namespace, app: App) -> int:
    from desktop_app.config.secrets import split_url_password
    from desktop_app.privacy.airgap import current_guard
    from desktop_app.team.connection import (
        check_allowed,
        open_guard_for,
        secret_key,
        unique_name,
    )

    name = unique_name(args.name, [t.name for t in app.settings.team_libraries])
    url, password = split_url_password(args.url)
    library = TeamLibrary(name=name, url=url, read_only=args.read_only,
                          search=not args.no_search, collection=args.collection,
                          allow_network=args.allow_network)
    check_allowed(library)
    if password is None:
        password = _read_password(f"password for {_describe(library)}: ",
                                  stdin=args.password_stdin)
    app.settings.team_libraries.append(library)
    if password:
        app.secrets.set(secret_key(name), password)
    guard = current_guard()
    if guard is not None:
        open_guard_for(app.settings, guard)
    if not args.no_check:
        try:
            _connect_and_report(app, name)
        except AppError:
            app.settings.team_libraries.remove(library)
            app.secrets.delete(secret_key(name))
            raise
    app.save_settings()
    app.reset_team_libraries()
    print(f"added team library {name} ({_describe(library)}); password in {app.secrets.where}"
          if password else f"added team library {name} ({_describe(library)})")
    return 0


def cmd_library_action(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team.connection import find_library, secret_key

    library = find_library(app.settings, args.name)
    command = args.library_command
    if command == "show":
        _connect_and_report(app, library.name)
        for d in app.team_index(library.name).documents():
            print(one_line(f"  {d.doc_id}  {d.title}  ({d.file_type}, {d.chunk_count} chunks)"))
        return 0
    if command == "remove":
        app.settings.team_libraries.remove(library)
        app.secrets.delete(secret_key(library.name))
    else:
        index = app.settings.team_libraries.index(library)
        app.settings.team_libraries[index] = replace(library,
                                                     allow_network=command == "allow")
    app.save_settings()
    app.reset_team_libraries()
    done = {"remove": "removed", "allow": "its server is allowed",
            "disallow": "its server is blocked again"}[command]
    print(f"{library.name}: {done}")
    return 0


def cmd_library_set(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team.connection import find_library, secret_key

    if args.name == "local":
        if args.search:
            app.settings.search_local = args.search == "on"
    else:
        library = find_library(app.settings, args.name)
        changed = replace(
            library,
            search=library.search if args.search is None else args.search == "on",
            read_only=library.read_only if args.read_only is None else args.read_only == "on",
            collection=library.collection if args.collection is None else args.collection)
        app.settings.team_libraries[app.settings.team_libraries.index(library)] = changed
        if args.password:
            password = _read_password("new password: ", stdin=not sys.stdin.isatty())
            if password:
                app.secrets.set(secret_key(library.name), password)
    app.save_settings()
    app.reset_team_libraries()
    print(f"{args.name}: saved")
    return 0


# ---- team (administration) -----------------------------------------------------------

def _admin_connection(args: argparse.Namespace) -> Any:
    import os

    try:
        import psycopg
    except ImportError as exc:
        from desktop_app.team.connection import INSTALL_HINT

        raise AppError(f"Team administration needs psycopg: {INSTALL_HINT}") from exc
    url = args.url or os.environ.get(ADMIN_URL_ENV)
    if not url:
        raise AppError(f"Give the server's owner URL with --url or ${ADMIN_URL_ENV}.")
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10,
                               application_name="acervo-admin")
    except psycopg.OperationalError as exc:
        raise AppError(f"Cannot connect as the owner: {str(exc).strip().splitlines()[0]}") \
            from exc


@contextmanager
def _admin(args: argparse.Namespace) -> Iterator[Any]:
    """The owner's connection; what the server refuses is one sentence, not a traceback."""
    import psycopg

    conn = _admin_connection(args)
    try:
        with conn:
            yield conn
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise AppError(f"The server refused: {one_line(first)}.") from exc


def cmd_team_init(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        created = admin.init_server(conn, embedder_id=app.embedder.id, dim=app.embedder.dim)
        version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'"
                               ).fetchone()[0]
        print(("created" if created else "upgraded/checked")
              + f" the Acervo team library (PostgreSQL {conn.info.server_version // 10000}, "
              f"pgvector {version}, embedder {app.embedder.id})")
    return 0


def cmd_team_user(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        if args.action == "remove":
            admin.remove_user(conn, args.user)
            print(f"removed user {one_line(args.user)}")
            return 0
        admin.role_name(args.user)  # a reserved or invalid name: said before the password
        password = _read_password(f"password for {args.user}: ", stdin=args.password_stdin)
        if not password:
            raise AppError("A user needs a password (type it, or pipe it with "
                           "--password-stdin).")
        admin.add_user(conn, args.user, password)
        print(f"user {one_line(args.user)} ready (grant collections with `team grant`)")
    return 0


def cmd_team_collection(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        admin.add_collection(conn, args.name)
    print(f"collection {one_line(admin.collection_name(args.name))} ready")
    return 0


def cmd_team_collections(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        for name, documents, grants in admin.collections(conn):
            print(one_line(f"{name}: {documents} documents; {', '.join(grants) or 'no grants'}"))
    return 0


def cmd_team_grant(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        admin.grant(conn, args.user, args.collection, write=args.write)
    print(one_line(f"{args.user} may {'read and write' if args.write else 'read'} "
                   f"{args.collection}"))
    return 0


def cmd_team_revoke(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        found = admin.revoke(conn, args.user, args.collection)
    print(one_line(f"{args.user}: {args.collection} revoked") if found else "no such grant")
    return 0 if found else 1


def cmd_team_audit(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team import admin

    with _admin(args) as conn:
        for e in admin.audit(conn, limit=args.limit):
            # titles and names come from files and from other people: escaped, one line
            print(one_line(f"{e.at}  {e.actor:12} {e.action:6} {e.collection}  {e.doc_id}  "
                           f"{e.title}"))
    return 0


def cmd_team_purge(args: argparse.Namespace, app: App) -> int:
    from desktop_app.team.purge import purge_server

    with _admin(args) as conn:
        report = purge_server(conn)
    print("purged; what was done and checked:")
    for line in report.lines():
        print(f"  {line}")
    return 0 if report.complete else 1


def cmd_team_reindex(args: argparse.Namespace, app: App) -> int:
    import sys

    from desktop_app.team import admin

    embedder = app.embedder
    with _admin(args) as conn:
        served, _dim = admin.server_embedder(conn)
        chunks = conn.execute("SELECT count(*) FROM acervo.chunks").fetchone()[0]
        if served == embedder.id:
            print(f"the team library's {chunks} passages already use {embedder.id}")
            return 0
        print(f"The team library's {chunks} passages were embedded with {served}; this "
              f"computer embeds with {embedder.id}. Rebuilding re-embeds them all here; "
              "everyone keeps searching meanwhile. After the switch, computers still on "
              f"{served} get keyword-only search and cannot add documents until they switch.",
              file=sys.stderr)
        if not args.yes and not confirm("Rebuild now?",
                                        otherwise="Run it again with --yes to rebuild."):
            return 1
        for p in admin.reindex_vectors(conn, embedder):
            if p.stage == "embedding":
                print(f"  embedded {p.chunks_done}/{p.chunks_total}", end="\r", flush=True)
            elif p.stage == "switching":
                print("\n  switching (additions wait; searches go on)…", flush=True)
            else:
                print(f"team library reindexed: {p.chunks_total} passages with {embedder.id}")
    return 0


def cmd_team_trial(args: argparse.Namespace, app: App) -> int:
    import psycopg

    from desktop_app.team import admin
    from desktop_app.team.trial import start_trial_server

    if args.stop:
        from desktop_app.team.trial import stop_trial_server

        stop_trial_server(args.directory)
        print(f"trial server in {args.directory} stopped")
        return 0
    server = start_trial_server(args.directory, host=args.listen, port=args.port,
                                stop_at_exit=False)
    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        admin.init_server(conn, embedder_id=app.embedder.id, dim=app.embedder.dim)
        admin.add_collection(conn, args.collection)
        created = []
        for user in args.user:
            password = random_secrets.token_urlsafe(12)
            admin.add_user(conn, user, password)
            admin.grant(conn, user, args.collection, write=True)
            created.append((user, password))
        number = conn.info.server_version
        version = f"{number // 10000}.{number % 10000}"
    print(f"trial server running: PostgreSQL {version} + pgvector, data in {server.data_dir}")
    print(f"  owner (this computer only): {server.admin_url()}")
    for user, password in created:
        print(f"  user {user}: password {password}  (shown once; reads and writes "
              f"'{args.collection}')")
        print(f"    connect: desktop-app library add team {server.user_url(user)} "
              f"--collection {args.collection}")
    print(f"  stop: desktop-app team trial {args.directory} --stop")
    return 0
