"""How a candidate's words fit the question, for ranking a sources-only answer's quotes.

What the question asks for: several things (`wants_many`), a date, number, person or place
(`asks_for`, then `names_a` for a sentence naming one the question does not), or what
something is (`defined_thing`, then `defines` for the sentence or item that defines exactly
it); and what it asks about, without the phrase naming its source (`without_qualifier`).
How a law's unit relates to the question's phrases: it says them side by side
(`shared_phrases`), names a special case of what was asked (`narrows`) or a sibling of it
(`contrasts`). Pure text: the ranking that weighs these is answer/extractive.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.answer.units import StructuralUnit
from desktop_app.text.analyze import content_terms
from desktop_app.text.cognates import same_word
from desktop_app.text.fold import fold
from desktop_app.text.language import question_language
from desktop_app.text.stem import light_stem
from desktop_app.text.stopwords import NOT_CONTENT
from desktop_app.text.tables import cells, is_row


def terms(text: str) -> frozenset[str]:
    """Content terms: folded, without asking words, stemmed as the keyword leg stems."""
    return content_terms(text, ignore=NOT_CONTENT)


# "quais", "cuáles", "what are", "which were", "list the": a question that wants a list
LIST_QUESTION = re.compile(r"\b(?:quais|cuales|(?:what|which) (?:are|were)|list|liste|enumere)\b")
# where a clause starts, with its prepositions ("A partir de que idade…?", "Nas relações de
# consumo, que regras…?", "¿En qué casos…?"): "que", "which" and "what" ask only there, as
# elsewhere they relate ("Os sistemas que tratam dados…?", "do jeito que quiser")
_CLAUSE_START = (r"(?:^|[,;:¿]\s*)(?:(?:e|mas|and|but|y|pero|a partir|depois|antes|alem|apesar"
                 r"|a|em|de|da|do|para|por|com|sobre|desde|ate|in|for|to|on|by|with|from|at"
                 r"|into|of|about|among|within|over|through|after|before|under|en|con|hasta)\s+)*")
# Spanish writes its asking words with an accent wherever they stand ("¿Con base en qué
# principios…?"): read as if a clause started there (`_asking_text`)
_ACCENTED_ASKING = re.compile(r"(?<!\w)(?:qué|cuándo|cómo|dónde|cuál|cuáles|quién|quiénes"
                              r"|cuánt[oa]s?)(?!\w)")
# "Que princípios…", "Em que situações…", "De que formas…", "Which courses…", "¿En qué
# casos…": an asking word before a plural noun (a law's units only: `wants_many`)
_PLURAL_ASKED = re.compile(
    rf"(?:{_CLAUSE_START}(?:o )?(?:que|which|what)|\b(?:quais|cuales))\s+(?:(?:[a-z]+)\s+)?"
    r"(?!(?:does|was|is|has|des|tres|mais|menos)\b)[a-z]{3,}(?:s|es)\b")


def _asking_text(question: str) -> str:
    """The question folded, a Spanish asking word's accent read as a clause's start
    ("¿Con base en qué principios…?" asks as "…, que principios" does)."""
    return fold(_ACCENTED_ASKING.sub(lambda m: f", {m.group()}", question.casefold()))


def wants_many(question: str) -> bool:
    """Whether the question asks for several things (a list), also without "quais"."""
    folded = _asking_text(question)
    return bool(LIST_QUESTION.search(folded) or _PLURAL_ASKED.search(folded))


# What kind of thing a question asks for, from its asking words (folded; pt / en / es).
_ASKS = {
    "date": re.compile(r"\b(?:quando|when|cuando)\b|\b(?:que|qual|which|what|cual|en que|em que)"
                       r" (?:ano|anos|data|dia|seculo|decada|epoca|mes|year|date|day|century"
                       r"|decade|month|fecha|siglo)\b"),
    "number": re.compile(r"\b(?:quantos|quantas|quanto|quanta|cuantos|cuantas|cuanto|cuanta"
                         r"|how (?:many|much|long|old|far))\b|\b(?:qual|what|cual) (?:e |es |is )?"
                         r"(?:o |a |el |la |the )?(?:numero|valor|quantidade|cantidad|percentual"
                         r"|porcentagem|porcentaje|tamanho|idade|edad|populacao|number|amount"
                         r"|percentage|size|age|population)\b"),
    "person": re.compile(r"\b(?:quem|who|whom|whose|quien|quienes)\b"),
    "place": re.compile(r"\b(?:onde|aonde|where|donde)\b|\b(?:que|qual|which|what|cual|em que"
                        r"|en que|in which|in what) (?:pais|paises|cidade|estado|lugar|local"
                        r"|regiao|continente|country|city|state|place|region|ciudad|region)\b"),
}
_MONTHS = ("janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro "
           "dezembro january february march april june july august september october november "
           "december enero febrero marzo mayo junio julio septiembre octubre noviembre diciembre")
_TOKEN = re.compile(r"[0-9a-z]+")  # a folded word or number (what a question already names)
_DATE = re.compile(r"\b(?:1\d{3}|20\d{2})\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\bseculo\b|\bcentury\b"
                   r"|\bsiglo\b|\b(?:" + "|".join(_MONTHS.split()) + r")\b")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*\b|\b(?:dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez"
                     r"|onze|doze|vinte|trinta|cem|cento|mil|milhao|milhoes|bilhao|bilhoes|dezenas"
                     r"|centenas|milhares|two|three|four|five|six|seven|eight|nine|ten|hundred"
                     r"|thousand|million|billion|cuatro|seis|siete|ocho|nueve|diez|cien|millon"
                     r"|millones)\b|%")
_PROPER = re.compile(r"(?<=[\w,;:)]\s)[A-ZÀ-ÖØ-Þ][\wÀ-ÿ'’-]+")  # capitalized, not opening


def asks_for(question: str) -> str | None:
    """"date", "number", "person", "place" or None: what the question's asking words want."""
    folded = fold(question)
    for kind, pattern in _ASKS.items():
        if pattern.search(folded):
            return kind
    return None


