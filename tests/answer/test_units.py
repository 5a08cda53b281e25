"""Answer units of structured documents (answer/units.py): a law's caput with its whole list
across chunks, a § or inciso under its article, notes out of the words, vetoed and struck
units never quoted; a contract's sentence under its clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.answer.units import (
    holding_list,
    list_folds,
    named_units,
    search_units,
    show,
    units_near,
)
from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.retrieval.doc_text import DocumentText
from desktop_app.retrieval.index_api import DocumentRecord, chunk_row
from desktop_app.retrieval.types import Hit

ITEMS = [f"{r} - item número {n} da lista;" for n, r in enumerate(
    ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII"], start=1)]
LAW = "\n\n".join([
    "CAPÍTULO I\nDAS REGRAS",
    "Art. 1º Esta lei trata de regras. (Redação dada pela Lei nº 1, de 2020) Vigência",
    "Art. 2º São direitos do cidadão: (Incluído pela Lei nº 2, de 2021)",
    *ITEMS,
    "XVIII - (VETADO);",
    "Parágrafo único. O prazo de resposta é de 15 (quinze) dias.",
    "Art. 3º Revoga-se o que for contrário.",
])
RECORD = DocumentRecord("law", "lei", "/x/lei.txt", "txt", "pt", 1, "h", 1, 1, "a", "b", "e")


def _document(text: str, revoked: list[tuple[int, int]] | None = None,
              max_chars: int = 300) -> DocumentText:
    page = PageText(1, text, revoked=revoked or [])
    chunks = chunk_document(LoadedDocument("/x/lei.txt", "txt", "lei", [page]), "law",
                            max_chars=max_chars)
    return DocumentText([chunk_row(RECORD, c) for c in chunks])


def _hit(doc: DocumentText, words: str) -> Hit:
    row = next(r for r in doc.rows if words in r.text)
    return Hit(row.chunk_id, row.doc_id, row.position, row.text, row.prefix, row.title,
               row.source_path, row.file_type, row.language, row.page_start, row.page_end,
               row.char_start, row.char_end, row.heading_path, 1.0, revoked=row.revoked,
               path=row.path)


def test_a_list_comes_whole_from_any_chunk_it_touches() -> None:
    doc = _document(LAW)
    assert len(doc.rows) > 3  # the list runs over several chunks
    units = units_near(doc, _hit(doc, "item número 9 "))
    assert units is not None
    article = next(u for u in units if u.label == "Art. 2º" and u.kind == "list")
    lines = show(article).split("\n")
    assert lines[0] == "Art. 2º São direitos do cidadão:"  # the note is not a word of it
    assert article.notes == ("(Incluído pela Lei nº 2, de 2021)",)
    assert lines[1:] == ITEMS  # all 17: the window folds it (list_folds), the text does not
    assert list_folds(lines) == [(16, 18)]  # I–XV in view, XVI and XVII behind "show all"
    assert article.items == 17 and "VETADO" not in show(article)
    assert article.hit.text.startswith("Art. 2º") and "XVII - item" in article.hit.text
    item = next(u for u in units if u.label == "Art. 2º, IX" and u.kind == "provision")
    assert show(item) == f"Art. 2º São direitos do cidadão:\n…\n{ITEMS[8]}"  # its lead
    assert item.article == "Art. 2º" and item.hit.text == ITEMS[8]


def test_a_vetoed_item_inside_a_list_is_shown_as_printed() -> None:
    # "IV, VI" would read as a lost line: the law prints "V – (vetado);" between them
    law = ("Art. 26. § 3º A prática é facultativa ao aluno:\n\nI – que trabalhe;\n\n"
           "II – maior de trinta anos;\n\nIII – (vetado);\n\nIV – (VETADO);\n\n"
           "V – que tenha prole.\n\nVI – (Revogado).\n\nArt. 27. Outra regra.")
    doc = _document(law)
    units = units_near(doc, _hit(doc, "prole")) or []
    whole = next(u for u in units if u.kind == "list" and "facultativa" in u.lines[0])
    assert whole.lines[1:] == ("I – que trabalhe;", "II – maior de trinta anos;",
                               "III – (vetado);", "IV – (VETADO);", "V – que tenha prole.")
    # (the revoked VI, at the end, fills no gap) — and a note alone is never a candidate
    assert not any(u.kind == "provision" and "vetado" in u.lines[-1].lower() for u in units)


def test_an_item_found_alone_gives_the_whole_list_that_holds_it() -> None:
    # an English question finds art. 44's line III by a cognate ("programmes"): the passages
    # hold the item alone, and a question asking for several things wants its list
    doc = _document(LAW)
    found = search_units(doc, _hit(doc, "Art. 1º"), "número 12", limit=1)
    item = next(u for u in found if u.label == "Art. 2º, XII")
    whole = holding_list(doc, item)
    assert whole is not None and whole.label == "Art. 2º" and whole.kind == "list"
    assert show(whole).split("\n")[1:] == ITEMS
    article = next(u for u in units_near(doc, _hit(doc, "Art. 1º")) or []
                   if u.label == "Art. 1º")
    assert holding_list(doc, article) is None  # an article is held by no list


def test_a_paragraph_is_shown_under_its_article_and_found_by_the_law_search() -> None:
    doc = _document(LAW)
    found = search_units(doc, _hit(doc, "Art. 1º"), "prazo de resposta dias", limit=2)
    sole = next(u for u in found if u.label == "Art. 2º, parágrafo único")
    assert show(sole) == "Art. 2º › Parágrafo único. O prazo de resposta é de 15 (quinze) dias."


def test_struck_units_are_never_candidates() -> None:
    text = LAW.replace("Art. 3º Revoga-se", "Art. 3º O texto antigo.\n\nArt. 3º Revoga-se")
    start = text.index("Art. 3º O texto antigo.")
    doc = _document(text, [(start, start + len("Art. 3º O texto antigo."))])
    units = units_near(doc, _hit(doc, "Revoga-se"))
    assert units is not None
    assert [show(u) for u in units if u.label == "Art. 3º"] == [
        "Art. 3º Revoga-se o que for contrário."]


@pytest.mark.slow
def test_a_contract_sentence_is_quoted_under_its_clause(memory_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.answer.events import Done

    contract = tmp_path / "contrato.txt"
    contract.write_text(
        "CONTRATO DE PRESTAÇÃO DE SERVIÇOS\n\n"
        "CLÁUSULA PRIMEIRA – DO OBJETO\n\n"
        "1.1 O objeto é a manutenção dos servidores da contratante.\n\n"
        "CLÁUSULA SEGUNDA – DA VIGÊNCIA\n\n"
        "2.1 A vigência do contrato é de 12 (doze) meses, contados da assinatura.\n\n"
        "2.2 A renovação depende de aditivo assinado pelas partes.\n", encoding="utf-8")
    assert list(memory_app.pipeline.run([contract]))[-1].indexed == 1
    done = [e for e in memory_app.answer_service.ask(
        "Qual é a vigência do contrato?", sources_only=True) if isinstance(e, Done)][-1]
    assert done.answer.startswith("Cláusula SEGUNDA › 2.1 A vigência do contrato é de "
                                  "12 (doze) meses"), done.answer


def test_only_long_lists_fold_and_a_folded_line_is_never_alone() -> None:
    lead = ["Art. 7º São direitos dos trabalhadores:"]
    assert list_folds(lead + ITEMS[:16]) == []  # one line more than 15: shown, not folded
    assert list_folds(lead + ITEMS + ["Art. 8º Outro.", "a) um;"]) == [(16, 18)]
    assert list_folds(["x", *[f"{n}. item" for n in range(1, 40)]]) == [(16, 40)]


def test_a_reports_sentence_is_placed_under_its_numbered_heading() -> None:
    from desktop_app.answer.units import section_label

    report = ("1 Introdução\n\nEste relatório trata do tema.\n\n"
              "2 Metodologia\n\nUsamos três etapas.\n\n"
              "2.1 Coleta de dados em campo\n\nOs dados foram coletados em cinco cidades.\n")
    doc = _document(report)
    hit = _hit(doc, "cinco cidades")
    offset = hit.text.index("Os dados")
    assert section_label(doc, hit, offset) == "2, 2.1 Coleta de dados em campo"


def test_an_article_of_a_second_series_is_shown_with_its_series() -> None:
    text = ("Art. 249. Os fundos serão regidos por lei.\n\n"
            "Art. 250. A União poderá constituir fundo integrado.\n\n"
            "ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS\n\n"
            "Art. 1º O Presidente prestará o compromisso.\n\n"
            "Art. 2º O eleitorado definirá, através de plebiscito:\n\n"
            "I - a forma de governo;\n\nII - o sistema de governo.\n\n"
            "§ 1º Será assegurada gratuidade na livre divulgação dessas formas.\n")
    doc = _document(text)
    units = units_near(doc, _hit(doc, "plebiscito"))
    assert units is not None
    article = next(u for u in units if u.label == "ADCT Art. 2º" and u.kind == "list")
    assert show(article).split("\n")[0] == "ADCT › Art. 2º O eleitorado definirá, através de plebiscito:"
    item = next(u for u in units if u.label == "ADCT Art. 2º, II")
    assert show(item).split("\n")[0] == "ADCT › Art. 2º O eleitorado definirá, através de plebiscito:"
    # a § of it is shown under the same series and article path as its items
    paragraph = next(u for u in units_near(doc, _hit(doc, "gratuidade")) or ()
                     if u.label == "ADCT Art. 2º, § 1º")
    assert show(paragraph).startswith("ADCT › Art. 2º › § 1º Será assegurada"), show(paragraph)


def test_a_list_whose_lead_says_the_question_recalls_it_and_one_item_saying_it_does_not() -> None:
    from desktop_app.answer.question_fit import terms

    doc = _document("\n\n".join([
        "Art. 37. A administração pública direta e indireta obedecerá aos princípios de "
        "legalidade, impessoalidade e eficiência e, também, ao seguinte:",
        "I - os cargos são acessíveis aos brasileiros;",
        "II - a investidura depende de aprovação prévia em concurso;",
        "Art. 173. A lei estabelecerá o estatuto jurídico da empresa pública, dispondo sobre:",
        "I - sua função social;",
        "II - licitação, observados os princípios da administração pública;"]))
    question = terms("A quais princípios a administração pública deve obedecer?")
    found = [*(units_near(doc, _hit(doc, "Art. 37")) or ()),
             *(units_near(doc, _hit(doc, "Art. 173")) or ())]
    lists = {u.label: u for u in found if u.kind == "list"}
    # (the keyword stemmer keeps "obedecerá" apart from "obedecer": 3 of 4 terms)
    assert lists["Art. 37"].lead_recall(question) == 0.75
    assert lists["Art. 173"].lead_recall(question) == 0.25  # "pública" of "empresa pública"


CITING = "\n\n".join([
    "CAPÍTULO I\nDAS SANÇÕES",
    "Art. 1º O infrator fica sujeito a advertência e multa.",
    "Art. 2º A multa observará a gravidade da infração.",
    "CAPÍTULO II\nDO CONSELHO",
    "Art. 3º O Conselho será composto de cinco membros.",
    "Art. 4º A Lei nº 9.999, de 1º de março de 2010, passa a vigorar com as seguintes "
    "alterações:\n“Art. 1º O registro será feito em 30 (trinta) dias.” (NR)",
    "Art. 5º O disposto no art. 3º da Lei nº 8.888, de 2 de maio de 2001, aplica-se em 60 "
    "(sessenta) dias.",
    "CAPÍTULO III\nDISPOSIÇÕES FINAIS",
    "Art. 6º Esta Lei entra em vigor:",
    "I - dia 1º de agosto de 2021, quanto aos arts. 1º e 2º;",
    "II - 90 (noventa) dias após a data de sua publicação, quanto ao art. 3º; e",
    "III - na data de sua publicação, quanto aos demais artigos.",
])


def test_a_unit_setting_a_date_for_articles_named_by_number_is_found_by_what_they_are_about() -> None:
    """"I - dia 1º de agosto de 2021, quanto aos arts. 1º e 2º" is about sanctions only
    through the title of the chapter holding arts. 1º and 2º: the law's own search finds it
    by those words when asked for a date, not when an amendment quotes another law's art.
    1º or a provision names "art. 3º da Lei nº 8.888"."""
    doc = _document(CITING, max_chars=2000)
    base = _hit(doc, "Art. 1º O infrator")
    units = {u.label: u for u in search_units(doc, base, "sanções", limit=10, pointing=True)}
    assert list(units) == ["Art. 6º, I"]
    assert units["Art. 6º, I"].cites == "DAS SANÇÕES"
    pointing = {u.label for u in search_units(doc, base, "conselho", limit=10, pointing=True)}
    assert pointing == {"Art. 6º, II"}
    near = {u.label: u.cites for u in units_near(doc, base) or []}
    assert near["Art. 6º, I"] == "DAS SANÇÕES" and near["Art. 6º, II"] == "DO CONSELHO"
    assert near["Art. 4º"] == near["Art. 5º"] == near["Art. 6º, III"] == ""


def test_articles_named_by_number_are_the_laws_own_not_its_second_series() -> None:
    """A constitution's articles are numbered again in its transitional provisions (ADCT).
    "arts. 1º e 2º" are the constitution's, and an article naming itself ("Art. 2º A
    multa…") names no title but its own: its twin "ADCT Art. 2º" lent every article of the
    main text the ADCT's title."""
    doc = _document(CITING.replace("CAPÍTULO III\nDISPOSIÇÕES FINAIS", "CAPÍTULO III\nDO FIM")
                    + "\n\nATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS\n\n"
                    "Art. 1º O Presidente prestará o compromisso.\n\n"
                    "Art. 2º O eleitorado definirá a forma de governo.\n", max_chars=2000)
    near = {u.label: u.cites for u in units_near(doc, _hit(doc, "Art. 1º O infrator")) or []}
    assert near["Art. 2º"] == near["Art. 3º"] == ""
    near = {u.label: u.cites for u in units_near(doc, _hit(doc, "quanto aos arts")) or []}
    assert near["Art. 6º, I"] == "DAS SANÇÕES"


