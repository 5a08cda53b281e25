"""Words as the search and the overlap checks see them: folded, stop words out, stemmed.

- `analyze(text)`: the keyword-leg (BM25) representation stored in every index and
  applied to every query: folded tokens, `INDEX_STOPWORDS` dropped, `light_stem`med.
- `content_terms(text)`: the same terms as a set, for "do these two texts talk about the
  same thing" checks (a memory vs a message, a question vs a sentence); `ignore` widens
  the words that never count.
- `prefix_terms(text)`: a coarser set for citation grounding — each content word cut to
  its first five letters, so a claim paraphrasing a source ("trabalhar" vs
  "trabalhando", "informação" vs "informações") still meets it even where the stemmer
  keeps the two apart; numbers of two or more digits count.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from desktop_app.text.fold import fold
from desktop_app.text.stem import light_stem
from desktop_app.text.stopwords import INDEX_STOPWORDS, STOPWORDS

# The version of what `analyze` makes of a text. Its terms are stored (the document index's
# keyword column, the team library's, the memory and recall indexes), so a change to folding,
# stop words or stemming that alters them moves this number and every store analyses its
# text again: 2 — -amentar/-imentar verbs and their nouns stem as the -amento nouns do; 3 —
# a law's word and a reader's synonym stem alike ("assegurado", "garantido": stem._SAME_TERM);
# 4 — a verb's plural future stems as the verb ("assegurarão", "assegurar").
ANALYZER_VERSION = 4
_TOKEN = re.compile(r"[0-9a-z]+")
_WORD = re.compile(r"\w+")
PREFIX_LENGTH = 5


def analyze(text: str, *, drop_stopwords: bool = True) -> str:
    """The keyword-leg representation of `text`: folded, stemmed terms separated by spaces."""
    terms = []
    for token in _TOKEN.findall(fold(text)):
        if drop_stopwords and token in INDEX_STOPWORDS:
            continue
        terms.append(light_stem(token))
    return " ".join(terms)


def built_by(embedder_id: str) -> str:
    """What a derived index records as having built it: the embedder and the analyzer (a
    stored value that differs means its vectors or its keyword terms are stale)."""
    return f"{embedder_id}|terms-v{ANALYZER_VERSION}"


def content_terms(text: str, *, ignore: Collection[str] = INDEX_STOPWORDS) -> frozenset[str]:
    """Stemmed terms of `text`: words of three letters or more and numbers, minus `ignore`
    (folded words)."""
    return frozenset(light_stem(t) for t in _TOKEN.findall(fold(text))
                     if t not in ignore and (len(t) >= 3 or t.isdigit()))


def prefix_terms(text: str) -> frozenset[str]:
    """Content words cut to `PREFIX_LENGTH` letters, plus numbers of two digits or more."""
    terms: set[str] = set()
    for word in _WORD.findall(fold(text)):
        if word.isdigit():
            if len(word) >= 2:
                terms.add(word)
        elif len(word) >= 3 and word not in STOPWORDS:
            terms.add(word[:PREFIX_LENGTH])
    return frozenset(terms)
