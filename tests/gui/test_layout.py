"""Small screens: at 1024×600 in Portuguese no header, filter or status text is clipped,
a badge gives the source the room the library had, and sizes are remembered."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QComboBox, QHeaderView, QLabel, QStyle

from desktop_app.answer.events import Citation
from desktop_app.app import App
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture()
def portuguese(window: MainWindow) -> Iterator[MainWindow]:
    window.translations.apply("pt_BR")
    yield window
    window.translations.apply("en")


def header_clipped(header: QHeaderView) -> list[str]:
    """Visible sections narrower than their label (plus the style's margins)."""
    margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
    clipped = []
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        text = str(header.model().headerData(section, header.orientation()))
        need = header.fontMetrics().horizontalAdvance(text) + margin
        if header.isSortIndicatorShown() and header.sortIndicatorSection() == section:
            need += header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize)
        if header.sectionSize(section) < need:
            clipped.append(f"{text}: {header.sectionSize(section)} < {need}")
    return clipped


def combo_clipped(combo: QComboBox) -> bool:
    return combo.isVisible() and combo.width() < combo.sizeHint().width()


def label_clipped(label: QLabel) -> bool:
    return label.isVisible() and label.width() < label.sizeHint().width()


def settle(qtbot, window: MainWindow, width: int, height: int) -> None:
    window.resize(width, height)
    qtbot.wait(150)


def test_at_1024x600_in_portuguese_nothing_is_clipped(
        qtbot, portuguese: MainWindow, gui_app: App) -> None:
    window = portuguese
    settle(qtbot, window, 1024, 600)
    library = window.library
    assert library.filter_edit.placeholderText() == "Filtrar por título ou pasta"
    assert header_clipped(library.table.header()) == []
    assert not combo_clipped(library.type_combo) and not combo_clipped(library.date_combo)
    hint = library.filter_edit.fontMetrics().horizontalAdvance(
        library.filter_edit.placeholderText())
    assert library.filter_edit.width() >= hint
    bar = window.left_tabs.tabBar()
    for index in range(bar.count()):
        text_width = bar.fontMetrics().horizontalAdvance(bar.tabText(index))
        assert bar.tabRect(index).width() >= text_width, bar.tabText(index)
    status = [window.model_label, window.index_label, window.offline_label]
    window.index_label.setText("4 documentos · 182 trechos · 0.6 MB")
    qtbot.wait(50)
    assert [label.text() for label in status if label_clipped(label)] == []

    window.show_memory()
    window.memory_window.resize(min(960, 1024), 520)
    qtbot.wait(100)
    assert header_clipped(window.memory_panel.table.horizontalHeader()) == []


def test_a_badge_on_a_narrow_window_gives_the_source_the_librarys_room(
        qtbot, window: MainWindow, tmp_path) -> None:
    settle(qtbot, window, 1024, 600)
    left, chat, sources = window.splitter.sizes()
    assert sources == 0 and left > 250 and chat > 500  # library + chat to start
    note = tmp_path / "nota.md"
    note.write_text("# Nota\n\nO prazo é de quinze dias.\n", encoding="utf-8")
    cited = Citation(1, "d", "d:0", "Nota", str(note), "md", 1, 1, 0, 10, 0.5,
                     frozenset(), "O prazo é de quinze dias.")
    window.show_citation(cited)
    qtbot.wait(50)
    left, chat, sources = window.splitter.sizes()
    assert left == 0 and chat >= 380 and sources >= 520
    qtbot.mouseClick(window.viewer.close_button, qtbot_button())
    left, chat, sources = window.splitter.sizes()
    assert sources == 0 and left > 250
    window.show_citation(cited)
    window.library_action.trigger()  # Ctrl+1 brings the library back
    assert window.splitter.sizes()[0] > 250


def qtbot_button() -> Any:
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_on_a_wide_window_the_sources_wait_for_a_badge_and_sizes_are_remembered(
        qtbot, gui_app: App, tmp_path) -> None:
    from desktop_app.gui.run import build_window

    first = build_window(gui_app)
    qtbot.addWidget(first)
    first.resize(1366, 768)
    first.show()
    qtbot.wait(100)
    left, chat, sources = first.splitter.sizes()
    # no empty viewer taking a third of the width: the chat gets it until a badge
    assert sources == 0 and chat > 750 and left > 250  # (was ~500 px with the viewer)
    note = tmp_path / "nota.md"
    note.write_text("# Nota\n\nO prazo é de quinze dias.\n", encoding="utf-8")
    first.show_citation(Citation(1, "d", "d:0", "Nota", str(note), "md", 1, 1, 0, 10, 0.5,
                                 frozenset(), "O prazo é de quinze dias."))
    qtbot.wait(50)
    assert all(size > 0 for size in first.splitter.sizes())
    first.splitter.setSizes([300, 700, 350])
    chosen = first.splitter.sizes()
    first.close()
    assert gui_app.settings.splitter_sizes == chosen
    assert gui_app.settings.window_size == [1366, 768]

    second = build_window(gui_app)  # (the offscreen screen is smaller: shown at 1366 here)
    qtbot.addWidget(second)
    second.resize(1366, 768)
    second.show()
    qtbot.wait(100)
    left, chat, sources = second.splitter.sizes()
    assert sources == 0 and abs(left / (left + chat) - 300 / 1000) < 0.02
    second.show_citation(Citation(1, "d", "d:0", "Nota", str(note), "md", 1, 1, 0, 10, 0.5,
                                  frozenset(), "O prazo é de quinze dias."))
    again = second.splitter.sizes()
    assert abs(again[2] / sum(again) - chosen[2] / sum(chosen)) < 0.02
    second.viewer.close_button.click()  # the × folds it away again, the chat takes it back
    assert second.splitter.sizes()[2] == 0
