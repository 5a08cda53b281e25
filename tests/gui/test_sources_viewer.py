"""The sources viewer on the real LGPD PDF: the whole cited span is highlighted (checked
against PyMuPDF's own quads for that text), the painted overlay sits where QPdfView draws,
zoom and fit-width keep the passage in view, and "Open original" speaks up when nothing
can open the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtPdf import QPdfSearchModel
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_app.answer.events import Citation
from desktop_app.gui.sources_viewer import SourcesViewer, locate_passage
from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.loaders import load_document
from desktop_app.ingest.pdf import import_pymupdf

pytestmark = pytest.mark.gui

PETITION = ("§ 1º O titular dos dados pessoais tem o direito de peticionar em relação aos seus "
            "dados contra o controlador perante a autoridade nacional.")
ART_20 = ("Art. 20. O titular dos dados tem direito a solicitar a revisão de decisões tomadas "
          "unicamente com base em tratamento automatizado de dados pessoais que afetem seus "
          "interesses, incluídas as decisões destinadas a definir o seu perfil pessoal, "
          "profissional, de consumo e de crédito ou os aspectos de sua personalidade.")


@pytest.fixture(scope="module")
def lgpd(eval_dir: Path) -> tuple[Path, list[Any]]:
    """The LGPD PDF and its chunks as ingestion cuts them (real loader and chunker)."""
    pdf = eval_dir / "pdfs" / "pt" / "lgpd.pdf"
    return pdf, chunk_document(load_document(pdf), "lgpd")


def cite(pdf: Path, chunk: Any) -> Citation:
    return Citation(number=1, doc_id="lgpd", chunk_id=chunk.chunk_id, title="LGPD",
                    source_path=str(pdf), file_type="pdf", page=chunk.page_start,
                    page_end=chunk.page_end, char_start=chunk.char_start,
                    char_end=chunk.char_end, score=0.5, legs=frozenset({"keyword"}),
                    snippet=chunk.text)


def pymupdf_lines(pdf: Path, page: int, text: str) -> list[list[Any]]:
    """Each occurrence of `text` on the page as PyMuPDF finds it: one rect per line."""
    pymupdf = import_pymupdf()
    with pymupdf.open(pdf) as document:
        quads = document[page].search_for(text, quads=True)
    occurrences: list[list[Any]] = []
    for quad in quads:  # word quads of line 1, then one per line; a gap starts a new hit
        rect = quad.rect
        lines = occurrences[-1] if occurrences else None
        if lines and abs(rect.y0 - lines[-1].y0) < 2 and rect.x0 >= lines[-1].x0:
            lines[-1] = lines[-1] | rect  # the same line
        elif lines and 0 < rect.y0 - lines[-1].y1 < 0.5 * rect.height:
            lines.append(rect)  # the next line of the same occurrence
        else:
            occurrences.append([rect])
    return occurrences


def covered(target: Any, rects: list[QRectF], pad: float = 0.0) -> float:
    """Share of `target` (x0, y0, x1, y1) inside the union of `rects` (sampled on a grid)."""
    hits = total = 0
    for i in range(24):
        for j in range(6):
            x = target[0] + (target[2] - target[0]) * (i + 0.5) / 24
            y = target[1] + (target[3] - target[1]) * (j + 0.5) / 6
            total += 1
            hits += any(r.adjusted(-pad, -pad, pad, pad).contains(QPointF(x, y)) for r in rects)
    return hits / total


def as_tuple(rect: QRectF) -> tuple[float, float, float, float]:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def viewer_on(qtbot, width: int = 520, height: int = 700) -> SourcesViewer:
    viewer = SourcesViewer()
    qtbot.addWidget(viewer)
    viewer.resize(width, height)
    with qtbot.waitActive(viewer):  # shortcuts (Ctrl +/-) need an active window
        viewer.show()
        viewer.activateWindow()
    return viewer


@pytest.mark.parametrize("claim", [PETITION, ART_20], ids=["two-lines", "three-lines"])
@pytest.mark.slow  # over a second: the full tier only
def test_the_highlight_covers_the_whole_cited_span_as_pymupdf_finds_it(
        qtbot, lgpd: tuple[Path, list[Any]], claim: str) -> None:
    pdf, chunks = lgpd
    chunk = next(c for c in chunks if claim in " ".join(c.text.split()))
    page = chunk.page_start - 1
    viewer = viewer_on(qtbot)
    with qtbot.waitSignal(viewer.passageShown, timeout=10_000):
        viewer.show_citation(cite(pdf, chunk), claim)
    strong = viewer.pdf_view.claim[page]
    on_screen = viewer.pdf_view.map_from_page(page, strong[0])  # scrolled into view
    assert viewer.pdf_view.viewport().rect().contains(on_screen.center().toPoint())
    occurrences = pymupdf_lines(pdf, page, claim)
    assert occurrences and all(len(lines) >= 2 for lines in occurrences)  # it spans lines
    # the emphasised rectangles are one occurrence of the claim, every line of it, no more
    matching = [lines for lines in occurrences
                if all(covered(line, strong) > 0.95 for line in lines)]
    assert matching, f"claim lines {occurrences} not covered by {strong}"
    assert len(strong) == len(matching[0])
    for rect in strong:
        assert covered(as_tuple(rect), [QRectF(r.x0, r.y0, r.width, r.height)
                                        for r in matching[0]], pad=3.0) > 0.9

    # the whole cited passage is lit: its first and its last line, not the next article
    passage = viewer.pdf_view.passage[page]
    lines = [line.strip() for line in chunk.text.splitlines() if len(line.strip()) > 20]
    for line in (lines[0], lines[-1]):
        found = pymupdf_lines(pdf, page, " ".join(line.split()[:12]))
        assert found and any(covered(f[0], passage) > 0.9 for f in found), line
    outside = pymupdf_lines(pdf, page, "Art. 19. A confirmação de existência")
    if claim == PETITION:
        assert outside and covered(outside[0][0], passage) < 0.05


@pytest.mark.slow  # over a second: the full tier only
def test_the_painted_overlay_sits_where_qpdfview_paints_its_own_search_result(
        qtbot, lgpd: tuple[Path, list[Any]]) -> None:
    """QPdfView's page layout is private: the viewer recomputes it. Qt paints the current
    search result as a cyan frame; our mapping of the same rectangles must match it, at
    fit-width and zoomed in (scrolled sideways)."""
    pdf, chunks = lgpd
    chunk = next(c for c in chunks if "peticionar" in c.text)
    viewer = viewer_on(qtbot)
    viewer.show_citation(cite(pdf, chunk))
    view = viewer.pdf_view
    search = QPdfSearchModel(view)
    search.setDocument(view.document())
    view.setSearchModel(search)
    search.setSearchString("peticionar em relação")
    qtbot.waitUntil(lambda: search.count() > 0, timeout=10_000)
    result = search.resultAtIndex(0)
    for zoom in (None, 1.5):
        if zoom is not None:
            view.set_zoom(zoom)
        view.setCurrentSearchResultIndex(0)
        view.scroll_to(result.page(), result.rectangles()[0].topLeft(), above=100)
        qtbot.wait(200)
        expected = QRectF()
        for rect in result.rectangles():
            expected = expected.united(view.map_from_page(result.page(), rect))
        image = view.viewport().grab().toImage()
        xs, ys = [], []
        for y in range(image.height()):
            for x in range(0, image.width()):
                color = image.pixelColor(x, y)
                # Qt's cyan frame, also where it is blended with our yellow wash
                if color.red() < 100 and color.green() > 200 and color.blue() > 150:
                    xs.append(x)
                    ys.append(y)
        assert xs, f"no search frame painted at zoom {zoom}"
        for painted, mapped in ((min(xs), expected.left()), (max(xs), expected.right()),
                                (min(ys), expected.top()), (max(ys), expected.bottom())):
            assert abs(painted - mapped) <= 4, (zoom, painted, mapped)


def test_zoom_with_ctrl_wheel_and_keys_keeps_the_passage_in_view(
        qtbot, lgpd: tuple[Path, list[Any]]) -> None:
    pdf, chunks = lgpd
    chunk = next(c for c in chunks if "peticionar" in c.text)
    viewer = viewer_on(qtbot)
    viewer.show_citation(cite(pdf, chunk), PETITION)
    view = viewer.pdf_view
    assert view.is_fit_width() and viewer.fit_button.isChecked()
    fitted = view.effective_zoom()
    assert viewer.zoom_label.text() == f"{round(fitted * 100)} %"

    wheel = QWheelEvent(QPointF(50, 50), QPointF(view.mapToGlobal(QPoint(50, 50))),
                        QPoint(0, 0), QPoint(0, 120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), wheel)
    wheeled = view.effective_zoom()
    assert not view.is_fit_width() and wheeled > fitted
    for _ in range(3):
        qtbot.keyClick(viewer, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)

    bigger = view.effective_zoom()
    assert bigger > wheeled and viewer.zoom_label.text() == f"{round(bigger * 100)} %"
    qtbot.wait(100)
    claim = view.map_from_page(chunk.page_start - 1, view.claim[chunk.page_start - 1][0])
    assert view.viewport().rect().contains(claim.topLeft().toPoint())  # still in view
    qtbot.keyClick(viewer, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.effective_zoom() < bigger
    qtbot.keyClick(viewer, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.is_fit_width() and abs(view.effective_zoom() - fitted) < 0.01


def test_open_original_says_so_when_no_application_can_open_it(
        qtbot, lgpd: tuple[Path, list[Any]], monkeypatch) -> None:
    from desktop_app.gui import dialogs

    pdf, chunks = lgpd
    viewer = viewer_on(qtbot)
    viewer.show_citation(cite(pdf, chunks[0]))
    monkeypatch.setattr(dialogs, "has_system_viewer", lambda _path: False)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    viewer.open_button.click()
    assert len(shown) == 1 and "No application" in shown[0] and str(pdf) in shown[0]


def test_locating_survives_line_breaks_hyphenation_and_dropped_headers() -> None:
    page = ("8/26/25, 3:54 PM  L13709\r\n§ 2º O titular pode opor-se a tratamento realiza-\r\n"
            "do com fundamento em uma das hipóteses de dispensa de\r\nconsentimento.\r\n")
    chunk = ("§ 2º O titular pode opor-se a tratamento realizado com fundamento em uma das "
             "hipóteses de dispensa de consentimento.")
    start, end, matched = locate_passage(page, chunk) or (0, 0, 0)
    assert page[start:end].startswith("§ 2º") and page[start:end].endswith("consentimento")
    assert matched >= 18
    assert locate_passage(page, "Nada disso aparece nesta página de jeito algum") is None


def test_a_word_broken_at_a_soft_hyphen_is_highlighted_whole() -> None:
    """The LDB's PDF breaks words at a soft hyphen (U+00AD), not "-": art. 32 § 4º ended
    its highlight at "situações", before "emer\xad\ngenciais"."""
    page = ("§ 4o O ensino fundamental será presencial, sendo o ensino a distância \n"
            "utilizado como complementação da aprendizagem ou em situações emer\xad\n"
            "genciais.\n§ 5o O currículo do ensino fundamental incluirá")
    chunk = ("§ 4o O ensino fundamental será presencial, sendo o ensino a distância utilizado "
             "como complementação da aprendizagem ou em situações emergenciais.")
    start, end, _matched = locate_passage(page, chunk) or (0, 0, 0)
    assert page[start:end].endswith("emer\xad\ngenciais"), repr(page[start:end][-30:])


def test_a_text_document_emphasises_the_quote_at_its_own_offsets(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The span the verifier located travels with the citation: used as it is, not searched."""
    from desktop_app.answer.quotes import claim_citation
    from desktop_app.retrieval.types import Hit

    page = ("Introdução.\n\nO prazo é de 15 dias. O titular pode pedir a correção dos dados em "
            "até 15 dias. O prazo é de 15 dias.\n")
    path = tmp_path / "nota.txt"
    path.write_text(page, encoding="utf-8")
    start = page.index("O prazo")
    text = page[start:page.rindex(".") + 1]
    hit = Hit(chunk_id="n:0", doc_id="n", position=0, text=text, prefix="", title="Nota",
              source_path=str(path), file_type="txt", language="pt", page_start=1, page_end=1,
              char_start=start, char_end=start + len(text), heading_path=(), score=0.1)
    citation = claim_citation(1, hit, "A correção dos dados pode ser pedida pelo titular.")
    assert citation.quote is not None
    viewer = viewer_on(qtbot)
    viewer.show_citation(citation)  # no loader: the chunk text alone, chunk offsets
    selections = viewer.text_view.extraSelections()
    strong = selections[1].cursor.selectedText()
    assert strong == "O titular pode pedir a correção dos dados em até 15 dias."
    viewer._set_text_pages([page], viewer.passage, from_snippet=False)  # page offsets
    selections = viewer.text_view.extraSelections()
    assert selections[1].cursor.selectedText() == strong
    assert selections[1].cursor.selectionStart() == page.index(strong)
    assert selections[0].cursor.selectedText() == text