# "Quem compõe / integra / tem assento no Conselho…?", "Quais são os membros…?": the
# members of a body are asked, not what it does
_MEMBERS = re.compile(
    r"\b(?:quem (?:compoe|compoem|integra|integram|tem assento|tera assento|faz parte|fazem parte"
    r"|participa|participam)|(?:quais|quem) (?:sao )?(?:os )?(?:membros|integrantes|componentes)"
    r"|who (?:sits|sit|serves|serve) on|who (?:are|is) (?:the )?members?|who makes up"
    r"|quien(?:es)? (?:integra|integran|compone|componen|forma|forman)"
    r"|cuales son (?:los )?(?:miembros|integrantes))\b")
# an item of a list that opens with a verb in the infinitive: "I - propor diretrizes…"
_TASK_ITEM = re.compile(r"^\s*(?:[ivxlc]+(?:-[a-z])?\s*[-–—]\s*|[a-z]\)\s*)?"
                        r"[a-z]{3,}(?:ar|er|ir|or)\b")


def asks_members(question: str) -> bool:
    """Whether the question asks who makes up a body (its members, not its tasks)."""
    return bool(_MEMBERS.search(fold(question)))


def lists_tasks(lines: Sequence[str]) -> bool:
    """Whether most items of a list (its lines after the lead) open with a verb in the
    infinitive: what a body does ("Compete ao Conselho: I - propor…; II - elaborar…"), not
    who sits on it ("I - 5 (cinco) do Poder Executivo federal")."""
    items = [line for line in lines[1:] if line.strip() and line.strip() != "…"]
    return len(items) >= 2 and 2 * sum(1 for i in items if is_task(i)) > len(items)


def is_task(item: str) -> bool:
    """Whether an item of a list opens with a verb in the infinitive: one thing a body does
    ("V - disseminar o conhecimento sobre a proteção de dados…")."""
    return bool(_TASK_ITEM.match(fold(item)))


def names_a(kind: str | None, sentence: str, question: str) -> bool:
    """Whether `sentence` holds a `kind` (see `asks_for`) that the question does not."""
    if kind is None:
        return False
    asked = set(_TOKEN.findall(fold(question)))
    if kind in ("date", "number"):
        pattern = _DATE if kind == "date" else _NUMBER
        return any(m.group(0) == "%" or m.group(0) not in asked
                   for m in pattern.finditer(fold(sentence)))
    return any(fold(m.group(0)) not in asked for m in _PROPER.finditer(sentence))


def names_row(question: str, row: str) -> bool:
    """Whether the question names table `row` by its label, its first cell: "What was the
    total for Arizona?" names "Arizona | 2,303 | …", "… in Maranhão (MA)?" names "MA |
    426,0 | …". A label of figures alone names nothing ("4 | 2 | OTSL …" is not named by
    "4 encoder layers"), and a short label in capitals only as written ("MA", not the
    Portuguese "má")."""
    if not is_row(row):
        return False
    label = " ".join(cells(row)[0].split())
    if len(label) < 2 or not any(ch.isalpha() for ch in label):
        return False
    if len(label) <= 3 and label.isupper():
        return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", question) is not None
    return re.search(rf"(?<!\w){re.escape(fold(label))}(?!\w)", fold(question)) is not None


