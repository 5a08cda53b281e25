"""Brazilian identifiers as presidio recognizers: CPF, CNPJ, PIS/PASEP, CNH, RG, CEP, phones.

presidio 2.2.366 ships none of them. Two tiers per identifier:

* **labelled** – the text itself names the number ("CPF: …", "RG nº …",
  "telefone …") within a few characters on the same line: personal data even
  with wrong check digits (typos, masked or synthetic values), so no check.
* **checked** – a number in its official layout (`000.000.000-00`), or a raw
  number with a label somewhere earlier on the same line: redacted only when
  the check digits (or the phone's area code) are valid. Unlabelled numbers
  with bad check digits – order numbers, protocol and process ids – stay.

Context comes from look-behinds (presidio compiles with the `regex` module,
so variable-length look-behind works) instead of an NLP pipeline: exact,
language-independent and free of spaCy's ever-growing vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import regex
from presidio_analyzer import Pattern, PatternRecognizer

from desktop_app.privacy.checkdigits import (
    is_plausible_br_phone,
    is_valid_cnh,
    is_valid_cnpj,
    is_valid_cpf,
    is_valid_pis,
)

LANGUAGE = "pt"
LABEL_FLAGS = regex.IGNORECASE | regex.MULTILINE
ADJACENT_WINDOW = 25  # non-digit characters allowed between a label and its number
LINE_WINDOW = 80  # any characters on the same line for the checked tier

# A value must not continue a longer token on either side.
VALUE_START = r"(?<![\w.\-/])"
VALUE_END = r"(?![\w\-/]|[.,]\d)"

CPF_LABELS = r"cpf|c\.p\.f\.?"
CNPJ_LABELS = r"cnpj|c\.n\.p\.j\.?"
PIS_LABELS = r"pis|pasep|nis|nit|pis/pasep|pis-pasep"
CNH_LABELS = (r"cnh|habilita[çc][ãa]o|carteira\s+de\s+motorista|driver'?s?\s+licen[cs]e|"
              r"licencia\s+de\s+conducir|registro\s+nacional\s+de\s+habilita[çc][ãa]o")
RG_LABELS = (r"rg|r\.g\.|identidade|carteira\s+de\s+identidade|registro\s+geral|"
             r"c[ée]dula\s+de\s+identidad|documento\s+de\s+identidade")
CEP_LABELS = r"cep|c\.e\.p\.|c[óo]digo\s+postal|zip(?:\s*code)?|postal\s+code"
PHONE_LABELS = (r"tel|telefone|fone|celular|cel|whats(?:app)?|zap|phone|mobile|"
                r"telephone|tel[ée]fono|m[óo]vil|contato|contact|ramal")
UF_CODES = ("AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO")

CPF_ANY = r"\d{3}\.?\d{3}\.?\d{3}[-.]?\d{2}"
CPF_LAYOUT = r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{9}-\d{2}"
CNPJ_ANY = r"[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}/?[0-9A-Z]{4}-?\d{2}"
CNPJ_LAYOUT = r"[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}"
PIS_ANY = r"\d{3}\.?\d{5}\.?\d{2}-?\d"
PIS_LAYOUT = r"\d{3}\.\d{5}\.\d{2}-\d"
CNH_ANY = r"\d{3}\s?\d{3}\s?\d{3}\s?\d{2}|\d{9}"
RG_ANY = r"(?:[A-Z]{2}[-\s]?)?\d{1,3}(?:\.?\d{3}){1,3}(?:-?[\dX])?"
CEP_ANY = r"\d{2}\.?\d{3}-?\d{3}"
CEP_LAYOUT = r"\d{2}\.?\d{3}-\d{3}"
PHONE_ANY = r"(?:\+?55[\s.-]?)?(?:\(?0?\d{2}\)?[\s.-]?)?9?\d{4}[\s.-]?\d{4}"
PHONE_LAYOUTS = (
    r"\+55[\s.-]?\(?\d{2}\)?[\s.-]?9?\d{4}[\s.-]?\d{4}",  # +55 (11) 98765-4321
    r"\(0?\d{2}\)[\s.-]?9?\d{4}[\s.-]?\d{4}",  # (11) 3456-7890
    r"\d{2}[\s.](?:9\d{4}|[2-5]\d{3})-\d{4}",  # 11 98765-4321
)
RAW_DIGITS_10_11 = r"\d{10,11}"
RAW_DIGITS_11 = r"\d{11}"
RAW_DIGITS_14 = r"\d{14}"


def after_label(labels: str, value: str, *, window: int = ADJACENT_WINDOW) -> str:
    """`value` preceded on its line by one of `labels` and at most `window` non-digits."""
    return rf"(?<=(?<!\w)(?:{labels})(?!\w)[^\d\n]{{0,{window}}}){VALUE_START}(?:{value}){VALUE_END}"


def on_labelled_line(labels: str, value: str, *, window: int = LINE_WINDOW) -> str:
    """`value` with one of `labels` up to `window` characters earlier on the same line."""
    return rf"(?<=(?<!\w)(?:{labels})(?!\w)[^\n]{{0,{window}}}){VALUE_START}(?:{value}){VALUE_END}"


def standalone(value: str) -> str:
    return rf"{VALUE_START}(?:{value}){VALUE_END}"


LABELLED_SCORE = 1.0  # the text says what the number is: this type wins overlaps
CHECKED_SCORE = 0.95  # a valid check without an adjacent label ranks just below


class LabelledRecognizer(PatternRecognizer):
    """Numbers the text labels: kept at the pattern score, check digits ignored."""

    def __init__(self, entity: str, patterns: Sequence[Pattern], name: str) -> None:
        super().__init__(supported_entity=entity, name=name, supported_language=LANGUAGE,
                         patterns=list(patterns), global_regex_flags=LABEL_FLAGS)

    def validate_result(self, pattern_text: str) -> bool | None:
        return None


class CheckedRecognizer(PatternRecognizer):
    """Numbers that count only when `check` accepts them (score 1.0, else dropped)."""

    def __init__(self, entity: str, patterns: Sequence[Pattern], name: str,
                 check: Callable[[str], bool]) -> None:
        super().__init__(supported_entity=entity, name=name, supported_language=LANGUAGE,
                         patterns=list(patterns), global_regex_flags=LABEL_FLAGS)
        self._check = check

    def validate_result(self, pattern_text: str) -> bool | None:
        return self._check(pattern_text)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None,
                regex_flags: int | None = None) -> list[Any]:
        # "PIS 05524368687" on a "contato" line is also a plausible phone: the label decides.
        results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        for result in results:
            result.score = min(result.score, CHECKED_SCORE)
        return results


def _labelled(entity: str, labels: str, value: str, score: float = LABELLED_SCORE,
              extra: Sequence[Pattern] = ()) -> LabelledRecognizer:
    pattern = Pattern(f"{entity} after label", after_label(labels, value), score)
    return LabelledRecognizer(entity, [pattern, *extra],
                              name=f"Labelled{entity.title()}Recognizer")


def _checked(entity: str, check: Callable[[str], bool], layouts: Sequence[str],
             labels: str, raw: str) -> CheckedRecognizer:
    patterns = [Pattern(f"{entity} layout {i}", standalone(layout), 0.5)
                for i, layout in enumerate(layouts)]
    patterns.append(Pattern(f"{entity} raw on labelled line", on_labelled_line(labels, raw), 0.5))
    return CheckedRecognizer(entity, patterns, name=f"Checked{entity.title()}Recognizer",
                             check=check)


def _cep_after_state_code() -> Pattern:
    # "São Paulo - SP, 01310-100": a state code right before is context enough.
    value = standalone(CEP_LAYOUT)
    regex_text = rf"(?<=(?-i:\b(?:{UF_CODES})\b)[\s,.\-/]{{1,3}}){value}"
    return Pattern("CEP after state code", regex_text, 0.6)


def brazilian_recognizers() -> list[PatternRecognizer]:
    """Every Brazilian recognizer, labelled and checked tiers."""
    return [
        _labelled("CPF", CPF_LABELS, CPF_ANY),
        _checked("CPF", is_valid_cpf, [CPF_LAYOUT], CPF_LABELS, RAW_DIGITS_11),
        _labelled("CNPJ", CNPJ_LABELS, CNPJ_ANY),
        _checked("CNPJ", is_valid_cnpj, [CNPJ_LAYOUT], CNPJ_LABELS, RAW_DIGITS_14),
        _labelled("PIS", PIS_LABELS, PIS_ANY),
        _checked("PIS", is_valid_pis, [PIS_LAYOUT], PIS_LABELS, RAW_DIGITS_11),
        _labelled("CNH", CNH_LABELS, CNH_ANY),
        _checked("CNH", is_valid_cnh, [], CNH_LABELS, RAW_DIGITS_11),
        _labelled("RG", RG_LABELS, RG_ANY),
        _labelled("CEP", CEP_LABELS, CEP_ANY, extra=[_cep_after_state_code()]),
        _labelled("PHONE_NUMBER", PHONE_LABELS, PHONE_ANY),
        _checked("PHONE_NUMBER", is_plausible_br_phone, PHONE_LAYOUTS, PHONE_LABELS,
                 RAW_DIGITS_10_11),
    ]
