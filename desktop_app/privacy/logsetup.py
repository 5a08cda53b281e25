"""Logging that cannot leak: every record is sanitized at the handler, off the calling thread.

    callers ─ root logger ─ QueueHandler ─ queue ─ QueueListener thread ─┬─ rotating file
                                         (raw text, memory only)       └─ console (optional)

Both handlers use `SanitizingFormatter`, which sanitizes the message, the
formatted exception (chains and notes included, as Python renders them) and
the stack (the console shows the message only: tracebacks go to the file), and fails closed: if the sanitizer raises, the text is replaced by
a placeholder. `warnings`, uncaught exceptions (main thread, worker threads,
unraisable), and stray `sys.stderr` writes are routed into the same path.
Third-party loggers that echo analysed text are quieted and their own
handlers detached. Old log files are deleted at start-up (retention).
"""

from __future__ import annotations

import atexit
import concurrent.futures.thread  # noqa: F401  (see LazySanitizer)
import contextlib
import copy
import logging
import logging.handlers
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from desktop_app.privacy.stderr import StderrToLog

LOG_FILE_NAME = "acervo.log"
LOG_GLOB = "acervo*.log*"
FILE_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
CONSOLE_FORMAT = "%(levelname)s %(name)s: %(message)s"
STDERR_LOGGER = "stderr"
DROPPED = "[log text dropped: sanitizer failed ({error})]"
_SANITIZED_ATTR = "_acervo_sanitized"

# logger → level. presidio's debug output and its "decision_process" tracer print analysed text.
QUIET_LOGGERS: dict[str, int] = {
    "presidio-analyzer": logging.ERROR,
    "presidio_analyzer": logging.ERROR,
    "presidio-anonymizer": logging.ERROR,
    "spacy": logging.WARNING,
    "weasel": logging.WARNING,
    "tldextract": logging.ERROR,
    "filelock": logging.WARNING,
    "urllib3": logging.WARNING,
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "huggingface_hub": logging.WARNING,
    "transformers": logging.WARNING,
    "sentence_transformers": logging.WARNING,
    "phonenumbers": logging.WARNING,
}
SILENCED_LOGGERS = ("decision_process",)

Sanitize = Callable[[str], str]


def quiet_third_party_loggers() -> None:
    """Detach handlers libraries attach to their own loggers; route them to ours, quieter."""
    for name, level in QUIET_LOGGERS.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.propagate = True
    for name in SILENCED_LOGGERS:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.propagate = False
        logger.disabled = True


def prune_old_logs(log_dir: Path, retention_days: int, *, now: float | None = None) -> list[Path]:
    """Delete log files last written more than `retention_days` ago; returns what was deleted."""
    if retention_days <= 0 or not log_dir.is_dir():
        return []
    cutoff = (now if now is not None else time.time()) - retention_days * 86_400
    deleted = []
    for path in log_dir.glob(LOG_GLOB):
        with contextlib.suppress(OSError):
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                deleted.append(path)
    return deleted


class SanitizingFormatter(logging.Formatter):
    """Formats header fields as usual and the text (message + exception + stack) sanitized."""

    def __init__(self, sanitize: Sanitize, fmt: str = FILE_FORMAT,
                 plain_loggers: frozenset[str] = frozenset(), *,
                 tracebacks: bool = True) -> None:
        super().__init__(fmt)
        self._sanitize = sanitize
        self._plain = logging.Formatter("%(message)s")
        self._plain_loggers = plain_loggers
        self._tracebacks = tracebacks

    def _message_only(self, record: logging.LogRecord) -> str:
        """The sanitized message without traceback (the console: tracebacks are for the log)."""
        try:
            text = self._sanitize(record.getMessage())
        except Exception as error:
            text = DROPPED.format(error=type(error).__name__)
        if record.exc_info or record.exc_text:
            text += " (details in the log file)"
        return text

    def sanitized_text(self, record: logging.LogRecord) -> str:
        cached = getattr(record, _SANITIZED_ATTR, None)
        if cached is not None:
            return str(cached)
        try:
            text = record.getMessage()
            if record.exc_info:
                text = f"{text}\n{self.formatException(record.exc_info)}"
            elif record.exc_text:
                text = f"{text}\n{record.exc_text}"
            if record.stack_info:
                text = f"{text}\n{self.formatStack(record.stack_info)}"
            clean = self._sanitize(text)
        except Exception as error:  # fail closed: never write text we could not sanitize
            clean = DROPPED.format(error=type(error).__name__)
        setattr(record, _SANITIZED_ATTR, clean)
        return clean

    def format(self, record: logging.LogRecord) -> str:
        safe = copy.copy(record)
        safe.msg = self.sanitized_text(record) if self._tracebacks else self._message_only(record)
        safe.args = None
        safe.exc_info = None
        safe.exc_text = None
        safe.stack_info = None
        if record.name in self._plain_loggers:
            return self._plain.format(safe)
        return super().format(safe)


