"""Cleaning rules (headers/footers, unwrapping, tables) and PDF page geometry (reading order)."""

from __future__ import annotations

import random
from pathlib import Path

from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    compact_ranges,
    document_vocabulary,
    edge_line_key,
    normalize_line,
    pages_note,
    repeated_edge_lines,
    split_stacked_rows,
    table_to_text,
    unwrap_lines,
)
from desktop_app.ingest.pdf import import_pymupdf
from desktop_app.ingest.pdf_layout import (
    Box,
    LayoutBlock,
    TextLine,
    find_gutters,
    join_cell_lines,
    join_line_blocks,
    line_number_blocks,
    merge_rows,
    reading_order,
    split_block_paragraphs,
)

# --- running headers and footers -------------------------------------------------------


def _page(number: int, total: int, body: list[str]) -> list[str]:
    return ["8/26/25, 3:54 PM L13709", *body,
            "www.planalto.gov.br/ccivil_03/_ato2015-2018/2018/lei/l13709.htm", f"{number}/{total}"]


BODY = [["Art. 1º Esta Lei dispõe sobre o tratamento de dados pessoais.", "§ 1º (VETADO)."],
        ["a) jornalístico e artísticos; ou", "b) acadêmicos;"],
        ["Art. 5º Para os fins desta Lei, considera-se:", "I - dado pessoal;"],
        ["§ 2º O tratamento dos dados a que se refere", "o inciso III do caput."],
        ["Art. 18. O titular dos dados pessoais tem direito", "I - confirmação;"]]


def test_header_and_numbered_footer_are_found_on_every_page() -> None:
    pages = [_page(n, 5, BODY[n - 1]) for n in range(1, 6)]
    dropped = repeated_edge_lines(pages)
    for lines, indices in zip(pages, dropped, strict=True):
        assert [lines[i] for i in sorted(indices)] == [lines[0], lines[-2], lines[-1]]


def test_lines_repeated_in_the_middle_of_pages_are_body_text() -> None:
    pages = [[f"{word} {letter}" for word in ("Título", "intro", "texto")] + ["(VETADO)", "§ 2º"]
             + [f"{word} {letter}" for word in ("fim", "nota", "assinatura")]
             for letter in "ABCD"]
    assert all(not indices for indices in repeated_edge_lines(pages))


def test_a_total_line_at_the_foot_of_every_page_is_kept() -> None:
    """Same layout, but the numbers are data, not page numbers: never drop them."""
    amounts = ["1.234,56", "987,00", "12.400,10", "3,99", "450,00"]
    pages = [[f"Fatura {n}", f"Item {n}", f"Total R$ {amount}"] for n, amount in enumerate(amounts)]
    dropped = repeated_edge_lines(pages)
    assert all(2 not in indices for indices in dropped)


def test_alternating_headers_with_page_numbers_are_found() -> None:
    pages = [[f"Lei no 9.394/1996 {n + 15}" if n % 2 else f"{n + 15} Lei de diretrizes e bases",
              f"Art. {n}. texto próprio da página {chr(65 + n)}"] for n in range(10)]
    dropped = repeated_edge_lines(pages)
    assert all(indices == {0} for indices in dropped)


def test_a_single_page_has_no_running_header() -> None:
    assert repeated_edge_lines([["Relatório", "texto", "1/1"]]) == [set()]


def test_a_header_on_few_pages_is_kept() -> None:
    pages = [[f"Capítulo {n}", f"texto {n}", "fim"] for n in range(12)]
    pages[0][0] = pages[1][0] = "Nota do editor"
    dropped = repeated_edge_lines([page[:2] for page in pages])
    assert all(0 not in indices for indices in dropped[:2])


def test_edge_key_ignores_page_numbers_and_case() -> None:
    assert edge_line_key("Página 3 de 26") == edge_line_key("PÁGINA 12 DE 26") == "página # de #"


