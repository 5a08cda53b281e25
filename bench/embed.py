"""Embedding throughput: today's torch path vs the ONNX default and every ONNX variant, side by side.

One run, one process, same chunks: real passages cut by the app's chunker from BNCC (pt),
embedded the way each pipeline calls the embedder (slices of EMBED_BATCH; today's pipeline in
document order, the new one sorted by length), in interleaved rounds so machine noise hits
every path alike. Then query latency (one question at a time, the app's query path), the
nDCG@10 cost of each variant from `desktop-app eval retrieval --json` results, and, unless
`--skip-ingest`, BNCC ingested end to end through the real pipeline with the old and the new
embedder (old first, then new, in this process; with `--skip-ingest` the last run's BNCC
figures are kept, with their date).

Usage: python bench/embed.py [--chunks 96] [--rounds 3] [--variants int8,int8-mixed]
                             [--batch-tokens 4096,1024] [--evals DIR] [--skip-ingest]
                             [--evals-only]
  --variants: the ONNX precisions measured beside the default (all of them by default).
  --batch-tokens: the default precision also with these padded-token budgets per run (beside
  the embedder's own, `MAX_BATCH_TOKENS`), e.g. the earlier 4096, as paths "new@N".
  Besides chunks/s (wall), each path's CPU seconds per chunk (this process, all threads) are
  recorded: on a shared machine they move less with other people's load than wall time.
  --evals DIR holds `<set>-<variant>.json` (variant: torch or an ONNX precision) from
  `ACERVO_HOME=... desktop-app eval retrieval ../shared/eval/retrieval/<set> --json ...`
  with settings `embedder_backend`/`embedder_precision` chosen per variant. A set evaluated on
  a subsample (`--max-docs`) must use the same subsample for every variant of that set; its
  reference is torch where measured, else fp32 ONNX (which gives the torch vectors).
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

BNCC = EVAL / "pdfs/pt/bncc.pdf"
SETS = ("faquad_pt", "pira_pt", "scifact")
QUERY_FILES = [EVAL / "retrieval/pira_pt/queries.jsonl", EVAL / "retrieval/faquad_pt/queries.jsonl"]


def bncc_chunks(n: int) -> list[str]:
    """`n` chunk texts spread evenly over BNCC, as the pipeline would embed them."""
    from desktop_app.config.settings import Settings
    from desktop_app.ingest.chunking import chunk_document
    from desktop_app.ingest.loaders import load_document
    from desktop_app.ingest.pipeline import embedding_text

    s = Settings()
    chunks = chunk_document(load_document(BNCC), "bncc", max_chars=s.chunk_chars,
                            overlap=s.chunk_overlap)
    step = max(1, len(chunks) // n)
    return [embedding_text(c) for c in chunks[::step][:n]]


def embed_like_pipeline(embedder: Any, texts: list[str], *, sort: bool) -> np.ndarray:
    """The pipeline's calls: slices of EMBED_BATCH, in document order (today) or by length."""
    from desktop_app.ingest.pipeline import EMBED_BATCH

    order = sorted(range(len(texts)), key=lambda i: len(texts[i])) if sort else list(range(len(texts)))
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(order), EMBED_BATCH):
        rows = order[start:start + EMBED_BATCH]
        out[rows] = embedder.embed_passages([texts[i] for i in rows])
    return out


def throughput(paths: dict[str, tuple[Any, bool]], texts: list[str], rounds: int) -> dict[str, Any]:
    seconds = {name: 0.0 for name in paths}
    cpu = {name: 0.0 for name in paths}  # this process's CPU time (all threads): less load-bound
    vectors: dict[str, np.ndarray] = {}
    for name, (embedder, sort) in paths.items():  # warm-up: sessions, lazy imports, arenas
        vectors[name] = embed_like_pipeline(embedder, texts[:16], sort=sort)
    names = list(paths)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:  # rotate who goes first
            embedder, sort = paths[name]
            t0, c0 = time.perf_counter(), time.process_time()
            vectors[name] = embed_like_pipeline(embedder, texts, sort=sort)
            seconds[name] += time.perf_counter() - t0
            cpu[name] += time.process_time() - c0
        print(f"  round {r + 1}/{rounds}: " + ", ".join(
            f"{n} {len(texts) * (r + 1) / seconds[n]:.2f} chunks/s" for n in names), flush=True)
    rates = {n: round(len(texts) * rounds / seconds[n], 3) for n in names}
    cos = {n: np.sum(vectors[n] * vectors["old"], axis=1) for n in names if n != "old"}
    return {"chunks_per_s": rates,
            "cpu_s_per_chunk": {n: round(cpu[n] / (len(texts) * rounds), 4) for n in names},
            "vectors": vectors,
            "cosine_to_old": {n: {"min": round(float(c.min()), 6), "mean": round(float(c.mean()), 6)}
                              for n, c in cos.items()}}


