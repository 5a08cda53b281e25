"""The default backend: a GGUF model run in-process by llama-cpp-python.

The file is validated when the object is built (header only, milliseconds) and the
weights are loaded on first use, so the window opens first. `OMP_WAIT_POLICY` is
set to PASSIVE before llama_cpp is imported: with busy-waiting OpenMP threads,
generation collapses whenever another thread (the GUI, the embedder) is busy.
One model instance is not re-entrant, so calls are serialized with a lock.

Stop works during prompt processing too (a long prompt takes tens of seconds on a
laptop CPU): llama.cpp's abort callback is installed on the context, and a small
watcher thread turns the caller's cancel check into the abort flag (`_AbortSwitch`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from desktop_app.answer.gguf_info import GGUFInfo, format_size, read_gguf_info
from desktop_app.answer.llm import CancelCheck, Capability, ChatMessage, parse_json_object
from desktop_app.answer.models import check_template
from desktop_app.errors import AppError, InvalidModelError

log = logging.getLogger(__name__)

RAM_SHARE = 0.85  # refuse a model whose estimate exceeds this share of physical memory
CANCEL_POLL_S = 0.05  # how often the watcher asks the caller's cancel check


def physical_ram_bytes() -> int | None:
    try:
        import psutil

        return int(psutil.virtual_memory().total)
    except ImportError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _c_strlen() -> Any:
    """The C library's `strlen`, or None where it cannot be found."""
    try:
        if sys.platform == "win32":
            return ctypes.cdll.msvcrt.strlen
        name = ctypes.util.find_library("c")
        return (ctypes.CDLL(name) if name else ctypes.CDLL(None)).strlen
    except (OSError, AttributeError):
        return None


class _AbortSwitch:
    """A flag llama.cpp polls while it decodes, set without holding up the decode.

    llama.cpp calls `abort_callback(data)` between the nodes of every compute graph
    (hundreds of times per prompt batch). A Python callback needs the GIL each time:
    measured here, prompt processing fell from 45 to 29 tokens/s while another Python
    thread was busy. So the callback is the C library's own `strlen` on a 2-byte buffer:
    "" → 0 (go on), "\x01" → 1 (abort); the values are exactly 0/1, so reading a size_t
    as the callback's bool is well defined. Where no C library is found, a Python
    callback does the same job, slower.
    """

    def __init__(self) -> None:
        import llama_cpp

        self.buffer = ctypes.create_string_buffer(2)
        strlen = _c_strlen()
        if strlen is not None:
            self.callback = ctypes.cast(strlen, llama_cpp.ggml_abort_callback)
            self.native = True
        else:
            self.callback = llama_cpp.ggml_abort_callback(lambda _data: self.is_set())
            self.native = False

    def install(self, llama: Any) -> bool:
        import llama_cpp

        try:
            ctx = llama._ctx.ctx  # the llama_context pointer (no public accessor in 0.3.x)
        except AttributeError:
            return False
        llama_cpp.llama_set_abort_callback(ctx, self.callback,
                                           ctypes.cast(self.buffer, ctypes.c_void_p))
        return True

    def set(self) -> None:
        self.buffer[0] = b"\x01"

    def clear(self) -> None:
        self.buffer[0] = b"\x00"

    def is_set(self) -> bool:
        return self.buffer[0] != b"\x00"


class _CancelWatcher:
    """Polls a cancel check in a thread and flips the abort switch when it turns true."""

    def __init__(self, cancel: CancelCheck | None, switch: _AbortSwitch | None) -> None:
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        if cancel is not None and switch is not None:
            self._thread = threading.Thread(target=self._watch, args=(cancel, switch),
                                            name="llm-cancel-watch", daemon=True)
            self._thread.start()

    def _watch(self, cancel: CancelCheck, switch: _AbortSwitch) -> None:
        while not self._done.wait(CANCEL_POLL_S):
            try:
                cancelled = cancel()
            except Exception:  # a broken check must not kill generation silently
                log.exception("cancel check failed")
                return
            if cancelled:
                switch.set()
                return

    def stop(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)


