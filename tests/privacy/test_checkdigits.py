"""Our check-digit functions agree with an independent library (validate-docbr)."""

from __future__ import annotations

import random

import pytest
from validate_docbr import CNH, CNPJ, CPF, PIS, RENAVAM, Certidao, TituloEleitoral

from desktop_app.privacy.checkdigits import (
    is_plausible_br_phone,
    is_valid_certidao,
    is_valid_cnh,
    is_valid_cnpj,
    is_valid_cpf,
    is_valid_pis,
    is_valid_renavam,
    is_valid_titulo_eleitor,
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


NEW_ORACLES = [
    ("titulo", TituloEleitoral(), is_valid_titulo_eleitor, 12),
    ("renavam", RENAVAM(), is_valid_renavam, 11),
    ("certidao", Certidao(), is_valid_certidao, 32),
]


@pytest.mark.parametrize(("kind", "oracle", "ours", "length"), NEW_ORACLES,
                         ids=[o[0] for o in NEW_ORACLES])
def test_voter_vehicle_and_certificate_numbers_agree_with_the_oracle(kind, oracle, ours, length):
    random.seed(kind)
    rng = random.Random(f"random-{kind}")
    for _ in range(300):
        doc = oracle.generate(mask=bool(random.getrandbits(1)))
        assert ours(doc), doc
        wrong = _mutate_last_digit(doc)
        assert ours(wrong) == oracle.validate(wrong) or _sp_mg_exception(kind, wrong), wrong
    for _ in range(2000):
        doc = "".join(rng.choice("0123456789") for _ in range(length))
        assert ours(doc) == oracle.validate(doc) or _sp_mg_exception(kind, doc), doc


def _sp_mg_exception(kind: str, doc: str) -> bool:
    """validate-docbr leaves out the SP/MG rule (remainder 0 → digit 1) that we accept."""
    digits = doc.replace(" ", "")
    return kind == "titulo" and digits[8:10] in ("01", "02") and "1" in digits[10:]


def test_titulo_accepts_the_sao_paulo_and_minas_exception_and_rejects_bad_states():
    # 8 digits summing to a multiple of 11 with weights 2..9, state 01 (SP): the first
    # check digit is 0, or 1 under the SP/MG rule many validators apply.
    base = next(f"{n:08d}" for n in range(1, 10**6)
                if sum(int(c) * w for c, w in zip(f"{n:08d}", range(2, 10), strict=True)) % 11 == 0)
    second = (0 * 7 + 1 * 8 + 0 * 9) % 11  # state "01", first digit 0
    assert is_valid_titulo_eleitor(f"{base}010{second}")
    second_with_one = (0 * 7 + 1 * 8 + 1 * 9) % 11  # the SP/MG rule: first digit 1
    assert is_valid_titulo_eleitor(f"{base}011{second_with_one % 10}")
    assert not is_valid_titulo_eleitor(f"{base}051{second_with_one % 10}")  # not for Bahia
    assert not is_valid_titulo_eleitor(f"{base}2900")  # no state 29
    assert not is_valid_titulo_eleitor("0000 0000 0000")


def test_renavam_accepts_the_old_nine_digit_form():
    # An old 9-digit RENAVAM is the 11-digit one without its two leading zeros.
    eleven = next(f"00{n:09d}" for n in range(10**8, 10**9, 7919) if is_valid_renavam(f"00{n:09d}"))
    assert RENAVAM().validate(eleven)
    assert is_valid_renavam(eleven[2:])
    assert not is_valid_renavam("12345678")
