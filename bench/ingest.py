"""Ingestion throughput: pages/s and chunks/s end to end vs embed-only on the same chunks.

The ratio (end-to-end chunks/s ÷ embed-only chunks/s) is the pipeline's efficiency:
1.0 would mean loading, cleaning, chunking and LanceDB writes cost nothing.
Usage: python bench/ingest.py [PDF ...]   (default: LGPD + LDB from ../shared/eval)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from _common import EVAL, save, shared_models_dir, temp_home


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or [EVAL / "pdfs/pt/lgpd.pdf", EVAL / "pdfs/pt/ldb.pdf"]
    temp_home("ingest")
    from desktop_app.app import build_app
    from desktop_app.ingest.events import FileDone, RunDone
    from desktop_app.ingest.pipeline import compose_embedding_text
    from desktop_app.modelprep import ensure_e5_model
    from desktop_app.retrieval.embedder import E5Embedder

    embedder = E5Embedder(ensure_e5_model(shared_models_dir()))
    embedder.embed_passages(["warm-up"])
    app = build_app(embedder=embedder)
    t0 = time.perf_counter()
    pages = chunks = 0
    for event in app.pipeline.run(files):
        if isinstance(event, FileDone):
            pages += event.pages
            chunks += event.chunks
        elif isinstance(event, RunDone):
            assert event.failed == 0, event
    end_to_end = time.perf_counter() - t0

    texts = [compose_embedding_text(r.prefix, r.text) for r in app.index.iter_chunks()]
    t0 = time.perf_counter()
    for start in range(0, len(texts), 16):
        embedder.embed_passages(texts[start:start + 16])
    embed_only = time.perf_counter() - t0
    result = {
        "files": [f.name for f in files], "pages": pages, "chunks": chunks,
        "end_to_end_s": round(end_to_end, 2), "pages_per_s": round(pages / end_to_end, 2),
        "chunks_per_s_end_to_end": round(chunks / end_to_end, 2),
        "chunks_per_s_embed_only": round(len(texts) / embed_only, 2),
        "efficiency_ratio": round((chunks / end_to_end) / (len(texts) / embed_only), 3),
    }
    for k, v in result.items():
        print(f"{k:26} {v}")
    save("ingest", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
