"""The small LLM protocol the answer service talks to, plus the backend factory.

Backends (llama.cpp in-process, Ollama over loopback HTTP) implement four things:
stream a chat, produce JSON constrained by a schema, count tokens, and say their
context size. Everything else (prompting, citations, fallbacks) lives above them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from desktop_app.errors import AppError

if TYPE_CHECKING:
    from desktop_app.config.settings import Settings

ChatMessage = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}
CancelCheck = Callable[[], bool]


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
