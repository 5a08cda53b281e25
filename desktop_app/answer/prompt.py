"""Prompt assembly: instruction, user memories, fenced numbered sources, question.

The text itself lives in `resources/prompts/answer.<lang>.toml` (pt, en, es); this
module only picks the language, fences and numbers the sources best first, and
keeps everything inside the model's context budget, counted with the model's own
tokenizer. Retrieved text is untrusted: it is fenced, labelled, and cannot close
its own fence. The literal text of the templates (fences, labels) is also what a
model must never write back: `prompt_markers` lists it as stop strings for the
stream guard, and `scrub_prompt_markers` removes any that got through.
"""

from __future__ import annotations

import locale
import re
import tomllib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from desktop_app.config.paths import resource
from desktop_app.errors import AppError
from desktop_app.retrieval.types import Hit

LANGUAGES = ("pt", "en", "es")
CHAT_TEMPLATE_OVERHEAD = 48  # role markers and special tokens the chat template adds
_FENCE_RUN = re.compile(r"<{3,}|>{3,}")
_ANY_FENCE_RUN = re.compile(r"[<‹]{3,}|[>›]{3,}")
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
# templates whose literal text only the prompt has (never a legitimate answer)
MARKER_TEMPLATES = ("source", "sources_intro", "memories", "standalone", "recall", "recall_chat")
MIN_MARKER_CHARS = 3

@dataclass(frozen=True)
class PromptTexts:
    """One language's templates (a parsed `answer.<lang>.toml`)."""

    language: str
    fields: dict[str, Any]

    def __getitem__(self, key: str) -> str:
        value = self.fields[key]
        if not isinstance(value, str):
            raise KeyError(key)
        return value

    @property
    def not_found(self) -> str:
        return self["not_found"]

    @property
    def not_found_phrases(self) -> tuple[str, ...]:
        return (self.not_found, *self.fields.get("not_found_variants", ()))


REQUIRED_KEYS = ("not_found", "system", "user", "sources_intro", "source", "page_single",
                 "page_range", "memories", "memory_item", "standalone", "rewrite_system",
                 "rewrite_user", "history_user", "history_assistant", "recall", "recall_chat",
                 "recall_user", "recall_assistant")


def load_prompts(language: str, prompts_dir: Path | None = None) -> PromptTexts:
    """Templates for `language` (falls back to English for languages without a file)."""
    return _load_cached(language if language in LANGUAGES else "en",
                        str(prompts_dir or resource("prompts")))


@lru_cache(maxsize=16)
def _load_cached(language: str, prompts_dir: str) -> PromptTexts:
    path = Path(prompts_dir) / f"answer.{language}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise AppError(f"The prompt templates are missing or damaged ({path}). Reinstall Acervo.",
                       detail=str(exc)) from exc
    missing = [k for k in REQUIRED_KEYS if not isinstance(data.get(k), str)]
    if missing:
        raise AppError(f"The prompt template {path.name} lacks {', '.join(missing)}. Reinstall Acervo.")
    return PromptTexts(language, data)


def all_not_found_phrases(prompts_dir: Path | None = None) -> tuple[str, ...]:
    """Every language's "not found" wordings: a model may answer in another language."""
    return tuple(p for lang in LANGUAGES for p in load_prompts(lang, prompts_dir).not_found_phrases)


def prompt_markers(texts: PromptTexts) -> tuple[str, ...]:
    """Literal pieces of the prompt's fences and labels ("<<<FONTE", "FIM DA FONTE",
    ">>>", "Fontes (material de referência…"): stop strings for the model's output."""
    markers: list[str] = ["<<<", ">>>", "‹‹‹", "›››"]  # raw fences and their neutralized form
    for key in MARKER_TEMPLATES:
        for line in texts[key].replace("{{", "{").replace("}}", "}").splitlines():
            for segment in _PLACEHOLDER.split(line):
                segment = segment.strip(" []()")
                if len(segment) >= MIN_MARKER_CHARS and (any(c.isalpha() for c in segment)
                                                          or _ANY_FENCE_RUN.fullmatch(segment)):
                    markers.append(segment)
    return tuple(dict.fromkeys(markers))


def all_prompt_markers(prompts_dir: Path | None = None) -> tuple[str, ...]:
    """Every language's markers: a model may switch language mid-answer."""
    return tuple(dict.fromkeys(m for lang in LANGUAGES
                               for m in prompt_markers(load_prompts(lang, prompts_dir))))


