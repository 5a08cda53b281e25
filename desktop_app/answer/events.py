"""Events streamed by the answer service (the GUI turns them into signals), and the
warnings an answer carries: a code and its parameter, rendered to words at the edge
(`AnswerWarning.english()` for the CLI, logs and eval reports; the window's translation
table in `gui/chat.py`). Nothing matches warning text: code and detail travel apart.

`Done` is the typed answer: what the window and the CLI show is in its fields (the mode,
the query searched for, the quoted chats, the closest passages, the warnings); its
`trace` is the diagnostic record (logs, `--json`, the stored conversation), which nothing
that renders an answer reads. `Citation.to_stored` / `from_stored` are the one place the
badge's stored form (a conversation's trace) is written and read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from desktop_app.answer.mode import AnswerMode
    from desktop_app.retrieval.index_api import ChunkRow


class WarningCode(StrEnum):
    """Why an answer carries a warning. The value is what the trace stores."""

    NOT_FOUND = "not_found"  # the documents do not answer the question
    NO_SUPPORTING_EVIDENCE = "no_supporting_evidence"  # written, but no badge survived
    SOURCES_ONLY = "sources_only"  # quoted from the sources, not written by a model
    CANCELLED = "cancelled"  # the user stopped it
    EXPERIMENT = "experiment"  # written by a model below the writing line
    REPETITION = "repetition"  # the model looped; the answer was cut there
    MODEL_UNAVAILABLE = "model_unavailable"  # detail: why (AppError.user_message)
    MODEL_STOPPED = "model_stopped"  # the model failed mid-answer; detail: why
    MEMORY_UNAVAILABLE = "memory_unavailable"  # detail: why
    RERANKER_UNAVAILABLE = "reranker_unavailable"  # detail: why
    NO_SENTENCE_MATCHED = "no_sentence_matched"  # sources-only: top passages shown instead
    KEYWORD_ONLY = "keyword_only"  # a library indexed by another embedder; detail: its name
    LIBRARY_UNAVAILABLE = "library_unavailable"  # a library not searched; detail: why
    # sources-only, the documents do not answer but an earlier chat does; detail: its date(s)
    FROM_EARLIER_CHAT = "from_earlier_chat"
    FROM_MEMORY = "from_memory"  # sources-only, not in the documents: what the user told me
    # "not found" because only a value answers and no passage states one; detail: its kind
    # (answer/kinds.py: "money", "percent", "clock", "speed", "age", "duration", "date"…)
    NO_VALUE = "no_value"
    # sources-only: the quotes are in a language the question's words cannot be compared
    # with (an English question, a Portuguese law): found by meaning alone; detail: the
    # passages' language code
    BY_MEANING = "by_meaning"
    OTHER = "other"  # a stored warning of an older version the codes do not know; detail: it


ENGLISH: Mapping[WarningCode, str] = {
    WarningCode.NOT_FOUND: "not found in your documents",
    WarningCode.NO_SUPPORTING_EVIDENCE: "no supporting evidence",
    WarningCode.SOURCES_ONLY: "answered from sources only",
    WarningCode.CANCELLED: "cancelled",
    WarningCode.EXPERIMENT: ("experiment: written by a model too small to follow the answer "
                             "prompt; it may invent, repeat or mistranslate — check every badge"),
    WarningCode.REPETITION: "the model started repeating itself; the answer was cut there",
    WarningCode.MODEL_UNAVAILABLE: "model unavailable: {detail}",
    WarningCode.MODEL_STOPPED: "the model stopped with an error: {detail}",
    WarningCode.MEMORY_UNAVAILABLE: "memory unavailable: {detail}",
    WarningCode.RERANKER_UNAVAILABLE: "reranker unavailable: {detail}",
    WarningCode.NO_SENTENCE_MATCHED: ("no sentence matched the question's words; showing the "
                                      "top passages"),
    WarningCode.KEYWORD_ONLY: ("searched by keywords only in library {detail}: it was indexed "
                               "with another embedding model (reindex it)"),
    WarningCode.LIBRARY_UNAVAILABLE: "a library could not be searched: {detail}",
    WarningCode.FROM_EARLIER_CHAT: "not in your documents; from your chat of {detail}",
    WarningCode.FROM_MEMORY: "not in your documents; from what you told me",
    WarningCode.NO_VALUE: "the question asks for {detail}, and no passage found states one",
    WarningCode.BY_MEANING: ("the quotes are in another language than the question: found by "
                             "meaning alone, check them"),
    WarningCode.OTHER: "{detail}",
}


# the kinds of value a question can ask for (answer/kinds.py), as the CLI names them
VALUE_NAMES: Mapping[str, str] = {
    "money": "an amount of money", "percent": "a percentage", "clock": "a time of day",
    "speed": "a speed", "age": "an age", "duration": "a duration", "date": "a date",
    "start": "a date or a start",
    "count": "a number of things", "penalty": "a penalty's term or amount",
    "prison": "a prison term",
    "measure": "a length or a weight", "score": "a mark or score",
}


@dataclass(frozen=True)
class AnswerWarning:
    """One warning of an answer: what happened (`code`) and its parameter (`detail`, the
    user message of the error behind it, already in words; empty for most codes)."""

    code: WarningCode
    detail: str = ""

    def english(self) -> str:
        """The CLI's (and the logs') words for it."""
        detail = VALUE_NAMES.get(self.detail, self.detail) if self.code == WarningCode.NO_VALUE \
            else self.detail
        return ENGLISH[self.code].format(detail=detail)

    def as_dict(self) -> dict[str, str]:
        """Stored form (a conversation's trace, `--json` output)."""
        return {"code": self.code.value, "detail": self.detail}

    @classmethod
    def from_stored(cls, raw: object) -> AnswerWarning:
        """Back from `as_dict`. Traces stored before warnings had codes hold the English
        text: a known sentence gets its code back, anything else is kept as OTHER."""
        if isinstance(raw, Mapping):
            try:
                return cls(WarningCode(str(raw.get("code"))), str(raw.get("detail") or ""))
            except ValueError:
                return cls(WarningCode.OTHER, str(raw.get("detail") or raw.get("code") or ""))
        text = str(raw)
        return _LEGACY.get(text) or cls(WarningCode.OTHER, text)


# the English sentences of the parameterless codes, as older versions stored them
_LEGACY = {text: AnswerWarning(code) for code, text in ENGLISH.items() if "{" not in text}


@dataclass(frozen=True)
class QuoteSpan:
    """The exact text a badge stands for, located in its chunk and in the document.

    `start`/`end` index the chunk text (`Citation.snippet[start:end] == text`);
    `page`/`char_start` and `page_end`/`char_end` use the chunk's own coordinates
    (offsets into the text of those pages, as `Citation.char_start/char_end`), so a
    viewer can highlight exactly the quoted words. `exact` is False when the quote could
    only be placed at the chunk level (a chunk spread over 3+ pages). `hidden` are the
    ranges of `text` the source strikes through (revoked wording, offsets into `text`): the
    answer leaves them out, and so does the viewer's highlight.
    """

    text: str
    start: int
    end: int
    page: int
    char_start: int
    page_end: int
    char_end: int
    exact: bool = True
    hidden: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Citation:
    """A verified source badge [n] pointing at a real chunk and page."""

    number: int  # the [n] shown to the user
    doc_id: str
    chunk_id: str
    title: str
    source_path: str
    file_type: str
    page: int  # 1-based page where the passage starts
    page_end: int
    char_start: int
    char_end: int
    score: float
    legs: frozenset[str]
    snippet: str  # the chunk text (for highlight / preview)
    ocr_confidence: float | None = None  # set when the passage was read by OCR
    ocr_boxes: str = ""  # its line boxes on the page image (JSON, see ingest/ocr.py)
    # the exact words of the passage the badge stands for: the sentence or block quoted
    # (sources-only answers) or the sentence that best supports `claim` (written answers)
    quote: QuoteSpan | None = None
    library: str = "local"  # where the source lives: "local" or a team library's name
    claim: str = ""  # written answers: the answer's sentence this badge supports

    @property
    def ocr_label(self) -> str:
        """"OCR 96%" when the passage was read from a scan, else ""."""
        from desktop_app.retrieval.types import ocr_label

        return ocr_label(self.ocr_confidence)

    def to_stored(self) -> dict[str, Any]:
        """The badge as a conversation's trace keeps it: ids, the page, the exact quoted span
        and the claim — not the passage's text, which comes back from the index on reload
        (so removing a document leaves no copy of it in the chats)."""
        return {"number": self.number, "doc_id": self.doc_id, "chunk_id": self.chunk_id,
                "page": self.page, "quote": asdict(self.quote) if self.quote else None,
                "library": self.library, "claim": self.claim}

    @classmethod
    def from_stored(cls, entry: Mapping[str, Any], row: ChunkRow | None = None) -> Citation | None:
        """Back from `to_stored`, with the passage's stored `row` (looked up by the entry's
        `library` and `chunk_id`); None when the row is gone (the document was removed) or
        the entry is unreadable. Traces of older versions kept the whole citation (they have
        a `source_path`): those need no row."""
        try:
            if "source_path" in entry:
                data = dict(entry)
            elif row is None:
                return None
            else:
                data = {"number": int(entry["number"]), "doc_id": row.doc_id,
                        "chunk_id": row.chunk_id, "title": row.title,
                        "source_path": row.source_path, "file_type": row.file_type,
                        "page": int(entry.get("page") or row.page_start),
                        "page_end": row.page_end, "char_start": row.char_start,
                        "char_end": row.char_end, "score": 0.0, "legs": [],
                        "snippet": row.text, "ocr_confidence": row.ocr_confidence,
                        "ocr_boxes": row.ocr_boxes, "quote": entry.get("quote"),
                        "claim": str(entry.get("claim") or ""),
                        "library": stored_library(entry)}
            data["legs"] = frozenset(data.get("legs") or ())
            if isinstance(data.get("quote"), dict):  # stored as JSON: the exact span
                quote = dict(data["quote"])
                quote["hidden"] = tuple((int(a), int(b)) for a, b in quote.get("hidden") or ())
                data["quote"] = QuoteSpan(**quote)
            return cls(**data)
        except (KeyError, TypeError, ValueError):
            return None


def stored_library(entry: Mapping[str, Any]) -> str:
    """The library a stored badge's passage lives in ("local" when older traces omit it)."""
    return str(entry.get("library") or "local")


@dataclass(frozen=True)
class Token:
    text: str


@dataclass(frozen=True)
class CitationEvent:
    """Emitted as soon as a [n] marker completes in the stream."""

    citation: Citation


SEARCHING, READING, WRITING = "searching", "reading", "writing"


@dataclass(frozen=True)
class Progress:
    """What the answer service is doing before the first word arrives: "searching"
    (retrieval, and the follow-up rewrite), "reading" `count` passages (choosing
    sentences, or the model processing its prompt — the long wait on a laptop), and
    "writing" (the model has started; its first words may still be held back)."""

    stage: str
    count: int = 0


@dataclass(frozen=True)
class MemoryUsed:
    memory_id: str
    text: str


@dataclass(frozen=True)
class RecallUsed:
    """An earlier chat the answer's context drew on ("from your chat of 15 Nov")."""

    conversation_id: str
    date_label: str
    message_ids: tuple[str, ...]
    excerpt: str  # its first turns, for the sources-only answer
    started_at: str = ""  # ISO 8601: the window dates it in the UI's language


@dataclass(frozen=True)
class QuotedChat:
    """An earlier chat a sources-only answer quotes ("from your chat of 15 Nov")."""

    conversation_id: str
    started_at: str  # ISO 8601: the window dates it in the UI's language


@dataclass(frozen=True)
class Done:
    """The answer, last event of every question. Render from the fields, never the trace."""

    answer: str  # final text, with unverifiable [n] markers removed
    citations: tuple[Citation, ...]
    warnings: tuple[AnswerWarning, ...] = ()  # e.g. NO_SUPPORTING_EVIDENCE, SOURCES_ONLY
    sources_only: bool = False
    trace: dict[str, Any] = field(default_factory=dict)  # rewritten query, hits, timings, memories
    # when the answer is "not found": the passages that came closest, for the user to judge
    # (shown apart from the answer, never as badges)
    closest: tuple[Citation, ...] = ()
    # who wrote it (the model, or the sources, and why); None for what no answer service
    # decided (a memory command's acknowledgement, an answer reloaded from a chat)
    answer_mode: AnswerMode | None = None
    searched_for: str = ""  # the follow-up rewritten as the query searched, when it differs
    quoted_chats: tuple[QuotedChat, ...] = ()  # earlier chats the answer quotes
    scope: str = ""  # what the question was asked about ("collection “Contratos”"), "" = all

    def warned(self, code: WarningCode) -> bool:
        """Whether the answer carries a warning with this code."""
        return any(w.code == code for w in self.warnings)


AnswerEvent = Token | CitationEvent | MemoryUsed | RecallUsed | Progress | Done
