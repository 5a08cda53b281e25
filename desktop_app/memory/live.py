"""What the memory core and conversation recall share: switches read live from the settings
the app passes (the window changes them while both are open), else the constructor's values;
and the embedder, resolved only when first needed (loading it takes seconds)."""

from __future__ import annotations

from collections.abc import Callable

from desktop_app.config.settings import Settings
from desktop_app.retrieval.types import Embedder, resolve_embedder


class LiveSettings:
    """Base of `MemoryCore` and `RecallService`."""

    def __init__(self, embedder: Embedder | Callable[[], Embedder], *,
                 settings: Settings | None, retention_days: int) -> None:
        self._settings = settings  # when given, its fields win (live GUI toggles)
        self._retention_days = retention_days
        self._embedder_source = embedder
        self._embedder: Embedder | None = None

    @property
    def retention_days(self) -> int:
        return self._settings.memory_retention_days if self._settings else self._retention_days

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = resolve_embedder(self._embedder_source)
        return self._embedder
