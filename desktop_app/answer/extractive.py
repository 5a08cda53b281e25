"""Sources-only answers: the passages' best sentences and enumeration blocks, quoted.

Used when no capable LLM answers. Zero model text: every line is a verbatim quote with
its own badge and its exact span in the passage. How a quote is chosen:

- Candidates are the sentences and list items (`segments.segment`) of the top few
  passages; headings, questions and instructions addressed to the reader are dropped.
- Each is scored by the embedder (question vs sentence vectors, one batched call;
  vectors cached by sentence text, so overlapping chunks and repeated questions cost
  nothing) plus keyword evidence (the question's content terms it shares, each weighted
  by how rare it is among the candidates, so "austrália" counts more than "dados") plus
  a small prior for the passage's retrieval rank. A sentence that points back ("Isso…",
  "Essa metodologia…", "Ela foi…") also counts the terms of the sentence before it (what
  it refers to). A question asking for a date, number, person or place ("quando",
  "quantos", "quem", "onde") gives a small bonus to sentences that name one the question
  does not. Without an embedder the keyword evidence alone decides.
- The best one leads. Up to `max_quotes - 1` more come from the same document, best
  first: an answer cites what holds it, not every passage it skimmed. One exception:
  when the lead comes from another document than search's top passage and that
  passage's best sentence scores close to it, that sentence is quoted too (search and
  sentence ranking disagree; the user sees both).
- A sentence is quoted with its context: one that points back comes with the sentence
  before it, one followed by a sentence that points back comes with that sentence
  (neither stands alone; on FaQuAD the answer is the sentence right after the best
  match in ~5 % of questions). A chosen sentence that introduces a list ("… nas
  seguintes hipóteses:") is shown with its items as one block, completed from the
  document when its passage cut the list; a sentence cut by a page's end is completed too
  (past the page's footnotes and the next page's running title); near-duplicates (chunks
  overlap) are skipped.

Miss analysis and measured effect of each signal: docs/answers.md.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.answer.kinds import LONG_LIST, asked_kind, asked_value, stated_beside, states
from desktop_app.answer.prompt import NumberedSource
from desktop_app.answer.question_fit import (
    LIST_QUESTION,
    asks_for,
    asks_members,
    asks_norm,
    contrasts,
    defined_thing,
    defines,
    defines_in_list,
    is_task,
    lists_tasks,
    names_a,
    names_row,
    narrows,
    opposes,
    shared_phrases,
    states_norm,
    terms,
    wants_many,
    without_qualifier,
)
from desktop_app.answer.rewrite import topic_words
from desktop_app.answer.segments import (
    WHOLE_BLOCK_CHARS,
    Unit,
    is_heading,
    is_row,
    segment,
    table_context,
    whole_block,
    without_spans,
)
from desktop_app.answer.sentence_vectors import SentenceVectors
from desktop_app.answer.units import (
    StructuralUnit,
    caputs,
    holding_list,
    may_be_law,
    may_have_sections,
    mostly_revoked,
    search_units,
    section_label,
    show,
    units_near,
)
from desktop_app.retrieval.doc_text import DocumentText, DocumentTexts
from desktop_app.retrieval.types import Hit
from desktop_app.text.fold import fold
from desktop_app.text.language import question_language, words_comparable
from desktop_app.text.sentences import ends_with_abbreviation, sentence_spans
from desktop_app.text.stopwords import NOT_CONTENT

MAX_SOURCES_CONSIDERED = 8  # passages whose sentences compete (FaQuAD: gold in the top 8 ~0.98)
MAX_CANDIDATES = 32  # sentences embedded per question, best keyword evidence first
MAX_QUOTES = 3
# another article's whole list is quoted after the first only within this of its score
# ("Que tipos de multa…?": art. 52, not then art. 7º's and art. 55-J's lists, 0.07-0.09 behind)
LATER_UNIT_MARGIN = 0.05
MAX_QUOTE_CHARS = 1000  # a quote longer than this is cut at a word (blocks: per item)
LEXICAL_WEIGHT = 0.08  # × the shared terms' rarity (a term in every candidate counts ~0)
RANK_PRIOR = 0.01  # added for the top passage, falling as 1/rank
LIST_BONUS = 0.08  # a question asking for several things ("quais são…") prefers a list's lead
TYPE_BONUS = 0.01  # "quem/quando/quanto/onde…": the sentence names a person/date/number/place
# a unit of a law states the kind of value asked (a duration for "prazo", an amount for
# "quanto custa", a percentage…: answer/kinds.py): a law's units are full of numbers that
# are not values (labels, references are taken out), so one that states the kind is strong
# evidence, unlike a sentence naming any number or name (TYPE_BONUS)
STATES_WEIGHT = 0.04
# and as much again when the question can only be answered by such a value ("Qual o prazo…?",
# "Quanto ganha…?", kinds.asked_value): a unit without one does not answer it
STATES_VALUE_WEIGHT = 0.04
DEFINITION_BONUS = 0.1  # "o que é X?": the sentence or item that defines exactly X ("X: …")
SECOND_OPINION_MARGIN = 0.05  # the top passage's best sentence joins a close answer from elsewhere
# a unit of a law: how much of what its lead and its division's title say the question asks
LEAD_PRECISION_WEIGHT = 0.05
HEADING_PRECISION_WEIGHT = 0.03
# a unit of a law: the share of the question's words its own words say (not its items')
LEAD_RECALL_WEIGHT = 0.05
UNIT_SEARCH_DOCUMENTS = 2  # structured documents whose own units are searched
LIST_NEIGHBOURS = 6  # two items of one list among this many best candidates: quote the list
# half or more of the best candidates are one list's lines (its items, its lead): the list answers,
# ahead of a single provision scoring a little more on its own (`_crowding_list`)
CROWD_SHARE = 0.5
CROWD_MARGIN = 0.02
UNIT_SEARCH_LIMIT = 10  # units taken from each
# … and, for a question asking a date or a time limit, the units setting one for articles
# they name by number that best match its words through those articles' division titles
# (units.cited_titles): a many-lined article that uses the words itself would otherwise
# fill every place ("Desde quando podem ser aplicadas as sanções…?": art. 52's lines, not
# art. 65's "I-A – dia 1º de agosto de 2021, quanto aos arts. 52, 53 e 54")
VALUE_SEARCH_LIMIT = 2
PHRASE_WEIGHT = 0.05  # a unit of a law: the question's word pairs it says in the same order
PREVIOUS_WEIGHT = 0.03  # a follow-up: a unit of an article the previous answer quoted
# a follow-up: a unit naming by number a unit the previous answer's first quote showed (what
# the law says of what was just read: its exception, its consequence)
NAMES_QUOTED_WEIGHT = 0.1
ASKED_WEIGHT = 0.1  # a follow-up: the share of its own words (not the carried ones) a unit has
NARROWS_WEIGHT = -0.02  # a unit of a law about a special case of what was asked
CONTRASTS_WEIGHT = -0.04  # a unit of a law about a sibling of what was asked (question_fit.contrasts)
PREVIOUS_DOC_WEIGHT = 0.02  # a follow-up: a candidate of a document the last answer quoted
# a follow-up: a candidate with none of its own words that does not state what it asks for
# either ("e qual o prazo…?" answered by a § that only repeats the previous question's topic)
UNASKED_WEIGHT = -0.1
PREVIOUS_OTHER_SHARE = 0.5  # an article the last answer quoted after its first quote
CARRIED_TERM_SHARE = 0.5  # a follow-up: what a word its rewrite carried counts as evidence
# a unit of a law that says nothing the question does not ("II - Conselho Nacional de
# Proteção de Dados…;" asked who sits on that council): it names the topic, answers nothing
ECHO_WEIGHT = -0.05
# the features that compare the question's words with a candidate's: left out when the
# two are in languages whose words cannot be compared (text.language.words_comparable)
WORD_FEATURES = ("keywords", "lead_precision", "heading_precision", "lead_recall", "phrases",
                 "narrows", "contrasts", "echo", "asked", "unasked", "beside")
# a unit of a law listing what a body does, asked who makes it up ("Quem tem assento no
# Conselho?": art. 58-A's members, not art. 58-B's "Compete ao Conselho: I - propor…")
TASKS_WEIGHT = -0.04
# a table row the question names by its label ("… the total for Arizona?": "Arizona | …"):
# its figures are the answer the words of a prose sentence about the table only echo (as
# much as a definition of exactly the asked thing: DEFINITION_BONUS)
ROW_NAMED_WEIGHT = 0.1
# a candidate stating the value asked with the question's own words beside it ("Quanto
# tempo dura o mandato de um senador?": "… três Senadores, com mandato de oito anos", not
# art. 56's "o afastamento não ultrapasse cento e vinte dias"): kinds.stated_beside
BESIDE_WEIGHT = 0.03
# a list whose lead denies what the question asks may be done ("Sobre o que a União pode
# cobrar impostos?": art. 150's "é vedado à União …:"), or grants what it asks may not
# (question_fit.opposes)
OPPOSES_WEIGHT = -0.03
# a question answered yes or no about what may, must or does apply ("O operador pode tratar
# os dados do jeito que quiser?"): a unit of a law that states a rule, permits, obliges,
# forbids, grants a right or applies ("O operador deverá realizar o tratamento segundo as
# instruções…"; a list by its lead, an item under it; question_fit.asks_norm, states_norm)
NORM_WEIGHT = 0.03
# a candidate's score: the weighted sum of its features (`rank_candidates`)
WEIGHTS = {"cosine": 1.0, "keywords": LEXICAL_WEIGHT, "prior": RANK_PRIOR, "names": TYPE_BONUS,
           "states": STATES_WEIGHT, "states_value": STATES_VALUE_WEIGHT,
           "list": LIST_BONUS, "defines": DEFINITION_BONUS,
           "lead_precision": LEAD_PRECISION_WEIGHT, "heading_precision": HEADING_PRECISION_WEIGHT,
           "lead_recall": LEAD_RECALL_WEIGHT,
           "phrases": PHRASE_WEIGHT, "previous": PREVIOUS_WEIGHT, "asked": ASKED_WEIGHT,
           "names_quoted": NAMES_QUOTED_WEIGHT,
           "narrows": NARROWS_WEIGHT, "contrasts": CONTRASTS_WEIGHT, "previous_doc": PREVIOUS_DOC_WEIGHT,
           "unasked": UNASKED_WEIGHT, "echo": ECHO_WEIGHT, "tasks": TASKS_WEIGHT,
           "row_named": ROW_NAMED_WEIGHT, "beside": BESIDE_WEIGHT, "opposes": OPPOSES_WEIGHT,
           "norm": NORM_WEIGHT}
DUPLICATE_OVERLAP = 0.8
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class Quote:
    """One line of a sources-only answer: a unit of one retrieved passage."""

    source: int  # number of the passage in retrieval order (NumberedSource.number)
    hit: Hit
    unit: Unit  # the sentence, item or block quoted (its span is in hit.text)
    score: float
    semantic: float | None  # cosine question ↔ sentence, when an embedder ranked
    shared_terms: int
    structural: StructuralUnit | None = None  # a unit of a law (its path, lines, notes)
    features: dict[str, float] = dataclasses.field(default_factory=dict, compare=False)

    @property
    def start(self) -> int:
        return self.unit.start

    @property
    def end(self) -> int:
        return self.unit.end


@dataclass(frozen=True)
class ExtractiveAnswer:
    quotes: tuple[Quote, ...]  # best first (the display order)
    candidates: tuple[Quote, ...]  # every scored candidate, best first (abstention evidence)
    matched: bool  # some candidate shares a content term with the question
    question_terms: frozenset[str]
    embedded: int = 0  # sentence vectors computed for this answer (cache misses)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(q.source for q in self.quotes))


# A sentence that points back ("Isso…", "Essa metodologia…", "Ela foi…", "Para isto,…"):
# it continues the sentence before it and does not stand alone.
_POINTS_BACK = re.compile(
    r"^\W*(?:e\s+|and\s+|y\s+)?(?:(?:para|por|com|de|em|a|como|apos|for|in|by|en|con)\s+)?(?:isso|isto|esse|essa|esses|essas|este|esta|estes|estas"
    r"|ele|ela|eles|elas|tal|tais|aquele|aquela|aqueles|aquelas|dessa|desta|nesse|neste|nessa|nesta"
    r"|disso|disto|assim|trata-se|ou seja|em outras palavras|por isso|com isso|alem disso"
    r"|it|its|this|these|those|he|she|they|their|such|thus|therefore|in other words"
    r"|eso|esto|ese|esos|esas|ellos|ellas|asi|es decir|por eso|ademas)\b")


def points_back(sentence: str) -> bool:
    """Whether `sentence` opens by referring to the one before it (see `_POINTS_BACK`)."""
    return bool(_POINTS_BACK.match(fold(sentence)))


def _near_duplicate(a: str, b: str) -> bool:
    """Same words mostly (overlapping chunks, a re-worded repeat), or one inside the other
    (an item already shown in its block)."""
    if a in b or b in a:
        return True
    words_a, words_b = frozenset(a.split()), frozenset(b.split())
    return len(words_a & words_b) / max(len(words_a | words_b), 1) >= DUPLICATE_OVERLAP


def _folded_words(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold(text)))


def rank_candidates(question: str, sources: Sequence[NumberedSource],
                    vectors: SentenceVectors | None, *,
                    max_sources: int = MAX_SOURCES_CONSIDERED,
                    documents: DocumentTexts | None = None,
                    previous_articles: frozenset[tuple[str, str]] = frozenset(),
                    first_articles: frozenset[tuple[str, str]] = frozenset(),
                    quoted_units: frozenset[tuple[str, int]] = frozenset(),
                    asked: str = "") -> tuple[list[Quote], int]:
    """Score every quotable sentence and item of the top passages; best first.
    Returns the ranked candidates and how many sentence vectors were computed. `asked`: a
    follow-up's own words when `question` is its rewrite (the carried topic words find the
    passages; the asked words say what is wanted from them)."""
    thing = defined_thing(question)
    # what the question asks about: a definition's thing; else its words without the
    # phrase naming the source ("segundo a LGPD")
    question_terms = thing.terms or terms(without_qualifier(question))
    # a follow-up's own topic words ("e qual o prazo para atender essas solicitações?":
    # prazo, atender, solicitações — not "essas", which points back)
    own_terms = (terms(" ".join(topic_words(without_qualifier(asked)))) & question_terms
                 if asked else question_terms)
    wants_list = bool(LIST_QUESTION.search(fold(question))) and not thing
    wants_units_list = wants_many(question) and not thing  # for the units of a law
    if thing:  # a glossary passage may rank low among passages that use the term a lot
        max_sources = max(max_sources, len(sources))
    wants = asks_for(question)
    members = asks_members(question)  # who sits on a body: not a list of what it does
    unit_kind = asked_kind(question)  # a law's units: the kinds of answer/kinds.py
    unit_value = asked_value(question)  # … when only a value of that kind answers
    norm = asks_norm(question)  # yes or no: whether something may, must or does apply
    pool: list[tuple[int, NumberedSource, Unit, frozenset[str]]] = []
    leads: set[tuple[int, int]] = set()  # (source, start) of sentences that open a list
    structural: dict[int, StructuralUnit] = {}  # pool index → the unit of a law it quotes
    pooled: dict[tuple[str, int, str], int] = {}  # a unit of a law → its place in `pool`
    searched: dict[tuple[str, str], NumberedSource] = {}  # laws among the passages, best first
    valued: set[int] = set()  # pool indices: units setting a date for cited articles

    def names_quoted(found: StructuralUnit) -> bool:
        """Whether a unit names by number a unit the previous answer's first quote showed:
        "A não observância do disposto nos incisos II e III …" after art. 37, III."""
        return any((found.key[0], i) in quoted_units for i in found.names)

    def add_unit(found: StructuralUnit, rank: int, source: NumberedSource) -> None:
        if found.key in pooled:
            return
        pooled[found.key] = len(pool)
        unit = _unit_of(found)
        structural[len(pool)] = found
        shared = question_terms & terms(" ".join((*found.headings[-1:], unit.shown)))
        if names_quoted(found):  # a follow-up's carried words describe what it names
            shared |= question_terms & terms(found.named)
        if found.cites and unit_kind is not None and states(unit_kind, unit.shown):
            # a value stated of articles named by number ("dia 1º de agosto de 2021,
            # quanto aos arts. 52, 53 e 54"): what it is of is their division's title
            shared |= question_terms & terms(found.cites)
        pool.append((rank, dataclasses.replace(source, hit=found.hit), unit, shared))
    for rank, source in enumerate(sources[:max_sources], start=1):
        document = (documents.get(source.hit.library, source.hit.doc_id)
                    if documents is not None and may_be_law(source.hit) else None)
        laws = units_near(document, source.hit) if document is not None else None
        if laws is not None:  # a law: its units compete, not the chunk's sentences
            searched.setdefault((source.hit.library, source.hit.doc_id), source)
            for found in laws:
                add_unit(found, rank, source)
            continue
        previous: Unit | None = None
        units = segment(source.hit.text)
        # a list's lead is quoted as the whole block: its items are evidence for it too
        blocks = {u.start: u for u in units if u.kind == "block"}
        # the lines the document's reader took for headings (a title too long, or in too
        # few capitals, for `segments.is_heading` to tell) are no answer either
        headings = {" ".join(h.split()) for h in source.hit.heading_path}
        # … nor a sentence made only of their words: a book's catalogue record ("LDB : Lei
        # de diretrizes e bases da educação nacional." under the headings "LDB" and "Lei
        # de diretrizes e bases da educação nacional") names the document, it says nothing
        heading_words = set(_WORDS.findall(fold(" ".join(source.hit.heading_path))))
        for unit in units:
            # a row says what its figures are only under its header ("Arizona | 2,303 |
            # …" is a count of permits for "State | Permit | …"): both are its words
            header, caption = _row_context(unit, source.hit, documents)
            unit = _shown_under(unit, header)
            if unit.kind == "block":
                leads.add((source.number, unit.start))
            elif (unit.quotable and " ".join(unit.text.split()) not in headings
                  and not set(_WORDS.findall(fold(unit.text))) <= heading_words
                  or unit.start in blocks and unit.flags == {"heading"}) \
                    and not mostly_revoked(
                    unit.text, [(a - unit.start, b - unit.start) for a, b in source.hit.revoked]):
                block = blocks.get(unit.start)
                shared = question_terms & terms(unit.shown if block is None else block.shown)
                if is_row(unit.text):  # a row is read with its table's title and header
                    # (and with the title right above rows that have no header, for its
                    # words only: "VOTER NOMINATED" over a ballot's candidates would
                    # bring every candidate closer in meaning to "How many votes…?")
                    shared |= question_terms & terms(" ".join((
                        source.hit.title, *source.hit.heading_path, caption or "")))
                if previous is not None and points_back(unit.text):
                    shared |= question_terms & terms(previous.text)  # what "isso" stands for
                pool.append((rank, source, unit, shared))
            if unit.kind != "block":
                previous = unit
    # a structured document's own units that use the question's words (an article search
    # ranked low, a glossary item): one search per document, after its passages
    language = question_language(question)
    for (library, doc_id), source in list(searched.items())[:UNIT_SEARCH_DOCUMENTS]:
        document = documents.get(library, doc_id) if documents is not None else None
        if document is None:
            continue
        found_units = search_units(
            document, source.hit, " ".join(topic_words(without_qualifier(question))),
            limit=UNIT_SEARCH_LIMIT,
            also=(lambda text: defines(text, thing, language)) if thing else None)
        for found in found_units:
            add_unit(found, max_sources + 1, source)
        if unit_kind in ("date", "start", "duration"):
            for found in search_units(
                    document, source.hit, " ".join(topic_words(without_qualifier(question))),
                    limit=VALUE_SEARCH_LIMIT, pointing=True):
                add_unit(found, max_sources + 1, source)
                valued.add(pooled[found.key])
    if unit_kind is not None:
        _read_with_caput(pool, structural, unit_kind, question_terms)
    # a long list of passages: embed the sentences with keyword evidence first
    # (a law's item defining the asked thing, and the units stating the value asked that
    # its own search found, always compete)
    defining = {i for i, law in structural.items()
                if defines(law.lead, thing, language, law.title)}
    order = sorted(range(len(pool)), key=lambda i: (i not in defining and i not in valued,
                                                     -len(pool[i][3] & own_terms),
                                                     -len(pool[i][3]), pool[i][0],
                                                     pool[i][2].position))[:MAX_CANDIDATES]
    chosen_laws = [structural.get(i) for i in order]
    pool = [pool[i] for i in order]
    semantic: list[float | None] = [None] * len(pool)
    embedded = 0
    if vectors is not None and pool:
        query = vectors.query(question)
        matrix, embedded = vectors.vectors([unit.shown for _, _, unit, _ in pool])
        semantic = [float(x) for x in matrix @ query]
    # rarity of each question term among the candidates (an inverse document frequency)
    frequency: dict[str, int] = {}
    for *_, shared in pool:
        for term in shared:
            frequency[term] = frequency.get(term, 0) + 1
    scale = math.log(1 + len(pool)) or 1.0
    quotes = []
    for i, ((rank, source, unit, shared), cosine) in enumerate(zip(pool, semantic, strict=True)):
        law = chosen_laws[i]
        keywords = sum(math.log(1 + len(pool) / frequency[t]) * (1.0 if t in own_terms
                                                                  else CARRIED_TERM_SHARE)
                       for t in shared) / scale
        is_list = law.is_list if law is not None else (source.number, unit.start) in leads
        asks_list = wants_units_list if law is not None else wants_list
        # a whole list states a value when one of its lines does: for a question only a
        # value answers, that line is the answer, not the list around it, unless the
        # list's lead states it ("será composto de 23 representantes …: I - 5 …")
        says_kind = law is not None and states(unit_kind, unit.shown) and not (
            unit_value is not None and law.kind == "list" and not asks_list
            and not states(unit_value, law.lead))
        # prose: a sentence stating the only kind of value that answers ("How long…?":
        # "each speaker will be allotted three (3) minutes")
        says_value = says_kind or (law is None and unit_value not in (None, "count")
                                   and states(unit_value, unit.shown))
        features = {
            "cosine": cosine or 0.0, "keywords": keywords, "prior": 1 / rank,
            "names": float(law is None and names_a(wants, unit.text, question)),
            "row_named": float(law is None and names_row(question, unit.text)),
            "states": float(says_kind),
            # (asked_value is asked_kind or None: the same value, weighed once more)
            # (a count is weighed once: "Quantos servidores…?" is not answered by "5
            # diretores" however much it is a number; any count states one)
            "states_value": float(says_value and unit_value not in (None, "count")),
            # … and says what it is of beside it ("mandato de oito anos")
            "beside": float(says_value and stated_beside(
                question, unit_value or unit_kind, unit.shown, own_terms, terms)),
            "list": float(asks_list and is_list),
            "defines": float(defines(law.lead, thing, source.hit.language, law.title)
                             if law is not None else defines(unit.text, thing,
                                                             source.hit.language)),
        }
        if norm and law is not None:  # (a list by its lead: not what its items may be)
            features["norm"] = float(states_norm(law.lead if law.is_list else unit.shown))
        if law is not None and not features["defines"]:
            features["defines"] = float(defines_in_list(law, thing))
        if law is not None:
            features["lead_precision"] = law.lead_precision(question_terms)
            features["heading_precision"] = law.heading_precision(question_terms)
            if asks_list and law.is_list:  # the lead says what the list is of
                features["lead_recall"] = law.lead_recall(own_terms)
            # (a list opened by an inciso reads on from its holder's lead: "São brasileiros:
            # I - natos:" has "brasileiros natos"; not its division's title: "A educação
            # superior tem por finalidade:" then "Da educação superior" has no "finalidade
            # da educação")
            reads = f"{law.context.rstrip().removesuffix(':')} {law.lead}"
            features["phrases"] = shared_phrases(question, f"{reads}\n{law.title}")
            features["narrows"] = float(narrows(question, law.topic))
            # (… or one of its lines: "V - disseminar o conhecimento…" under "Compete ao
            # Conselho:", asked who sits on it)
            features["tasks"] = float(members and (
                law.is_list and lists_tasks(law.lines) or law.holder is not None
                and not law.is_list and is_task(law.lead)))
            features["contrasts"] = float(contrasts(question, law.lead + "\n" + law.topic))
            features["opposes"] = float(law.is_list and opposes(question, law.lead))
            says = law.topic_terms
            features["echo"] = float(not law.is_list and bool(says) and says <= question_terms)
            place = (law.key[0], law.article)  # the first quote's article counts in full
            features["previous"] = (1.0 if place in first_articles else
                                    PREVIOUS_OTHER_SHARE * (place in previous_articles))
            if asked and own_terms:
                features["asked"] = len(own_terms & shared) / len(own_terms)
            # (… and a unit naming by number what its first quote showed: "e o que acontece
            # se esse prazo não for respeitado?" after art. 37, III, its § 2º: "A não
            # observância do disposto nos incisos II e III implicará a nulidade do ato")
            features["names_quoted"] = float(names_quoted(law))
        if previous_articles:
            features["previous_doc"] = float((source.hit.doc_id, "") in previous_articles)
        if asked and own_terms:  # the carried words find the passages, its own say what
            features["unasked"] = float(not (own_terms & shared) and not features["names"]
                                        and not features["states"])
        if not words_comparable(language, source.hit.language):
            for name in WORD_FEATURES:  # chance cognates of another language are noise:
                features.pop(name, None)  # the meaning ranks
        score = sum(WEIGHTS[name] * value for name, value in features.items())
        quotes.append(Quote(source.number, source.hit, unit, score, cosine, len(shared), law,
                            features))
    quotes.sort(key=lambda c: (-c.score, c.source, c.unit.position))
    return quotes, embedded


def _read_with_caput(pool: list[tuple[int, NumberedSource, Unit, frozenset[str]]],
                     structural: dict[int, StructuralUnit], kind: str,
                     question_terms: frozenset[str]) -> None:
    """A paragraph or item stating the kind of value asked says what it is of through its
    article's caput: "§ 1º … o valor orçado terá validade pelo prazo de dez dias" is the
    time limit of art. 40's "orçamento prévio", asked "Por quanto tempo vale o orçamento…?".
    Such a unit shares the question's words its caput (among the candidates) has."""
    articles = caputs(structural.values())
    for i, law in structural.items():
        caput = articles.get((law.key[0], law.article))
        if caput is None or caput is law or not states(kind, law.lead):
            continue
        rank, source, unit, shared = pool[i]
        pool[i] = (rank, source, unit, shared | question_terms & terms(caput.lead))


