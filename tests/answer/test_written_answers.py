"""Written answers through the answer service: progress before the first word, prompt
fences never shown, text repaired at the stream, loops stopped and marked, and a
model that writes nothing usable replaced by the passages.

The model here is scripted (the cases are what a small model really produced on the
LGPD — fences, `&#39;`, "dÃºres", a sentence five times — and cannot be produced by a
real model on demand); Stop on the real model is in test_llama_cpp_llm.py.
"""

from __future__ import annotations

from typing import Any

from desktop_app.answer.events import (
    READING,
    SEARCHING,
    WRITING,
    AnswerWarning,
    Done,
    Progress,
    Token,
    WarningCode,
)
from desktop_app.answer.service import AnswerService
from desktop_app.config.settings import Settings

from .conftest import FakeSearcher, ScriptedLLM, make_hit

HITS = [make_hit(1, doc="lgpd", title="LGPD", heading=("Art. 18",), page=9,
                 text="O titular tem direito de acesso aos dados. O prazo de resposta é de 15 "
                      "dias para dúvidas sobre informação."),
        make_hit(2, doc="lgpd", title="LGPD", heading=("Art. 52",), page=21,
                 text="As sanções incluem advertência e multa simples.")]


def answer(pieces: list[str], settings: Settings, **kwargs: Any) -> tuple[list[Any], Done,
                                                                           ScriptedLLM]:
    llm = ScriptedLLM(pieces)
    events = list(AnswerService(FakeSearcher(HITS), llm, settings).ask(
        "Qual é o prazo de resposta?", **kwargs))
    assert isinstance(events[-1], Done)
    return events, events[-1], llm


def shown(events: list[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, Token))


def test_progress_comes_before_the_first_word_in_both_modes(settings: Settings) -> None:
    events, done, _ = answer(["O prazo é de ", "15 dias [1]."], settings)
    kinds = [(e.stage, e.count) if isinstance(e, Progress) else type(e).__name__ for e in events]
    assert kinds[:4] == [(SEARCHING, 0), (READING, 2), (WRITING, 0), "Token"]
    events, done, llm = answer(["unused"], settings, sources_only=True)
    kinds = [(e.stage, e.count) if isinstance(e, Progress) else type(e).__name__ for e in events]
    assert kinds[:3] == [(SEARCHING, 0), (READING, 2), "Token"] and llm.calls == []


def test_fence_markers_are_never_shown_and_the_model_is_stopped(settings: Settings) -> None:
    pieces = ["O prazo é de 15 dias [1].", " FIM", " DA FON", "TE [1]>", ">>\n<<<FON", "TE [2] LGPD",
              " › Art. 52\nAs sanções [2]."] + ["mais texto "] * 20
    events, done, llm = answer(pieces, settings)
    for text in (shown(events), done.answer):
        assert "FIM DA FONTE" not in text and "<<<" not in text and ">>>" not in text
    assert done.answer == "O prazo é de 15 dias [1]."
    assert llm.yielded < len(pieces)  # generation ended at the marker
    assert done.trace["output_stopped"] == "fence"


def test_entities_and_mis_decoded_utf8_are_fixed_in_the_stream(settings: Settings) -> None:
    pieces = ["Para d", "Ã", "ºvidas sobre informa", "Ã§Ã", "£o, o prazo &#3", "9;é&#39; de 15 dias [1]."]
    events, done, _ = answer(pieces, settings)
    assert shown(events) == done.answer == \
        "Para dúvidas sobre informação, o prazo 'é' de 15 dias [1]."


def test_a_loop_is_stopped_cut_and_marked(settings: Settings) -> None:
    sentence = "O prazo de resposta é de 15 dias [1]. "
    pieces = [w + " " for w in (sentence * 5).split()] + ["fim"] * 50
    events, done, llm = answer(pieces, settings)
    assert done.answer == "O prazo de resposta é de 15 dias [1]."
    assert shown(events).count("O prazo de resposta") == 1  # the repeat never reached the screen
    assert done.warned(WarningCode.REPETITION)
    assert llm.yielded < len(pieces)


def test_a_model_that_only_echoes_the_prompt_gets_the_passages_instead(
        settings: Settings) -> None:
    events, done, _ = answer(["<<<FONTE [1] LGPD › Art. 18 (p. 9)\n", "O titular..."], settings)
    assert done.sources_only and done.citations
    assert "O prazo de resposta é de 15 dias para dúvidas sobre informação [1]." in done.answer
    assert AnswerWarning(WarningCode.MODEL_UNAVAILABLE,
                         "the model wrote nothing usable") in done.warnings
    assert "<<<" not in shown(events)


def test_stop_before_the_first_word_ends_cleanly(settings: Settings) -> None:
    events, done, llm = answer(["O prazo", " é de 15 dias [1]."], settings, cancel=lambda: True)
    assert done.warnings[0].code == WarningCode.CANCELLED and done.answer == ""
    assert llm.calls == []  # cancelled before the model was asked


def test_stop_while_the_model_reads_its_prompt_says_only_stopped(settings: Settings) -> None:
    checks = iter([False])  # the service's own check passes; the model's first check stops
    events, done, llm = answer(["O prazo", " é de 15 dias [1]."], settings,
                               cancel=lambda: next(checks, True))
    assert [kind for kind, _ in llm.calls] == ["stream_chat"] and llm.yielded == 0
    assert done.warnings == (AnswerWarning(WarningCode.CANCELLED),) and done.answer == "" and done.citations == ()
    assert shown(events) == ""
