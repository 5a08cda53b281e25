"""Small mechanisms of the sources-only answer, checked on real legal wording: what a
definition looks like in a law, an inline list, the answer kinds, a follow-up's passages."""

from __future__ import annotations

from desktop_app.answer.extractive import defined_thing, defines
from desktop_app.answer.followup import Carried, with_carried
from desktop_app.answer.kinds import states
from desktop_app.answer.units import names_a_list

from .conftest import make_hit


def test_a_definition_by_apposition_or_by_assim_entendidas_is_a_definition() -> None:
    infantil = defined_thing("O que é a educação infantil?")
    assert defines("Art. 29. A educação infantil, primeira etapa da educação básica, tem como "
                   "finalidade o desenvolvimento integral da criança", infantil)
    assert not defines("Art. 30. A educação infantil será oferecida em:", infantil)
    assert not defines("A educação infantil, quando oferecida em creches, será gratuita.",
                       infantil)
    publicas = defined_thing("O que são públicas?")
    assert defines("I – públicas, assim entendidas as criadas ou incorporadas, mantidas e "
                   "administradas pelo Poder Público;", publicas)


def test_an_inline_list_has_four_terms_and_a_clause_is_not_one() -> None:
    assert names_a_list("incluirá obrigatoriamente estudos e práticas de educação "
                               "física, arte, sociologia e filosofia.")
    assert names_a_list("As artes visuais, a dança, a música e o teatro são as "
                               "linguagens")
    assert not names_a_list("conforme práticas de segurança previstas em regulamento, "
                                   "que incluam, sempre que possível, a anonimização ou "
                                   "pseudonimização dos dados")
    assert not names_a_list("O titular, o controlador e o operador responderão.")
    assert not names_a_list("destinadas a definir o seu perfil pessoal, profissional, de "
                            "consumo e de crédito ou os aspectos de sua personalidade")
    assert names_a_list("A educação básica poderá organizar-se em séries anuais, "
                               "períodos semestrais, ciclos, alternância regular de períodos")
    assert not names_a_list("O ensino médio, etapa final da educação básica, com "
                                   "duração mínima de três anos, terá como finalidades:")


def test_portuguese_articles_are_not_counts() -> None:
    # "dos" (of the) and "um/uma" (a) opened a count: an item that only names a council
    # "stated" how many members it has
    assert not states("count", "II - Conselho Nacional de Proteção de Dados Pessoais e da "
                               "Privacidade;")
    assert not states("count", "Uma instituição de ensino dos Estados")
    assert states("count", "será composto de 23 (vinte e três) representantes")
    assert states("duration", "fornecida no prazo de até 15 (quinze) dias")


def test_a_carried_passage_that_search_ranked_low_moves_up() -> None:
    hits = [make_hit(i) for i in range(1, 13)]
    carried = Carried((make_hit(11), make_hit(1), make_hit(20)))
    merged = with_carried(hits, carried, after=2)
    assert [h.chunk_id for h in merged][:5] == ["doc-a:1", "doc-a:2", "doc-a:11", "doc-a:20",
                                                "doc-a:3"]
    assert len(merged) == 13 and len({h.chunk_id for h in merged}) == 13
