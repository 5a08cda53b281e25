"""Fixtures for the memory tests: real SQLite and LanceDB under the test's ACERVO_HOME,
the real e5 embedder, and an App with the memory wiring the lead adds to app.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import App
from desktop_app.config.paths import AppPaths, app_paths
from desktop_app.config.settings import Settings
from desktop_app.memory.conversations import ConversationStore
from desktop_app.memory.db import StateDB
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import UserMessage, utc_now


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


class MemoryApp(App):
    """The composition root plus the memory wiring proposed to the lead (same code)."""

    @cached_property
    def state_db(self) -> StateDB:
        return StateDB.open(self.paths.state_db)

    @cached_property
    def conversations(self) -> ConversationStore:
        return ConversationStore(self.state_db)

    @cached_property
    def memory(self) -> MemoryService:
        from desktop_app.memory.recall import RecallService

        service = MemoryService(self.state_db, self.paths.data_dir / "memory",
                                lambda: self.embedder, conversations=self.conversations,
                                settings=self.settings, llm_provider=lambda: None)
        service.conversation_recall = RecallService(
            self.state_db, self.paths.data_dir / "recall", lambda: self.embedder,
            conversations=self.conversations, settings=self.settings)
        return service

    @cached_property
    def chat(self) -> Any:
        from desktop_app.answer.service import AnswerService
        from desktop_app.memory.chat import ChatService

        answers = AnswerService(self.searcher, None, self.settings, memory=self.memory,
                                embedder=self.embedder, library=self.library_floor,
                                recall=self.memory.conversation_recall)
        return ChatService(self.conversations, answers, self.memory,
                           recall=self.memory.conversation_recall)


@pytest.fixture
def memory_app(paths: AppPaths, embedder: Any) -> Iterator[MemoryApp]:
    app = MemoryApp(paths, Settings(llm_backend="none"))
    app.__dict__["embedder"] = embedder  # the session's real embedder, loaded once
    yield app
    if "state_db" in app.__dict__:
        app.state_db.close()
