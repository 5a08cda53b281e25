"""A team library in the window: added in Settings (password to the secret store), browsed
in the Library panel, searched with the local library; its sources carry the library's name
and, when the file is not on this computer, the viewer shows the text stored on the server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gui_helpers import click_anchor
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox

from desktop_app.app import App
from desktop_app.config.settings import TeamLibrary
from desktop_app.gui.library_settings import TeamLibraryDialog
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.gui

HANDBOOK = """# Manual de diárias

A diária de viagem nacional é de trezentos e vinte reais por dia de deslocamento.
Viagens internacionais seguem a tabela do decreto, em dólares, com adicional de embarque.
"""


def _settings_with_team(window: MainWindow, library: TeamLibrary, password: str) -> None:
    dialog = SettingsDialog(window.services.settings.current,
                            library_tester=window.services.settings.test_library)
    dialog.libraries.add(library, password)
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    window.apply_settings(dialog.result_settings(), passwords=dialog.libraries.passwords,
                          renamed=dialog.libraries.renamed)


@pytest.mark.slow  # over a second: the full tier only
def test_the_library_dialog_tests_the_connection_and_guards_the_air_gap(
        qtbot, gui_app: App, team_db, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.gui.services import GuiServices

    services = GuiServices(gui_app)
    dialog = TeamLibraryDialog(None, ["equipe"], tester=services.settings.test_library)
    qtbot.addWidget(dialog)
    dialog.name.setText("sede")
    dialog.url.setText("postgresql://ana:segredo@db.unit.example/acervo")
    assert dialog.allow.isVisible() is False or dialog.allow.text().count("db.unit.example")
    assert "another computer" in dialog.warning.text()
    assert "Acervo stays offline" in dialog.problem()
    dialog.allow.setChecked(True)
    assert dialog.problem() == "" and "Not air-gapped" in dialog.warning.text()
    assert dialog.library().url == "postgresql://ana@db.unit.example/acervo"
    assert dialog.password() == "segredo"

    dialog.url.setText(team_db.url("ana"))
    dialog.password_edit.setText("wrong")
    dialog.test_connection()
    assert dialog.test_result.text().startswith("✗ Cannot connect")
    dialog.password_edit.setText("ana-senha-1")
    dialog.test_connection()
    assert dialog.test_result.text().startswith("✓ ana@127.0.0.1")
    dialog.name.setText("equipe")
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _p, _t, text, *_a: warnings.append(text)))
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted and "already" in warnings[0]


@pytest.mark.slow  # over a second: the full tier only
def test_a_team_library_searched_with_badges_and_stored_text(
        qtbot, window: MainWindow, gui_app: App, team_db, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(window.modelsReady, timeout=120_000):
        window.start()
    library = TeamLibrary("equipe", team_db.url("ana"), collection="leis")
    _settings_with_team(window, library, "ana-senha-1")
    settings_file = gui_app.paths.settings_file.read_text(encoding="utf-8")
    assert "ana-senha-1" not in settings_file
    assert json.loads(settings_file)["team_libraries"][0]["name"] == "equipe"
    assert gui_app.secrets.get("team-library:equipe") == "ana-senha-1"
    assert window.offline_label.text() == "offline ✓"  # the server is on this computer

    # the Library panel switches to the team library and adds a file there
    combo = window.library.library_combo
    assert combo.isVisible() and combo.count() == 2
    combo.setCurrentIndex(combo.findData("equipe"))
    handbook = tmp_path / "manual-de-diarias.md"
    handbook.write_text(HANDBOOK, encoding="utf-8")
    with qtbot.waitSignal(window.library.runFinished, timeout=120_000) as finished:
        window.library.add_paths([handbook])
    assert finished.args[0].indexed == 1
    qtbot.waitUntil(lambda: window.library.model.rowCount() == 1, timeout=30_000)
    assert window.index_label.text().startswith("equipe: 1 document")
    handbook.unlink()  # the analyst who added it kept it on their own computer

    window.chat.sources_only.setChecked(True)
    with qtbot.waitSignal(window.chat.busyChanged, timeout=60_000,
                          check_params_cb=lambda busy: busy is False):
        window.chat.question.setPlainText("Qual o valor da diária de viagem nacional?")
        qtbot.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
    view = window.chat.view
    assert "trezentos e vinte reais" in view.toPlainText()
    assert "📚 equipe" in view.toPlainText()
    href = next(h for _p, h in view.anchor_positions() if h.startswith("cite:"))
    with qtbot.waitSignal(window.viewer.passageShown, timeout=30_000):
        click_anchor(qtbot, view, href)
    viewer = window.viewer
    assert viewer.location.text().startswith("Team library “equipe” · Page 1")
    assert "not on this computer" in viewer.location.text()
    assert not viewer.open_button.isEnabled()
    assert "trezentos e vinte reais" in viewer.text_view.toPlainText()
    assert "Viagens internacionais" in viewer.text_view.toPlainText()


def test_a_remote_team_server_is_named_in_the_status_bar(qtbot, window: MainWindow) -> None:
    library = TeamLibrary("sede", "postgresql://ana@db.unit.example/acervo",
                          allow_network=True)
    _settings_with_team(window, library, "segredo-1")
    assert window.offline_label.text() == "network: team server db.unit.example only ⚠"
    assert "db.unit.example (sede)" in window.offline_label.toolTip()
    from desktop_app.privacy.airgap import current_guard

    guard = current_guard()
    assert guard is not None and guard.is_allowed("db.unit.example")
    dialog = SettingsDialog(window.services.settings.current)
    dialog.libraries.list.setCurrentRow(0)
    dialog.libraries.remove_selected()
    dialog.accept()
    window.apply_settings(dialog.result_settings(), passwords=dialog.libraries.passwords)
    assert window.offline_label.text() == "offline ✓"
    assert not guard.is_allowed("db.unit.example")
    assert window.services.app.secrets.get("team-library:sede") is None


def test_removing_documents_acts_on_the_library_shown_and_respects_read_only(
        gui_app: App, team_db, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The Library panel's multi-select removal works on the library it shows: with a team
    library selected it removes from the server (not from this computer's index), and a
    read-only team library refuses before anything is touched."""
    from desktop_app.errors import AppError
    from desktop_app.gui.services import GuiServices
    from desktop_app.team.connection import secret_key

    gui_app.settings.team_libraries = [
        TeamLibrary("equipe", team_db.url("ana"), collection="leis"),
        TeamLibrary("consulta", team_db.url("bia"), read_only=True)]  # bia only reads leis
    gui_app.secrets.set(secret_key("equipe"), "ana-senha-1")
    gui_app.secrets.set(secret_key("consulta"), "bia-senha-2")
    library = GuiServices(gui_app).library
    team_file, local_file = tmp_path / "portaria-de-ferias.md", tmp_path / "nota-local.md"
    team_file.write_text("# Portaria de férias\n\nAs férias de servidores são marcadas "
                         "com sessenta dias de antecedência pela chefia imediata.\n",
                         encoding="utf-8")
    local_file.write_text("# Nota local\n\nO arquivo local fica neste computador e nunca "
                          "vai para o servidor da equipe.\n", encoding="utf-8")
    library.set_library("equipe")
    assert list(library.ingest([team_file], lambda: False))[-1].indexed == 1
    team_doc = next(d.doc_id for d in library.documents() if d.title == "Portaria de férias")
    library.set_library("local")
    assert list(library.ingest([local_file], lambda: False))[-1].indexed == 1
    local_docs = [d.doc_id for d in library.documents()]

    library.set_library("consulta")
    assert team_doc in [d.doc_id for d in library.documents()]  # bia sees it…
    with pytest.raises(AppError, match="read-only"):  # …and may not remove it
        library.remove_documents([team_doc], purge_chats=False)
    library.set_library("equipe")
    assert team_doc in [d.doc_id for d in library.documents()]

    summary = library.remove_documents([team_doc], purge_chats=False)
    assert summary.documents == 1
    assert team_doc not in [d.doc_id for d in library.documents()]  # gone from the server
    library.set_library("local")
    assert [d.doc_id for d in library.documents()] == local_docs  # this computer's untouched
