"""Fixtures for the memory tests: real SQLite and LanceDB under the test's ACERVO_HOME and
the real e5 embedder. The whole app (`memory_app`) is the real `build_app()`: tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from desktop_app.chat.conversations import ConversationStore
from desktop_app.config.paths import AppPaths, app_paths
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import UserMessage, utc_now
from desktop_app.state_db import StateDB


class Clock:
    """A settable clock for retention tests."""

    def __init__(self) -> None:
        self.now = utc_now()

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def paths(acervo_home: Path) -> AppPaths:
    return app_paths().ensure()


@pytest.fixture
def state_db(paths: AppPaths) -> Iterator[StateDB]:
    db = StateDB.open(paths.state_db)
    yield db
    db.close()


@pytest.fixture
def conversations(state_db: StateDB) -> ConversationStore:
    return ConversationStore(state_db)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def memory(state_db: StateDB, conversations: ConversationStore, embedder: Any, paths: AppPaths,
           clock: Clock) -> MemoryService:
    return MemoryService(state_db, paths.data_dir / "memory", embedder,
                         conversations=conversations, retention_days=365, clock=clock)


@pytest.fixture
def say(conversations: ConversationStore) -> Any:
    """say("text") stores a user message in one conversation and returns its UserMessage."""
    conversation_id = conversations.new_conversation("test")

    def _say(text: str) -> UserMessage:
        return conversations.add_user_message(conversation_id, text)

    _say.conversation_id = conversation_id  # type: ignore[attr-defined]
    return _say
