"""Category and sensitivity of a fact, from PT/EN/ES keyword lexicons.

Deliberately keyword-based and conservative: a fact that mentions a health condition,
religion, a financial account number… is flagged sensitive even when an LLM said
otherwise (the stricter of the two wins), because storing it needs the user's consent.
"""

from __future__ import annotations

import re

from desktop_app.text.fold import fold

# Folded stems; each matches at the start of a word ("diabet" → "diabetes", "diabético").
# Health is two lists: conditions (a disease, a pregnancy, an allergy) are health data
# wherever they are said; care words (diagnostics, treatment, therapy, surgery, a
# prescription) name services that cars, computers and pets get too, and a price list
# ("$700 total for diagnostics") is no one's health — they count only when a person is
# involved (`_PERSON`).
_CARE_TERMS = (
    "diagnos", "medication", "medicine", "prescri", "pill", "therap", "psychiatr",
    "psycholog", "cardiolog", "oncolog", "neurolog", "surgery", "symptom", "treatment",
    "remedio", "medicament", "terapia", "terapeuta", "psiquiatr", "psicolog", "cirurgia",
    "sintoma", "tratamento", "tratamiento", "receita medica", "diagnostic",
)
_SENSITIVE_LEXICON: dict[str, tuple[str, ...]] = {
    "health": (
        "disease", "illness", "allerg", "diabet", "cancer", "asthma", "hypertens",
        "blood pressure", "depress", "anxiety", "pregnan", "hiv", "chemo", "insulin",
        "migraine", "doenca", "alergi", "alergic", "asma", "pressao alta", "ansiedade",
        "gravid", "enfermedad", "embaraz",
    ),
    "disability": (
        "disabilit", "disabled", "wheelchair", "deaf", "blind", "autis", "deficien",
        "cadeira de rodas", "surdo", "surda", "cego", "cega", "discapacidad", "sordo", "ciego",
    ),
    "religion": (
        "religio", "church", "catholic", "protestant", "evangelical", "muslim", "islam",
        "jewish", "judaism", "buddhis", "hindu", "atheist", "igreja", "catolic", "evangelic",
        "muculman", "judeu", "judia", "judaic", "budist", "ateu", "ateia", "espirita",
        "umbanda", "candomble", "iglesia", "musulman", "judio", "ateo", "mesquita", "mosque",
        "synagogue", "sinagoga",
    ),
    "ethnicity": (
        "ethnic", "etnia", "etnic", "racial", "raca", "indigen", "quilombola", "afrodescend",
        "pardo", "parda", "hispanic", "latino", "latina",
    ),
    "sex_life": (
        "sexual", "gay", "lesbian", "lesbica", "bisexual", "bissexual", "transgender",
        "transgenero", "homosexual", "homossexual", "heterosexual", "heterossexual", "lgbt",
        "sex life", "vida sexual",
    ),
    "political_opinion": (
        "political", "politic", "party member", "voted for", "vote for", "leftist",
        "right-wing", "communist", "socialist", "partido", "votei", "voto em", "filiad",
        "de esquerda", "de direita", "vote", "de izquierda", "de derecha",
    ),
    "biometric": (
        "fingerprint", "biometric", "face id", "retina", "iris scan", "dna", "genetic",
        "impressao digital", "biometri", "reconhecimento facial", "huella",
    ),
}
_FINANCIAL_WORDS = (
    "account", "acct", "routing", "iban", "swift", "credit card", "card number", "debit card",
    "pin", "agencia", "conta", "cartao", "pix", "cuenta", "tarjeta", "bank", "banco",
)
_ORDINARY_LEXICON: dict[str, tuple[str, ...]] = {
    "identity": ("name", "nome", "nombre", "birthday", "born", "nasci", "aniversario", "age",
                 "idade", "edad", "cumpleanos", "me chamo", "me llamo", "nationality"),
    "contact": ("email", "e-mail", "phone", "cell", "mobile", "telefone", "celular", "whatsapp",
                "dentist", "dentista", "doctor", "lawyer", "advogad", "abogad", "accountant",
                "contador", "contact", "contato", "contacto"),
    "family": ("wife", "husband", "son", "daughter", "father", "mother", "kids", "children",
               "brother", "sister", "esposa", "marido", "filho", "filha", "pai", "mae", "irma",
               "hijo", "hija", "padre", "madre", "hermano", "hermana", "partner"),
    "schedule": ("appointment", "meeting", "flight", "reservation", "booking", "consulta",
                 "reuniao", "voo", "reserva", "cita", "vuelo", "schedule", "agenda"),
    "work": ("work", "job", "employer", "employed", "company", "office", "boss", "manager",
             "colleague", "trabalh", "empresa", "emprego", "chefe", "cargo", "trabaj", "jefe",
             "salary", "salario", "project", "projeto", "proyecto", "team", "equipe"),
    "location": ("live", "moro", "vivo", "address", "endereco", "direccion", "city", "cidade",
                 "ciudad", "street", "rua", "calle", "apartment", "apartamento", "neighborhood",
                 "bairro", "barrio", "moved to", "mudei"),
    "preference": ("prefer", "prefir", "prefier", "favorite", "favourite", "favorit", "rather",
                   "gosto", "me gusta", "i like", "i love", "i hate", "odeio", "detesto"),
}
# whose health: the user ("I", "my", "eu", "minha", "yo", "mi"; "you/your" in the question
# they answered) or a person they name ("my husband", "ela"); not a bill or a price list
_PERSON_WORDS = (
    "i", "i'm", "im", "me", "my", "mine", "myself", "we", "our", "us", "he", "she", "him",
    "her", "his", "eu", "meu", "minha", "meus", "minhas", "mim", "comigo", "nos", "nosso",
    "nossa", "ele", "ela", "dele", "dela", "tenho", "estou", "tomo", "faco", "yo", "mi", "mis",
    "conmigo", "nuestro", "nuestra", "tengo", "estoy", "el", "ella",
)
_ADDRESSEE_WORDS = ("you", "your", "voce", "seu", "sua", "usted", "tu", "su")
# relations that make another person the subject of a fact ("my father's cardiologist")
PEOPLE = frozenset([
    "father", "mother", "dad", "mom", "son", "daughter", "wife", "husband", "partner",
    "brother", "sister", "grandfather", "grandmother", "grandma", "grandpa", "uncle", "aunt",
    "cousin", "boss", "manager", "friend", "girlfriend", "boyfriend", "fiance", "fiancee",
    "child", "kid", "kids", "children", "parents", "colleague", "pai", "mae", "filho",
    "filha", "esposa", "marido", "irmao", "irma", "avo", "tio", "tia", "primo", "prima",
    "chefe", "amigo", "amiga", "namorado", "namorada", "noivo", "noiva", "companheiro",
    "companheira", "socio", "socia", "padre", "madre", "hijo", "hija", "esposo", "hermano",
    "hermana", "abuelo", "abuela", "jefe", "novio", "novia",
])
# an animal's health is not the user's health data (a vet bill, the dog's medication)
_ANIMALS = (
    "dog", "dogs", "puppy", "cat", "cats", "kitten", "pet", "pets", "vet", "veterinar",
    "horse", "rabbit", "parrot", "cachorr", "cadela", "gato", "gata", "filhote", "bicho",
    "perro", "perra", "mascota", "gatito", "caballo", "animal",
)
_DIGITS = re.compile(r"\d[\d .-]{2,}\d")
# money, not a number that identifies an account: "$41,800", "R$ 1.500,00", "USD 2500"
_AMOUNT_BEFORE = re.compile(r"(?:[$€£¥]|R\$|US\$|USD|BRL|EUR)\s?$", re.IGNORECASE)
_AMOUNT_AFTER = re.compile(r"^\s?(?:dollars|reais|euros|pesos|usd|brl|k\b|/(?:mo|month|yr|year))",
                           re.IGNORECASE)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b")
