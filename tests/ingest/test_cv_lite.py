"""ingest/cv_lite.py against OpenCV itself, on real scanned pages.

cv_lite stands in for OpenCV under RapidOCR (the bundle ships without OpenCV); OpenCV stays
installed in the development environment as the reference these tests compare with. The
pages are scans (turned, noisy) of the LGPD made by ingest/scan.py, rendered as the OCR
engine renders them; the text-line boxes come from the page's own ink.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from desktop_app.ingest import cv_lite
from desktop_app.ingest.ocr import render_page
from desktop_app.ingest.pdf import import_pymupdf
from desktop_app.ingest.scan import make_scanned_pdf

cv2 = pytest.importorskip("cv2", reason="OpenCV is the reference cv_lite is compared with; "
                                        "it is not installed here")


@pytest.fixture(scope="module")
def page(eval_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    """A turned, noisy 200 dpi scan of an LGPD page, as the OCR engine gets it (RGB)."""
    scan = tmp_path_factory.mktemp("cv-lite") / "lgpd-scan.pdf"
    make_scanned_pdf(eval_dir / "pdfs" / "pt" / "lgpd.pdf", scan, dpi=200, pages=[9],
                     skew_degrees=1.0, noise=10.0, seed=3)
    pymupdf = import_pymupdf()
    with pymupdf.open(scan) as document:
        return np.array(render_page(document[0], pymupdf))


@pytest.fixture(scope="module")
def line_map(page: np.ndarray) -> np.ndarray:
    """Ink smeared into text lines: a binary map like the detector's, from the real page."""
    ink = (page.mean(axis=2) < 128).astype(np.uint8)
    return np.asarray(cv2.dilate(ink, np.ones((3, 15), np.uint8)))


def _boxes(contours: Any, module: Any) -> list[np.ndarray]:
    """Each contour's minimum-area rectangle as 4 corners, sorted (order is not compared)."""
    out = []
    for contour in contours:
        corners = module.boxPoints(module.minAreaRect(contour))
        out.append(np.array(sorted(map(tuple, np.asarray(corners, float).round(2)))))
    return sorted(out, key=lambda c: (round(c[:, 1].mean()), round(c[:, 0].mean())))


def test_resize_matches_opencv_on_a_page_and_its_lines(page: np.ndarray) -> None:
    # the detector's input size (multiple of 32) and recogniser crops 48 px high, both ways
    sizes = [(page, (1408, 1984)), (page, (704, 992))]
    for y in (300, 900, 1500):
        crop = page[y:y + 40, 150:1200]
        sizes += [(crop, (1260, 48)), (page[y:y + 70, 150:1200], (720, 48))]
    for image, size in sizes:
        ours, theirs = cv_lite.resize(image, size), cv2.resize(image, size)
        assert ours.shape == theirs.shape
        diff = np.abs(ours.astype(int) - theirs)
        assert diff.max() <= 1 and (diff > 0).mean() < 0.5, (image.shape, size)


def test_warp_of_text_lines_matches_opencv(page: np.ndarray, line_map: np.ndarray) -> None:
    contours = cv_lite.findContours(line_map, cv_lite.RETR_LIST, cv_lite.CHAIN_APPROX_SIMPLE)[0]
    boxes = [cv_lite.boxPoints(cv_lite.minAreaRect(c)) for c in contours]
    boxes = [b for b in boxes if np.ptp(b[:, 0]) > 60][:40]
    assert len(boxes) >= 20
    differing, total = 0, 0
    for box in boxes:
        box = box[np.lexsort((box[:, 0], box[:, 1]))]  # top pair, then bottom pair
        top, bottom = box[:2][np.argsort(box[:2, 0])], box[2:][np.argsort(box[2:, 0])]
        quad = np.float32([top[0], top[1], bottom[1], bottom[0]])
        width = int(np.linalg.norm(quad[0] - quad[1]))
        height = int(np.linalg.norm(quad[0] - quad[3]))
        target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        matrix = cv_lite.getPerspectiveTransform(quad, target)
        assert np.allclose(matrix, cv2.getPerspectiveTransform(quad, target), atol=1e-6)
        args: dict[str, Any] = {"borderMode": cv2.BORDER_REPLICATE, "flags": cv2.INTER_CUBIC}
        ours = cv_lite.warpPerspective(page, matrix, (width, height), **args)
        theirs = cv2.warpPerspective(page, matrix, (width, height), **args)
        diff = np.abs(ours.astype(int) - theirs)
        assert diff.max() <= 8
        differing += int((diff > 1).sum())
        total += diff.size
    assert differing / total < 0.02


