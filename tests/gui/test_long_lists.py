"""A long list in an answer (a constitution's 34 rights of workers) shows its first
fifteen lines and a "Show all N" link that unfolds the rest in place; the answer's text
keeps every line (answer/units.list_folds)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl

from desktop_app.answer.events import Citation, Done
from desktop_app.gui.answer_view import MORE_SCHEME, AnswerView

ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
         "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII", "XXIV"]


def _done(answer: str) -> Done:
    cited = Citation(1, "cf", "cf:1", "CF", "/x/cf.pdf", "pdf", 3, 3, 0, 10, 0.5,
                     frozenset({"keyword"}), "Art. 7º São direitos dos trabalhadores")
    return Done(answer=answer, citations=(cited,), sources_only=True)


def _finish(view: AnswerView, question: str, answer: str) -> None:
    view.add_user_message(question, "You")
    view.begin_answer("Acervo")
    view.finish_answer(_done(answer), sources_title="Sources", found_by="found by",
                       page_label="p.", leg_names={}, show_all="Show all %1")


def test_a_long_list_folds_after_fifteen_and_unfolds_in_place(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = AnswerView()
    qtbot.addWidget(view)
    items = [f"{r} - direito número {n};" for n, r in enumerate(ROMAN, start=1)]
    _finish(view, "Quais são os direitos dos trabalhadores?",
            "\n".join(["Art. 7º São direitos dos trabalhadores [1]:", *items,
                       "Art. 8º É livre a associação profissional [1]."]))
    _finish(view, "E o artigo 9º?", "Art. 9º É assegurado o direito de greve [1].")
    text = view.toPlainText()
    assert all(item in text for item in items[:15])
    assert not any(item in text for item in items[15:])
    assert "▸ Show all 24" in text and text.index("Show all 24") < text.index("Art. 8º")
    [(_, href)] = view._anchors(MORE_SCHEME)
    assert href == f"{MORE_SCHEME}:0/0"

    view._on_anchor(QUrl(href))  # as a click on the link does
    text = view.toPlainText()
    lines = text.splitlines()
    assert [line for line in lines if " - direito número " in line] == items  # in order
    assert "Show all" not in text and not view._anchors(MORE_SCHEME)
    assert lines[lines.index(items[-1]) + 1].startswith("Art. 8º É livre")
    # the second answer's badge still opens its own citation (its start moved down)
    assert view.citation(1, 1) is not None and view._answers[1].start > text.index("Art. 8º")


def test_a_list_of_sixteen_lines_is_shown_whole(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = AnswerView()
    qtbot.addWidget(view)
    items = [f"{r} - item {n};" for n, r in enumerate(ROMAN[:16], start=1)]
    _finish(view, "Quais?", "\n".join(["Art. 1º São [1]:", *items]))
    assert all(item in view.toPlainText() for item in items)
    assert not view._anchors(MORE_SCHEME)


def test_a_quoted_table_row_is_shown_as_a_table_under_its_header(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QTextTable

    from desktop_app.gui.answer_view import table_runs

    view = AnswerView()
    qtbot.addWidget(view)
    _finish(view, "Qual o custo do teste?", "\n".join([
        "Os custos estimados são estes [1].",
        "Ação | Custo de mão de obra | Total [1]",
        "Teste do sensor | $3,400 | $3,400",
        "Estado | Permissão | Arma | Outras | Total",  # a merged header: cells do not line up
        "Totals | 804,006 | 671,330",
        "Fim."]))
    tables = [frame for frame in view.document().rootFrame().childFrames()
              if isinstance(frame, QTextTable)]
    assert len(tables) == 1 and (tables[0].rows(), tables[0].columns()) == (2, 3)
    cell = tables[0].cellAt(1, 1)
    cursor = cell.firstCursorPosition()
    cursor.setPosition(cell.lastCursorPosition().position(), cursor.MoveMode.KeepAnchor)
    assert cursor.selectedText() == "$3,400"
    text = view.toPlainText()  # the rest stays text, in order, the badge a chip
    assert text.index("Os custos estimados") < text.index("Teste do sensor") \
        < text.index("Totals | 804,006") < text.index("Fim.")
    assert "[1]" not in text and view.citation(0, 1) is not None
    assert table_runs(["a | b", "c | d", "e | f | g", "h"]) == [(0, 2)]
    shade = tables[0].cellAt(0, 0).format().background().color()
    assert shade == view.palette().color(view.palette().ColorRole.AlternateBase)
    assert tables[0].cellAt(1, 0).format().background().style() == Qt.BrushStyle.NoBrush


def test_rows_quoted_one_after_another_are_all_data(qtbot) -> None:  # type: ignore[no-untyped-def]
    # three rows of an expenditure report, each its own quote: a table, none shaded as a
    # header (before: the first quoted row looked like the others' header)
    from PySide6.QtGui import QTextTable

    view = AnswerView()
    qtbot.addWidget(view)
    _finish(view, "How much did the airfare for R Leavitt cost?", "\n".join([
        "DHAW27 | 05/02/2019 | AIRFARE FOR R LEAVITT | 349.60 [1]",
        "DHAW03 | 05/03/2019 | AIRFARE FOR M BERG | 737.94 [2]"]))
    tables = [frame for frame in view.document().rootFrame().childFrames()
              if isinstance(frame, QTextTable)]
    assert len(tables) == 1 and tables[0].rows() == 2
    assert all(tables[0].cellAt(r, 0).format().background().style() == Qt.BrushStyle.NoBrush
               for r in range(2))
    # every column at least as wide as its widest code or number, so none is broken over
    # two lines in a narrow window (a wide table scrolls across instead)
    widths = tables[0].format().columnWidthConstraints()
    metrics = view.fontMetrics()
    for column, widest in enumerate(("DHAW27", "05/02/2019", "LEAVITT", "349.60")):
        assert widths[column].rawValue() > metrics.horizontalAdvance(widest), column
    # an empty cell is a cell: "0 | | | 1" is four of them, as wide as the row above
    _finish(view, "Quantos?", "\n".join(["Estado | A | B | Total [1]", "Acre | 0 | | 12"]))
    tables = [frame for frame in view.document().rootFrame().childFrames()
              if isinstance(frame, QTextTable)]
    assert (tables[-1].rows(), tables[-1].columns()) == (2, 4)


def test_a_row_under_a_header_too_wide_for_the_pane_is_turned(qtbot) -> None:  # type: ignore[no-untyped-def]
    # a statistical table's ten columns: one line per column, its label then the row's
    # value, the badge on the row's label at the top (before: the pane scrolled across
    # and the asked figure and its badge were out of sight)
    from PySide6.QtGui import QTextTable

    view = AnswerView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    labels = ["REGION / STATE"] + [f"{group} (In thousand ha) {crop} ({letter})"
                                   for group in ("AREA", "YIELD", "PRODUCTION")
                                   for crop, letter in (("11/12 Crop", "a"), ("12/13 Crop", "b"),
                                                        ("VAR. %", "c"))]
    values = ["MA", "426,0", "416,2", "(2,3)", "1.098", "1.520,0", "38,4", "467,7", "632,6",
              "35,3"]
    _finish(view, "What was the rice production in MA?",
            " | ".join(labels) + "\n" + " | ".join(values) + " [1]")
    tables = [frame for frame in view.document().rootFrame().childFrames()
              if isinstance(frame, QTextTable)]
    assert len(tables) == 1 and (tables[0].rows(), tables[0].columns()) == (10, 2)

    def text(r: int, c: int) -> str:
        cell = tables[0].cellAt(r, c)
        cursor = cell.firstCursorPosition()
        cursor.setPosition(cell.lastCursorPosition().position(), cursor.MoveMode.KeepAnchor)
        return cursor.selectedText()

    assert [text(r, 0) for r in range(10)] == labels
    assert [text(r, 1) for r in range(1, 10)] == values[1:]
    assert text(0, 1).startswith("MA") and view.citation(0, 1) is not None
    shade = view.palette().color(view.palette().ColorRole.AlternateBase)
    assert all(tables[0].cellAt(r, 0).format().background().color() == shade for r in range(10))
    assert tables[0].cellAt(1, 1).format().background().style() == Qt.BrushStyle.NoBrush
    # the same rows in a pane wide enough stay as printed
    wide = AnswerView()
    qtbot.addWidget(wide)
    wide.resize(4000, 400)
    wide.show()
    _finish(wide, "Again?", " | ".join(labels) + "\n" + " | ".join(values) + " [1]")
    [table] = [frame for frame in wide.document().rootFrame().childFrames()
               if isinstance(frame, QTextTable)]
    assert (table.rows(), table.columns()) == (2, 10)
