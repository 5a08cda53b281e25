"""`load_document(path)`: one entry point for every supported file type.

Dispatches on the extension to PDF (`pdf.py`), DOCX (`docx_loader.py`), HTML
(`html_loader.py`), spreadsheets (`sheet_loaders.py`, `odf_loader.py`), slides
(`pptx_loader.py`), e-books (`epub_loader.py`), e-mail (`mail_loader.py`), OpenDocument
text (`odf_loader.py`) and plain text / Markdown (here). Every user-fixable problem — missing
file, folder, no permission, zero bytes, unsupported type, damaged or password-protected
file — becomes an `UnreadableDocumentError` with a message for the file's status line.
Text in any encoding is read: UTF-8 first, then charset-normalizer's guess (cp1252/Latin-1
preferred for Western text), then UTF-8 with replacement characters; guesses and
replacements are reported in `LoadedDocument.notes`. Binary data is refused as "not a text
file"; sizes and parse times are bounded by `limits`.
"""

from __future__ import annotations

import codecs
import re
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    normalize_line,
    repeated_edge_lines,
    split_paragraphs,
    unwrap_lines,
)
from desktop_app.ingest.types import LoadedDocument, PageProgress

if TYPE_CHECKING:
    from desktop_app.ingest.ocr import OcrRun

# What reading a file produces (its text, headings, list labels, chunks and structural
# paths) changes as the readers improve; a document keeps the version it was read with
# (`DocumentRecord.reader`), and one read by an older version is read again when its
# folder is next scanned, or by `desktop-app documents reread` (ingest/pipeline.py). `READER_VERSION`
# counts changes every type shares (cleaning, chunking, `text.structure`);
# `TYPE_READER_VERSIONS` a type's own loader. Raise one when what it stores changes.
# 1: the version of every document read before versions were kept (stored as 0);
# 2: a table of contents opens no section; capitals headings in PDFs; Word numbering
#    labels (docx 1); HTML list labels (html 1);
# 3: a chunk's overlap never starts inside a table row; a PDF's margin line numbers are
#    dropped, lines placed as blocks of their own join into their paragraphs, and a page
#    with /Rotate is read as displayed.
# 4: an article or "Parágrafo único" after a sentence's end keeps its own line (a justified
#    line had glued art. 37 to art. 36); a law's structure read in other print styles ("Art.
#    2º -", rubrics, "Artigo 1.º") and ended by its closing line before transitional
#    provisions (structural paths are stored with the chunks).
# pdf 1: a table cell's further lines, placed as lines of their own, join their cell.
# pdf 2: a cell of figures over sub-columns ruled only in the header is split into them,
#        and a header printed over several rows is folded into one.
# pdf 3: a title wrapped onto a line that reads as the running title keeps that line.
# xlsx 1, ods 1, csv 1, docx 2, html 2, odt 1: title lines above a sheet's table are not its
#        header, and a header over several rows (merged cells) is folded into one; an
#        HTML table's rowspan and colspan line its cells up with the header's.
READER_VERSION = 4
TYPE_READER_VERSIONS: dict[str, int] = {"docx": 2, "html": 2, "pdf": 3, "xlsx": 1, "ods": 1,
                                        "csv": 1, "odt": 1}


def reader_version(file_type: str) -> int:
    """The version of reading a file of `file_type` that this Acervo stores."""
    return READER_VERSION * 100 + TYPE_READER_VERSIONS.get(file_type, 0)


SUPPORTED_EXTENSIONS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".md": "md",
    ".markdown": "md",
    ".txt": "txt",
    ".html": "html",
    ".htm": "html",
    # scans, read by OCR (ingest/image_loader.py)
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".tif": "image",
    ".tiff": "image",
    # spreadsheets (row blocks: sheets.py), slides, e-books, e-mail, OpenDocument text
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".ods": "ods",
    ".csv": "csv",
    ".tsv": "csv",
    ".pptx": "pptx",
    ".epub": "epub",
    ".eml": "eml",
    ".mbox": "mbox",
    ".odt": "odt",
}
# The loader of each type that is not read here: (module, function) inside desktop_app.ingest.
_LOADERS: dict[str, tuple[str, str]] = {
    "docx": ("docx_loader", "load_docx"),
    "html": ("html_loader", "load_html"),
    "xlsx": ("sheet_loaders", "load_xlsx"),
    "csv": ("sheet_loaders", "load_csv"),
    "ods": ("odf_loader", "load_ods"),
    "odt": ("odf_loader", "load_odt"),
    "pptx": ("pptx_loader", "load_pptx"),
    "eml": ("mail_loader", "load_eml"),
}
WESTERN_ENCODINGS = ("utf_8", "cp1252", "latin_1", "iso8859_15", "mac_roman", "cp850")
REPLACED_NOTE = "some bytes could not be decoded and were replaced"
NO_TEXT_NOTE = "no text found"

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


