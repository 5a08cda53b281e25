"""Document structure: the hierarchy of legal texts and of numbered reports and contracts.

`parse_structure(text)` finds, at line starts, the units an analyst cites:

- divisions: LIVRO, PARTE, TÍTULO, CAPÍTULO, SEÇÃO, SUBSEÇÃO (and es/en), each with its
  title ("CAPÍTULO III DOS DIREITOS DO TITULAR");
- articles ("Art. 18.", "Art. 1o", "Art. 55-J.", "Artículo 5", "Article 5") with their caput,
  paragraphs ("§ 2º", "Parágrafo único"), incisos ("V -", "IV-A –"), alíneas ("a)") and
  items ("1.") under an alínea;
- clauses of contracts ("CLÁUSULA PRIMEIRA", "Cláusula 2ª") and numbered sections of
  reports ("1.1 Objeto", "2.3.1", or a short "3. Metodologia" heading line).

A law's units end where prose begins: a line that opens a sentence of its own after a
finished one, with none of the law's units among the next lines (a report that quotes
"Art. 36. § 1º …" and goes on in its own words; the signatures after a law's last
article). A label out of order is still the law's text.

A report's sections run in order too: an outline starts at 1 (again after a table of
contents), a top-level number moves on by at most two, a "2.1" belongs to the section 2
or 3 it follows, and an outline has at least two sections (or a contract's clause). A
footnote ("12 The magnitude of the command…"), a citation line ("14 CFR Part 39") or a
page number with the running title ("4 Row and Column Access Control…", the same title
under several numbers) is text, and so are the entries of a table of contents (`_Contents`):
"4.5.1.2. Ensino Religioso … 441" opens no section, so the preface after the contents is
under none.

Numbers must run in order (an article number never goes back, an inciso list starts at I
and counts up), so a law quoted inside an amending article, or "I -" written by chance,
stays text. A repeated number is accepted: compiled laws print a revoked wording and then
the current one with the same label. Given the struck-through (`revoked`) ranges, an
article label inside one is a unit of its own that does not move the count: the LGPD
strikes a whole run of articles (55-A … 55-K as a provisional measure wrote them) and then
prints them again as the law in force (55-A … 55-L).

A law may print a second series of articles under a heading of its own, numbered from 1
again: the Constitution's "ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS", a decree's
annex. An upper-case heading line followed by "Art. 1" after the articles have gone past 1
opens that series (a division above every other); its articles are labelled with the
heading's short name ("ADCT Art. 2º, I", "Anexo I Art. 1º"), so they are neither text of the
last article nor mistaken for the first ones.

Each `Node` knows its span (`start`..`end`, descendants included) and its own text
(`text_start`..`body_end`, before its first child); `Structure.label(node)` is the cited
path ("Art. 14, § 3º, VI, a"). Amendment notes ("(Redação dada pela Lei nº 13.853, de
2019)", "(Incluído pela …) Vigência", "(VETADO)") are found by `note_spans`: they are the
unit's metadata, never words of a quote. Offsets index the text given; nothing is copied.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from desktop_app.text.fold import fold

DIVISION, CLAUSE, SECTION = "division", "clause", "section"
ARTICLE, PARAGRAPH, ITEM, LETTER, SUBITEM = "article", "paragraph", "item", "letter", "subitem"
LEGAL_KINDS = (ARTICLE, PARAGRAPH, ITEM, LETTER, SUBITEM)

_DIVISION_RANK = {"livro": 0, "parte": 0, "book": 0, "part": 0, "titulo": 1, "title": 1,
                  "capitulo": 2, "chapter": 2, "secao": 3, "seccion": 3, "subsecao": 4,
                  "subseccion": 4}
_RANK = {CLAUSE: 5, ARTICLE: 20, PARAGRAPH: 21, ITEM: 22, LETTER: 23, SUBITEM: 24}
_SECTION_RANK = 10  # + depth: "1" 11, "1.1" 12, …

_LINE_START = re.compile(r"(?:^|\n)[ \t]*(?=\S)")
_DIVISION_RE = re.compile(
    r"(LIVRO|PARTE|T[ÍI]TULO|CAP[ÍI]TULO|SE[ÇC][ÃA]O|SUBSE[ÇC][ÃA]O|SECCI[ÓO]N|SUBSECCI[ÓO]N"
    r"|BOOK|PART|TITLE|CHAPTER)\s+([IVXLCDM]+|\d+|[ÚU]NIC[OA])\b[ \t]*[-–—.:]?[ \t]*", re.I)
# (a letter after a hyphen is part of the number only when written on to it: "Art. 55-A",
# "Art. 4º-A"; "Art. 2º - A lei posterior…", as older codes print it, is art. 2º saying "A
# lei…", and "§ 1º - O prazo" is § 1º)
_ARTICLE_RE = re.compile(
    r"((?:Art|ART)(?:igo|IGO|ículo|iculo|ÍCULO)?\.?|Article|ARTICLE)[ \t]*(\d{1,4}(?:\.\d{3})?)[ \t]*"
    r"(\.?[º°ª](?![a-z])|o(?![a-z]))?"  # "Art. 1º", "Art. 1o", "Artigo 1.º" (Portugal)
    r"(?:-([A-Z])\b)?[ \t]*[.:–—-]?[ \t]*")
# an upper-case heading line of words (no digits): "ATO DAS DISPOSIÇÕES … TRANSITÓRIAS",
# "ANEXO I", "ANEXO ÚNICO"
_SERIES_HEADING = re.compile(r"[A-ZÀ-Ý][A-ZÀ-Ý'’\-]*(?:[ \t]+[A-ZÀ-Ý][A-ZÀ-Ý'’\-]*){1,11}[ \t]*")
_MINOR_WORDS = frozenset(("da", "das", "de", "do", "dos", "e", "em", "para", "por", "com", "of",
                          "the", "and", "del", "la", "las", "los", "y"))
_PARAGRAPH_RE = re.compile(r"(?:§[ \t]*(\d{1,3})[ \t]*([º°o](?![a-z]))?(?:-([A-Z])\b)?"
                           r"|(Par[áa]grafo [úu]nico))[ \t]*[.:–—-]?[ \t]*", re.I)
_ITEM_RE = re.compile(r"([IVXLCDM]{1,7})(?:-([A-Z]))?[ \t]*[-–—][ \t]*(?=\S)")
_LETTER_RE = re.compile(r"([a-z])\)[ \t]+")
_LEGAL_LABELS = (_ARTICLE_RE, _PARAGRAPH_RE, _ITEM_RE)  # (an alínea opens in lower case)
_SUBITEM_RE = re.compile(r"(\d{1,2})[.)][ \t]+")
_CLAUSE_RE = re.compile(r"(CL[ÁA]USULA|Cl[áa]usula)[ \t]+([\wºª]+)[ \t]*[-–—.:]?[ \t]*")
_SECTION_RE = re.compile(r"(\d{1,2}(?:\.\d{1,2}){0,3})\.?[ \t]+(?=[A-ZÀ-Ú])")
_QUOTED_LABEL = re.compile(r"[“\"]\s*(?:Art|§|[IVXLCDM]{1,7}\s*[-–—]|[a-z]\))")
_QUOTE_CLOSE = re.compile(r"[”\"]\s*(?:\((?:NR|AC)\))?\s*[.;]?\s*$|\(NR\)")
MAX_QUOTED_LINES = 200
RUBRIC_CHARS = 60  # a code's rubric over an article ("Homicídio qualificado") is short
# what an official site prints beside a compiled law's units as links, on a line of its own
_LINK_WORDS = re.compile(r"Vig[êe]ncia|Produ[çc][ãa]o de efeitos?|Regulamento|Mensagem de veto"
                         r"|Texto compilado|Vide\b.*|Convers[ãa]o\b.*|Promulga[çc][ãa]o\b.*",
                         re.I)
PROSE_LOOKAHEAD = 600  # characters after a line of prose searched for the law's next unit
# a law's closing line, its place and date: "Brasília, 14 de agosto de 2018; 197º da
# Independência…", "Brasília, 5 de outubro de 1988." (a constitution's, before its ADCT)
_SIGNED = re.compile(r"[A-ZÀ-Ý][^\W\d][\w ]{0,40}, (?:em )?\d{1,2}[º°o]? de [^\W\d]+ de \d{4}\b")
# A table of contents: a title and its page number ("4.1. A área de Linguagens 61"), an
# entry wrapped over lines ending on one; `CONTENTS_NEAR` lines before and after a line,
# at least `CONTENTS_DENSE` such lines make the region a table of contents.
_CONTENTS_LINE = re.compile(r"(?:[•▪◦●■*\-–—]\s*)?(?:\d{1,2}(?:\.\d{1,2})*\.?\s+)?"
                            r"[^\W\d][^.;!?]{1,150}?[^\W\d)]\s+\d{1,3}")
CONTENTS_NEAR = 6
CONTENTS_DENSE = 4

# Amendment and veto notes of compiled laws: metadata of the unit they follow.
NOTE = re.compile(
    r"\((?:Reda[çc][ãa]o\s+dada|Inclu[íi]d[oa]s?|Acrescid[oa]s?|Acrescentad[oa]s?|Revogad[oa]s?"
    r"|Renumerad[oa]s?|Vide\b|Vig[êe]ncia|VETAD[OA]S?|Vetad[oa]s?|Produ[çc][ãa]o\s+de\s+efeitos?"
    r"|Regulamento|Regulamentad[oa]|Alterad[oa]|Suprimid[oa]|Convers[ãa]o|Promulga[çc][ãa]o"
    r"|Declarad[oa]|Suspens[oa]|Redacci[óo]n|Derogad[oa]|Modificad[oa]|Amended|Repealed"
    r"|Added|Inserted)[^()\n]{0,160}(?:\n[^()\n]{0,100})?"  # (wrapped over two lines)
    r"(?:\([^()\n]{0,60}\)[^()\n]{0,60})?\)(?:[ \t]*Vig[êe]ncia)?",
    re.I)
# A unit whose text is only a veto or a revocation ("II - (VETADO);", "§ 3º (Revogado).")
_EMPTY_UNIT = re.compile(r"^[\s;.,:e]*$")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def roman(numeral: str) -> int:
    """The value of a Roman numeral (0 when it is not one)."""
    total = 0
    values = [_ROMAN.get(ch, 0) for ch in numeral.upper()]
    if not values or 0 in values:
        return 0
    for i, value in enumerate(values):
        total += -value if i + 1 < len(values) and values[i + 1] > value else value
    return total


def ordinal(number: str) -> str:
    """"7" → "7º" (Brazilian usage: ordinal up to nine), "10" → "10"."""
    return f"{number}º" if number.isdigit() and int(number) < 10 else number


@dataclass
class Node:
    """One unit of a document's structure; offsets index the parsed text."""

    index: int
    kind: str
    label: str  # "Art. 18", "§ 2º", "Parágrafo único", "V", "a", "1", "CAPÍTULO III", "3.2"
    key: tuple[int, str]  # its number for ordering checks (value, suffix)
    start: int  # where its label begins
    text_start: int  # where its own text begins
    body_end: int  # end of its own text (first child's start, else `end`)
    end: int  # end of the unit, descendants included
    parent: int | None
    rank: int
    title: str = ""  # divisions, clauses and sections: their heading text

    @property
    def legal(self) -> bool:
        return self.kind in LEGAL_KINDS


