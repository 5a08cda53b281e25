"""OCR for scanned pages: RapidOCR with the PP-OCRv6 "small" ONNX models its wheel ships.

Chosen by measurement (bench/ocr.py, docs/measurements.md, "OCR of scans"): on scanned copies of the
LGPD, the LDB and BNCC pages it reads Portuguese with its accents (the model's alphabet has
ç ã õ â ê ô º ª; rapidocr-onnxruntime 1.4's Chinese model has none of them), and it keeps
reading struck-through lines — Brazilian laws from Planalto are full of them — where
Tesseract (through PyMuPDF) gave up on whole pages. The models are files inside the
`rapidocr` wheel; they are passed by path so RapidOCR's downloader is never reached.

A page is OCR'd when its text layer is missing (fewer than `MIN_PAGE_CHARS` characters on a
page with images) or garbage (replacement/private-use characters, no words). The result
keeps each word's box and confidence: `PageText.ocr` maps words to character spans of the
page text, so a chunk can carry the boxes of its own words (`attach_ocr`) for the viewer, and
its mean confidence for citations ("OCR 93%"). A page whose OCR finds no confident words (a
blank sheet, a photo) is reported, never indexed as junk.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import re
import statistics
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from desktop_app.errors import AppError
from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    document_vocabulary,
    normalize_line,
    pages_note,
    repeated_edge_lines,
    unwrap_lines,
)
from desktop_app.ingest.pdf import MIN_PAGE_CHARS, _heading_key
from desktop_app.ingest.pdf_layout import LayoutBlock, TextLine, merge_rows, split_block_paragraphs
from desktop_app.ingest.types import LoadedDocument, OcrText, PageText
from desktop_app.retrieval.types import Chunk

ENGINE_PACKAGE = "rapidocr"
ENGINE_ID = "rapidocr-3.10/PP-OCRv6-small"
MODEL_FILES = {
    "Det": "PP-OCRv6_det_small.onnx",
    "Rec": "PP-OCRv6_rec_small.onnx",
    "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}
OCR_MAX_SIDE = 2000  # RapidOCR shrinks larger images to this anyway: render at that size
MIN_LINE_CONFIDENCE = 0.5
MIN_PAGE_CONFIDENCE = 0.70  # char-weighted mean over the page's kept lines
MIN_PAGE_WORDS = 3  # words of ≥ 2 letters; fewer means a blank sheet or a photo
_WORD = re.compile(r"\S+")
_LETTERS = re.compile(r"[^\W\d_]{2,}")


class OcrUnavailableError(AppError):
    """The OCR engine or its model files are missing from this installation."""


@dataclass(frozen=True)
class OcrWord:
    text: str
    confidence: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of the page


@dataclass(frozen=True)
class OcrLine:
    text: str
    confidence: float
    box: tuple[float, float, float, float]
    words: tuple[OcrWord, ...]


@dataclass
class OcrPage:
    """What the engine read on one page (1-based `number`), lines in detection order."""

    number: int
    lines: list[OcrLine] = field(default_factory=list)

    @property
    def confidence(self) -> float:
        chars = sum(len(line.text) for line in self.lines)
        if not chars:
            return 0.0
        return sum(line.confidence * len(line.text) for line in self.lines) / chars

    @property
    def readable(self) -> bool:
        words = sum(len(_LETTERS.findall(line.text)) for line in self.lines)
        return words >= MIN_PAGE_WORDS and self.confidence >= MIN_PAGE_CONFIDENCE


def model_dir() -> Path:
    """Folder of the ONNX models inside the installed `rapidocr` package (never imported here)."""
    spec = importlib.util.find_spec(ENGINE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise OcrUnavailableError("OCR is not installed in this copy of Acervo "
                                  "(the rapidocr package is missing).")
    folder = Path(next(iter(spec.submodule_search_locations))) / "models"
    missing = [name for name in MODEL_FILES.values() if not (folder / name).is_file()]
    if missing:
        raise OcrUnavailableError(f"OCR model files are missing: {', '.join(missing)}.",
                                  detail=str(folder))
    return folder


class OcrEngine:
    """RapidOCR loaded on first use (≈1 s); one instance serves every ingest run."""

    id = ENGINE_ID

    def __init__(self, threads: int = 0, cv: ModuleType | None = None) -> None:
        self.threads = threads
        self.cv = cv  # RapidOCR's cv2: None is ingest/cv_lite (real OpenCV only to compare)
        self._engine: Any = None
        self._lock = threading.Lock()

    def load(self) -> Any:
        """Load the models now (the first `recognize` does it otherwise)."""
        with self._lock:
            if self._engine is None:
                folder = model_dir()
                # also when used as a library (bench, tests): see privacy/airgap.py
                os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
                params: dict[str, Any] = {f"{part}.model_path": str(folder / name)
                                          for part, name in MODEL_FILES.items()}
                params.update({
                    "Global.log_level": "warning", "Global.use_cls": False,
                    "Global.text_score": MIN_LINE_CONFIDENCE,
                    "Global.max_side_len": OCR_MAX_SIDE,
                    "EngineConfig.onnxruntime.intra_op_num_threads": self.threads or -1,
                })
                # RapidOCR runs on cv_lite instead of OpenCV (~150 MB left out of the
                # bundle); bound here in every install so the tests cover what ships
                from desktop_app.ingest import cv_lite

                with cv_lite.as_cv2(ENGINE_PACKAGE, self.cv):
                    from rapidocr import RapidOCR

                    self._engine = RapidOCR(params=params)
            return self._engine

    def recognize(self, image: Any, number: int = 1) -> OcrPage:
        """OCR an RGB/grey uint8 array; boxes come back as fractions of the image size."""
        engine = self.load()
        height, width = image.shape[:2]
        result = engine(image, return_word_box=True)
        page = OcrPage(number)
        if getattr(result, "boxes", None) is None or not result.txts:
            return page
        word_results = result.word_results or ()
        for index, (points, text, score) in enumerate(
                zip(result.boxes.tolist(), result.txts, result.scores, strict=False)):
            text = normalize_line(text)
            if not text:
                continue
            box = _fraction_box(points, width, height)
            words = []
            if index < len(word_results):
                for word_text, word_score, word_points in word_results[index]:
                    if word_text.strip() and word_points is not None:
                        words.append(OcrWord(word_text.strip(), float(word_score),
                                             _fraction_box(word_points, width, height)))
            if not words:
                words = [OcrWord(text, float(score), box)]
            page.lines.append(OcrLine(text, float(score), box, tuple(words)))
        return page


def _fraction_box(points: Sequence[Sequence[float]], width: int,
                  height: int) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return (max(0.0, min(xs) / width), max(0.0, min(ys) / height),
            min(1.0, max(xs) / width), min(1.0, max(ys) / height))


def render_page(page: Any, pymupdf: Any) -> Any:
    """A PDF (or image) page as an RGB array sized for the engine."""
    import numpy as np

    longest = max(page.rect.width, page.rect.height) or 1.0
    zoom = min(300 / 72, OCR_MAX_SIDE / longest)
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csRGB,
                             alpha=False)
    return np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(
        pixmap.height, pixmap.stride)[:, :pixmap.width * 3].reshape(
        pixmap.height, pixmap.width, 3)


def is_garbage_text(text: str) -> bool:
    """A text layer that cannot be real text: mostly replacement/private-use/control
    characters, or hardly any words (a broken font encoding, a bad OCR layer)."""
    visible = [ch for ch in text if not ch.isspace()]
    if len(visible) < 20:
        return False
    odd = sum(1 for ch in visible
              if ch == "\ufffd" or unicodedata.category(ch) in ("Co", "Cc", "Cs", "Cn"))
    if odd > 0.3 * len(visible):
        return True
    tokens = _WORD.findall(text)
    wordlike = sum(1 for token in tokens if _LETTERS.search(token))
    return len(tokens) >= 10 and wordlike < 0.3 * len(tokens)


@dataclass
class OcrRun:
    """OCR for one document: the engine plus the document's page budget and its report."""

    engine: OcrEngine
    budget: int
    pages: list[OcrPage] = field(default_factory=list)
    over_budget: list[int] = field(default_factory=list)
    unavailable: str = ""  # why OCR could not run here (engine or models missing)
    not_read: list[int] = field(default_factory=list)  # scanned pages skipped for that reason

    _texts: dict[int, PageText] | None = None

    @staticmethod
    def wants(scan_text: str | None) -> bool:
        """Should a page be OCR'd, given its text layer (None: not a scanned-looking page)?"""
        if scan_text is None:
            return False
        return (sum(not ch.isspace() for ch in scan_text) < MIN_PAGE_CHARS
                or is_garbage_text(scan_text))

    def read(self, page: Any, pymupdf: Any) -> OcrPage | None:
        """OCR one page (`page.number` is 0-based), or None once the budget is spent."""
        if len(self.pages) >= self.budget:
            self.over_budget.append(page.number + 1)
            return None
        if not self.unavailable:
            try:
                self.engine.load()
            except OcrUnavailableError as error:
                self.unavailable = error.user_message
        if self.unavailable:
            self.not_read.append(page.number + 1)
            return None
        result = self.engine.recognize(render_page(page, pymupdf), page.number + 1)
        self.pages.append(result)
        return result

    @property
    def unreadable(self) -> list[int]:
        return [page.number for page in self.pages if not page.readable]

    @property
    def reported(self) -> set[int]:
        """Pages that `notes()` already explains (no "no text layer" note for them)."""
        return set(self.unreadable) | set(self.over_budget) | set(self.not_read)

    def page_texts(self) -> dict[int, PageText]:
        """Clean text of every readable OCR'd page, by 1-based page number."""
        if self._texts is None:
            self._texts = {page.number: page for page in ocr_pages_text(self.pages)}
        return self._texts

    def notes(self) -> list[str]:
        """Lines for the file's status: what was read by OCR, and what could not be."""
        notes = []
        texts = self.page_texts()
        if texts:
            numbers = sorted(texts)
            mean = statistics.fmean(p.ocr.confidence for p in texts.values()  # type: ignore[union-attr]
                                    )
            notes.append(f"{pages_note('read by OCR:', numbers)} "
                         f"(confidence {round(100 * mean)}%)")
        if self.unreadable:
            notes.append(pages_note("OCR found no readable text on", self.unreadable))
        if self.not_read:
            notes.append(pages_note(f"{self.unavailable.rstrip('.')}; not read:", self.not_read))
        if self.over_budget:
            notes.append(pages_note(
                f"OCR page limit ({self.budget} per document) reached; not read:",
                self.over_budget))
        return notes


