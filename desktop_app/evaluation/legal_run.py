"""`desktop-app eval answers DOCS_DIR SET.jsonl`: the legal dev set asked of real documents.

Method. The documents the set names are ingested through the app's own pipeline
(`IngestPipeline`: loader, chunker, embedder, LanceDB) into an index cached under the
app's cache dir, keyed by the files, the embedder, the chunk settings and the source of
the packages that turn a file into chunks (ingest, text, retrieval), so a change there
re-ingests. A fresh composition root in a temporary ACERVO_HOME (memory off) then asks,
sources-only: single questions through `AnswerService.ask` (as `ask` does), follow-up
pairs as two turns of one conversation through `ChatService.turn` (as the window and
`chat` do), so whatever the app carries from one turn to the next is used. The first
quote is placed in the document by the page texts the loader gives (the coordinates
of `Citation.quote`) and the article starts found there (`legal_text`); revoked wording
comes from the PDF's struck-through spans. Scores: `evaluation.legal`.
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import desktop_app
from desktop_app.answer.events import Citation, Done, WarningCode
from desktop_app.errors import AppError
from desktop_app.evaluation.answers import evaluation_app, with_overrides
from desktop_app.evaluation.legal import (
    LegalOutcome,
    LegalQuestion,
    load_legal_set,
    outcome_dict,
    score_legal,
)
from desktop_app.evaluation.legal_text import (
    ArticleStart,
    RevokedText,
    article_at,
    article_starts,
    read_pdf_text,
)

SOURCE_PACKAGES = ("ingest", "text", "retrieval")  # what turns a file into indexed chunks
PROBE_CHARS = 40


@dataclass
class DocumentFacts:
    """One document as the eval reads it: the indexed page texts, articles, revoked text."""

    pages: dict[int, str]
    starts: list[ArticleStart]
    revoked: RevokedText | None

    def place(self, page: int, offset: int, text: str) -> tuple[int, int, bool]:
        """(page, offset) of `text`, checked against the page texts: the given place when the
        text is there, else where the page (or, failing that, the document) holds it."""
        probe = " ".join(text.split())[:PROBE_CHARS]
        here = self.pages.get(page, "")
        if probe and " ".join(here[offset:offset + 3 * len(probe)].split()).startswith(probe):
            return page, offset, True
        for number in [page] + [n for n in sorted(self.pages) if n != page]:
            found = self.pages[number].find(probe) if probe else -1
            if found >= 0:
                return number, found, True
        return page, offset, False


def read_document(path: Path, settings: Any) -> DocumentFacts:
    from desktop_app.ingest.loaders import load_document

    loaded = load_document(path, max_pages=settings.max_pages_per_document)
    pages = {p.number: p.text for p in loaded.pages}
    revoked = RevokedText(read_pdf_text(path)) if path.suffix.lower() == ".pdf" else None
    return DocumentFacts(pages, article_starts(pages), revoked)


def _source_fingerprint() -> str:
    h = hashlib.sha256()
    root = Path(desktop_app.__file__).parent
    for package in SOURCE_PACKAGES:
        for source in sorted((root / package).rglob("*.py")):
            h.update(source.relative_to(root).as_posix().encode())
            h.update(source.read_bytes())
    return h.hexdigest()


def build_document_index(app: Any, paths: list[Path], settings: Any, cache_root: Path,
                         say: Callable[[str], None]) -> Any:
    """The documents ingested by the app's pipeline into a cached home; returns its index."""
    from desktop_app.config.paths import AppPaths

    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    h.update(f"{app.embedder.id}|{settings.chunk_chars}|{settings.chunk_overlap}|"
             f"{settings.max_pages_per_document}|{_source_fingerprint()}".encode())
    home = cache_root / f"documents-{h.hexdigest()[:16]}"
    done = home / "COMPLETE"
    built = type(app)(AppPaths(home / "config", home / "data", home / "cache",
                               home / "logs").ensure(), settings, embedder=app.embedder)
    if not done.exists():
        from desktop_app.ingest.events import FileDone, FileFailed, RunDone

        say(f"ingesting {len(paths)} documents through the app's pipeline")
        for event in built.pipeline.run(paths, prune_missing=False):
            if isinstance(event, FileFailed):
                raise AppError(f"could not ingest {Path(event.path).name}: {event.reason}")
            if isinstance(event, FileDone):
                say(f"ingested {Path(event.path).name}: {event.pages} pages, {event.chunks} chunks")
            if isinstance(event, RunDone) and event.stopped:
                raise AppError(f"ingest stopped: {event.stopped}")
        done.write_text("ok", encoding="utf-8")
    return built.index