def _as_block(quote: Quote, documents: DocumentTexts | None = None) -> Quote:
    """A list's lead ("… seguintes hipóteses:", or a heading over numbered items) becomes
    the block with its items; a block its passage cut short is completed from the
    document, over chunks and pages (`segments.whole_block`)."""
    if quote.structural is not None or quote.unit.kind != "sentence":
        return quote
    block = next((u for u in segment(quote.hit.text)
                  if u.kind == "block" and u.start == quote.unit.start), None)
    if block is None:
        return quote
    quote = dataclasses.replace(quote, unit=block)
    # (a list that reaches its passage's end may go on past it, full stop or not)
    found = _in_document(quote, documents) if block.continues or not quote.hit.text[
        block.end:].strip() else None
    if found is None:
        return quote
    document, start = found
    whole = whole_block(document.text[start:start + WHOLE_BLOCK_CHARS + 1])
    if whole is None or whole.end <= block.end - block.start:
        return quote
    return _spanning(quote, document, start, dataclasses.replace(
        whole, start=0, position=block.position))


def _in_document(quote: Quote, documents: DocumentTexts | None) -> tuple[DocumentText, int] | None:
    """The quote's document and where the quote starts in the document's text (None when
    the document or the passage's place in it is not known)."""
    return _placed(quote.hit, quote.unit.start, documents)


