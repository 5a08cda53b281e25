"""Many analysts at once on one team library: client processes that ingest and search together.

Each client is a separate process with its own connection and role. All start at
the same moment (a barrier) and add the *same* documents in their own order,
searching between adds, so every document is raced by every client. Between
adds each client also probes a collection it was never granted (its documents'
own words and vectors as queries, and plain SQL): any row of it that comes back
is a row-level-security leak. Afterwards `verify` counts what the library holds:
each document exactly once, with all of its chunks and vectors. `race` does the
whole thing (users, grants, run, count); the concurrency test and `bench/team.py`
both call it.
"""

from __future__ import annotations

import multiprocessing
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from desktop_app.ingest.types import Chunk
from desktop_app.retrieval.index import DocumentRecord


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
    hidden: tuple[StressDocument, ...] = ()  # in a collection this client may not read


@dataclass
class ClientReport:
    added: int = 0
    already_there: int = 0
    searches: int = 0
    search_ms: list[float] = field(default_factory=list)
    probes: int = 0
    leaked_rows: int = 0
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
    adds_found_there: int
    searches: int
    errors: list[str]
    seconds: float
    search_p50_ms: float
    rls_probes: int = 0
    rls_leaks: int = 0
    rls_control_rows: int = 0  # what the same probe finds for the hidden documents' owner


def _client(client: StressClient, documents: list[StressDocument],
            queries: list[tuple[str, np.ndarray]], seed: int, barrier: Any) -> ClientReport:
    import psycopg

    from desktop_app.retrieval.pg_index import PgIndex

    report = ClientReport()
    index = PgIndex(lambda: psycopg.connect(client.url, password=client.password,
                                            connect_timeout=30),
                    library="stress", current_embedder_id=documents[0].record.embedder_id,
                    collection=client.collection)
    probe_conn = psycopg.connect(client.url, password=client.password, autocommit=True,
                                 connect_timeout=30)
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
            if client.hidden:
                report.leaked_rows += _probe(index, probe_conn,
                                             client.hidden[n % len(client.hidden)])
                report.probes += 1
        except Exception as exc:  # reported, never swallowed: the caller fails on any
            report.errors.append(f"{type(exc).__name__}: {exc}")
    index.close()
    probe_conn.close()
    return report


def _probe(index: Any, conn: Any, hidden: StressDocument) -> int:
    """Rows of `hidden` that come back every way a user can look for it (its words, its vector,
    the document list, plain SQL on the same server); 0 when row-level security holds."""
    rows = [h.row for h in index.search_keyword(" ".join(c.text for c in hidden.chunks), 50,
                                                None)]
    rows += [h.row for h in index.search_vector(hidden.vectors[0], 50, None)]
    seen = sum(1 for r in rows if r.doc_id == hidden.record.doc_id
               or r.source_path == hidden.record.source_path)
    seen += sum(1 for d in index.documents() if d.content_hash == hidden.record.content_hash)
    seen += int(conn.execute(
        "SELECT (SELECT count(*) FROM acervo.documents WHERE content_hash = %s)"
        " + (SELECT count(*) FROM acervo.chunks WHERE text = ANY(%s))"
        " + (SELECT count(*) FROM acervo.audit WHERE content_hash = %s)",
        (hidden.record.content_hash, [c.text for c in hidden.chunks],
         hidden.record.content_hash)).fetchone()[0])
    return seen


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
        adds_found_there=sum(r.already_there for r in reports),
        searches=sum(r.searches for r in reports),
        errors=[e for r in reports for e in r.errors], seconds=round(seconds, 1),
        search_p50_ms=round(float(np.percentile(samples, 50)), 2) if samples else 0.0,
        rls_probes=sum(r.probes for r in reports), rls_leaks=sum(r.leaked_rows for r in reports))


def race(admin_conn: Any, user_url: Callable[[str], str], documents: list[StressDocument],
         queries: list[tuple[str, np.ndarray]], *, hidden: list[StressDocument],
         clients: int = 8, collection: str = "compartilhada",
         hidden_collection: str = "restrita") -> StressResult:
    """`clients` analysts race `documents` into one collection while probing `hidden`, which
    another user keeps in a collection none of them is granted. `admin_conn`: the owner."""
    import psycopg

    from desktop_app.retrieval.pg_index import PgIndex
    from desktop_app.team import admin

    keeper, keeper_password = "guardiao", secrets.token_urlsafe(16)
    admin.add_collection(admin_conn, collection)
    admin.add_collection(admin_conn, hidden_collection)
    admin.add_user(admin_conn, keeper, keeper_password)
    admin.grant(admin_conn, keeper, hidden_collection, write=True)
    def keeper_connect() -> Any:
        return psycopg.connect(user_url(keeper), password=keeper_password, autocommit=True)

    keeper_index = PgIndex(keeper_connect, library="stress", collection=hidden_collection,
                           current_embedder_id=hidden[0].record.embedder_id)
    stored = []
    for doc in hidden:
        keeper_index.add_document(doc.record, doc.chunks, doc.vectors)
        found = keeper_index.document_by_hash(doc.record.content_hash)
        stored.append(StressDocument(found or doc.record, doc.chunks, doc.vectors))
    with keeper_connect() as conn:  # the probe does find what one may read
        control = sum(_probe(keeper_index, conn, doc) for doc in stored)
    keeper_index.close()
    racers = []
    for n in range(1, clients + 1):
        user, password = f"analista{n}", secrets.token_urlsafe(16)
        admin.add_user(admin_conn, user, password)
        admin.grant(admin_conn, user, collection, write=True)
        racers.append(StressClient(user_url(user), password, collection, tuple(stored)))
    reports, seconds = run_clients(racers, documents, queries)
    result = verify(admin_conn, collection, documents, reports, seconds)
    result.rls_control_rows = control
    return result
