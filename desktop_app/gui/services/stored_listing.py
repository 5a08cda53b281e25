"""The library's listing as the last refresh read it, kept so the next start shows the
documents at once — before the index is opened (importing LanceDB alone takes seconds on a
busy laptop) and before any model loads.

Stored in the cache folder (`library-listing.json`): the documents' records (title, file,
pages, passages, dates — what the index's documents table holds, no passage text) and the
index's figures, with a marker of the index's state when it was read: the active
generation and the modification time of its documents table's version folder (LanceDB
adds a manifest there on every write). A listing whose marker differs (another process
ingested or removed since) is not used: the window waits for the index instead, so a
removed document is never listed again from here. Rewritten on every refresh; a cache, not
state (deleting it only makes the next start wait for the index).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from typing import TYPE_CHECKING

from desktop_app.retrieval.index_api import DocumentRecord

if TYPE_CHECKING:
    from desktop_app.config.paths import AppPaths
    from desktop_app.gui.services.library import LibraryListing

FILE = "library-listing.json"
FORMAT = 1


def index_marker(paths: AppPaths) -> str | None:
    """The index's state, read from its files without opening it (None: no index, or a
    layout this does not know, so no stored listing is trusted)."""
    pointer = paths.index_dir / "current.json"
    try:
        generation = str(json.loads(pointer.read_text(encoding="utf-8"))["generation"])
        versions = paths.index_dir / generation / "documents.lance" / "_versions"
        return f"{generation}:{versions.stat().st_mtime_ns}"
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(paths: AppPaths, listing: LibraryListing) -> None:
    marker = index_marker(paths)
    if marker is None:
        return
    data = {"format": FORMAT, "marker": marker,
            "summary": dataclasses.asdict(listing.summary),
            "documents": [dataclasses.asdict(d) for d in listing.documents]}
    target = paths.cache_dir / FILE
    tmp = target.with_name(f".{FILE}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):  # a cache: a full disk only costs the next start
        paths.cache_dir.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        tmp.replace(target)
    with contextlib.suppress(OSError):
        tmp.unlink()


def load(paths: AppPaths) -> LibraryListing | None:
    from desktop_app.gui.services.library import IndexSummary, LibraryListing

    marker = index_marker(paths)
    if marker is None:
        return None
    try:
        data = json.loads((paths.cache_dir / FILE).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("marker") != marker:
            return None
        summary = IndexSummary(**data["summary"])
        documents = [DocumentRecord(**{**d, "notes": tuple(d.get("notes") or ())})
                     for d in data["documents"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return LibraryListing(documents, summary)


def forget(paths: AppPaths) -> None:
    with contextlib.suppress(OSError):
        (paths.cache_dir / FILE).unlink()