def _done_of(events: Iterator[Any]) -> Done:
    done: Done | None = None
    for event in events:  # drain: a chat turn stores the answer after Done
        if isinstance(event, Done):
            done = event
    assert done is not None, "an answer always ends with Done"
    return done


def _outcome(question: LegalQuestion, turn: int, done: Done, facts: dict[str, DocumentFacts],
             conversation: str | None = None) -> LegalOutcome:
    abstained = done.warned(WarningCode.NOT_FOUND)
    quotes = sorted(done.citations, key=lambda c: c.number)
    first: Citation | None = quotes[0] if quotes and not abstained else None
    first_at, located, first_block = None, True, ""
    if first is not None:
        name = Path(first.source_path).name
        page, offset, text = first.page, first.char_start, first.snippet
        if first.quote is not None:
            page, offset, text = first.quote.page, first.quote.char_start, first.quote.text
        first_block = text
        document = facts.get(name)
        if document is not None:
            page, offset, located = document.place(page, offset, text)
            start = article_at(document.starts, page, offset)
            first_at = (name, start.part, start.label) if start else (name, -1, "")
        else:
            first_at = (name, -1, "")
    answer = "" if abstained else done.answer
    revoked = next((found for doc in facts.values()  # any document's revoked words count
                    if doc.revoked is not None and (found := doc.revoked.quotes_revoked(answer))),
                   None)
    timings = done.trace.get("timings", {})
    trace = {"searched_for": done.trace.get("searched_for"), "conversation": conversation,
             "respelled": done.trace.get("respelled", {}),
             "respelled_by_meaning": done.trace.get("respelled_by_meaning", {}),
             "evidence": done.trace.get("evidence", {})}
    return LegalOutcome(question, turn, abstained, answer, first_block, first_at, located,
                        revoked, float(timings.get("answer_ms", 0.0)), trace)


def run_legal_eval(app: Any, docs_dir: Path, set_path: Path, *, limit: int | None = None,
                   overrides: dict[str, Any] | None = None,
                   progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Ingest the set's documents, ask every question sources-only; returns the report."""
    say = progress or (lambda _message: None)
    questions = load_legal_set(set_path)[:limit]
    names = sorted({q.doc for q in questions})
    paths = [docs_dir / name for name in names]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise AppError(f"not found in {docs_dir}: {', '.join(missing)}")
    settings = with_overrides(app.settings, overrides)
    started = time.perf_counter()
    index = build_document_index(app, paths, settings, app.paths.cache_dir / "eval", say)
    facts = {path.name: read_document(path, settings) for path in paths}
    report: dict[str, Any] = {"corpus": docs_dir.name, "documents": names, "qa": set_path.name,
                              "index_seconds": round(time.perf_counter() - started, 1),
                              "embedder": app.embedder.id, "mode": "sources_only",
                              "settings_overrides": dict(overrides or {})}
    outcomes: list[LegalOutcome] = []
    with tempfile.TemporaryDirectory(prefix="acervo-eval-legal-") as home:
        evaluated = evaluation_app(app, index, Path(home), overrides)
        service = evaluated.answer_service
        report["abstention"] = service.abstention_report()
        chat = evaluated.chat
        for n, question in enumerate(questions, start=1):
            if question.followup is None:
                done = _done_of(service.ask(question.text, sources_only=True))
                outcomes.append(_outcome(question, 1, done, facts))
            else:
                conversation = chat.new_conversation()
                for turn, asked in ((1, question), (2, question.followup)):
                    done = _done_of(chat.turn(conversation, asked.text, sources_only=True))
                    outcomes.append(_outcome(asked, turn, done, facts, conversation))
            if n % 20 == 0 or n == len(questions):
                say(f"asked {n}/{len(questions)}")
    report.update(score_legal(outcomes))
    report["outcomes"] = [outcome_dict(o) for o in outcomes]
    return report
