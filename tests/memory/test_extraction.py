"""Implicit extraction: constrained JSON from the model, then the grounding check.

A scripted JSON reply is used only for the poisoning edge cases (a model proposing a fact
taken from the assistant turn, or invented); the real SmolLM2 checks the machinery
(never its wording).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from desktop_app.memory.extraction import (
    FACT_SCHEMA,
    ImplicitExtractor,
    is_grounded,
    worth_asking,
)
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import UserMessage


def said(text: str, replying_to: str | None = None) -> UserMessage:
    return UserMessage("conv", "msg", text, "2026-01-01T00:00:00Z", replying_to)


@dataclass
class ScriptedJSON:
    reply: dict[str, Any]
    calls: list[list[dict[str, str]]] = field(default_factory=list)

    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]:
        assert schema == FACT_SCHEMA
        self.calls.append(messages)
        return self.reply


def fact(text: str, value: str = "", category: str = "other", attribute: str = "") -> dict[str, str]:
    return {"text": text, "value": value, "category": category, "subject": "user",
            "attribute": attribute}


@pytest.mark.parametrize(("fact_text", "value", "user", "grounded"), [
    ("The user's phone number is 503-555-8924.", "503-555-8924", "My cell is 503-555-8924.", True),
    ("The user's checking account is 4429853327.", "4429853327",
     "Let me write that down... 4429853327, right?", True),
    ("The user's account number is 4429853328.", "4429853328", "It's 4429853327.", False),
    ("The user works at Initech.", "Initech", "I work at TechCorp.", False),
    ("The user likes turtles.", "", "Buddy. He was a golden retriever.", False),
    ("O usuário mora em São Paulo.", "São Paulo", "Moro em Sao Paulo desde 2019.", True),
])
def test_grounding_requires_the_users_own_values(fact_text: str, value: str, user: str,
                                                 grounded: bool) -> None:
    assert is_grounded(fact_text, value, user) is grounded


def test_small_talk_and_commands_skip_the_model() -> None:
    assert not worth_asking(said("Thanks!"))
    assert not worth_asking(said("ok"))
    assert not worth_asking(said("what is the deadline?"))
    assert not worth_asking(said("Lembre que meu nome é Ana."))
    assert worth_asking(said("Sure, it's Michael James Robertson."))


def test_facts_from_the_assistant_turn_are_dropped() -> None:
    llm = ScriptedJSON({"facts": [
        fact("The user's new checking account number is 4429853327.", "4429853327",
             "financial_account", "checking account"),
        fact("The user's routing number is 123006800.", "123006800", "financial_account"),
    ]})
    message = said("Let me write that down... 4429853327, right?",
                   replying_to="Our routing number is 123006800, and your checking account "
                               "number is 4429853327.")
    candidates = ImplicitExtractor(llm).extract(message)
    assert [c.value for c in candidates] == ["4429853327"]  # the routing number was never said
    (candidate,) = candidates
    assert candidate.sensitive and candidate.category == "financial_account"
    assert candidate.extracted_by == "llm" and candidate.message is message
    prompt = llm.calls[0][1]["content"]
    assert "context only" in prompt and message.text in prompt


def test_model_failures_never_break_a_turn() -> None:
    class Broken:
        def complete_json(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            raise RuntimeError("model crashed")

    assert ImplicitExtractor(Broken()).extract(said("I work at TechCorp Industries.")) == []
    assert ImplicitExtractor(ScriptedJSON({"facts": "nonsense"})).extract(
        said("I work at TechCorp Industries.")) == []


def test_llm_and_rules_agree_on_one_item(memory: MemoryService, say: Any) -> None:
    llm = ScriptedJSON({"facts": [fact("The user works at TechCorp Industries.",
                                       "TechCorp Industries", "work", "employer")]})
    memory._llm_provider = lambda: llm
    outcomes = memory.extract_from(say("I work at TechCorp Industries."))
    assert [o.status for o in outcomes] == ["saved", "merged"]  # same slot and value
    assert len(memory.list_items()) == 1


@pytest.mark.slow
def test_real_smollm2_extraction_returns_only_grounded_candidates() -> None:
    from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
    from desktop_app.answer.models import bundled_model_path

    path = bundled_model_path()
    assert path is not None
    llm = LlamaCppLLM(path, n_ctx=2048, n_threads=2, temperature=0.0)
    message = said("My cell is 503-555-8924 and I live in Portland.",
                   replying_to="What's the best phone number to reach you?")
    result = llm.complete_json(ImplicitExtractor(llm).messages_for(message), FACT_SCHEMA)
    assert isinstance(result["facts"], list)  # the grammar holds; the content is the model's
    for candidate in ImplicitExtractor(llm).extract(message):
        assert is_grounded(candidate.text, candidate.value, message.text)


def test_the_bundled_tiny_model_is_not_used_for_extraction() -> None:
    from types import SimpleNamespace

    from desktop_app.answer.models import BUNDLED_NAME
    from desktop_app.memory.extraction import llm_for_extraction

    assert llm_for_extraction(SimpleNamespace(name=BUNDLED_NAME), {BUNDLED_NAME}) is None
    assert llm_for_extraction(None) is None
    own = SimpleNamespace(name="qwen2.5-3b-instruct-q4_k_m")
    assert llm_for_extraction(own) is own
