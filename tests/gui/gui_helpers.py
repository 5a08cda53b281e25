"""Helpers shared by the GUI tests (real mouse clicks on text anchors)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor

from desktop_app.gui.answer_view import AnswerView


def click_anchor(qtbot, view: AnswerView, href: str) -> None:
    """A real mouse click on the chip whose link is `href` (docs/architecture.md, "Qt facts": cursorRect)."""
    position = next(p for p, h in view.anchor_positions() if h == href)
    cursor = QTextCursor(view.document())
    cursor.setPosition(position)
    rect = view.cursorRect(cursor)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.x() + 5, rect.center().y()))
