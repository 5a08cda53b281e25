"""Quotable units of a passage: sentences and enumeration blocks, each with its exact span.

A sources-only answer quotes text verbatim, so every unit keeps `start`/`end` offsets
into the passage (`text[start:end]` is the quote; `shown` squashes its whitespace for
display). Units are built in three steps:

1. Paragraphs: blank lines separate them; a single line break starts a new one only
   before a list item or after a line that ends a clause (". ; : ! ?"), otherwise it is
   a wrapped line ("… menor que\\nquatorze dias").
2. Sentences: a paragraph breaks at ". ! ? …" before a capital, digit, quote, "§" or list
   marker, except after abbreviations ("art.", "nº", "Dr.", initials) and after a bare
   legal label, so "Art. 18. O titular …" and "Parágrafo único. As normas …" keep their
   label with their text.
3. Blocks: a sentence ending in ":" followed by list items ("I -", "a)", "1.", "•") is
   one unit with its items (bounded), so an enumeration is quoted whole; so is a heading
   followed by list items ("COMPETÊNCIAS GERAIS DA BASE NACIONAL COMUM CURRICULAR" over
   "1. Valorizar …" … "10. Agir …"): the heading is the list's lead. A list goes on past a
   page's running title and number kept between two of its items (not shown). A block cut
   by its passage's end is completed from its document (`whole_block`). After a lead
   ending in ":", paragraphs that open with their label ("O eu, o outro e o nós – É na
   interação…") are a list too, a report's whose items are whole paragraphs: shown as
   each item's first sentence (`_labelled_block`).

A table row (cells separated by " | ", as every loader writes tables) is a paragraph and
a sentence of its own, shown under its table's first row, the header ("Action | Labor
cost | …" above "AOA sensor system test | 40 work-hours … | $3,400"): a row's figures
mean nothing without the columns' names. A passage that opens inside a table has not got
its header: the answer finds it in the document (`table_header`).

`kind` says what a unit is; `flags` what makes it a poor answer (heading, question, an
instruction addressed to the reader or an assistant: `answer.injection`, a line of a table
of contents: a title and its page number among more of them, "Competências gerais da Base
Nacional Comum Curricular 9").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desktop_app.answer.injection import is_instruction
from desktop_app.text.sentences import is_bare_label, runs_on, sentence_spans
from desktop_app.text.structure import is_contents_line as contents_entry
from desktop_app.text.tables import cells, is_row, is_year

MAX_BLOCK_ITEMS = 12
MAX_BLOCK_CHARS = 1400
# a block completed from its document (a list longer than its passage): the window shows
# the first lines and "show all N" (answer/units.list_folds); the answer keeps them all
WHOLE_BLOCK_ITEMS = 200
WHOLE_BLOCK_CHARS = 24_000

_ITEM = re.compile(
    r"(?:[IVXLCDM]{1,7}\s*[-–—.)]\s*(?=\S)|[a-zA-Z]\)\s*|[ivxlcdm]{2,7}\)\s+|\d{1,3}\s*[.)-]\s+|[•▪◦●■□‣\-–—*]\s+)"
)
_CLAUSE_END = re.compile(r"[.;:!?…][\"'”’)\]»]*$")
_COLON_END = re.compile(r":[\"'”’)\]»]*$")
_LINE = re.compile(r"[^\n]+")
# a title followed by its page number ("* Competências gerais da Base Nacional Comum
# Curricular 9", "4.1.1. Língua Portuguesa 65"): no sentence ends before the number
CONTENTS_SHARE = 0.5  # of a passage's lines that look like contents lines: a table of contents
CONTENTS_MIN_LINES = 3

@dataclass(frozen=True)
class Unit:
    """One quotable piece of a passage."""

    start: int  # offsets into the passage text; passage[start:end] is the exact quote
    end: int
    text: str  # passage[start:end]
    # "sentence" | "item" | "block" (a lead sentence with its list items); a unit of a
    # structured document (answer/units.py): "provision" | "list"
    kind: str
    position: int  # order within the passage
    items: int = 0  # list items in a block
    continues: bool = False  # a block whose list goes on past the passage (or the bound)
    flags: frozenset[str] = frozenset()  # "heading", "question", "instruction", "lead_only"
    display: str = ""  # shown lines: a structural unit's (its path in front, notes out), a
    # table row's (its table's header above it)

    @property
    def shown(self) -> str:
        """The quote as displayed: one line per list item, spaces squashed within lines."""
        if self.display:
            return self.display
        return block_lines(self.text) if self.kind == "block" else " ".join(self.text.split())

    @property
    def quotable(self) -> bool:
        return not (self.flags & {"heading", "question", "instruction", "contents"})


def block_lines(text: str) -> str:
    """A block as shown: one line per list line, spaces squashed within lines, no blank
    lines."""
    return "\n".join(line for line in (" ".join(raw.split()) for raw in text.split("\n"))
                     if line)


@dataclass(frozen=True)
class _Span:
    start: int
    end: int


def _paragraphs(text: str) -> list[_Span]:
    """Logical paragraphs: lines joined unless a blank line, a list item or a clause end
    separates them."""
    spans: list[_Span] = []
    current: _Span | None = None
    previous_end = 0
    for match in _LINE.finditer(text):
        raw = match.group(0)
        if not raw.strip():
            continue
        start = match.start() + len(raw) - len(raw.lstrip())
        end = match.start() + len(raw.rstrip())
        line = text[start:end]
        blank_before = "\n\n" in text[previous_end:start].replace(" ", "").replace("\t", "")
        if current is not None and not blank_before and not _ITEM.match(line) \
                and not _CLAUSE_END.search(text[current.start:current.end]) \
                and not is_row(line) and not is_row(text[current.start:current.end]):
            current = _Span(current.start, end)  # a wrapped line
        else:
            if current is not None:
                spans.append(current)
            current = _Span(start, end)
        previous_end = end
    if current is not None:
        spans.append(current)
    return _join_bare_labels(text, spans)


def _join_bare_labels(text: str, spans: list[_Span]) -> list[_Span]:
    out: list[_Span] = []
    for span in spans:
        if out and is_bare_label(text[out[-1].start:out[-1].end]):
            out[-1] = _Span(out[-1].start, span.end)
        else:
            out.append(span)
    return out


TABLE_LOOKBACK = 2_000  # rows above a row searched for its table's header
_WORD = re.compile(r"[^\W\d_]{3,}")  # a word: three letters or more


def _figure_cells(row: str) -> int:
    """How many cells of `row` hold a figure: digits with no word beside them ("920.68",
    "R$ 98.400,00", "DHAW20190001"; not "18 meses" nor a column's name with its year,
    "Área plantada (Hectares) 2021"), and not a year alone (a column's name as often)."""
    return sum(1 for cell in cells(row) if re.search(r"[0-9]", cell)
               and not _WORD.search(cell) and not is_year(cell))


def is_header_row(row: str, below: str) -> bool:
    """Whether `row`, the first of a run of table rows, is its table's header: it is
    unless it holds figures in as many cells as the row `below` ("DHAW20190001 | 05/03/2019
    | … | 920.68" over "DHAW20190002 | 05/24/2019 | … | 907.96" is data whose header was
    printed further up; "Município | População | Área (km²)" over "Porto Alegre |
    1.332.570 | 496,7" is a header, and so is "Item | 2019 | 2020")."""
    figures = _figure_cells(row)
    return figures == 0 or figures < _figure_cells(below)


def _run_start(text: str, at: int) -> int | None:
    """Where the run of table rows (one per line, no blank line between) holding the row
    that starts at `at` begins; None when `at` does not start a row."""
    line_end = text.find("\n", at)
    if (at > 0 and text[at - 1] != "\n") or not is_row(
            text[at:line_end if line_end >= 0 else len(text)]):
        return None
    first = at
    for _ in range(TABLE_LOOKBACK):
        if first == 0 or text[first - 1] != "\n":
            break
        above = text.rfind("\n", 0, first - 1) + 1
        if not is_row(text[above:first - 1]):
            break
        first = above
    return first


def table_header(text: str, at: int) -> str | None:
    """The first row (the header, as shown) of the table whose row starts at `at` in
    `text`: the rows right above it, one per line, with no blank line between. None when
    `at` does not start a row that has rows above it."""
    first = _run_start(text, at)
    return None if first is None else _header_of_run(text, first, at)


def _header_of_run(text: str, first: int, at: int) -> str | None:
    """The header of the run of rows starting at `first`, for its row at `at`."""
    if first == at:
        return None
    header_end = text.index("\n", first)
    below_end = text.find("\n", header_end + 1)
    header = text[first:header_end]
    if not is_header_row(header, text[header_end + 1:below_end if below_end >= 0 else len(text)]):
        return None  # the run opens with data: its header is not right above it
    return " ".join(header.split())


CAPTION_CHARS = 80  # a line longer than this above a table's rows is text, not its title
CAPTION_LINES = 2


def table_caption(text: str, at: int) -> str | None:
    """The title printed on the lines right above the run of rows holding the row at `at`
    (no blank line between; at most `CAPTION_LINES`, each short and no row): a ballot's
    contest over its candidates ("STATE MEASURE 1" over "YES | 104", "NO | 214";
    "ATTORNEY GENERAL" and "VOTER NOMINATED" over "KAMALA D HARRIS | DEM | 68"). None
    when there is none."""
    first = _run_start(text, at)
    return None if first is None else _caption_of_run(text, first)


def table_context(text: str, at: int) -> tuple[str | None, str | None]:
    """(header, title) of the row starting at `at`: `table_header`, and when it has none,
    `table_caption` — the run of rows walked once for both."""
    first = _run_start(text, at)
    if first is None:
        return None, None
    header = _header_of_run(text, first, at)
    return header, None if header is not None else _caption_of_run(text, first)


def _caption_of_run(text: str, first: int) -> str | None:
    lines: list[str] = []
    while first and len(lines) < CAPTION_LINES and first >= 2 and text[first - 1] == "\n" \
            and text[first - 2] != "\n":
        above = text.rfind("\n", 0, first - 1) + 1
        line = text[above:first - 1].strip()
        if not line or len(line) > CAPTION_CHARS or is_row(line):
            break
        lines.insert(0, " ".join(line.split()))
        first = above
    return " ".join(lines) or None


def _sentences(text: str, paragraph: _Span) -> list[_Span]:
    if is_row(text[paragraph.start:paragraph.end]):
        return [paragraph]  # a row is one sentence, whatever its cells' full stops
    return [_Span(start, end) for start, end in sentence_spans(text, paragraph.start, paragraph.end)]


_DIVISION = re.compile(r"(?:se[çc][ãa]o|cap[íi]tulo|t[íi]tulo|livro|parte|section|chapter|part"
                       r"|secci[óo]n)\s+(?:[ivxlcdm]+|\d+)\b", re.IGNORECASE)


def is_heading(sentence: str) -> bool:
    """Capitals, a division label ("Seção III …") or a short line without a full stop. A
    longer line in title case is a title unless it ends on a word no title ends on ("…
    (DCNEI, Resolução CNE/CEB nº 5/2009), em seu Artigo 4º, definem a criança como", the
    names of bodies and laws capitalised, runs on into the quotation it introduces)."""
    letters = [ch for ch in sentence if ch.isalpha()]
    if not letters:
        return True
    upper = sum(ch.isupper() for ch in letters) / len(letters)
    closed = sentence.rstrip()[-1] in ".!;:…)\"”»?"
    words = [w for w in sentence.split() if len(w) >= 4 and w[0].isalpha()]
    title_case = (bool(words) and sum(w[0].isupper() for w in words) / len(words) >= 0.6
                  and not runs_on(sentence))
    return (upper >= 0.6 or (not closed and (len(sentence) < 60 or title_case))
            or (not closed and bool(_DIVISION.match(sentence))))


def _flags(sentence: str, kind: str) -> frozenset[str]:
    flags = set()
    stripped = sentence.rstrip()
    if stripped.endswith("?"):
        flags.add("question")
    if kind != "item" and is_heading(" ".join(stripped.split())):
        flags.add("heading")
    if is_instruction(sentence):
        flags.add("instruction")
    return frozenset(flags)


def segment(text: str, *, max_items: int = MAX_BLOCK_ITEMS,
            max_chars: int = MAX_BLOCK_CHARS, ends: bool = False) -> list[Unit]:
    """Sentences, list items and enumeration blocks of `text`, in reading order; a block
    holds at most `max_items` items and `max_chars` characters (`continues` past that).
    `ends`: `text` runs to its document's end (a list of labelled paragraphs that reaches
    it does not go on)."""
    pieces: list[tuple[_Span, bool]] = []  # (sentence span, starts a list item)
    labelled: set[int] = set()  # pieces opening a paragraph with its label ("Nome – …")
    for paragraph in _paragraphs(text):
        for i, span in enumerate(_sentences(text, paragraph)):
            item = i == 0 and bool(_ITEM.match(text, paragraph.start)) and not is_rule(
                text[paragraph.start:paragraph.end])
            if i == 0 and not item and _LABEL.match(text, paragraph.start):
                labelled.add(len(pieces))
            pieces.append((span, item))
    units: list[Unit] = []
    header: Unit | None = None  # the first row of the table being read
    in_table = False  # (a passage that opens inside a table has not got its header)
    for index, (span, is_item) in enumerate(pieces):
        sentence = text[span.start:span.end]
        kind = "item" if is_item else "sentence"
        unit = Unit(span.start, span.end, sentence, kind, len(units),
                    flags=_flags(sentence, kind))
        if not is_row(sentence):
            header, in_table = None, False
        elif not in_table and index > 0 and (
                index + 1 >= len(pieces)
                or not is_row(below := text[pieces[index + 1][0].start:pieces[index + 1][0].end])
                or is_header_row(sentence, below)):
            header, in_table = unit, True  # the header: not an answer on its own
        else:  # a row of data, under its header when the passage has it
            in_table = True
            unit = dataclasses.replace(unit, flags=unit.flags - {"heading"}, display=(
                f"{header.shown}\n{unit.shown}" if header is not None else ""))
        units.append(unit)
        colon = bool(_COLON_END.search(sentence))
        if colon or (kind == "sentence" and "heading" in unit.flags and not in_table
                     and index + 1 < len(pieces) and _opens_list(text, pieces[index + 1][0])):
            block = (_labelled_block(text, pieces, labelled, index, len(units), max_items,
                                     max_chars, ends)
                     if colon and index + 1 in labelled
                     else _block(text, pieces, index, len(units), max_items, max_chars))
            if block is not None:
                units.append(block)
    return _contents_flagged(units)


def is_contents_line(text: str) -> bool:
    """A title and its page number, as a table of contents prints them (a contents page
    in columns, read as a table: a cell of the row is one, the other may be a title's
    wrapped part)."""
    if is_row(text):
        return any(contents_entry(cell) for cell in cells(text))
    return contents_entry(text)


def _contents_flagged(units: list[Unit]) -> list[Unit]:
    """The lines of a table of contents flagged "contents" (not quotable): in a passage
    whose lines are mostly a title and a page number, those lines."""
    lines = [u for u in units if u.kind != "block"]
    contents = [is_contents_line(u.text) for u in lines]
    if sum(contents) < CONTENTS_MIN_LINES or sum(contents) < CONTENTS_SHARE * len(lines):
        return units
    flagged = {u.start for u, is_line in zip(lines, contents, strict=True) if is_line}
    return [dataclasses.replace(u, flags=u.flags | {"contents"})
            if u.kind != "block" and u.start in flagged else u for u in units]


_FIRST_MARKER = re.compile(r"(?:1|I|i|a|A)\s*[.)\-–—]|[•▪◦●■□‣\-–—*]\s")


def _opens_list(text: str, span: _Span) -> bool:
    """Whether the piece at `span` is a list's first item ("1.", "I -", "a)", a bullet): a
    heading over item "8." is a page's running title inside a list, not the list's lead."""
    return bool(_FIRST_MARKER.match(text, span.start)) and not is_rule(text[span.start:span.end])


def is_rule(line: str) -> bool:
    """A drawn rule, not a list item: dashes or dots with at most one letter ("- - - - x",
    the border of a transcript's caption; "* * *")."""
    return len(line.strip()) >= 5 and sum(ch.isalnum() for ch in line) <= 1


def whole_block(text: str) -> Unit | None:
    """The block whose lead opens `text` (a document's text from a list's lead on, at most
    `WHOLE_BLOCK_CHARS` + 1 characters: shorter, it runs to the document's end), with
    every item up to `WHOLE_BLOCK_ITEMS` / `WHOLE_BLOCK_CHARS`; None when none opens it."""
    return next((u for u in segment(text, max_items=WHOLE_BLOCK_ITEMS,
                                    max_chars=WHOLE_BLOCK_CHARS,
                                    ends=len(text) <= WHOLE_BLOCK_CHARS)
                 if u.kind == "block" and not text[:u.start].strip()), None)


def _block(text: str, pieces: list[tuple[_Span, bool]], lead: int, position: int,
           max_items: int = MAX_BLOCK_ITEMS, max_chars: int = MAX_BLOCK_CHARS) -> Unit | None:
    """The lead sentence `pieces[lead]` with the list items that follow it (bounded)."""
    start = pieces[lead][0].start
    end = pieces[lead][0].end
    items = 0
    continues = False
    hidden: list[_Span] = []  # a page's running title or number between two items
    following = pieces[lead + 1:]
    skip_to = 0
    last_item: _Span | None = None
    for k, (span, is_item) in enumerate(following):
        if k < skip_to:
            continue
        if not is_item and items == 0:
            break
        if not is_item and "\n" in text[end:span.start]:
            between = _running_lines(text, following, k)
            if between:  # the list goes on with its next item after them
                hidden.extend(s for s, _ in following[k:k + between])
                skip_to = k + between
                continue
            more = _item_paragraphs(text, following, k, last_item)
            if more:  # more paragraphs of the last item, then the list's next item
                end = following[k + more - 1][0].end
                skip_to = k + more
                continue
            break  # the list ended (a later sentence of the last item's paragraph stays)
        if items >= max_items or span.end - start > max_chars:
            continues = True
            break
        items += is_item
        last_item = span if is_item else last_item
        end = span.end
    else:
        # the passage ends inside the list unless its last item closes with a full stop
        continues = items > 0 and not text[start:end].rstrip().endswith(".")
    lead_text = text[pieces[lead][0].start:pieces[lead][0].end]
    if items == 0:
        return None
    flags = _flags(lead_text, "sentence") - {"heading"}
    hidden = [h for h in hidden if h.end <= end]
    shown = block_lines(without_spans(text, start, end, [(h.start, h.end) for h in hidden])
                        ) if hidden else ""
    return Unit(start, end, text[start:end], "block", position, items=items,
                continues=continues, flags=flags, display=shown)


# a paragraph that opens with its label: a few words, a spaced dash, the text ("O eu, o
# outro e o nós – É na interação com os pares…", "Conviver – …")
_LABEL = re.compile(r"[A-ZÀ-Ý][^\n.;:!?()–—]{1,60}?\s[–—-]\s+\S")
MAX_LABELLED_ITEM_CHARS = 4000  # of an item's paragraphs under its label (a page break too)
_NUMBERED_TITLE = re.compile(r"\d+(?:\.\d+)*\.?\s+\S")  # "3.2 OS CAMPOS…": a section


def _labelled_block(text: str, pieces: list[tuple[_Span, bool]], labelled: set[int],
                    lead: int, position: int, max_items: int = MAX_BLOCK_ITEMS,
                    max_chars: int = MAX_BLOCK_CHARS, ends: bool = False) -> Unit | None:
    """The lead `pieces[lead]` (ending in ":") over paragraphs that each open with their
    label ("O eu, o outro e o nós – É na interação…" … "Espaços, tempos… – …"): a list
    whose items are whole paragraphs, a report's or a policy's. It is shown as the lead and
    each item's first sentence ("…" for the rest of its paragraph), what says which the
    items are; the quote spans them all. An item's paragraphs go on until the next
    labelled one, within `MAX_LABELLED_ITEM_CHARS` and short of a numbered section's
    title. `max_chars` bounds what is shown."""
    start, end = pieces[lead][0].start, pieces[lead][0].end
    lines = [" ".join(text[start:end].split())]
    items, continues, k = 0, False, lead + 1
    while k in labelled:
        span = pieces[k][0]
        line = " ".join(text[span.start:span.end].split())
        if items >= max_items or sum(map(len, lines)) + len(line) > max_chars:
            continues = True
            break
        items, end = items + 1, span.end
        following = k + 1
        while (following < len(pieces) and following not in labelled
               and pieces[following][0].end - span.end <= MAX_LABELLED_ITEM_CHARS
               and not _section_title(text, pieces[following][0])):
            following += 1
        goes_on = k + 1 < len(pieces) and "\n" not in text[span.end:pieces[k + 1][0].start]
        lines.append(f"{line} …" if goes_on or following in labelled and following > k + 1
                     else line)
        if following not in labelled:
            # (the passage ended within the last item: the list may go on past it)
            continues = following >= len(pieces) and not ends
            break
        k = following
    if items < 2 and not continues:
        return None
    return Unit(start, end, text[start:end], "block", position, items=items,
                continues=continues, flags=_flags(lines[0], "sentence") - {"heading"},
                display="\n".join(lines))


def _section_title(text: str, span: _Span) -> bool:
    """A numbered section's title ("3.2 OS CAMPOS DE EXPERIÊNCIAS"): past the list."""
    line = " ".join(text[span.start:span.end].split())
    return bool(_NUMBERED_TITLE.match(line)) and is_heading(line)


MAX_RUNNING_LINES = 3  # a page's running title, its number, a section's title


def _running_lines(text: str, pieces: list[tuple[_Span, bool]], at: int) -> int:
    """How many lines from `pieces[at]` on are a page's running title or number inside a
    list: heading-like lines on their own, followed by an item that is not a list's first
    ("8." after "7.", not "1." nor a bullet); 0 when they are not."""
    return _before_next_item(text, pieces, at, MAX_RUNNING_LINES,
                             lambda span: is_heading(" ".join(text[span.start:span.end].split())))


def _before_next_item(text: str, pieces: list[tuple[_Span, bool]], at: int, most: int,
                      fits: Callable[[_Span], bool]) -> int:
    """How many pieces from `pieces[at]` on (at most `most`, each one `fits`) come before an
    item that is not a list's first, so the list goes on after them; 0 when they do not."""
    for count, (span, is_item) in enumerate(pieces[at:at + most + 1]):
        if is_item:
            return count if count and not _opens_list(text, span) else 0
        if not fits(span):
            return 0
    return 0


MAX_ITEM_PARAGRAPHS = 4  # sentences of an item's further paragraphs
MAX_ITEM_PARAGRAPH_CHARS = 800


def _item_paragraphs(text: str, pieces: list[tuple[_Span, bool]], at: int,
                     item: _Span | None) -> int:
    """How many sentences from `pieces[at]` on are further paragraphs of the list item
    `item` (an HTML `<li>` with two `<p>`, a Word item with a paragraph under it): at most
    `MAX_ITEM_PARAGRAPHS` sentences, `MAX_ITEM_PARAGRAPH_CHARS` characters, followed by an
    item that is not a list's first; 0 when they are not. An item that reads as a heading
    ("1. Introdução", a report's section) has no such paragraphs: the text under it is
    the section's."""
    if item is None or is_heading(" ".join(text[item.start:item.end].split())):
        return 0
    first = pieces[at][0].start
    return _before_next_item(text, pieces, at, MAX_ITEM_PARAGRAPHS,
                             lambda span: span.end - first <= MAX_ITEM_PARAGRAPH_CHARS)


def without_spans(text: str, start: int, end: int, spans: Sequence[tuple[int, int]]) -> str:
    """`text[start:end]` without `spans` ((start, end) offsets into `text`, in order, inside
    it): what a quote shows of a span that holds lines not its own."""
    out, at = [], start
    for a, b in spans:
        out.append(text[at:a])
        at = b
    out.append(text[at:end])
    return "".join(out)
