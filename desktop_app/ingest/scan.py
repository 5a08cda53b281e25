"""Image-only copies of PDFs, as a flatbed scanner would make them, and their scoring.

Used by the OCR benchmark, the OCR tests and `--self-test` to get scans whose true text is
known (the original's text layer): each page is rasterized at `dpi`, optionally turned by a
small angle and given sensor noise, saved as a JPEG (what scanners write) and placed on a
page of the same size in a new PDF that has no text layer at all. `word_f1` scores what OCR
read against that true text.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from desktop_app.ingest.pdf import import_pymupdf

_WORD = re.compile(r"\w+")


def word_counts(text: str) -> Counter[str]:
    """Words as OCR is scored: runs of letters/digits, case and accents kept ("Seção" ≠
    "Secao" ≠ "seção"), punctuation ignored."""
    return Counter(_WORD.findall(text))


def word_f1(reference: str, hypothesis: str) -> float:
    """Bag-of-words F1 of `hypothesis` against `reference` (1.0 = every word, exactly)."""
    return f1_from_counts(*overlap(word_counts(reference), word_counts(hypothesis)))


def overlap(reference: Counter[str], hypothesis: Counter[str]) -> tuple[int, int, int]:
    """(words in common, reference words, hypothesis words) for micro-averaging."""
    return (sum((reference & hypothesis).values()), sum(reference.values()),
            sum(hypothesis.values()))


def f1_from_counts(common: int, reference: int, hypothesis: int) -> float:
    if not common:
        return 0.0
    precision, recall = common / hypothesis, common / reference
    return 2 * precision * recall / (precision + recall)


def _raster(pymupdf: Any, document: Any, number: int, dpi: int, angle: float) -> Any:
    """The page as a grey pixmap, turned by `angle` degrees (a skewed sheet on the glass)."""
    page = document[number]
    if not angle:
        return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    with pymupdf.open() as holder:
        turned = holder.new_page(width=page.rect.width, height=page.rect.height)
        turned.show_pdf_page(turned.rect, document, number, rotate=angle)
        return turned.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)


def _noisy(pymupdf: Any, pixmap: Any, sigma: float, seed: int) -> Any:
    """Gaussian sensor noise of standard deviation `sigma` (grey levels)."""
    import numpy as np

    pixels = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(
        pixmap.height, pixmap.stride)[:, :pixmap.width].astype(np.float32)
    pixels += np.random.default_rng(seed).normal(0.0, sigma, pixels.shape)
    data = np.clip(pixels, 0, 255).astype(np.uint8).tobytes()
    return pymupdf.Pixmap(pymupdf.csGRAY, pixmap.width, pixmap.height, data, 0)


def make_scanned_pdf(source: Path, target: Path, *, dpi: int = 200,
                     pages: Sequence[int] | None = None, skew_degrees: float = 0.0,
                     noise: float = 0.0, seed: int = 0) -> list[int]:
    """Write an image-only copy of `source` (0-based `pages`, default all); returns them.

    With `skew_degrees`, each page is turned by a random angle in ±`skew_degrees`.
    """
    pymupdf = import_pymupdf()
    rng = random.Random(seed)
    with pymupdf.open(source) as original, pymupdf.open() as scanned:
        chosen = list(range(original.page_count)) if pages is None else list(pages)
        for number in chosen:
            page = original[number]
            angle = rng.uniform(-skew_degrees, skew_degrees) if skew_degrees else 0.0
            pixmap = _raster(pymupdf, original, number, dpi, angle)
            if noise:
                pixmap = _noisy(pymupdf, pixmap, noise, seed + number)
            out = scanned.new_page(width=page.rect.width, height=page.rect.height)
            out.insert_image(out.rect, stream=pixmap.tobytes("jpg", jpg_quality=85))
        target.parent.mkdir(parents=True, exist_ok=True)
        scanned.save(target, garbage=3, deflate=True)
    return chosen


def text_page_pdf(target: Path, lines: Sequence[str], *, fontsize: float = 12) -> None:
    """A one-page A4 PDF with `lines` as real text (a source for a scan in the self-test)."""
    pymupdf = import_pymupdf()
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        y = 90.0
        for line in lines:
            page.insert_text((72, y), line, fontsize=fontsize, fontname="helv")
            y += fontsize * 1.6
        document.save(target)
