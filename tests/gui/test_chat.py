"""The chat panel: streamed answers with citation chips, the PDF viewer, Stop, errors.

The answer events here are scripted (the rendering is what is under test); they run
through the real worker and signals. End-to-end answers through the real services
are in test_window.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gui_helpers import click_anchor
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from services_double import Script, ScriptedServices

from desktop_app.answer.events import (
    AnswerWarning,
    Citation,
    CitationEvent,
    Done,
    Token,
    WarningCode,
)
from desktop_app.errors import AppError
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui


def citation(number: int, *, path: str = "/nonexistent/lei.pdf", page: int = 1,
             snippet: str = "texto", title: str = "Lei") -> Citation:
    return Citation(number=number, doc_id="d1", chunk_id=f"d1:{number}", title=title,
                    source_path=path, file_type="pdf", page=page, page_end=page, char_start=0,
                    char_end=len(snippet), score=0.5, legs=frozenset({"vector", "keyword"}),
                    snippet=snippet)


def make_window(qtbot, script: Script) -> MainWindow:
    window = MainWindow(ScriptedServices(script))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def ask_and_wait(qtbot, window: MainWindow, question: str = "pergunta",
                 timeout: int = 10_000) -> None:
    with qtbot.waitSignal(window.chat.busyChanged, timeout=timeout,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)


def test_streamed_markers_become_chips_even_when_split_across_tokens(qtbot) -> None:
    def script(_cancel: Callable[[], bool]) -> Iterator[Any]:
        yield Token("O titular tem direito de acesso ")
        yield Token("[")
        yield Token("1")  # the marker is incomplete here: nothing shown for it yet
        yield Token("] e à correção [1")
        yield Token("2]. Ver também [2].")
        yield CitationEvent(citation(1))
        yield CitationEvent(citation(2))
        yield CitationEvent(citation(12))
        yield Done(answer="O titular tem direito de acesso [1] e à correção [12]. Ver também [2].",
                   citations=(citation(1), citation(2), citation(12)),
                   warnings=(AnswerWarning(WarningCode.SOURCES_ONLY),
                             AnswerWarning(WarningCode.REPETITION)))

    window = make_window(qtbot, script)
    ask_and_wait(qtbot, window)
    view = window.chat.view
    hrefs = [h for _p, h in view.anchor_positions()]
    # three chips in the answer, numbered as shown (the model's [12] is the second source
    # cited, so it is badge 2), then one chip and one title link per source line
    assert hrefs[:3] == ["cite:0/1", "cite:0/2", "cite:0/3"]
    assert sorted(set(hrefs)) == ["cite:0/1", "cite:0/2", "cite:0/3"]
    assert view.citation(0, 2).chunk_id == "d1:12"  # badge 2 opens the model's source 12
    text = view.toPlainText()
    assert "[1" not in text and "12]" not in text  # no raw marker leaked into the text
    assert "The model started repeating itself" in text  # warnings are visible…
    assert "answered from sources only" not in text  # …but the mode is told once, not each time
    assert "Lei — p. 1" in text  # the sources list under the answer


def test_clicking_a_badge_opens_the_pdf_at_the_cited_page_with_the_passage_highlighted(
        qtbot, eval_dir: Path) -> None:
    import pymupdf

    pdf = eval_dir / "pdfs" / "pt" / "lgpd.pdf"
    with pymupdf.open(pdf) as document:
        page_number, text = next((i + 1, page.get_text()) for i, page in enumerate(document)
                                 if "Art. 18." in page.get_text())
    snippet = text[text.index("Art. 18."):][:700]
    cited = citation(1, path=str(pdf), page=page_number, snippet=snippet, title="LGPD")
    assert page_number > 1  # otherwise "opened at the right page" would prove nothing

    def script(_cancel: Callable[[], bool]) -> Iterator[Any]:
        yield Token("Os direitos do titular estão no art. 18 [1].")
        yield CitationEvent(cited)
        yield Done(answer="Os direitos do titular estão no art. 18 [1].", citations=(cited,))

    window = make_window(qtbot, script)
    ask_and_wait(qtbot, window, "Quais são os direitos do titular?")
    with qtbot.waitSignal(window.viewer.highlightApplied, timeout=10_000) as highlighted:
        click_anchor(qtbot, window.chat.view, "cite:0/1")
    assert highlighted.args[0].startswith("Art. 18.")
    view = window.viewer.pdf_view
    first_line = view.map_from_page(page_number - 1, view.passage[page_number - 1][0])
    assert view.viewport().rect().contains(first_line.center().toPoint())  # scrolled to it
    assert window.viewer.location.text().startswith(f"Page {page_number} ·")
    assert window.viewer.open_button.isEnabled()


def test_stop_cancels_generation_and_closes_the_stream(qtbot) -> None:
    started, closed = threading.Event(), threading.Event()

    def endless(_cancel: Callable[[], bool]) -> Iterator[Any]:
        try:
            yield Token("Gerando ")
            started.set()
            while True:
                time.sleep(0.01)  # a model that would never stop by itself
                yield Token("mais ")
        finally:
            closed.set()

    window = make_window(qtbot, endless)
    window.chat.question.setPlainText("pergunta longa")
    qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(started.is_set, timeout=10_000)
    assert window.chat.stop_button.isVisible()
    with qtbot.waitSignal(window.chat.busyChanged, timeout=10_000,
                          check_params_cb=lambda busy: busy is False):
        qtbot.mouseClick(window.chat.stop_button, Qt.MouseButton.LeftButton)
    assert closed.is_set()  # gen.close() ran: llama.cpp's stream would stop here
    assert "⚠ stopped" in window.chat.view.toPlainText()
    assert window.chat.ask_button.isVisible() and not window.chat.is_busy()


@pytest.mark.parametrize(("error", "dialog"), [
    (AppError("The model file is missing: add a GGUF in Settings."), "warning"),
    (ZeroDivisionError("bug"), "critical"),
])
def test_errors_show_a_dialog_with_the_user_message(qtbot, monkeypatch, error: Exception,
                                                   dialog: str) -> None:
    shown: list[tuple[str, str]] = []
    for kind in ("warning", "critical"):
        monkeypatch.setattr(QMessageBox, kind, staticmethod(
            lambda _parent, _title, text, *_a, kind=kind: shown.append((kind, text))))

    def failing(_cancel: Callable[[], bool]) -> Iterator[Any]:
        yield Token("Começo ")
        raise error

    window = make_window(qtbot, failing)
    ask_and_wait(qtbot, window)
    assert len(shown) == 1
    kind, text = shown[0]
    assert kind == dialog
    if isinstance(error, AppError):
        assert text == error.user_message
    else:
        assert "ZeroDivisionError" in text and "safe" in text
    assert "The answer failed." in window.chat.view.toPlainText()


@pytest.mark.slow  # over a second: the full tier only
def test_streaming_ten_thousand_chunks_into_the_answer_view(qtbot) -> None:
    """PySide6 6.12 on Python 3.11 aborts after a few thousand such calls (docs/architecture.md, "Qt facts").

    Paragraphs every 60 chunks, as answers have: one 10,000-word paragraph would be
    re-laid out on every insert (quadratic), which no answer length setting allows.
    """
    chunks = 10_000

    def piece(i: int) -> str:
        if i % 250 == 249:
            return "[1] "
        return f"palavra{i % 10}" + ("\n" if i % 60 == 59 else " ")

    def long_answer(_cancel: Callable[[], bool]) -> Iterator[Any]:
        yield CitationEvent(citation(1))
        for i in range(chunks):
            yield Token(piece(i))
        yield Done(answer="resumo final [1].", citations=(citation(1),))

    window = make_window(qtbot, long_answer)
    received: list[int] = []
    original = window.chat.view.append_token

    def counting(text: str) -> None:
        received.append(1)
        original(text)

    window.chat.view.append_token = counting  # type: ignore[method-assign]
    ask_and_wait(qtbot, window, timeout=300_000)
    assert len(received) == chunks
    assert "resumo final" in window.chat.view.toPlainText()
    assert window.chat.view.anchor_positions()[0][1] == "cite:0/1"


def test_a_dark_os_scheme_switches_the_palette_and_repaints_the_chips(qtbot, qapp) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QColor, QTextDocument

    from desktop_app.gui.answer_view import AnswerView
    from desktop_app.gui.theme import ColorSchemeFollower, is_dark

    follower = ColorSchemeFollower(qapp)
    view = AnswerView()
    qtbot.addWidget(view)
    view.begin_answer("Acervo")
    view.append_token("Uma frase citada [1].")

    def chip_colour() -> QColor:
        image = view.document().resource(QTextDocument.ResourceType.ImageResource.value,
                                         QUrl("chip:1"))
        return image.pixelColor(3, image.height() // 2)  # the pill, left of the digit

    light = chip_colour()
    try:
        follower.apply(Qt.ColorScheme.Dark)
        assert is_dark(qapp.palette())
        qtbot.waitUntil(lambda: chip_colour() != light, timeout=5_000)
        assert chip_colour().name() == view.palette().color(view.palette().ColorRole.Highlight).name()
    finally:
        follower.apply(Qt.ColorScheme.Light)
        follower.deleteLater()
    assert not is_dark(qapp.palette())


def test_badges_are_numbered_1_to_n_for_the_sources_shown(qtbot) -> None:
    """The model cited its sources 1 and 4 (of the passages it was given): the user sees
    badges 1 and 2, in the answer and in the sources list, and each opens its own source."""
    first = citation(1, title="LGPD", page=9)
    fourth = citation(4, title="BNCC", page=12)

    def script(_cancel: Callable[[], bool]) -> Iterator[Any]:
        yield Token("O titular pode peticionar [4")
        yield Token("] e opor-se [1].")
        yield CitationEvent(fourth)
        yield CitationEvent(first)
        yield Done(answer="O titular pode peticionar [4] e opor-se [1] [4].",
                   citations=(first, fourth))

    window = make_window(qtbot, script)
    ask_and_wait(qtbot, window)
    view = window.chat.view
    hrefs = [h for _p, h in view.anchor_positions()]
    assert hrefs[:3] == ["cite:0/1", "cite:0/2", "cite:0/1"]
    assert sorted(set(hrefs)) == ["cite:0/1", "cite:0/2"]
    assert (view.citation(0, 1).title, view.citation(0, 2).title) == ("BNCC", "LGPD")
    sources = view.toPlainText().split("Sources", 1)[1]
    assert sources.index("BNCC") < sources.index("LGPD")
    opened: list[Any] = []
    window.chat.citationClicked.connect(lambda cited, _claim: opened.append(cited))
    click_anchor(qtbot, view, "cite:0/2")
    assert [c.title for c in opened] == ["LGPD"] and opened[0].number == 2


def test_a_badges_full_stop_never_starts_a_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Qt may break a line after any inline image, so "… anos [1]." could leave its full
    stop alone at the start of the next line: the final answer puts the punctuation
    before the badge ("… anos. ⓵"), and a line may start with a badge instead."""
    from desktop_app.answer.events import Citation, Done
    from desktop_app.gui.answer_view import OBJECT_REPLACEMENT, AnswerView

    cited = Citation(1, "d", "d:1", "Lei", "/x/lei.pdf", "pdf", 3, 3, 0, 10, 0.5,
                     frozenset({"keyword"}), "texto")
    view = AnswerView()
    qtbot.addWidget(view)
    view.show()
    sentences = ["Os senadores são eleitos com mandato de oito anos [1].",
                 "Compete à União legislar sobre [1]:", "I - direito civil [1];"]
    for n in range(12):  # sentences of every length, so some badge ends a line
        view.begin_answer("Acervo")
        view.finish_answer(Done(answer=" ".join(["palavra"] * n + sentences),
                                citations=(cited,), sources_only=True),
                           sources_title="Fontes", found_by="", page_label="p.",
                           leg_names={})
    text = view.toPlainText()
    assert f"anos. {OBJECT_REPLACEMENT}" in text and f"sobre: {OBJECT_REPLACEMENT}" in text
    starts: list[str] = []
    for width in range(180, 420, 7):
        view.document().setTextWidth(width)
        block = view.document().begin()
        while block.isValid():
            layout = block.layout()
            for i in range(1, layout.lineCount()):
                starts.append(block.text()[layout.lineAt(i).textStart():][:1])
            block = block.next()
    assert OBJECT_REPLACEMENT in starts  # the widths did put a badge at a line's start
    assert not [s for s in starts if s in ".:;,"]
