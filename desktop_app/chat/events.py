"""Events of the chat layer. A turn (`ChatService.turn`, and `ChatServices.ask` around it)
streams `ChatEvent`s: `ConversationStarted` first when the question opens a new chat, the
answer service's events and the memory service's events as they come, and `TurnComplete`
last, with the after-the-answer job."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.answer.events import AnswerEvent
from desktop_app.memory.events import MemoryEvent

if TYPE_CHECKING:
    from desktop_app.chat.turn import ExtractionJob


@dataclass(frozen=True)
class ConversationStarted:
    """The chat layer created a conversation for this turn."""

    conversation_id: str


@dataclass(frozen=True)
class TurnComplete:
    conversation_id: str
    user_message_id: str
    assistant_message_id: str
    extraction: ExtractionJob | None  # None when memory or implicit extraction is off


ChatEvent = ConversationStarted | AnswerEvent | MemoryEvent | TurnComplete