def test_contours_give_opencvs_boxes(line_map: np.ndarray) -> None:
    ours = cv_lite.findContours(line_map * 255, cv_lite.RETR_LIST, cv_lite.CHAIN_APPROX_SIMPLE)[0]
    # cv_lite gives the components' outer shapes: OpenCV's outer borders are the reference
    theirs = cv2.findContours(line_map * 255, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    assert len(ours) == len(theirs) > 50
    mine, reference = _boxes(ours, cv_lite), _boxes(theirs, cv2)
    for a, b in zip(mine, reference, strict=True):
        assert np.abs(a - b).max() <= 0.51  # ties between equal rectangles round apart
    sides = sorted(min(cv_lite.minAreaRect(c)[1]) for c in ours)
    assert np.allclose(sides, sorted(min(cv2.minAreaRect(c)[1]) for c in theirs), atol=1e-3)


def test_dilate_and_box_scores_match_opencv(page: np.ndarray, line_map: np.ndarray) -> None:
    binary = (page.mean(axis=2) < 128).astype(np.uint8)
    kernel = np.array([[1, 1], [1, 1]])
    assert np.array_equal(cv_lite.dilate(binary, kernel), cv2.dilate(binary, kernel))
    score_map = 1 - page.mean(axis=2).astype(np.float32) / 255  # a probability-like map
    contours = cv_lite.findContours(line_map, cv_lite.RETR_LIST, cv_lite.CHAIN_APPROX_SIMPLE)[0]
    for contour in contours[:80]:
        box = np.asarray(cv_lite.boxPoints(cv_lite.minAreaRect(contour)))
        x0, y0 = np.floor(box.min(axis=0)).astype(int)
        x1, y1 = np.ceil(box.max(axis=0)).astype(int)
        points = (box - (x0, y0)).reshape(1, -1, 2).astype(np.int32)
        masks = [np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8) for _ in range(2)]
        cv_lite.fillPoly(masks[0], points, 1)
        cv2.fillPoly(masks[1], points, 1)
        region = score_map[y0:y1 + 1, x0:x1 + 1]
        if region.shape != masks[0].shape:
            continue  # a box over the page edge: RapidOCR clips those first
        assert (masks[0] != masks[1]).mean() < 0.02
        assert cv_lite.mean(region, masks[0])[0] == pytest.approx(
            cv2.mean(region, masks[1])[0], abs=0.01)


def test_colour_border_and_rotation_helpers_match_opencv(page: np.ndarray) -> None:
    # RapidOCR's input conversions (grey, RGB, alpha) and the padding of short images
    strip = page[1000:1024, 100:700]
    grey = np.ascontiguousarray(strip[:, :, 0])
    rgba = np.dstack([strip, grey])
    for code, image in ((cv2.COLOR_GRAY2BGR, grey), (cv2.COLOR_RGB2BGR, strip),
                        (cv2.COLOR_BGRA2BGR, rgba), (cv2.COLOR_RGBA2BGR, rgba)):
        assert np.array_equal(cv_lite.cvtColor(image, code), cv2.cvtColor(image, code))
    assert np.array_equal(cv_lite.copyMakeBorder(strip, 40, 40, 0, 0, cv_lite.BORDER_CONSTANT,
                                                 value=(0, 0, 0)),
                          cv2.copyMakeBorder(strip, 40, 40, 0, 0, cv2.BORDER_CONSTANT,
                                             value=(0, 0, 0)))
    assert np.array_equal(cv_lite.rotate(strip, cv_lite.ROTATE_180),
                          cv2.rotate(strip, cv2.ROTATE_180))
    alpha = grey[::-1].copy()
    assert np.array_equal(cv_lite.add(cv_lite.bitwise_and(grey, grey, mask=alpha),
                                      cv_lite.bitwise_not(alpha)),
                          cv2.add(cv2.bitwise_and(grey, grey, mask=alpha), cv2.bitwise_not(alpha)))


def test_rapidocr_gets_cv_lite_and_opencv_stays_opencv(ocr_engine: Any) -> None:
    ocr_engine.load()
    import rapidocr.ch_ppocr_det.utils as det_utils
    import rapidocr.utils.process_img as process_img

    assert det_utils.cv2 is cv_lite and process_img.cv2 is cv_lite
    assert sys.modules["cv2"] is cv2  # whoever imported OpenCV still has it
