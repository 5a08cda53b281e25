"""Many analysts at once on one team library: client processes that ingest and search together.

Each client is a separate process with its own connection and role. All start at
the same moment (a barrier) and add the *same* documents in their own order,
searching between adds, so every document is raced by every client. Afterwards
`verify` counts what the library holds: each document exactly once, with all of
its chunks and vectors. Used by the concurrency test and `bench/team.py`.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from desktop_app.retrieval.index import DocumentRecord
from desktop_app.retrieval.types import Chunk


@dataclass(frozen=True)
class StressDocument:
    record: DocumentRecord
    chunks: tuple[Chunk, ...]
    vectors: np.ndarray


@dataclass(frozen=True)
class StressClient:
    url: str
    password: str
    collection: str


@dataclass
class ClientReport:
    added: int = 0
    already_there: int = 0
    searches: int = 0
    search_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class StressResult:
    clients: int
    documents_expected: int
    documents_found: int
    lost_documents: int
    duplicate_documents: int
    incomplete_documents: int
    adds_won: int
    errors: list[str]
    seconds: float
    search_p50_ms: float


def _client(client: StressClient, documents: list[StressDocument],
            queries: list[tuple[str, np.ndarray]], seed: int, barrier: Any) -> ClientReport:
    import psycopg

    from desktop_app.retrieval.pg_index import PgIndex

    report = ClientReport()
    index = PgIndex(lambda: psycopg.connect(client.url, password=client.password,
                                            connect_timeout=30),
                    library="stress", current_embedder_id=documents[0].record.embedder_id,
                    collection=client.collection)
    order = list(range(len(documents)))
    random.Random(seed).shuffle(order)
    barrier.wait()
    for n, i in enumerate(order):
        doc = documents[i]
        try:
            if index.add_document(doc.record, doc.chunks, doc.vectors):
                report.added += 1
            else:
                report.already_there += 1
            text, vector = queries[(seed + n) % len(queries)]
            t0 = time.perf_counter()
            index.search_keyword(text, 10, None)
            index.search_vector(vector, 10, None)
            report.search_ms.append((time.perf_counter() - t0) * 1000)
            report.searches += 1
        except Exception as exc:  # reported, never swallowed: the caller fails on any
            report.errors.append(f"{type(exc).__name__}: {exc}")
    index.close()
    return report


def run_clients(clients: list[StressClient], documents: list[StressDocument],
                queries: list[tuple[str, np.ndarray]]) -> tuple[list[ClientReport], float]:
    """Run one process per client; returns their reports and the wall time."""
    context = multiprocessing.get_context("spawn")  # no inherited connections or threads
    with context.Manager() as manager:
        barrier = manager.Barrier(len(clients))
        with context.Pool(len(clients)) as pool:
            t0 = time.perf_counter()
            pending = [pool.apply_async(_client, (c, documents, queries, seed, barrier))
                       for seed, c in enumerate(clients)]
            reports = [p.get(timeout=1800) for p in pending]
            return reports, time.perf_counter() - t0


def verify(admin_conn: Any, collection: str, documents: list[StressDocument],
           reports: list[ClientReport], seconds: float) -> StressResult:
    """Count, as the owner, what the collection holds against what the clients added."""
    rows = admin_conn.execute(
        """SELECT d.content_hash, d.chunk_count,
                  (SELECT count(*) FROM acervo.chunks c WHERE c.doc_key = d.doc_key),
                  (SELECT count(*) FROM acervo.chunk_vectors v WHERE v.doc_key = d.doc_key)
           FROM acervo.documents d JOIN acervo.collections k USING (collection_id)
           WHERE k.name = %s""", (collection,)).fetchall()
    expected = {d.record.content_hash for d in documents}
    found = Counter(r[0] for r in rows)
    samples = [ms for r in reports for ms in r.search_ms]
    return StressResult(
        clients=len(reports), documents_expected=len(expected),
        documents_found=len(set(found) & expected),
        lost_documents=len(expected - set(found)),
        duplicate_documents=sum(n - 1 for n in found.values()),
        incomplete_documents=sum(1 for _, n, c, v in rows if not n == c == v),
        adds_won=sum(r.added for r in reports),
        errors=[e for r in reports for e in r.errors], seconds=round(seconds, 1),
        search_p50_ms=round(float(np.percentile(samples, 50)), 2) if samples else 0.0)
