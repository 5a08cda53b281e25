"""In-domain unanswerable questions for a BEIR corpus: its own questions, with the
paragraphs that answer them taken out of the library.

Split. Each paragraph is removed or kept by a hash of its id (`REMOVED_SHARE` of them
removed, the same split on every run and machine). Single paragraphs go, not whole
articles or topics: their siblings on the same subject stay, so the library still
talks about what the question asks — the hard case for a "not found" gate. The kept
paragraphs are indexed once (cached like any eval corpus).

Questions. A question whose judged paragraphs were all removed is an in-domain
unanswerable only when nothing left in the library answers it:
- with gold answer strings (FaQuAD): no kept paragraph contains any of them (folded
  words, whole words);
- without (Pirá, judged paragraphs only): the question's rare content terms — those
  in at most `RARE_SHARE` of the corpus's paragraphs, where an answer's specifics
  live — are not all found together in any one kept paragraph; a question without
  rare terms is dropped (nothing shows it is specific to its paragraph).
Questions whose judged paragraphs were all kept are the answerable ones of this
setting (`false_abstention_answerable` there); the rest (some gold kept, some
removed, or removed but still answered elsewhere) are left out.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.evaluation.answers import (
    Question,
    ask_one,
    evaluation_app,
    normalize,
    outcome_dict,
    with_overrides,
)
from desktop_app.evaluation.retrieval import BeirSet

REMOVED_SHARE = 0.3
SALT = "acervo-indomain-1"
RARE_SHARE = 0.05


@dataclass(frozen=True)
class InDomainSplit:
    kept: BeirSet  # the corpus without the removed paragraphs
    removed: frozenset[str]
    unanswerable: list[Question]
    answerable: list[Question]
    still_answered: int  # gold removed, but a kept paragraph still answers: left out
    share: float = REMOVED_SHARE

    def summary(self) -> dict[str, Any]:
        return {"removed_share": self.share, "docs_kept": len(self.kept.corpus),
                "docs_removed": len(self.removed),
                "unanswerable_questions": len(self.unanswerable),
                "answerable_questions": len(self.answerable),
                "left_out_still_answered": self.still_answered}


def is_removed(doc_id: str, share: float = REMOVED_SHARE) -> bool:
    digest = hashlib.sha256(f"{SALT}:{doc_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64 < share


def _paragraph(doc: dict[str, Any]) -> str:
    return f"{doc.get('title', '')} {doc['text']}"


def _terms(text: str) -> frozenset[str]:
    from desktop_app.text.analyze import content_terms
    from desktop_app.text.stopwords import ASKING_WORDS, STOPWORDS

    return content_terms(text, ignore=STOPWORDS | ASKING_WORDS)


def indomain_split(beir: BeirSet, questions: list[Question], share: float = REMOVED_SHARE,
                   rare_share: float = RARE_SHARE) -> InDomainSplit:
    """The kept corpus and the two question groups of the setting (module docstring)."""
    removed = frozenset(d["_id"] for d in beir.corpus if is_removed(d["_id"], share))
    kept_docs = [d for d in beir.corpus if d["_id"] not in removed]
    kept_text = [f" {normalize(_paragraph(d))} " for d in kept_docs]
    kept_terms = [_terms(_paragraph(d)) for d in kept_docs]
    df: Counter[str] = Counter(t for d in beir.corpus for t in _terms(_paragraph(d)))
    rare_df = max(1, int(rare_share * len(beir.corpus)))

    def answered_elsewhere(q: Question) -> bool:
        if q.answers:
            golds = [f" {g} " for g in (normalize(a) for a in q.answers) if g]
            return any(g in text for g in golds for text in kept_text)
        rare = {t for t in _terms(q.text) if df[t] <= rare_df}
        return not rare or any(rare <= terms for terms in kept_terms)

    unanswerable, answerable, still = [], [], 0
    for q in questions:
        if not q.doc_ids:
            continue
        if q.doc_ids <= removed:
            if answered_elsewhere(q):
                still += 1
            else:
                unanswerable.append(q)
        elif not q.doc_ids & removed:
            answerable.append(q)
    kept = BeirSet(f"{beir.name}-indomain", kept_docs, beir.queries, beir.qrels)
    return InDomainSplit(kept, removed, unanswerable, answerable, still, share)


def run_indomain(app: Any, beir: BeirSet, questions: list[Question], *,
                 overrides: dict[str, Any] | None = None,
                 progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Index the kept paragraphs, ask both groups sources-only; the setting's figures."""
    from desktop_app.evaluation.retrieval import build_eval_index

    say = progress or (lambda _message: None)
    split = indomain_split(beir, questions)
    settings = with_overrides(app.settings, overrides)
    index = build_eval_index(split.kept, app.embedder, settings, app.paths.cache_dir / "eval",
                             lambda n, total: say(f"indexed {n}/{total} kept docs")
                             if n % 50 == 0 or n == total else None)
    with tempfile.TemporaryDirectory(prefix="acervo-eval-indomain-") as home:
        service = evaluation_app(app, index, Path(home), overrides).answer_service
        say(f"in-domain: {len(split.unanswerable)} unanswerable + "
            f"{len(split.answerable)} answerable questions")
        unanswerable = [ask_one(service, q, sources_only=True) for q in split.unanswerable]
        answerable = [ask_one(service, q, sources_only=True) for q in split.answerable]

    def rate(outcomes: list[Any]) -> float | None:
        return round(sum(o.abstained for o in outcomes) / len(outcomes), 4) if outcomes else None

    return {"abstention_indomain": rate(unanswerable),
            "false_abstention_answerable": rate(answerable), **split.summary(),
            "unanswerable_ids": [q.id for q in split.unanswerable],
            "abstained_answerable_ids": [o.question.id for o in answerable if o.abstained],
            # every question's evidence, for calibrating the gate (left out of bench JSONs)
            "outcomes": [{**outcome_dict(o), "answerable": group == "answerable"}
                         for group, outcomes in (("unanswerable", unanswerable),
                                                 ("answerable", answerable))
                         for o in outcomes]}
