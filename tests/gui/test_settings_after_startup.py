"""Regression (issue 12): changing a model or memory setting in Settings after start-up
raised `AttributeError: property 'enabled' of 'MemoryService' object has no setter`, and
the LLM reload and the retranslation after it were skipped. Real window, real models: the
bundled SmolLM2 through llama.cpp, the e5 embedder, the LanceDB index and memory built."""

from __future__ import annotations

import dataclasses

import pytest

from desktop_app.app import build_app
from desktop_app.config.settings import Settings, load_settings

pytestmark = [pytest.mark.gui, pytest.mark.slow]


def test_model_and_memory_settings_change_after_the_models_loaded(qtbot, embedder) -> None:
    from desktop_app.gui.run import build_window

    app = build_app(settings=Settings(language="en"), embedder=embedder)
    window = build_window(app)
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.modelsReady, timeout=180_000):
        window.start()
    first_llm = app.built("llm")
    memory = app.built("memory")
    assert first_llm is not None and memory is not None, "the models were not loaded"
    assert app.chat.memory is memory  # memory on: the turn uses it
    assert window.chat.ask_button.text() == "Ask"

    new = dataclasses.replace(app.settings, memory_enabled=False, implicit_extraction=False,
                              memory_retention_days=30, temperature=0.4, language="pt_BR")
    try:
        with qtbot.waitSignal(window.modelsReady, timeout=180_000):
            window.apply_settings(new)  # raised AttributeError before the fix
        _check_rebuilt(qtbot, app, window, first_llm, memory)
    finally:
        window.translations.apply("en")  # the translator is process-wide
        window.workers.drain(10.0)  # background work ends while the stores are still open,
        qtbot.wait(200)  # and its results are delivered now, not after `app.close()`
        app.close()


def _check_rebuilt(qtbot, app, window, first_llm, memory) -> None:  # type: ignore[no-untyped-def]
    assert app.built("memory") is memory  # stores kept; switches read from live settings
    assert not memory.enabled and not memory.implicit and memory.retention_days == 30
    assert app.chat.memory is None  # the rebuilt turn leaves memory alone
    reloaded = app.built("llm")
    assert reloaded is not None and reloaded is not first_llm  # the LLM was loaded again
    assert getattr(reloaded, "temperature", 0.4) == 0.4
    assert window.translations.language.startswith("pt")  # the retranslation ran
    qtbot.waitUntil(lambda: window.chat.ask_button.text() == "Perguntar", timeout=5_000)
    saved = load_settings(app.paths.settings_file)
    assert (saved.memory_enabled, saved.temperature, saved.language) == (False, 0.4, "pt_BR")