# A question asking what something is ("O que é dado pessoal sensível?", "What are the
# base rates?", "¿Qué es un plazo?", "Defina consentimento"), folded; group 1: the thing.
# ("What are the legal bases…?" asks for a list, as "Quais são…?" does; "What are public
# institutions?" for a definition)
_DEFINITION_QUESTION = re.compile(
    r"^\W*(?:(?:e |mas |and |y )?(?:o que (?:e|sao|significa|quer dizer)|o que se entende por"
    r"|que (?:e|es|son|significa|se entiende por)|what (?:is|are(?! the\b)|does)|what's"
    r"|define|defina"
    r"|definicao de|definicion de|significado de|meaning of|quem e|who is|quien es))"
    r"\s+(?:(?:o|a|os|as|um|uma|the|an?|el|la|los|las|un|una)\s+)?(.+?)\W*$")
# The same asked anywhere in the question: "O que a LGPD entende por controlador?", "Qual a
# definição de consentimento …?", "Como a LDB define …?", "What does the act mean by …?"
_DEFINITION_CUE = re.compile(
    r"\b(?:entende(?:-se)? por|entendem por|entienden? por|considera(?:-se)? como"
    r"|(?:conceito|definicao|definicion|significado|meaning) (?:de|of)|means? by"
    r"|(?:define|defines|definem|conceitua)) (?:(?:o|a|os|as|um|uma|the|an?|el|la|los|las"
    r"|un|una) )?(.+?)\W*$")
# … and what a source counts as something, asked what or who ("Quem a lei considera
# fornecedor?", "O que conta como serviço para o código?", "What does the act consider
# personal data?"); not "A lei considera crime…?", a yes or no
_DEFINITION_ASKED = re.compile(
    r"^\W*(?:(?:e|mas|and|y) )?(?:o que|quem|que|what|who)\b(?:\s+[\w-]+){0,4}?"
    r"\s+(?:considera|consideram|conta como|contam como|cuenta como|cuentan como|counts? as"
    r"|considers?)\s+(?:como\s+)?(?:(?:o|a|os|as|um|uma|the|an?|el|la|los|las|un|una) )?"
    r"(.+?)\W*$")
# A participle before the source a question names only says the thing is in it ("previstos
# na Constituição"); after the source, its own name ("na lei de proteção de dados", "na Lei
# nº 9.394, de 1996", "na Constituição Federal"), not what follows it ("… pela Constituição
# aos presos": the prisoners are asked about)
_IN_SOURCE = (r"(?:\s+(?i:previst|estabelecid|establecid|definid|dispost|elencad|enumerad|listad"
              r"|descrit|mencionad|citad|contid|garantid|garantizad|assegurad|contemplad|regulad"
              r"|disciplinad)[oa]s?|\s+(?i:provided for|set out|set forth|laid down|listed"
              r"|established|defined|guaranteed))?")
_NOT_NAME = r"(?!(?i:para|a|ao|aos|à|às|sobre|em|com|quanto|quando|no|na|nos|nas|for|to|about|on)\b)"
_SOURCE_NAME = (r"(?:\s+(?i:federal|brasileira|nacional|geral|complementar|estadual|municipal)"
                r"|\s+(?i:n[º°o.]{1,2}|nº)\s*[\d.]+(?:/\d+)?|\s+\d[\d./-]*|,\s+de\s+\d{4}"
                r"|\s*\([^()]*\)|\s+(?i:de|do|da|dos|das|of|del|de la)\s+" + _NOT_NAME +
                r"[\w./-]+(?:\s+(?i:de|do|da|dos|das|e|of|and|del)\s+" + _NOT_NAME + r"[\w./-]+)*)*")
# "…, segundo a LGPD", "… na lei de proteção de dados", "… under the act": where the
# question says what it asks about, not what it asks (matched on the unfolded question: an
# acronym is a run of capitals)
_QUALIFIER = re.compile(
    r"\W*,?" + _IN_SOURCE + r"\s+(?i:segundo|conforme|de acordo com|para|pela|pelo|na|no|nesta"
    r"|neste|en|according to|under|según|segun|de acuerdo con)\s+(?i:(?:a|o|as|os|la|el"
    r"|the|esta|este|essa|esse)\s+)?(?:(?i:lei|norma|legisla[çc][ãa]o|law|act|ley|regulamento"
    r"|decreto|documento|texto|c[óo]digo|constitui[çc][ãa]o)|[A-Z]{2,6})\b" + _SOURCE_NAME)


