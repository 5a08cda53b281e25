"""OCR of scanned pages: real scans of real PDFs, the real engine and its shipped models.

Scans are made here from ../shared/eval PDFs (desktop_app/ingest/scan.py), so the true text
of every scanned page is the original's text layer.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from desktop_app.config.settings import Settings
from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.events import FileDone, FileFailed, PagesParsed, RunDone
from desktop_app.ingest.loaders import load_document
from desktop_app.ingest.ocr import OcrRun, attach_ocr, is_garbage_text, parse_boxes
from desktop_app.ingest.pdf import import_pymupdf
from desktop_app.ingest.scan import make_scanned_pdf, word_f1

pytestmark = pytest.mark.slow


def _lgpd(eval_dir: Path) -> Path:
    return eval_dir / "pdfs" / "pt" / "lgpd.pdf"


def _text_of(path: Path, page: int) -> str:
    with import_pymupdf().open(path) as document:
        return str(document[page].get_text())


def _image_pdf(path: Path, pages: list[Any]) -> Path:
    """A PDF whose pages are the given pixmaps (None: a blank white page image)."""
    pymupdf = import_pymupdf()
    with pymupdf.open() as document:
        for pixmap in pages:
            page = document.new_page(width=595, height=842)
            page.insert_image(page.rect, pixmap=pixmap)
        document.save(path)
    return path


def test_a_scanned_law_page_is_read_with_its_accents(eval_dir: Path, tmp_path: Path,
                                                     ocr_engine: Any) -> None:
    scan = tmp_path / "lgpd-p10.pdf"
    make_scanned_pdf(_lgpd(eval_dir), scan, dpi=200, pages=[9], skew_degrees=0.8, noise=6)

    document = load_document(scan, ocr=OcrRun(ocr_engine, budget=5))

    assert [page.number for page in document.pages] == [1] and document.empty_pages == []
    page = document.pages[0]
    assert page.ocr is not None and page.ocr.confidence > 0.9
    assert word_f1(_text_of(_lgpd(eval_dir), 9), page.text) >= 0.95
    for word in ("CAPÍTULO", "TRATAMENTO", "Seção", "informações", "públicas", "legislação"):
        assert word in page.text
    assert document.notes[0].startswith("read by OCR: page 1 (confidence ")
    assert document.ocr_engine.startswith("rapidocr")


def test_a_mixed_pdf_keeps_its_text_layer_and_ocrs_the_scanned_page(
        eval_dir: Path, tmp_path: Path, ocr_engine: Any) -> None:
    pymupdf = import_pymupdf()
    scan = tmp_path / "scan.pdf"
    make_scanned_pdf(_lgpd(eval_dir), scan, dpi=200, pages=[9])
    mixed = tmp_path / "misto.pdf"
    with pymupdf.open(_lgpd(eval_dir)) as original, pymupdf.open(scan) as scanned, \
            pymupdf.open() as out:
        out.insert_pdf(original, from_page=0, to_page=0)
        out.insert_pdf(scanned)
        out.save(mixed)

    document = load_document(mixed, ocr=OcrRun(ocr_engine, budget=5))
    chunks = attach_ocr(document, chunk_document(document, "doc"))

    assert [(p.number, p.ocr is None) for p in document.pages] == [(1, True), (2, False)]
    assert "Art. 1º Esta Lei dispõe sobre o tratamento de dados pessoais" in document.pages[0].text
    assert document.notes[0].startswith("read by OCR: page 2 ")
    text_chunks = [c for c in chunks if c.page_end == 1]
    ocr_chunks = [c for c in chunks if c.page_start == 2]
    assert text_chunks and all(c.ocr_confidence is None and c.ocr_boxes == "" for c in text_chunks)
    assert ocr_chunks and all(c.ocr_confidence is not None and c.ocr_confidence > 0.9
                              for c in ocr_chunks)
    # every chunk's boxes are on its page, inside the page, one per line it covers
    tops = []
    for chunk in ocr_chunks:
        boxes = parse_boxes(chunk.ocr_boxes)
        assert boxes and all(page == 2 and 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
                             for page, x0, y0, x1, y1 in boxes)
        lines = chunk.text.count("\n") + len(chunk.text) // 200
        assert len(boxes) >= max(1, lines // 2)
        tops.append(min(box[2] for box in boxes))
    assert tops == sorted(tops)  # later chunks are lower on the page


def test_blank_sheets_and_photos_are_reported_not_indexed(tmp_path: Path, ocr_engine: Any,
                                                          embedder: Any) -> None:
    import numpy as np

    pymupdf = import_pymupdf()
    blank = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 1240, 1754), 0)
    blank.set_rect(blank.irect, (255,))
    rng = np.random.default_rng(7)
    smooth = np.kron(rng.integers(0, 255, (40, 28)), np.ones((44, 44))).astype(np.uint8)
    photo = pymupdf.Pixmap(pymupdf.csGRAY, smooth.shape[1], smooth.shape[0], smooth.tobytes(), 0)
    path = _image_pdf(tmp_path / "fotos.pdf", [blank, photo])

    document = load_document(path, ocr=OcrRun(ocr_engine, budget=5))
    assert document.pages == [] and document.empty_pages == [1, 2]
    assert document.notes == ["OCR found no readable text on pages 1–2"]

    from desktop_app.app import build_app

    app = build_app(embedder=embedder, ocr_engine=ocr_engine)
    events = list(app.pipeline.run([path]))
    failed = [e for e in events if isinstance(e, FileFailed)]
    assert failed and "OCR found no readable text on pages 1–2" in failed[0].reason
    assert app.index.documents() == []


def test_the_page_budget_and_the_off_switch_are_reported(eval_dir: Path, tmp_path: Path,
                                                         ocr_engine: Any) -> None:
    scan = tmp_path / "lgpd-2p.pdf"
    make_scanned_pdf(_lgpd(eval_dir), scan, dpi=150, pages=[0, 25])

    limited = load_document(scan, ocr=OcrRun(ocr_engine, budget=1))
    assert [page.number for page in limited.pages] == [1] and limited.empty_pages == [2]
    assert limited.notes[1] == "OCR page limit (1 per document) reached; not read: page 2"
    assert len(limited.notes) == 2  # no extra "no text layer" note for the same page

    off = load_document(scan)
    assert off.pages == [] and off.notes == ["no text layer on pages 1–2"]


def test_an_image_file_goes_through_the_same_ocr(eval_dir: Path, tmp_path: Path,
                                                  ocr_engine: Any) -> None:
    pymupdf = import_pymupdf()
    with pymupdf.open(_lgpd(eval_dir)) as original:
        original[0].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY).save(tmp_path / "lgpd.png")
        reference = str(original[0].get_text())

    document = load_document(tmp_path / "lgpd.png", ocr=OcrRun(ocr_engine, budget=5))

    assert document.file_type == "image" and document.title == "lgpd"
    assert word_f1(reference, document.pages[0].text) >= 0.95
    with pytest.raises(UnreadableDocumentError, match="turned off"):
        load_document(tmp_path / "lgpd.png")  # OCR off: refused, with the way to turn it on
    (tmp_path / "falso.jpg").write_bytes(b"not a JPEG at all")
    with pytest.raises(UnreadableDocumentError, match="not a readable image"):
        load_document(tmp_path / "falso.jpg", ocr=OcrRun(ocr_engine, budget=5))


def test_a_garbage_text_layer_is_recognised() -> None:
    assert is_garbage_text("\ufffd\ufffd\ufffd \ufffd\ufffd " * 10)
    assert is_garbage_text("\ue001\ue002\ue003\ue004 " * 10)
    assert is_garbage_text(" ".join(["#$%", "12", "@!", "%%", "1.2"] * 5))
    assert not is_garbage_text("Art. 18. O titular dos dados pessoais tem direito a obter " * 2)
    assert not is_garbage_text("12/26")  # too short to judge


def test_a_scan_ingest_streams_page_progress_and_cancels_mid_document(
        eval_dir: Path, tmp_path: Path, ocr_engine: Any, embedder: Any) -> None:
    from desktop_app.app import build_app

    scan = tmp_path / "lgpd-scan.pdf"
    make_scanned_pdf(_lgpd(eval_dir), scan, dpi=150, pages=[0, 1, 2, 3, 4, 5])
    app = build_app(embedder=embedder, ocr_engine=ocr_engine)
    cancel = threading.Event()
    events: list[Any] = []
    cancelled_at = 0.0
    for event in app.pipeline.run([scan], cancel=cancel.is_set):
        events.append(event)
        if isinstance(event, PagesParsed) and event.pages_done == 1 and not cancel.is_set():
            cancel.set()
            cancelled_at = time.perf_counter()
    latency = time.perf_counter() - cancelled_at

    assert events[-1] == RunDone(0, 0, 0, 0, cancelled=True)
    assert not any(isinstance(e, FileDone) for e in events)
    assert max(e.pages_done for e in events if isinstance(e, PagesParsed)) < 6
    assert latency < 5  # the parse loop is left at once; the page being read ends alone
    assert app.index.documents() == []


def test_ocr_chunks_are_marked_in_the_index_and_in_search(eval_dir: Path, tmp_path: Path,
                                                         ocr_engine: Any, embedder: Any) -> None:
    from desktop_app.app import build_app

    scan = tmp_path / "lgpd-p10.pdf"
    make_scanned_pdf(_lgpd(eval_dir), scan, dpi=200, pages=[9])
    app = build_app(embedder=embedder, ocr_engine=ocr_engine)
    events = list(app.pipeline.run([scan]))
    done = [e for e in events if isinstance(e, FileDone)]
    assert done and done[0].notes[0].startswith("read by OCR: page 1")

    hits = app.searcher.search("serviços notariais e de registro", k=3)
    assert hits and hits[0].ocr_confidence is not None and hits[0].ocr_confidence > 0.9
    assert json.loads(hits[0].ocr_boxes)[0][0] == 1
    from desktop_app.answer.citations import citation_from_hit

    assert citation_from_hit(1, hits[0]).ocr_label.startswith("OCR ")
    # unchanged file: skipped; with OCR turned off the old result stays
    again = list(app.pipeline.run([scan]))
    assert again[-1].skipped == 1


def test_a_file_indexed_with_ocr_off_is_read_again_when_ocr_is_turned_on(
        eval_dir: Path, tmp_path: Path, ocr_engine: Any, embedder: Any) -> None:
    from desktop_app.app import build_app

    scan = tmp_path / "lgpd-misto.pdf"
    pymupdf = import_pymupdf()
    make_scanned_pdf(_lgpd(eval_dir), tmp_path / "p.pdf", dpi=150, pages=[1])
    with pymupdf.open(_lgpd(eval_dir)) as original, pymupdf.open(tmp_path / "p.pdf") as page, \
            pymupdf.open() as out:
        out.insert_pdf(original, from_page=0, to_page=0)
        out.insert_pdf(page)
        out.save(scan)
    app = build_app(embedder=embedder, ocr_engine=ocr_engine)
    app.settings.ocr_enabled = False
    first = list(app.pipeline.run([scan]))
    assert first[-1].indexed == 1
    assert app.index.documents()[0].notes == ("no text layer on page 2",)

    app.settings.ocr_enabled = True
    second = list(app.pipeline.run([scan]))
    assert second[-1].indexed == 1 and second[-1].skipped == 0
    assert len(app.index.documents()) == 1  # the version without OCR was replaced
    assert app.index.documents()[0].notes[0].startswith("read by OCR: page 2")


def test_settings_have_ocr_on_by_default_with_a_page_budget() -> None:
    settings = Settings()
    assert settings.ocr_enabled is True and settings.ocr_max_pages_per_document == 200
    assert Settings.from_dict({"ocr_enabled": False}).ocr_enabled is False


def test_ocr_writes_nothing_in_the_users_home(tmp_path: Path) -> None:
    """onnxruntime would write ~/.cache/Microsoft/DeveloperTools/.onnxruntime/deviceid (and
    carries telemetry) unless ORT_DISABLE_TELEMETRY is set: the engine sets it."""
    import os
    import subprocess
    import sys

    home = tmp_path / "home"
    home.mkdir()
    code = ("import numpy as np\n"
            "from desktop_app.ingest.ocr import OcrEngine\n"
            "page = OcrEngine().recognize(np.full((120, 400, 3), 255, np.uint8))\n"
            "print(len(page.lines))\n")
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    result = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parents[2],
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert list(home.rglob("*")) == []


def test_a_missing_ocr_engine_is_reported_not_a_crash(eval_dir: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.ingest import ocr
    from desktop_app.ingest.ocr import OcrEngine, OcrUnavailableError

    def missing() -> Path:
        raise OcrUnavailableError("OCR is not installed in this copy of Acervo.")

    monkeypatch.setattr(ocr, "model_dir", missing)
    scan = tmp_path / "scan.pdf"
    make_scanned_pdf(_lgpd(eval_dir), scan, dpi=100, pages=[0, 1])

    document = load_document(scan, ocr=OcrRun(OcrEngine(), budget=5))
    assert document.pages == [] and document.empty_pages == [1, 2]
    assert document.notes == ["OCR is not installed in this copy of Acervo; not read: pages 1–2"]
