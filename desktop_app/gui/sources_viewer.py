"""The sources viewer: the cited page of a PDF with the passage highlighted, or the text.

PDFs open in `PdfPageView` (pdf_view.py: QtPdf's view plus zoom, fit-width and painted
highlights). A citation is shown as a `Passage`: the page range, the cited text and,
when known, its character span in the clean page text. For a PDF the text is located on
each page of the range in the PDF's own text layer (`locate_passage`: word alignment
that survives line breaks, hyphenation and the cleaning done at ingest), and the
located characters' boxes, merged per line, are painted over the page: the whole cited
passage lightly, and the sentence the badge supports (the claim) strongly. A passage
read by OCR has no text on its page to locate: the page image (a scanned PDF page or an
image file) is shown with the passage's OCR line boxes painted on it. Other file
types show their clean text with the cited character range highlighted. "Open original"
hands the file to the system viewer, and says so when there is none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QImageReader,
    QKeySequence,
    QPainter,
    QPixmap,
    QShortcut,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtPdf import QPdfDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.answer.events import Citation, QuoteSpan
from desktop_app.gui.dialogs import open_with_system
from desktop_app.gui.pdf_view import PdfPageView, line_rects
from desktop_app.ingest.ocr import parse_boxes
from desktop_app.retrieval.index_api import without_ranges
from desktop_app.text.fold import fold

_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w+|§")  # "§ 1º" starts a legal paragraph: keep the sign
# a hyphen at a line's end, or a soft hyphen (U+00AD: where the typesetter may break a
# word, "emer\xad\ngenciais" in the LDB's PDF) with or without the break after it
_HYPHEN_BREAK = re.compile(r"-[ \t]*\r?\n[ \t]*|\u00ad\s*")
TextLoader = Callable[[Citation, Callable[[list[str]], None]], None]
MIN_WORDS_ON_PAGE = 5  # fewer matched words than this on a page: not the passage
PAGE_SLACK_WORDS = 12  # page words (running headers…) a passage may skip between matched runs
CLAIM_SLACK_WORDS = 80  # page words a quote may skip inside its chunk (a revoked item)
RUN_GAP_WORDS = 6  # more unmatched page words than this between two matched runs: a gap


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class Passage:
    """What to show: pages `page`..`page_end` (1-based), the cited `text`, its character
    `span` in the clean text of `page` when known (text documents use it directly), and
    the `claim` (the sentence the badge supports) to emphasise within it."""

    page: int
    page_end: int
    text: str
    span: tuple[int, int] | None = None
    claim: str = ""
    # the exact words to emphasise (the quote, or the sentence supporting the claim), with
    # their offsets in the chunk text and in the page texts: used as they are, not searched
    quote: QuoteSpan | None = None

    @classmethod
    def of(cls, citation: Citation, claim: str = "") -> Passage:
        return cls(citation.page, max(citation.page, citation.page_end), citation.snippet,
                   (citation.char_start, citation.char_end), claim or citation.claim,
                   citation.quote)

    @property
    def emphasis(self) -> str:
        """The words highlighted strongly: the source's own (quote, without the words it
        strikes through), else the claim."""
        if self.quote is None:
            return self.claim
        return without_ranges(self.quote.text, self.quote.hidden)


def _words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, folded word) for each word; a word hyphenated across a line break
    ("descumpri-\nmento", "emer\xad\ngenciais") is one word, as the cleaned chunk text has
    it."""
    words: list[tuple[int, int, str]] = []
    for match in _WORD.finditer(text):
        if words and _HYPHEN_BREAK.fullmatch(text, words[-1][1], match.start()):
            start, _end, word = words[-1]
            words[-1] = (start, match.end(), word + fold(match.group()))
        else:
            words.append((match.start(), match.end(), fold(match.group())))
    return words


def locate_passage(page_text: str, passage: str) -> tuple[int, int, int] | None:
    """Where `passage` is in `page_text`: (start, end, words matched), or None (`_locate`)."""
    found = _locate(page_text, passage)
    return None if found is None else found[:3]


