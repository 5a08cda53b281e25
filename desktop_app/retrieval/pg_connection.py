"""A team library's connection to its server, and the server's failures as the user reads them.

`PgIndex` (`pg_index.py`) shares one autocommit connection, as the analyst's own role,
between threads under a lock; a broken connection is replaced on the next statement.
Failures keep to the app's sentences: a full server disk is `errors.StorageError`,
as LanceDB's and SQLite's are; a server that cannot be reached or refuses the
library is a `TeamLibraryError`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from desktop_app.errors import AppError, storage_error
from desktop_app.retrieval.pg_sql import HNSW_EF_SEARCH


class TeamLibraryError(AppError):
    """The team server is unreachable, not set up, or refused an operation."""


def server_place(library: str) -> str:
    return f"the server of the team library “{library}”"


@contextmanager
def server_errors(library: str) -> Iterator[None]:
    """The storage boundary of a team library: the server's storage failures (a full disk,
    SQLSTATE 53100) become the app's `StorageError` with its one sentence, as LanceDB's and
    SQLite's do (`errors.storage_error`); anything else passes unchanged."""
    import psycopg

    try:
        yield
    except psycopg.Error as exc:
        mapped = storage_error(exc, server_place(library))
        if mapped is None:
            raise
        raise mapped from exc


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class ServerConnection:
    """The connection of one team library, opened on first use."""

    def __init__(self, connect: Callable[[], Any], library: str) -> None:
        self._connect = connect
        self.library = library
        self._lock = threading.RLock()
        self._conn: Any = None
        self.notices: list[str] = []  # the server's notices (VACUUM's "skipping", in purge)

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        """A cursor on a live connection; a broken connection is replaced once."""
        import psycopg

        with self._lock:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._conn = self._open()
            try:
                with server_errors(self.library), self._conn.cursor() as cur:
                    yield cur
            except psycopg.OperationalError as exc:
                if self._conn.broken or self._conn.closed:
                    self._conn = None
                    raise TeamLibraryError(
                        f"The team library “{self.library}” is unreachable: {first_line(exc)}"
                    ) from exc
                raise

    def new_connection(self) -> Any:
        """A new connection; a refusal is the user's sentence: a full server disk (which can
        refuse the connection itself) as the storage error, anything else as unreachable."""
        import psycopg

        try:
            with server_errors(self.library):
                return self._connect()
        except psycopg.OperationalError as exc:
            raise TeamLibraryError(
                f"Cannot connect to the team library “{self.library}”: {first_line(exc)}"
            ) from exc

    def _open(self) -> Any:
        conn = self.new_connection()
        conn.autocommit = True
        conn.add_notice_handler(lambda diag: self.notices.append(diag.message_primary or ""))
        with conn.cursor() as cur:
            cur.execute("SET hnsw.iterative_scan = strict_order")
            cur.execute(f"SET hnsw.ef_search = {HNSW_EF_SEARCH}")
        return conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