def _placed(hit: Hit, start: int, documents: DocumentTexts | None
            ) -> tuple[DocumentText, int] | None:
    """The document of passage `hit` and where offset `start` of the passage lies in the
    document's text (None when either is not known)."""
    document = documents.get(hit.library, hit.doc_id) if documents is not None else None
    span = document.hit_span(hit) if document is not None else None
    return None if document is None or span is None else (document, span[0] + start)


def _spanning(quote: Quote, document: DocumentText, start: int, unit: Unit) -> Quote:
    """`quote` as `unit`, whose text lies at `start` in the document's text: its passage
    becomes that span (pages and offsets exact); unchanged when the document does not hold
    that text there."""
    hit = document.as_hit(quote.hit, start, start + len(unit.text))
    if hit.text != unit.text:  # (the passage is not where its document has it)
        return quote
    return dataclasses.replace(quote, hit=hit, unit=dataclasses.replace(
        unit, start=0, end=len(unit.text)))


_SENTENCE_END = re.compile(r"[.!?…:;][\"'”’)\]»]*$")
_FOOTNOTE = re.compile(r"\d{1,3}\s+\S")  # "3 BRASIL. Secretaria de …" at a page's foot
_PARAGRAPH_BREAK = re.compile(r"[ \t]*\n[ \t]*\n\s*")
MAX_SKIPPED = 6  # paragraphs between a sentence's two halves: notes, a running title, a number
MAX_SKIPPED_CHARS = 2000


