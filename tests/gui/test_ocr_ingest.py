"""A 50-page scan dropped on the window: OCR runs in the ingest worker, the window keeps
answering while it does, the bar moves page by page, and Cancel stops it with nothing
half-indexed. Then an OCR'd passage opens in the viewer with its OCR line boxes painted."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QElapsedTimer, Qt, QTimer
from test_window import drop_files

from desktop_app.app import App, build_app
from desktop_app.gui.main_window import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.slow]


@pytest.fixture()
def gui_app(embedder: Any, ocr_engine: Any) -> App:
    """The window's app with the session's loaded OCR engine (tests/gui/conftest.py's, plus
    OCR)."""
    application = build_app(embedder=embedder, ocr_engine=ocr_engine)
    application.settings.llm_backend = "none"
    return application


@pytest.fixture(scope="module")
def fifty_page_scan(eval_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from desktop_app.ingest.pdf import import_pymupdf
    from desktop_app.ingest.scan import make_scanned_pdf

    folder = tmp_path_factory.mktemp("scan50")
    lgpd = eval_dir / "pdfs" / "pt" / "lgpd.pdf"
    make_scanned_pdf(lgpd, folder / "a.pdf", dpi=150, skew_degrees=0.5, noise=5)
    pymupdf = import_pymupdf()
    path = folder / "processo digitalizado.pdf"
    with pymupdf.open(folder / "a.pdf") as part, pymupdf.open() as out:
        out.insert_pdf(part)
        out.insert_pdf(part, from_page=0, to_page=23)
        out.save(path)
        assert out.page_count == 50
    return path


def test_a_fifty_page_scan_keeps_the_window_responsive_and_cancels(
        qtbot: Any, window: MainWindow, gui_app: App, ocr_engine: Any,
        fifty_page_scan: Path) -> None:
    with qtbot.waitSignal(window.modelsReady, timeout=180_000):
        window.start()
    library = window.library
    row = str(fifty_page_scan.resolve())

    drop_files(window, [fifty_page_scan])
    qtbot.waitUntil(lambda: "parsed 1 of 50 pages" in library.row_status(row), timeout=240_000)
    assert library.progress.value() > 0  # the bar moves while pages are read

    # While OCR runs in the worker, the GUI thread keeps serving its event loop: a 50 ms
    # timer keeps ticking (a blocked loop would show gaps of a whole page's OCR, seconds).
    ticks: list[int] = []
    clock = QElapsedTimer()
    clock.start()
    timer = QTimer()
    timer.setInterval(50)
    timer.timeout.connect(lambda: ticks.append(clock.elapsed()))
    timer.start()
    qtbot.wait(4000)
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) >= 20 and max(gaps) < 1500, (len(ticks), max(gaps, default=0))
    assert library.is_running()

    started = time.perf_counter()
    with qtbot.waitSignal(library.runFinished, timeout=120_000) as finished:
        qtbot.mouseClick(library.progress_box.cancel_button, Qt.MouseButton.LeftButton)
    assert finished.args[0].cancelled and finished.args[0].indexed == 0
    assert time.perf_counter() - started < 30
    assert gui_app.index.documents() == []  # nothing half-indexed
    assert library.progress_box.title.text().startswith("Cancelled")
    assert library.row_status(row) == "cancelled; nothing from this file was indexed"


def test_an_ocr_passage_opens_on_the_page_image_with_its_boxes(
        qtbot: Any, window: MainWindow, gui_app: App, ocr_engine: Any, eval_dir: Path,
        tmp_path: Path) -> None:
    from desktop_app.answer.citations import citation_from_hit
    from desktop_app.ingest.scan import make_scanned_pdf

    scan = tmp_path / "lgpd-p9.pdf"
    make_scanned_pdf(eval_dir / "pdfs" / "pt" / "lgpd.pdf", scan, dpi=200, pages=[8])
    events = list(gui_app.pipeline.run([scan]))
    assert events[-1].indexed == 1
    hits = gui_app.searcher.search("O titular dos dados pessoais tem direito a obter", k=3)
    citation = citation_from_hit(1, hits[0])
    assert citation.ocr_label.startswith("OCR ")

    viewer = window.viewer
    with qtbot.waitSignal(viewer.scanHighlighted, timeout=30_000) as painted:
        viewer.show_citation(citation)
    assert painted.args[0] >= 3  # one box per OCR line of the passage
    assert viewer.stack.currentWidget() is viewer.scan_view
    image = viewer.scan_image.pixmap().toImage()
    assert image.width() >= 400
    # the highlight is on the page: some pixels are tinted yellow (R,G high, B low)
    tinted = sum(1 for y in range(0, image.height(), 7) for x in range(0, image.width(), 7)
                 if (c := image.pixelColor(x, y)).blue() < 150 and c.red() > 200
                 and c.green() > 150)
    assert tinted > 50
