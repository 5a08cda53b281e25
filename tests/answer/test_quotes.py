"""A quote's span maps back to the document text a viewer shows (the real LGPD PDF,
chunked exactly as ingestion does), and sources-only citations carry it."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.answer.events import QuoteSpan
from desktop_app.answer.quotes import locate_quote, quote_citation
from desktop_app.answer.segments import segment
from desktop_app.config.settings import Settings
from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.loaders import load_document
from desktop_app.retrieval.types import Hit

from .conftest import make_hit


def hit_from_chunk(chunk, path: Path) -> Hit:  # type: ignore[no-untyped-def]
    return Hit(chunk_id=f"lgpd:{chunk.position}", doc_id="lgpd", position=chunk.position,
               text=chunk.text, prefix=chunk.prefix, title="lgpd", source_path=str(path),
               file_type="pdf", language="pt", page_start=chunk.page_start,
               page_end=chunk.page_end, char_start=chunk.char_start, char_end=chunk.char_end,
               heading_path=chunk.heading_path, score=0.5)


def text_at(pages: dict[int, str], span: QuoteSpan) -> str:
    if span.page == span.page_end:
        return pages[span.page][span.char_start:span.char_end]
    middle = [pages[n] for n in range(span.page + 1, span.page_end)]
    return " ".join([pages[span.page][span.char_start:], *middle,
                     pages[span.page_end][:span.char_end]])


@pytest.fixture(scope="module")
def lgpd(eval_dir: Path) -> tuple[dict[int, str], list[Hit]]:
    path = eval_dir / "pdfs" / "pt" / "lgpd.pdf"
    document = load_document(path)
    settings = Settings()
    chunks = chunk_document(document, "lgpd", max_chars=settings.chunk_chars,
                            overlap=settings.chunk_overlap)
    return {p.number: p.text for p in document.pages}, [hit_from_chunk(c, path) for c in chunks]


@pytest.mark.slow  # over a second: the full tier only
def test_every_sentence_and_block_of_the_lgpd_maps_to_its_page_text(lgpd) -> None:  # type: ignore[no-untyped-def]
    pages, hits = lgpd
    checked = across_pages = 0
    for hit in hits:
        for unit in segment(hit.text):
            span = locate_quote(hit, unit.start, unit.end)
            assert span.exact and span.text == unit.text
            found = text_at(pages, span)
            if span.page == span.page_end:
                assert found == unit.text  # character for character
            else:  # the chunk joined the pages with a space or a blank line
                assert found.split() == unit.text.split()
                across_pages += 1
            checked += 1
    assert checked > 500 and any(h.page_end > h.page_start for h in hits)
    assert across_pages >= 1  # the PDF has sentences that continue on the next page


def test_the_art_18_list_is_highlighted_exactly_on_its_page(lgpd) -> None:  # type: ignore[no-untyped-def]
    pages, hits = lgpd
    hit = next(h for h in hits if "Art. 18. O titular" in h.text)
    block = next(u for u in segment(hit.text) if u.kind == "block"
                 and u.text.startswith("Art. 18."))
    citation = quote_citation(1, hit, block.start, block.end)
    quote = citation.quote
    assert quote is not None and quote.page == citation.page == 8
    on_page = pages[8][quote.char_start:quote.char_end]
    assert on_page.startswith("Art. 18. O titular dos dados pessoais tem direito")
    assert "II - acesso aos dados;" in on_page and on_page == block.text
    assert citation.char_start <= quote.char_start < quote.char_end <= citation.char_end


def test_a_quote_outside_its_chunk_is_refused() -> None:
    hit = make_hit(1, text="O prazo é de 15 dias.")
    with pytest.raises(ValueError):
        locate_quote(hit, 5, 99)


def test_a_chunk_over_three_pages_is_placed_at_chunk_level_and_marked_inexact() -> None:
    hit = make_hit(1, text="Fim da página um. Página dois inteira. Começo da três.", page=4,
                   page_end=6)
    span = locate_quote(hit, 0, 17)
    assert not span.exact and (span.page, span.page_end) == (4, 6)
    assert span.text == "Fim da página um."