# --- lines, paragraphs, hyphens ---------------------------------------------------------


def test_normalize_line_expands_ligatures_and_odd_spaces() -> None:
    assert normalize_line("Oﬃcial\u00a0 ﬁles\u200b\t here ") == "Official files here"


def test_hyphenated_line_break_is_joined() -> None:
    assert unwrap_lines(["o direito à infor-", "mação é garantido"], [True, True]) == (
        "o direito à informação é garantido")


def test_enclitic_hyphen_is_kept() -> None:
    assert unwrap_lines(["Esta Lei aplica-", "se a qualquer operação"], [True, True]) == (
        "Esta Lei aplica-se a qualquer operação")


def test_document_vocabulary_decides_hyphens() -> None:
    vocabulary = document_vocabulary(["o bem-estar social", "a parte final"])
    assert unwrap_lines(["promove o bem-", "estar social"], [True, True], vocabulary) == (
        "promove o bem-estar social")
    assert unwrap_lines(["na par-", "te final"], [True, True], vocabulary) == "na parte final"


def test_dashes_between_numbers_and_urls_are_joined_without_space() -> None:
    text = unwrap_lines(["Docket No. FAA–2020–", "0686; see https://", "www.regulations.gov."],
                        [True, True, True])
    assert text == "Docket No. FAA–2020–0686; see https://www.regulations.gov."


def test_list_items_and_short_lines_keep_their_line() -> None:
    lines = ["Art. 2º A disciplina tem como fundamentos:", "I - o respeito à privacidade;",
             "II - a autodeterminação informativa;"]
    assert unwrap_lines(lines, [True, False, False]).split("\n") == lines


def test_an_article_after_a_sentence_keeps_its_line_however_full_the_one_above() -> None:
    """"Art. 37." opens a unit of the law even when the line above reaches the margin; an
    article cited across a line break ("nos termos do" / "Art. 5º desta Lei") is text."""
    lines = ["Art. 36. A investidura em cargo de confiança depende de nomeação pela autoridade.",
             "Art. 37. A administração pública direta e indireta de qualquer dos Poderes da",
             "União obedecerá aos princípios de legalidade, nos termos do",
             "Art. 5º desta Lei, e ao seguinte:",
             "Parágrafo único. O disposto neste artigo aplica-se também às autarquias."]
    assert unwrap_lines(lines, [True] * 5).split("\n") == [
        lines[0], " ".join(lines[1:4]), lines[4]]


def test_unwrap_without_geometry_joins_long_lines_only() -> None:
    text = unwrap_lines([
        "This paragraph was wrapped by an old text editor at a fixed",
        "width of about sixty characters, so every line but the last",
        "is long.",
        "Signed: Ana",
    ])
    assert text == ("This paragraph was wrapped by an old text editor at a fixed width of about "
                    "sixty characters, so every line but the last is long.\nSigned: Ana")


def test_soft_hyphen_joins_the_word() -> None:
    assert unwrap_lines(["infor\u00ad", "mação"], [True, True]) == "informação"


# --- tables ------------------------------------------------------------------------------


def test_table_rows_become_lines_with_ordered_cells() -> None:
    rows = [["Action", "Labor cost", None, "Cost"], ["FCC OPS\ninstallation", "$85 ......", None, ""]]
    assert table_to_text(rows) == "Action | Labor cost | Cost\nFCC OPS installation | $85"


def test_stacked_rows_are_split() -> None:
    row = ["Alabama\nAlaska", "18,870\n209", "", None, "71,137\n7,095"]
    assert split_stacked_rows(row) == [["Alabama", "18,870", "", None, "71,137"],
                                       ["Alaska", "209", "", None, "7,095"]]


