"""The memory evaluation: needed facts from gold or criteria, and a real case replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desktop_app.errors import AppError
from desktop_app.evaluation.memory import (
    _norm,
    fact_in,
    key_values,
    load_gold,
    needed_facts,
    run_memory_eval,
)

CRITERIA = """The agent must provide CURRENT status:
  - Amount: $95,000 (changed from $85,000 to $100,000, then to $95,000)
  - Recipient: Sarah Thompson-Miller at 2:30 PM on October 1st
  - Bank: Chase (confirmed staying, not Wells Fargo)
  - Account: 7789-4456-901, reference WT-89089
The agent should not mention Premium Rewards."""
CONVERSATION = ("the wire of $95,000 (was $85,000) goes to sarah thompson-miller at chase, "
                "account 7789-4456-901, ref wt-89089, 2:30 pm on october 1st; not wells fargo")


def test_key_values_come_from_criteria_and_must_occur_in_the_conversation() -> None:
    values = [v[0] for v in key_values(CRITERIA, CONVERSATION)]
    assert values == ["$95,000", "Sarah Thompson-Miller", "2:30 PM", "October 1st",
                      "7789-4456-901", "WT-89089"]
    # history in parentheses and negated values are not needed facts
    assert "$85,000" not in values and "Wells Fargo" not in values


@pytest.mark.parametrize(("text", "fact", "found"), [
    ("the deposit is $800", "$80", False),
    ("the fee is $80.50", "$80", False),
    ("the fee is $80.", "$80", True),
    ("saved $1,800 on cabinets", "$1800", True),
    ("saved $1800", "$1,800", True),
    ("seat 112C", "12C", False),
    ("seats 12C and 14C", "12C", True),
    ("at 2:30 AM", "2:30 PM", False),
    ("at 2:30pm on Thursday", "2:30 PM", True),
    ("at 2:30 p.m.", "2:30 PM", True),
    ("account 44298533271", "4429853327", False),
    ("CLM-2024-894327.", "CLM-2024-894327", True),
])
def test_facts_match_whole_tokens(text: str, fact: str, found: bool) -> None:
    assert fact_in(_norm(text), fact) is found


def test_current_facts_in_parentheses_and_after_a_negation_are_kept() -> None:
    criteria = """- Registration fee: $300 ($150 per child) - due upon enrollment
- Adjustment: Standard cabinets instead of shaker (saved $1,800)
- November 12: DL167 at 11:30 AM (not 1:30 PM)
- Methotrexate: STOPPED (was 15mg weekly)"""
    conversation = _norm("$300 total, $150 per child; shaker cabinets, saving $1,800; "
                         "DL167 at 11:30 AM, not 1:30 PM")
    values = [v[0] for v in key_values(criteria, conversation)]
    assert values == ["$300", "$150", "$1,800", "DL167", "11:30 AM"]


def test_gold_facts_come_from_a_file_given_on_the_command_line(tmp_path: Path) -> None:
    gold = tmp_path / "mine.json"
    gold.write_text(json.dumps({"case_x": {"required_facts": ["A-1"]}}), encoding="utf-8")
    assert load_gold(tmp_path / "cases", gold) == {"case_x": {"required_facts": ["A-1"]}}
    with pytest.raises(AppError, match="No gold facts file"):
        load_gold(tmp_path, tmp_path / "missing.json")


def test_gold_facts_win_over_criteria() -> None:
    case = {"test_id": "layer1_04_airline_booking", "evaluation_criteria": CRITERIA,
            "conversation_histories": []}
    gold = {"layer1_04_airline_booking": {"required_facts": ["PAC-778K4M", ["12C", "seat 12C"]]}}
    assert needed_facts(case, gold) == ([["PAC-778K4M"], ["12C", "seat 12C"]], "gold")


def test_a_real_case_replays_through_extraction_and_recall(memory_app: Any,
                                                           eval_dir: Path) -> None:
    result = run_memory_eval(memory_app, eval_dir / "memory" / "user-memory" / "layer1",
                             mode="patterns", limit=1)
    (case,) = result["cases"]
    assert case["test_id"] == "layer1_01_bank_account" and case["facts_from"] == "gold"
    facts = {f["fact"]: f for f in case["facts"]}
    # the user only repeats the account number back as a question ("Let me write that
    # down... 4429853327, right?"), and the routing number only ever came from the bank
    # agent: neither is a profile memory
    assert facts["4429853327"]["user_said"] and not facts["4429853327"]["stored"]
    assert not facts["123006800"]["user_said"] and not facts["123006800"]["stored"]
    assert result["summary"]["fact_user_said_ceiling"] == 0.5
    assert case["memories"] > 5 and len(case["block"]) == 3
    # the context block (memories + earlier conversations) holds the bank's routing number
    # too: the agent said it, so recall (not memory) brings it back, within the budget
    assert facts["123006800"]["in_context_block"] and facts["4429853327"]["in_context_block"]
    assert 0 < case["block_tokens"] <= result["budget_tokens"] == 600
    assert result["summary"]["in_context_block"] == 1.0
    # the figures the results file is read for sit at its top level, with the revision
    assert (result["facts"], result["in_context_block"]) == (2, 1.0)
    assert result["block_tokens_p95"] == case["block_tokens"]
    assert result["measured_on"] is None or result["measured_on"].startswith("commit ")
    assert case["block_exchanges"] >= 1 and case["indexed_exchanges"] > 10
