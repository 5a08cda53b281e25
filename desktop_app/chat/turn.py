"""One chat turn, end to end: persist, act on memory commands, answer, persist, extract.

`ChatService.turn` is a generator like every long operation in the app: it yields the
answer service's events (`Token`, `CitationEvent`, `MemoryUsed`, `Done`) plus memory
events (`MemorySaved` for the "memory saved · undo" chip, `MemoryNotSaved` for "not
saved: needs your consent", `MemoryForgotten`, `ForgetAllRequested`), and ends with
`TurnComplete`, which carries the implicit-extraction job. The GUI runs that job on a
worker after the answer is shown; the CLI runs it inline. Nothing here imports Qt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from desktop_app.answer.events import AnswerEvent, Done, Token
from desktop_app.answer.llm import LLM, with_cancel
from desktop_app.answer.mode import AnswerMode
from desktop_app.answer.service import CANCELLED
from desktop_app.chat.conversations import ConversationStore
from desktop_app.chat.events import ChatEvent, TurnComplete
from desktop_app.chat.history import HistoryBuilder
from desktop_app.chat.stored import stored_trace
from desktop_app.errors import AppError
from desktop_app.memory.events import ForgetAllRequested, MemoryEvent, MemoryForgotten
from desktop_app.memory.patterns import Command, parse_command
from desktop_app.memory.recall import RecallService
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import SaveOutcome, UserMessage
from desktop_app.retrieval.types import SearchFilters

log = logging.getLogger(__name__)


class Answerer(Protocol):
    """What a turn needs of the answer service (`answer.service.AnswerService`)."""

    def mode(self, *, sources_only: bool = False, experiment: bool = False) -> AnswerMode: ...

    def writer_for(self, mode: AnswerMode) -> LLM | None: ...

    def ask(self, question: str, *, history: list[dict[str, str]] | None = None,
            sources_only: bool = False, filters: SearchFilters | None = None,
            cancel: Callable[[], bool] | None = None, experiment: bool = False,
            conversation_id: str | None = None,
            mode: AnswerMode | None = None,
            previous: Sequence[Mapping[str, Any]] = ()) -> Iterator[AnswerEvent]: ...


@dataclass(frozen=True)
class ExtractionJob:
    """After-the-answer work for one user message: implicit extraction (when on) and the
    conversation-recall index brought up to date. Run it after the answer is shown."""

    memory: MemoryService
    message: UserMessage
    extract: bool = True
    recall: RecallService | None = None

    def run(self) -> list[MemoryEvent]:
        events = (self.memory.events_for(self.memory.extract_from(self.message))
                  if self.extract else [])
        if self.recall is not None and self.recall.enabled:
            try:
                self.recall.sync([self.message.conversation_id])
            except AppError as exc:  # recall is a convenience: never break the chat for it
                log.warning("conversation recall not updated: %s", exc.user_message)
        return events


_ACK = {
    "saved": {"en": "I'll remember: {text}", "pt": "Vou lembrar: {text}",
              "es": "Lo recordaré: {text}"},
    "merged": {"en": "I already knew: {text}", "pt": "Eu já sabia: {text}",
               "es": "Ya lo sabía: {text}"},
    "needs_consent": {
        "en": "Not saved: remembering {category} facts needs your consent (Memory panel → "
              "Sensitive data consent…; `desktop-app memory consent`).",
        "pt": "Não salvo: lembrar fatos de {category} precisa do seu consentimento (painel "
              "Memória → Consentimento para dados sensíveis…; `desktop-app memory consent`).",
        "es": "No guardado: recordar datos de {category} necesita tu consentimiento (panel "
              "Memoria → Consentimiento para datos sensibles…; `desktop-app memory consent`)."},
    "disabled": {"en": "Memory is switched off.", "pt": "A memória está desligada.",
                 "es": "La memoria está desactivada."},
    "rejected": {"en": "Not saved.", "pt": "Não salvo.", "es": "No guardado."},
    "forgotten": {"en": "Forgotten ({n} memories erased).",
                  "pt": "Esquecido ({n} memórias apagadas).",
                  "es": "Olvidado ({n} recuerdos borrados)."},
    "nothing": {"en": "I found nothing like that in my memory.",
                "pt": "Não encontrei nada assim na minha memória.",
                "es": "No encontré nada así en mi memoria."},
    "forget_all": {
        "en": "To forget everything, confirm in the memory panel (or run "
              "`desktop-app memory forget-all`).",
        "pt": "Para esquecer tudo, confirme no painel de memória (ou rode "
              "`desktop-app memory forget-all`).",
        "es": "Para olvidarlo todo, confirma en el panel de memoria (o ejecuta "
              "`desktop-app memory forget-all`)."},
}


# Names of the sensitive categories in the acknowledgement's language (the ack is stored in
# the conversation, so it is written in the language the user spoke, not the UI's).
_CATEGORY_NAMES = {
    "health": {"pt": "saúde", "es": "salud"},
    "disability": {"pt": "deficiência", "es": "discapacidad"},
    "religion": {"pt": "religião", "es": "religión"},
    "ethnicity": {"pt": "etnia", "es": "etnia", "en": "ethnicity"},
    "sex_life": {"pt": "vida sexual", "es": "vida sexual", "en": "sex life"},
    "political_opinion": {"pt": "opinião política", "es": "opinión política",
                          "en": "political opinion"},
    "biometric": {"pt": "dados biométricos", "es": "datos biométricos",
                  "en": "biometric data"},
    "financial_account": {"pt": "contas financeiras", "es": "cuentas financieras",
                          "en": "financial account"},
}


def category_name(category: str, language: str) -> str:
    names = _CATEGORY_NAMES.get(category, {})
    return names.get(language) or names.get("en") or category.replace("_", " ")


def acknowledgement(outcome: SaveOutcome, language: str) -> str:
    # a sensitive fact without consent is not quoted: the ack is stored in the conversation
    template = _ACK[outcome.status].get(language, _ACK[outcome.status]["en"])
    return template.format(text=outcome.candidate.text,
                           category=category_name(outcome.candidate.category, language))


class ChatService:
    """Conversations with session history and long-term memory around the answer service."""

    def __init__(self, conversations: ConversationStore, answers: Answerer,
                 memory: MemoryService | None, *, history: HistoryBuilder | None = None,
                 recall: RecallService | None = None) -> None:
        self.conversations = conversations
        self.answers = answers
        self._memory = memory
        self.recall = recall
        self.history = history or HistoryBuilder(conversations)

    @property
    def memory(self) -> MemoryService | None:
        """The memory service while memory is switched on (read live: a settings toggle)."""
        return self._memory if self._memory is not None and self._memory.enabled else None

    def new_conversation(self, title: str = "") -> str:
        return self.conversations.new_conversation(title)

    def turn(self, conversation_id: str, text: str, *, sources_only: bool = False,
             filters: SearchFilters | None = None,
             cancel: Callable[[], bool] | None = None,
             experiment: bool = False) -> Iterator[ChatEvent]:
        message = self.conversations.add_user_message(conversation_id, text)
        stored = self.conversations.message(message.message_id)
        assert stored is not None
        memory = self.memory
        command = parse_command(text) if memory is not None else None
        question = text
        command_trace: dict[str, Any] = {}
        ack = ""
        if command is not None and memory is not None:
            ack, command_trace = yield from self._command(command, message)
            if not command.rest:
                yield Token(ack)
                yield Done(answer=ack, citations=(), trace=command_trace)
                assistant = self.conversations.add_assistant_message(conversation_id, ack,
                                                                     command_trace)
                yield TurnComplete(conversation_id, message.message_id, assistant.id, None)
                return
            yield Token(ack + "\n\n")
            question = command.rest
        # who writes this answer, decided once for the turn: the same model summarises the
        # older turns and answers (`experiment`: a small model writes this one, labelled)
        mode = self.answers.mode(sources_only=sources_only, experiment=experiment)
        history = self.history.build(conversation_id, before_seq=stored.seq,
                                     llm=self._summarizer(mode, cancel))
        done: Done | None = None
        streamed: list[str] = []
        answers = self.answers.ask(question, history=history, sources_only=sources_only,
                                   filters=filters, cancel=cancel, experiment=experiment,
                                   conversation_id=conversation_id,  # recall leaves it out
                                   mode=mode,
                                   # a follow-up reads the passages the last answer quoted
                                   previous=self._last_citations(conversation_id, stored.seq))
        try:
            for event in answers:
                if isinstance(event, Done):
                    done = event
                elif isinstance(event, Token):
                    streamed.append(event.text)
                yield event
        except GeneratorExit:
            # Stop closed the turn (the GUI closes the stream at once): store what was shown,
            # marked as stopped, so the conversation reads the same after a reload
            close = getattr(answers, "close", None)
            if close is not None:
                close()
            if done is None:  # (a Done already shown is stored as it was shown)
                done = Done(answer="".join(streamed).strip(), citations=(),
                            warnings=(CANCELLED,))
            self._store_answer(conversation_id, ack, done, command_trace)
            raise
        assistant = self._store_answer(conversation_id, ack, done, command_trace)
        job = None
        if memory is not None:
            extract = memory.implicit and command is None
            recall = self.recall if self.recall is not None and self.recall.enabled else None
            if extract or recall is not None:
                job = ExtractionJob(memory, message, extract=extract, recall=recall)
        yield TurnComplete(conversation_id, message.message_id, assistant.id, job)

    def _store_answer(self, conversation_id: str, ack: str, done: Done | None,
                      command_trace: dict[str, Any]) -> Any:
        answer = done.answer if done is not None else ""
        answer = f"{ack}\n\n{answer}" if ack else answer
        return self.conversations.add_assistant_message(conversation_id, answer,
                                                        stored_trace(done, command_trace))

    def _last_citations(self, conversation_id: str, before_seq: int) -> list[dict[str, Any]]:
        """The stored citations of the last answer before message `before_seq`."""
        for message in reversed(self.conversations.messages(conversation_id)):
            if message.seq >= before_seq or message.role != "assistant":
                continue
            citations = (message.trace or {}).get("citations") or []
            return [c for c in citations if isinstance(c, dict)]
        return []

    def _summarizer(self, mode: AnswerMode, cancel: Callable[[], bool] | None) -> LLM | None:
        """The model that writes this answer also summarises the older turns (once per turn
        that leaves the verbatim window); None → the extractive summary."""
        llm = self.answers.writer_for(mode)
        if llm is None or cancel is None:
            return llm
        return with_cancel(llm, cancel)  # Stop also stops the summary

    def _command(self, command: Command,
                 message: UserMessage) -> Generator[MemoryEvent, None, tuple[str, dict[str, Any]]]:
        """Act on an explicit memory command; yields memory events, returns (ack, trace)."""
        assert self.memory is not None
        language = command.language
        if command.kind == "remember":
            outcomes = self.memory.remember(message, command.text)
            yield from self.memory.events_for(outcomes)
            ack = " ".join(acknowledgement(o, language) for o in outcomes)
            trace = {"memory_command": "remember",
                     "memory_ids": [o.memory_id for o in outcomes if o.memory_id]}
            return ack, trace
        if command.kind == "forget":
            receipt = self.memory.forget_matching(command.text,
                                                  command_message_id=message.message_id)
            yield MemoryForgotten(tuple(receipt.memory_ids), receipt.to_dict())
            key = "forgotten" if receipt.memory_ids else "nothing"
            ack = _ACK[key].get(language, _ACK[key]["en"]).format(n=len(receipt.memory_ids))
            return ack, {"memory_command": "forget", "erased": len(receipt.memory_ids)}
        yield ForgetAllRequested()
        return (_ACK["forget_all"].get(language, _ACK["forget_all"]["en"]),
                {"memory_command": "forget_all"})
