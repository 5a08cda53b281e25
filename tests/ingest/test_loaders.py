"""load_document: real PDFs from the shared eval set, every other format, and bad input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest.loaders import REPLACED_NOTE, SUPPORTED_EXTENSIONS, load_document
from desktop_app.ingest.pdf import import_pymupdf
from desktop_app.ingest.types import LoadedDocument

REPO = Path(__file__).resolve().parents[2]
ART_18 = ("Art. 18. O titular dos dados pessoais tem direito a obter do controlador, em relação "
          "aos dados do titular por ele tratados, a qualquer momento e mediante requisição:")


@pytest.fixture(scope="module")
def lgpd(eval_dir: Path) -> LoadedDocument:
    return load_document(eval_dir / "pdfs" / "pt" / "lgpd.pdf")


@pytest.fixture(scope="module")
def federal_register(eval_dir: Path) -> LoadedDocument:
    return load_document(eval_dir / "pdfs" / "en" / "federal-register-2020-17221.pdf")


# --- real PDFs ---------------------------------------------------------------------------


@pytest.mark.slow  # over a second: the full tier only
def test_lgpd_keeps_its_26_pages_in_order(lgpd: LoadedDocument) -> None:
    assert (lgpd.file_type, lgpd.title, lgpd.notes, lgpd.empty_pages) == ("pdf", "lgpd", [], [])
    assert [page.number for page in lgpd.pages] == list(range(1, 27))
    assert all(page.text for page in lgpd.pages)


def test_lgpd_running_header_and_footer_are_gone(lgpd: LoadedDocument) -> None:
    """Raw pages end with "8/26/25, 3:54 PM", "L13709", the planalto URL and "n/26"."""
    for page in lgpd.pages:
        assert "3:54 PM" not in page.text
        assert "L13709" not in page.text
        assert "planalto.gov.br" not in page.text
        assert not re.search(r"\b\d{1,2}/26\b", page.text), page.number


def test_a_title_wrapped_onto_the_running_titles_words_keeps_them(eval_dir: Path,
                                                                   tmp_path: Path) -> None:
    """The BNCC's running title on odd pages is "EDUCAÇÃO INFANTIL"; the title "DIREITOS DE
    APRENDIZAGEM E DESENVOLVIMENTO NA" wraps onto a line of those same words, which was
    dropped with the running titles (in the whole BNCC, "… PARA O" lost "ENSINO
    FUNDAMENTAL" twice). A repeated line that a title runs on into stays; the running
    titles themselves still go."""
    import pymupdf

    pdf = tmp_path / "bncc-infantil.pdf"
    with pymupdf.open(eval_dir / "pdfs" / "pt" / "bncc.pdf") as original, pymupdf.open() as out:
        out.insert_pdf(original, from_page=33, to_page=39)
        out.save(pdf)
    pages = load_document(pdf).pages
    text = "\n".join(page.text for page in pages)
    assert "DIREITOS DE APRENDIZAGEM E DESENVOLVIMENTO NA EDUCAÇÃO INFANTIL\n" in text
    assert not any(page.text.startswith(("EDUCAÇÃO INFANTIL", "BASE NACIONAL"))
                   for page in pages), [page.text[:40] for page in pages]


def test_lgpd_article_18_is_on_page_8_under_its_chapter(lgpd: LoadedDocument) -> None:
    page = lgpd.pages[7]
    assert ART_18 in page.text
    assert ART_18 not in "".join(p.text for p in lgpd.pages if p.number != 8)
    chapter = next(h for h in page.headings if h.title == "CAPÍTULO III DOS DIREITOS DO TITULAR")
    assert chapter.start < page.text.index(ART_18)
    assert page.text[chapter.start:].startswith("CAPÍTULO III DOS DIREITOS DO TITULAR")


def test_lgpd_sections_nest_under_chapters(lgpd: LoadedDocument) -> None:
    levels = {h.title.split(" ")[0]: h.level for page in lgpd.pages for h in page.headings}
    assert levels["CAPÍTULO"] < levels["Seção"]


@pytest.mark.slow  # over a second: the full tier only
def test_three_column_page_is_read_column_by_column(federal_register: LoadedDocument) -> None:
    text = federal_register.pages[0].text
    # The last words of column 2 run straight into the first words of column 3.
    assert re.search(r"reference a specific portion of the\s+proposal, explain the reason", text)
    markers = ["This section of the FEDERAL REGISTER", "SUMMARY: The FAA proposes to supersede",
               "Federal eRulemaking Portal", "Examining the AD Docket",
               "proposal, explain the reason", "Confidential Business Information (CBI)",
               "Background"]
    positions = [text.index(marker) for marker in markers]
    assert positions == sorted(positions)


def test_column_lines_are_unwrapped_and_dashes_rejoined(federal_register: LoadedDocument) -> None:
    assert ("SUMMARY: The FAA proposes to supersede Airworthiness Directive (AD) 2018–23–51, which "
            "applies to all The Boeing Company Model 737–8 and 737–9 (737 MAX) airplanes."
            in federal_register.pages[0].text)


def test_federal_register_slugs_and_margin_notes_are_removed(
        federal_register: LoadedDocument) -> None:
    for page in federal_register.pages:
        for slug in ("VerDate Sep<11>2014", "jbell on DSKJLSW7X2PROD", "Federal Register / Vol. 85"):
            assert slug not in page.text, (page.number, slug)


def test_scanned_figure_page_is_reported_not_indexed(federal_register: LoadedDocument) -> None:
    assert federal_register.empty_pages == [8]
    assert federal_register.notes == ["no text layer on page 8"]
    assert [page.number for page in federal_register.pages] == [*range(1, 8), *range(9, 16)]


def test_two_column_latex_page_and_its_table(eval_dir: Path) -> None:
    document = load_document(eval_dir / "pdfs" / "en" / "pypdf" / "multicolumn.pdf")
    first, _, third = (page.text for page in document.pages)
    assert re.search(r"Vivamus viverra fermentum felis\. Donec nonummy\s+pellentesque ante\.", first)
    assert first.index("Abstract") < first.index("This is a sample document") < first.index(
        "Nam dui ligula")
    assert "consectetuer adipiscing elit." in first and "Maecenas lacinia." in first
    assert "Austria | 8.9 | 83,879 | Vienna | German" in third.split("\n")
    assert "Belgium | 11.5 | 30,689 | Brussels | Dutch, French, German" in third.split("\n")
    assert not any(page.text.rstrip().endswith(str(page.number)) for page in document.pages)


def test_ruled_table_rows_stay_on_one_line(eval_dir: Path) -> None:
    document = load_document(eval_dir / "pdfs" / "en" / "nics-background-checks-2015-11.pdf")
    lines = document.pages[0].text.split("\n")
    alabama = next(line for line in lines if line.startswith("Alabama |"))
    assert alabama.split(" | ")[:6] == ["Alabama", "18,870", "23,022", "22,650", "859", "1,178"]
    assert alabama.endswith("| 71,137")
    assert next(line for line in lines if line.startswith("Totals |")).endswith("| 2,236,457")


def test_labels_printed_over_sub_columns_head_a_column_each(eval_dir: Path) -> None:
    # NICS prints "Pre-Pawn" over "Handgun  Long Gun  *Other" in one ruled cell: each
    # sub-column gets its own label, so the header has a cell over every figure
    document = load_document(eval_dir / "pdfs" / "en" / "nics-background-checks-2015-11.pdf")
    lines = document.pages[0].text.split("\n")
    header = next(line for line in lines if line.startswith("State / Territory |"))
    labels = header.split(" | ")
    assert labels[1:8] == ["Permit", "Handgun", "Long Gun", "*Other", "**Multiple", "Admin",
                           "Pre-Pawn Handgun"]
    assert labels[-2:] == ["Return to Seller - Private Sale *Other", "Totals"]
    wyoming = next(line for line in lines if line.startswith("Wyoming |"))
    assert len(wyoming.split(" | ")) == len(labels) == 25


def test_a_grouped_statistical_header_is_folded_over_split_figures(eval_dir: Path) -> None:
    # CONAB's crop table: "AREA (In thousand ha)" over "11/12 Crop | 12/13 Crop | VAR. %"
    # over "(a) | (b) | (b/a)", the data's sub-columns not ruled ("318,8 298,3 (6,4)" was
    # one cell): one header row, labelled from top to bottom, over one figure per cell
    document = load_document(eval_dir / "pdfs" / "en" / "brazil_crop_area.pdf")
    lines = document.pages[0].text.split("\n")
    header = next(line for line in lines if line.startswith("REGION / STATE |"))
    labels = header.split(" | ")
    assert labels[:3] == ["REGION / STATE", "AREA (In thousand ha) 11/12 Crop (a)",
                          "AREA (In thousand ha) 12/13 Crop (b)"]
    assert labels[-1] == "PRODUCTION (In thousand t) VAR. % (f/e)"
    assert not any(line.startswith(("11/12 Crop |", "(a) |")) for line in lines)
    assert "MA | 426,0 | 416,2 | (2,3) | 1.098 | 1.520,0 | 38,4 | 467,7 | 632,6 | 35,3" in lines
    assert "PB | 2,1 | 0,3 | (85,7) | 82 | 114,0 | 39,0 | 0,2 | - | (100,0)" in lines
    # a paper's table: "TEDs" over "simple | complex | all"
    otsl = load_document(eval_dir / "pdfs" / "en" / "docling" / "2305.03393v1-pg9.pdf")
    assert "# enc-layers | # dec-layers | Language | TEDs simple | TEDs complex | TEDs all | " \
        "mAP (0.75) | Inference time (secs)" in otsl.pages[0].text.split("\n")
    # its rows print OTSL's and HTML's figures stacked beside the layers' counts, once
    assert "4 | 2 | OTSL | 0.952 | 0.92 | 0.942 | 0.857 | 1.22" in otsl.pages[0].text.split("\n")
    assert "4 | 2 | HTML | 0.944 | 0.903 | 0.931 | 0.824 | 2" in otsl.pages[0].text.split("\n")


def test_a_spanning_cell_is_split_only_where_its_sub_columns_are_clear() -> None:
    from desktop_app.ingest.pdf import _split_figures, _split_labels

    columns = [(0.0, 40.0), (40.0, 80.0), (80.0, 120.0)]

    def word(x0: float, x1: float, text: str, line: int, y: float = 10.0) -> tuple[Any, ...]:
        return (x0, y - 4, x1, y + 4, text, 0, line, 0)

    figures = [word(10, 30, "318,8", 0), word(50, 70, "298,3", 0), word(90, 110, "(6,4)", 0)]
    assert [[w[4] for w in part] for part in _split_figures(figures, columns) or []] == [
        ["318,8"], ["298,3"], ["(6,4)"]]
    assert _split_figures([*figures[:2], word(70, 95, "1.234", 0)], columns) is None  # crosses
    assert _split_figures([*figures[:2], word(90, 110, "ha", 0)], columns) is None  # a word
    assert _split_figures(figures[:1], columns) is None  # one sub-column: nothing to split
    # labels: each its own printed line inside a sub-column, under the group's name
    labels = [word(45, 75, "Pre-Pawn", 0, 4.0), word(5, 35, "Handgun", 1),
              word(42, 78, "Long Gun", 2), word(85, 115, "*Other", 3)]
    assert [" ".join(w[4] for w in part) for part in _split_labels(labels, columns) or []] == [
        "Pre-Pawn Handgun", "Pre-Pawn Long Gun", "Pre-Pawn *Other"]
    phrase = [word(20, 40, "AREA", 0), word(42, 60, "(In", 0), word(62, 95, "thousand", 0),
              word(97, 110, "ha)", 0)]  # one printed line centred over them: a group's name
    assert _split_labels(phrase, columns) is None and _split_figures(phrase, columns) is None
    assert _split_labels(labels[:3], columns) is None  # a sub-column without a label


def test_a_ballots_columns_of_contests_read_line_by_line(eval_dir: Path) -> None:
    # four ruled columns, each a list of contests: a title line, then a line per candidate
    # with name, party and votes printed apart. Before, each column was one cell of
    # running text ("… RONALD GOLD REP 245 KAMALA D HARRIS DEM 68 INSURANCE …")
    document = load_document(eval_dir / "pdfs" / "en" / "la-precinct-bulletin-2014-p1.pdf")
    lines = document.pages[0].text.split("\n")
    at = lines.index("ATTORNEY GENERAL")
    assert lines[at:at + 4] == ["ATTORNEY GENERAL", "VOTER NOMINATED", "RONALD GOLD | REP | 245",
                                "KAMALA D HARRIS | DEM | 68"]
    assert lines.index("STATE MEASURE 47") + 1 == lines.index("YES | 107")
    # columns of paragraphs side by side are no lists: they stay cells of text
    from desktop_app.ingest.pdf import _listed

    prose = [[(10.0, "Resolver e elaborar"), (20.0, "problemas com")],
             [(10.0, "Compreender e"), (20.0, "comparar frações")]]
    assert _listed(prose) is None
    records = [[(10.0, "GOVERNOR"), (20.0, "NEEL KASHKARI"), (20.5, "REP"), (21.0, "247")]]
    assert _listed(records) == [["GOVERNOR"], ["NEEL KASHKARI", "REP", "247"]]


def test_rows_a_borderless_table_stacks_in_one_cell_are_split(
        federal_register: LoadedDocument) -> None:
    # the cost tables are ruled only around their header: the finder returns every data row
    # in one row; each row keeps its own figures (the AOA test costs $3,400, not $6,715)
    lines = [line for page in federal_register.pages for line in page.text.split("\n")]
    assert "AOA sensor system test | 40 work-hours × $85 per hour = $3,400. | $0 | $3,400 | " \
        "$248,200." in lines
    assert "Stabilizer wiring change | Up to 79 work-hours × $85 per hour = Up to $6,715. | " \
        "Up to $3,790 | Up to $10,505 | Up to $766,865." in lines
    assert "AFM revisions | 1 work-hour × $85 per hour = $85 | $0 | $85 | $6,205." in lines


# --- PyMuPDF without its layout model ---------------------------------------------------------


def test_pymupdf_imports_without_layout_model_or_cache_write(eval_dir: Path, tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from desktop_app.ingest.pdf import import_pymupdf\n"
        "pymupdf = import_pymupdf()\n"
        "with pymupdf.open(sys.argv[1]) as doc:\n"
        "    tables = doc[0].find_tables().tables\n"
        "print(len(tables), 'onnxruntime' in sys.modules, sys.modules.get('pymupdf.layout'))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "XDG_CACHE_HOME"}
    env.update(HOME=str(tmp_path), PYTHONPATH=str(REPO))
    nics = eval_dir / "pdfs" / "en" / "nics-background-checks-2015-11.pdf"
    result = subprocess.run([sys.executable, "-c", code, str(nics)], env=env, cwd=REPO,
                            capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == "1 False None"
    assert not (tmp_path / ".cache").exists()


def test_importing_the_ingest_modules_loads_no_heavy_library() -> None:
    code = (
        "import sys\n"
        "import desktop_app.ingest.loaders, desktop_app.ingest.chunking, "
        "desktop_app.text.language, desktop_app.ingest.cleaning, desktop_app.ingest.pdf\n"
        "print(sorted(m for m in ('pymupdf', 'docx', 'bs4', 'charset_normalizer') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                            timeout=60, check=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.stdout.strip() == "[]"


# --- synthetic PDFs ----------------------------------------------------------------------------


def _text_pdf(path: Path, pages: list[str]) -> Path:
    pymupdf = import_pymupdf()
    document = pymupdf.open()
    for text in pages:
        document.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 770), text, fontsize=11)
    document.save(path)
    document.close()
    return path


def test_a_heading_in_capitals_needs_less_size_and_a_code_is_no_heading(tmp_path: Path) -> None:
    # the BNCC sets "COMPETÊNCIAS GERAIS DA BASE NACIONAL COMUM CURRICULAR" at 12 pt over
    # 11 pt text, and prints codes ("EI02TS01") large in its figures
    pymupdf = import_pymupdf()
    document = pymupdf.open()
    page = document.new_page()
    body = "O texto do relatório segue aqui com frases comuns e bastante longas. " * 4
    y = 72.0
    for text, size in [(body, 11), ("COMPETÊNCIAS GERAIS DA BASE", 12), (body, 11),
                       ("Uma linha em caixa mista", 12), (body, 11), ("EI02TS01", 20),
                       (body, 11), ("NOTA", 12), (body, 11)]:
        page.insert_textbox(pymupdf.Rect(72, y, 520, y + 80), text, fontsize=size)
        y += 80 if text is body else 30
    path = tmp_path / "caps.pdf"
    document.save(path)
    document.close()
    headings = [h.title for h in load_document(path).pages[0].headings]
    assert headings == ["COMPETÊNCIAS GERAIS DA BASE"]  # not mixed case, a code, one word


def test_image_only_pages_are_detected(eval_dir: Path, tmp_path: Path) -> None:
    pymupdf = import_pymupdf()
    with pymupdf.open(eval_dir / "pdfs" / "pt" / "lgpd.pdf") as source:
        scan = source[0].get_pixmap(dpi=60)
    document = pymupdf.open()
    document.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 770), "Relatório de auditoria. " * 9)
    for _ in range(3):
        page = document.new_page()
        page.insert_image(page.rect, pixmap=scan)
    document.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 770), "Conclusão da auditoria. " * 9)
    path = tmp_path / "scanned.pdf"
    document.save(path)
    loaded = load_document(path)
    assert loaded.empty_pages == [2, 3, 4]
    assert loaded.notes == ["no text layer on pages 2–4"]
    assert [page.number for page in loaded.pages] == [1, 5]
    assert all(page.text for page in loaded.pages)


def test_password_protected_pdf_is_refused_kindly(tmp_path: Path) -> None:
    pymupdf = import_pymupdf()
    path = _text_pdf(tmp_path / "plain.pdf", ["Dados sigilosos do cliente."])
    with pymupdf.open(path) as document:
        document.save(tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                      user_pw="segredo", owner_pw="dono")
    with pytest.raises(UnreadableDocumentError, match="password-protected"):
        load_document(tmp_path / "locked.pdf")


def test_pdf_with_only_an_owner_password_opens(tmp_path: Path) -> None:
    pymupdf = import_pymupdf()
    path = _text_pdf(tmp_path / "plain.pdf", ["Relatório público de atividades."])
    with pymupdf.open(path) as document:
        document.save(tmp_path / "restricted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                      owner_pw="dono", permissions=pymupdf.PDF_PERM_PRINT)
    assert "Relatório público de atividades." in load_document(tmp_path / "restricted.pdf").pages[0].text


def test_garbage_and_badly_truncated_pdfs_are_refused(eval_dir: Path, tmp_path: Path) -> None:
    data = (eval_dir / "pdfs" / "pt" / "lgpd.pdf").read_bytes()
    (tmp_path / "garbage.pdf").write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 20)
    (tmp_path / "truncated.pdf").write_bytes(data[: len(data) // 3])
    (tmp_path / "word.pdf").write_bytes(b"PK\x03\x04" + bytes(range(256)) * 20)
    with pytest.raises(UnreadableDocumentError, match="is a damaged PDF"):
        load_document(tmp_path / "garbage.pdf")
    with pytest.raises(UnreadableDocumentError, match="is not a PDF"):
        load_document(tmp_path / "word.pdf")
    with pytest.raises(UnreadableDocumentError, match="damaged"):
        load_document(tmp_path / "truncated.pdf")


@pytest.mark.slow  # over a second: the full tier only
def test_slightly_truncated_pdf_is_repaired_and_says_so(eval_dir: Path, tmp_path: Path) -> None:
    data = (eval_dir / "pdfs" / "pt" / "lgpd.pdf").read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: int(len(data) * 0.95)])
    loaded = load_document(tmp_path / "cut.pdf")
    assert loaded.notes[0].startswith("the PDF file is damaged and was repaired")
    assert ART_18 in loaded.pages[7].text


# --- other formats -------------------------------------------------------------------------------


def test_cp1252_text_is_detected_and_decoded(lgpd: LoadedDocument, tmp_path: Path) -> None:
    page = lgpd.pages[7].text
    original = page[page.index("CAPÍTULO III"):][:1500] + "\n\n“Aspas curvas” — travessão."
    path = tmp_path / "nota.txt"
    path.write_bytes(original.encode("cp1252"))
    loaded = load_document(path)
    assert loaded.notes == ["encoding detected: cp1252"]
    assert ART_18 in loaded.pages[0].text and "“Aspas curvas” — travessão." in loaded.pages[0].text


def test_latin1_text_is_read_with_its_accents(tmp_path: Path) -> None:
    path = tmp_path / "ata.txt"
    path.write_bytes("Ata da reunião: a informação pública não é sigilosa.\n".encode("latin-1") * 5)
    loaded = load_document(path)
    assert loaded.notes[0].startswith("encoding detected:")
    assert "Ata da reunião: a informação pública não é sigilosa." in loaded.pages[0].text


def test_stray_bytes_in_utf8_are_replaced_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes("Relatório de manutenção concluído.\n".encode() * 20 + b"\xff\xfe erro\n")
    loaded = load_document(path)
    assert loaded.notes == [REPLACED_NOTE]
    assert "Relatório de manutenção concluído." in loaded.pages[0].text


def test_text_pages_at_form_feeds_lose_their_running_header(tmp_path: Path) -> None:
    pages = [f"ACME S.A. — Relatório interno\n\nSeção {n}: {word} de custos.\n\nPágina {n} de 4"
             for n, word in enumerate(["análise", "revisão", "projeção", "síntese"], start=1)]
    path = tmp_path / "relatorio.txt"
    path.write_text("\f".join(pages), encoding="utf-8")
    loaded = load_document(path)
    assert [page.text for page in loaded.pages] == [
        "Seção 1: análise de custos.", "Seção 2: revisão de custos.",
        "Seção 3: projeção de custos.", "Seção 4: síntese de custos."]


def test_markdown_headings_code_and_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "guia.md"
    path.write_text(
        "---\ntitle: Guia do analista\n---\n# Introdução\n\nEste guia explica o fluxo\nde trabalho.\n\n"
        "## Instalação\n\n```bash\n# não é um título\npip install acervo\n```\n\n"
        "Requisitos\n----------\n\n- Python 3.11\n- 8 GB de RAM\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        encoding="utf-8")
    loaded = load_document(path)
    page = loaded.pages[0]
    assert loaded.title == "Guia do analista"
    assert [(h.level, h.title) for h in page.headings] == [
        (1, "Introdução"), (2, "Instalação"), (2, "Requisitos")]
    assert "# não é um título\npip install acervo" in page.text
    assert "Este guia explica o fluxo de trabalho." in page.text
    assert "- Python 3.11\n- 8 GB de RAM" in page.text
    assert "| a | b |\n| 1 | 2 |" in page.text


def test_docx_headings_paragraphs_and_tables(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Política de Privacidade", 0)
    document.add_heading("Direitos do titular", 1)
    document.add_paragraph("O titular pode pedir acesso aos seus dados a qualquer momento.")
    document.add_heading("Prazos", 2)
    table = document.add_table(rows=3, cols=3)
    table.cell(0, 0).merge(table.cell(0, 2)).text = "Prazos de resposta"
    for row, values in zip(table.rows[1:], (("Pedido", "Prazo", "Canal"),
                                            ("Acesso", "15 dias", "e-mail")), strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    document.add_paragraph("Fim do documento.")
    path = tmp_path / "politica.docx"
    document.save(str(path))
    loaded = load_document(path)
    page = loaded.pages[0]
    assert (loaded.file_type, loaded.title, len(loaded.pages)) == ("docx", "Política de Privacidade", 1)
    assert [(h.level, h.title) for h in page.headings] == [
        (1, "Política de Privacidade"), (1, "Direitos do titular"), (2, "Prazos")]
    assert "Prazos de resposta\nPedido | Prazo | Canal\nAcesso | 15 dias | e-mail" in page.text
    assert page.text.endswith("Fim do documento.")


def test_a_word_tables_header_over_two_rows_is_one_row(tmp_path: Path) -> None:
    # "Fase" merged down over two rows, "Custo (R$)" and "Prazo (meses)" merged across
    # "Previsto | Realizado": before, "Fase | Previsto | Realizado | Previsto | Realizado"
    # was a row of its own and no column said which figure was the cost
    import docx

    document = docx.Document()
    table = document.add_table(rows=3, cols=5)
    table.cell(0, 0).merge(table.cell(1, 0)).text = "Fase"
    table.cell(0, 1).merge(table.cell(0, 2)).text = "Custo (R$)"
    table.cell(0, 3).merge(table.cell(0, 4)).text = "Prazo (meses)"
    for column, label in enumerate(("Previsto", "Realizado", "Previsto", "Realizado"), 1):
        table.cell(1, column).text = label
    for column, value in enumerate(("Piloto", "10.000", "12.500", "3", "4")):
        table.cell(2, column).text = value
    path = tmp_path / "custos.docx"
    document.save(str(path))
    assert load_document(path).pages[0].text == (
        "Fase | Custo (R$) Previsto | Custo (R$) Realizado | Prazo (meses) Previsto | "
        "Prazo (meses) Realizado\nPiloto | 10.000 | 12.500 | 3 | 4")


def test_docx_automatic_numbering_keeps_its_labels(tmp_path: Path) -> None:
    """Word keeps a list's numbers out of the text: the loader writes the labels Word shows,
    from the list's level formats (a style's numbering, or a paragraph's own), counting per
    list and restarting the deeper levels, so an answer can quote the list as one."""
    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    numbering = document.part.numbering_part.element
    numbering.insert(0, parse_xml(
        f'<w:abstractNum {w} w:abstractNumId="90">'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/>'
        '<w:lvlText w:val="%1 -"/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
        '<w:lvlText w:val="%2)"/></w:lvl>'
        '<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1.%2.%3"/></w:lvl></w:abstractNum>'))
    numbering.append(parse_xml(f'<w:num {w} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))

    def numbered(text: str, level: int) -> None:
        paragraph = document.add_paragraph(text)
        paragraph._p.get_or_add_pPr().append(parse_xml(
            f'<w:numPr {w}><w:ilvl w:val="{level}"/><w:numId w:val="90"/></w:numPr>'))

    document.add_paragraph("São obrigações da contratada:")
    for item in ("manter sigilo;", "entregar no prazo;", "corrigir defeitos."):
        document.add_paragraph(item, style="List Number")
    document.add_paragraph("Os direitos do titular são:")
    numbered("acesso aos dados;", 0)
    numbered("correção:", 0)
    numbered("de dados incompletos;", 1)
    numbered("de dados inexatos;", 1)
    numbered("em até 15 dias;", 2)
    numbered("eliminação.", 0)
    numbered("dos dados tratados com consentimento.", 1)
    document.add_paragraph("Canais:")
    document.add_paragraph("e-mail", style="List Bullet")
    path = tmp_path / "contrato.docx"
    document.save(str(path))
    lines = load_document(path).pages[0].text.split("\n\n")
    assert lines == [
        "São obrigações da contratada:", "1. manter sigilo;", "2. entregar no prazo;",
        "3. corrigir defeitos.", "Os direitos do titular são:", "I - acesso aos dados;",
        "II - correção:", "a) de dados incompletos;", "b) de dados inexatos;",
        "II.b.1 em até 15 dias;", "III - eliminação.", "a) dos dados tratados com consentimento.",
        "Canais:", "• e-mail"]


def test_html_lists_keep_the_labels_a_browser_shows(tmp_path: Path) -> None:
    path = tmp_path / "etapas.html"
    path.write_text(
        "<html><body><p>As etapas são:</p><ol start='4'><li><p>Coleta dos dados.</p>"
        "<p>Detalhe da coleta.</p></li><li value='9'>Análise<ol type='a'><li>limpeza</li>"
        "<li>modelo</li></ol></li><li>Relatório</li></ol><ol type='I'><li>um</li>"
        "<li><s>dois revogado</s></li><li>três</li><li>quatro</li></ol>"
        "<ol type='i' start='2'><li>ii</li><li>iii</li></ol>"
        "<ul><li>um</li><li>dois</li></ul></body></html>", encoding="utf-8")
    page = load_document(path).pages[0]
    assert page.text.split("\n\n") == [
        "As etapas são:", "4. Coleta dos dados.", "Detalhe da coleta.", "9. Análise",
        "a) limpeza", "b) modelo", "10. Relatório", "I. um", "II. dois revogado", "III. três",
        "IV. quatro", "ii) ii", "iii) iii", "• um", "• dois"]
    assert page.revoked and page.text[slice(*page.revoked[0])] == "dois revogado"


def test_html_table_spans_line_up_and_a_two_row_header_is_one(tmp_path: Path) -> None:
    path = tmp_path / "producao.html"
    path.write_text(
        "<table><tr><th rowspan=2>UF</th><th colspan=2>Área plantada (ha)</th>"
        "<th colspan=2>Produção (t)</th></tr><tr><th>2021</th><th>2022</th><th>2021</th>"
        "<th>2022</th></tr><tr><td>RO</td><td>60000</td><td>58000</td><td>200000</td>"
        "<td>190000</td></tr><tr><td rowspan=2>Norte</td><td>1</td><td>2</td>"
        "<td colspan=2>sem dados</td><td>9</td></tr><tr><td>0</td><td>0</td><td>5</td>"
        "<td>6</td><td>7</td></tr></table>"
        "<table><tr><td>Nome</td><td>Idade</td></tr><tr><td>0</td><td>0</td></tr></table>",
        encoding="utf-8")
    assert load_document(path).pages[0].text == (
        "UF | Área plantada (ha) 2021 | Área plantada (ha) 2022 | Produção (t) 2021 | "
        "Produção (t) 2022\nRO | 60000 | 58000 | 200000 | 190000\n"
        "Norte | 1 | 2 | sem dados |  | 9\n"  # a cell over two columns, then an empty one
        "Norte | 0 | 0 | 5 | 6 | 7\n\n"  # the label spanning both rows stands in each
        "Nome | Idade\n0 | 0")  # equal neighbours are two cells, not one spanning both


def test_html_drops_scripts_and_navigation(tmp_path: Path) -> None:
    html = (
        '<html><head><meta charset="windows-1252"><title>Aviso de privacidade</title>'
        "<style>body{color:red}</style><script>var token='segredo';</script></head><body>"
        "<nav><a href='/'>Início</a> | <a href='/sobre'>Sobre</a></nav>"
        "<h1>Aviso</h1><p>Coletamos o <b>mínimo</b> de dados.<br>Nada é vendido.</p>"
        "<h2>Tabela de retenção</h2><table><tr><th>Dado</th><th>Prazo</th></tr>"
        "<tr><td>E-mail</td><td>2 anos</td></tr></table></body></html>"
    )
    path = tmp_path / "aviso.html"
    path.write_bytes(html.encode("cp1252"))
    loaded = load_document(path)
    text = loaded.pages[0].text
    assert loaded.title == "Aviso de privacidade"
    assert text == ("Aviso\n\nColetamos o mínimo de dados.\nNada é vendido.\n\nTabela de retenção\n\n"
                    "Dado | Prazo\nE-mail | 2 anos")
    assert [(h.level, h.title) for h in loaded.pages[0].headings] == [(1, "Aviso"),
                                                                    (2, "Tabela de retenção")]


# --- bad input ------------------------------------------------------------------------------------


def test_supported_extensions() -> None:
    assert set(SUPPORTED_EXTENSIONS) == {".pdf", ".docx", ".md", ".markdown", ".txt", ".html", ".htm",
                                         ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".xlsx",
                                         ".xlsm", ".ods", ".csv", ".tsv", ".pptx", ".epub",
                                         ".eml", ".mbox", ".odt"}


@pytest.mark.parametrize(("name", "content", "message"), [
    ("vazio.pdf", b"", "empty"),
    ("planilha.xls", b"\xd0\xcf\x11\xe0 data", "not supported"),
    ("LEIAME", b"texto", "without an extension"),
    ("quebrado.docx", b"not a zip file at all", "not a readable Word document"),
])
def test_bad_files_get_a_clear_message(tmp_path: Path, name: str, content: bytes,
                                       message: str) -> None:
    (tmp_path / name).write_bytes(content)
    with pytest.raises(UnreadableDocumentError, match=message) as raised:
        load_document(tmp_path / name)
    assert name in raised.value.user_message


def test_folders_missing_files_and_symlink_loops(tmp_path: Path) -> None:
    (tmp_path / "pasta.pdf").mkdir()
    os.symlink(tmp_path / "b.txt", tmp_path / "a.txt")
    os.symlink(tmp_path / "a.txt", tmp_path / "b.txt")
    with pytest.raises(UnreadableDocumentError, match="is a folder"):
        load_document(tmp_path / "pasta.pdf")
    with pytest.raises(UnreadableDocumentError, match="not found"):
        load_document(tmp_path / "sumiu.pdf")
    with pytest.raises(UnreadableDocumentError, match="could not be opened"):
        load_document(tmp_path / "a.txt")


def test_unreadable_permissions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secreto.txt"
    path.write_text("conteúdo", encoding="utf-8")
    path.chmod(0)
    if os.geteuid() == 0:  # root reads anything: make the OS answer as it would for a user
        original_open = Path.open

        def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return original_open(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(UnreadableDocumentError, match="no permission"):
        load_document(path)


def test_a_transcript_reads_as_sentences_without_its_line_numbers(eval_dir: Path) -> None:
    """A Supreme Court transcript places every line as a block of its own, double spaced,
    beside a column of line numbers 1–25: the numbers are gone and wrapped sentences are
    whole paragraphs."""
    doc = load_document(eval_dir / "pdfs" / "en" / "scotus-transcript-p1.pdf")
    paragraphs = doc.pages[0].text.split("\n\n")
    assert not [p for p in paragraphs if p.strip().isdigit() and int(p) > 1]  # (page "1")
    assert "The above-entitled matter came on for oral argument before the Supreme Court of " \
        "the United States at 1:01 p.m." in paragraphs
    assert "CHARLES M. SEVILLA, ESQ., San Diego, Cal.; on behalf of the Respondent." in paragraphs


def test_a_page_turned_by_its_rotate_key_reads_as_displayed(eval_dir: Path) -> None:
    """The Senate's expenditure report is landscape text on a portrait page with /Rotate
    90: in the unrotated page every line runs up the page. Read as displayed, its words
    come in order and its rows are rows (before: "LOUIS SAINT TO DC WASHINGTON")."""
    doc = load_document(eval_dir / "pdfs" / "en" / "senate-expenditures.pdf")
    text = doc.pages[0].text
    assert "AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND RETURN" in text
    assert "DHAW20190001 | 05/03/2019 | CITIBANK - TRAVEL CBA CARD | 03/04/2019" in text
    assert "DC WASHINGTON" not in text and "LOUIS SAINT" not in text


def test_a_table_cells_further_lines_stay_in_their_row(eval_dir: Path) -> None:
    """Each row of the Senate's report has its description on the lines below it, placed
    as blocks of their own and starting where the row's "STAFF TRANSPORTATION" cell does.
    Read apart, "AIRFARE FOR E JOHNSON …" was a paragraph of its own, and the row with
    the amount said whose airfare it was to no one; now they are one row, and the rows
    one table (before: a blank line between every row and its description)."""
    doc = load_document(eval_dir / "pdfs" / "en" / "senate-expenditures.pdf")
    lines = doc.pages[0].text.split("\n")
    assert ("DHAW20190001 | 05/03/2019 | CITIBANK - TRAVEL CBA CARD | 03/04/2019 | 03/06/2019 "
            "| STAFF TRANSPORTATION AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND "
            "RETURN | 920.68") in lines
    # a description over two lines: both in the row
    assert ("DHAW20190005 | 05/28/2019 | CITIBANK - TRAVEL CBA CARD | 03/21/2019 | 03/24/2019 "
            "| SENATOR'S TRANSPORTATION AIRFARE FOR SEN HAWLEY AS FOLLOWS: 3/21 WASHINGTON DC "
            "TO SAINT LOUIS TO KANSAS CITY; 3/24 SAINT LOUIS TO WASHINGTON DC | 798.90") in lines
    rows = [line for line in lines if line.startswith("DHAW2019")]
    assert len(rows) == 22 and all(row.count(" | ") == 6 for row in rows)
    first = lines.index(rows[0])
    assert lines[first:first + len(rows)] == rows  # one table, no line between its rows


def test_html_table_spans_are_bounded(tmp_path: Path) -> None:
    from desktop_app.ingest import html_loader

    path = tmp_path / "hostil.html"
    path.write_text("<table>" + "<tr>" + "<td colspan=1000000 rowspan=1000000>x</td>" * 2_000
                    + "</tr>" + "<tr><td>y</td></tr>" * 300 + "</table>", encoding="utf-8")
    lines = load_document(path).pages[0].text.split("\n")
    # spans are cut at MAX_SPAN and a row at MAX_COLUMNS cells; the rows are the page's
    widths = [len(line.split(" | ")) for line in lines]
    assert len(lines) == 301 and max(widths) <= html_loader.MAX_COLUMNS
    assert lines[0].startswith("x |  |") and lines[0].count("x") == 6  # 512 / 100 cells
    assert lines[html_loader.MAX_SPAN - 1].startswith("x |") and lines[-1] == "y"
