"""Rule-based memory: explicit commands and stated facts in Portuguese, English, Spanish.

Two jobs, no model needed:
- `parse_command`: "lembre que…", "lembre-se de que…", "remember that…", "recuerda que…"
  (save now) and "esqueça…", "forget…", "olvida…" (erase now); "forget everything" asks
  for confirmation instead of acting.
- `extract_stated_facts`: first-person statements ("meu nome é…", "I work at…", "my X is
  Y", "prefiro…", "I live in…") and sentences carrying identifiers the user typed
  (booking codes, account numbers, e-mails). This is the floor that works with no LLM;
  each fact keeps the user's exact sentence and gets a slot (subject, attribute) so a
  later contradiction supersedes it.
- `is_correction` / `updates`: most facts get no slot, so a correction is recognised by
  what it says: "actually / na verdade / en realidad …", "X instead of Y", "não é X, é Y",
  or the same statement with other values. `MemoryCore` asks `updates` about the active
  memories nearest by meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from desktop_app.memory.categories import PEOPLE as _PEOPLE
from desktop_app.memory.categories import classify
from desktop_app.memory.types import USER_SUBJECT, Candidate, ExtractedBy, UserMessage
from desktop_app.text.analyze import content_terms
from desktop_app.text.fold import fold
from desktop_app.text.sentences import chat_sentences
from desktop_app.text.stopwords import STOPWORDS
from desktop_app.text.values import specifics, value_kind, without_values

_F = re.IGNORECASE | re.UNICODE
_LEAD = r"^\s*(?:(?:por\s+favor|please|ei|hey|oi|ok|okay)[,!]?\s+)?"
_REMEMBER = [(lang, re.compile(_LEAD + p, _F)) for lang, p in (
    ("pt", r"(?:lembre|lembra|se\s+lembre)(?:-se|-te)?\s+(?:de\s+)?que\s+(?P<fact>.+)"),
    ("pt", r"(?:memorize|anote|guarde|grave)\s+(?:que\s+|isto:\s*|isso:\s*|:\s*)(?P<fact>.+)"),
    ("pt", r"n[aã]o\s+(?:se\s+)?esque[cç]a\s+(?:de\s+)?que\s+(?P<fact>.+)"),
    ("en", r"(?:remember|note|keep\s+in\s+mind|don'?t\s+forget|do\s+not\s+forget)"
           r"(?:\s+that\s+|\s*:\s*|\s+)(?!(?:when|what|how|where|who|why|if|whether)\b)"
           r"(?P<fact>.+)"),
    ("es", r"(?:recuerda|recuerde|recu[eé]rdalo|acu[eé]rdate\s+de|ten\s+en\s+cuenta|"
           r"no\s+olvides)(?:\s+que\s+|\s*:\s*)(?P<fact>.+)"),
)]
_FORGET_ALL = [(lang, re.compile(_LEAD + p + r"\s*[.!]*\s*$", _F)) for lang, p in (
    ("en", r"forget\s+(?:everything|all\s+about\s+me|all\s+you\s+know\s+about\s+me)"),
    ("pt", r"esque[cç]a(?:-se)?\s+(?:de\s+)?tudo(?:\s+sobre\s+mim)?"),
    ("es", r"olv[ií]da(?:te)?\s+(?:de\s+)?todo(?:\s+sobre\s+m[ií])?"),
)]
_FORGET = [(lang, re.compile(_LEAD + p, _F)) for lang, p in (
    ("en", r"forget\s+(?:that\s+|about\s+|what\s+I\s+(?:said|told\s+you)\s+about\s+)?"
           r"(?P<fact>.+)"),
    ("pt", r"esque[cç]a(?:-se)?\s+(?:de\s+)?(?:que\s+|o\s+que\s+eu\s+(?:disse|falei)\s+"
           r"sobre\s+)?(?P<fact>.+)"),
    ("pt", r"esquece\s+(?:que\s+)?(?P<fact>.+)"),
    ("es", r"olv[ií]da(?:te)?\s+(?:de\s+)?(?:que\s+|lo\s+que\s+(?:dije|te\s+dije)\s+"
           r"sobre\s+)?(?P<fact>.+)"),
)]


@dataclass(frozen=True)
class Command:
    kind: Literal["remember", "forget", "forget_all"]
    text: str  # the fact to save, or the description of what to forget
    rest: str = ""  # a question that followed the command, to be answered normally
    language: str = "en"  # of the command, for the acknowledgement


def _split_off_question(body: str) -> tuple[str, str]:
    """'X. What is Y?' → ('X.', 'What is Y?'); a trailing question is answered, not stored."""
    sentences = chat_sentences(body)
    if len(sentences) > 1 and sentences[-1].endswith("?"):
        return " ".join(sentences[:-1]), sentences[-1]
    return body, ""


def parse_command(text: str) -> Command | None:
    """Recognize an explicit memory command at the start of a message."""
    stripped = text.strip()
    for language, pattern in _REMEMBER:
        m = pattern.match(stripped)
        if m:
            fact, rest = _split_off_question(m.group("fact"))
            if fact.strip() and not fact.rstrip().endswith("?"):
                return Command("remember", tidy_sentence(fact), rest, language)
    for language, pattern in _FORGET_ALL:
        if pattern.match(stripped):
            return Command("forget_all", "", "", language)
    for language, pattern in _FORGET:
        m = pattern.match(stripped)
        if m:
            return Command("forget", m.group("fact").strip().rstrip(".!?"), "", language)
    return None


# --- sentences ---

def tidy_sentence(text: str) -> str:
    """First letter upper-case, one final period: a self-contained sentence."""
    text = " ".join(text.split()).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def same_fact_key(text: str) -> str:
    """Key for duplicate detection: folded, punctuation-free, leading 'that/que' dropped."""
    words = re.findall(r"[0-9a-z@]+", fold(text))
    while words and words[0] in ("that", "que", "eu", "i"):
        words = words[1:]
    return " ".join(words)


# --- stated facts ---

# the sentence is already split, so a value may hold periods ("Dr. Lima", "3.5")
_CLAUSE_END = r"(?!(?:not|n[aã]o|no)\b)(?P<value>[^;!?]*[^\s;!?,.])"
_CLAUSE_SPLIT = re.compile(r",?\s+(?:and|but|e|mas|y|pero)\s+(?=(?:i|eu|yo|my|meu|minha|mi|moro|"
                           r"vivo|trabalho|trabajo|prefiro|prefiero)\b)", _F)
_SLOT_SYNONYMS = {
    "phone": ("cell", "cell phone", "cellphone", "mobile", "phone", "phone number",
              "cell number", "mobile number", "telefone", "celular", "numero de telefone",
              "telefono", "numero de celular"),
    "email": ("email", "e-mail", "email address", "e-mail address", "correo", "endereco de email"),
    "name": ("name", "full name", "nome", "nome completo", "nombre", "first name"),
    "address": ("address", "home address", "endereco", "direccion"),
    "employer": ("company", "employer", "empresa"),
    "birthday": ("birthday", "birth date", "date of birth", "aniversario", "cumpleanos",
                 "data de nascimento"),
}
_SLOT_OF = {syn: slot for slot, syns in _SLOT_SYNONYMS.items() for syn in syns}


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    category: str | None  # None → classify from the sentence
    attribute: str | None  # None → from the 'attr' group


def _rule(regex: str, category: str | None, attribute: str | None) -> _Rule:
    return _Rule(re.compile(regex, _F), category, attribute)


_RULES: tuple[_Rule, ...] = (
    _rule(r"\b(?:my\s+name\s+is|my\s+name's|call\s+me|i'?m\s+called)\s+" + _CLAUSE_END,
          "identity", "name"),
    _rule(r"\b(?:(?:o\s+)?meu\s+nome\s+(?:é|e)|(?:eu\s+)?me\s+chamo)\s+" + _CLAUSE_END,
          "identity", "name"),
    _rule(r"\b(?:mi\s+nombre\s+es|(?:yo\s+)?me\s+llamo)\s+" + _CLAUSE_END, "identity", "name"),
    _rule(r"\bi\s+(?:currently\s+|now\s+)?(?:live|reside)\s+(?:in|at|on)\s+" + _CLAUSE_END,
          "location", "home"),
    _rule(r"\bi(?:'m|\s+am)\s+(?:based|living)\s+in\s+" + _CLAUSE_END, "location", "home"),
    _rule(r"\bi(?:'ve|\s+have)?\s+moved\s+to\s+" + _CLAUSE_END, "location", "home"),
    _rule(r"\b(?:eu\s+)?(?:moro|resido|vivo)\s+(?:em|no|na|nos|nas|en)\s+" + _CLAUSE_END,
          "location", "home"),
    _rule(r"\b(?:eu\s+)?me\s+mudei\s+para\s+" + _CLAUSE_END, "location", "home"),
    _rule(r"\bi\s+(?:currently\s+|now\s+)?work\s+as\s+(?:an?\s+)?" + _CLAUSE_END,
          "work", "job_title"),
    _rule(r"\bi\s+(?:currently\s+|now\s+)?work\s+(?:at|for|in)\s+" + _CLAUSE_END,
          "work", "employer"),
    _rule(r"\bi(?:'m|\s+am)\s+(?:employed|working)\s+(?:full[- ]time\s+|part[- ]time\s+)?"
          r"(?:as\s+an?\s+[^.;!?]*?\s+)?(?:at|for|by)\s+" + _CLAUSE_END, "work", "employer"),
    _rule(r"\b(?:eu\s+)?trabalho\s+como\s+" + _CLAUSE_END, "work", "job_title"),
    _rule(r"\b(?:eu\s+)?trabalho\s+(?:na|no|em|para|pela|pelo)\s+" + _CLAUSE_END,
          "work", "employer"),
    _rule(r"\b(?:yo\s+)?trabajo\s+como\s+" + _CLAUSE_END, "work", "job_title"),
    _rule(r"\b(?:yo\s+)?trabajo\s+(?:en|para)\s+" + _CLAUSE_END, "work", "employer"),
    _rule(r"\bi(?:\s+really|\s+usually|\s+always|'d|\s+would)?\s+(?:prefer|rather)\s+"
          + _CLAUSE_END, "preference", "preference"),
    _rule(r"\b(?:eu\s+)?(?:prefiro|gosto\s+mais\s+de)\s+" + _CLAUSE_END,
          "preference", "preference"),
    _rule(r"\b(?:yo\s+)?prefiero\s+" + _CLAUSE_END, "preference", "preference"),
    _rule(r"\bi(?:'m|\s+am)\s+allergic\s+to\s+" + _CLAUSE_END, "health", "allergy"),
    # a named medication ("My husband takes Lisinopril 10mg"); lower-case "take the bus" is not
    _rule(r"\b(?:i|my\s+(?P<owner>[a-z]+))\s+(?:take|takes|am\s+taking|'m\s+taking|is\s+taking)"
          r"\s+(?-i:(?P<value>[A-Z][\w-]+(?:\s+\d+\s?mg)?))", "health", "medication"),
    _rule(r"\b(?:sou|soy)\s+al[eé]rgic[oa]\s+(?:a|à|ao|aos|as)\s+" + _CLAUSE_END,
          "health", "allergy"),
    # choices the user makes ("I'll take the Junior Suite", "vou ficar com o plano B")
    _rule(r"\b(?:i'?ll|i\s+will|let'?s|i'?d\s+like\s+to|i\s+want\s+to|i'?m\s+going\s+to|"
          r"we'?ll)\s+(?:go\s+with|take|choose|get|book|pick|order|stick\s+with)\s+"
          + _CLAUSE_END, None, ""),
    _rule(r"\bi(?:'ve|\s+have)?\s+(?:decided\s+(?:on|to\s+go\s+with)|chose|chosen)\s+"
          + _CLAUSE_END, None, ""),
    _rule(r"\b(?:vou|vamos)\s+(?:ficar\s+com|escolher|levar|querer|reservar|contratar|"
          r"fechar\s+com)\s+" + _CLAUSE_END, None, ""),
    _rule(r"\b(?:eu\s+)?(?:escolhi|decidi\s+por|fico\s+com)\s+" + _CLAUSE_END, None, ""),
    _rule(r"\b(?:me\s+quedo\s+con|elijo|eleg[ií]|voy\s+a\s+(?:tomar|elegir|reservar))\s+"
          + _CLAUSE_END, None, ""),
    _rule(r"\bi\s+was\s+born\s+(?:on|in)\s+" + _CLAUSE_END, "identity", "birth"),
    _rule(r"\b(?:eu\s+)?nasci\s+(?:em|no|na)\s+" + _CLAUSE_END, "identity", "birth"),
    _rule(r"\b(?:yo\s+)?nac[ií]\s+(?:en|el)\s+" + _CLAUSE_END, "identity", "birth"),
    # possessive slots, most specific first: "o cardiologista do meu pai é …"
    _rule(r"\b(?:o|a|os|as)?\s*(?P<attr>[\w-]+(?:\s[\w-]+)?)\s+d[oa]s?\s+(?:meu|minha)\s+"
          r"(?P<owner>[\w-]+)\s+(?:é|são|fica)\s+" + _CLAUSE_END, None, None),
    _rule(r"\b(?:el|la|los|las)?\s*(?P<attr>[\w-]+)\s+de\s+mis?\s+(?P<owner>[\w-]+)\s+"
          r"(?:es|son)\s+" + _CLAUSE_END, None, None),
    _rule(r"\bmy\s+(?P<attr>[a-z][\w' -]{0,40}?)\s+(?:is|are|'s)\s+(?!not\b)" + _CLAUSE_END,
          None, None),
    _rule(r"\b(?:o\s+|a\s+)?(?:meu|minha|meus|minhas)\s+(?P<attr>[\w -]{1,40}?)\s+"
          r"(?:é|são|fica|ficam)\s+(?!não\b)" + _CLAUSE_END, None, None),
    _rule(r"\b(?:mi|mis)\s+(?P<attr>[\w -]{1,40}?)\s+(?:es|son|está)\s+(?!no\b)" + _CLAUSE_END,
          None, None),
    # a named thing of the user's ("my Tesla Model Y", "my wife's Honda CR-V", "meu Nubank")
    _rule(r"\b(?:my|meu|minha|meus|minhas|mi|mis)\s+(?:(?P<owner>[a-z]+)'s\s+)?"
          r"(?-i:(?P<value>[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*))", None, ""),
)
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|"
           "december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|janeiro|fevereiro|"
           "março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|"
           "enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre")
_IDENTIFIER = re.compile(
    rf"(?i:\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b"  # November 12th
    rf"|\b\d{{1,2}}\s+de\s+(?:{_MONTHS})\b)"  # 12 de novembro
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"  # 12/11/2026
    r"|[\w.+-]+@[\w-]+\.[\w.]+"  # e-mail
    r"|(?:R\$|US\$|\$|€|£)\s?\d"  # amounts
    r"|\b\d{1,2}[:h]\d{2}\b"  # times
    r"|(?<![\w])(?=(?:[^\s]*\d){4})[\w.,/:-]*\d[\w.,/:-]*"  # ≥4 digits in one token
    r"|\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]+\b",  # codes: PAC-778K4M, 12C
)
_VALUE_CUT = re.compile(r"\s+(?:and|but|e|mas|pero|y)\s+(?:i|eu|yo|my|meu|minha|mi)\b|,\s", _F)
_EMPTY_VALUES = {"it", "this", "that", "isso", "isto", "eso", "esto", "ele", "ela"}


_VAGUE_START = {"that", "this", "it", "those", "these", "them", "some", "any", "care", "isso",
                "isto", "eso", "esto", "aquilo", "um", "uma", "algo"}


def _names_something(value: str) -> bool:
    """A chosen thing is named: a digit, a capitalised word, or two words that are not a
    vague phrase ("the premium plan" yes; "that risk", "a look" no)."""
    words = value.split()
    if not words or fold(words[0]) in _VAGUE_START:
        return False
    return (any(ch.isdigit() for ch in value) or any(w[:1].isupper() for w in words)
            or len(words) >= 2)


def slot_name(attr: str) -> str:
    folded = " ".join(re.findall(r"[\w':-]+", fold(attr)))
    folded = re.sub(r"^(?:current|new|old|atual|novo|nova|actual|nuevo|nueva)\s+", "", folded)
    return _SLOT_OF.get(folded, folded)


def _clean_value(value: str) -> str:
    value = _VALUE_CUT.split(value, maxsplit=1)[0]
    value = re.sub(r"^(?:the|o|a|os|as|el|la|los|las)\s+(?=\S)", "", value.strip(), flags=_F)
    return value.strip().strip("\"'“”").rstrip(",")


def split_clauses(sentence: str) -> list[str]:
    """'Meu nome é Ana e eu moro em Campinas.' → two clauses, one fact each."""
    return [c.strip() for c in _CLAUSE_SPLIT.split(sentence) if c.strip()]


_QUESTION_START = re.compile(
    r"^\s*(?:and\s+|e\s+|y\s+|so\s+|ent[aã]o\s+)?(?:what|which|who|whom|whose|when|where|why|how|"
    r"is|are|was|were|do|does|did|can|could|will|would|should|has|have|o\s+que|que|qual|quais|"
    r"quem|quando|onde|como|por\s*que|quanto|quantos|quantas|[eé]|est[aá]|pode|posso|tem|"
    r"qu[eé]|cu[aá]l|cu[aá]les|qui[eé]n|cu[aá]ndo|d[oó]nde|c[oó]mo|por\s+qu[eé]|cu[aá]nto)\b",
    _F)


def has_identifier(text: str) -> bool:
    return _IDENTIFIER.search(text) is not None


_ASKS = re.compile(
    r"^\s*(?:and\s+|e\s+|y\s+|so\s+|ent[aã]o\s+)?(?:what|which|who|whom|whose|when|where|"
    r"why|how|o\s+que|qual|quais|quem|quando|onde|como|por\s*que|quanto|quantos|quantas|"
    r"qu[eé]|cu[aá]l|cu[aá]les|qui[eé]n|cu[aá]ndo|d[oó]nde|c[oó]mo|por\s+qu[eé]|cu[aá]nto)\b"
    r"|^\s*(?:me\s+diga|diga-me|me\s+fala|tell\s+me|dime|d[ií]game)\b", _F)


_HEDGE = re.compile(
    r"^\s*(?:eu\s+)?(?:lembro|acho|creio|penso|imagino)\s+que\b|^\s*se\s+n[aã]o\s+me\s+engano"
    r"|^\s*i\s+(?:think|remember|believe|guess|recall)\b"
    r"|^\s*(?:yo\s+)?(?:recuerdo|creo|pienso)\s+que\b|^\s*si\s+no\s+me\s+equivoco", _F)


def statements(sentences: list[str]) -> list[str]:
    """The sentences of a message that state something: not the questions, nor, in a message
    that asks, a half-remembered value offered with the question ("Lembro que era …")."""
    asking = any(asks(s) for s in sentences)
    return [s for s in sentences if not (asks(s) or (asking and _HEDGE.match(s)))]


def asks(sentence: str) -> bool:
    """The sentence asks something: a real question ("Qual é o meu código?", not "4429853327,
    right?", which confirms a value), or one that opens with a question word without the
    mark ("qual é o meu código", "tell me my locker number")."""
    return is_real_question(sentence) or _ASKS.match(sentence) is not None


def is_real_question(sentence: str) -> bool:
    """'What does Lei 13.709/2018 say?' asks; '4429853327, right?' confirms a value."""
    return sentence.rstrip().endswith("?") and _QUESTION_START.match(sentence) is not None


_STARTERS = {"i", "yes", "no", "sure", "ok", "okay", "yeah", "it's", "its", "that's", "this",
             "that", "the", "he", "she", "they", "we", "it", "my", "sim", "não", "nao", "claro",
             "é", "e", "o", "a", "ele", "ela", "meu", "minha", "sí", "si", "es", "mi",
             "thanks", "thank", "great", "perfect", "hi", "hello", "oi", "olá", "hola", "please",
             "what", "how", "when", "where", "who", "why", "can", "could", "do", "does", "is"}


_VOCATIVE = re.compile(
    r"\b(?:thanks|thank\s+you|thx|hi|hello|hey|bye|goodbye|cheers|obrigad[oa]|valeu|oi|"
    r"ol[aá]|tchau|gracias|hola|adi[oó]s)[,!]?\s+(?:so\s+much\s+|again\s+|muito\s+)?"
    r"(?:(?:dr|dra|mr|mrs|ms|sr|sra)\.?\s+)?[A-ZÀ-Ý][\w'’-]*", re.UNICODE | re.IGNORECASE)


def is_named_answer(message: UserMessage) -> bool:
    """A short reply to a question that names something ("Susan Wilson.", "Denver, Colorado");
    not a thank-you to the agent ("No, that covers everything. Thanks Sarah!")."""
    if not message.replying_to or not message.replying_to.rstrip().endswith("?"):
        return False
    text = _VOCATIVE.sub(" ", message.text)
    if _VOCATIVE.search(message.text) and not re.search(r"\w", text.strip(" .,!")):
        return False
    words = re.findall(r"[\w'’-]+", text)
    if not words or len(words) > 8 or message.text.rstrip().endswith("?"):
        return False
    inner = [w for sentence in chat_sentences(text)
             for w in re.findall(r"[\w'’-]+", sentence)[1:]]  # not sentence-initial
    names = [w for w in inner if w[0].isupper() and w.casefold() not in _STARTERS
             and not re.match(r"I['’]", w)]
    # "Susan Wilson." / "Sure, it's Michael Robertson." / "Harrison." — not "Absolutely, yes."
    return bool(names) or all(w[0].isupper() or w[0].isdigit() for w in words)


def match_fact(sentence: str) -> tuple[str | None, str, str, str] | None:
    """(category hint, subject, attribute, value) of the first rule that fits, else None."""
    if sentence.rstrip().endswith("?"):
        return None
    for rule in _RULES:
        m = rule.pattern.search(sentence)
        if not m:
            continue
        value = _clean_value(m.group("value"))
        if not value or fold(value) in _EMPTY_VALUES:
            continue
        if rule.attribute == "" and rule.category is None and not _names_something(value):
            continue  # "I'll take that risk", "let's take a look": a phrase, not a choice
        groups = m.groupdict()
        subject = USER_SUBJECT
        attribute = rule.attribute or slot_name(groups.get("attr") or "")
        owner = fold(groups.get("owner") or "")
        if not owner and "'s " in attribute:  # "my father's cardiologist"
            owner, attribute = (part.strip() for part in attribute.split("'s ", 1))
        if owner in _PEOPLE:
            subject = owner
        elif owner:  # "o código do meu armário": the user's locker, not a person
            attribute = slot_name(f"{attribute} {owner}")
        if rule.attribute == "preference":  # one slot per topic: "prefiro respostas curtas"
            words = [w for w in re.findall(r"[a-z]{3,}", fold(value))][:1]
            attribute = "preference:" + (words[0] if words else "")
        return rule.category, subject, attribute, value
    return None


def answer_context(replying_to: str | None, *, max_chars: int = 240) -> str:
    """The end of the assistant turn the user answered (its last two sentences)."""
    if not replying_to:
        return ""
    context = " ".join(chat_sentences(replying_to.strip())[-2:])
    return context if len(context) <= max_chars else "…" + context[-max_chars:]


def candidate_for(text: str, message: UserMessage, extracted_by: ExtractedBy) -> Candidate:
    """A candidate from a sentence the user said, with its slot when a rule recognizes it."""
    sentence = tidy_sentence(text)
    matched = match_fact(sentence)
    hint, subject, attribute, value = matched or (None, USER_SUBJECT, "", "")
    category, sensitive = classify(sentence, hint, context=message.replying_to or "")
    return Candidate(sentence, category, subject, attribute, value, sensitive, extracted_by,
                     message)


def extract_stated_facts(message: UserMessage, *, identifiers: bool = True) -> list[Candidate]:
    """Facts stated in a user message, by rules (no model). Order follows the message."""
    if not isinstance(message, UserMessage):
        raise TypeError("memory is written only from the user's own messages (UserMessage)")
    if parse_command(message.text) is not None:
        return []  # commands are handled explicitly, once
    candidates: list[Candidate] = []
    short_message = len(message.text) <= 280
    identifier_taken = False
    sentences = chat_sentences(message.text)
    # questions are not memories: a sentence that asks never becomes one, nor does a
    # half-remembered value offered with the question ("Qual é o meu código? Lembro que
    # era QZX-4815."); a message that asks is never kept whole
    said = statements(sentences)
    asking = len(said) < len(sentences)
    for sentence in said:
        clauses = [c for c in split_clauses(sentence) if match_fact(c) is not None]
        if clauses:
            candidates += [candidate_for(c, message, "pattern") for c in clauses]
        elif (identifiers and not identifier_taken and not sentence.rstrip().endswith("?")
              and (has_identifier(sentence) or is_named_answer(message)
                   or (is_correction(sentence, firm=True) and bool(specifics(sentence))))):
            # an identifier the user typed ("the code is PAC-778K4M"): keep their words;
            # a short message is kept whole (without its questions), so "Let me write that
            # down... 4429853327" keeps its lead-in
            text = (message.text if not asking else " ".join(said)) if short_message \
                else sentence
            identifier_taken = short_message
            candidates.append(candidate_for(text, message, "pattern"))
    candidates = _one_per_fact(candidates)
    # a fact without a recognized slot is often a short answer ("Sure, it's 4429853327"):
    # index it with the question it answered, so "my account number?" can find it
    context = answer_context(message.replying_to)
    return [replace(c, search_context=context) if context and not c.attribute else c
            for c in candidates]


def _one_per_fact(candidates: list[Candidate]) -> list[Candidate]:
    """No near-duplicates from one message. Of two candidates where one holds all the
    words of the other, one stays: a slotted clause over the whole message it came from
    (so a later correction can supersede it), else the longer one."""
    keys = [same_fact_key(c.text) for c in candidates]
    kept: list[Candidate] = []
    for i, c in enumerate(candidates):
        drop = False
        for j, other in enumerate(candidates):
            if i == j:
                continue
            if keys[i] == keys[j]:
                drop = j < i  # exact twins: the first stays
            elif keys[i] in keys[j]:
                drop = not (c.attribute and not other.attribute)
            elif keys[j] in keys[i]:
                drop = bool(other.attribute) and not c.attribute
            if drop:
                break
        if not drop:
            kept.append(c)
    return kept


# --- corrections: the same thing said again with other values ---

# "actually", "na verdade", "en realidad": a correction or just emphasis ("That's actually
# barely more"); enough to supersede the nearest memory, not to make a sentence a memory
_SOFT_CUES = (r"actually|na\s+verdade|ali[aá]s|pensando\s+melhor|en\s+realidad|"
              r"pens[aá]ndolo\s+mejor")
# cues that say what changes: "make that", "instead of", "change it to", ", not San Francisco"
_FIRM_CUES = (
    r"correction|i\s+meant|i\s+mean|scratch\s+that|make\s+(?:that|it)|"
    r"let'?s\s+go\s+back\s+to|go\s+back\s+to|instead(?:\s+of)?|rather\s+than|"
    r"(?:change|changed|move|moved|switch|switched|increase|increased|decrease|decreased|raise|"
    r"raised|lower|lowered|update|updated|reschedule|rescheduled|bump|bumped)\s+(?:it\s+|that\s+|"
    r"this\s+|them\s+)?(?:up\s+|down\s+)?to|"
    r"corrigindo|corre[cç][aã]o|quer\s+dizer|melhor\s+dizendo|"
    r"em\s+vez\s+de|ao\s+inv[eé]s\s+de|voltar?\s+(?:para|pra)|"
    r"(?:mud[ae]|mudar|troqu?e|trocar|passe|passar|altere|alterar|aumente|aumentar|diminua|"
    r"diminuir|remarque|remarcar)\s+(?:isso\s+|isto\s+|ela\s+|ele\s+)?(?:para|pra)|"
    r"corrijo|correcci[oó]n|mejor\s+dicho|quise\s+decir|"
    r"en\s+vez\s+de|en\s+lugar\s+de|(?:cambia|cambiar|c[aá]mbialo|mueve|mover|sube|subir|"
    r"baja|bajar)\s+(?:a|para)|"
    r"(?<=,)\s*(?:not|n[aã]o)\s+(?=\S)|"
    r"(?:n[aã]o|no|not)\s+(?:[eé]|es|is|it'?s|was|foi|era)?\s*[^,;.!?]{1,40},\s*(?:[eé]|es|"
    r"it'?s|but|mas|pero|sino)\b")
_CORRECTION = re.compile(rf"(?:\b|(?<=,))(?:{_SOFT_CUES}|{_FIRM_CUES})", _F)
_FIRM_CORRECTION = re.compile(rf"(?:\b|(?<=,))(?:{_FIRM_CUES})", _F)
# "also", "too": something added, not a correction ("Actually, she's also an employee")
_ADDITIVE = re.compile(r"\b(?:also|too|as\s+well|tamb[eé]m|adem[aá]s|tambi[eé]n)\b", _F)
# the value a correction names as the old one, right after the marker: "$100,000 instead of
# $85,000", "not San Francisco" (not "I'm not his patient after January 1st")
_REPLACED = re.compile(
    r"\b(?:instead\s+of|rather\s+than|not|em\s+vez\s+de|ao\s+inv[eé]s\s+de|n[aã]o\s+(?:[eé]|"
    r"foi|era)?|en\s+vez\s+de|en\s+lugar\s+de|no\s+(?:es|era|fue)?)\s+(?P<old>(?:[^\s;!?]+\s?){1,3})",
    _F)
# words that say "this corrects something", not what the fact is about
_CORRECTION_WORDS = frozenset(content_terms(
    "actually correction meant mean scratch make let go back instead rather change changed "
    "move moved switch switched increase increased decrease decreased raise raised lower "
    "lowered update updated reschedule rescheduled bump bumped decided decide wait sorry "
    "verdade corrigindo correcao alias dizer melhor pensando vez inves voltar volta mude "
    "mudar troque trocar passe passar altere alterar aumente aumentar diminua diminuir "
    "remarque remarcar decidi desculpa realidad corrijo correccion dicho quise decir "
    "pensandolo lugar cambia cambiar cambialo mueve mover sube subir baja bajar perdon",
    ignore=()))


# pronouns and possessives say whose, not what ("meu orçamento" is "o orçamento")
_WHOSE = ("my mine her hers his she he our ours their theirs we you your i me but meu minha meus "
          "minhas nosso nossa nossos nossas dela dele voce mi mis tu tus nuestro nuestra yo")
_NOT_A_TOPIC = STOPWORDS | frozenset(fold(_WHOSE).split())


def is_correction(sentence: str, *, firm: bool = False) -> bool:
    """The user corrects something said before ("Actually, make that Tuesday", "Na verdade
    é R$ 95 mil", "$100,000 instead of $85,000"), rather than adding or asking. `firm`:
    only cues that say what changes (not a bare "actually", which is often emphasis)."""
    if sentence.rstrip().endswith("?") or _ADDITIVE.search(sentence):
        return False
    return (_FIRM_CORRECTION if firm else _CORRECTION).search(sentence) is not None


def replaced_values(sentence: str) -> frozenset[str]:
    """The old values a correction names: "instead of $85,000", "não é segunda-feira"."""
    found: set[str] = set()
    for m in _REPLACED.finditer(sentence):
        found |= specifics(" " + m.group("old"))
    return frozenset(found)


# a fact with fewer topic words than this, or a reply this short, is read with the question it
# answered ("$2,850 per month." after "your monthly rent?")
THIN_FRAME = 2
SHORT_REPLY_WORDS = 5


def _frame(text: str, context: str = "") -> frozenset[str]:
    """What a fact is about without its values and correction words ("my budget"); a short
    answer ("Sure, it's 916-555-7823.") is about the question it answered."""
    frame = content_terms(without_values(text), ignore=_NOT_A_TOPIC) - _CORRECTION_WORDS
    short = len(frame) < THIN_FRAME or len(text.split()) <= SHORT_REPLY_WORDS
    if short and context:  # the question's own values are its topic ("Box 4", "Box 6")
        frame |= content_terms(context, ignore=_NOT_A_TOPIC) - _CORRECTION_WORDS
    return frame


def _kinds(values: frozenset[str]) -> set[str]:
    return {value_kind(v) for v in values}


def _other_entity(new: frozenset[str], old: frozenset[str]) -> bool:
    """Another person or thing, not a corrected value: both state several values and share
    none ("projeto 0 se chama Alfa0" vs "projeto 1 … Alfa1"; a correction keeps an anchor),
    or both the names and the numbers differ ("Pedro, 8" vs "Ana, 5")."""
    if len(new) >= 2 and len(old) >= 2 and not new & old:
        return True
    def split(values: frozenset[str]) -> tuple[set[str], set[str]]:
        names = {v for v in values if value_kind(v) == "name"}
        return names, set(values) - names
    new_names, new_numbers = split(new)
    old_names, old_numbers = split(old)
    return (bool(new_names - old_names) and bool(old_names - new_names)
            and bool(new_numbers - old_numbers) and bool(old_numbers - new_numbers))


def updates(new: str, old: str, *, nearest: bool, new_context: str = "",
            old_context: str = "") -> bool:
    """Does the user's new fact `new` replace the older memory `old`?

    - it names a value of `old` as the replaced one ("$100,000 instead of $85,000");
    - it says the same thing with another value of the same kind (same frame: "my budget
      is $85,000" → "my budget is $100,000"), unless both names and numbers change (two
      children's ages, two accounts are two facts);
    - it is a correction ("actually", "na verdade", "en realidad" …), `old` is the memory
      nearest to it by meaning (`nearest`), on the same topic (their frames meet, or the
      correction states only values: "Actually, make that Tuesday") and says little else
      (at most one topic word `old` lacks: "Actually, let me focus on the Honda, my wife
      uses the Tesla" corrects nothing), and it replaces a
      value of the same kind, or keeps the values and swaps one word ("a consulta é na
      segunda às 15h" → "corrigindo: na terça às 15h").
    A short answer's frame includes the question it answered (`*_context`). Adding a value
    ("my son is 8" then "my daughter is 5") is not an update."""
    new_values, old_values = specifics(new), specifics(old)
    named = replaced_values(new)
    if named & old_values and (new_values - named) - old_values:
        return True
    added, dropped = new_values - old_values, old_values - new_values
    same_kind = bool(_kinds(added) & _kinds(dropped))
    new_frame, old_frame = _frame(new, new_context), _frame(old, old_context)
    if same_kind and not _other_entity(new_values, old_values):
        if new_frame and new_frame == old_frame:
            return True
        own = _frame(new)  # what the user said, without the question before it
        if (nearest and is_correction(new) and len(own - old_frame) <= 1
                and (new_frame & old_frame or not own)):
            return True
    if nearest and is_correction(new) and new_values == old_values:
        return (len(new_frame - old_frame) == 1 and len(old_frame - new_frame) == 1
                and bool(new_frame & old_frame))
    return False
