"""Answer units of a structured document: what a sources-only answer quotes from a law.

A passage of a law is cut by the chunker wherever its size runs out, but an analyst
cites units: an article's caput with its whole list, a paragraph (§), an inciso with its
alíneas. For every unit that a retrieved passage touches (and the article holding it),
`units_near` builds the candidates, from the document rebuilt out of its stored chunks
(`retrieval.doc_text`), so a list that runs over several chunks or pages comes whole:

- `provision`: a unit's own text ("§ 2º …", "II - no prazo de até 15 (quinze) dias…"),
  shown under its path ("Art. 19 › II - …") with its list's lead as context;
- `list`: a caput, § or inciso followed by its items ("Art. 18. O titular … requisição:"
  then I–IX), every one of them up to `MAX_LIST_LINES` ("… +N" past that bound). The
  answer's text keeps the whole list (the command line prints it, an export writes it);
  the window shows `LIST_FOLD` lines and a "show all N" link (`list_folds`).

Text a compiled law struck through (revoked wording, `Hit.revoked`) and units whose words
are only a veto or revocation note ("II - (VETADO);") are never candidates; in a list,
struck-through items are left out and a note-only item between live ones is shown as
printed; amendment notes ("(Redação dada pela Lei nº 13.853, de 2019) Vigência") are taken
out of the shown words and kept as the unit's `notes`. The quote's span covers the unit in
the document (the viewer highlights it on its pages); the shown lines are its words.
"""

from __future__ import annotations

import math
import re
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from desktop_app.answer.kinds import states
from desktop_app.retrieval.doc_text import DocumentText
from desktop_app.retrieval.types import Hit
from desktop_app.text.analyze import content_terms, prefix_terms
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.structure import (
    ARTICLE,
    ITEM,
    LEGAL_KINDS,
    LETTER,
    PARAGRAPH,
    SECTION,
    SUBITEM,
    Node,
    Structure,
    is_empty_unit,
    note_spans,
    opens_list_item,
    roman,
)

SECTION_TITLE = 60  # characters of a section's heading shown with its number
LIST_FOLD = 15  # list lines the window shows before "show all N"
MAX_LIST_LINES = 200  # list lines an answer holds at most (a constitution's art. 5: 79 items)
MAX_LEAD_CONTEXT = 300  # a list lead shown above one of its items, at most
REVOKED_SHARE = 0.5  # a unit whose own words are at least this much struck is revoked
MAX_UNITS_PER_PASSAGE = 40
# "princípios de legalidade, impessoalidade, moralidade, publicidade e eficiência": a list
# of short terms in one sentence (four terms at least, "A, B, C e D", each of one to four
# words: "educação física, arte, sociologia e filosofia")
_TERM = (r"(?!(?:que|se|quando|sempre|conforme|desde|bem|salvo|exceto|inclusive|nos|nas|em"
         r"|observad\w*|respeitad\w*|ressalvad\w*|which|that|when|where|unless|except"
         r"|\w+mente)\b)"  # (an adverb qualifies a clause: "judicial e extrajudicialmente")
         r"[^\W\d][\w-]*(?:\s[\w-]+){0,3}")  # a term, not a clause ("que incluam", …)
_TERM_ONLY = re.compile(_TERM)


_ARTICLE_WORDS = frozenset(["a", "o", "as", "os", "um", "uma", "uns", "umas", "the", "an",
                            "el", "la", "los", "las", "un", "una"])
_PREPOSITION_WORDS = frozenset(["de", "da", "do", "das", "dos", "em", "no", "na", "nos", "nas",
                                "para", "por", "pelo", "pela", "com", "sem", "of", "in", "on",
                                "to", "for", "with", "by", "del", "en", "con"])
_LIST_SEPARATOR = re.compile(r",\s+|\s(?:e|ou|y|o|and|or)\s")


def _opening(term: str) -> str:
    first = term.split()[0].lower() if term.split() else ""
    return ("article" if first in _ARTICLE_WORDS else
            "preposition" if first in _PREPOSITION_WORDS else "word")