def _whole_sentence(quote: Quote, documents: DocumentTexts | None) -> Quote:
    """A sentence cut by a page's or a chunk's end is completed from the
    document: "…para as três etapas da Educação Básica (Educação" goes on, after the page's
    footnotes and the next page's running title, with "Infantil, Ensino Fundamental e Ensino
    Médio), …". The quote spans the document from the sentence's start to its end; what it
    shows leaves out the paragraphs in between (at most `MAX_SKIPPED`, footnotes or
    heading-like lines). Left as it is when the rest is not found within reach."""
    unit = quote.unit
    if quote.structural is not None or documents is None or unit.kind != "sentence" \
            or _SENTENCE_END.search(unit.text.rstrip()) or is_row(unit.text):
        return quote
    words = re.findall(r"\w+", fold(unit.text))
    # the rest must go on in lower case, unless the cut left a bracket open or a word that
    # cannot end a sentence ("de", "the"): a line without a full stop may be whole
    open_end = (unit.text.count("(") > unit.text.count(")")
                or bool(words) and words[-1] in NOT_CONTENT)
    found = _in_document(quote, documents)
    if found is None:
        return quote
    document, start = found
    text = document.text[start:start + len(unit.text) + MAX_SKIPPED_CHARS + 2 * MAX_QUOTE_CHARS]
    if not text.startswith(unit.text):
        return quote
    at, skipped = len(unit.text), []
    for _ in range(MAX_SKIPPED + 1):
        gap = _PARAGRAPH_BREAK.match(text, at)
        begin = gap.end() if gap else len(text) - len(text[at:].lstrip())
        following = _PARAGRAPH_BREAK.search(text, begin)
        finish = following.start() if following else len(text)
        paragraph = text[begin:finish]
        if not paragraph or begin - len(unit.text) > MAX_SKIPPED_CHARS:
            return quote
        if _FOOTNOTE.match(paragraph) or (is_heading(" ".join(paragraph.split()))
                                          and not paragraph[0].islower()):
            skipped.append((at, finish))
            at = finish
            continue
        if not (paragraph[0].islower() or open_end):
            return quote
        rest = next(iter(sentence_spans(text, begin, finish)), None)
        if rest is None:
            return quote
        if not _SENTENCE_END.search(text[:rest[1]].rstrip()):
            if text[rest[1]:finish].strip():
                return quote  # (its end is not in reach either)
            # a quotation printed a line a paragraph ("definem a criança como" / "“sujeito
            # histórico e de direitos, que, …" / "sua identidade …"): it goes on, in lower case
            at, open_end = finish, False
            continue
        end = rest[1]
        break
    else:
        return quote
    shown = " ".join(without_spans(text, 0, end, skipped).split()) if skipped else ""
    return _spanning(quote, document, start, dataclasses.replace(
        unit, text=text[:end], display=shown))


