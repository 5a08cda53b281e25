"""Struck-through (revoked) wording of compiled laws: found in the PDF, kept in the text with
its offsets, carried by each chunk, stored in the index and left out of search."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.cleaning import Paragraph, assemble_page, locate_runs
from desktop_app.ingest.loaders import load_document
from desktop_app.ingest.pdf import _struck_runs
from desktop_app.ingest.types import LoadedDocument
from desktop_app.retrieval.index_api import compose_embedding_text

OLD_V = ("V - portabilidade dos dados a outro fornecedor de serviço ou produto, mediante "
         "requisição expressa e observados os segredos comercial e industrial, de acordo com a "
         "regulamentação do órgão controlador;")
NEW_V = ("V - portabilidade dos dados a outro fornecedor de serviço ou produto, mediante "
         "requisição expressa, de acordo com a regulamentação da autoridade nacional")


@pytest.fixture(scope="module")
def lgpd(eval_dir: Path) -> LoadedDocument:
    return load_document(eval_dir / "pdfs" / "pt" / "lgpd.pdf")


def _revoked_texts(doc: LoadedDocument) -> list[str]:
    return [" ".join(p.text[a:b].split()) for p in doc.pages for a, b in p.revoked]


def test_struck_runs_need_real_words() -> None:
    spans = [("Art. ", False), ("18", False), (" V - portabilidade", True), (" ", False),
             ("dos dados", True), ("n", True), ("o", False), ("1", True)]
    assert _struck_runs(spans) == ("V - portabilidade dos dadosn",)
    # a lone struck "n" beside an underlined superscript is MuPDF's artefact, not wording
    assert _struck_runs([("Lei ", False), ("n", True), ("o", False), (" 9.394", False)]) == ()


def test_runs_are_found_back_in_cleaned_text() -> None:
    text = "I - texto vigente;\n\nII - texto revo­gado que infor-\nmações tem; (Revogado)"
    cleaned = "I - texto vigente;\n\nII - texto revogado que informações tem; (Revogado)"
    found = locate_runs(cleaned, ["II - texto", "revogado que infor-", "mações tem;"])
    assert [cleaned[a:b] for a, b in found] == ["II - texto revogado que informações tem;"]
    assert locate_runs(text, ["não está aqui"]) == []
    page = assemble_page(3, [Paragraph("Vigente."), Paragraph("Antigo texto.", None,
                                                              ("Antigo texto.",))])
    assert [page.text[a:b] for a, b in page.revoked] == ["Antigo texto."]


@pytest.mark.slow  # over a second: the full tier only
def test_lgpd_marks_the_old_wording_of_art_18_v_and_not_the_current(lgpd: LoadedDocument) -> None:
    revoked = _revoked_texts(lgpd)
    assert any(t.startswith(OLD_V[:-1]) for t in revoked)
    assert not any(NEW_V in t for t in revoked)
    page8 = lgpd.pages[7]
    assert NEW_V in page8.text and OLD_V in page8.text  # both stay in the text
    assert len(revoked) > 50


def test_ldb_has_no_revoked_text(eval_dir: Path) -> None:
    """The Câmara edition prints no struck wording; MuPDF's single-letter strike flags next
    to superscript "º" must not count."""
    ldb = load_document(eval_dir / "pdfs" / "pt" / "ldb.pdf")
    assert _revoked_texts(ldb) == []


def _occurrences(text: str, words: str) -> list[int]:
    found, at = [], text.find(words)
    while at >= 0:
        found.append(at)
        at = text.find(words, at + 1)
    return found


def test_chunks_carry_revoked_ranges_and_their_path(lgpd: LoadedDocument) -> None:
    chunks = chunk_document(lgpd, "doc")
    old, new = "regulamentação do órgão controlador", "regulamentação da autoridade nacional, obs"
    old_seen = new_seen = 0
    for chunk in chunks:
        for at in _occurrences(chunk.text, old):
            old_seen += 1
            assert any(a <= at < b for a, b in chunk.revoked), chunk.chunk_id
        for at in _occurrences(chunk.text, new):
            new_seen += 1
            assert not any(a <= at < b for a, b in chunk.revoked), chunk.chunk_id
        if chunk.revoked:
            assert old not in compose_embedding_text(chunk.prefix, chunk.text, chunk.revoked)
    assert old_seen and new_seen
    paths = [c.path for c in chunks]
    assert any(p.startswith("Art. 18") for p in paths)
    assert all(p == "" or p.startswith("Art.") for p in paths)


@pytest.mark.slow
def test_marks_survive_the_index_and_revoked_words_are_not_searched(
        lgpd: LoadedDocument, embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.ingest.pipeline import embedding_text
    from desktop_app.retrieval.index import LanceIndex
    from desktop_app.retrieval.index_api import DocumentRecord, without_ranges
    from desktop_app.text.analyze import analyze

    chunks = [c for c in chunk_document(lgpd, "doc") if 6 <= c.page_start <= 9]
    record = DocumentRecord(doc_id="doc", title="lgpd", source_path=str(tmp_path / "lgpd.pdf"),
                            file_type="pdf", language="pt", size=1, content_hash="h",
                            page_count=26, chunk_count=len(chunks),
                            ingested_at="2026-01-01T00:00:00", modified_at="2026-01-01T00:00:00",
                            embedder_id=embedder.id)
    index = LanceIndex.open(tmp_path / "index", embedder_id=embedder.id, dim=embedder.dim)
    vectors = np.asarray(embedder.embed_passages([embedding_text(c) for c in chunks]))
    assert index.add_document(record, chunks, vectors)
    index.optimize()
    stored = index.document_chunks("doc")
    assert [(r.revoked, r.path) for r in stored] == [(c.revoked, c.path) for c in chunks]
    assert any(r.revoked for r in stored)
    # a word that only the revoked wording uses is not found by the keyword leg
    current = set(analyze(" ".join(without_ranges(c.text, c.revoked) for c in chunks)).split())
    only_revoked = sorted(set(analyze(" ".join(c.text[a:b] for c in chunks
                                               for a, b in c.revoked)).split()) - current)
    assert only_revoked
    assert index.search_keyword(only_revoked[0], 10, None) == []
    present = sorted(current)[len(current) // 2]
    assert index.search_keyword(present, 10, None)


def test_html_strike_del_and_line_through_are_revoked(tmp_path: Path) -> None:
    """Official law sites print a compiled law as HTML with the revoked wording in
    `<strike>`; `<del>`, `<s>` and an inline line-through style mean the same."""
    html = tmp_path / "lei.html"
    html.write_text(
        "<html><head><title>Lei</title></head><body>"
        "<p>Art. 5º O titular tem direito a:</p>"
        "<p><strike>I - texto antigo do inciso primeiro;</strike></p>"
        "<p>I - texto vigente do inciso primeiro;</p>"
        "<p>II - acesso aos dados, <del>no prazo de trinta dias</del> no prazo de quinze "
        "dias;</p>"
        "<p><span style=\"TEXT-DECORATION: line-through\">III - <b>redação</b> revogada;"
        "</span></p><p><s>IV -</s> (Revogado).</p></body></html>", encoding="utf-8")
    doc = load_document(html)
    assert _revoked_texts(doc) == ["I - texto antigo do inciso primeiro;",
                                   "no prazo de trinta dias", "III - redação revogada;", "IV -"]
    chunks = chunk_document(doc, "doc")
    embedded = " ".join(compose_embedding_text(c.prefix, c.text, c.revoked) for c in chunks)
    assert "texto antigo" not in embedded and "trinta" not in embedded
    assert "texto vigente" in embedded and "quinze" in embedded


def test_docx_struck_runs_are_revoked(tmp_path: Path) -> None:
    import docx
    from docx.oxml.ns import qn

    document = docx.Document()
    document.add_paragraph("Art. 5º O titular tem direito a:")
    old = document.add_paragraph()
    old.add_run("I - texto antigo").font.strike = True
    old.add_run(" do inciso;").font.double_strike = True
    document.add_paragraph("I - texto vigente do inciso;")
    mixed = document.add_paragraph("II - acesso, ")
    mixed.add_run("no prazo de trinta dias").font.strike = True
    mixed.add_run(" no prazo de quinze dias;")
    off = mixed.add_run(" (nota)")
    off.font.strike = True
    off._r.rPr.find(qn("w:strike")).set(qn("w:val"), "false")  # an explicit "not struck"
    path = tmp_path / "lei.docx"
    document.save(str(path))
    doc = load_document(path)
    assert _revoked_texts(doc) == ["I - texto antigo do inciso;", "no prazo de trinta dias"]
    assert "quinze" in doc.pages[0].text and "(nota)" in doc.pages[0].text


def test_revoked_wording_is_labelled_where_text_cannot_strike_it() -> None:
    from desktop_app.retrieval.index_api import label_ranges

    text = "V - antiga redação; V - nova redação"
    assert label_ranges(text, [(0, 18)], "revoked") == \
        "[revoked: V - antiga redação]; V - nova redação"
    assert label_ranges(text, [], "revoked") == text
