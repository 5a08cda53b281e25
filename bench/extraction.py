"""Benchmark PDF text extraction: quality against docling's ground truth, and speed.

Quality: for each `../shared/eval/pdfs/en/docling/*.pdf` with a `*.groundtruth.md`, the
extracted text is compared with the reference Markdown as lower-cased word tokens:

- bag F1: multiset overlap of tokens (what was extracted, regardless of order);
- order F1: 2·M / (|a| + |b|) with M the tokens in difflib's longest matching blocks
  (penalizes scrambled reading order and interleaved columns).

Each is reported for `load_document` (ours) and two baselines on the same pages: PyMuPDF's
plain `get_text()` and `get_text(sort=True)`.

Speed: pages/s of `load_document` on lgpd.pdf (26 pages) and bncc.pdf (472 pages).

Usage: `python bench/extraction.py [--eval-dir ../shared/eval] [--skip-speed]`; prints a
table and writes bench/results/extraction.json.
"""

from __future__ import annotations

import argparse
import difflib
import json
import platform
import re
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from desktop_app.ingest.loaders import load_document  # noqa: E402
from desktop_app.ingest.pdf import import_pymupdf  # noqa: E402

TOKEN = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    return [token.casefold() for token in TOKEN.findall(text)]


def bag_f1(predicted: list[str], reference: list[str]) -> float:
    overlap = sum((Counter(predicted) & Counter(reference)).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / len(predicted), overlap / len(reference)
    return 2 * precision * recall / (precision + recall)


def order_f1(predicted: list[str], reference: list[str]) -> float:
    matcher = difflib.SequenceMatcher(None, predicted, reference, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return 2 * matched / max(1, len(predicted) + len(reference))


def extraction_quality(docling_dir: Path) -> dict[str, dict[str, float]]:
    pymupdf = import_pymupdf()
    results: dict[str, dict[str, float]] = {}
    for pdf in sorted(docling_dir.glob("*.pdf")):
        truth_path = pdf.with_suffix(".groundtruth.md")
        if not truth_path.exists():
            continue
        reference = tokens(truth_path.read_text(encoding="utf-8"))
        ours = tokens("\n".join(page.text for page in load_document(pdf).pages))
        with pymupdf.open(pdf) as document:
            plain = tokens("\n".join(page.get_text() for page in document))
            ordered = tokens("\n".join(page.get_text(sort=True) for page in document))
        results[pdf.stem] = {
            "ours_bag_f1": bag_f1(ours, reference), "ours_order_f1": order_f1(ours, reference),
            "plain_bag_f1": bag_f1(plain, reference), "plain_order_f1": order_f1(plain, reference),
            "sorted_bag_f1": bag_f1(ordered, reference),
            "sorted_order_f1": order_f1(ordered, reference),
        }
    names = list(results)
    if names:
        results["mean"] = {key: sum(results[n][key] for n in names) / len(names)
                           for key in results[names[0]]}
    return results


def load_speed(pdf: Path, repeats: int = 1) -> dict[str, float]:
    best = float("inf")
    pages = 0
    for _ in range(repeats):
        started = time.perf_counter()
        document = load_document(pdf)
        best = min(best, time.perf_counter() - started)
        pages = len(document.pages)
    return {"pages": pages, "seconds": round(best, 2), "pages_per_s": round(pages / best, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--eval-dir", type=Path, default=REPO.parent / "shared" / "eval")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    quality = extraction_quality(args.eval_dir / "pdfs" / "en" / "docling")
    print(f"{'document':28} {'bag F1 ours/plain/sorted':>28} {'order F1 ours/plain/sorted':>30}")
    for name, row in quality.items():
        print(f"{name:28} {row['ours_bag_f1']:>10.3f}{row['plain_bag_f1']:>9.3f}"
              f"{row['sorted_bag_f1']:>9.3f} {row['ours_order_f1']:>12.3f}"
              f"{row['plain_order_f1']:>9.3f}{row['sorted_order_f1']:>9.3f}")
    speed: dict[str, dict[str, float]] = {}
    if not args.skip_speed:
        for relative in ("pdfs/pt/lgpd.pdf", "pdfs/pt/bncc.pdf"):
            speed[Path(relative).name] = load_speed(args.eval_dir / relative)
            row = speed[Path(relative).name]
            print(f"load_document {relative}: {row['pages']} pages in {row['seconds']} s "
                  f"= {row['pages_per_s']} pages/s")
    output = REPO / "bench" / "results" / "extraction.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "quality": quality, "speed": speed,
    }, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written {output.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
