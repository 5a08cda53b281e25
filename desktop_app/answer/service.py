"""The answer service: question → rewrite → search → rerank → prompt → streamed,
verified answer. Yields small events (`Progress`, `Token`, `CitationEvent`,
`MemoryUsed`, `Done`); the GUI turns them into signals, the CLI prints them. Always
ends with exactly one `Done`, also on cancel and on model failure (then it falls back
to a sources-only answer so the user still gets the passages).

Whether the model writes the answer is one decision (`mode()` / `use_llm`, policy in
`answer/mode.py`): a model too small to follow the answer prompt never does by
default, and when the model does not write, it does not rewrite follow-ups either.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from desktop_app.answer import citations as cit
from desktop_app.answer.events import (
    READING,
    SEARCHING,
    WRITING,
    Citation,
    CitationEvent,
    Done,
    MemoryUsed,
    Progress,
    Token,
)
from desktop_app.answer.extractive import extract_answer
from desktop_app.answer.llm import LLM, with_cancel
from desktop_app.answer.mode import EXPERIMENT_WARNING, MODEL_ERROR, AnswerMode, decide_mode
from desktop_app.answer.prompt import (
    AssembledPrompt,
    MemoryItem,
    NumberedSource,
    PromptTexts,
    all_not_found_phrases,
    all_prompt_markers,
    build_answer_prompt,
    detect_language,
    fallback_language,
    load_prompts,
    scrub_prompt_markers,
)
from desktop_app.answer.rerank import RERANK_CANDIDATES, RERANK_KEEP, Reranker
from desktop_app.answer.rewrite import RewriteResult, rewrite_query
from desktop_app.answer.stream_guard import LOOP, REPETITION, AnswerGuard
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.retrieval.types import Hit, SearchFilters

log = logging.getLogger(__name__)

AnswerStreamEvent = Token | CitationEvent | MemoryUsed | Progress | Done
CANCELLED = "cancelled"
MEMORY_K = 3


class Searcher(Protocol):
    def search(self, query: str, *, k: int | None = None,
               filters: SearchFilters | None = None) -> list[Hit]: ...


class MemoryRecall(Protocol):
    def recall(self, query: str, k: int) -> Sequence[Any]: ...


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 1)


def hit_trace(hit: Hit, number: int | None) -> dict[str, Any]:
    return {"number": number, "chunk_id": hit.chunk_id, "doc_id": hit.doc_id, "title": hit.title,
            "page_start": hit.page_start, "page_end": hit.page_end, "score": hit.score,
            "legs": sorted(hit.legs), "vector_rank": hit.vector_rank,
            "keyword_rank": hit.keyword_rank, "rerank_score": hit.rerank_score,
            "library": hit.library}


def citation_as_dict(c: Citation) -> dict[str, Any]:
    data = dataclasses.asdict(c)
    data["legs"] = sorted(c.legs)
    return data


def done_as_dict(done: Done) -> dict[str, Any]:
    """JSON-ready form of a `Done` (CLI `--json`, logs of the eval harness)."""
    return {"answer": done.answer, "citations": [citation_as_dict(c) for c in done.citations],
            "warnings": list(done.warnings), "sources_only": done.sources_only, "trace": done.trace}


class AnswerService:
    def __init__(self, searcher: Searcher, llm: LLM | None, settings: Settings, *,
                 memory: MemoryRecall | None = None, reranker: Reranker | None = None,
                 prompts_dir: Path | None = None, llm_error: AppError | None = None) -> None:
        self.searcher = searcher
        self.llm = llm
        self.settings = settings
        self.memory = memory
        self.reranker = reranker
        self.prompts_dir = prompts_dir
        self.llm_error = llm_error  # why there is no LLM (shown once per answer as a warning)

    def with_llm(self, llm: LLM | None) -> AnswerService:
        """The same service answering with another model (CLI `ask --model PATH`)."""
        return AnswerService(self.searcher, llm, self.settings, memory=self.memory,
                             reranker=self.reranker, prompts_dir=self.prompts_dir)

    def mode(self, *, sources_only: bool = False, experiment: bool = False) -> AnswerMode:
        """Who writes the answer: the model (big enough, or asked as an experiment) or the
        sources. `sources_only` / `experiment` are one question's requests."""
        return decide_mode(self.llm, self.settings, sources_only=sources_only,
                           experiment=experiment, llm_error=self.llm_error)

    @property
    def use_llm(self) -> bool:
        """Whether the model writes answers and rewrites follow-ups by default."""
        return self.mode().use_llm

    def ask(self, question: str, *, history: list[dict[str, str]] | None = None,
            sources_only: bool = False, filters: SearchFilters | None = None, k: int | None = None,
            cancel: Callable[[], bool] | None = None,
            experiment: bool = False) -> Iterator[AnswerStreamEvent]:
        started = time.perf_counter()
        question = question.strip()
        if not question:
            raise AppError("Type a question first.")
        is_cancelled = cancel or (lambda: False)
        texts = load_prompts(detect_language(question, fallback_language(self.settings.language)),
                             self.prompts_dir)
        yield Progress(SEARCHING)
        mode = self.mode(sources_only=sources_only, experiment=experiment)
        use_llm = mode.use_llm
        warnings: list[str] = []
        if mode.reason == MODEL_ERROR:  # the model the user chose is unusable: say why
            warnings.append(f"model unavailable: {mode.detail}")
        trace: dict[str, Any] = {"question": question, "language": texts.language,
                                 "llm": self.llm.name if use_llm and self.llm else None,
                                 "answer_mode": mode.as_dict(), "timings": {}}
        timings: dict[str, float] = trace["timings"]

        # the model rewrites follow-ups only when it writes answers for real: not in an
        # experiment (a model that small makes worse queries than the user's own words)
        rewriter = (with_cancel(self.llm, is_cancelled)
                    if use_llm and self.llm is not None and not mode.experiment else None)
        rewrite = rewrite_query(rewriter, question, history, texts)
        trace["rewrite"] = rewrite.trace()
        trace["rewritten_query"] = rewrite.query
        timings["rewrite_ms"] = round(rewrite.ms, 1)
        hits = self._retrieve(rewrite, filters, k, trace, warnings)
        memories = self._recall(rewrite.query, trace, warnings)
        for memory in memories:
            yield MemoryUsed(memory.id, memory.text)
        if is_cancelled():
            yield self._done("", (), [CANCELLED, *warnings], not use_llm, trace, started)
            return
        if not hits and not (use_llm and memories):
            # nothing to ground an answer on: say so without calling the model
            trace["mode"] = "not_found"
            yield Token(texts.not_found)
            yield self._done(texts.not_found, (), [cit.NOT_FOUND, *warnings], not use_llm, trace,
                             started)
            return
        if use_llm and self.llm is not None:
            if mode.experiment:
                warnings.append(EXPERIMENT_WARNING)
            try:
                yield from self._answer_with_llm(self.llm, question, rewrite, hits, memories, texts,
                                                 trace, warnings, is_cancelled, started)
                return
            except _FallBack as fallback:
                if EXPERIMENT_WARNING in warnings:  # the passages are shown, not the experiment
                    warnings.remove(EXPERIMENT_WARNING)
                warnings.append(f"model unavailable: {fallback.error.user_message}")
                trace["llm_error"] = fallback.error.user_message
        yield Progress(READING, len(hits))
        yield from self._answer_extractive(question, hits, texts, trace, warnings, started)

    # -- stages ---------------------------------------------------------------------------------

    def _retrieve(self, rewrite: RewriteResult, filters: SearchFilters | None, k: int | None,
                  trace: dict[str, Any], warnings: list[str]) -> list[Hit]:
        effective = filters if filters is not None else rewrite.filters
        want = k or self.settings.retrieval_k
        fetch = max(want, RERANK_CANDIDATES) if self.reranker else want
        started = time.perf_counter()
        hits = self.searcher.search(rewrite.query, k=fetch, filters=effective)
        if not hits and filters is None and rewrite.filters is not None:
            # a filter the model inferred must not hide everything: retry without it
            trace["rewrite_filters_dropped"] = True
            effective = None
            hits = self.searcher.search(rewrite.query, k=fetch, filters=None)
        trace["timings"]["search_ms"] = _ms(started)
        trace["filters"] = dataclasses.asdict(effective) if effective else None
        if self.reranker is not None and hits:
            started = time.perf_counter()
            try:
                hits = self.reranker.rank(rewrite.query, hits[:RERANK_CANDIDATES],
                                          top_n=min(want, RERANK_KEEP))
                trace["reranker"] = self.reranker.name
            except AppError as exc:
                warnings.append(f"reranker unavailable: {exc.user_message}")
                hits = hits[:want]
            trace["timings"]["rerank_ms"] = _ms(started)
        else:
            hits = hits[:want]
        trace["hits"] = [hit_trace(h, None) for h in hits]
        return hits

    def _recall(self, query: str, trace: dict[str, Any], warnings: list[str]) -> list[MemoryItem]:
        trace["memories"] = []
        if self.memory is None:
            return []
        try:
            found = self.memory.recall(query, MEMORY_K)
        except AppError as exc:
            warnings.append(f"memory unavailable: {exc.user_message}")
            return []
        items = [MemoryItem(str(m.id), str(m.text)) for m in found]
        trace["memories"] = [m.id for m in items]
        return items

    def _answer_with_llm(self, llm: LLM, question: str, rewrite: RewriteResult, hits: list[Hit],
                         memories: list[MemoryItem], texts: PromptTexts, trace: dict[str, Any],
                         warnings: list[str], cancel: Callable[[], bool],
                         started: float) -> Iterator[AnswerStreamEvent]:
        timings = trace["timings"]
        step = time.perf_counter()
        try:
            prompt = build_answer_prompt(
                question, hits, texts, count_tokens=llm.count_tokens, n_ctx=llm.n_ctx,
                max_answer_tokens=self.settings.max_answer_tokens, memories=memories,
                standalone_query=None if rewrite.skipped or rewrite.error else rewrite.query)
        except AppError as exc:  # model failed to load, or the context is too small
            raise _FallBack(exc) from exc
        timings["prompt_ms"] = _ms(step)
        self._trace_prompt(trace, prompt, hits)
        if hits and not prompt.sources:
            raise _FallBack(AppError("the model's context is too small for any source"))
        stream = cit.CitationStream(prompt.by_number())
        markers = all_prompt_markers(self.prompts_dir)
        guard = AnswerGuard(markers)  # stop strings, text repair, repetition guard
        pieces: list[str] = []
        step = time.perf_counter()
        yield Progress(READING, len(prompt.sources))  # the model processes its prompt now
        generation = llm.stream_chat(prompt.messages, max_tokens=self.settings.max_answer_tokens,
                                     temperature=self.settings.temperature, cancel=cancel)
        try:
            for piece in generation:
                if not pieces:
                    timings["first_token_ms"] = _ms(started)
                    yield Progress(WRITING)
                pieces.append(piece)
                yield from stream.feed(guard.feed(piece))
                if guard.stopped:
                    break
        except AppError as exc:
            if not pieces:
                raise _FallBack(exc) from exc
            warnings.append(f"the model stopped with an error: {exc.user_message}")
        finally:
            close = getattr(generation, "close", None)
            if close is not None:
                close()  # stops the model now (after a stop string, a loop or an error)
        yield from stream.feed(guard.finish())
        yield from stream.flush()
        timings["generate_ms"] = _ms(step)
        trace["output_chars"] = sum(len(p) for p in pieces)
        trace["output_pieces"] = len(pieces)
        trace["output_stopped"] = guard.stopped
        cancelled = [CANCELLED] if cancel() else []
        text = scrub_prompt_markers(guard.text, markers)
        trace["mode"] = "llm"
        if cancelled and not text.strip():  # stopped before the first word: just "stopped"
            yield self._done("", (), [CANCELLED, *(w for w in warnings
                                                   if w != EXPERIMENT_WARNING)],
                             False, trace, started)
            return
        if not text.strip():
            # nothing usable (it only echoed the prompt's fences): the passages instead
            raise _FallBack(AppError("the model wrote nothing usable"))
        if guard.stopped == LOOP:
            warnings.append(REPETITION)
        verification = cit.verify_answer(text, prompt.by_number(),
                                         not_found_phrases=all_not_found_phrases(self.prompts_dir))
        trace["citations_dropped"] = verification.dropped
        yield self._done(verification.answer, verification.citations,
                         [*cancelled, *verification.warnings, *warnings], False, trace, started)

    def _answer_extractive(self, question: str, hits: list[Hit], texts: PromptTexts,
                           trace: dict[str, Any], warnings: list[str],
                           started: float) -> Iterator[AnswerStreamEvent]:
        step = time.perf_counter()
        sources = [NumberedSource(i, hit) for i, hit in enumerate(hits, start=1)]
        by_number = {s.number: s.hit for s in sources}
        trace["hits"] = [hit_trace(h, n) for n, h in by_number.items()]
        extract = extract_answer(question, sources)
        stream = cit.CitationStream(by_number)
        for line_number, line in enumerate(extract.text.splitlines()):
            yield from stream.feed(("\n" if line_number else "") + line)
        verification = cit.verify_answer(extract.text, by_number,
                                         not_found_phrases=all_not_found_phrases(self.prompts_dir))
        if not extract.matched:
            warnings.append("no sentence matched the question's words; showing the top passages")
        trace["timings"]["extract_ms"] = _ms(step)
        trace["citations_dropped"] = verification.dropped
        trace["mode"] = "sources_only"
        yield self._done(verification.answer, verification.citations,
                         [*verification.warnings, cit.SOURCES_ONLY, *warnings], True, trace, started)

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _trace_prompt(trace: dict[str, Any], prompt: AssembledPrompt, hits: list[Hit]) -> None:
        numbers = {s.hit.chunk_id: s.number for s in prompt.sources}
        trace["hits"] = [hit_trace(h, numbers.get(h.chunk_id)) for h in hits]
        trace["prompt_tokens"] = prompt.prompt_tokens
        trace["sources_dropped_by_budget"] = len(prompt.dropped)

    @staticmethod
    def _done(answer: str, citations: tuple[Citation, ...], warnings: list[str], sources_only: bool,
              trace: dict[str, Any], started: float) -> Done:
        trace["timings"]["total_ms"] = _ms(started)
        return Done(answer=answer, citations=citations, warnings=tuple(dict.fromkeys(warnings)),
                    sources_only=sources_only, trace=trace)


class _FallBack(Exception):  # noqa: N818 - internal control flow, not an error for callers
    """The model could not produce anything: answer from sources instead."""

    def __init__(self, error: AppError) -> None:
        super().__init__(error.user_message)
        self.error = error
