"""The library's reindex from the window: after an embedder switch the banner offers it, the
progress box walks through the documents, says when it is switching (no Cancel then) and ends
on a summary, not on a frozen "Reindexing 3 of 3…" with a greyed Cancel. A failure says that
it stopped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.errors import AppError
from desktop_app.gui import panel as panel_module
from desktop_app.retrieval.reindex import ReindexProgress
from tests.reindex_helpers import switched_app

pytestmark = pytest.mark.gui

@pytest.fixture
def switched_window(qtbot, tmp_path: Path, fp32_embedder: Any, embedder: Any) -> Iterator[Any]:
    """A library ingested with the previous default (fp32), opened in the window with today's."""
    from PySide6.QtCore import QThreadPool

    from desktop_app.gui.run import build_window

    app = switched_app(tmp_path / "docs", fp32_embedder, embedder)
    app.settings.llm_backend = "none"
    main = build_window(app)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    with qtbot.waitSignal(main.library.indexChanged, timeout=60_000):
        main.library.refresh()
    yield main
    main.workers.cancel_all()
    QThreadPool.globalInstance().waitForDone()


@pytest.mark.slow  # over a second: the full tier only
def test_reindex_ends_on_a_summary_and_the_banner_goes(qtbot, switched_window: Any) -> None:
    library = switched_window.library
    assert library.banner.isVisibleTo(library)
    titles: list[str] = []
    library.progress_box.activity.connect(titles.append)
    with qtbot.waitSignal(library.runningChanged, timeout=180_000,
                          check_params_cb=lambda running: not running):
        library.reindex_button.click()
    box = library.progress_box
    assert "Reindexing 3 of 3 documents…" in titles
    assert "Switching to the new index…" in titles
    assert box.title_text() == "Reindexed 3 documents; search uses the new index."
    assert box.bar.value() == 1000 and not box.cancel_button.isEnabled()
    assert switched_window.services.app.index.vector_usable
    qtbot.waitUntil(lambda: not library.banner.isVisibleTo(library), timeout=30_000)


def test_a_failed_reindex_says_it_stopped(qtbot, switched_window: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    library = switched_window.library
    shown: list[BaseException] = []
    monkeypatch.setattr(panel_module, "show_error", lambda _w, error, **_kw: shown.append(error))

    def failing(cancel: Any) -> Iterator[ReindexProgress]:
        yield ReindexProgress(1, 3)
        raise AppError("The disk is full. Nothing already stored was lost.")

    monkeypatch.setattr(library.services, "reindex", failing)
    with qtbot.waitSignal(library.runningChanged, timeout=60_000,
                          check_params_cb=lambda running: not running):
        library.start_reindex()
    box = library.progress_box
    assert [str(e) for e in shown] == ["The disk is full. Nothing already stored was lost."]
    assert box.title_text() == "Stopped: The disk is full. Nothing already stored was lost."
    assert not box.cancel_button.isEnabled()
    assert not switched_window.services.app.index.vector_usable  # the old index still serves
