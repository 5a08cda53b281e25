"""Fit the "not found" gate (answer/gate.py) on several corpora at once, and report each
corpus with a gate fitted without it.

Input: the `--json` outputs of `desktop-app eval answers` (sources-only), which keep every
question's evidence features: FaQuAD and Pirá run with `--unanswerable OTHER --indomain`,
and the legal dev set. Groups of questions:
- answerable: a corpus's own questions (full library), the in-domain setting's answerable
  ones, the legal set's answerable kinds (both turns of a follow-up);
- unanswerable: another set's questions (cross-domain), in-domain questions whose
  paragraphs were removed, the legal set's out-of-scope questions.
Every group weighs the same in the fit (a logistic regression on standardized features,
L2), so no corpus and no kind of question dominates. The threshold is the highest that
keeps false abstention at or under `--max-false` (0.03) on every training corpus and
answerable group (`--rule max`; `mean` bounds their mean instead). 0.03, not the 5 % a
held-out set is allowed: one set's questions can be harder than the training sets' (Pirá's
answerable questions score lower than FaQuAD's), and a gate trained at 0.04 abstained on
6-7 % of Pirá's answerable questions when Pirá was held out.

Which features (`--features`): "base", the first eleven of `abstain.gate_features`;
"value", base with `value_missing` and `value_missing_passage` (the question can only be
answered by a value — an amount, a duration, a date — and the first quote, or no quote and
its passage, states one: `kinds.asked_value`); or "all", value with
`abstain.SPECIFIC_FEATURES` (the question's library-rare words in the quote and its
passage, its names, the answer slot, contrasts with the best other place).

A sweep at commit 2aa772f plus this change (bound 0.025-0.04 × l2 0.01/0.1, each set held
out; figures in docs/answers.md "Abstention"): the settings that kept every
held-out set at 5 % false abstention or less were value 0.025 and 0.03 with l2 0.1, and
all 0.025/0.1. Value 0.03/0.1 abstained most: held-out in-domain FaQuAD 0.306, Pirá 0.591,
legal out-of-scope 0.444 (0.667 with the value rule of `abstain.assess`), at false
abstention 0.9 %, 4.4 %, 4.0 %; all 0.025/0.1 gave 0.224, 0.477, 0.500. Base at
0.03/0.01 (last round's default) let held-out Pirá reach 5.9 % false abstention. So
"value", 0.03, 0.1 are the defaults. The specific features stay in every answer's
evidence (the trace) for later fits.

Writes `resources/abstention/gate.json` (all corpora) and, for the held-out reports,
`bench/data/gates/without-<corpus>.json` plus `bench/data/gates/<corpus>.json`, a settings
override pointing at it (`bench/answers.py --calibration bench/data/gates`).

Usage: .venv/bin/python bench/fit_gate.py FAQUAD.json PIRA.json LEGAL.json [--max-false 0.03]
       [--l2 0.1] [--features base|value|all] [--rule max|mean]

Re-fitting after the answer selection changed (the features are read from what the
current code quotes; E=../shared/eval, OUT a scratch folder), then the held-out reports:
  python -m desktop_app eval answers $E/retrieval/faquad_pt $E/qa/faquad_pt.jsonl \
      --unanswerable $E/retrieval/pira_pt/queries.jsonl --indomain --sources-only \
      --json $OUT/faquad_pt.json
  python -m desktop_app eval answers $E/retrieval/pira_pt $E/retrieval/pira_pt/queries.jsonl \
      --unanswerable $E/qa/faquad_pt.jsonl --indomain --sources-only --json $OUT/pira_pt.json
  python -m desktop_app eval answers $E/pdfs/pt bench/data/legal_pt.jsonl --json $OUT/legal.json
  python bench/fit_gate.py $OUT/faquad_pt.json $OUT/pira_pt.json $OUT/legal.json
  python bench/answers.py --sources-only --calibration bench/data/gates
The gate does not change what is quoted, only whether "not found" is said, so the eval
outputs can be made with any gate in force (but for a legal follow-up, which reads the
quotes of the answer before it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from desktop_app.answer.abstain import SPECIFIC_FEATURES  # noqa: E402
from desktop_app.answer.gate import Gate, standardize, write_gate  # noqa: E402

BASE_FEATURES = ("margin", "first_margin", "coverage", "quote_coverage", "asks_type",
                 "type_found", "both_legs", "agree", "lead", "other_language", "absent")
VALUE_FEATURES = ("value_missing", "value_missing_passage")
FEATURES = (*BASE_FEATURES, *VALUE_FEATURES, *SPECIFIC_FEATURES)
FEATURE_SETS = {"base": BASE_FEATURES, "value": (*BASE_FEATURES, *VALUE_FEATURES), "all": FEATURES}
ANSWERABLE_GROUPS = ("own", "indomain_answerable", "legal_answerable")


def samples(path: Path) -> list[dict[str, Any]]:
    """(corpus, group, features) of every question an eval output holds."""
    report = json.loads(path.read_text(encoding="utf-8"))
    corpus = str(report.get("corpus") or path.stem)
    if report.get("documents"):  # a legal set over a folder of documents
        corpus = "legal"
    out = []
    own = int(report.get("questions") or 0)  # outcomes: the corpus's questions, then others'
    for i, o in enumerate(report.get("outcomes", [])):
        features = (o.get("evidence") or {}).get("features")
        if not features:
            continue  # no quotable sentence: abstained before any gate
        if "kind" in o:  # the legal set
            group = "legal_oos" if o["kind"] == "out_of_scope" else "legal_answerable"
        else:
            group = "own" if i < own else "cross"
        out.append({"corpus": corpus, "group": group, "features": features})
    for o in (report.get("indomain") or {}).get("outcomes", []):
        features = (o.get("evidence") or {}).get("features")
        if features:
            group = "indomain_answerable" if o["answerable"] else "indomain_unanswerable"
            out.append({"corpus": corpus, "group": group, "features": features})
    return out


def _matrix(rows: Sequence[dict[str, Any]], mean: Sequence[float],
            scale: Sequence[float], features: Sequence[str] = FEATURES) -> np.ndarray:
    raw = np.array([[float(r["features"].get(n, m)) for n, m in zip(features, mean, strict=True)]
                    for r in rows])  # a feature not measured for a question: at its mean
    return (raw - np.asarray(mean)) / np.asarray(scale)


def fit(rows: Sequence[dict[str, Any]], *, l2: float = 0.1, max_false: float = 0.03,
        steps: int = 4000, features: Sequence[str] = FEATURES,
        group_weight: dict[str, float] | None = None, rule: str = "max") -> Gate:
    mean, scale = standardize([r["features"] for r in rows], features)
    x = _matrix(rows, mean, scale, features)
    y = np.array([r["group"] in ANSWERABLE_GROUPS for r in rows], dtype=float)
    groups = [(r["corpus"], r["group"]) for r in rows]
    size = {g: groups.count(g) for g in set(groups)}
    weight = np.array([(group_weight or {}).get(g[1], 1.0) / size[g] for g in groups])
    weight /= weight.sum()
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        error = (p - y) * weight
        w -= 1.0 * (x.T @ error + l2 * w)
        b -= 1.0 * error.sum()
    probability = 1 / (1 + np.exp(-(x @ w + b)))
    threshold = _threshold(rows, probability, max_false, rule)
    corpora = tuple(sorted({r["corpus"] for r in rows}))
    return Gate(tuple(features), tuple(mean), tuple(scale), tuple(float(v) for v in w), float(b),
                threshold, corpora)


def _threshold(rows: Sequence[dict[str, Any]], probability: np.ndarray,
               max_false: float, rule: str = "max") -> float:
    """The highest threshold whose false abstention is <= max_false: on every training
    corpus and answerable group (`rule` "max"), or on their mean (each corpus's groups
    averaged, then the corpora; "mean": a few hopeless questions of one small set do not
    decide alone)."""
    corpora = sorted({r["corpus"] for r in rows})
    groups = {(c, g): np.array([p for r, p in zip(rows, probability, strict=True)
                                if r["corpus"] == c and r["group"] == g])
              for c in corpora for g in ANSWERABLE_GROUPS}
    groups = {k: v for k, v in groups.items() if len(v)}
    best = 0.0
    for t in np.linspace(0.0, 0.95, 191):
        rates = {k: float(np.mean(v < t)) for k, v in groups.items()}
        if rule == "max":
            worst = max(rates.values())
        else:
            worst = float(np.mean([np.mean([r for (c, _), r in rates.items() if c == corpus])
                                   for corpus in corpora]))
        if worst <= max_false:
            best = float(t)
    return round(best, 3)


def report(gate: Gate, rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Abstention rate per (corpus, group) under `gate`."""
    out: dict[str, dict[str, float]] = {}
    for corpus in sorted({r["corpus"] for r in rows}):
        for group in sorted({r["group"] for r in rows if r["corpus"] == corpus}):
            chosen = [r for r in rows if r["corpus"] == corpus and r["group"] == group]
            abstained = sum(gate.probability(r["features"]) < gate.threshold for r in chosen)
            out.setdefault(corpus, {})[group] = round(abstained / len(chosen), 4)
    return out