# The source named as the subject after the verb, as Spanish puts it ("¿Qué entiende la LGPD
# por …?", "¿Cómo define la ley a …?"): group 1, the verb, is kept; when nothing follows,
# it was the thing asked about ("¿Cómo se define la ANPD?")
_SOURCE_AFTER_VERB = re.compile(
    r"\b((?i:entiende|entienden|entende|entendem|define|definen|definem|considera"
    r"|consideran))\s+(?i:el|la|o|a)\s+(?:[A-Z]{2,6}|(?i:ley|lei|norma))\b(?:\s+a\b)?"
    r"(?=\s+\w)")


def without_qualifier(question: str) -> str:
    """The question without a phrase naming its source ("…, segundo a LGPD?", "¿Qué
    entiende la LGPD por …?")."""
    return _SOURCE_AFTER_VERB.sub(r"\1", _QUALIFIER.sub("", question))


# What opens a definition: an enumeration label ("II - ", "a) ", "1. ", "§ 2º "), then the
# defined thing up to a colon or a copula ("X: …", "X é …", "X means …", "X son …").
_LABEL = re.compile(r"^\s*(?:(?:[ivxlcdm]+|[a-z]|\d+)\s*[-–—.)]\s+|§\s*\d+\S*\s+"
                    r"|art(?:igo)?\.?\s*\d+[º°o]?(?:-[a-z])?\.?\s+)?", re.IGNORECASE)
_DEFINES = re.compile(r"^(.{2,80}?)(?:\s*:|\s+(?:é|são|is|are|means|significa|es|son"
                      r"|consiste|refere-se|corresponde|constitui-se|constituem-se)\s"
                      # "públicas, assim entendidas as criadas …" (a law's classification)
                      r"|,\s+assim\s+(?:entendid|considerad|definid|denominad|compreendid)"
                      # "A educação infantil, primeira etapa da educação básica, tem como
                      # finalidade …" (an apposition, then what it is or is for)
                      r"|,\s+[^,:;]{3,80},\s+(?:(?:tem|têm)\s+(?:como|por)\s+(?:finalidade"
                      r"|objetivo|fim)|é|são|consiste|constitui-se|constituem-se)\s)")


# … or opens with the copula, the thing after it, what it is of said by the unit's division
# or article ("§ 1º É enganosa qualquer modalidade de informação … de caráter publicitário"
# under "DA PUBLICIDADE"; "São impróprios ao uso e consumo: …"; "Considera-se …")
_DEFINES_INVERTED = re.compile(
    r"^(?:é|são|es|son|considera-se|consideram-se|considérase|considéranse)\s+(.{2,60}?)"
    r"(?:\s*[:,]|\s+(?:qualquer|quaisquer|todo|toda|todos|todas|o|a|os|as|aquele|aquela"
    r"|aqueles|aquelas|cualquier|el|la|los|las)\s)", re.IGNORECASE)


_NEGATED = re.compile(r"\b(?:nao|not|no|nem|nunca|jamais)$")
# a copula's one word, then a condition: what the head is when ("… é defeituoso quando")
_QUALIFIED = re.compile(r"(\w+)\s+(?:quando|sempre que|se|when|if|cuando|si)\b")


@dataclass(frozen=True)
class Defined:
    """What a definition question asks about: its content terms, and its content words in
    order (folded, unstemmed) and its language, for a head written in another language."""

    terms: frozenset[str]
    words: tuple[str, ...]
    language: str = ""

    def __bool__(self) -> bool:
        return bool(self.terms)


NOT_A_DEFINITION = Defined(frozenset(), ())


def _content_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in _TOKEN.findall(fold(text)) if len(w) >= 3 and w not in NOT_CONTENT)


def defined_thing(question: str) -> Defined:
    """What a definition question asks about (falsy: not one), without the qualifier that
    names the source ("…, segundo a LGPD")."""
    folded = fold(without_qualifier(question))
    match = (_DEFINITION_CUE.search(folded) or _DEFINITION_ASKED.match(folded)
             or _DEFINITION_QUESTION.match(folded))
    if not match:
        return NOT_A_DEFINITION
    thing = match.group(1)
    return Defined(terms(thing), _content_words(thing), question_language(question))


