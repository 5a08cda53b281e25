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
from typing import TYPE_CHECKING

from desktop_app.errors import AppError
from desktop_app.gui.services.chat import ChatServices, ConversationInfo
from desktop_app.gui.services.library import IndexSummary, LibraryServices, RemovalSummary
from desktop_app.gui.services.memory import MemoryServices
from desktop_app.gui.services.part import CancelCheck, ServicePart
from desktop_app.gui.services.settings import ModelLoadState, SettingsServices

if TYPE_CHECKING:
    from desktop_app.app import App

__all__ = ["CancelCheck", "ChatServices", "ConversationInfo", "GuiServices", "IndexSummary",
           "LibraryServices", "MemoryServices", "ModelLoadState", "RemovalSummary",
           "ServicePart", "SettingsServices"]


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

    def load_models(self, cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Open the index, load the embedder, prepare the LLM; one state per step.

        The index comes first: opening it needs only the embedder's id and dimension (its
        config files), not torch, so the library list shows within a second of the window
        while the embedder still loads (seconds to tens of seconds on a busy laptop)."""
        yield ModelLoadState("index", "loading")
        _ = self.app.index
        yield ModelLoadState("index", "ready")
        if cancel():
            return
        yield ModelLoadState("embedder", "loading")
        embedder = self.app.embedder
        embedder.embed_query("warm-up")  # the first call pays torch's lazy start-up (seconds)
        yield ModelLoadState("embedder", "ready", embedder.id)
        if cancel():
            return
        yield from self.settings.load_llm(cancel)
        if cancel():
            return
        try:
            memory = self.memory.service()
            _ = memory.index  # opens (and if needed re-embeds) the memory index
            memory.sweep_expired()  # retention: expired memories are erased at start-up
            yield ModelLoadState("memory", "ready")
        except AppError as exc:
            yield ModelLoadState("memory", "unavailable", exc.user_message)
