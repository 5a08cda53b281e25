"""Switching language and appearance while the window is in use: earlier answers, notices,
progress lines and texts made of figures (the status bar's messages, receipts) re-label;
light/dark follows the Settings choice; Settings only lets the chosen backend's fields be
edited."""

from __future__ import annotations

import dataclasses
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
from desktop_app.ingest.events import FileStarted, PagesParsed, RunDone
from desktop_app.library.sync import SyncSummary
from desktop_app.memory.events import MemorySaved
from desktop_app.memory.recall import RecalledExchange

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


def test_texts_made_of_figures_are_reworded_by_a_live_language_switch(
        qtbot, tmp_path: Path) -> None:
    """A run's summary in the status bar and the progress box, the memory window's notes,
    receipts and recalled chats keep their figures and take the new language's words."""
    window = MainWindow(ScriptedServices(answer))
    qtbot.addWidget(window)
    window.show()
    window.translations.apply("en")  # as a window started in English (its plural forms)
    settings = window.services.settings
    library, status = window.library, window.statusBar()
    library.progress_box.begin([], lambda: library.tr("Adding documents…"))
    library.on_ingest_event(RunDone(indexed=3, skipped=1, failed=0, removed=2))
    summary = "3 indexed, 1 unchanged, 0 failed, 2 removed"
    assert status.currentMessage() == summary
    assert library.progress_box.title.text() == summary
    memory = window.memory_panel
    memory._show_note(lambda: memory.tr("Exported to %1").replace("%1", "/tmp/m.json"))
    recall = window.recall_view
    recall._loaded([RecalledExchange("e1", "c1", "", "2026-11-30T10:00:00Z",
                                     (("user", "Qual é o prazo?"),), ("m1",), 1.0)])
    recall.show_receipt({"memory_ids": [], "stores": {"messages": {"rows": 2}}})
    chat_row = recall.tree.topLevelItem(0)
    assert chat_row.text(0).startswith("Untitled chat — chat of ")
    assert chat_row.child(0).text(0) == "You: Qual é o prazo?"
    assert recall.receipt.text() == "Erased for good: 2 messages of yours."
    files = window.library_extras.show_status()  # Tools ▸ Library status…, left open
    qtbot.addWidget(files)
    assert files.summary.text() == "No files yet."

    # as Settings → OK does; Qt posts LanguageChange, so the panels re-word a moment later
    window.apply_settings(dataclasses.replace(settings.current, language="pt_BR"))
    pt_summary = "3 indexados, 1 sem mudanças, 0 com falha, 2 removidos"
    try:
        qtbot.waitUntil(lambda: library.progress_box.title.text() == pt_summary, timeout=5_000)
        assert status.currentMessage() == pt_summary
        assert window.ingest_bar.toolTip() == pt_summary
        assert memory.receipt.text() == "Exportado para /tmp/m.json"
        assert chat_row.text(0).startswith("Conversa sem título — conversa de ")
        assert chat_row.child(0).text(0) == "Você: Qual é o prazo?"
        assert recall.receipt.text() == "Apagado de vez: 2 mensagens suas."
        assert files.windowTitle() == "Estado da biblioteca"
        assert files.summary.text() == "Nenhum arquivo ainda."
        # messages shown after the switch follow the next one too
        window.library_extras.keeper._say(SyncSummary(added=["prazo.md"]))
        assert status.currentMessage() == "Pastas acompanhadas: 1 adicionado (prazo.md)"
    finally:
        window.apply_settings(dataclasses.replace(settings.current, language="en"))
    qtbot.waitUntil(lambda: library.progress_box.title.text() == summary, timeout=5_000)
    assert status.currentMessage() == "Watched folders: 1 added (prazo.md)"
    assert recall.receipt.text() == "Erased for good: 2 messages of yours."
    window.exports._written(tmp_path / "chat.md")
    window.translations.apply("pt_BR")  # the translators alone: LanguageChange re-words it
    try:
        qtbot.waitUntil(lambda: library.progress_box.title.text() == pt_summary,
                        timeout=5_000)
        assert status.currentMessage() == f"Exportado para {tmp_path / 'chat.md'}"
    finally:
        window.translations.apply("en")
    qtbot.waitUntil(lambda: library.progress_box.title.text() == summary, timeout=5_000)
    assert status.currentMessage() == f"Exported to {tmp_path / 'chat.md'}"
