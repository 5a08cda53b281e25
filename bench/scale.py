"""Search and ingest as the local library grows: 10k, 60k, 300k and 1M passages, in one run.

Usage: python bench/scale.py [--sizes 10000,60000,300000,1000000] [--queries 100]
                             [--embed-only] [--keep]

Data. The base is up to 10,000 real passages: the evaluation corpora (SciFact, FaQuAD, Pirá)
cut into passages of at most 120 words, a random mix, embedded for real with the app's
embedder (ONNX int8-split; cached in $ACERVO_SCALE_CACHE, default /tmp/acervo-scale: at
~1 passage/s on two busy cores, `--embed-only` runs for hours; `--base N` uses the first N
already embedded). Beyond the base every row is
a variant of a base passage b: its vector is v_b plus Gaussian noise, renormalised, with the
noise sized so that a variant sits from its base at the cosine of a real passage to its real
nearest neighbour (the median over the base, measured here): a replica is as far from its
source as real neighbours are from each other, so the ANN index must rank thousands of
near-ties — harder than real data, not easier. Its text is the base passage's words rotated
by a random offset with ~20% of them dropped, plus a unique token; its keyword column is the
base's analysed tokens varied the same way (analysing 1M texts would take ~30 min).
Queries are real questions of the three sets, embedded by the searcher (timed).

One library grows from size to size (rows appended in bulk, as an ingest's writes would
leave them, then compacted); at each size:
- index_build_s: the keyword (FTS) index and the vector index (IVF_RQ from 50k rows;
  desktop_app/retrieval/index.py) built from scratch over the whole table (`--ann-variants`:
  at 60k also the previous IVF_HNSW_SQ and other probe settings);
- hybrid_p50/p95_ms: `HybridSearcher.search(query)` as the app runs it, embedding included;
  keyword_p50/p95_ms (the keyword leg alone) and vector_p50/p95_ms (the vector leg alone);
- ann_recall_at_10: the vector leg's top 10 against the exact top 10 (numpy, all rows);
- disk_mb; idle_rss_mb: a fresh process that opens the library the way the app does
  (App.index, App.embedder), answers 5 searches, then idles 3 s: its RSS (no window, no LLM:
  those add a constant, docs/measurements.md "The bundle");
- documents_list_ms: `index.documents()` (what `documents list` and the library view read);
- at the largest size, 100 documents (10 passages each) added through `add_document` while a
  second thread searches without pause: add time, searches answered / failed meanwhile and
  their p50/p95, then `optimize()` (folds the new rows into both indexes).
Records the load average (timings are noisy on a shared machine) and saves
bench/results/scale.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import EVAL, REPO, percentiles, save

SIZES = (10_000, 60_000, 300_000, 1_000_000)
BASE_PASSAGES = 10_000
PASSAGE_WORDS = 120
PER_DOC = 50  # passages per document in the synthetic library
BATCH_ROWS = 25_000
NOISE_BLOCK = 1000
CACHE = Path(os.environ.get("ACERVO_SCALE_CACHE", "/tmp/acervo-scale"))
NOW = "2026-12-01T00:00:00Z"
SETS = ("faquad_pt", "pira_pt", "scifact")


def load_avg() -> float:
    return round(os.getloadavg()[0], 2)


# ---- data ---------------------------------------------------------------------------------

def base_passages(limit: int = BASE_PASSAGES) -> list[tuple[str, str, str]]:
    """(set, title, text) of real passages: each corpus document cut into <= 120 words."""
    out: list[tuple[str, str, str]] = []
    for name in SETS:
        with (EVAL / "retrieval" / name / "corpus.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                words = d["text"].split()
                for start in range(0, len(words), PASSAGE_WORDS):
                    piece = words[start:start + PASSAGE_WORDS]
                    if len(piece) >= 20 or start == 0:
                        out.append((name, d.get("title") or d["_id"], " ".join(piece)))
    rng = np.random.default_rng(11)
    order = rng.permutation(len(out))[:limit]  # a mix of the three sets
    return [out[i] for i in sorted(order)]


def real_queries(limit: int) -> list[str]:
    per = {name: [json.loads(x)["text"] for x in
                  (EVAL / "retrieval" / name / "queries.jsonl").open(encoding="utf-8")]
           for name in SETS}
    out: list[str] = []
    i = 0
    while len(out) < limit:
        for name in SETS:
            if i < len(per[name]) and len(out) < limit:
                out.append(per[name][i])
        i += 1
    return out


def embedder() -> Any:
    from desktop_app.modelprep import open_embedder

    models = Path(os.environ.get("ACERVO_TEST_MODELS") or os.environ.get(
        "ACERVO_BENCH_MODELS") or CACHE / "models")
    return open_embedder(models, backend="onnx", precision="int8-split", threads=2)


def embedded_base(limit: int = BASE_PASSAGES,
                  ) -> tuple[list[tuple[str, str, str]], np.ndarray, list[str]]:
    """The first `limit` base passages, their real vectors and analysed keyword text (the
    vectors cached; a run may use the first `limit` of a partial cache)."""
    from desktop_app.ingest.pipeline import compose_embedding_text
    from desktop_app.text.analyze import analyze

    passages = base_passages()
    CACHE.mkdir(parents=True, exist_ok=True)
    vec_file = CACHE / "base-vectors.npy"
    partial = CACHE / "base-vectors.partial.npy"
    for cached in (vec_file, partial):
        if limit < len(passages) or cached == vec_file:
            vectors = np.load(cached) if cached.is_file() else np.zeros((0, 1), np.float32)
            if len(vectors) >= limit:
                used = passages[:limit]
                return (used, vectors[:limit].astype(np.float32),
                        [analyze(compose_embedding_text(t, x)) for _s, t, x in used])
    model = embedder()
    done = np.load(partial) if partial.is_file() else np.zeros((0, model.dim), np.float32)
    started = time.perf_counter()
    for start in range(len(done), len(passages), 256):
        texts = [compose_embedding_text(t, x) for _s, t, x in passages[start:start + 256]]
        done = np.concatenate([done, model.embed_passages(texts)])
        np.save(partial, done)
        rate = (len(done) - start + 0.0) / max(time.perf_counter() - started, 1e-9)
        print(f"  embedded {len(done)}/{len(passages)} ({rate:.1f}/s since start)", flush=True)
    keywords = [analyze(compose_embedding_text(t, x)) for _s, t, x in passages]
    np.save(vec_file, done.astype(np.float32))
    partial.unlink(missing_ok=True)
    return passages, done.astype(np.float32), keywords


def neighbour_cosine(vectors: np.ndarray, sample: int = 2000) -> float:
    """Median cosine of a real passage to its nearest other real passage."""
    rng = np.random.default_rng(3)
    rows = rng.choice(len(vectors), size=min(sample, len(vectors)), replace=False)
    sims = vectors[rows] @ vectors.T
    sims[np.arange(len(rows)), rows] = -1.0
    return float(np.median(sims.max(axis=1)))


def noise_sigma(target_cosine: float, dim: int) -> float:
    """Per-dimension sigma so that E[cos(v, normalize(v + noise))] ~= target (|v| = 1)."""
    ratio = 1.0 / target_cosine ** 2 - 1.0  # |noise|^2 = dim * sigma^2
    return float(np.sqrt(max(ratio, 1e-6) / dim))


class Variants:
    """Rows [start, stop) of the library: real base rows first, then variants."""

    def __init__(self, passages: list[tuple[str, str, str]], vectors: np.ndarray,
                 keywords: list[str], sigma: float) -> None:
        self.passages, self.vectors, self.keywords, self.sigma = passages, vectors, keywords, sigma
        self.words = [x.split() for _s, _t, x in passages]
        self.tokens = [k.split() for k in keywords]

    def vectors_for(self, start: int, stop: int) -> np.ndarray:
        """Rows [start, stop): the same vectors whatever the range asked (noise is drawn per
        block of NOISE_BLOCK rows from that block's own seed)."""
        n, dim = len(self.passages), self.vectors.shape[1]
        out = self.vectors[np.arange(start, stop) % n].copy()
        for block in range(start // NOISE_BLOCK, -(-stop // NOISE_BLOCK)):
            lo, hi = block * NOISE_BLOCK, (block + 1) * NOISE_BLOCK
            noise = np.random.default_rng(block).normal(0.0, self.sigma, (NOISE_BLOCK, dim))
            a, b = max(lo, start, n), min(hi, stop)  # rows below n are the real ones
            if a >= b:
                continue
            varied = out[a - start:b - start] + noise[a - lo:b - lo].astype(np.float32)
            out[a - start:b - start] = varied / np.linalg.norm(varied, axis=1, keepdims=True)
        return out.astype(np.float32)

    def text_for(self, i: int, rng: np.random.Generator) -> tuple[str, str, str]:
        """(title, text, keyword column) of row i."""
        n = len(self.passages)
        base = i % n
        _set, title, text = self.passages[base]
        if i < n:
            return title, text, self.keywords[base]
        return (title, f"{_vary(self.words[base], rng)} ref{i}",
                f"{_vary(self.tokens[base], rng)} ref{i}")


def _vary(items: list[str], rng: np.random.Generator) -> str:
    if not items:
        return ""
    shift = int(rng.integers(len(items)))
    rotated = items[shift:] + items[:shift]
    keep = rng.random(len(rotated)) >= 0.2
    return " ".join(w for w, k in zip(rotated, keep, strict=True) if k)


# ---- building -----------------------------------------------------------------------------

def append_rows(index: Any, data: Variants, start: int, stop: int) -> None:
    """Bulk-append rows [start, stop) as whole documents of PER_DOC passages (chunks, then
    the document rows: the order add_document keeps)."""
    import pyarrow as pa

    from desktop_app.retrieval.index import _chunks_schema, _documents_schema

    rng = np.random.default_rng(start + 1)
    for lo in range(start, stop, BATCH_ROWS):
        hi = min(lo + BATCH_ROWS, stop)
        vectors = data.vectors_for(lo, hi)
        cols: dict[str, list[Any]] = {name: [] for name in _chunks_schema(index.dim).names}
        docs: dict[str, list[Any]] = {name: [] for name in _documents_schema().names}
        for i in range(lo, hi):
            doc, pos = divmod(i, PER_DOC)
            title, text, keywords = data.text_for(i, rng)
            doc_id = f"d{doc:06}"
            for name, value in (("chunk_id", f"c{i}"), ("doc_id", doc_id), ("position", pos),
                                ("text", text), ("prefix", title), ("search_text", keywords),
                                ("text_hash", f"h{i}"), ("page_start", 1), ("page_end", 1),
                                ("char_start", 0), ("char_end", len(text)),
                                ("heading_path", []), ("title", title),
                                ("source_path", f"/bench/{doc_id}.txt"), ("folder", "/bench"),
                                ("file_type", "txt"), ("language", "und"),
                                ("ingested_at", NOW), ("modified_at", NOW),
                                ("ocr_confidence", None), ("ocr_boxes", None), ("marks", None)):
                cols[name].append(value)
            if pos == PER_DOC - 1 or i == stop - 1:
                for name, value in (("doc_id", doc_id), ("title", title),
                                    ("source_path", f"/bench/{doc_id}.txt"), ("folder", "/bench"),
                                    ("file_type", "txt"), ("language", "und"), ("size", 1),
                                    ("content_hash", doc_id), ("page_count", 1),
                                    ("chunk_count", pos + 1), ("ingested_at", NOW),
                                    ("modified_at", NOW), ("embedder_id", index.embedder_id),
                                    ("notes", "[]")):
                    docs[name].append(value)
        schema = _chunks_schema(index.dim)
        arrays = []
        for field in schema:
            if field.name == "vector":
                arrays.append(pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors.ravel(), pa.float32()), index.dim))
            else:
                arrays.append(pa.array(cols[field.name], field.type))
        table = pa.Table.from_arrays(arrays, schema=schema)
        with index.writing("bench bulk load"):
            index._write(lambda t=table: index._chunks.add(t))
            index._write(lambda d=docs: index._docs.add(pa.Table.from_pydict(
                d, schema=_documents_schema())))
        print(f"    rows {hi:,}", flush=True)


