"""`doctor`'s store sections: the document index, the memory and recall indexes, and the
conversation and memory database — each checked, and with `--repair` rebuilt from what
still exists.

The document index (the active generation, `current.json`): damaged or missing files
(`deep`: every row decoded), documents waiting to be read again, then consistency (the
keyword and vector indexes match the table; no duplicates, no passages of interrupted
ingests). `--repair` sets damaged files aside, rebuilds each table's rows from the other,
reads the documents that lost passages again from their files through the ingest pipeline
(only lost passages are embedded), and says what it could not recover.

The memory and recall indexes are derived from the database: damaged, they are made again
from it. The database gets SQLite's own integrity check; a damaged one is set aside, never
overwritten, and what it still holds is copied into a new one (`memory.salvage`).

Anything that could not be checked is a problem too: `doctor` never says OK about what it
did not see. Only paths and the app's own services are used (duck-typed).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

Progress = Callable[[str], None]


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def tree_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += (Path(root) / name).stat().st_size
    return total


def _why(error: BaseException) -> str:
    return getattr(error, "user_message", "") or type(error).__name__


# ---- the document index ----------------------------------------------------------------------
def index_section(app: Any, problems: list[str] | None = None, *, repair: bool = False,
                  deep: bool = False, progress: Progress | None = None) -> list[str]:
    from desktop_app.retrieval.index import current_generation

    try:
        index_dir = Path(app.paths.index_dir)
    except Exception as error:
        return [f"index path unknown ({type(error).__name__})"]
    if not index_dir.is_dir():
        return [f"index folder: {index_dir} (not created yet: nothing ingested)"]
    active = current_generation(index_dir)
    generation = index_dir / (active or "")
    lines = [f"index folder: {index_dir} ({human_size(tree_size(index_dir))}), "
             f"active generation: {generation.name}"]
    tables = sorted(p for p in generation.iterdir() if p.suffix == ".lance") \
        if generation.is_dir() else []
    lines += [f"  table {p.stem}: {human_size(tree_size(p))}" for p in tables] or ["  (no tables)"]
    if problems is not None and active is not None:
        lines += consistency_lines(app, problems, repair=repair, deep=deep, progress=progress)
    return lines


def consistency_lines(app: Any, problems: list[str], *, repair: bool, deep: bool = False,
                      progress: Progress | None = None) -> list[str]:
    """Damage, documents waiting to be read again, consistency; `repair` fixes them."""
    try:
        index = app.index  # opening repairs what it can when no other process is writing
        lines = [f"  repaired when opened: {p}" for p in index.repaired_on_open]
        if repair:
            lines += [f"  repaired: {p}" for p in index.repair(deep=deep)]
            lines += read_again(app, index, progress)
            remaining = index.check()
        else:
            if not index.writer.try_acquire("checking the index"):
                problems.append("the index was not checked: " + index.writer.busy_message())
                return lines + [f"  consistency: not checked, {index.writer.busy_message()}"]
            try:
                remaining = index.check(deep=deep)
            finally:
                index.writer.release()
    except Exception as error:  # a doctor reports; it does not crash — but never says OK
        problems.append(f"the index could not be checked: {_why(error)}")
        return [f"  consistency: could not check ({_why(error)})"]
    if remaining:
        problems.append("the index has problems: run `desktop-app doctor --repair`" if not repair
                        else "the index still has problems after the repair (listed above)")
        return lines + [f"  {'NOT REPAIRED' if repair else 'INCONSISTENT'}: {p}"
                        for p in remaining]
    if repair and not lines:
        lines.append("  nothing to repair")
    return lines + ["  consistency: sound (keyword and vector indexes match the table)"]


def read_again(app: Any, index: Any, progress: Progress | None = None) -> list[str]:
    """Documents rebuilt after damaged files, read again from their files by the ingest
    pipeline (a placeholder is replaced; vectors of passages that survived are reused)."""
    from desktop_app.ingest.events import ChunksEmbedded, FileDone, FileFailed, RunDone
    from desktop_app.ingest.pathnames import display_path, path_from_key

    waiting = index.placeholders()
    if not waiting:
        return []
    present = [d for d in waiting if path_from_key(d.source_path).exists()]
    lines: list[str] = []
    done = embedded = reused = 0
    first_count: dict[str, int] = {}
    if present:
        paths = [path_from_key(d.source_path) for d in present]
        for event in app.pipeline.run(paths, prune_missing=False):
            if isinstance(event, ChunksEmbedded):
                first_count.setdefault(event.path, event.chunks_done)
            elif isinstance(event, FileDone):
                done += 1
                reused += first_count.get(event.path, 0)
                embedded += event.chunks - first_count.get(event.path, 0)
                if progress is not None:
                    progress(f"  read again {done}/{len(present)}: {display_path(event.path)}")
            elif isinstance(event, FileFailed):
                lines.append(f"  could not read again: {display_path(event.path)} "
                             f"({event.reason})")
            elif isinstance(event, RunDone) and event.stopped:
                lines.append(f"  stopped: {event.stopped}")
        lines.insert(0, f"  read again from their files: {done} of {len(present)} documents "
                        f"({embedded} passages embedded, {reused} reused)")
    for record in waiting:
        if record not in present:
            lines.append(f"  could not recover: {display_path(record.source_path)} — its file "
                         "is gone (restore it and run `desktop-app doctor --repair`, or remove "
                         f"the document with `desktop-app documents remove {record.doc_id}`)")
    return lines


# ---- memory, recall and the database -----------------------------------------------------------
def state_section(app: Any, problems: list[str], *, repair: bool = False,
                  deep: bool = False) -> list[str]:
    """SQLite's integrity check of the database; the memory and recall indexes' files."""
    path = Path(app.paths.state_db)
    if not path.is_file():
        return [f"database: {path} (not created yet)"]
    lines = [f"database: {path} ({human_size(tree_size(path))})"]
    lines += _database_lines(app, problems, repair=repair, deep=deep)
    if any("set aside" in line for line in lines):
        try:  # what the indexes hold of messages and memories the new database lacks goes
            rows = _rebuild_derived(app, "memories"), _rebuild_derived(app, "exchanges")
            lines.append(f"  memory and recall indexes brought level with it ({rows[0]} "
                         f"memories, {rows[1]} exchanges)")
        except Exception as error:
            problems.append(f"the memory and recall indexes could not be brought level with "
                            f"the recovered database: {_why(error)}")
    data_dir = Path(app.paths.data_dir)
    for what, directory, table in (("memory index", Path(app.paths.memory_index_dir), "memories"),
                                   ("recall index", data_dir / "recall", "exchanges")):
        lines += _derived_index_lines(app, what, directory, table, problems, repair=repair,
                                      deep=deep)
    return lines


def _database_lines(app: Any, problems: list[str], *, repair: bool, deep: bool) -> list[str]:
    try:
        found = app.state_integrity(deep=deep)
    except Exception as error:
        found = [_why(error)]
    if not found:
        return ["  integrity check: ok"]
    if not repair:
        problems.append("the conversation and memory database is damaged: run "
                        "`desktop-app doctor --repair`")
        return [f"  DAMAGED: {p}" for p in found[:5]]
    try:
        report = app.salvage_state()
    except Exception as error:
        problems.append(f"the damaged database could not be set aside: {_why(error)}")
        return [f"  DAMAGED: {p}" for p in found[:5]] + [f"  repair failed ({_why(error)})"]
    return ["  repaired: the damaged database was set aside and a new one made"] + [
        f"  {line}" for line in report]


def _derived_index_lines(app: Any, what: str, directory: Path, table: str,
                         problems: list[str], *, repair: bool, deep: bool) -> list[str]:
    from desktop_app.retrieval.lancedb_io import table_damage

    if not (directory / f"{table}.lance").exists():
        return [f"{what}: not created yet"]
    try:
        damage = table_damage(directory, table, deep=deep)
    except Exception as error:
        problems.append(f"the {what} could not be checked: {_why(error)}")
        return [f"{what}: could not check ({_why(error)})"]
    if damage.unchecked:
        problems.append(f"the {what} could not be checked ({damage.unchecked})")
        return [f"{what}: could not check ({damage.unchecked})"]
    if not damage:
        return [f"{what}: files sound"]
    if not repair:
        problems.append(f"the {what} is damaged: run `desktop-app doctor --repair`")
        return [f"{what}: DAMAGED: {damage.describe('its table')}"]
    try:
        rebuilt = _rebuild_derived(app, table)
    except Exception as error:
        problems.append(f"the {what} could not be rebuilt: {_why(error)}")
        return [f"{what}: DAMAGED, rebuild failed ({_why(error)})"]
    return [f"{what}: repaired: {damage.describe('its table')}; made again from the "
            f"database ({rebuilt} rows)"]


def _rebuild_derived(app: Any, table: str) -> int:
    """Opening the index again removes a damaged table; its owner re-embeds from SQLite."""
    memory = app.memory
    if table == "memories":
        return int(memory.reopen_index())
    return int(memory.conversation_recall.reopen_index())
