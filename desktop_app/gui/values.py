"""The kinds of value a question can ask for (`answer.events.VALUE_NAMES`: "an amount of
money", "a duration"…), in the window's language: the answer's NO_VALUE warning and the
"Why not found?" explanation name them alike. Translated by value, as `gui/places.py`
translates page units."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from desktop_app.answer.events import VALUE_NAMES

# the names of `VALUE_NAMES`, written out here for lupdate
_FOR_LUPDATE = (QT_TRANSLATE_NOOP("Values", "an amount of money"),
                QT_TRANSLATE_NOOP("Values", "a percentage"),
                QT_TRANSLATE_NOOP("Values", "a time of day"),
                QT_TRANSLATE_NOOP("Values", "a speed"),
                QT_TRANSLATE_NOOP("Values", "an age"),
                QT_TRANSLATE_NOOP("Values", "a duration"),
                QT_TRANSLATE_NOOP("Values", "a date"),
                QT_TRANSLATE_NOOP("Values", "a date or a start"),
                QT_TRANSLATE_NOOP("Values", "a number of things"),
                QT_TRANSLATE_NOOP("Values", "a penalty's term or amount"),
                QT_TRANSLATE_NOOP("Values", "a prison term"),
                QT_TRANSLATE_NOOP("Values", "a length or a weight"),
                QT_TRANSLATE_NOOP("Values", "a mark or score"))


def value_name(kind: str) -> str:
    """"um valor em dinheiro" for "money" in a Portuguese window (the kind itself when
    unknown)."""
    english = VALUE_NAMES.get(kind)
    return QCoreApplication.translate("Values", english) if english is not None else kind