def test_a_label_printed_once_beside_stacked_figures_stands_in_each_row() -> None:
    # a paper's results: "4" encoder and "2" decoder layers, then OTSL's and HTML's figures
    row = ["4", "2", "OTSL\nHTML", "0.952\n0.944", "1.22\n2"]
    assert split_stacked_rows(row) == [["4", "2", "OTSL", "0.952", "1.22"],
                                       ["4", "2", "HTML", "0.944", "2"]]
    # lines wrapped in cells of words beside a figure are one row
    wrapped = ["Ler e\ncompreender", "Comparar e\nordenar", "12"]
    assert split_stacked_rows(wrapped) == [wrapped]
    assert split_stacked_rows(["Total", "1.5\n2.5", "3"]) == [["Total", "1.5\n2.5", "3"]]


def test_a_header_over_several_rows_folds_into_one() -> None:
    from desktop_app.ingest.cleaning import fold_header

    assert fold_header([["UF", "Área (ha)", "Área (ha)", "Total"],
                        ["UF", "2021", "2022", ""]]) == [
        "UF", "Área (ha) 2021", "Área (ha) 2022", "Total"]
    assert fold_header([["A", "B"], ["(a)"]]) == ["A (a)", "B"]


def test_wrapped_text_cells_are_not_split_into_rows() -> None:
    row = ["Resolver e elaborar problemas que envolvam\ncálculos mentais ou escritos",
           "Compreender, comparar e ordenar frações\nassociadas às ideias de partes"]
    assert split_stacked_rows(row) == [row]


# --- pages and notes ---------------------------------------------------------------------


def test_assemble_page_records_heading_offsets() -> None:
    page = assemble_page(3, [Paragraph("CAPÍTULO III DOS DIREITOS DO TITULAR", 1),
                             Paragraph("Art. 17. Toda pessoa natural..."),
                             Paragraph("Seção I", 2)])
    assert page.number == 3
    for heading in page.headings:
        assert page.text[heading.start:].startswith(heading.title)
    assert [h.level for h in page.headings] == [1, 2]


def test_page_notes_use_compact_ranges() -> None:
    assert compact_ranges([9, 3, 4, 5, 6, 7, 8, 12]) == "3–9, 12"
    assert pages_note("no text layer on", [3, 4, 5, 6, 7, 8, 9]) == "no text layer on pages 3–9"
    assert pages_note("no text layer on", [4]) == "no text layer on page 4"


# --- geometry: rows, paragraphs, columns ---------------------------------------------------


def _line(text: str, x0: float, y0: float, x1: float, size: float = 10.0) -> TextLine:
    return TextLine(text=text, x0=x0, y0=y0, x1=x1, y1=y0 + size, size=size,
                    chars=len(text.replace(" ", "")), bold_chars=0)


def test_pieces_on_one_baseline_are_one_row() -> None:
    rows = merge_rows([_line("iscing elit.", 72, 306, 118), _line("Ut purus elit", 127.6, 306, 300)])
    assert [row.text for row in rows] == ["iscing elit. Ut purus elit"]


def test_widely_spaced_pieces_in_a_tabular_block_become_cells() -> None:
    lines = [_line(text, x, y, x + 40) for y, cells in ((164, ("Austria", "8.9", "Vienna")),
                                                        (176, ("Belgium", "11.5", "Brussels")))
             for text, x in zip(cells, (78, 200, 356), strict=True)]
    assert [row.text for row in merge_rows(lines)] == ["Austria | 8.9 | Vienna",
                                                     "Belgium | 11.5 | Brussels"]


def test_indented_line_after_a_short_line_starts_a_paragraph() -> None:
    rows = [_line("with Lorem Ipsum text.", 72, 282, 176),
            _line("Lorem ipsum dolor sit amet, consectetuer adip-", 82, 294, 300),
            _line("iscing elit. Ut purus elit, vestibulum ut, placerat", 72, 306, 300),
            _line("ac, adipiscing vitae.", 72, 318, 160)]
    block = LayoutBlock(72, 282, 300, 328, rows=rows)
    paragraphs = [unwrap_lines(lines, full) for lines, full in split_block_paragraphs(block)]
    assert paragraphs == ["with Lorem Ipsum text.",
                          "Lorem ipsum dolor sit amet, consectetuer adipiscing elit. Ut purus elit, "
                          "vestibulum ut, placerat ac, adipiscing vitae."]


