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