_TERM_CACHE: dict[str, re.Pattern[str]] = {}


def _has_term(folded: str, term: str) -> bool:
    pattern = _TERM_CACHE.get(term)
    if pattern is None:
        # short terms ("pin", "son", "dna") must be whole words: "pin" is not "Pinheiros"
        end = r"(?![a-z0-9])" if len(term) <= 3 else ""
        pattern = re.compile(r"(?<![a-z0-9])" + re.escape(term) + end)
        _TERM_CACHE[term] = pattern
    return pattern.search(folded) is not None


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def has_account_number(text: str) -> bool:
    """A card number (Luhn, 13–19 digits), an IBAN, or ≥4 digits next to a banking word."""
    if _IBAN.search(text.replace(" ", "")):
        return True
    folded = fold(text)
    for match in _DIGITS.finditer(text):
        if (_AMOUNT_BEFORE.search(text[:match.start()])
                or _AMOUNT_AFTER.match(text[match.end():])):
            continue  # an amount of money is not an account number
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            return True
        if len(digits) >= 4 and any(_has_term(folded, w) for w in _FINANCIAL_WORDS):
            return True
    return False


def about_an_animal(text: str) -> bool:
    folded = fold(text)
    return any(_has_term(folded, t) for t in _ANIMALS)


def about_a_person(text: str, *, context: str = "") -> bool:
    """The text speaks of the user or of a person ("my", "eu", "she", "my husband"), or
    answers a question put to the user ("your")."""
    words = set(re.findall(r"[a-z']+", fold(text)))
    if words & (set(_PERSON_WORDS) | PEOPLE):
        return True
    return bool(set(re.findall(r"[a-z']+", fold(context))) & set(_ADDRESSEE_WORDS))


def is_health_data(text: str, *, context: str = "") -> bool:
    """A condition, or care a person receives; not an animal's, not a price for a service."""
    if about_an_animal(text) or about_an_animal(context):
        return False
    folded = fold(text)
    if any(_has_term(folded, t) for t in _SENSITIVE_LEXICON["health"]):
        return True
    return (any(_has_term(folded, t) for t in _CARE_TERMS)
            and about_a_person(text, context=context))


def sensitive_category(text: str, *, context: str = "") -> str | None:
    """The first sensitive category the text falls in, or None. `context` (the question the
    user answered) tells whose health it is: a pet's diagnosis is not health data."""
    folded = fold(text)
    for category, terms in _SENSITIVE_LEXICON.items():
        if category == "health":
            if is_health_data(text, context=context):
                return category
            continue
        if any(_has_term(folded, t) for t in terms):
            return category
    if has_account_number(text):
        return "financial_account"
    return None


def ordinary_category(text: str) -> str:
    folded = fold(text)
    for category, terms in _ORDINARY_LEXICON.items():
        if any(_has_term(folded, t) for t in terms):
            return category
    return "other"


def classify(text: str, hint: str | None = None, *, context: str = "") -> tuple[str, bool]:
    """(category, sensitive): sensitive lexicons first, then the extractor's hint, then keywords."""
    sensitive = sensitive_category(text, context=context)
    if sensitive:
        return sensitive, True
    from desktop_app.memory.types import SENSITIVE_CATEGORIES

    animal = hint == "health" and (about_an_animal(text) or about_an_animal(context))
    if hint in SENSITIVE_CATEGORIES and not animal:
        return hint, True  # an extractor's stricter judgement wins too
    if hint and hint != "other" and not animal:
        return hint, False
    return ordinary_category(text), False
