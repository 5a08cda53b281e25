"""Fixtures for the chat tests: the real SQLite conversation store in the test's home
(the whole app, `memory_app`, is the real `build_app()` from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.chat.conversations import ConversationStore
from desktop_app.config.paths import app_paths
from desktop_app.state_db import StateDB


@pytest.fixture
def conversations(acervo_home: Path) -> Iterator[ConversationStore]:
    db = StateDB.open(app_paths().ensure().state_db)
    yield ConversationStore(db)
    db.close()
