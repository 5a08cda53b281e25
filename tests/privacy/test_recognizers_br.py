"""Brazilian identifiers added for real administrative and legal text: one rule per line.

For each identifier: a labelled value (redacted whatever its check digits), a value
with bad check digits (redacted only when labelled), and look-alikes that stay.
"""

from __future__ import annotations

import pytest
from validate_docbr import RENAVAM, Certidao, TituloEleitoral

from desktop_app.privacy.sanitizer import Sanitizer

TITULO = TituloEleitoral().mask("123456780191")  # a known-valid título (SP)
assert TituloEleitoral().validate(TITULO)
TITULO_BAD = TITULO[:-1] + "2"
RENAVAM_OK = "00639884962"
assert RENAVAM().validate(RENAVAM_OK)
RENAVAM_BAD = RENAVAM_OK[:-1] + "3"
CERTIDAO = "10453901552013100012021000012321"
assert Certidao().validate(CERTIDAO)

REDACTED = [
    # título de eleitor: labelled (good or bad digits), raw on a labelled line, standalone layout
    (f"Título de eleitor: {TITULO}, zona 001", "Título de eleitor: <TITULO_ELEITOR>, zona 001"),
    (f"título eleitoral nº {TITULO_BAD}", "título eleitoral nº <TITULO_ELEITOR>"),
    (f"inscrição eleitoral {TITULO.replace(' ', '')}", "inscrição eleitoral <TITULO_ELEITOR>"),
    (f"eleitor inscrito sob {TITULO} na zona 12", "eleitor inscrito sob <TITULO_ELEITOR> na zona 12"),
    # CTPS
    ("CTPS nº 1234567, série 0012-SP", "CTPS nº <CTPS>"),
    ("Carteira de Trabalho 0012345/00123-MG emitida", "Carteira de Trabalho <CTPS> emitida"),
    ("CTPS digital 123.45678.90-1", "CTPS digital <CTPS>"),
    # OAB
    ("OAB/SP 123.456", "OAB/SP <OAB>"),
    ("inscrito na OAB/MG sob o nº 12.345", "inscrito na OAB/MG sob o nº <OAB>"),
    ("advogada (OAB-RJ 98.765-A)", "advogada (OAB-RJ <OAB>)"),
    ("OAB nº 123456/SP", "OAB nº <OAB>"),
    ("ADVOGADO : JOSÉ CARLOS SOUZA - SP123456", "ADVOGADO : <PERSON> - <OAB>"),
    # matrícula
    ("matrícula SIAPE nº 1234567", "matrícula SIAPE nº <MATRICULA>"),
    ("mat. 123.456-7 lotado no setor", "mat. <MATRICULA> lotado no setor"),
    ("imóvel da matrícula nº 12.345 do 2º Registro", "imóvel da matrícula nº <MATRICULA> do 2º Registro"),
    (f"certidão {CERTIDAO} anexada", "certidão <MATRICULA> anexada"),
    # inscrição imobiliária / IPTU
    ("inscrição imobiliária 012.345.0067-8", "inscrição imobiliária <INSCRICAO_IMOVEL>"),
    ("cadastrado no IPTU sob o nº 1234567-8", "cadastrado no IPTU sob o nº <INSCRICAO_IMOVEL>"),
    ("SQL 012.345.0067-8", "SQL <INSCRICAO_IMOVEL>"),
    # NIRE
    ("NIRE 35.2.1234567-8", "NIRE <NIRE>"),
    ("NIRE nº 35300012345", "NIRE nº <NIRE>"),
    # RENAVAM: labelled (good or bad digits), raw with a check on a labelled line
    (f"RENAVAM {RENAVAM_OK}", "RENAVAM <RENAVAM>"),
    (f"código RENAVAM nº {RENAVAM_BAD}", "código RENAVAM nº <RENAVAM>"),
    (f"Renavam do carro, antigo 123 e atual {RENAVAM_OK}", "Renavam do carro, antigo 123 e atual <RENAVAM>"),
    # placa
    ("placa ABC1D23", "placa <PLACA>"),
    ("veículo de placa XYZ-9876", "veículo de placa <PLACA>"),
    ("automóvel Fiat Uno BRA-2019 apreendido", "automóvel Fiat Uno <PLACA> apreendido"),
    # CPF with a digit missing, CNPJ with a space for "/"
    ("CPF: 123.456.789-0", "CPF: <CPF>"),
    ("CPF 34.232.265-44", "CPF <CPF>"),
    ("CNPJ 11.222.333 0001-81", "CNPJ <CNPJ>"),
    ("empresa 11.222.333 0001-81 ativa", "empresa <CNPJ> ativa"),  # valid digits, no label
    # phones in more layouts
    ("WhatsApp: 11987654321", "WhatsApp: <PHONE>"),
    ("tel 11 9 8765 4321", "tel <PHONE>"),
    ("ligue (11) 9 8765-4321", "ligue <PHONE>"),
    ("fone (061) 3333-4444", "fone <PHONE>"),
    # CEP with spaces or a dot
    ("CEP 01310 - 100", "CEP <CEP>"),
    ("CEP 01. 310 - 100", "CEP <CEP>"),
    ("Campinas/SP, 13083 - 970", "Campinas/SP, <CEP>"),
    # birth dates when labelled
    ("Data de nascimento: 12/03/1985", "Data de nascimento: <BIRTH_DATE>"),
    ("nascida em 5 de março de 1990", "nascida em <BIRTH_DATE>"),
    ("DN: 12.03.1985", "DN: <BIRTH_DATE>"),
    # passwords without a colon
    ("senha hunter22", "senha <SECRET>"),
    ("senha provisória Abc@2024 enviada", "senha provisória <SECRET> enviada"),
]

