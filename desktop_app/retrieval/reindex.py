"""Blue/green reindex: rebuild the index with the current embedder beside the old one.

The old generation keeps serving (keyword-only if its embedder differs) until
the new one is complete; then the pointer switches atomically and the old
generation is deleted. Chunk text comes from the index itself, so source files
need not be present. A killed reindex leaves the old index active; the
half-built generation is discarded and rebuilt on the next attempt.

The whole rebuild holds the library's writer lock: a document another process added to
the old generation meanwhile would be lost at the switch, so other writers wait (and are
told why) until the new generation is active.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from desktop_app.errors import CancelledError
from desktop_app.retrieval.index import LanceIndex, next_generation_name, switch_generation
from desktop_app.retrieval.index_api import ChunkRow, compose_embedding_text
from desktop_app.retrieval.types import Chunk, Embedder

ReindexStage = Literal["documents", "switching", "done"]


@dataclass(frozen=True)
class ReindexProgress:
    """One step of a reindex: a document re-embedded ("documents"), then the old versions
    purged and the pointer switched ("switching": no longer cancellable, may take a while
    on a large library), then the new generation active ("done")."""

    documents_done: int
    documents_total: int
    stage: ReindexStage = "documents"


def reindex(root: Path, old: LanceIndex, embedder: Embedder, *,
            cancel: Callable[[], bool] | None = None) -> Iterator[ReindexProgress]:
    """Re-embed every chunk of `old` into a new generation under `root`, then switch."""
    cancelled = cancel or (lambda: False)
    with old.writing("reindexing the library", cancel=cancelled):
        yield from _rebuild(root, old, embedder, cancelled)


def _rebuild(root: Path, old: LanceIndex, embedder: Embedder,
             cancelled: Callable[[], bool]) -> Iterator[ReindexProgress]:

    generation = next_generation_name(root)
    target_dir = root / generation
    shutil.rmtree(target_dir, ignore_errors=True)
    new = LanceIndex.open_generation(target_dir, embedder_id=embedder.id, dim=embedder.dim,
                                     writer=old.writer)
    rows_by_doc: dict[str, list[ChunkRow]] = {}
    for row in old.iter_chunks():
        rows_by_doc.setdefault(row.doc_id, []).append(row)
    documents = old.documents()

    def stop_if_cancelled() -> None:
        if cancelled():
            raise CancelledError("Reindex cancelled; the previous index is still active.")

    try:
        for n, record in enumerate(documents, start=1):
            stop_if_cancelled()
            chunks = [
                Chunk(doc_id=r.doc_id, position=r.position, text=r.text,
                      page_start=r.page_start, page_end=r.page_end,
                      heading_path=r.heading_path, char_start=r.char_start,
                      char_end=r.char_end, prefix=r.prefix,
                      ocr_confidence=r.ocr_confidence, ocr_boxes=r.ocr_boxes,
                      revoked=r.revoked, path=r.path)
                for r in rows_by_doc.get(record.doc_id, [])
            ]
            texts = [compose_embedding_text(c.prefix, c.text, c.revoked) for c in chunks]
            vectors = (embedder.embed_passages(texts) if texts
                       else np.zeros((0, embedder.dim), dtype=np.float32))
            new.add_document(replace(record, embedder_id=embedder.id), chunks, vectors)
            yield ReindexProgress(n, len(documents))
        stop_if_cancelled()  # pressed while the last document was embedded: not switched
        yield ReindexProgress(len(documents), len(documents), "switching")
        new.purge()
    except BaseException:
        shutil.rmtree(target_dir, ignore_errors=True)
        raise
    switch_generation(root, generation)
    yield ReindexProgress(len(documents), len(documents), "done")
