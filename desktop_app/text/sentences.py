"""Sentence splitting: one set of rules for documents, answers and chat messages.

`sentence_spans(text, start, end)` returns exact `(start, end)` offsets, so callers that
quote or chunk keep `text[start:end]` verbatim. A sentence ends at ". ! ? …" (plus closing
quotes or brackets) followed by space and something that can open a sentence (a capital,
a digit, an opening quote or bracket, "§", a list marker), except

- after an abbreviation ("art.", "nº", "Dr.", "e.g.", "et al."), also in brackets
  ("(art. 18)", "(inc. II)", "(cf. p. 4)"), or a single character
  (an initial: "J. Silva"; also "item 4." and "‰." — conservative: the chunker's rule,
  with which the retrieval figures of docs/measurements.md were measured), and
- after a bare legal label, so "Art. 18. O titular …" keeps its label with its text.

`lines=True` (chunking, model answers) also ends a sentence at every line break (table
rows, list lines); spaces before a capital are then spaces or tabs.

`chat_sentences(text)` is for what people type in a chat: there a sentence may start in
lower case ("moro em lisboa. tenho um cão") and ";" ends one too; the abbreviation rule
is the same and an ellipsis never splits. The sentences keep their final punctuation.
`turn_sentences(text)` is what conversation recall shows sentence by sentence: a chat
turn's sentences, whitespace flattened, where a trailing-off "Let me check... It is $80."
is two.
"""

from __future__ import annotations

import re

from desktop_app.text.fold import fold
from desktop_app.text.stopwords import STOPWORDS

_FINAL_WORD = re.compile(r"[a-z]+(?=\W*$)")  # a folded line's last word
# "sec" is left out: it ends sentences as "seconds" ("40 per sec. This", SciFact)
ABBREVIATIONS = frozenset(
    ["art", "arts", "inc", "incs", "n", "nº", "no", "nos", "sr", "sra", "srs", "srta", "dr", "dra", "drs", "prof", "profa", "p", "pp", "fig", "figs", "vol", "cap", "ed", "eds", "e.g", "i.e", "vs", "cf", "u.s", "mr", "mrs", "ms", "st", "jr", "ltda", "ltd", "co", "s.a", "min", "máx", "max", "aprox", "tel", "av", "al", "ex", "obs", "etc", "par", "fl", "fls", "num", "apt",
     # Portuguese legal and citation abbreviations ("arts. 5º e ss.", "alín. b", "pág. 3")
     "ss", "alín", "alin", "parág", "parag", "pág", "págs", "pag", "rel", "proc", "des"]
)
_OPENER = r"[\"'“‘(\[«¿¡§•\-–—]?\s?[A-ZÀ-ÖØ-Þ0-9§•]"
_CLOSERS = r"[\"'”’)\]»]*"
_BREAK = re.compile(rf"(?<=[.!?…])(?P<close>{_CLOSERS})\s+(?={_OPENER})")
_BREAK_OR_LINE = re.compile(rf"(?<=[.!?…])(?P<close>{_CLOSERS})[ \t]+(?={_OPENER})|\n")
_LABEL = re.compile(
    r"[\"“]?(?:art(?:igo)?s?\.?\s*\d+[º°ªo]?(?:-[a-z])?|§+\s*\d+[º°ªo]?|par[áa]grafo\s+[úu]nico"
    r"|cap[íi]tulo\s+[ivxlcdm]+|se[çc][ãa]o\s+[ivxlcdm]+)\.?\s*$",
    re.IGNORECASE,
)
_CHAT_BREAK = re.compile(r"(?<!\.)[.!?;]+(?=\s|$)|\n+")
_LAST_WORD = re.compile(r"(\w+)$")
_TRAILING_OFF = re.compile(r"(?<=\.\.\.)\s+(?=[A-ZÀ-Ý0-9$])")  # "Let me check... It is $80."


_OPENING_MARKS = "\"'“‘«([{¿¡"


