"""Table questions: does the answer quote the table row that holds what was asked?

Questions about a table name a row ("… in Arizona?", "… for E Johnson?") and a column
("permit checks", "airfare"); the row's figures are the answer, and they mean something
only under the table's header. Set: bench/data/tables_en.jsonl, 32 questions on the real
English PDFs of the eval data (the NICS background-check table, the Senate's expenditure
report, the Brazilian crop-area table, the IBM Redpaper's column tables, the Federal
Register's cost table, the OTSL results table, a precinct bulletin's contests); `row` is
a verbatim piece of the row that answers. t01–t16 were written while the table answers
were being built, t17–t26 after, to check them on questions they were not built on;
t27–t29 while the bulletin's lists were being read, t30–t32 after.

All the English PDFs are ingested together into a fresh home (the other documents are
the distractors an analyst's library has), and every question is asked sources-only
through the app's own `AnswerService`. Figures:
- `first_quote_holds_row`: the first quote is the row (its verbatim piece in it);
- `answer_holds_row`: some quote of the answer is;
- `first_row_under_header`: of the first quotes that are the row, the share shown under a
  header line (a table's header, found in the passage or above it in the document);
  `first_row_under_title`: the share shown under a title line instead (rows with no
  header: a ballot's contest over its candidates);
- `not_found`: questions answered "not found".
Writes bench/results/answers-tables.json (per-question outcomes included).

Usage: .venv/bin/python bench/tables.py [--set FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _common import EVAL, REPO, save, temp_home

SET = REPO / "bench" / "data" / "tables_en.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=SET)
    args = parser.parse_args()
    documents = EVAL / "pdfs" / "en"
    if not documents.is_dir():
        print(f"evaluation data not found at {documents}", file=sys.stderr)
        return 2
    questions = [json.loads(line) for line in args.set.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    missing = sorted({q["doc"] for q in questions if not (documents / q["doc"]).is_file()})
    if missing:
        print(f"documents the set names are missing: {', '.join(missing)}", file=sys.stderr)
        return 2
    temp_home("tables")
    from desktop_app.answer.events import Done
    from desktop_app.app import build_app

    app = build_app(llm=None)
    started = time.perf_counter()
    pdfs = sorted(documents.rglob("*.pdf"))
    last = list(app.pipeline.run(pdfs))[-1]
    index_seconds = round(time.perf_counter() - started, 1)
    print(f"indexed {last.indexed} of {len(pdfs)} PDFs in {index_seconds} s", file=sys.stderr)
    outcomes = []
    for question in questions:
        done = [e for e in app.answer_service.ask(question["question"], sources_only=True)
                if isinstance(e, Done)][-1]
        quotes = [c.quote.text for c in done.citations if c.quote is not None]
        first_block = done.answer.split("\n\n")[0] if done.citations else ""
        first = bool(quotes) and question["row"] in quotes[0]
        lines = first_block.splitlines()
        at = next((i for i, line in enumerate(lines) if question["row"] in line), -1)
        outcomes.append({
            "id": question["id"], "question": question["question"], "first": first,
            "anywhere": any(question["row"] in q for q in quotes),
            "under_header": first and at > 0 and " | " in lines[at - 1],
            "under_title": first and at > 0 and " | " not in lines[at - 1],
            "not_found": not done.citations, "first_quote": quotes[0] if quotes else ""})
        mark = "ok " if first else ("2nd" if outcomes[-1]["anywhere"] else "no ")
        print(f"{mark} {question['id']} {question['question']}", file=sys.stderr)
    firsts = [o for o in outcomes if o["first"]]
    report = {
        "set": str(args.set.relative_to(REPO)), "questions": len(outcomes),
        "documents": len(pdfs), "index_seconds": index_seconds,
        "first_quote_holds_row": round(len(firsts) / len(outcomes), 4),
        "answer_holds_row": round(sum(o["anywhere"] for o in outcomes) / len(outcomes), 4),
        "first_row_under_header": (round(sum(o["under_header"] for o in firsts) / len(firsts), 4)
                                   if firsts else None),
        "first_row_under_title": (round(sum(o["under_title"] for o in firsts) / len(firsts), 4)
                                  if firsts else None),
        "not_found": round(sum(o["not_found"] for o in outcomes) / len(outcomes), 4),
        "outcomes": outcomes,
    }
    print(json.dumps({k: v for k, v in report.items() if k != "outcomes"}, indent=2))
    save("answers-tables", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
