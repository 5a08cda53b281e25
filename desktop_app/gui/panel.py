"""What the window's panels share, written once: they re-label themselves when the UI
language changes (`retranslate`), and a failed call shows one dialog that names the log
folder (`show_failure`).

A text built from figures ("3 indexed, 0 failed") is kept as a `Text`: a small function
that holds the figures and calls `tr()` each time it is shown, so `retranslate` renders
it again in the new language instead of keeping the words it was first shown with.
`StatusLine` does that for the window's status-bar messages.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent

from desktop_app.gui.dialogs import show_error

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar, QWidget

    _Widget = QWidget  # mypy sees the Qt methods the mixin calls and overrides
else:
    _Widget = object

Text = Callable[[], str]  # the figures, worded in the current language on each call


class _HasLogDir(Protocol):
    @property
    def log_dir(self) -> str: ...


class PanelMixin(_Widget):
    """Mix in before the Qt class: `class LibraryPanel(PanelMixin, QWidget)`. The panel
    defines `retranslate()` and, to show failures, a `services` part (`gui/services`)."""

    services: _HasLogDir

    def retranslate(self) -> None:
        raise NotImplementedError

    def language_changed(self) -> None:
        """The UI language changed: re-label (a panel may also reload what it formats)."""
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self.language_changed()

    def show_failure(self, error: BaseException) -> None:
        """One dialog: the user's message for an `AppError`, a bug notice with the log
        folder otherwise."""
        show_error(self, error, log_dir=self.services.log_dir)


class StatusLine:
    """The window's status-bar message as a `Text`: the window's `retranslate` re-words
    the message still on show, for the time it has left."""

    def __init__(self, bar: QStatusBar) -> None:
        self.bar = bar
        self._text: Text | None = None
        self._shown = ""  # as rendered: another message (a menu's status tip) replaces it
        self._until = 0.0

    def show(self, text: Text, timeout_ms: int) -> None:
        self._text = text
        self._until = time.monotonic() + timeout_ms / 1000
        self._render(text, timeout_ms)

    def retranslate(self) -> None:
        left_ms = int((self._until - time.monotonic()) * 1000)
        if self._text is not None and left_ms > 0 and self.bar.currentMessage() == self._shown:
            self._render(self._text, left_ms)

    def _render(self, text: Text, timeout_ms: int) -> None:
        self._shown = text()
        self.bar.showMessage(self._shown, timeout_ms)
