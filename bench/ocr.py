"""OCR of scanned Portuguese documents: word F1 by resolution, speed, and retrieval on a scan.

Scans are made from real PDFs (../shared/eval/pdfs/pt: LGPD, LDB, BNCC) with
desktop_app/ingest/scan.py — rasterized at 150/200/300 dpi, JPEG-compressed, and at 200 dpi
also turned by up to ±1° with sensor noise — and rebuilt as image-only PDFs. Each scanned
page is OCR'd by the app's engine (ingest/ocr.py) and scored by word-level F1 against the
original's text layer: words are runs of letters/digits, case and accents count, micro-
averaged over pages. Pages are spread evenly through each document (no hand-picking).

When Tesseract's language data is on this machine (Debian's tesseract-ocr-por/-eng), the
same 200 dpi pages are also read by PyMuPDF's built-in Tesseract, side by side, as the
alternative the engine was chosen against.

Retrieval: the scanned LGPD (200 dpi, every page) and the text LGPD are ingested into two
fresh indexes with the real embedder, and the LGPD questions of the tests are asked of
both: where does the Art. 18 chunk (the titular's rights) rank?
RapidOCR runs on ingest/cv_lite.py (what ships); `--cv opencv` runs the same pages on real
OpenCV instead, to compare (with `--variants-only --out FILE`: word F1 only, saved aside).
Usage: python bench/ocr.py [--pages-per-doc 5] [--cv opencv] [--variants-only] [--out FILE]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from pathlib import Path
from typing import Any

from _common import EVAL, save, shared_models_dir, temp_home

PDFS = EVAL / "pdfs" / "pt"
DOCS = {"lgpd": PDFS / "lgpd.pdf", "ldb": PDFS / "ldb.pdf", "bncc": PDFS / "bncc.pdf"}
VARIANTS = {  # name → (dpi, max skew in degrees, noise sigma in grey levels)
    "150dpi": (150, 0.0, 0.0),
    "200dpi": (200, 0.0, 0.0),
    "300dpi": (300, 0.0, 0.0),
    "200dpi_skew_noise": (200, 1.0, 10.0),
}
QUESTIONS = [  # the LGPD questions of tests/retrieval/test_lgpd_search.py and the self-test
    "direitos do titular",
    "Quais são os direitos do titular?",
    "revogacao do consentimento",
]
TESSDATA_DIRS = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata")


def _spread(count: int, wanted: int, skip_first: int = 0) -> list[int]:
    usable = list(range(skip_first, count))
    step = max(1, len(usable) // wanted)
    return usable[::step][:wanted]


def _page_sets(pymupdf: Any, per_doc: int) -> dict[str, list[int]]:
    sets = {}
    for name, path in DOCS.items():
        with pymupdf.open(path) as document:
            # BNCC's first pages are a cover and full-bleed pictures: start in its body
            sets[name] = _spread(document.page_count, per_doc, 10 if name == "bncc" else 0)
    return sets


def _score(name: str, reader: Any, scans: dict[str, Path], sets: dict[str, list[int]],
           pymupdf: Any) -> dict[str, Any]:
    from desktop_app.ingest.scan import f1_from_counts, overlap, word_counts

    totals = [0, 0, 0]
    per_doc: dict[str, float] = {}
    seconds = 0.0
    pages = 0
    for doc, numbers in sets.items():
        doc_totals = [0, 0, 0]
        with pymupdf.open(DOCS[doc]) as original, pymupdf.open(scans[doc]) as scanned:
            for i, number in enumerate(numbers):
                started = time.perf_counter()
                text = reader(scanned[i])
                seconds += time.perf_counter() - started
                pages += 1
                counts = overlap(word_counts(original[number].get_text()), word_counts(text))
                doc_totals = [a + b for a, b in zip(doc_totals, counts, strict=True)]
        per_doc[doc] = round(f1_from_counts(*doc_totals), 4)
        totals = [a + b for a, b in zip(totals, doc_totals, strict=True)]
    result = {"word_f1": round(f1_from_counts(*totals), 4), "per_document": per_doc,
              "pages": pages, "seconds": round(seconds, 1),
              "pages_per_s": round(pages / seconds, 4) if seconds else None}
    print(f"{name}: word F1 {result['word_f1']} {per_doc}, {result['pages_per_s']} pages/s",
          flush=True)
    return result


def _retrieval(scan: Path, embedder: Any, engine: Any) -> dict[str, Any]:
    from desktop_app.app import build_app
    from desktop_app.retrieval.types import ocr_label

    outcome: dict[str, Any] = {}
    for label, path in (("text", DOCS["lgpd"]), ("scan", scan)):
        temp_home(f"ocr-{label}")
        app = build_app(embedder=embedder, ocr_engine=engine)
        started = time.perf_counter()
        events = list(app.pipeline.run([path]))
        seconds = time.perf_counter() - started
        done = events[-1]
        doc = app.index.documents()[0]
        per_query = {}
        for question in QUESTIONS:
            hits = app.searcher.search(question, k=10)
            rank = next((n for n, h in enumerate(hits, start=1) if "Art. 18" in h.text), None)
            per_query[question] = {
                "art18_rank": rank,
                "top3": [{"page": h.page_start, "ocr": ocr_label(h.ocr_confidence),
                          "text": " ".join(h.text.split())[:90]} for h in hits[:3]],
            }
        outcome[label] = {"indexed": done.indexed, "chunks": doc.chunk_count,
                          "ingest_seconds": round(seconds, 1), "notes": list(doc.notes),
                          "queries": per_query}
        print(f"retrieval {label}: {doc.chunk_count} chunks in {seconds:.0f} s; Art. 18 ranks "
              f"{[q['art18_rank'] for q in per_query.values()]}", flush=True)
    ranks = outcome["scan"]["queries"]["direitos do titular"]["art18_rank"]
    outcome["art18_in_top3_scan"] = ranks is not None and ranks <= 3
    outcome["art18_in_top3_text"] = (
        (outcome["text"]["queries"]["direitos do titular"]["art18_rank"] or 99) <= 3)
    return outcome


def _write(out: Path | None, data: dict[str, Any]) -> None:
    if out is None:
        save("ocr", data)
    else:
        out.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"saved {out}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages-per-doc", type=int, default=5)
    ap.add_argument("--cv", choices=("lite", "opencv"), default="lite",
                    help="RapidOCR's cv2: the shipped cv_lite, or OpenCV to compare")
    ap.add_argument("--variants-only", action="store_true",
                    help="word F1 of the scan variants only (no Tesseract, no retrieval)")
    ap.add_argument("--out", type=Path, help="write the JSON here instead of bench/results")
    args = ap.parse_args()
    work = temp_home("ocr")
    from desktop_app.ingest.ocr import ENGINE_ID, OcrEngine, render_page
    from desktop_app.ingest.pdf import import_pymupdf
    from desktop_app.ingest.scan import make_scanned_pdf
    from desktop_app.modelprep import ensure_e5_model
    from desktop_app.retrieval.embedder import E5Embedder

    pymupdf = import_pymupdf()
    sets = _page_sets(pymupdf, args.pages_per_doc)
    print("pages (0-based):", sets, flush=True)
    engine = OcrEngine(cv=importlib.import_module("cv2") if args.cv == "opencv" else None)
    started = time.perf_counter()
    engine.load()
    load_seconds = time.perf_counter() - started

    def rapid(page: Any) -> str:
        result = engine.recognize(render_page(page, pymupdf))
        return "\n".join(line.text for line in result.lines)

    variants: dict[str, Any] = {}
    scans_by_variant: dict[str, dict[str, Path]] = {}
    for variant, (dpi, skew, noise) in VARIANTS.items():
        scans = {}
        for doc, numbers in sets.items():
            scans[doc] = work / f"{doc}-{variant}.pdf"
            make_scanned_pdf(DOCS[doc], scans[doc], dpi=dpi, pages=numbers,
                             skew_degrees=skew, noise=noise, seed=17)
        scans_by_variant[variant] = scans
        variants[variant] = _score(variant, rapid, scans, sets, pymupdf)

    if args.variants_only:
        _write(args.out, {"engine": ENGINE_ID, "cv2": args.cv, "variants": variants,
                          "pages": sets, "model_load_seconds": round(load_seconds, 2),
                          "load_average_at_end": [round(x, 2) for x in os.getloadavg()]})
        return 0

    alternatives: dict[str, Any] = {}
    tessdata = next((d for d in TESSDATA_DIRS if Path(d, "por.traineddata").is_file()), None)
    if tessdata:
        def tesseract(page: Any) -> str:
            textpage = page.get_textpage_ocr(language="por+eng", dpi=200, full=True,
                                             tessdata=tessdata)
            return str(page.get_text(textpage=textpage))

        alternatives["tesseract (PyMuPDF built-in, por+eng) 200dpi"] = _score(
            "tesseract 200dpi", tesseract, scans_by_variant["200dpi"], sets, pymupdf)
    else:
        alternatives["tesseract"] = "not measured: no Tesseract language data on this machine"

    scan = work / "lgpd-scan-200dpi.pdf"
    make_scanned_pdf(DOCS["lgpd"], scan, dpi=200, seed=17)
    embedder = E5Embedder(ensure_e5_model(shared_models_dir()))
    retrieval = _retrieval(scan, embedder, engine)

    _write(args.out, {
        "engine": ENGINE_ID,
        "cv2": args.cv,
        "word_f1_200dpi": variants["200dpi"]["word_f1"],
        "word_f1_150dpi": variants["150dpi"]["word_f1"],
        "word_f1_300dpi": variants["300dpi"]["word_f1"],
        "word_f1_200dpi_skew_noise": variants["200dpi_skew_noise"]["word_f1"],
        "pages_per_s": variants["200dpi"]["pages_per_s"],
        "model_load_seconds": round(load_seconds, 2),
        "retrieval_lgpd_scan_vs_text": retrieval,
        "variants": variants,
        "alternatives": alternatives,
        "pages": sets,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "method": ("word F1: bag of words (letters/digits, case and accents kept) of the OCR "
                   "lines vs the original text layer, micro-averaged over pages; pages/s "
                   "includes rendering; machine shared with other jobs (see load average)"),
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
