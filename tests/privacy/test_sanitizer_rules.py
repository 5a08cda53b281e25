"""What the sanitizer replaces and what it must leave alone (one line per rule)."""

from __future__ import annotations

import pytest
from validate_docbr import CNPJ, CPF

from desktop_app.privacy.sanitizer import Sanitizer

REDACTED = [
    # Brazilian documents: valid check digits stand alone; labels need no check.
    ("pagamento do 529.982.247-25 aprovado", "pagamento do <CPF> aprovado"),
    ("CPF: 110.100.179-87 (dígitos errados)", "CPF: <CPF> (dígitos errados)"),
    ("cpf do titular 52998224725", "cpf do titular <CPF>"),
    ("fornecedor 11.222.333/0001-81 ativo", "fornecedor <CNPJ> ativo"),
    ("empresa 12.ABC.345/01DE-35 cadastrada", "empresa <CNPJ> cadastrada"),
    ("CNPJ 12ABC34501DE35", "CNPJ <CNPJ>"),
    ("PIS 120.54668.05-4", "PIS <PIS>"),
    ("NIS: 12345678900", "NIS: <PIS>"),
    ("CNH nº 02650306461", "CNH nº <CNH>"),
    ("RG: 0987654", "RG: <RG>"),
    ("identidade 12.345.678-9 SSP", "identidade <RG> SSP"),
    ("CEP 01310-100", "CEP <CEP>"),
    ("Av. Paulista, São Paulo - SP, 01310-100", "Av. Paulista, São Paulo - SP, <CEP>"),
    ("ligar para (11) 98765-4321", "ligar para <PHONE>"),
    ("whatsapp +55 21 99876-5432", "whatsapp <PHONE>"),
    ("telefone 1134567890", "telefone <PHONE>"),
    ("call +44 20 7946 0958 or (212) 555-0123", "call <PHONE> or <PHONE>"),
    # generic
    ("enviado para ana.canario@example.com", "enviado para <EMAIL>"),
    ("cartão 4111 1111 1111 1111", "cartão <CREDIT_CARD>"),
    ("IBAN BR1800360305000010009795493C1", "IBAN <IBAN>"),
    ("cliente em 200.158.12.7", "cliente em <IP>"),
    ("abrindo /home/mariana/docs/a.pdf", "abrindo /home/<USER>/docs/a.pdf"),
    (r"abrindo C:\Users\pedro\Desktop\a.txt", r"abrindo C:\Users\<USER>\Desktop\a.txt"),
    # secrets
    ("senha: Segredo#2024", "senha: <SECRET>"),
    ("a senha do usuário é hunter22", "a senha do usuário é <SECRET>"),
    ('{"password": "hunter22"}', '{"password": "<SECRET>"}'),
    ("GET /api?token=abc123def&x=1", "GET /api?token=<SECRET>&x=1"),
    ("Authorization: Bearer abcdefghijklmnop1234567890", "Authorization: Bearer <SECRET>"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
     "jwt <SECRET>"),
    ("key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", "key <SECRET>"),
    ("postgres://app:S3nh4F0rte@db.local/x", "postgres://app:<SECRET>@db.local/x"),
    # team-library connection strings (psycopg/libpq forms)
    ("postgresql://ana:p@ss#w0rd@db.unit.local:5432/acervo",
     "postgresql://ana:<SECRET>@db.unit.local:5432/acervo"),
    ("postgresql+psycopg://ana:Abc%40123@db/acervo", "postgresql+psycopg://ana:<SECRET>@db/acervo"),
    ("host=db user=ana password='S3nh4 F0rte' dbname=acervo",
     "host=db user=ana password='<SECRET>' dbname=acervo"),
    ("PGPASSWORD=S3nh4F0rte desktop-app team init", "PGPASSWORD=<SECRET> desktop-app team init"),
    # person names
    ("Usuário Maria Aparecida da Silva entrou", "Usuário <PERSON> entrou"),
    ("atendido pelo Dr. Fulano Beltrano", "atendido pelo Dr. <PERSON>"),
    ("nome: Xerxes Quintal", "nome: <PERSON>"),
]

LEFT_ALONE = [
    "pedido 123.456.789-00 processado",  # CPF layout, wrong check digits, no label
    "protocolo 00015-01009853/2026-01",  # process number
    "nota 12.345.678/0001-00 lançada",  # CNPJ layout, wrong check digits
    "ordem 52998224725 faturada",  # valid CPF digits but raw and unlabelled
    "evento em 1718900000123 (epoch ms) e 1718900000",
    "id 3f2b8c4e-1a2b-4c3d-9e8f-0123456789ab em 2026-01-15T12:30:45Z",
    "lendo README.md e main.py de src/app",
    "ligue (20) 98765-4321",  # no such area code, no label
    "campo senha é obrigatório",
    "password is required",
    "a senha foi alterada com sucesso",
    "servidor em 127.0.0.1:8080 e 0.0.0.0",
    "Relatório Anual de Belo Horizonte concluído",
    "Traceback (most recent call last):\nValueError: None True False",
    "índice com 384 dimensões, 12 documentos, 1500 trechos",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED, ids=[r[0][:40] for r in REDACTED])
def test_replaces_personal_data_with_a_placeholder(sanitizer: Sanitizer, text, expected):
    assert sanitizer.sanitize(text) == expected


@pytest.mark.parametrize("text", LEFT_ALONE)
def test_leaves_ordinary_log_text_alone(sanitizer: Sanitizer, text):
    assert sanitizer.sanitize(text) == text


def test_a_labelled_phone_is_redacted_even_with_an_impossible_area_code(sanitizer: Sanitizer):
    assert sanitizer.sanitize("ramal (20) 98765-4321") == "ramal <PHONE>"


def test_documents_judged_valid_by_validate_docbr_are_redacted_unlabelled(sanitizer: Sanitizer):
    cpf, cnpj = CPF(), CNPJ()
    for i in range(30):
        for doc in (cpf.generate(mask=True), cnpj.generate(mask=True),
                    cnpj.generate(mask=True, digits_only=False)):
            line = f"registro {i}: {doc} ok"
            assert doc not in sanitizer.sanitize(line), line


def test_salted_hash_correlates_one_value_without_revealing_it(sanitizer: Sanitizer):
    analyzer = sanitizer._analyzer
    salted = Sanitizer(analyzer, hash_salt=b"s" * 32)
    first = salted.sanitize("CPF 529.982.247-25")
    same_value_other_format = salted.sanitize("CPF 52998224725")
    other_value = salted.sanitize("CPF 111.444.777-35")
    other_salt = Sanitizer(analyzer, hash_salt=b"t" * 32).sanitize("CPF 529.982.247-25")
    assert first.startswith("CPF <CPF:") and len(first) == len("CPF <CPF:12345678>")
    assert first == same_value_other_format
    assert first != other_value
    assert first != other_salt


def test_long_text_is_sanitized_in_pieces_without_losing_positions(sanitizer: Sanitizer):
    line = "linha comum sem dados pessoais, apenas texto de log repetido\n"
    text = line * 500 + "e-mail ana.canario@example.com\n" + line * 500
    cleaned = sanitizer.sanitize(text)
    assert "ana.canario@example.com" not in cleaned
    assert cleaned == text.replace("ana.canario@example.com", "<EMAIL>")
