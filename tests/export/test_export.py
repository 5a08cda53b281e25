"""Exports of a real chat on the LGPD (sources-only answers, real index): each format is
written, opened again with its own reader, and holds every quote exactly, with its page,
section and file; the answers' badges point at those numbered references."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from desktop_app.app import App
from desktop_app.errors import AppError
from desktop_app.export import export_conversation, to_html, to_markdown, write_export

pytestmark = pytest.mark.slow

QUESTIONS = ("Quais são os direitos do titular?", "Qual a capital da Austrália?")


def _squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture()
def chat(lgpd_app: App) -> str:
    conversation = lgpd_app.chat.new_conversation("Direitos do titular")
    for question in QUESTIONS:
        list(lgpd_app.chat.turn(conversation, question, sources_only=True,
                                cancel=lambda: False))
    return conversation


def _read(path: Path) -> str:
    if path.suffix == ".docx":
        from docx import Document

        return "\n".join(p.text for p in Document(str(path)).paragraphs)
    if path.suffix == ".pdf":
        import pymupdf

        with pymupdf.open(str(path)) as pdf:
            return "\n".join(page.get_text() for page in pdf)
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix", [".md", ".docx", ".pdf"])
def test_an_exported_chat_keeps_every_quote_page_and_path(
        lgpd_app: App, chat: str, tmp_path: Path, suffix: str) -> None:
    document = export_conversation(lgpd_app.conversations, chat, lgpd_app.stored_chunk,
                                   documents=lgpd_app.document_texts,
                                   exported_at="2025-01-02 10:00")
    assert [t.question for t in document.turns] == list(QUESTIONS)
    rights, not_found = document.turns
    assert len(document.references) >= 1
    # the answer's badges are the export's reference numbers, in order of first use
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", rights.answer)]
    assert cited and sorted(set(cited)) == list(range(1, len(document.references) + 1))
    # "not found" is said once: by the answer, not again as a note
    assert not_found.answer.startswith("Não encontrei") and not not_found.notes
    assert not_found.closest  # the closest passages go along, apart from the references

    path = write_export(document, tmp_path / f"chat{suffix}")
    text = _read(path)
    flat = _squash(text)
    for ref in document.references:
        for line in filter(None, (_squash(line) for line in ref.quote.splitlines())):
            assert line in flat, (suffix, line[:80])
        assert f"p. {ref.page}" in flat or f"pp. {ref.page}–{ref.page_end}" in flat
        assert ref.source_path in flat and ref.source_path.endswith("lgpd.pdf")
        assert ref.title in flat
    for question in QUESTIONS:
        assert question in flat
    # the law's units: each quote's section is named ("Art. 18", "Art. 18, § 4º")
    assert [ref.section.split(",")[0] for ref in document.references][:2] == ["Art. 18",
                                                                             "Art. 19"]
    assert re.search(r"pp?\. [\d–]+ · Art\. 18", flat)
    # art. 18's first wording of item V was struck through in the law: shown, labelled
    first = document.references[0]
    struck = [text for line in first.lines() for text, revoked in line if revoked]
    assert struck and struck[0].startswith("V - portabilidade")
    assert "revoked" in flat


def test_one_answer_only_and_the_clipboard_forms(lgpd_app: App, chat: str) -> None:
    answers = [m.id for m in lgpd_app.conversations.messages(chat) if m.role == "assistant"]
    last = export_conversation(lgpd_app.conversations, chat, lgpd_app.stored_chunk,
                               answers=[answers[1]])
    assert [t.question for t in last.turns] == [QUESTIONS[1]] and not last.references
    first = export_conversation(lgpd_app.conversations, chat, lgpd_app.stored_chunk,
                                answers=[answers[0]])
    markdown, html = to_markdown(first), to_html(first, standalone=False)
    for ref in first.references:
        for line in ref.quote.splitlines():
            assert line.strip() in markdown
        assert f"[{ref.number}] **{ref.title}**" in markdown
        assert f"<b>{ref.title}</b>" in html
    with pytest.raises(AppError, match="No chat"):
        export_conversation(lgpd_app.conversations, "nope", lgpd_app.stored_chunk)


def test_a_pdf_never_ends_a_page_on_a_reference_heading(tmp_path: Path) -> None:
    """References of growing length put a "[n] title — p." line at every height of the
    page; none is left alone at a page's foot, away from its quote."""
    import pymupdf

    from desktop_app.export.model import ExportDocument, ExportedTurn, Reference

    quote = ("O titular dos dados pessoais tem direito a obter do controlador, em relação aos "
             "dados do titular por ele tratados, a qualquer momento e mediante requisição, a "
             "confirmação da existência de tratamento e o acesso aos dados, nos termos da lei.")
    references = tuple(Reference(n, f"Documento {n}", n, n, f"Art. {n}",
                                 " ".join([quote] * (1 + n % 3)), f"/docs/doc{n}.pdf")
                       for n in range(1, 61))
    answer = " ".join(f"[{n}]" for n in range(1, 61))
    document = ExportDocument("Prazos", (ExportedTurn("Quais são os prazos?", answer),),
                              references)
    path = write_export(document, tmp_path / "refs.pdf")
    with pymupdf.open(str(path)) as pdf:
        assert pdf.page_count >= 3
        for page in pdf:
            lines = [line for line in page.get_text().splitlines() if line.strip()]
            body = [line for line in lines if not re.fullmatch(r"\d+ / \d+", line)]
            assert not re.match(r"\[\d+\] Documento \d+ — p\.", body[-1]), (page.number,
                                                                            body[-1])
    text = " ".join(_read(path).split())
    for ref in references:  # and every quote and page is still there
        assert f"[{ref.number}] Documento {ref.number} — p. {ref.page} · Art. {ref.number}" \
            in text
