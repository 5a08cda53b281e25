"""Category and sensitivity of a fact, from PT/EN/ES keyword lexicons.

Deliberately keyword-based and conservative: a fact that mentions a health condition,
religion, a financial account number… is flagged sensitive even when an LLM said
otherwise (the stricter of the two wins), because storing it needs the user's consent.
"""

from __future__ import annotations

import re

from desktop_app.text.fold import fold

# Folded stems; each matches at the start of a word ("diabet" → "diabetes", "diabético").
_SENSITIVE_LEXICON: dict[str, tuple[str, ...]] = {
    "health": (
        "diagnos", "disease", "illness", "medication", "medicine", "prescri", "pill", "allerg",
        "diabet", "cancer", "asthma", "hypertens", "blood pressure", "depress", "anxiety",
        "therap", "psychiatr", "psycholog", "cardiolog", "oncolog", "neurolog", "surgery",
        "pregnan", "hiv", "symptom", "treatment", "chemo", "insulin", "migraine", "doenca",
        "diagnostic", "remedio", "medicament", "alergi", "alergic", "asma", "pressao alta",
        "ansiedade", "terapia", "terapeuta", "psiquiatr", "psicolog", "cirurgia", "gravid",
        "sintoma", "tratamento", "enfermedad", "embaraz", "tratamiento", "receita medica",
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


def sensitive_category(text: str, *, context: str = "") -> str | None:
    """The first sensitive category the text falls in, or None. `context` (the question the
    user answered) tells whose health it is: a pet's diagnosis is not health data."""
    folded = fold(text)
    for category, terms in _SENSITIVE_LEXICON.items():
        if category == "health" and (about_an_animal(text) or about_an_animal(context)):
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