def names_a_list(text: str) -> bool:
    """Whether `text` names a list inline: four terms at least (`_TERM`, one to four words
    each) in a row, separated by commas (two at least), "e" or "ou", that are parallel:
    all open alike, with an article ("a dança, a música e o teatro"), a preposition or a
    plain word ("educação física, arte, sociologia e filosofia"). The first term may end
    a longer phrase ("São direitos sociais a educação, a saúde, …") and the last may open
    one ("… e o teatro são as linguagens"). "seu perfil pessoal, profissional, de consumo
    e de crédito" qualifies one thing: not a list."""
    parts = re.split(f"({_LIST_SEPARATOR.pattern})", text)
    pieces = [p.strip(" .;:") for p in parts[::2]]
    commas = [sep.startswith(",") for sep in parts[1::2]]  # after each piece but the last

    def term(words: list[str], opening: str) -> bool:
        phrase = " ".join(words)
        return bool(words) and _opening(phrase) == opening and bool(_TERM_ONLY.fullmatch(phrase))

    for i, first in enumerate(pieces):
        words = first.split()
        for opening in ("article", "preposition", "word"):
            if not any(term(words[-k:], opening) for k in range(1, min(4, len(words)) + 1)):
                continue
            count = 1
            for piece in pieces[i + 1:]:
                following = piece.split()
                if len(following) <= 4 and term(following, opening):
                    count += 1
                    continue
                count += any(term(following[:k], opening) for k in range(1, 5))
                break
            if count >= 4 and sum(commas[i:i + count - 1]) >= 2:
                return True
            # "São Poderes da União … o Legislativo, o Executivo e o Judiciário.": a class
            # named by a copula, then three members that end the sentence
            if count == 3 and opening == "article" and i + count == len(pieces) \
                    and commas[i] and _NAMES_MEMBERS.match(text):
                return True
    return False


# a sentence that names a class and then its members ("São Poderes da União … A, B e C.")
_NAMES_MEMBERS = re.compile(r"\s*(?:Art\.?\s*\d+\S*\s+)?(?:São|Sao|Constituem|Son|Are)\s", re.I)


@dataclass(frozen=True)
class StructuralUnit:
    """One candidate: its passage (`hit.text` is the unit in the document), its path and
    the lines to show."""

    hit: Hit
    label: str  # "Art. 18", "Art. 19, II", "Art. 7º, parágrafo único"
    article: str  # the article that holds it ("Art. 19"), "" outside articles
    headings: tuple[str, ...]  # titles of the divisions that hold it
    lines: tuple[str, ...]  # shown: notes and revoked words out, the label in front
    lead: str  # its own words (without its items), notes out
    topic: str  # its own words after its label (what `lead_precision` weighs)
    title: str  # the title of the division that holds it ("DOS DIREITOS DO TITULAR")
    kind: str  # "list" | "provision"
    items: int  # list items shown (0 for a provision)
    hidden: int  # list lines past `MAX_LIST_LINES`, left out
    notes: tuple[str, ...]
    key: tuple[str, int, str]  # (doc id, node index, kind): one candidate per unit
    holder: int | None  # an item's list (the node index of its caput, § or inciso)
    # how rare each term of its lead and heading is in the document (an idf): a question's
    # words that a unit's lead is about, weighed against everything else that lead says
    weights: dict[str, float] = field(default_factory=dict, compare=False)
    # the titles of the divisions holding the articles its own words name by number ("I-A
    # – dia 1º de agosto de 2021, quanto aos arts. 52, 53 e 54": "Das Sanções
    # Administrativas"), when they are not its own division's (`cited_titles`)
    cites: str = ""
    # a list opened by an inciso of a list ("I - natos:" under "Art. 12. São brasileiros:"):
    # the holder's lead, whose sentence its own few words finish
    context: str = ""
    # the units of its own article that its words name by number ("A não observância do
    # disposto nos incisos II e III…"): their node indices, and their words (what it is about)
    names: tuple[int, ...] = ()
    named: str = ""
    # an item shown under its list's lead: the line it is shown by after another item of
    # that list, its path and its own words ("Art. 7º › XVI - …"; the lead is above)
    alone: str = ""

    @cached_property
    def topic_terms(self) -> frozenset[str]:
        """The content terms of its own words (`topic`), as the ranking compares them."""
        return terms_of(self.topic)

    def lead_precision(self, question: frozenset[str]) -> float:
        """The share of the lead's weighted terms that the question uses: "o tratamento de
        dados pessoais … nas seguintes hipóteses" is about what "bases legais para o
        tratamento de dados pessoais" asks; "… de dados pessoais sensíveis …" also about
        something it does not ask."""
        return _precision(self.topic_terms, question, self.weights)

    def lead_recall(self, question: frozenset[str]) -> float:
        """The share of the question's terms that the unit's own words say: "A administração
        pública … obedecerá aos princípios de …" says all of "a quais princípios a
        administração pública deve obedecer?"; a list whose one item mentions "os princípios
        da administração pública" says them in an item, under a lead about something else."""
        return len(self.topic_terms & question) / len(question) if question else 0.0

    def heading_precision(self, question: frozenset[str]) -> float:
        """The same for the title of the division that holds it ("DOS DIREITOS DO TITULAR")."""
        return _precision(terms_of(self.title), question, self.weights)

    @property
    def inline_list(self) -> bool:
        """A caput or § naming its list in one sentence ("… aos princípios de A, B, C e D")."""
        return self.kind == "provision" and self.label.count(",") <= 1 and \
            names_a_list(self.lead)

    @property
    def is_list(self) -> bool:
        return self.items >= 2 or self.inline_list