def query_latency(paths: dict[str, Any], n: int = 40) -> dict[str, Any]:
    questions: list[str] = []
    for f in QUERY_FILES:
        questions += [json.loads(line)["text"] for line in f.open(encoding="utf-8")][: n // 2]
    samples: dict[str, list[float]] = {name: [] for name in paths}
    for embedder in paths.values():
        embedder.embed_query("aquecimento")
    for q in questions:
        for name, embedder in paths.items():
            t0 = time.perf_counter()
            embedder.embed_query(q)
            samples[name].append((time.perf_counter() - t0) * 1000)
    return {name: percentiles(s) for name, s in samples.items()}


def ndcg_table(folder: Path, variants: tuple[str, ...]) -> dict[str, Any]:
    """nDCG@10 (hybrid, the app's search; vector leg too) per set and variant."""
    table: dict[str, Any] = {}
    for s in SETS:
        row: dict[str, Any] = {}
        for variant in ("torch", *variants):
            path = folder / f"{s}-{variant}.json"
            if path.is_file():
                data = json.loads(path.read_text(encoding="utf-8"))
                row[variant] = {"hybrid": data["hybrid"]["ndcg@10"],
                                "vector": data["vector"]["ndcg@10"], "queries": data["queries"],
                                "docs": data.get("docs"), "embedder": data.get("embedder")}
        docs = {v["docs"] for v in row.values()}
        if len(docs) > 1:
            raise SystemExit(f"{s}: variants were evaluated on different corpora ({docs})")
        table[s] = row
    return table


def reference(row: dict[str, Any]) -> str | None:
    """torch where measured; else fp32 ONNX, which gives the torch vectors (cosine 1.0000)."""
    return "torch" if "torch" in row else "fp32" if "fp32" in row else None


def losses(table: dict[str, Any], variant: str, mode: str) -> dict[str, float]:
    out = {}
    for s, row in table.items():
        ref = reference(row)
        if ref and ref != variant and variant in row:
            out[s] = round(row[ref][mode] - row[variant][mode], 4)
        elif ref == variant:
            out[s] = 0.0
    return out


def ndcg_fields(folder: Path, new_precision: str, variants: tuple[str, ...]) -> dict[str, Any]:
    table = ndcg_table(folder, variants)
    new_losses = losses(table, new_precision, "hybrid")
    return {
        # over the sets measured with both variants (listed below); None if none was
        "ndcg_loss_max": max(new_losses.values()) if new_losses else None,
        "ndcg_sets_measured": sorted(new_losses),
        "ndcg10": table,
        "ndcg_reference": {s: reference(row) for s, row in table.items()},
        "ndcg_loss": {v: {"hybrid": losses(table, v, "hybrid"), "vector": losses(table, v, "vector")}
                      for v in variants},
    }


def refresh_evals(folder: Path) -> int:
    from desktop_app.modelprep.onnx_export import PRECISIONS

    path = RESULTS / "embed.json"
    result = json.loads(path.read_text(encoding="utf-8"))
    result.update(ndcg_fields(folder, result["new_path"]["precision"], PRECISIONS))
    for variant, row in result.get("variants", {}).items():
        row["ndcg_loss_hybrid"] = result["ndcg_loss"].get(variant, {}).get("hybrid", {})
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"ndcg_loss_max {result['ndcg_loss_max']}; updated {path}")
    return 0


