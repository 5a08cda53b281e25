"""Retrieval evaluation on BEIR-layout sets (corpus.jsonl, queries.jsonl, qrels/test.tsv).

The corpus is indexed through the real chunker, embedder and LanceDB index into
a cache folder keyed by (corpus hash, embedder id, chunking), so a second run
only re-runs the queries. Scores are per document: a document's rank is the rank
of its best chunk. Reports recall@10, MRR@10 and nDCG@10 for keyword-only,
vector-only and hybrid.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.ingest.pipeline import embedding_text
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.retrieval.index import (
    DocumentRecord,
    LanceIndex,
    upgrade_generation,
)
from desktop_app.retrieval.search import DocumentSearcher
from desktop_app.retrieval.types import Embedder, Hit

MODES: dict[str, tuple[str, ...]] = {
    "keyword": ("keyword",),
    "vector": ("vector",),
    "hybrid": ("vector", "keyword"),
}


@dataclass
class BeirSet:
    name: str
    corpus: list[dict[str, Any]]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load_beir(directory: Path, *, max_queries: int | None = None,
              max_docs: int | None = None) -> BeirSet:
    """Read a BEIR folder; with limits, keep the first queries and every doc they need."""
    def jsonl(path: Path) -> Iterator[dict[str, Any]]:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)

    qrels: dict[str, dict[str, int]] = {}
    with (directory / "qrels" / "test.tsv").open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            parts = line.rstrip("\n").split("\t")
            if i == 0 and parts[0] == "query-id":
                continue
            if len(parts) >= 3 and int(parts[2]) > 0:
                qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    queries = {q["_id"]: q["text"] for q in jsonl(directory / "queries.jsonl") if q["_id"] in qrels}
    if max_queries is not None:
        queries = dict(sorted(queries.items())[:max_queries])
    qrels = {q: r for q, r in qrels.items() if q in queries}
    corpus = list(jsonl(directory / "corpus.jsonl"))
    if max_docs is not None:
        needed = {d for rels in qrels.values() for d in rels}
        corpus.sort(key=lambda d: (d["_id"] not in needed, d["_id"]))
        corpus = corpus[:max(max_docs, len(needed))]
    return BeirSet(directory.name, corpus, queries, qrels)


def _corpus_key(beir: BeirSet, embedder_id: str, settings: Settings) -> str:
    h = hashlib.sha256()
    for doc in beir.corpus:
        h.update(doc["_id"].encode())
        h.update((doc.get("title", "") + "\0" + doc["text"]).encode())
    # v3: sentences keep bracketed abbreviations ("(art. 18)") and their closing quotes
    h.update(f"{embedder_id}|{settings.chunk_chars}|{settings.chunk_overlap}|v3".encode())
    return h.hexdigest()[:16]


def build_eval_index(beir: BeirSet, embedder: Embedder, settings: Settings, cache_root: Path,
                     progress: Callable[[int, int], None] | None = None) -> LanceIndex:
    """Index the corpus (or reuse the cached index for the same corpus and embedder)."""
    from desktop_app.ingest.chunking import chunk_document
    from desktop_app.text.language import detect_language

    directory = cache_root / f"{beir.name}-{_corpus_key(beir, embedder.id, settings)}"
    done_marker = directory / "COMPLETE"
    upgrade_generation(directory)  # a cache an older Acervo built
    index = LanceIndex.open_generation(directory, embedder_id=embedder.id, dim=embedder.dim)
    if done_marker.exists():
        return index
    have = {d.doc_id for d in index.documents()}
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for n, doc in enumerate(beir.corpus, start=1):
        if doc["_id"] in have:
            continue
        title = doc.get("title") or doc["_id"]
        loaded = LoadedDocument(path=doc["_id"], file_type="txt", title=title,
                                pages=[PageText(1, doc["text"])])
        chunks = chunk_document(loaded, doc["_id"], max_chars=settings.chunk_chars,
                                overlap=settings.chunk_overlap)
        if not chunks:
            continue
        texts = [embedding_text(c) for c in chunks]
        vectors = embedder.embed_passages(texts)
        record = DocumentRecord(
            doc_id=doc["_id"], title=title, source_path=f"beir://{beir.name}/{doc['_id']}",
            file_type="txt", language=detect_language(doc["text"]), size=len(doc["text"]),
            content_hash=doc["_id"], page_count=1, chunk_count=len(chunks), ingested_at=now,
            modified_at=now, embedder_id=embedder.id,
        )
        index.add_document(record, chunks, vectors)
        if progress:
            progress(n, len(beir.corpus))
    index.purge()
    done_marker.write_text("ok", encoding="utf-8")
    return index


def _metrics(ranked_docs: list[str], relevant: dict[str, int], k: int = 10) -> dict[str, float]:
    top = ranked_docs[:k]
    hits = [d for d in top if d in relevant]
    recall = len(set(hits)) / len(relevant) if relevant else 0.0
    mrr = next((1.0 / (i + 1) for i, d in enumerate(top) if d in relevant), 0.0)
    dcg = sum((2 ** relevant[d] - 1) / math.log2(i + 2) for i, d in enumerate(top) if d in relevant)
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return {"recall@10": recall, "mrr@10": mrr, "ndcg@10": dcg / idcg if idcg else 0.0}


def beir_id(hit: Hit) -> str:
    """The corpus id of a hit: its source is `beir://SET/ID` on every backend (a team library
    gives documents ids of its own)."""
    if hit.source_path.startswith("beir://") and "/" in hit.source_path[7:]:
        return hit.source_path[7:].split("/", 1)[1]  # an id may itself contain '/'
    return hit.doc_id


def evaluate(beir: BeirSet, searcher: DocumentSearcher, embedder: Embedder,
             modes: dict[str, tuple[str, ...]] = MODES, k: int = 10) -> dict[str, Any]:
    """Score every mode on every query; returns {mode: {metric: mean}, "queries": n}."""
    qids = sorted(beir.queries)
    if hasattr(embedder, "embed_queries"):
        vectors = embedder.embed_queries([beir.queries[q] for q in qids])
    else:
        vectors = np.stack([embedder.embed_query(beir.queries[q]) for q in qids])
    results: dict[str, Any] = {"queries": len(qids)}
    for mode, legs in modes.items():
        totals = {"recall@10": 0.0, "mrr@10": 0.0, "ndcg@10": 0.0}
        t0 = time.perf_counter()
        for qid, vec in zip(qids, vectors, strict=True):
            hits = searcher.search(beir.queries[qid], k=k * 4, legs=legs, query_vector=vec)
            ranked: list[str] = []
            for h in hits:
                if beir_id(h) not in ranked:
                    ranked.append(beir_id(h))
            for name, value in _metrics(ranked, beir.qrels[qid], k).items():
                totals[name] += value
        results[mode] = {name: round(v / max(len(qids), 1), 4) for name, v in totals.items()}
        results[mode]["ms_per_query"] = round((time.perf_counter() - t0) * 1000 / max(len(qids), 1), 2)
    return results
