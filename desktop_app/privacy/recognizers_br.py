"""Brazilian identifiers as presidio recognizers.

CPF, CNPJ, PIS/PASEP, CNH, RG, título de eleitor, CTPS, OAB, matrícula (incl.
the 32-digit civil-registry one), inscrição imobiliária/IPTU, NIRE, RENAVAM,
placa, CEP, phones and labelled birth dates. presidio 2.2.366 ships none of them.

Two tiers per identifier (shapes in `recognizers_base`):

* **labelled** – the text itself names the number ("CPF: …", "OAB/SP nº …",
  "título de eleitor …") within a few characters on the same line: personal
  data even with wrong check digits or a digit missing (typos, masked or
  synthetic values), so no check.
* **checked** – a number in its official layout (`000.000.000-00`), or a raw
  number with a label earlier on the same line: redacted only when the check
  digits (or the phone's area code) are valid. Unlabelled numbers with bad
  check digits – order numbers, protocol and process ids – stay.

Identifiers without check digits (CTPS, OAB, matrícula, IPTU, NIRE, placa)
are found only after their label; free-form values never take a date, a
year or an amount of money.
"""

from __future__ import annotations

from desktop_app.privacy.checkdigits import (
    is_plausible_br_phone,
    is_valid_certidao,
    is_valid_cnh,
    is_valid_cnpj,
    is_valid_cpf,
    is_valid_pis,
    is_valid_renavam,
    is_valid_titulo_eleitor,
)
from desktop_app.privacy.recognizers_base import (
    LANGUAGE,
    PATTERN_SCORE,
    Check,
    Rule,
    RuleRecognizer,
    labelled,
    on_labelled_line,
    standalone,
)

__all__ = ["LANGUAGE", "UF_CODES", "brazilian_recognizers"]

NUMBER_SIGN = r"(?:n[º°o]\.?|n\.|núm\.?|num\.?|número|nr\.?|#)"
UF_CODES = "AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO"
UF = rf"(?-i:{UF_CODES})"

CPF_LABELS = r"cpf(?:/mf)?|c\.p\.f\.?|cadastro\s+de\s+pessoas?\s+f[íi]sicas?"
CNPJ_LABELS = r"cnpj(?:/mf)?|c\.n\.p\.j\.?|cadastro\s+nacional\s+(?:da|de)\s+pessoa\s+jur[íi]dica"
PIS_LABELS = r"pis|pasep|nis|nit|pis/pasep|pis-pasep"
CNH_LABELS = (r"cnh|habilita[çc][ãa]o|carteira\s+de\s+motorista|driver'?s?\s+licen[cs]e|"
              r"licencia\s+de\s+conducir|registro\s+nacional\s+de\s+habilita[çc][ãa]o")
RG_LABELS = (r"rg|r\.g\.|identidade|carteira\s+de\s+identidade|registro\s+geral|"
             r"c[ée]dula\s+de\s+identidad|documento\s+de\s+identidade")
TITULO_LABELS = (r"t[íi]tulo(?:\s+de)?\s+eleitor(?:al)?|t[íi]tulo\s+eleitoral|"
                 r"inscri[çc][ãa]o\s+eleitoral|t[íi]t\.\s*eleitor")
CTPS_LABELS = (r"ctps|c\.t\.p\.s\.?|carteira\s+de\s+trabalho(?:\s+e\s+previd[êe]ncia\s+social)?|"
               r"carteira\s+profissional")
OAB_LABELS = rf"oab(?:\s*[/\-–]\s*{UF}|\s+{UF}(?![\w/]))?"
LAWYER_LABELS = r"advogad[oa]s?|adv\.|procurador(?:a|es)?|patron[oa]"
MATRICULA_LABELS = (r"matr[íi]culas?(?:\s+(?:funcional|siape|do\s+servidor|da\s+servidora|"
                    r"do\s+im[óo]vel|imobili[áa]ria|da\s+certid[ãa]o|de\s+registro))?|"
                    r"matr\.|mat\.|siape")
IPTU_LABELS = (r"inscri[çc][ãa]o\s+(?:imobili[áa]ria|cadastral|municipal|do\s+im[óo]vel|"
               r"no\s+cadastro\s+imobili[áa]rio)|cadastro\s+imobili[áa]rio|[íi]ndice\s+cadastral|"
               r"iptu|n[úu]mero\s+do\s+contribuinte|contribuinte\s+n[º°o]|sql|"
               r"setor[\s/\-]+quadra[\s/\-]+lote")
NIRE_LABELS = r"nire"
RENAVAM_LABELS = r"renavam|renavan|c[óo]digo\s+renavam"
# "placa de vídeo RTX 4090", "placa-mãe": boards, not plates.
PLACA_LABELS = r"placas?(?![\s\-]*(?:de\s+(?:v[íi]deo|rede|som|circuito|captura|carro\s+el)|m[ãa]e))"
VEHICLE_LABELS = (r"ve[íi]culos?|autom[óo]vel|motocicleta|moto|carro|caminh[ãa]o|"
                  r"camionete|caminhonete|[ôo]nibus|reboque")
