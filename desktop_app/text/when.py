"""Relative time in what was said, resolved against the day it was said.

"I went to a support group yesterday", said in a chat of 8 May 2023, means 7 May 2023;
read a year later it means nothing without the chat's date, and a small model does not
do the arithmetic. `resolve(sentence, said_on, language)` returns the sentence with each
relative expression followed by what it meant then: "yesterday (7 May 2023)", "last week
(the week before 8 May 2023)", "last year (2022)", "last Friday (the Friday before 8 May
2023)". Expressions in English, Portuguese and Spanish; the resolution is written in the
answer's language. Only what the words fix is written: a day, a week, a month or a year,
never a guess between them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
           "setembro", "outubro", "novembro", "dezembro"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
}
_WEEKDAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "pt": ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
           "sábado", "domingo"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
# how each language says "the week before 8 May 2023", "the Friday before …", …
_PHRASES = {
    "en": {"week_before": "the week before {d}", "week_of": "the week of {d}",
           "week_after": "the week after {d}", "weekend_before": "the weekend before {d}",
           "day_before": "the {w} before {d}", "n_before": "{n} {unit} before {d}"},
    "pt": {"week_before": "a semana antes de {d}", "week_of": "a semana de {d}",
           "week_after": "a semana depois de {d}",
           "weekend_before": "o fim de semana antes de {d}",
           "day_before": "{w} antes de {d}", "n_before": "{n} {unit} antes de {d}"},
    "es": {"week_before": "la semana antes del {d}", "week_of": "la semana del {d}",
           "week_after": "la semana después del {d}",
           "weekend_before": "el fin de semana antes del {d}",
           "day_before": "el {w} antes del {d}", "n_before": "{n} {unit} antes del {d}"},
}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "um": 1, "uma": 1, "dois": 2,
            "duas": 2, "tres": 3, "três": 3, "un": 1, "una": 1, "dos": 2}
_DAY_NAMES = {name.casefold(): i for names in _WEEKDAYS.values() for i, name in enumerate(names)}
_DAY_NAMES.update({"segunda": 0, "terça": 1, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4,
                   "sabado": 5, "miercoles": 2})


def _day(d: date, language: str) -> str:
    month = _MONTHS.get(language, _MONTHS["en"])[d.month - 1]
    return f"{d.day} {month} {d.year}" if language == "en" else f"{d.day} de {month} de {d.year}"


def _month(d: date, language: str) -> str:
    month = _MONTHS.get(language, _MONTHS["en"])[d.month - 1]
    return f"{month} {d.year}" if language == "en" else f"{month} de {d.year}"


def _shift_month(d: date, months: int) -> date:
    index = d.year * 12 + d.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


Rule = Callable[[re.Match[str], date, str], str]


def _phrase(key: str, **kw: str) -> Rule:
    return lambda m, d, lang: _PHRASES.get(lang, _PHRASES["en"])[key].format(
        d=_day(d, lang), **kw)


def _days(offset: int) -> Rule:
    return lambda m, d, lang: _day(d + timedelta(days=offset), lang)


def _months(offset: int) -> Rule:
    return lambda m, d, lang: _month(_shift_month(d, offset), lang)


def _years(offset: int) -> Rule:
    return lambda m, d, lang: str(d.year + offset)


def _weekday_before(m: re.Match[str], d: date, lang: str) -> str:
    index = _DAY_NAMES[m.group("day").casefold()]
    name = _WEEKDAYS.get(lang, _WEEKDAYS["en"])[index]
    return _PHRASES.get(lang, _PHRASES["en"])["day_before"].format(w=name, d=_day(d, lang))


def _ago(m: re.Match[str], d: date, lang: str) -> str:
    raw = m.group("n").casefold()
    n = int(raw) if raw.isdigit() else _NUMBERS.get(raw, 0)
    unit = m.group("unit").casefold()
    if n and unit.startswith(("day", "dia", "día")):
        return _day(d - timedelta(days=n), lang)
    if n and unit.startswith(("year", "ano", "año")):
        return str(d.year - n)
    if n and unit.startswith(("month", "mes", "mês")):
        return _month(_shift_month(d, -n), lang)
    return _PHRASES.get(lang, _PHRASES["en"])["n_before"].format(n=m.group("n"), unit=unit,
                                                                  d=_day(d, lang))


_NUMBER = r"(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of" \
          r"|um|uma|dois|duas|tr[eê]s|un|una|dos)"
_DAY = r"(?P<day>" + "|".join(sorted(_DAY_NAMES, key=len, reverse=True)) + r")"
_RULES: list[tuple[re.Pattern[str], Rule]] = [(re.compile(p, re.I), r) for p, r in [
    (r"\b(?:yesterday|last night|ontem|ayer|anoche)\b", _days(-1)),
    (r"\b(?:today|tonight|this (?:morning|afternoon|evening)|hoje|hoy|esta noche)\b",
     _days(0)),
    (r"\b(?:tomorrow|amanh[ãa]|ma[ñn]ana)\b", _days(1)),
    (r"\b(?:last week|semana passada|la semana pasada)\b", _phrase("week_before")),
    (r"\b(?:this week|esta semana)\b", _phrase("week_of")),
    (r"\b(?:next week|pr[óo]xima semana|la semana que viene)\b", _phrase("week_after")),
    (r"\b(?:last weekend|fim de semana passado|el fin de semana pasado)\b",
     _phrase("weekend_before")),
    (r"\b(?:last month|m[êe]s passado|el mes pasado)\b", _months(-1)),
    (r"\b(?:this month|este m[êe]s)\b", _months(0)),
    (r"\b(?:next month|pr[óo]ximo m[êe]s|el mes que viene)\b", _months(1)),
    (r"\b(?:last year|ano passado|el año pasado)\b", _years(-1)),
    (r"\b(?:this year|este ano|este año)\b", _years(0)),
    (r"\b(?:next year|pr[óo]ximo ano|el año que viene)\b", _years(1)),
    (rf"\blast {_DAY}\b", _weekday_before),
    (rf"\b{_NUMBER} (?P<unit>days?|weeks?|weekends?|months?|years?|dias|d[ií]as|semanas"
     r"|meses|anos|años) ago\b", _ago),
    (rf"\bh[áa] {_NUMBER} (?P<unit>dias|semanas|meses|anos)\b", _ago),
    (rf"\bhace {_NUMBER} (?P<unit>d[ií]as|semanas|meses|años)\b", _ago),
]]


def resolve(sentence: str, said_on: str | datetime | date, language: str = "en", *,
            brackets: str = "()") -> str:
    """`sentence` with what each relative time expression meant on `said_on` (an ISO
    8601 date or datetime) written after it in `brackets`, in `language` ("[]" inside a
    quotation: an editor's insertion)."""
    if isinstance(said_on, str):
        try:
            said_on = datetime.fromisoformat(said_on.replace("Z", "+00:00"))
        except ValueError:
            return sentence
    day = said_on.date() if isinstance(said_on, datetime) else said_on
    lang = language.split("_")[0].split("-")[0].lower()
    spans: list[tuple[int, int, str]] = []
    for pattern, rule in _RULES:
        for m in pattern.finditer(sentence):
            if any(m.start() < end and start < m.end() for start, end, _ in spans):
                continue  # "last week" is not also "this week"
            spans.append((m.start(), m.end(), rule(m, day, lang)))
    if not spans:
        return sentence
    out, last = [], 0
    for _start, end, meant in sorted(spans):
        out.append(f"{sentence[last:end]} {brackets[0]}{meant}{brackets[1]}")
        last = end
    return "".join(out) + sentence[last:]
