"""A lean presidio recognizer for label-and-value rules, and the rule shapes it runs.

presidio's `PatternRecognizer` takes the whole match as the finding, so a label
must sit in a look-behind; a variable-length look-behind is retried at every
position of every line and builds an explanation object per match. Here a rule
matches the label forward and reports the value group, checks run once per
candidate, and rules that need a digit skip lines without one: the same
semantics at a fraction of the cost (logging sanitizes every line).

Three rule shapes:

* `labelled` – the value follows its label with at most `window` characters
  in between, none of them a digit or a line break ("CPF nº 123…", "placa ABC-1234").
  Labelled values are personal data whatever their check digits.
* `on_labelled_line` – the value appears up to `window` characters after the
  label on the same line, possibly after other numbers; it counts only when
  its check passes ("PIS do titular, antigo 123 e atual 120.54668.05-4").
* `standalone` – the value in its official layout anywhere; counts only when
  its check passes (valid CPF `529.982.247-25`), or always when no check is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult

LANGUAGE = "pt"
FLAGS = regex.IGNORECASE | regex.MULTILINE | regex.VERSION0

# A value must not continue a longer token on either side.
VALUE_START = r"(?<![\w.\-/])"
VALUE_END = r"(?![\w\-/]|[.,]\d)"

LABELLED_SCORE = 1.0  # the text says what the value is: this type wins overlaps
CHECKED_SCORE = 0.95  # a valid check without an adjacent label ranks just below
PATTERN_SCORE = 0.6  # a layout that needs no check (e.g. CEP after a state code)

DIGIT = regex.compile(r"\d")
# Values that are never identifiers: dates, years, money. A loose value shape
# ("matrícula 2025", "IPTU de 2024: R$ 1.234,56") must not take them.
NOT_AN_IDENTIFIER = regex.compile(
    r"\d{1,2}\s?[/.\-]\s?\d{1,2}\s?[/.\-]\s?(?:19|20)?\d{2}|(?:19|20)\d{2}(?:[./]\d)?|\d{1,3}(?:\.\d{3})*,\d{2}"
)

Check = Callable[[str], bool]


def _never_an_identifier(value: str) -> bool:
    return NOT_AN_IDENTIFIER.fullmatch(value.strip()) is not None


@dataclass(frozen=True)
class Rule:
    """One way to find a value: its shape, an optional label, and what confirms it."""

    name: str
    value: regex.Pattern[str]  # the value alone, with token boundaries
    label: regex.Pattern[str] | None = None  # None: the value stands alone
    window: int = 25  # characters allowed between the label and the value
    adjacent: bool = True  # nothing but non-digits between label and value
    check: Check | None = None  # must accept the value (None: no check)
    score: float = LABELLED_SCORE
    needs_digit: bool = True
    loose: bool = False  # a free-form value: reject dates, years and money

    def spans(self, text: str) -> list[tuple[int, int, float]]:
        if not self.adjacent:
            found = self._after_label_on_line(text)
        elif "v" in self.value.groupindex:  # a label matched forward; the value is group "v"
            found = [m.span("v") for m in self.value.finditer(text)]
        else:
            found = [m.span() for m in self.value.finditer(text)]
        out = []
        for start, end in found:
            candidate = text[start:end]
            if self.loose and _never_an_identifier(candidate):
                continue
            if self.check is not None and not self.check(candidate):
                continue
            out.append((start, end, self.score))
        return out

    def _after_label_on_line(self, text: str) -> list[tuple[int, int]]:
        assert self.label is not None
        spans: set[tuple[int, int]] = set()
        for label in self.label.finditer(text):
            line_end = text.find("\n", label.end())
            stop = len(text) if line_end < 0 else line_end
            for value in self.value.finditer(text, label.end(), stop):
                if value.start() - label.end() > self.window:
                    break
                spans.add(value.span())
        return sorted(spans)


def compile_value(value: str, flags: int = FLAGS) -> regex.Pattern[str]:
    return regex.compile(rf"{VALUE_START}(?:{value}){VALUE_END}", flags)


def compile_label(labels: str, flags: int = FLAGS) -> regex.Pattern[str]:
    return regex.compile(rf"(?<!\w)(?:{labels})(?!\w)", flags)


def labelled(name: str, labels: str, value: str, *, window: int = 25, gap: str = r"[^\d\n$]",
             check: Check | None = None, score: float = LABELLED_SCORE, loose: bool = False,
             flags: int = FLAGS) -> Rule:
    """`value` right after one of `labels` (only `gap` characters in between)."""
    pattern = regex.compile(
        rf"(?<!\w)(?:{labels})(?!\w){gap}{{0,{window}}}?{VALUE_START}(?P<v>{value}){VALUE_END}", flags)
    return Rule(name, pattern, label=compile_label(labels, flags), window=window, check=check,
                score=score, loose=loose)


def on_labelled_line(name: str, labels: str, value: str, check: Check | None, *,
                     window: int = 80, score: float = CHECKED_SCORE) -> Rule:
    """`value` up to `window` characters after one of `labels` on the same line."""
    return Rule(name, compile_value(value), label=compile_label(labels), window=window,
                adjacent=False, check=check, score=score)


def standalone(name: str, value: str, check: Check | None, *, score: float | None = None,
               flags: int = FLAGS, needs_digit: bool = True) -> Rule:
    """`value` anywhere, in its layout; counted when `check` accepts it (or with no check)."""
    if score is None:
        score = CHECKED_SCORE if check is not None else PATTERN_SCORE
    return Rule(name, compile_value(value, flags), check=check, score=score,
                needs_digit=needs_digit)


def pattern(name: str, regex_text: str, *, flags: int = FLAGS, check: Check | None = None,
            score: float = LABELLED_SCORE, needs_digit: bool = False) -> Rule:
    """A hand-written regex; its group "v" (or the whole match) is the finding."""
    return Rule(name, regex.compile(regex_text, flags), check=check, score=score,
                needs_digit=needs_digit)


class RuleRecognizer(EntityRecognizer):
    """One entity found by a list of `Rule`s; plugs into presidio like any recognizer."""

    def __init__(self, entity: str, rules: Sequence[Rule], name: str | None = None) -> None:
        self.rules = list(rules)
        super().__init__(supported_entities=[entity], name=name or f"{entity.title()}Rules",
                         supported_language=LANGUAGE)

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:
        entity = self.supported_entities[0]
        if entities and entity not in entities:
            return []
        has_digit = DIGIT.search(text) is not None
        results = []
        seen: set[tuple[int, int]] = set()
        for rule in self.rules:
            if rule.needs_digit and not has_digit:
                continue
            for start, end, score in rule.spans(text):
                if (start, end) not in seen:
                    seen.add((start, end))
                    results.append(RecognizerResult(entity, start, end, score))
        return results
