"""Redaction scoring for labelled sets: removed spans, person precision, untouched numbers.

A gold span counts as removed when every letter and digit of it lies inside some
finding, whatever the finding's type (what matters in a log is that the value is
gone; a partial cover leaks). A PERSON finding is correct when it overlaps a gold
PERSON span; PERSON findings on other personal data (a street named after someone)
are counted apart, neither right nor wrong. A NONPII span is touched when any
finding overlaps it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

Span = tuple[int, int, str]
Example = tuple[str, list[Span]]


def removed(text: str, start: int, end: int, covered: list[tuple[int, int]]) -> bool:
    for i in range(start, end):
        if text[i].isalnum() and not any(s <= i < e for s, e in covered):
            return False
    return True


def score_redaction(examples: list[Example], find: Callable[[str], list[Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    predictions = [find(text) for text, _ in examples]
    seconds = time.perf_counter() - started
    gold_total: Counter[str] = Counter()
    gold_removed: Counter[str] = Counter()
    caps_total = caps_removed = 0
    person_pred = person_correct = person_on_other_pii = 0
    nonpii_total = nonpii_touched = 0
    false_persons: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    touched: list[str] = []
    for (text, gold), preds in zip(examples, predictions, strict=True):
        covered = [(p.start, p.end) for p in preds]
        for start, end, kind in gold:
            if kind == "NONPII":
                nonpii_total += 1
                if any(s < end and start < e for s, e in covered):
                    nonpii_touched += 1
                    touched.append(text[start:end])
                continue
            gold_total[kind] += 1
            ok = removed(text, start, end, covered)
            gold_removed[kind] += ok
            if not ok:
                missed[f"{kind}: {text[start:end]}"] += 1
            if kind == "PERSON" and text[start:end].isupper():
                caps_total += 1
                caps_removed += ok
        for p in preds:
            if p.entity != "PERSON":
                continue
            hits = [k for s, e, k in gold if s < p.end and p.start < e and k != "NONPII"]
            if "PERSON" in hits:
                person_pred += 1
                person_correct += 1
            elif hits:
                person_on_other_pii += 1
            else:
                person_pred += 1
                false_persons[text[p.start:p.end]] += 1
    ids = [k for k in gold_total if k != "PERSON"]
    id_total = sum(gold_total[k] for k in ids)
    id_removed = sum(gold_removed[k] for k in ids)
    return {
        "lines": len(examples),
        "chars_per_line": round(sum(len(t) for t, _ in examples) / max(1, len(examples)), 1),
        "seconds": round(seconds, 2),
        "lines_per_s": round(len(examples) / seconds, 1) if seconds else None,
        "person_recall": _ratio(gold_removed["PERSON"], gold_total["PERSON"]),
        "person_recall_all_caps": _ratio(caps_removed, caps_total),
        "person_all_caps_gold": caps_total,
        "person_precision": _ratio(person_correct, person_pred),
        "person_findings_on_other_personal_data": person_on_other_pii,
        "labelled_id_recall": _ratio(id_removed, id_total),
        "non_pii_numbers": nonpii_total,
        "non_pii_numbers_replaced": nonpii_touched,
        "per_type": {k: {"gold": gold_total[k], "removed": gold_removed[k],
                         "recall": _ratio(gold_removed[k], gold_total[k])}
                     for k in sorted(gold_total)},
        "false_person_top": dict(false_persons.most_common(15)),
        "missed_top": dict(missed.most_common(25)),
        "non_pii_touched_examples": touched[:10],
    }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None
