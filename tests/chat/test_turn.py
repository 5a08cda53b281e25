"""A chat turn: persistence with trace, memory commands, history with a running summary,
implicit extraction after the turn. Real AnswerService (sources-only), real stores."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from desktop_app.answer.events import Done, MemoryUsed, Token
from desktop_app.chat.conversations import ConversationStore
from desktop_app.chat.events import TurnComplete
from desktop_app.chat.history import SUMMARY_PREFIX, HistoryBuilder, extractive_summary
from desktop_app.chat.turn import ExtractionJob
from desktop_app.memory.events import ForgetAllRequested, MemoryNotSaved, MemorySaved


@pytest.fixture
def library(memory_app: Any, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lgpd.md").write_text(
        "# Direitos do titular\n\nO titular tem direito de acesso, correção e eliminação dos "
        "dados pessoais tratados com o seu consentimento (art. 18).\n", encoding="utf-8")
    list(memory_app.pipeline.run([docs]))


@pytest.mark.ranking
def test_a_turn_persists_both_messages_with_the_answer_trace(memory_app: Any,
                                                             library: None) -> None:
    conv = memory_app.chat.new_conversation()
    events = list(memory_app.chat.turn(conv, "Quais são os direitos do titular?"))
    done = next(e for e in events if isinstance(e, Done))
    complete = events[-1]
    assert isinstance(complete, TurnComplete) and isinstance(complete.extraction, ExtractionJob)
    user, assistant = memory_app.conversations.messages(conv)
    assert (user.role, user.content) == ("user", "Quais são os direitos do titular?")
    assert (assistant.role, assistant.content) == ("assistant", done.answer)
    assert assistant.trace is not None and assistant.trace["question"] == user.content
    assert done.citations and all(c.quote is not None for c in done.citations)
    assert assistant.trace["citations"] == [
        {"number": c.number, "doc_id": c.doc_id, "chunk_id": c.chunk_id, "page": c.page,
         "quote": json.loads(json.dumps(asdict(c.quote))),  # stored as JSON: lists
         "library": "local", "claim": c.claim,
         "legs": sorted(c.legs)}
        for c in done.citations]


def test_remember_command_acts_now_and_offers_undo(memory_app: Any, library: None) -> None:
    conv = memory_app.chat.new_conversation()
    events = list(memory_app.chat.turn(conv, "Lembre que eu trabalho no TCU, na auditoria."))
    (saved,) = [e for e in events if isinstance(e, MemorySaved)]
    assert saved.texts == ("Eu trabalho no TCU, na auditoria.",)
    assert [e.text for e in events if isinstance(e, Token)] == [
        "Vou lembrar: Eu trabalho no TCU, na auditoria."]
    assert events[-1].extraction is None  # a command is not extracted twice
    trace = memory_app.conversations.messages(conv)[-1].trace
    assert trace == {"memory_command": "remember", "memory_ids": list(saved.memory_ids)}

    asked = list(memory_app.chat.turn(conv, "Onde eu trabalho?"))
    assert MemoryUsed(saved.memory_ids[0], "Eu trabalho no TCU, na auditoria.") in asked

    memory_app.memory.undo(saved.undo_token)
    assert memory_app.memory.list_items() == []


def test_sensitive_command_without_consent_is_not_saved_nor_quoted(memory_app: Any,
                                                                   library: None) -> None:
    conv = memory_app.chat.new_conversation()
    events = list(memory_app.chat.turn(conv, "Remember that I take sertraline for depression."))
    (not_saved,) = [e for e in events if isinstance(e, MemoryNotSaved)]
    assert (not_saved.category, not_saved.reason) == ("health", "not saved: needs your consent")
    ack = memory_app.conversations.messages(conv)[-1].content
    assert "sertraline" not in ack and "consent" in ack
    assert memory_app.memory.list_items(status="all") == []


def test_forget_everything_in_chat_asks_for_confirmation(memory_app: Any, library: None) -> None:
    conv = memory_app.chat.new_conversation()
    list(memory_app.chat.turn(conv, "Lembre que eu moro em Campinas."))
    events = list(memory_app.chat.turn(conv, "Esqueça tudo."))
    assert ForgetAllRequested() in events
    assert len(memory_app.memory.list_items()) == 1  # nothing erased without confirmation


def test_implicit_extraction_runs_after_the_turn_and_can_be_switched_off(memory_app: Any,
                                                                         library: None) -> None:
    conv = memory_app.chat.new_conversation()
    events = list(memory_app.chat.turn(conv, "Meu nome é Ana Souza. Quais são meus direitos?"))
    assert memory_app.memory.list_items() == []  # nothing saved before the job runs
    saved = events[-1].extraction.run()
    assert [type(e) for e in saved] == [MemorySaved]
    assert [i.text for i in memory_app.memory.list_items()] == ["Meu nome é Ana Souza."]

    memory_app.settings.implicit_extraction = False
    events = list(memory_app.chat.turn(conv, "Eu moro em Campinas."))
    job = events[-1].extraction  # what is left: conversation recall brought up to date
    assert job is None or not job.extract
    assert (job.run() if job is not None else []) == []
    assert len(memory_app.memory.list_items()) == 1


def test_history_keeps_recent_turns_verbatim_and_summarizes_older(conversations:
                                                                  ConversationStore) -> None:
    conv = conversations.new_conversation()
    for i in range(4):
        conversations.add_user_message(conv, f"Pergunta {i} sobre o art. {i + 10}. Detalhes.")
        conversations.add_assistant_message(conv, f"Resposta {i}.")
    builder = HistoryBuilder(conversations, keep_last_messages=2, budget_chars=4000)
    history = builder.build(conv)
    assert history[1:] == [{"role": "user", "content": "Pergunta 3 sobre o art. 13. Detalhes."},
                           {"role": "assistant", "content": "Resposta 3."}]
    assert history[0]["content"] == SUMMARY_PREFIX + (
        "Pergunta 0 sobre o art. 10. | Pergunta 1 sobre o art. 11. | Pergunta 2 sobre o art. 12.")
    summary, upto = conversations.summary(conv)
    assert upto == 6 and summary is not None  # stored: computed once per dropped turn


def test_history_budget_moves_long_turns_into_the_summary(conversations: ConversationStore) -> None:
    conv = conversations.new_conversation()
    conversations.add_user_message(conv, "Primeira pergunta. " + "x" * 3000)
    conversations.add_assistant_message(conv, "y" * 3000)
    conversations.add_user_message(conv, "Segunda pergunta?")
    conversations.add_assistant_message(conv, "z" * 500)
    history = HistoryBuilder(conversations, keep_last_messages=4, budget_chars=4000).build(conv)
    assert [m["role"] for m in history] == ["assistant", "user", "assistant"]
    assert history[0]["content"] == SUMMARY_PREFIX + "Primeira pergunta."
    assert history[1:] == [{"role": "user", "content": "Segunda pergunta?"},
                           {"role": "assistant", "content": "z" * 500}]


def test_history_keeps_the_last_exchange_when_its_answer_alone_is_over_budget(
        conversations: ConversationStore) -> None:
    # a law's whole list can be longer than the budget: the follow-up still reads the
    # question it follows and the opening of that answer (cut, not summarized away)
    conv = conversations.new_conversation()
    conversations.add_user_message(conv, "Que tipos de multa a LGPD prevê?")
    conversations.add_assistant_message(conv, "Art. 52. " + "y" * 6000)
    history = HistoryBuilder(conversations, keep_last_messages=4, budget_chars=4000).build(conv)
    assert [m["role"] for m in history] == ["user", "assistant"]
    assert history[0]["content"] == "Que tipos de multa a LGPD prevê?"
    assert history[1]["content"].startswith("Art. 52. yyy") and history[1]["content"].endswith(" …")
    assert sum(len(m["content"]) for m in history) <= 4000 + 2


def test_extractive_summary_keeps_the_newest_points_within_budget() -> None:
    from desktop_app.memory.types import StoredMessage

    messages = [StoredMessage(f"m{i}", "c", i, "user", f"Ponto número {i}. Resto.", "t")
                for i in range(50)]
    summary = extractive_summary(None, messages, max_chars=100)
    assert len(summary) <= 100 and summary.endswith("Ponto número 49.")


def test_a_stopped_turn_is_stored_with_what_was_shown_and_the_stopped_marker(
        memory_app: Any, library: None) -> None:
    conv = memory_app.chat.new_conversation()
    turn = memory_app.chat.turn(conv, "Quais são os direitos do titular?")
    shown = ""
    for event in turn:
        if isinstance(event, Token):
            shown = event.text
            break
    turn.close()  # what Stop does in the window
    user, assistant = memory_app.conversations.messages(conv)
    assert user.content == "Quais são os direitos do titular?"
    assert assistant.content == shown.strip() and shown
    assert assistant.trace == {"warnings": [{"code": "cancelled", "detail": ""}], "citations": []}


def test_the_consent_ack_names_the_category_in_the_users_language_and_the_panel(
        memory_app: Any, library: None) -> None:
    conv = memory_app.chat.new_conversation()
    list(memory_app.chat.turn(conv, "Lembre que eu tomo remédio para ansiedade."))
    ack = memory_app.conversations.messages(conv)[-1].content
    assert "saúde" in ack and "health" not in ack
    assert "painel Memória" in ack and "configurações" not in ack
    assert "ansiedade" not in ack  # the sensitive fact itself is not quoted


class SummarisingLLM:
    """A model that writes: it summarises older turns (the summary schema) and streams a
    fixed answer; records what it was asked."""

    name = "writer"
    n_ctx = 4096

    def __init__(self) -> None:
        self.summaries: list[str] = []

    def stream_chat(self, messages: Any, *, max_tokens: int, temperature: float,
                    cancel: Any = None) -> Any:
        yield "O titular tem direito de acesso [1]."

    def complete_json(self, messages: Any, schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]:
        if "summary" in schema.get("properties", {}):
            self.summaries.append(messages[-1]["content"])
            return {"summary": "O usuário perguntou sobre prazos e sobre o art. 18."}
        return {}  # the follow-up rewrite: no usable reply, the question is searched as is

    def count_tokens(self, text: str) -> int:
        return len(text) // 4 + 1


@pytest.mark.parametrize("sources_only", [False, True])
def test_the_model_that_writes_the_answer_summarises_older_turns(
        acervo_home: Path, embedder: Any, tmp_path: Path, sources_only: bool) -> None:
    from desktop_app.app import build_app
    from desktop_app.config.settings import Settings

    llm = SummarisingLLM()
    app = build_app(settings=Settings(answer_mode="written"), embedder=embedder, llm=llm)
    try:
        conv = app.chat.new_conversation()
        for i in range(3):  # six messages: the oldest two leave the verbatim window of four
            app.conversations.add_user_message(conv, f"Pergunta {i} sobre prazos. Detalhes.")
            app.conversations.add_assistant_message(conv, f"Resposta {i}.")
        list(app.chat.turn(conv, "E o art. 18?", sources_only=sources_only))
        summary, _upto = app.conversations.summary(conv)
        if sources_only:  # the model does not write this answer: nor the summary
            assert llm.summaries == [] and summary == "Pergunta 0 sobre prazos."
        else:
            assert len(llm.summaries) == 1 and "Pergunta 0 sobre prazos" in llm.summaries[0]
            assert summary == "O usuário perguntou sobre prazos e sobre o art. 18."
    finally:
        app.close()


def test_a_turn_decides_the_answer_mode_once(memory_app: Any, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The summary's model and the answer's come from one decision (a GGUF header read, or a
    question to Ollama, at most once a turn)."""
    from desktop_app.answer import service as service_module

    decide = service_module.decide_mode
    calls: list[object] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return decide(*args, **kwargs)

    monkeypatch.setattr(service_module, "decide_mode", counting)
    conv = memory_app.chat.new_conversation()
    events = list(memory_app.chat.turn(conv, "Quais são os direitos do titular?"))
    done = next(e for e in events if isinstance(e, Done))
    assert len(calls) == 1 and done.answer_mode is not None
