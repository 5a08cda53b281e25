"""Brazilian street addresses: logradouro, número, complemento, bairro, cidade/UF, CEP.

"Rua das Flores, 123, apto 45 - Jardim América, São Paulo/SP, CEP 01234-567",
"Av. 9 de Julho 1500 sala 12", "SQN 308 Bloco A apto 101", "moro na rua
Tupis, nº 80", "Endereço: Quadra 5 Conjunto B casa 12, Sobradinho/DF".

A street type starts a candidate; its name runs a few words; a house number
(or "s/n") must follow – a street without a number identifies nobody and
"Rua Augusta" in a sentence stays. Then complements, the bairro, city/UF and
the CEP are taken while they follow one another, so the whole address becomes
one finding. After an explicit label ("Endereço:", "residente e domiciliado
na") any clause with a number counts. Parsed forward in Python on a cheap
regex hit: lines without a street word cost one regex scan.
"""

from __future__ import annotations

from typing import Any

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult

from desktop_app.privacy.recognizers_base import LANGUAGE
from desktop_app.privacy.recognizers_br import CEP_ANY, UF_CODES

ENTITY = "ADDRESS"
SCORE = 1.0  # an address that holds a labelled CEP is one finding, not a CEP
MAX_NAME_WORDS = 8
FLAGS = regex.VERSION0

# Street types that are never anything else, any case ("rua", "Av.", "RUA").
_ANY_CASE_TYPES = (r"rua|r\.|avenida|av\.?|avda\.?|travessa|trav\.?|tv\.|alameda|al\.|pra[çc]a|"
                   r"p[çc]a\.?|p[çc]\.|estrada|estr\.|rodovia|rod\.|largo|lgo\.|ladeira|ld\.|viela|"
                   r"beco|servid[ãa]o|via\s+(?:expressa|local|marginal)")
# Words that are street types only when capitalised ("Vila Madalena, 45", not "a vila 3").
_CAPITALISED_TYPES = (r"Via|Vila|Quadra|Qd\.?|QD|Conjunto|Cj\.?|Setor|Loteamento|Residencial|"
                      r"Condom[íi]nio|Parque|Jardim|Jd\.?|N[úu]cleo|Linha|Ch[áa]cara|S[íi]tio|"
                      r"Fazenda|Col[ôo]nia|Caminho|Cal[çc]ad[ãa]o|Esplanada|Boulevard|Marginal|"
                      r"Passagem|Acesso|Ramal|Rota|Contorno")
_BRASILIA_CODES = r"SQN|SQS|SQSW|SHIS|SHIN|SHCES|SCLN|SCLS|SRTVS|SMPW|SMDB|QI|QL|QNM|QNN|QR|QS|QE|CLN|CLS"
STREET_TYPE = regex.compile(
    rf"(?<![\w.])(?:(?i:{_ANY_CASE_TYPES})|{_CAPITALISED_TYPES}|{_BRASILIA_CODES})(?![\w])", FLAGS)
ADDRESS_LABEL = regex.compile(
    r"(?<!\w)(?<!(?:ip|mac|e-?mail|web|url|host|server|memory|wallet|bitcoin)\s+)"
    r"(?!endere[çc]o\s+(?:ip|mac|de\s+(?:e-?mail|ip|rede)|eletr[ôo]nico|web)\b)(?:endere[çc]o(?:\s+(?:residencial|comercial|completo|para\s+correspond[êe]ncia))?|"
    r"resid(?:ente|indo)\s+(?:e\s+domiciliad[oa]\s+)?(?:na|no|[àa]|em)|"
    r"domiciliad[oa]\s+(?:na|no|[àa]|em)|resid[êe]ncia|domic[íi]lio|(?:address|direcci[óo]n)(?=\s*:))"
    r"(?!\w)\s*:?\s*(?:(?:na|no|[àa]|em)\s+)?", FLAGS | regex.IGNORECASE)
# A comma-separated piece that still belongs to an address ("apto 3", "Centro", "CEP …").
ADDRESS_PIECE = regex.compile(
    r"\s*(?:\p{Lu}|\d|(?i:apto?\.?|apartamento|casa|bloco|bl\.|lote|quadra|qd\.|sala|conj|"
    r"bairro|n[º°o.]|s/n|cep|km|andar|fundos|térreo|loja|torre|edif))", FLAGS)

# Types identified by the number right after them ("Quadra 5", "SQN 308", "Lote 12").
NUMBERED_TYPES = regex.compile(rf"(?:Quadra|Qd\.?|QD|Conjunto|Cj\.?|{_BRASILIA_CODES})", FLAGS)
WORD = regex.compile(r"[ \t]*(?:(?P<num>\d{1,2}º?)(?=\s+de\s)|(?P<word>[\p{L}\d][\p{L}\d'’.\-]*))",
                     FLAGS)
PARTICLES = frozenset({"da", "de", "do", "das", "dos", "e", "d'", "del", "di", "à", "às", "ao"})
HOUSE_NUMBER = regex.compile(
    r"(?:[ \t]*[,\-–][ \t]*|[ \t]+)(?:(?i:n[º°o.]|nº|número|num\.?|nr\.?)[ \t]*)?"
    r"(?:\d{1,6}(?:[ \t]?-?[A-Za-z](?![\p{L}\d]))?|(?i:s\.?/\s?n[º°o.]?|sem\s+n[úu]mero))(?![\d\p{L}/])",
    FLAGS)