def _locate(page_text: str, passage: str, *, slack: int = PAGE_SLACK_WORDS
            ) -> tuple[int, int, int, list[tuple[int, int]]] | None:
    """Where `passage` is in `page_text`: (start, end, words matched, matched runs), or None.

    Word alignment (difflib) rather than a substring search: the page's text layer breaks
    lines, hyphenates and still has the running headers the chunk text lost at cleaning.
    The matched word runs closest around the longest one form the span; a chunk that
    continues on the next page matches only its part on this page.
    """
    page = _words(page_text)
    wanted = [word for _s, _e, word in _words(passage)]
    if not page or not wanted:
        return None
    matcher = SequenceMatcher(None, [word for _s, _e, word in page], wanted, autojunk=False)
    least = min(3, len(wanted))
    blocks = [b for b in matcher.get_matching_blocks() if b.size >= least]
    if not blocks:
        return None
    best = max(blocks, key=lambda b: b.size)
    index = blocks.index(best)
    first = last = index
    # grow around the longest run while the neighbouring runs follow closely in both texts
    while first > 0 and _close(blocks[first - 1], blocks[first], slack):
        first -= 1
    while last < len(blocks) - 1 and _close(blocks[last], blocks[last + 1], slack):
        last += 1
    chosen = blocks[first:last + 1]
    matched = sum(b.size for b in chosen)
    if matched < min(MIN_WORDS_ON_PAGE, len(wanted)):
        return None
    # the matched stretches (start, end, next page word); a gap of more than a few page
    # words splits them, so a quote that skips a struck-through item is highlighted around it
    runs: list[tuple[int, int, int]] = []
    for block in chosen:
        begin, stop = page[block.a][0], page[block.a + block.size - 1][1]
        if runs and block.a - runs[-1][2] <= RUN_GAP_WORDS:
            runs[-1] = (runs[-1][0], stop, block.a + block.size)
        else:
            runs.append((begin, stop, block.a + block.size))
    return runs[0][0], runs[-1][1], matched, [(a, b) for a, b, _ in runs]


def _close(before: object, after: object, slack: int) -> bool:
    """Two matching runs belong to one passage: small gaps on the page and in the text (the
    page may have up to `slack` words more in between than the passage)."""
    a_gap = after.a - (before.a + before.size)  # type: ignore[attr-defined]
    b_gap = after.b - (before.b + before.size)  # type: ignore[attr-defined]
    return 0 <= a_gap <= b_gap + slack and b_gap <= 40


