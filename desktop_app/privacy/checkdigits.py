"""Check digits of Brazilian identifiers: CPF, CNPJ (incl. alphanumeric), PIS/PASEP, CNH,
título de eleitor, RENAVAM and the 32-digit registry-certificate matrícula.

Pure functions over the characters of a candidate, separators allowed. They
decide only for numbers that stand alone in a text; a number the text labels
("CPF: …") is redacted whatever its digits (see recognizers_br).
"""

from __future__ import annotations

import re


def word_set(text: str) -> frozenset[str]:
    """A frozenset of the whitespace-separated words of `text` (readable constant lists)."""
    return frozenset(text.split())


# Area codes (DDD) in use by Anatel's national numbering plan.
BRAZIL_AREA_CODES: frozenset[str] = word_set(
    "11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 "
    "41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 "
    "71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99"
)

_SEPARATORS = re.compile(r"[\s./\-]")


def strip_separators(candidate: str) -> str:
    """Upper-case alphanumerics of `candidate` without dots, slashes, dashes or spaces."""
    return _SEPARATORS.sub("", candidate).upper()


def _all_same(chars: str) -> bool:
    return len(set(chars)) == 1


def _mod11_digit(values: list[int], weights: list[int]) -> int:
    remainder = sum(v * w for v, w in zip(values, weights, strict=True)) % 11
    return 0 if remainder < 2 else 11 - remainder


def is_valid_cpf(candidate: str) -> bool:
    """CPF: 11 digits, two mod-11 check digits; repeated digits are invalid."""
    digits = strip_separators(candidate)
    if len(digits) != 11 or not digits.isdigit() or _all_same(digits):
        return False
    values = [int(c) for c in digits]
    first = _mod11_digit(values[:9], list(range(10, 1, -1)))
    second = _mod11_digit(values[:10], list(range(11, 1, -1)))
    return values[9] == first and values[10] == second


_CNPJ_SHAPE = re.compile(r"[0-9A-Z]{12}[0-9]{2}")


def is_valid_cnpj(candidate: str) -> bool:
    """CNPJ, numeric or the new alphanumeric form (character value = ord(c) - 48)."""
    chars = strip_separators(candidate)
    if not _CNPJ_SHAPE.fullmatch(chars) or _all_same(chars):
        return False
    values = [ord(c) - 48 for c in chars]
    first = _mod11_digit(values[:12], [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    second = _mod11_digit(values[:13], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return values[12] == first and values[13] == second


def is_valid_pis(candidate: str) -> bool:
    """PIS/PASEP/NIS/NIT: 11 digits, one mod-11 check digit."""
    digits = strip_separators(candidate)
    if len(digits) != 11 or not digits.isdigit() or _all_same(digits):
        return False
    values = [int(c) for c in digits]
    return values[10] == _mod11_digit(values[:10], [3, 2, 9, 8, 7, 6, 5, 4, 3, 2])


def is_valid_cnh(candidate: str) -> bool:
    """CNH (driver licence register): 11 digits, DENATRAN's two check digits."""
    digits = strip_separators(candidate)
    if len(digits) != 11 or not digits.isdigit() or _all_same(digits):
        return False
    values = [int(c) for c in digits]
    first = sum(v * w for v, w in zip(values[:9], range(9, 0, -1), strict=True)) % 11
    discount = 0
    if first >= 10:
        first, discount = 0, 2
    second = sum(v * w for v, w in zip(values[:9], range(1, 10), strict=True)) % 11 - discount
    if second < 0:
        second += 11
    if second >= 10:
        second = 0
    return values[9] == first and values[10] == second


def is_valid_titulo_eleitor(candidate: str) -> bool:
    """Título de eleitor: 8 sequential digits, a state code 01–28, two mod-11 check digits.

    Resolução TSE 23.659/2021 art. 36. Many validators also accept a check digit of 1
    where the remainder is 0 for São Paulo (01) and Minas Gerais (02); both are accepted.
    """
    digits = strip_separators(candidate)
    if len(digits) != 12 or not digits.isdigit() or _all_same(digits):
        return False
    values = [int(c) for c in digits]
    state = values[8] * 10 + values[9]
    if not 1 <= state <= 28:
        return False
    first = sum(v * w for v, w in zip(values[:8], range(2, 10), strict=True)) % 11
    if not _titulo_digit_ok(values[10], first, state):
        return False
    second = (values[8] * 7 + values[9] * 8 + values[10] * 9) % 11
    return _titulo_digit_ok(values[11], second, state)


def _titulo_digit_ok(digit: int, remainder: int, state: int) -> bool:
    expected = 0 if remainder == 10 else remainder
    return digit == expected or (remainder == 0 and state in (1, 2) and digit == 1)


def is_valid_renavam(candidate: str) -> bool:
    """RENAVAM (vehicle register): 11 digits (old 9-digit numbers are left-padded), mod 11."""
    digits = strip_separators(candidate)
    if not digits.isdigit() or len(digits) not in (9, 11) or _all_same(digits):
        return False
    digits = digits.zfill(11)
    total = sum(int(c) * w for c, w in zip(digits[:10], (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
    return int(digits[10]) == total * 10 % 11 % 10


def is_valid_certidao(candidate: str) -> bool:
    """Matrícula of a civil-registry certificate (birth, marriage, death): 32 digits, 2 checks."""
    digits = strip_separators(candidate)
    if len(digits) != 32 or not digits.isdigit() or _all_same(digits):
        return False
    values = [int(c) for c in digits]
    first = _certidao_digit(values[:30])
    return values[30] == first and values[31] == _certidao_digit([*values[:30], first])


def _certidao_digit(values: list[int]) -> int:
    total, weight = 0, 32 - len(values)
    for value in values:
        total += value * weight
        weight = 0 if weight >= 10 else weight + 1
    remainder = total % 11
    return 1 if remainder > 9 else remainder


def is_plausible_br_phone(candidate: str) -> bool:
    """A Brazilian number with a real area code: 10 digits (landline) or 11 (mobile, 9…)."""
    digits = re.sub(r"\D", "", candidate)
    if candidate.lstrip().startswith("+55") or (len(digits) in (12, 13) and digits.startswith("55")):
        digits = digits[2:]
    if digits.startswith("0"):  # trunk prefix, e.g. 0 11 …
        digits = digits[1:]
    if len(digits) == 11:
        return digits[:2] in BRAZIL_AREA_CODES and digits[2] == "9"
    if len(digits) == 10:
        return digits[:2] in BRAZIL_AREA_CODES and digits[2] in "2345"
    return False
