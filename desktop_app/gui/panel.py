"""What the window's panels share, written once: they re-label themselves when the UI
language changes (`retranslate`), and a failed call shows one dialog that names the log
folder (`show_failure`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent

from desktop_app.gui.dialogs import show_error

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    _Widget = QWidget  # mypy sees the Qt methods the mixin calls and overrides
else:
    _Widget = object


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
