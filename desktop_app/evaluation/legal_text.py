"""What a law's PDF says, read for the evaluation independently of the app's own parsing.

- `read_pdf_text(path)`: the document's current text and its struck-through runs, from
  PyMuPDF's spans. Compiled Brazilian laws strike revoked wording through; PyMuPDF gives
  each span `char_flags`, bit 1 = strike-out. A struck run shorter than four letters is
  not revoked text (ldb.pdf strikes the single "n"/digit beside a superscript "o").
- `RevokedText`: the distinctive revoked wording — struck pieces (one provision each,
  amendment notes left out, five words or more) whose words do not also occur in the
  current text (a compiled law often restores an old wording, struck once and printed
  again) — and `quotes_revoked(answer)`: whether an answer shows any of it. A piece is
  matched by any of its eight-word windows that the current text does not contain, so a
  shortened quote ("…") of revoked wording still counts.
- `article_starts(pages)` / `article_at(starts, page, offset)`: where each "Art. N"
  begins in the page texts the app indexed (the coordinates of `Citation.quote`), and
  which article a position falls in. A file may hold a second law after the first
  (ldb.pdf prints Lei 4.024 after Lei 9.394): the numbering dropping back and climbing
  again starts a new `part`; questions are about part 0. Articles quoted inside another
  (“Art. 7º …” amending another law) are not starts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from desktop_app.evaluation.answers import normalize

STRIKE_OUT = 1  # bit of a PyMuPDF span's `char_flags`
MIN_STRUCK_LETTERS = 4
MIN_REVOKED_WORDS = 5
WINDOW_WORDS = 8

# where a provision starts inside a struck run: "Art. 55-C.", "§ 2º", "Parágrafo único",
# "IV - ", "V-A - ", "b) "
_UNIT_START = re.compile(
    r"(?=\b(?:Art\.\s?\d|§\s?\d|Parágrafo único|[IVXLC]{1,7}(?:-[A-Z])?\s?[-–]\s|[a-z]\)\s))")
_NOTE = re.compile(
    r"\((?:Redação dada|Incluíd[oa]|Revogad[oa]|Vide|Vigência|Promulgação|Convertid[oa]|"
    r"Regulamento|Produção de efeito)[^)]*\)?|\bVigência\b", re.IGNORECASE)


@dataclass(frozen=True)
class PdfText:
    current: str  # the text without struck runs, whitespace squashed
    struck: tuple[str, ...]  # each struck run, whitespace squashed


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _join_lines(lines: Iterable[str]) -> str:
    """Lines of one block as running text: a soft hyphen at a line end joins the word."""
    out = ""
    for line in lines:
        glue = "" if not out or out.endswith("\u00ad") else " "
        out = out.removesuffix("\u00ad") + glue + (line.lstrip() if not glue else line)
    return out.replace("\u00ad", "")


def read_pdf_text(path: Path) -> PdfText:
    """The current text and the struck runs of a PDF (see the module docstring)."""
    from desktop_app.ingest.pdf import import_pymupdf

    pymupdf = import_pymupdf()
    current: list[tuple[int, str]] = []  # (page, a block's current text)
    struck: list[str] = []
    with pymupdf.open(path) as document:
        pages = len(document)
        for number, page in enumerate(document):
            data = page.get_text("dict", flags=pymupdf.TEXTFLAGS_DICT | pymupdf.TEXT_COLLECT_STYLES)
            for block in data["blocks"]:
                spans = [(span["text"], bool(span.get("char_flags", 0) & STRIKE_OUT), n)
                         for n, line in enumerate(block.get("lines", ()))
                         for span in line["spans"]]
                kept, runs = _split_struck(spans)
                current.append((number, kept))
                struck += runs
    furniture = _page_furniture(current, pages)
    text = " ".join(kept for _, kept in current if _furniture_key(kept) not in furniture)
    return PdfText(_clean(text), tuple(_clean(r) for r in struck if r.strip()))


def _furniture_key(text: str) -> str:
    return re.sub(r"\d+", "#", _clean(text))


def _page_furniture(blocks: list[tuple[int, str]], pages: int) -> frozenset[str]:
    """Blocks printed on half the pages or more, numbers aside (a browser's date and
    address lines, "n/26"): a provision running over a page break reads on without them,
    as the app's passages do, so its words are current text and not a revoked wording's."""
    if pages < 3:
        return frozenset()
    on: dict[str, set[int]] = {}
    for page, text in blocks:
        if text.strip():
            on.setdefault(_furniture_key(text), set()).add(page)
    return frozenset(key for key, seen in on.items() if len(seen) * 2 >= pages)


def _split_struck(spans: list[tuple[str, bool, int]]) -> tuple[str, list[str]]:
    """A block's spans (text, struck, line number) → its current text and its struck runs."""
    groups: list[tuple[bool, list[tuple[str, int]]]] = []
    for text, is_struck, line in spans:
        if groups and groups[-1][0] == is_struck:
            groups[-1][1].append((text, line))
        else:
            groups.append((is_struck, [(text, line)]))
    kept: list[tuple[str, int]] = []
    runs: list[str] = []
    for is_struck, pieces in groups:
        letters = sum(ch.isalpha() for text, _ in pieces for ch in text)
        if is_struck and letters >= MIN_STRUCK_LETTERS:
            runs.append(_lines_text(pieces))
            kept.append(("\n", pieces[-1][1]))  # a removed run separates what surrounds it
        else:
            kept += pieces
    return _lines_text(kept), runs


