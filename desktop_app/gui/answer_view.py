"""The conversation transcript: streamed answers with clickable citation chips.

A `QTextBrowser` with `setOpenLinks(False)`: clicking a chip emits
`citationClicked(Citation)` instead of navigating (which would clear the document).
Tokens are appended at the end with a `QTextCursor`; complete `[n]` markers become
rounded chips (a pill painted into a QImage, registered as the `chip:n` resource,
inserted as an anchored image with href `cite:<answer>/<n>`). A half-written `[12`
at a chunk boundary is held back until the next token (the shared
`MarkerStreamParser`). When the service reports `Done`, the streamed text is
replaced by the verified final answer, followed by warnings and the sources list.
Before the first word, a dim progress line ("Reading 5 passages… 12 s") stands where
the answer will be, and the view scrolls to it. Links other than citations (e.g.
`action:add-model` in a notice) are emitted as `actionClicked(name)`.
An answer of "not found" gets a collapsed "closest passages" line instead: clicking
it lists the passages that came closest (each opens in the viewer), as evidence for
the user to judge, never as badges. A long list in an answer (a constitution's 34 rights
of workers) shows its first `LIST_FOLD` lines and a "Show all N" link that unfolds the
rest in place (`answer.units.list_folds`; the answer's text itself is whole). A quoted
table row under its header is shown as a small table (`table_runs`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QImage,
    QMouseEvent,
    QPainter,
    QPalette,
    QResizeEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFrameFormat,
    QTextImageFormat,
    QTextLength,
    QTextTableFormat,
)
from PySide6.QtWidgets import QTextBrowser, QWidget

from desktop_app.answer.citations import MARKER, Marker, MarkerStreamParser
from desktop_app.answer.events import Citation, Done
from desktop_app.answer.segments import is_header_row
from desktop_app.answer.units import LIST_FOLD, list_folds
from desktop_app.gui.places import place_text
from desktop_app.text.tables import cells, is_row

# Text already in the transcript keeps its colours when the OS switches light/dark, so
# these are mid-tones readable on both; the chips follow the palette (repainted).
USER_BACKGROUND = QColor(128, 128, 128, 38)
DIM_COLOR = QColor("#8a8a8a")
LINK_COLOR = QColor("#3a8fd6")
WARNING_COLOR = QColor("#d08400")
CITE_SCHEME = "cite"
ACTION_SCHEME = "action"
CLOSEST_SCHEME = "closest"
MORE_SCHEME = "more"  # more:<answer>/<fold>: a long list's folded lines
OBJECT_REPLACEMENT = "\ufffc"  # what an inline image is in the plain text
CHIP_SCHEME = "chip"
TEXT_COLUMN_WIDTH = 12  # font heights: a table's column of words wraps beyond this
TURNED_ROWS = 3  # a header over at most this many rows, too wide for the pane, is turned


def table_runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, end) of each run of two or more table lines with as many cells each (a
    quoted row under its header): shown as a table. Rows whose cells do not line up with
    the header's (a header of merged columns) stay text."""
    runs: list[tuple[int, int]] = []
    first = 0
    while first < len(lines):
        width = len(cells(lines[first]))
        end = first
        while (end < len(lines) and is_row(lines[end])
               and len(cells(lines[end])) == width):
            end += 1
        if end - first >= 2:
            runs.append((first, end))
            first = end
        else:
            first += 1
    return runs


# what closes a phrase: after a badge it would start the next line alone, because Qt's
# layout may break after any inline image, whatever follows it (a word joiner does not
# hold them together)
_CLOSING = re.compile(r"^[.,;:!?…)\]»”]+")


def punctuation_first(parts: Sequence[str | Marker]) -> list[str | Marker]:
    """`parts` with the punctuation that follows a badge moved before it ("… anos [1]."
    shown as "… anos. ⓵"), the space before the badge kept before it: a line may then
    start with a badge, never with a lone full stop."""
    out: list[str | Marker] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        if not isinstance(part, Marker):
            out.append(part)
            i += 1
            continue
        end = i
        while end < len(parts) and isinstance(parts[end], Marker):
            end += 1
        after = parts[end] if end < len(parts) else ""
        closing = _CLOSING.match(after) if isinstance(after, str) else None
        if closing is None:
            out.extend(parts[i:end])
            i = end
            continue
        last = out[-1] if out else None
        before = last if isinstance(last, str) else ""
        if before:
            out.pop()
        stripped = before.rstrip()
        out.extend(p for p in (stripped + closing.group(), before[len(stripped):]) if p)
        out.extend(parts[i:end])
        rest = str(after)[closing.end():]
        if rest:
            out.append(rest)
        i = end + 1
    return out