NOT_TEXT = "is not a text file (it looks like binary data); nothing was indexed from it."
_LATIN_FAMILY = frozenset({"cp1252", "latin_1", "iso8859_15", "mac_roman", "cp850", "cp437",
                           "cp1250", "iso8859_2", "cp1257", "iso8859_13", "iso8859_16",
                           "mac_latin2", "cp858", "iso8859_3", "iso8859_4", "iso8859_9",
                           "cp1254", "iso8859_10", "iso8859_14", "cp1258", "mac_iceland",
                           "mac_turkish", "hp_roman8", "cp860", "cp863", "cp865"})
_PLAIN_CONTROLS = frozenset(b"\t\n\r\f\v\x1a\x1b")


def looks_binary(data: bytes) -> bool:
    """NUL bytes, or many control characters: an executable, an image, random bytes.

    (UTF-16/32 text has NULs too; it is recognised by its BOM before this is asked.)"""
    sample = data[:65536]
    if not sample:
        return False
    if b"\0" in sample:
        return True
    controls = sum(1 for b in sample if b < 32 and b not in _PLAIN_CONTROLS)
    return controls > max(2, len(sample) // 100)


def latin_plausibility(text: str) -> int:
    """How much a decoding of Western text reads like words (higher is better).

    Accented letters inside words count for (Latin-1 letters most: á, ç, ã, õ, ñ …);
    punctuation or symbols wedged between letters ("aÁ„o", Mac Roman read wrongly) and
    an upper-case accented letter right after a lower-case one count against; control
    characters count against the most.
    """
    score = 0
    for i, ch in enumerate(text):
        if ord(ch) < 128:
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        if ch.isalpha():
            score += 2 if "\u00c0" <= ch <= "\u00ff" else 1
            if ch.isupper() and before.islower():
                score -= 3
        elif unicodedata.category(ch).startswith("C"):
            score -= 4
        elif before.isalpha() and after.isalpha():
            score -= 3
        else:
            score -= 1
    return score


def _best_western(data: bytes, detected: str) -> tuple[str, str]:
    """Among cp1252 / Latin-1 / Mac Roman / the detected code page, the most plausible one.

    charset-normalizer reads short Portuguese Latin-1 text as Mac Roman ("aÁ„o") or
    cp1250 ("açăo"); for Portuguese, Spanish and French, cp1252 (a superset of Latin-1 in
    practice) is by far the likelier origin, so it wins ties.
    """
    candidates: list[tuple[int, int, str, str]] = []
    for order, encoding in enumerate(("cp1252", "latin_1", "mac_roman", detected)):
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        candidates.append((latin_plausibility(text), -order, encoding, text))
    _score, _order, encoding, text = max(candidates)
    return text, encoding


def decode_bytes(data: bytes, declared: str | None = None, *,
                 name: str = "the file") -> tuple[str, list[str]]:
    """Decode text of unknown encoding; returns the text and notes for the file's status.

    Order: a BOM, the `declared` encoding (HTML meta charset), strict UTF-8, UTF-8 with a
    few bad bytes (mostly-UTF-8 files keep their accents), charset-normalizer's best guess
    among Western code pages (then cp1252/Latin-1 preferred when they read at least as
    well), then among all. Binary data (NUL bytes, control characters) and bytes no
    encoding explains are refused as "not a text file" (`UnreadableDocumentError`).
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data.decode(encoding, errors="replace").lstrip("\ufeff")
            return text, [REPLACED_NOTE] if "\ufffd" in text else []
    if looks_binary(data):
        raise UnreadableDocumentError(f"“{name}” {NOT_TEXT}")
    if declared:
        try:
            return data.decode(declared), []
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    lenient = data.decode("utf-8", errors="replace")
    bad = lenient.count("\ufffd")
    multibyte = sum(1 for ch in lenient if ord(ch) > 127) - bad
    if multibyte > 0 and bad <= max(2, len(lenient) // 1000) and bad < multibyte:
        return lenient, [REPLACED_NOTE]
    from charset_normalizer import from_bytes

    # Western code pages first: unrestricted detection reads Portuguese cp1252 as cp1250
    # ("informaçăo"); truly foreign text scores badly there and falls through.
    best = from_bytes(data, cp_isolation=list(WESTERN_ENCODINGS)).best()
    if best is None or best.chaos > 0.1:
        best = from_bytes(data).best()
    if best is None or not best.encoding or best.chaos > 0.5:
        raise UnreadableDocumentError(f"“{name}” {NOT_TEXT}")
    found = codecs.lookup(best.encoding).name.replace("-", "_")
    if found in _LATIN_FAMILY or _reads_as_western(data):
        text, found = _best_western(data, found if found in _LATIN_FAMILY else "cp1252")
        return text, [f"encoding detected: {codecs.lookup(found).name}"]
    return str(best), [f"encoding detected: {codecs.lookup(best.encoding).name}"]


def _reads_as_western(data: bytes) -> bool:
    """Short accented Portuguese can look like Big5 or Shift-JIS to a statistical detector;
    text where accented letters are a minority of the letters and read as words is not."""
    text, _encoding = _best_western(data, "cp1252")
    letters = [ch for ch in text if ch.isalpha()]
    accented = sum(1 for ch in letters if ord(ch) > 127)
    return bool(letters) and accented <= 0.6 * len(letters) and latin_plausibility(text) > 0


def read_document_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except PermissionError as error:
        raise UnreadableDocumentError(
            f"“{path.name}” cannot be read: no permission to open it.", detail=str(error)
        ) from error
    except OSError as error:
        raise UnreadableDocumentError(
            f"“{path.name}” could not be read ({error.strerror or error}).", detail=str(error)
        ) from error


def _text_pages(text: str) -> list[list[str]]:
    """Pages of a plain text (form feeds split pages) as lists of lines."""
    return [page.split("\n") for page in text.replace("\r\n", "\n").replace("\r", "\n").split("\f")]


def _read_text(path: Path) -> tuple[str, list[str]]:
    size = path.stat().st_size
    if size > limits.MAX_TEXT_BYTES:
        raise limits.too_big(path.name, "is", size, limits.MAX_TEXT_BYTES)
    return decode_bytes(read_document_bytes(path), name=path.name)


def load_text(path: Path) -> LoadedDocument:
    """A .txt file: pages at form feeds, running headers removed, paragraphs unwrapped."""
    text, notes = _read_text(path)
    pages_lines = _text_pages(text)
    drop = repeated_edge_lines(pages_lines)
    pages = []
    for number, (lines, dropped) in enumerate(zip(pages_lines, drop, strict=True), start=1):
        kept = "\n".join(line for i, line in enumerate(lines) if i not in dropped)
        paragraphs = [Paragraph(unwrap_lines(block)) for block in split_paragraphs(kept)]
        pages.append(assemble_page(number, paragraphs))
    return _finish(LoadedDocument(
        path=str(path), file_type="txt", title=path.stem, pages=pages, notes=notes))


def _front_matter(lines: list[str]) -> tuple[list[str], str | None]:
    """Strip a leading YAML front matter block; return the remaining lines and its title."""
    if not lines or lines[0].strip() != "---":
        return lines, None
    for end in range(1, min(len(lines), 200)):
        if lines[end].strip() in ("---", "..."):
            title = None
            for line in lines[1:end]:
                match = re.match(r"^title:\s*(.+?)\s*$", line)
                if match:
                    title = match.group(1).strip("\"'")
            return lines[end + 1:], title
    return lines, None


def markdown_paragraphs(lines: list[str]) -> list[Paragraph]:
    """Markdown blocks: ATX/setext headings, fenced code kept verbatim, tables row by row."""
    paragraphs: list[Paragraph] = []
    block: list[str] = []

    def flush() -> None:
        if not block:
            return
        if any(line.lstrip().startswith("|") for line in block):
            rows = [line.strip() for line in block if not _TABLE_RULE.match(line)]
            paragraphs.append(Paragraph("\n".join(normalize_line(row) for row in rows)))
        else:  # a newline inside a Markdown paragraph is a space, unless it is a hard break
            hard_breaks = [line.endswith(("  ", "\\")) for line in block]
            lines = [line.rstrip().removesuffix("\\") for line in block]
            paragraphs.append(Paragraph(unwrap_lines(lines, [not b for b in hard_breaks])))
        block.clear()

    fence: str | None = None
    code: list[str] = []
    for line in lines:
        if fence is not None:
            if line.strip().startswith(fence):
                paragraphs.append(Paragraph("\n".join(code).strip("\n")))
                fence, code = None, []
            else:
                code.append(line.rstrip())
            continue
        fence_match = _FENCE.match(line)
        if fence_match:
            flush()
            fence = fence_match.group(1)[0] * 3
            continue
        heading = _ATX_HEADING.match(line)
        if heading:
            flush()
            paragraphs.append(Paragraph(normalize_line(heading.group(2)), len(heading.group(1))))
        elif _SETEXT_UNDERLINE.match(line) and len(block) == 1:
            level = 1 if line.strip().startswith("=") else 2
            paragraphs.append(Paragraph(normalize_line(block[0]), level))
            block.clear()
        elif line.strip():
            block.append(line)
        else:
            flush()
    flush()
    if code:
        paragraphs.append(Paragraph("\n".join(code)))
    return paragraphs


def load_markdown(path: Path) -> LoadedDocument:
    """A Markdown file as one page; headings from `#` lines (and setext underlines)."""
    text, notes = _read_text(path)
    lines, title = _front_matter(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    paragraphs = markdown_paragraphs(lines)
    if title is None and paragraphs and paragraphs[0].heading_level == 1:
        title = paragraphs[0].text
    page = assemble_page(1, paragraphs)
    return _finish(LoadedDocument(
        path=str(path), file_type="md", title=title or path.stem, pages=[page], notes=notes))


def _finish(document: LoadedDocument) -> LoadedDocument:
    if not any(page.text.strip() for page in document.pages) and not document.empty_pages:
        document.notes.append(NO_TEXT_NOTE)
    return document


def _loader_for(file_type: str) -> Callable[[Path], LoadedDocument]:
    if file_type in _LOADERS:
        import importlib

        module, function = _LOADERS[file_type]
        loader: Callable[[Path], LoadedDocument] = getattr(
            importlib.import_module(f"desktop_app.ingest.{module}"), function)
        return loader
    return load_markdown if file_type == "md" else load_text


def load_document(path: Path, *, progress: PageProgress | None = None,
                  max_pages: int | None = None, ocr: OcrRun | None = None) -> LoadedDocument:
    """Load any supported document, or raise `UnreadableDocumentError` saying why not.

    `progress(done, total)` is called after each PDF page (it may raise to cancel);
    a PDF with more than `max_pages` pages is refused before any page is parsed. With
    `ocr`, scanned PDF pages and image files are read by OCR (without it images are refused).
    """
    path = Path(path)
    name = path.name or str(path)
    try:
        info = path.stat()
    except FileNotFoundError as error:
        raise UnreadableDocumentError(f"“{name}” was not found (moved or deleted?).") from error
    except PermissionError as error:
        raise UnreadableDocumentError(f"“{name}” cannot be read: no permission to open it.") from error
    except OSError as error:  # e.g. a symlink loop (ELOOP)
        raise UnreadableDocumentError(
            f"“{name}” could not be opened ({error.strerror or error}).", detail=str(error)
        ) from error
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableDocumentError(f"“{name}” is a folder, not a document.")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableDocumentError(f"“{name}” is not a regular file.")
    file_type = SUPPORTED_EXTENSIONS.get(path.suffix.lower())
    if file_type is None:
        kind = f"“{path.suffix}” files are" if path.suffix else "Files without an extension are"
        raise UnreadableDocumentError(
            f"“{name}” was skipped: {kind} not supported (PDF, Word, OpenDocument, "
            "spreadsheets, slides, e-books, e-mail, Markdown, TXT, HTML and PNG/JPEG/TIFF "
            "scans are).")
    if info.st_size == 0:
        raise UnreadableDocumentError(f"“{name}” is empty (0 bytes).")
    try:
        with path.open("rb"):
            pass
    except PermissionError as error:
        raise UnreadableDocumentError(f"“{name}” cannot be read: no permission to open it.") from error
    except OSError as error:
        raise UnreadableDocumentError(
            f"“{name}” could not be opened ({error.strerror or error}).", detail=str(error)
        ) from error
    if file_type == "pdf":
        from desktop_app.ingest.pdf import load_pdf

        return load_pdf(path, progress=progress, max_pages=max_pages, ocr=ocr)
    if file_type == "image":
        from desktop_app.ingest.image_loader import load_image

        return load_image(path, progress=progress, max_pages=max_pages, ocr=ocr)
    if file_type == "epub":
        from desktop_app.ingest.epub_loader import load_epub

        return load_epub(path, progress=progress, max_pages=max_pages)
    if file_type == "mbox":
        from desktop_app.ingest.mail_loader import load_mbox

        return load_mbox(path, progress=progress, max_pages=max_pages)
    return _loader_for(file_type)(path)
