"""Qt tests run offscreen; every test leaves the thread pool idle.

`gui_app` is a real `App` in the per-test ACERVO_HOME with the session embedder
pre-seeded (no model reload) and no LLM (sources-only answers: deterministic and fast).
"""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any QApplication exists

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from desktop_app.app import App, build_app  # noqa: E402


@pytest.fixture(autouse=True)
def _idle_thread_pool(qapp) -> Iterator[None]:
    yield
    from PySide6.QtCore import QThreadPool

    QThreadPool.globalInstance().waitForDone()


@pytest.fixture()
def gui_app(embedder) -> App:
    application = build_app(embedder=embedder)
    application.settings.llm_backend = "none"
    return application


@pytest.fixture()
def window(qtbot, gui_app: App):
    from desktop_app.gui.run import build_window

    main = build_window(gui_app)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    yield main
    main.workers.cancel_all()
    from PySide6.QtCore import QThreadPool

    QThreadPool.globalInstance().waitForDone()
