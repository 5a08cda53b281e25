"""The window by keyboard: Tab goes left to right, walks the answer's badges (Enter opens
one), reaches the PDF page, and whatever has the focus shows it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QWidget
from services_double import Script, ScriptedServices

from desktop_app.answer.events import Citation, CitationEvent, Done, Token
from desktop_app.app import build_app
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.services import GuiServices

pytestmark = pytest.mark.gui


def answering_with(citations: list[Citation]) -> Script:
    def script(_cancel: Callable[[], bool]) -> Iterator[Any]:
        text = "O titular pode peticionar [1]. Os dados não podem ser usados em seu prejuízo [2]."
        yield Token(text)
        for cited in citations:
            yield CitationEvent(cited)
        yield Done(answer=text, citations=tuple(citations))

    return script


def cited(number: int, pdf: Path, page: int, snippet: str) -> Citation:
    return Citation(number, "lgpd", f"lgpd:{number}", "LGPD", str(pdf), "pdf", page, page, 0,
                    len(snippet), 0.5, frozenset({"keyword"}), snippet)


def has_color_near(image: QImage, color: QColor, tolerance: int = 40) -> bool:
    for y in range(image.height()):
        for x in range(image.width()):
            pixel = image.pixelColor(x, y)
            if (abs(pixel.red() - color.red()) + abs(pixel.green() - color.green())
                    + abs(pixel.blue() - color.blue())) < tolerance:
                return True
    return False


def press_tab_until(qtbot, window: MainWindow, wanted: QWidget, limit: int = 40) -> list[str]:
    seen: list[str] = []
    for _ in range(limit):
        focused = QApplication.focusWidget()
        if focused is wanted:
            return seen
        seen.append(type(focused).__name__)
        qtbot.keyClick(focused, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {type(wanted).__name__}: {seen}")


def test_tab_walks_the_badges_enter_opens_one_and_the_pdf_page_takes_focus(
        qtbot, eval_dir: Path) -> None:
    from desktop_app.gui.run import install_look

    install_look(QApplication.instance())  # the focus ring style of the real app
    pdf = eval_dir / "pdfs" / "pt" / "lgpd.pdf"
    citations = [cited(1, pdf, 9, "§ 1º O titular dos dados pessoais tem o direito de peticionar"),
                 cited(2, pdf, 10, "Os dados pessoais referentes ao exercício regular de direitos")]
    window = MainWindow(ScriptedServices(answering_with(citations)))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    with qtbot.waitSignal(window.chat.busyChanged, timeout=10_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText("Quais são os direitos?")
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)

    window.left_tabs.tabBar().setFocus(Qt.FocusReason.TabFocusReason)
    before_transcript = press_tab_until(qtbot, window, window.chat.view)
    assert before_transcript[:4] == ["QTabBar", "QPushButton", "QPushButton", "QLineEdit"]
    view = window.chat.view
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.textCursor().charFormat().anchorHref() == "cite:0/1"
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.textCursor().charFormat().anchorHref() == "cite:0/2"
    with qtbot.waitSignal(window.viewer.passageShown, timeout=10_000) as shown:
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert shown.args == [10]
    assert window.viewer.citation is not None and window.viewer.citation.number == 2

    press_tab_until(qtbot, window, window.viewer.pdf_view)
    qtbot.wait(100)
    frame = window.viewer.pdf_view.viewport().grab().toImage().copy(0, 0, 3, 200)
    highlight = window.palette().color(QPalette.ColorRole.Highlight)
    assert has_color_near(frame, highlight)  # the page shows that it has the focus
    zoom = window.viewer.pdf_view.effective_zoom()
    qtbot.keyClick(window.viewer.pdf_view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert window.viewer.pdf_view.effective_zoom() > zoom


def test_a_button_reached_by_tab_shows_a_focus_ring(qtbot) -> None:
    from desktop_app.gui.run import install_look

    install_look(QApplication.instance())
    window = MainWindow(GuiServices(build_app()))
    qtbot.addWidget(window)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    button = window.library.add_folder_button
    highlight = window.palette().color(QPalette.ColorRole.Highlight)
    assert not has_color_near(button.grab().toImage(), highlight, tolerance=30)
    window.library.add_files_button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(window.library.add_files_button, Qt.Key.Key_Tab)
    assert button.hasFocus()
    qtbot.wait(50)
    assert has_color_near(button.grab().toImage(), highlight, tolerance=30)