def _in_context(quote: Quote) -> Quote:
    """A sentence that points back is quoted with the sentence before it; one followed by
    a sentence that points back, with that sentence (neither stands alone)."""
    if quote.unit.kind != "sentence":
        return quote
    units = [u for u in segment(quote.hit.text) if u.kind != "block"]
    at = next((i for i, u in enumerate(units) if u.start == quote.unit.start), None)
    if at is None:
        return quote
    start, end = quote.unit.start, quote.unit.end
    if at > 0 and units[at - 1].kind == "sentence" and points_back(quote.unit.text) \
            and units[at - 1].quotable:
        start = units[at - 1].start
    elif at + 1 < len(units) and units[at + 1].kind == "sentence" \
            and points_back(units[at + 1].text) and units[at + 1].quotable:
        end = units[at + 1].end
    if (start, end) == (quote.unit.start, quote.unit.end):
        return quote
    text = quote.hit.text[start:end]
    return dataclasses.replace(quote, unit=dataclasses.replace(quote.unit, start=start, end=end,
                                                               text=text))


def _second_opinion(candidate: Quote, chosen: list[Quote],
                    sources: Sequence[NumberedSource]) -> bool:
    """Whether `candidate`, from another document than the first quote, is quoted too: it is
    the best sentence of the top-ranked passage's document (search and sentence ranking
    disagree), it scores close to the first quote, and no other document is quoted yet."""
    return (bool(sources) and candidate.hit.doc_id == sources[0].hit.doc_id
            and all(q.hit.doc_id == chosen[0].hit.doc_id for q in chosen)
            and candidate.score >= chosen[0].score - SECOND_OPINION_MARGIN)


