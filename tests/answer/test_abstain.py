"""Abstention: "not found" when the evidence does not support an answer, decided before
any model is called, relative to what off-topic questions score in the library."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from desktop_app.answer import abstain
from desktop_app.answer.events import AnswerWarning, Done, WarningCode
from desktop_app.answer.extractive import ExtractiveAnswer, Quote
from desktop_app.answer.gate import Gate, load_gate
from desktop_app.answer.question_fit import terms
from desktop_app.answer.segments import segment
from desktop_app.config.settings import Settings
from desktop_app.text.fold import fold

from .conftest import ScriptedLLM, make_hit

PASSAGE = "O prazo de resposta ao titular é de 15 dias, contado do requerimento."


def extract(question: str, cosine: float | None, text: str = PASSAGE) -> ExtractiveAnswer:
    hit = make_hit(1, text=text)
    unit = segment(text)[0]
    quote = Quote(1, hit, unit, cosine or 0.0, cosine, len(terms(question) & terms(text)))
    return ExtractiveAnswer((quote,), (quote,), True, terms(question))


FLOORS = {"pt": 0.80, "en": 0.76, "all": 0.78}


def legacy(**changes: object) -> Settings:
    """Settings without a gate file: the thresholds of the settings decide (what an answer
    without the bundled gate, e.g. a damaged install, falls back to)."""
    return Settings(abstain_gate_file="/nonexistent/gate.json", **changes)  # type: ignore[arg-type]


def assessed(question: str, text: str, language: str = "pt",
             written_in: str = "pt") -> abstain.Evidence:
    """The evidence for `question` (in `language`) whose one passage, and first quote, is
    `text` (in `written_in`), decided by the settings' thresholds."""
    hit = dataclasses.replace(make_hit(1, text=text), language=written_in)
    return abstain.assess(extract(question, 0.9, text), [hit], legacy(), FLOORS, language,
                          question)


def test_close_meaning_and_shared_terms_answer() -> None:
    evidence = abstain.assess(extract("Qual o prazo de resposta ao titular?", 0.87),
                              [make_hit(1, text=PASSAGE)], legacy(), FLOORS, "pt")
    assert not evidence.abstain and evidence.coverage == 1.0
    assert round(evidence.margin or 0, 3) == 0.07


def test_a_margin_below_half_the_threshold_abstains_whatever_the_words() -> None:
    evidence = abstain.assess(extract("Qual o prazo de resposta ao titular?", 0.81),
                              [make_hit(1, text=PASSAGE)], legacy(), FLOORS, "pt")
    assert evidence.abstain and evidence.reason == "passages not close enough in meaning"


def test_every_question_term_in_the_passages_lowers_the_margin_needed() -> None:
    settings = legacy()
    question = "Qual o prazo de resposta ao titular?"  # every content term is in PASSAGE
    between = FLOORS["pt"] + (settings.abstain_min_margin
                              + settings.abstain_min_margin_full_coverage) / 2
    evidence = abstain.assess(extract(question, between), [make_hit(1, text=PASSAGE)], settings,
                              FLOORS, "pt")
    assert evidence.coverage == 1.0 and not evidence.abstain
    # the same margin with a term the passages never use: not found
    other = "Qual o prazo de resposta ao titular na Austrália?"
    evidence = abstain.assess(extract(other, between), [make_hit(1, text=PASSAGE)], settings,
                              FLOORS, "pt")
    assert evidence.coverage < 1.0 and evidence.abstain
    # one covered word is weak evidence: the full margin stays
    evidence = abstain.assess(extract("Qual o prazo?", between), [make_hit(1, text=PASSAGE)],
                              settings, FLOORS, "pt")
    assert evidence.abstain and evidence.reason == "passages not close enough in meaning"
    # and below half the margin nothing answers
    low = FLOORS["pt"] + settings.abstain_min_margin_full_coverage / 2
    evidence = abstain.assess(extract(question, low), [make_hit(1, text=PASSAGE)], settings,
                              FLOORS, "pt")
    assert evidence.abstain


