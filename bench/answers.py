"""Answer-quality benchmark: `eval answers` on FaQuAD and on Pirá, each against the
other's questions, through the real pipeline (see desktop_app/answer/evaluation.py).

Writes bench/results/answers-faquad_pt.json and bench/results/answers-pira_pt.json
(figures only; `desktop-app eval answers … --json OUT` keeps every question's outcome).
FaQuAD has gold answer spans; Pirá only its judged paragraphs, so for Pirá the
content scores are absent and abstention/false abstention and badge precision remain.
The eval index is cached under the app's cache dir (first run indexes ~550 documents).

Usage: .venv/bin/python bench/answers.py [--limit N] [--sources-only] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from desktop_app.answer.commands import print_answer_report  # noqa: E402
from desktop_app.app import build_app  # noqa: E402
from desktop_app.evaluation.answers import run_answer_eval  # noqa: E402

EVAL = REPO.parent / "shared" / "eval"
RUNS = (
    ("answers-faquad_pt.json", EVAL / "retrieval" / "faquad_pt", EVAL / "qa" / "faquad_pt.jsonl",
     EVAL / "retrieval" / "pira_pt" / "queries.jsonl"),
    ("answers-pira_pt.json", EVAL / "retrieval" / "pira_pt",
     EVAL / "retrieval" / "pira_pt" / "queries.jsonl", EVAL / "qa" / "faquad_pt.jsonl"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--sources-only", action="store_true")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results")
    args = parser.parse_args()
    if not EVAL.is_dir():
        print(f"evaluation data not found at {EVAL}", file=sys.stderr)
        return 2
    app = build_app()
    out_dir = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, corpus, questions, others in RUNS:
        report = run_answer_eval(app, corpus, questions, others, limit=args.limit,
                                 written=False if args.sources_only else None,
                                 progress=lambda m: print(f"  {m}", file=sys.stderr, flush=True))
        report.pop("outcomes", None)
        print_answer_report(report, sys.stdout)
        (out_dir / name).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