def ingest_bncc(make_embedder: Any, label: str) -> dict[str, Any]:
    temp_home(f"embed-{label}")
    from desktop_app.app import build_app
    from desktop_app.ingest.events import FileDone, RunDone

    embedder = make_embedder()
    app = build_app(embedder=embedder)
    embedder.embed_passages(["aquecimento"])
    t0 = time.perf_counter()
    chunks = 0
    for event in app.pipeline.run([BNCC]):
        if isinstance(event, FileDone):
            chunks = event.chunks
        elif isinstance(event, RunDone):
            assert event.failed == 0, event
    seconds = time.perf_counter() - t0
    print(f"  BNCC with {label}: {chunks} chunks in {seconds:.0f} s", flush=True)
    return {"embedder": embedder.id, "backend": embedder.backend, "chunks": chunks,
            "seconds": round(seconds, 1), "chunks_per_s": round(chunks / seconds, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=96)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", default="",
                        help="comma-separated ONNX precisions beside the default (default: all)")
    parser.add_argument("--batch-tokens", default="",
                        help="comma-separated token budgets for extra 'new@N' paths")
    parser.add_argument("--evals", type=Path, default=RESULTS / "embed-evals")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--evals-only", action="store_true",
                        help="only refresh the nDCG fields of an existing embed.json")
    args = parser.parse_args()
    if args.evals_only:
        return refresh_evals(args.evals)
    temp_home("embed")
    from desktop_app.app import build_app
    from desktop_app.config.settings import Settings
    from desktop_app.modelprep import ensure_e5_model
    from desktop_app.modelprep.onnx_export import PRECISIONS, ensure_onnx_model
    from desktop_app.retrieval.embedder import E5Embedder, embed_threads
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    build_app()  # offline switches, probe-import guard: the app's own process set-up
    models = shared_models_dir()
    default = Settings()
    threads = embed_threads(default.embed_threads, reserve_ui_core=False)
    e5_dir = ensure_e5_model(models)

    def old() -> E5Embedder:  # today's path, as app.py built it before this change
        return E5Embedder(e5_dir)

    def onnx(precision: str, **options: Any) -> OnnxE5Embedder:
        return OnnxE5Embedder(ensure_onnx_model(models, precision=precision, e5_dir=e5_dir),
                              threads=threads, **options)

    new_precision = default.embedder_precision
    others = [v for v in (args.variants.split(",") if args.variants else PRECISIONS)
              if v and v != new_precision]
    paths: dict[str, tuple[Any, bool]] = {"old": (old(), False), "new": (onnx(new_precision), True)}
    paths.update({v: (onnx(v), True) for v in others})
    budgets = [int(n) for n in args.batch_tokens.split(",") if n]
    paths.update({f"new@{n}": (onnx(new_precision, max_batch_tokens=n), True) for n in budgets})
    texts = bncc_chunks(args.chunks)
    load_1m = os.getloadavg()[0]
    print(f"{len(texts)} BNCC chunks, {args.rounds} interleaved rounds, "
          f"new = onnx {new_precision} ({threads} threads), also {', '.join(others)}", flush=True)
    speed = throughput(paths, texts, args.rounds)
    latency = query_latency({name: e for name, (e, _) in paths.items()})
    evals = ndcg_fields(args.evals, new_precision, tuple(PRECISIONS))
    rates = speed["chunks_per_s"]
    result: dict[str, Any] = {
        "old_chunks_per_s": rates["old"],
        "new_chunks_per_s": rates["new"],
        "speedup": round(rates["new"] / rates["old"], 3),
        "ndcg_loss_max": evals.pop("ndcg_loss_max"),
        "query_embed_ms_p50": latency["new"]["p50_ms"],
        "new_path": {"backend": "onnx", "precision": new_precision, "threads": threads,
                     "id": paths["new"][0].id,
                     "max_batch_tokens": paths["new"][0].max_batch_tokens},
        "old_path": {"backend": "torch", "precision": "fp32", "id": paths["old"][0].id},
        "variants": {
            v: {"id": paths[v][0].id, "chunks_per_s": rates[v],
                "speedup": round(rates[v] / rates["old"], 3),
                "cosine_to_old": speed["cosine_to_old"][v],
                "query_ms_p50": latency[v]["p50_ms"],
                "ndcg_loss_hybrid": evals["ndcg_loss"].get(v, {}).get("hybrid", {})}
            for v in others},
        "batch_budgets": {
            n: {"chunks_per_s": rates[f"new@{n}"],
                "speedup": round(rates[f"new@{n}"] / rates["old"], 3),
                "new_vs_this": round(rates["new"] / rates[f"new@{n}"], 3),
                "cosine_to_new": round(float(np.min(np.sum(
                    speed["vectors"][f"new@{n}"] * speed["vectors"]["new"], axis=1))), 6)}
            for n in budgets},
        "cosine_to_old": speed["cosine_to_old"],
        "cpu_s_per_chunk": speed["cpu_s_per_chunk"],
        "query_latency": latency,
        **evals,
        "chunks": len(texts), "rounds": args.rounds, "load_1m_at_start": round(load_1m, 2),
    }
    if not args.skip_ingest:
        result["bncc_ingest"] = {"old": ingest_bncc(old, "old"),
                                 "new": ingest_bncc(lambda: onnx(new_precision), "new")}
        result["bncc_ingest"]["speedup"] = round(
            result["bncc_ingest"]["old"]["seconds"] / result["bncc_ingest"]["new"]["seconds"], 3)
    elif (RESULTS / "embed.json").is_file():  # keep the last measured pair, with its date
        last = json.loads((RESULTS / "embed.json").read_text(encoding="utf-8"))
        if "bncc_ingest" in last:
            kept = last["bncc_ingest"]
            result["bncc_ingest"] = {
                **kept, "measured": kept.get("measured", last["when"]),
                # False: that pair's "new" was an earlier default, not this run's new path
                "new_is_current_default": kept.get("new", {}).get("embedder") == paths["new"][0].id}
    result["load_1m_at_end"] = round(os.getloadavg()[0], 2)
    for key in ("old_chunks_per_s", "new_chunks_per_s", "speedup", "ndcg_loss_max",
                "query_embed_ms_p50"):
        print(f"{key:22} {result[key]}")
    for n, row in result["batch_budgets"].items():
        print(f"{'new@' + str(n):22} {row['chunks_per_s']} chunks/s, {row['speedup']}x; "
              f"default budget {row['new_vs_this']}x faster, min cosine {row['cosine_to_new']}")
    print("CPU s/chunk            " + ", ".join(f"{k} {v}" for k, v in result["cpu_s_per_chunk"].items()))
    for v, row in result["variants"].items():
        print(f"{v:22} {row['chunks_per_s']} chunks/s, {row['speedup']}x, "
              f"nDCG@10 loss {row['ndcg_loss_hybrid']}")
    save("embed", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