def _blocks(*lines: TextLine) -> list[LayoutBlock]:
    return [LayoutBlock(line.x0, line.y0, line.x1, line.y1, rows=[line]) for line in lines]


def test_lines_placed_as_blocks_of_their_own_join_where_a_sentence_goes_on() -> None:
    # a transcript, double spaced, every line a block: a wrapped line and a line starting
    # in lower case go on; a line that ends a clause, or a list item, starts anew
    blocks = _blocks(_line("The above-entitled matter came on for oral", 220, 349, 536, 12),
                     _line("argument before the Supreme Court of the United", 126, 375, 522, 12),
                     _line("at 1:01 p.m.", 126, 401, 220, 12),
                     _line("APPEARANCES:", 126, 427, 220, 12),
                     _line("STEVEN E. MERCER, ESQ., Deputy Attorney General, Los", 126, 452, 500, 12),
                     _line("Angeles, Cal.; on behalf of the Petitioner.", 140, 478, 464, 12),
                     _line("c) segurança do Estado; ou", 126, 504, 300, 12),
                     _line("d) atividades de investigação", 126, 530, 330, 12))
    joined = join_line_blocks(blocks)
    paragraphs = [unwrap_lines(lines, full) for block in joined
                  for lines, full in split_block_paragraphs(block)]
    assert paragraphs == [
        "The above-entitled matter came on for oral argument before the Supreme Court of the "
        "United at 1:01 p.m.",
        "APPEARANCES:",
        "STEVEN E. MERCER, ESQ., Deputy Attorney General, Los Angeles, Cal.; on behalf of the "
        "Petitioner.",
        "c) segurança do Estado; ou",
        "d) atividades de investigação"]
    # short lines one under another, none wrapped, none in lower case: each stays alone
    # (a law's "Texto compilado" / "Mensagem de veto" / "Vigência")
    links = _blocks(_line("Texto compilado", 34, 137, 105), _line("Mensagem de veto", 34, 161, 117),
                    _line("Vigência", 34, 184, 72), _line("Art. 1º Esta Lei dispõe sobre o "
                                                          "tratamento de dados pessoais.", 34,
                                                          200, 562))
    assert join_line_blocks(links) == links
    # a line in another size, or far below, is not the same paragraph
    apart = _blocks(_line("The matter came on for oral", 126, 100, 536, 12),
                    _line("argument before the Court", 126, 200, 400, 12))
    assert join_line_blocks(apart) == apart


def _row(y0: float, *cells: tuple[str, float, float]) -> LayoutBlock:
    """A table row placed as a block of its own: its cells' pieces merged into one row."""
    row = merge_rows([_line(text, x0, y0, x1, 5) for text, x0, x1 in cells])[0]
    return LayoutBlock(row.x0, row.y0, row.x1, row.y1, rows=[row])


