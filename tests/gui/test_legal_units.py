"""The window on the real LGPD, answering from whole units of the law (issue 25): art. 18
shows all nine rights under "Art. 18" with the current wording of V; the legal bases lead
with art. 7º and its ten hypotheses; the follow-up "e qual o prazo…" finds art. 19, II's
fifteen days in the same chat; the struck-through (revoked) V is never shown. Real
services: the ingested PDF, e5-small, LanceDB; sources-only, no language model."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.slow]

CURRENT_V = ("V - portabilidade dos dados a outro fornecedor de serviço ou produto, mediante "
             "requisição expressa, de acordo com a regulamentação da autoridade nacional, "
             "observados os segredos comercial e industrial;")
REVOKED_V = "de acordo com a regulamentação do órgão controlador"
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


@pytest.fixture()
def window(qtbot, lgpd_app: App) -> MainWindow:  # type: ignore[no-untyped-def]
    from desktop_app.gui.run import build_window

    window = build_window(lgpd_app)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.modelsReady, timeout=120_000):
        window.start()
    window.chat.sources_only.setChecked(True)
    yield window
    window.workers.cancel_all()


def ask(qtbot, window: MainWindow, question: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Ask in the window; the lines of this answer, as shown."""
    with qtbot.waitSignal(window.chat.busyChanged, timeout=180_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText(question)
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    lines = [line.strip() for line in window.chat.view.toPlainText().splitlines()]
    asked = max(i for i, line in enumerate(lines)  # the question as asked, not "Searched for"
                if line.endswith(question) and not line.startswith("Searched for"))
    return [line for line in lines[asked + 1:] if line]


def first_quote(lines: list[str]) -> list[str]:
    """The lines of the first quote: from the answer's first line naming an article (the
    speaker's name comes before it) to the line before the next one that does."""
    start = next((i for i, line in enumerate(lines) if line.startswith("Art. ")), len(lines))
    out = lines[start:start + 1]
    for line in lines[start + 1:]:
        if line.startswith("Art. "):
            break
        out.append(line)
    return out


def items(quote: list[str]) -> list[str]:
    return [m.group(1) for line in quote if (m := re.match(r"([IVX]+) - ", line))]


def struck_not_highlighted(window: MainWindow) -> None:
    """The badge's quote is highlighted in the PDF on both sides of the struck-through V
    (items IV and VI) but not over it."""
    from desktop_app.gui.sources_viewer import Passage

    citation = window.chat.view.citation(0, 1)
    viewer = window.viewer
    viewer.show_citation(citation)
    document = viewer.pdf_document
    _passage, claim, _located = viewer.passage_geometry(Passage.of(citation))

    def box(words: str):  # type: ignore[no-untyped-def]
        """The page of the quote that has `words`, and their rectangle there."""
        pattern = r"\s+".join(map(re.escape, words.split()))
        for page in claim:
            found = re.search(pattern, document.getAllText(page).text())
            if found:
                selection = document.getSelectionAtIndex(page, found.start(),
                                                         found.end() - found.start())
                return page, selection.boundingRectangle()
        raise AssertionError(f"{words!r} is on none of the quote's highlighted pages")

    page, struck = box(REVOKED_V)
    assert not any(r.intersects(struck) for r in claim[page]), "the revoked V is highlighted"
    for words in ("IV - anonimização", "VI - eliminação"):
        page, rect = box(words)
        assert any(r.intersects(rect) for r in claim[page]), f"{words} is not highlighted"


def test_whole_articles_under_their_path_and_a_follow_up(qtbot, window: MainWindow) -> None:
    rights = first_quote(ask(qtbot, window, "Quais são os direitos do titular dos dados?"))
    assert rights[0].startswith("Art. 18. O titular dos dados pessoais tem direito"), rights
    assert items(rights) == list(ROMAN[:9])  # I–IX, nothing cut after V
    assert CURRENT_V in rights
    assert "Art. 18" in window.chat.view.citation(0, 1).quote.text  # the badge: art. 18
    struck_not_highlighted(window)

    bases = first_quote(ask(qtbot, window,
                            "Quais são as bases legais para o tratamento de dados pessoais?"))
    assert bases[0].startswith("Art. 7º O tratamento de dados pessoais somente poderá ser "
                               "realizado nas seguintes hipóteses"), bases
    assert items(bases) == list(ROMAN)  # its ten hypotheses

    # a follow-up in the same chat: the deadline is in art. 19, II, right after art. 18
    ask(qtbot, window, "Quais são os direitos do titular dos dados?")
    deadline = ask(qtbot, window, "e qual o prazo para atender essas solicitações?")
    assert any("15 (quinze) dias" in line for line in deadline), deadline

    shown = window.chat.view.toPlainText()
    assert REVOKED_V not in shown  # the struck-through V, in no answer


def test_the_anpd_s_24_competences_fold_after_fifteen_and_unfold(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QUrl

    from desktop_app.gui.answer_view import MORE_SCHEME

    quote = first_quote(ask(qtbot, window, "Quais são as competências da ANPD?"))
    assert quote[0].startswith("Art. 55-J. Compete à ANPD")
    assert items(quote) == list(ROMAN) + ["XI", "XII", "XIII", "XIV", "XV"]
    assert quote[16] == "▸ Show all 24"
    view = window.chat.view
    [(_, href)] = view._anchors(MORE_SCHEME)
    view._on_anchor(QUrl(href))  # what a click on the link does
    lines = [line.strip() for line in view.toPlainText().splitlines() if line.strip()]
    unfolded = first_quote(lines[next(i for i, line in enumerate(lines)
                                      if line.endswith("Quais são as competências da ANPD?")):])
    assert len(items(unfolded)) == 24 and items(unfolded)[-1] == "XXIV"
    assert not any("Show all" in line for line in unfolded)