CEP_LABELS = r"cep|c\.e\.p\.|c[óo]digo\s+postal|zip(?:\s*code)?|postal\s+code"
PHONE_LABELS = (r"tel|tels|telefones?|fone|fones|celular|cel|whats(?:app)?|wpp|zap|phone|mobile|"
                r"telephone|tel[ée]fono|m[óo]vil|contato|contact|ramal|fax|sms|liga[çc][ãa]o\s+para")
BIRTH_LABELS = (r"data\s+de\s+nascimento|data\s+nasc\.?|dt\.?\s*(?:de\s+)?nasc(?:imento|\.)?|"
                r"nascid[oa]\s+(?:em|aos|no\s+dia)|nasc\.|nascimento(?=\s*[:\-–])|d\.\s?n\.|dn(?=\s*:)|"
                r"date\s+of\s+birth|birth\s*date|born(?:\s+on)?|dob|d\.o\.b\.|"
                r"fecha\s+de\s+nacimiento|nacid[oa]\s+el")

CPF_ANY = r"\d{2,3}\.?\d{2,3}\.?\d{2,3}[-.]?\d{1,2}"  # a digit may be missing
CPF_LAYOUT = r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{9}-\d{2}"
CNPJ_ANY = r"[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}(?:/|\s|\\)?[0-9A-Z]{4}-?\d{2}"
CNPJ_LAYOUT = r"[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}(?:/|\s)[0-9A-Z]{4}-\d{2}"
PIS_ANY = r"\d{3}\.?\d{5}\.?\d{2}-?\d"
PIS_LAYOUT = r"\d{3}\.\d{5}\.\d{2}-\d"
CNH_ANY = r"\d{3}\s?\d{3}\s?\d{3}\s?\d{2}|\d{9}"
RG_ANY = r"(?:[A-Z]{2}[-\s]?)?\d{1,3}(?:\.?\d{3}){1,3}(?:-?[\dX])?"
TITULO_ANY = r"(?:\d[\s.]?){9,12}\d"
TITULO_LAYOUT = r"\d{4}\s\d{4}\s\d{4}|\d{4}\.\d{4}\.\d{4}"
# "1234567 série 0012-SP", "123.45678.90-1", "nº 0012345/00123-MG"
CTPS_ANY = (rf"\d{{2,8}}(?:[.\-/]\d{{1,8}}){{0,3}}(?:\s*[-/]\s*{UF})?"
            rf"(?:\s*,?\s*(?:s[ée]rie|s[ée]r\.)\s*{NUMBER_SIGN}?\s*\d{{1,5}}(?:\s*[-/]\s*{UF})?)?")
OAB_ANY = rf"(?:{UF}\s?)?\d{{1,3}}(?:\.?\d{{3}}){{0,2}}(?:-?(?-i:[ABEP]))?(?:\s*/\s*{UF})?"
OAB_IN_HEADER = rf"(?-i:(?:{UF_CODES})\s?\d{{3,6}}(?:-?[ABEP])?)"  # "ADVOGADO : NOME - SP123456"
MATRICULA_ANY = r"\d[\dX]*(?:[.\-/ ]\d+){0,9}(?:-[\dX])?"
CERTIDAO_LAYOUT = (r"\d{6}[.\s]\d{2}[.\s]\d{2}[.\s]\d{4}[.\s]\d[.\s]\d{5}[.\s]\d{3}[.\s]\d{7}[-\s]\d{2}"
                   r"|\d{32}")
IPTU_ANY = r"\d[\d.\-/ ]{3,28}\d"
NIRE_ANY = r"(?:\d[\s.\-]?){10}\d"
RENAVAM_ANY = r"(?:\d[\s.\-]?){8,10}\d"
PLACA_ANY = r"(?-i:[A-Z]{3}[\s\-]?\d[A-Z0-9]\d{2})"
PLACA_DISTINCT = r"(?-i:[A-Z]{3}-\d{4}|[A-Z]{3}\d[A-Z]\d{2})"  # old with hyphen, or Mercosul
CEP_ANY = r"\d{2}\.?\s?\d{3}(?:\s?[-–.]\s?|\s)?\d{3}"
CEP_LAYOUT = r"\d{2}\.?\d{3}\s?[-–]\s?\d{3}|\d{2}\.\s\d{3}\s?[-–]\s?\d{3}"
PHONE_ANY = (r"(?:\+?\s?55[\s.-]?)?(?:\(?0?(?:xx)?\d{2}\)?[\s.-]?)?(?:9[\s.]?)?\d{4}[\s.-]?\d{4}")
PHONE_LAYOUTS = (
    r"\+\s?55[\s.-]?\(?\d{2}\)?[\s.-]?(?:9[\s.]?)?\d{4}[\s.-]?\d{4}",  # +55 (11) 98765-4321
    r"\(0?\d{2}\)[\s.-]?(?:9[\s.]?)?\d{4}[\s.-]?\d{4}",  # (11) 3456-7890, (11) 9 8765-4321
    r"\d{2}[\s.](?:9\d{4}|[2-5]\d{3})-\d{4}",  # 11 98765-4321
    r"\d{2}\s9\s\d{4}[\s-]\d{4}",  # 11 9 8765 4321
)
MONTHS_PT = (r"janeiro|fevereiro|mar[çc]o|abril|maio|junho|julho|agosto|setembro|outubro|"
             r"novembro|dezembro")