def terms_of(text: str) -> frozenset[str]:
    """Content terms as the answer ranking compares them (folded, stemmed, no asking words)."""
    return content_terms(text, ignore=NOT_CONTENT)


def _precision(terms: frozenset[str], question: frozenset[str],
               weights: dict[str, float]) -> float:
    total = sum(weights.get(t, 1.0) for t in terms)
    return sum(weights.get(t, 1.0) for t in terms & question) / total if total else 0.0


@dataclass
class _Terms:
    """Per document: each unit's terms (own words and division title), whether it is live,
    and in how many units each term occurs (for an idf)."""

    units: int
    frequency: Counter[str]
    node_terms: list[frozenset[str]]
    live: list[bool]
    # the same by word prefixes (`prefix_terms`), for the law's own search: the keyword
    # stemmer keeps "fundamenta" and "fundamentos" apart, their prefix does not
    prefix_frequency: Counter[str]
    node_prefixes: list[frozenset[str]]
    pointing: frozenset[int]  # units setting a date or a time limit for cited articles


_TERMS: weakref.WeakKeyDictionary[DocumentText, _Terms] = weakref.WeakKeyDictionary()


def _terms(doc: DocumentText) -> _Terms:
    cached = _TERMS.get(doc)
    if cached is None:
        nodes = doc.structure.nodes
        texts = [doc.text[n.start:n.body_end] + " " + n.title for n in nodes]
        node_terms = [terms_of(text) for text in texts]
        # the law's own search also finds a date or a time limit set for articles named by
        # number by what those articles are about (`cited_titles`)
        pointing = {n.index: cited for n in nodes if (cited := _dated_citations(doc, n))}
        node_prefixes = [prefix_terms(text + " " + pointing.get(n.index, "")) for text, n
                         in zip(texts, nodes, strict=True)]
        frequency: Counter[str] = Counter()
        prefix_frequency: Counter[str] = Counter()
        for found, prefixes in zip(node_terms, node_prefixes, strict=True):
            frequency.update(found)
            prefix_frequency.update(prefixes)
        cached = _Terms(max(len(nodes), 1), frequency, node_terms,
                        [n.kind in LEGAL_KINDS and _live(doc, n) for n in nodes],
                        prefix_frequency, node_prefixes, frozenset(pointing))
        _TERMS[doc] = cached
    return cached


def _idf(facts: _Terms, term: str, frequency: Counter[str] | None = None) -> float:
    counts = facts.frequency if frequency is None else frequency
    return math.log((facts.units + 1) / (counts.get(term, 0) + 1)) + 1.0


def _weights(doc: DocumentText, *texts: str) -> dict[str, float]:
    facts = _terms(doc)
    return {t: _idf(facts, t) for text in texts for t in terms_of(text)}


def _squash(text: str) -> str:
    return " ".join(text.split())


def _visible(doc: DocumentText, start: int, end: int) -> tuple[str, tuple[str, ...]]:
    """The words of [start, end) without revoked ranges and amendment notes, and the notes."""
    hidden = [(a + start, b + start) for a, b in doc.revoked_in(start, end)]
    notes = note_spans(doc.text, start, end)
    parts, position = [], start
    for a, b in sorted(hidden + notes):
        parts.append(doc.text[position:max(position, a)])
        position = max(position, b)
    parts.append(doc.text[position:end])
    words = _squash(" ".join(parts))
    words = re.sub(r"\s+([;,.:])", r"\1", words)
    return words, tuple(_squash(doc.text[a:b]) for a, b in notes)


