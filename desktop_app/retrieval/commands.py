"""CLI: `search`, `reindex`, and `eval retrieval DIR`."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from desktop_app.ingest.pathnames import one_line
from desktop_app.ingest.places import place_label
from desktop_app.library.commands import add_scope_options, scope_from_args
from desktop_app.privacy.stderr import confirm, tell_user
from desktop_app.retrieval.index_api import label_ranges
from desktop_app.retrieval.types import Hit, SearchFilters, ocr_label

if TYPE_CHECKING:
    from desktop_app.app import App
    from desktop_app.library.estimate import JobEstimate


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("search", help="hybrid (vector + keyword) search over the library")
    s.add_argument("query")
    s.add_argument("--k", type=int, default=None)
    s.add_argument("--type", dest="file_types", action="append", default=[],
                   help="file type filter (pdf, docx, md, txt, html); repeatable")
    s.add_argument("--since", help="ingested on/after this ISO date")
    s.add_argument("--until", help="ingested before this ISO date")
    s.add_argument("--modified-since", help="file modified on/after this ISO date")
    s.add_argument("--folder", help="only documents under this folder")
    s.add_argument("--lang", help="document language (pt, en, es)")
    s.add_argument("--library", action="append", default=[],
                   help="search this library (`local` or a team library's name); repeatable; "
                        "default: every library the settings search")
    s.add_argument("--json", action="store_true")
    add_scope_options(s)
    s.set_defaults(handler=cmd_search)

    r = sub.add_parser("reindex", help="rebuild the index with the current embedder (blue/green); "
                                       "a long one asks first, with the estimated time")
    r.add_argument("--yes", action="store_true", help="do not ask, however long it takes")
    r.set_defaults(handler=cmd_reindex)

    from desktop_app.modelprep.onnx_export import PRECISIONS

    m = sub.add_parser("embedder", help="show or choose the embedding path (ONNX fp32/int8, torch)")
    m.add_argument("--backend", choices=("onnx", "torch"))
    m.add_argument("--precision", choices=PRECISIONS,
                   help="int8-split (default) / int8 / int8-mixed are faster than fp32; their "
                        "nDCG@10 cost is in docs/measurements.md; a change offers a reindex")
    m.add_argument("--threads", type=int, help="batch threads; 0 = automatic")
    m.set_defaults(handler=cmd_embedder)


def register_eval(eval_sub: argparse._SubParsersAction) -> None:
    from desktop_app.retrieval.pg_sql import KEYWORD_RANKINGS

    e = eval_sub.add_parser("retrieval", help="recall/MRR/nDCG@10 on a BEIR-layout folder")
    e.add_argument("directory", type=Path)
    e.add_argument("--limit", type=int, default=None, help="first N queries only")
    e.add_argument("--max-docs", type=int, default=None,
                   help="index at most N docs (always including the judged ones)")
    e.add_argument("--vector-weight", type=float, default=None)
    e.add_argument("--keyword-weight", type=float, default=None)
    e.add_argument("--leg-k", type=int, default=None)
    e.add_argument("--backend", choices=("lancedb", "postgres"), default="lancedb",
                   help="postgres: the same chunks and vectors in a team library on a "
                        "PostgreSQL + pgvector server")
    e.add_argument("--pg-url", default=None,
                   help="owner URL of the PostgreSQL server (default: a trial server started "
                        "in the cache folder with pgserver)")
    e.add_argument("--pg-ranking", choices=KEYWORD_RANKINGS, default="bm25",
                   help="keyword ranking on PostgreSQL (default bm25, as LanceDB)")
    e.add_argument("--json", type=Path, default=None, help="also write results here")
    e.set_defaults(handler=cmd_eval_retrieval)


def hit_to_dict(h: Hit) -> dict[str, object]:
    return {
        "chunk_id": h.chunk_id, "doc_id": h.doc_id, "title": h.title,
        "source_path": h.source_path, "file_type": h.file_type,
        "page_start": h.page_start, "page_end": h.page_end, "section": " › ".join(h.heading_path),
        "score": round(h.score, 6), "legs": sorted(h.legs), "vector_rank": h.vector_rank,
        "keyword_rank": h.keyword_rank, "library": h.library, "text": h.text,
        "place": place_label(h.file_type, h.page_start, h.page_end),
        "ocr_confidence": h.ocr_confidence, "path": h.path,
        "revoked": [list(r) for r in h.revoked],  # struck-through ranges of "text"
    }


def cmd_search(args: argparse.Namespace, app: App) -> int:
    filters = SearchFilters(
        file_types=tuple(t.lower().lstrip(".") for t in args.file_types), since=args.since,
        until=args.until, modified_since=args.modified_since, folder=args.folder,
        language=args.lang,
    )
    scoped = scope_from_args(args, app, filters)
    if scoped is not None and scoped.scope and not args.json:
        tell_user(f"(scope: {scoped.scope}, {len(scoped.doc_ids)} documents)")
    searcher = app.searcher_for(args.library) if args.library else app.searcher
    found = searcher.search_with_report(args.query, k=args.k, filters=scoped)
    hits, report = found.hits, found.report
    for warning in report.warnings:
        tell_user(f"warning: {warning}")
    if args.json:
        # "warnings": the words, as before; "warning_codes": what a script can test
        print(json.dumps({"query": args.query, "scope": scoped.scope if scoped else "",
                          "warnings": [str(w) for w in report.warnings],
                          "warning_codes": [{"code": str(w.code), "library": w.library,
                                             "detail": w.detail} for w in report.warnings],
                          "hits": [hit_to_dict(h) for h in hits]}, ensure_ascii=False, indent=2))
        return 0
    print_hits(hits)
    return 0


def print_hits(hits: list[Hit]) -> None:
    if not hits:
        print("no results")
    for n, h in enumerate(hits, start=1):
        where = [place_label(h.file_type, h.page_start, h.page_end)]
        if h.ocr_confidence is not None:
            where.append(ocr_label(h.ocr_confidence))
        pages = ", ".join(w for w in where if w)
        headings = [x for x in h.heading_path if x != h.title]  # an H1 often repeats the title
        section = f" › {' › '.join(headings)}" if headings else ""
        snippet = " ".join(label_ranges(h.text, h.revoked, "revoked").split())[:160]
        library = f" [{h.library}]" if h.library != "local" else ""
        place = f" ({pages})" if pages else ""
        print(one_line(f"[{n}] {h.title}{section}{place}{library}  score={h.score:.4f} "
                       f"legs={'+'.join(sorted(h.legs))}"))
        print(f"    {snippet}")


def cmd_reindex(args: argparse.Namespace, app: App) -> int:
    estimate = reindex_estimate(app)
    if estimate.big:
        tell_user(f"Reindexing re-embeds the whole library: {estimate.english()}. Search "
                  "keeps working meanwhile (keyword-only while the embedders differ).")
        if not args.yes and not confirm(
                "Reindex now?", otherwise="Add `--yes` to reindex without being asked."):
            return 1
    run_reindex(app)
    return 0


def reindex_estimate(app: App) -> JobEstimate:
    """How long re-embedding the whole local library would take, from the measured rate."""
    from desktop_app.library.estimate import estimate_reembedding

    stats = app.index.stats()
    return estimate_reembedding(app.library_state, app.embedder.id, documents=stats.documents,
                                passages=stats.chunks)


def run_reindex(app: App) -> None:
    """Blue/green rebuild with the current embedder, printing progress; the rate is
    written down for the next estimate."""
    from desktop_app.retrieval.reindex import reindex

    passages, started = app.index.stats().chunks, time.perf_counter()
    for p in reindex(app.paths.index_dir, app.index, app.embedder):
        if p.stage == "documents":
            print(f"  reindexed {p.documents_done}/{p.documents_total}", end="\r", flush=True)
        elif p.stage == "switching":
            print("\n  switching to the new index…", end="", flush=True)
    app.library_state.add_rate(app.embedder.id, passages, time.perf_counter() - started)
    app.reset_index()
    print(f"\nreindex complete: {app.index.stats().chunks} chunks with {app.embedder.id}")



def cmd_embedder(args: argparse.Namespace, app: App) -> int:
    """Print the active embedder; with options, save the new choice and offer a reindex."""
    s = app.settings
    wanted = {"embedder_backend": args.backend, "embedder_precision": args.precision,
              "embed_threads": args.threads}
    changes = {k: v for k, v in wanted.items() if v is not None and getattr(s, k) != v}
    if changes:
        app.apply_settings(dataclasses.replace(s, **changes))  # rebuilds embedder and index
        app.save_settings()
    embedder = app.embedder  # prepares the ONNX model on first use (about a minute, once)
    print(f"embedder: {embedder.id} ({getattr(embedder, 'backend', '?')}, "
          f"settings: {s.embedder_backend}/{s.embedder_precision}, "
          f"threads {s.embed_threads or 'auto'})")
    if getattr(embedder, "backend", s.embedder_backend) != s.embedder_backend:
        print("warning: the chosen path is unavailable here; see the log", file=sys.stderr)
    offer_reindex(app, getattr(args, "reindex", "ask"))
    return 0


def offer_reindex(app: App, mode: str = "ask", *, stdin: TextIO | None = None) -> bool:
    """When the index was built by another embedder, rebuild it with the user's consent.

    `mode`: "ask" prompts on a terminal (and only explains otherwise), "yes" rebuilds without
    asking, "no" keeps the old index (keyword-only search). Nothing is lost either way: the
    chunk texts come from the index itself and the old generation serves until the new one is
    complete. Returns True when a reindex ran.
    """
    index = app.index
    if index.vector_usable:
        return False
    estimate = reindex_estimate(app)
    print(f"The library was indexed with {index.embedder_id}; the current embedder is "
          f"{app.embedder.id}. Until it is reindexed, search is keyword-only. Reindexing: "
          f"{estimate.english()}.", file=sys.stderr)
    if mode == "no":
        return False
    if mode == "ask" and not confirm(
            "Reindex now? The current index keeps working until the new one is complete.",
            otherwise="Run `desktop-app reindex` (or add `--reindex yes`) to rebuild it; "
                      "nothing is lost.", stdin=stdin):
        return False
    run_reindex(app)
    return True


def cmd_eval_retrieval(args: argparse.Namespace, app: App) -> int:
    from desktop_app.evaluation.retrieval import build_eval_index, evaluate, load_beir
    from desktop_app.retrieval.index_api import DocumentIndex
    from desktop_app.retrieval.search import DocumentSearcher, HybridSearcher

    if not (args.directory / "corpus.jsonl").exists():
        print(f"not a BEIR folder (no corpus.jsonl): {args.directory}", file=sys.stderr)
        return 2
    settings = app.settings
    for name in ("vector_weight", "keyword_weight", "leg_k"):
        value = getattr(args, name)
        if value is not None:
            setattr(settings, name, value)
    beir = load_beir(args.directory, max_queries=args.limit, max_docs=args.max_docs)
    t0 = time.perf_counter()

    def progress(n: int, total: int) -> None:
        if n % 50 == 0 or n == total:
            print(f"  indexed {n}/{total} docs", file=sys.stderr, flush=True)

    index = build_eval_index(beir, app.embedder, settings, app.paths.cache_dir / "eval", progress)
    searched: DocumentIndex = index
    if args.backend == "postgres":
        collection = f"eval-{index.directory.name}"  # the cached corpus key
        searched = app.eval_team_index(index, collection=collection, url=args.pg_url,
                                       ranking=args.pg_ranking, progress=progress)
    index_s = time.perf_counter() - t0
    searcher: DocumentSearcher = HybridSearcher(searched, app.embedder, settings)
    results = evaluate(beir, searcher, app.embedder)
    results.update({"set": beir.name, "docs": len(beir.corpus), "index_seconds": round(index_s, 1),
                    "embedder": app.embedder.id, "vector_weight": settings.vector_weight,
                    "keyword_weight": settings.keyword_weight, "leg_k": settings.leg_k,
                    "backend": args.backend})
    if args.backend == "postgres":
        results["keyword_ranking"] = args.pg_ranking
    print(f"{beir.name}: {results['queries']} queries, {len(beir.corpus)} docs, "
          f"backend {args.backend}")
    print(f"{'mode':8} {'recall@10':>10} {'MRR@10':>8} {'nDCG@10':>8}")
    for mode in ("keyword", "vector", "hybrid"):
        m = results[mode]
        print(f"{mode:8} {m['recall@10']:>10.4f} {m['mrr@10']:>8.4f} {m['ndcg@10']:>8.4f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0
