"""The small LLM protocol the answer service talks to, plus the backend factory.

Backends (llama.cpp in-process, Ollama over loopback HTTP) implement four things:
stream a chat, produce JSON constrained by a schema, count tokens, and say their
context size. Everything else (prompting, citations, fallbacks) lives above them.
Backends may also say how big they are (`capability()`), which the answer-mode
policy (`answer/mode.py`) uses to decide whether the model writes answers.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from desktop_app.errors import AppError

if TYPE_CHECKING:
    from desktop_app.config.settings import Settings

ChatMessage = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}
CancelCheck = Callable[[], bool]


# The line between a model that can write cited answers and one that cannot.
# Measured here (docs/models.md, "Language models"): SmolLM2-135M on a Portuguese RAG prompt never cited,
# looped and leaked the prompt's fences; Gemma-3-270M echoed the prompt. Following our
# answer prompt takes several rules at once (only the sources, a [n] after each fact,
# an exact "not found" phrase, ignore instructions inside sources); instruct models
# reach that in the 1B class (Llama-3.2-1B, Gemma-3-1B, Qwen2.5-1.5B, SmolLM2-1.7B)
# and fall apart below it. No 1B+ GGUF ships on PyPI, so we could not measure one here:
# the line sits at the 1B class, slightly under 1e9 so a "1B" model whose count rounds
# down (tied embeddings) is not excluded. Users can override it either way (settings
# `answer_mode`, `ask --experiment`, Settings → Models).
MIN_WRITING_PARAMETERS = 900_000_000


@dataclass(frozen=True)
class Capability:
    """How big a model is and whether that is enough to write answers."""

    parameters: int | None  # None: the backend cannot tell
    basis: str  # where the figure comes from ("GGUF tensor table", "Ollama /api/show", …)

    @property
    def can_write(self) -> bool:
        # a model whose size cannot be read was picked by the user (an Ollama tag, a test
        # double): trust the choice rather than silently ignoring it
        return self.parameters is None or self.parameters >= MIN_WRITING_PARAMETERS


def capability_of(llm: object) -> Capability:
    """The backend's own `capability()` when it has one, else "unknown" (trusted)."""
    probe = getattr(llm, "capability", None)
    if callable(probe):
        result = probe()
        if isinstance(result, Capability):
            return result
    return Capability(None, "unknown")


class LLMOutputError(AppError):
    """The model produced output we could not use (e.g. JSON cut off by the token limit)."""


@runtime_checkable
class LLM(Protocol):
    name: str
    n_ctx: int

    def stream_chat(self, messages: list[ChatMessage], *, max_tokens: int, temperature: float,
                    cancel: CancelCheck | None = None) -> Iterator[str]:
        """Yield text pieces as the model produces them; stop early when `cancel()` is true."""
        ...

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]:
        """Return an object that parses as JSON and follows `schema` (grammar-constrained)."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens `text` costs in this model's context."""
        ...


class _CancellableJSON:
    """An `LLM` whose JSON calls also honour a cancel check (the backends' `complete_json`
    takes an optional `cancel`; the protocol's does not, so callers need not know)."""

    def __init__(self, llm: LLM, cancel: CancelCheck) -> None:
        self.llm = llm
        self.cancel = cancel
        self.name = llm.name
        self.n_ctx = llm.n_ctx
        self._accepts_cancel = "cancel" in inspect.signature(llm.complete_json).parameters

    def stream_chat(self, messages: list[ChatMessage], *, max_tokens: int, temperature: float,
                    cancel: CancelCheck | None = None) -> Iterator[str]:
        return self.llm.stream_chat(messages, max_tokens=max_tokens, temperature=temperature,
                                    cancel=cancel or self.cancel)

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]:
        if self.cancel():
            raise AppError("Cancelled.")
        if self._accepts_cancel:
            return self.llm.complete_json(messages, schema, max_tokens=max_tokens,  # type: ignore[call-arg]
                                          cancel=self.cancel)
        return self.llm.complete_json(messages, schema, max_tokens=max_tokens)

    def count_tokens(self, text: str) -> int:
        return self.llm.count_tokens(text)


def with_cancel(llm: LLM, cancel: CancelCheck) -> LLM:
    """`llm` with Stop applied to every call made for one question (e.g. the rewrite)."""
    return _CancellableJSON(llm, cancel)


def parse_json_object(text: str, *, truncated: bool = False) -> dict[str, Any]:
    """Parse constrained output; a cut-off or non-object result is an `LLMOutputError`."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        reason = "hit the token limit" if truncated else "is not valid JSON"
        raise LLMOutputError(f"The model's structured answer {reason}.", detail=text[:200]) from exc
    if not isinstance(value, dict):
        raise LLMOutputError("The model's structured answer is not a JSON object.", detail=text[:200])
    return value


def build_llm(settings: Settings, *, model_path: str | None = None) -> LLM | None:
    """The backend the settings ask for; None when the user chose no LLM (sources only).

    `model_path` overrides the registry for one run (CLI `ask --model PATH`). Validation
    of the file happens here (fast, header only); the weights load on first use.
    Raises `MissingModelError` / `InvalidModelError` / `AppError` with what to do.
    """
    backend = settings.llm_backend
    if backend == "none" and model_path is None:
        return None
    if backend == "ollama" and model_path is None:
        from desktop_app.answer.ollama_llm import OllamaLLM

        if not settings.ollama_model:
            raise AppError("The Ollama backend is selected but no Ollama model is set "
                           "(settings: ollama_model, e.g. 'qwen2.5:3b').")
        return OllamaLLM(settings.ollama_url, settings.ollama_model,
                         allow_network=settings.allow_network, n_ctx=settings.n_ctx)
    if backend not in ("llama_cpp", "ollama", "none"):
        raise AppError(f"Unknown LLM backend {backend!r}: use 'llama_cpp', 'ollama' or 'none'.")
    from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
    from desktop_app.answer.models import entry_for_path, resolve_active_model

    entry = entry_for_path(model_path) if model_path else resolve_active_model(settings)
    return LlamaCppLLM(entry.path, n_ctx=settings.n_ctx, n_threads=settings.n_threads,
                       temperature=settings.temperature, chat_template=entry.chat_template,
                       name=entry.name)


def build_llm_or_none(settings: Settings) -> tuple[LLM | None, AppError | None]:
    """Like `build_llm`, but a user-fixable problem becomes (None, error): search and
    sources-only answers keep working while the GUI shows the error."""
    try:
        return build_llm(settings), None
    except AppError as exc:
        return None, exc
