"""Implicit extraction with the local LLM: constrained JSON, then a grounding check.

Runs after a turn, in the background (the GUI runs `ExtractionJob.run` on a worker; the
CLI runs it inline), and only when the `implicit_extraction` setting is on. The model
sees the user's message and, as context only, the assistant turn it answered; every
fact it proposes must be grounded in the user's own words — numbers, codes, e-mails and
names in the fact must occur in the user's message, and it must share content words
with it — or it is dropped. So the model can rephrase what the user said, never import
text from the assistant turn, a document or its own imagination.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from typing import Any, Protocol

from desktop_app.memory.categories import classify
from desktop_app.memory.patterns import candidate_for, parse_command, statements, tidy_sentence
from desktop_app.memory.types import CATEGORIES, USER_SUBJECT, Candidate, UserMessage
from desktop_app.text.analyze import content_terms
from desktop_app.text.fold import fold
from desktop_app.text.sentences import chat_sentences

log = logging.getLogger(__name__)

MAX_FACTS = 3
FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "maxItems": MAX_FACTS,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "maxLength": 200},
                    "category": {"type": "string", "enum": list(CATEGORIES)},
                    "subject": {"type": "string", "maxLength": 60},
                    "attribute": {"type": "string", "maxLength": 40},
                    "value": {"type": "string", "maxLength": 120},
                },
                "required": ["text", "category", "subject", "attribute", "value"],
            },
        },
    },
    "required": ["facts"],
}
SYSTEM_PROMPT = (
    "You extract durable facts that the USER states about themselves, their work, their "
    "preferences, or people and things in their life (names, numbers, dates, codes, "
    "places). Use ONLY the user's message. The assistant's previous message is given only "
    "to understand short answers; never take a fact from it. Write each fact as one short "
    "sentence about the user (e.g. \"The user's phone number is 555-0101.\"), with "
    "subject = \"user\" or the other person's name or relation, attribute = what the value "
    "is (e.g. \"phone\", \"employer\"), value = the exact value. Skip greetings, "
    "questions and small talk: return {\"facts\": []} when there is nothing to remember."
)


class JsonLLM(Protocol):
    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]: ...


_DISTINCT = re.compile(r"[\w.+-]+@[\w.-]+|\w*\d[\w.-]*|\b[A-ZÀ-Ý][\w-]+")
_SMALL_TALK = re.compile(r"^\s*(?:ok(?:ay)?|yes|no|sure|thanks?(?: you)?|thank you|great|"
                         r"perfect|sim|não|obrigad[oa]|valeu|claro|certo|gracias|vale|"
                         r"bueno|s[ií])[\s.!,]*$", re.IGNORECASE)
_FILLER_CAPS = {"the", "user", "user's", "o", "a", "el", "la", "i", "my", "usuario", "usuário"}


def worth_asking(message: UserMessage) -> bool:
    """Skip the model for small talk and bare questions (saves a few seconds per turn)."""
    text = message.text.strip()
    if _SMALL_TALK.match(text) or len(text.split()) < 2:
        return False
    if text.endswith("?") and not _DISTINCT.search(text[1:]):
        return False
    return parse_command(text) is None


def is_grounded(fact: str, value: str, user_text: str) -> bool:
    """Every distinctive token of the fact (digits, e-mails, capitalized names) and its
    value occur in the user's message; and at least one content word is shared."""
    user_folded = fold(user_text)
    user_compact = re.sub(r"[\s.,-]", "", user_folded)
    for match in _DISTINCT.finditer(fact + " " + value):
        token = match.group(0).strip(".,-")
        folded = fold(token)
        if not folded or folded in _FILLER_CAPS or len(folded) < 2:
            continue
        if folded not in user_folded and re.sub(r"[\s.,-]", "", folded) not in user_compact:
            return False
    if value and fold(value).strip() not in user_folded:
        compact_value = re.sub(r"[\s.,-]", "", fold(value))
        if compact_value not in user_compact:
            return False
    shared = content_terms(fact) & content_terms(user_text)
    return bool(shared)


def llm_for_extraction(llm: Any, too_small: Collection[str] = ()) -> Any:
    """The model implicit extraction should use: none when it is one of `too_small`.

    Measured on the user-memory evaluation, the 135M bundled model adds ~0 recall over the
    rules while costing seconds of CPU per turn; a model the user brings (a 3–4B GGUF or
    Ollama) is used. Rules run either way. The composition root names the models that are
    too small (memory does not import the answer package).
    """
    if llm is None or getattr(llm, "name", "") in too_small:
        return None
    return llm


class ImplicitExtractor:
    """Asks the LLM for facts in one user message; returns grounded candidates only."""

    def __init__(self, llm: JsonLLM, *, max_tokens: int = 256) -> None:
        self.llm = llm
        self.max_tokens = max_tokens

    def messages_for(self, message: UserMessage) -> list[dict[str, str]]:
        context = (message.replying_to or "").strip()
        if len(context) > 400:
            context = "…" + context[-400:]
        user = (f"Assistant's previous message (context only): {context}\n\n" if context
                else "") + f"User's message: {message.text.strip()}"
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]

    def extract(self, message: UserMessage) -> list[Candidate]:
        if not isinstance(message, UserMessage):
            raise TypeError("memory is written only from the user's own messages (UserMessage)")
        if not worth_asking(message):
            return []
        try:
            result = self.llm.complete_json(self.messages_for(message), FACT_SCHEMA,
                                            max_tokens=self.max_tokens)
        except Exception as exc:  # a model hiccup must never break the chat turn
            log.warning("implicit extraction failed for message %s: %s", message.message_id,
                        type(exc).__name__)
            return []
        facts = result.get("facts") if isinstance(result, dict) else None
        candidates: list[Candidate] = []
        for fact in (facts or [])[:MAX_FACTS]:
            candidate = self._candidate(fact, message)
            if candidate is not None:
                candidates.append(candidate)
        log.info("implicit extraction for message %s: %d proposed, %d grounded",
                 message.message_id, len(facts or []), len(candidates))
        return candidates

    @staticmethod
    def _candidate(fact: Any, message: UserMessage) -> Candidate | None:
        if not isinstance(fact, dict):
            return None
        text = tidy_sentence(str(fact.get("text", "")))
        value = str(fact.get("value", "")).strip()
        # grounded in what the user stated: a value only asked about, or offered with a
        # question as a half-remembered guess, is not a fact (questions are not memories)
        stated = " ".join(statements(chat_sentences(message.text)))
        if len(text) < 8 or text.endswith("?") or not is_grounded(text, value, stated):
            return None
        hinted = str(fact.get("category", "other"))
        category, sensitive = classify(text + " " + message.text, hinted)
        subject = str(fact.get("subject", "")).strip() or USER_SUBJECT
        if fold(subject) in ("user", "the user", "me", "i", "eu", "yo", "usuario"):
            subject = USER_SUBJECT
        attribute = fold(str(fact.get("attribute", "")).strip())[:40]
        base = candidate_for(text, message, "llm")
        return Candidate(text, category, subject, attribute or base.attribute, value,
                         sensitive, "llm", message)