@dataclass
class Structure:
    """A parsed document: nodes in reading order, with navigation helpers."""

    text: str
    nodes: list[Node]

    def __post_init__(self) -> None:
        self._starts = [n.start for n in self.nodes]
        self.children: dict[int | None, list[Node]] = {}
        for node in self.nodes:
            self.children.setdefault(node.parent, []).append(node)

    def __bool__(self) -> bool:
        return bool(self.nodes)

    @property
    def is_legal(self) -> bool:
        return sum(n.kind == ARTICLE for n in self.nodes) >= 2

    def at(self, offset: int) -> Node | None:
        """The deepest unit whose span holds `offset` (units nest: it is the last unit
        starting at or before `offset`, or one of its ancestors)."""
        i = bisect.bisect_right(self._starts, offset) - 1
        node = self.nodes[i] if i >= 0 else None
        while node is not None and not node.start <= offset < node.end:
            node = self.nodes[node.parent] if node.parent is not None else None
        return node

    def ancestors(self, node: Node) -> list[Node]:
        """`node` and the units that hold it, outermost first."""
        chain = [node]
        while chain[0].parent is not None:
            chain.insert(0, self.nodes[chain[0].parent])
        return chain

    def label(self, node: Node | None) -> str:
        """The cited path: "Art. 14, § 3º, VI, a", "Art. 7º, parágrafo único", "3.2"."""
        if node is None:
            return ""
        chain = [n for n in self.ancestors(node) if n.kind not in (DIVISION,)]
        if any(n.legal for n in chain):
            chain = [n for n in chain if n.legal]
        parts = [n.label if i == 0 or n.kind != PARAGRAPH or n.key[0] else n.label.lower()
                 for i, n in enumerate(chain)]
        return ", ".join(parts)

    def headings(self, node: Node) -> list[str]:
        """The titles of the divisions, clauses and sections that hold `node`."""
        return [(n.title if fold(n.label) == fold(n.title) else f"{n.label} {n.title}").strip()
                for n in self.ancestors(node) if n.kind in (DIVISION, CLAUSE, SECTION)]

    def title_of(self, node: Node) -> str:
        """The title nearest `node`: its own (a rubric, a clause's or a section's heading) or
        that of the innermost division holding it; "" when none has one."""
        return next((n.title for n in reversed(self.ancestors(node)) if n.title), "")

    def list_items(self, node: Node) -> list[Node]:
        """The enumeration that follows a unit's own text (incisos of a caput or §, alíneas
        of an inciso, items of an alínea), without the article's paragraphs."""
        below = {ARTICLE: ITEM, PARAGRAPH: ITEM, ITEM: LETTER, LETTER: SUBITEM}.get(node.kind)
        return [c for c in self.children.get(node.index, []) if c.kind == below]

    def article_of(self, node: Node) -> Node | None:
        return next((n for n in self.ancestors(node) if n.kind == ARTICLE), None)


