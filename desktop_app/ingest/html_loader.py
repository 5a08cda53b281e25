"""HTML loading with BeautifulSoup and the standard library's html.parser, one page.

script/style/nav (and other non-content elements) are dropped; h1–h6 become headings;
block elements become paragraphs; a list's items keep the labels a browser shows ("1.",
"a)", "IV.", "•": `<ol type start>`, `<li value>`); `<br>` keeps a line break; tables
become rows with cells separated by " | ". Struck-through text (`<s>`, `<strike>`, `<del>`, a `line-through` style:
the revoked wording of a compiled law, as the official law sites print it) is recorded as
such. The encoding comes from a BOM or `<meta charset>`, else it is detected.
Size, element count and parse time are bounded by `limits` (checked before the tree is built),
and nesting depth while the tree is walked (without recursion).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    fold_header,
    list_number,
    normalize_line,
    table_to_text,
    whole_number,
)
from desktop_app.ingest.loaders import NO_TEXT_NOTE, decode_bytes, read_document_bytes
from desktop_app.ingest.sheets import MAX_COLUMNS
from desktop_app.ingest.types import LoadedDocument


def _word_set(words: str) -> frozenset[str]:
    """A set from a space-separated list (easier to read and extend than a list literal)."""
    return frozenset(words.split())


DROPPED_TAGS = ("script", "style", "nav", "noscript", "template", "svg", "canvas", "iframe",
                "object", "head")
_BLOCK_TAGS = _word_set(
    "address article aside blockquote body dd details dialog div dl dt fieldset figcaption "
    "figure footer form header hgroup hr li main menu ol p section summary ul caption"
)
_HEADING_TAGS = {f"h{level}": level for level in range(1, 7)}
_STRUCK_TAGS = frozenset({"s", "strike", "del"})
_LINE_THROUGH = re.compile(r"text-decoration[^;]*line-through", re.I)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)


def _cell_text(cell: Any) -> str:
    return " ".join(cell.get_text(" ", strip=True).split())


MAX_SPAN = 100  # a cell's colspan/rowspan as read (a hostile "rowspan=1000000" is cut)


def _span(cell: Any, attribute: str) -> int:
    value = str(cell.get(attribute) or "1").strip()
    return max(1, min(int(value), MAX_SPAN)) if value.isdigit() else 1


def _fill_spanned(texts: list[str], first: list[bool],
                  pending: dict[int, tuple[str, bool, int]]) -> None:
    """Fill the columns at the end of `texts` that cells of rows above span down into."""
    while len(texts) in pending:
        column = len(texts)
        text, starts, left = pending.pop(column)
        texts.append(text)
        first.append(starts)
        if left > 1:
            pending[column] = (text, starts, left - 1)


def _table_rows(table: Any) -> list[list[str | None]]:
    """A table's rows as a browser lays them out: a cell spanning rows stands in each of
    them (a label beside several rows), one spanning columns fills the first and leaves
    the others empty, so every row's cells line up with the header's. A header over
    several rows — leading rows of `<th>` only, or a first cell spanning rows down with a
    group spanning columns across — is one row, each column named by what is above it
    (`fold_header`: "Área plantada (ha) 2022")."""
    grid: list[tuple[list[str], list[bool]]] = []  # texts, and whether a cell starts there
    heads: list[bool] = []  # whether a row is all <th>
    grouped = False  # whether the first row has a cell spanning columns
    first_down = 1  # rows the first row's first cell spans
    pending: dict[int, tuple[str, bool, int]] = {}  # column → (text, starts, rows to fill)
    for row in table.find_all("tr"):
        if row.find_parent("table") is not table:
            continue  # a nested table's rows belong to that table
        cells = row.find_all(["td", "th"], recursive=False)
        texts: list[str] = []
        first: list[bool] = []
        for cell in cells:
            _fill_spanned(texts, first, pending)
            text, across, down = _cell_text(cell), _span(cell, "colspan"), _span(cell, "rowspan")
            if not grid and not texts and down > 1:
                first_down = down
            for k in range(min(across, MAX_COLUMNS - len(texts))):
                if down > 1:
                    pending[len(texts)] = (text, k == 0, down - 1)
                texts.append(text)
                first.append(k == 0)
        _fill_spanned(texts, first, pending)
        if not grid:  # (no row above fills any of its columns)
            grouped = len(texts) > len(cells)
        grid.append((texts, first))
        heads.append(bool(cells) and all(cell.name == "th" for cell in cells))
    depth = next((i for i, head in enumerate(heads) if not head), len(heads))
    if depth < 2 and grouped and 2 <= first_down < len(grid):
        depth = first_down
    rows: list[list[str | None]] = []
    if 2 <= depth < len(grid):
        rows.append(list(fold_header([texts for texts, _ in grid[:depth]])))
    else:
        depth = 0
    for texts, first in grid[depth:]:
        rows.append([text if starts else "" for text, starts in zip(texts, first, strict=True)])
    return rows


def _struck(tag: Any) -> bool:
    """Printed struck through: a strike tag or an inline `line-through` style."""
    name = getattr(tag, "name", None)
    if not name:
        return False
    style = tag.get("style") if hasattr(tag, "get") else None
    return name.lower() in _STRUCK_TAGS or bool(style and _LINE_THROUGH.search(str(style)))


# <ol type>: the number's style and what follows it
_OL_TYPES = {"1": ("decimal", "."), "a": ("lowerLetter", ")"), "A": ("upperLetter", ")"),
             "i": ("lowerRoman", ")"), "I": ("upperRoman", ".")}


def list_labels(listing: Any) -> dict[int, str]:
    """id() of each `<li>` of an `<ol>`/`<ul>` → the label a browser shows before it."""
    if listing.name.lower() in ("ul", "menu"):
        return {id(item): "•" for item in listing.find_all("li", recursive=False)}
    style, after = _OL_TYPES.get(str(listing.get("type") or "1").strip(), _OL_TYPES["1"])
    number = whole_number(listing.get("start"))
    number = 1 if number is None else number
    labels = {}
    for item in listing.find_all("li", recursive=False):
        own = whole_number(item.get("value"))
        number = number if own is None else own
        labels[id(item)] = list_number(number, style) + after
        number += 1
    return labels


class _Collector:
    """Walks the DOM and turns it into paragraphs."""

    def __init__(self, deadline: limits.Deadline | None = None) -> None:
        self.paragraphs: list[Paragraph] = []
        self._inline: list[str] = []
        self._struck: list[str] = []  # struck-through runs of the paragraph being built
        self._labels: dict[int, str] = {}  # id() of a list item → its label (list_labels)
        self._label = ""  # the label of the list item whose first paragraph comes next
        self._deadline = deadline

    def flush(self) -> None:
        text = "".join(self._inline)
        self._inline.clear()
        lines = [normalize_line(" ".join(line.split())) for line in text.split("\n")]
        text = "\n".join(line for line in lines if line)
        struck = tuple(self._struck)
        self._struck.clear()
        if text:
            if self._label:  # (an item's text may sit in a <p> of its own)
                text, self._label = f"{self._label} {text}", ""
            self.paragraphs.append(Paragraph(text, struck=struck))

    def walk(self, root: Any, name: str = "") -> None:
        """Depth-first over the tree with a stack of its own (a tree nested 1,000 deep made
        the recursive walk fail); deeper than `limits.MAX_HTML_DEPTH` is refused."""
        from bs4 import Comment, NavigableString, Tag

        # (children, block, struck through)
        stack: list[tuple[Any, bool, bool]] = [(iter(root.children), False, False)]
        while stack:
            children, block, struck = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                if block:
                    self.flush()
                continue
            if self._deadline is not None:
                self._deadline.check()
            if isinstance(child, Comment):
                continue
            if isinstance(child, NavigableString):
                self._inline.append(str(child))
                if struck and (run := normalize_line(" ".join(str(child).split()))):
                    self._struck.append(run)
                continue
            if not isinstance(child, Tag):
                continue
            tag = child.name.lower()
            if tag in _HEADING_TAGS:
                self.flush()
                title = normalize_line(" ".join(child.get_text(" ").split()))
                if title:
                    self.paragraphs.append(Paragraph(title, _HEADING_TAGS[tag]))
            elif tag == "table":
                self.flush()
                self.paragraphs.append(Paragraph(table_to_text(_table_rows(child))))
            elif tag == "pre":
                self.flush()
                self.paragraphs.append(Paragraph(child.get_text().strip("\n")))
            elif tag == "br":
                self._inline.append("\n")
            else:
                if len(stack) >= limits.MAX_HTML_DEPTH:
                    raise limits.too_deep(name or "the page", "HTML elements",
                                          limits.MAX_HTML_DEPTH)
                if tag in _BLOCK_TAGS:
                    self.flush()
                if tag in ("ol", "ul", "menu"):
                    self._labels.update(list_labels(child))
                elif tag == "li":
                    self._label = self._labels.pop(id(child), "")
                stack.append((iter(child.children), tag in _BLOCK_TAGS,
                              struck or _struck(child)))


def html_paragraphs(html: str, deadline: limits.Deadline | None = None, name: str = ""
                    ) -> tuple[list[Paragraph], str]:
    """Paragraphs of an HTML document and its `<title>` ('' when absent)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    if deadline is not None:
        deadline.check()
    title_tag = soup.find("title")
    title = " ".join(title_tag.get_text(" ").split()) if title_tag else ""
    for element in soup.find_all(DROPPED_TAGS):
        element.decompose()
    collector = _Collector(deadline)
    collector.walk(soup.body if soup.body is not None else soup, name)
    collector.flush()
    return collector.paragraphs, title


def load_html(path: Path) -> LoadedDocument:
    """Load an .html/.htm file as one page of text with headings and table rows."""
    name = path.name
    size = path.stat().st_size
    if size > limits.MAX_XML_BYTES:
        raise limits.too_big(name, "is", size, limits.MAX_XML_BYTES)
    deadline = limits.Deadline(name)
    data = read_document_bytes(path)
    elements = limits.count_elements([data], limits.MAX_XML_ELEMENTS)
    if elements > limits.MAX_XML_ELEMENTS:
        raise limits.too_many(name, "HTML elements", elements, limits.MAX_XML_ELEMENTS)
    declared = _META_CHARSET.search(data[:4096])
    text, notes = decode_bytes(data, declared.group(1).decode("ascii") if declared else None,
                               name=name)
    paragraphs, title = html_paragraphs(text, deadline, name)
    if not title:
        title = next((p.text for p in paragraphs if p.heading_level == 1), "")
    if not any(p.text for p in paragraphs):
        notes.append(NO_TEXT_NOTE)
    return LoadedDocument(
        path=str(path), file_type="html", title=title or path.stem,
        pages=[assemble_page(1, paragraphs)], notes=notes)