LEFT_ALONE = [
    f"protocolo {TITULO_BAD}",  # título layout, bad digits, no label
    f"código {RENAVAM_OK}",  # valid RENAVAM digits but raw and unlabelled
    "placa de vídeo RTX 4090",  # not a plate shape
    "veículo GOL 2015",  # model and year, not a plate
    "matrícula 2025; período de matrícula em 03/02/2025",  # a year and a date
    "IPTU 2024: R$ 1.234,56",  # a year and money
    "senha forte e senha atual",  # words, not passwords
    "certidão de nascimento emitida em 12/03/2020",  # a date that is not a birth date
    "processo nº 0001234-56.2024.8.26.0100",
    "Processo SEI nº 23000.012345/2024-11",
    "protocolo 2024.000123-4, valor R$ 12.345,67 em 12/03/2024, art. 5º, inciso X",
    "Lei nº 13.709/2018 e Decreto nº 7.724/2012",
    "ordem de serviço 2024-0001 e CNAE 6201-5/01",
    "empresa 11.222.333 0001-80 ativa",  # bad digits, no label
    f"lote {CERTIDAO[:-1]}9",  # certificate layout, bad digits
]


@pytest.mark.parametrize(("text", "expected"), REDACTED, ids=[r[0][:40] for r in REDACTED])
def test_redacts_brazilian_identifiers(sanitizer: Sanitizer, text: str, expected: str):
    assert sanitizer.sanitize(text) == expected


@pytest.mark.parametrize("text", LEFT_ALONE, ids=[t[:40] for t in LEFT_ALONE])
def test_leaves_numbers_that_are_not_personal_data(sanitizer: Sanitizer, text: str):
    assert sanitizer.sanitize(text) == text


def test_every_generated_voter_id_and_renavam_on_a_labelled_line_is_redacted(sanitizer: Sanitizer):
    import random

    random.seed(16)
    titulo, renavam = TituloEleitoral(), RENAVAM()
    for _ in range(25):
        for line in (f"titular com título de eleitor {titulo.generate(mask=True)}.",
                     f"veículo RENAVAM {renavam.generate()} apreendido"):
            assert any(c.isdigit() for c in line)
            assert not any(c.isdigit() for c in sanitizer.sanitize(line)), line
