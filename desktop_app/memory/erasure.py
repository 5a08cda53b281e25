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
    """Replace case-insensitive occurrences of each needle (longest first) with a marker."""
    for needle in needles:
        if needle and needle.casefold() in text.casefold():
            text = re.sub(re.escape(needle), REDACTED, text, flags=re.IGNORECASE)
    return text


def scrub_trace(value: Any, needles: Iterable[str], memory_ids: set[str]) -> Any:
    """Drop trace entries describing an erased memory and redact any copy of its text.

    Format-independent on purpose: the answer service owns the trace layout, so we walk
    any JSON value; a dict naming an erased memory id is removed from its list.
    """
    needles = list(needles)
    if isinstance(value, dict):
        return {k: scrub_trace(v, needles, memory_ids) for k, v in value.items()}
    if isinstance(value, list):
        kept = []
        for item in value:
            if isinstance(item, dict) and any(item.get(key) in memory_ids
                                              for key in _MEMORY_ID_KEYS):
                continue
            if isinstance(item, str) and item in memory_ids:
                continue
            kept.append(scrub_trace(item, needles, memory_ids))
        return kept
    if isinstance(value, str):
        return redact_text(value, needles)
    return value


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