def display_numbers(answer: str, citations: Iterable[Citation]) -> dict[int, int]:
    """Badge numbers as the user sees them: 1..n for the shown sources, in order of first
    appearance in the answer (then any cited source the text does not mention). The model
    numbers its sources by retrieval rank, so the verified answer may cite [1] and [3]."""
    known = sorted({c.number for c in citations})
    order: list[int] = []
    for part in MarkerStreamParser().feed(answer):
        if isinstance(part, Marker):
            order += [n for n in part.numbers if n in known and n not in order]
    order += [n for n in known if n not in order]
    return {number: shown for shown, number in enumerate(order, start=1)}


@dataclass
class AnswerState:
    """One answer in the transcript: where it starts and the citations it announced
    (keyed by the number shown; `numbering` maps the model's numbers to those)."""

    start: int
    citations: dict[int, Citation] = field(default_factory=dict)
    numbering: dict[int, int] = field(default_factory=dict)
    announced: dict[int, Citation] = field(default_factory=dict)  # by the model's number
    parser: MarkerStreamParser = field(default_factory=MarkerStreamParser)
    finished: bool = False
    progress: bool = False  # a progress line occupies the answer's place
    streamed: bool = False  # the first words have arrived
    closest: tuple[Citation, ...] = ()  # "not found": passages listed when expanded
    closest_shown: bool = False
    closest_length: int = 0  # characters the expanded list added (to fold it again)
    folded: dict[int, str] = field(default_factory=dict)  # a long list's lines not shown yet


def chip_image(number: int, font: QFont, background: QColor, foreground: QColor,
               device_pixel_ratio: float = 1.0) -> QImage:
    """A rounded pill with the citation number, sized to sit in a line of `font` text."""
    chip_font = QFont(font)
    chip_font.setBold(True)
    chip_font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
    metrics = QFontMetrics(chip_font)
    height = metrics.height() + 2
    width = max(height, metrics.horizontalAdvance(str(number)) + height * 0.9)
    size = QSize(int(width) + 2, height)  # +2: a little air before the next word
    image = QImage(size * device_pixel_ratio, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(device_pixel_ratio)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(background)
    pill = QRectF(1, 0, width, height)
    painter.drawRoundedRect(pill, height / 2, height / 2)
    painter.setPen(foreground)
    painter.setFont(chip_font)
    painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, str(number))
    painter.end()
    return image


