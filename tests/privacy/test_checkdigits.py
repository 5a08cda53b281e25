"""Our check-digit functions agree with an independent library (validate-docbr)."""

from __future__ import annotations

import random

import pytest
from validate_docbr import CNH, CNPJ, CPF, PIS

from desktop_app.privacy.checkdigits import (
    is_plausible_br_phone,
    is_valid_cnh,
    is_valid_cnpj,
    is_valid_cpf,
    is_valid_pis,
)

ORACLES = [
    ("cpf", CPF(), is_valid_cpf, {}),
    ("cnpj", CNPJ(), is_valid_cnpj, {}),
    ("cnpj_alphanumeric", CNPJ(), is_valid_cnpj, {"digits_only": False}),
    ("pis", PIS(), is_valid_pis, {}),
    ("cnh", CNH(), is_valid_cnh, {}),
]


def _mutate_last_digit(doc: str) -> str:
    last = doc[-1]
    return doc[:-1] + str((int(last) + 1) % 10)


@pytest.mark.parametrize(("kind", "oracle", "ours", "options"), ORACLES, ids=[o[0] for o in ORACLES])
def test_generated_documents_are_valid_and_a_changed_digit_is_not(kind, oracle, ours, options):
    random.seed(kind)
    for _ in range(200):
        doc = oracle.generate(mask=bool(random.getrandbits(1)), **options)
        assert oracle.validate(doc), doc
        assert ours(doc), doc
        wrong = _mutate_last_digit(doc)
        assert ours(wrong) == oracle.validate(wrong), wrong


@pytest.mark.parametrize(("kind", "oracle", "ours", "options"), ORACLES, ids=[o[0] for o in ORACLES])
def test_random_strings_get_the_same_verdict_as_the_oracle(kind, oracle, ours, options):
    rng = random.Random(f"random-{kind}")
    length = 14 if kind.startswith("cnpj") else 11
    for _ in range(2000):
        doc = "".join(rng.choice("0123456789") for _ in range(length))
        assert ours(doc) == oracle.validate(doc), doc


def test_known_examples():
    assert is_valid_cnpj("12.ABC.345/01DE-35")  # the Receita Federal's alphanumeric example
    assert not is_valid_cnpj("12.ABC.345/01DE-36")
    assert not is_valid_cpf("111.111.111-11")  # repeated digits pass mod-11 but are invalid
    assert not is_valid_cpf("110.100.179-87")


@pytest.mark.parametrize(("number", "plausible"), [
    ("(11) 98765-4321", True),
    ("+55 21 3456-7890", True),
    ("+5561987654321", True),
    ("(20) 98765-4321", False),  # 20 is not an area code
    ("(11) 18765-4321", False),  # mobile numbers start with 9
    ("1718900000", False),  # an epoch timestamp: 17 is a DDD but 1 cannot start a landline
])
def test_phone_area_codes(number, plausible):
    assert is_plausible_br_phone(number) is plausible