class LlamaCppLLM:
    """`LLM` backed by llama.cpp. Raises `MissingModelError` / `InvalidModelError` early."""

    def __init__(self, path: str | Path, *, n_ctx: int = 4096, n_threads: int = 2,
                 temperature: float = 0.2, chat_template: str | None = None,
                 name: str | None = None, ram_bytes: int | None = None) -> None:
        self.info: GGUFInfo = read_gguf_info(path)
        self.template_warnings = check_template(self.info, chat_template)
        self.path = self.info.path
        self.name = name or self.path.stem
        self.chat_template = chat_template
        # never ask for more context than the model was trained with
        self.n_ctx = min(n_ctx, self.info.context_length) if self.info.context_length else n_ctx
        self.n_threads = max(1, n_threads)
        self.temperature = temperature
        ram = ram_bytes if ram_bytes is not None else physical_ram_bytes()
        needed = self.info.estimated_memory_bytes(self.n_ctx)
        if ram and needed > ram * RAM_SHARE:
            raise InvalidModelError(
                f"{self.path.name} needs about {format_size(needed)} of memory with a "
                f"{self.n_ctx}-token context, but this computer has {format_size(ram)}. Choose a "
                "smaller or more quantized GGUF (e.g. a 3–4B model in Q4_K_M), or lower n_ctx.")
        self._llama: Any = None
        self._abort: _AbortSwitch | None = None
        self._lock = threading.Lock()

    def capability(self) -> Capability:
        """Parameter count from the GGUF tensor table (exact, read at validation)."""
        return Capability(self.info.parameter_count, "GGUF tensor table")

    @property
    def llama(self) -> Any:
        """The loaded `llama_cpp.Llama` (loads on first access)."""
        if self._llama is None:
            with self._lock:
                if self._llama is None:
                    self._llama = self._load()
        return self._llama

    def _load(self) -> Any:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import llama_cpp

        try:
            llama = llama_cpp.Llama(
                model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                n_threads_batch=self.n_threads, chat_format=self.chat_template, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise InvalidModelError(
                f"llama.cpp could not load {self.path.name} (architecture "
                f"'{self.info.architecture}'). The file may be damaged, or made for a newer "
                "llama.cpp; try another GGUF or update Acervo.", detail=str(exc)) from exc
        switch = _AbortSwitch()
        if switch.install(llama):
            self._abort = switch
        else:  # Stop then waits for the prompt to be processed (it still stops generation)
            log.warning("llama.cpp abort callback unavailable; Stop acts between tokens only")
        return llama

    @property
    def abortable(self) -> bool:
        """Whether Stop can interrupt prompt processing (not only generation)."""
        _ = self.llama
        return self._abort is not None

    def _adapt(self, messages: list[ChatMessage]) -> list[ChatMessage]:
        if self.chat_template != "gemma" or not messages or messages[0]["role"] != "system":
            return messages
        # llama-cpp's gemma format silently drops system messages (docs/models.md)
        system, rest = messages[0]["content"], messages[1:]
        if rest and rest[0]["role"] == "user":
            return [{"role": "user", "content": f"{system}\n\n{rest[0]['content']}"}, *rest[1:]]
        return [{"role": "user", "content": system}, *rest]

    def stream_chat(self, messages: list[ChatMessage], *, max_tokens: int, temperature: float,
                    cancel: CancelCheck | None = None) -> Iterator[str]:
        llama = self.llama
        with self._lock:
            switch = self._abort
            if switch is not None:
                switch.clear()
            watcher = _CancelWatcher(cancel, switch)
            stream = llama.create_chat_completion(
                messages=self._adapt(messages), stream=True, max_tokens=max_tokens,
                temperature=temperature, repeat_penalty=1.1)
            try:
                for chunk in stream:
                    if cancel is not None and cancel():
                        break
                    piece = chunk["choices"][0]["delta"].get("content")
                    if piece:
                        yield piece
            except RuntimeError as exc:  # llama_decode returned an error code
                if switch is not None and switch.is_set():
                    return  # Stop aborted the decode: a normal end, not a failure
                raise AppError("The model failed while writing the answer.",
                               detail=str(exc)) from exc
            finally:
                watcher.stop()
                stream.close()
                if switch is not None:
                    switch.clear()

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *,
                      max_tokens: int = 256, cancel: CancelCheck | None = None) -> dict[str, Any]:
        llama = self.llama
        with self._lock:
            switch = self._abort
            if switch is not None:
                switch.clear()
            watcher = _CancelWatcher(cancel, switch)
            try:
                result = llama.create_chat_completion(
                    messages=self._adapt(messages), max_tokens=max_tokens, temperature=0.0,
                    response_format={"type": "json_object", "schema": schema})
            except RuntimeError as exc:
                if switch is not None and switch.is_set():
                    raise AppError("Cancelled.") from exc
                raise AppError("The model failed while answering.", detail=str(exc)) from exc
            finally:
                watcher.stop()
                if switch is not None:
                    switch.clear()
        choice = result["choices"][0]
        return parse_json_object(choice["message"].get("content") or "",
                                 truncated=choice.get("finish_reason") == "length")

    def count_tokens(self, text: str) -> int:
        llama = self.llama
        with self._lock:
            return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def close(self) -> None:
        with self._lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None
