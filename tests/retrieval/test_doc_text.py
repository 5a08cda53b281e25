"""Documents rebuilt from their stored chunks (retrieval/doc_text.py): the exact page texts
and revoked ranges of the real PDFs, spans turned back into passages with page offsets."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.answer.quotes import locate_quote
from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.loaders import load_document
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.retrieval.doc_text import DocumentText, DocumentTexts, stored_pages
from desktop_app.retrieval.index_api import ChunkRow, DocumentRecord, chunk_row
from desktop_app.retrieval.types import Hit

RECORD = DocumentRecord("doc", "t", "/x.pdf", "pdf", "pt", 1, "h", 1, 1, "a", "b", "e")


def _rows(doc: LoadedDocument, max_chars: int = 1000) -> list[ChunkRow]:
    return [chunk_row(RECORD, c) for c in chunk_document(doc, "doc", max_chars=max_chars)]


def _hit(row: ChunkRow) -> Hit:
    return Hit(row.chunk_id, row.doc_id, row.position, row.text, row.prefix, row.title,
               row.source_path, row.file_type, row.language, row.page_start, row.page_end,
               row.char_start, row.char_end, row.heading_path, 1.0)


@pytest.mark.parametrize("name", ["pt/lgpd.pdf", "pt/ldb.pdf", "en/federal-register-2020-17221.pdf"])
@pytest.mark.slow  # over a second: the full tier only
def test_pages_and_revoked_ranges_come_back_exactly(eval_dir: Path, name: str) -> None:
    doc = load_document(eval_dir / "pdfs" / name)
    for max_chars in (1000, 300):
        rebuilt = DocumentText(_rows(doc, max_chars))
        for page in doc.pages:
            got = rebuilt.pages.get(page.number, "")
            assert got == page.text or (len(got) == len(page.text)
                                        and got.split() == page.text.split())
            assert rebuilt.revoked_by_page.get(page.number, []) == sorted(page.revoked)
    pages = stored_pages(_rows(doc))
    assert [" ".join(p.split()) for p in pages if p] == [
        " ".join(p.text.split()) for p in doc.pages if p.text]


@pytest.mark.slow  # over a second: the full tier only
def test_a_span_over_a_page_break_is_a_passage_with_exact_offsets(eval_dir: Path) -> None:
    doc = load_document(eval_dir / "pdfs" / "pt" / "lgpd.pdf")
    rows = _rows(doc)
    rebuilt = DocumentText(rows)
    start = rebuilt.offset_of(8, len(rebuilt.pages[8]) - 80)
    end = rebuilt.offset_of(9, 60)
    assert start is not None and end is not None
    hit = rebuilt.as_hit(_hit(rows[0]), start, end)
    assert (hit.page_start, hit.page_end) == (8, 9)
    quote = locate_quote(hit, 0, len(hit.text))
    assert quote.exact
    assert doc.pages[7].text[quote.char_start:] == hit.text[:len(doc.pages[7].text)
                                                              - quote.char_start]
    assert doc.pages[8].text[:quote.char_end] == hit.text[-quote.char_end:]
    assert hit.chunk_id in {r.chunk_id for r in rows if r.page_start <= 8 <= r.page_end}


def test_documents_are_cached_per_library() -> None:
    loads: list[tuple[str, str]] = []
    row = chunk_row(RECORD, chunk_document(LoadedDocument(
        "/x.txt", "txt", "t", [PageText(1, "Art. 1º Texto.")]), "doc")[0])

    def load(library: str, doc_id: str) -> list[ChunkRow]:
        loads.append((library, doc_id))
        return [row] if doc_id == "doc" else []

    texts = DocumentTexts(load, size=1)
    assert texts.get("local", "doc") is texts.get("local", "doc")
    assert texts.get("local", "gone") is None
    assert texts.get("local", "doc") is not None
    assert loads == [("local", "doc"), ("local", "gone"), ("local", "doc")]


def test_chunks_that_meet_between_table_rows_keep_the_line_break() -> None:
    # a chunk's overlap never opens inside a row, so a table's chunks meet at a row's end;
    # the one character between them is a line break, and the rows stay rows when the
    # document is rebuilt (before: "… | 907.96 DHAW3 | …", one row of two)
    rows = [f"DHAW{n} | 05/0{n % 9 + 1}/2019 | STAFF TRANSPORTATION AIRFARE FOR TRIP {n} | {n}07.96"
            for n in range(1, 30)]
    text = "Expenditures by document.\n\n" + "\n".join(rows)
    doc = LoadedDocument("/x.pdf", "pdf", "t", [PageText(1, text)])
    chunk_rows = _rows(doc, max_chars=300)
    assert len(chunk_rows) > 3
    assert DocumentText(chunk_rows).pages[1] == text
