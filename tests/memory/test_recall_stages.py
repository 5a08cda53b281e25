"""Conversation recall's second stage, the packing's meaning and plain statements, relative
dates, and the LoCoMo evaluation with its BM25 baseline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desktop_app.answer.context import estimate_tokens, fit_context
from desktop_app.answer.prompt import MemoryItem, load_prompts
from desktop_app.errors import AppError
from desktop_app.evaluation.bm25 import BM25
from desktop_app.evaluation.locomo import (
    answer_in,
    evaluate_conversation,
    load_locomo,
    session_time,
    summarize_locomo,
)
from desktop_app.memory.recall import without_names
from desktop_app.memory.recall_index import ExchangeRow
from desktop_app.memory.recall_turns import stages
from desktop_app.memory.types import EarlierExchange
from desktop_app.retrieval.index_api import Scored
from desktop_app.text.when import resolve

SAID_ON = "2023-05-08T13:56:00Z"  # a Monday


@pytest.mark.parametrize(("said", "meant"), [
    ("I went to a support group yesterday.", "yesterday (7 May 2023)"),
    ("I painted that sunrise last year!", "last year (2022)"),
    ("We ran a charity race last Sunday.", "last Sunday (the Sunday before 8 May 2023)"),
    ("I gave a talk last week.", "last week (the week before 8 May 2023)"),
    ("We're going camping next month.", "next month (June 2023)"),
    ("We met 3 days ago.", "3 days ago (5 May 2023)"),
    ("Fui ao médico ontem.", "ontem (7 May 2023)"),
])
def test_relative_dates_are_resolved_against_the_day_they_were_said(said: str,
                                                                     meant: str) -> None:
    assert meant in resolve(said, SAID_ON)


def test_resolution_is_written_in_the_answers_language_and_leaves_other_text_alone() -> None:
    assert resolve("Ontem fui ao médico.", SAID_ON, "pt") == \
        "Ontem (7 de maio de 2023) fui ao médico."
    assert resolve("No date here.", SAID_ON) == "No date here."
    assert resolve("I saw it yesterday.", SAID_ON, brackets="[]") == \
        "I saw it yesterday [7 May 2023]."


def _scored(row_id: str, messages: tuple[str, ...], score: float) -> Scored[ExchangeRow]:
    row = ExchangeRow(row_id, "c1", messages, "2026-11-01T10:00:00Z")
    return Scored(row, score, row_id, (row_id,))


def test_the_second_stage_ranks_turns_and_adds_those_past_the_first_exchanges() -> None:
    exchanges = [_scored(f"ex_{i}", (f"a{i}", f"u{i}", f"b{i}"), 1 - i / 100)
                 for i in range(5)]
    # the turn "u9" is found by both legs on its own, its exchange by neither
    vector = [_scored("tu_u9", ("u9",), 0.9), *exchanges, _scored("tu_u0", ("u0",), 0.5)]
    keyword = [_scored("tu_u9", ("u9",), 9.0), *exchanges[::-1]]
    found = stages(vector, keyword, k=3)
    ids = [row.exchange_id for row, _ in found.candidates]
    assert len(ids) == 4 and all(i.startswith("ex_") for i in ids[:3]) and ids[3] == "tu_u9"
    assert "u9" in found.turns[:3]  # near the top by what it says, though no exchange holds it
    assert found.similarity == {"u9": 0.9, "u0": 0.5}  # each found turn's cosine
    # rows the caller may not show (the current chat) are left out of both stages
    assert stages(vector, keyword, k=3, keep=lambda row: "u9" not in row.message_ids).turns[0] \
        != "u9"


def test_a_name_every_chat_has_is_left_out_of_the_vector_query_only() -> None:
    assert without_names("When did Caroline's group meet Melanie?", {"caroline", "melanie"}) \
        == "When did group meet"
    assert without_names("Where does Ana live?", set()) == "Where does Ana live?"


def _exchange(i: int, text: str, similarity: float | None, day: str = "10") -> EarlierExchange:
    return EarlierExchange(f"ex{i}", f"c{i}", f"2023-05-{day}T10:00:00Z", f"{day} May 2023",
                           ((f"m{i}", "user", text),), i, (similarity,))


def test_a_plain_statement_close_to_the_question_wins_over_greetings() -> None:
    fillers = [_exchange(i, f"Thanks, Melanie! That was great number {i} for us.", 0.80)
               for i in range(1, 25)]
    wanted = _exchange(0, "I went to a support group yesterday and it was so powerful.", 0.88,
                       day="08")
    block = fit_context([], [*fillers, wanted], load_prompts("en"),
                        count_tokens=estimate_tokens, budget=120,
                        query="When did Caroline go to the support group?")
    assert "support group yesterday (7 May 2023)" in block.text
    assert "m0" in block.message_ids


def test_a_memory_that_concerns_nothing_asked_takes_no_room() -> None:
    exchange = _exchange(1, "The flight to Lisbon leaves at 9:40 AM from gate 12.", 0.9)
    unrelated = MemoryItem("mem1", "I am allergic to cats.")
    block = fit_context([unrelated], [exchange], load_prompts("en"),
                        count_tokens=estimate_tokens, budget=600,
                        query="When does my flight to Lisbon leave?",
                        memory_similarity={"mem1": 0.70})
    assert "9:40 AM" in block.text
    assert block.memories == ()  # nothing in it concerns the question: no floor, no room
    related = MemoryItem("mem2", "My Lisbon trip is for the March conference.")
    block = fit_context([related], [exchange], load_prompts("en"),
                        count_tokens=estimate_tokens, budget=600,
                        query="When does my flight to Lisbon leave?")
    assert [m.id for m in block.memories] == ["mem2"]


def test_a_memory_close_in_meaning_keeps_its_floor_one_far_from_it_does_not() -> None:
    """"Sou vegetariana." for "Sugira um restaurante": no shared word, but its cosine to
    the question is above most candidates'; "Moro sozinha." is below them."""
    chats = [_exchange(i, f"Combinamos a reunião número {i} para terça.", 0.80)
             for i in range(1, 6)]
    memories = [MemoryItem("veg", "Sou vegetariana."), MemoryItem("home", "Moro sozinha.")]
    block = fit_context(memories, chats, load_prompts("pt"), count_tokens=estimate_tokens,
                        budget=600, query="Sugira um restaurante para hoje",
                        memory_similarity={"veg": 0.86, "home": 0.75})
    assert [m.id for m in block.memories] == ["veg"]
    # nothing to compare with (no measured closeness): the best match keeps its floor
    alone = fit_context(memories[:1], [], load_prompts("pt"), count_tokens=estimate_tokens,
                        budget=600, query="Sugira um restaurante para hoje")
    assert "Sou vegetariana." in alone.text