# ---- OCR lines → page text ------------------------------------------------------------

_PAGE_UNITS = 1000.0  # fraction boxes are scaled to a 1000-unit page for the layout rules
_BODY_SIZE = 10.0  # OCR has no font sizes: body-height lines are "10 pt" (see _text_lines)


def _text_lines(page: OcrPage) -> list[TextLine]:
    heights = [line.box[3] - line.box[1] for line in page.lines]
    median = max(statistics.median(heights), 1e-6) if heights else 1e-6
    lines = []
    for line, height in zip(page.lines, heights, strict=True):
        # a body-size line is "10 pt"; only clearly taller lines read as bigger type
        size = 10.0 if height < 1.4 * median else round(20 * height / median) / 2
        x0, y0, x1, y1 = (v * _PAGE_UNITS for v in line.box)
        chars = sum(1 for ch in line.text if not ch.isspace())
        lines.append(TextLine(line.text, x0, y0, x1, y1, size=size, chars=chars, bold_chars=0))
    return lines


def _blocks(lines: list[TextLine]) -> list[LayoutBlock]:
    """Lines grouped into blocks: a vertical gap over ~0.8 line heights starts a new one."""
    if not lines:
        return []
    rows = sorted(merge_rows(lines), key=lambda r: (r.y0, r.x0))
    height = statistics.median(r.y1 - r.y0 for r in rows)
    blocks: list[list[TextLine]] = [[rows[0]]]
    for row in rows[1:]:
        previous = blocks[-1][-1]
        if row.y0 - previous.y1 > 0.8 * height:
            blocks.append([row])
        else:
            blocks[-1].append(row)
    return [LayoutBlock(min(r.x0 for r in b), min(r.y0 for r in b), max(r.x1 for r in b),
                        max(r.y1 for r in b), rows=b) for b in blocks]


