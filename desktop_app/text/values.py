"""The specific things a text states: numbers, amounts, codes, dates, times, e-mail
addresses and names. One definition for every "what does this sentence say in particular"
question: the answer's context packing (what a recalled sentence adds) and the memory's
supersession (a correction states the same thing with other values)."""

from __future__ import annotations

import re

from desktop_app.text.fold import fold

# amounts, anything with a digit (numbers, codes, dates, times, phone numbers), e-mail
# addresses, and runs of capitalised words inside a sentence (names: "Patricia Wong",
# "Premier Bank"); what the user will ask about later
VALUE = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|(?:R\$|[$€£])\s?\d[\d.,]*\d|(?:R\$|[$€£])\s?\d"
    r"|[\w/:.-]*\d[\w/:.-]*\w|\d"
    r"|(?<=\S )[A-ZÀ-Ý][\w-]+(?: (?:of|de|da|do|del) [A-ZÀ-Ý][\w-]+| [A-ZÀ-Ý][\w-]+)*")
_MONEY = re.compile(r"^(?:r\$|[$€£])")


def specifics(text: str) -> frozenset[str]:
    """The specific things a sentence states, folded: numbers, amounts, codes, e-mail
    addresses, times, and capitalised words inside it (names). What a later question asks
    about; two sentences stating the same ones say the same thing twice."""
    return frozenset(fold(m.group(0)).strip(" .,") for m in VALUE.finditer(text))


def value_kind(value: str) -> str:
    """"money" ($85,000, R$ 1.500), "number" (anything else with a digit: dates, times,
    codes, phone numbers) or "name" (a capitalised word or run of them)."""
    if _MONEY.match(value):
        return "money"
    return "number" if any(ch.isdigit() for ch in value) else "name"


def without_values(text: str) -> str:
    """`text` with its specific things cut out: the frame a value is stated in."""
    return VALUE.sub(" ", text)
