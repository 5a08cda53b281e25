"""Sources-only lines the documents could not give: memories and earlier chats, quoted.

An answer without a model whose documents do not answer quotes what the context block
holds that speaks to the question, as it was said (answer/service.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.answer.citations import MARKER, contains_not_found
from desktop_app.answer.prompt import MemoryItem, all_not_found_phrases
from desktop_app.answer.question_fit import terms
from desktop_app.memory.types import EarlierExchange
from desktop_app.text.language import question_language
from desktop_app.text.when import resolve


@dataclass(frozen=True)
class PersonalQuote:
    """A line of a sources-only answer that the documents could not give: a memory, or a
    turn of an earlier chat (`date_label` set), quoted as it was said."""

    text: str
    date_label: str = ""  # of its chat, in the answer's language
    conversation_id: str = ""
    started_at: str = ""  # of its chat (ISO 8601): the window dates it in the UI's language


def personal_quotes(question: str, memories: Sequence[MemoryItem],
                    exchanges: Sequence[EarlierExchange]) -> list[PersonalQuote]:
    """What the context block holds that speaks to the question, for an answer without a
    model when the documents do not answer: the memories and the turns of earlier chats
    that share a content term with the question, each question with the reply it got
    ("What is your date of birth?" → "March 15th, 1985."; a question without one says
    nothing). Empty when nothing does: the block always has its best matches, relevant or
    not.

    Acervo's own answers from the documents are not quoted (`from_documents`): what a
    cited answer said, the documents say, and they were just searched again and found not
    to answer; re-asking a question must not bring back an answer the gate now turns
    down, under "from your chat of …". Nor is an earlier "not found"."""
    wanted = terms(question)
    if not wanted:
        return []
    language = question_language(question)
    quotes = [PersonalQuote(m.text) for m in memories if terms(m.text) & wanted]
    said: list[tuple[tuple[str, str, int], PersonalQuote]] = []  # in the order said
    for exchange in exchanges:
        turns = exchange.turns
        shown: set[int] = set()
        for i, (_, role, text) in enumerate(turns):
            if not terms(text) & wanted or from_documents(role, text):
                continue
            if not text.rstrip().endswith("?"):
                shown.add(i)
            elif (i + 1 < len(turns) and role != turns[i + 1][1]
                  and not from_documents(*turns[i + 1][1:])):
                shown.update((i, i + 1))  # a matching question with the reply it got
        # "yesterday" in a chat of 8 May is quoted as "yesterday [7 May 2023]"
        said += [((exchange.started_at, exchange.conversation_id, exchange.position + i),
                  PersonalQuote(resolve(" ".join(turns[i][2].split()), exchange.started_at,
                                        language, brackets="[]"),
                                exchange.date_label, exchange.conversation_id,
                                exchange.started_at))
                 for i in shown]
    quotes += [q for _, q in sorted(said, key=lambda pair: pair[0])]
    return list({q.text: q for q in quotes}.values())


def from_documents(role: str, text: str) -> bool:
    """An answer of Acervo's that quoted the documents (its badges, "[1]") or said they do
    not answer: never quoted again, nor shown in an earlier chat's excerpt (what the
    documents say, they say under the new answer's own badges)."""
    return role == "assistant" and (MARKER.search(text) is not None
                                    or contains_not_found(text, all_not_found_phrases()))