class AnswerView(QTextBrowser):
    """Transcript of one conversation; emits `citationClicked` for chips and source lines."""

    citationClicked = Signal(Citation, str)  # the badge's citation, the claim it supports
    actionClicked = Signal(str)  # the name in an `action:NAME` link

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setReadOnly(True)
        self.anchorClicked.connect(self._on_anchor)
        self._answers: list[AnswerState] = []
        self._chips: set[int] = set()
        self._welcome = False
        self.document().setDocumentMargin(12)
        self._pressed_at: QPoint | None = None
        self._held: tuple[int, int] | None = None  # (document position, its top in the view)
        self._hold_timer = QTimer(self)  # the hold ends once the panes have settled
        self._hold_timer.setSingleShot(True)
        self._hold_timer.setInterval(400)
        self._hold_timer.timeout.connect(self._release_held)

    # ---- public API ---------------------------------------------------------------
    def clear_transcript(self) -> None:
        self.clear()
        self._answers.clear()
        self._chips.clear()
        self._welcome = False

    def show_welcome(self, text: str) -> None:
        """A hint shown while the transcript is empty (replaced by the first message)."""
        if self._answers or (not self.document().isEmpty() and not self._welcome):
            return
        self.clear()
        cursor = self._end_cursor()
        block = QTextBlockFormat()
        block.setAlignment(Qt.AlignmentFlag.AlignCenter)
        block.setTopMargin(40)
        cursor.setBlockFormat(block)
        fmt = QTextCharFormat()
        fmt.setForeground(DIM_COLOR)
        cursor.insertText(text, fmt)
        self._welcome = True

    def add_user_message(self, text: str, label: str) -> None:
        if self._welcome:
            self.clear()
            self._welcome = False
        cursor = self._cursor_for_new_block(top_margin=14)
        block = cursor.blockFormat()
        block.setBackground(USER_BACKGROUND)
        block.setLeftMargin(0)
        cursor.setBlockFormat(block)
        cursor.insertText(f"{label}  ", self._bold_format())
        cursor.insertText(text, QTextCharFormat())
        self._scroll_to_end()

    def begin_answer(self, label: str) -> int:
        """Start an assistant answer; returns its index (used in chip hrefs)."""
        cursor = self._cursor_for_new_block(top_margin=10)
        cursor.insertText(label, self._bold_format(dim=True))
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        self._answers.append(AnswerState(start=cursor.position()))
        self._scroll_to_end()
        return len(self._answers) - 1

    def show_progress(self, text: str) -> None:
        """Show (or update) the line that stands in for the answer until its first word."""
        state = self._current()
        if state is None or state.streamed:
            return  # the answer has started: progress is no longer shown
        self._clear_progress(state)
        fmt = QTextCharFormat()
        fmt.setForeground(DIM_COLOR)
        fmt.setFontItalic(True)
        self._end_cursor().insertText(text, fmt)
        state.progress = True
        self._scroll_to_end()

    def progress_text(self) -> str:
        """The progress line of the current answer ("" when none)."""
        state = self._current()
        if state is None or not state.progress:
            return ""
        cursor = QTextCursor(self.document())
        cursor.setPosition(state.start)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        return cursor.selectedText()

    def append_token(self, text: str) -> None:
        """Append streamed text; complete markers become chips, partial ones wait."""
        state = self._current()
        if state is None:
            return
        self._clear_progress(state)
        state.streamed = True
        self._insert_parts(state, len(self._answers) - 1, state.parser.feed(text))

    def add_citation(self, citation: Citation) -> None:
        state = self._current()
        if state is not None:
            state.announced[citation.number] = citation
            shown = state.numbering.get(citation.number)
            if shown is not None:
                state.citations[shown] = replace(citation, number=shown)

    def finish_answer(self, done: Done, *, sources_title: str, found_by: str,
                      page_label: str, leg_names: dict[str, str], searched_for: str = "",
                      closest_title: str = "", warnings: Sequence[str] = (),
                      show_all: str = "Show all %1") -> None:
        """Replace the streamed text with the verified answer, the warnings (in the
        user's language: the caller renders `done.warnings`) and the sources. `show_all`
        ("Show all %1") labels the link under a long list's first lines."""
        index = len(self._answers) - 1
        state = self._current()
        if state is None:
            return
        state.parser.flush()
        state.progress = False  # removed with the streamed text just below
        # the verified answer may cite fewer sources than the stream did: number afresh
        state.numbering = display_numbers(done.answer, done.citations)
        shown = [replace(c, number=state.numbering[c.number]) for c in done.citations]
        state.citations = {c.number: c for c in shown}
        cursor = QTextCursor(self.document())
        cursor.setPosition(state.start)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        self._insert_answer(state, index, done.answer, show_all)
        for warning in warnings:
            self.add_notice(f"⚠ {warning}", warning=True)
        if shown:
            cursor = self._cursor_for_new_block(top_margin=8)
            cursor.insertText(sources_title, self._bold_format(dim=True))
            for citation in sorted(shown, key=lambda c: c.number):
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                self._insert_chip(cursor, index, citation.number, citation)
                link = self._link_format(index, citation.number)
                cursor.insertText(f" {citation.title}", link)
                legs = " + ".join(leg_names.get(leg, leg) for leg in sorted(citation.legs))
                detail = place_text(citation.file_type, citation.page, citation.page_end,
                                    page_label) + (f" · {citation.ocr_label}"
                                                   if citation.ocr_label else "")
                detail += f" · {found_by} {legs}" if legs else ""
                if citation.library != "local":  # which library the source came from
                    detail += f" · 📚 {citation.library}"
                cursor.insertText(detail, self._dim_format())
        if done.closest and closest_title:
            state.closest = done.closest
            state.citations.update({c.number: c for c in done.closest})
            cursor = self._cursor_for_new_block(top_margin=4)
            link = self._link_format(index, 0)
            link.setAnchorHref(f"{CLOSEST_SCHEME}:{index}")
            cursor.insertText(f"▸ {closest_title}", link)
        if searched_for:
            self.add_notice(searched_for)
        state.finished = True
        self._scroll_to_end()

    def update_sources(self, answer_index: int, done: Done) -> None:
        """Give a shown answer's badges (and closest passages) their full citations —
        the same badges, now with their passages — without drawing anything again."""
        if not 0 <= answer_index < len(self._answers):
            return
        state = self._answers[answer_index]
        numbering = display_numbers(done.answer, done.citations)
        state.citations = {numbering[c.number]: replace(c, number=numbering[c.number])
                           for c in done.citations}
        if done.closest:
            state.closest = done.closest
            state.citations.update({c.number: c for c in done.closest})

    def show_closest(self, answer_index: int, page_label: str = "p.") -> bool:
        """Expand the "closest passages" line of a "not found" answer (▸ turns ▾); a second
        click folds it again."""
        if not 0 <= answer_index < len(self._answers):
            return False
        state = self._answers[answer_index]
        href = f"{CLOSEST_SCHEME}:{answer_index}"
        anchor = next((pos for pos, h in self._anchors(CLOSEST_SCHEME) if h == href), None)
        if anchor is None or not state.closest:
            return False
        if state.closest_shown:
            return self._fold_closest(answer_index, anchor)
        self._set_arrow(anchor, "▾")
        before = self.document().characterCount()
        cursor = QTextCursor(self.document().findBlock(anchor))
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        for citation in state.closest:
            block = QTextBlockFormat()
            block.setLeftMargin(16)
            cursor.insertBlock(block, QTextCharFormat())
            place = place_text(citation.file_type, citation.page, citation.page_end, page_label)
            cursor.insertText(f"{citation.title}{place}",
                              self._link_format(answer_index, citation.number))
            snippet = " ".join(citation.snippet.split())
            snippet = snippet[:180] + (" …" if len(snippet) > 180 else "")
            cursor.insertText(f"  “{snippet}”", self._dim_format())
        state.closest_shown = True
        grown = self.document().characterCount() - before
        state.closest_length = grown
        for later in self._answers[answer_index + 1:]:
            later.start += grown  # text was inserted above the answers that follow
        self._no_current_link()
        return True

    def _fold_closest(self, answer_index: int, anchor: int) -> bool:
        state = self._answers[answer_index]
        cursor = QTextCursor(self.document().findBlock(anchor))
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        cursor.setPosition(cursor.position() + state.closest_length,
                           QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        for later in self._answers[answer_index + 1:]:
            later.start -= state.closest_length
        state.closest_shown, state.closest_length = False, 0
        self._set_arrow(anchor, "▸")
        self._no_current_link()
        return True

    def _insert_answer(self, state: AnswerState, index: int, answer: str,
                       show_all: str) -> None:
        """The final answer, each long list folded after its first `LIST_FOLD` lines
        behind a "Show all N" link (`show_more` unfolds it)."""
        lines = answer.split("\n")
        shown_from = 0
        for fold, (first, end) in enumerate(list_folds(lines)):
            self._insert_parts(state, index, MarkerStreamParser().feed(
                "\n".join(lines[shown_from:first]) + "\n"), final=True)
            link = self._link_format(index, 0)
            link.setAnchorHref(f"{MORE_SCHEME}:{index}/{fold}")
            self._end_cursor().insertText(
                "▸ " + show_all.replace("%1", str(end - first + LIST_FOLD)), link)
            state.folded[fold] = "\n".join(lines[first:end])
            shown_from = end
        rest = "\n".join(lines[shown_from:])
        if shown_from and rest:
            rest = "\n" + rest
        self._insert_text(state, index, rest)

    def _insert_text(self, state: AnswerState, index: int, text: str) -> None:
        """Final text at the end; the lines of a quoted table (its header over a row, as
        many cells in each) as a table whose columns line up, not as " | " text."""
        lines = text.split("\n")
        position = 0
        for first, end in table_runs(lines):
            before = "\n".join(lines[position:first])
            self._insert_parts(state, index, MarkerStreamParser().feed(
                before + "\n" if before or position else ""), final=True)
            self._insert_table(state, index, lines[first:end])
            position = end
        self._insert_parts(state, index, MarkerStreamParser().feed(
            "\n".join(lines[position:])), final=True)

    def _insert_table(self, state: AnswerState, index: int, rows: list[str]) -> None:
        """A run of rows as a table. Rows under a header too wide for the pane (a
        statistical table's ten columns, a 24-column register) are turned: one line per
        column, its label first, then the row's value — read down, not scrolled across."""
        grid = [cells(row) for row in rows]
        # rows quoted one after another, with no header above them, are all data
        header = is_header_row(rows[0], rows[1])
        widths = self._column_widths(grid)
        turned = header and len(grid) <= 1 + TURNED_ROWS and self._too_wide(widths)
        if turned:  # a row's badge goes up to its label, at the top of its column
            for row in grid[1:]:
                badges = "".join(m.group(0) for m in MARKER.finditer(row[-1]))
                row[0], row[-1] = f"{row[0]} {badges}".strip(), MARKER.sub("", row[-1]).strip()
            grid = [list(column) for column in zip(*grid, strict=True)]
            widths = self._column_widths(grid)
        table_format = QTextTableFormat()
        table_format.setBorder(1)
        table_format.setBorderBrush(self.palette().color(QPalette.ColorRole.Mid))
        table_format.setBorderCollapse(True)
        table_format.setCellPadding(3)
        table_format.setCellSpacing(0)
        table_format.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        table_format.setColumnWidthConstraints(widths)
        table = self._end_cursor().insertTable(len(grid), len(grid[0]), table_format)
        shade = self.palette().color(QPalette.ColorRole.AlternateBase)
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if header and (c if turned else r) == 0:
                    cell_format = table.cellAt(r, c).format()
                    cell_format.setBackground(shade)
                    table.cellAt(r, c).setFormat(cell_format)
                self._insert_parts(state, index, MarkerStreamParser().feed(cell.strip()),
                                   final=True, cursor=table.cellAt(r, c).firstCursorPosition())

    def _column_widths(self, grid: list[list[str]]) -> list[QTextLength]:
        """Each column as wide as its widest cell, a column of words at most
        `TEXT_COLUMN_WIDTH` font heights, where its cells wrap, and never narrower than its
        longest word: no number ("1,745", "05/03/2019") or name is broken over two lines in
        a narrow window; a table still wider than the window, and not turned
        (`_insert_table`), scrolls across."""
        metrics = self.fontMetrics()
        widths = []
        for column in zip(*grid, strict=False):
            plain = [MARKER.sub("", cell).strip() for cell in column]
            widest = max(metrics.horizontalAdvance(cell) for cell in plain)
            word = max((metrics.horizontalAdvance(w) for cell in plain for w in cell.split()),
                       default=0)
            width = max(word, min(widest, TEXT_COLUMN_WIDTH * metrics.height())) + 12
            if any(MARKER.search(cell) for cell in column):
                width += 2 * metrics.height()  # the badge's chip
            widths.append(QTextLength(QTextLength.Type.FixedLength, width))
        return widths

    def _too_wide(self, widths: list[QTextLength]) -> bool:
        """Whether columns this wide overflow the pane (its margins and borders kept)."""
        room = self.viewport().width() - 2 * self.document().documentMargin()
        return sum(width.rawValue() + 2 for width in widths) > room

    def show_more(self, answer_index: int, fold: int) -> bool:
        """Unfold a long list of an answer: its link is replaced by the lines it held."""
        if not 0 <= answer_index < len(self._answers):
            return False
        state = self._answers[answer_index]
        href = f"{MORE_SCHEME}:{answer_index}/{fold}"
        anchor = next((pos for pos, h in self._anchors(MORE_SCHEME) if h == href), None)
        hidden = state.folded.pop(fold, None)
        if anchor is None or hidden is None:
            return False
        before = self.document().characterCount()
        cursor = QTextCursor(self.document().findBlock(anchor))
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock,
                            QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        cursor.setCharFormat(QTextCharFormat())
        self._insert_parts(state, answer_index, MarkerStreamParser().feed(hidden), final=True,
                           cursor=cursor)
        grown = self.document().characterCount() - before
        for later in self._answers[answer_index + 1:]:
            later.start += grown  # the lines went in above the answers that follow
        self._no_current_link()
        return True

    def _set_arrow(self, position: int, arrow: str) -> None:
        """The "closest passages" link's arrow, in the link's own format."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(position)
        cursor.setPosition(position + 1, QTextCursor.MoveMode.KeepAnchor)
        if cursor.selectedText() in ("▸", "▾"):
            fmt = cursor.charFormat()
            cursor.insertText(arrow, fmt)

    def _no_current_link(self) -> None:
        """A clicked link is not left as the "current" one: QTextBrowser would draw its
        dotted focus frame around it (and around what was inserted there)."""
        cursor = self.textCursor()
        cursor.clearSelection()  # (kept where it is: in view, so nothing scrolls)
        self.setTextCursor(cursor)

    def abort_answer(self, note: str) -> None:
        """End a stopped or failed answer: keep what was streamed, add a note."""
        state = self._current()
        if state is not None:
            self._clear_progress(state)
            state.parser.flush()
            state.finished = True
        self.add_notice(note, warning=True)

    def add_notice(self, text: str, *, warning: bool = False,
                   links: list[tuple[str, str]] | None = None) -> None:
        """A note under the answer; `links` are (label, action name) shown after it."""
        cursor = self._cursor_for_new_block(top_margin=4)
        fmt = QTextCharFormat()
        if warning:
            fmt.setForeground(WARNING_COLOR)
            fmt.setFontWeight(QFont.Weight.DemiBold)
        else:
            fmt.setForeground(DIM_COLOR)
        cursor.insertText(text, fmt)
        for number, (label, action) in enumerate(links or []):
            cursor.insertText(" · " if number else "  ", self._dim_format())
            link = QTextCharFormat()
            link.setAnchor(True)
            link.setAnchorHref(f"{ACTION_SCHEME}:{action}")
            link.setForeground(LINK_COLOR)
            link.setFontUnderline(True)
            cursor.insertText(label, link)
        cursor.setCharFormat(QTextCharFormat())
        self._scroll_to_end()

    def action_positions(self) -> list[tuple[int, str]]:
        """(document position, href) of every `action:` link, for tests and tooling."""
        found: list[tuple[int, str]] = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                fmt = frag.charFormat()
                if fmt.isAnchor() and fmt.anchorHref().startswith(ACTION_SCHEME + ":"):
                    found.append((frag.position(), fmt.anchorHref()))
                it += 1
            block = block.next()
        return found

    def citation(self, answer_index: int, number: int) -> Citation | None:
        if 0 <= answer_index < len(self._answers):
            return self._answers[answer_index].citations.get(number)
        return None

    def anchor_positions(self) -> list[tuple[int, str]]:
        """(document position, href) of every citation anchor, for tests and tooling."""
        return self._anchors(CITE_SCHEME)

    def _anchors(self, scheme: str) -> list[tuple[int, str]]:
        found: list[tuple[int, str]] = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                fmt = frag.charFormat()
                if fmt.isAnchor() and fmt.anchorHref().startswith(scheme + ":"):
                    found.append((frag.position(), fmt.anchorHref()))
                it += 1
            block = block.next()
        return found

    def refresh_chips(self) -> None:
        """Repaint chip images after a palette (light/dark) change."""
        for number in list(self._chips):
            self._register_chip(number)
        self.viewport().update()

    # ---- internals ----------------------------------------------------------------
    def _clear_progress(self, state: AnswerState) -> None:
        if not state.progress:
            return
        cursor = QTextCursor(self.document())
        cursor.setPosition(state.start)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        cursor.setCharFormat(QTextCharFormat())
        state.progress = False

    def _current(self) -> AnswerState | None:
        if not self._answers or self._answers[-1].finished:
            return None
        return self._answers[-1]

    def _end_cursor(self) -> QTextCursor:
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        return cursor

    def _cursor_for_new_block(self, *, top_margin: float) -> QTextCursor:
        cursor = self._end_cursor()
        block = QTextBlockFormat()
        block.setTopMargin(top_margin)
        if self.document().isEmpty():
            cursor.setBlockFormat(block)
        else:
            cursor.insertBlock(block, QTextCharFormat())
        return cursor

    def _insert_parts(self, state: AnswerState, index: int, parts: list[str | Marker], *,
                      final: bool = False, cursor: QTextCursor | None = None) -> None:
        """Insert text and chips (at the end, or at `cursor`). While streaming, a number
        gets the next badge number on first sight; the final answer uses the numbering
        `finish_answer` decided (a marker without a verified source is dropped there)."""
        at_end = cursor is None and self._is_scrolled_to_end()
        cursor = self._end_cursor() if cursor is None else cursor
        if final:  # the whole text is known: a badge's full stop goes before it
            parts = punctuation_first(parts)
        for part in parts:
            if isinstance(part, Marker):
                for number in dict.fromkeys(part.numbers):
                    if final and number not in state.numbering:
                        continue
                    if number not in state.numbering:
                        state.numbering[number] = len(state.numbering) + 1
                        announced = state.announced.get(number)
                        if announced is not None:
                            state.citations[state.numbering[number]] = replace(
                                announced, number=state.numbering[number])
                    shown = state.numbering[number]
                    self._insert_chip(cursor, index, shown, state.citations.get(shown))
            elif part:
                # a fresh char format, or the text would join the preceding link
                cursor.insertText(part, QTextCharFormat())
        if at_end:
            self._scroll_to_end()

    def _insert_chip(self, cursor: QTextCursor, index: int, number: int,
                     citation: Citation | None) -> None:
        if number not in self._chips:
            self._register_chip(number)
        fmt = QTextImageFormat()
        fmt.setName(f"{CHIP_SCHEME}:{number}")
        fmt.setAnchor(True)
        fmt.setAnchorHref(f"{CITE_SCHEME}:{index}/{number}")
        fmt.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
        if citation is not None:
            ocr = f" · {citation.ocr_label}" if citation.ocr_label else ""
            fmt.setToolTip(f"{citation.title} — p. {citation.page}{ocr}")
        cursor.insertImage(fmt)
        cursor.setCharFormat(QTextCharFormat())

    def _register_chip(self, number: int) -> None:
        palette = self.palette()
        image = chip_image(number, self.font(), palette.color(QPalette.ColorRole.Highlight),
                           palette.color(QPalette.ColorRole.HighlightedText),
                           self.devicePixelRatioF())
        self.document().addResource(QTextDocument.ResourceType.ImageResource.value,
                                    QUrl(f"{CHIP_SCHEME}:{number}"), image)
        self._chips.add(number)

    def _link_format(self, index: int, number: int) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setAnchor(True)
        fmt.setAnchorHref(f"{CITE_SCHEME}:{index}/{number}")
        fmt.setForeground(LINK_COLOR)
        return fmt

    def _bold_format(self, *, dim: bool = False) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setFontWeight(QFont.Weight.Bold)
        if dim:
            fmt.setForeground(DIM_COLOR)
        return fmt

    def _dim_format(self) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setForeground(DIM_COLOR)
        return fmt

    def _is_scrolled_to_end(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 4

    def _scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() == ACTION_SCHEME:
            self.actionClicked.emit(url.path())
            return
        if url.scheme() == CLOSEST_SCHEME:
            if url.path().isdigit():
                self.show_closest(int(url.path()))
            return
        if url.scheme() == MORE_SCHEME:
            shown, _, fold = url.path().partition("/")
            if shown.isdigit() and fold.isdigit():
                self.show_more(int(shown), int(fold))
            return
        if url.scheme() != CITE_SCHEME:
            return
        try:
            answer, number = (int(part) for part in url.path().split("/", 1))
        except ValueError:
            return
        citation = self.citation(answer, number)
        if citation is None:
            return
        self.hold_in_place()
        self._no_current_link()
        # the claim comes with the citation (the verifier found it), not from the text here
        self.citationClicked.emit(citation, citation.claim)

    # ---- a clicked badge stays where it was while the panes re-arrange -----------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        self._pressed_at = event.position().toPoint()
        super().mousePressEvent(event)

    def hold_in_place(self) -> None:
        """Keep the clicked link (else the text cursor's place) at the same height in the
        view while its width changes — a badge click re-arranges the panes, the text
        re-wraps, and the answer would otherwise slide out of view."""
        point = self._pressed_at
        if point is not None and self.viewport().rect().contains(point):
            position = self.cursorForPosition(point).position()
        else:
            position = self.textCursor().position()
        self._pressed_at = None  # (a later Enter on a badge holds the cursor's place)
        cursor = QTextCursor(self.document())
        cursor.setPosition(position)
        self._held = (position, self.cursorRect(cursor).top())
        self._hold_timer.start()

    def _release_held(self) -> None:
        self._restore_held()
        self._held = None

    def _restore_held(self) -> None:
        if self._held is None:
            return
        position, top = self._held
        cursor = QTextCursor(self.document())
        cursor.setPosition(min(position, self.document().characterCount() - 1))
        bar = self.verticalScrollBar()
        bar.setValue(bar.value() + self.cursorRect(cursor).top() - top)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._restore_held()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.refresh_chips()


__all__ = ["AnswerView", "chip_image", "display_numbers"]
