"""Document structure (text/structure.py): the units an analyst cites, on small texts and on
the real LGPD and LDB."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.text.structure import (
    ARTICLE,
    DIVISION,
    ITEM,
    LETTER,
    PARAGRAPH,
    SECTION,
    is_empty_unit,
    note_spans,
    parse_structure,
    roman,
)

LAW = """CAPÍTULO III
DOS DIREITOS DO TITULAR

Art. 18. O titular tem direito a obter do controlador:

I - confirmação da existência de tratamento;

II - acesso aos dados;

III - (VETADO);

IV - portabilidade dos dados:

a) a outro fornecedor;

b) mediante requisição expressa.

§ 1º O titular pode peticionar (Redação dada pela Lei nº 13.853, de 2019) Vigência contra o controlador.

§ 2º O titular pode opor-se ao tratamento.

Parágrafo único. Não se aplica.

Art. 19. A confirmação será providenciada:

I - em formato simplificado;

II - no prazo de até 15 (quinze) dias.
"""


def _node(structure, label):  # type: ignore[no-untyped-def]
    return next(n for n in structure.nodes if structure.label(n) == label)


def test_the_hierarchy_of_a_law_with_cited_paths() -> None:
    s = parse_structure(LAW)
    labels = [s.label(n) for n in s.nodes if n.kind != DIVISION]
    assert labels == ["Art. 18", "Art. 18, I", "Art. 18, II", "Art. 18, III", "Art. 18, IV",
                      "Art. 18, IV, a", "Art. 18, IV, b", "Art. 18, § 1º", "Art. 18, § 2º",
                      "Art. 19", "Art. 19, I", "Art. 19, II"]
    chapter = s.nodes[0]
    assert (chapter.kind, chapter.label, chapter.title) == (
        DIVISION, "CAPÍTULO III", "DOS DIREITOS DO TITULAR")
    art18 = _node(s, "Art. 18")
    assert s.headings(art18) == ["CAPÍTULO III DOS DIREITOS DO TITULAR"]
    assert LAW[art18.text_start:art18.body_end].strip() == (
        "O titular tem direito a obter do controlador:")
    assert [s.label(n) for n in s.list_items(art18)] == [
        "Art. 18, I", "Art. 18, II", "Art. 18, III", "Art. 18, IV"]  # not its paragraphs
    assert [n.kind for n in s.list_items(_node(s, "Art. 18, IV"))] == [LETTER, LETTER]
    assert s.at(LAW.index("15 (quinze)")) == _node(s, "Art. 19, II")
    assert s.label(s.at(LAW.index("opor-se"))) == "Art. 18, § 2º"


def test_a_paragrafo_unico_after_numbered_paragraphs_is_text_and_notes_are_metadata() -> None:
    s = parse_structure(LAW)
    assert not any(n.label == "Parágrafo único" for n in s.nodes)  # § 1º, § 2º came first
    p1 = _node(s, "Art. 18, § 1º")
    body = LAW[p1.text_start:p1.body_end]
    notes = [body[a:b] for a, b in note_spans(body)]
    assert notes == ["(Redação dada pela Lei nº 13.853, de 2019) Vigência"]
    vetoed = _node(s, "Art. 18, III")
    assert is_empty_unit(LAW[vetoed.text_start:vetoed.body_end])
    assert not is_empty_unit(body)


def test_an_amendment_note_wrapped_over_two_lines_is_one_note() -> None:
    """A printed law wraps a long caput, and its note with it: "atendidos os seguintes
    princípios: (Redação dada pela Lei nº 9.008, de" / "21.3.1995)" (the consumer code's
    art. 4º). Before, the note stayed in the quoted caput, and its date read as a date the
    article states."""
    body = ("Art. 4º A Política Nacional das Relações de Consumo tem por objetivo o atendimento\n"
            "das necessidades dos consumidores, atendidos os seguintes princípios: (Redação\n"
            "dada pela Lei nº 9.008, de 21.3.1995)\nI - reconhecimento da vulnerabilidade;\n"
            "II - (Vetado);\nIII - ação governamental (art. 170, da Constituição Federal);")
    notes = [body[a:b] for a, b in note_spans(body)]
    assert notes == ["(Redação\ndada pela Lei nº 9.008, de 21.3.1995)", "(Vetado)"]


def test_numbers_out_of_order_stay_text() -> None:
    text = ("Art. 60. A Lei nº 12.965 passa a vigorar com as seguintes alterações:\n\n"
            "“Art. 7º X - exclusão definitiva dos dados;\n\n"
            "I - texto citado” (NR)\n\n"
            "Art. 61. A empresa estrangeira será notificada.\n\n"
            "Art. 5º Esta lei revoga a anterior.\n\n"
            "V - um inciso sem I antes.\n")
    s = parse_structure(text)
    assert [s.label(n) for n in s.nodes] == ["Art. 60", "Art. 61"]
    assert s.nodes[1].end == len(text)  # the late "Art. 5º" and "V -" are its text


def test_a_repeated_number_is_a_new_wording_of_the_same_unit() -> None:
    text = ("Art. 20. O titular pode pedir revisão.\n\n"
            "Art. 20. O titular dos dados tem direito a solicitar a revisão.\n\n"
            "I - primeiro;\n\nI - primeiro, na nova redação;\n\nII - segundo.\n")
    s = parse_structure(text)
    assert [s.label(n) for n in s.nodes] == ["Art. 20", "Art. 20", "Art. 20, I", "Art. 20, I",
                                             "Art. 20, II"]


def test_items_promulgated_after_their_veto_are_items_again() -> None:
    # compiled laws print vetoed items, then the same numbers promulgated later (LGPD art. 52)
    text = ("Art. 52. Os agentes ficam sujeitos às seguintes sanções:\n\n"
            "I - advertência;\n\nII - multa simple;\n\n"
            "III - (VETADO);\n\nIV - (VETADO).   (Incluído pela Lei nº 13.853, de 2019)\n\n"
            "III - suspensão parcial do funcionamento do banco de dados;\n\n"
            "IV - proibição parcial ou total.\n\n"
            "II - uma segunda multa, fora de ordem.\n")
    s = parse_structure(text)
    assert [s.label(n) for n in s.nodes] == ["Art. 52", "Art. 52, I", "Art. 52, II",
                                             "Art. 52, III", "Art. 52, IV", "Art. 52, III",
                                             "Art. 52, IV"]
    assert "II - uma segunda multa" in text[s.nodes[-1].start:s.nodes[-1].end]  # II: text


def test_numbered_sections_and_clauses_of_reports_and_contracts() -> None:
    text = ("1 Introdução\n\nEste relatório trata do tema.\n\n"
            "1.1 Objetivo\n\nO objetivo é medir.\n\n"
            "2. Metodologia\n\nUsamos três etapas.\n\n"
            "2.1 Coleta de dados em campo.\n\n"
            "3. O resultado foi bom, com muitos detalhes e ponto final.\n")
    s = parse_structure(text)
    assert [(n.kind, n.label, s.label(n)) for n in s.nodes] == [
        (SECTION, "1", "1"), (SECTION, "1.1", "1, 1.1"), (SECTION, "2", "2"),
        (SECTION, "2.1", "2, 2.1")]
    assert s.nodes[1].title == "Objetivo"
    contract = parse_structure("CLÁUSULA PRIMEIRA – DO OBJETO\n\nO objeto é X.\n\n"
                               "CLÁUSULA SEGUNDA – DO PRAZO\n\n2.1 O prazo é de 12 meses.\n")
    assert [(n.label, n.title) for n in contract.nodes][:2] == [
        ("Cláusula PRIMEIRA", "DO OBJETO"), ("Cláusula SEGUNDA", "DO PRAZO")]
    assert contract.label(contract.at(contract.text.index("12 meses"))) == \
        "Cláusula SEGUNDA, 2.1"


def test_plain_prose_has_no_structure() -> None:
    s = parse_structure("A fotossíntese ocorre nas folhas.\n\nI - nada aqui é inciso.\n")
    assert not s and not s.is_legal


def test_roman_numerals() -> None:
    assert [roman(r) for r in ("I", "IV", "IX", "XIV", "XIX", "XL", "Q")] == [
        1, 4, 9, 14, 19, 40, 0]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "articles", "sample"), [
    ("lgpd.pdf", 64, ("Art. 18", 9)), ("ldb.pdf", 92, ("Art. 3º", 12))])
def test_real_laws(eval_dir: Path, name: str, articles: int,
                   sample: tuple[str, int]) -> None:
    from desktop_app.ingest.pdf import load_pdf

    doc = load_pdf(eval_dir / "pdfs" / "pt" / name)
    s = parse_structure("\n\n".join(p.text for p in doc.pages))
    numbers = {n.key[0] for n in s.nodes if n.kind == ARTICLE}
    # every article, none cited or quoted (the LGPD text layer reads its vetoed art. 57 as
    # "Art. 5 7.")
    assert s.is_legal and len(numbers) == articles
    label, count = sample
    article = next(n for n in s.nodes if s.label(n) == label)
    items = {s.label(n) for n in s.list_items(article)}
    assert len(items) == count and all(n.kind == ITEM for n in s.list_items(article))
    assert all(n.kind in (ARTICLE, PARAGRAPH, ITEM, LETTER, DIVISION, "subitem")
               for n in s.nodes)


def test_footnotes_citations_and_running_titles_are_not_sections() -> None:
    # a proposed rule's first lines, a footnote and a page footer with the running title
    # (federal-register-2020-17221.pdf, redp5110_sampled.pdf read as text)
    text = ("14 CFR Part 39\n\n[Docket No. FAA-2020-0686]\n\nThe FAA proposes a rule.\n\n"
            "12 The magnitude of the command varies\n\naccording to the airspeed.\n\n")
    assert not parse_structure(text)
    report = ("1.1 Security fundamentals\n\nBefore reviewing security.\n\n"
              "2 Row and Column Access Control Support\n\n"
              "1.2 Current state of security\n\nBecause of it.\n\n"
              "4 Row and Column Access Control Support\n\n"
              "2.1 Roles\n\nRoles are many.\n\n"
              "10 Row and Column Access Control Support\n\n"
              "3 Results\n\nThey are good.\n")
    s = parse_structure(report)
    assert [n.label for n in s.nodes] == ["1.1", "1.2", "2.1", "3"]
    # a lone numbered line is no outline; a table of contents, then the body, is
    assert not parse_structure("Intro text.\n\n1 Preliminary Accident Report\n\nMore text.\n")
    toc = parse_structure("1 Introdução 3\n\n2 Método 5\n\n1 Introdução\n\nTexto.\n\n"
                          "2 Método\n\nMais texto.\n")
    assert [n.label for n in toc.nodes] == ["1", "2", "1", "2"]


def test_a_table_of_contents_is_no_outline_and_lends_none_to_the_front_matter() -> None:
    # a report's contents page (bncc.pdf: two columns read line by line, entries wrapped
    # over lines), its preface, then the body: the preface is under no section, and the
    # outline is the body's
    text = ("SUMÁRIO\n\nApresentação 5\n\n4.1.1. Língua Portuguesa 65\n\n1. INTRODUÇÃO 7\n\n"
            "4.1.1.1. Língua Portuguesa no Ensino Fundamental – Anos Iniciais:\n\n"
            "práticas de linguagem, objetos\n\nde conhecimento e habilidades 87\n\n"
            "2. ESTRUTURA DA BNCC 23\n\n4.5.1.2. Ensino Religioso no Ensino\n\n"
            "Fundamental – Anos Finais 441\n\n"
            "APRESENTAÇÃO\n\nAo homologar a Base, o Brasil inicia uma nova era.\n\n"
            "1. INTRODUÇÃO\n\nA Base é um documento normativo.\n\n"
            "2. ESTRUTURA DA BNCC\n\nA estrutura tem três etapas.\n\n"
            "2.1. Competências gerais\n\nDez competências.\n")
    s = parse_structure(text)
    assert [s.label(n) for n in s.nodes] == ["1", "2", "2, 2.1"]
    assert s.label(s.at(text.index("Ao homologar"))) == ""
    assert s.at(text.index("Língua Portuguesa 65")) is None
    # a section over a few lines that end on numbers (a small table) is still a section
    table = parse_structure("1. Produção\n\nSoja 120\n\nMilho 98\n\nTrigo 45\n\n"
                            "2. Exportação\n\nCresceu muito.\n")
    assert [n.label for n in table.nodes] == ["1", "2"]


def test_a_second_series_of_articles_under_its_own_heading() -> None:
    # a constitution's transitional provisions (ADCT) and a decree's annex number their
    # articles from 1 again: neither text of the last article nor the first articles again
    text = ("Art. 249. Com o objetivo de assegurar recursos, a União poderá constituir "
            "fundos.\n\nArt. 250. A União poderá constituir fundo integrado.\n\n"
            "Brasília, 5 de outubro de 1988.\n\n"
            "ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS\n\n"
            "Art. 1º O Presidente da República prestará o compromisso.\n\n"
            "Art. 2º O eleitorado definirá, através de plebiscito:\n\n"
            "I - a forma de governo;\n\nII - o sistema de governo.\n\n"
            "ANEXO I\n\nArt. 1º Primeiro artigo do anexo.\n")
    s = parse_structure(text)
    labels = [s.label(n) for n in s.nodes if n.legal]
    assert labels == ["Art. 249", "Art. 250", "ADCT Art. 1º", "ADCT Art. 2º", "ADCT Art. 2º, I",
                      "ADCT Art. 2º, II", "Anexo I Art. 1º"]
    item = s.at(text.index("o sistema de governo"))
    assert s.headings(item) == ["ADCT ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS"]
    last = next(n for n in s.nodes if s.label(n) == "Art. 250")
    assert "ATO DAS" not in text[last.start:last.end]
    # an article cited out of order, with no heading of its own, stays text
    cited = parse_structure("Art. 5º Texto.\n\nArt. 6º Outro texto.\n\nArt. 1º citado.\n")
    assert [n.label for n in cited.nodes] == ["Art. 5º", "Art. 6º"]


def test_a_quoted_article_ends_where_the_report_goes_on_in_its_own_words() -> None:
    # the BNCC quotes the LDB's art. 36 and goes on: its own words, and its outline after
    # them, are not the article's (before, art. 36 held the rest of a 470-page document)
    text = ("1. INTRODUÇÃO\n\nA lei passa a utilizar duas nomenclaturas:\n\n"
            "Art. 35-A. A Base definirá direitos e objetivos de aprendizagem,\n\n"
            "nas seguintes áreas do conhecimento [...]\n\n"
            "Art. 36. § 1º A organização das áreas de que trata o caput\n\n"
            "será feita de acordo com critérios (BRASIL, 2017).\n\n"
            "Trata-se, portanto, de maneiras diferentes de designar algo comum.\n\n"
            "2. ESTRUTURA DA BNCC\n\nEm conformidade com os fundamentos.\n")
    s = parse_structure(text)
    article = next(n for n in s.nodes if n.label == "Art. 36")
    assert text[article.start:article.end].rstrip().endswith("(BRASIL, 2017).")
    assert [n.label for n in s.nodes if n.kind == SECTION] == ["1", "2"]
    # a law's signatures are not its last article's words; a caput broken by a page, with
    # the article's paragraph after it, stays whole
    law = ("Art. 64. Esta Lei entra em vigor na data de sua publicação.\n\n"
           "Art. 65. O controlador responderá.\n\nO disposto aqui vale também.\n\n"
           "§ 1º O prazo é de quinze dias.\n\n"
           "Brasília, 14 de agosto de 2018.\n\nMICHEL TEMER\n")
    s = parse_structure(law)
    last = next(n for n in s.nodes if n.label == "Art. 65")
    assert [s.label(n) for n in s.nodes] == ["Art. 64", "Art. 65", "Art. 65, § 1º"]
    assert "MICHEL TEMER" not in law[last.start:last.end]
    # its closing line ends it even when a second series of articles follows (a
    # constitution's ADCT, whose paragraphs are within reach)
    constitution = ("Art. 37. A administração pública obedecerá ao seguinte:\n\n"
                    "I - a investidura depende de aprovação em concurso;\n\n"
                    "II - o prazo de validade do concurso será de até dois anos;\n\n"
                    "§ 1º A não observância do disposto no inciso II implicará a nulidade.\n\n"
                    "Brasília, 5 de outubro de 1988.\n\n"
                    "ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS\n\n"
                    "Art. 1º O Presidente prestará o compromisso.\n\n"
                    "Art. 2º No dia 7 de setembro de 1993 o eleitorado definirá a forma.\n\n"
                    "§ 1º Será assegurada gratuidade na livre divulgação.\n")
    s = parse_structure(constitution)
    last = next(n for n in s.nodes if s.label(n) == "Art. 37, § 1º")
    assert constitution[last.start:last.end].rstrip().endswith("implicará a nulidade."), \
        constitution[last.start:last.end]
    assert "ADCT Art. 2º, § 1º" in [s.label(n) for n in s.nodes]


def test_a_letter_is_part_of_a_number_only_when_written_on_to_it() -> None:
    """Older codes print "Art. 2º - A lei posterior…": art. 2º saying "A lei…", not an
    article 2º-A (nor "Art. 3º - O resultado…" an article 3º-O, after which the real art.
    3º-A would be out of order); "§ 1º-A" and "Art. 3º-A" are units of their own."""
    text = "\n".join([
        "Art. 1º - Não há crime sem lei anterior que o defina.",
        "Art. 2º - A lei posterior aplica-se aos fatos anteriores.",
        "Parágrafo único - A lei posterior, que de qualquer modo favorecer o agente.",
        "Art. 3º - O resultado depende da ação.",
        "§ 1º - O prazo é de dez dias.",
        "§ 1º-A O controlador responderá em 15 dias.",
        "§ 2º Cabe recurso.",
        "Art. 3º-A. Aplica-se também aos dados anonimizados.",
    ])
    structure = parse_structure(text)
    found = [(structure.label(n), text[n.text_start:n.body_end].split()[0])
             for n in structure.nodes]
    assert found == [("Art. 1º", "Não"), ("Art. 2º", "A"), ("Art. 2º, parágrafo único", "A"),
                     ("Art. 3º", "O"), ("Art. 3º, § 1º", "O"), ("Art. 3º, § 1º-A", "O"),
                     ("Art. 3º, § 2º", "Cabe"), ("Art. 3º-A", "Aplica-se")]


CODE = """CAPÍTULO I
DOS CRIMES CONTRA A VIDA
Homicídio simples
Art. 121. Matar alguém:
Pena - reclusão, de seis a vinte anos.
Caso de diminuição de pena
§ 1º Se o agente comete o crime impelido por motivo de relevante valor social ou moral, o
juiz pode reduzir a pena de um sexto a um terço.
Homicídio qualificado
§ 2º Se o homicídio é cometido:
I - mediante paga ou promessa de recompensa, ou por outro motivo torpe;
II - por motivo fútil;
Pena - reclusão, de doze a trinta anos.
Induzimento ao suicídio
Art. 122 - Induzir ou instigar alguém a suicidar-se:
Pena - reclusão, de seis meses a dois anos.
"""


def test_a_codes_rubric_names_the_unit_below_it_and_is_no_word_of_the_one_above() -> None:
    """A penal code prints a short line over an article or § ("Homicídio qualificado" over
    § 2º): it is that unit's title, not the end of the unit before it, and not prose that
    ends the law (art. 122 would then be a unit of nothing)."""
    structure = parse_structure(CODE)
    units = {structure.label(n): n for n in structure.nodes if n.legal}
    assert list(units) == ["Art. 121", "Art. 121, § 1º", "Art. 121, § 2º", "Art. 121, § 2º, I",
                           "Art. 121, § 2º, II", "Art. 122"]
    own = {label: CODE[n.text_start:n.body_end].strip() for label, n in units.items()}
    assert own["Art. 121"] == "Matar alguém:\nPena - reclusão, de seis a vinte anos."
    assert own["Art. 121, § 1º"].endswith("de um sexto a um terço.")
    assert own["Art. 121, § 2º, II"] == "por motivo fútil;\nPena - reclusão, de doze a trinta anos."
    assert [units[label].title for label in ("Art. 121", "Art. 121, § 1º", "Art. 121, § 2º",
                                             "Art. 122")] == [
        "", "Caso de diminuição de pena", "Homicídio qualificado", "Induzimento ao suicídio"]
    assert units["Art. 122"].parent == units["Art. 121"].parent  # both in the chapter
    # (the line right under the chapter's title stays the chapter's: it may be the title
    # wrapped, "Da Organização da Educação / Nacional")
    chapter = structure.nodes[units["Art. 121"].parent]
    assert chapter.title == "DOS CRIMES CONTRA A VIDA"


def test_an_ordinal_written_after_a_full_stop_is_part_of_the_number() -> None:
    """Portugal's laws print "Artigo 1.º": art. 1º, whose text does not open with "º"."""
    text = "Artigo 1.º\nObjeto\nA presente lei estabelece o regime.\nArtigo 2.º Definições"
    structure = parse_structure(text)
    assert [(structure.label(n), text[n.text_start:n.body_end].split()[0])
            for n in structure.nodes] == [("Art. 1º", "Objeto"), ("Art. 2º", "Definições")]


def test_a_link_an_official_site_prints_on_its_own_line_is_no_rubric() -> None:
    text = ("Art. 1º Esta Lei dispõe sobre dados. (Redação dada pela Lei nº 1, de 2020)\n"
            "Vigência\nArt. 2º Outro artigo.\nProdução de efeitos\nArt. 3º Mais um.\n")
    assert [n.title for n in parse_structure(text).nodes] == ["", "", ""]


def test_a_chapter_title_wrapped_over_two_lines_is_no_rubric() -> None:
    text = "TÍTULO IV\nDa Organização da Educação\nNacional\nArt. 8º A União organizará o sistema."
    article = parse_structure(text).nodes[1]
    assert article.label == "Art. 8º" and article.title == ""
