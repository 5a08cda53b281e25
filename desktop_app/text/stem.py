"""Light stemming for the keyword leg: one suffix rule set for pt, es and en.

Why not LanceDB's own Portuguese stemmer: it stems *before* folding accents, so
"informacao" typed without accents never meets "informação" (measured; see
docs/retrieval.md, "Accents"). We fold first, then strip suffixes written without accents, and
apply exactly the same function to documents and queries, so "devolucao",
"devolução" and "devoluções" all reduce to one term. The stemmer is a light,
RSLP-inspired suffix stripper for Portuguese and Spanish that also handles
common English plurals; it is deliberately conservative (over-stemming hurts
precision more than it helps recall on short analyst queries).

The stems are stored (every index's analysed column, the team library, the memory and
recall indexes), so a change here moves `text.analyze.ANALYZER_VERSION` and comes with an
upgrade of each store (index schema 5 was the first: docs/retrieval.md).
"""

from __future__ import annotations

from functools import lru_cache

from desktop_app.text.caches import forget_with

# Derivational suffixes, longest first: (suffix, replacement, minimum stem length kept).
_DERIVATIONAL: tuple[tuple[str, str, int], ...] = (
    ("amentos", "", 4), ("imentos", "", 4), ("amento", "", 4), ("imento", "", 4),
    ("acoes", "", 3), ("icoes", "", 3), ("acao", "", 3), ("icao", "", 3),
    ("aciones", "", 3), ("acion", "", 3), ("ations", "", 3), ("ation", "", 3),
    ("idades", "", 3), ("idade", "", 3), ("idad", "", 3), ("ities", "", 3), ("ity", "", 3),
    ("mente", "", 4), ("ismos", "", 3), ("ismo", "", 3), ("istas", "", 3), ("ista", "", 3),
    ("aveis", "", 3), ("iveis", "", 3), ("avel", "", 3), ("ivel", "", 3),
    ("ables", "", 3), ("able", "", 3), ("ando", "", 4), ("endo", "", 4), ("indo", "", 4),
    ("coes", "", 3), ("cao", "", 3), ("soes", "", 3), ("sao", "", 3), ("sion", "", 3),
    ("ings", "", 4), ("ing", "", 4),
    # a verb's plural future ("assegurarão", "promoverão", "incluirão"): its verb's stem, as
    # "assegurar" has. Not the singular "-ará": "considera", "declara" are present tenses.
    ("arao", "", 4), ("erao", "", 4), ("irao", "", 4),
)
# Plural endings: (suffix, replacement).
_PLURALS: tuple[tuple[str, str], ...] = (
    ("oes", "ao"), ("aes", "ao"), ("ais", "al"), ("eis", "el"), ("ies", "y"),
    ("res", "r"), ("les", "l"), ("zes", "z"), ("sses", "ss"), ("s", ""),
)
_FINAL = ("ar", "er", "ir", "ed", "a", "o", "e")
# what is left of a verb or noun made from an -amento/-imento noun ("fundamentar" →
# "fundament"): cut as the noun's own suffix is (`_noun_of_verb`)
_VERB_OF_NOUN = ("ament", "iment")


# Words a law writes where a reader says another, stemmed as that other: "é assegurado aos
# presos" is what "O que é garantido aos presos?" asks, "é vedado" what "é proibido" asks
# (pt, and es where its stem differs), and "serviço extraordinário" what "hora extra" asks.
# Only words of one meaning either way: "garantia" (also a loan's collateral) keeps its
# own stem.
_SAME_TERM = {
    "garantid": "garant", "assegur": "garant", "assegurad": "garant",
    "garantiz": "garant", "garantizad": "garant", "asegur": "garant", "asegurad": "garant",
    "proibid": "proib", "ved": "proib", "veda": "proib", "vedar": "proib", "vedad": "proib",
    "prohib": "proib", "prohibid": "proib", "prohibicion": "proib",
    "extraordinari": "extr",
}


@lru_cache(maxsize=65536)  # pure; a language has far fewer distinct words than it uses
def light_stem(token: str) -> str:
    """Reduce a folded token (`_stem`), then to the stem its word shares with a synonym
    (`_SAME_TERM`)."""
    stem = _stem(token)
    return _SAME_TERM.get(stem, stem)


def _stem(token: str) -> str:
    """Reduce a folded token: one derivational suffix, else plural then verb/vowel ending."""
    if len(token) <= 3 or not token.isalpha():
        return token
    for suffix, replacement, min_stem in _DERIVATIONAL:
        if token.endswith(suffix) and len(token) - len(suffix) >= min_stem:
            return _noun_of_verb(token[: len(token) - len(suffix)] + replacement)
    for suffix, replacement in _PLURALS:
        if suffix == "s" and token.endswith(("ss", "us", "is")):
            continue
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            token = token[: len(token) - len(suffix)] + replacement
            break
    for suffix in _FINAL:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            token = token[: len(token) - len(suffix)]
            break
    return _noun_of_verb(token)


def _noun_of_verb(stem: str) -> str:
    """A stem left ending in -ament/-iment ("fundamentar", "fundamenta", "fundamentação")
    loses it, as the -amento/-imento nouns do ("fundamentos"): one term for the family."""
    for suffix in _VERB_OF_NOUN:
        if stem.endswith(suffix) and len(stem) - len(suffix) >= 4:
            return stem[: len(stem) - len(suffix)]
    return stem


forget_with(light_stem.cache_clear)  # words of an erased text leave the process too