def _align_words(text: str, page: OcrPage) -> OcrText:
    """Map OCR words onto the assembled page text (cleaning joined hyphenated words and
    dropped running headers, so the two sequences are aligned rather than assumed equal)."""
    tokens = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    words = [word for line in page.lines for word in line.words]

    def key(token: str) -> str:
        return "".join(ch for ch in token.casefold() if ch.isalnum())

    matcher = difflib.SequenceMatcher(None, [key(w.text) for w in words],
                                      [key(text[s:e]) for s, e in tokens], autojunk=False)
    spans: list[tuple[int, int, float, tuple[float, float, float, float]]] = []
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            word = words[a + k]
            start, end = tokens[b + k]
            spans.append((start, end, word.confidence, word.box))
    spans.sort()
    return OcrText(confidence=round(page.confidence, 4), words=tuple(spans))


def ocr_pages_text(pages: Sequence[OcrPage]) -> list[PageText]:
    """Readable OCR pages → clean `PageText`s (running headers/footers removed across
    pages, paragraphs unwrapped with the document's own vocabulary)."""
    readable = [page for page in pages if page.readable]
    per_page = [sorted(merge_rows(_text_lines(page)), key=lambda r: (r.y0, r.x0))
                for page in readable]
    # page numbers, not list positions, decide whether "3/26" and "5/26" run with the pages
    first = min((page.number for page in readable), default=1)
    slots: list[list[str]] = [[] for _ in range(max((p.number for p in readable), default=0)
                                                 - first + 1)]
    for page, rows in zip(readable, per_page, strict=True):
        slots[page.number - first] = [row.text for row in rows]
    repeated = repeated_edge_lines(slots)
    drop = [repeated[page.number - first] for page in readable]
    vocabulary = document_vocabulary(row.text for rows in per_page for row in rows)
    # headings by the PDF loader's rules (legal "CAPÍTULO II", clearly bigger type)
    pages_blocks = [_blocks([row for i, row in enumerate(rows) if i not in dropped])
                    for rows, dropped in zip(per_page, drop, strict=True)]
    keys = [[_heading_key(block, _BODY_SIZE) for block in blocks] for blocks in pages_blocks]
    levels = {key: level for level, key in enumerate(
        sorted({key for page_keys in keys for key in page_keys if key}), start=1)}
    out: list[PageText] = []
    for page, blocks, page_keys in zip(readable, pages_blocks, keys, strict=True):
        paragraphs: list[Paragraph] = []
        for block, key in zip(blocks, page_keys, strict=True):
            if key is not None:
                paragraphs.append(Paragraph(" ".join(row.text for row in block.rows), levels[key]))
                continue
            paragraphs += [Paragraph(unwrap_lines(lines, full, vocabulary))
                           for lines, full in split_block_paragraphs(block)]
        assembled = assemble_page(page.number, [p for p in paragraphs if p.text.strip()])
        assembled.ocr = _align_words(assembled.text, page)
        out.append(assembled)
    return out