def extract_answer(question: str, sources: Sequence[NumberedSource],
                   vectors: SentenceVectors | None = None, *,
                   max_quotes: int = MAX_QUOTES,
                   documents: DocumentTexts | None = None,
                   previous_articles: frozenset[tuple[str, str]] = frozenset(),
                   first_articles: frozenset[tuple[str, str]] = frozenset(),
                   quoted_units: frozenset[tuple[str, int]] = frozenset(),
                   asked: str = "") -> ExtractiveAnswer:
    """The best quotes for `question` from `sources` (see the module docstring)."""
    ranked, embedded = rank_candidates(question, sources, vectors, documents=documents,
                                       previous_articles=previous_articles,
                                       first_articles=first_articles,
                                       quoted_units=quoted_units, asked=asked)
    matched = any(q.shared_terms for q in ranked)
    many = wants_many(question) and not defined_thing(question)
    value = asked_value(question)
    ordered = ranked
    if vectors is None and not matched:
        # no evidence at all: the openings of the top two passages (the caller flags it)
        firsts: dict[int, Quote] = {}
        for quote in sorted(ranked, key=lambda q: (q.source, q.unit.position)):
            firsts.setdefault(quote.source, quote)
        ordered = list(firsts.values())[:2]
    ranking = ordered is ranked  # (not the openings of passages without evidence)
    if ranking and value is None and not previous_articles:
        # (in a follow-up the lines of the article just quoted crowd by being carried)
        ordered = _crowding_list(ranked)
    if ranking and not many and value is None:
        # (a value asked of a long list is stated in its lead or a line on the subject:
        # kinds.stated_where_asked reads the whole list)
        ordered = _line_of_long_list(ordered)
    chosen: list[Quote] = []
    seen: list[str] = []
    for candidate in ordered:
        if len(chosen) >= max_quotes:
            break
        candidate = _whole_list(candidate, ordered, many, value, documents)
        if chosen and ranking and candidate.hit.doc_id != chosen[0].hit.doc_id \
                and not _second_opinion(candidate, chosen, sources):
            continue  # the answer quotes the document that holds it
        if chosen and ranking and candidate.semantic is None \
                and not candidate.shared_terms:
            continue  # keywords alone rank: a sentence without any is no evidence
        if chosen and ranking and _unrelated_list(candidate, chosen[0]):
            continue  # another article's whole list, well behind: noise, not context
        if _holds_quoted_item(candidate, chosen):
            continue  # the list around a line already quoted (with its lead) adds nothing
        quote = _as_block(candidate, documents)
        quote = _under_header(_whole_sentence(_in_context(quote), documents), documents)
        words = _folded_words(quote.unit.text)
        if any(_near_duplicate(words, other) for other in seen):
            continue  # overlapping chunks repeat sentences; a block already holds its items
        quote = _lead_once(_header_once(quote, chosen), chosen)
        chosen.append(_under_section(quote, documents, candidate.hit))
        seen.append(words)
    return ExtractiveAnswer(tuple(chosen), tuple(ranked), matched, terms(question), embedded)


