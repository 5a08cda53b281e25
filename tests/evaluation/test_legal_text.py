"""What the eval reads from a law's PDF by itself: struck-through (revoked) wording, the
current text, and which article a position of the indexed page texts falls in."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.evaluation.legal_text import (
    RevokedText,
    _split_struck,
    article_at,
    article_starts,
    read_pdf_text,
    revoked_pieces,
)
from desktop_app.ingest.loaders import load_document

OLD_18_V = ("V - portabilidade dos dados a outro fornecedor de serviço ou produto, mediante "
            "requisição expressa e observados os segredos comercial e industrial, de acordo com "
            "a regulamentação do órgão controlador;")
NEW_18_V = ("V - portabilidade dos dados a outro fornecedor de serviço ou produto, mediante "
            "requisição expressa, de acordo com a regulamentação da autoridade nacional, "
            "observados os segredos comercial e industrial;")


@pytest.fixture(scope="module")
def lgpd_pages(eval_dir: Path) -> dict[int, str]:
    return {p.number: p.text for p in load_document(eval_dir / "pdfs/pt/lgpd.pdf").pages}


@pytest.mark.slow  # over a second: the full tier only
def test_art_18_v_old_wording_is_revoked_and_the_current_one_is_not(eval_dir: Path) -> None:
    pdf = read_pdf_text(eval_dir / "pdfs/pt/lgpd.pdf")
    assert " ".join(NEW_18_V.split()) in pdf.current
    assert "observados os segredos comercial e industrial, de acordo com a regulamentação do " \
           "órgão controlador" not in pdf.current
    revoked = RevokedText(pdf)
    assert revoked.quotes_revoked(f"Art. 18 …\n{OLD_18_V} [1]")
    # shortened as an answer may show it, and folded like every score compares
    assert revoked.quotes_revoked("…MEDIANTE REQUISICAO EXPRESSA E OBSERVADOS OS SEGREDOS "
                                  "COMERCIAL E INDUSTRIAL…")
    assert revoked.quotes_revoked(NEW_18_V) is None
    # a wording struck once and printed again (art. 4º, II, b) is current: not revoked
    assert revoked.quotes_revoked("b) acadêmicos, aplicando-se a esta hipótese os arts. 7º e 11 "
                                  "desta Lei;") is None


@pytest.mark.slow  # over a second: the full tier only
def test_a_current_provision_running_over_a_page_break_is_not_revoked(eval_dir: Path) -> None:
    """Art. 55-K's parágrafo único is printed twice: the MP 869 wording struck through and
    the current one, which runs over a page break past the browser's date and address
    lines. Read with those lines, the current text missed "… desta Lei e …", so the old
    wording's window counted as revoked in an answer showing the current wording."""
    revoked = RevokedText(read_pdf_text(eval_dir / "pdfs/pt/lgpd.pdf"))
    current = ("Parágrafo único. A ANPD articulará sua atuação com outros órgãos e entidades "
               "com competências sancionatórias e normativas afetas ao tema de proteção de "
               "dados pessoais e será o órgão central de interpretação desta Lei e do "
               "estabelecimento de normas e diretrizes para a sua implementação.")
    assert revoked.quotes_revoked(current) is None
    assert revoked.quotes_revoked(
        "Parágrafo único. A ANPD articulará sua atuação com o Sistema Nacional de Defesa do "
        "Consumidor do Ministério da Justiça e com outros órgãos e entidades")

def test_ldb_has_no_revoked_text_despite_its_struck_single_characters(eval_dir: Path) -> None:
    pdf = read_pdf_text(eval_dir / "pdfs/pt/ldb.pdf")
    assert not pdf.struck
    assert not RevokedText(pdf).windows
    assert "Lei no 9.394/1996" in pdf.current  # the struck "n" beside the superscript "o" stays


def test_short_struck_runs_stay_current_and_long_ones_are_cut_without_notes() -> None:
    kept, runs = _split_struck([("Lei ", False, 0), ("n", True, 0), ("o 9.394 e ", False, 0),
                                ("V - texto antigo riscado aqui;", True, 1), ("VI - novo", False, 2)])
    assert kept.split() == ["Lei", "no", "9.394", "e", "VI", "-", "novo"]
    assert runs == ["V - texto antigo riscado aqui;"]
    pieces = revoked_pieces(["§ 3º O mandato será de quatro anos. (Incluído pela Medida Provisória "
                             "nº 869, de 2018) Art. 55-E. Os membros somente perderão seus cargos "
                             "por renúncia."])
    assert pieces == ["§ 3º O mandato será de quatro anos.",
                      "Art. 55-E. Os membros somente perderão seus cargos por renúncia."]


@pytest.mark.slow  # over a second: the full tier only
def test_a_position_is_placed_in_the_article_it_falls_in(lgpd_pages: dict[int, str]) -> None:
    starts = article_starts(lgpd_pages)
    art_18 = next(s for s in starts if s.label == "18")
    art_19 = next(s for s in starts if s.label == "19")
    assert art_18.page == 8 and art_18.part == 0
    assert article_at(starts, 8, art_18.offset + 300).label == "18"  # type: ignore[union-attr]
    # art. 18's paragraphs on page 9 belong to it, up to where art. 19 begins
    assert article_at(starts, art_19.page, art_19.offset - 5).label == "18"  # type: ignore[union-attr]
    assert article_at(starts, art_19.page, art_19.offset).label == "19"  # type: ignore[union-attr]
    assert article_at(starts, 1, 0) is None  # the heading before art. 1
    assert {"7", "55-J", "58-A", "65"} <= {s.label for s in starts}


def test_articles_quoted_from_another_law_are_not_starts(lgpd_pages: dict[int, str]) -> None:
    starts = article_starts(lgpd_pages)
    art_60 = next(s for s in starts if s.label == "60")
    quoted = lgpd_pages[art_60.page].index("“Art. 7º")
    assert article_at(starts, art_60.page, quoted + 10).label == "60"  # type: ignore[union-attr]


def test_a_second_law_in_the_same_file_is_another_part(eval_dir: Path) -> None:
    pages = {p.number: p.text for p in load_document(eval_dir / "pdfs/pt/ldb.pdf").pages}
    starts = article_starts(pages)
    assert [s.label for s in starts if s.part == 1] == ["6", "7", "8", "9"]  # Lei 4.024
    assert [s.label for s in starts if s.part == 0][:3] == ["1", "2", "3"]
    assert next(s for s in starts if s.part == 0 and s.label == "92")