REFERENCES = "\n".join([
    "Art. 1º Esta Lei trata dos concursos.",
    "Art. 2º A investidura em cargo público obedecerá ao seguinte:",
    "I - a aprovação prévia em concurso público de provas;",
    "II - o prazo de validade do concurso público será de até dois anos;",
    "III - os aprovados serão convocados com prioridade;",
    "IV - a lei reservará vagas para pessoas com deficiência.",
    "§ 1º A nomeação depende de aprovação em concurso.",
    "§ 2º A não observância do disposto nos incisos II e III implicará a nulidade do ato.",
    "§ 3º Dispensa-se o concurso a que se refere o § 1º deste artigo nos cargos em comissão.",
    "§ 4º O disposto nos incisos I a III aplica-se também às empresas públicas.",
    "§ 5º Aplica-se o inciso II do art. 1º da Lei nº 8.112, de 1990, e o § 2º do art. 3º.",
    "Art. 3º Esta Lei entra em vigor na data de sua publicação.",
])


def test_a_unit_knows_the_units_of_its_article_it_names_by_number() -> None:
    """"nos incisos II e III", "o § 1º deste artigo", "incisos I a III" name units of the
    same article, whose words say what the naming unit is about; another article's or
    another law's inciso or paragraph is none of them."""
    doc = _document(REFERENCES, max_chars=2000)
    structure = doc.structure
    by_label = {structure.label(n): n for n in structure.nodes}

    def named(label: str) -> list[str]:
        return [structure.label(structure.nodes[i])
                for i in named_units(doc, by_label[label])]

    assert named("Art. 2º, § 2º") == ["Art. 2º, II", "Art. 2º, III"]
    assert named("Art. 2º, § 3º") == ["Art. 2º, § 1º"]
    assert named("Art. 2º, § 4º") == ["Art. 2º, I", "Art. 2º, II", "Art. 2º, III"]
    assert named("Art. 2º, § 5º") == []  # another law's inciso, another article's §
    assert named("Art. 2º, I") == [] and named("Art. 2º") == []
    unit = next(u for u in units_near(doc, _hit(doc, "nulidade")) or []
                if u.label == "Art. 2º, § 2º")
    assert "prazo de validade" in unit.named and "convocados" in unit.named
