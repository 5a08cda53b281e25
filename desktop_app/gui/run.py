"""Start the desktop app: QApplication → translations → window on screen → models load.

`run_gui(app)` is what `python -m desktop_app` (no arguments) calls. The window is
shown before anything heavy happens; the embedder, index and LLM load in a worker
once the event loop runs, with their state in the status bar. Light/dark follows
the OS through Qt's palette; the chips repaint on palette changes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QThreadPool, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop_app import startup_gc
from desktop_app.config.paths import resource
from desktop_app.gui import system_libs
from desktop_app.gui.dialogs import show_error
from desktop_app.gui.i18n import Translations
from desktop_app.gui.main_window import MainWindow
from desktop_app.gui.services import GuiServices
from desktop_app.gui.theme import FOCUS_STYLE, ColorSchemeFollower, FocusRingStyle

if TYPE_CHECKING:
    from desktop_app.app import App

log = logging.getLogger(__name__)

# model loading, an ingestion run and an answer must not wait for each other
MIN_POOL_THREADS = 4
# How long a worker may keep the interpreter before the window's thread gets it (Python's
# default is 5 ms). Every key press and many repaints call a little Python; while a worker
# imports LanceDB or builds a model, each such call waited up to the full interval.
SWITCH_INTERVAL_S = 0.001
GC_HOLD_MAX_MS = 60_000  # the collector is back on by then even if the models never load
# at quit, cancelled background work gets this long to stop before the process ends
QUIT_GRACE_S = 0.3
# bench/package.py: "1" → print a start-up line and quit once the window is on screen (models
# not loaded); "ready" → print at the window and again when the models are loaded, then quit;
# "report" (bench/quit.py) → print both lines and keep running.
EXIT_AFTER_SHOW_ENV = "ACERVO_EXIT_AFTER_SHOW"
# bench/startup.py: "1" → also print when the library list and the last chat are on screen
# and every key press the question box receives (with the monotonic time, as every line)
STARTUP_TRACE_ENV = "ACERVO_STARTUP_TRACE"


def create_qt_application(argv: list[str] | None = None) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    qt_app = QApplication(argv if argv is not None else sys.argv[:1])
    qt_app.setApplicationName("Acervo")
    qt_app.setApplicationDisplayName("Acervo")
    qt_app.setOrganizationName("Acervo")
    qt_app.setDesktopFileName("acervo")
    qt_app.setWindowIcon(QIcon(str(resource("icons", "acervo.svg"))))
    install_look(qt_app)
    return qt_app


def install_look(qt_app: QApplication) -> None:
    """Light/dark following the OS (or Settings) and a visible keyboard focus; once."""
    if qt_app.findChild(ColorSchemeFollower) is not None:
        return
    ColorSchemeFollower(qt_app)  # parented to the application: lives as long as it does
    qt_app.setStyle(FocusRingStyle(qt_app.style().name()))
    qt_app.setStyleSheet(FOCUS_STYLE)


def build_window(app: App, qt_app: QApplication | None = None) -> MainWindow:
    """The main window for `app`, with translations installed; models not loaded yet."""
    qt_app = qt_app or create_qt_application()
    install_look(qt_app)
    pool = QThreadPool.globalInstance()
    pool.setMaxThreadCount(max(pool.maxThreadCount(), MIN_POOL_THREADS))
    translations = Translations()
    translations.apply(app.settings.language, qt_app)
    follower = qt_app.findChild(ColorSchemeFollower)
    if follower is not None:
        follower.set_preference(app.settings.theme)
    return MainWindow(GuiServices(app), translations)


def install_crash_dialog(app: App, window: MainWindow) -> None:
    """Sanitized logging for the session; an uncaught exception (a bug) gets a dialog."""

    def on_uncaught(error: BaseException) -> None:
        QTimer.singleShot(0, lambda: show_error(window, error, log_dir=str(app.paths.log_dir)))

    if getattr(app, "log_handle", None) is None and hasattr(app, "start_logging"):
        app.start_logging(on_uncaught=on_uncaught)


def run_gui(app: App) -> int:
    """Open the window, then load models in the background; returns the exit code."""
    if system_libs.needs_xcb():
        missing = system_libs.missing_libraries()
        if missing:  # Qt would abort with "could not load the Qt platform plugin xcb"
            sys.stderr.write(system_libs.report(missing))
            return 1
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    startup_gc.hold()  # no collector pauses while keys come in during start-up
    qt_app = create_qt_application()
    window = build_window(app, qt_app)
    install_crash_dialog(app, window)
    window.modelsReady.connect(startup_gc.release)
    QTimer.singleShot(GC_HOLD_MAX_MS, startup_gc.release)  # a start-up that failed or stalls
    window.show()
    mode = os.environ.get(EXIT_AFTER_SHOW_ENV, "")
    if mode:
        QTimer.singleShot(0, lambda: _startup_reached("window", qt_app, quit_now=mode == "1"))
    if mode in ("ready", "report"):
        window.modelsReady.connect(
            lambda: _startup_reached("ready", qt_app, quit_now=mode == "ready"))
    if os.environ.get(STARTUP_TRACE_ENV):
        trace_startup(window, qt_app)
    if mode != "1":
        QTimer.singleShot(0, window.start)
    code = int(qt_app.exec())
    # The window is gone; the process must follow within a second (bench/quit.py). Work the
    # user asked to complete (an erasure, an edit) is waited for; the rest is cancelled and
    # given a moment to stop at its next check. Then the process ends without Python's own
    # shutdown, which would wait for a model still loading on a pool thread (an import of
    # torch cannot be interrupted) and finalize torch, LanceDB and llama.cpp for seconds.
    # Nothing is lost by that: settings were saved on close, the stores are transactional,
    # and an ingestion cut short is recovered (and resumed by hash) on the next start.
    window.workers.drain(QUIT_GRACE_S)
    exit_now(app, code)
    return code  # not reached (kept for callers that patch `exit_now`)


def exit_now(app: App, code: int) -> None:
    """Flush the logs and the standard streams, then end the process at once."""
    handle = getattr(app, "log_handle", None)
    if handle is not None:
        handle.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _startup_reached(stage: str, qt_app: QApplication, *, quit_now: bool,
                     detail: str = "") -> None:
    """One machine-readable line for the start-up benchmark: stage, resident memory, the
    CPU seconds used so far (comparable on a busy machine, unlike wall time) and the
    monotonic clock (the same clock as the benchmark's, on Linux)."""
    times = os.times()
    print(f"ACERVO_STARTUP stage={stage} rss_kb={_rss_kb()} "
          f"cpu_s={times.user + times.system:.2f} t={time.monotonic():.4f}"
          + (f" detail={detail}" if detail else ""), flush=True)
    if quit_now:
        qt_app.quit()


def trace_startup(window: MainWindow, qt_app: QApplication) -> None:
    """What the start-up benchmark measures: the library listed, the last chat shown (and
    complete), each keystroke typed meanwhile."""
    window.libraryListed.connect(lambda: _startup_reached("library", qt_app, quit_now=False))
    window.lastChatShown.connect(lambda: _startup_reached("chat", qt_app, quit_now=False))
    window.lastChatComplete.connect(
        lambda: _startup_reached("chat_complete", qt_app, quit_now=False))
    window.loadStep.connect(lambda component, state: _startup_reached(
        f"{component}_{state}", qt_app, quit_now=False))
    window.chat.question.key_observer = lambda text: _startup_reached(
        "key", qt_app, quit_now=False, detail=text.encode("unicode_escape").decode() or "-")


def _rss_kb() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource as rusage  # not Windows; ru_maxrss is a peak (KB on Linux, bytes on macOS)

    peak = rusage.getrusage(rusage.RUSAGE_SELF).ru_maxrss
    return int(peak // 1024 if sys.platform == "darwin" else peak)