def defines(unit_text: str, thing: Defined, language: str = "", context: str = "") -> bool:
    """Whether the sentence or item opens by defining exactly `thing` ("dado pessoal
    sensível: dado pessoal sobre origem racial…"; not "dado pessoal: …"). In a passage in
    another `language` than the question's, the head may match word for word, each a
    cognate ("dato personal sensible" → "dado pessoal sensível", `text.cognates.same_word`);
    within one language a near word is another word ("pesquisa" is not "pesquisador").
    A unit of a law opening with the copula ("É enganosa qualquer…") defines its head, and
    with the words `context` (its division's title) has of the thing, the thing ("DA
    PUBLICIDADE": "publicidade enganosa")."""
    if not thing:
        return False
    inverted = _DEFINES_INVERTED.match(unit_text[_LABEL.match(unit_text).end():])  # type: ignore[union-attr]
    if inverted is not None:
        named = terms(inverted.group(1))
        if named and named <= thing.terms and thing.terms - named <= terms(context):
            return True
    head = _defined_head(unit_text)
    if head is None or _NEGATED.search(fold(head.group(1))):
        return False  # ("O serviço não é considerado defeituoso …" defines nothing)
    named = terms(head.group(1))
    # ("O serviço é defeituoso quando …" defines a defective service, not a service)
    if (qualified := _QUALIFIED.match(fold(head.string[head.end():]))) is not None:
        named |= terms(qualified.group(1))
    if named == thing.terms:
        return True
    if not language or not thing.language or language == thing.language:
        return False
    words = _content_words(head.group(1))
    return len(words) == len(thing.words) and all(
        same_word(a, b) for a, b in zip(words, thing.words, strict=True))


def _defined_head(text: str) -> re.Match[str] | None:
    """The thing `text` opens by defining, past its label (`_DEFINES`'s group 1), or None."""
    return _DEFINES.match(text[_LABEL.match(text).end():])  # type: ignore[union-attr]


def defines_in_list(law: StructuralUnit, thing: Defined) -> bool:
    """An item of a law's list defining the asked thing with its list's lead: "As
    instituições de ensino … classificam-se nas seguintes categorias: I – públicas, assim
    entendidas as …" defines "instituições de ensino públicas" (the item names what the
    lead does not; together they name exactly the thing)."""
    if not thing or law.holder is None or not law.lines:
        return False
    head = _defined_head(law.lead)
    if head is None:
        return False
    named = terms(head.group(1))
    rest = thing.terms - named
    return bool(named) and bool(rest) and named < thing.terms and rest <= terms(law.lines[0])

# what ends a run of words side by side: punctuation, a line break ("… tem por finalidade:"
# then its chapter's title "Da educação superior" is no "finalidade da educação")
_PHRASE_BREAK = re.compile(r"[.,;:!?()\[\]\"“”\n]+")