def scrub_prompt_markers(text: str, markers: Sequence[str]) -> str:
    """Remove prompt markers from a finished answer (the last line of defence after the
    stream guard's stop strings): an opening fence with its label line, a closing
    fence with its `[n]`, and stray `<<<`/`>>>` runs."""
    for marker in sorted(markers, key=len, reverse=True):
        if _ANY_FENCE_RUN.fullmatch(marker):
            continue
        tail = r"[^\n]*" if _ANY_FENCE_RUN.match(marker) else r"(?:\s*\[\s*\d+\s*\])?\s*(?:[>›]{3,})?"
        text = re.sub(re.escape(marker) + tail, " ", text, flags=re.IGNORECASE)
    text = _ANY_FENCE_RUN.sub(" ", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return "\n".join(line.strip() for line in text.splitlines()).strip()


def fallback_language(setting: str = "auto") -> str:
    """The UI language when a question gives no clue: the setting, else the OS locale."""
    if setting and setting != "auto":
        return setting[:2].lower() if setting[:2].lower() in LANGUAGES else "en"
    code = (locale.getlocale()[0] or "").lower()
    return code[:2] if code[:2] in LANGUAGES else "en"


@dataclass(frozen=True)
class NumberedSource:
    number: int  # the [n] the model sees and cites
    hit: Hit


@dataclass(frozen=True)
class MemoryItem:
    id: str
    text: str


@dataclass(frozen=True)
class AssembledPrompt:
    messages: list[dict[str, str]]
    sources: tuple[NumberedSource, ...]
    dropped: tuple[Hit, ...]  # retrieved but left out by the token budget
    memories: tuple[MemoryItem, ...]
    language: str
    prompt_tokens: int

    def by_number(self) -> dict[int, Hit]:
        return {s.number: s.hit for s in self.sources}


def source_label(hit: Hit, texts: PromptTexts) -> str:
    """`title › section (p. 12)`: the heading path when known, pages when the format has them."""
    label = " › ".join([hit.title, *hit.heading_path]) if hit.heading_path else (hit.prefix or hit.title)
    if hit.page_start > 0:
        pages = (texts["page_single"].format(page=hit.page_start) if hit.page_end <= hit.page_start
                 else texts["page_range"].format(start=hit.page_start, end=hit.page_end))
        label = f"{label} ({pages})"
    return label


def neutralize(text: str) -> str:
    """Make document text unable to open or close a source fence (no `<<<` / `>>>` runs)."""
    text = unicodedata.normalize("NFC", text)
    return _FENCE_RUN.sub(lambda m: ("‹" if m.group(0)[0] == "<" else "›") * len(m.group(0)), text)


def render_source(number: int, hit: Hit, texts: PromptTexts, text: str | None = None) -> str:
    """One fenced source. Documents are data: whatever a document says, instructions to an
    assistant included, stays inside its fence (it cannot close it: `neutralize`); a
    written answer that repeats such a sentence gets no badge for it (`injection`, the
    check a sources-only answer uses)."""
    return texts["source"].format(number=number, label=neutralize(source_label(hit, texts)),
                                  text=neutralize(hit.text if text is None else text).strip())


def build_answer_prompt(question: str, hits: Sequence[Hit], texts: PromptTexts, *,
                        count_tokens: Callable[[str], int], n_ctx: int, max_answer_tokens: int,
                        memories: Sequence[MemoryItem] = (), standalone_query: str | None = None,
                        context: str = "") -> AssembledPrompt:
    """Fit as many sources as the budget allows, best first; numbers follow that order.

    `context`: the rendered memories + earlier-conversations block (answer/context.py);
    without it, `memories` are rendered here."""
    system = texts["system"].format(not_found=texts.not_found)
    memory_block = context
    if memories and not context:
        items = "\n".join(texts["memory_item"].format(text=neutralize(m.text)) for m in memories)
        memory_block = texts["memories"].format(items=items)
    standalone = ""
    if standalone_query and standalone_query.strip().casefold() != question.strip().casefold():
        standalone = texts["standalone"].format(query=standalone_query.strip())

    def user_turn(blocks: list[str]) -> str:
        sources = "\n\n".join([texts["sources_intro"], *blocks]) if blocks else ""
        return texts["user"].format(memories=memory_block, sources=sources, question=question.strip(),
                                    standalone=standalone)

    fixed = count_tokens(system) + count_tokens(user_turn([])) + CHAT_TEMPLATE_OVERHEAD
    budget = n_ctx - max_answer_tokens - fixed
    if budget <= 0:
        raise AppError(
            f"The model's context ({n_ctx} tokens) is too small for the question and a "
            f"{max_answer_tokens}-token answer. Raise n_ctx or lower max_answer_tokens in settings.")
    blocks: list[str] = []
    sources: list[NumberedSource] = []
    dropped: list[Hit] = []
    used = count_tokens(texts["sources_intro"]) + 2
    for hit in hits:
        number = len(sources) + 1
        block = render_source(number, hit, texts)
        cost = count_tokens(block) + 2  # the blank line between blocks
        if used + cost > budget and not sources:
            # not even the best source fits whole: keep its beginning rather than nothing
            block = _truncate_to_fit(number, hit, texts, count_tokens, budget - used)
            cost = count_tokens(block) + 2 if block else cost
        if block and used + cost <= budget:
            blocks.append(block)
            sources.append(NumberedSource(number, hit))
            used += cost
        else:
            dropped.append(hit)
    user = user_turn(blocks)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return AssembledPrompt(messages, tuple(sources), tuple(dropped), tuple(memories), texts.language,
                           count_tokens(system) + count_tokens(user) + CHAT_TEMPLATE_OVERHEAD)


def _truncate_to_fit(number: int, hit: Hit, texts: PromptTexts, count_tokens: Callable[[str], int],
                     room: int) -> str:
    lo, hi, best = 0, len(hit.text), ""
    while lo < hi:  # longest prefix of the text whose block fits (binary search on characters)
        mid = (lo + hi + 1) // 2
        block = render_source(number, hit, texts, text=hit.text[:mid] + " …")
        if count_tokens(block) + 2 <= room:
            lo, best = mid, block
        else:
            hi = mid - 1
    return best
