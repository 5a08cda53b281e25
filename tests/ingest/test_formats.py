"""Spreadsheets (XLSX, ODS, CSV), slides (PPTX), e-books (EPUB), e-mail (EML, MBOX) and
ODT: each read from a real file of its format and refused, with one sentence, when hostile."""

from __future__ import annotations

import datetime
import time
import zipfile
from pathlib import Path

import pytest
from fixtures import office_files as of

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS, load_document
from desktop_app.ingest.sheets import MAX_ROWS

NEW_TYPES = {"xlsx", "ods", "csv", "pptx", "epub", "eml", "mbox", "odt"}


def _refusal(path: Path) -> str:
    started = time.monotonic()
    with pytest.raises(UnreadableDocumentError) as raised:
        load_document(path)
    assert time.monotonic() - started < 60, "a hostile file must be refused quickly"
    message = raised.value.user_message
    assert path.name in message and "\n" not in message
    return message


def test_every_new_format_is_supported() -> None:
    assert set(SUPPORTED_EXTENSIONS.values()) >= NEW_TYPES


# ---- spreadsheets --------------------------------------------------------------------------
def test_xlsx_rows_come_in_blocks_that_repeat_the_header(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Região", "Mês", "Valor"]]
    rows += [["Norte", f"mês {i}", i * 10.5] for i in range(1, 80)]
    rows.append(["Sul", "março", datetime.datetime(2024, 3, 1)])
    path = of.xlsx(tmp_path / "vendas.xlsx", {"Vendas": rows, "Notas": [["só texto"]]},
                   title="Vendas 2024")
    document = load_document(path)
    assert (document.file_type, document.title, document.notes) == ("xlsx", "Vendas 2024", [])
    sales, notes = document.pages
    assert (sales.number, notes.number) == (1, 2)
    assert sales.headings[0].title == "Vendas"
    assert "2024-03-01" in sales.text and "Norte | mês 2 | 21" in sales.text
    chunks = chunk_document(document, "d1")
    sales_chunks = [c for c in chunks if c.page_start == 1]
    assert len(sales_chunks) >= 3
    for chunk in sales_chunks:
        # each passage names its sheet and rows, and carries the column names
        assert chunk.heading_path[0] == "Vendas"
        assert chunk.heading_path[-1].startswith("rows ")
        assert "Região | Mês | Valor" in chunk.text
    first, last = sales_chunks[0].heading_path[-1], sales_chunks[-1].heading_path[-1]
    assert first.startswith("rows 2–") and last.endswith("–81")
    assert "Sul | março | 2024-03-01" in sales_chunks[-1].text


def test_a_sheets_title_and_its_header_over_two_rows(tmp_path: Path) -> None:
    # how statistical offices publish: a title line, then a header whose first cell is
    # merged down over two rows and whose groups are merged across their years; before,
    # the title was taken for the header and "| 2021 | 2022 | 2021 | 2022" was a data row
    rows: list[list[object]] = [
        ["Tabela 1612 - Área plantada e quantidade produzida, por ano"], [],
        ["Unidade da Federação", "Área plantada (Hectares)", None,
         "Quantidade produzida (Toneladas)", None],
        [None, 2021, 2022, 2021, 2022],
        ["Rondônia", 60000, 58000, 200000, 190000], ["Maranhão", 170000, 165000, 450000, 470000]]
    path = of.xlsx(tmp_path / "pam.xlsx", {"Tabela 1612": rows},
                   merged=["A3:A4", "B3:C3", "D3:E3"])
    page = load_document(path).pages[0]
    header = ("Unidade da Federação | Área plantada (Hectares) 2021 | Área plantada (Hectares) "
              "2022 | Quantidade produzida (Toneladas) 2021 | Quantidade produzida (Toneladas) 2022")
    assert page.text.endswith(f"{header}\nRondônia | 60000 | 58000 | 200000 | 190000\n"
                              "Maranhão | 170000 | 165000 | 450000 | 470000")
    assert "Tabela 1612 - Área plantada" in page.text.split("\n\n")[1]  # a line of its own
    assert [h.title for h in page.headings] == ["Tabela 1612", "rows 5–6"]
    # the same sheet as ODS: spanned cells, covered cells
    span = ('<table:table-cell office:value-type="string" table:number-columns-spanned="2">'
            "<text:p>Área (ha)</text:p></table:table-cell><table:covered-table-cell/>")
    down = ('<table:table-cell office:value-type="string" table:number-rows-spanned="2">'
            "<text:p>UF</text:p></table:table-cell>")
    ods_rows = (of.ods_row(["Tabela 1"]) + f"<table:table-row>{down}{span}</table:table-row>"
                + "<table:table-row><table:covered-table-cell/>" + of.ods_cell("2021")
                + of.ods_cell("2022") + "</table:table-row>" + of.ods_row(["RO", "1", "2"]))
    ods = load_document(of.ods(tmp_path / "pam.ods", {"T": ods_rows})).pages[0]
    assert ods.text == "T\n\nTabela 1\n\nrow 4\n\nUF | Área (ha) 2021 | Área (ha) 2022\nRO | 1 | 2"
    # a one-column sheet keeps its first line as its header, and so does a list of names
    # that later meets a row of two cells: more than three lines are no title
    names = load_document(of.xlsx(tmp_path / "nomes.xlsx", {"N": [["Nome"], ["Ana"], ["Bia"]]}))
    assert names.pages[0].text.endswith("Nome\nAna\nBia")
    listed = [["Nome"], ["Ana"], ["Bia"], ["Caio"], ["Total", 3]]
    names = load_document(of.xlsx(tmp_path / "lista.xlsx", {"N": listed}))
    assert names.pages[0].text.endswith("Nome\nAna\nBia\nCaio\nTotal | 3")


def test_csv_with_semicolons_and_latin1(tmp_path: Path) -> None:
    path = tmp_path / "clientes.csv"
    path.write_bytes("nome;cidade;saldo\nJoão;São Paulo;10,5\nInês;Belém;-3\n".encode("cp1252"))
    document = load_document(path)
    page = document.pages[0]
    assert document.file_type == "csv" and page.headings[0].title == "rows 2–3"
    assert "nome | cidade | saldo\nJoão | São Paulo | 10,5\nInês | Belém | -3" in page.text


def test_hostile_csv_a_giant_field_and_too_many_rows(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    giant = tmp_path / "gigante.csv"
    giant.write_text('a,b\n1,"' + "x" * 200_000 + '"\n', encoding="utf-8")  # > csv's field limit
    with pytest.raises(UnreadableDocumentError, match="not a readable CSV file past record"):
        load_document(giant)
    from desktop_app.ingest import sheets

    monkeypatch.setattr(sheets, "MAX_ROWS", 50)
    many = tmp_path / "muitas.csv"
    many.write_text("id,valor\n" + "".join(f"{i},{i * 2}\n" for i in range(5_000)),
                    encoding="utf-8")
    document = load_document(many)
    assert "only the first 50 rows were read" in " ".join(document.notes)
    assert "48 | 96" in document.pages[0].text and "49 | 98" not in document.pages[0].text


def test_ods_sheets_and_repeated_rows(tmp_path: Path) -> None:
    rows = (of.ods_row(["Nome", "Idade"]) + of.ods_row(["Ana", "30"])
            + of.ods_row([""] * 3, repeat=1_048_000)  # how files pad a sheet: never expanded
            + of.ods_row(["Bia", "41"], repeat=2))
    path = of.ods(tmp_path / "pessoas.ods", {"Pessoas": rows, "Vazia": ""})
    started = time.monotonic()
    document = load_document(path)
    assert time.monotonic() - started < 10
    first = document.pages[0]
    assert [h.title for h in first.headings] == ["Pessoas", "rows 2–1048004"]
    assert first.text.endswith("Nome | Idade\nAna | 30\nBia | 41\nBia | 41")
    assert document.pages[1].text == "Vazia"


def test_a_huge_sheet_is_read_up_to_the_row_limit(tmp_path: Path) -> None:
    path = of.ods(tmp_path / "enorme.ods", {"Dados": of.ods_row(["id", "valor"])
                                            + of.ods_row(["x", "1"], repeat=MAX_ROWS * 3)})
    document = load_document(path)
    assert document.notes == [f"only the first {MAX_ROWS:,} rows were read (more rows in "
                              "“Dados”)"]
    assert document.pages[0].text.count("\nx | 1") == MAX_ROWS - 1  # the header is a row


@pytest.mark.slow  # over a second: the full tier only
def test_xlsx_zip_bomb_and_billion_laughs_are_refused(tmp_path: Path) -> None:
    real = of.xlsx(tmp_path / "base.xlsx", {"A": [["x"]]})
    with zipfile.ZipFile(real) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    bomb = of.zip_bomb(tmp_path / "bomba.xlsx", parts, member="xl/media/blob.bin",
                       megabytes=600)
    assert "unpacks to" in _refusal(bomb)
    laughs = dict(parts)
    sheet = laughs["xl/worksheets/sheet1.xml"].decode()
    laughs["xl/worksheets/sheet1.xml"] = of.BILLION_LAUGHS + sheet[sheet.index("<worksheet"):]
    assert "declares XML entities" in _refusal(of._package(tmp_path / "risos.xlsx", laughs))


def test_not_a_spreadsheet(tmp_path: Path) -> None:
    (tmp_path / "velho.xlsx").write_bytes(b"\xd0\xcf\x11\xe0 an OLE file (old .xls or encrypted)")
    assert "not a readable spreadsheet" in _refusal(tmp_path / "velho.xlsx")
    broken = tmp_path / "quebrado.csv"
    broken.write_bytes(b"a,b\n" + b'"' + b"x" * 200_000 + b'"\n')
    assert "not a readable CSV file" in _refusal(broken)


# ---- slides ------------------------------------------------------------------------------------
def test_pptx_slides_in_order_with_titles_tables_and_notes(tmp_path: Path) -> None:
    path = of.pptx(tmp_path / "deck.pptx", [
        {"title": "Abertura", "body": ["Primeiro ponto", "Segundo ponto"],
         "notes": ["Lembrar do prazo de trinta dias"]},
        {"title": "Números", "table": [["Ano", "Total"], ["2023", "1.200"]]},
        {"body": ["Slide sem título"]},
    ], title="Relatório trimestral")
    document = load_document(path)
    assert (document.file_type, document.title) == ("pptx", "Relatório trimestral")
    assert [p.number for p in document.pages] == [1, 2, 3]
    first, second, third = (p.text for p in document.pages)
    assert first == ("Abertura\n\nPrimeiro ponto\nSegundo ponto\n\nSpeaker notes\n\n"
                     "Lembrar do prazo de trinta dias")
    assert second == "Números\n\nAno | Total\n2023 | 1.200"
    assert third == "Slide sem título"  # slide numbers from the master are left out
    notes_chunk = next(c for c in chunk_document(document, "d") if "prazo" in c.text)
    assert notes_chunk.page_start == 1  # a citation names the slide


@pytest.mark.slow  # over a second: the full tier only
def test_pptx_nested_too_deep_or_crowded_is_refused(tmp_path: Path) -> None:
    deep = ('<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">'
            + "<p:grpSp>" * 400 + "</p:grpSp>" * 400 + "</p:sld>")
    path = of.pptx(tmp_path / "fundo.pptx", [{"title": "x"}], slide_xml={1: deep})
    assert "nests XML elements more than" in _refusal(path)
    crowded = ('<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">'
               + "<p:x/>" * (limits.MAX_XML_ELEMENTS + 10) + "</p:sld>")
    path = of.pptx(tmp_path / "cheio.pptx", [{"title": "x"}], slide_xml={1: crowded})
    assert "XML elements" in _refusal(path)


# ---- e-books -----------------------------------------------------------------------------------
def test_epub_pages_and_chapter_headings(tmp_path: Path) -> None:
    long_text = "O vento soprava sobre o campo enquanto a tarde caía devagar. " * 60
    path = of.epub(tmp_path / "livro.epub", [("Capítulo um", [long_text]),
                                             ("Capítulo dois", ["O fim da história."])],
                   title="Histórias do campo")
    document = load_document(path)
    assert (document.file_type, document.title) == ("epub", "Histórias do campo")
    assert len(document.pages) >= 3  # the first chapter fills more than one A5 page
    headings = [h.title for p in document.pages for h in p.headings]
    assert headings == ["Capítulo um", "Capítulo dois"]
    last = document.pages[-1]
    assert last.headings[0].title == "Capítulo dois" and "O fim da história." in last.text


def test_epub_with_drm_entities_or_bombs_is_refused(tmp_path: Path) -> None:
    drm = ('<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
           'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
           '<enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>'
           '<enc:CipherData><enc:CipherReference URI="OEBPS/ch1.xhtml"/></enc:CipherData>'
           "</enc:EncryptedData></encryption>")
    path = of.epub(tmp_path / "drm.epub", [("Um", ["texto"])],
                   extra={"META-INF/encryption.xml": drm})
    assert "DRM" in _refusal(path)
    laughs = of.BILLION_LAUGHS + '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'
    path = of.epub(tmp_path / "risos.epub", [("Um", ["texto"])],
                   extra={"OEBPS/ch1.xhtml": laughs})
    assert "declares XML entities" in _refusal(path)
    deep = ('<html xmlns="http://www.w3.org/1999/xhtml"><body>' + "<div>" * 5000 + "x"
            + "</div>" * 5000 + "</body></html>")
    path = of.epub(tmp_path / "fundo.epub", [("Um", ["texto"])], extra={"OEBPS/ch1.xhtml": deep})
    assert "nests XML elements" in _refusal(path)


# ---- e-mail ------------------------------------------------------------------------------------
def test_eml_headers_body_and_attachments(tmp_path: Path) -> None:
    message = of.email_message(
        "Contrato de locação", "Segue a minuta revisada.\nAbraços,\nAna",
        attachments=[("minuta.txt", "Cláusula 1. O prazo é de 30 meses.".encode(), "text/plain"),
                     ("fotos.zip", b"PK\x03\x04", "application/zip")])
    document = load_document(of.eml(tmp_path / "contrato.eml", message))
    assert (document.file_type, document.title) == ("eml", "Contrato de locação")
    text = document.pages[0].text
    assert text.startswith("Contrato de locação\n\nFrom: Ana Souza <ana@example.org>\n"
                           "To: Bia Lima <bia@example.org>\nDate: Tue, 05 Mar 2024")
    assert text.endswith("Segue a minuta revisada.\nAbraços,\nAna")
    assert [(a.name, a.page) for a in document.attachments] == [("minuta.txt", 1)]
    assert document.attachments[0].read().decode() == "Cláusula 1. O prazo é de 30 meses."
    assert document.notes == ["attachments of types Acervo does not read were not indexed "
                              "(.zip)"]


def test_html_only_mail_and_a_forwarded_message(tmp_path: Path) -> None:
    inner = of.email_message("Pedido original", "Preciso do parecer até sexta.")
    outer = of.email_message("Fwd: Pedido original", "Veja abaixo.",
                             html="<p>Veja <b>abaixo</b>.</p><script>x()</script>")
    outer.add_attachment(inner)
    document = load_document(of.eml(tmp_path / "fwd.eml", outer))
    assert "Veja abaixo." in document.pages[0].text and "x()" not in document.pages[0].text
    (forwarded,) = document.attachments
    assert forwarded.name == "Pedido original.eml"
    assert b"Preciso do parecer" in forwarded.read()


def test_mbox_one_page_per_message_and_the_message_limit(tmp_path: Path) -> None:
    messages = [of.email_message(f"Assunto {i}", f"Corpo da mensagem número {i}.")
                for i in range(1, 6)]
    messages[2] = of.email_message("Com anexo", "Ver o anexo.",
                                   attachments=[("nota.md", b"# Nota\n\nconteudo", "text/markdown")])
    path = of.mbox(tmp_path / "caixa.mbox", messages)
    document = load_document(path)
    assert [p.headings[0].title for p in document.pages] == [
        "Assunto 1", "Assunto 2", "Com anexo", "Assunto 4", "Assunto 5"]
    (attachment,) = document.attachments
    assert (attachment.name, attachment.page) == ("nota.md", 3)
    assert attachment.origin == "“Com anexo”, message 3"
    assert attachment.read() == b"# Nota\n\nconteudo"
    capped = load_document(path, max_pages=2)
    assert len(capped.pages) == 2
    assert capped.notes[0].startswith("only the first 2 of 5 messages were read")


@pytest.mark.slow  # over a second: the full tier only
def test_not_a_mailbox_and_deeply_nested_mail(tmp_path: Path) -> None:
    (tmp_path / "falso.mbox").write_text("isto não é uma caixa de correio", encoding="utf-8")
    assert "not a mailbox" in _refusal(tmp_path / "falso.mbox")
    path = tmp_path / "aninhado.eml"
    nested = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n'
                     for i in range(3000))
    path.write_text(f"From: a@b.c\nSubject: fundo\nMIME-Version: 1.0\n{nested}x\n",
                    encoding="utf-8")
    assert "nests its parts too deep" in _refusal(path)
    # in a mailbox the same message is one unreadable page, the others are kept
    box = of.mbox(tmp_path / "caixa.mbox", [of.email_message("Boa", "Mensagem legível.")])
    with box.open("a", encoding="utf-8") as fh:
        fh.write("\nFrom x@y Mon Jan  1 00:00:00 2024\n" + path.read_text(encoding="utf-8"))
    document = load_document(box)
    assert [p.text[:3] for p in document.pages] == ["Boa", ""]
    assert document.notes == ["could not read message 2 (damaged)"]


# ---- ODT ---------------------------------------------------------------------------------------
def test_odt_headings_lists_tables_notes_and_struck_text(tmp_path: Path) -> None:
    body = ('<text:h text:outline-level="1">Regimento</text:h>'
            '<text:h text:outline-level="2">Art. 1º</text:h>'
            '<text:p>O prazo é de <text:span text:style-name="T1">dez</text:span> trinta dias'
            '<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation>'
            "<text:note-body><text:p>Redação de 2023.</text:p></text:note-body></text:note>."
            "</text:p><text:list><text:list-item><text:p>primeiro item</text:p></text:list-item>"
            "<text:list-item><text:p>segundo<text:s text:c=\"2\"/>item</text:p></text:list-item>"
            '</text:list><table:table table:name="T"><table:table-row>'
            "<table:table-cell><text:p>Prazo</text:p></table:table-cell>"
            "<table:table-cell><text:p>30</text:p></table:table-cell></table:table-row>"
            "</table:table><text:tracked-changes><text:changed-region><text:deletion>"
            "<text:p>apagado</text:p></text:deletion></text:changed-region></text:tracked-changes>")
    document = load_document(of.odt(tmp_path / "regimento.odt", body))
    page = document.pages[0]
    assert (document.file_type, document.title) == ("odt", "Regimento")
    assert page.text == ("Regimento\n\nArt. 1º\n\nO prazo é de dez trinta dias.\n\n"
                         "Redação de 2023.\n\nprimeiro item\n\nsegundo item\n\nPrazo | 30")
    assert [(h.level, h.title) for h in page.headings] == [(1, "Regimento"), (2, "Art. 1º")]
    assert [page.text[a:b] for a, b in page.revoked] == ["dez"]


def test_an_odt_tables_header_over_two_rows_is_one_row(tmp_path: Path) -> None:
    spanned = ('<table:table-cell table:number-rows-spanned="2"><text:p>Fase</text:p>'
               '</table:table-cell><table:table-cell table:number-columns-spanned="2">'
               "<text:p>Custo (R$)</text:p></table:table-cell><table:covered-table-cell/>")
    body = ('<table:table table:name="T">'
            f"<table:table-row>{spanned}</table:table-row>"
            "<table:table-row><table:covered-table-cell/>"
            + of.ods_cell("Previsto") + of.ods_cell("Realizado") + "</table:table-row>"
            + of.ods_row(["Piloto", "10.000", "12.500"]) + "</table:table>")
    page = load_document(of.odt(tmp_path / "custos.odt", body)).pages[0]
    assert page.text == ("Fase | Custo (R$) Previsto | Custo (R$) Realizado\n"
                         "Piloto | 10.000 | 12.500")


@pytest.mark.slow  # over a second: the full tier only
def test_odt_hostile_packages_are_refused(tmp_path: Path) -> None:
    assert "nests XML elements" in _refusal(
        of.odt(tmp_path / "fundo.odt", f"<text:p>{of.deep_xml(1000)}</text:p>"))
    laughs = tmp_path / "risos.odt"
    of.odt(laughs, "<text:p>&lol3;</text:p>")
    with zipfile.ZipFile(laughs) as archive:
        parts = {n: archive.read(n) for n in archive.namelist() if n != "mimetype"}
    content = parts["content.xml"].decode()
    parts["content.xml"] = of.BILLION_LAUGHS + content[content.index("<office:document"):]
    of._package(laughs, parts, mimetype="application/vnd.oasis.opendocument.text")
    assert "declares XML entities" in _refusal(laughs)
    bomb = of.zip_bomb(tmp_path / "bomba.odt", {"content.xml": "<x/>"},
                       member="Pictures/blob.bin", megabytes=600,
                       mimetype="application/vnd.oasis.opendocument.text")
    assert "unpacks to" in _refusal(bomb)
    (tmp_path / "falso.odt").write_bytes(b"not a zip")
    assert "not a readable OpenDocument text" in _refusal(tmp_path / "falso.odt")
