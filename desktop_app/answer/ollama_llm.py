"""Optional backend: a model served by Ollama, through the official `ollama` client.

The URL defaults to loopback. A URL that points at another machine is refused
unless the user explicitly allowed network use, and such a backend reports
`air_gapped = False` so the GUI can say that questions and document excerpts
leave the laptop. Proxy environment variables are ignored (`trust_env=False`):
a loopback request must never be routed through a proxy.

Its size, for the answer-mode policy, comes from `/api/show` (the GGUF's parameter
count, else the "3.2B"-style label); when the server cannot tell, the model the user
picked is trusted to write. The HTTP stream is read in a helper thread so Stop
returns at once even while the server is still processing a long prompt.
"""

from __future__ import annotations

import math
import queue
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlparse

from desktop_app.answer.llm import CancelCheck, Capability, ChatMessage, parse_json_object
from desktop_app.errors import AppError, MissingModelError
from desktop_app.privacy.airgap import is_loopback_url

CHARS_PER_TOKEN = 3.0  # no tokenize endpoint in Ollama's API: a conservative estimate
CANCEL_POLL_S = 0.05
SHOW_TIMEOUT_S = 5.0
_SIZE_LABEL = re.compile(r"^\s*([\d.]+)\s*([KMBT])\s*$", re.IGNORECASE)
_SCALE = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


def parse_parameter_size(label: str | None) -> int | None:
    """Ollama's "3.2B" / "494.03M" → a parameter count (None when unreadable)."""
    match = _SIZE_LABEL.match(label or "")
    if not match:
        return None
    try:
        return int(float(match.group(1)) * _SCALE[match.group(2).upper()])
    except ValueError:
        return None


_DONE = object()


def iterate_cancellable(start: Callable[[], Iterator[Any]], cancel: CancelCheck | None,
                        on_abandon: Callable[[Iterator[Any]], None]) -> Iterator[Any]:
    """Items of a blocking iterator read in a helper thread, so `cancel()` is honoured while
    it waits (the server may take tens of seconds before its first chunk). On cancel this
    returns at once; the helper closes the iterator (`on_abandon`) when it wakes up."""
    items: queue.Queue[Any] = queue.Queue()
    abandoned = threading.Event()

    def pump() -> None:
        iterator: Iterator[Any] | None = None
        try:
            iterator = start()
            for item in iterator:
                if abandoned.is_set():
                    break
                items.put(item)
            items.put(_DONE)
        except BaseException as exc:  # handed to the consumer, raised there
            items.put(exc)
        finally:
            if iterator is not None and abandoned.is_set():
                on_abandon(iterator)

    threading.Thread(target=pump, name="ollama-stream", daemon=True).start()
    try:
        while True:
            if cancel is not None and cancel():
                return
            try:
                item = items.get(timeout=CANCEL_POLL_S)
            except queue.Empty:
                continue
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        abandoned.set()


class OllamaLLM:
    """`LLM` backed by an Ollama server."""

    def __init__(self, url: str, model: str, *, allow_network: bool = False, n_ctx: int = 4096,
                 timeout: float = 600.0) -> None:
        url = url.strip() or "http://127.0.0.1:11434"
        if "://" not in url:
            url = f"http://{url}"
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise AppError(f"The Ollama URL {url!r} is not valid; use e.g. http://127.0.0.1:11434.")
        self.url = url
        self.model = model
        self.air_gapped = is_loopback_url(url)
        if not self.air_gapped and not allow_network:
            raise AppError(
                f"The Ollama URL {url} is not on this computer. Using it sends your questions and "
                "document excerpts over the network; enable 'allow network' in settings to do "
                "that, or use a loopback URL such as http://127.0.0.1:11434.")
        self.name = f"ollama:{model}"
        self.n_ctx = n_ctx
        self.timeout = timeout
        self._client: Any = None
        self._capability: Capability | None = None

    def capability(self) -> Capability:
        """The model's size from `/api/show` (asked once); unknown → trusted to write."""
        if self._capability is None:
            self._capability = self._read_capability()
        return self._capability

    def _read_capability(self) -> Capability:
        import httpx
        import ollama

        try:
            show = ollama.Client(host=self.url, timeout=SHOW_TIMEOUT_S,
                                 trust_env=False).show(self.model)
        except ollama.ResponseError as exc:
            raise self._translate(exc) from exc
        except (ConnectionError, httpx.HTTPError):
            return Capability(None, "Ollama not reachable")  # asking will say what is wrong
        info = show.modelinfo or {}
        count = info.get("general.parameter_count")
        if isinstance(count, int | float) and count > 0:
            return Capability(int(count), "Ollama /api/show model_info")
        label = show.details.parameter_size if show.details else None
        parsed = parse_parameter_size(label)
        if parsed:
            return Capability(parsed, "Ollama /api/show parameter_size")
        return Capability(None, "Ollama /api/show (no size)")

    @property
    def client(self) -> Any:
        if self._client is None:
            import ollama

            self._client = ollama.Client(host=self.url, timeout=self.timeout, trust_env=False)
        return self._client

    def _translate(self, exc: Exception) -> AppError:
        import ollama

        if isinstance(exc, ollama.ResponseError):
            if exc.status_code == 404:
                return MissingModelError(
                    f"Ollama at {self.url} has no model {self.model!r}. Pull it there "
                    f"(`ollama pull {self.model}`) or change 'ollama_model' in settings.",
                    detail=str(exc))
            return AppError(f"Ollama returned an error: {exc.error}", detail=str(exc))
        return AppError(f"Cannot reach Ollama at {self.url}. Is it running? "
                        "Start it, or switch the backend back to the built-in llama.cpp.",
                        detail=str(exc))

    def _options(self, max_tokens: int, temperature: float) -> dict[str, Any]:
        return {"temperature": temperature, "num_predict": max_tokens, "num_ctx": self.n_ctx}

    def stream_chat(self, messages: list[ChatMessage], *, max_tokens: int, temperature: float,
                    cancel: CancelCheck | None = None) -> Iterator[str]:
        import httpx
        import ollama

        errors = (ollama.ResponseError, ConnectionError, httpx.HTTPError)

        def start() -> Iterator[Any]:
            return iter(self.client.chat(model=self.model, messages=messages, stream=True,
                                         options=self._options(max_tokens, temperature)))

        def abandon(stream: Iterator[Any]) -> None:
            close = getattr(stream, "close", None)
            if close is not None:
                close()  # closes the HTTP response: the server stops generating

        try:
            for part in iterate_cancellable(start, cancel, abandon):
                if part.message and part.message.content:
                    yield part.message.content
        except errors as exc:
            raise self._translate(exc) from exc

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *,
                      max_tokens: int = 256, cancel: CancelCheck | None = None) -> dict[str, Any]:
        import httpx
        import ollama

        def start() -> Iterator[Any]:
            return iter([self.client.chat(model=self.model, messages=messages, stream=False,
                                          format=schema, options=self._options(max_tokens, 0.0))])

        try:
            replies = list(iterate_cancellable(start, cancel, lambda _it: None))
        except (ollama.ResponseError, ConnectionError, httpx.HTTPError) as exc:
            raise self._translate(exc) from exc
        if not replies:
            raise AppError("Cancelled.")
        response = replies[0]
        return parse_json_object(response.message.content or "",
                                 truncated=response.done_reason == "length")

    def count_tokens(self, text: str) -> int:
        return max(1, math.ceil(len(text.encode("utf-8")) / CHARS_PER_TOKEN))

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