def mostly_revoked(text: str, revoked: Sequence[tuple[int, int]]) -> bool:
    """Whether most of `text`'s letters lie in `revoked` ranges (offsets into `text`)."""
    letters = sum(ch.isalnum() for ch in text)
    struck = sum(ch.isalnum() for a, b in revoked for ch in text[max(a, 0):b])
    return letters > 0 and struck >= REVOKED_SHARE * letters


def is_revoked(doc: DocumentText, node: Node) -> bool:
    """Whether most of a unit's own words are struck through."""
    return mostly_revoked(doc.text[node.start:node.body_end],
                          doc.revoked_in(node.start, node.body_end))


def _own(doc: DocumentText, node: Node) -> tuple[str, tuple[str, ...]]:
    return _visible(doc, node.start, node.body_end)


def _live(doc: DocumentText, node: Node) -> bool:
    """Neither revoked nor only a veto/revocation note."""
    return not is_revoked(doc, node) and not is_empty_unit(doc.text[node.text_start:node.body_end])


def _item_lines(doc: DocumentText, structure: Structure, node: Node) -> list[tuple[Node, str]]:
    """The items under `node`, each followed by its own sub-items; not one struck through.
    An item that is only a veto or revocation note is shown as the law prints it ("V –
    (vetado);") when a live item follows it, so the list reads IV, V, VI and not IV, VI
    as if a line were lost; at the list's end it adds nothing and is left out."""
    out: list[tuple[Node, str]] = []
    notes: list[tuple[Node, str]] = []  # note-only items waiting for a live one after them
    for item in structure.list_items(node):
        if is_revoked(doc, item):
            continue
        if is_empty_unit(doc.text[item.text_start:item.body_end]):
            notes.append((item, _note_line(doc, item)))
            continue
        out += notes
        notes.clear()
        out.append((item, _own(doc, item)[0]))
        out += _item_lines(doc, structure, item)
    return out


def _note_line(doc: DocumentText, node: Node) -> str:
    """A unit that is only a note, as printed up to its first note: "V - (revogado);"
    (the amendment note after it, "(Redação dada pela Lei nº 14.460, de 2022)", is not
    shown)."""
    notes = note_spans(doc.text, node.start, node.body_end)
    end = notes[0][1] if notes else node.body_end
    if end < node.body_end and doc.text[end] in ";.,":
        end += 1
    return _squash(doc.text[node.start:end])


def _prefix(structure: Structure, node: Node) -> str:
    """What goes before a unit's own words: the path of what holds it ("Art. 19 › "); an
    article of a second series, its series ("ADCT › Art. 2º …", not the first art. 2º), and
    so do the units of its articles ("ADCT › Art. 2º › § 1º …")."""
    series = _series(structure, node)
    if node.kind == ARTICLE:
        return f"{series.label} › " if series is not None else ""
    if node.parent is None:
        return ""
    parent = structure.nodes[node.parent]
    if parent.kind not in LEGAL_KINDS:
        return ""
    path = structure.label(parent)
    if series is not None and path.startswith(f"{series.label} "):  # its label's short name
        path = f"{series.label} › {path[len(series.label) + 1:]}"
    return f"{path} › "


def _holder_lead(doc: DocumentText, structure: Structure, holder: int | None) -> str:
    """The lead of the list of a law holding an item ("Art. 12. São brasileiros:"), when it
    introduces its items (ends with ":") and is short enough to show above one; else ""."""
    if holder is None or structure.nodes[holder].kind not in LEGAL_KINDS:
        return ""
    lead = _own(doc, structure.nodes[holder])[0]
    return lead if lead.endswith(":") and len(lead) <= MAX_LEAD_CONTEXT else ""


def _series(structure: Structure, node: Node) -> Node | None:
    """The heading of the second series of articles holding `node` ("ADCT"), if any."""
    return next((n for n in structure.ancestors(node) if n.rank < 0), None)