def test_question_terms_missing_from_the_passages_abstain_in_the_same_language() -> None:
    question = "Qual a capital da Austrália e da Nova Zelândia?"
    evidence = abstain.assess(extract(question, 0.86), [make_hit(1, text=PASSAGE)], legacy(),
                              FLOORS, "pt")
    assert evidence.abstain and evidence.reason == "question terms missing from the passages"
    assert {"australi", "zelandi"} <= set(evidence.missing)


def test_coverage_is_not_asked_of_a_question_in_another_language() -> None:
    question = "What is the deadline to answer the data subject?"
    evidence = abstain.assess(extract(question, 0.81), [make_hit(1, text=PASSAGE)], legacy(),
                              FLOORS, "en")
    assert not evidence.coverage_used and evidence.coverage < 0.35
    assert not evidence.abstain  # 0.81 is well above what English probes reach (0.76)


def test_other_language_means_words_that_cannot_be_compared() -> None:
    """Spanish against Portuguese passages is compared word by word (the question's words
    respelled as the passages', text/cognates.py); English against them is not."""
    hits = [make_hit(1, text=PASSAGE)]
    spanish = abstain.assess(extract("¿Cuál es el prazo de resposta?", 0.86), hits, legacy(),
                             FLOORS, "es")
    english = abstain.assess(extract("What is the deadline to answer?", 0.86), hits, legacy(),
                             FLOORS, "en")
    assert spanish.features["other_language"] == 0.0
    assert english.features["other_language"] == 1.0


def test_across_languages_the_gate_counts_word_features_at_their_mean() -> None:
    features = {"margin": 0.06, "coverage": 0.2, "quote_coverage": 0.0, "absent": 0.8,
                "both_legs": 0.0, "type_found": 1.0, "names_found": 1.0}
    assert abstain.measurable(features, True) == features
    assert abstain.measurable(features, False) == {"margin": 0.06, "type_found": 1.0,
                                                   "names_found": 1.0}
    gate = Gate(("margin", "coverage"), (0.05, 0.7), (0.02, 0.3), (1.0, 2.0), 0.0, 0.5)
    # an English question on a Portuguese law shares no words with it: not evidence against
    assert gate.probability(abstain.measurable(features, False)) > 0.5 \
        > gate.probability(abstain.measurable(features, True))


