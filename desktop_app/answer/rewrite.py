"""Query rewrite: turn the latest turn of a conversation into a standalone query.

Only runs when there is history and an LLM. The model answers in JSON constrained
by a schema (llama.cpp grammar / Ollama `format`), so the output always parses;
its content is still checked: unknown file types and malformed dates are dropped,
an empty or runaway query falls back to the user's own words. The result, and why
it was skipped or rejected, goes into the answer's trace.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop_app.answer.llm import LLM
from desktop_app.answer.prompt import PromptTexts, neutralize
from desktop_app.errors import AppError
from desktop_app.retrieval.types import SearchFilters

FILE_TYPES = ("pdf", "docx", "md", "txt", "html")
HISTORY_MESSAGES = 6  # the last three exchanges are enough to resolve "and its deadline?"
HISTORY_CHARS = 600
MAX_QUERY_CHARS = 300

REWRITE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_CHARS},
        "filters": {
            "type": "object",
            "properties": {
                "file_types": {"type": "array", "items": {"type": "string", "enum": list(FILE_TYPES)},
                               "maxItems": len(FILE_TYPES)},
                "since": {"type": "string", "format": "date"},
                "until": {"type": "string", "format": "date"},
            },
        },
    },
    "required": ["query"],
}


@dataclass(frozen=True)
class RewriteResult:
    query: str  # what retrieval searches for
    filters: SearchFilters | None = None  # filters the user asked for in words, if any
    skipped: str | None = None  # why no rewrite ran ("no history", "no model")
    error: str | None = None  # why the model's rewrite was not used
    raw: dict[str, Any] = field(default_factory=dict)
    ms: float = 0.0

    def trace(self) -> dict[str, Any]:
        return {"query": self.query, "skipped": self.skipped, "error": self.error,
                "filters": _filters_dict(self.filters), "raw": self.raw, "ms": round(self.ms, 1)}


def _filters_dict(filters: SearchFilters | None) -> dict[str, Any] | None:
    if filters is None:
        return None
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(filters).items()
            if v not in ((), None)}


def format_history(history: Sequence[dict[str, str]], texts: PromptTexts) -> str:
    lines = []
    for message in list(history)[-HISTORY_MESSAGES:]:
        role = texts["history_user"] if message.get("role") == "user" else texts["history_assistant"]
        content = " ".join(str(message.get("content", "")).split())
        if len(content) > HISTORY_CHARS:
            content = content[:HISTORY_CHARS] + " …"
        lines.append(f"{role}: {neutralize(content)}")
    return "\n".join(lines)


def rewrite_query(llm: LLM | None, question: str, history: Sequence[dict[str, str]] | None,
                  texts: PromptTexts) -> RewriteResult:
    """Standalone query for `question` given `history`; never raises for model trouble."""
    if not history:
        return RewriteResult(question, skipped="no history")
    if llm is None:
        return RewriteResult(question, skipped="no model")
    started = time.perf_counter()
    messages = [
        {"role": "system", "content": texts["rewrite_system"]},
        {"role": "user", "content": texts["rewrite_user"].format(
            history=format_history(history, texts), question=question.strip())},
    ]
    try:
        raw = llm.complete_json(messages, REWRITE_SCHEMA, max_tokens=160)
    except AppError as exc:
        return RewriteResult(question, error=exc.user_message, ms=_ms(started))
    query = raw.get("query")
    if not isinstance(query, str) or not query.strip():
        return RewriteResult(question, error="empty query", raw=raw, ms=_ms(started))
    query = " ".join(query.split())
    if len(query) > MAX_QUERY_CHARS:
        return RewriteResult(question, error="query too long", raw=raw, ms=_ms(started))
    return RewriteResult(query, filters=parse_filters(raw.get("filters")), raw=raw, ms=_ms(started))


def parse_filters(value: Any) -> SearchFilters | None:
    """Keep only well-formed filters; None when nothing valid remains."""
    if not isinstance(value, dict):
        return None
    types = value.get("file_types")
    file_types = tuple(dict.fromkeys(t for t in types if t in FILE_TYPES)) if isinstance(types, list) else ()
    since, until = _iso_date(value.get("since")), _iso_date(value.get("until"))
    if since and until and since > until:
        since = until = None
    if not (file_types or since or until):
        return None
    return SearchFilters(file_types=file_types, since=since, until=until)


def _iso_date(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        return None


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