_reported_handlers: set[int] = set()


def _report_handler_error(handler: logging.Handler) -> None:
    # logging's default handleError prints the record's raw message and args: never that.
    # Once per handler: a read-only or full log folder fails every record.
    error = sys.exc_info()[0]
    stream = sys.__stderr__
    if id(handler) in _reported_handlers:
        return
    _reported_handlers.add(id(handler))
    if stream is not None:
        with contextlib.suppress(Exception):
            name = error.__name__ if error else "error"
            stream.write(f"acervo logging: {type(handler).__name__} failed ({name})\n")


class _QueueHandler(logging.handlers.QueueHandler):
    def handleError(self, record: logging.LogRecord) -> None:
        _report_handler_error(self)


class _RotatingFileHandler(logging.handlers.RotatingFileHandler):
    def handleError(self, record: logging.LogRecord) -> None:
        _report_handler_error(self)


class _StreamHandler(logging.StreamHandler):
    def handleError(self, record: logging.LogRecord) -> None:
        _report_handler_error(self)


class LazySanitizer:
    """Builds the real sanitizer off the start-up path: in a warm-up thread, or on first use.

    The warm-up thread is not a daemon on purpose: if the app crashes during
    its first seconds, interpreter shutdown waits for the build, so the crash
    record can still be sanitized and written at exit. `concurrent.futures.thread`
    is imported at module load because importing it once shutdown has begun
    raises ("can't register atexit after shutdown") and the build needs it.
    """

    def __init__(self, factory: Callable[[], Sanitize]) -> None:
        self._factory = factory
        self._sanitize: Sanitize | None = None
        self._error: BaseException | None = None
        self._lock = threading.Lock()

    def warm_up(self) -> threading.Thread:
        thread = threading.Thread(target=self._build, name="acervo-sanitizer-warm-up")
        thread.start()
        return thread

    def _build(self) -> None:
        with self._lock:
            if self._sanitize is None and self._error is None:
                try:
                    self._sanitize = self._factory()
                except Exception as error:
                    self._error = error

    def __call__(self, text: str) -> str:
        if self._sanitize is None:
            self._build()
        if self._sanitize is None:
            raise RuntimeError("sanitizer unavailable") from self._error
        return self._sanitize(text)


def _default_sanitizer(hash_salt: bytes | None) -> Callable[[], Sanitize]:
    def build() -> Sanitize:
        from desktop_app.privacy.sanitizer import Sanitizer

        return Sanitizer.offline(hash_salt=hash_salt).sanitize

    return build


class LoggingHandle:
    """What `install_logging` changed; `shutdown()` drains the queue and restores it all."""

    def __init__(self, log_file: Path, sanitize: Sanitize) -> None:
        self.log_file = log_file
        self.sanitize = sanitize
        self.queue: queue.Queue[logging.LogRecord] = queue.Queue()
        self.listener: logging.handlers.QueueListener | None = None
        self.queue_handler: logging.Handler | None = None
        self.output_handlers: list[logging.Handler] = []
        self.stderr: StderrToLog | None = None
        self._restore: list[Callable[[], None]] = []
        self._closed = False

    def flush(self) -> None:
        """Wait until every record logged so far is written (tests, exports, exit)."""
        if self.stderr is not None:
            self.stderr.flush()
        if self.listener is not None and not self._closed:
            self.queue.join()
        for handler in self.output_handlers:
            handler.flush()

    def shutdown(self) -> None:
        if self._closed:
            return
        if self.stderr is not None:
            self.stderr.flush()
        for undo in reversed(self._restore):
            with contextlib.suppress(Exception):
                undo()
        if self.listener is not None:
            self.listener.stop()  # processes everything still queued
        for handler in self.output_handlers:
            with contextlib.suppress(OSError, ValueError):  # a full disk must not crash the exit
                handler.flush()
            with contextlib.suppress(OSError, ValueError):
                handler.close()
        self._closed = True
        global _active
        if _active is self:
            _active = None


_active: LoggingHandle | None = None  # process-wide state (sys.stderr, hooks): one owner at a time


