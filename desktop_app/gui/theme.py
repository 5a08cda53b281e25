"""Light/dark: following the OS, or the user's choice in Settings (`Settings.theme`).

"system": where the platform theme already switches Qt's palette (Windows 11, macOS,
KDE, GNOME through the xdg portal) nothing is done; where it only reports the colour
scheme and keeps a light palette (some Linux desktops, the offscreen platform), a dark
palette is applied here, and removed again when the OS goes back to light.
"light"/"dark": that palette whatever the OS says (our dark one, or the style's light
standard palette over a dark desktop).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionComplex,
    QWidget,
)


def dark_palette() -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    colors = {
        role.Window: "#2b2d30", role.WindowText: "#e6e6e6", role.Base: "#1e1f22",
        role.AlternateBase: "#2f3136", role.ToolTipBase: "#3c3f41", role.ToolTipText: "#e6e6e6",
        role.PlaceholderText: "#8c8c8c", role.Text: "#e6e6e6", role.Button: "#35373b",
        role.ButtonText: "#e6e6e6", role.BrightText: "#ff6b6b", role.Link: "#6cb6ff",
        role.Highlight: "#3574f0", role.HighlightedText: "#ffffff", role.Mid: "#45484d",
        role.Dark: "#1b1c1f", role.Light: "#4a4d52", role.Shadow: "#101114",
    }
    for color_role, value in colors.items():
        palette.setColor(color_role, QColor(value))
    for color_role in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, color_role, QColor("#7a7a7a"))
    return palette


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


THEMES = ("system", "light", "dark")

# Keyboard focus must be visible (Fusion marks a focused list, tree or text area only by
# its current item, if at all). A border in the palette's highlight colour, on focus only.
FOCUS_STYLE = """
QAbstractItemView:focus, QTextBrowser:focus, QPlainTextEdit:focus, QLineEdit:focus {
    border: 2px solid palette(highlight);
}
"""


class FocusRingStyle(QProxyStyle):
    """The base style plus a 2 px ring in the highlight colour around a button, tool
    button, check box, combo box or tab that has the keyboard focus (after Tab, not after
    a click), where Fusion only darkens the frame a little."""

    _CONTROLS = (QStyle.ControlElement.CE_PushButton, QStyle.ControlElement.CE_CheckBox,
                 QStyle.ControlElement.CE_RadioButton, QStyle.ControlElement.CE_TabBarTab)
    _COMPLEX = (QStyle.ComplexControl.CC_ToolButton, QStyle.ComplexControl.CC_ComboBox)

    def drawControl(self, element: QStyle.ControlElement, option: QStyleOption,  # noqa: N802
                    painter: QPainter, widget: QWidget | None = None) -> None:
        super().drawControl(element, option, painter, widget)
        if element in self._CONTROLS:
            self._ring(option, painter)

    def drawComplexControl(self, control: QStyle.ComplexControl,  # noqa: N802
                           option: QStyleOptionComplex, painter: QPainter,
                           widget: QWidget | None = None) -> None:
        super().drawComplexControl(control, option, painter, widget)
        if control in self._COMPLEX:
            self._ring(option, painter)

    @staticmethod
    def _ring(option: QStyleOption, painter: QPainter) -> None:
        state = option.state
        if not (state & QStyle.StateFlag.State_HasFocus
                and state & QStyle.StateFlag.State_KeyboardFocusChange):
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(option.palette.color(QPalette.ColorRole.Highlight), 2)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(option.rect).adjusted(1, 1, -1, -1), 3, 3)
        painter.restore()


class ColorSchemeFollower(QObject):
    """Keeps the application palette in step with the OS colour scheme, or the user's
    explicit light/dark choice."""

    def __init__(self, app: QApplication, preference: str = "system") -> None:
        super().__init__(app)
        self.app = app
        self.preference = preference if preference in THEMES else "system"
        self._forced: str | None = None  # "dark"/"light" when this class set the palette
        app.styleHints().colorSchemeChanged.connect(self.apply)
        self.apply()

    def set_preference(self, preference: str) -> None:
        self.preference = preference if preference in THEMES else "system"
        self.apply()

    def apply(self, scheme: Qt.ColorScheme | None = None) -> None:
        """Match the palette to the preference; "system" follows `scheme` (default: what
        the OS reports now)."""
        if self.preference != "system":
            want_dark = self.preference == "dark"
        else:
            if not isinstance(scheme, Qt.ColorScheme):
                scheme = self.app.styleHints().colorScheme()
            want_dark = scheme == Qt.ColorScheme.Dark
            if self._forced == "light":  # back to the platform's own palette first
                self._set_palette(QPalette())
                self._forced = None
        if want_dark and not is_dark(self.app.palette()):
            self._set_palette(dark_palette())
            self._forced = "dark"
        elif not want_dark and is_dark(self.app.palette()):
            self._set_palette(self.app.style().standardPalette())
            self._forced = "light" if self.preference == "light" else None

    def _set_palette(self, palette: QPalette) -> None:
        self.app.setPalette(palette)
        sheet = self.app.styleSheet()
        if sheet:  # widgets under a style sheet keep their old palette until it is re-set
            self.app.setStyleSheet(sheet)