def _unit(doc: DocumentText, structure: Structure, base: Hit, node: Node,
          kind: str) -> StructuralUnit | None:
    label = structure.label(node)
    article = structure.article_of(node)
    headings = tuple(structure.headings(node))
    title = structure.title_of(node)
    topic = _visible(doc, node.text_start, node.body_end)[0]
    own, notes = _own(doc, node)
    prefix = _prefix(structure, node)
    holder = node.parent if node.kind in (ITEM, LETTER, SUBITEM) else None
    holder_lead = _holder_lead(doc, structure, holder)
    alone = ""
    if kind == "list":
        items = _item_lines(doc, structure, node)
        if not items:
            return None
        end = max(n.body_end for n, _ in items)
        shown = [text for _, text in items]
        hidden = max(0, len(shown) - MAX_LIST_LINES)
        lines = [prefix + own, *shown[:MAX_LIST_LINES]]
        if hidden:
            lines.append(f"… +{hidden}")
        count = sum(1 for n, _ in items if n.parent == node.index)
        start = node.start
    else:
        start, end = node.start, node.body_end
        lines = [prefix + own]
        count = hidden = 0
        if holder is not None and holder_lead:  # an item: shown under its list's lead
            lines = [_prefix(structure, structure.nodes[holder]) + holder_lead, "…", own]
            alone = prefix + own
    while end > start and doc.text[end - 1].isspace():
        end -= 1
    hit = doc.as_hit(base, start, end)
    # (a list opened by an inciso reads on from its holder's lead)
    context = holder_lead if kind == "list" else ""
    names = named_units(doc, node, topic)
    named = " ".join(_own(doc, structure.nodes[i])[0] for i in names)
    return StructuralUnit(hit, label, structure.label(article) if article else "", headings,
                          tuple(lines), own, topic, title, kind, count, hidden, notes,
                          (doc.doc_id, node.index, kind), holder, _weights(doc, topic, title),
                          cited_titles(doc, own, title), context, names, named, alone)


# "… da Lei nº 12.965", "… do Decreto …": what another law's numbers are followed by
_OF = r"[ \t,]*(?:d[aoe]s?|of|de la|del)[ \t]+"
_LAWS = (r"Lei|Decreto|Constitui|C[óo]digo|Medida|Emenda|Resolu|Portaria|Instru|Law|Act"
         r"|Ley")


# units of a provision's own article named by number: "nos incisos II e III", "o inciso
# III do caput", "incisos I a IV", "o § 1º deste artigo", "§§ 2º e 3º"; not those of
# another article or law ("no inciso II do art. 5º", "§ 1º do art. 14 da Lei nº …")
_NAMED_ITEMS = re.compile(r"\bincisos?\s+([IVXLC]+(?:-[A-Z])?(?:\s*(?:,|\be\b|\bou\b|\ba\b)"
                          r"\s*[IVXLC]+(?:-[A-Z])?)*)\b")
_NAMED_PARAGRAPHS = re.compile(r"§§?\s*(\d{1,3}\s*[º°o]?(?:\s*(?:,|\be\b|\bou\b|\ba\b)\s*"
                               r"\d{1,3}\s*[º°o]?)*)")
_ELSEWHERE = re.compile(rf"{_OF}(?:{_LAWS}|art|§|inciso|caput do art)", re.I)
_NUMERAL = re.compile(r"([IVXLC]+)(?:-([A-Z]))?|(\d{1,3})")


def _numbers(listed: str, value: Callable[[str], int]) -> list[tuple[int, str]]:
    """The numbers of "II e III", "I a IV", "2º e 3º", a range read out (`MAX_CITED_RANGE`)."""
    keys: list[tuple[int, str]] = []
    ranged = False
    for part in re.split(r"\s*(,|\be\b|\bou\b|\ba\b)\s*", listed):
        if part == "a":
            ranged = True
            continue
        m = _NUMERAL.fullmatch(part.strip(" º°o")) if part not in (",", "e", "ou") else None
        if m is None:
            continue
        key = (value(m.group(1) or m.group(3)), m.group(2) or "")
        if ranged and keys and not key[1] and 0 < key[0] - keys[-1][0] <= MAX_CITED_RANGE:
            keys += [(n, "") for n in range(keys[-1][0] + 1, key[0])]
        ranged = False
        keys.append(key)
    return keys