DATE_ANY = (rf"\d{{1,2}}\s?[/.\-]\s?\d{{1,2}}\s?[/.\-]\s?\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|"
            rf"\d{{1,2}}º?\s+de\s+(?:{MONTHS_PT})\s+de\s+\d{{4}}")
RAW_DIGITS_10_11 = r"\d{10,11}"
RAW_DIGITS_11 = r"\d{11}"
RAW_DIGITS_12 = r"\d{12}"
RAW_DIGITS_14 = r"\d{14}"
RAW_RENAVAM = r"\d{9}|\d{11}"

def _cep_after_state_code() -> Rule:
    # "São Paulo - SP, 01310-100": a state code right before is context enough.
    return labelled("CEP after state code", UF, CEP_LAYOUT, window=3, gap=r"[\s,.\-/]",
                    score=PATTERN_SCORE)


def _checked(name: str, labels: str, layouts: tuple[str, ...], raw: str,
             check: Check) -> list[Rule]:
    rules = [standalone(f"{name} layout", layout, check) for layout in layouts]
    rules.append(on_labelled_line(f"{name} raw on labelled line", labels, raw, check))
    return rules


def brazilian_recognizers() -> list[RuleRecognizer]:
    """Every Brazilian recognizer, labelled tier first (it wins ties)."""
    return [
        RuleRecognizer("CPF", [
            labelled("CPF after label", CPF_LABELS, CPF_ANY),
            *_checked("CPF", CPF_LABELS, (CPF_LAYOUT,), RAW_DIGITS_11, is_valid_cpf)]),
        RuleRecognizer("CNPJ", [
            labelled("CNPJ after label", CNPJ_LABELS, CNPJ_ANY),
            *_checked("CNPJ", CNPJ_LABELS, (CNPJ_LAYOUT,), RAW_DIGITS_14, is_valid_cnpj)]),
        RuleRecognizer("PIS", [
            labelled("PIS after label", PIS_LABELS, PIS_ANY),
            *_checked("PIS", PIS_LABELS, (PIS_LAYOUT,), RAW_DIGITS_11, is_valid_pis)]),
        RuleRecognizer("CNH", [
            labelled("CNH after label", CNH_LABELS, CNH_ANY),
            on_labelled_line("CNH raw on labelled line", CNH_LABELS, RAW_DIGITS_11, is_valid_cnh)]),
        RuleRecognizer("RG", [labelled("RG after label", RG_LABELS, RG_ANY)]),
        RuleRecognizer("VOTER_ID", [
            labelled("título after label", TITULO_LABELS, TITULO_ANY),
            *_checked("título", TITULO_LABELS, (TITULO_LAYOUT,), RAW_DIGITS_12,
                      is_valid_titulo_eleitor)]),
        RuleRecognizer("CTPS", [labelled("CTPS after label", CTPS_LABELS, CTPS_ANY, loose=True)]),
        RuleRecognizer("OAB", [
            labelled("OAB after label", OAB_LABELS, OAB_ANY, window=40, loose=True),
            on_labelled_line("OAB in a lawyer line", LAWYER_LABELS, OAB_IN_HEADER, None,
                             window=120, score=0.9)]),
        RuleRecognizer("REGISTRATION", [
            labelled("matrícula after label", MATRICULA_LABELS, MATRICULA_ANY, window=30,
                     loose=True),
            standalone("certidão matrícula", CERTIDAO_LAYOUT, is_valid_certidao)]),
        RuleRecognizer("PROPERTY_ID", [
            labelled("inscrição imobiliária after label", IPTU_LABELS, IPTU_ANY, window=35,
                     loose=True)]),
        RuleRecognizer("NIRE", [labelled("NIRE after label", NIRE_LABELS, NIRE_ANY)]),
        RuleRecognizer("RENAVAM", [
            labelled("RENAVAM after label", RENAVAM_LABELS, RENAVAM_ANY),
            on_labelled_line("RENAVAM raw on labelled line", RENAVAM_LABELS, RAW_RENAVAM,
                             is_valid_renavam)]),
        RuleRecognizer("LICENSE_PLATE", [
            labelled("placa after label", PLACA_LABELS, PLACA_ANY, window=30),
            labelled("plate after vehicle", VEHICLE_LABELS, PLACA_DISTINCT, window=60)]),
        RuleRecognizer("CEP", [labelled("CEP after label", CEP_LABELS, CEP_ANY),
                               _cep_after_state_code()]),
        RuleRecognizer("PHONE_NUMBER", [
            labelled("phone after label", PHONE_LABELS, PHONE_ANY),
            *_checked("phone", PHONE_LABELS, PHONE_LAYOUTS, RAW_DIGITS_10_11,
                      is_plausible_br_phone)]),
        RuleRecognizer("BIRTH_DATE", [labelled("birth date after label", BIRTH_LABELS, DATE_ANY,
                                               window=20, gap=r"[^\d\n]")]),
    ]
