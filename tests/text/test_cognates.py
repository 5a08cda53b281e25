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
    # words the caller keeps (what kind of answer is asked) stay as typed
    assert respell("¿Cuál es el plazo?", words, keep={"plazo"}).text == "¿Cuál es el plazo?"


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


def test_a_word_with_no_cognate_is_respelled_by_meaning_at_the_floor_or_closer() -> None:
    """`respell_by_meaning` with plain vectors: each still-foreign content word takes the
    passages' closest word when it is `floor` or closer; words the passages use, words
    already respelled and function words are not looked at."""
    import numpy as np

    from desktop_app.text.cognates import respell_by_meaning

    axes = {"direitos": 0, "superior": 1, "protecao": 2, "titular": 3}
    typed = {"rights": [0.95, 0.1, 0, 0], "higher": [0.5, 0.8, 0, 0.3],
             "what": [0, 0, 0, 1]}

    def passage_vectors(texts: object) -> np.ndarray:
        words = list(texts)  # type: ignore[call-overload]
        return np.array([np.eye(4)[axes[w]] if w in axes else np.zeros(4) for w in words])

    asked = []

    def query_vector(word: str) -> np.ndarray:
        asked.append(word)
        vector = np.array(typed.get(word, [0.0, 0.0, 0.0, 0.0]))
        return vector / (np.linalg.norm(vector) or 1.0)

    words = vocabulary(["Os direitos do titular. A educação superior. Proteção."])
    question = "What rights does the titular have in higher protection?"
    respelled = respell(question, words, "en")
    assert respelled.words == {"protection": "protecao"}
    found = respell_by_meaning(question, words, respelled, passage_vectors, query_vector,
                               floor=0.9)
    assert found.words == {"protection": "protecao", "rights": "direitos"}  # higher: 0.81
    assert found.text == "What direitos does the titular have in higher protecao?"
    assert "what" not in asked and "titular" not in asked and "protection" not in asked
    assert respell_by_meaning(question, words, respelled, passage_vectors, query_vector,
                              floor=0.999).words == respelled.words
    # the words saying what kind of answer is asked stay as typed (`respell`'s `keep`)
    assert respell_by_meaning(question, words, respelled, passage_vectors, query_vector,
                              floor=0.9, keep={"rights"}).words == respelled.words


@pytest.mark.ranking
def test_the_real_embedder_finds_a_laws_word_for_an_english_word(embedder) -> None:  # type: ignore[no-untyped-def]
    """e5-small, a word as a query against the passages' words as they are written (with
    their accents): the translation is the closest one and clears `MEANING_FLOOR`."""
    from desktop_app.text.cognates import MEANING_FLOOR, respell_by_meaning

    law = vocabulary(["Art. 70. Considerar-se-ão como de manutenção e desenvolvimento do "
                      "ensino as despesas realizadas com vistas à consecução dos objetivos "
                      "básicos das instituições educacionais de todos os níveis, compreendendo "
                      "as que se destinam a: I – remuneração e aperfeiçoamento do pessoal "
                      "docente e demais profissionais da educação; II – aquisição, manutenção, "
                      "construção e conservação de instalações e equipamentos necessários ao "
                      "ensino; VIII – aquisição de material didático-escolar e manutenção de "
                      "programas de transporte escolar."])
    asked = "Which costs count as maintenance of school transport?"
    found = respell_by_meaning(asked, law, respell(asked, law, "en"), embedder.embed_passages,
                               embedder.embed_query)
    assert found.words["transport"] == "transporte"  # a cognate
    assert found.words["maintenance"] == "manutencao"  # by meaning: "manutenção" as written
    assert MEANING_FLOOR < 0.95
