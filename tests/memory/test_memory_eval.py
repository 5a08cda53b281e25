"""The memory evaluation: needed facts from gold or criteria, and a real case replayed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.evaluation.memory import key_values, needed_facts, run_memory_eval

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
    # the checking account number is in the user's words ("Let me write that down…");
    # the routing number only ever came from the bank agent, so it can never be learned
    assert facts["4429853327"]["user_said"] and facts["4429853327"]["stored"]
    assert not facts["123006800"]["user_said"] and not facts["123006800"]["stored"]
    assert result["summary"]["fact_user_said_ceiling"] == 0.5
    assert case["memories"] > 5 and len(case["block"]) == 3