# ---- chunk metadata ---------------------------------------------------------------------


def _line_rects(boxes: list[tuple[float, float, float, float]]) -> list[list[float]]:
    """Word boxes merged into one rectangle per text line (what the viewer paints)."""
    rects: list[list[float]] = []
    for x0, y0, x1, y1 in boxes:
        if rects:
            last = rects[-1]
            overlap = min(last[3], y1) - max(last[1], y0)
            if overlap > 0.5 * min(last[3] - last[1], y1 - y0):
                last[0], last[1] = min(last[0], x0), min(last[1], y0)
                last[2], last[3] = max(last[2], x1), max(last[3], y1)
                continue
        rects.append([x0, y0, x1, y1])
    return rects


def attach_ocr(doc: LoadedDocument, chunks: Sequence[Chunk]) -> list[Chunk]:
    """Give chunks drawn from OCR pages their confidence and word boxes.

    `ocr_boxes` is JSON: `[[page, x0, y0, x1, y1], ...]`, one rectangle per text line the
    chunk covers, as fractions of the page (any render size can draw them).
    """
    by_number = {page.number: page for page in doc.pages}
    out: list[Chunk] = []
    for chunk in chunks:
        numbers = [n for n in range(chunk.page_start, chunk.page_end + 1)
                   if n in by_number and by_number[n].ocr is not None]
        if not numbers:
            out.append(chunk)
            continue
        confidences: list[tuple[float, int]] = []
        rects: list[list[float]] = []
        for number in numbers:
            page = by_number[number]
            assert page.ocr is not None
            low = chunk.char_start if number == chunk.page_start else 0
            high = chunk.char_end if number == chunk.page_end else len(page.text)
            boxes = []
            for start, end, confidence, box in page.ocr.words:
                if start >= low and end <= high:
                    boxes.append(box)
                    confidences.append((confidence, end - start))
            rects += [[number, *(round(v, 4) for v in rect)] for rect in _line_rects(boxes)]
        chars = sum(n for _, n in confidences)
        confidence = (sum(c * n for c, n in confidences) / chars if chars
                      else min(by_number[n].ocr.confidence for n in numbers))  # type: ignore[union-attr]
        out.append(replace(chunk, ocr_confidence=round(confidence, 4),
                           ocr_boxes=json.dumps(rects, separators=(",", ":"))))
    return out


def parse_boxes(ocr_boxes: str) -> list[tuple[int, float, float, float, float]]:
    """`Chunk.ocr_boxes` back as (page, x0, y0, x1, y1) tuples; [] when absent or damaged."""
    try:
        rows = json.loads(ocr_boxes) if ocr_boxes else []
        return [(int(r[0]), float(r[1]), float(r[2]), float(r[3]), float(r[4])) for r in rows]
    except (ValueError, TypeError, IndexError):
        return []
