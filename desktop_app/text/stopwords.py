"""Word lists, one table each, by what they are for.

- `INDEX_STOPWORDS`: what the keyword leg drops before stemming. It is part of the stored
  index format (the analysed column of every chunk and memory row on disk was built with
  it), so it is frozen: changing it changes BM25 results and needs a reindex.
- `STOPWORDS`: words that carry no content for overlap checks (citation grounding, the
  terms a memory shares with a message): the index list plus more pronouns, auxiliaries
  and the words people use to talk about the sources themselves ("according to the
  document"). Folded.
- `ASKING_WORDS`: words that ask or request ("explique", "tell", "dime") — never evidence
  and never a topic in a question. Folded. `NOT_CONTENT` = `STOPWORDS` | `ASKING_WORDS`.
- `LANGUAGE_WORDS`: frequent words per language (as written, with accents) that identify
  pt / en / es; they are markers for `language`, not stopwords ("time", "people").
"""

from __future__ import annotations

from desktop_app.text.fold import fold


def _word_set(words: str) -> frozenset[str]:
    """A set from a space-separated list (easier to read and extend than a list literal)."""
    return frozenset(words.split())


def _folded_set(words: str) -> frozenset[str]:
    return frozenset(fold(w) for w in words.split())


INDEX_STOPWORDS = _folded_set(
    """
    a o e é os as um uma uns umas de do da dos das em no na nos nas por para pelo pela pelos pelas
    com sem que se ao aos à às ou mas como mais menos muito seu sua seus suas ele ela eles elas isso
    isto esse essa este esta aquele aquela qual quais quando onde ser são foi há ter tem sobre entre
    el la los las un una y en del al por para con sin que se lo le su sus es son fue como mas
    the of and or to in on at by for with without is are was were be been an as it its this that
    these those from which what who whom when where how do does did not no yes
    """
)

STOPWORDS = INDEX_STOPWORDS | _folded_set(
    """
    sim nao sao estao sera era ha havia pode podem deve devem ate apos quem porque tambem ja
    why being can could should would will has have had there their about into than then them
    they you your our estan eso esa cual cuales cuando donde quien quienes tambien tiene hay
    puede pueden segun
    according source sources document documents fonte fontes documento documentos fuente
    fuentes segundo conforme
    must may might shall under over upon after before between within any such only also
    whether debe deben podra podran
    posso possa possam podemos poderia poderiam devo puedo pueda puedan podria
    """
)

ASKING_WORDS = _folded_set(
    """
    quem quanto quanta quantos quantas porque por que diga diz dizem dizer explique fale falam
    mostre conte existe existem significa quer gostaria saber preciso whose tell explain show
    mean means say says said dime dice dicen explica muestra quiero cuanto cuantos cuantas
    much many cuanta
    """
)

# Words that ask or request rather than say something: never evidence, never a topic of
# a question (the extractive answer's evidence, the context block's question words).
NOT_CONTENT = STOPWORDS | ASKING_WORDS

LANGUAGE_WORDS: dict[str, frozenset[str]] = {
    "pt": _word_set(
        "a o as os de do da dos das em no na nos nas um uma uns umas e é ou que se não com "
        "por pelo pela pelos pelas para ao aos à às mais mas como foi ser são está estão "
        "tem têm ter seu sua seus suas ele ela eles elas isso este esta esse essa também "
        "já muito quando onde sobre entre até sem depois ainda pode será foram seja há "
        "nem lhe você nós eu meu minha quem qual cada todo toda todos todas outro outra "
        "deve devem bem então porque apenas desta deste dessa desse nesta neste "
        "conforme após quais quanto quanta quantos quantas existem"
    ),
    "en": _word_set(
        "the of and to in is that it for was on are as with his her they at be this have "
        "from or one had by but not what all were we when your can said there use an each "
        "which she do how their if will up other about out many then them these so some "
        "would make like him into time has two more see no way could people my than first "
        "been who its now should must may any such only also shall under after before "
        "between those where being does why did according much"
    ),
    "es": _word_set(
        "el la los las de del en y a que se no un una unos unas es son por con para al lo "
        "como más pero sus su le les ya o este esta estos estas ese esa eso sí porque entre "
        "cuando muy sin sobre también me hasta hay donde quien desde todo todos nos "
        "durante ni contra otros otra otro ellos él ella fue ser está están tiene tienen "
        "puede será debe deben cada cual según ante bajo hacia mediante cuál cuáles dónde "
        "quién qué cómo usted cuánto cuánta cuántos cuántas cuanto cuanta cuantos cuantas "
        "cuándo existen"
    ),
}