def test_a_table_cells_further_lines_join_their_cell() -> None:
    # an expenditure report: each row's description on the lines right below it, starting
    # where its service cell starts, every line a block of its own
    first = _row(207, ("DHAW1", 89, 127), ("05/03/2019", 155, 181), ("STAFF TRANSPORTATION", 428, 493),
                 ("920.68", 687, 703))
    second = _row(226, ("DHAW2", 89, 127), ("05/24/2019", 155, 181), ("STAFF TRANSPORTATION", 428, 493),
                  ("907.96", 687, 703))
    blocks = [first, *_blocks(_line("AIRFARE FOR E JOHNSON KANSAS CITY TO", 428, 213, 619, 5),
                              _line("WASHINGTON DC", 428, 219, 473, 5)), second]
    joined = join_line_blocks(join_cell_lines(blocks))
    assert [[row.text for row in block.rows] for block in joined] == [[
        "DHAW1 | 05/03/2019 | STAFF TRANSPORTATION AIRFARE FOR E JOHNSON KANSAS CITY TO "
        "WASHINGTON DC | 920.68",
        "DHAW2 | 05/24/2019 | STAFF TRANSPORTATION | 907.96"]]  # and the rows one table
    # not a cell's line: a figure alone (a subtotal), a line at the first cell (a group's
    # label), a line running into the next cell, a line far below
    for line in (_line("1,827.64", 687, 213, 703, 5), _line("Travel", 89, 213, 127, 5),
                 _line("AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND", 428, 213, 690, 5),
                 _line("AIRFARE FOR E JOHNSON", 428, 240, 500, 5)):
        apart = [first, *_blocks(line)]
        assert join_cell_lines(apart) == apart, line.text


def test_a_margins_line_numbers_are_no_text() -> None:
    numbers = [_line(str(n), 90, 100 + 26 * n, 104, 12) for n in range(1, 26)]
    text = [_line("IN THE SUPREME COURT OF THE UNITED STATES", 148, 65, 450, 12),
            _line("The above-entitled matter came on for oral", 220, 349, 536, 12)]
    blocks = _blocks(*numbers, *text)
    assert line_number_blocks(blocks) == set(range(25))
    # a table's first column of row numbers is not a margin: text starts left of it too
    assert line_number_blocks(_blocks(*numbers, _line("Notes under the table", 60, 900, 300))) \
        == set()
    # numbers that do not count up (figures in a column) are not line numbers
    figures = [_line(str(v), 90, 100 + 26 * i, 104, 12) for i, v in enumerate(
        (12, 7, 30, 4, 18, 9))]
    assert line_number_blocks(_blocks(*figures, *text)) == set()


def _three_column_page() -> list[Box]:
    title = Box(45, 55, 460, 73)
    columns = [Box(x, y, x + 170, y + 100) for x in (45, 222, 399) for y in (120, 230, 340)]
    footer = Box(25, 767, 450, 773)
    return [title, *columns, footer]


def test_three_columns_are_read_column_by_column() -> None:
    boxes = _three_column_page()
    shuffled = list(range(len(boxes)))
    random.Random(7).shuffle(shuffled)
    order = reading_order([boxes[i] for i in shuffled])
    read = [boxes[shuffled[i]] for i in order]
    assert read == boxes  # title, column 1 top→bottom, column 2, column 3, footer


def test_gutters_ignore_a_page_number_sitting_in_them() -> None:
    boxes = [Box(72, 270, 301, 675), Box(311, 248, 539, 675), Box(303, 695, 308, 705),
             Box(277, 186, 335, 198)]
    assert [(round(a), round(b)) for a, b in find_gutters(boxes)] == [(301, 311)]


def test_single_column_page_reads_top_to_bottom() -> None:
    boxes = [Box(34, 300, 562, 340), Box(61, 100, 300, 111), Box(61, 200, 443, 211)]
    assert reading_order(boxes) == [1, 2, 0]


def test_lgpd_raw_pages_really_carry_the_running_lines(eval_dir: Path) -> None:
    """The facts the loader tests rely on: what PyMuPDF's raw text repeats on every page."""
    pymupdf = import_pymupdf()
    with pymupdf.open(eval_dir / "pdfs" / "pt" / "lgpd.pdf") as document:
        raw_pages = [page.get_text() for page in document]
    assert len(raw_pages) == 26
    for number, text in enumerate(raw_pages, start=1):
        lines = text.strip().split("\n")
        assert lines[-4:] == ["8/26/25, 3:54 PM", "L13709",
                              "www.planalto.gov.br/ccivil_03/_ato2015-2018/2018/lei/l13709.htm",
                              f"{number}/26"]
