"""Events of the memory service, for the GUI and the CLI: the "memory saved · undo" chip,
the consent prompt, erasure receipts, the forget-everything confirmation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MemorySaved:
    memory_ids: tuple[str, ...]
    undo_token: str
    texts: tuple[str, ...]  # for the chip; never logged
    superseded_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemoryNotSaved:
    """Shown as "not saved: needs your consent" (the text lives only in this event)."""

    category: str
    reason: str
    text: str
    message_id: str = ""  # to save it after consent: MemoryService.save_after_consent


@dataclass(frozen=True)
class MemoryForgotten:
    memory_ids: tuple[str, ...]
    receipt: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ForgetAllRequested:
    """The user asked in chat to forget everything: the GUI/CLI must confirm first."""


MemoryEvent = MemorySaved | MemoryNotSaved | MemoryForgotten | ForgetAllRequested
