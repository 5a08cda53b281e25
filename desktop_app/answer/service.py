"""The answer service: question → rewrite → search → rerank → evidence check →
prompt → streamed, verified answer. Yields small events (`Progress`, `Token`, `CitationEvent`,
`MemoryUsed`, `Done`); the GUI turns them into signals, the CLI prints them. Always
ends with exactly one `Done`, also on cancel and on model failure (then it falls back
to a sources-only answer so the user still gets the passages).

Whether the model writes the answer is one decision (`mode()` / `use_llm`, policy in
`answer/mode.py`): a model too small to follow the answer prompt never does by
default, and when the model does not write, it does not rewrite follow-ups either.
The evidence check (`abstain.assess`) runs in both modes before any model is called:
when the passages do not support an answer the user reads "not found" with the
closest passages beside it, and the LLM is never asked.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from desktop_app.answer import abstain
from desktop_app.answer import citations as cit
from desktop_app.answer.context import (
    EMPTY,
    MAX_MEMORIES,
    ContextBlock,
    EarlierExchange,
    estimate_tokens,
    fit_context,
    memory_similarity,
)
from desktop_app.answer.events import (
    READING,
    SEARCHING,
    WRITING,
    AnswerWarning,
    Citation,
    CitationEvent,
    Done,
    MemoryUsed,
    Progress,
    QuotedChat,
    RecallUsed,
    Token,
    WarningCode,
)
from desktop_app.answer.extractive import (
    ExtractiveAnswer,
    badge_on_last_line,
    extract_answer,
    shown_text,
    with_badge,
)
from desktop_app.answer.followup import NOTHING, Carried, carried_context, with_carried
from desktop_app.answer.kinds import asking_words
from desktop_app.answer.llm import LLM, with_cancel
from desktop_app.answer.mode import MODEL_ERROR, AnswerMode, decide_mode
from desktop_app.answer.personal_quotes import PersonalQuote, from_documents, personal_quotes
from desktop_app.answer.prompt import (
    AssembledPrompt,
    MemoryItem,
    NumberedSource,
    PromptTexts,
    all_not_found_phrases,
    all_prompt_markers,
    build_answer_prompt,
    fallback_language,
    load_prompts,
    scrub_prompt_markers,
)
from desktop_app.answer.quotes import quote_citation
from desktop_app.answer.rerank import RERANK_CANDIDATES, RERANK_KEEP, Reranker
from desktop_app.answer.rewrite import RewriteResult, is_followup, rewrite_query
from desktop_app.answer.sentence_vectors import SentenceVectors
from desktop_app.answer.stream_guard import LOOP, AnswerGuard
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.retrieval.doc_text import DocumentTexts
from desktop_app.retrieval.fusion import fuse_hits
from desktop_app.retrieval.search import SearchResult, SearchWarning, SearchWarningCode
from desktop_app.retrieval.types import Embedder, Hit, SearchFilters
from desktop_app.text.caches import forget_owner
from desktop_app.text.cognates import (
    Respelled,
    respell,
    respell_by_meaning,
    respelled_with,
    vocabulary,
)
from desktop_app.text.language import question_language, words_comparable

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

AnswerStreamEvent = Token | CitationEvent | MemoryUsed | RecallUsed | Progress | Done
CANCELLED = AnswerWarning(WarningCode.CANCELLED)
EXPERIMENT = AnswerWarning(WarningCode.EXPERIMENT)
MEMORY_K = 3
CARRIED_AFTER = 2  # a follow-up's carried passages come after the search's first two
VOCABULARY_CACHE = 4096  # words remembered as present or absent in the library
WORD_VECTORS = 20_000  # passage words' vectors kept for questions in another language


class Searcher(Protocol):
    def search_with_report(self, query: str, *, k: int | None = None,
                           filters: SearchFilters | None = None,
                           legs: tuple[str, ...] = ...,
                           query_vector: np.ndarray | None = None) -> SearchResult: ...


class MemoryRecall(Protocol):
    def recall(self, query: str, k: int, *,
               query_vector: np.ndarray | None = None) -> Sequence[Any]: ...


class ConversationRecall(Protocol):
    """Earlier chats (memory/recall.py), best first, the current one excluded."""

    def earlier(self, query: str, *, exclude_conversation: str | None = None,
                vector: np.ndarray | None = None,
                language: str = "en") -> Sequence[EarlierExchange]: ...


def _search_warning(warning: SearchWarning) -> AnswerWarning:
    """A search's warning as the answer's: which library was searched by keywords only
    ("local": this computer's), or why one could not be searched."""
    if warning.code == SearchWarningCode.KEYWORD_ONLY:
        return AnswerWarning(WarningCode.KEYWORD_ONLY, warning.library or "local")
    return AnswerWarning(WarningCode.LIBRARY_UNAVAILABLE, warning.detail)


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
            "closest": [citation_as_dict(c) for c in done.closest],
            "warnings": [dict(w.as_dict(), text=w.english()) for w in done.warnings],
            "sources_only": done.sources_only, "trace": done.trace}