def drop_indexes(index: Any) -> None:
    """Before a bulk append: the indexes are rebuilt from scratch afterwards (so compaction
    does not first fold hundreds of thousands of rows into the old ones)."""
    from desktop_app.retrieval.index import FTS_INDEX, VECTOR_INDEX

    names = {ix.name for ix in index._chunks.list_indices()}
    with index.writing("bench drop indexes"):
        for name in (FTS_INDEX, VECTOR_INDEX):
            if name in names:
                index._write(lambda n=name: index._chunks.drop_index(n))
    index._fts_ready = index._vector_indexed = False


def rebuild_indexes(index: Any) -> dict[str, float]:
    """Compact, then the keyword index and (from ANN_MIN_ROWS) the vector index from scratch."""
    from desktop_app.retrieval import lancedb_io
    from desktop_app.retrieval.index import ANN_MIN_ROWS

    out: dict[str, float] = {}
    t = time.perf_counter()
    index.purge()
    out["compact_s"] = round(time.perf_counter() - t, 1)
    t = time.perf_counter()
    with index.writing("bench fts"):
        index._write(lambda: lancedb_io.create_fts(index._chunks))
    index._fts_ready = True
    out["fts_build_s"] = round(time.perf_counter() - t, 1)
    t = time.perf_counter()
    if index.chunk_count() >= ANN_MIN_ROWS:
        index.ensure_vector_index()
    out["vector_index_build_s"] = round(time.perf_counter() - t, 1)
    out["index_build_s"] = round(out["fts_build_s"] + out["vector_index_build_s"], 1)
    return out


