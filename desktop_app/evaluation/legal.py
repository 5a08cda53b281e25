"""The legal dev set (questions on real laws) and its scores.

Set file: JSON Lines, one question a line (bench/data/legal_pt.jsonl):

    {"id": "lgpd-list-01", "doc": "lgpd.pdf", "kind": "list",
     "question": "Quais direitos o titular pode exigir do controlador …?",
     "article": "18", "path": "Art. 18",
     "items": ["confirmação da existência de tratamento", …]}

- `doc`: the file the question is about (a file name in the documents folder);
- `kind`: `list` | `fact` | `definition` | `followup` | `out_of_scope`;
- `article`: the article that answers, as printed without º/o ("18", "7", "55-J"), of the
  file's first law; `path`: the finer place ("Art. 19, II"), for the reader;
- `also` (optional): other articles that say the same in other words, each as right first
  (the LGPD's art. 29 and art. 55-J, XI both let the authority ask public bodies for a
  report on their processing);
- `items` (lists): every current item's distinctive verbatim phrase;
- `answers` (fact, definition, followup): verbatim phrases, any one is the answer;
- `followup` (followup only): `{question, article, path, answers}`, asked next in the
  same conversation;
- out_of_scope questions are on topic but the document does not answer them: no gold.
Every gold phrase occurs in the document's current (not struck-through) text.

Scores (texts compared as `answers.normalize` does: folded words; "not found" is a miss):
- `article_in_first_block`: the first quote lies inside the gold article — located in
  the indexed page texts by `legal_text.article_at`, never from the app's own labels;
- `lists_complete`: list questions whose answer holds every item; with
  `list_completeness_mean`, the mean share of items shown;
- `answer_contains_gold` / `first_block_contains_gold`: facts and definitions;
- `false_abstention`: answerable questions (every kind but out_of_scope, first turns)
  answered "not found"; `abstention_out_of_scope`: out_of_scope ones answered so;
- `revoked_quoted`: share of every answer given (all kinds, both turns) that shows
  distinctive struck-through wording (`legal_text.RevokedText`), with the count;
- `followups_answered`: follow-ups (asked in the same chat) whose answer holds a gold
  phrase; `followup_article_in_first_block` beside it.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.evaluation.answers import contains_gold, normalize

KINDS = ("list", "fact", "definition", "followup", "out_of_scope")


@dataclass(frozen=True)
class LegalQuestion:
    id: str
    doc: str
    kind: str
    text: str
    article: str = ""
    path: str = ""
    items: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    followup: LegalQuestion | None = None
    also: tuple[str, ...] = ()  # other articles saying the same, as right first

    @property
    def articles(self) -> tuple[str, ...]:
        """Every article whose quote first is right: `article`, then `also`."""
        return (self.article, *self.also)


def _question(row: dict[str, Any], where: str) -> LegalQuestion:
    kind = str(row.get("kind", ""))
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    text = str(row.get("question", "")).strip()
    if not text or not row.get("doc") or not row.get("id"):
        raise ValueError(f"{where}: id, doc and question are required")
    items = tuple(str(i) for i in row.get("items") or ())
    answers = tuple(str(a) for a in row.get("answers") or ())
    article = str(row.get("article", ""))
    if kind != "out_of_scope" and not article:
        raise ValueError(f"{where}: an answerable question needs its article")
    if kind == "list" and not items:
        raise ValueError(f"{where}: a list question needs its items")
    if kind in ("fact", "definition", "followup") and not answers:
        raise ValueError(f"{where}: a {kind} question needs its answers")
    followup = None
    if kind == "followup":
        second = row.get("followup")
        if not isinstance(second, dict):
            raise ValueError(f"{where}: a followup question needs its follow-up")
        followup = _question({**second, "id": f"{row['id']}/2", "doc": row["doc"],
                              "kind": "fact"}, where)
        followup = LegalQuestion(followup.id, followup.doc, "followup", followup.text,
                                 followup.article, followup.path, answers=followup.answers,
                                 also=followup.also)
    also = tuple(str(a) for a in row.get("also") or ())
    return LegalQuestion(str(row["id"]), str(row["doc"]), kind, text, article,
                         str(row.get("path", "")), items, answers, followup, also)


def load_legal_set(path: Path) -> list[LegalQuestion]:
    """The questions of a set file (see the module docstring); ValueError names the line."""
    questions: list[LegalQuestion] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            question = _question(json.loads(line), f"{path.name}:{number}")
            if question.id in seen:
                raise ValueError(f"{path.name}:{number}: duplicate id {question.id}")
            seen.add(question.id)
            questions.append(question)
    if not questions:
        raise ValueError(f"no questions in {path}")
    return questions


@dataclass
class LegalOutcome:
    """What one question (or a follow-up's second question, `turn` 2) got."""

    question: LegalQuestion
    turn: int
    abstained: bool
    answer: str  # the shown answer ("" when not found)
    first_block: str
    first_at: tuple[str, int, str] | None  # (file, part, article label) of the first quote
    located: bool = True  # False: the first quote could not be found in the page texts
    revoked: str | None = None  # revoked words the answer shows
    answer_ms: float = 0.0
    trace: dict[str, Any] = field(default_factory=dict)

    @property
    def in_gold_article(self) -> bool:
        q = self.question
        return not self.abstained and self.first_at is not None and any(
            self.first_at == (q.doc, 0, article) for article in q.articles)

    def items_found(self) -> list[bool]:
        shown = f" {normalize(self.answer)} "
        return [f" {normalize(item)} " in shown for item in self.question.items]


def _rate(items: list[Any], predicate: Callable[[Any], bool]) -> float | None:
    return round(sum(1 for i in items if predicate(i)) / len(items), 4) if items else None


def score_legal(outcomes: list[LegalOutcome]) -> dict[str, Any]:
    """The report's figures (see the module docstring)."""
    first = [o for o in outcomes if o.turn == 1]
    answerable = [o for o in first if o.question.kind != "out_of_scope"]
    lists = [o for o in first if o.question.kind == "list"]
    phrases = [o for o in first if o.question.kind in ("fact", "definition")]
    second = [o for o in outcomes if o.turn == 2]
    completeness = [sum(found) / len(found) for o in lists if (found := o.items_found())]
    revoked = [o for o in outcomes if o.revoked]
    kinds = {kind: [o for o in first if o.question.kind == kind] for kind in KINDS}
    kinds["followup_second"] = second
    return {
        "article_in_first_block": _rate(answerable, lambda o: o.in_gold_article),
        "lists_complete": _rate(lists, lambda o: all(o.items_found())),
        "list_completeness_mean": round(statistics.mean(completeness), 4) if completeness else None,
        "answer_contains_gold": _rate(phrases,
                                      lambda o: contains_gold(o.answer, o.question.answers)),
        "first_block_contains_gold": _rate(
            phrases, lambda o: contains_gold(o.first_block, o.question.answers)),
        "abstention_out_of_scope": _rate(kinds["out_of_scope"], lambda o: o.abstained),
        "false_abstention": _rate(answerable, lambda o: o.abstained),
        "revoked_quoted": _rate(outcomes, lambda o: bool(o.revoked)),
        "revoked_quoted_answers": len(revoked),
        "followups_answered": _rate(second, lambda o: contains_gold(o.answer, o.question.answers)),
        "followup_article_in_first_block": _rate(second, lambda o: o.in_gold_article),
        "first_block_unlocated": sum(1 for o in outcomes if not o.abstained and not o.located),
        "questions": len(first),
        "answers_given": len(outcomes),
        "per_kind": {kind: {
            "questions": len(group),
            "abstained": sum(o.abstained for o in group),
            "article_in_first_block": (None if kind == "out_of_scope"
                                       else _rate(group, lambda o: o.in_gold_article)),
        } for kind, group in kinds.items()},
    }


def outcome_dict(o: LegalOutcome) -> dict[str, Any]:
    """One question's outcome for the report's `outcomes` (kept out of committed JSONs)."""
    q = o.question
    row: dict[str, Any] = {"id": q.id, "kind": q.kind, "turn": o.turn, "abstained": o.abstained,
                           "gold_article": q.article, "first_at": list(o.first_at or ()),
                           "in_gold_article": o.in_gold_article, "located": o.located,
                           "first_block": o.first_block[:300], "answer": o.answer[:3000],
                           "revoked": o.revoked,
                           "answer_ms": o.answer_ms}
    if q.items:
        row["items_missing"] = [item for item, found in zip(q.items, o.items_found(),
                                                            strict=True) if not found]
    if q.answers:
        row["answer_contains_gold"] = contains_gold(o.answer, q.answers)
    row.update(o.trace)
    return row
