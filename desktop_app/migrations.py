"""Schema versions of what Acervo keeps in its data folders, and the upgrades run on open.

Installing a newer Acervo over an older one must keep the library, memories and settings.
Each store records its own schema version:

- `settings`: `version` in `settings.json` (`desktop_app.config.settings.SETTINGS_VERSION`);
- `index`: `schema_version` in the active generation's `index_meta.json`
  (`desktop_app.retrieval.index.SCHEMA_VERSION`);
- `state`: the `state` row of the `schema_versions` table in `state.sqlite3` (memories,
  conversations, consents; `desktop_app.state_db.SCHEMA_VERSION`).

The memory search index (`data_dir/memory`) is derived data: the memory service rebuilds it
from `state.sqlite3` whenever it is out of sync, so it needs no migration of its own.

`migrate_data_dir(paths)` runs at start-up, before any store is opened. It first reads every
version and refuses, changing nothing, when any store was written by a newer Acervo
(downgrades are not supported); then it upgrades each older store one version at a time with
the steps registered in `STEPS` and returns a line per step for the log. Rules for a step:
it upgrades from exactly version N to N+1 and records N+1 itself, last; it must be safe to
re-run after a crash (an index step builds a new generation and switches `current.json`, like
reindex does; a settings step writes atomically; a state step runs in one transaction).

Index schema 2 (OCR columns on chunks) is the first real step; the data folder written by
release 1 (tests/fixtures/datadir-v1) proves it keeps the library.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.config.paths import AppPaths
from desktop_app.config.settings import SETTINGS_VERSION
from desktop_app.errors import AppError

log = logging.getLogger(__name__)

# The versions this build writes. The index and state numbers are the owning modules' own
# constants, read lazily (importing those modules would pull heavy libraries in early).
STATE_COMPONENT = "state"

MigrationStep = Callable[[AppPaths], None]


def current_versions() -> dict[str, int]:
    """What this build of Acervo writes, per store."""
    from desktop_app.retrieval.index import SCHEMA_VERSION as INDEX_VERSION
    from desktop_app.state_db import SCHEMA_VERSION as STATE_VERSION

    return {"settings": SETTINGS_VERSION, "index": INDEX_VERSION, "state": STATE_VERSION}


def _index_step(from_version: int) -> MigrationStep:
    """Index schema `from_version` → `from_version` + 1 on the active generation; what each
    step does and why is in `retrieval.index.GENERATION_UPGRADES` (2: OCR columns, 3:
    folders with "/", 4: revoked ranges and structural paths, 5: keyword terms analysed
    again after a stemmer change, 6: the version of reading each document was indexed with,
    7 and 8: keyword terms analysed again after other stemmer changes)."""
    def step(paths: AppPaths) -> None:
        from desktop_app.retrieval.index import GENERATION_UPGRADES

        generation = active_index_generation(paths)
        if generation is not None:
            GENERATION_UPGRADES[from_version](generation)
    return step


# store → {from_version: step that upgrades from_version → from_version + 1}.
STEPS: dict[str, dict[int, MigrationStep]] = {
    "settings": {}, "index": {version: _index_step(version) for version in (1, 2, 3, 4, 5, 6, 7)},
    "state": {}}


class NewerDataError(AppError):
    """A store was written by a newer Acervo; this version must not touch it."""


@dataclass(frozen=True)
class StoreVersion:
    store: str
    found: int | None  # None: the store does not exist yet (a fresh install)
    current: int
    where: Path

    @property
    def is_newer(self) -> bool:
        return self.found is not None and self.found > self.current

    @property
    def needs_upgrade(self) -> bool:
        return self.found is not None and self.found < self.current


# ---- reading versions -------------------------------------------------------------------


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None  # unreadable: the store's own loader reports or repairs it
    return data if isinstance(data, dict) else None


def settings_version(paths: AppPaths) -> int | None:
    data = _read_json(paths.settings_file)
    if data is None:
        return None
    version = data.get("version", 1)
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def active_index_generation(paths: AppPaths) -> Path | None:
    """Folder of the generation `current.json` points at, or None when there is no index."""
    from desktop_app.retrieval.index import POINTER_FILE

    pointer = _read_json(paths.index_dir / POINTER_FILE)
    generation = pointer.get("generation") if pointer else None
    if not isinstance(generation, str) or not generation:
        return None
    return paths.index_dir / generation


def index_version(paths: AppPaths) -> int | None:
    from desktop_app.retrieval.index import META_FILE

    generation = active_index_generation(paths)
    meta = _read_json(generation / META_FILE) if generation else None
    if meta is None:
        return None
    return int(meta.get("schema_version", 1))  # release 1 always wrote it


def state_version(paths: AppPaths) -> int | None:
    if not paths.state_db.is_file():
        return None
    try:
        # read-only: opening must not create tables in a database from another version
        conn = sqlite3.connect(f"file:{paths.state_db}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT version FROM schema_versions WHERE component = ?",
                               (STATE_COMPONENT,)).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None  # not yet initialised (or unreadable): the state store handles it
    return int(row[0]) if row else None


_READERS: dict[str, tuple[Callable[[AppPaths], int | None], Callable[[AppPaths], Path]]] = {
    "settings": (settings_version, lambda p: p.settings_file),
    "index": (index_version, lambda p: p.index_dir),
    "state": (state_version, lambda p: p.state_db),
}


def data_dir_versions(paths: AppPaths) -> list[StoreVersion]:
    """Version found and version written by this build, for every store (doctor, tests)."""
    current = current_versions()
    return [StoreVersion(store, read(paths), current[store], where(paths))
            for store, (read, where) in _READERS.items()]


# ---- upgrading --------------------------------------------------------------------------


def check_not_newer(versions: list[StoreVersion]) -> None:
    newer = [v for v in versions if v.is_newer]
    if not newer:
        return
    parts = ", ".join(f"{v.store} schema {v.found} (this version reads up to {v.current})"
                      for v in newer)
    raise NewerDataError(
        "Your Acervo data was written by a newer version of Acervo and this version cannot "
        f"open it safely: {parts}. Install the newer Acervo again to use it; nothing was "
        f"changed. (Data folder: {newer[0].where.parent})",
        detail=parts,
    )


def migrate_data_dir(paths: AppPaths,
                     steps: dict[str, dict[int, MigrationStep]] | None = None) -> list[str]:
    """Upgrade every older store step by step; returns what was done (empty: all current).

    Raises `NewerDataError` (an `AppError`) before changing anything when a store is newer
    than this build, and `AppError` when an older store has no upgrade path.
    """
    steps = STEPS if steps is None else steps
    versions = data_dir_versions(paths)
    check_not_newer(versions)
    done: list[str] = []
    for found in versions:
        if not found.needs_upgrade:
            continue
        assert found.found is not None
        version = found.found
        while version < found.current:
            step = steps.get(found.store, {}).get(version)
            if step is None:
                raise AppError(
                    f"Acervo cannot upgrade your {found.store} data from schema {version} to "
                    f"{found.current} (no upgrade step). Your data is unchanged; please report "
                    "this.")
            log.info("upgrading %s from schema %d to %d", found.store, version, version + 1)
            step(paths)
            reread = _READERS[found.store][0](paths)
            if reread != version + 1:
                raise AppError(f"Upgrading your {found.store} data to schema {version + 1} did "
                               "not complete. Acervo will retry on the next start.",
                               detail=f"version after step: {reread}")
            done.append(f"{found.store}: schema {version} → {version + 1}")
            version += 1
    return done
