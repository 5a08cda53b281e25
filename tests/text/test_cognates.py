"""Portuguese/Spanish cognates: one key for both spellings, and a question respelled in the
words of its passages (text/cognates.py)."""

from __future__ import annotations

import pytest

from desktop_app.text.cognates import cognate_key, respell, same_word, vocabulary


@pytest.mark.parametrize(("spanish", "portuguese"), [
    ("tratamiento", "tratamento"), ("datos", "dados"), ("sensibles", "sensíveis"),
    ("plazo", "prazo"), ("protección", "proteção"), ("finalidad", "finalidade"),
    ("consejo", "conselho"), ("gobierno", "governo"), ("ley", "lei"), ("escuela", "escola"),
    ("sanciones", "sanções"), ("actividad", "atividade"), ("dinero", "dinheiro"),
    ("seudonimización", "pseudonimização"), ("razón", "razão"),
])
def test_a_spanish_word_and_its_portuguese_cognate_have_one_key(spanish: str,
                                                               portuguese: str) -> None:
    assert cognate_key(spanish) == cognate_key(portuguese)
    assert same_word(spanish, portuguese)


@pytest.mark.parametrize(("one", "other"), [
    ("personales", "pessoais"), ("encargado", "encarregado"), ("derechos", "direitos"),
    ("mensualidad", "mensalidade"), ("personal", "pessoal"),
])
def test_long_cognates_may_be_one_edit_apart(one: str, other: str) -> None:
    assert cognate_key(one) != cognate_key(other)
    assert same_word(one, other)


@pytest.mark.parametrize(("one", "other"), [
    ("datos", "data"),  # "data" is a date in Portuguese
    ("calidad", "validade"),  # a consonant for another is another word
    ("pesquisa", "pesquisador"),
    ("dado", "dedo"),  # short words: one key only
])
def test_other_words_are_not_cognates(one: str, other: str) -> None:
    assert not same_word(one, other)


LGPD = ("Art. 5º Para os fins desta Lei, considera-se: II - dado pessoal sensível: dado "
        "pessoal sobre origem racial ou étnica. Art. 11. O tratamento de dados pessoais "
        "sensíveis somente poderá ocorrer nas seguintes hipóteses. Art. 19. … no prazo de até "
        "15 (quinze) dias. Art. 41. O controlador deverá indicar encarregado pelo tratamento "
        "de dados pessoais.")


def test_a_spanish_question_is_respelled_in_the_words_of_portuguese_passages() -> None:
    respelled = respell("¿Cuál es el plazo para el tratamiento de los datos personales "
                        "sensibles?", vocabulary([LGPD]))
    assert respelled.text == ("¿Cuál es el prazo para el tratamento de los dados pessoais "
                              "sensiveis?")
    assert respelled.words == {"plazo": "prazo", "tratamiento": "tratamento", "datos": "dados",
                               "personales": "pessoais", "sensibles": "sensiveis"}
    # the cognate of the same key first ("dato": "dado", not "dados"), else the most
    # frequent one edit away
    assert respell("¿Qué es un dato sensible?", vocabulary([LGPD])).words["dato"] == "dado"
    assert respell("¿Quién hace el examen supletivo?", vocabulary(
        ["exames supletivos", "a educação supletiva", "na forma supletiva"])).words == {
        "supletivo": "supletiva"}


def test_words_the_passages_use_function_words_and_words_without_cognates_stay() -> None:
    words = vocabulary([LGPD])
    respelled = respell("¿Quién nombra al controlador?", words)
    assert not respelled.changed and respelled.text == "¿Quién nombra al controlador?"
    assert respell("¿Cuántos días tiene el plazo?", words).words == {"plazo": "prazo"}


def test_a_portuguese_question_is_respelled_in_the_words_of_spanish_passages() -> None:
    spanish = vocabulary(["El tratamiento de datos personales requiere consentimiento. "
                          "El plazo de respuesta es de quince días."])
    respelled = respell("Qual é o prazo para o tratamento de dados pessoais?", spanish)
    assert respelled.words == {"prazo": "plazo", "tratamento": "tratamiento", "dados": "datos",
                               "pessoais": "personales"}


@pytest.mark.parametrize(("english", "portuguese"), [
    ("protection", "proteção"), ("authority", "autoridade"), ("anonymized", "anonimizado"),
    ("pseudonymization", "pseudonimização"), ("controller", "controlador"),
    ("public", "público"), ("international", "internacional"), ("principles", "princípios"),
    ("sanctions", "sanções"), ("universities", "universidades"), ("technical", "técnico"),
    ("structure", "estrutura"), ("directors", "diretores"), ("members", "membros"),
    ("minimum", "mínimo"), ("incident", "incidente"), ("agency", "agência"),
])
def test_an_english_word_of_latin_root_has_its_portuguese_cognates_key(
        english: str, portuguese: str) -> None:
    assert cognate_key(english, "en") == cognate_key(portuguese)
    assert cognate_key(english) != cognate_key(portuguese)  # only an English word is read so


def test_an_english_question_is_respelled_in_its_latin_root_words_only() -> None:
    """"data", "rights", "subject" have no Portuguese cognate: they stay English."""
    lgpd = vocabulary([LGPD + " Art. 55-A. Fica criada a Autoridade Nacional de Proteção de "
                               "Dados (ANPD). § 3º O controlador."])
    respelled = respell("Where is the National Data Protection Authority headquartered?",
                        lgpd, "en")
    assert respelled.words == {"national": "nacional", "protection": "protecao",
                               "authority": "autoridade"}
    assert respell("What rights does the data subject have?", lgpd, "en").words == {}
    # without the language, English words are compared as Portuguese and Spanish ones are
    assert respell("Where is the National Data Protection Authority?", lgpd).words == {}
