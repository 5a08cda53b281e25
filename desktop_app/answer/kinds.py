"""What kind of answer a question asks for, and whether a passage states one.

"Qual a alíquota…?" wants a percentage, "Quanto ganha…?" an amount of money, "Em quantos
anos prescreve…?" a duration, "Quantos anos de prisão…?" a prison term, "A que horas…?" a
time of day, "Quantos servidores…?" a count, "Qual a pena para…?" a term, a fine or a
share, "Qual a profundidade…?" a length. A passage of a law is full of numbers that are
not answers (article and paragraph labels, "Lei nº 13.709", "inciso III"), so those are
taken out before looking: a quote that only names "§ 7º" does not state a duration. The
"not found" gate weighs whether the chosen quote states what was asked
(answer/abstain.py), and the ranking of a law's units prefers one that does
(answer/extractive.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from desktop_app.text.fold import fold
from desktop_app.text.tables import cells, is_row, is_year

# ("um", "uma" and the Spanish "dos" are left out: in Portuguese they are the articles and
# "of the" of nearly every sentence, so "II - Conselho … dos …" would state a count)
_NUMBER_WORDS = (r"dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze|"
                 r"treze|catorze|quatorze|quinze|dezesseis|dezessete|dezoito|dezenove|vinte|"
                 r"trinta|quarenta|cinquenta|sessenta|setenta|oitenta|noventa|cem|cento|"
                 r"duzentos|trezentos|quatrocentos|quinhentos|seiscentos|setecentos|"
                 r"oitocentos|novecentos|duzentas|trezentas|quatrocentas|quinhentas|"
                 r"seiscentas|setecentas|oitocentas|novecentas|mil|milhao|milhoes|bilhao|bilhoes|"
                 r"one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|"
                 r"thirty|hundred|thousand|million|cuatro|cinco|seis|siete|ocho|nueve|"
                 r"diez|quince|veinte|treinta|cien|mil|millon|millones")
# "setenta e cinco", "vinte e um", "treinta y una", "23 (vinte e três)", whole (atomic)
_QUANTITY = (rf"(?>\d[\d.,]*|(?:{_NUMBER_WORDS})\b(?:\s+(?:e|y|and)\s+(?:{_NUMBER_WORDS}"
             r"|um|uma|uno|una)\b)*)(?:\s*\([^)]{1,30}\))?")
_TIME_UNITS = (r"dias?|meses|mes|anos?|horas?|semanas?|minutos?|segundos?|decadas?|"
               r"days?|months?|years?|hours?|weeks?|minutes?|semestres?|bimestres?|"
               r"trimestres?|anos letivos|yrs?|hrs?|mins?|wks?")  # ("a 15-yr charter")
# one of a time unit is a value ("um ano", "uma semana"), unlike a bare "um"/"uma"
_SPAN = rf"(?:{_QUANTITY}|\b(?:um|uma|one)\b)"

_MONEY = (r"(?:r\$|us\$|\$|€|£)\s?\d|\b\d[\d.,]*\s*(?:reais|real|dolares|dollars|euros"
          r"|salarios? minimos?)\b|\b(?:" + _NUMBER_WORDS + r")\s+(?:reais|salarios? "
          r"minimos?|milhoes de reais|mil reais)\b"
          # a multiple of an amount named beside it ("por valor igual ao dobro do que pagou",
          # "devolvido em dobro")
          r"|\b(?:o|ao|em|el|al|en) (?:dobro|triplo|quadruplo|doble|triple|cuadruple)\b")
# (a fraction is a share: "por três quintos dos votos", "dois terços dos membros")
_FRACTION = r"(?:ter[cç]|quint|sext|s[eé]tim|oitav|d[eé]cim|cent[eé]sim)os?"
_PERCENT = (r"%|\bpor cento\b|\bpercent\b|\b(?:um|dois|1|2) ter[cç]os?\b|\bmetade\b"
            r"|\b(?:um|uma) quarto\b|\bhalf\b|\bone third\b|\btwo thirds\b"
            rf"|\b(?:{_NUMBER_WORDS}|um|\d+) {_FRACTION}\b")
_LENGTH = rf"{_SPAN}[\s-]*(?:{_TIME_UNITS})\b"  # so many units of time ("dois anos", "15 days")
_DURATION = (rf"{_LENGTH}|\bimediatamente\b|\bimmediately\b"
             r"|\bate (?:o|a) (?:\d+º?|primeir[oa]|ultim[oa]) (?:dia|semana|mes|ano)\b"
             r"|\bprazo (?:razoavel|de|maximo)\b")
_IMPRISONMENT = (r"(?:reclusao|detencao|prisao|carcel|prision|cadeia|privativa de liberdade"
                 r"|imprisonment|prison|jail)")

# what states a date: a year, a day of a month, "vigência", "… dias após a publicação", a
# school year
_DATE_STATED = re.compile(
    r"\b(?:1[5-9]\d{2}|20\d{2})\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{1,2}º? de "
    r"(?:janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|setembro|outubro"
    r"|novembro|dezembro)\b|\b(?:january|february|april|june|july"
    r"|august|september|october|november|december)\b"
    # ("may" and "march" are verbs too: "the FAA may amend" states no date)
    r"|\b(?:may|march)\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:may|march)\b"
    r"|\bvigencia\b|\bdias? apos\b"
    r"|\bapos (?:decorrid|a data|a public)\w*\b|\bdata de sua publicacao\b"
    r"|\b(?:primeiro|segundo|terceiro|quarto|quinto|sexto|setimo|oitavo|nono"
    r"|ultimo|\d+º?) ano\b")
# … and a start, for a question asking from when ("A partir de quando as medidas de
# segurança precisam ser observadas?": "desde a fase de concepção do produto"); not
# "desde que", a condition
_START = (r"\bdesde (?!que\b)(?:o|a|os|as|sua|seu|suas|seus|el|la|los|las|the)\s+\w"
          r"|\ba partir d[aoe]s?\b|\ba contar d[aoe]s?\b|\bsince\b|\bas of\b"
          r"|\bfrom the (?:date|day|moment|time|start|beginning)\b"
          # what starts a count or a time limit, and when ("o prazo decadencial inicia-se
          # no momento em que ficar evidenciado o defeito", "contado de seu recebimento")
          r"|\b(?:inicia-se|iniciando-se|tem inicio|se inicia|comienza|begins|starts)\b"
          r"|\bno momento em que\b|\ben el momento en que\b|\bcontad[oa]s? (?:d[aoe]s?|a partir)\b")

# (kind, question cue, what a passage must state), on folded text. A share is named by
# its own nouns, an amount often by the bare "valor", so "Qual o valor da taxa de juros?"
# asks for a share: its cue comes first
KINDS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    ("percent", re.compile(
        r"\b(?:percentual|percentuais|porcentagem|aliquota|aliquotas|que fracao|que parcela"
        r"|what percent(?:age)?|what share|what fraction|porcentaje|que fraccion"
        r"|alicuota|alicuotas|(?:tax|interest) rates?|tasas? de interes|taxas? de juros"
        r"|tipo impositivo)\b"),
     re.compile(_PERCENT)),
    ("money", re.compile(
        r"\b(?:quanto (?:ganha|ganham|custa|custam|vale|recebe|recebem|paga|pagam|cobra)"
        r"|(?:qual|quais) (?:e |sao )?(?:o |a |os |as )?(?:valor|valores|preco|precos|salario"
        r"|salarios|mensalidade|remuneracao|custo|taxa(?! de juros)|multa|piso|teto|orcamento)"
        r"|how much (?:does|do|is|are|will)|what (?:is|are|was|were) the (?:\w+ ){0,2}?"
        r"(?:price|salary|fee|cost|fine|tuition|wage)s?"
        r"|cuanto (?:gana|ganan|cuesta|cuestan|cobra|cobran|paga|pagan|vale|recibe|reciben)"
        r"|cual(?:es)? (?:es |son )?(?:el |la |los |las )?(?:salario|salarios|precio|precios"
        r"|valor|valores|costo|costos|tasa(?! de interes)|multa|mensualidad|remuneracion|importe|monto|tope"
        r"|presupuesto))\b"),
     re.compile(_MONEY)),
    ("clock", re.compile(r"\b(?:a que horas?|que horas?|what time|a que hora)\b"),
     re.compile(r"\b\d{1,2}\s?(?:h|horas?)\s?\d{0,2}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b")),
    # (a "speed-up" is a factor, not a speed); a speed is so much per hour, second, minute
    ("speed", re.compile(r"\b(?:velocidade|speed|velocidad)\b(?![\s-]?ups?\b)"),
     re.compile(r"\bkm\s?/\s?h\b|\bmph\b|\bknots?\b|\d\s?[a-z]*\s?/\s?(?:s|h|min|seg)\b"
                r"|\b(?:por|per) (?:hora|segundo|minuto|hour|second|minute)\b")),
    # a physical measure: "Qual a profundidade do poço?" is answered by "2.000 metros"; English
    # names it after its modifiers ("the maximum takeoff weight"), as it names a price
    ("measure", re.compile(
        r"\b(?:(?:qual|quais) (?:e |sao |sera |era )?(?:a |o |as |os )?(?:profundidade|altura"
        r"|comprimento|distancia|largura|espessura|diametro|peso)|how (?:deep|tall|high|far|wide"
        r"|thick|heavy|long is the)|what (?:is|was|are|were) the (?:\w+ ){0,2}?(?:depth|height"
        r"|length|distance|width|thickness|diameter|weight)s?|cual (?:es |era )?(?:la |el )?(?:profundidad|altura"
        r"|longitud|distancia|anchura|espesor|diametro|peso))\b"),
     re.compile(rf"{_QUANTITY}\s*(?:m|km|cm|mm|metros?|quilometros?|kilometros?|kilometers?"
                r"|kilometres?|meters?|metres?|centimetros?|milimetros?|pes|feet|foot|ft|milhas?"
                r"|miles?|polegadas?|inches?|toneladas?|tons?|tonnes?|t|kg|quilos?|quilogramas?"
                r"|gramas?|g|lbs?|libras?|pounds?)\b")),
    # a mark or score: "Qual a nota mínima para ser aprovado?" is answered by "nota igual ou
    # superior a nove (9,0)", not by "poderá estabelecer nota mínima em exame nacional"
    # ("Qual a pontuação…?", "What is the grade…?" may ask how it is scored, or a school year)
    ("score", re.compile(
        r"\b(?:(?:qual|quais) (?:e |sera |era )?(?:a |as )?(?:nota|notas)"
        r"|what (?:is|was|are|were) the (?:\w+ ){0,2}?scores?"
        r"|cual (?:es |sera |era )?(?:la |las )?(?:nota|notas))\b"),
     re.compile(rf"\b(?:nota|notas|media|pontuacao|pontos|score|grade|mark|puntuacion"
                rf"|calificacion)\b[^.;:\n]{{0,40}}?(?<![\w,.]){_QUANTITY}"
                rf"|{_QUANTITY}\s+(?:pontos|points|puntos)\b")),
    # ("Com quantos anos se pode votar?" asks an age; "Em quantos anos prescreve…?" a length)
    ("age", re.compile(r"\b(?:idade|quantos anos (?:tem|tinha|tinham|teria|completou|completa)"
                       r"|(?:com|a partir de) quantos anos|how old|what age|edad"
                       r"|cuantos anos (?:tiene|tenia|cumplio)|(?:con|a partir de) cuantos anos)\b"),
     re.compile(rf"{_SPAN}\s*(?:anos|years|anos de idade|years old)\b|\bidade (?:minima|"
                r"maxima|de)\b")),
    # a prison term is the length of an imprisonment, stated beside it ("reclusão, de dois
    # a cinco anos", "3 anos de detenção"), not any length of time ("mandato de 2 anos")
    ("prison", re.compile(
        r"\b(?:penas? de (?:prisao|reclusao|detencao|prision|carcel)|anos de (?:prisao|reclusao"
        r"|detencao|carcel|prision|cadeia)|(?:prison|jail) (?:term|sentence|time)"
        r"|years (?:in|of) (?:prison|jail))\b"),
     # (a length: "imediatamente" answers a deadline, it is no prison term)
     re.compile(rf"\b{_IMPRISONMENT}\b[^;\n]{{0,60}}?(?:{_LENGTH})"
                rf"|(?:{_LENGTH})\s+(?:de|of|in)\s+{_IMPRISONMENT}\b")),
    # from when: a date or a start ("desde a fase de concepção"); before a time limit, so
    # "A partir de quando conta o prazo…?" asks when it starts, not how long it is
    ("start", re.compile(r"\b(?:desde quando|a partir de quando|since when|from when"
                         r"|desde cuando|a partir de cuando)\b"),
     re.compile(rf"{_DATE_STATED.pattern}|{_START}")),
    ("duration", re.compile(
        r"\b(?:prazo|prazos|quanto tempo|por quanto tempo|em quanto tempo|durante quanto tempo"
        r"|quanto duram?|cuanto duran?"
        r"|(?:qual|quais) (?:e |sao |sera )?(?:a |as )?(?:duracao|jornada|carga horaria)"
        r"|quant[oa]s (?:dias|meses|anos|horas|semanas|minutos|semestres|bimestres|trimestres)"
        r"|how long|how many (?:days|months|years|hours|weeks)|deadline|plazo|cuanto tiempo"
        r"|cuant[oa]s (?:dias|meses|anos|horas|semanas|minutos|semestres|bimestres|trimestres)"
        r"|cual (?:es |sera )?(?:la )?(?:duracion|jornada|carga horaria)"
        r"|(?:number|numero) (?:(?:minimo|maximo|total) )?(?:of|de) (?:\w+ ){0,2}?(?:days|months"
        r"|years|hours|weeks|dias|meses|anos|horas|semanas))\b"),
     re.compile(_DURATION)),
    # "Qual a pena para…?" asks how heavy: a term, a fine or a share ("reclusão, de 2 a 5
    # anos", "multa de até 2% do faturamento"); "Quais penas são proibidas?" asks a list
    ("penalty", re.compile(
        r"\b(?:qual (?:e |sera )?a pena|que pena|what (?:is )?the (?:penalty|punishment|sentence)"
        r"|what (?:penalty|punishment|sentence)|cual (?:es )?la pena)\b"),
     re.compile(f"{_DURATION}|{_MONEY}|{_PERCENT}")),
    ("date", re.compile(
        r"\b(?:quando|when|cuando|em que (?:ano|data|dia|mes)"
        r"|(?:que|qual|which|what) (?:e )?(?:o |a |the )?(?:ano|data|dia|year|date|day|fecha)"
        r"|en que (?:ano|fecha|dia|mes))\b"),
     _DATE_STATED),
    # a count of things, not of hours, money, a share or a date ("Quantos alunos…?" is not
    # answered by "oitocentas horas" nor by "2 de março de 2017")
    # ("the maximum number of students" asks how many; "o número de matrícula" asks a code)
    ("count", re.compile(r"\b(?:quantos|quantas|how many|cuantos|cuantas"
                         r"|(?:maximum|minimum|total) number of"
                         r"|numero (?:maximo|minimo|total) de)\b"),
     re.compile(rf"(?!(?<=\bpor )cento\b){_QUANTITY}\s+(?!(?:{_TIME_UNITS}|{_FRACTION}|por cento|percent"
                r"|reais|real|dolares|dollars|euros|salarios? minimos?|de (?:janeiro|fevereiro"
                r"|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro))\b)"
                r"(?<!\b(?:1[5-9]|20)\d\d\s)"
                r"[a-z]|\b(?:um|uma) (?:unic[oa]|so)\b|\b(?:apenas|somente|so|exatamente|only|just"
                r"|exactly|solo|solamente) (?:por |de |by )?(?:um|uma|one|un|una) [a-z]"
                # (a number of them: "parlamentares … reunidos em número não inferior a
                # trinta", "em número de sete")
                rf"|\bnumero (?:(?:nao )?(?:inferior|superior|igual|minimo|maximo) (?:a|de) |de )?"
                rf"{_QUANTITY}"
                r"|\b(?:only )?once\b")),
)
# numbers that are references, not values: "Art. 18", "§ 2º", "Lei nº 13.709, de 2018",
# "inciso III", "alínea b", an item's own label ("IV - ")
_REFERENCES = re.compile(
    r"\bart(?:igo)?s?\.?\s*\d+[º°o]?(?:-[a-z])?(?:\s*(?:,|e)\s*\d+[º°o]?)*|§+\s*\d+[º°o]?"
    r"|\b(?:lei|decreto|medida provisoria|emenda constitucional|resolucao|portaria)"
    r"(?: complementar)?\s*n?[º°o.]*\s*[\d.]+(?:\s*,\s*de\s*[\d\w ]+?\d{4})?"
    r"|\bincisos?\s+[ivxlc]+|\balineas?\s+[a-z]\b|^\s*[ivxlc]+\s*[-–—]\s*|\bn[º°]\s*[\d.]+")


# the question's asking word; the first one decides what is asked. "Quem deve ser avisado
# quando acontece um incidente?" asks for a body, not a date; "Onde são definidos os
# prazos?" for a place, not a duration.
_ASKING = re.compile(
    r"\b(?:o que|por que|porque|para que|quem|onde|como|qual|quais|que|quant[oa]s?|quando"
    r"|desde quando"
    r"|how (?:many|much|long|old|often|far)|how|who|whom|whose|where|why|what|which|when"
    r"|quien|quienes|donde|cual|cuales|cuant[oa]s?|cuando)\b")
_NO_VALUE = frozenset(("o que", "por que", "porque", "para que", "quem", "onde", "como", "how",
                       "who", "whom",
                       "whose", "where", "why", "quien", "quienes", "donde"))


def asked_kind(question: str) -> str | None:
    """The first kind of `KINDS` the question asks for, or None. None as well when its first
    asking word asks for something else than a value (quem, onde, como, o que, por que)."""
    # (imported here: question_fit reads a law's units, which read the kinds)
    from desktop_app.answer.question_fit import asks_norm

    folded = fold(question)
    asking = _ASKING.search(folded)
    if asking is not None and asking.group() in _NO_VALUE:
        return None
    if asking is None and asks_norm(question):
        # asked yes or no whether something may be done (no asking word), a time limit or
        # an amount is what it is about, not what it asks: "O consumidor pode quitar o
        # financiamento antes do prazo?" is answered by "É assegurado… a liquidação
        # antecipada do débito"
        return None
    for kind, cue, _ in KINDS:
        if any(not _conjunction(found, asking) for found in cue.finditer(folded)):
            return kind
    return None


def _conjunction(found: re.Match[str], asking: re.Match[str] | None) -> bool:
    """A bare "quando" after the word that asks joins a condition, it asks no date:
    "Quais opções o consumidor tem quando um serviço é mal feito?"."""
    return found.group() in ("quando", "when", "cuando") and (
        asking is None or found.start() != asking.start())


# the cues that want a value. "Quando…?" is as often answered by an event or a condition
# ("na Segunda Guerra", "quando houver vagas") as by a date, and "Qual o valor de um
# crédito?" by "15 horas"; the other cues of `KINDS` want a value of their kind. A count
# may name its things otherwise ("Quantos membros…?": "23 representantes"), so any number
# of things states one, but not a number of hours, money or a share.
_DATE_VALUE = re.compile(r"\b(?:(?:em|de|no|na|in|en) )?(?:que|qual|which|what) (?:e )?(?:o |a |the )?"
                         r"(?:ano|data|dia|mes|year|date|fecha)\b"
                         # (when a law takes effect: a date, or so long after its
                         # publication; "Quando o código entrou em vigor?")
                         r"|\b(?:quando|cuando|when)\b.*\b(?:(?:entra|entrou|entram|entraram"
                         r"|entrara|entrarao|entro|entran|entraron) e[mn] vigor|(?:takes?|took"
                         r"|comes?|came|come) into (?:force|effect)|takes? effect|took effect)\b")
# what is only ever paid, so "Qual o valor da fiança?" wants an amount like "… da multa?"
_PAID = (r"multas?|taxas?(?! de juros)|salarios?|mensalidades?|remuneracao|fianca|bolsas?|indenizacao"
         r"|aluguel|alugueis|tarifas?|pensao|pensoes|auxilio|premio|contribuicao|impostos?"
         r"|tributos?|honorarios|diarias?|subsidio|emprestimo|financiamento|parcelas?"
         r"|causa|divida|anuidade|inscricao|passagem|ingresso|frete|pedagio|aposentadoria"
         r"|beneficio|piso|teto|orcamento|investimento|contrato|custas|emolumentos"
         r"|adicional|adicionais|gratificacao|abono")
# "Qual o valor de um crédito?": a worth, or a value of any kind ("15 horas"), unless what it
# is of is only ever paid ("o valor da bolsa") or the question bounds it ("o valor máximo de
# uma compra parcelada": an amount)
_BARE_VALUE = re.compile(r"\b(?:qual|quais) (?:e |sao )?(?:o |os )?valor(?:es)?\b(?! (?:\w+ )?(?:de|da|do|das|dos)"
                         rf" (?:{_PAID})\b)(?! (?:maximo|minimo|limite|total)s?\b)")


def asked_value(question: str) -> str | None:
    """The kind of `asked_kind` when the question can only be answered by a value of that
    kind (a number, an amount, a date), else None. A passage that states no such value does
    not answer it, whatever words it shares with the question."""
    kind = asked_kind(question)
    folded = fold(question)
    if kind == "start" or kind == "date" and not _DATE_VALUE.search(folded):
        return None
    if kind == "money" and _BARE_VALUE.search(folded):
        return None
    return kind


def _stated(kind: str) -> re.Pattern[str]:
    """What a passage must state for `kind` (the third element of its `KINDS` entry)."""
    return next(found for name, _, found in KINDS if name == kind)


def asking_words(question: str, respelled: str | None = None) -> frozenset[str]:
    """The folded words of the phrases by which `question` asks for a kind of value
    ("cuánto tiempo", "qual a idade", "how many days"): what it asks, not what about. Its
    respelling into the passages' language leaves them as typed, or the kind is lost
    ("¿en cuánto tiempo…?" respelled "cuánto tempo" is neither Spanish nor Portuguese).
    Given the question `respelled` whole, none when that still asks the same kind ("¿en qué
    plazo…?" as "en qué prazo": the law's own word, which its passages use)."""
    if respelled is not None and asked_kind(respelled) == asked_kind(question):
        return frozenset()
    folded = fold(question)
    return frozenset(word for _, cue, _ in KINDS for m in cue.finditer(folded)
                     for word in _WORDS.findall(m.group()))


def without_references(text: str) -> str:
    """`text` (folded) without the numbers that cite a law, an article or a paragraph."""
    return _REFERENCES.sub(" ", fold(text))


# a person's age, which no other kind of value is: "dezoito anos de idade", "maiores de
# setenta anos", "aos seis anos", "idade mínima de 35 anos", "65 years old", "aged 18"
_AGE = re.compile(rf"(?:{_LENGTH})\s+(?:de idade|de edad|old|of age)\b"
                  rf"|\b(?:maior|menor|mayor)(?:es)? de (?:{_LENGTH})"
                  rf"|\baos (?:{_LENGTH})|\b(?:idade|edad|age)\b[^;:,\n]{{0,20}}?(?:{_LENGTH})"
                  rf"|\b(?:aged|ages) {_SPAN}")
# a list's lead that says its items are ages: "VI - a idade mínima de:" over "a) trinta e
# cinco anos para Presidente…"
_AGE_LEAD = re.compile(r"\b(?:idade|edad|ages?)\b[^:\n]*:\s*$")


def _without_ages(lines: Sequence[str]) -> list[str]:
    """`lines` (folded, references out) with the ages taken out: the years of a person's
    age are no length of time, no term and no deadline ("Em quantos anos prescreve…?" is
    not answered by "d) dezoito anos para Vereador" under "a idade mínima de:")."""
    kept: list[str] = []
    ages_below = False
    for line in lines:
        line = _AGE.sub(" ", line)
        if ages_below:  # an item under a lead of ages starts with its age
            line = re.sub(rf"^\s*(?:[a-z0-9]{{1,4}}\)\s*)?(?:{_LENGTH})", " ", line)
        ages_below = ages_below or bool(_AGE_LEAD.search(line))
        kept.append(line)
    return kept


def states(kind: str | None, text: str) -> bool:
    """Whether `text` states a value of `kind` (references to laws and articles aside). A
    table's cells take the unit their header names ("Custo (R$)" over "98.400,00"). A
    person's age states only an age (`_without_ages`)."""
    if kind is None:
        return False
    lines = text.split("\n")
    if kind == "count" and _counted(lines):
        return True
    plain_lines = [without_references(line) for line in [*lines, *_with_units(lines)]]
    plain = " ".join(plain_lines if kind == "age" else _without_ages(plain_lines))
    return any(found.search(plain) for name, _, found in KINDS if name == kind)


# words either side of a value that say what it is of ("mandato de oito anos": the term;
# "o afastamento não ultrapasse cento e vinte dias por sessão": a leave, not the term)
BESIDE_WORDS = 4
_WORDS = re.compile(r"\w+")
# words that go with any value, whatever it is of ("duração mínima de três anos"; "em
# cada Casa, por três quintos dos votos" says nothing of "Quantos senadores cada estado
# elege?")
_BOUNDS = ("minimo minima minimos minimas maximo maxima maximos maximas total limite "
           "cada todo toda todos todas each every all")


def stated_beside(question: str, kind: str | None, text: str, asked: frozenset[str],
                  words: Callable[[str], frozenset[str]]) -> bool:
    """Whether `text` states a value of `kind` with one of the question's `asked` terms
    among the `BESIDE_WORDS` words either side of it (`words` turns a span into terms).
    The words asking for the kind ("prazo", "percentual", "idade") and a bound ("mínima")
    do not count: they go with every value of the kind ("cinquenta por cento do
    percentual permitido")."""
    if kind is None:
        return False
    found = _stated(kind)
    asked = _subject(question, kind, asked, words)
    if not asked:
        return False
    for line in text.split("\n"):
        plain = without_references(line)
        for match in found.finditer(plain):
            end = match.end()
            while (match.start() < end < len(plain) and plain[end].isalnum()
                   and plain[end - 1].isalnum()):
                end -= 1  # back to the start of a word the pattern cut
            # (a count's things are what it is of: "onze Ministros", which the pattern cuts
            # after a letter; a unit is not: "dois salários mínimos" is no salary's value)
            before = _WORDS.findall(plain[:match.start()])[-BESIDE_WORDS:]
            after = _WORDS.findall(plain[end:])[:BESIDE_WORDS]
            if words(" ".join((*before, *after))) & asked:
                return True
    return False


def _subject(question: str, kind: str, asked: frozenset[str],
             words: Callable[[str], frozenset[str]]) -> frozenset[str]:
    """The question's `asked` terms without the words asking for `kind` and the bounds
    (`stated_beside`): what the value is asked of."""
    cue = next(cue for name, cue, _ in KINDS if name == kind)
    folded = fold(question)
    return asked - words(" ".join((_BOUNDS, *(m.group() for m in cue.finditer(folded)))))


LONG_LIST = 15  # items past which a list is long (an answer folds it): it says many things
SUBJECT_WORDS_FOR_TWO = 4  # a value's subject of so many words is spoken of by two of them

# "Quanto tempo dura o mandato?" asks how long something lasts; a length counted from an
# event ("renunciar até seis meses antes do pleito", "quinze dias contados da diplomação")
# places a moment, it is no thing's length
_LASTS = re.compile(r"\b(?:dura|duram|durara|durarao|duracao|duracion|durou|duraram"
                    r"|how long (?:does|do|did|will|would) (?:\w+ ){1,8}?last"
                    # ("Quantos anos de mandato…?": the mandate's length; not "… de prazo")
                    r"|(?:quant|cuant)[oa]s (?:anos|meses|dias|semanas|horas) de (?!prazo|plazo)\w+"
                    r"|how many (?:years|months|days|weeks|hours) of)\b")
_OFFSET = re.compile(rf"(?:{_LENGTH})\s+(?:antes|depois|apos|anteriores|posteriores|contad[oa]s?"
                     r"|a contar|before|after|prior|from|following|despues|contados?)\b")


def _lengths_of_things(question: str, kind: str, text: str) -> str:
    """`text`, folded, without the lengths counted from an event when the question asks
    how long something lasts (`_LASTS`); else `text`."""
    if kind != "duration" or not _LASTS.search(fold(question)):
        return text
    return _OFFSET.sub(" ", fold(text))


def stated_where_asked(question: str, kind: str | None, text: str, asked: frozenset[str],
                       words: Callable[[str], frozenset[str]], *, on_subject: bool = True) -> bool:
    """Whether `text` states a value of `kind` where it speaks of what the question asks
    (`_subject`: its words but those asking for the kind and the bounds).

    - A list longer than `LONG_LIST` items shown with its lead (the first line): the lead
      states it, or an item that also says something the question asks of it beyond what
      the lead says of every item. A constitution's art. 5, with seventy-nine incisos,
      states "há pelo menos um ano" in one of them; that does not answer "Qual a pena para
      o crime de homicídio?".
    - A shorter text: a line that states it and says something of the subject outside the
      value's own words, itself or in the lead over it (a line ending in ":", or the
      caption or header over a table's rows); two of its words when the subject has four
      or more (one of "repartição pública entregar certidão", "público", is the public
      exam's; the question's own words, not those a follow-up carried). In a library
      of several laws every kind of value is somewhere: the LGPD's "período máximo de 6
      meses" of suspension does not answer "Qual a pena máxima para o crime de tortura?",
      nor "renda familiar inferior a dez salários mínimos" "Qual o valor do salário
      mínimo?". With `on_subject` False (a question in another language than the text,
      which shares none of its words), or a follow-up that names only the kind ("E o
      prazo?"), any line stating the value counts.
    - Asked how long something lasts, a length counted from an event does not state it
      (`_lengths_of_things`).
    - A part of a compound of the question ("licença" of "licença-paternidade") says
      nothing of it without the other parts (`_whole_compounds`)."""
    if kind is None:
        return False
    text = _lengths_of_things(question, kind, text)
    lines = [line for line in text.split("\n") if line.strip() and line.strip() != "…"]
    subject = _subject(question, kind, asked, words)
    found = _stated(kind)
    compounds = _compounds(question, words)
    if len(lines) <= LONG_LIST + 1:
        stated = states(kind, text)
        if not stated or not on_subject:
            return stated
        own = subject & words(question)
        if not own:  # ("E o prazo?": none of its own words say what of; the last answer's does)
            return stated
        # (a list's lead, or the caption or header over a table's rows: "STATE MEASURE 1"
        # over "NO | 214")
        lead = lines[0] if len(lines) > 1 and (lines[0].rstrip().endswith(":")
                                               or is_row(lines[1])) else ""
        # (counted on the question's own words: a follow-up's carried topic, "direitos do
        # titular" under "e qual o prazo para atender essas solicitações?", may be spoken
        # of, but does not make its subject longer)
        needed = 2 if len(own) >= SUBJECT_WORDS_FOR_TWO else 1
        return any(states(kind, f"{lead}\n{line}" if lead else line)
                   and len(_whole_compounds(words(found.sub(
                       " ", without_references(f"{lead} {line}"))), compounds) & subject) >= needed
                   for line in lines)
    # (what every item is about is its lead's, and a value's own words say what it is,
    # not what of: "prazo prescricional de cinco anos para os trabalhadores" under "São
    # direitos dos trabalhadores…:" does not say how many days of holiday they have a year)
    subject -= words(lines[0])
    return states(kind, lines[0]) or any(
        states(kind, f"{lines[0]}\n{line}")
        and bool(words(found.sub(" ", without_references(line))) & subject)
        for line in lines[1:])


_COMPOUND = re.compile(r"\w+(?:-\w+)+")  # "licença-paternidade", "salário-família"


def _compounds(question: str, words: Callable[[str], frozenset[str]]
               ) -> list[frozenset[str]]:
    """The terms of each compound of the question of more than one term."""
    parts = (words(compound.replace("-", " ")) for compound in _COMPOUND.findall(fold(question)))
    return [terms for terms in parts if len(terms) > 1]


def _whole_compounds(said: frozenset[str], compounds: Sequence[frozenset[str]]
                     ) -> frozenset[str]:
    """The terms `said` of a line, less a part of a compound of the question (`_compounds`:
    "licença" of "licença-paternidade") without its other parts: "licença à gestante"
    says nothing of the father's leave."""
    for parts in compounds:
        if not parts <= said:
            said = said - parts
    return said


_WHOLE = re.compile(r"[1-9]\d{0,2}(?:[.,]\d{3})+|\d+")  # "68", "1,745", "98.452"; not "0.965"


def _counted(lines: Sequence[str]) -> bool:
    """Whether a table row states a count: a whole number in a cell beside its label
    ("KAMALA D HARRIS | DEM | 68", "Wyoming | 383 | 1,745"), its things named by the row
    or its header, not by a word after it as in running text. A year alone is a date."""
    return any(_WHOLE.fullmatch(cell) and not is_year(cell)
               for line in lines if is_row(line) for cell in cells(line)[1:])


_UNIT = re.compile(r"\(([^()]{1,12})\)\s*$")  # "Custo (R$)", "Área (km2)", "Taxa (%)"


def _with_units(lines: Sequence[str]) -> list[str]:
    """The rows under a table's header (its first " | " line) with each cell between the
    unit its header cell names: "R$ 98.400,00 R$" (a currency goes before the number, a
    share or a length after)."""
    rows = [line for line in lines if is_row(line)]
    if len(rows) < 2:
        return []
    units = [_UNIT.search(cell) for cell in cells(rows[0])]
    return [" ".join(f"{unit.group(1)} {cell.strip()} {unit.group(1)}" if unit else cell
                     for unit, cell in zip(units, cells(row), strict=False))
            for row in rows[1:]]


# -- the answer's slot: what the question does not already say ---------------------------

_NAME_CUES = re.compile(r"\b(?:quem|who|whom|whose|quien|quienes|onde|where|donde|de onde"
                        r"|qual (?:o nome|e o nome)|what is the name|como se chama(?:va)?)\b")
# a capitalised word not opening a sentence ("¿Cuántos…", "¡Qué…" open one too)
_NAME = re.compile(r"(?<![.!?:;\n]\s)(?<![¿¡])(?<!^)\b[A-ZÀ-Ý][\wÀ-ÿ]+")
_VALUE = re.compile(r"\d+|[a-z]+")


def specifics(question: str) -> frozenset[str]:
    """What singles out the question's subject: its numbers and the capitalised words not
    at the start of a sentence (names, places, titles), folded."""
    found = {fold(m.group()) for m in _NAME.finditer(question.strip())}
    found |= set(re.findall(r"\d+", question))
    return frozenset(w for w in found if len(w) >= 2 or w.isdigit())


def proper_names(question: str) -> frozenset[str]:
    """The capitalised words of `question` not at the start of a sentence, folded, but
    acronyms ("LGPD", "ANPD"): a text names a place or a person as the question does, but
    refers to a body or a law by its name in words as often as by its initials."""
    return frozenset(fold(m.group()) for m in _NAME.finditer(question.strip())
                     if not m.group().isupper())


def fills_slot(question: str, text: str) -> bool:
    """Whether `text` holds a value of the kind asked that the question does not already
    hold: a date, amount or duration with a number the question lacks, or (quem / onde) a
    name the question does not say. A sibling passage on the same subject repeats the
    question's own years and names; the passage that answers adds the one asked for."""
    kind = asked_kind(question)
    asked = set(re.findall(r"\w+", fold(question)))
    if kind is not None:
        plain = " ".join(without_references(line) for line in text.split("\n"))
        for name, _, found in KINDS:
            if name == kind:
                for match in found.finditer(plain):
                    values = set(_VALUE.findall(match.group())) - asked
                    if any(v.isdigit() or v in _NUMBER_SET for v in values):
                        return True
                    if kind in ("date", "start") and values:
                        return True
        return False
    if _NAME_CUES.search(fold(question)):
        return any(fold(m.group()) not in asked for m in _NAME.finditer(text))
    return False


_NUMBER_SET = frozenset(_NUMBER_WORDS.split("|"))
