"""The generated Brazilian evaluation set is deterministic, labelled right, and independent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from validate_docbr import CPF

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from pii_br_set import GENERATOR_SURNAMES, brazilian_eval_set  # noqa: E402
from pii_scoring import removed, score_redaction  # noqa: E402

from desktop_app.privacy.name_lexicon import SURNAMES, fold_key  # noqa: E402
from desktop_app.privacy.sanitizer import Sanitizer  # noqa: E402


@pytest.fixture(scope="module")
def small_set():
    return brazilian_eval_set(documents=80, seed=3)


@pytest.mark.slow  # over a second: the full tier only
def test_same_seed_same_set_other_seed_other_set(small_set):
    assert brazilian_eval_set(documents=80, seed=3) == small_set
    assert brazilian_eval_set(documents=80, seed=4) != small_set


def test_spans_lie_inside_their_lines_and_hold_text(small_set):
    kinds = set()
    for text, spans in small_set:
        for start, end, kind in spans:
            assert 0 <= start < end <= len(text)
            assert text[start:end].strip() == text[start:end], (text, kind)
            kinds.add(kind)
    assert {"PERSON", "CPF", "ADDRESS", "CEP", "NONPII", "OAB"} <= kinds


def test_half_of_the_surnames_are_unknown_to_the_recognizer():
    assert not {fold_key(s) for s in GENERATOR_SURNAMES} & SURNAMES


def test_unlabelled_cpf_shaped_negatives_have_wrong_check_digits(small_set):
    oracle = CPF()
    for text, spans in small_set:
        for start, end, kind in spans:
            value = text[start:end]
            if kind == "NONPII" and text[:start].endswith("pedido "):
                assert not oracle.validate(value), value


def test_removed_needs_every_letter_and_digit_covered():
    assert removed("CPF 123.456", 4, 11, [(4, 11)])
    assert removed("CPF 123.456", 4, 11, [(4, 7), (8, 11)])  # the dot may stay
    assert not removed("CPF 123.456", 4, 11, [(4, 9)])


def test_the_sanitizer_touches_no_process_protocol_money_or_date_number(small_set,
                                                                        sanitizer: Sanitizer):
    result = score_redaction(small_set, sanitizer.findings)
    assert result["non_pii_numbers"] > 100
    assert result["non_pii_numbers_replaced"] == 0, result["non_pii_touched_examples"]
