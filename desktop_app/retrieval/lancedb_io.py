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
antivirus): `table_damage()` finds it from the table's version file (read by
`lance_manifest`, without Lance's own 215 MB Python package) — every data and deletion file
present at the size it was written, each fragment readable through LanceDB (`deep`: every
row decoded) — and `detach_fragments()` commits a version without the damaged fragments
(their rows were unreadable anyway) through LanceDB's delete, so the rest of the table reads
again. A read that still fails on a damaged file ends as one `DamagedStoreError` sentence,
never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from desktop_app.errors import DamagedStoreError, storage_error
from desktop_app.retrieval import lance_manifest

log = logging.getLogger(__name__)

# LanceDB's and Lance's Rust cores print their own WARN lines straight to the terminal (a
# damaged index file, a deprecation): Acervo reports those things in its own sentences
for _variable in ("LANCEDB_LOG", "LANCE_LOG"):
    os.environ.setdefault(_variable, "error")

T = TypeVar("T")
WRITE_ATTEMPTS = 6
READ_ATTEMPTS = 4
PROBE_ROWS = 64  # rows the quick check reads of each fragment: its files' footers and a page
TAKE_ROWS = 2048  # rows read at a time by the deep check and by a rewrite
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
    """Check one table's files against its version file (read by `lance_manifest`): each
    data and deletion file present at the size it was written, each fragment readable
    through LanceDB (its first rows; `deep`: every row decoded, for `doctor`), each index's
    files present. A table that does not exist at all is not damage (the caller knows
    whether it should exist)."""
    path = table_path(directory, name)
    if not path.exists():
        return TableDamage(name)
    try:
        manifest, table = _current_version(directory, name)
    except OSError as exc:  # the disk failed the check itself: not proof of damage
        return TableDamage(name, unchecked=type(exc).__name__)
    except Exception as exc:  # no version file, a garbled one, or LanceDB cannot open it
        log.info("table %s cannot be opened (%s)", name, type(exc).__name__)
        return TableDamage(name, unreadable=True)
    if table is None:
        return TableDamage(name, unchecked=manifest.unsupported)
    bad = [f for f in manifest.fragments if not _fragment_sound(table, f, deep=deep)]
    missing = tuple(sorted({ix.name for ix in manifest.indexes if not _index_sound(ix)}))
    if bad or missing:
        log.info("table %s: %d damaged data files, %d indexes missing files", name,
                 len(bad), len(missing))
    return TableDamage(name, fragments=tuple(f.id for f in bad),
                       rows=sum(f.rows for f in bad), indexes=missing)


def _current_version(directory: Path, name: str) -> tuple[lance_manifest.TableManifest, Any]:
    """The table's current version file and the table opened at that version (None when
    the reader cannot vouch for the table); again if a compaction removed that version
    between the two reads."""
    for attempt in range(READ_ATTEMPTS):
        manifest = lance_manifest.read_manifest(table_path(directory, name))
        if manifest.unsupported:
            return manifest, None
        table = connect(directory).open_table(name)
        try:
            table.checkout(manifest.version)
            return manifest, table
        except Exception as exc:
            if not _vanished(exc) or attempt == READ_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _fragment_sound(table: Any, fragment: lance_manifest.Fragment, *, deep: bool) -> bool:
    for data_file in fragment.files:
        if not _present(data_file):
            return False
    if fragment.deletion_file is not None and not fragment.deletion_file.is_file():
        return False
    # a take reads only this fragment's files (a scan reads every deletion file first);
    # without stable row ids, which Acervo's tables do not use, a row id is its address
    stop = fragment.physical_rows if deep else min(fragment.physical_rows, PROBE_ROWS)
    try:
        for start in range(0, stop, TAKE_ROWS):
            table.take_row_ids(_addresses(fragment, start, min(stop, start + TAKE_ROWS))
                               ).to_arrow()
    except Exception as exc:
        log.info("fragment %s of %s unreadable (%s)", fragment.id, table.name,
                 type(exc).__name__)
        return False
    return True


def _addresses(fragment: lance_manifest.Fragment, start: int, stop: int) -> list[int]:
    return [fragment.id << 32 | offset for offset in range(start, stop)]


def _present(file: lance_manifest.FileRef) -> bool:
    try:
        size = file.path.stat().st_size
    except FileNotFoundError:
        return False
    return size == file.size if file.size else size > 0


def _index_sound(index: lance_manifest.IndexSegment) -> bool:
    if index.files:
        return all(_present(f) for f in index.files)
    try:  # an older version file lists no index files: the folder, none of them empty
        files = [p for p in index.folder.iterdir() if p.is_file()]
    except OSError:
        return False
    return bool(files) and all(p.stat().st_size > 0 for p in files)


def detach_fragments(directory: Path, name: str, fragment_ids: Sequence[int]) -> None:
    """Commit a version of the table without these fragments, reading none of their files
    (they are the damaged ones): every row address in them is deleted, which LanceDB
    resolves from the version file, and a fragment left without rows leaves the version.
    A delete reads every fragment's deletion file, so when one of those is the damaged file
    (or the delete fails otherwise) the table is written again from the other fragments'
    rows (one commit; its search indexes stay with the old version, and the caller builds
    them again). The old files stay until the next compaction removes unreferenced files, so
    a removed document's text does not linger in them."""
    if not fragment_ids:
        return
    doomed = sorted(set(fragment_ids))
    table = connect(directory).open_table(name)
    try:
        table.delete(" OR ".join(f"(_rowaddr >= {f << 32} AND _rowaddr < {(f + 1) << 32})"
                                 for f in doomed))
        return
    except Exception as exc:
        if is_commit_conflict(exc) or storage_error(exc, "") is not None:
            raise  # retried or reported by `write`
        log.info("table %s: a damaged file stops the delete (%s); writing the "
                 "table again from its other fragments", name, type(exc).__name__)
    _write_without(directory, name, set(doomed))


def _write_without(directory: Path, name: str, doomed: set[int]) -> None:
    import pyarrow as pa

    manifest, source = _current_version(directory, name)
    if source is None:
        raise DamagedStoreError(f"The table {name} uses a feature the repair does not "
                                f"follow ({manifest.unsupported}).")
    schema = source.schema

    def batches() -> Iterator[Any]:
        for fragment in manifest.fragments:
            if fragment.id in doomed:
                continue
            for start in range(0, fragment.physical_rows, TAKE_ROWS):
                stop = min(fragment.physical_rows, start + TAKE_ROWS)
                rows = source.take_row_ids(_addresses(fragment, start, stop)).to_arrow()
                yield from rows.select(schema.names).cast(schema).to_batches()

    target = connect(directory).open_table(name)
    target.add(pa.RecordBatchReader.from_batches(schema, batches()), mode="overwrite")


def remove_table_files(directory: Path, name: str) -> None:
    """Delete an unreadable table's folder (its rows cannot be read; its text must not stay
    on disk past the rebuild, where no erasure could reach it)."""
    shutil.rmtree(table_path(directory, name), ignore_errors=True)
