"""Query rewrite: turn the latest turn of a conversation into a standalone query.

Runs only when there is history. With a capable LLM (the one answering), the model
answers in JSON constrained by a schema (llama.cpp grammar / Ollama `format`), so the
output always parses; its content is still checked: unknown file types and malformed
dates are dropped, an empty or runaway query falls back to the user's own words.

Without one, `standalone_query` builds the query with no model: a follow-up that is
short ("e de crianças?") or leans on the conversation ("e quais são as atividades
dele?", "and for children?") gets the topic terms of the previous questions appended
after the user's own words; a self-contained question is searched as typed. The
result, how it was built and why a step was skipped go into the answer's trace.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop_app.answer.llm import LLM
from desktop_app.answer.prompt import PromptTexts, neutralize
from desktop_app.answer.question_fit import replaced_qualifiers
from desktop_app.errors import AppError
from desktop_app.retrieval.types import SearchFilters
from desktop_app.text.analyze import analyze
from desktop_app.text.fold import fold
from desktop_app.text.stem import light_stem
from desktop_app.text.stopwords import NOT_CONTENT

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
    method: str = "none"  # "llm" | "model-free" | "none" (the question as typed)
    carried: tuple[str, ...] = ()  # words the model-free rewrite took from earlier turns
    # … and the earlier words it left because the follow-up names a sibling of them ("médio"
    # in "e do ensino fundamental?" after "… do ensino médio?"): it asks of something else
    replaced: tuple[str, ...] = ()

    def trace(self) -> dict[str, Any]:
        return {"query": self.query, "skipped": self.skipped, "error": self.error,
                "filters": _filters_dict(self.filters), "raw": self.raw, "ms": round(self.ms, 1),
                "method": self.method, "carried": list(self.carried),
                "replaced": list(self.replaced)}


def _filters_dict(filters: SearchFilters | None) -> dict[str, Any] | None:
    if filters is None:
        return None
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(filters).items()
            if v not in ((), None, "")}  # "": not set


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
    """Standalone query for `question` given `history`; never raises for model trouble.
    `llm` is the model that answers, or None (then the model-free rewrite runs)."""
    if not history:
        return RewriteResult(question, skipped="no history")
    if llm is None:
        return standalone_query(question, history)
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
    return RewriteResult(query, filters=parse_filters(raw.get("filters")), raw=raw, ms=_ms(started),
                         method="llm")


# -- the model-free rewrite ---------------------------------------------------------------------

def _wordset(words: str) -> frozenset[str]:
    return frozenset(fold(w) for w in words.split())


MAX_CARRIED_WORDS = 6
SHORT_FOLLOWUP_TERMS = 1  # a question with this few content words leans on the conversation
# how a follow-up opens: "e …", "and …", "y …", "what about …", "e quanto a …"
_FOLLOWUP_OPENING = re.compile(
    r"^\W*(?:e|and|y|mas|but|pero|ou|or|tamb[eé]m|also|tambi[eé]n|what about|how about"
    r"|and what about|e quanto|e sobre|y sobre|y qu[eé] hay de|e no caso|e se|and if|y si)\b",
    re.IGNORECASE)
# words that point back to something said before (pt / en / es). Not "él" (folded, it is
# the article "el" of every Spanish question), nor "that" and "there" (a relative pronoun,
# "is there"): with them, any Spanish question and most English ones were follow-ups and
# carried the last question's words.
_ANAPHORA = _wordset("""
    isso isto disso disto nisso nisto esse essa esses essas desse dessa desses dessas nesse nessa
    aquele aquela aquilo daquele daquela ele ela eles elas dele dela deles delas nele nela lhe lhes
    mesmo mesma it its this these those they them their he she his her him
    eso esto ello ese esa esos esas ella ellos ellas su sus suyo suya allí ahí
""")
_NOT_TOPIC = NOT_CONTENT | _wordset("much many")


def topic_words(text: str) -> list[str]:
    """Content words of `text` as the user wrote them (accents kept), in order."""
    words = []
    for word in re.findall(r"\w+(?:-\w+)*", text):
        folded = fold(word)
        if folded in _NOT_TOPIC or folded in _ANAPHORA or (len(folded) < 3 and not word.isdigit()):
            continue
        words.append(word if not word.isupper() or len(word) <= 5 else word.lower())
    return words


def is_followup(question: str) -> bool:
    """A short question, or one that opens like a follow-up or points back ("dele", "it")."""
    words = [fold(w) for w in re.findall(r"\w+", question)]
    if _FOLLOWUP_OPENING.match(question) or any(w in _ANAPHORA for w in words):
        return True
    return len(topic_words(question)) <= SHORT_FOLLOWUP_TERMS


def standalone_query(question: str, history: Sequence[dict[str, str]]) -> RewriteResult:
    """The model-free standalone query: the user's words, then the earlier questions'
    topic words they do not repeat (most recent question first), back to the question that
    opened the thread: one that was itself no follow-up starts a new topic, so the words of
    the questions before it are not carried ("Who enforces the law?" between "how long does
    the controller have to answer?" and "what penalties can it impose?"). A word the
    follow-up names a sibling of is left (`question_fit.replaced_qualifiers`)."""
    started = time.perf_counter()
    if not is_followup(question):
        return RewriteResult(question, skipped="self-contained", method="model-free",
                             ms=_ms(started))
    have = set(analyze(question).split())
    carried: list[str] = []
    left: list[str] = []  # replaced by a sibling the follow-up names
    for message in reversed(list(history)[-HISTORY_MESSAGES:]):
        if message.get("role") != "user":
            continue
        asked = str(message.get("content", ""))
        replaced = replaced_qualifiers(question, asked)
        for word in topic_words(asked):
            stem = analyze(word)
            if not stem or stem in have:
                continue
            if light_stem(fold(word)) in replaced:
                if word not in left:
                    left.append(word)
                continue
            have.add(stem)
            carried.append(word)
        if len(carried) >= MAX_CARRIED_WORDS or not is_followup(asked):
            break
    carried = carried[:MAX_CARRIED_WORDS]
    if not carried:
        return RewriteResult(question, skipped="nothing to carry", method="model-free",
                             ms=_ms(started), replaced=tuple(left))
    query = f"{question.strip()} {' '.join(carried)}"
    return RewriteResult(query, method="model-free", carried=tuple(carried), ms=_ms(started),
                         replaced=tuple(left))


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
