"""Answer-quality benchmark: `eval answers` on FaQuAD and on Pirá, each against the
other's questions and with their own paragraphs taken out (in-domain unanswerables), and
on the legal dev set (LGPD + LDB PDFs), asked in Portuguese, in Spanish and in English
(`legal_es.jsonl`, `legal_en.jsonl`: the same questions and gold, written in Spanish and
in English), through the real pipeline (desktop_app/evaluation/).

A third law, the Constitution's first articles (bench/data/laws/constituicao.txt, printed
to PDF by desktop_app/evaluation/law_pdf.py), is asked by legal_cf.jsonl; a fourth, the
consumer code's first articles (laws/cdc.txt, arts. 1–54), by legal_cdc.jsonl. legal_blind_pt.jsonl
asks the LGPD and the LDB about articles the dev set leaves out, written before it was run.

Writes bench/results/answers-faquad_pt.json, answers-pira_pt.json, answers-legal.json,
answers-legal-es.json, answers-legal-en.json, answers-legal-cf.json,
answers-legal-cdc.json and answers-legal-blind.json (figures only;
`desktop-app eval answers … --json OUT` keeps every question's outcome).
FaQuAD has gold answer spans; Pirá only its judged paragraphs, so for Pirá the
content scores are absent and abstention/false abstention and badge precision remain.
Eval indexes are cached under the app's cache dir (the first run indexes ~550 paragraphs
and ingests the two PDFs).

Calibration: `--settings FILE` answers every set with those settings replaced;
`--calibration DIR` answers each set with DIR/<set>.json when it exists (faquad_pt.json,
pira_pt.json, legal.json), so each set can be reported with a calibration that did not
see it; the Spanish and English legal sets are the Portuguese set translated, so they take
legal.json too.
The file used is named in the report (`settings_file`).

Usage: .venv/bin/python bench/answers.py [--only faquad_pt|pira_pt|legal|legal_es|legal_en|legal_cf
       |legal_cdc|legal_blind]
       [--limit N] [--sources-only] [--settings FILE] [--calibration DIR] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from desktop_app.answer.commands import print_answer_report, print_legal_report  # noqa: E402
from desktop_app.app import build_app  # noqa: E402
from desktop_app.evaluation.answers import load_overrides, run_answer_eval  # noqa: E402
from desktop_app.evaluation.law_pdf import render_law  # noqa: E402
from desktop_app.evaluation.legal_run import run_legal_eval  # noqa: E402

EVAL = REPO.parent / "shared" / "eval"
RUNS = (
    ("faquad_pt", EVAL / "retrieval" / "faquad_pt", EVAL / "qa" / "faquad_pt.jsonl",
     EVAL / "retrieval" / "pira_pt" / "queries.jsonl"),
    ("pira_pt", EVAL / "retrieval" / "pira_pt",
     EVAL / "retrieval" / "pira_pt" / "queries.jsonl", EVAL / "qa" / "faquad_pt.jsonl"),
)
LEGAL_DOCS = EVAL / "pdfs" / "pt"
LAWS = REPO / "bench" / "data" / "laws"  # laws as text, printed to PDF for the run
# (name in --only, questions, results file, documents: a folder or a law's text); all
# calibrated as "legal"
LEGAL_RUNS = (
    ("legal", REPO / "bench" / "data" / "legal_pt.jsonl", "answers-legal.json", LEGAL_DOCS),
    ("legal_es", REPO / "bench" / "data" / "legal_es.jsonl", "answers-legal-es.json",
     LEGAL_DOCS),
    ("legal_en", REPO / "bench" / "data" / "legal_en.jsonl", "answers-legal-en.json",
     LEGAL_DOCS),
    # a third law, with the Constitution's long lists, nested lists and struck wordings
    ("legal_cf", REPO / "bench" / "data" / "legal_cf.jsonl", "answers-legal-cf.json",
     LAWS / "constituicao.txt"),
    # a fourth law, the consumer code's first articles (1–54), with amendment notes and vetoed
    # units: its questions were written from the text before any was run (docs/measurements.md)
    ("legal_cdc", REPO / "bench" / "data" / "legal_cdc.jsonl", "answers-legal-cdc.json",
     LAWS / "cdc.txt"),
    # questions on articles the dev set does not ask about, in a reader's words, written
    # from the PDFs before any was run: what carries over, not what was tuned
    ("legal_blind", REPO / "bench" / "data" / "legal_blind_pt.jsonl",
     "answers-legal-blind.json", LEGAL_DOCS),
)


def _documents(source: Path, cache: Path) -> Path:
    """The folder of a run's PDFs: `source` itself, or a law's text printed into a PDF of
    the same name in `cache`."""
    if source.is_dir():
        return source
    folder = cache / source.stem  # (one folder per law: each run asks its own law only)
    folder.mkdir(parents=True, exist_ok=True)
    render_law(source.read_text(encoding="utf-8"), folder / f"{source.stem}.pdf")
    return folder


def _settings_for(name: str, args: argparse.Namespace) -> tuple[dict[str, Any], str | None]:
    chosen = args.settings
    if args.calibration is not None and (args.calibration / f"{name}.json").exists():
        chosen = args.calibration / f"{name}.json"
    overrides = load_overrides(chosen)
    gate = overrides.get("abstain_gate_file")
    if gate and not Path(gate).is_absolute():  # bench/fit_gate.py names it from the repo
        overrides["abstain_gate_file"] = str(REPO / gate)
    return overrides, (str(chosen) if chosen else None)


def _save(out_dir: Path, name: str, report: dict[str, Any]) -> None:
    report.pop("outcomes", None)
    setting = report.get("indomain") or {}
    for key in ("unanswerable_ids", "abstained_answerable_ids", "outcomes"):  # not committed
        setting.pop(key, None)
    (out_dir / name).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n",
                                encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+",
                        choices=("faquad_pt", "pira_pt", *(run[0] for run in LEGAL_RUNS)))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--sources-only", action="store_true")
    parser.add_argument("--settings", type=Path, default=None)
    parser.add_argument("--calibration", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results")
    args = parser.parse_args()
    if not EVAL.is_dir():
        print(f"evaluation data not found at {EVAL}", file=sys.stderr)
        return 2
    app = build_app()
    out_dir = args.out
    out_dir.mkdir(parents=True, exist_ok=True)

    def say(message: str) -> None:
        print(f"  {message}", file=sys.stderr, flush=True)

    for name, corpus, questions, others in RUNS:
        if args.only and name not in args.only:
            continue
        overrides, settings_file = _settings_for(name, args)
        report = run_answer_eval(app, corpus, questions, others, limit=args.limit,
                                 written=False if args.sources_only else None, indomain=True,
                                 overrides=overrides, progress=say)
        report["settings_file"] = settings_file
        print_answer_report(report, sys.stdout)
        _save(out_dir, f"answers-{name}.json", report)
    for name, questions, results, source in LEGAL_RUNS:
        if args.only and name not in args.only:
            continue
        overrides, settings_file = _settings_for("legal", args)
        documents = _documents(source, app.paths.cache_dir / "eval" / "laws")
        report = run_legal_eval(app, documents, questions, limit=args.limit,
                                overrides=overrides, progress=say)
        report["settings_file"] = settings_file
        print_legal_report(report, sys.stdout)
        _save(out_dir, results, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