# ---- measuring ----------------------------------------------------------------------------

def timed(fn: Any, items: list[Any]) -> list[float]:
    fn(items[0])  # warm-up (page cache, index load)
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
    return out


def ms(samples: list[float], prefix: str) -> dict[str, float]:
    p = percentiles(samples)
    return {f"{prefix}_p50_ms": p["p50_ms"], f"{prefix}_p95_ms": p["p95_ms"]}


def disk_mb(path: Path) -> float:
    return round(sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6, 1)


def idle_rss(home: Path) -> dict[str, Any]:
    """A fresh process opens the library as the app does, searches 5 times, idles 3 s."""
    code = (
        "import os, sys, time, gc\n"
        "from desktop_app.app import build_app\n"
        "from desktop_app.retrieval.search import HybridSearcher\n"
        f"sys.path.insert(0, {str(REPO / 'bench')!r})\n"
        "from scale import embedder, real_queries\n"
        "app = build_app(embedder=embedder())\n"
        "s = HybridSearcher(app.index, app.embedder, app.settings)\n"
        "t = time.perf_counter(); hits = [s.search(q) for q in real_queries(5)]\n"
        "first = time.perf_counter() - t\n"
        "gc.collect(); time.sleep(3)\n"
        "st = {l.split(':')[0]: (l.split() + [''])[1] for l in open('/proc/self/status')}\n"
        "print('RSS', st['VmRSS'], st['VmHWM'], round(first * 1000 / 5, 1),"
        " app.index.chunk_count())\n")
    env = {**os.environ, "ACERVO_HOME": str(home), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          cwd=REPO, timeout=900)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RSS")), "")
    if not line:
        return {"idle_rss_error": proc.stderr[-800:]}
    _tag, rss, hwm, first_ms, rows = line.split()
    return {"idle_rss_mb": round(int(rss) / 1024, 1), "peak_rss_mb": round(int(hwm) / 1024, 1),
            "fresh_process_first_searches_ms": float(first_ms), "rss_process_rows": int(rows)}


