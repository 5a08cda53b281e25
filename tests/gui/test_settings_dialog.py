"""Settings: nothing changes until OK; an off-machine Ollama URL needs "allow network"."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from desktop_app.app import build_app
from desktop_app.config.settings import load_settings
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.services import GuiServices
from desktop_app.gui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.gui


def test_a_remote_ollama_url_is_refused_until_network_is_allowed(qtbot, monkeypatch) -> None:
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _p, _t, text, *_a: warnings.append(text)))
    app = build_app()
    dialog = SettingsDialog(app.settings)
    qtbot.addWidget(dialog)
    dialog.backend.setCurrentIndex(dialog.backend.findData("ollama"))
    dialog.ollama_url.setText("http://10.0.0.5:11434")
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert warnings and "another computer" in warnings[0]
    assert app.settings.ollama_url == "http://127.0.0.1:11434"  # the live settings untouched

    dialog.allow_network.setChecked(True)
    assert "Not air-gapped" in dialog.network_warning.text()
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    edited = dialog.result_settings()
    assert (edited.llm_backend, edited.ollama_url, edited.allow_network) == (
        "ollama", "http://10.0.0.5:11434", True)


def test_applied_settings_are_saved_and_the_status_bar_leaves_offline(qtbot) -> None:
    app = build_app()
    window = MainWindow(GuiServices(app))
    qtbot.addWidget(window)
    assert window.offline_label.text() == "offline ✓"
    dialog = SettingsDialog(app.settings)
    qtbot.addWidget(dialog)
    dialog.backend.setCurrentIndex(dialog.backend.findData("none"))
    dialog.retrieval_k.setValue(7)
    dialog.retention.setValue(30)
    dialog.accept()
    window.apply_settings(dialog.result_settings())
    saved = load_settings(app.paths.settings_file)
    assert (saved.llm_backend, saved.retrieval_k, saved.memory_retention_days) == ("none", 7, 30)
    assert app.settings.retrieval_k == 7  # the live object the services hold was updated

    dialog = SettingsDialog(app.settings)
    qtbot.addWidget(dialog)
    dialog.backend.setCurrentIndex(dialog.backend.findData("ollama"))
    dialog.ollama_url.setText("http://10.0.0.5:11434")
    dialog.allow_network.setChecked(True)
    dialog.accept()
    window.apply_settings(dialog.result_settings())
    assert window.offline_label.text() != "offline ✓"


def test_a_model_without_a_template_asks_for_one_and_its_notes_follow_the_language(
        qtbot, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No chat template in the GGUF: the window asks which one (a typed error, not a match on
    the message's words); the notes on the choice are codes, shown in the window's language."""
    from PySide6.QtWidgets import QInputDialog

    from desktop_app.gui.i18n import Translations
    from tests.answer.conftest import write_gguf

    asked: list[str] = []
    shown: list[str] = []
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(
        lambda _p, _title, text, items, *_a: (asked.append(text), ("gemma", True))[1]))
    monkeypatch.setattr(QMessageBox, "information",
                        staticmethod(lambda _p, _t, text, *_a: shown.append(text)))
    base = write_gguf(tmp_path / "base.gguf")
    # a language switch reaches every window: earlier tests' closed windows (whose apps are
    # gone) must not react to it
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    translations = Translations()
    translations.apply("pt_BR")
    try:
        app = build_app()
        dialog = SettingsDialog(app.settings)
        qtbot.addWidget(dialog)
        assert dialog.add_model_from_path(str(base))
    finally:
        translations.apply("en")
    assert len(asked) == 1 and "no chat template" in asked[0]
    assert [m.chat_template for m in dialog.settings.models] == ["gemma"]
    assert "Você escolheu “gemma”" in shown[0]
    assert "não tem papel de sistema" in shown[0]
    assert "chosen by you" not in shown[0]