def test_bm25_ranks_turns_by_rare_shared_words() -> None:
    bm25 = BM25(["Hey Caroline, how are you?", "I went to a support group yesterday.",
                 "Caroline, that is great!"])
    assert bm25.ranked("When did Caroline go to the support group?")[0] == 1
    assert bm25.ranked("quantum chromodynamics") == []


def test_locomo_answers_match_whole_folded_words() -> None:
    assert answer_in("7 May 2023", "yesterday (7 May 2023) and")
    assert answer_in("The Friday before 23January, 2022", "the Friday before 23 January 2022")
    assert not answer_in("2022", "in 20222")
    assert not answer_in("Adoption agencies", "adoption agency")
    assert session_time("1:56 pm on 8 May, 2023") == "2023-05-08T13:56:00Z"


SAMPLE = {
    "sample_id": "tiny-1",
    "conversation": {
        "speaker_a": "Caroline", "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! Good to see you!"},
            {"speaker": "Melanie", "dia_id": "D1:2", "text": "Hey Caroline! What's new?"},
            {"speaker": "Caroline", "dia_id": "D1:3",
             "text": "I went to a LGBTQ support group yesterday and it was so powerful."},
            {"speaker": "Melanie", "dia_id": "D1:4", "text": "That's great, Caroline!"},
        ],
        "session_2_date_time": "10:00 am on 20 June, 2023",
        "session_2": [
            {"speaker": "Melanie", "dia_id": "D2:1", "text": "I painted a lake sunrise last year."},
            {"speaker": "Caroline", "dia_id": "D2:2", "text": "Wow, it is beautiful, Melanie."},
        ],
    },
    "qa": [
        {"question": "When did Caroline go to the LGBTQ support group?",
         "answer": "7 May 2023", "evidence": ["D1:3"], "category": 2},
        {"question": "When did Melanie paint a sunrise?", "answer": 2022,
         "evidence": ["D2:1"], "category": 2},
        {"question": "What did Melanie realize after the support group?",
         "adversarial_answer": "self-care", "evidence": ["D1:3"], "category": 5},
    ],
}


def test_a_locomo_conversation_is_replayed_and_scored_beside_bm25(tmp_path: Path,
                                                                   embedder: Any) -> None:
    rows = evaluate_conversation(SAMPLE, embedder, tmp_path, budget=600,
                                 count_tokens=estimate_tokens)
    assert [r["category"] for r in rows] == [2, 2, 5]
    first, second, _ = rows
    assert first["answer_in_block"] and first["evidence_in_block"]  # "yesterday" resolved
    assert first["evidence_recall_at_10_turns"] and first["bm25_evidence_recall_at_10"]
    assert not first["bm25_pack_answer_in_block"]  # BM25's pack shows the chat's date only
    assert second["answer_in_block"]
    summary = summarize_locomo(rows)
    assert summary["questions"] == 2 and summary["answer_in_block"] == 1.0
    assert summary["per_category"]["5_unanswerable"]["questions"] == 1
    assert {"bm25_pack_answer_in_block", "bm25_evidence_recall_at_10"} <= set(summary)


def test_a_locomo_file_is_checked_and_conversations_chosen_by_id(tmp_path: Path) -> None:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([SAMPLE]), encoding="utf-8")
    assert [s["sample_id"] for s in load_locomo(path, ["tiny-1"])] == ["tiny-1"]
    with pytest.raises(AppError, match="No conversation conv-9"):
        load_locomo(path, ["conv-9"])
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(AppError, match="not a LoCoMo file"):
        load_locomo(path)