def named_units(doc: DocumentText, node: Node, topic: str | None = None) -> tuple[int, ...]:
    """The units of `node`'s own article that its own words name by number: the incisos of
    the list they are in (the caput's, for a paragraph) and the article's paragraphs. "§ 2º
    A não observância do disposto nos incisos II e III implicará a nulidade do ato" is about
    what incisos II and III say; "§ 3º Poderão ser coletados dados … sem o consentimento a
    que se refere o § 1º deste artigo" about § 1º. `topic`: its own words after its label,
    when the caller has them (`StructuralUnit.topic`)."""
    structure = doc.structure
    article = structure.article_of(node)
    if article is None or node.kind not in LEGAL_KINDS:
        return ()
    if topic is None:
        topic = _visible(doc, node.text_start, node.body_end)[0]
    own = _QUOTED_START.split(topic, maxsplit=1)[0]
    if "incis" not in own and "§" not in own:
        return ()
    holder = node.parent if node.kind == ITEM and node.parent is not None else article.index
    items = {n.key: n.index for n in structure.children.get(holder, []) if n.kind == ITEM}
    paragraphs = {n.key: n.index for n in structure.children.get(article.index, [])
                  if n.kind == PARAGRAPH}
    found: list[int] = []
    for pattern, units, value in ((_NAMED_ITEMS, items, roman),
                                  (_NAMED_PARAGRAPHS, paragraphs, int)):
        for m in pattern.finditer(own):
            if _ELSEWHERE.match(own, m.end()):
                continue  # another article's or law's
            found += [units[key] for key in _numbers(m.group(1), value)
                      if key in units and units[key] != node.index]
    return tuple(dict.fromkeys(found))


# articles named by number: "art. 7º", "arts. 52, 53 e 54", "arts. 55-A, 55-B e 58-B",
# "arts. 52 a 54" (the numbers, then `_CITED_NUMBER` reads each)
_CITED = re.compile(r"\barts?\.[ \t]*(\d{1,4}[ \t]*[º°o]?(?:[ \t]*-[ \t]*[A-Z]\b)?"
                    r"(?:[ \t]*(?:,|\be\b|\ba\b|\bou\b)[ \t]*(?:arts?\.[ \t]*)?"
                    r"\d{1,4}[ \t]*[º°o]?(?:[ \t]*-[ \t]*[A-Z]\b)?)*)", re.I)
_CITED_NUMBER = re.compile(r"(\d{1,4})[ \t]*[º°o]?(?:[ \t]*-[ \t]*([A-Z])\b)?"
                           r"(?=([ \t]*\ba\b[ \t]*\d)?)")
_QUOTED_START = re.compile(r"[“\"]")
_OF_ANOTHER_LAW = re.compile(rf"{_OF}(?:{_LAWS})", re.I)
MAX_CITED_RANGE = 20  # "arts. 52 a 54": a longer range names too much to say what it is about
_ARTICLES: weakref.WeakKeyDictionary[DocumentText, dict[tuple[int, str], Node]] = \
    weakref.WeakKeyDictionary()


def _articles(doc: DocumentText) -> dict[tuple[int, str], Node]:
    """A law's live articles by number (the last of a number: a compiled law prints a
    revoked wording before the current one). Only the law's own series: a constitution's
    "art. 6º" is its own, not the art. 6º of its transitional provisions (ADCT)."""
    found = _ARTICLES.get(doc)
    if found is None:
        structure = doc.structure
        found = {n.key: n for n in structure.nodes if n.kind == ARTICLE
                 and _series(structure, n) is None and _live(doc, n)}
        _ARTICLES[doc] = found
    return found


def _dated_citations(doc: DocumentText, node: Node) -> str:
    """`cited_titles` of a unit that states a date or a time limit ("I-A – dia 1º de agosto
    de 2021, quanto aos arts. 52, 53 e 54"), else nothing."""
    if node.kind not in LEGAL_KINDS:
        return ""
    own = doc.text[node.text_start:node.body_end]
    if "art" not in own.lower() or not (states("date", own) or states("duration", own)):
        return ""
    return cited_titles(doc, own, doc.structure.title_of(node))


