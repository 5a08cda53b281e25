"""The small error hierarchy: `AppError` carries a message meant for the user.

Anything that is not an `AppError` is a bug: log it (sanitized) and show a crash dialog.

Storage errors arrive in four dialects — `OSError` from Python, `RuntimeError("… No space
left on device (os error 28) …")` from LanceDB's Rust core, `sqlite3.OperationalError
("attempt to write a readonly database")` from SQLite, `psycopg.errors.DiskFull` (SQLSTATE
53100, "could not extend file …") from a team library's PostgreSQL server — and
`storage_error()` maps all of them, at the boundary where a store is written, to one of the
classes below. Each class
has its own process exit code (`EXIT_CODES`, documented in docs/reliability.md).
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path


class AppError(Exception):
    """An error the user can understand and usually fix."""

    exit_code = 1

    def __init__(self, user_message: str, *, detail: str = "") -> None:
        super().__init__(user_message)
        self.user_message = user_message
        self.detail = detail


class MissingModelError(AppError):
    """A model file or folder is not where the settings say."""


class InvalidModelError(AppError):
    """A model file exists but is not usable (wrong format, too big, unreadable)."""


class UnreadableDocumentError(AppError):
    """A document could not be read (corrupt, encrypted, empty, unsupported)."""


class LimitExceededError(UnreadableDocumentError):
    """A document beyond one of the hostile-file limits (`ingest.limits`: size, elements,
    nesting, parse time, pages): skipped by a limit, not damaged."""


class StorageError(AppError):
    """Acervo's own data folder cannot be written; the message says why and what to do."""

    exit_code = 5


class DiskFullError(StorageError):
    """Writing failed because the disk is full."""

    exit_code = 4


class ReadOnlyStorageError(StorageError):
    """The data folder is read-only (read-only media or mount) or not writable by this user."""

    exit_code = 5


class StoragePermissionError(ReadOnlyStorageError):
    """This user may not write to the data folder (EACCES/EPERM)."""


class LibraryBusyError(AppError):
    """Another Acervo process kept the library's writer lock for longer than we waited."""

    exit_code = 6


class LibraryRebuiltError(LibraryBusyError):
    """Another process switched the index generation (reindex) while this one waited."""


class DamagedStoreError(AppError):
    """A file of one of Acervo's own stores (an index table, the state database) is damaged
    or missing on disk; the message names the store and says how to repair it."""


class CancelledError(AppError):
    """The user cancelled a long operation."""

    exit_code = 130

    def __init__(self, user_message: str = "Cancelled.") -> None:
        super().__init__(user_message)


# Exit codes of `desktop-app COMMAND` (docs/reliability.md, "Exit codes").
EXIT_CODES: dict[int, str] = {
    0: "success",
    1: "an error with a message (bad input, missing model, …)",
    2: "wrong command-line usage",
    3: "ingest finished, but some files could not be indexed (each one says why)",
    4: "the disk is full (nothing already stored was lost)",
    5: "Acervo's data folder is read-only or not writable",
    6: "another Acervo process kept the library busy longer than --wait",
    70: "a bug: one sentence on screen, the traceback in the (sanitized) log",
    130: "interrupted (Ctrl+C) or cancelled",
    141: "the output pipe was closed (e.g. `| head`)",
}

NOTHING_LOST = "Nothing already stored was lost."
PG_DISK_FULL = "53100"  # PostgreSQL's SQLSTATE disk_full
_ENOSPC_TEXT = re.compile(r"no space left on device|os error 28\b|database or disk is full|"
                          r"disk quota exceeded|os error 122\b", re.IGNORECASE)
_EROFS_TEXT = re.compile(r"read-only file system|os error 30\b|readonly database|"
                         r"attempt to write a read-?only", re.IGNORECASE)
_EACCES_TEXT = re.compile(r"permission denied|os error 13\b|operation not permitted|"
                          r"os error 1\b|unable to open database file", re.IGNORECASE)


def disk_full(where: str = "") -> DiskFullError:
    place = f" (writing to {where})" if where else ""
    return DiskFullError(f"The disk is full{place}: free some space and try again. {NOTHING_LOST}")


def read_only(where: str = "") -> ReadOnlyStorageError:
    place = f" ({where})" if where else ""
    return ReadOnlyStorageError(
        f"Acervo cannot write to its data folder{place}: it is read-only. Reading and "
        f"searching still work; to add or change anything, make the folder writable "
        f"(or set ACERVO_HOME to a writable folder). {NOTHING_LOST}")


def not_permitted(where: str = "") -> StoragePermissionError:
    place = f" ({where})" if where else ""
    return StoragePermissionError(
        f"Acervo has no permission to write to its data folder{place}. Check the folder's "
        f"owner and permissions (or set ACERVO_HOME to a folder you own). {NOTHING_LOST}")


def storage_error(exc: BaseException, where: str = "") -> StorageError | None:
    """The user-facing error for a failed write to our own storage, or None if it is not one.

    `where`: the folder being written (shown to the user), e.g. the data folder.

    Recognises `OSError` errnos, the text LanceDB (Rust `os error N`) and SQLite put in
    their messages (full disk / quota, read-only file system or database, no permission),
    and PostgreSQL's disk_full SQLSTATE as psycopg reports it (or, for a connection the
    server refused before any SQLSTATE, its "No space left on device" text).
    """
    if isinstance(exc, StorageError):
        return exc
    sqlstate = getattr(exc, "sqlstate", None)  # psycopg: the server's own error code
    if isinstance(sqlstate, str) and type(exc).__module__.startswith("psycopg"):
        # 53100 disk_full; class 53's others (memory, connections) are not storage
        return disk_full(where) if sqlstate == PG_DISK_FULL else None
    if type(exc).__module__.startswith("psycopg"):
        # refused while connecting (no SQLSTATE yet): the server's FATAL text says why, e.g.
        # "could not write init file: No space left on device" on a full server disk
        return disk_full(where) if _ENOSPC_TEXT.search(str(exc)) else None
    if isinstance(exc, OSError) and exc.errno is not None:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return disk_full(where)
        if exc.errno == errno.EROFS:
            return read_only(where)
        if exc.errno in (errno.EACCES, errno.EPERM):
            return not_permitted(where)
    if not isinstance(exc, OSError | RuntimeError | ValueError) and \
            type(exc).__module__ != "sqlite3":
        return None
    text = str(exc)
    if _ENOSPC_TEXT.search(text):
        return disk_full(where)
    if _EROFS_TEXT.search(text):
        return read_only(where)
    if _EACCES_TEXT.search(text):
        # SQLite says "unable to open database file" for a read-only mount too
        return read_only(where) if _read_only_mount(where) else not_permitted(where)
    return None


def _read_only_mount(where: str) -> bool:
    """Whether `where` (or its nearest existing parent) is on a read-only file system."""
    if not where or not hasattr(os, "statvfs"):
        return False
    path = Path(where)
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False
