"""chunk_document: sections, budgets, overlap, page spans and the text-slice invariant."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from desktop_app.ingest.chunking import HARD_JOIN, SOFT_JOIN, chunk_document
from desktop_app.ingest.cleaning import Paragraph, assemble_page
from desktop_app.ingest.loaders import load_document
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.retrieval.types import Chunk

ART_18 = "Art. 18. O titular dos dados pessoais tem direito a obter do controlador"


def _document(pages: list[PageText], title: str = "Manual") -> LoadedDocument:
    return LoadedDocument(path="/tmp/manual.pdf", file_type="pdf", title=title, pages=pages)


def _page(number: int, *paragraphs: str | tuple[str, int]) -> PageText:
    return assemble_page(number, [Paragraph(p) if isinstance(p, str) else Paragraph(*p)
                                  for p in paragraphs])


def assert_chunk_is_page_text(document: LoadedDocument, chunk: Chunk) -> None:
    """The invariant citations rely on: a chunk is exactly the page text it points to."""
    pages = {page.number: page.text for page in document.pages}
    if chunk.page_start == chunk.page_end:
        assert pages[chunk.page_start][chunk.char_start:chunk.char_end] == chunk.text
        return
    head = pages[chunk.page_start][chunk.char_start:]
    tail = pages[chunk.page_end][:chunk.char_end]
    middle = [pages[n] for n in range(chunk.page_start + 1, chunk.page_end) if pages.get(n)]
    joins = chunk.text[len(head):len(chunk.text) - len(tail)]
    assert chunk.text.startswith(head) and chunk.text.endswith(tail)
    assert joins in (SOFT_JOIN, HARD_JOIN) or middle


@pytest.fixture(scope="module")
def lgpd(eval_dir: Path) -> LoadedDocument:
    return load_document(eval_dir / "pdfs" / "pt" / "lgpd.pdf")


@pytest.fixture(scope="module")
def lgpd_chunks(lgpd: LoadedDocument) -> list[Chunk]:
    return chunk_document(lgpd, "doc-lgpd")


# --- the LGPD, end to end -----------------------------------------------------------------------


@pytest.mark.slow  # over a second: the full tier only
def test_every_lgpd_chunk_is_exactly_its_page_text(lgpd: LoadedDocument,
                                                  lgpd_chunks: list[Chunk]) -> None:
    assert len(lgpd_chunks) > 100
    for chunk in lgpd_chunks:
        assert_chunk_is_page_text(lgpd, chunk)


def test_lgpd_chunks_are_numbered_sized_and_cut_between_words(lgpd: LoadedDocument,
                                                              lgpd_chunks: list[Chunk]) -> None:
    pages = {page.number: page.text for page in lgpd.pages}
    assert [c.position for c in lgpd_chunks] == list(range(len(lgpd_chunks)))
    assert lgpd_chunks[5].chunk_id == "doc-lgpd:5"
    for chunk in lgpd_chunks:
        assert chunk.text == chunk.text.strip() and chunk.text
        assert len(chunk.text) <= 1250
        start_text, end_text = pages[chunk.page_start], pages[chunk.page_end]
        assert chunk.char_start == 0 or start_text[chunk.char_start - 1].isspace()
        assert chunk.char_end == len(end_text) or end_text[chunk.char_end].isspace()


def test_no_lgpd_chunk_carries_the_running_header_or_footer(lgpd_chunks: list[Chunk]) -> None:
    for chunk in lgpd_chunks:
        for running in ("8/26/25", "3:54 PM", "L13709", "www.planalto.gov.br"):
            assert running not in chunk.text
        assert not re.search(r"(?<![\d.])\d{1,2}/26\b", chunk.text)


def test_article_18_is_found_with_its_page_and_chapter(lgpd_chunks: list[Chunk]) -> None:
    chunk = next(c for c in lgpd_chunks if ART_18 in c.text)
    assert chunk.page_start == 8
    assert chunk.heading_path == ("CAPÍTULO III DOS DIREITOS DO TITULAR",)
    assert chunk.prefix == "lgpd › CAPÍTULO III DOS DIREITOS DO TITULAR"
    assert "II - acesso aos dados;" in chunk.text


def test_consecutive_chunks_overlap_by_at_most_fifteen_percent(lgpd_chunks: list[Chunk]) -> None:
    overlaps = [a.char_end - b.char_start for a, b in zip(lgpd_chunks, lgpd_chunks[1:], strict=False)
                if a.page_end == b.page_start and a.heading_path == b.heading_path
                and b.char_start < a.char_end]
    assert len(overlaps) > len(lgpd_chunks) // 2
    assert all(0 < overlap <= 150 for overlap in overlaps)


def test_lgpd_chunks_cross_a_page_only_with_their_text(lgpd: LoadedDocument,
                                                      lgpd_chunks: list[Chunk]) -> None:
    spanning = [c for c in lgpd_chunks if c.page_start != c.page_end]
    assert spanning and all(c.page_end == c.page_start + 1 for c in spanning)
    # Page 19 ends mid-sentence ("…na lei de diretrizes") and page 20 goes on ("orçamentárias.").
    assert lgpd.pages[18].text.endswith("lei de diretrizes")
    assert any("lei de diretrizes orçamentárias." in c.text for c in spanning)


# --- rules on small documents --------------------------------------------------------------------


def test_a_document_without_headings_is_prefixed_by_its_title() -> None:
    document = _document([_page(1, "Primeiro parágrafo.", "Segundo parágrafo.")], title="Nota")
    (chunk,) = chunk_document(document, "d")
    assert (chunk.text, chunk.prefix, chunk.heading_path) == (
        "Primeiro parágrafo.\n\nSegundo parágrafo.", "Nota", ())


def test_headings_open_sections_and_nest() -> None:
    document = _document([_page(
        1, ("Capítulo 1", 1), ("Seção 1.1", 2), "Texto da seção um ponto um.",
        ("Seção 1.2", 2), "Texto da seção um ponto dois.", ("Capítulo 2", 1), "Texto do dois.")])
    chunks = chunk_document(document, "d")
    assert [(c.text, c.heading_path) for c in chunks] == [
        ("Capítulo 1\n\nSeção 1.1\n\nTexto da seção um ponto um.", ("Capítulo 1", "Seção 1.1")),
        ("Seção 1.2\n\nTexto da seção um ponto dois.", ("Capítulo 1", "Seção 1.2")),
        ("Capítulo 2\n\nTexto do dois.", ("Capítulo 2",)),
    ]
    assert chunks[1].prefix == "Manual › Capítulo 1 › Seção 1.2"


def test_a_heading_at_the_foot_of_a_page_goes_with_the_next_page() -> None:
    document = _document([_page(1, "Fim do capítulo anterior." * 20, ("Seção III", 2)),
                          _page(2, "Art. 42. O controlador responde pelos danos.")])
    last = chunk_document(document, "d")[-1]
    assert (last.page_start, last.page_end) == (1, 2)
    assert last.text == "Seção III\n\nArt. 42. O controlador responde pelos danos."
    assert_chunk_is_page_text(document, last)


def test_a_paragraph_continuing_on_the_next_page_may_span_it() -> None:
    body = "O tratamento de dados pessoais observará a boa-fé. " * 12
    document = _document([_page(1, body + "Os agentes de tratamento devem adotar medidas de"),
                          _page(2, "segurança aptas a proteger os dados pessoais. " * 2)])
    chunks = chunk_document(document, "d", max_chars=800)
    spanning = [c for c in chunks if c.page_start != c.page_end]
    assert len(spanning) == 1
    assert "adotar medidas de segurança aptas" in spanning[0].text
    for chunk in chunks:
        assert_chunk_is_page_text(document, chunk)


def test_a_finished_paragraph_does_not_cross_the_page_break() -> None:
    document = _document([_page(1, "Cláusula primeira, que termina aqui. " * 12),
                          _page(2, "Cláusula segunda, com outro assunto. " * 12)])
    chunks = chunk_document(document, "d")
    assert all(c.page_start == c.page_end for c in chunks)
    assert {c.page_start for c in chunks} == {1, 2}


def test_long_paragraphs_split_at_sentences_and_long_sentences_at_spaces() -> None:
    sentences = " ".join(f"Esta é a frase número {n} do parágrafo longo." for n in range(60))
    run_on = " ".join(["palavra"] * 400)
    document = _document([_page(1, sentences, run_on)])
    chunks = chunk_document(document, "d", max_chars=300, overlap=0.0)
    sentence_chunks = [c for c in chunks if "frase" in c.text]
    assert all(c.text.endswith("longo.") and len(c.text) <= 300 for c in sentence_chunks)
    word_chunks = [c for c in chunks if "frase" not in c.text]
    assert all(set(c.text.split()) == {"palavra"} and len(c.text) <= 300 for c in word_chunks)
    assert sum(len(c.text.split()) for c in word_chunks) == 400


def test_overlap_starts_at_a_sentence() -> None:
    text = " ".join(f"Frase {n} com algumas palavras de enchimento aqui." for n in range(40))
    document = _document([_page(1, text)])
    chunks = chunk_document(document, "d", max_chars=400, overlap=0.15)
    for previous, chunk in zip(chunks, chunks[1:], strict=False):
        assert chunk.char_start < previous.char_end
        assert chunk.text.startswith("Frase ")


def test_overlap_never_starts_inside_a_table_row() -> None:
    # a long last row before a long paragraph: the overlap window lies inside the row,
    # where a word start would open the next passage with "| 636,903 | …", its state cut off
    rows = "\n".join(["State | Permit | Handgun | Long gun | Total"]
                     + [f"State {n} | {n},101 | {n},202 | {n},303 | {n},404 | {n},505"
                        for n in range(6)]
                     + ["Totals | " + " | ".join(f"{n}04,006" for n in range(1, 15))])
    notes = " ".join(["These statistics represent checks initiated through the system"] * 6)
    document = _document([_page(1, rows, notes)])
    chunks = chunk_document(document, "d", max_chars=400, overlap=0.15)
    assert len(chunks) >= 2
    for chunk in chunks:
        assert_chunk_is_page_text(document, chunk)
        first_line = chunk.text.split("\n", 1)[0]
        assert not first_line.startswith("|") and (
            " | " not in first_line or first_line.startswith(("State", "Totals"))), first_line
    notes_chunk = next(c for c in chunks if "These statistics" in c.text)
    assert notes_chunk.text.startswith("These statistics")  # no overlap: not half a row


def test_blank_pages_give_no_chunks_and_are_not_crossed() -> None:
    document = _document([_page(1, "Texto da primeira página."), PageText(2, ""), PageText(3, ""),
                          _page(4, "Texto da quarta página.")])
    chunks = chunk_document(document, "d")
    assert [(c.page_start, c.page_end) for c in chunks] == [(1, 1), (4, 4)]


def test_scanned_pages_missing_from_the_document_are_not_crossed() -> None:
    document = _document([_page(1, "Texto da primeira página."), _page(4, "Texto da quarta.")])
    document.empty_pages = [2, 3]
    chunks = chunk_document(document, "d")
    assert [(c.page_start, c.page_end) for c in chunks] == [(1, 1), (4, 4)]


def test_a_word_longer_than_the_budget_is_the_only_thing_cut() -> None:
    url = "https://exemplo.gov.br/" + "a" * 200
    document = _document([_page(1, f"Veja {url} para detalhes.")])
    chunks = chunk_document(document, "d", max_chars=100, overlap=0.0)
    assert "".join(c.text for c in chunks).replace(" ", "") == f"Veja{url}paradetalhes."
    assert all(len(c.text) <= 125 for c in chunks)  # a 4-character scrap may join the next


def test_invalid_budgets_are_refused() -> None:
    document = _document([_page(1, "x")])
    with pytest.raises(ValueError):
        chunk_document(document, "d", max_chars=10)
    with pytest.raises(ValueError):
        chunk_document(document, "d", overlap=0.6)