def _relative(path: Path) -> str:
    """A path as the repository names it (bench/answers.py resolves it from there)."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outputs", nargs="+", type=Path)
    parser.add_argument("--max-false", type=float, default=0.03)
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--features", choices=tuple(FEATURE_SETS), default="value")
    parser.add_argument("--rule", choices=("max", "mean"), default="max")
    parser.add_argument("--out", type=Path, default=REPO / "resources" / "abstention" / "gate.json")
    parser.add_argument("--heldout-dir", type=Path, default=REPO / "bench" / "data" / "gates")
    args = parser.parse_args()
    features = FEATURE_SETS[args.features]
    rows = [s for path in args.outputs for s in samples(path)]
    corpora = sorted({r["corpus"] for r in rows})
    print(f"{len(rows)} questions: " + ", ".join(
        f"{c} {sum(r['corpus'] == c for r in rows)}" for c in corpora))
    summary: dict[str, Any] = {"held_out": {}}
    for corpus in corpora:
        gate = fit([r for r in rows if r["corpus"] != corpus], max_false=args.max_false,
                   rule=args.rule, l2=args.l2, features=features)
        write_gate(gate, args.heldout_dir / f"without-{corpus}.json")
        (args.heldout_dir / f"{corpus}.json").write_text(json.dumps(
            {"abstain_gate_file": _relative(args.heldout_dir / f"without-{corpus}.json")})
            + "\n",
            encoding="utf-8")
        held = report(gate, [r for r in rows if r["corpus"] == corpus])[corpus]
        summary["held_out"][corpus] = held
        print(f"without {corpus} (threshold {gate.threshold}): {held}")
    gate = fit(rows, max_false=args.max_false, rule=args.rule, l2=args.l2, features=features)
    write_gate(gate, args.out)
    summary["all"] = report(gate, rows)
    print(f"all corpora (threshold {gate.threshold}): {summary['all']}")
    print("weights:", {n: round(w, 3) for n, w in zip(gate.features, gate.weights, strict=True)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
