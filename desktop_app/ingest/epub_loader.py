"""E-books (EPUB), opened by PyMuPDF, which lays them out in pages like a PDF.

The pages are MuPDF's own layout of the book at a fixed page size (`LAYOUT`), so page
numbers stay the same between runs and a citation opens the page it names; the text is
read and cleaned by the PDF reader (`pdf.read_pages`: reading order, headings from the
type sizes). Before MuPDF sees the book, the package is checked against the limits
(`zipxml`: sizes, and for each XHTML file its elements, nesting and entity
declarations), and a book protected by DRM is refused with a sentence (its chapters are
encrypted: there is no text to read). Picture-only pages (covers) count as pages without
text; they are not sent to OCR.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO

from desktop_app.errors import LimitExceededError, UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.types import LoadedDocument, PageProgress
from desktop_app.ingest.zipxml import (
    ElementBudget,
    check_markup,
    local,
    open_package,
    parse_small,
)

KIND = "e-book"
LAYOUT = {"width": 420.0, "height": 595.0, "fontsize": 11.0}  # A5 at 11 pt
_MARKUP = (".xhtml", ".html", ".htm", ".xml", ".opf", ".ncx", ".svg")
# what publishers use to obfuscate embedded fonts: the text itself is not encrypted
_FONT_OBFUSCATION = ("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC")


def _blocks(fh: IO[bytes]) -> Iterator[bytes]:
    while block := fh.read(1 << 20):
        yield block


def _check_package(path: Path, deadline: limits.Deadline) -> None:
    name = path.name
    budget = ElementBudget(name)
    with open_package(path, KIND) as archive:
        members = archive.infolist()
        if not any(m.filename == "META-INF/container.xml" for m in members):
            raise UnreadableDocumentError(
                f"“{name}” is not a readable e-book (no EPUB container inside).")
        encryption = parse_small(archive, "META-INF/encryption.xml", name, KIND)
        if encryption is not None:
            methods = [e.get("Algorithm", "") for e in encryption.iter()
                       if local(e.tag) == "EncryptionMethod"]
            if any(m not in _FONT_OBFUSCATION for m in methods):
                raise UnreadableDocumentError(
                    f"“{name}” is protected by DRM (its chapters are encrypted), so there is "
                    "no text Acervo can read; nothing was indexed from it.")
        for info in members:
            if info.filename.lower().endswith(_MARKUP):
                with archive.open(info) as fh:
                    check_markup(_blocks(fh), name=name, budget=budget, deadline=deadline)


def load_epub(path: Path, *, progress: PageProgress | None = None,
              max_pages: int | None = None) -> LoadedDocument:
    """An .epub file laid out in pages (see the module docstring)."""
    from desktop_app.ingest.pdf import import_pymupdf, read_pages

    name = path.name
    deadline = limits.Deadline(name)
    _check_package(path, deadline)
    pymupdf = import_pymupdf()
    try:
        document = pymupdf.open(path, filetype="epub")
    except Exception as error:  # MuPDF: FileDataError, RuntimeError
        raise UnreadableDocumentError(
            f"“{name}” is not a readable e-book (damaged, or not an EPUB).",
            detail=f"{type(error).__name__}: {error}") from error
    with document:
        try:
            document.layout(**LAYOUT)
            count = document.page_count
        except Exception as error:
            raise UnreadableDocumentError(
                f"“{name}” is not a readable e-book (its pages could not be laid out).",
                detail=f"{type(error).__name__}: {error}") from error
        if document.needs_pass:
            raise UnreadableDocumentError(f"“{name}” is password-protected.")
        if count == 0:
            raise UnreadableDocumentError(f"“{name}” is an e-book with no pages.")
        if max_pages is not None and count > max_pages:
            raise LimitExceededError(
                f"“{name}” lays out to {count:,} pages, more than the limit of {max_pages:,} "
                "(Settings → maximum pages per document); nothing was indexed from it.")

        def checked(done: int, total: int) -> None:
            deadline.check()
            if progress is not None:
                progress(done, total)

        pages, empty, notes = read_pages(pymupdf, document, progress=checked,
                                          running_lines=False)
        title = " ".join(((document.metadata or {}).get("title") or "").split())
    # picture-only pages (a cover) are not scans waiting for OCR
    notes = [n for n in notes if not n.startswith("no text layer on")]
    if not any(page.text for page in pages):
        notes.append("no text found")
    return LoadedDocument(path=str(path), file_type="epub", title=title or path.stem,
                          pages=pages, notes=notes, empty_pages=empty)
