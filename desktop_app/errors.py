"""The small error hierarchy: `AppError` carries a message meant for the user.

Anything that is not an `AppError` is a bug: log it (sanitized) and show a crash dialog.
"""

from __future__ import annotations


class AppError(Exception):
    """An error the user can understand and usually fix."""

    def __init__(self, user_message: str, *, detail: str = "") -> None:
        super().__init__(user_message)
        self.user_message = user_message
        self.detail = detail


class MissingModelError(AppError):
    """A model file or folder is not where the settings say."""


class InvalidModelError(AppError):
    """A model file exists but is not usable (wrong format, too big, unreadable)."""


class UnreadableDocumentError(AppError):
    """A document could not be read (corrupt, encrypted, empty, unsupported)."""


class DiskFullError(AppError):
    """Writing failed because the disk is full."""


class EmbedderMismatchError(AppError):
    """The index was built by another embedder; vector search is unavailable until reindex."""


class CancelledError(AppError):
    """The user cancelled a long operation."""

    def __init__(self, user_message: str = "Cancelled.") -> None:
        super().__init__(user_message)