def is_abbreviation(word: str) -> bool:
    """A word that a full stop after does not end a sentence: a known abbreviation
    ("art", "Dr", "e.g") or a single character (an initial), also right after an opening
    bracket or quote ("(art. 18)", "(cf. Fig. 2)")."""
    word = word.rstrip(".").lstrip(_OPENING_MARKS).lower()
    return word in ABBREVIATIONS or len(word) == 1


_DOTTED = re.compile(r"(?:[^\W\d_]{1,3}\.){2,}")  # "p.m.", "D.C.", "e.g.", "S.A."
# abbreviations that often end a sentence (not "art.", not an initial, not "nível 5.")
SENTENCE_END_ABBREVIATIONS = frozenset(("etc", "ss", "ltda", "ltd", "inc", "jr", "cia", "co"))


def ends_with_abbreviation(text: str) -> bool:
    """Whether `text`'s final full stop belongs to an abbreviation that often ends a
    sentence ("… at 1:01 p.m.", "… Ltda."), so nothing goes between the word and it."""
    words = text.split()
    return bool(words) and text.endswith(".") and (
        bool(_DOTTED.fullmatch(words[-1])) or words[-1][:-1].lower() in SENTENCE_END_ABBREVIATIONS)


def is_bare_label(text: str) -> bool:
    """A legal label standing alone ("Art. 18.", "§ 2º", "Parágrafo único.")."""
    return bool(_LABEL.fullmatch(text))


def runs_on(line: str) -> bool:
    """Whether a line ends on a function word ("… definem a criança como", "… DESENVOLVIMENTO
    NA", "… of the"): a sentence or a title that goes on past it."""
    last = _FINAL_WORD.search(fold(line))
    return last is not None and last.group() in STOPWORDS


def sentence_spans(text: str, start: int = 0, end: int | None = None, *,
                   lines: bool = False) -> list[tuple[int, int]]:
    """`(start, end)` of each sentence of `text[start:end]`, with the quotes or brackets
    that close it, without surrounding spaces at the end (a span may begin with the spaces
    after a line break)."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    position = start
    for match in (_BREAK_OR_LINE if lines else _BREAK).finditer(text, start, end):
        before = text[position:match.start()].rstrip()
        if not (lines and match.group(0) == "\n"):
            last_word = before.rsplit(None, 1)[-1] if before else ""
            if is_abbreviation(last_word) or _LABEL.fullmatch(before):
                continue
        if before.strip():
            closers = len(match.group("close") or "")  # `Ele disse "Sim."` keeps its quote
            spans.append((position, position + len(before) + closers))
        position = match.end()
    tail = text[position:end].rstrip()
    if tail.strip():
        spans.append((position, position + len(tail)))
    return spans


def sentence_breaks(text: str, start: int, end: int, *, lines: bool = False) -> list[int]:
    """Candidate sentence starts in `text[start:end]` before the abbreviation and label
    rules (offsets just after the break)."""
    return [m.end() for m in (_BREAK_OR_LINE if lines else _BREAK).finditer(text, start, end)]


def split_sentences(text: str, *, lines: bool = False) -> list[str]:
    """The sentences of `text` as strings (see `sentence_spans`)."""
    return [text[s:e] for s, e in sentence_spans(text, lines=lines)]


def chat_sentences(text: str) -> list[str]:
    """Sentences of a chat message, with their final punctuation (see the module doc)."""
    sentences, start = [], 0
    for match in _CHAT_BREAK.finditer(text):
        if text[match.start():match.start() + 3] == "...":
            continue
        if match.group(0) == ".":
            words = _LAST_WORD.findall(text[start:match.start()])
            if words and is_abbreviation(words[0]):
                continue
        sentence = text[start:match.end()].strip()
        if sentence:
            sentences.append(sentence)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def turn_sentences(text: str) -> tuple[str, ...]:
    """The sentences of a chat turn as recall shows them: whitespace flattened,
    `chat_sentences`, and a trailing-off "Let me check... Your balance is $80." split in
    two (the chat rule keeps "..." inside a sentence)."""
    flat = " ".join(text.split())
    return tuple(part for sentence in (chat_sentences(flat) or [flat])
                 for part in _TRAILING_OFF.split(sentence) if part.strip())
