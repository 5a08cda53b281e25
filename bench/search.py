"""Search latency at 60,000 chunks: keyword, vector (flat and IVF_HNSW_SQ), hybrid, vs numpy.

Embedding 60k real chunks takes ~1.5 h here, so the corpus is built from BASE real
passages (SciFact, FaQuAD, Pirá; embedded for real) replicated to 60k rows: each
replica's vector is the base vector plus small Gaussian noise (renormalized) and
its text gets a distinct marker token. Queries are real questions embedded for
real; latencies exclude query embedding (reported separately). All legs run
side by side in one process on the same rows, so ratios are comparable.
Usage: python bench/search.py [--rows 60000] [--base 1500] [--queries 100]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from _common import EVAL, percentiles, save, shared_models_dir, temp_home


def _passages(limit: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name in ("faquad_pt", "pira_pt", "scifact"):
        with (EVAL / "retrieval" / name / "corpus.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                out.append((d.get("title") or d["_id"], d["text"][:1000]))
                if len(out) >= limit * (1 + ("faquad_pt", "pira_pt", "scifact").index(name)) // 3:
                    break
    return out[:limit]


def _queries(limit: int) -> list[str]:
    qs: list[str] = []
    for name in ("faquad_pt", "scifact"):
        with (EVAL / "retrieval" / name / "queries.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                qs.append(json.loads(line)["text"])
                if len(qs) >= limit // 2 * (1 + (name == "scifact")):
                    break
    return qs[:limit]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=60_000)
    ap.add_argument("--base", type=int, default=1500)
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args()
    home = temp_home("search")
    from desktop_app.config.settings import Settings
    from desktop_app.ingest.pipeline import compose_embedding_text
    from desktop_app.modelprep import ensure_e5_model
    from desktop_app.retrieval.embedder import E5Embedder
    from desktop_app.retrieval.index import DocumentRecord, LanceIndex
    from desktop_app.retrieval.search import HybridSearcher
    from desktop_app.retrieval.types import Chunk

    embedder = E5Embedder(ensure_e5_model(shared_models_dir()))
    base = _passages(args.base)
    t0 = time.perf_counter()
    base_vecs = np.concatenate([embedder.embed_passages([compose_embedding_text(t, x)
                                                         for t, x in base[i:i + 32]])
                                for i in range(0, len(base), 32)])
    embed_s = time.perf_counter() - t0
    print(f"embedded {len(base)} base passages in {embed_s:.1f}s")
    rng = np.random.default_rng(7)
    index = LanceIndex.open(home / "index", embedder_id=embedder.id, dim=embedder.dim)
    all_vecs = []
    per_doc = 200
    now = "2026-11-30T00:00:00Z"
    for d0 in range(0, args.rows, per_doc):
        ids = range(d0, min(d0 + per_doc, args.rows))
        doc_id = f"doc{d0 // per_doc:04}"
        chunks, texts, vecs = [], [], []
        for pos, i in enumerate(ids):
            title, text = base[i % len(base)]
            text = f"{text} marker{i}"
            chunks.append(Chunk(doc_id, pos, text, 1, 1, (), 0, len(text), title))
            texts.append(compose_embedding_text(title, text))
            v = base_vecs[i % len(base)] + rng.normal(0, 0.02, embedder.dim)
            vecs.append(v / np.linalg.norm(v))
        arr = np.asarray(vecs, dtype=np.float32)
        all_vecs.append(arr)
        record = DocumentRecord(doc_id, doc_id, f"/bench/{doc_id}.txt", "txt", "und", 1, doc_id,
                                1, len(chunks), now, now, embedder.id)
        index.add_document(record, chunks, arr)
    index.purge()
    matrix = np.concatenate(all_vecs)
    print(f"index: {index.stats().chunks} chunks")

    queries = _queries(args.queries)
    t0 = time.perf_counter()
    qvecs = [embedder.embed_query(q) for q in queries]
    embed_query_ms = (time.perf_counter() - t0) * 1000 / len(queries)
    settings = Settings()
    searcher = HybridSearcher(index, embedder, settings)

    def timed(fn) -> list[float]:  # type: ignore[no-untyped-def]
        fn(0)  # warm-up
        out = []
        for i in range(len(queries)):
            t = time.perf_counter()
            fn(i)
            out.append((time.perf_counter() - t) * 1000)
        return out

    results: dict[str, object] = {"rows": args.rows, "base_passages": len(base),
                                  "queries": len(queries),
                                  "query_embedding_ms": round(embed_query_ms, 1)}
    results["numpy_bruteforce"] = percentiles(timed(
        lambda i: np.argpartition(-(matrix @ qvecs[i]), 40)[:40]))
    results["keyword"] = percentiles(timed(
        lambda i: index.search_keyword(queries[i], 40, None)))
    results["vector_flat"] = percentiles(timed(lambda i: index.search_vector(qvecs[i], 40, None)))
    results["hybrid_flat"] = percentiles(timed(
        lambda i: searcher.search(queries[i], k=10, query_vector=qvecs[i])))
    flat_top = [[r.key for r in index.search_vector(q, 10, None)] for q in qvecs]
    t0 = time.perf_counter()
    index.ensure_vector_index(min_rows=0)
    results["ann_build_s"] = round(time.perf_counter() - t0, 1)
    results["vector_ivf_hnsw_sq"] = percentiles(timed(
        lambda i: index.search_vector(qvecs[i], 40, None)))
    results["hybrid_ivf_hnsw_sq"] = percentiles(timed(
        lambda i: searcher.search(queries[i], k=10, query_vector=qvecs[i])))
    ann_top = [[r.key for r in index.search_vector(q, 10, None)] for q in qvecs]
    results["ann_recall@10_vs_flat"] = round(float(np.mean(
        [len(set(a) & set(f)) / 10 for a, f in zip(ann_top, flat_top, strict=True)])), 3)
    for key, value in results.items():
        print(f"{key:24} {value}")
    save("search", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
