"""Start-up as the user sees it: the window, the library listed, the last chat shown, and
how long keystrokes wait meanwhile — a real window under X, a library of >= 1,000 documents.

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python bench/startup.py \\
        [--home DIR] [--documents 1000] [--runs 3]

The library (bench/startup_library.py: the LGPD PDF plus short documents from the eval
corpora, ingested through the CLI, and a last chat of three answers) is built once in
--home (default: a folder in the temp dir) and reused. Each run launches
`python -m desktop_app` as a user would; the app prints its stages with the monotonic clock
(`ACERVO_EXIT_AFTER_SHOW=report`, `ACERVO_STARTUP_TRACE=1`, desktop_app/gui/run.py): the
window on screen, the library's documents listed, the last chat shown (and complete: its
badges' passages read from the index), ready (index, embedder, memory). This script types
into the question box through XTest (libXtst, as a keyboard would: a key every 80 ms) and
the app prints each key it receives: a keystroke's lag is its arrival minus the moment it
was flushed to the X server. Typing goes on from the window until 2 s after the last chat
is shown (`max_keystroke_lag_ms`, start-up). The window opens the index and then loads the
search model each when typing pauses (importing LanceDB and starting onnxruntime hold
Python's interpreter lock for moments); typing resumed while each of them loads is
measured apart (`max_keystroke_lag_index_opening_ms`,
`max_keystroke_lag_search_model_loading_ms`).

Run 1 is the first start after the CLI built the library (no listing stored by a window
yet: the list waits for the index); the runs after it are relaunches, the case the targets
are for (`first_window_s` <= 2, `library_listed_s` <= 2, `last_chat_shown_s` <= 2.5,
`max_keystroke_lag_ms` <= 100). Timings depend on the machine's load: the load average is
saved beside them. Saves bench/results/startup.json.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import REPO, save
from startup_library import prepare

STAGE_PREFIX = "ACERVO_STARTUP "
KEY_INTERVAL_S = 0.08
TARGETS = {"first_window_s": 2.0, "library_listed_s": 2.0, "last_chat_shown_s": 2.5,
           "max_keystroke_lag_ms": 100.0}


class Keyboard:
    """Key presses through XTest, timed when flushed to the X server."""

    def __init__(self) -> None:
        self.x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
        self.xtst = ctypes.cdll.LoadLibrary("libXtst.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XStringToKeysym.restype = ctypes.c_ulong
        self.x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                                ctypes.c_ulong]
        self.x11.XFlush.argtypes = [ctypes.c_void_p]
        self.display = self.x11.XOpenDisplay(None)
        if not self.display:
            raise SystemExit("cannot open the X display: run under xvfb-run")

    def _code(self, name: str) -> int:
        return int(self.x11.XKeysymToKeycode(self.display,
                                             self.x11.XStringToKeysym(name.encode())))

    def press(self, name: str, *, ctrl: bool = False) -> float:
        """Press and release a key; the monotonic time it was flushed."""
        control = self._code("Control_L")
        if ctrl:
            self.xtst.XTestFakeKeyEvent(self.display, control, 1, 0)
        code = self._code(name)
        self.xtst.XTestFakeKeyEvent(self.display, code, 1, 0)
        self.xtst.XTestFakeKeyEvent(self.display, code, 0, 0)
        if ctrl:
            self.xtst.XTestFakeKeyEvent(self.display, control, 0, 0)
        self.x11.XFlush(self.display)
        return time.monotonic()


class Launched:
    """The app under the current display; its stage lines read on a thread."""

    def __init__(self, home: Path) -> None:
        env = {**os.environ, "ACERVO_HOME": str(home), "ACERVO_EXIT_AFTER_SHOW": "report",
               "ACERVO_STARTUP_TRACE": "1"}
        env.pop("QT_QPA_PLATFORM", None)
        self.started = time.monotonic()
        self.proc = subprocess.Popen([sys.executable, "-m", "desktop_app"], cwd=REPO, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
        self.stages: dict[str, float] = {}
        self.keys: list[tuple[float, str]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if not line.startswith(STAGE_PREFIX):
                continue
            fields = dict(part.split("=", 1) for part in line[len(STAGE_PREFIX):].split())
            stamp = float(fields["t"])
            if fields["stage"] == "key":
                self.keys.append((stamp, fields.get("detail", "")))
            else:
                self.stages.setdefault(fields["stage"], stamp)

    def wait(self, stage: str, timeout: float = 600) -> float:
        deadline = time.monotonic() + timeout
        while stage not in self.stages:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the app never reported {stage!r}")
            time.sleep(0.01)
        return self.stages[stage]

    def focus(self) -> None:
        for _ in range(100):
            found = subprocess.run(["xdotool", "search", "--pid", str(self.proc.pid),
                                    "--onlyvisible", "--name", "Acervo|lgpd|direitos"],
                                   capture_output=True, text=True).stdout.split()
            if found:
                subprocess.run(["xdotool", "windowactivate", "--sync", found[0]],
                               capture_output=True)
                subprocess.run(["xdotool", "windowfocus", "--sync", found[0]],
                               capture_output=True)
                return
            time.sleep(0.05)
        raise RuntimeError("no visible Acervo window")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def type_until(app: Launched, keyboard: Keyboard, done: str, limit_s: float
               ) -> list[float]:
    """Type a key every `KEY_INTERVAL_S` until the app reports `done` (and 0.5 s more):
    the send times."""
    sent: list[float] = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    started, stop_at = time.monotonic(), None
    while stop_at is None or time.monotonic() < stop_at:
        sent.append(keyboard.press(letters[len(sent) % 26]))
        if stop_at is None and (done in app.stages or time.monotonic() - started > limit_s):
            stop_at = time.monotonic() + 0.5
        time.sleep(KEY_INTERVAL_S)
    return sent


def lags(app: Launched, sent: list[float], skip: int) -> list[float]:
    """Each key's arrival minus its sending (the app's key lines, in order)."""
    time.sleep(1.0)  # the last keys arrive
    received = [stamp for stamp, text in app.keys if len(text) == 1 and text.isalpha()]
    return [1000 * (got - put) for put, got in zip(sent, received[skip:], strict=False)]


def summary(values: list[float], name: str) -> dict[str, Any]:
    if not values:
        return {f"max_{name}_ms": None}
    ordered = sorted(values)
    return {f"max_{name}_ms": round(ordered[-1], 1),
            f"p95_{name}_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
            f"median_{name}_ms": round(statistics.median(ordered), 1), f"{name}_keys": len(values)}


def one_start(home: Path, keyboard: Keyboard) -> dict[str, Any]:
    """One launch, typing as a user would: from the window until 2 s after the last chat is
    shown (start-up: the window loads nothing heavy while keys come); then a pause, in
    which the window opens the index; typing again while it opens; a pause, in which the
    search model loads; typing again while it loads."""
    app = Launched(home)
    try:
        app.wait("window")
        app.focus()
        keyboard.press("l", ctrl=True)  # Ctrl+L: the question box
        app.wait("chat", 60)
        startup = type_for(keyboard, app.stages["chat"] + 2.0 - time.monotonic(), app)
        typed = len(startup)
        startup_lags = lags(app, startup, 0)
        app.wait("index_loading", 60)
        opening = type_until(app, keyboard, "index_ready", 60)
        opening_lags = lags(app, opening, typed)
        typed += len(opening)
        app.wait("embedder_loading", 60)
        loading = type_until(app, keyboard, "ready", 120)
        loading_lags = lags(app, loading, typed)
        t0 = app.started
        result: dict[str, Any] = {
            f"{name}_s": round(app.stages[stage] - t0, 3)
            for name, stage in (("first_window", "window"), ("library_listed", "library"),
                                ("last_chat_shown", "chat"),
                                ("last_chat_complete", "chat_complete"),
                                ("index_open", "index_ready"), ("ready", "ready"))
            if stage in app.stages}
        result.update(summary(startup_lags, "keystroke_lag"))
        result.update(summary(opening_lags, "keystroke_lag_index_opening"))
        result.update(summary(loading_lags, "keystroke_lag_search_model_loading"))
        return result
    finally:
        app.close()


def type_for(keyboard: Keyboard, seconds: float, app: Launched) -> list[float]:
    sent: list[float] = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    end = time.monotonic() + max(0.5, seconds)
    while time.monotonic() < end:
        sent.append(keyboard.press(letters[len(sent) % 26]))
        time.sleep(KEY_INTERVAL_S)
    return sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path,
                        default=Path(tempfile.gettempdir()) / "acervo-bench-startup")
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3, help="relaunches after the first start")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY") or shutil.which("xdotool") is None:
        raise SystemExit("needs an X display and xdotool: run it under xvfb-run")
    library = prepare(args.home.resolve(), args.documents)
    print(f"library: {library['documents']} documents, last chat {library['conversation']}")
    listing = args.home / "cache" / "library-listing.json"
    listing.unlink(missing_ok=True)  # run 1: as after a CLI ingest, no stored listing
    keyboard = Keyboard()
    load_before = os.getloadavg()
    runs = []
    for n in range(1 + args.runs):
        result = one_start(args.home, keyboard)
        result["load_average_1m"] = round(os.getloadavg()[0], 2)
        runs.append(result)
        print(f"run {n + 1}{' (first start)' if n == 0 else ''}: " + ", ".join(
            f"{k} {v}" for k, v in result.items()))
    relaunches = runs[1:] or runs
    median = {key: round(statistics.median(r[key] for r in relaunches if r.get(key)
                                           is not None), 3)
              for key in relaunches[0] if isinstance(relaunches[0][key], (int, float))}
    for key in ("max_keystroke_lag_ms", "max_keystroke_lag_index_opening_ms",
                "max_keystroke_lag_search_model_loading_ms"):
        median[key] = max(r.get(key) or 0 for r in relaunches)  # the worst, not the median
    met = {key: median.get(key, float("inf")) <= limit for key, limit in TARGETS.items()}
    print("relaunches (median; keystroke lag: the worst):",
          ", ".join(f"{k} {v}" for k, v in median.items()))
    print("targets:", ", ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in met.items()))
    save("startup", {
        "documents": library["documents"], "targets": TARGETS, "relaunch_median": median,
        **{key: median[key] for key in TARGETS if key in median},  # the targets' own keys
        "targets_met": met, "first_start": runs[0], "runs": runs,
        "load_average_1m_before": round(load_before[0], 2),
        "load_average_5m_before": round(load_before[1], 2),
        "note": "timings on a shared machine: compare only figures measured at a similar "
                "load (load_average_*); the lead re-measures them quiet",
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