def _pairs(text: str) -> set[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for run in _PHRASE_BREAK.split(fold(text)):
        words = [light_stem(w) for w in _TOKEN.findall(run)
                 if w not in NOT_CONTENT and (len(w) >= 3 or w.isdigit())]
        pairs.update(zip(words, words[1:], strict=False))
    return pairs


# words that go on a sentence without narrowing the thing it names: verbs of a law's
# provisions and adverbs ("O tratamento de dados pessoais somente poderá…")
_NOT_NARROWING = frozenset(fold(w) for w in ["será", "serão", "poderá", "poderão", "deverá", "deverão", "é", "são", "tem", "têm", "terá", "terão", "fica", "ficam", "deve", "devem", "pode", "podem", "compete", "cabe", "constitui", "constituem", "compreende", "compreendem", "abrange", "inclui", "shall", "may", "must", "will", "is", "are", "has", "have", "can", "será", "podrá", "deberá", "es", "son", "tiene", "puede", "deben"])


_PREPOSITIONS = frozenset(["de", "da", "do", "das", "dos", "pelo", "pela", "pelos", "pelas", "por", "para", "em", "no", "na", "nos", "nas", "com", "of", "for", "by", "in", "para", "del", "con"])
_AND_OR = frozenset(["e", "ou", "and", "or", "y", "o"])  # "direta e indireta"
# an adverb (-mente), a participle, an infinitive or a verb's future ("O término do
# tratamento … ocorrerá", "… aplicarão"; a stem of four letters or more before it, so not
# "severa", and not the "-eira" of "financeira"): the sentence goes on, it does not
# qualify the thing named ("… será composto de", "… definidos como", "… somente poderá")
_GOES_ON = re.compile(r"(?:mente|[aei]d[oa]s?|[aei]r|ndo)$|^\w{4,}(?:ara|era|[^e]ira|[aei]rao)$")


def _content_tokens(text: str) -> list[str]:
    return [w for w in _TOKEN.findall(fold(text)) if w not in NOT_CONTENT
            and (len(w) >= 3 or w.isdigit())]


def narrows(question: str, text: str) -> bool:
    """Whether `text` names what the question asks about with a qualifier the question does
    not have: asked about "tratamento de dados pessoais", it says "tratamento de dados
    pessoais sensíveis" (the special case, not the rule). The longest run of the question's
    content words (two or more) that `text` says in order, and the word right after it in
    `text` (past one preposition: "… pelas pessoas jurídicas"): a qualifier unless it is in
    the question, a function word, an adverb, a participle, an infinitive or a verb that
    goes on the sentence ("… será composto de", "… somente poderá")."""
    asked = [light_stem(w) for w in _content_tokens(without_qualifier(question))]
    folded = fold(text)
    spans = [m.span() for m in _TOKEN.finditer(folded)]
    raw = [folded[a:b] for a, b in spans]
    content = [i for i, w in enumerate(raw) if w not in NOT_CONTENT and (len(w) >= 3
                                                                          or w.isdigit())]
    stems = [light_stem(raw[i]) for i in content]
    best, end = 0, -1
    for i in range(len(stems)):
        for j in range(len(asked)):
            n = 0
            while i + n < len(stems) and j + n < len(asked) and stems[i + n] == asked[j + n]:
                n += 1
            if n > best:
                best, end = n, content[i + n - 1]
    if best < 2:
        return False
    after = end + 1
    if after < len(raw) and raw[after] in _PREPOSITIONS:
        after += 1
    # a qualifier follows the phrase: past a comma or a colon the sentence says something
    # else of it ("A educação infantil, primeira etapa da educação básica, …": an apposition)
    if after >= len(raw) or any(folded[spans[i][1]:spans[i + 1][0]].strip(" \n\t-")
                                for i in range(end, after)):
        return False
    following = raw[after]
    # "direta e indireta", "urbanos e rurais": both cases named, the whole, not a special one
    coordinated = after + 2 < len(raw) and raw[after + 1] in _AND_OR
    return (following not in NOT_CONTENT and following not in _NOT_NARROWING
            and light_stem(following) not in asked and not _GOES_ON.search(following)
            and not coordinated)


_ADJACENT = re.compile(r"(\w+)(?=\s+(\w+))")


# what cannot qualify a thing: a verb's plural or past ("despesas contam", "dados ficaram"),
# adverbs ("os dados ainda…", "guardar os dados depois de…") and prepositions of time
_NOT_QUALIFIER = re.compile(r"(?:am|em|ou|iam|mente)$|^(?:ainda|sempre|apenas|somente|tambem"
                            r"|ja|mais|menos|muito|bem|mal|hoje|agora|nunca|jamais|so|depois"
                            r"|antes|apos|durante|logo|entao|assim|despues|luego|entonces"
                            r"|todavia|siempre|solo|ahora)$")


def adjacent_pairs(text: str) -> list[tuple[str, str]]:
    """A thing and the word right after it (no punctuation between, both content words, the
    second one not a verb or an adverb: "educação básica", "trabalho escolar"),
    light-stemmed."""
    out = []
    for match in _ADJACENT.finditer(fold(text)):
        first, second = match.group(1), match.group(2)
        if (all(w not in NOT_CONTENT and len(w) >= 3 and not w.isdigit() for w in (first, second))
                and not _NOT_QUALIFIER.search(second) and not _GOES_ON.search(second)
                and second not in _NOT_NARROWING):
            out.append((light_stem(first), light_stem(second)))
    return out


# the thing a "which/what is" question asks to name: "Qual é a natureza jurídica da ANPD?"
_ASKED_THING = re.compile(r"^\W*(?:qual|quais|what|which|cual|cuales)\s+(?:(?:e|sao|foi|era|is|are"
                          r"|was|es|son|fue)\s+)?(?:(?:o|a|os|as|the|el|la|los|las)\s+)?(\w+)")


def contrasts(question: str, text: str) -> bool:
    """Whether `text` names a thing of the question with another qualifier, and never with
    the question's: asked about "educação básica", it says "educação superior"; asked about
    "trabalho escolar", "trabalho acadêmico" (a sibling provision, not the one asked). Only
    a qualifier right after the thing counts, and not a word that goes on the sentence. The
    thing a "qual é…" question asks to name is no sibling: "Qual é a natureza jurídica da
    ANPD?" is answered by "autarquia de natureza especial"."""
    asked_thing = _ASKED_THING.search(fold(question))
    named = light_stem(asked_thing.group(1)) if asked_thing else ""
    asked = [pair for pair in adjacent_pairs(without_qualifier(question)) if pair[0] != named]
    if not asked:
        return False
    said = adjacent_pairs(text)
    said_set = set(said)
    asked_words = {w for pair in asked for w in pair} | {
        light_stem(w) for w in _content_tokens(question)}
    for head, qualifier in asked:
        if (head, qualifier) in said_set:
            continue
        for first, second in said:
            if first == head and second not in asked_words:
                return True
    return False


# a denial or a prohibition (folded; pt / es / en): "é vedado à União…", "Não será objeto
# de deliberação…", "Esta Lei não se aplica…", "no podrá", "may not"
# ("não" before a verb: "grupos não-seriados", "não onerosa" deny nothing; "not" after
# one: "not less than 200 days" is a bound)
_DENIES = re.compile(
    r"\b(?:nao (?:se |lhe |lhes )?(?:pode|podem|podera|poderao|sera|serao|havera|ha|e|sao"
    r"|esta|estao|cabe|cabera|tera|terao|deve|devem|devera|deverao|perde|perdera|constitu\w+"
    r"|aplica\w*|incid\w*|implica\w*|obriga\w*|permit\w*|conta|contam|inclu\w*"
    r"|considera\w*)|nunca|jamais|vedad[oa]s?"
    r"|proibid[oa]s?|proibicao|defes[oa]s?|(?:may|shall|must|will|can|does|do|is|are) not"
    r"|cannot|never|prohibited|forbidden|prohibid[oa]s?|prohibe|prohibicion"
    r"|no (?:se |le |les |lo |la )?(?:puede|pueden|podra|podran|debe|deben|es|son|sera"
    r"|seran|habra|aplica|aplicara|constituye|constituyen|esta|estan|cuenta|cuentan"
    r"|incluye|incluyen|considera|consideran))\b")
# what may be done: "Quem pode propor…?", "Sobre o que a União pode cobrar impostos?"
_PERMITS = re.compile(r"\b(?:pode|podem|podera|poderao|permitid[oa]s?|can|may|allowed"
                      r"|puede|pueden|podra|podran)\b")


def polarity(text: str) -> bool | None:
    """False when `text` denies or forbids (`_DENIES`), True when it says what may be done,
    None when it says neither (a question that asks no permission: "Quais são…?")."""
    folded = fold(text)
    if _DENIES.search(folded):
        return False
    return True if _PERMITS.search(folded) else None


def opposes(question: str, lead: str) -> bool:
    """Whether a list's lead says the opposite of what the question asks: asked what the
    Union "pode" tax, art. 150's "é vedado à União …:" lists what it may not; asked what
    "não pode" be abolished, a lead that grants. A question that asks neither opposes
    nothing, and a lead that does not deny grants."""
    asked = polarity(question)
    return asked is not None and asked != (polarity(lead) is not False)


# A question answered yes or no about what may, must or does apply ("O operador pode tratar
# os dados do jeito que quiser?", "A LGPD vale para empresas com sede fora do Brasil?", "Is
# the controller required to…?"): a rule answers it, a sentence that permits, obliges,
# forbids or applies. An asking word anywhere ("… fica a cargo de quem?", "Há quantos
# anos…?") makes it another question; "que", "quando", "como" and "onde" ask only where a
# clause starts ("A partir de que idade…?", "Nas relações de consumo, que regras…?"), as
# elsewhere they relate ("do jeito que quiser") or join ("acaba quando o tratamento termina").
_ALWAYS_ASKS = re.compile(r"\b(?:qual|quais|quem|quant[oa]s?|what|which|who|whom|whose|how|why"
                          r"|cual|cuales|quien|quienes|cuant[oa]s?|por que|porque)\b")
_ASKS_AT_CLAUSE = re.compile(
    rf"{_CLAUSE_START}(?:o que|que|quando|como|onde|when|where|cuando|como|donde)\b")
_NORM_ASKED = re.compile(
    r"\b(?:pode|podem|posso|podemos|poderia|deve|devem|devo|precisa|precisam|preciso"
    r"|aplica|aplicam|obrigad[oa]s?|obrigatori[oa]s?|permitid[oa]s?|proibid[oa]s?|vedad[oa]s?"
    r"|puede|pueden|puedo|debe|deben|debo|necesita|necesitan|obligad[oa]s?|obligatori[oa]s?"
    r"|prohibid[oa]s?|can|may|must|should|required|allowed|permitted|compulsory|mandatory"
    r"|apply|applies)\b")
# … and what such a rule says: a modal verb, a permission, a prohibition, a duty or that a
# law applies ("O operador deverá realizar o tratamento…", "Esta Lei aplica-se…",
# "… autorizada a conservação para …", "obriga-se a garantir…")
_NORM_SAID = re.compile(
    r"\b(?:pode|podem|podera|poderao|deve|devem|devera|deverao|vedad[oa]s?|proibid[oa]s?"
    r"|permitid[oa]s?|facultad[oa]s?|autorizad[oa]s?|obrigam?(?=-se)|obrigad[oa]s?"
    r"|obrigatori[oa]s?|aplica(?:m|ra|rao)?(?=-se)|se aplica(?:m|n|ra|rao|ran)?|puede|pueden"
    r"|podra|podran|debe|deben|debera|deberan|prohibid[oa]s?|obligad[oa]s?|obligatori[oa]s?"
    r"|may|must|shall|can|cannot|required|prohibited|permitted|allowed"
    r"|applies|apply|assegurad[oa]s?|garantid[oa]s?|tem direito|tem o direito|direito a"
    r"|direito de|acessive(?:l|is)|tiene derecho|right to|entitled)\b")


def asks_norm(question: str) -> bool:
    """Whether the question asks, to be answered yes or no, whether something may, must or
    does apply ("Os titulares podem defender seus direitos na Justiça em grupo?")."""
    folded = _asking_text(question)
    return bool(_NORM_ASKED.search(folded) and not _ALWAYS_ASKS.search(folded)
                and not _ASKS_AT_CLAUSE.search(folded))


def states_norm(text: str) -> bool:
    """Whether `text` permits, obliges, forbids or applies something (`_NORM_SAID`)."""
    return bool(_NORM_SAID.search(fold(text)))


def shared_phrases(question: str, text: str) -> float:
    """The share of the question's pairs of consecutive content words that `text` also has
    side by side ("dados pessoais sensíveis", "efetivo trabalho escolar")."""
    asked = _pairs(without_qualifier(question))
    return len(asked & _pairs(text)) / len(asked) if asked else 0.0


def replaced_qualifiers(followup: str, earlier: str) -> frozenset[str]:
    """The words of `earlier` that a follow-up names a sibling of (light-stemmed): after
    "Quais são as finalidades do ensino médio?", "e do ensino fundamental?" asks the same
    of another stage, so "médio" is not carried; "and for sensitive data?" after "… personal
    data?" replaces "personal". A pair of `earlier` ("ensino médio") whose head the
    follow-up pairs with another qualifier ("ensino fundamental") loses its qualifier; the
    head comes first in Portuguese and Spanish, last in English ("vulnerabilidade social"
    is no sibling of "direitos sociais"). The follow-up's qualifier may follow "de" ("e de
    dados de crianças?" after "… dados pessoais sensíveis?"), and a replaced qualifier's
    own ("sensíveis" of "pessoais") goes with it."""
    head_last = question_language(followup) == "en"
    own = [pair[::-1] if head_last else pair for pair in adjacent_pairs(followup)]
    if not head_last:
        own += [(light_stem(head), light_stem(qualifier))
                for head, qualifier in _OF.findall(fold(followup))
                if head not in NOT_CONTENT and qualifier not in NOT_CONTENT]
    said = [pair[::-1] if head_last else pair for pair in adjacent_pairs(earlier)]
    replaced = {qualifier for head, qualifier in said
                if any(head == own_head and qualifier != own_qualifier
                       for own_head, own_qualifier in own)}
    grown = not head_last  # (English stacks its qualifiers before the head, unchained)
    while grown:  # "dados pessoais sensíveis": "sensíveis" qualifies the replaced "pessoais"
        more = {qualifier for head, qualifier in said if head in replaced} - replaced
        replaced |= more
        grown = bool(more)
    return frozenset(replaced)


# a thing and what it is of ("dados de crianças", "ensino da arte"), folded
_OF = re.compile(r"\b(\w{3,})\s+(?:de|da|do|das|dos|del)\s+(\w{3,})\b")
