"""Scans dropped as images (PNG, JPEG, TIFF — multi-page TIFFs too): every frame is a page
read by OCR, exactly like a scanned PDF page (ingest/ocr.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest.pdf import import_pymupdf
from desktop_app.ingest.types import LoadedDocument, PageProgress

if TYPE_CHECKING:
    from desktop_app.ingest.ocr import OcrRun

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".tif", ".tiff")


def load_image(path: Path, *, progress: PageProgress | None = None,
               max_pages: int | None = None, ocr: OcrRun | None = None) -> LoadedDocument:
    """OCR every frame of an image file; frames without readable text are reported."""
    name = path.name
    if ocr is None:
        raise UnreadableDocumentError(
            f"“{name}” is an image: its text can only be read with OCR, which is turned off "
            "(Settings → read scanned pages with OCR).")
    pymupdf = import_pymupdf()
    try:
        document = pymupdf.open(path)  # an image opens as a document, one page per frame
        if document.page_count:
            document.load_page(0)  # MuPDF decodes lazily: a bad file fails here
    except Exception as error:  # MuPDF raises FileDataError/RuntimeError/ValueError
        raise UnreadableDocumentError(
            f"“{name}” is not a readable image (the file is damaged or not an image).",
            detail=str(error)) from error
    with document:
        total = document.page_count
        if total == 0:
            raise UnreadableDocumentError(f"“{name}” is damaged: no image could be read.")
        if max_pages is not None and total > max_pages:
            raise UnreadableDocumentError(
                f"“{name}” has {total:,} pages, more than the limit of {max_pages:,} "
                "(Settings → maximum pages per document); nothing was indexed from it.")
        for index in range(total):
            ocr.read(document[index], pymupdf)
            if progress is not None:
                progress(index + 1, total)
    texts = ocr.page_texts()
    return LoadedDocument(
        path=str(path), file_type="image", title=path.stem,
        pages=[texts[number] for number in sorted(texts)], notes=ocr.notes(),
        empty_pages=[n for n in range(1, total + 1) if n not in texts],
        ocr_engine=ocr.engine.id if texts else "")
