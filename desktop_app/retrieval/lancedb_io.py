"""How Acervo talks to LanceDB safely when several processes share a data folder.

- `connect()` opens with strong read consistency: every read sees the latest committed
  version, so a window that stays open sees what a terminal `ingest` added (the default
  never re-reads, and a long-lived process kept a stale view forever).
- `write()` runs a write under the store's boundary: a LanceDB "Retryable commit conflict"
  is retried on the latest version, and storage failures (full disk, read-only folder, no
  permission; LanceDB reports them as RuntimeError text) become `StorageError`s.
- `read()` retries a read that raced a compaction: a writer's cleanup deletes the files
  of old versions, and a query that started on one of them fails with "not found".
(Small JSON files — the generation pointer, index metadata — are written with
`desktop_app.config.files.write_json_atomic`.)

Damage (a data file truncated by a disk error, deleted by a sync tool, quarantined by an
antivirus): `table_damage()` finds it from the table's version file — every data file
present at the size it was written, each fragment readable (`deep`: every row decoded) —
and `detach_fragments()` commits a version without the damaged fragments (their rows
were unreadable anyway), so the rest of the table reads again. A read that still fails on
a damaged file ends as one `DamagedStoreError` sentence, never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from desktop_app.errors import DamagedStoreError, storage_error

log = logging.getLogger(__name__)

# LanceDB's and Lance's Rust cores print their own WARN lines straight to the terminal (a
# damaged index file, a deprecation): Acervo reports those things in its own sentences
for _variable in ("LANCEDB_LOG", "LANCE_LOG"):
    os.environ.setdefault(_variable, "error")

T = TypeVar("T")
WRITE_ATTEMPTS = 6
READ_ATTEMPTS = 4
_CONFLICT_MARKERS = ("retryable commit conflict", "commit conflict", "please retry")
_VANISHED_MARKERS = ("not found", "no such file", "does not exist", "object at location")
# what LanceDB says when a file it needs is cut short, garbled or gone (after the retries a
# compaction race gets, the file is taken to be damaged)
_DAMAGE_MARKERS = ("lanceerror(io)", "failed to fill whole buffer", "not found:",
                   "no such file", "unexpected eof", "corrupt")


def connect(directory: Path) -> Any:
    import lancedb

    return lancedb.connect(str(directory), read_consistency_interval=timedelta(0))


def is_commit_conflict(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        m in text for m in _CONFLICT_MARKERS)


def _vanished(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        m in text for m in _VANISHED_MARKERS)


def write(action: Callable[[], T], *, where: str = "", refresh: Callable[[], None] | None = None
          ) -> T:
    """Run one LanceDB write: commit conflicts retried, storage errors mapped."""
    for attempt in range(WRITE_ATTEMPTS):
        try:
            return action()
        except Exception as exc:
            mapped = storage_error(exc, where)
            if mapped is not None:
                raise mapped from exc
            if not is_commit_conflict(exc) or attempt == WRITE_ATTEMPTS - 1:
                raise
            log.info("LanceDB commit conflict (attempt %d); retrying on the latest version",
                     attempt + 1)
            if refresh is not None:
                with contextlib.suppress(Exception):
                    refresh()
            time.sleep(0.05 * 2 ** attempt)
    raise AssertionError("unreachable")


def is_damage(exc: BaseException) -> bool:
    """Does this LanceDB error say a file of the table is damaged or missing?"""
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        m in text for m in _DAMAGE_MARKERS)


def damaged(what: str) -> DamagedStoreError:
    return DamagedStoreError(
        f"A file of {what} is damaged or missing on disk, so part of it cannot be read. Run "
        "`desktop-app doctor --repair` to rebuild it from what remains and from your files.")


def read(action: Callable[[], T], *, refresh: Callable[[], None] | None = None,
         what: str = "") -> T:
    """Run one LanceDB read, again on the latest version if a compaction removed its files;
    a file still unreadable after that is damage (`what` names the store for the sentence)."""
    for attempt in range(READ_ATTEMPTS):
        try:
            return action()
        except Exception as exc:
            last = attempt == READ_ATTEMPTS - 1
            if what and is_damage(exc) and (last or not _vanished(exc)):
                log.info("damaged LanceDB file in %s (%s)", what, type(exc).__name__)
                raise damaged(what) from exc
            if not (_vanished(exc) or is_commit_conflict(exc)) or last:
                raise
            if refresh is not None:
                with contextlib.suppress(Exception):
                    refresh()
            time.sleep(0.05 * 2 ** attempt)
    raise AssertionError("unreachable")


# ---- helpers every LanceDB store shares (documents, memories, conversation recall) ----------
def sql_str(value: str) -> str:
    """A string literal for LanceDB's SQL filters."""
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN (" + ", ".join(sql_str(v) for v in values) + ")"


def create_fts(table: Any, column: str = "search_text", *, replace: bool = True) -> None:
    """The keyword index over an analysed column (`text.analyze.analyze` already folded and
    stemmed it, so LanceDB only splits on whitespace and lowercases)."""
    from lancedb.index import FTS

    table.create_index(column, replace=replace, config=FTS(
        base_tokenizer="simple", lower_case=True, stem=False, remove_stop_words=False,
        ascii_folding=True, with_position=False))