def _crowding_list(ranked: list[Quote]) -> list[Quote]:
    """`ranked`, with a list's best line first when the first is a lone provision, half or
    more of the best candidates (`CROWD_SHARE` of `LIST_NEIGHBOURS`) are that list's lines and its
    best scores within `CROWD_MARGIN` of the first: "O que a autoridade leva em conta para
    dosar a sanção aplicada ao infrator?" is art. 52 § 1º, whose criteria fill the best
    candidates, not art. 54's one paragraph naming "sanção" and "aplicada" a little more
    (`_whole_list` then quotes the list). A list or a list's line first stands."""
    best = ranked[:LIST_NEIGHBOURS]
    top = best[0].structural if best else None
    if top is None or top.holder is not None or top.is_list:
        return ranked  # the first is a list or one of its lines: it stands
    lines: dict[tuple[str, int], list[Quote]] = {}
    for quote in best:
        law = quote.structural
        if law is None:
            continue
        holder = law.holder if law.holder is not None else (
            law.key[1] if law.kind == "list" else None)
        if holder is not None:
            lines.setdefault((law.key[0], holder), []).append(quote)
    crowd = max(lines.values(), key=len, default=[])
    if len(crowd) < CROWD_SHARE * LIST_NEIGHBOURS \
            or crowd[0].score < best[0].score - CROWD_MARGIN:
        return ranked
    return [crowd[0], *(q for q in ranked if q is not crowd[0])]


def _line_of_long_list(ranked: list[Quote]) -> list[Quote]:
    """`ranked`, with the best line of a long list (more than `LONG_LIST` items) first when
    the whole list is first and one thing is asked: "Quanto a mais deve ser pago pela hora
    extra?" is art. 7º, XVI's "serviço extraordinário … cinquenta por cento", not the 34
    rights whose words, all together, share the most with any question on work (as
    `_whole_list` keeps such a line from giving way to its list). A line among the best
    `LIST_NEIGHBOURS` candidates only."""
    top = ranked[0].structural if ranked else None
    if top is None or not top.is_list or top.items <= LONG_LIST:
        return ranked
    line = next((q for q in ranked[1:LIST_NEIGHBOURS] if _line_of(q, top)), None)
    return ranked if line is None else [line, *(q for q in ranked if q is not line)]


def _unrelated_list(candidate: Quote, first: Quote) -> bool:
    """Whether `candidate` is the whole list of an article in another division (chapter,
    section) than the first quote's, scoring more than `LATER_UNIT_MARGIN` behind it. The
    next article of the same chapter is context (art. 19's deadlines after art. 18's
    rights, which a follow-up reads); another chapter's list is not."""
    law, top = candidate.structural, first.structural
    return (law is not None and top is not None and law.is_list
            and (law.key[0], law.headings) != (top.key[0], top.headings)
            and candidate.score < first.score - LATER_UNIT_MARGIN)


def _holds_quoted_item(candidate: Quote, chosen: Sequence[Quote]) -> bool:
    """Whether `candidate` is the whole list of an item a chosen quote already shows."""
    law = candidate.structural
    return law is not None and law.kind == "list" and any(_line_of(q, law) for q in chosen)


def _line_of(quote: Quote, law: StructuralUnit) -> bool:
    """Whether `quote` is an item of the list `law` (its holder is the list's unit)."""
    line = quote.structural
    return line is not None and line.holder == law.key[1] and line.key[0] == law.key[0]


def _same_list(quote: Quote, line: StructuralUnit) -> bool:
    """Whether `quote` is a line of the same list as the item `line` (one holder)."""
    other = quote.structural
    return other is not None and other.holder == line.holder and other.key[0] == line.key[0]


def _unit_of(found: StructuralUnit) -> Unit:
    """A unit of a law as a candidate's unit: its passage, shown with its path."""
    return Unit(0, len(found.hit.text), found.hit.text, found.kind, found.key[1],
                items=found.items, display=show(found))


def _quote_of(found: StructuralUnit, like: Quote) -> Quote:
    """A unit of a law as a quote that takes the place (source, score) of `like`."""
    return dataclasses.replace(like, hit=found.hit, unit=_unit_of(found), structural=found)


def _whole_list(candidate: Quote, ranked: Sequence[Quote], many: bool = False,
                value: str | None = None, documents: DocumentTexts | None = None) -> Quote:
    """An item of a law's list gives way to the whole list when the question asks for
    several things ("Which courses does higher education comprise?": the list, not its
    line III) or another item of the same list is also among the best candidates (the
    answer is the list, not two of its lines) — unless only a value answers the question
    (`value`, kinds.asked_value) and the item states it: "Qual a duração da licença à
    gestante?" is art. 7º, XVIII's "cento e vinte dias", not the 34 rights around it. When
    the list's lead states the value, the list is the answer ("Quantos membros…?": "será
    composto de 23 representantes …: I - 5 do Poder Executivo …"). A long list (more than
    `LONG_LIST` items: a constitution's art. 5º) asked for one thing stays its line."""
    law = candidate.structural
    if law is None or law.holder is None or candidate.features.get("defines"):
        return candidate  # (a glossary item defining the asked thing is the answer)
    whole = next((q for q in ranked if q.structural is not None
                  and q.structural.key == (law.key[0], law.holder, "list")), None)
    if whole is None and many and documents is not None:  # the passages held the item alone
        document = documents.get(candidate.hit.library, candidate.hit.doc_id)
        found = holding_list(document, law) if document is not None else None
        whole = _quote_of(found, candidate) if found is not None else None
    if whole is None:
        return candidate
    if whole.structural is not None and value is not None and states(value,
                                                                      whole.structural.lead):
        return whole  # the lead states it: "composto de 23 representantes …: I - 5 …"
    if value is not None and not many and states(value, candidate.unit.text):
        return candidate
    if not many and whole.structural is not None and whole.structural.items > LONG_LIST:
        return candidate  # (asked one thing: its line, not the 79 incisos of art. 5º)
    near = [q for q in ranked[:LIST_NEIGHBOURS] if q is not candidate]
    if not many and not any(_same_list(q, law) for q in near):
        return candidate
    return whole


