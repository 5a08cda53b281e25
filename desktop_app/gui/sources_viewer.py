"""The sources viewer: the cited page of a PDF with the passage highlighted, or the text.

PDFs open in `QPdfView` (QtPdf): jump to the cited page, then highlight the passage
by searching a distinctive line of the chunk that appears verbatim on that page
(`QPdfSearchModel` answers asynchronously, so the highlight is applied on
`countChanged`). Other file types show their clean text with the cited character
range highlighted. "Open original" hands the file to the system viewer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtPdf import QPdfDocument, QPdfSearchModel
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop_app.answer.events import Citation

_SPACES = re.compile(r"\s+")
TextLoader = Callable[[Citation, Callable[[list[str]], None]], None]


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return {w for w in re.findall(r"\w{4,}", plain)}


def passage_phrase(snippet: str, page_text: str, *, claim: str = "", min_chars: int = 18,
                   max_chars: int = 90) -> str | None:
    """A phrase of the cited chunk that occurs verbatim on one line of the page.

    PDF search cannot cross line breaks and the chunk text was cleaned (headers
    removed, hyphenation joined), so the page's own lines that also occur in the chunk
    are the candidates. The one sharing most words with the claim the badge supports
    wins (at least two); otherwise the earliest, where the passage starts.
    """
    chunk = _squash(snippet)
    claim_words = _words(claim)
    candidates: list[tuple[int, str]] = []
    for raw_line in page_text.splitlines():
        line = _squash(raw_line)
        if len(line) < min_chars:
            continue
        at = chunk.find(line)
        if at >= 0:
            candidates.append((at, line))
    best: tuple[int, str] | None = None
    if candidates:
        candidates.sort()
        best = candidates[0]
        overlaps = [(len(_words(line) & claim_words), -at, line) for at, line in candidates]
        top = max(overlaps)
        if top[0] >= 2:
            best = (-top[1], top[2])
    if best is None:
        words = chunk.split(" ")
        flat = _squash(page_text)
        for size in (8, 6, 4):
            for start in range(0, max(1, len(words) - size + 1)):
                candidate = " ".join(words[start:start + size])
                if len(candidate) >= min_chars and candidate in flat:
                    best = (start, candidate)
                    break
            if best:
                break
    if best is None:
        return None
    phrase = best[1]
    if len(phrase) > max_chars:
        phrase = phrase[:max_chars].rsplit(" ", 1)[0]
    return phrase


class SourcesViewer(QWidget):
    """Shows one citation at a time; `passageShown(page)` fires when it is on screen."""

    passageShown = Signal(int)  # 1-based page (0 for text documents)
    highlightApplied = Signal(str)  # the phrase highlighted in a PDF

    def __init__(self, text_loader: TextLoader | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_loader = text_loader
        self.citation: Citation | None = None
        self.title = QLabel()
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.location = QLabel()
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self.open_original)
        self.open_button.setEnabled(False)

        self.placeholder = QLabel()
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.pdf_document = QPdfDocument(self)
        self.pdf_search = QPdfSearchModel(self)
        self.pdf_search.setDocument(self.pdf_document)
        self.pdf_search.countChanged.connect(self._on_search_results)
        self.pdf_view = QPdfView(self)
        self.pdf_view.setDocument(self.pdf_document)
        self.pdf_view.setSearchModel(self.pdf_search)
        self.pdf_view.setPageMode(QPdfView.PageMode.MultiPage)
        self.pdf_view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.text_view = QTextBrowser(self)
        self.text_view.setOpenLinks(False)
        self.stack = QStackedWidget()
        for widget in (self.placeholder, self.pdf_view, self.text_view):
            self.stack.addWidget(widget)

        header = QHBoxLayout()
        titles = QVBoxLayout()
        titles.addWidget(self.title)
        titles.addWidget(self.location)
        header.addLayout(titles, 1)
        header.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.stack, 1)
        self._pdf_path = ""
        self._target_page = -1
        self._phrase = ""
        self._claim = ""
        self.retranslate()

    # ---- public -------------------------------------------------------------------
    def retranslate(self) -> None:
        self.open_button.setText(self.tr("Open original"))
        self.open_button.setToolTip(self.tr("Open the file in the system viewer"))
        self.placeholder.setText(self.tr("Click a citation badge to see the cited passage here."))
        if self.citation is None:
            self.title.setText(self.tr("Sources"))
        else:
            self._update_location()

    def show_citation(self, citation: Citation, claim: str = "") -> None:
        """Show the cited passage; `claim` (the sentence the badge supports) picks the line."""
        self.citation = citation
        self._claim = claim
        self.title.setText(citation.title)
        exists = Path(citation.source_path).is_file()
        self.open_button.setEnabled(exists)  # only a file this computer can reach
        self._update_location(missing=not exists)
        if citation.file_type == "pdf" and exists:
            self._show_pdf(citation)
        else:
            self._show_text(citation, exists)

    def current_pdf_page(self) -> int:
        """1-based page the PDF view is on (0 when no PDF is shown)."""
        if self.stack.currentWidget() is not self.pdf_view:
            return 0
        return self.pdf_view.pageNavigator().currentPage() + 1

    def highlighted_text(self) -> str:
        """The highlighted passage of a text document (empty for PDFs)."""
        selections = self.text_view.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""

    def open_original(self) -> None:
        if self.citation is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(self.citation.source_path))

    # ---- PDF ----------------------------------------------------------------------
    def _show_pdf(self, citation: Citation) -> None:
        if self._pdf_path != citation.source_path:
            self.pdf_search.setSearchString("")
            self.pdf_document.close()
            self.pdf_document.load(citation.source_path)
            self._pdf_path = citation.source_path
        self.stack.setCurrentWidget(self.pdf_view)
        page_index = max(0, min(citation.page - 1, self.pdf_document.pageCount() - 1))
        self._target_page = page_index
        self.pdf_view.pageNavigator().jump(page_index, QPointF(0, 0), 0)
        page_text = self.pdf_document.getAllText(page_index).text()
        phrase = passage_phrase(citation.snippet, page_text, claim=self._claim) or ""
        self._phrase = phrase
        self.passageShown.emit(page_index + 1)
        if phrase and self.pdf_search.searchString() == phrase:
            self._on_search_results()
        else:
            self.pdf_search.setSearchString(phrase)

    def _on_search_results(self) -> None:
        if not self._phrase or self._target_page < 0:
            return
        for i in range(self.pdf_search.count()):
            result = self.pdf_search.resultAtIndex(i)
            if result.page() == self._target_page:
                self.pdf_view.setCurrentSearchResultIndex(i)
                # Selecting a result scrolls it into view, which in a short window can
                # leave an earlier page at the top; put the cited passage's page there.
                location = result.location()
                self.pdf_view.pageNavigator().jump(
                    result.page(), QPointF(0, max(0.0, location.y() - 40)), 0)
                self.highlightApplied.emit(self._phrase)
                return

    # ---- text ---------------------------------------------------------------------
    def _show_text(self, citation: Citation, exists: bool) -> None:
        self.stack.setCurrentWidget(self.text_view)
        self._set_text_pages([citation.snippet], citation, from_snippet=True)
        # a team library keeps the document's text: shown when the file is not here
        if (exists or citation.library != "local") and self.text_loader is not None:
            wanted = citation

            def on_pages(pages: list[str]) -> None:
                if self.citation is wanted and pages:
                    self._set_text_pages(pages, wanted, from_snippet=False)

            self.text_loader(citation, on_pages)

    def _set_text_pages(self, pages: list[str], citation: Citation, *, from_snippet: bool) -> None:
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
            start, end = self._passage_range(pages, starts, citation)
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(255, 214, 10, 110))
        selection.format = fmt
        self.text_view.setExtraSelections([selection])
        scroll = QTextCursor(self.text_view.document())
        scroll.setPosition(end)
        self.text_view.setTextCursor(scroll)
        scroll.setPosition(start)
        self.text_view.setTextCursor(scroll)
        self.text_view.ensureCursorVisible()
        if not from_snippet:
            self.passageShown.emit(0)

    @staticmethod
    def _passage_range(pages: list[str], starts: list[int],
                       citation: Citation) -> tuple[int, int]:
        first = min(max(citation.page, 1), len(pages)) - 1
        last = min(max(citation.page_end, citation.page), len(pages)) - 1
        start = starts[first] + max(0, min(citation.char_start, len(pages[first])))
        end = starts[last] + max(0, min(citation.char_end, len(pages[last])))
        head = _squash(citation.snippet)[:40]
        joined = "\n\n".join(pages)
        if head and head not in _squash(joined[start:end + 1]):
            found = joined.find(citation.snippet[:40])
            if found >= 0:  # offsets disagree with the file (it changed): trust the text
                return found, found + len(citation.snippet)
        return start, max(end, start)

    def _update_location(self, *, missing: bool = False) -> None:
        citation = self.citation
        if citation is None:
            return
        pages = (str(citation.page) if citation.page_end <= citation.page
                 else f"{citation.page}–{citation.page_end}")
        text = self.tr("Page %1 · %2").replace("%1", pages).replace("%2", citation.source_path)
        if citation.library != "local":
            text = self.tr("Team library “%1”").replace("%1", citation.library) + " · " + text
        if missing and citation.library != "local":
            text += " · " + self.tr("the file is not on this computer; showing the text stored in the team library")
        elif missing:
            text += " · " + self.tr("original file not found; showing the indexed text")
        self.location.setText(text)
        self.location.setToolTip(citation.source_path)
