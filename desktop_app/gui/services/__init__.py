"""The one place where the GUI talks to the core services (Qt-free on purpose), split by
concern: `library` (documents, ingestion, reindex), `chat` (turns, stored conversations),
`memory` (what is remembered, recall, erasure) and `settings` (settings, models, the
network). Each panel gets the parts it uses; nothing in a widget reaches the composition
root (`App`) directly.

Every method is plain Python: generators of service events or blocking calls, typed with
the services' own types (no `Any`: what crosses into the window is written down here —
`ChatEvent`, `IngestEvent`, `AnswerMode`, receipts…). The GUI runs them through
`workers.WorkerSet`, never on the GUI thread, because the first touch of `app.embedder`,
`app.index`, `app.llm`… loads models. When the composition root grows a service, only
this package changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.chat.stored import ReloadedMessage
from desktop_app.errors import AppError
from desktop_app.gui.services.chat import ChatServices, ConversationInfo
from desktop_app.gui.services.library import (
    IndexSummary,
    LibraryListing,
    LibraryServices,
    RemovalSummary,
)
from desktop_app.gui.services.memory import MemoryServices
from desktop_app.gui.services.part import CancelCheck, ServicePart
from desktop_app.gui.services.settings import ModelLoadState, SettingsServices

if TYPE_CHECKING:
    from desktop_app.app import App

__all__ = ["CancelCheck", "ChatServices", "ConversationInfo", "GuiServices", "IndexSummary",
           "LibraryListing", "LibraryServices", "MemoryServices", "ModelLoadState", "RemovalSummary",
           "ServicePart", "SettingsServices", "StoredState"]


@dataclass(frozen=True)
class StoredState:
    """What the window shows at start-up before any index or model is open: the library
    as last listed (None when the index changed since), the chats, and the last chat."""

    listing: LibraryListing | None
    conversations: list[ConversationInfo]
    last_chat: list[ReloadedMessage] | None  # None: no last chat (or it was deleted)


class GuiServices(ServicePart):
    """Adapter between the window and `desktop_app.app.App`: its four parts, and the
    start-up that spans them."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.app = app  # the composition root, for tests and `run.py`; widgets use the parts
        self.library = LibraryServices(app)
        self.chat = ChatServices(app)
        self.memory = MemoryServices(app)
        self.settings = SettingsServices(app, self.library)

    def stored_state(self, last_conversation: str) -> StoredState:
        """The library listing, the chats and the last chat, from the stored state alone
        (the state database and the stored listing: milliseconds, no LanceDB, no model)."""
        listing = self.library.stored_listing()
        conversations = self.chat.conversations()
        messages = None
        if last_conversation and any(c.id == last_conversation for c in conversations):
            messages = self.chat.messages(last_conversation, documents=listing.documents
                                          if listing is not None else [])
        return StoredState(listing, conversations, messages)

    def load_models(self, cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Everything start-up loads, in order (`open_library`, then `load_search`): the
        window runs the two steps apart, the second once typing pauses."""
        yield from self.open_library(cancel)
        if not cancel():
            yield from self.load_search(cancel)

    def open_library(self, cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Decide who writes answers, then open the index; one state per step. No language
        model is loaded (`SettingsServices.load_llm`).

        The answer mode comes first: it needs only the settings and the model file's header,
        so the status bar says at once whether answers are written or quoted. The library
        list and the last chat are already on screen from the stored state (`stored_state`);
        the open index gives their badges' passages and keeps the list current."""
        yield from self.settings.load_llm(cancel)
        if not cancel():
            yield from self.open_index(cancel)

    def open_index(self, _cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Open the index (importing LanceDB: seconds on a busy laptop)."""
        yield ModelLoadState("index", "loading")
        _ = self.app.index
        yield ModelLoadState("index", "ready")

    def load_search(self, cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Load the embedder (questions and the Search view need it) and the memory.

        Reading the tokenizer (tokenizers' `from_file`, 250k pieces) would hold Python's
        interpreter lock for up to a second, so the window's tokenizer is read and run in a
        helper process (`App.embedder` with `reserve_ui_core`; retrieval/tokenizer_process.py);
        onnxruntime's session build barely holds it. The window still starts this step when
        typing pauses."""
        yield ModelLoadState("embedder", "loading")
        embedder = self.app.embedder
        embedder.embed_query("warm-up")  # the first call starts the model (seconds)
        yield ModelLoadState("embedder", "ready", embedder.id)
        if cancel():
            return
        try:
            memory = self.memory.service()
            _ = memory.index  # opens (and if needed re-embeds) the memory index
            memory.sweep_expired()  # retention: expired memories are erased at start-up
            yield ModelLoadState("memory", "ready")
        except AppError as exc:
            yield ModelLoadState("memory", "unavailable", exc.user_message)
