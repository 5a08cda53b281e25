"""The PDF page view of the sources viewer: zoom, fit-width, painted highlights, focus.

`PdfPageView` is QtPdf's `QPdfView` plus three separate concerns:

- zoom and fit: fit-width by default — the width of the page's text column, not of the
  paper (a law printed with wide margins at 55 % of a 480 px pane is hard to read; its
  text fitted to the pane is not), the page's own width when it has no text (a scan);
  refitted as the pane resizes. Ctrl+wheel and `zoom_in`/`zoom_out` step through
  `ZOOM_STEPS` starting from the factor fit-width had reached; `fit_width()` goes back.
- geometry: where page `p`'s point `(x, y)` is on screen. QPdfView keeps its page layout
  private, so `page_rect()` recomputes it the way qpdfview.cpp does (pages stacked with
  `pageSpacing`, `documentMargins` around them, centred, sizes from the points size at
  the screen's logical DPI times the zoom; fit-width scales each page to the viewport
  width). A test checks this against QPdfView's own painting of a search result.
- overlays: highlights (rectangles in page points, per page) painted over the rendered
  page, in two strengths: the cited passage, and within it the sentence the badge
  supports. `overlays` takes more painters (e.g. OCR line boxes) with the same mapping.

The view takes keyboard focus (Tab) and draws a focus frame; arrows and Page Up/Down
scroll it, Ctrl +/- zoom (shortcuts on the viewer), Ctrl+0 fits the width.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMargins, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QWidget

ZOOM_STEPS = (0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)
TEXT_PAD = 8  # pixels beside the fitted text column
PASSAGE_COLOR = QColor(255, 214, 10, 70)  # the cited passage: a light wash
CLAIM_COLOR = QColor(255, 176, 0, 120)  # the sentence the badge supports: stronger
MARGIN_BAR = QColor(230, 140, 0)  # a bar in the page margin beside the passage

# painter(painter, page index, page rectangle on the viewport, pixels per point)
Overlay = Callable[[QPainter, int, QRectF, float], None]


def line_rects(polygons: list[QPolygonF], *, pad: float = 1.5) -> list[QRectF]:
    """Merge per-word selection boxes (PDF points) into one band per text line."""
    boxes = sorted((p.boundingRect() for p in polygons), key=lambda r: (r.center().y(), r.x()))
    lines: list[QRectF] = []
    for box in boxes:
        last = lines[-1] if lines else None
        same_line = (last is not None
                     and min(last.bottom(), box.bottom()) - max(last.top(), box.top())
                     > 0.5 * min(last.height(), box.height()))
        if last is not None and same_line:
            lines[-1] = last.united(box)
        else:
            lines.append(QRectF(box))
    return [r.adjusted(-pad, -pad, pad, pad) for r in lines]


class PdfPageView(QPdfView):
    """QPdfView with zoom steps, painted highlights and a visible focus frame."""

    zoomChanged = Signal(float)  # the effective zoom factor (1.0 = 100 %)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setPageMode(QPdfView.PageMode.MultiPage)
        self.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self._fit_text = True  # fit-width follows the text column (see the docstring)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.passage: dict[int, list[QRectF]] = {}  # page index → rectangles in points
        self.claim: dict[int, list[QRectF]] = {}
        self.overlays: list[Overlay] = [self._paint_highlights]
        self._layout_key: tuple[object, ...] = ()
        self._layout_rects: list[QRect] = []

    # ---- zoom and fit ---------------------------------------------------------------
    def effective_zoom(self) -> float:
        """The zoom factor on screen (fit-width computes its own from the viewport)."""
        if self.zoomMode() != QPdfView.ZoomMode.FitToWidth:
            return float(self.zoomFactor())
        page = self._reference_page()
        base = self._base_size(page)
        return self._fit_factor(base) if base.width() > 0 else 1.0

    def is_fit_width(self) -> bool:
        return self._fit_text or self.zoomMode() == QPdfView.ZoomMode.FitToWidth

    def fit_width(self) -> None:
        anchor = self._anchor()
        self._fit_text = True
        self.refit()
        self._after_zoom(anchor)

    def _text_column(self, page: int) -> QRectF | None:
        """The page's text, left to right (points); None for a page without text."""
        document = self.document()
        if document is None or not 0 <= page < document.pageCount():
            return None
        bounds = document.getAllText(page).boundingRectangle()
        width = document.pagePointSize(page).width()
        if bounds.width() < 0.3 * width:  # a scan, or a page with a word or two
            return None
        return bounds

    def refit(self) -> None:
        """Fit the current page's text column to the view (the page, when it has none)."""
        column = self._text_column(self._reference_page())
        if column is None or self.viewport().width() < 50:
            self.setZoomMode(QPdfView.ZoomMode.FitToWidth)
            return
        margins = self.documentMargins()
        room = self.viewport().width() - margins.left() - margins.right() - 2 * TEXT_PAD
        factor = room / (column.width() * self._screen_resolution())
        page_fit = self._fit_factor(self._base_size(self._reference_page()))
        self.setZoomMode(QPdfView.ZoomMode.Custom)
        self.setZoomFactor(max(page_fit, min(ZOOM_STEPS[-1], factor)))
        # the text's left edge at the view's left, whatever the page's margin
        left = self.map_from_page(self._reference_page(), QRectF(column.topLeft(),
                                                                 column.topLeft()))
        bar = self.horizontalScrollBar()
        bar.setValue(int(bar.value() + left.x() - TEXT_PAD))

    def zoom_in(self) -> None:
        current = self.effective_zoom()
        self.set_zoom(next((z for z in ZOOM_STEPS if z > current * 1.02), ZOOM_STEPS[-1]))

    def zoom_out(self) -> None:
        current = self.effective_zoom()
        self.set_zoom(next((z for z in reversed(ZOOM_STEPS) if z < current / 1.02),
                           ZOOM_STEPS[0]))

    def set_zoom(self, factor: float) -> None:
        anchor = self._anchor()
        self._fit_text = False
        self.setZoomMode(QPdfView.ZoomMode.Custom)
        self.setZoomFactor(max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], factor)))
        self._after_zoom(anchor)

    def _anchor(self) -> tuple[int, QPointF] | None:
        """What to keep in view across a zoom: the claim, else the passage, else the top."""
        for rects in (self.claim, self.passage):
            for page in sorted(rects):
                if rects[page]:
                    return page, rects[page][0].topLeft()
        return None

    def _after_zoom(self, anchor: tuple[int, QPointF] | None) -> None:
        self.viewport().update()
        if anchor is not None:
            self.scroll_to(*anchor)
        self.zoomChanged.emit(self.effective_zoom())

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y()
            if steps > 0:
                self.zoom_in()
            elif steps < 0:
                self.zoom_out()
            event.accept()
            return
        super().wheelEvent(event)

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        if self._fit_text:
            anchor = self._anchor()
            self.refit()
            if anchor is not None:
                self.scroll_to(*anchor)
        if self.is_fit_width():
            self.zoomChanged.emit(self.effective_zoom())

    # ---- geometry (QPdfView's private layout, recomputed) ----------------------------
    @staticmethod
    def _screen_resolution() -> float:
        screen = QGuiApplication.primaryScreen()
        return (screen.logicalDotsPerInch() if screen is not None else 96.0) / 72.0

    def _base_size(self, page: int) -> QSize:
        points = self.document().pagePointSize(page)
        resolution = self._screen_resolution()
        return QSize(round(points.width() * resolution), round(points.height() * resolution))

    def _fit_factor(self, base: QSize) -> float:
        margins: QMargins = self.documentMargins()
        return (self.viewport().width() - margins.left() - margins.right()) / base.width()

    def _page_size(self, page: int) -> QSize:
        base = self._base_size(page)
        if self.zoomMode() == QPdfView.ZoomMode.FitToWidth and base.width() > 0:
            factor = self._fit_factor(base)
            return QSize(round(base.width() * factor), round(base.height() * factor))
        points = self.document().pagePointSize(page)
        scale = self._screen_resolution() * self.zoomFactor()
        return QSize(round(points.width() * scale), round(points.height() * scale))

    def _reference_page(self) -> int:
        return max(0, self.pageNavigator().currentPage())

    def _layout(self) -> list[QRect]:
        """Every page's rectangle in document coordinates, cached per zoom and width."""
        document = self.document()
        key = (id(document), document.pageCount(), self.zoomMode(), self.zoomFactor(),
               self.viewport().width(), self.pageSpacing(), self.documentMargins())
        if key != self._layout_key:
            margins = self.documentMargins()
            sizes = [self._page_size(p) for p in range(document.pageCount())]
            total_width = (max((s.width() for s in sizes), default=0)
                           + margins.left() + margins.right())
            rects, top = [], margins.top()
            for size in sizes:
                left = (max(total_width, self.viewport().width()) - size.width()) // 2
                rects.append(QRect(left, top, size.width(), size.height()))
                top += size.height() + self.pageSpacing()
            self._layout_key, self._layout_rects = key, rects
        return self._layout_rects

    def page_rect(self, page: int) -> QRect:
        """Page `page` in document coordinates (before scrolling)."""
        rects = self._layout()
        return rects[page] if 0 <= page < len(rects) else QRect()

    def _pages_in_view(self) -> list[int]:
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height()
        return [page for page, rect in enumerate(self._layout())
                if rect.bottom() >= top and rect.top() <= bottom]

    def _viewport_page_rect(self, page: int) -> QRectF:
        rect = QRectF(self.page_rect(page))
        return rect.translated(-self.horizontalScrollBar().value(),
                               -self.verticalScrollBar().value())

    def map_from_page(self, page: int, rect: QRectF) -> QRectF:
        """A rectangle in page points → viewport pixels."""
        on_screen = self._viewport_page_rect(page)
        points = self.document().pagePointSize(page)
        sx = on_screen.width() / points.width()
        sy = on_screen.height() / points.height()
        return QRectF(on_screen.x() + rect.x() * sx, on_screen.y() + rect.y() * sy,
                      rect.width() * sx, rect.height() * sy)

    def scroll_to(self, page: int, point: QPointF, *, above: int = 40) -> None:
        """Scroll so that `point` (page points) is `above` pixels below the top (and
        horizontally in view when zoomed in)."""
        target = self.map_from_page(page, QRectF(point, point))
        vertical, horizontal = self.verticalScrollBar(), self.horizontalScrollBar()
        vertical.setValue(int(vertical.value() + target.y() - above))
        if not 0 <= target.x() < self.viewport().width() - 40:
            horizontal.setValue(int(horizontal.value() + target.x() - 20))

    # ---- highlights -----------------------------------------------------------------
    def set_highlight(self, passage: dict[int, list[QRectF]],
                      claim: dict[int, list[QRectF]] | None = None) -> None:
        self.passage = passage
        self.claim = claim or {}
        self.viewport().update()

    def clear_highlight(self) -> None:
        self.set_highlight({})

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        super().paintEvent(event)
        if self.document() is None or self.document().pageCount() == 0:
            return
        painter = QPainter(self.viewport())
        try:
            for page in self._pages_in_view():
                on_screen = self._viewport_page_rect(page)
                scale = on_screen.width() / max(1.0, self.document().pagePointSize(page).width())
                for overlay in self.overlays:
                    overlay(painter, page, on_screen, scale)
            if self.hasFocus():
                pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 2)
                painter.setPen(pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(self.viewport().rect().adjusted(1, 1, -1, -1))
        finally:
            painter.end()

    def _paint_highlights(self, painter: QPainter, page: int, on_screen: QRectF,
                          scale: float) -> None:
        passage = self.passage.get(page, [])
        if not passage:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        for color, rects in ((PASSAGE_COLOR, passage), (CLAIM_COLOR, self.claim.get(page, []))):
            painter.setBrush(color)
            for rect in rects:
                painter.drawRect(self.map_from_page(page, rect))
        # a bar in the left margin beside the whole passage: findable at any zoom
        top = min(r.top() for r in passage)
        bottom = max(r.bottom() for r in passage)
        left = min(r.left() for r in passage)
        bar = self.map_from_page(page, QRectF(max(2.0, left - 9), top, 3, bottom - top))
        painter.setBrush(MARGIN_BAR)
        painter.drawRect(bar)

    def focusInEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().focusInEvent(event)  # type: ignore[arg-type]
        self.viewport().update()

    def focusOutEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().focusOutEvent(event)  # type: ignore[arg-type]
        self.viewport().update()