def exact_top(data: Variants, rows: int, qvecs: np.ndarray, k: int = 10) -> list[set[str]]:
    """The exact top k of every query over all rows (numpy, 100k rows at a time)."""
    best = np.full((len(qvecs), k), -np.inf, dtype=np.float32)
    ids = np.zeros((len(qvecs), k), dtype=np.int64)
    for lo in range(0, rows, 100_000):
        hi = min(lo + 100_000, rows)
        scores = qvecs @ data.vectors_for(lo, hi).T  # (queries, block)
        merged = np.concatenate([best, scores], axis=1)
        merged_ids = np.concatenate([ids, np.broadcast_to(np.arange(lo, hi),
                                                           (len(qvecs), hi - lo))], axis=1)
        top = np.argpartition(-merged, k, axis=1)[:, :k]
        best = np.take_along_axis(merged, top, axis=1)
        ids = np.take_along_axis(merged_ids, top, axis=1)
    return [{f"c{int(i)}" for i in row} for row in ids]


def ann_variants(index: Any, qvecs: np.ndarray, truth: list[set[str]], k: int,
                 ) -> list[dict[str, Any]]:
    """The vector index rebuilt as before this change (IVF_HNSW_SQ, 4,000 rows a partition)
    and as now (IVF_RQ) with other probe settings: recall@10 and the vector leg's latency."""
    from lancedb.index import HnswSq, IvfRq

    from desktop_app.retrieval.index import ANN_REFINE, VECTOR_INDEX, ann_nprobes, ann_partitions

    rows = index.chunk_count()
    configs: list[tuple[str, Any, list[tuple[int, int | None]]]] = [
        ("IVF_HNSW_SQ, 4,000 rows a partition (before)",
         HnswSq(distance_type="dot", num_partitions=max(1, min(256, rows // 4000))),
         [(8, None)]),
        ("IVF_RQ, sqrt(rows)/2 partitions (now)",
         IvfRq(distance_type="dot", num_partitions=ann_partitions(rows)),
         [(ann_nprobes(rows), None), (ann_nprobes(rows) // 2, ANN_REFINE),
          (ann_nprobes(rows), ANN_REFINE)]),
    ]
    out = []
    for label, config, probes in configs:
        with index.writing("bench vector index variant"):
            index._write(lambda: index._chunks.drop_index(VECTOR_INDEX))
            t = time.perf_counter()
            index._write(lambda c=config: index._chunks.create_index("vector", config=c))
            build_s = round(time.perf_counter() - t, 1)
        for nprobes, refine in probes:
            def run(v: np.ndarray, n: int = nprobes, r: int | None = refine,
                    hnsw: bool = isinstance(config, HnswSq), limit: int = k) -> list[Any]:
                q = (index._chunks.search(v, query_type="vector", vector_column_name="vector")
                     .distance_type("dot").limit(limit).nprobes(n).select(["chunk_id"]))
                q = q.ef(128) if hnsw else q
                return list((q.refine_factor(r) if r else q).to_list())
            lat = timed(run, list(qvecs))
            got = [{r["chunk_id"] for r in run(v, limit=10)} for v in qvecs]
            recall = float(np.mean([len(a & b) / 10 for a, b in zip(got, truth, strict=True)]))
            out.append({"config": label, "nprobes": nprobes, "refine_factor": refine,
                        "build_s": build_s, "recall_at_10": round(recall, 4),
                        **ms(lat, "vector")})
            print(f"    {out[-1]}", flush=True)
    return out


def add_while_searching(index: Any, searcher: Any, data: Variants, queries: list[str],
                        qvecs: np.ndarray, first_row: int) -> dict[str, Any]:
    """100 documents x 10 passages through add_document; a thread searches meanwhile."""
    from desktop_app.retrieval.index import DocumentRecord
    from desktop_app.retrieval.types import Chunk

    stop = threading.Event()
    lat: list[float] = []
    errors: list[str] = []

    def searching() -> None:
        i = 0
        while not stop.is_set():
            t = time.perf_counter()
            try:
                searcher.search(queries[i % len(queries)], query_vector=qvecs[i % len(qvecs)])
                lat.append((time.perf_counter() - t) * 1000)
            except Exception as exc:  # noqa: BLE001 - counted, the point of the test
                errors.append(f"{type(exc).__name__}: {exc}"[:200])
            i += 1

    thread = threading.Thread(target=searching, daemon=True)
    thread.start()
    rng = np.random.default_rng(99)
    t0 = time.perf_counter()
    for d in range(100):
        lo = first_row + d * 10
        vectors = data.vectors_for(lo, lo + 10)
        doc_id = f"new{d:03}"
        chunks = []
        for pos in range(10):
            title, text, _kw = data.text_for(lo + pos, rng)
            chunks.append(Chunk(doc_id, pos, text, 1, 1, (), 0, len(text), title))
        record = DocumentRecord(doc_id, f"added {d}", f"/bench/new/{doc_id}.txt", "txt", "und", 1,
                                doc_id, 1, 10, NOW, NOW, index.embedder_id)
        index.add_document(record, chunks, vectors)
    add_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    index.optimize()
    optimize_s = time.perf_counter() - t1
    stop.set()
    thread.join(timeout=60)
    p = percentiles(lat) if lat else {"p50_ms": None, "p95_ms": None}
    return {"documents": 100, "passages": 1000, "add_s": round(add_s, 1),
            "optimize_s": round(optimize_s, 1),
            "searches_during": len(lat), "search_errors_during": len(errors),
            "search_errors_sample": errors[:3],
            "search_p50_ms_during": p["p50_ms"], "search_p95_ms_during": p["p95_ms"],
            "note": "vectors precomputed (embedding 1000 passages is the ingest's cost, "
                    "bench/ingest.py); searches pass the query vector"}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--embed-only", action="store_true")
    ap.add_argument("--base", type=int, default=BASE_PASSAGES,
                    help="real passages to use (the first N embedded; default all 10,000)")
    ap.add_argument("--keep", action="store_true", help="keep the library folder")
    ap.add_argument("--ann-variants", action="store_true",
                    help="at 60,000 rows, also measure the vector index as it was before")
    ap.add_argument("--home", type=Path, default=CACHE / "home")
    args = ap.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    load_start = load_avg()
    passages, vectors, keywords = embedded_base(args.base)
    if args.embed_only:
        return 0
    nn_cos = neighbour_cosine(vectors)
    sigma = noise_sigma(nn_cos, vectors.shape[1])
    data = Variants(passages, vectors, keywords, sigma)
    print(f"base: {len(passages)} real passages; nearest-neighbour cosine median {nn_cos:.4f}; "
          f"variant noise sigma {sigma:.5f}")

    shutil.rmtree(args.home, ignore_errors=True)
    os.environ["ACERVO_HOME"] = str(args.home)
    from desktop_app.app import build_app
    from desktop_app.retrieval.search import HybridSearcher

    model = embedder()
    app = build_app(embedder=model)
    index = app.index
    searcher = HybridSearcher(index, model, app.settings)
    queries = real_queries(args.queries)
    qvecs = np.stack([model.embed_query(q) for q in queries])
    results: dict[str, Any] = {}
    rows = 0
    for size in sizes:
        print(f"== {size:,} passages (load {load_avg()})", flush=True)
        drop_indexes(index)
        t = time.perf_counter()
        append_rows(index, data, rows, size)
        rows = size
        entry: dict[str, Any] = {"load_avg_1m_before": load_avg(),
                                 "bulk_write_s": round(time.perf_counter() - t, 1)}
        entry.update(rebuild_indexes(index))
        entry["disk_mb"] = disk_mb(index.directory)
        # the app's query path, embedding included; then the legs alone
        cache_clear = getattr(model, "clear_query_cache", None)
        if cache_clear:
            cache_clear()
        entry.update(ms(timed(lambda q: searcher.search(q), queries), "hybrid"))
        entry.update(ms(timed(lambda q: index.search_keyword(q, app.settings.leg_k, None),
                              queries), "keyword"))
        entry.update(ms(timed(lambda v: index.search_vector(v, app.settings.leg_k, None),
                              list(qvecs)), "vector"))
        truth = exact_top(data, size, qvecs)
        got = [{h.key for h in index.search_vector(v, 10, None)} for v in qvecs]
        entry["ann_recall_at_10"] = round(float(np.mean(
            [len(a & b) / 10 for a, b in zip(got, truth, strict=True)])), 4)
        entry["vector_index"] = index._vector_index_type if index._vector_indexed else "flat (exact)"
        if args.ann_variants and index._vector_indexed and size == 60_000:
            entry["ann_variants"] = ann_variants(index, qvecs, truth, app.settings.leg_k)
        entry.update(ms(timed(lambda _x: index.documents(), [0] * 5), "documents_list"))
        entry["documents"] = size // PER_DOC
        gc.collect()
        entry.update(idle_rss(args.home))
        entry["load_avg_1m_after"] = load_avg()
        results[str(size)] = entry
        print(json.dumps(entry, indent=1), flush=True)
        save("scale", _payload(results, sizes, nn_cos, sigma, len(passages), queries,
                               load_start))
    biggest = str(sizes[-1])
    print("== adding 100 documents while searching", flush=True)
    results[biggest]["add_100_documents"] = add_while_searching(
        index, searcher, data, queries, qvecs, first_row=rows)
    payload = _payload(results, sizes, nn_cos, sigma, len(passages), queries, load_start)
    save("scale", payload)
    if not args.keep:
        app.close()
        shutil.rmtree(args.home, ignore_errors=True)
    return 0


def _payload(results: dict[str, Any], sizes: list[int], nn_cos: float, sigma: float,
             base: int, queries: list[str], load_start: float) -> dict[str, Any]:
    growth = None
    if "60000" in results and str(sizes[-1]) in results and sizes[-1] > 60_000:
        growth = round(results[str(sizes[-1])]["hybrid_p50_ms"]
                       / results["60000"]["hybrid_p50_ms"], 2)
    return {
        "sizes": results,
        "hybrid_p50_growth_60k_to_largest": growth,
        "largest_size": sizes[-1],
        "data": {
            "base_real_passages": base,
            "base": "evaluation corpora (SciFact, FaQuAD, Pira) cut into <= 120-word passages, "
                    "embedded for real (ONNX int8-split, the app's default)",
            "variants": "rows past the base: base vector + Gaussian noise (per-dim sigma "
                        f"{sigma:.5f}), renormalised, so a variant's cosine to its base is the "
                        f"median real nearest-neighbour cosine ({nn_cos:.4f}); text = the base's "
                        "words rotated, ~20% dropped, plus a unique token (keyword column: the "
                        "base's analysed tokens varied the same way)",
            "passages_per_document": PER_DOC,
            "queries": len(queries),
            "query_sets": list(SETS),
        },
        "machine_load_avg_1m_at_start": load_start,
        "machine_load_avg_1m_at_end": load_avg(),
        "cpus": os.cpu_count(),
    }


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
