"""What a table row, a cell and a figure are (desktop_app/text/tables.py)."""

from __future__ import annotations

from desktop_app.text.tables import cells, is_figure, is_row


def test_a_row_is_one_line_of_cells_and_an_empty_cell_counts() -> None:
    assert is_row("Acre | 0 | 12") and not is_row("Acre | 0\nAmapá | 1") and not is_row("Acre")
    assert cells("0 | | | 1") == ["0", "", "", "1"]


def test_a_figure_is_a_number_with_its_signs_or_a_placeholder_for_none() -> None:
    assert all(is_figure(text) for text in ("318,8", "(6,4)", "1.098", "12%", "-", "–", "...",
                                            "-3.5", "05/03/2019"))
    assert not any(is_figure(text) for text in ("", " ", "US$ 5", "2 km", "Crop", "12/13 Crop",
                                                "(a)", "VAR. %"))
