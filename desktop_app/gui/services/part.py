"""What every part of the GUI seam shares: the composition root it adapts, and the folder
of the logs an error dialog names."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.app import App

CancelCheck = Callable[[], bool]


class ServicePart:
    """One concern of `GuiServices` (library, chat, memory, settings). Plain Python: the
    window runs its calls on workers (`workers.WorkerSet`), never on the GUI thread,
    because a first touch of `app.embedder`, `app.index`, `app.llm`… loads models."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def log_dir(self) -> str:
        """Where the logs are (error dialogs name it)."""
        return str(self._app.paths.log_dir)
