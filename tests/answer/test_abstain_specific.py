"""The "not found" gate's evidence that a passage on the same subject does not hold the
answer: the question's rare words and names missing from the quote's passage, the asked
slot filled by something the question does not already say, the library's own word
frequencies."""

from __future__ import annotations

from desktop_app.answer import abstain
from desktop_app.answer.extractive import ExtractiveAnswer, Quote
from desktop_app.answer.kinds import fills_slot, specifics
from desktop_app.answer.question_fit import terms
from desktop_app.answer.segments import segment

from .conftest import make_hit

ANSWERS = "Getúlio Vargas assumiu a presidência em 1930, após a revolução."
SIBLING = "Getúlio Vargas governou o Brasil por quinze anos e criou a Consolidação das Leis."


def features(question: str, text: str, using: dict[str, int] | None = None,
             size: int = 0) -> dict[str, float]:
    hit = make_hit(1, text=text)
    quote = Quote(1, hit, segment(text)[0], 1.0, 0.9, len(terms(question) & terms(text)))
    extract = ExtractiveAnswer((quote,), (quote,), True, terms(question))
    lookup = (lambda word: using.get(word, 0)) if using is not None else None
    return abstain.gate_features(question, extract, [hit], 0.9, 0.8, 1.0,
                                 passages_using=lookup, library_size=size)


def test_a_question_s_names_and_numbers_are_its_specifics() -> None:
    assert specifics("Em que ano Getúlio Vargas chegou ao Rio em 1930?") == {
        "getulio", "vargas", "rio", "1930"}
    assert specifics("Qual o prazo de resposta?") == frozenset()


def test_the_slot_is_filled_only_by_a_value_the_question_does_not_hold() -> None:
    assert fills_slot("Em que ano Getúlio Vargas assumiu a presidência?", ANSWERS)
    # the sibling repeats the question's year: no new date
    assert not fills_slot("O que Vargas fez depois de 1930?", "Em 1930, Vargas chegou.")
    assert not fills_slot("Em que ano Vargas assumiu em 1930?", "Vargas assumiu em 1930.")
    assert fills_slot("Quem fundou a UFMG?", "A UFMG foi fundada por Francisco Campos.")
    assert not fills_slot("Quem fundou a UFMG?", "a universidade mineira foi fundada cedo.")
    assert not fills_slot("Qual é o objetivo do programa?", ANSWERS)  # nothing asked for


def test_rare_words_of_the_library_weigh_more_than_common_ones() -> None:
    question = "Qual revolução levou Getúlio Vargas à presidência?"
    using = {"revolucao": 1, "levou": 30, "getulio": 20, "vargas": 20, "presidencia": 25}
    answers = features(question, ANSWERS, using, size=200)
    sibling = features(question, SIBLING, using, size=200)
    # both passages name Vargas; only one says the rare "revolução"
    assert answers["specific_passage"] > 0.8 > 0.6 > sibling["specific_passage"]
    assert sibling["rarest_missing"] > 0.8 > answers["rarest_missing"]
    assert answers["names_found"] == sibling["names_found"] == 1.0
    # without the library's frequencies every word weighs the same
    plain = features(question, SIBLING)
    assert plain["specific_passage"] < 1.0 and plain["rarest_missing"] == 1.0


def test_an_inverted_question_mark_opens_the_question() -> None:
    # "¿Cuántos…", "¡Qué…" open a Spanish sentence: not names the library must hold
    from desktop_app.answer.kinds import specifics

    assert specifics("¿Cuántos años de cárcel se aplican en Brasil?") == {"brasil"}
    assert specifics("¿En qué casos se permite la transferencia?") == frozenset()