def install_logging(log_dir: Path, retention_days: int = 14, max_bytes: int = 2_000_000, *,
                    sanitize: Sanitize | None = None, hash_salt: bytes | None = None,
                    level: int = logging.INFO, console_level: int | None = logging.WARNING,
                    capture_stderr: bool = True, backup_count: int = 5,
                    on_uncaught: Callable[[BaseException], None] | None = None) -> LoggingHandle:
    """Route all logging, warnings, uncaught exceptions and stray stderr through the sanitizer.

    Returns a handle whose `shutdown()` is also registered with `atexit`.
    """
    global _active
    if _active is not None:
        _active.shutdown()
    log_dir.mkdir(parents=True, exist_ok=True)
    prune_old_logs(log_dir, retention_days)
    handle = LoggingHandle(log_dir / LOG_FILE_NAME,
                           sanitize or LazySanitizer(_default_sanitizer(hash_salt)))
    original_stderr = sys.stderr

    file_handler = _RotatingFileHandler(handle.log_file, maxBytes=max_bytes,
                                        backupCount=backup_count, encoding="utf-8", delay=True)
    file_handler.setFormatter(SanitizingFormatter(handle.sanitize))
    handle.output_handlers.append(file_handler)
    console_stream = original_stderr if original_stderr is not None else sys.__stderr__
    if console_level is not None and console_stream is not None:
        console = _StreamHandler(console_stream)
        console.setLevel(console_level)
        console.setFormatter(SanitizingFormatter(handle.sanitize, CONSOLE_FORMAT,
                                                 plain_loggers=frozenset({STDERR_LOGGER}),
                                                 tracebacks=False))
        handle.output_handlers.append(console)

    handle.listener = logging.handlers.QueueListener(handle.queue, *handle.output_handlers,
                                                     respect_handler_level=True)
    handle.queue_handler = _QueueHandler(handle.queue)
    root = logging.getLogger()
    previous_level, previous_handlers = root.level, list(root.handlers)
    for handler in previous_handlers:  # they would see raw records
        root.removeHandler(handler)
    root.addHandler(handle.queue_handler)
    root.setLevel(level)
    quiet_third_party_loggers()

    def restore_root() -> None:
        root.removeHandler(handle.queue_handler)  # type: ignore[arg-type]
        for handler in previous_handlers:
            root.addHandler(handler)
        root.setLevel(previous_level)

    handle._restore.append(restore_root)
    _install_hooks(handle, on_uncaught)
    if capture_stderr:
        handle.stderr = StderrToLog(logging.getLogger(STDERR_LOGGER), original_stderr)
        sys.stderr = handle.stderr

        def restore_stderr() -> None:
            if sys.stderr is handle.stderr:
                sys.stderr = original_stderr

        handle._restore.append(restore_stderr)
    handle.listener.start()
    if isinstance(handle.sanitize, LazySanitizer):
        handle.sanitize.warm_up()
    if handle.stderr is not None:
        handle.stderr.ignore_thread(handle.listener._thread)  # handler errors must not loop
    atexit.register(handle.shutdown)
    handle._restore.append(lambda: atexit.unregister(handle.shutdown))
    _active = handle
    return handle


def _install_hooks(handle: LoggingHandle,
                   on_uncaught: Callable[[BaseException], None] | None) -> None:
    log = logging.getLogger("acervo.crash")
    previous_excepthook, previous_thread_hook = sys.excepthook, threading.excepthook
    previous_unraisable = sys.unraisablehook

    def excepthook(kind: type[BaseException], value: BaseException,
                   tb: TracebackType | None) -> None:
        log.critical("Uncaught exception", exc_info=(kind, value, tb))
        if on_uncaught is not None:
            with contextlib.suppress(Exception):
                on_uncaught(value)

    def thread_hook(args: Any) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "?"
        log.error("Uncaught exception in thread %s", name,
                  exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

    def unraisable_hook(unraisable: Any) -> None:
        log.warning("%s: %r", unraisable.err_msg or "Exception ignored in", unraisable.object,
                    exc_info=(unraisable.exc_type, unraisable.exc_value,
                              unraisable.exc_traceback))

    sys.excepthook = excepthook
    threading.excepthook = thread_hook
    sys.unraisablehook = unraisable_hook
    logging.captureWarnings(True)

    def restore() -> None:
        logging.captureWarnings(False)
        sys.excepthook = previous_excepthook
        threading.excepthook = previous_thread_hook
        sys.unraisablehook = previous_unraisable

    handle._restore.append(restore)


def unsanitized_handlers() -> tuple[list[str], int]:
    """Handlers in the logging tree that bypass ours, and how many write to the captured stderr.

    A library's `StreamHandler` created while our stderr capture is installed
    writes into it, so its output is sanitized too; any other handler is listed.
    """
    ours: list[logging.Handler | None] = (
        [*_active.output_handlers, _active.queue_handler] if _active else [])
    bypassing: list[str] = []
    routed = 0
    loggers = [logging.getLogger()] + [
        logger for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            if handler in ours or isinstance(handler, logging.NullHandler):
                continue
            if isinstance(getattr(handler, "stream", None), StderrToLog):
                routed += 1
            else:
                bypassing.append(f"{logger.name}: {type(handler).__name__}")
    return bypassing, routed