def has_fts(table: Any) -> bool:
    return any(i.index_type == "FTS" for i in table.list_indices())


def compact(table: Any) -> None:
    """Fold new rows into the indexes and physically drop every older version (deleted text
    must not survive in old versions: LGPD erasure). LanceDB warns that readers of older
    versions fail: our readers retry on the latest version (`read`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)


# ---- damaged files ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TableDamage:
    """What is wrong with one table's files (falsy when nothing is)."""

    table: str
    unreadable: bool = False  # its folder or version file is gone or garbled: no row reads
    fragments: tuple[int, ...] = ()  # data fragments whose files are missing or damaged
    rows: int = 0  # rows those fragments held (from the version file)
    indexes: tuple[str, ...] = ()  # search indexes whose files are missing
    unchecked: str = ""  # the check itself could not run (an I/O error): why, for the log

    def __bool__(self) -> bool:
        return self.unreadable or bool(self.fragments or self.indexes)

    def describe(self, what: str, rows: str = "rows") -> str:
        """One clause (no file names, no text): what is wrong with `what`."""
        if self.unreadable:
            return f"{what} cannot be read (its files are missing or damaged)"
        parts = []
        if self.fragments:
            files = _plural(len(self.fragments), "data file")
            parts.append(f"{files} of {what} ({self.rows} {rows}) missing or damaged"
                         .replace("(1 rows)", "(1 row)"))
        if self.indexes:
            parts.append(f"the files of a search index of {what} missing")
        return " and ".join(parts)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def table_path(directory: Path, name: str) -> Path:
    return directory / f"{name}.lance"


def table_damage(directory: Path, name: str, *, deep: bool = False) -> TableDamage:
    """Check one table's files against its version file: each data file present at the size
    it was written and readable (`deep`: every row decoded, for `doctor`), each index folder
    present. A table that does not exist at all is not damage (the caller knows whether it
    should exist)."""
    import lance

    path = table_path(directory, name)
    if not path.exists():
        return TableDamage(name)
    try:
        dataset = lance.dataset(str(path))
        fragments = dataset.get_fragments()
        indices = [(ix.name, str(segment.uuid)) for ix in dataset.describe_indices()
                   for segment in ix.segments]
    except OSError as exc:  # the disk failed the check itself: not proof of damage
        return TableDamage(name, unchecked=type(exc).__name__)
    except Exception as exc:
        log.info("table %s cannot be opened (%s)", name, type(exc).__name__)
        return TableDamage(name, unreadable=True)
    bad: list[int] = []
    rows = 0
    for fragment in fragments:
        if not _fragment_sound(path, fragment, deep=deep):
            bad.append(int(fragment.fragment_id))
            rows += int(fragment.metadata.physical_rows or 0)
    missing = tuple(sorted({name for name, uuid in indices
                            if not _index_files_present(path / "_indices" / uuid)}))
    if bad or missing:
        log.info("table %s: %d damaged data files, %d indexes missing files", name,
                    len(bad), len(missing))
    return TableDamage(name, fragments=tuple(bad), rows=rows, indexes=missing)


def _fragment_sound(table: Path, fragment: Any, *, deep: bool) -> bool:
    for data_file in fragment.metadata.files:
        file = table / "data" / data_file.path
        expected = getattr(data_file, "file_size_bytes", None)
        try:
            size = file.stat().st_size
        except FileNotFoundError:
            return False
        if expected and size != int(expected):
            return False
    try:
        fragment.validate()  # footers and the deletion file
        if deep:
            for _batch in fragment.to_batches(batch_size=1024):
                pass
    except Exception as exc:
        log.info("fragment %s of %s unreadable (%s)", fragment.fragment_id, table.name,
                 type(exc).__name__)
        return False
    return True


def _index_files_present(folder: Path) -> bool:
    try:
        files = [p for p in folder.iterdir() if p.is_file()]
    except OSError:
        return False
    return bool(files) and all(p.stat().st_size > 0 for p in files)


def detach_fragments(directory: Path, name: str, fragment_ids: Sequence[int]) -> None:
    """Commit a version of the table without these fragments (their files are not read: they
    are the damaged ones). The files stay until the next compaction removes unreferenced
    files, so a removed document's text does not linger in them."""
    import lance

    if not fragment_ids:
        return
    path = str(table_path(directory, name))
    dataset = lance.dataset(path)
    operation = lance.LanceOperation.Delete(updated_fragments=[],
                                            deleted_fragment_ids=list(fragment_ids),
                                            predicate="false")
    lance.LanceDataset.commit(path, operation, read_version=dataset.version)


def remove_table_files(directory: Path, name: str) -> None:
    """Delete an unreadable table's folder (its rows cannot be read; its text must not stay
    on disk past the rebuild, where no erasure could reach it)."""
    shutil.rmtree(table_path(directory, name), ignore_errors=True)
