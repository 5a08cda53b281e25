"""The Search view: the search the answers run, shown passage by passage, beside the chat.

Type a query (or come from a "not found" answer's "Why not found?"): the passages are
listed best first with their title, page and the unit they start in ("Art. 18, § 2º"),
which legs found them (keywords, meaning) at which rank, their fused score, and their text
around the question's words (marked); struck-through (revoked) text is shown struck and
labelled. A title opens the passage in the Sources viewer. The filters (file type, when
added) and the scope (the libraries answers search, or one of them) apply to the search;
the summary says how many documents they left out. Explaining a "not found", the view also
names the question's words that occur nowhere in the library. The search itself runs in a
worker (`ChatServices.search`, chat/explain.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop_app.answer.events import Citation
from desktop_app.gui.panel import PanelMixin
from desktop_app.gui.services import ChatServices
from desktop_app.gui.values import value_name
from desktop_app.gui.workers import WorkerSet
from desktop_app.retrieval.types import SearchFilters

if TYPE_CHECKING:  # (the module loads with the search: not before the window shows)
    from desktop_app.chat.explain import FoundPassage, SearchInspection

FILE_TYPES = ("pdf", "docx", "md", "txt", "html", "image")
DATE_RANGES = (0, 7, 30, 365)  # days; 0 = any time
EXCERPT = 520  # characters of a passage shown around its first marked word
MARK_STYLE = "background-color: rgba(255, 214, 10, 0.45);"


class SearchPanel(PanelMixin, QWidget):
    """Query, filters and scope above the ranked passages."""

    citationClicked = Signal(Citation, str)  # a passage to open in the viewer
    searched = Signal(object)  # the SearchInspection shown (tests, screenshots)

    def __init__(self, services: ChatServices, workers: WorkerSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services: ChatServices = services
        self.workers = workers
        self.result: SearchInspection | None = None
        self._explaining = False  # the result explains a "not found" answer
        self._serial = 0

        self.query = QLineEdit()
        self.query.setClearButtonEnabled(True)
        self.query.returnPressed.connect(self.search)
        self.search_button = QPushButton()
        self.search_button.clicked.connect(self.search)
        self.scope = QComboBox()
        self.type_combo = QComboBox()
        self.date_combo = QComboBox()
        for combo in (self.scope, self.type_combo, self.date_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.results = QTextBrowser()
        self.results.setOpenLinks(False)
        self.results.anchorClicked.connect(self._open)

        controls = QGridLayout()
        controls.addWidget(self.query, 0, 0, 1, 3)
        controls.addWidget(self.search_button, 0, 3)
        controls.addWidget(self.scope, 1, 0)
        controls.addWidget(self.type_combo, 1, 1)
        controls.addWidget(self.date_combo, 1, 2)
        controls.setColumnStretch(0, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(controls)
        layout.addWidget(self.summary)
        layout.addWidget(self.results, 1)
        self.retranslate()

    # ---- labels -------------------------------------------------------------------
    def retranslate(self) -> None:
        self.query.setPlaceholderText(self.tr("Search your documents (the passages answers would use)"))
        self.search_button.setText(self.tr("Search"))
        self._fill(self.type_combo, [(self.tr("All types"), "")]
                   + [(t.upper(), t) for t in FILE_TYPES])
        self._fill(self.date_combo, list(zip(
            (self.tr("Any time"), self.tr("Last 7 days"), self.tr("Last 30 days"),
             self.tr("Last year")), DATE_RANGES, strict=True)))
        self.refresh_scope()
        if self.result is not None:
            self._show(self.result)
        else:
            self.summary.setText(self.tr("The passages are listed as the answers rank them: what found each one (keywords, meaning), its rank and score, and the words of your query it contains."))

    @staticmethod
    def _fill(combo: QComboBox, items: Sequence[tuple[str, object]]) -> None:
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for label, data in items:
            combo.addItem(label, data)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(False)

    def refresh_scope(self) -> None:
        """The libraries to choose from (after the settings changed)."""
        names = self.services.searched_libraries()
        items: list[tuple[str, object]] = [(self.tr("Libraries your answers search"), "")]
        if len(names) > 1:
            items += [(self._library_name(name), name) for name in names]
        self._fill(self.scope, items)
        self.scope.setVisible(len(items) > 1)

    def _library_name(self, name: str) -> str:
        return self.tr("This computer") if name == "local" else self.tr("Team: %1").replace(
            "%1", name)

    # ---- searching ----------------------------------------------------------------
    def filters(self) -> SearchFilters | None:
        file_type = str(self.type_combo.currentData() or "")
        days = int(self.date_combo.currentData() or 0)
        since = ((datetime.now(UTC) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
                 if days else None)
        if not file_type and since is None:
            return None
        return SearchFilters(file_types=(file_type,) if file_type else (), since=since)

    def search(self, *, explain: bool = False) -> None:
        """Run the query in the box (`explain`: the "why not found" of an answer)."""
        query = self.query.text().strip()
        if not query:
            return
        self._serial += 1
        serial = self._serial
        filters, library = self.filters(), str(self.scope.currentData() or "")
        self._explaining = explain
        self.summary.setText(self.tr("Searching your documents…"))
        self.search_button.setEnabled(False)

        def shown(result: SearchInspection) -> None:
            if serial == self._serial:
                self._show(result)

        self.workers.call(lambda: self.services.search(query, filters=filters, library=library,
                                                       look_up_absent=explain),
                          name="search-view", on_result=shown, on_failed=self._failed)

    def explain(self, question: str) -> None:
        """Why an answer said "not found": the same search (no filters, every library the
        answers search), with the question's words no document uses."""
        self.query.setText(question)
        for combo in (self.scope, self.type_combo, self.date_combo):
            combo.setCurrentIndex(0)
        self.search(explain=True)

    def _failed(self, error: BaseException) -> None:
        self.search_button.setEnabled(True)
        self.summary.setText("")
        self.show_failure(error)

    # ---- the result ---------------------------------------------------------------
    def _show(self, result: SearchInspection) -> None:
        self.result = result
        self.search_button.setEnabled(True)
        self.summary.setText(self._summary_text(result))
        parts = []
        if self._explaining:
            parts.append(self._why_not_found(result))
        parts += [self._passage_html(p) for p in result.passages]
        if not result.passages:
            nothing = self.tr("No passage matches this search.")
            parts.append(f"<p><i>{escape(nothing)}</i></p>")
        self.results.setHtml("".join(parts))
        self.searched.emit(result)

    def _summary_text(self, result: SearchInspection) -> str:
        legs = " + ".join(self._leg(leg) for leg in ("keyword", "vector")
                          if leg in result.legs_used)
        text = self.tr("%n passage(s)", "", len(result.passages))
        if legs:
            # the search's legs (not "found by": a passage's words, singular in Portuguese)
            text += " · " + self.tr("via %1").replace("%1", legs)
        text += " · " + self.tr("searched: %1").replace(
            "%1", ", ".join(self._library_name(n) for n in result.libraries))
        for left in result.left_out:
            if left.reason == "filters":
                count = left.documents
                text += " · " + (self.tr("%n document(s) left out by the filters", "", count)
                                 if count is not None else
                                 self.tr("%1: could not count what the filters leave out")
                                 .replace("%1", self._library_name(left.library)))
            elif left.documents:
                text += " · " + self.tr("%1 is not searched (%n document(s))", "",
                                        left.documents).replace(
                    "%1", self._library_name(left.library))
            else:
                text += " · " + self.tr("%1 is not searched").replace(
                    "%1", self._library_name(left.library))
        for warning in result.warnings:
            text += f" · ⚠ {warning}"
        return text

    def _leg(self, leg: str) -> str:
        return self.tr("keywords") if leg == "keyword" else self.tr("meaning")

    def _why_not_found(self, result: SearchInspection) -> str:
        title = self.tr("Why “%1” was not found").replace("%1", result.query)
        lines = [f"<h3>{escape(title)}</h3>"]
        if result.absent:
            words = ", ".join(f"“{w}”" for w in result.absent)
            lines.append("<p>" + escape(self.tr("Words of your question that occur nowhere in your library: %1").replace("%1", words)) + "</p>")
        if result.missing_value:
            lines.append("<p>" + escape(self.tr("Your question asks for %1, and none of the closest passages states one.").replace("%1", value_name(result.missing_value))) + "</p>")
        filtered = result.left_out_by_filters
        scope = [x for x in result.left_out if x.reason == "scope"]
        if not filtered and not scope:
            lines.append("<p>" + escape(self.tr("No document was left out: every library your answers search was searched, without filters.")) + "</p>")
        lines.append("<p>" + escape(self.tr("The closest passages did not answer the question well enough to quote them. Judge them yourself:")) + "</p>")
        return "".join(lines)

    def _passage_html(self, passage: FoundPassage) -> str:
        citation = passage.citation
        pages = (str(citation.page) if citation.page_end <= citation.page
                 else f"{citation.page}–{citation.page_end}")
        where = self.tr("p. %1").replace("%1", pages)
        if passage.section:
            where += f" · {passage.section}"
        if citation.library != "local":
            where += f" · 📚 {citation.library}"
        ranks = []
        if passage.keyword_rank is not None:
            ranks.append(self.tr("keywords #%1").replace("%1", str(passage.keyword_rank)))
        if passage.vector_rank is not None:
            ranks.append(self.tr("meaning #%1").replace("%1", str(passage.vector_rank)))
        found = (self.tr("found by %1").replace("%1", " + ".join(ranks)) + " · "
                 + self.tr("score %1").replace("%1", f"{passage.score:.4f}"))
        if passage.matched:
            found += " · " + self.tr("words: %1").replace("%1", ", ".join(passage.matched))
        else:
            found += " · " + self.tr("none of your words (found by meaning)")
        return (f'<p style="margin-top:10px"><b>{passage.rank}.</b> '
                f'<a href="passage:{passage.rank}">{escape(citation.title)}</a> — '
                f"{escape(where)}<br><span style=\"color:#8a8a8a\">{escape(found)}</span></p>"
                f'<p style="margin-left:12px">{self._excerpt(passage)}</p>')

    def _excerpt(self, passage: FoundPassage) -> str:
        """The passage around its first marked word, marks highlighted, revoked words
        struck through and labelled."""
        text = passage.text
        first = passage.marks[0][0] if passage.marks else 0
        start = max(0, first - EXCERPT // 3)
        start = text.rfind(" ", 0, start) + 1 if start else 0
        end = min(len(text), start + EXCERPT)
        if end < len(text):  # at a word's end, not inside it
            end = max(start + 1, text.rfind(" ", start, end))
        cuts = {start, end}
        for a, b in (*passage.marks, *passage.revoked):
            cuts |= {max(start, min(end, a)), max(start, min(end, b))}
        edges = sorted(cuts)
        revoked_label = escape(self.tr("revoked"))
        out = ["… " if start else ""]
        struck_before = False
        for a, b in zip(edges, edges[1:], strict=False):
            piece = escape(text[a:b]).replace("\n", "<br>")
            struck = any(x <= a and b <= y for x, y in passage.revoked)
            if struck:
                piece = f"<s>{piece}</s>"
                if not struck_before:  # one label before each revoked stretch
                    piece = f'<span style="color:#8a8a8a">[{revoked_label}]</span> {piece}'
            struck_before = struck
            if any(x <= a and b <= y for x, y in passage.marks):
                piece = f'<span style="{MARK_STYLE}">{piece}</span>'
            out.append(piece)
        out.append(" …" if end < len(text) else "")
        return "".join(out)

    def _open(self, url: QUrl) -> None:
        if url.scheme() != "passage" or self.result is None or not url.path().isdigit():
            return
        rank = int(url.path())
        passage = next((p for p in self.result.passages if p.rank == rank), None)
        if passage is not None:
            self.citationClicked.emit(passage.citation, "")

    def passage_links(self) -> list[str]:
        """The hrefs of the listed passages (tests, tooling)."""
        return [f"passage:{p.rank}" for p in (self.result.passages if self.result else ())]