COMPLEMENT = regex.compile(
    r"[ \t]*[,\-–]?[ \t]*(?i:apto?\.?|apartamento|ap\.|bloco|bl\.?|casa|cs\.?|sala|sl\.?|"
    r"conj(?:unto)?\.?|cj\.?|lote|lt\.?|quadra|qd\.?|andar|loja|lj\.?|box|torre|km|"
    r"unidade|un\.|edif[íi]cio|ed\.|cobertura|sobreloja|t[ée]rreo|fundos|frente|galp[ãa]o|"
    r"pavimento|pav\.|chácara|ch\.)(?![\p{L}])[ \t]*(?:n[º°o.][ \t]*)?(?:[\dA-Z][\w\-/]{0,7})?",
    FLAGS)
_NAME_WORD = r"\p{Lu}(?:\p{L}{0,3}\.|[\p{L}'’\-]*)"  # "Jd." but not "Centro."
NAME_WORDS = rf"{_NAME_WORD}(?:[ \t]+(?:(?:d[aoe]s?|e|d')[ \t]+)?{_NAME_WORD}){{0,4}}"
UF = rf"(?:{UF_CODES})(?![\p{{L}}\d])"
BAIRRO = regex.compile(
    rf"[ \t]*[,\-–][ \t]*(?:(?i:bairro|b\.)[ \t]*:?[ \t]*{NAME_WORDS}"
    rf"|{NAME_WORDS}(?=[ \t]*[,\-–/][ \t]*(?:{NAME_WORDS}[ \t]*[/\-–,(][ \t]*{UF}|(?i:cep)|\d{{2}}\.?\d{{3}})"
    rf"|[ \t]*(?:[.;)]|$)))",
    FLAGS)
CITY_UF = regex.compile(
    rf"[ \t]*[,\-–][ \t]*{NAME_WORDS}[ \t]*(?:[/\-–,][ \t]*{UF}|\([ \t]*{UF}[ \t]*\))", FLAGS)
CEP = regex.compile(rf"[ \t]*[,\-–.]?[ \t]*(?:(?i:cep)[ \t]*:?[ \t]*)?(?:{CEP_ANY})(?![\d\-])",
                    FLAGS)
NETWORK_ADDRESS = regex.compile(r"\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:]+|\S+@|\w+://",
                                 FLAGS)
CLAUSE_END = regex.compile(r"[;\n]|\.(?=\s+\p{Lu})|\s(?:e|and|y)\s+(?:tel|cpf|e-?mail)", FLAGS)
DIGIT = regex.compile(r"\d")
NO_NUMBER = regex.compile(r"(?i:s\.?/\s?n|sem\s+n[úu]mero)", FLAGS)


def _street_name_end(text: str, start: int, lower_type: bool, numbered: bool) -> int | None:
    """Where the street's name ends and a house number follows, or None."""
    position, words = start, 0
    best = None
    while words < MAX_NAME_WORDS:
        number = HOUSE_NUMBER.match(text, position)
        if number is not None and (words > 0 or numbered):
            best = number.end()
            break
        word = WORD.match(text, position)
        if word is None:
            break
        token = word.group("word") or word.group("num")
        lowered = token.lower()
        if (word.group("word") is not None and not token[0].isupper() and not token[0].isdigit()
                and lowered not in PARTICLES and not (lower_type and words < 4)):
            break
        position, words = word.end(), words + 1
    return best


def _extend(text: str, end: int) -> int:
    """Take complements, bairro, city/UF and CEP while they follow the number."""
    for _ in range(5):
        match = COMPLEMENT.match(text, end)
        if match is None or match.end() == end:
            break
        end = match.end()
    for pattern in (BAIRRO, CITY_UF, CEP):
        match = pattern.match(text, end)
        if match is not None and match.end() > end:
            end = match.end()
    return end


def _address_pieces(clause: str) -> str:
    """The leading comma-separated pieces of `clause` that look like parts of an address."""
    pieces = clause.split(",")
    kept = [pieces[0]]
    for piece in pieces[1:6]:
        if not ADDRESS_PIECE.match(piece):
            break
        kept.append(piece)
    return ",".join(kept).rstrip(" ,.")


class AddressRecognizer(EntityRecognizer):
    """Brazilian street addresses, including the complement, bairro, city/UF and CEP."""

    def __init__(self) -> None:
        super().__init__(supported_entities=[ENTITY], name="BrazilianAddressRecognizer",
                         supported_language=LANGUAGE)

    def load(self) -> None:
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        if (entities and ENTITY not in entities) or (
                DIGIT.search(text) is None and NO_NUMBER.search(text) is None):
            return []  # every address has a house number or "s/n"
        spans: list[tuple[int, int]] = []
        for street in STREET_TYPE.finditer(text):
            if spans and street.start() < spans[-1][1]:
                continue
            name_end = _street_name_end(text, street.end(), street.group()[0].islower(),
                                        NUMBERED_TYPES.fullmatch(street.group()) is not None)
            if name_end is not None:
                spans.append((street.start(), _extend(text, name_end)))
        for label in ADDRESS_LABEL.finditer(text):
            clause = CLAUSE_END.search(text, label.end())
            end = min(clause.start() if clause else len(text), label.end() + 140)
            if any(label.end() <= s < end or s <= label.end() < e for s, e in spans):
                continue  # a street was parsed in this clause
            value = _address_pieces(text[label.end():end])
            if DIGIT.search(value) and len(value) >= 6 and not NETWORK_ADDRESS.match(value):
                spans.append((label.end(), label.end() + len(value)))
        return [RecognizerResult(ENTITY, s, e, SCORE) for s, e in spans]


def address_recognizers() -> list[EntityRecognizer]:
    return [AddressRecognizer()]
