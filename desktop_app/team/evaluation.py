"""The retrieval evaluation on the PostgreSQL backend: the same chunks, vectors and queries.

The BEIR corpus is indexed once by the local evaluation (chunked and embedded into
LanceDB, cached); its rows are copied unchanged into a collection of a team
server, read back through an analyst role under row-level security — the path a
user's question takes — so a difference in nDCG can only come from the backend.
Without a URL, a trial server is started in the cache folder (pgserver).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from itertools import groupby
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import AppError
from desktop_app.retrieval.index import DocumentRecord, LanceIndex
from desktop_app.retrieval.index_api import chunk_text_hash
from desktop_app.retrieval.pg_connection import server_errors
from desktop_app.retrieval.pg_index import PgIndex
from desktop_app.retrieval.types import Chunk

EVAL_USER = "acervo_eval"
EVAL_LIBRARY = "evaluation"


def eval_server_urls(cache_dir: Path) -> tuple[str, str, Any]:
    """(owner URL, URL template for a user, the server) of a trial server for evaluations."""
    from desktop_app.team.trial import start_trial_server

    server = start_trial_server(cache_dir / "eval-postgres", stop_at_exit=True)
    return server.admin_url(), server.user_url(EVAL_USER), server


def indexed_documents(source: LanceIndex) -> Iterator[tuple[DocumentRecord, list[Chunk],
                                                             np.ndarray]]:
    """Every document of a local index as it was added: record, chunks, their vectors."""
    records = {d.doc_id: d for d in source.documents()}
    for doc_id, group in groupby(source.iter_chunks(), key=lambda r: r.doc_id):
        if doc_id not in records:
            continue
        vectors = source.chunk_vectors_by_hash(doc_id)
        chunks = [Chunk(doc_id, r.position, r.text, r.page_start, r.page_end, r.heading_path,
                        r.char_start, r.char_end, r.prefix, r.ocr_confidence, r.ocr_boxes,
                        r.revoked, r.path)
                  for r in group]
        yield records[doc_id], chunks, np.stack([vectors[chunk_text_hash(c)] for c in chunks])


def copy_index(source: LanceIndex, target: PgIndex,
               progress: Callable[[int, int], None] | None = None,
               skip: frozenset[str] = frozenset()) -> int:
    """Every document of `source` (but those whose content hash is in `skip`) with its chunks
    and vectors into `target`; returns the documents added."""
    total = len(source.documents())
    added = 0
    for done, (record, chunks, vectors) in enumerate(indexed_documents(source), start=1):
        if record.content_hash not in skip:
            added += target.add_document(record, chunks, vectors)
        if progress:
            progress(done, total)
    return added


def open_eval_team_index(source: LanceIndex, *, collection: str, admin_url: str,
                         user_url: str, embedder_id: str, dim: int, ranking: str = "bm25",
                         progress: Callable[[int, int], None] | None = None) -> PgIndex:
    """A team collection holding exactly `source`'s rows (copied once, then reused)."""
    import psycopg

    from desktop_app.team import admin

    password = secrets.token_urlsafe(16)
    try:
        with server_errors(EVAL_LIBRARY):  # a full server disk can refuse the connection
            conn = psycopg.connect(admin_url, autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as exc:
        raise AppError(f"Cannot connect to the evaluation server: {exc}") from exc
    with server_errors(EVAL_LIBRARY), conn:
        admin.init_server(conn, embedder_id=embedder_id, dim=dim)
        admin.add_collection(conn, collection)
        admin.add_user(conn, EVAL_USER, password)
        # the evaluation user reads this corpus only (other sets live in other collections)
        conn.execute("DELETE FROM acervo.grants WHERE grantee = %s", (EVAL_USER,))
        admin.grant(conn, EVAL_USER, collection, write=True)

    def connect() -> Any:
        return psycopg.connect(user_url, password=password, connect_timeout=10)

    index = PgIndex(connect, library=EVAL_LIBRARY, current_embedder_id=embedder_id,
                    collection=collection, keyword_ranking=ranking)
    wanted = {d.content_hash: d.chunk_count for d in source.documents()}
    have = {d.content_hash: d.chunk_count for d in index.documents()}
    if have != wanted:  # a stale or interrupted copy: replace what differs, add what is missing
        stale = [h for h, n in have.items() if wanted.get(h) != n]
        with server_errors(index.library), psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute("DELETE FROM acervo.documents d USING acervo.collections c "
                         "WHERE d.collection_id = c.collection_id AND c.name = %s "
                         "AND d.content_hash = ANY(%s)", (collection, stale))
        copy_index(source, index, progress, skip=frozenset(have) - frozenset(stale))
        with server_errors(index.library), psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute("VACUUM (ANALYZE) acervo.documents, acervo.chunks, "
                         "acervo.chunk_terms, acervo.chunk_vectors")  # fresh statistics
    return index