class SourcesViewer(QWidget):
    """Shows one citation at a time; `passageShown(page)` fires when it is on screen."""

    passageShown = Signal(int)  # 1-based page (0 for text documents)
    highlightApplied = Signal(str)  # the PDF text highlighted (the passage on its first page)
    scanHighlighted = Signal(int)  # OCR line boxes painted on a scanned page
    closeRequested = Signal()  # the × of a narrow window's viewer

    def __init__(self, text_loader: TextLoader | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_loader = text_loader
        self.citation: Citation | None = None
        self.passage: Passage | None = None
        self.title = QLabel()
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.location = QLabel()
        self.location.setWordWrap(True)
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self.open_original)
        self.open_button.setEnabled(False)
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.closeRequested)
        self.close_button.hide()  # shown by the window when the viewer can collapse

        self.placeholder = QLabel()
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.pdf_document = QPdfDocument(self)
        self.pdf_view = PdfPageView(self)
        self.pdf_view.setDocument(self.pdf_document)
        self.pdf_view.zoomChanged.connect(self._show_zoom)
        self.text_view = QTextBrowser(self)
        self.text_view.setOpenLinks(False)
        self.scan_image = QLabel()
        self.scan_image.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.scan_view = QScrollArea(self)
        self.scan_view.setWidget(self.scan_image)
        self.scan_view.setWidgetResizable(True)
        self.stack = QStackedWidget()
        for widget in (self.placeholder, self.pdf_view, self.text_view, self.scan_view):
            self.stack.addWidget(widget)
        self.zoom_bar = self._build_zoom_bar()

        header = QHBoxLayout()
        titles = QVBoxLayout()
        titles.addWidget(self.title)
        titles.addWidget(self.location)
        header.addLayout(titles, 1)
        header.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        header.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.zoom_bar)
        layout.addWidget(self.stack, 1)
        self._pdf_path = ""
        self._located_text = ""
        self.retranslate()

    # ---- zoom controls (the view does the zooming) -----------------------------------
    def _build_zoom_bar(self) -> QWidget:
        bar = QWidget()
        self.zoom_out_button = QToolButton()
        self.zoom_out_button.setText("−")
        self.zoom_out_button.clicked.connect(self.pdf_view.zoom_out)
        self.zoom_in_button = QToolButton()
        self.zoom_in_button.setText("+")
        self.zoom_in_button.clicked.connect(self.pdf_view.zoom_in)
        self.zoom_label = QLabel()
        self.zoom_label.setMinimumWidth(self.zoom_label.fontMetrics().horizontalAdvance("400 %"))
        self.zoom_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.fit_button = QToolButton()
        self.fit_button.setCheckable(True)
        self.fit_button.clicked.connect(self.pdf_view.fit_width)
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.zoom_out_button, self.zoom_label, self.zoom_in_button,
                       self.fit_button):
            row.addWidget(widget)
        row.addStretch(1)
        # Ctrl +/- and Ctrl+0 work from anywhere in the window while a PDF is shown
        self._zoom_shortcuts = []
        for keys, slot in ((QKeySequence.StandardKey.ZoomIn, self.pdf_view.zoom_in),
                           ("Ctrl+=", self.pdf_view.zoom_in),
                           (QKeySequence.StandardKey.ZoomOut, self.pdf_view.zoom_out),
                           ("Ctrl+0", self.pdf_view.fit_width)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(slot)
            self._zoom_shortcuts.append(shortcut)
        bar.hide()
        return bar

    def _show_pdf_controls(self, shown: bool) -> None:
        self.zoom_bar.setVisible(shown)
        for shortcut in self._zoom_shortcuts:
            shortcut.setEnabled(shown)

    def _show_zoom(self, factor: float) -> None:
        self.zoom_label.setText(f"{round(factor * 100)} %")
        self.fit_button.setChecked(self.pdf_view.is_fit_width())

    # ---- public -------------------------------------------------------------------
    def retranslate(self) -> None:
        self.open_button.setText(self.tr("Open original"))
        self.open_button.setToolTip(self.tr("Open the file in the system viewer"))
        self.close_button.setToolTip(self.tr("Close the source (back to the library)"))
        self.placeholder.setText(self.tr("Click a citation badge to see the cited passage here."))
        self.zoom_out_button.setToolTip(self.tr("Zoom out (Ctrl+−, Ctrl+wheel)"))
        self.zoom_in_button.setToolTip(self.tr("Zoom in (Ctrl++, Ctrl+wheel)"))
        self.fit_button.setText(self.tr("Fit width"))
        self.fit_button.setToolTip(self.tr("Fit the page to the width (Ctrl+0)"))
        self.pdf_view.setAccessibleName(self.tr("Cited page"))
        if self.citation is None:
            self.title.setText(self.tr("Sources"))
        else:
            self._update_location()

    def show_citation(self, citation: Citation, claim: str = "") -> None:
        """Show the cited passage; `claim` (the sentence the badge supports) is emphasised."""
        self.citation = citation
        self.show_passage(citation, Passage.of(citation, claim))

    def show_passage(self, citation: Citation, passage: Passage) -> None:
        """Show `passage` of the cited document (the document fields come from `citation`)."""
        self.citation = citation
        self.passage = passage
        self.title.setText(citation.title)
        exists = Path(citation.source_path).is_file()
        self.open_button.setEnabled(exists)  # only a file this computer can reach
        self._update_location(missing=not exists)
        if citation.ocr_boxes and exists and citation.file_type in ("pdf", "image"):
            self._show_pdf_controls(False)
            self._show_scan(citation)
        elif citation.file_type == "pdf" and exists:
            self._show_pdf(citation, passage)
        else:
            self._show_pdf_controls(False)
            self._show_text(citation, passage, exists)

    def current_pdf_page(self) -> int:
        """1-based page the PDF view is on (0 when no PDF is shown)."""
        if self.stack.currentWidget() is not self.pdf_view:
            return 0
        return self.pdf_view.pageNavigator().currentPage() + 1

    def highlighted_text(self) -> str:
        """The highlighted passage: of a text document, or the located PDF text."""
        if self.stack.currentWidget() is self.pdf_view:
            return self._located_text
        selections = self.text_view.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""

    def open_original(self) -> None:
        if self.citation is not None:
            open_with_system(self, self.citation.source_path)

    # ---- PDF ----------------------------------------------------------------------
    def _show_pdf(self, citation: Citation, passage: Passage) -> None:
        if self._pdf_path != citation.source_path:
            self.pdf_document.close()
            self.pdf_document.load(citation.source_path)
            self._pdf_path = citation.source_path
        self.stack.setCurrentWidget(self.pdf_view)
        self._show_pdf_controls(True)
        last = self.pdf_document.pageCount() - 1
        first_page = max(0, min(passage.page - 1, last))
        passage_rects, claim_rects, located = self.passage_geometry(passage)
        self._located_text = located
        self.pdf_view.set_highlight(passage_rects, claim_rects)
        self.pdf_view.pageNavigator().jump(first_page, QPointF(0, 0), 0)
        if self.pdf_view.is_fit_width():
            self.pdf_view.refit()  # this page's text column
        self._show_zoom(self.pdf_view.effective_zoom())
        anchor = self.pdf_view._anchor()  # the claim, else the passage
        if anchor is not None:
            self.pdf_view.scroll_to(*anchor)
        self.passageShown.emit(first_page + 1)
        if located:
            self.highlightApplied.emit(located)

    def passage_geometry(self, passage: Passage) -> tuple[dict[int, list[QRectF]],
                                                          dict[int, list[QRectF]], str]:
        """Highlight rectangles (PDF points) per page index for the passage and its claim,
        and the text located on the first page that has it."""
        document = self.pdf_document
        last = document.pageCount() - 1
        passage_rects: dict[int, list[QRectF]] = {}
        claim_rects: dict[int, list[QRectF]] = {}
        located = ""
        for page in range(max(0, passage.page - 1), min(passage.page_end - 1, last) + 1):
            page_text = document.getAllText(page).text()
            found = locate_passage(page_text, passage.text)
            if found is None:
                continue
            start, end, _matched = found
            selection = document.getSelectionAtIndex(page, start, end - start)
            passage_rects[page] = line_rects(selection.bounds())
            located = located or selection.text()
            if passage.emphasis:
                # within the cited chunk a quote may skip a struck-through item (its words
                # stay on the page): runs further apart still belong to the quote
                claim = _locate(page_text[start:end], passage.emphasis, slack=CLAIM_SLACK_WORDS)
                if claim is not None and claim[2] >= 0.6 * len(_words(passage.emphasis)):
                    claim_rects[page] = [
                        rect for a, b in claim[3]
                        for rect in line_rects(document.getSelectionAtIndex(
                            page, start + a, b - a).bounds())]
        return passage_rects, claim_rects, located

    # ---- scans (OCR) ---------------------------------------------------------------
    def _scan_page_image(self, citation: Citation, width: int) -> QImage:
        page_index = max(0, citation.page - 1)
        if citation.file_type == "image":
            reader = QImageReader(citation.source_path)
            reader.jumpToImage(page_index)  # a multi-page TIFF
            image = reader.read()
            return image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation) \
                if not image.isNull() else image
        if self._pdf_path != citation.source_path:
            self.pdf_document.close()
            self.pdf_document.load(citation.source_path)
            self._pdf_path = citation.source_path
        page_index = min(page_index, self.pdf_document.pageCount() - 1)
        size = self.pdf_document.pagePointSize(page_index)
        height = round(width * size.height() / max(1.0, size.width()))
        return self.pdf_document.render(page_index, QSize(width, height))

    def _show_scan(self, citation: Citation) -> None:
        """The cited page image with the passage's OCR line boxes painted over it."""
        self.stack.setCurrentWidget(self.scan_view)
        width = max(400, self.scan_view.viewport().width() - 4)
        image = self._scan_page_image(citation, width).convertToFormat(
            QImage.Format.Format_ARGB32)
        boxes = [b for b in parse_boxes(citation.ocr_boxes) if b[0] == citation.page]
        if not image.isNull():
            painter = QPainter(image)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 214, 10, 110))
            for _, x0, y0, x1, y1 in boxes:
                painter.drawRect(QRectF(x0 * image.width() - 2, y0 * image.height() - 2,
                                        (x1 - x0) * image.width() + 4,
                                        (y1 - y0) * image.height() + 4))
            painter.end()
        self.scan_image.setPixmap(QPixmap.fromImage(image))
        if boxes:
            top = min(b[2] for b in boxes) * image.height()
            self.scan_view.verticalScrollBar().setValue(max(0, round(top) - 40))
        self.passageShown.emit(citation.page)
        self.scanHighlighted.emit(len(boxes))

    # ---- text ---------------------------------------------------------------------
    def _show_text(self, citation: Citation, passage: Passage, exists: bool) -> None:
        self.stack.setCurrentWidget(self.text_view)
        self._set_text_pages([passage.text], passage, from_snippet=True)
        # a team library keeps the document's text: shown when the file is not here
        if (exists or citation.library != "local") and self.text_loader is not None:
            wanted = citation

            def on_pages(pages: list[str]) -> None:
                if self.citation is wanted and self.passage is passage and pages:
                    self._set_text_pages(pages, passage, from_snippet=False)

            self.text_loader(citation, on_pages)

    def _set_text_pages(self, pages: list[str], passage: Passage, *, from_snippet: bool) -> None:
        separator = "\n\n"
        starts: list[int] = []
        text = ""
        for page in pages:
            starts.append(len(text))
            text += page + separator
        self.text_view.setPlainText(text)
        if from_snippet:
            start, end = 0, len(pages[0])
        else:
            start, end = self._passage_range(pages, starts, passage)
        selections = [self._text_selection(start, end, QColor(255, 214, 10, 90))]
        emphasis = self._emphasis_range(pages, starts, passage, text, (start, end),
                                        from_snippet=from_snippet)
        if emphasis is not None:
            selections.append(self._text_selection(*emphasis, QColor(255, 176, 0, 120)))
        self.text_view.setExtraSelections(selections)
        scroll = QTextCursor(self.text_view.document())
        scroll.setPosition(end)
        self.text_view.setTextCursor(scroll)
        scroll.setPosition(start)
        self.text_view.setTextCursor(scroll)
        self.text_view.ensureCursorVisible()
        if not from_snippet:
            self.passageShown.emit(0)

    def _text_selection(self, start: int, end: int, color: QColor) -> QTextEdit.ExtraSelection:
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        fmt = QTextCharFormat()
        fmt.setBackground(color)
        selection.format = fmt
        return selection

    @staticmethod
    def _emphasis_range(pages: list[str], starts: list[int], passage: Passage, text: str,
                        shown: tuple[int, int], *, from_snippet: bool) -> tuple[int, int] | None:
        """Where the emphasised words are: the quote's own offsets (chunk offsets in the
        snippet, page offsets in the document) when they still hold its text, else found
        in the highlighted passage."""
        quote = passage.quote
        if quote is not None:
            if from_snippet:
                start, end = quote.start, quote.end
            elif quote.exact and quote.page_end <= len(pages) and quote.page >= 1:
                start = starts[quote.page - 1] + quote.char_start
                end = starts[quote.page_end - 1] + quote.char_end
            else:
                start = end = -1
            if 0 <= start < end <= len(text) and _squash(text[start:end]) == _squash(quote.text):
                return start, end
        words = passage.emphasis
        at = text.find(words, *shown) if words else -1
        return (at, at + len(words)) if at >= 0 else None

    @staticmethod
    def _passage_range(pages: list[str], starts: list[int],
                       passage: Passage) -> tuple[int, int]:
        first = min(max(passage.page, 1), len(pages)) - 1
        last = min(max(passage.page_end, passage.page), len(pages)) - 1
        span = passage.span or (0, len(pages[last]))
        start = starts[first] + max(0, min(span[0], len(pages[first])))
        end = starts[last] + max(0, min(span[1], len(pages[last])))
        head = _squash(passage.text)[:40]
        joined = "\n\n".join(pages)
        if head and head not in _squash(joined[start:end + 1]):
            found = joined.find(passage.text[:40])
            if found >= 0:  # offsets disagree with the file (it changed): trust the text
                return found, found + len(passage.text)
        return start, max(end, start)

    def _update_location(self, *, missing: bool = False) -> None:
        citation = self.citation
        if citation is None:
            return
        pages = (str(citation.page) if citation.page_end <= citation.page
                 else f"{citation.page}–{citation.page_end}")
        text = self.tr("Page %1 · %2").replace("%1", pages).replace("%2", citation.source_path)
        if citation.ocr_label:  # read from a scan: say so, with the engine's confidence
            text = f"{citation.ocr_label} · {text}"
        if citation.library != "local":
            text = self.tr("Team library “%1”").replace("%1", citation.library) + " · " + text
        if missing and citation.library != "local":
            text += " · " + self.tr("the file is not on this computer; showing the text stored in the team library")
        elif missing:
            text += " · " + self.tr("original file not found; showing the indexed text")
        self.location.setText(text)
        self.location.setToolTip(citation.source_path)