def note_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Amendment/veto notes in `text[start:end]` as offsets (see `NOTE`)."""
    return [(m.start(), m.end()) for m in NOTE.finditer(text, start, len(text) if end is None
                                                        else end)]


def opens_article(line: str) -> bool:
    """Whether `line` opens an article ("Art. 37. A administração…", "Artigo 5º") or a sole
    paragraph ("Parágrafo único."): a unit of a law, which starts a line of its own."""
    line = line.lstrip()
    return bool(_ARTICLE_RE.match(line)) or fold(line[:15]) == "paragrafo unico"


def opens_list_item(line: str) -> bool:
    """Whether `line` opens with the label of an inciso ("IV - ", "IV-A – "), an alínea
    ("b) ") or an item ("3. "): a line of a list as an answer shows it."""
    line = line.lstrip()
    return any(label.match(line) for label in (_ITEM_RE, _LETTER_RE, _SUBITEM_RE))


def is_contents_line(line: str) -> bool:
    """A title followed by its page number, as a table of contents prints it."""
    return bool(_CONTENTS_LINE.fullmatch(" ".join(line.split())))


class _Contents:
    """Whether a line is in a table of contents: at least `CONTENTS_DENSE` contents lines
    (`is_contents_line`) among itself and the `CONTENTS_NEAR` non-empty lines before and
    after it. An entry wrapped over lines ("4.1.1.1. Língua Portuguesa no Ensino Fundamental
    –" … "de conhecimento e habilidades 87") is in the region with the lines that end it,
    so its number is not a section of the outline. Lines are tested when asked (only
    those that open like a section are)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.flags: dict[int, bool] = {}

    @cached_property
    def starts(self) -> list[int]:  # (a text with no section candidate never needs them)
        return [m.end() for m in _LINE_START.finditer(self.text)]

    def _flag(self, i: int) -> bool:
        if i not in self.flags:
            at = self.starts[i]
            end = self.text.find("\n", at)
            self.flags[i] = is_contents_line(self.text[at:len(self.text) if end < 0 else end])
        return self.flags[i]

    def __contains__(self, at: int) -> bool:
        i = bisect.bisect_left(self.starts, at)
        if i >= len(self.starts) or self.starts[i] != at:
            return False
        near = range(max(0, i - CONTENTS_NEAR), min(len(self.starts), i + CONTENTS_NEAR + 1))
        return sum(self._flag(j) for j in near) >= CONTENTS_DENSE


def is_empty_unit(body: str) -> bool:
    """A unit whose words are only notes: "(VETADO);", "(Revogado)." (nothing to quote)."""
    return bool(_EMPTY_UNIT.match(NOTE.sub(" ", body)))


class _Parser:
    def __init__(self, text: str, revoked: Sequence[tuple[int, int]] = (),
                 sections: bool = True) -> None:
        self.text = text
        self.sections = sections
        self.last_section: int | None = None  # top-level number of the last section
        self.running = _running_titles(text) if sections else frozenset()
        self.contents: _Contents | frozenset[int] = _Contents(text) if sections else frozenset()
        self.revoked = sorted(revoked)
        self._revoked_starts = [a for a, _ in self.revoked]
        self.nodes: list[Node] = []
        self.stack: list[Node] = []
        self.last_article: tuple[int, str] | None = None
        self.series = ""  # the short name of a second series of articles ("ADCT")
        self.quoted = False  # inside text quoted by an amending article
        self.quoted_lines = 0
        self.rubric: tuple[int, str] | None = None  # (start, words) of a unit's rubric
        self.rubrics: list[tuple[int, int]] = []  # (start, the unit's start) of each

    def parse(self) -> Structure:
        for match in _LINE_START.finditer(self.text):
            self._line(match.end())
        for node in self.stack:
            node.end = len(self.text)
        cut = dict((end, start) for start, end in self.rubrics)
        for node in self.nodes:  # a rubric is not a word of the unit before it
            node.end = cut.get(node.end, node.end)
        for i, node in enumerate(self.nodes):
            following = self.nodes[i + 1] if i + 1 < len(self.nodes) else None
            first_child = following is not None and following.parent == node.index
            node.body_end = cut.get(following.start, following.start) \
                if following is not None and first_child else node.end
        return Structure(self.text, self.nodes)

    def _line(self, at: int) -> None:
        line_end = self.text.find("\n", at)
        line = self.text[at:len(self.text) if line_end < 0 else line_end]
        if self._skip_quoted(at, line):
            return
        found = self._marker(at, line)
        if found is None:
            self.rubric = (at, line.strip()) if self._is_rubric(at, line) else None
            if self.rubric is None and self._ends_law(at, line):
                while self.stack and self.stack[-1].legal:
                    self.stack.pop().end = at
            return
        kind, label, key, text_start, title, rank = found
        if self.rubric is not None and kind in (ARTICLE, PARAGRAPH) and not title:
            self.rubrics.append((self.rubric[0], at))
            title = self.rubric[1]
        self.rubric = None
        while self.stack and self.stack[-1].rank >= rank:
            self.stack.pop().end = at
        parent = self.stack[-1].index if self.stack else None
        node = Node(len(self.nodes), kind, label, key, at, text_start, at, at, parent, rank,
                    title)
        self.nodes.append(node)
        self.stack.append(node)
        if kind == ARTICLE and not self._struck(at):
            self.last_article = key

    def _is_rubric(self, at: int, line: str) -> bool:
        """A code's rubric: a short line naming the article or § that follows ("Homicídio
        simples" over "Art. 121. Matar alguém:", "Caso de diminuição de pena" over "§ 1º"),
        after a finished unit, with no end punctuation, no digit and no amendment note; not
        a page's running title. It is the next unit's title, not a word of the one before.
        (A line right under a chapter's title is left to the chapter: "Da Organização da
        Educação / Nacional" is a title wrapped, and the unit would take "Nacional" for the
        chapter's title.)"""
        words = line.strip()
        if not self.stack or not self.stack[-1].legal:
            return False
        before = self.text[max(0, at - 80):at].rstrip()
        if not 2 < len(words) <= RUBRIC_CHARS \
                or not words[:1].isupper() or words[-1] in ".;:,-–—" \
                or any(c.isdigit() for c in words) or NOTE.search(words) \
                or _LINK_WORDS.fullmatch(words) \
                or fold(words) in self.running or self._struck(at):
            return False
        if not before.endswith((".", ";", ")", ".”", '."')):
            return False
        after = _LINE_START.search(self.text, at + len(line))
        return after is not None and any(label.match(self.text, after.end())
                                         for label in (_ARTICLE_RE, _PARAGRAPH_RE))

    def _ends_law(self, at: int, line: str) -> bool:
        """Prose after an article: a line that opens a sentence of its own (a capital or a
        digit, after a finished sentence), with no unit of the law among the next lines. A
        report that quotes "Art. 36. § 1º …" goes on in its own words, which are not the
        article's; a law's units follow one another (a caput broken by a page, an amendment
        note or a "Vigência" line is followed by the article's next paragraph or inciso)."""
        if not self.stack or not self.stack[-1].legal or not line[:1].isupper() and \
                not line[:1].isdigit() or NOTE.match(line) or any(
                    label.match(self.text, at) for label in _LEGAL_LABELS):
            return False  # (a label out of order is the law's text, not prose)
        before = self.text[max(0, at - 80):at].rstrip()  # (not a copy of all before it)
        if not before.endswith((".", "!", "?", ".)", ".”", '."')):
            return False
        if _SIGNED.match(line):  # the law's closing line, whatever follows it (an ADCT)
            return True
        after = at + len(line)
        following = self.text[after:after + PROSE_LOOKAHEAD]
        return not any(label.match(self.text, m.end() + after)
                       for m in _LINE_START.finditer(following)
                       for label in (_PARAGRAPH_RE, _ITEM_RE, _LETTER_RE))

    def _skip_quoted(self, at: int, line: str) -> bool:
        """Lines of a law quoted by an amending article ("“Art. 7º …” (NR)") are text: from
        a line opening with a quote mark and a legal label to the line that closes the
        quote, for at most `MAX_QUOTED_LINES` lines; an article numbered next ends it."""
        if self.quoted:
            self.quoted_lines += 1
            if _QUOTE_CLOSE.search(line) or self.quoted_lines > MAX_QUOTED_LINES:
                self.quoted = False
                return True
            m = _ARTICLE_RE.match(self.text, at)
            if m and self.last_article and int(m.group(2).replace(".", "")) == \
                    self.last_article[0] + 1:
                self.quoted = False
                return False
            return True
        if _QUOTED_LABEL.match(line) and self.stack:
            self.quoted = not _QUOTE_CLOSE.search(line[1:])
            self.quoted_lines = 0
            return True
        return False

    def _struck(self, at: int) -> bool:
        i = bisect.bisect_right(self._revoked_starts, at) - 1
        return i >= 0 and self.revoked[i][0] <= at < self.revoked[i][1]

    def _open(self, kind: str) -> Node | None:
        return next((n for n in reversed(self.stack) if n.kind == kind), None)

    def _siblings_ok(self, kind: str, parent_kinds: tuple[str, ...], key: tuple[int, str],
                     at: int) -> bool:
        """A list number continues the open list of that kind under the nearest parent."""
        parent = next((n for n in reversed(self.stack) if n.kind in parent_kinds or
                       n.kind == kind), None)
        if parent is None:
            return key[0] == 1 and not key[1]
        if parent.kind == kind:  # a sibling: the same number (a new wording) or the next
            return key[0] in (parent.key[0], parent.key[0] + 1) or (
                key[0] == parent.key[0] and key[1] >= parent.key[1]) or \
                self._replaces_vetoed(parent, key, at)
        return key[0] == 1 and not key[1]

    def _replaces_vetoed(self, last: Node, key: tuple[int, str], at: int) -> bool:
        """A number going back to a vetoed run: "X - (VETADO); XI - (VETADO); XII - (VETADO).
        X - suspensão parcial …" (vetoed items promulgated later, printed after the vetoes
        in compiled laws) — the new X is the list's item, not text of the vetoed XII."""
        if key[0] >= last.key[0]:
            return False
        siblings = [n for n in self.nodes if n.parent == last.parent and n.kind == last.kind]
        same = [i for i, n in enumerate(siblings) if n.key == key]
        if not same:
            return False
        run = siblings[same[-1]:]
        ends = [n.start for n in run[1:]] + [at]
        return all(is_empty_unit(self.text[n.text_start:end]) for n, end in zip(run, ends,
                                                                                strict=True))

    def _marker(self, at: int, line: str) -> tuple[str, str, tuple[int, str], int, str, int] | None:
        text = self.text
        if self._opens_series(at, line):
            self.series = series_name(line.strip())
            self.last_article = None
            return DIVISION, self.series, (0, ""), at + len(line), line.strip()[:160], -1
        if m := _DIVISION_RE.match(text, at):
            word = fold(m.group(1))
            title = text[m.end():at + len(line)].strip(" –—-.:")
            if not title and len(line) < 40:  # the title is the next line
                nxt = text[at + len(line):].lstrip("\n")
                title = nxt.split("\n", 1)[0].strip()[:120] if nxt[:1].isupper() else ""
            rank = _DIVISION_RANK.get(word, 3)
            label = f"{m.group(1).upper()} {m.group(2).upper()}"
            return DIVISION, label, (0, ""), m.end(), title[:160], rank
        if m := _ARTICLE_RE.match(text, at):
            key = (int(m.group(2).replace(".", "")), m.group(4) or "")
            struck = self._struck(at)
            if self.last_article is not None and key < self.last_article and not struck:
                return None  # an article cited or quoted out of order: text
            word = "Article" if m.group(1).lower() == "article" else "Art."
            label = f"{word} {ordinal(m.group(2))}" + (f"-{m.group(4)}" if m.group(4) else "")
            label = f"{self.series} {label}" if self.series else label
            return ARTICLE, label, key, m.end(), "", _RANK[ARTICLE]
        article = self._open(ARTICLE)
        if article is not None:
            if m := _PARAGRAPH_RE.match(text, at):
                key = (0, "único") if m.group(4) else (int(m.group(1)), m.group(3) or "")
                last = next((n for n in reversed(self.stack) if n.kind == PARAGRAPH), None)
                ok = (last is None and key[0] in (0, 1) and not m.group(3)) or (
                    last is not None and key[0] in (last.key[0], last.key[0] + 1) and key[0])
                if ok:
                    label = "Parágrafo único" if m.group(4) else \
                        f"§ {ordinal(m.group(1))}" + (f"-{m.group(3)}" if m.group(3) else "")
                    return PARAGRAPH, label, key, m.end(), "", _RANK[PARAGRAPH]
            if m := _ITEM_RE.match(text, at):
                key = (roman(m.group(1)), m.group(2) or "")
                if key[0] and self._siblings_ok(ITEM, (ARTICLE, PARAGRAPH), key, at):
                    label = m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")
                    return ITEM, label, key, m.end(), "", _RANK[ITEM]
            if m := _LETTER_RE.match(text, at):
                key = (ord(m.group(1)) - ord("a") + 1, "")
                if self._open(ITEM) is not None and self._siblings_ok(LETTER, (ITEM,), key, at):
                    return LETTER, m.group(1), key, m.end(), "", _RANK[LETTER]
            if m := _SUBITEM_RE.match(text, at):
                key = (int(m.group(1)), "")
                if self._open(LETTER) is not None and \
                        self._siblings_ok(SUBITEM, (LETTER,), key, at):
                    return SUBITEM, m.group(1), key, m.end(), "", _RANK[SUBITEM]
            return None
        if m := _CLAUSE_RE.match(text, at):
            title = text[m.end():at + len(line)].strip(" –—-.:")
            return CLAUSE, f"Cláusula {m.group(2)}", (0, ""), m.end(), title[:160], _RANK[CLAUSE]
        if self.sections and (m := _SECTION_RE.match(text, at)) and at not in self.contents:
            number = m.group(1)
            depth = number.count(".") + 1
            heading_like = len(line) <= 90 and not line.rstrip().endswith((".", ";", ":", ","))
            if depth >= 2 or heading_like:
                title = text[m.end():at + len(line)].strip() if heading_like else ""
                top = int(number.split(".")[0])
                if not self._section_in_order(top, depth) or \
                        depth == 1 and fold(title) in self.running:
                    return None
                self.last_section = top
                return SECTION, number, (depth, number), m.end(), title[:160], \
                    _SECTION_RANK + depth
        return None

    def _opens_series(self, at: int, line: str) -> bool:
        """An upper-case heading line right before "Art. 1", once the articles have gone
        past 1: a second series of articles (module docstring)."""
        if self.last_article is None or self.last_article[0] <= 1 or len(line) > 120 or \
                not _SERIES_HEADING.fullmatch(line.strip()) or _DIVISION_RE.match(line.strip()):
            return False
        following = _LINE_START.search(self.text, at + len(line))
        m = _ARTICLE_RE.match(self.text, following.end()) if following else None
        return m is not None and m.group(2) == "1" and not m.group(4)

    def _section_in_order(self, top: int, depth: int) -> bool:
        """Whether a section numbered `top`(.…) continues the outline (module docstring);
        inside a contract's clause ("CLÁUSULA SEGUNDA … 2.1") the clause anchors it."""
        last = self.last_section
        if self._open(CLAUSE) is not None:
            return True
        if depth == 1:
            return top == 1 or (last is not None and last <= top <= last + 2)
        return top == 1 if last is None else last <= top <= last + 1


def series_name(heading: str) -> str:
    """A short name for a series of articles: the initials of a long heading's words
    ("ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS" → "ADCT"), else the heading in
    title case ("ANEXO I" → "Anexo I")."""
    words = heading.split()
    major = [w for w in words if fold(w) not in _MINOR_WORDS]
    if len(heading) > 24 and len(major) >= 3:
        return "".join(w[0] for w in major)
    return " ".join(w if re.fullmatch(r"[IVXLCDM]+", w) else w.capitalize() for w in words)


def _running_titles(text: str) -> frozenset[str]:
    """Folded titles of top-level "sections" that recur under different numbers: a page
    number followed by the document's running title, not an outline."""
    numbers: dict[str, set[str]] = {}
    for start in _LINE_START.finditer(text):
        m = _SECTION_RE.match(text, start.end())
        if m is None or "." in m.group(1):
            continue
        end = text.find("\n", m.end())
        title = fold(text[m.end():len(text) if end < 0 else end].strip())
        numbers.setdefault(title, set()).add(m.group(1))
    return frozenset(t for t, found in numbers.items() if t and len(found) >= 2)


def parse_structure(text: str, revoked: Sequence[tuple[int, int]] = ()) -> Structure:
    """The units of `text` (see the module docstring); empty for unstructured text.
    `revoked`: struck-through ranges of `text`, (start, end) offsets."""
    structure = _Parser(text, revoked).parse()
    kinds = [n.kind for n in structure.nodes]
    if kinds.count(SECTION) == 1 and CLAUSE not in kinds:  # one "section": no outline
        structure = _Parser(text, revoked, sections=False).parse()
    return structure
