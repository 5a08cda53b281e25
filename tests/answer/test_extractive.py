"""Sources-only answers: quoted sentences with badges, chosen by shared words."""

from __future__ import annotations

from desktop_app.answer.citations import verify_answer
from desktop_app.answer.extractive import extract_answer, split_sentences
from desktop_app.answer.prompt import NumberedSource

from .conftest import make_hit

LGPD_18 = ("Art. 18. O titular dos dados pessoais tem direito a obter do controlador a correção de "
           "dados incompletos, inexatos ou desatualizados. A solicitação será atendida sem custos. "
           "O prazo de resposta é de 15 dias.")
LGPD_52 = "Art. 52. As sanções administrativas incluem advertência e multa de até 2% do faturamento."
LDB_4 = "A educação básica é obrigatória e gratuita dos 4 aos 17 anos de idade."


def sources(*hits):  # type: ignore[no-untyped-def]
    return [NumberedSource(i, h) for i, h in enumerate(hits, start=1)]


def test_sentences_split_on_full_stops_but_not_on_abbreviations() -> None:
    assert split_sentences("Conforme o art. 18 da lei. Outra frase aqui.\n\nNovo parágrafo") == [
        "Conforme o art. 18 da lei.", "Outra frase aqui.", "Novo parágrafo"]


def test_the_best_matching_sentences_are_quoted_with_their_badges() -> None:
    numbered = sources(make_hit(1, doc="lgpd", text=LGPD_18), make_hit(2, doc="lgpd", text=LGPD_52),
                       make_hit(3, doc="ldb", text=LDB_4))
    answer = extract_answer("Qual é o prazo para a correção de dados pelo controlador?", numbered)
    assert answer.matched
    lines = answer.text.splitlines()
    assert lines[0].startswith("O titular dos dados pessoais") and lines[0].endswith("[1].")
    assert "O prazo de resposta é de 15 dias [1]." in lines
    assert all(line.rstrip(".").endswith("]") for line in lines)
    assert answer.numbers == (1,)


def test_every_badge_survives_verification() -> None:
    numbered = sources(make_hit(1, doc="lgpd", text=LGPD_18), make_hit(2, doc="lgpd", text=LGPD_52),
                       make_hit(3, doc="ldb", text=LDB_4))
    answer = extract_answer("Quais sanções e multas e qual o prazo de correção e a educação?",
                            numbered)
    result = verify_answer(answer.text, {s.number: s.hit for s in numbered})
    assert [c.number for c in result.citations] == list(answer.numbers) == [1, 2, 3]
    assert result.answer == answer.text and result.dropped == {}


def test_no_more_than_two_chunks_of_one_document() -> None:
    numbered = sources(*(make_hit(i, doc="lgpd", text=f"O prazo número {i} é de {i} dias.")
                         for i in range(1, 5)))
    answer = extract_answer("Qual é o prazo?", numbered)
    assert answer.numbers == (1, 2)


def test_without_shared_words_the_top_passages_are_shown_and_flagged() -> None:
    numbered = sources(make_hit(1, text="Primeira frase. Segunda frase."),
                       make_hit(2, doc="b", text="Outra coisa. Mais coisa."),
                       make_hit(3, doc="c", text="Terceiro texto."))
    answer = extract_answer("quantum chromodynamics", numbered)
    assert not answer.matched
    assert answer.text == "Primeira frase [1].\nOutra coisa [2]."


def test_long_sentences_are_cut_but_keep_the_badge() -> None:
    numbered = sources(make_hit(1, text="prazo " * 200 + "final."))
    answer = extract_answer("prazo", numbered, max_sentence_chars=50)
    assert answer.text.endswith("… [1]") and len(answer.text) < 70


def test_questions_and_headings_are_not_quoted_as_answers() -> None:
    faq = ("Quais são os direitos do titular?\n\nO titular pode pedir acesso, correção e "
           "eliminação dos seus dados.")
    lgpd = ("CAPÍTULO III DOS DIREITOS DO TITULAR\n\nArt. 18. O titular dos dados pessoais tem "
            "direito a obter do controlador a confirmação do tratamento.")
    numbered = sources(make_hit(1, doc="faq", text=faq), make_hit(2, doc="lgpd", text=lgpd))
    answer = extract_answer("Quais são os direitos do titular?", numbered)
    assert "?" not in answer.text
    assert "CAPÍTULO" not in answer.text
    assert "O titular pode pedir acesso" in answer.text
    assert "O titular dos dados pessoais tem direito" in answer.text
