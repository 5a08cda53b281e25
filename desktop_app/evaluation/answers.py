"""Answer evaluation: `desktop-app eval answers CORPUS_DIR QA.jsonl [--unanswerable OTHER.jsonl]
[--indomain] [--settings FILE.json]` (a folder of documents with a legal set instead:
`evaluation.legal_run`).

Method. The BEIR corpus is indexed through the real chunker, embedder and LanceDB
index (`evaluation.retrieval.build_eval_index`, cached per corpus and embedder); a
fresh composition root in a temporary ACERVO_HOME (memory off, the user's model
settings) then asks every question through the real `AnswerService`, exactly as the
CLI `ask` does: rewrite, hybrid search, rerank if configured, abstention, answer.

Scores (texts compared accent- and case-folded, punctuation as spaces):
- `first_block_contains_gold`: the first quoted sentence/block holds a gold span;
- `answer_contains_gold`: the whole shown answer holds one;
- `citation_precision`: badges that point into the gold paragraph, over all badges;
- `abstention_unanswerable`: questions of another set, asked against this corpus,
  answered "not found";
- `false_abstention_answerable`: this corpus's own questions answered "not found";
- with `indomain`: `abstention_indomain`, this corpus's questions answered "not found"
  once their paragraphs are taken out of it, and `false_abstention_answerable_indomain`,
  the others in that smaller library (`evaluation.indomain`);
- latency: p50 of the answer step after retrieval (ranking, abstention, the answer),
  with the retrieval time beside it.
A question answered "not found" counts as a miss for the gold-span scores.
"""

from __future__ import annotations

import dataclasses
import json
import re
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.answer import citations as cit
from desktop_app.answer.events import Done, WarningCode
from desktop_app.text.fold import fold

MODES = ("sources_only", "written")


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    answers: tuple[str, ...] = ()  # gold spans (empty: not scored for content)
    doc_ids: frozenset[str] = frozenset()  # paragraphs that hold the answer


@dataclass
class Outcome:
    """What one question got."""

    question: Question
    abstained: bool
    first_block: str
    answer: str
    cited_docs: list[str]
    retrieval_ms: float
    answer_ms: float
    embedded: int = 0  # sentence vectors computed (0: all came from the cache)
    evidence: dict[str, Any] = field(default_factory=dict)


def normalize(text: str) -> str:
    """Folded words separated by single spaces (the comparison form of every score)."""
    return " ".join(re.findall(r"\w+", fold(cit.MARKER.sub(" ", text))))


def contains_gold(text: str, answers: Iterable[str]) -> bool:
    shown = normalize(text)
    return any(gold and gold in shown for gold in (normalize(a) for a in answers))


def _jsonl(path: Path) -> Iterable[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def load_questions(path: Path, qrels: dict[str, dict[str, int]] | None = None) -> list[Question]:
    """A QA file ({query_id, question, answers, doc_id}) or BEIR queries ({_id, text});
    BEIR questions take their gold paragraphs from `qrels` when given."""
    out: list[Question] = []
    for row in _jsonl(path):
        qid = str(row.get("query_id") or row.get("_id") or row.get("id") or len(out))
        text = str(row.get("question") or row.get("text") or "").strip()
        if not text:
            continue
        answers = tuple(str(a) for a in row.get("answers") or ())
        docs = {str(row["doc_id"])} if row.get("doc_id") else set((qrels or {}).get(qid, {}))
        out.append(Question(qid, text, answers, frozenset(docs)))
    if not out:
        raise ValueError(f"no questions in {path}")
    return out


def ask_one(service: Any, question: Question, *, sources_only: bool) -> Outcome:
    done: Done | None = None
    for event in service.ask(question.text, sources_only=sources_only):
        if isinstance(event, Done):
            done = event
    assert done is not None, "the answer service always ends with Done"
    timings = done.trace.get("timings", {})
    retrieval = (float(timings.get("embed_ms", 0.0)) + float(timings.get("search_ms", 0.0))
                 + float(timings.get("rerank_ms", 0.0)))  # the question is embedded once, first
    quotes = sorted(done.citations, key=lambda c: c.number)
    first = quotes[0].quote.text if quotes and quotes[0].quote else _first_line(done.answer)
    abstained = done.warned(WarningCode.NOT_FOUND)
    return Outcome(question, abstained, "" if abstained else first,
                   "" if abstained else done.answer, [c.doc_id for c in done.citations],
                   retrieval, float(timings.get("answer_ms", 0.0)),
                   int(done.trace.get("sentences_embedded", 0)),
                   dict(done.trace.get("evidence", {})))


def _first_line(answer: str) -> str:
    return answer.strip().split("\n", 1)[0] if answer.strip() else ""


def _p(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1], 1)