class AnswerService:
    def __init__(self, searcher: Searcher, llm: LLM | None, settings: Settings, *,
                 memory: MemoryRecall | None = None, reranker: Reranker | None = None,
                 prompts_dir: Path | None = None, llm_error: AppError | None = None,
                 embedder: Embedder | None = None,
                 library: abstain.LibraryFloor | None = None,
                 recall: ConversationRecall | None = None,
                 documents: DocumentTexts | None = None) -> None:
        self.searcher = searcher
        self.llm = llm
        self.settings = settings
        self.memory = memory
        self.recall = recall
        self.reranker = reranker
        self.prompts_dir = prompts_dir
        self.llm_error = llm_error  # why there is no LLM (shown once per answer as a warning)
        self.embedder = embedder  # ranks quotable sentences; None → keyword evidence only
        # (each sentence embedded alone: the ranking does not depend on what was asked
        # before; the passages' words, thousands at a time, share runs)
        self.sentence_vectors = (SentenceVectors(embedder, alone=True)
                                 if embedder is not None else None)
        # the passages' words, for a question in a language they cannot be compared with
        # (`_respell`): apart, so a library's vocabulary does not push sentences out
        self.word_vectors = (SentenceVectors(embedder, max_entries=WORD_VECTORS)
                             if embedder is not None else None)
        self.library = library  # what off-topic questions score in this library (abstention)
        self.documents = documents  # structured documents rebuilt from chunks (answer/units)
        # words looked up in the whole library, for the library's size they were found at
        self._vocabulary = _Vocabulary()

    def with_llm(self, llm: LLM | None) -> AnswerService:
        """The same service answering with another model (CLI `ask --model PATH`)."""
        service = AnswerService(self.searcher, llm, self.settings, memory=self.memory,
                                reranker=self.reranker, prompts_dir=self.prompts_dir,
                                embedder=self.embedder, library=self.library,
                                recall=self.recall, documents=self.documents)
        service.sentence_vectors = self.sentence_vectors  # share the cache
        return service

    def uses_llm(self, *, sources_only: bool = False) -> bool:
        """Whether an answer (and its query rewrite) would be written by the LLM."""
        return self.mode(sources_only=sources_only).use_llm

    def abstention_report(self) -> dict[str, Any]:
        """The thresholds in force and the library floor (eval reports)."""
        return abstain.describe(self.settings,
                                self.library.floors() if self.library is not None else None)

    def mode(self, *, sources_only: bool = False, experiment: bool = False) -> AnswerMode:
        """Who writes the answer: the model (big enough, or asked as an experiment) or the
        sources. `sources_only` / `experiment` are one question's requests."""
        return decide_mode(self.llm, self.settings, sources_only=sources_only,
                           experiment=experiment, llm_error=self.llm_error)

    def writer_for(self, mode: AnswerMode) -> LLM | None:
        """The model when, in this mode, it writes answers for real, else None. It also
        rewrites follow-ups and summarises a long chat's older turns (chat/history.py); not
        in an experiment: a model that small makes worse queries and summaries than the
        user's own words."""
        return self.llm if mode.use_llm and not mode.experiment else None

    @property
    def use_llm(self) -> bool:
        """Whether the model writes answers and rewrites follow-ups by default."""
        return self.mode().use_llm

    def ask(self, question: str, *, history: list[dict[str, str]] | None = None,
            sources_only: bool = False, filters: SearchFilters | None = None, k: int | None = None,
            cancel: Callable[[], bool] | None = None,
            experiment: bool = False, conversation_id: str | None = None,
            mode: AnswerMode | None = None,
            previous: Sequence[Mapping[str, Any]] = ()) -> Iterator[AnswerStreamEvent]:
        """Answer one question. `mode`: the answer mode when the caller (the chat turn)
        already decided it for `sources_only` / `experiment`; else it is decided here. The
        `Done` carries it, and the query searched for when a follow-up was rewritten.
        `previous`: the stored citations of the chat's last answer (a follow-up reads the
        passages they quote, answer/followup.py)."""
        question = question.strip()
        if not question:
            raise AppError("Type a question first.")
        if mode is None:
            mode = self.mode(sources_only=sources_only, experiment=experiment)
        texts = load_prompts(question_language(question, fallback_language(self.settings.language)),
                             self.prompts_dir)
        turn = _Turn(question, texts, mode, cancel or (lambda: False), history=history,
                     filters=filters, k=k, conversation_id=conversation_id, previous=previous)
        yield from self._ask(turn)

    def _ask(self, turn: _Turn) -> Iterator[AnswerStreamEvent]:
        yield Progress(SEARCHING)
        trace, warnings = turn.trace, turn.warnings
        if turn.mode.reason == MODEL_ERROR:  # the model the user chose is unusable: say why
            warnings.append(AnswerWarning(WarningCode.MODEL_UNAVAILABLE, turn.mode.detail))
        trace.update({"question": turn.question, "language": turn.texts.language,
                      "llm": self.llm.name if turn.use_llm and self.llm else None,
                      "answer_mode": turn.mode.as_dict(), "timings": {}})
        self._rewrite(turn)
        # one embedding of the question: documents, memories and the sentence ranking use it
        step = time.perf_counter()
        turn.vector = (self.sentence_vectors.query(turn.query)
                       if self.sentence_vectors is not None else None)
        turn.timings["embed_ms"] = _ms(step)
        turn.hits = self._retrieve(turn)
        first = turn.pool
        if self._respell(turn):  # the vector stays the question's own: it crosses languages
            # a respelling of another language's words is partial (their Latin roots, and
            # others by meaning): it is a second view, fused with the first search
            turn.hits = self._retrieve(turn, also=first if turn.searched_as else ())
        # (a follow-up naming a sibling of what the last one asked, "e do ensino
        # fundamental?" after "… do ensino médio?", asks of something the last answer's
        # articles are not about: its carried words find the passages, nothing else)
        carried = (carried_context(self.documents, turn.previous)
                   if turn.previous and is_followup(turn.question)
                   and not turn.rewritten.replaced else NOTHING)
        if carried.hits:
            turn.hits = with_carried(turn.hits, carried, after=CARRIED_AFTER)
            trace["previous"] = carried.trace()
        turn.context = self._context(turn)
        yield from self._context_events(turn.context)
        if turn.cancelled():
            yield turn.done("", (), [CANCELLED, *warnings], sources_only=not turn.use_llm)
            return
        personal = bool(turn.context.text)
        hits = turn.hits
        if not hits and (personal_lines := self._personal_quotes(turn)):
            trace["evidence"] = {"abstain": True, "reason": "no passages"}
            yield from self._answer_personal(turn, personal_lines)
            return
        if not hits and not (turn.use_llm and personal):
            # nothing to ground an answer on: say so without calling the model
            trace["mode"] = "not_found"
            yield Token(turn.texts.not_found)
            yield turn.done(turn.texts.not_found, (),
                            [AnswerWarning(WarningCode.NOT_FOUND), *warnings],
                            sources_only=not turn.use_llm)
            return
        turn.step = time.perf_counter()
        extract = self._rank(turn, carried)
        evidence = self._evidence(turn, extract)
        # memories can answer a question about the user that no document covers
        if evidence.abstain and (personal_lines := self._personal_quotes(turn)):
            yield from self._answer_personal(turn, personal_lines)
            return
        if evidence.abstain and not (turn.use_llm and personal):
            yield from self._abstain(turn, evidence.missing_value)
            return
        if turn.use_llm and self.llm is not None:
            if turn.mode.experiment:
                warnings.append(EXPERIMENT)
            try:
                yield from self._answer_with_llm(turn, self.llm)
                return
            except _FallBack as fallback:
                if EXPERIMENT in warnings:  # the passages are shown, not the experiment
                    warnings.remove(EXPERIMENT)
                warnings.append(AnswerWarning(WarningCode.MODEL_UNAVAILABLE,
                                              fallback.error.user_message))
                trace["llm_error"] = fallback.error.user_message
        yield Progress(READING, len(hits))
        yield from self._answer_extractive(turn, extract)

    # -- stages ---------------------------------------------------------------------------------

    def _rewrite(self, turn: _Turn) -> None:
        """The query searched: a follow-up made standalone (by the model only when it writes
        answers for real: not in an experiment, a model that small makes worse queries than
        the user's own words)."""
        writer = self.writer_for(turn.mode)
        rewriter = with_cancel(writer, turn.cancelled) if writer is not None else None
        turn.rewrite = rewrite_query(rewriter, turn.question, turn.history, turn.texts)
        turn.trace["rewrite"] = turn.rewrite.trace()
        turn.trace["rewritten_query"] = turn.rewrite.query
        if turn.rewrite.query != turn.question:
            turn.trace["searched_for"] = turn.rewrite.query
        turn.timings["rewrite_ms"] = round(turn.rewrite.ms, 1)

    def _retrieve(self, turn: _Turn, also: Sequence[Hit] = ()) -> list[Hit]:
        """The passages for the question (`turn.query`), best first; `also`: an earlier
        search's fused pool, fused again with this one (RRF) before the reranker reads it."""
        rewrite, filters, trace, warnings = turn.rewritten, turn.filters, turn.trace, turn.warnings
        vector = turn.vector
        effective = filters if filters is not None else rewrite.filters
        want = turn.k or self.settings.retrieval_k
        fetch = max(want, RERANK_CANDIDATES) if self.reranker else want
        started = time.perf_counter()
        # the legs fetch `leg_k` rows anyway: the fused pool is kept for its words (`_respell`)
        fetch = max(fetch, self.settings.leg_k)
        searched = turn.searched_as or turn.query
        found = self.searcher.search_with_report(searched, k=fetch, filters=effective,
                                                 query_vector=vector)
        if not found.hits and filters is None and rewrite.filters is not None:
            # a filter the model inferred must not hide everything: retry without it
            trace["rewrite_filters_dropped"] = True
            effective = None
            found = self.searcher.search_with_report(searched, k=fetch, filters=None,
                                                     query_vector=vector)
        hits = turn.pool = ([hit for hit, _ in fuse_hits([found.hits, also],
                                                          k=self.settings.rrf_k)]
                            if also else found.hits)
        trace["timings"]["search_ms"] = _ms(started)
        # a library skipped or searched by keywords only
        warnings += [_search_warning(w) for w in found.report.warnings]
        trace["filters"] = dataclasses.asdict(effective) if effective else None
        if self.reranker is not None and hits:
            started = time.perf_counter()
            try:
                hits = self.reranker.rank(turn.query, hits[:RERANK_CANDIDATES],
                                          top_n=min(want, RERANK_KEEP))
                trace["reranker"] = self.reranker.name
            except AppError as exc:
                warnings.append(AnswerWarning(WarningCode.RERANKER_UNAVAILABLE, exc.user_message))
                hits = hits[:want]
            trace["timings"]["rerank_ms"] = _ms(started)
        else:
            hits = hits[:want]
        trace["hits"] = [hit_trace(h, None) for h in hits]
        return hits

    def _respell(self, turn: _Turn) -> bool:
        """A question in Spanish of Portuguese passages, or the reverse (found by meaning,
        which crosses the two): its words the passages never use are respelled as their
        cognates in the passages (text/cognates.py: "tratamiento" as "tratamento"), so the
        keyword leg, the ranking and the gate compare the words the passages are written in.
        An English question's Latin-root words are respelled too ("protection" as
        "proteção"), and its other words by meaning ("rights" as "direitos",
        `cognates.respell_by_meaning`), for the keyword leg only (`searched_as`): that
        search is fused with the first, and the ranking and the gate still read the English
        question by meaning. A Spanish word with no cognate ("gastos", "desarrollo") is read
        by meaning too ("despesas", "desenvolvimento"), by the gate only (`meant`): a word
        the law never uses is no evidence that the law does not answer when the question is
        in another language. True when the question changed and is to be searched again."""
        language, written_in = turn.texts.language, abstain.passages_language(turn.pool)
        if turn.respelled is not None or written_in in (None, language):
            return False
        words = vocabulary((hit.text for hit in turn.pool), written_in)
        whole = respell(turn.rewritten.query, words, language)
        frame = asking_words(turn.rewritten.query, whole.text)  # what kind: as typed if lost
        turn.respelled = (respell(turn.rewritten.query, words, language, keep=frame) if frame
                          else whole)
        turn.respelled_question = respell(turn.question, words, language, keep=frame).text
        turn.trace["respelled"] = dict(turn.respelled.words)
        if self.word_vectors is None:
            return turn.respelled.changed
        step = time.perf_counter()
        vectors = self.word_vectors
        comparable = words_comparable(language, written_in)
        # (the gate reads what kind of answer is asked from the words asking, as typed)
        translated = respell_by_meaning(turn.rewritten.query, words, turn.respelled,
                                        lambda texts: vectors.vectors(texts)[0],
                                        vectors.embedder.embed_query,
                                        keep=frame if comparable else ())
        turn.timings["respell_ms"] = _ms(step)
        meant = {typed: word for typed, word in translated.words.items()
                 if typed not in turn.respelled.words}
        if meant:
            turn.trace["respelled_by_meaning"] = meant
        if comparable:  # ranked in the cognates' spelling, read by meaning at the gate
            turn.meant = meant
            return turn.respelled.changed
        if not translated.changed:
            return False
        turn.searched_as = translated.text
        return True

    def _context(self, turn: _Turn) -> ContextBlock:
        """Profile memories + earlier conversations under the token budget (answer/context)."""
        query, conversation_id, texts = turn.searched, turn.conversation_id, turn.texts
        trace, warnings, use_llm, vector = turn.trace, turn.warnings, turn.use_llm, turn.vector
        trace["memories"] = []
        trace["recall"] = []
        if self.memory is None:
            return EMPTY
        started = time.perf_counter()
        try:
            found = self.memory.recall(query, MAX_MEMORIES, query_vector=vector)
            earlier = (self.recall.earlier(query, exclude_conversation=conversation_id,
                                           vector=vector, language=texts.language)
                       if self.recall is not None else ())
        except AppError as exc:
            warnings.append(AnswerWarning(WarningCode.MEMORY_UNAVAILABLE, exc.user_message))
            return EMPTY
        count = estimate_tokens
        if use_llm and self.llm is not None:
            count = self.llm.count_tokens
        items = [MemoryItem(str(m.id), str(m.text)) for m in found]
        budget = self.settings.context_block_tokens
        # a memory earns its room by meaning too: its cosine (cached vectors) to the question
        sentences = self.sentence_vectors
        similarity = (memory_similarity(items, lambda t: sentences.vectors(t)[0], vector)
                      if sentences is not None else {})
        try:
            block = fit_context(items, earlier, texts, count_tokens=count, budget=budget,
                                query=query, memory_similarity=similarity)
        except AppError:  # the model failed to load: its tokenizer too
            block = fit_context(items, earlier, texts, count_tokens=estimate_tokens,
                                budget=budget, query=query, memory_similarity=similarity)
        trace["memories"] = [m.id for m in block.memories]
        trace["recall"] = [{"conversation_id": e.conversation_id, "exchange_id": e.exchange_id,
                            "date": e.started_at, "message_ids": [t[0] for t in e.turns]}
                           for e in block.exchanges]
        trace["context_tokens"] = block.tokens
        trace["timings"]["recall_ms"] = _ms(started)
        return block

    @staticmethod
    def _context_events(context: ContextBlock) -> Iterator[AnswerStreamEvent]:
        """What the context block drew on: each memory, and each earlier chat with its turns
        in the order said; its excerpt leaves out Acervo's answers from the documents (their
        badges would point nowhere; the documents were just searched again)."""
        for memory in context.memories:
            yield MemoryUsed(memory.id, memory.text)
        for conv_id, label in context.chats:
            # each message once, in the order said: (position, role, text)
            said: dict[str, tuple[int, str, str]] = {}
            for e in context.exchanges:
                if e.conversation_id == conv_id:
                    for offset, (message_id, role, text) in enumerate(e.turns):
                        said.setdefault(message_id, (e.position + offset, role, text))
            ordered = sorted(said.items(), key=lambda item: item[1][0])
            # (a question asked twice in that chat is shown once)
            excerpt = dict.fromkeys(text for _, (_, role, text) in ordered
                                    if not from_documents(role, text))
            yield RecallUsed(conv_id, label, tuple(m for m, _ in ordered),
                             " / ".join(excerpt)[:400],
                             next(e.started_at for e in context.exchanges
                                  if e.conversation_id == conv_id))

    @staticmethod
    def _personal_quotes(turn: _Turn) -> list[PersonalQuote]:
        """Without a model, what an earlier chat or a memory says is quoted, marked as not
        from the documents, instead of "not found" above the chat that holds the answer;
        looked for only when the documents do not answer."""
        return ([] if turn.use_llm else
                personal_quotes(turn.searched, turn.context.memories, turn.context.exchanges))

    def _evidence(self, turn: _Turn, extract: ExtractiveAnswer) -> abstain.Evidence:
        """Whether the passages answer the question (the gate, answer/abstain.py)."""
        self._vocabulary_for_now()
        asked, query = turn.asked, turn.query
        if turn.meant:  # the question as the gate reads it (`_respell`)
            asked, query = respelled_with(asked, turn.meant), respelled_with(query, turn.meant)
            extract = dataclasses.replace(extract, question_terms=abstain.meant_terms(
                extract.question_terms, turn.meant))
        evidence = abstain.assess(extract, turn.hits, self.settings,
                                  self.library.floors() if self.library is not None else None,
                                  turn.texts.language, asked,
                                  abstain.absent_share(query, turn.hits, self._in_library),
                                  passages_using=self._in_library,
                                  library_size=self._vocabulary.size)
        turn.trace["evidence"] = evidence.trace()
        turn.timings["evidence_ms"] = _ms(turn.step)
        return evidence

    def _answer_with_llm(self, turn: _Turn, llm: LLM) -> Iterator[AnswerStreamEvent]:
        question, rewrite, hits, context = turn.question, turn.rewritten, turn.hits, turn.context
        texts, trace, warnings, cancel = turn.texts, turn.trace, turn.warnings, turn.cancelled
        timings = turn.timings
        step = time.perf_counter()
        try:
            prompt = build_answer_prompt(
                question, hits, texts, count_tokens=llm.count_tokens, n_ctx=llm.n_ctx,
                max_answer_tokens=self.settings.max_answer_tokens, memories=context.memories,
                context=context.text,
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
                    timings["first_token_ms"] = _ms(turn.started)
                    yield Progress(WRITING)
                pieces.append(piece)
                yield from stream.feed(guard.feed(piece))
                if guard.stopped:
                    break
        except AppError as exc:
            if not pieces:
                raise _FallBack(exc) from exc
            warnings.append(AnswerWarning(WarningCode.MODEL_STOPPED, exc.user_message))
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
            yield turn.done("", (), [CANCELLED, *(w for w in warnings if w != EXPERIMENT)],
                            sources_only=False)
            return
        if not text.strip():
            # nothing usable (it only echoed the prompt's fences): the passages instead
            raise _FallBack(AppError("the model wrote nothing usable"))
        if guard.stopped == LOOP:
            warnings.append(AnswerWarning(WarningCode.REPETITION))
        verification = cit.verify_answer(text, prompt.by_number(),
                                         not_found_phrases=all_not_found_phrases(self.prompts_dir))
        trace["citations_dropped"] = verification.dropped
        yield turn.done(verification.answer, verification.citations,
                        [*cancelled, *verification.warnings, *warnings], sources_only=False)

    def _rank(self, turn: _Turn, carried: Carried = NOTHING) -> ExtractiveAnswer:
        """The quotable sentences and units of the top passages, ranked (also the abstention
        evidence); a follow-up's own words weigh apart from the words its rewrite carried."""
        sources = [NumberedSource(i, hit) for i, hit in enumerate(turn.hits, start=1)]
        asked = turn.asked if turn.searched != turn.question else ""
        extract = extract_answer(turn.query, sources, self.sentence_vectors,
                                 documents=self.documents,
                                 previous_articles=carried.articles,
                                 first_articles=carried.first, quoted_units=carried.units,
                                 asked=asked)
        turn.trace["sentences_ranked"] = len(extract.candidates)
        turn.trace["sentences_embedded"] = extract.embedded
        return extract

    def _abstain(self, turn: _Turn, missing_value: str | None = None
                 ) -> Iterator[AnswerStreamEvent]:
        """"Not found", with the closest passages for the user to judge (never the LLM),
        and why when the question asked for a value no passage states (NO_VALUE)."""
        turn.trace["mode"] = "abstained"
        yield Token(turn.texts.not_found)
        turn.timings["answer_ms"] = _ms(turn.step)
        why = [AnswerWarning(WarningCode.NO_VALUE, missing_value)] if missing_value else []
        yield turn.done(turn.texts.not_found, (),
                        [AnswerWarning(WarningCode.NOT_FOUND), *why, *turn.warnings],
                        sources_only=not turn.use_llm, closest=_closest(turn.hits))

    def _answer_personal(self, turn: _Turn,
                         quotes: list[PersonalQuote]) -> Iterator[AnswerStreamEvent]:
        """Sources-only, the documents do not answer (the abstention gate said so) but a
        memory or an earlier chat does: quote it, and say where it comes from instead of
        "not found" (FROM_MEMORY / FROM_EARLIER_CHAT, never a badge). The documents'
        closest passages are still offered, as with "not found"."""
        step = time.perf_counter()
        turn.trace["mode"] = "from_context"
        lines = [f"“{q.text}”" for q in quotes]  # the chat's date and link follow (RecallUsed)
        yield Token("\n".join(lines))
        dates = list(dict.fromkeys(q.date_label for q in quotes if q.date_label))
        quoted = tuple({q.conversation_id: QuotedChat(q.conversation_id, q.started_at)
                        for q in quotes if q.conversation_id}.values())
        turn.trace["quoted_chats"] = [{"conversation_id": q.conversation_id,
                                       "date": q.started_at} for q in quoted]
        origin = ([AnswerWarning(WarningCode.FROM_MEMORY)]
                  if any(not q.date_label for q in quotes) else [])
        if dates:
            origin.append(AnswerWarning(WarningCode.FROM_EARLIER_CHAT, ", ".join(dates)))
        turn.timings["answer_ms"] = _ms(step)
        yield turn.done("\n".join(lines), (),
                        [*origin, AnswerWarning(WarningCode.SOURCES_ONLY), *turn.warnings],
                        sources_only=True, closest=_closest(turn.hits), quoted_chats=quoted)

    def _answer_extractive(self, turn: _Turn,
                           extract: ExtractiveAnswer) -> Iterator[AnswerStreamEvent]:
        """Quotes of the passages, each with its own badge and exact span."""
        citations: list[Citation] = []
        lines: list[str] = []
        for number, quote in enumerate(extract.quotes, start=1):
            citation = quote_citation(number, quote.hit, quote.start, quote.end)
            citations.append(citation)
            line = with_badge(shown_text(quote), number, last_line=badge_on_last_line(quote))
            lines.append(line)
            yield Token(("\n" if number > 1 else "") + line)
            yield CitationEvent(citation)
        if not extract.matched:
            turn.warnings.append(AnswerWarning(WarningCode.NO_SENTENCE_MATCHED))
        first = extract.quotes[0].hit.language if extract.quotes else ""
        if not words_comparable(turn.texts.language, first):  # the question's language
            turn.warnings.append(AnswerWarning(WarningCode.BY_MEANING, first))
        trace = turn.trace
        trace["hits"] = [hit_trace(h, None) for h in turn.hits]
        trace["quotes"] = [{"number": c.number, "chunk_id": c.chunk_id,
                            "start": c.quote.start if c.quote else None,
                            "end": c.quote.end if c.quote else None,
                            "score": round(q.score, 4),
                            "cosine": None if q.semantic is None else round(q.semantic, 4),
                            "shared_terms": q.shared_terms, "kind": q.unit.kind}
                           for c, q in zip(citations, extract.quotes, strict=True)]
        turn.timings["answer_ms"] = _ms(turn.step)
        turn.timings["extract_ms"] = turn.timings["answer_ms"]
        trace["mode"] = "sources_only"
        status = [] if citations else [AnswerWarning(WarningCode.NO_SUPPORTING_EVIDENCE)]
        yield turn.done("\n".join(lines), tuple(citations),
                        [*status, AnswerWarning(WarningCode.SOURCES_ONLY), *turn.warnings],
                        sources_only=True)

    # -- helpers --------------------------------------------------------------------------------

    def _vocabulary_for_now(self) -> None:
        """Forget the words looked up when the library changed size (once per question)."""
        size = self.library.size() if self.library is not None else -1
        if self._vocabulary.size != size:
            self._vocabulary.clear()
            self._vocabulary.size = size

    def _in_library(self, word: str) -> int:
        """How many passages of the libraries searched use `word` (the keyword leg, up to
        `leg_k`; 0: absent), remembered while the library keeps its size (`_vocabulary`)."""
        known = self._vocabulary.words
        if word not in known:
            try:
                known[word] = len(self.searcher.search_with_report(
                    word, k=self.settings.leg_k, legs=("keyword",)).hits)
            except AppError:
                return self.settings.leg_k  # unknown: never evidence of absence or rarity
            while len(known) > VOCABULARY_CACHE:
                known.pop(next(iter(known)))
        return known[word]

    @staticmethod
    def _trace_prompt(trace: dict[str, Any], prompt: AssembledPrompt, hits: list[Hit]) -> None:
        numbers = {s.hit.chunk_id: s.number for s in prompt.sources}
        trace["hits"] = [hit_trace(h, numbers.get(h.chunk_id)) for h in hits]
        trace["prompt_tokens"] = prompt.prompt_tokens
        trace["sources_dropped_by_budget"] = len(prompt.dropped)


class _Vocabulary:
    """Question words looked up in the library (present or not), for a library of `size`
    passages; an erasure empties it (the words came from a question)."""

    def __init__(self) -> None:
        self.words: dict[str, int] = {}
        self.size = -1
        forget_owner(self)

    def clear(self) -> None:
        self.words = {}
        self.size = -1


def _closest(hits: list[Hit]) -> tuple[Citation, ...]:
    """The passages that came closest when the documents do not answer (never badges)."""
    return tuple(cit.citation_from_hit(n, hit)
                 for n, hit in enumerate(hits[:abstain.CLOSEST_PASSAGES], start=1))


@dataclass
class _Turn:
    """One question on its way to an answer: what was asked, each stage's result, and the
    trace and warnings every stage adds to (no stage takes a long list of them)."""

    question: str
    texts: PromptTexts  # the prompts and phrases in the question's language
    mode: AnswerMode  # who writes the answer, decided once
    cancelled: Callable[[], bool]
    history: list[dict[str, str]] | None = None
    filters: SearchFilters | None = None
    k: int | None = None
    conversation_id: str | None = None
    previous: Sequence[Mapping[str, Any]] = ()  # the last answer's stored citations
    started: float = field(default_factory=time.perf_counter)
    step: float = 0.0  # when the answer step (ranking, evidence, the answer) began
    trace: dict[str, Any] = field(default_factory=dict)
    warnings: list[AnswerWarning] = field(default_factory=list)
    rewrite: RewriteResult | None = None
    vector: np.ndarray | None = None
    hits: list[Hit] = field(default_factory=list)
    pool: list[Hit] = field(default_factory=list)  # the search's fused rows, beyond `hits`
    respelled: Respelled | None = None  # the searched query in the passages' spelling
    respelled_question: str = ""
    # a Spanish question's words with no cognate in the passages, as the gate reads them:
    # typed (folded) → the passages' word closest in meaning (`AnswerService._respell`)
    meant: dict[str, str] = dataclasses.field(default_factory=dict)
    searched_as: str = ""  # words that cannot be compared: `query` with words by meaning too
    context: ContextBlock = EMPTY

    @property
    def use_llm(self) -> bool:
        return self.mode.use_llm

    @property
    def timings(self) -> dict[str, float]:
        timings: dict[str, float] = self.trace.setdefault("timings", {})
        return timings

    @property
    def rewritten(self) -> RewriteResult:
        assert self.rewrite is not None, "rewritten before it is searched"
        return self.rewrite

    @property
    def searched(self) -> str:
        """What the user is shown as searched: the rewrite of a follow-up, else the
        question."""
        return self.rewrite.query if self.rewrite is not None else self.question

    @property
    def query(self) -> str:
        """What is searched and ranked: `searched`, in the passages' spelling when it was
        respelled (`AnswerService._respell`)."""
        return self.respelled.text if self.respelled is not None else self.searched

    @property
    def asked(self) -> str:
        """The question as typed, in the passages' spelling when it was respelled."""
        return self.respelled_question or self.question

    def done(self, answer: str, citations: tuple[Citation, ...],
             warnings: list[AnswerWarning], *, sources_only: bool, **fields: Any) -> Done:
        """The turn's one `Done`, typed: its mode, and the query searched when a follow-up
        was rewritten."""
        self.timings["total_ms"] = _ms(self.started)
        return Done(answer=answer, citations=citations, warnings=tuple(dict.fromkeys(warnings)),
                    sources_only=sources_only, trace=self.trace, answer_mode=self.mode,
                    searched_for=self.searched if self.searched != self.question else "",
                    scope=str((self.trace.get("filters") or {}).get("scope") or ""), **fields)


class _FallBack(Exception):  # noqa: N818 - internal control flow, not an error for callers
    """The model could not produce anything: answer from sources instead."""

    def __init__(self, error: AppError) -> None:
        super().__init__(error.user_message)
        self.error = error