def cited_titles(doc: DocumentText, own: str, title: str) -> str:
    """The titles of the divisions holding the articles that `own` (a unit's own words)
    names by number, other than its own division's `title`: what a provision that only
    points ("… quanto aos arts. 52, 53 e 54") is about. Empty when it names none."""
    own = _QUOTED_START.split(own, maxsplit=1)[0]  # an amendment's quoted new wording
    if "art" not in own.lower():
        return ""
    articles = _articles(doc)
    keys: list[tuple[int, str]] = []
    for cited in _CITED.finditer(own):
        if _OF_ANOTHER_LAW.match(own, cited.end()):
            continue  # "art. 7º da Lei nº 12.965": another law's article
        numbers = list(_CITED_NUMBER.finditer(cited.group(1)))
        for i, number in enumerate(numbers):
            keys.append((int(number.group(1)), number.group(2) or ""))
            following = numbers[i + 1] if i + 1 < len(numbers) else None
            if number.group(3) and following is not None and not number.group(2):
                last = int(following.group(1))  # "arts. 52 a 54"
                if 0 < last - keys[-1][0] <= MAX_CITED_RANGE:
                    keys += [(n, "") for n in range(keys[-1][0] + 1, last)]
    titles: list[str] = []
    for key in dict.fromkeys(keys):
        node = articles.get(key)
        if node is None:
            continue
        named = doc.structure.title_of(node)
        if named and named != title and named not in titles:
            titles.append(named)
    return "\n".join(titles)


# a passage of a law: an article, a paragraph or an inciso opens one of its lines
_LAW_LINE = re.compile(r"(?m)^\s*[“\"]?(?:Art(?:igo|ículo)?\.?\s*\d|ART\.?\s*\d|§\s*\d"
                       r"|Par[áa]grafo [úu]nico|[IVXLC]{1,6}\s*[-–—]\s)")


# a numbered section or a clause of a report or contract ("2.1 Objeto", "CLÁUSULA SEGUNDA")
_SECTION_LINE = re.compile(r"(?m)^\s*(?:\d{1,2}(?:\.\d{1,2})+\.?\s+\S|\d{1,2}\.?\s+[A-ZÀ-Ú]"
                           r"|CL[ÁA]USULA\s|Cl[áa]usula\s)")


def may_be_law(hit: Hit) -> bool:
    """Whether a passage can belong to a law, before its document is rebuilt: its stored
    path says so (`Hit.path`), or its own lines open like a law's units."""
    return bool(hit.path) or bool(_LAW_LINE.search(hit.text))


def may_have_sections(hit: Hit) -> bool:
    """Whether a passage can lie in a numbered section or a clause (see `section_label`)."""
    return may_be_law(hit) or bool(_SECTION_LINE.search(hit.text))


def section_label(doc: DocumentText, hit: Hit, offset: int) -> str:
    """The path of the section or clause holding `hit.text[offset]` ("Cláusula SEGUNDA,
    2.1"), with a numbered section's heading ("4.1 A ÁREA DE LINGUAGENS"): a bare "4.1"
    says little to a reader; "" outside any."""
    span = doc.hit_span(hit)
    if span is None or not doc.structure:
        return ""
    structure = doc.structure
    node = structure.at(span[0] + offset)
    if node is not None and span[0] + offset <= node.text_start and node.parent is not None:
        node = structure.nodes[node.parent]  # the quote opens with the unit's own label
    elif node is not None and span[0] + offset <= node.text_start:
        return ""
    label = structure.label(node)
    if node is not None and node.kind == SECTION and node.title:
        label += " " + (node.title if len(node.title) <= SECTION_TITLE else
                        node.title[:SECTION_TITLE].rsplit(" ", 1)[0] + " …")
    return label


def units_near(doc: DocumentText, base: Hit) -> list[StructuralUnit] | None:
    """Candidates for a passage of a structured document: every live unit the passage
    touches, as a provision and (when it has items) as a list, plus the article and the
    list lead that hold each of them. None when the passage touches no unit of a law (an
    unstructured document, a preface); empty when every unit it touches is revoked."""
    structure = doc.structure
    span = doc.hit_span(base)
    if not structure.is_legal or span is None:
        return None
    start, end = span
    touched = [n for n in structure.nodes
               if n.kind in LEGAL_KINDS and n.start < end and n.body_end > start]
    if not touched:
        return None
    wanted: dict[int, Node] = {}
    for node in touched[:MAX_UNITS_PER_PASSAGE]:
        for holder in structure.ancestors(node):
            if holder.kind in (ARTICLE, PARAGRAPH, ITEM) and holder.kind in LEGAL_KINDS:
                wanted.setdefault(holder.index, holder)
        wanted.setdefault(node.index, node)
    live = _terms(doc).live
    return [unit for node in sorted(wanted.values(), key=lambda n: n.index)
            if live[node.index] for unit in _as_units(doc, base, node)]