def score(answerable: list[Outcome], unanswerable: list[Outcome]) -> dict[str, Any]:
    """The report's figures (see the module docstring)."""
    with_gold = [o for o in answerable if o.question.answers]
    with_docs = [o for o in answerable if o.question.doc_ids]
    badges = [(o, d) for o in with_docs for d in o.cited_docs]
    answered = [o for o in answerable if not o.abstained]

    def rate(items: list[Any], predicate: Callable[[Any], bool]) -> float | None:
        return round(sum(1 for i in items if predicate(i)) / len(items), 4) if items else None

    return {
        "first_block_contains_gold": rate(with_gold,
                                          lambda o: contains_gold(o.first_block, o.question.answers)),
        "answer_contains_gold": rate(with_gold, lambda o: contains_gold(o.answer, o.question.answers)),
        "citation_precision": rate(badges, lambda b: b[1] in b[0].question.doc_ids),
        "abstention_unanswerable": rate(unanswerable, lambda o: o.abstained),
        "false_abstention_answerable": rate(answerable, lambda o: o.abstained),
        "answer_step_ms_p50": _p([o.answer_ms for o in answerable + unanswerable], 50),
        "answer_step_ms_p90": _p([o.answer_ms for o in answerable + unanswerable], 90),
        "answer_step_cold_ms_p50": _p([o.answer_ms for o in answerable + unanswerable
                                       if o.embedded >= 10], 50),
        "retrieval_ms_p50": _p([o.retrieval_ms for o in answerable + unanswerable], 50),
        "questions": len(answerable),
        "unanswerable_questions": len(unanswerable),
        "questions_with_gold_spans": len(with_gold),
        "mean_blocks": round(statistics.mean(o.answer.count("[") for o in answered), 2)
        if answered else None,
        "badges": len(badges),
    }


def with_overrides(settings: Any, overrides: dict[str, Any] | None) -> Any:
    """`settings` with some fields replaced (an eval's calibration or experiment, e.g.
    {"abstain_min_margin": 0.05}); ValueError for a name that is not a setting."""
    if not overrides:
        return settings
    from desktop_app.config.settings import Settings

    unknown = sorted(set(overrides) - {f.name for f in dataclasses.fields(Settings)})
    if unknown:
        raise ValueError(f"not settings: {', '.join(unknown)}")
    return Settings.from_dict({**settings.to_dict(), **overrides})


def load_overrides(path: Path | None) -> dict[str, Any]:
    """A settings-override file: one JSON object of setting names and values."""
    if path is None:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: expected a JSON object of settings")
    return data


def evaluation_app(app: Any, index: Any, home: Path,
                   overrides: dict[str, Any] | None = None) -> Any:
    """A composition root in `home` (the same class as `app`, so nothing here reaches up
    to `desktop_app.app`) that shares `app`'s embedder and uses `index`; `overrides`
    replace settings (a calibration the eval is run with)."""
    from desktop_app.config.paths import AppPaths

    settings = dataclasses.replace(with_overrides(app.settings, overrides),
                                   memory_enabled=False, implicit_extraction=False)
    paths = AppPaths(home / "config", home / "data", home / "cache", home / "logs").ensure()
    evaluated = type(app)(paths, settings, embedder=app.embedder)
    evaluated.use_index(index)  # `index` is a property: a plain attribute would not stick
    return evaluated