def _lines_text(pieces: list[tuple[str, int]]) -> str:
    lines: dict[int, str] = {}
    for text, line in pieces:
        lines[line] = lines.get(line, "") + text
    return _join_lines(lines[n] for n in sorted(lines))


def revoked_pieces(runs: Iterable[str]) -> list[str]:
    """Struck runs cut into provisions, amendment notes left out, five words or more."""
    pieces = []
    for run in runs:
        for part in _UNIT_START.split(run):
            text = _clean(_NOTE.sub(" ", part))
            if len(normalize(text).split()) >= MIN_REVOKED_WORDS:
                pieces.append(text)
    return pieces


class RevokedText:
    """The distinctive revoked wording of one document, and the check on an answer."""

    def __init__(self, pdf: PdfText) -> None:
        current = f" {normalize(pdf.current)} "
        self.pieces: list[str] = []
        self.windows: set[str] = set()
        for piece in revoked_pieces(pdf.struck):
            words = normalize(piece).split()
            if f" {' '.join(words)} " in current:
                continue  # printed again as current text: not distinctive
            self.pieces.append(piece)
            size = min(WINDOW_WORDS, len(words))
            for i in range(len(words) - size + 1):
                window = " ".join(words[i:i + size])
                if f" {window} " not in current:
                    self.windows.add(window)

    def quotes_revoked(self, answer: str) -> str | None:
        """The first revoked window a line of `answer` shows, or None."""
        for line in answer.splitlines():
            shown = f" {normalize(line)} "
            for window in self.windows:
                if f" {window} " in shown:
                    return window
        return None


# -- articles ------------------------------------------------------------------------------------

_ARTICLE = re.compile(r"(?m)^[ \t]*Art\.\s?(\d+)\s?(?:[º°o](?!\w))?(?:\s?-\s?([A-Z]{1,2})\b)?")


@dataclass(frozen=True)
class ArticleStart:
    page: int
    offset: int
    label: str  # "18", "55-J" (as printed, without º/o)
    part: int  # 0: the file's first law; 1: a law printed after it …


def _number(label: str) -> int:
    return int(label.split("-", 1)[0])


def article_starts(pages: Mapping[int, str]) -> list[ArticleStart]:
    """Every "Art. N" that begins a line of the page texts, in reading order, with its part."""
    found: list[tuple[int, int, str]] = []
    for number in sorted(pages):
        for match in _ARTICLE.finditer(pages[number]):
            label = match.group(1) + (f"-{match.group(2)}" if match.group(2) else "")
            found.append((number, match.start(), label))
    starts: list[ArticleStart] = []
    part = 0
    for i, (page, offset, label) in enumerate(found):
        if starts:
            previous = _number(starts[-1].label)
            following = _number(found[i + 1][2]) if i + 1 < len(found) else None
            n = _number(label)
            # the numbering restarts (and goes on from there): another law begins
            if n < previous and following is not None and n <= following <= n + 3:
                part += 1
        starts.append(ArticleStart(page, offset, label, part))
    return starts


def article_at(starts: list[ArticleStart], page: int, offset: int) -> ArticleStart | None:
    """The article a position (page, offset in that page's text) falls in; None before
    the first article."""
    found = None
    for start in starts:
        if (start.page, start.offset) <= (page, offset):
            found = start
        else:
            break
    return found
