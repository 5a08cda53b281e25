"""Offline language detection for Portuguese, English and Spanish (else "und").

Function words decide: every word found in a language's list scores for it (a word shared
by several lists scores a fraction for each), and a few spelling marks that only one of the
languages uses add to it ("ção"/ã/õ for Portuguese, "ción"/ñ/¿ for Spanish). The winner
needs a minimum score and a clear margin over the runner-up; short or mixed text is "und".
No model, no download; about 1 ms per 10,000 characters.
"""

from __future__ import annotations

import re

UNDETERMINED = "und"
SAMPLE_CHARS = 20_000
MIN_SCORE = 2.0
MIN_MARGIN = 1.3


def _word_set(words: str) -> frozenset[str]:
    """A set from a space-separated list (easier to read and extend than a list literal)."""
    return frozenset(words.split())


_STOPWORDS: dict[str, frozenset[str]] = {
    "pt": _word_set(
        "a o as os de do da dos das em no na nos nas um uma uns umas e é ou que se não com "
        "por pelo pela pelos pelas para ao aos à às mais mas como foi ser são está estão "
        "tem têm ter seu sua seus suas ele ela eles elas isso este esta esse essa também "
        "já muito quando onde sobre entre até sem depois ainda pode será foram seja há "
        "nem lhe você nós eu meu minha quem qual cada todo toda todos todas outro outra "
        "deve devem bem então porque apenas desta deste dessa desse nesta neste "
        "conforme após"
    ),
    "en": _word_set(
        "the of and to in is that it for was on are as with his her they at be this have "
        "from or one had by but not what all were we when your can said there use an each "
        "which she do how their if will up other about out many then them these so some "
        "would make like him into time has two more see no way could people my than first "
        "been who its now should must may any such only also shall under after before "
        "between those where being does"
    ),
    "es": _word_set(
        "el la los las de del en y a que se no un una unos unas es son por con para al lo "
        "como más pero sus su le les ya o este esta estos estas ese esa eso sí porque entre "
        "cuando muy sin sobre también me hasta hay donde quien desde todo todos nos "
        "durante ni contra otros otra otro ellos él ella fue ser está están tiene tienen "
        "puede será debe deben cada cual según ante bajo hacia mediante"
    ),
}
_MARKS: dict[str, re.Pattern[str]] = {
    "pt": re.compile(r"ção|ções|[ãõ]"),
    "es": re.compile(r"ción|ciones|[ñ¿¡]|\bll"),
}
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _sample(text: str) -> str:
    if len(text) <= SAMPLE_CHARS:
        return text
    half = SAMPLE_CHARS // 2
    middle = len(text) // 2
    return text[:half] + " " + text[middle:middle + half]


def language_scores(text: str) -> dict[str, float]:
    """Score per language code for `text` (exposed for tests and diagnostics)."""
    sample = _sample(text).casefold()
    scores = dict.fromkeys(_STOPWORDS, 0.0)
    for word in _WORD.findall(sample):
        holders = [code for code, words in _STOPWORDS.items() if word in words]
        for code in holders:
            scores[code] += 1.0 / len(holders)
    for code, pattern in _MARKS.items():
        scores[code] += 0.5 * len(pattern.findall(sample))
    return scores


def detect_language(text: str) -> str:
    """"pt", "en", "es" or "und" (too little text, or no clear winner)."""
    scores = language_scores(text)
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    (best, best_score), (_, second_score) = ranked[0], ranked[1]
    if best_score < MIN_SCORE or best_score < MIN_MARGIN * second_score:
        return UNDETERMINED
    return best
