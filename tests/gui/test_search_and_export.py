"""The Search view, "Why not found?" and exports, in the window, on the real LGPD (the
ingested PDF, e5-small, LanceDB; no language model): the search lists what found each
passage and opens it in the viewer; filters say how many documents they left out; a "not
found" answer is explained by the words the library lacks; an answer and the whole chat
are exported to Markdown, Word and PDF — each file opened again and checked for the quotes
and page numbers — and copied with citations as rich text and Markdown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication

from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.slow]

RIGHTS = "Quais são os direitos do titular?"
ELSEWHERE = "Qual a capital da Austrália?"


@pytest.fixture()
def lgpd_window(qtbot, lgpd_app: App) -> MainWindow:  # type: ignore[no-untyped-def]
    from desktop_app.gui.run import build_window

    window = build_window(lgpd_app)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.modelsReady, timeout=180_000):
        window.start()
    yield window
    window.workers.cancel_all()


def ask(qtbot, window: MainWindow, question: str) -> None:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=180_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)


def search(qtbot, window: MainWindow, query: str) -> None:
    panel = window.search
    panel.query.setText(query)
    with qtbot.waitSignal(panel.searched, timeout=120_000):
        panel.search()


def test_the_search_view_shows_what_found_each_passage_and_opens_it(
        qtbot, lgpd_window: MainWindow, tmp_path: Path) -> None:
    window = lgpd_window
    window.show_search()
    search(qtbot, window, "prazo para o titular peticionar")
    result = window.search.result
    assert result is not None and result.passages and result.libraries == ("local",)
    first = result.passages[0]
    assert first.citation.title == "lgpd" and first.citation.page >= 1
    assert first.legs and first.score > 0
    assert (first.keyword_rank is not None) == ("keyword" in first.legs)
    assert (first.vector_rank is not None) == ("vector" in first.legs)
    both = [p for p in result.passages if p.legs == {"keyword", "vector"}]
    assert both and any(p.matched for p in both)  # found by keywords: the words are named
    text = window.search.results.toPlainText()
    assert "found by keywords #" in text and "meaning #" in text and "score 0." in text
    assert re.search(r"p\. \d+ · Art\. \d+", text)  # the unit it starts in
    for start, end in first.marks:  # the marked words are the query's
        assert first.text[start:end].lower()[:4] in "prazo para titular peticionar"
    # the revoked (struck-through) words of the law are labelled where shown
    search(qtbot, window, "órgão de pesquisa entidade da administração pública")
    revoked = [p for p in window.search.result.passages if p.revoked]
    assert revoked and "[revoked]" in window.search.results.toPlainText()
    # a passage opens in the viewer, at its page
    window.search.results.anchorClicked.emit(QUrl("passage:1"))
    qtbot.waitUntil(lambda: window.viewer.citation is not None, timeout=10_000)
    assert window.viewer.citation == window.search.result.passages[0].citation
    assert window.splitter.sizes()[2] > 0

    # a filter leaves the PDF out: nothing found, and the summary says how many documents
    note = tmp_path / "nota.docx"
    from docx import Document

    doc = Document()
    doc.add_paragraph("O titular pode peticionar ao controlador.")
    doc.save(str(note))
    list(window.services.library.ingest([note], lambda: False))
    window.search.type_combo.setCurrentIndex(window.search.type_combo.findData("docx"))
    search(qtbot, window, "titular peticionar")
    filtered = window.search.result
    assert filtered.passages and all(p.citation.file_type == "docx" for p in filtered.passages)
    assert filtered.left_out_by_filters == 1
    assert "1 document left out by the filters" in window.search.summary.text()


def test_why_not_found_names_the_words_the_library_lacks(
        qtbot, lgpd_window: MainWindow) -> None:
    window = lgpd_window
    ask(qtbot, window, ELSEWHERE)
    view = window.chat.view
    link = next(h for _p, h in view.action_positions() if h.startswith("action:explain-"))
    with qtbot.waitSignal(window.search.searched, timeout=120_000):
        click_anchor_action(qtbot, view, link)
    assert window.center_tabs.currentWidget() is window.search
    result = window.search.result
    assert result.query == ELSEWHERE and "Austrália" in result.absent
    assert "capital" not in result.absent  # the law says "capital" (social capital)
    text = window.search.results.toPlainText()
    assert "Why “Qual a capital da Austrália?” was not found" in text
    assert "occur nowhere in your library: “Austrália”" in text
    assert "No document was left out" in text
    assert result.passages and "score 0." in text  # the closest passages, with their scores
    assert result.missing_value is None  # it asks for no value


def test_why_not_found_names_the_value_no_passage_states(
        qtbot, lgpd_window: MainWindow) -> None:
    """A question only an amount answers: the answer and its explanation both say that no
    passage found states one (the LGPD names no salary)."""
    window = lgpd_window
    ask(qtbot, window, "Quanto ganha por mês o Diretor-Presidente da ANPD?")
    view = window.chat.view
    assert ("the question asks for an amount of money, and no passage found states one"
            in view.toPlainText())
    link = next(h for _p, h in view.action_positions() if h.startswith("action:explain-"))
    with qtbot.waitSignal(window.search.searched, timeout=120_000):
        click_anchor_action(qtbot, view, link)
    assert window.search.result.missing_value == "money"
    assert ("Your question asks for an amount of money, and none of the closest passages "
            "states one.") in window.search.results.toPlainText()


def click_anchor_action(qtbot, view, href: str) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QTextCursor

    position = next(p for p, h in view.action_positions() if h == href)
    cursor = QTextCursor(view.document())
    cursor.setPosition(position)
    rect = view.cursorRect(cursor)
    if not view.viewport().rect().contains(rect.center()):
        bar = view.verticalScrollBar()
        bar.setValue(bar.value() + rect.top() - view.viewport().height() // 2)
        rect = view.cursorRect(cursor)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.x() + 5, rect.center().y()))


def read_back(path: Path) -> str:
    if path.suffix == ".docx":
        from docx import Document

        return "\n".join(p.text for p in Document(str(path)).paragraphs)
    if path.suffix == ".pdf":
        import pymupdf

        with pymupdf.open(str(path)) as pdf:
            return "\n".join(page.get_text() for page in pdf)
    return path.read_text(encoding="utf-8")


def squash(text: str) -> str:
    return " ".join(text.split())


def test_an_answer_and_the_chat_exported_keep_every_quote_and_page(
        qtbot, lgpd_window: MainWindow, tmp_path: Path) -> None:
    window = lgpd_window
    ask(qtbot, window, RIGHTS)
    ask(qtbot, window, ELSEWHERE)
    view = window.chat.view
    citations = [view.citation(0, n) for n in range(1, 4)]
    citations = [c for c in citations if c is not None]
    assert citations and all(c.quote is not None for c in citations)
    exports = window.exports
    written: list[str] = []
    exports.exported.connect(written.append)
    # "Export…" under the first answer: that answer only
    link = next(h for _p, h in view.action_positions() if h.startswith("action:export-"))
    first_answer = link.removeprefix("action:export-")
    for suffix in ("md", "docx", "pdf"):
        target = tmp_path / f"answer.{suffix}"
        with qtbot.waitSignal(exports.exported, timeout=60_000):
            exports.export(window.chat.conversation_id, [first_answer], path=target)
        flat = squash(read_back(target))
        assert RIGHTS in flat and ELSEWHERE not in flat
        for citation in citations:
            for line in filter(None, map(squash, citation.quote.text.splitlines())):
                assert line in flat, (suffix, line[:60])
            pages = (f"p. {citation.quote.page}" if citation.quote.page_end
                     <= citation.quote.page else
                     f"pp. {citation.quote.page}–{citation.quote.page_end}")
            assert pages in flat, (suffix, pages)
        assert "lgpd.pdf" in flat and "[1]" in flat and "Art. 18" in flat
    # the whole chat (File → Export chat…), the not-found answer with its closest passages
    target = tmp_path / "chat.pdf"
    exports.ask_path = lambda _title="": target  # type: ignore[method-assign]
    with qtbot.waitSignal(exports.exported, timeout=60_000):
        window.export_chat_action.trigger()
    flat = squash(read_back(target))
    assert RIGHTS in flat and ELSEWHERE in flat and "Closest passages" in flat
    assert "Exported to" in window.statusBar().currentMessage()


def test_copy_with_citations_puts_rich_text_and_markdown_on_the_clipboard(
        qtbot, lgpd_window: MainWindow) -> None:
    window = lgpd_window
    ask(qtbot, window, RIGHTS)
    view = window.chat.view
    quote = view.citation(0, 1).quote.text.splitlines()[0]
    link = next(h for _p, h in view.action_positions() if h.startswith("action:copy-"))
    with qtbot.waitSignal(window.exports.done, timeout=60_000):
        click_anchor_action(qtbot, view, link)
    data = QGuiApplication.clipboard().mimeData()
    assert data.hasHtml() and "<b>lgpd</b>" in data.html() and quote[:40] in data.html()
    markdown = data.text()
    assert markdown.startswith("# ") and "[1] **lgpd** — pp. 8–9 · Art. 18" in markdown
    assert quote in markdown
    assert bytes(data.data("text/markdown")).decode() == markdown
    assert re.match(r"Copied with \d+ references?\.", window.statusBar().currentMessage())

