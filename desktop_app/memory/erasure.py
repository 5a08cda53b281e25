"""Erasure helpers and the erasure receipt.

An erasure touches up to four stores: memory rows (SQLite), the memory vector/keyword
index (LanceDB, including its FTS index), conversation messages and answer traces
(SQLite), and finally the files themselves (LanceDB old versions cleaned up, SQLite
VACUUMed). The receipt says which stores were touched, how many rows and how many bytes
of content went, and the files' sizes before and after. It never contains erased text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.text.fold import fold

REDACTED = "[erased]"
_DISTINCTIVE = re.compile(r"[\w.@+-]*\d[\w.@+-]*|[\w.+-]+@[\w.-]+", re.UNICODE)
_MEMORY_ID_KEYS = ("memory_id", "id")


def distinctive_terms(text: str) -> list[str]:
    """Tokens worth scrubbing on their own: anything with a digit or an e-mail address.

    A model that repeated "your locker code is K-7731" in its own words still copied
    "K-7731"; redacting only the full memory sentence would miss it.
    """
    terms = []
    for match in _DISTINCTIVE.finditer(text):
        token = match.group(0).strip(".,;:!?-")
        if len(token) >= 4:
            terms.append(token)
    return terms


def needles_for(texts: Iterable[str], values: Iterable[str] = ()) -> list[str]:
    """Everything to scrub for a set of erased memories: full texts, values, distinctive tokens."""
    needles: set[str] = set()
    for text in list(texts) + list(values):
        text = text.strip()
        if len(text) >= 3:
            needles.add(text)
            needles.add(text.rstrip("."))
        needles.update(distinctive_terms(text))
    return sorted(needles, key=len, reverse=True)


def redact_text(text: str, needles: Iterable[str]) -> str:
    """Replace case-insensitive occurrences of each needle (longest first) with a marker;
    a needle without accents also matches its accented spelling ("codigo" → "código")."""
    for needle in needles:
        if not needle:
            continue
        if needle.casefold() in text.casefold():
            text = re.sub(re.escape(needle), REDACTED, text, flags=re.IGNORECASE)
        elif needle == fold(needle) and needle in fold(text):
            text = _redact_folded(text, needle)
    return text


def _redact_folded(text: str, needle: str) -> str:
    """Redact where the accent-folded text matches (folding keeps one character per
    character for the letters it changes, so positions carry over)."""
    folded = fold(text)
    if len(folded) != len(text):
        return text
    out, at = [], 0
    for match in re.finditer(re.escape(needle), folded):
        out += [text[at:match.start()], REDACTED]
        at = match.end()
    return "".join(out) + text[at:]


# ---- derived forms: a text erased is erased in every form the app made of it ----------------
# The answer trace's fields that hold its question in another form: asked, rewritten (with
# words carried from earlier turns), searched, and the analysed words matched or missing.
# The answer service owns the layout; these names are the contract erasure relies on (the
# canary tests catch a new field that copies the question).
QUESTION_FIELDS = ("question", "rewritten_query", "searched_for")
REWRITE_FIELD = "rewrite"
TERM_FIELDS = ("missing", "shared_terms", "carried", "question_terms")
_DIGITS = re.compile(r"\d{5,}")
_PIECE = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Forms:
    """What to scrub for an erased text, in every form the app stores words in."""

    needles: tuple[str, ...]  # surface text, redacted anywhere (longest first)
    terms: frozenset[str]  # analysed (folded, stemmed) words, dropped from word lists

    def __bool__(self) -> bool:
        return bool(self.needles or self.terms)


def derived_forms(texts: Iterable[str], values: Iterable[str] = (), *,
                  every_word: bool = False) -> Forms:
    """Needles and terms for erased `texts`: the texts and their distinctive tokens (codes,
    numbers, e-mails), those folded, the pieces of a code ("QZX", "48151623" of
    "QZX-48151623") and runs of five digits or more; as analysed words, the same pieces
    stemmed and folded as the keyword index stores them. `every_word`: also every analysed
    word of the texts (for the traces of the conversation an erased message belonged to:
    words a rewrite carried from it, or lists of the terms it asked for)."""
    from desktop_app.text.analyze import analyze

    texts = [t for t in texts if t and t.strip()]
    values = [v for v in values if v and v.strip()]
    needles = set(needles_for(texts, values))
    terms: set[str] = set()
    for token in [t for text in texts + values for t in distinctive_terms(text)]:
        needles.add(fold(token))
        needles.update(_DIGITS.findall(token))
        for piece in _PIECE.findall(token):
            terms.update(analyze(piece, drop_stopwords=False).split())
        terms.update(analyze(token, drop_stopwords=False).split())
    if every_word:
        for text in texts:
            terms.update(analyze(text).split())
    needles = {n for n in needles if len(n) >= 4}
    return Forms(tuple(sorted(needles, key=len, reverse=True)), frozenset(terms))


def _is_term(item: str, terms: frozenset[str]) -> bool:
    from desktop_app.text.analyze import analyze

    if not terms or " " in item.strip():
        return False
    return fold(item) in terms or any(t in terms for t in analyze(item).split())


def scrub_trace(value: Any, needles: Iterable[str] | Forms, memory_ids: set[str]) -> Any:
    """Drop trace entries describing an erased memory and redact any copy of its text: the
    needles anywhere, the analysed terms (`Forms`) as items of word lists.

    Format-independent on purpose: the answer service owns the trace layout, so we walk
    any JSON value; a dict naming an erased memory id is removed from its list.
    """
    forms = needles if isinstance(needles, Forms) else Forms(tuple(needles), frozenset())
    if isinstance(value, dict):
        return {k: scrub_trace(v, forms, memory_ids) for k, v in value.items()}
    if isinstance(value, list):
        kept = []
        for item in value:
            if isinstance(item, dict) and any(item.get(key) in memory_ids
                                              for key in _MEMORY_ID_KEYS):
                continue
            if isinstance(item, str) and (item in memory_ids or _is_term(item, forms.terms)):
                continue
            kept.append(scrub_trace(item, forms, memory_ids))
        return kept
    if isinstance(value, str):
        return redact_text(value, forms.needles)
    return value


def forget_question(trace: dict[str, Any]) -> dict[str, Any]:
    """The trace of an answer whose question was erased: every form of the question goes
    (asked, rewritten, searched, its analysed words); what the answer showed stays."""
    out = dict(trace)
    for key in QUESTION_FIELDS:
        if out.get(key):
            out[key] = REDACTED
    if isinstance(out.get(REWRITE_FIELD), dict):
        out[REWRITE_FIELD] = {k: ([] if isinstance(v, list) else {} if isinstance(v, dict)
                                  else REDACTED if isinstance(v, str) and k == "query" else v)
                              for k, v in out[REWRITE_FIELD].items()}
    return _clear_term_lists(out)


def _clear_term_lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ([] if k in TERM_FIELDS and isinstance(v, list) else _clear_term_lists(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_clear_term_lists(v) for v in value]
    return value


def forget_carried(trace: dict[str, Any], forms: Forms) -> dict[str, Any]:
    """A later answer of a conversation that lost a message: a rewrite that carried words
    of it is undone (the query is the turn's own question again); word lists lose them."""
    out = dict(trace)
    rewrite: dict[str, Any] = out.get(REWRITE_FIELD) or {}
    carried = rewrite.get("carried") if isinstance(rewrite, dict) else None
    if isinstance(carried, list) and any(isinstance(w, str) and (_is_term(w, forms.terms)
                                                                 or redact_text(w, forms.needles)
                                                                 != w) for w in carried):
        own = str(out.get("question") or "")
        out[REWRITE_FIELD] = {**rewrite, "query": own, "carried": []}
        for key in ("rewritten_query", "searched_for"):
            if key in out:
                out[key] = own
    return scrub_trace(out, forms, set())


QUOTE_WORDS = 8
_WORD = re.compile(r"\w+", re.UNICODE)


def shingles(text: str, size: int = QUOTE_WORDS) -> set[int]:
    """Hashes of every run of `size` consecutive words (case-folded), to spot quotations.

    Eight words in a row that also occur in a document is a quotation of it (extractive
    answers copy sentences whole; a model's answer copies phrases); unrelated text almost
    never shares one.
    """
    words = _WORD.findall(text.casefold())
    return {hash(tuple(words[i:i + size])) for i in range(len(words) - size + 1)}


def redact_files(paths: Iterable[Path], needles: Sequence[str]) -> tuple[int, int]:
    """Redact needles inside text files in place (log files: the logging handler keeps
    appending to the same file); returns (files changed, bytes removed).

    Logs carry ids, never memory text, since issue 11; this reaches logs an older version
    wrote (it printed "(using what you told me: …)" into them)."""
    changed = removed = 0
    for path in paths:
        try:
            with path.open("r+", encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
                clean = redact_text(text, needles)
                if clean == text:
                    continue
                fh.seek(0)
                fh.write(clean)
                fh.truncate()
        except OSError:
            continue  # a log we cannot rewrite is reported by the receipt's count, not fatal
        changed += 1
        removed += max(0, len(text.encode("utf-8", "surrogateescape"))
                       - len(clean.encode("utf-8", "surrogateescape")))
    return changed, removed


def dir_bytes(path: Path) -> int:
    """Bytes of every file under `path` (0 when it does not exist)."""
    if path.is_file():
        return path.stat().st_size
    if not path.exists():
        return 0
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


@dataclass
class StoreTouch:
    """One store's part of an erasure."""

    rows: int = 0
    content_bytes: int = 0
    file_bytes_before: int | None = None
    file_bytes_after: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "content_bytes": self.content_bytes,
                "file_bytes_before": self.file_bytes_before,
                "file_bytes_after": self.file_bytes_after}


@dataclass
class ErasureReceipt:
    """What an erasure did, for the user (and kept, without content, for accountability)."""

    reason: str  # "delete", "forget_all", "expired", "consent_revoked", "edit", "undo", …
    at: str
    memory_ids: list[str] = field(default_factory=list)
    message_ids: list[str] = field(default_factory=list)
    exchange_ids: list[str] = field(default_factory=list)  # conversation-recall rows
    conversation_ids: list[str] = field(default_factory=list)
    stores: dict[str, StoreTouch] = field(default_factory=dict)
    physical_cleanup: list[str] = field(default_factory=list)

    def touch(self, store: str) -> StoreTouch:
        return self.stores.setdefault(store, StoreTouch())

    @property
    def total_rows(self) -> int:
        return sum(s.rows for s in self.stores.values())

    @property
    def total_content_bytes(self) -> int:
        return sum(s.content_bytes for s in self.stores.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason, "at": self.at, "memory_ids": list(self.memory_ids),
            "message_ids": list(self.message_ids),
            "conversation_ids": list(self.conversation_ids),
            "exchange_ids": list(self.exchange_ids),
            "stores": {name: s.to_dict() for name, s in sorted(self.stores.items())},
            "total_rows": self.total_rows, "total_content_bytes": self.total_content_bytes,
            "physical_cleanup": list(self.physical_cleanup),
        }

    def summary_line(self) -> str:
        touched = ", ".join(f"{name}: {s.rows} rows/{s.content_bytes} B"
                            for name, s in sorted(self.stores.items()) if s.rows)
        recall = (f", {len(self.exchange_ids)} recall exchanges" if self.exchange_ids else "")
        return (f"erased {len(self.memory_ids)} memories, {len(self.message_ids)} messages"
                f"{recall} ({touched or 'nothing to erase'})")
