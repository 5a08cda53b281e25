"""Keyword normalization: accents never decide whether a word is found."""

from __future__ import annotations

import pytest

from desktop_app.text.analyze import analyze, content_terms
from desktop_app.text.fold import fold


def test_fold_strips_accents_and_case() -> None:
    assert fold("Informação PÚBLICA Ñandú") == "informacao publica nandu"


@pytest.mark.parametrize("variants", [
    ("informação", "informacao", "informações", "informacoes", "INFORMAÇÃO"),
    ("devolução", "devolucao", "devoluções"),
    ("direito", "direitos"),
    ("titular", "titulares"),
    ("análise", "analise", "análises"),
    ("criança", "crianças", "crianca"),
    ("tratamento", "tratamentos"),
    ("processing", "processes", "process"),
    # a verb made from an -amento noun, and the nouns made from that verb (analyzer 2)
    ("fundamentos", "fundamento", "fundamentar", "fundamenta", "fundamentação"),
    ("regulamento", "regulamentar", "regulamentação", "regulamentos"),
    ("experiments", "experiment", "experimented"),
    # a law's word and a reader's synonym (analyzer 3), in pt and es
    ("garantido", "assegurado", "garantidos", "asseguradas", "garantir", "assegurar",
     "garantizado", "asegurado"),
    ("proibido", "vedado", "vedada", "proibida", "veda", "vedar", "prohibido", "prohibida"),
    ("extra", "extras", "extraordinário", "extraordinárias"),  # "hora extra"
    # a verb's plural future (analyzer 4): "Os sistemas de ensino assegurarão…"
    ("assegurarão", "assegurar", "garantir"), ("promoverão", "promover"),
    ("incluirão", "incluir"), ("organizarão", "organizar", "organização"),
])
def test_variants_share_one_term(variants: tuple[str, ...]) -> None:
    assert len({analyze(v) for v in variants}) == 1, {v: analyze(v) for v in variants}


def test_stopwords_are_dropped_but_content_stays() -> None:
    assert analyze("Quais são os direitos do titular?") == "direit titul"
    assert "direit" in content_terms("os direitos")


@pytest.mark.parametrize("apart", [
    ("fundamental", "fundamento"),  # "ensino fundamental" is not a foundation
    ("pagamento", "página"),
    ("garantia", "garantido"),  # a loan's collateral is no right assured
    ("verão", "ver"),  # summer: "-erão" after too short a stem is no verb's future
])
def test_the_noun_rule_keeps_other_words_apart(apart: tuple[str, ...]) -> None:
    assert len({analyze(w) for w in apart}) == len(apart), {w: analyze(w) for w in apart}


def test_the_noun_rule_keeps_a_short_stem_whole() -> None:
    # "alimento" is not an -amento noun ("al" + "imento" is too short a stem to cut)
    assert {analyze(w) for w in ("alimento", "alimentar", "alimentação")} == {"aliment"}