def _as_units(doc: DocumentText, base: Hit, node: Node) -> list[StructuralUnit]:
    """A unit as a provision and, when it has items, as a list (a list's lead alone answers
    nothing: with a list, the provision is left out when its words end in ":")."""
    structure = doc.structure
    out = []
    for kind in ("provision", "list"):
        if kind == "provision" and structure.list_items(node) and \
                _own(doc, node)[0].endswith(":"):
            continue
        unit = _unit(doc, structure, base, node, kind)
        if unit is not None and unit.lines[0].strip():
            out.append(unit)
    return out


def caputs(units: Iterable[StructuralUnit]) -> dict[tuple[str, str], StructuralUnit]:
    """The articles' own units among `units` (the caput a § or item is read with), by
    (doc id, article label)."""
    return {(unit.key[0], unit.label): unit for unit in units
            if unit.article and unit.label == unit.article}


def holding_list(doc: DocumentText, unit: StructuralUnit) -> StructuralUnit | None:
    """The whole list an item belongs to (its caput, § or inciso with every item), when the
    passages found the item alone: "Which courses does higher education comprise?" finds
    art. 44's line III by its words, and the answer is art. 44 with all of its lines."""
    structure = doc.structure
    if unit.holder is None or unit.key[0] != doc.doc_id or unit.holder >= len(structure.nodes):
        return None
    return _unit(doc, structure, unit.hit, structure.nodes[unit.holder], "list")


def search_units(doc: DocumentText, base: Hit, question: str, *, limit: int,
                 also: Callable[[str], bool] | None = None,
                 pointing: bool = False) -> list[StructuralUnit]:
    """The document's own units that use the question's rarest words best (an idf-weighted
    share of the question's word prefixes in a unit's words and its division's title),
    `limit` of them, plus every unit whose words `also` accepts (a definition question: the
    glossary item that defines the asked thing). Finds an article that search ranked too
    low, or whose passage was cut between chunks; each comes as a provision and, with
    items, as a list, as `units_near` gives them. `pointing`: search only the units that
    set a date or a time limit for articles named by number (`cited_titles`)."""
    structure = doc.structure
    asked = prefix_terms(question)
    if not structure.is_legal or not asked:
        return []
    facts = _terms(doc)
    counts = facts.prefix_frequency
    wanted = sum(_idf(facts, t, counts) for t in asked)
    scored: list[tuple[float, int]] = []
    extra: list[int] = []
    for node, found, live in zip(structure.nodes, facts.node_prefixes, facts.live, strict=True):
        if not live or pointing and node.index not in facts.pointing:
            continue
        shared = found & asked
        if shared:
            scored.append((sum(_idf(facts, t, counts) for t in shared) / wanted, node.index))
        if also is not None and also(_own(doc, node)[0]):
            extra.append(node.index)
    scored.sort(key=lambda pair: (-pair[0], structure.nodes[pair[1]].end
                                  - structure.nodes[pair[1]].start))
    chosen = list(dict.fromkeys([i for _, i in scored[:limit]] + extra))
    return [unit for index in chosen for unit in _as_units(doc, base, structure.nodes[index])]


def list_folds(lines: Sequence[str], keep: int = LIST_FOLD) -> list[tuple[int, int]]:
    """Where a window folds an answer's long lists: (first folded line, end) of each run of
    more than `keep` + 1 list lines (`structure.opens_list_item`), the first `keep`
    staying in view."""
    folds: list[tuple[int, int]] = []
    start = None
    for i, line in enumerate([*lines, ""]):
        if opens_list_item(line):
            start = i if start is None else start
            continue
        if start is not None and i - start > keep + 1:
            folds.append((start + keep, i))
        start = None
    return folds


def show(unit: StructuralUnit) -> str:
    """The unit as displayed: one line each (the caller adds the badge to the first)."""
    return "\n".join(unit.lines)
