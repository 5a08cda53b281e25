"""Switching language and appearance while the window is in use: earlier answers, notices
and progress lines re-label; light/dark follows the Settings choice; Settings only lets
the chosen backend's fields be edited."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from services_double import ScriptedServices

from desktop_app.answer.events import (
    AnswerWarning,
    Citation,
    CitationEvent,
    Done,
    Token,
    WarningCode,
)
from desktop_app.app import build_app
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.services import GuiServices
from desktop_app.gui.settings_dialog import SettingsDialog
from desktop_app.ingest.events import FileStarted, PagesParsed
from desktop_app.memory.events import MemorySaved

pytestmark = pytest.mark.gui


CITED = Citation(number=1, doc_id="d1", chunk_id="d1:1", title="LGPD",
                 source_path="/nonexistent/lgpd.pdf", file_type="pdf", page=9, page_end=9,
                 char_start=0, char_end=10, score=0.5, legs=frozenset({"vector", "keyword"}),
                 snippet="O titular")


def answer(_cancel: Callable[[], bool]) -> Iterator[Any]:
    yield Token("O titular pode peticionar [1].")
    yield CitationEvent(CITED)
    yield MemorySaved(("m1",), "undo_x", ("Eu moro em Recife.",), ())
    yield Done(answer="O titular pode peticionar [1].", citations=(CITED,),
               warnings=(AnswerWarning(WarningCode.NO_SUPPORTING_EVIDENCE),
                         AnswerWarning(WarningCode.RERANKER_UNAVAILABLE, "rerank.onnx is missing")))


def test_switching_to_portuguese_relabels_earlier_answers_and_progress_lines(
        qtbot, tmp_path: Path) -> None:
    window = MainWindow(ScriptedServices(answer))
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.chat.busyChanged, timeout=10_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText("Quais são os direitos do titular?")
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    before = window.chat.view.toPlainText()
    assert "You" in before and "Sources" in before
    assert "found by keywords + meaning" in before
    assert "⚠ no supporting evidence in your documents" in before
    assert "⚠ reranker unavailable: rerank.onnx is missing" in before
    # a long ingestion in progress: its title and its row
    pdf = tmp_path / "bncc.pdf"
    window.library.progress_box.begin([pdf], lambda: window.library.tr("Adding documents…"))
    window.library.progress_box.on_event(FileStarted(str(pdf), 1, 1))
    window.library.progress_box.on_event(PagesParsed(str(pdf), 56, 472))
    assert window.library.progress.value() > 0  # parsing moves the overall bar
    hrefs_before = [h for _p, h in window.chat.view.anchor_positions()]

    window.translations.apply("pt_BR")
    try:
        qtbot.waitUntil(lambda: "Fontes" in window.chat.view.toPlainText(), timeout=5_000)
        after = window.chat.view.toPlainText()
        assert "Você" in after and "You " not in after and "Sources" not in after
        assert "encontrado por palavras-chave + significado" in after
        assert "O titular pode peticionar" in after  # the answer itself is unchanged
        # warnings are codes rendered at the edge: the parameter is kept, the words change
        assert "⚠ reordenador indisponível: rerank.onnx is missing" in after
        assert "reranker unavailable" not in after and "no supporting evidence" not in after
        assert [h for _p, h in window.chat.view.anchor_positions()] == hrefs_before
        assert window.chat.view.citation(0, 1) is not None  # badges still open sources
        assert window.chat.memory_label.text() == "Memória salva: Eu moro em Recife."
        box = window.library.progress_box
        assert box.title.text() == "Adicionando documentos…"
        assert box.row_status(str(pdf)) == "56 de 472 páginas lidas"
    finally:
        window.translations.apply("en")
    qtbot.waitUntil(lambda: "Sources" in window.chat.view.toPlainText(), timeout=5_000)


@pytest.mark.slow  # over a second: the full tier only
def test_appearance_follows_the_settings_choice(qtbot, qapp) -> None:
    from desktop_app.gui.run import install_look
    from desktop_app.gui.theme import ColorSchemeFollower, is_dark

    install_look(qapp)  # with the app's style sheet: styled widgets must follow too
    app = build_app()
    follower = qapp.findChild(ColorSchemeFollower)
    window = MainWindow(GuiServices(app))
    qtbot.addWidget(window)
    assert not is_dark(qapp.palette())  # the offscreen "OS" is light
    try:
        for theme, dark in (("dark", True), ("light", False), ("dark", True),
                            ("system", False)):
            dialog = SettingsDialog(app.settings)
            qtbot.addWidget(dialog)
            dialog.theme.setCurrentIndex(dialog.theme.findData(theme))
            dialog.accept()
            window.apply_settings(dialog.result_settings())
            assert is_dark(qapp.palette()) is dark, theme
            base = window.chat.view.palette().color(window.chat.view.palette().ColorRole.Base)
            assert (base.lightness() < 128) is dark, theme  # the transcript follows
            assert app.settings.theme == theme
    finally:
        follower.set_preference("system")
    assert not is_dark(qapp.palette())


def test_only_the_chosen_backends_fields_are_editable(qtbot) -> None:
    dialog = SettingsDialog(build_app().settings)
    qtbot.addWidget(dialog)
    assert dialog.backend.currentData() == "llama_cpp"
    assert not dialog.ollama_url.isEnabled() and not dialog.ollama_model.isEnabled()
    assert not dialog.allow_network.isEnabled()
    assert dialog.model_list.isEnabled() and dialog.n_threads.isEnabled()
    dialog.backend.setCurrentIndex(dialog.backend.findData("ollama"))
    assert dialog.ollama_url.isEnabled() and dialog.ollama_model.isEnabled()
    assert not dialog.model_list.isEnabled() and not dialog.add_model_button.isEnabled()
    dialog.backend.setCurrentIndex(dialog.backend.findData("none"))
    assert not dialog.ollama_url.isEnabled() and not dialog.answer_mode.isEnabled()
