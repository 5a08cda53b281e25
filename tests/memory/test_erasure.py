"""Erasure reaches every copy: the canary test over the data and log directories.

A fact with a canary is told in chat, used in an answer (memory block, trace, running
summary), then erased with its messages; afterwards no file under ACERVO_HOME — data,
logs, cache — contains the canary's bytes (walked in Python and checked with grep -r).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.answer.events import Done, MemoryUsed
from desktop_app.chat.events import TurnComplete
from desktop_app.chat.history import HistoryBuilder
from desktop_app.memory.events import MemorySaved

from .canary import files_containing, grep_finds

CANARY = "KX7-CANARY-40917"


@pytest.fixture
def app_log(paths: Any) -> Iterator[Path]:
    """Everything the app logs at DEBUG goes to a file in the log dir, as in production."""
    log_file = paths.log_dir / "acervo.log"
    handler = logging.FileHandler(log_file, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield log_file
    root.removeHandler(handler)
    root.setLevel(old_level)
    handler.close()


@pytest.fixture
def library(memory_app: Any, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "armarios.md").write_text(
        "# Armários\n\nOs armários do terceiro andar são liberados pela portaria com o código "
        "pessoal de cada funcionário. Em caso de perda, procure o setor de facilities.\n",
        encoding="utf-8")
    list(memory_app.pipeline.run([docs]))


def run_turn(chat: Any, conversation_id: str, text: str) -> list[Any]:
    events = list(chat.turn(conversation_id, text))
    complete = events[-1]
    assert isinstance(complete, TurnComplete)
    if complete.extraction is not None:
        events += complete.extraction.run()
    return events


def everywhere(home: Path, needle: str) -> list[Any]:
    return files_containing(home, needle.encode()) + grep_finds(home, needle)


def test_erased_fact_leaves_no_byte_on_disk(memory_app: Any, library: None, app_log: Path,
                                            acervo_home: Path) -> None:
    chat = memory_app.chat
    chat.history = HistoryBuilder(memory_app.conversations, keep_last_messages=2)
    conv = chat.new_conversation("canary")

    told = run_turn(chat, conv, f"Lembre que o código do meu armário é {CANARY}.")
    (saved,) = [e for e in told if isinstance(e, MemorySaved)]
    (memory_id,) = saved.memory_ids

    asked = run_turn(chat, conv, "Qual é o código do meu armário?")
    assert MemoryUsed(memory_id, f"O código do meu armário é {CANARY}.") in asked
    done = next(e for e in asked if isinstance(e, Done))
    assert memory_id in done.trace["memories"]
    run_turn(chat, conv, "E onde ficam os armários?")  # older turns now go to the summary
    summary, _ = memory_app.conversations.summary(conv)
    assert summary and CANARY in summary

    assert everywhere(acervo_home, CANARY), "sanity: the canary is on disk before erasure"
    receipt = memory_app.memory.delete(memory_id, erase_messages=True)

    assert everywhere(acervo_home, CANARY) == []
    assert receipt.stores["messages"].rows == 1  # the user's message that stated it
    assert receipt.stores["traces_and_summaries"].rows >= 2  # acknowledgement, trace, summary
    assert receipt.stores["memory_index"].rows == 1
    log_text = app_log.read_text(encoding="utf-8")
    assert memory_id in log_text  # logs carry ids …
    assert "armário" not in log_text  # … never memory text
    # the conversation goes on without the erased parts
    contents = [m.content for m in memory_app.conversations.messages(conv)]
    assert "Qual é o código do meu armário?" in contents


def test_forget_all_with_conversations_erases_every_copy(memory_app: Any, library: None,
                                                         acervo_home: Path) -> None:
    chat = memory_app.chat
    conv = chat.new_conversation()
    run_turn(chat, conv, f"Remember that my locker code is {CANARY}.")
    run_turn(chat, conv, "My badge number is BADGE-77310 and I work at Initech.")
    run_turn(chat, conv, "What is my locker code?")
    assert memory_app.memory.list_items()
    receipt = memory_app.memory.forget_all(erase_conversations=True)
    assert receipt.stores["conversations"].rows >= 6
    assert memory_app.memory.list_items() == []
    for needle in (CANARY, "BADGE-77310", "Initech"):
        assert everywhere(acervo_home, needle) == [], needle


def test_forget_command_in_chat_scrubs_the_command_too(memory_app: Any, library: None,
                                                       acervo_home: Path) -> None:
    chat = memory_app.chat
    conv = chat.new_conversation()
    run_turn(chat, conv, f"Remember that my locker code is {CANARY}.")
    events = run_turn(chat, conv, f"Forget my locker code {CANARY}")
    done = next(e for e in events if isinstance(e, Done))
    assert done.answer == "Forgotten (1 memories erased)."
    assert memory_app.memory.list_items() == []
    assert everywhere(acervo_home, CANARY) == []


@pytest.mark.slow
def test_canary_with_the_real_model_in_the_loop(memory_app: Any, library: None,
                                                acervo_home: Path) -> None:
    """Same cycle with SmolLM2 answering (prompt, streaming, constrained JSON rewrite)."""
    from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
    from desktop_app.answer.models import bundled_model_path
    from desktop_app.answer.service import AnswerService

    path = bundled_model_path()
    assert path is not None
    llm = LlamaCppLLM(path, n_ctx=2048, n_threads=2, temperature=0.0)
    chat = memory_app.chat
    chat.answers = AnswerService(memory_app.searcher, llm, memory_app.settings,
                                 memory=memory_app.memory)
    memory_app.settings.max_answer_tokens = 48
    conv = chat.new_conversation()
    told = run_turn(chat, conv, f"Remember that my locker code is {CANARY}.")
    (memory_id,) = next(e for e in told if isinstance(e, MemorySaved)).memory_ids
    asked = run_turn(chat, conv, "What is my locker code? Answer with the code.")
    assert any(isinstance(e, MemoryUsed) and e.memory_id == memory_id for e in asked)
    memory_app.memory.delete(memory_id, erase_messages=True)
    assert everywhere(acervo_home, CANARY) == []


# ---- derived forms (issue 26) -----------------------------------------------------------------
def test_derived_forms_cover_the_code_folded_split_and_stemmed() -> None:
    from desktop_app.memory.erasure import derived_forms

    forms = derived_forms(["Meu código secreto é QZXWV-48151623."])
    assert {"QZXWV-48151623", "qzxwv-48151623", "48151623"} <= set(forms.needles)
    assert {"qzxwv", "48151623"} <= forms.terms
    assert "secret" not in forms.terms  # common words only for the erased message's own chat
    assert {"secret", "codig"} <= derived_forms(["Meu código secreto"], every_word=True).terms


def test_a_trace_loses_the_erased_question_in_every_form() -> None:
    from desktop_app.memory.erasure import derived_forms, forget_carried, forget_question

    question = "Qual é o meu código secreto? Lembro que era QZXWV-48151623."
    trace = {"question": question, "rewritten_query": question, "searched_for": question,
             "rewrite": {"query": question, "carried": [], "raw": {"q": question}},
             "evidence": {"missing": ["48151623", "codig", "qzxwv", "secret"]},
             "quotes": [{"shared_terms": ["codig"]}], "hits": [{"title": "Nota 1"}]}
    clean = forget_question(trace)
    text = str(clean)
    assert "QZXWV" not in text and "48151623" not in text and "codig" not in text
    assert clean["hits"] == [{"title": "Nota 1"}]  # what the answer showed stays

    later = {"question": "e o outro código?", "rewritten_query": "e o outro código? secreto",
             "rewrite": {"query": "e o outro código? secreto", "carried": ["secreto"]},
             "evidence": {"missing": ["outr", "secret", "qzxwv"]}}
    forms = derived_forms([question], every_word=True)
    undone = forget_carried(later, forms)
    assert undone["rewritten_query"] == "e o outro código?" and undone["rewrite"]["carried"] == []
    assert undone["evidence"]["missing"] == ["outr"]


def test_accent_free_needles_reach_accented_copies() -> None:
    from desktop_app.memory.erasure import REDACTED, redact_text

    assert redact_text("Seu código é Ação-99", ["acao-99"]) == f"Seu código é {REDACTED}"


def test_erasure_empties_the_text_caches_of_the_process() -> None:
    from desktop_app.text.caches import forget_cached_text
    from desktop_app.text.stem import light_stem

    light_stem("secretissimo")
    assert light_stem.cache_info().currsize > 0
    assert forget_cached_text() >= 1
    assert light_stem.cache_info().currsize == 0
