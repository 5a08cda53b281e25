"""Portuguese and Spanish cognates (and English words of Latin root): one spelling key for
both, and a question respelled in the words of the passages it is asked of.

A Spanish question asked of a Portuguese law shares meaning with it but few spellings:
"tratamiento" / "tratamento", "datos" / "dados", "sensible" / "sensível", "plazo" /
"prazo", "protección" / "proteção". The keyword leg and every word-overlap check then miss
the very words that name the topic, and the answer follows chance matches. The two
languages spell most shared words by a few regular correspondences, so `cognate_key` maps
a word of either language to one key (accents folded; the -ción/-ção, -dad/-dade,
-miento/-mento, -ble/-vel, -ales/-ais, -an/-am endings to one form; ie/ue to e/o, b/v,
ll/lh/j, ct/t, pl/pr, ch/it, rs/s, intervocalic t/d merged). Two words with one key, or
long keys one letter or one vowel apart (`_near`), are taken for the same word.

English shares Latin roots with both ("protection", "authority", "controller",
"principles") but spells them its own way, so an English word is first written the way
Portuguese and Spanish write that root (`romance`: -tion as -ción, -ity as -idad, -ic as
-ico, th as t, doubled consonants single…) and then keyed; only when the caller says the
word is English (`cognate_key(word, "en")`): those rules would damage a Portuguese word.
English words of other roots ("data", "rights", "subject") find no cognate and stay.

`respell` rewrites a question's content words that its passages never use with the
passages' own word of that key (the most frequent; one of a near key when none has it),
so "¿Qué es un dato personal sensible?" is searched as "¿Qué es un dado pessoal
sensivel?" over a Portuguese library. Words the passages use as they are, short words and
the question's function words
are never changed; a word with no cognate among the passages stays as typed. The passages
are the question's own first hits (found by meaning, which crosses languages), so nothing
here knows a vocabulary of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from desktop_app.text.fold import fold
from desktop_app.text.stopwords import NOT_CONTENT

MIN_LENGTH = 4  # shorter words are too often different words with one key
NEAR_LENGTH = 7  # keys this long may differ by one edit ("encargado" / "encarregado")
_WORD = re.compile(r"\w+")
_VOWELS = frozenset("aeiou")

# endings, longest first: (Spanish or Portuguese ending, the key's ending)
_ENDINGS: tuple[tuple[str, str], ...] = (
    ("ciones", "ZONs"), ("coes", "ZONs"), ("cion", "ZON"), ("cao", "ZON"),
    ("siones", "SONs"), ("soes", "SONs"), ("sion", "SON"), ("sao", "SON"),
    ("mientos", "MENTs"), ("mentos", "MENTs"), ("miento", "MENT"), ("mento", "MENT"),
    ("dades", "DADs"), ("dade", "DAD"), ("dad", "DAD"),
    ("tudes", "TUDs"), ("tude", "TUD"), ("tud", "TUD"),
    ("bles", "BLs"), ("veis", "BLs"), ("ble", "BL"), ("vel", "BL"),
    ("ales", "ALs"), ("ais", "ALs"), ("eles", "ELs"), ("eis", "ELs"),
    ("ones", "ONs"), ("oes", "ONs"), ("ao", "ON"), ("on", "ON"),
    ("am", "AN"), ("an", "AN"), ("em", "EN"), ("en", "EN"),  # autorizam, origem / origen
    ("eiros", "ERs"), ("eiras", "ERAs"), ("eiro", "ER"), ("eira", "ERA"),
    ("eros", "ERs"), ("eras", "ERAs"), ("ero", "ER"), ("era", "ERA"),
)
# spelling correspondences inside a word, applied in order to both languages
_INSIDE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"ct"), "t"), (re.compile(r"pt"), "t"), (re.compile(r"^ps"), "s"),
    (re.compile(r"(?<=[aeiou])ch"), "it"), (re.compile(r"rs"), "s"), (re.compile(r"rr"), "r"),
    (re.compile(r"(?<![qg])ie"), "e"), (re.compile(r"(?<![qg])ue"), "o"),
    (re.compile(r"lh|ll|j"), "l"), (re.compile(r"nh"), "n"), (re.compile(r"ss"), "s"),
    (re.compile(r"v"), "b"), (re.compile(r"y"), "i"), (re.compile(r"z"), "c"),
    (re.compile(r"^h"), ""), (re.compile(r"pl"), "pr"),
    (re.compile(r"(?<=[aeiou])t(?=[aeiou])"), "d"),
)


# An English word spelled as Portuguese and Spanish spell its Latin cognate, in order
# (folded words): "protection" -> "proteccion", "authority" -> "autoridad", "anonymized" ->
# "anonymizado", "special" -> "especial", "controller" -> "controlador", "public" ->
# "publico". Only English words go through it (`cognate_key(word, "en")`).
_ENGLISH: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"([bcdfgklmnprt])\1"), r"\1"),  # commission, controller, support
    (re.compile(r"ph"), "f"), (re.compile(r"th"), "t"), (re.compile(r"tion"), "cion"),
    (re.compile(r"ions$"), "iones"), (re.compile(r"^(te|s|me)ch|ch(?=r)"), r"\1c"),
    (re.compile(r"ities$"), "idades"), (re.compile(r"ity$"), "idad"),
    (re.compile(r"ties$"), "dades"), (re.compile(r"ty$"), "dad"),  # liberty, penalty
    (re.compile(r"iple(s?)$"), r"ipio\1"), (re.compile(r"cle(s?)$"), r"culo\1"),
    (re.compile(r"um$"), "o"), (re.compile(r"(?<=[ae]n)t(s?)$"), r"te\1"),  # minimum, student
    (re.compile(r"(?<=[bt])er(s?)$"), r"ro\1"),  # member, minister, register
    (re.compile(r"ors$"), "ores"), (re.compile(r"als$"), "ales"),  # directors, professionals
    (re.compile(r"ies$"), "ias"), (re.compile(r"(?<=[cr])y$"), "ia"),  # agency, autonomy
    (re.compile(r"ences?$"), "encia"), (re.compile(r"ances?$"), "ancia"),
    (re.compile(r"ical(s?)$"), r"ico\1"), (re.compile(r"ic(s?)$"), r"ico\1"),
    (re.compile(r"ous$"), "oso"), (re.compile(r"ive(s?)$"), r"ivo\1"),
    (re.compile(r"ism(s?)$"), r"ismo\1"), (re.compile(r"ist(s?)$"), r"ista\1"),
    (re.compile(r"ure(s?)$"), r"ura\1"), (re.compile(r"ment(s?)$"), r"mento\1"),
    (re.compile(r"(?<=.{4})ed$"), "ado"), (re.compile(r"(?<=.{5})er(s?)$"), r"ador\1"),
    (re.compile(r"^s(?=[cpt][aeioulr])"), "es"),  # special, study, structure
)


def romance(word: str) -> str:
    """An English word in the spelling of its Portuguese and Spanish cognates (`_ENGLISH`);
    a word that has none comes out as a word nobody writes, which matches nothing."""
    word = fold(word)
    for pattern, replacement in _ENGLISH:
        word = pattern.sub(replacement, word)
    return word


def cognate_key(word: str, language: str = "") -> str:
    """One key for a Portuguese word and its Spanish cognate ("tratamiento" and
    "tratamento", "sensibles" and "sensíveis", "plazo" and "prazo"), and for an English
    word of that Latin root when `language` is "en" ("protection", "authorities")."""
    word = (romance(word) if language == "en" else fold(word)).replace("cc", "c")
    ending = ""
    for suffix, key in _ENDINGS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            word, ending = word[: len(word) - len(suffix)], key
            break
    for pattern, replacement in _INSIDE:
        word = pattern.sub(replacement, word)
    return word + ending


def _near(one: str, other: str) -> bool:
    """Whether two keys are one insertion or deletion apart, or one vowel for another
    ("dereidos" / "direidos": derechos / direitos); a consonant for another is another
    word ("calidad" is not "validade")."""
    if abs(len(one) - len(other)) > 1:
        return False
    if len(one) > len(other):
        one, other = other, one
    for i, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            if len(one) < len(other):
                return one[i:] == other[i + 1:]
            return a in _VOWELS and b in _VOWELS and one[i + 1:] == other[i + 1:]
    return True  # equal, or one longer by its last letter


def _near_keys(one: str, other: str) -> bool:
    """Keys of `NEAR_LENGTH` letters or more may be one edit apart (`_near`)."""
    return max(len(one), len(other)) >= NEAR_LENGTH and _near(one, other)


def same_word(one: str, other: str) -> bool:
    """Whether two words are one word, or cognates of each other (one `cognate_key`, or
    long keys one edit apart)."""
    if fold(one) == fold(other):
        return True
    a, b = cognate_key(one), cognate_key(other)
    return a == b or _near_keys(a, b)


@dataclass(frozen=True)
class Respelled:
    text: str  # the question with its words respelled
    words: Mapping[str, str]  # folded word typed -> the passages' word used instead

    @property
    def changed(self) -> bool:
        return bool(self.words)


@dataclass(frozen=True)
class Vocabulary:
    """The passages' words: how often each folded word occurs, and the (count, word) pairs
    of each `cognate_key`, indexed once for every text respelled with them."""

    counts: Counter[str]
    keys: Mapping[str, list[tuple[int, str]]]
    written: Mapping[str, str]  # each folded word as the passages write it most ("manutenção")


def vocabulary(texts: Iterable[str], language: str = "") -> Vocabulary:
    """The folded words of `texts` (in `language`), counted and indexed by cognate key."""
    spellings: Counter[str] = Counter()
    for text in texts:
        spellings.update(_WORD.findall(text.lower()))
    counts: Counter[str] = Counter()
    written: dict[str, str] = {}
    for spelled, count in spellings.most_common():
        folded = fold(spelled)
        counts[folded] += count
        written.setdefault(folded, spelled)
    keys: dict[str, list[tuple[int, str]]] = {}
    for word, count in counts.items():
        if len(word) >= MIN_LENGTH and not word.isdigit():
            keys.setdefault(cognate_key(word, language), []).append((count, word))
    return Vocabulary(counts, keys, written)


def respell(question: str, words: Vocabulary, language: str = "",
            keep: Collection[str] = ()) -> Respelled:
    """`question` (in `language`) with each content word that `words` (the passages'
    vocabulary) lacks replaced by the passages' most frequent cognate of it (see the module
    docstring). The folded words in `keep` stay as typed (the words saying what kind of
    answer is asked: "¿en cuánto tiempo…?" read as "cuánto tempo" asks nothing)."""
    keys = words.keys
    changes: dict[str, str] = {}
    for typed in dict.fromkeys(_WORD.findall(fold(question))):
        if (len(typed) < MIN_LENGTH or typed.isdigit() or typed in NOT_CONTENT
                or typed in words.counts or typed in keep):
            continue
        key = cognate_key(typed, language)
        found = keys.get(key)
        if not found:
            found = [pair for other, pairs in keys.items() if _near_keys(key, other)
                     for pair in pairs]
        if found:
            changes[typed] = max(found)[1]
    if not changes:
        return Respelled(question, {})
    return Respelled(respelled_with(question, changes), changes)


def respelled_with(text: str, changes: Mapping[str, str]) -> str:
    """`text` with each word whose folded form is a key of `changes` written as its value."""
    return _WORD.sub(lambda match: changes.get(fold(match.group()), match.group()), text)


# e5-small's cosine of a word (as a query) to the passage word, as written, that translates
# it: "maintenance" / "manutenção" 0.91, "higher" / "superior" 0.91, "expenses" /
# "despesas" 0.89, "rights" / "direitos" 0.89; unrelated words of the same passages mostly
# 0.83–0.87. On the legal set asked in English the floor is not a knife-edge: 0.87, 0.89
# and 0.91 put the right article first 0.575, 0.552 and 0.540 (0.483 without it).
MEANING_FLOOR = 0.89


def respell_by_meaning(question: str, words: Vocabulary, respelled: Respelled,
                       passage_vectors: Callable[[Sequence[str]], np.ndarray],
                       query_vector: Callable[[str], np.ndarray],
                       floor: float = MEANING_FLOOR, keep: Collection[str] = ()) -> Respelled:
    """`respelled` (the question with its cognates respelled) with each content word of
    `question` that is still foreign — the passages never use it and no cognate was found —
    replaced by the passages' word closest to it in meaning (multilingual embeddings: a
    word as a query against each passage word), when that is `floor` or closer. English
    against Portuguese, where spelling reaches only the Latin roots ("rights" as "direitos",
    "higher" as "superior", "expenses" as "despesas"). Noisier than a cognate ("comprise"
    comes out "inclusive"): callers search with it beside the question, or let the
    "not found" gate read it, never rank on it. The folded words in `keep` stay as typed
    (`respell`)."""
    typed = [word for word in dict.fromkeys(_WORD.findall(fold(question)))
             if len(word) >= MIN_LENGTH and not word.isdigit() and word not in NOT_CONTENT
             and word not in words.counts and word not in respelled.words
             and word not in keep]
    candidates = [word for word in words.counts
                  if len(word) >= MIN_LENGTH and not word.isdigit() and word not in NOT_CONTENT]
    if not typed or not candidates:
        return respelled
    matrix = passage_vectors([words.written.get(word, word) for word in candidates])
    changes = dict(respelled.words)
    for word in typed:
        closeness = matrix @ query_vector(word)
        best = int(np.argmax(closeness))
        if closeness[best] >= floor:
            changes[word] = candidates[best]
    if len(changes) == len(respelled.words):
        return respelled
    return Respelled(respelled_with(respelled.text, changes), changes)
