"""Corrections supersede a memory that has no slot: the same thing said again with other
values, "actually / na verdade / en realidad …", "X instead of Y". Real SQLite, LanceDB and
the e5 embedder; two facts that merely look alike (two children, two accounts) both stay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from desktop_app.chat.conversations import ConversationStore
from desktop_app.memory.patterns import extract_stated_facts, is_correction, updates
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import UserMessage


@pytest.mark.parametrize(("new", "old", "new_context", "old_context"), [
    ("Na verdade, o orçamento da reforma é R$ 95.000.", "O orçamento da reforma é R$ 85.000.",
     "", ""),
    ("Corrigindo: a consulta é na terça às 15h.", "A consulta é na segunda às 15h.", "", ""),
    ("Não é segunda, é terça.", "A reunião é na segunda.", "", ""),
    ("Yes, $100,000 instead of $85,000.", "Let's go back to one transfer of $85,000.", "", ""),
    ("Actually, make that Tuesday.", "Appointment with Dr. Lima on Monday at 3 PM.",
     "Your appointment is Monday at 3 PM. Anything else?", ""),
    ("Actually, I have a new number. It's 916-555-8899.", "Yes, it's 916-555-7823.",
     "", "Is 916-555-7823 still the best phone number to reach you?"),
    ("The budget for the kitchen is $100,000.", "The budget for the kitchen is $85,000.",
     "", ""),
])
def test_a_correction_updates_the_older_fact(new: str, old: str, new_context: str,
                                             old_context: str) -> None:
    assert updates(new, old, nearest=True, new_context=new_context, old_context=old_context)


@pytest.mark.parametrize(("new", "old", "new_context", "old_context"), [
    # two children, two accounts, two boxes of a tax form: two facts
    ("My daughter Ana is 5 years old.", "My son Pedro is 8 years old.", "", ""),
    ("My kid Ana is 5.", "My kid Pedro is 8.", "", ""),
    ("Minha filha Ana tem 5 anos.", "Meu filho Pedro tem 8 anos.", "", ""),
    ("Meu projeto 1 se chama Alfa1.", "Meu projeto 0 se chama Alfa0.", "", ""),
    ("My savings account is 5512093311.", "My checking account is 4429853327.", "", ""),
    ("$1,370.", "$5,859.", "Box 6 - Medicare tax withheld?",
     "Box 4 - Social Security tax withheld?"),
    ("$425 per month.", "$2,850 per month.", "What's your monthly payment on that?",
     "What's your monthly rent payment?"),
    # "actually" that adds or changes the subject is no correction
    ("Actually, she's also a TechCorp employee.", "My wife works at Acme.", "", ""),
    ("Actually, let me just focus on the Honda for now. My wife uses the Tesla mostly.",
     "I just bought a 2023 Tesla Model 3.", "", ""),
    ("Right. But now I'm only taking 10 credits this spring instead of 13.",
     "Spring 2025, so two more semesters after this one.", "", ""),
])
def test_facts_that_only_look_alike_are_both_kept(new: str, old: str, new_context: str,
                                                  old_context: str) -> None:
    assert not updates(new, old, nearest=True, new_context=new_context,
                       old_context=old_context)


def test_a_bare_correction_is_remembered_and_questions_are_not_corrections() -> None:
    message = UserMessage("c", "m", "Actually, make that Tuesday.", "2026-01-01T00:00:00Z",
                          "Your appointment is Monday at 3 PM. Anything else?")
    (fact,) = extract_stated_facts(message)
    assert fact.text == "Actually, make that Tuesday." and "Monday" in fact.search_context
    # a bare "actually" is often emphasis: it may correct a memory, not make a new one
    assert extract_stated_facts(UserMessage("c", "m", "That's actually barely more than "
                                            "Premium alone.", "2026-01-01T00:00:00Z")) == []
    assert is_correction("É terça, não segunda.", firm=True)
    assert not is_correction("Actually, what about a credit card?")
    assert not is_correction("Actually, let me also open a savings account and link them.")


def _chat(conversations: ConversationStore, memory: MemoryService,
          turns: list[tuple[str, str]]) -> dict[str, Any]:
    """Replay (role, text) turns; every user turn goes through implicit extraction.
    Returns {user text: its save outcomes}."""
    conversation_id = conversations.new_conversation("corrections")
    outcomes: dict[str, Any] = {}
    for role, text in turns:
        if role == "assistant":
            conversations.add_assistant_message(conversation_id, text)
        else:
            message = conversations.add_user_message(conversation_id, text)
            outcomes[text] = memory.extract_from(message, use_llm=False)
    return outcomes


def _active_texts(memory: MemoryService) -> set[str]:
    return {i.text for i in memory.list_items()}


@pytest.mark.ranking
def test_corrections_supersede_in_portuguese_and_keep_history(
        memory: MemoryService, conversations: ConversationStore) -> None:
    said = _chat(conversations, memory, [
        ("user", "O orçamento da reforma é R$ 85.000."),
        ("assistant", "Anotado. Mais alguma coisa?"),
        ("user", "Meu filho Pedro tem 8 anos."),
        ("assistant", "E a sua filha?"),
        ("user", "Minha filha Ana tem 5 anos."),
        ("assistant", "Certo."),
        ("user", "Na verdade, o orçamento da reforma é R$ 95.000."),
    ])
    (correction,) = said["Na verdade, o orçamento da reforma é R$ 95.000."]
    old = memory.get(correction.superseded_id or "")
    assert old is not None and old.text == "O orçamento da reforma é R$ 85.000."
    assert old.status == "superseded" and old.superseded_by == correction.memory_id
    active = _active_texts(memory)
    assert "O orçamento da reforma é R$ 85.000." not in active
    assert {"Meu filho Pedro tem 8 anos.", "Minha filha Ana tem 5 anos."} <= active
    # history kept and visible: provenance and `memory list --history`
    assert [h.id for h in memory.provenance(correction.memory_id or "").history] == [old.id]
    assert old.id in {i.id for i in memory.list_items(status="history")}


@pytest.mark.ranking
def test_corrections_supersede_in_english_but_two_accounts_stay(
        memory: MemoryService, conversations: ConversationStore) -> None:
    memory.set_consent("financial_account", True)  # account numbers need it
    said = _chat(conversations, memory, [
        ("user", "My checking account is 4429853327."),
        ("assistant", "And the savings account?"),
        ("user", "My savings account is 5512093311."),
        ("assistant", "What's the best phone number to reach you?"),
        ("user", "Yes, it's 916-555-7823."),
        ("assistant", "Thanks. We'll call you there."),
        ("user", "Actually, I have a new number. It's 916-555-8899."),
    ])
    (new_phone,) = said["Actually, I have a new number. It's 916-555-8899."]
    old = memory.get(new_phone.superseded_id or "")
    assert old is not None and old.text == "Yes, it's 916-555-7823."
    assert {"My checking account is 4429853327.", "My savings account is 5512093311."} <= \
        _active_texts(memory)
    # the slot rule's two accounts: no slot and no meaning rule merged them
    assert all(o.superseded_id is None for o in said["My savings account is 5512093311."])


def _replay_case(path: Path, conversations: ConversationStore,
                 memory: MemoryService) -> dict[str, Any]:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    said: dict[str, Any] = {}
    for history in case["conversation_histories"]:
        said |= _chat(conversations, memory,
                      [(m["role"], m["content"]) for m in history["messages"]])
    return said


@pytest.mark.ranking
def test_the_transfer_amount_correction_of_a_real_case(
        memory: MemoryService, conversations: ConversationStore, eval_dir: Path) -> None:
    """layer2/12: "$85,000" → split → "Let's go back to one transfer of $85,000." →
    "Yes, $100,000 instead of $85,000." — the last names the value it replaces."""
    case = eval_dir / "memory/user-memory/layer2/12_contradictory_financial_instructions.yaml"
    memory.set_consent("financial_account", True)
    said = _replay_case(case, conversations, memory)
    (raised,) = said["Yes, $100,000 instead of $85,000."]
    old = memory.get(raised.superseded_id or "")
    assert old is not None and "$85,000" in old.text and old.status == "superseded"
    active = _active_texts(memory)
    assert "Yes, $100,000 instead of $85,000." in active
    # the account and routing numbers said twice are not corrections of each other
    assert any("7789-4456-901" in t for t in active)


@pytest.mark.ranking
def test_a_phone_correction_of_a_real_case(memory: MemoryService,
                                           conversations: ConversationStore,
                                           eval_dir: Path) -> None:
    said = _replay_case(eval_dir / "memory/user-memory/layer1/02_insurance_claim.yaml",
                        conversations, memory)
    (new_phone,) = said["Actually, I have a new number. It's 916-555-8899."]
    old = memory.get(new_phone.superseded_id or "")
    assert old is not None and "916-555-7823" in old.text
    assert not any("916-555-7823" in t for t in _active_texts(memory))