def run_answer_eval(app: Any, corpus_dir: Path, qa_path: Path, unanswerable_path: Path | None,
                    *, limit: int | None = None, written: bool | None = None,
                    indomain: bool = False, overrides: dict[str, Any] | None = None,
                    progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Index `corpus_dir`, ask every question; returns the report (see module docstring).
    `indomain`: also the in-domain unanswerable setting (`evaluation.indomain`);
    `overrides`: settings the questions are answered with (e.g. a calibration)."""
    from desktop_app.evaluation.retrieval import build_eval_index, load_beir

    say = progress or (lambda _message: None)
    beir = load_beir(corpus_dir)
    questions = load_questions(qa_path, beir.qrels)[:limit]
    others = load_questions(unanswerable_path)[:limit] if unanswerable_path else []
    started = time.perf_counter()
    index = build_eval_index(beir, app.embedder, with_overrides(app.settings, overrides),
                             app.paths.cache_dir / "eval",
                             lambda n, total: say(f"indexed {n}/{total} docs")
                             if n % 50 == 0 or n == total else None)
    report: dict[str, Any] = {"corpus": beir.name, "docs": len(beir.corpus),
                              "qa": qa_path.name,
                              "unanswerable": unanswerable_path.name if unanswerable_path else None,
                              "index_seconds": round(time.perf_counter() - started, 1),
                              "embedder": app.embedder.id,
                              "settings_overrides": dict(overrides or {})}
    with tempfile.TemporaryDirectory(prefix="acervo-eval-") as home:
        evaluated = evaluation_app(app, index, Path(home), overrides)
        service = evaluated.answer_service
        report["abstention"] = service.abstention_report()
        modes = ["sources_only"]
        capable = service.uses_llm(sources_only=False)
        if capable and written is not False:
            modes.append("written")
        else:
            why = ("skipped on request (--sources-only)" if capable else
                   "no capable language model is configured (sources-only answers only)")
            report["written"] = {"run": False, "why": why}
        for mode in modes:
            sources_only = mode == "sources_only"
            say(f"{mode}: {len(questions)} questions + {len(others)} from another set")
            answerable = [ask_one(service, q, sources_only=sources_only) for q in questions]
            unanswerable = [ask_one(service, q, sources_only=sources_only) for q in others]
            figures = score(answerable, unanswerable)
            if sources_only:
                report.update(figures)
                report["outcomes"] = [outcome_dict(o) for o in answerable + unanswerable]
            else:
                report["written"] = {"run": True, "llm": getattr(service.llm, "name", None),
                                     **figures}
    if indomain:
        from desktop_app.evaluation.indomain import run_indomain

        setting = run_indomain(app, beir, questions, overrides=overrides, progress=say)
        report["abstention_indomain"] = setting["abstention_indomain"]
        report["false_abstention_answerable_indomain"] = setting["false_abstention_answerable"]
        report["indomain"] = setting
    return report


def outcome_dict(o: Outcome) -> dict[str, Any]:
    """One question's outcome as an eval JSON keeps it (what was quoted first, the evidence)."""
    return {"id": o.question.id, "abstained": o.abstained, "first_block": o.first_block[:300],
            "cited_docs": o.cited_docs, "gold_docs": sorted(o.question.doc_ids),
            "answer_ms": o.answer_ms, "retrieval_ms": round(o.retrieval_ms, 1),
            "evidence": o.evidence}


# -- follow-up questions on a law (model-free rewrite) ------------------------------------------

def article_labels(pages: dict[int, str]) -> list[tuple[tuple[int, int], str]]:
    """Where each "Art. N" of a Brazilian law begins: ((page, offset), "N" or "55-J")
    (`legal_text.article_starts`)."""
    from desktop_app.evaluation.legal_text import article_starts

    return [((s.page, s.offset), s.label) for s in article_starts(pages)]


def articles_in(hit: Any, labels: list[tuple[tuple[int, int], str]]) -> set[str]:
    """The articles a chunk holds text of: the one it starts inside, and any it opens."""
    start, end = (hit.page_start, hit.char_start), (hit.page_end, hit.char_end)
    before = [label for position, label in labels if position <= start]
    inside = {label for position, label in labels if start <= position < end}
    return inside | set(before[-1:])


def followup_retrieval(pairs: list[dict[str, str]], search: Callable[[str], list[Any]],
                       labels: list[tuple[tuple[int, int], str]], *, k: int = 3
                       ) -> dict[str, Any]:
    """For each (question, follow-up, article): is the article in the top `k` when the
    follow-up is searched as typed, and when searched through the model-free rewrite?"""
    from desktop_app.answer.rewrite import standalone_query

    rows: list[dict[str, Any]] = []
    for pair in pairs:
        history = [{"role": "user", "content": pair["question"]},
                   {"role": "assistant", "content": ""}]
        query = standalone_query(pair["followup"], history).query
        plain = any(pair["article"] in articles_in(h, labels) for h in search(pair["followup"])[:k])
        rewritten = any(pair["article"] in articles_in(h, labels) for h in search(query)[:k])
        rows.append({**pair, "searched_for": query, "as_typed": plain, "rewritten": rewritten})
    n = max(len(rows), 1)
    return {"pairs": len(rows), "k": k,
            "top_k_as_typed": round(sum(bool(r["as_typed"]) for r in rows) / n, 4),
            "top_k_with_rewrite": round(sum(bool(r["rewritten"]) for r in rows) / n, 4),
            "rows": rows}
