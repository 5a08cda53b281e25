"""Library | Chat | Sources in one splitter, adapted to the window's width and remembered.

The Sources pane is folded away until a badge (or a passage of the Search view) is
clicked: an empty viewer would take a third of a 1366 px window from the chat. Wide
windows (`NARROW_WIDTH` and more) then show the three panes; the user's sizes are kept in
the settings (`splitter_sizes`, with `window_size`) and restored, scaled to the window, on
the next launch (the library and chat as they were, the viewer's share for when it opens).
On a narrow window (a 1024×600 laptop) three panes leave none readable, so two are shown at
a time: Library + Chat until a badge is clicked, then Chat + Sources (the library collapses
to the left edge; its tabs, Ctrl+1/Ctrl+2 or the viewer's × bring it back and fold the
viewer away). The splitter handles still work by hand.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QSplitter

from desktop_app.config.settings import Settings

NARROW_WIDTH = 1200
WIDE_SHARES = (0.27, 0.38, 0.35)  # library, chat, sources (once a badge opened it)
NARROW_LIBRARY = (0.36, 0.64, 0.0)
NARROW_SOURCES = (0.0, 0.42, 0.58)
LEFT, CHAT, SOURCES = range(3)


class PaneLayout(QObject):
    """Decides the splitter sizes; the window calls it on show, resize, badge and close."""

    def __init__(self, splitter: QSplitter, settings: Settings) -> None:
        super().__init__(splitter)
        self.splitter = splitter
        self.settings = settings
        self._narrow: bool | None = None
        for index in range(splitter.count()):
            splitter.setCollapsible(index, True)

    def width(self) -> int:
        return max(1, self.splitter.width())

    def is_narrow(self) -> bool:
        return self.splitter.window().width() < NARROW_WIDTH

    def _apply(self, shares: tuple[float, float, float]) -> None:
        width = self.width()
        self.splitter.setSizes([round(width * share) for share in shares])

    def restore(self) -> None:
        """First show: library and chat as remembered (else the defaults), no viewer."""
        self._narrow = self.is_narrow()
        if self._narrow:
            self._apply(NARROW_LIBRARY)
            return
        left, chat, _sources = self._remembered()
        self._apply((left / (left + chat), chat / (left + chat), 0.0))

    def _remembered(self) -> tuple[float, float, float]:
        """The wide window's shares as the user left them (else the defaults)."""
        sizes = self.settings.splitter_sizes
        if len(sizes) == 3 and all(s >= 0 for s in sizes) and sizes[LEFT] > 0 \
                and sizes[CHAT] > 0:
            total = sum(sizes)
            return sizes[LEFT] / total, sizes[CHAT] / total, sizes[SOURCES] / total
        return WIDE_SHARES

    def resized(self) -> None:
        """Crossing the narrow line re-arranges the panes (not every pixel of a drag)."""
        narrow = self.is_narrow()
        if self._narrow is None or narrow == self._narrow:
            return
        self._narrow = narrow
        if narrow:
            self._apply(NARROW_SOURCES if self.sources_open() else NARROW_LIBRARY)
        else:
            left, chat, sources = self._remembered()
            if not self.sources_open():
                left, chat, sources = left / (left + chat), chat / (left + chat), 0.0
            self._apply((left, chat, sources))

    def sources_open(self) -> bool:
        return self.splitter.sizes()[SOURCES] > 0

    def left_open(self) -> bool:
        return self.splitter.sizes()[LEFT] > 0

    def show_sources(self) -> None:
        """A badge was clicked: the viewer gets room (narrow: instead of the library)."""
        if self.is_narrow():
            if self.left_open() or not self.sources_open():
                self._apply(NARROW_SOURCES)
        elif not self.sources_open():
            sizes = self.splitter.sizes()
            width = self.width()
            share = self._remembered()[SOURCES] or WIDE_SHARES[SOURCES]
            viewer = round(width * share)
            self.splitter.setSizes([sizes[LEFT], max(200, width - sizes[LEFT] - viewer),
                                    viewer])

    def hide_sources(self) -> None:
        """The viewer's ×: fold it away; a narrow window brings the library back."""
        if self.is_narrow():
            self._apply(NARROW_LIBRARY)
        else:
            sizes = self.splitter.sizes()
            self.splitter.setSizes([sizes[LEFT], sizes[CHAT] + sizes[SOURCES], 0])

    def show_left(self) -> None:
        """The library or chats were asked for (Ctrl+1/2, a drop, the status bar)."""
        if self.left_open():
            return
        if self.is_narrow():
            self._apply(NARROW_LIBRARY)
        else:
            left, chat, sources = self._remembered()
            if not self.sources_open():
                left, chat, sources = left / (left + chat), chat / (left + chat), 0.0
            self._apply((left, chat, sources))

    def remember(self) -> None:
        """Keep the window size, and the three panes' sizes as the user left them on a wide
        window, for the next launch (saved with the settings). A narrow window's two-pane
        arrangement follows the rule above, so it is not stored over the wide sizes."""
        sizes = [int(s) for s in self.splitter.sizes()]
        if not self.is_narrow() and sizes[LEFT] > 0 and sizes[CHAT] > 0:
            if sizes[SOURCES] == 0:  # the viewer folded: keep its last share for next time
                share = self._remembered()[SOURCES]
                sizes[SOURCES] = round(share / (1 - share) * (sizes[LEFT] + sizes[CHAT]))
            self.settings.splitter_sizes = sizes
        window = self.splitter.window()
        self.settings.window_size = [window.width(), window.height()]
