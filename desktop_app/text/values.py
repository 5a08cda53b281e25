"""The specific things a text states: numbers, amounts, codes, dates, times, e-mail
addresses and names. One definition for every "what does this sentence say in particular"
question: the answer's context packing (what a recalled sentence adds) and the memory's
supersession (a correction states the same thing with other values)."""

from __future__ import annotations

import re

from desktop_app.text.fold import fold

_MONTHS_PT_ES = ("janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|"
                 "novembro|dezembro|enero|febrero|marzo|mayo|junio|julio|septiembre|"
                 "setiembre|octubre|noviembre|diciembre")
# a Portuguese or Spanish date with its month's name is one value ("24 de novembro (de
# 2025)", "3 de marzo"): the month is written in lower case, so without this only the day
# would be found, as a bare count. In English the capitalised month is found as a name
# beside its day ("November" + "24th").
_NAMED_DATE = rf"\b\d{{1,2}}º? de (?:{_MONTHS_PT_ES})(?: de \d{{4}})?\b"
_MONTH = re.compile(rf"\b(?:{_MONTHS_PT_ES})\b")

# amounts, dates with a month's name, anything with a digit (numbers, codes, dates, times,
# phone numbers), e-mail addresses, and runs of capitalised words inside a sentence (names:
# "Patricia Wong", "Premier Bank"); what the user will ask about later
VALUE = re.compile(
    _NAMED_DATE + r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|(?:R\$|[$€£])\s?\d[\d.,]*\d|(?:R\$|[$€£])\s?\d"
    r"|[\w/:.-]*\d[\w/:.-]*\w|\d"
    r"|(?<=\S )[A-ZÀ-Ý][\w-]+(?: (?:of|de|da|do|del) [A-ZÀ-Ý][\w-]+| [A-ZÀ-Ý][\w-]+)*")
_MONEY = re.compile(r"^(?:r\$|[$€£])")
_TIME = re.compile(r"^\d{1,2}(?::\d{2}|h\d{0,2})(?:am|pm)?$|^\d{1,2}(?:am|pm)$")
_DATE = re.compile(r"^\d{1,2}(?:st|nd|rd|th|º|ª)$|^\d{1,4}[/.]\d{1,2}[/.]\d{2,4}$"
                   r"|^\d{4}-\d{2}-\d{2}$")
# letters with digits (5+ characters: FS-447291, not 64gb or m3), or digits however grouped
# (account, phone and zip numbers: five digits or more, `CODE_DIGITS`)
_CODE_MIXED = re.compile(r"^(?=[^a-z]*[a-z])[\w-]{5,}$")
_DIGITS = re.compile(r"^\d[\d./-]*$")
CODE_DIGITS = 5


def specifics(text: str) -> frozenset[str]:
    """The specific things a sentence states, folded: numbers, amounts, codes, e-mail
    addresses, times, and capitalised words inside it (names). What a later question asks
    about; two sentences stating the same ones say the same thing twice."""
    return frozenset(fold(m.group(0)).strip(" .,") for m in VALUE.finditer(text))


def value_kind(value: str) -> str:
    """What kind of specific thing a (folded) value is: "money" ($85,000, R$ 1.500), "code"
    (letters with digits or a long number: PAC-778K4M, 800-555-1234, an e-mail address),
    "time" (8:15, 14h30), "date" (24th, 03/15/2025, 24 de novembro), "number" (any other
    with a digit: counts, ages, sizes) or "name" (a capitalised word or run of them)."""
    if _MONEY.match(value):
        return "money"
    if not any(ch.isdigit() for ch in value):
        return "code" if "@" in value else "name"
    if _TIME.match(value):
        return "time"
    if _DATE.match(value) or _MONTH.search(value):
        return "date"
    if _CODE_MIXED.match(value) or (_DIGITS.match(value)
                                    and sum(ch.isdigit() for ch in value) >= CODE_DIGITS):
        return "code"
    return "number"


def without_values(text: str) -> str:
    """`text` with its specific things cut out: the frame a value is stated in."""
    return VALUE.sub(" ", text)
