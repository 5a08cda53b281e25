"""One sentence splitter for documents, answers and chat: its rules as examples."""

from __future__ import annotations

import pytest

from desktop_app.text.sentences import chat_sentences, sentence_spans, split_sentences


def test_full_stops_split_but_abbreviations_and_initials_do_not() -> None:
    assert split_sentences("Conforme o art. 18 da lei. Outra frase aqui. O Dr. Silva e J. Souza "
                           "assinam, e.g. Contratos.") == [
        "Conforme o art. 18 da lei.", "Outra frase aqui.",
        "O Dr. Silva e J. Souza assinam, e.g. Contratos."]


def test_a_bare_legal_label_stays_with_its_text() -> None:
    assert split_sentences("Art. 18. O titular tem direito. Parágrafo único. As normas valem.") == [
        "Art. 18. O titular tem direito.", "Parágrafo único. As normas valem."]


def test_a_sentence_needs_something_that_opens_one_after_the_stop() -> None:
    assert split_sentences("Valor de R$ 5.000. ver anexo. «Citação» final.") == [
        "Valor de R$ 5.000. ver anexo.", "«Citação» final."]


def test_spans_are_exact_offsets() -> None:
    text = "  Primeira frase.   Segunda frase!  "
    spans = sentence_spans(text, 2)
    assert [text[s:e] for s, e in spans] == ["Primeira frase.", "Segunda frase!"]


def test_line_mode_splits_table_rows_even_after_an_abbreviation() -> None:
    text = "Tabela: nº\nlinha um art.\nLinha dois"
    assert split_sentences(text, lines=True) == ["Tabela: nº", "linha um art.", "Linha dois"]
    assert split_sentences(text) == [text]


@pytest.mark.parametrize(("text", "expected"), [
    ("Meu dentista é o Dr. Zhang. Ele atende na Av. Paulista. Ok... sim.",
     ["Meu dentista é o Dr. Zhang.", "Ele atende na Av. Paulista.", "Ok... sim."]),
    ("moro em lisboa. tenho um cão; ele se chama Rex",
     ["moro em lisboa.", "tenho um cão;", "ele se chama Rex"]),
])
def test_chat_sentences_may_start_in_lower_case(text: str, expected: list[str]) -> None:
    assert chat_sentences(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("O titular tem direitos (art. 18). Ele pode pedir.",
     ["O titular tem direitos (art. 18).", "Ele pode pedir."]),
    ("Veja (art. 18, inc. II) e o § 2º. Depois.",
     ["Veja (art. 18, inc. II) e o § 2º.", "Depois."]),
    ("Ver (arts. 5º e ss. da Lei) e a alín. B do inc. III. Fim.",
     ["Ver (arts. 5º e ss. da Lei) e a alín. B do inc. III.", "Fim."]),
    ("Conforme o n.º 3 do art. 5.º da Constituição (pág. 12). Fim.",
     ["Conforme o n.º 3 do art. 5.º da Constituição (pág. 12).", "Fim."]),
    ("O prazo (cf. art. 19, § 1º) é curto. «Fim.»", ["O prazo (cf. art. 19, § 1º) é curto.",
                                                    "«Fim.»"]),
    ("Results improved (Fig. 2). Other work (e.g. Smith et al. 2010) agrees.",
     ["Results improved (Fig. 2).", "Other work (e.g. Smith et al. 2010) agrees."]),
    # a sentence that ends inside a bracket still ends there
    ("Ela disse (art. 18.) Outra frase.", ["Ela disse (art. 18.)", "Outra frase."]),
])
def test_abbreviations_inside_brackets_do_not_end_a_sentence(text: str,
                                                             expected: list[str]) -> None:
    assert split_sentences(text) == expected
    assert split_sentences(text, lines=True) == expected  # chunking and answers: same rule


def test_chat_sentences_share_the_bracket_rule() -> None:
    assert chat_sentences("moro perto do fórum (av. Brasil). tenho um cão") == [
        "moro perto do fórum (av. Brasil).", "tenho um cão"]


def test_a_chat_turn_splits_after_a_trailing_off_ellipsis() -> None:
    from desktop_app.text.sentences import turn_sentences

    assert turn_sentences("Let me check...  It is $80.\nAnything else?") == (
        "Let me check...", "It is $80.", "Anything else?")
    assert turn_sentences("well... maybe later") == ("well... maybe later",)