@pytest.mark.ranking
def test_on_the_real_lgpd_an_english_question_is_answered_by_meaning(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """An English question shares no words with a Portuguese law: it was always "not found"
    (its word features counted against it) or answered by chance cognates ("data" in a
    random article). The meaning ranks and decides; off-topic stays "not found"."""
    service = lgpd_app.answer_service
    done = list(service.ask("What rights does the data subject have?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert done.answer.startswith("Art. 18. O titular dos dados pessoais tem direito")
    assert AnswerWarning(WarningCode.BY_MEANING, "pt") in done.warnings  # check the quotes
    assert ("the quotes are in another language than the question: found by meaning alone, "
            "check them") in [w.english() for w in done.warnings]
    done = list(service.ask("Quais são os direitos do titular?", sources_only=True))[-1]
    assert isinstance(done, Done) and not any(w.code == WarningCode.BY_MEANING
                                              for w in done.warnings)
    done = list(service.ask("What is the capital of Australia?", sources_only=True))[-1]
    assert isinstance(done, Done) and done.warned(WarningCode.NOT_FOUND)


@pytest.mark.ranking
def test_on_the_real_lgpd_a_spanish_question_is_searched_in_the_laws_words(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """A Spanish question of a Portuguese law: its words the passages found by meaning never
    use are respelled as their Portuguese cognates (text/cognates.py) and searched again.
    Both questions were "not found" ("seudonimización" and "encargado" met no word of the
    law), and a glossary question ranked other articles first."""
    service = lgpd_app.answer_service
    done = list(service.ask("¿Qué es la seudonimización?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert done.trace["respelled"]["seudonimizacion"] == "pseudonimizacao"
    assert "a pseudonimização é o tratamento por meio do qual" in done.answer.split("[1]")[0]
    assert not any(w.code == WarningCode.BY_MEANING for w in done.warnings)
    assert done.searched_for == ""  # the user is not shown a query in two languages
    done = list(service.ask("¿Qué hace el encargado del tratamiento de datos en el día a "
                            "día?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert done.trace["respelled"]["encargado"] == "encarregado"
    # art. 41: its § 2º lists what the encarregado does (its caput says who appoints him)
    assert done.answer.startswith("Art. 41 › § 2º As atividades do encarregado"), \
        done.answer[:300]
    # a Portuguese question is never respelled
    done = list(service.ask("O que é pseudonimização?", sources_only=True))[-1]
    assert isinstance(done, Done) and "respelled" not in done.trace


@pytest.mark.slow
@pytest.mark.ranking
def test_on_the_real_ldb_a_spanish_word_with_no_cognate_is_read_by_meaning_at_the_gate(ldb_app) -> None:  # type: ignore[no-untyped-def]
    """"gastos", "mantenimiento", "desarrollo" have no Portuguese cognate: the law says
    "despesas", "manutenção", "desenvolvimento". Search by meaning found art. 70 first,
    but the gate counted the three words as missing from the library and said "not found".
    The gate now reads each as the passages' word closest in meaning; the ranking still
    compares only the words the two languages share, and off-topic stays "not found"."""
    service = ldb_app.answer_service
    done = list(service.ask("¿Qué gastos cuentan como mantenimiento y desarrollo de la "
                            "enseñanza?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert done.answer.startswith("Art. 70. Considerar-se-ão como de manutenção e "
                                  "desenvolvimento do ensino as despesas"), done.answer[:300]
    assert done.trace["respelled_by_meaning"]["gastos"] == "despesas"
    assert "gast" not in done.trace["evidence"]["missing"]
    for off_topic in ("¿Cuál es la capital de Australia?",
                      "¿Cuántos goles marcó el equipo en la final del campeonato?"):
        done = list(service.ask(off_topic, sources_only=True))[-1]
        assert isinstance(done, Done) and done.warned(WarningCode.NOT_FOUND), done.answer[:200]


@pytest.mark.slow
@pytest.mark.ranking
def test_on_the_real_ldb_asked_which_do_not_count_the_follow_up_gets_the_negative_list(ldb_app) -> None:  # type: ignore[no-untyped-def]
    """After art. 70 (what counts as spending on education), "¿y cuáles no cuentan?" asks
    for art. 71's "Não constituirão despesas …:". The question denies without asking a
    permission, which `question_fit.polarity` did not read: art. 70 came back again."""
    conversation = ldb_app.chat.new_conversation()
    for question in ("¿Qué gastos cuentan como mantenimiento y desarrollo de la enseñanza?",
                     "¿y cuáles no cuentan?"):
        done = [e for e in ldb_app.chat.turn(conversation, question, sources_only=True)
                if isinstance(e, Done)][-1]
    assert done.answer.startswith("Art. 71. Não constituirão despesas de manutenção"), \
        done.answer[:300]


@pytest.mark.ranking
def test_on_the_real_lgpd_a_spanish_question_keeps_the_words_asking_for_a_value(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """"¿En cuánto tiempo…?" asks for a length of time. Respelled as the law's "cuánto
    tempo" it asked for nothing (neither language's phrase), so the quote needed no
    length and the ranking did not prefer one; the words asking stay as typed."""
    service = lgpd_app.answer_service
    done = list(service.ask("¿En cuánto tiempo el controlador debe proporcionar la "
                            "declaración completa al titular?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert "tiempo" not in done.trace["respelled"], done.trace["respelled"]
    assert "tiempo" not in done.trace.get("respelled_by_meaning", {})  # nor read by meaning
    assert done.trace["evidence"]["features"]["asks_type"] == 1.0
    first = done.answer.split("[2]")[0]  # art. 19's lead, then its inciso II
    assert "15 (quinze) dias" in first, done.answer[:400]


@pytest.mark.ranking
def test_on_the_real_lgpd_a_spanish_follow_up_asking_in_what_time_finds_the_deadline(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """The Spanish twin of the bundled sample's follow-up: after the rights of art. 18, "¿y
    en qué plazo debe responder el controlador?" was "not found". Its "plazo" stayed as
    typed (a word asking for a duration) so it never met the law's "prazo", and the rewrite
    carried "Cuáles" as a topic word. Now "plazo" is respelled (its respelling still asks a
    duration) and "cuáles" is no term: art. 19 II's 15 days."""
    conversation = lgpd_app.chat.new_conversation()
    for question in ("¿Cuáles son los derechos del titular?",
                     "¿y en qué plazo debe responder el controlador?"):
        done = [e for e in lgpd_app.chat.turn(conversation, question, sources_only=True)
                if isinstance(e, Done)][-1]
    assert not done.warned(WarningCode.NOT_FOUND), done.answer
    assert "prazo de até 15 (quinze) dias" in done.answer.split("[1]")[0], done.answer[:500]
    assert "cuales" not in fold(done.searched_for)


@pytest.mark.ranking
def test_on_the_real_lgpd_an_english_questions_latin_words_are_searched_too(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """An English question of a Portuguese law: its Latin-root words are respelled as the
    law's ("controller" as "controlador"), searched, and that search is fused with the one
    by meaning. Before, "controller" met no word of the law and the answer led with
    another article; the answer still says it was found by meaning (its other words)."""
    service = lgpd_app.answer_service
    done = list(service.ask("What does the LGPD mean by a controller?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert done.trace["respelled"] == {"controller": "controlador"}
    first = done.answer.split("\nArt. ")[0]  # the first quote: art. 5º's item VI
    assert first.startswith("Art. 5º"), done.answer[:300]
    assert "VI - controlador: pessoa natural ou jurídica" in first, done.answer[:300]
    assert any(w.code == WarningCode.BY_MEANING for w in done.warnings)
    assert done.searched_for == ""


@pytest.mark.ranking
def test_on_the_real_lgpd_an_english_questions_other_words_are_searched_by_meaning(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """Words of an English question with no Latin cognate in the law are searched as the
    law's word closest in meaning ("suspended" as "suspensão"), beside the question: the
    database suspension of art. 52 X comes first. Without it, the answer led elsewhere."""
    service = lgpd_app.answer_service
    done = list(service.ask("For how long, at most, can the operation of a database be "
                            "suspended as a penalty?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND), done.answer
    assert done.trace["respelled_by_meaning"]["suspended"] == "suspensao"
    first = done.answer.split("\nArt. ")[0]  # art. 52's sanctions, item X shown
    assert first.startswith("Art. 52."), done.answer[:300]
    assert "X - suspensão parcial do funcionamento do banco de dados" in first, done.answer[:400]
    assert done.searched_for == ""


def test_a_word_read_by_meaning_counts_as_the_passages_word() -> None:
    """`meant_terms`: the gate's terms of a Spanish question whose words have no cognate in
    a Portuguese law, each read as the law's word closest in meaning (`_respell`)."""
    asked = terms("¿Qué gastos cuentan como desarrollo?")
    read = abstain.meant_terms(asked, {"gastos": "despesas", "desarrollo": "desenvolvimento",
                                       "ausente": "titular"})
    assert read == (asked - terms("gastos desarrollo")) | terms("despesas desenvolvimento")
    assert not terms("titular") <= read  # a word the question does not use adds nothing


def test_the_switch_in_settings_turns_abstention_off() -> None:
    evidence = abstain.assess(extract("Qual a capital da Austrália?", 0.70),
                              [make_hit(1, text=PASSAGE)],
                              legacy(abstention_enabled=False), FLOORS, "pt")
    assert not evidence.abstain


def test_probes_cover_three_languages() -> None:
    probes = abstain.load_probes()
    assert {language for language, _ in probes} == {"pt", "en", "es"}
    assert all(question.endswith("?") for _, question in probes) and len(probes) >= 30


@pytest.mark.ranking
def test_the_library_floor_is_measured_per_language_and_cached(lgpd_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    size = {"chunks": lgpd_app.index.chunk_count()}
    searches: list[int] = []

    def best(vector: np.ndarray) -> float | None:
        searches.append(1)
        rows = lgpd_app.index.search_vector(vector, 1, None)
        return rows[0].score if rows else None

    cache = tmp_path / "probes.json"
    floor = abstain.LibraryFloor(lgpd_app.embedder, best, lambda: size["chunks"], cache_file=cache)
    floors = floor.floors()
    assert set(floors) == {"pt", "en", "es", "all"}
    assert 0.7 < floors["en"] < floors["pt"] < 0.9  # English probes score lower on a pt law
    assert json.loads(cache.read_text())["key"].startswith(lgpd_app.embedder.id)
    count = len(searches)
    assert floor.floors() == floors and len(searches) == count  # cached
    size["chunks"] = int(size["chunks"] * 1.5)  # the library grew: measured again
    floor.floors()
    assert len(searches) == 2 * count


@pytest.mark.ranking
def test_on_the_real_lgpd_an_off_topic_question_never_reaches_the_model(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(["Canberra [1]."])
    service = lgpd_app.answer_service.with_llm(llm)
    done = list(service.ask("Qual a capital da Austrália?"))[-1]
    assert isinstance(done, Done)
    assert llm.calls == [] and done.warnings[0].code == WarningCode.NOT_FOUND
    assert done.answer == "Não encontrei isso nos seus documentos."
    assert done.trace["evidence"]["support"] < load_gate().threshold  # the bundled gate
    assert len(done.closest) == abstain.CLOSEST_PASSAGES and not done.citations

    done = list(service.ask("Quais são os direitos do titular dos dados?"))[-1]
    assert isinstance(done, Done) and llm.calls  # supported: the model is asked
    assert not done.trace["evidence"]["abstain"]


GATE = Gate(("margin", "quote_coverage"), (0.05, 0.5), (0.02, 0.25), (2.0, 1.0), 0.0, 0.3)


def test_the_gate_weighs_standardized_evidence_against_its_threshold() -> None:
    assert GATE.probability({"margin": 0.05, "quote_coverage": 0.5}) == 0.5
    low = GATE.probability({"margin": 0.0, "quote_coverage": 0.25})
    high = GATE.probability({"margin": 0.09, "quote_coverage": 0.9})
    assert low < GATE.threshold < 0.5 < high
    assert Gate.from_dict(GATE.as_dict()) == GATE
    with pytest.raises(ValueError):
        Gate.from_dict({**GATE.as_dict(), "weights": [1.0]})


def test_a_gate_file_decides_and_a_missing_one_falls_back(tmp_path: Path) -> None:
    from desktop_app.answer.gate import write_gate

    path = tmp_path / "gate.json"
    write_gate(GATE, path)
    settings = Settings(abstain_gate_file=str(path))
    # a close match whose quote uses the question's words answers…
    near = abstain.assess(extract("Qual o prazo de resposta ao titular?", 0.87),
                          [make_hit(1, text=PASSAGE)], settings, FLOORS, "pt", "Qual o prazo?")
    assert not near.abstain and near.support is not None and near.support > 0.3
    # …a weak one whose quote misses them does not
    far = abstain.assess(extract("Qual a capital da Austrália?", 0.80),
                         [make_hit(1, text=PASSAGE)], settings, FLOORS, "pt",
                         "Qual a capital da Austrália?")
    assert far.abstain and far.reason == "the passages do not answer the question"
    assert abstain.describe(settings, FLOORS)["gate"]["threshold"] == 0.3
    assert load_gate(str(tmp_path / "missing.json")) is None


def test_the_bundled_gate_was_fitted_on_several_corpora_and_each_held_out() -> None:
    """Never one corpus: the bundled gate saw every set; each set's figures come from a gate
    that did not see it (bench/fit_gate.py, bench/data/gates)."""
    bundled = load_gate()
    assert bundled is not None and len(bundled.trained_on) >= 3
    gates = Path(__file__).resolve().parents[2] / "bench" / "data" / "gates"
    for corpus in bundled.trained_on:
        held_out = load_gate(str(gates / f"without-{corpus}.json"))
        assert held_out is not None and corpus not in held_out.trained_on
        assert json.loads((gates / f"{corpus}.json").read_text())["abstain_gate_file"] \
            .endswith(f"without-{corpus}.json")


@pytest.mark.ranking
def test_on_the_real_lgpd_questions_the_law_does_not_answer_are_not_found(lgpd_app) -> None:  # type: ignore[no-untyped-def]
    """On-topic questions the LGPD does not answer (a tax rate, a salary, a limitation
    period) get "not found"; a question it answers does not. The salary and the limitation
    period were answered with the articles on the ANPD's directors and on damages until
    a question that only a value answers needed a quote that states one."""
    service = lgpd_app.answer_service
    for question in ("Qual a alíquota de imposto cobrada sobre serviços de tratamento de dados?",
                     "Quantos servidores trabalham na ANPD?",
                     "Quanto ganha por mês o Diretor-Presidente da ANPD?",
                     "Em quantos anos prescreve o direito do titular de pedir indenização por "
                     "danos?"):
        done = list(service.ask(question, sources_only=True))[-1]
        assert isinstance(done, Done) and done.warned(WarningCode.NOT_FOUND), done.answer
        if question.startswith("Quanto ganha"):  # and why: no passage names an amount
            assert AnswerWarning(WarningCode.NO_VALUE, "money") in done.warnings
            assert ("the question asks for an amount of money, and no passage found states "
                    "one") in [w.english() for w in done.warnings]
    done = list(service.ask("Qual o prazo para o controlador fornecer a declaração completa "
                            "ao titular?", sources_only=True))[-1]
    assert isinstance(done, Done) and not done.warned(WarningCode.NOT_FOUND)
    assert "15 (quinze) dias" in done.answer



# a constitution's list of ages (Constituição Federal, art. 14, § 3º, VI)
AGES = ("VI - a idade mínima de:\n"
        "a) trinta e cinco anos para Presidente e Vice-Presidente da República e Senador;\n"
        "d) dezoito anos para Vereador.")


def test_a_persons_age_answers_no_question_of_a_length_of_time() -> None:
    """"Em quantos anos prescreve…?" asks a length of time; the ages of a list under "a
    idade mínima de:" state none, however close in meaning (with a constitution beside the
    LGPD, "d) dezoito anos para Vereador" was quoted as the limitation period). A question
    of an age is answered by the same quote."""
    question = "Em quantos anos prescreve o direito de pedir indenização por danos?"
    evidence = assessed(question, AGES)
    assert evidence.abstain and evidence.missing_value == "duration", evidence.reason
    question = "Com quantos anos alguém pode ser candidato a vereador?"
    evidence = assessed(question, AGES)
    assert not evidence.abstain, evidence.reason


# a constitution's art. 5 (a few of its seventy-nine incisos) and its art. 14, § 3º, VI
RIGHTS = ("Art. 5º Todos são iguais perante a lei, nos termos seguintes:\n"
          + "".join(f"{n} - é livre a manifestação do pensamento, inciso {n};\n"
                    for n in ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
                              "XI", "XII", "XIII", "XIV"))
          + "XXXIX - não há crime sem lei anterior que o defina, nem pena sem prévia cominação "
          "legal;\n"
          "XLVII - não haverá penas de morte, de caráter perpétuo ou cruéis;\n"
          "LXX - o mandado de segurança coletivo pode ser impetrado por associação em "
          "funcionamento há pelo menos um ano.")


WORKERS = ("Art. 7º São direitos dos trabalhadores urbanos e rurais:\n"
           + "".join(f"{n} - um direito qualquer, inciso {n};\n"
                     for n in ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
                               "XI", "XII", "XIII", "XIV", "XV"))
           + "XVII - gozo de férias anuais remuneradas com um terço a mais do salário;\n"
           "XVIII - licença à gestante, com a duração de cento e vinte dias;\n"
           "XXIX - ação quanto aos créditos, com prazo prescricional de cinco anos para os "
           "trabalhadores urbanos e rurais.")


def test_an_item_on_the_subject_says_more_than_its_lead_and_its_own_value() -> None:
    """"Quantos dias de férias o trabalhador tem por ano?": art. 7's lead is about every
    worker, and XXIX's "cinco anos" is a year of nothing asked; no item states the days of
    holiday (not found). The item on the asked leave still answers its length."""
    question = "Quantos dias de férias o trabalhador tem por ano?"
    evidence = assessed(question, WORKERS)
    assert evidence.abstain and evidence.missing_value == "duration", evidence.reason
    question = "Quantos dias dura a licença à gestante?"
    evidence = assessed(question, WORKERS)
    assert evidence.missing_value is None, evidence.reason


SANCTIONS = ("Art. 52. Os agentes de tratamento de dados, em razão das infrações cometidas, "
             "ficam sujeitos às seguintes sanções administrativas aplicáveis pela autoridade "
             "nacional:\nI - advertência;\nII - multa simples, de até 2% (dois por cento) do "
             "faturamento;\nIII - suspensão do exercício da atividade de tratamento pelo "
             "período máximo de 6 (seis) meses.")


def test_a_long_list_states_a_value_only_in_its_lead_or_an_item_on_the_subject() -> None:
    """"Qual a pena para o crime de homicídio?" asks a term; art. 5, longer than
    `kinds.LONG_LIST` incisos, talks of crimes and penalties and states "um ano" only in an
    inciso on something else (an association's age): not found. Asked for that
    association's time, the same list answers. A short list states its value in an item
    that, or under a lead that, says something of the question: the sanctions' 2% answers
    what the authority can apply, which its lead names."""
    question = "Qual a pena para o crime de homicídio?"
    evidence = assessed(question, RIGHTS)
    assert evidence.abstain and evidence.missing_value == "penalty", evidence.reason
    for question, text in (("Há quanto tempo a associação precisa estar em funcionamento "
                            "para impetrar mandado de segurança coletivo?", RIGHTS),
                           ("Qual a pena máxima que a autoridade pode aplicar?", SANCTIONS)):
        evidence = assessed(question, text)
        assert evidence.missing_value is None, (question, evidence.reason)


def test_a_value_answers_only_where_the_text_speaks_of_what_was_asked() -> None:
    """A library of several laws holds values of every kind: "Qual a pena máxima para o
    crime de tortura?" was answered by the LGPD's sanctions ("período máximo de 6 meses"),
    "Qual o valor do salário mínimo?" by the LDB's "renda familiar inferior a dez salários
    mínimos". A value answers when the line stating it, or the lead over it, says something
    of the question beyond the words asking for the value and its bounds. In another
    language (an English question of a Portuguese law) no word is shared; the value
    anywhere still counts."""
    question = "Qual a pena máxima para o crime de tortura?"
    evidence = assessed(question, SANCTIONS)
    assert evidence.abstain and evidence.missing_value == "penalty", evidence.reason
    quota = ("§ 2º No caso de empate no processo seletivo, as instituições públicas darão "
             "prioridade de matrícula ao candidato que comprove ter renda familiar inferior a "
             "dez salários mínimos.")
    question = "Qual o valor do salário mínimo?"
    evidence = assessed(question, quota)
    assert evidence.abstain and evidence.missing_value == "money", evidence.reason
    # asked of a thing named by four words or more, a line sharing one of them speaks of
    # something else: the public exam's deadline is no registry's deadline for a certificate
    exam = ("III - o prazo de validade do concurso público será de até dois anos, "
            "prorrogável uma vez, por igual período;")
    question = "Qual o prazo para uma repartição pública entregar uma certidão?"
    evidence = assessed(question, exam)
    assert evidence.abstain and evidence.missing_value == "duration", evidence.reason
    question = "Qual o prazo de validade do concurso público para servidores?"
    evidence = assessed(question, exam)
    assert evidence.missing_value is None, evidence.reason
    question = "Por quanto tempo a atividade de tratamento pode ser suspensa?"
    evidence = assessed(question, SANCTIONS)
    assert evidence.missing_value is None, evidence.reason
    # "cada" goes with any count: "em cada Casa … por três quintos" is no number of
    # senators, though both say "cada"
    treaties = ("§ 3º Os tratados aprovados, em cada Casa do Congresso Nacional, em dois "
                "turnos, por três quintos dos votos dos respectivos membros, serão "
                "equivalentes às emendas constitucionais.")
    evidence = assessed("Quantos senadores cada estado elege?", treaties)
    assert evidence.abstain and evidence.missing_value == "count", evidence.reason
    evidence = assessed("Em quantos turnos cada Casa vota os tratados?", treaties)
    assert evidence.missing_value is None, evidence.reason
    # how long a thing lasts is not stated by a length counted from an event, which
    # answers "when" or "by when"
    resign = ("§ 6º Para concorrerem a outros cargos, o Presidente da República e os "
              "Prefeitos devem renunciar aos respectivos mandatos até seis meses antes do "
              "pleito.")
    for question in ("Quanto tempo dura o mandato do Presidente da República?",
                     "Quanto dura o mandato do Presidente da República?"):
        evidence = assessed(question, resign)
        assert evidence.abstain and evidence.missing_value == "duration", evidence.reason
    evidence = assessed("Até quanto tempo antes do pleito o Presidente da República deve "
                        "renunciar ao mandato?", resign)
    assert evidence.missing_value is None, evidence.reason
    evidence = assessed("Quanto tempo dura o mandato do Presidente da República?",
                        "Art. 82. O mandato do Presidente da República é de quatro anos.")
    assert evidence.missing_value is None, evidence.reason
    # "Quantos anos de mandato…?" asks the mandate's length too; "… de prazo" a deadline
    evidence = assessed("Quantos anos de mandato tem o Presidente da República?", resign)
    assert evidence.abstain and evidence.missing_value == "duration", evidence.reason
    evidence = assessed("Quantos meses de prazo tem o Presidente da República para renunciar "
                        "ao mandato?", resign)
    assert evidence.missing_value is None, evidence.reason
    # a compound names one thing: the mother's leave says nothing of the father's
    leave = ("XVIII - licença à gestante, sem prejuízo do emprego e do salário, com a "
             "duração de cento e vinte dias;")
    evidence = assessed("Quantos dias de licença-paternidade o pai tem?", leave)
    assert evidence.abstain and evidence.missing_value == "duration", evidence.reason
    evidence = assessed("Quantos dias de licença-gestante a mãe tem?",
                        "XVIII - licença-gestante, com a duração de cento e vinte dias;")
    assert evidence.missing_value is None, evidence.reason
    # a table's row states its value under the caption that says what it is of
    ballot = "STATE MEASURE 1\nYES | 180\nNO | 214"
    question = "How many NO votes did State Measure 1 get?"
    evidence = assessed(question, ballot, "en", written_in="en")
    assert evidence.coverage_used and evidence.missing_value is None, evidence.reason
    question = "What is the maximum penalty for the crime of torture?"
    evidence = assessed(question, SANCTIONS, "en")
    assert evidence.missing_value is None, evidence.reason


def test_a_value_of_a_named_place_is_stated_only_where_the_text_names_it() -> None:
    """"Qual a taxa de crescimento … nos países Ásia-Pacífico?" asks a share (a rate, not
    an amount, though "taxa" is also a fee). Its paragraph answers; a paragraph that states
    a growth rate of Africa's, naming no Ásia-Pacífico, does not (Pirá's in-domain
    unanswerable, its paragraph taken out). A body named by its initials may be named in
    words, and the law never names itself: "… a multa simples prevista na LGPD?" is
    answered by the article without "LGPD"."""
    question = ("Qual a taxa de crescimento estimada em porcentagem nos países "
                "Ásia-Pacífico ?")
    asia = ("O turismo doméstico cresceu geralmente em linha com o turismo total, e as taxas "
            "de crescimento são estimadas em mais de 10% ao ano em muitos países da "
            "Ásia-Pacífico, como a China, a Malásia e as Filipinas.")
    evidence = assessed(question, asia)
    assert evidence.missing_value is None, evidence.reason
    africa = ("O crescimento médio anual diminuiu para 5,8% durante o período de 2000 a "
              "2016, embora as taxas mais altas de crescimento ocorressem em vários países, "
              "em particular na África, de 2006 a 2010.")
    evidence = assessed(question, africa)
    assert evidence.abstain and evidence.missing_value == "percent", evidence.reason
    fine = ("II - multa simples, de até R$ 50.000.000,00 (cinquenta milhões de reais) por "
            "infração;")
    for question in ("Qual o valor máximo da multa simples prevista na LGPD?",
                     "Qual o valor máximo da multa simples prevista na Lei Geral de Proteção "
                     "de Dados?"):
        evidence = assessed(question, fine)
        assert evidence.missing_value is None, (question, evidence.reason)
