"""Data types of the memory package: messages, memory items, extraction candidates (its
events live in memory/events.py).

Memory poisoning is prevented by types and by a check: every write path takes a
`UserMessage`, which only `ConversationStore.add_user_message` issues, and the service
re-reads that message from the store (role 'user', same text) before saving. Document
text, model output and tool results have no way in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from desktop_app.memory.erasure import Forms

MemoryStatus = Literal["active", "superseded", "deleted"]
ExtractedBy = Literal["explicit", "pattern", "llm", "edit"]

# LGPD art. 5 II sensitive data, plus financial account numbers (brief of issue 4).
SENSITIVE_CATEGORIES: tuple[str, ...] = (
    "health", "disability", "religion", "ethnicity", "sex_life", "political_opinion",
    "biometric", "financial_account",
)
ORDINARY_CATEGORIES: tuple[str, ...] = (
    "identity", "work", "preference", "contact", "location", "family", "schedule",
    "reference", "other",
)
CATEGORIES: tuple[str, ...] = ORDINARY_CATEGORIES + SENSITIVE_CATEGORIES
USER_SUBJECT = "user"


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC with a 'Z', second precision; sorts as text."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "pt": ("jan.", "fev.", "mar.", "abr.", "maio", "jun.", "jul.", "ago.", "set.", "out.",
           "nov.", "dez."),
    "es": ("ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.",
           "nov.", "dic."),
}


def chat_date(started_at: str, language: str = "en", *, now: datetime | None = None) -> str:
    """How an answer or the panel names an earlier chat, in its language: '15 Nov' /
    '15 de nov.' this year, '15 Nov 2024' / '15 de nov. de 2024' another year.
    `language`: "pt", "pt_BR", "es", "en", … (anything else reads as English)."""
    moment = parse_iso(started_at)
    code = language.split("_")[0].split("-")[0].lower()
    month = _MONTHS.get(code, _MONTHS["en"])[moment.month - 1]
    this_year = moment.year == (now or utc_now()).year
    if code in ("pt", "es"):
        label = f"{moment.day} de {month}"
        return label if this_year else f"{label} de {moment.year}"
    label = f"{moment.day} {month}"
    return label if this_year else f"{label} {moment.year}"


@dataclass(frozen=True)
class UserMessage:
    """Words the user typed, as stored in the conversation store (the only memory input)."""

    conversation_id: str
    message_id: str
    text: str
    timestamp: str  # ISO 8601 UTC
    # The assistant turn the user was answering: context for understanding short
    # answers ("Sure, it's 42"), never a source of facts.
    replying_to: str | None = None


@dataclass(frozen=True)
class StoredMessage:
    id: str
    conversation_id: str
    seq: int
    role: Literal["user", "assistant"]
    content: str
    created_at: str
    trace: dict[str, Any] | None = None


class ConversationLog(Protocol):
    """What memory needs from the conversation store (`chat.conversations.ConversationStore`
    implements it): the message a memory came from, the list for an export, and erasing or
    redacting messages when a memory is erased (LGPD: no copy left behind)."""

    def message(self, message_id: str) -> StoredMessage | None: ...

    def messages(self, conversation_id: str) -> list[StoredMessage]: ...

    def messages_by_id(self, message_ids: Iterable[str]) -> dict[str, StoredMessage]: ...

    def conversations(self) -> list[dict[str, Any]]: ...

    def is_user_message(self, message: UserMessage) -> bool: ...

    def delete_messages(self, message_ids: Iterable[str]) -> tuple[int, int]: ...

    def delete_all(self) -> tuple[int, int]: ...

    def redact(self, needles: Iterable[str] | Forms,
               memory_ids: Iterable[str]) -> tuple[int, int]: ...

    def redact_user_messages(self, message_ids: Iterable[str],
                             needles: Iterable[str]) -> tuple[int, int]: ...


@dataclass(frozen=True)
class MemorySource:
    """Provenance: which message the fact came from, when, and the user's exact words."""

    conversation_id: str
    message_id: str
    timestamp: str
    quote: str


@dataclass(frozen=True)
class MemoryItem:
    id: str
    text: str  # a self-contained sentence in the user's words
    category: str
    subject: str  # "user" or a named other person ("father", "Dr. Zhang")
    attribute: str  # slot for temporal resolution ("employer", "dentist"); "" if none
    value: str  # the slot's value as stated; "" if none
    sensitive: bool
    status: MemoryStatus
    created_at: str
    updated_at: str
    expires_at: str | None
    supersedes: str | None
    superseded_by: str | None
    extracted_by: ExtractedBy
    sources: tuple[MemorySource, ...] = ()
    search_context: str = ""

    @property
    def search_text(self) -> str:
        """What the index embeds and tokenizes: context (if any) plus the fact."""
        return search_text(self.search_context, self.text)

    @property
    def source(self) -> MemorySource | None:
        """The first message that stated this fact."""
        return self.sources[0] if self.sources else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "text": self.text, "category": self.category,
            "subject": self.subject, "attribute": self.attribute, "value": self.value,
            "sensitive": self.sensitive, "status": self.status,
            "created_at": self.created_at, "updated_at": self.updated_at,
            "expires_at": self.expires_at, "supersedes": self.supersedes,
            "superseded_by": self.superseded_by, "extracted_by": self.extracted_by,
            "search_context": self.search_context,
            "sources": [s.__dict__ for s in self.sources],
        }


@dataclass(frozen=True)
class Candidate:
    """A fact proposed by extraction, not yet saved; always tied to a user message."""

    text: str
    category: str
    subject: str
    attribute: str
    value: str
    sensitive: bool
    extracted_by: ExtractedBy
    message: UserMessage
    # the assistant turn this answered, used only to index a short answer ("Sure, it's
    # 4429853327") so a question can find it; never shown, never part of the fact
    search_context: str = ""

    @property
    def search_text(self) -> str:
        """What the index will embed for it: `MemoryItem.search_text`."""
        return search_text(self.search_context, self.text)


def search_text(context: str, text: str) -> str:
    """What the memory index embeds and tokenizes: context (if any) plus the fact."""
    return f"{context} {text}".strip()


@dataclass(frozen=True)
class SaveOutcome:
    """What happened to one candidate: saved, merged into a duplicate, or not saved."""

    status: Literal["saved", "merged", "needs_consent", "rejected", "disabled"]
    candidate: Candidate
    memory_id: str | None = None
    superseded_id: str | None = None  # the older item this one replaced
    reason: str = ""
    undo_token: str | None = None


@dataclass(frozen=True)
class EditEntry:
    edited_at: str
    old_text: str | None  # None when the user asked to erase the old text
    old_text_erased: bool


@dataclass(frozen=True)
class Provenance:
    """Everything the panel's "where did this come from" view shows."""

    item: MemoryItem
    history: tuple[MemoryItem, ...]  # older versions this item superseded, newest first
    edits: tuple[EditEntry, ...]
    source_messages: tuple[StoredMessage, ...]


@dataclass(frozen=True)
class ConsentRecord:
    category: str
    granted: bool
    recorded_at: str




@dataclass(frozen=True)
class EarlierExchange:
    """A recalled exchange as the prompt needs it."""

    exchange_id: str
    conversation_id: str
    started_at: str  # ISO 8601 UTC
    date_label: str  # "15 Nov", in the answer's words
    turns: tuple[tuple[str, str, str], ...]  # (message id, role, text), in order
    position: int = 0  # where it starts in its chat (message seq): the order it was said
    similarity: tuple[float | None, ...] = ()  # each turn's cosine to the question, if known