def _under_header(quote: Quote, documents: DocumentTexts | None) -> Quote:
    """A table row whose passage opens inside its table, shown under the table's header
    row from the document ("State | Permit | …" above "Totals | 804,006 | …") — or, for
    rows with no header, under the title on the lines above them ("STATE MEASURE 1" over
    "NO | 214")."""
    header, caption = _row_context(quote.unit, quote.hit, documents)
    unit = _shown_under(quote.unit, header or caption)
    return quote if unit is quote.unit else dataclasses.replace(quote, unit=unit)


def _row_context(unit: Unit, hit: Hit, documents: DocumentTexts | None
                 ) -> tuple[str | None, str | None]:
    """(header, title) of `unit` of passage `hit` when it is a table row shown without its
    header, from the document (`segments.table_context`); else (None, None)."""
    if unit.display or not is_row(unit.text):
        return None, None
    found = _placed(hit, unit.start, documents)
    return table_context(found[0].text, found[1]) if found is not None else (None, None)


def _shown_under(unit: Unit, above: str | None) -> Unit:
    """`unit` shown under the line `above` it (a row's header or title), if any."""
    return unit if above is None else dataclasses.replace(unit, display=f"{above}\n{unit.shown}")


def _header_once(quote: Quote, chosen: Sequence[Quote]) -> Quote:
    """A row quoted right after other rows of the same table is shown without the header
    the first of them shows above it: the answer reads as one table ("State | Permit | …"
    over "Wyoming | …", "West Virginia | …"), not as the header three times."""
    if not is_row(quote.unit.text) or "\n" not in quote.unit.display:
        return quote
    header = quote.unit.display.split("\n", 1)[0]
    for before in reversed(chosen):
        if not is_row(before.unit.text) or not before.unit.display:
            return quote  # prose, or a row with no header, between them
        if "\n" in before.unit.display:
            if before.unit.display.split("\n", 1)[0] != header:
                return quote
            return dataclasses.replace(quote, unit=dataclasses.replace(
                quote.unit, display=" ".join(quote.unit.text.split())))
    return quote


def _lead_once(quote: Quote, chosen: Sequence[Quote]) -> Quote:
    """A line of a law's list quoted after another line of the same list is shown by its
    path ("Art. 7º › XVI - …"), not under the list's lead again: three incisos of art. 7º
    read as the lead once over its lines, not the lead three times. The path keeps its
    article in sight."""
    law = quote.structural
    if law is None or not _under_lead(quote) or not any(_same_list(q, law) for q in chosen):
        return quote
    return dataclasses.replace(quote, unit=dataclasses.replace(quote.unit, display=law.alone))


def _under_lead(quote: Quote) -> bool:
    """Whether `quote` is a line of a law's list shown under the list's lead (its lines:
    the lead, "…", the line)."""
    law = quote.structural
    return law is not None and bool(law.alone) and quote.unit.display == show(law)


def _under_section(quote: Quote, documents: DocumentTexts | None, found_in: Hit) -> Quote:
    """A sentence of a report or contract shown under its numbered section or clause
    ("Cláusula SEGUNDA, 2.1 › O prazo é de 12 meses."); a law's units carry their path.
    `found_in`: the passage the quote was found in (a sentence completed across a page is
    a passage of its own, without the section lines its passage had)."""
    if quote.structural is not None or documents is None \
            or not (may_have_sections(found_in) or may_have_sections(quote.hit)):
        return quote
    document = documents.get(quote.hit.library, quote.hit.doc_id)
    label = section_label(document, quote.hit, quote.start) if document is not None else ""
    if not label:
        return quote
    return dataclasses.replace(quote, unit=dataclasses.replace(
        quote.unit, display=f"{label} › {quote.unit.shown}"))


def shown_text(quote: Quote, max_chars: int = MAX_QUOTE_CHARS) -> str:
    """The quote as displayed (long sentences cut at a word with " …")."""
    lines = quote.unit.shown.split("\n")
    out = []
    for line in lines:
        if len(line) > max_chars:
            line = line[:max_chars].rsplit(" ", 1)[0] + " …"
        out.append(line)
    if quote.unit.continues:
        out.append("…")
    return "\n".join(out)


def badge_on_last_line(quote: Quote) -> bool:
    """Whether the quote's badge goes on its last line: a table row under its header, or a
    line of a law's list under the list's lead ("Art. 5º …: / … / XLIX - …"), whose
    cited span, highlighted in the viewer, is that line and not the lead above it."""
    return is_row(quote.unit.text) or _under_lead(quote)


def with_badge(text: str, number: int, *, last_line: bool = False) -> str:
    """The badge goes on the first line (a block's lead), before its final punctuation;
    `last_line`: on the last one (`badge_on_last_line`: the row or the line is the quote)."""
    if last_line and "\n" in text:
        above, _, row = text.rpartition("\n")
        return f"{above}\n{with_badge(row, number)}"
    first, _, rest = text.partition("\n")
    # (an abbreviation keeps its full stop: "at 1:01 p.m. [1]", not "p.m [1].")
    if first and first[-1] in ".!?;:" and not first.endswith("…") \
            and not ends_with_abbreviation(first):
        first = f"{first[:-1].rstrip()} [{number}]{first[-1]}"
    else:
        first = f"{first} [{number}]"
    return first + ("\n" + rest if rest else "")
