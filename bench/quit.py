"""Quit: seconds from the user closing the window (Ctrl+Q) to the process being gone.

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python bench/quit.py [--runs N]

Needs an X display and xdotool (the keys are real X events, as a user's). A temporary
ACERVO_HOME holds a library with the LGPD PDF (ingested once through the CLI). Scenarios:
- idle: the models are loaded, nothing runs;
- loading: closed 1 s after the window appeared, while the embedder/index/LLM load;
- ingesting: the 472-page BNCC PDF added through Ctrl+O (typed into the file dialog) and
  the window closed 8 s into its ingestion;
- answering: a question asked (Ctrl+L, typed, Enter) and the window closed at once.
The app prints its start-up stages (`ACERVO_EXIT_AFTER_SHOW=report`, desktop_app/gui/run.py)
so the script knows when the window is up and when the models are loaded.
Saves bench/results/quit.json (per scenario: each run, median, max).
"""

from __future__ import annotations

import argparse
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

from _common import EVAL, REPO, save, shared_models_dir

STAGE_PREFIX = "ACERVO_STARTUP "
LGPD = EVAL / "pdfs" / "pt" / "lgpd.pdf"
BNCC = EVAL / "pdfs" / "pt" / "bncc.pdf"
SHOTS: Path | None = None  # --shots DIR: the screen just before Ctrl+Q, per scenario


def xdotool(*args: str) -> str:
    done = subprocess.run(["xdotool", *args], capture_output=True, text=True, check=False)
    return done.stdout.strip()


def prepare_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="acervo-bench-quit-"))
    models = shared_models_dir()
    env = {**os.environ, "ACERVO_HOME": str(home)}
    from desktop_app.modelprep import ensure_e5_model

    ensure_e5_model(models)
    (home / "data" / "models").mkdir(parents=True)
    for folder in models.iterdir():
        if not folder.name.startswith("."):
            (home / "data" / "models" / folder.name).symlink_to(folder.resolve())
    subprocess.run([sys.executable, "-m", "desktop_app", "ingest", str(LGPD)], cwd=REPO,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return home


class Launched:
    """The app under the current display, its stage lines read on a thread."""

    def __init__(self, home: Path) -> None:
        env = {**os.environ, "ACERVO_HOME": str(home), "ACERVO_EXIT_AFTER_SHOW": "report"}
        env.pop("QT_QPA_PLATFORM", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "desktop_app"], cwd=REPO, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
        self.stages: dict[str, float] = {}
        self.started = time.perf_counter()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(STAGE_PREFIX):
                stage = line[len(STAGE_PREFIX):].split()[0].split("=", 1)[1]
                self.stages[stage] = time.perf_counter()

    def wait_stage(self, stage: str, timeout: float = 300) -> None:
        deadline = time.perf_counter() + timeout
        while stage not in self.stages:
            if time.perf_counter() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the app never reported {stage!r}")
            time.sleep(0.05)

    def window(self) -> str:
        for _ in range(100):
            found = xdotool("search", "--pid", str(self.proc.pid), "--onlyvisible", "--name",
                            "Acervo").splitlines()
            if found:
                return found[0]
            time.sleep(0.1)
        raise RuntimeError("no visible Acervo window")

    def keys(self, *keys: str) -> None:
        window = self.window()
        xdotool("windowfocus", "--sync", window)
        for key in keys:
            xdotool("key", "--clearmodifiers", key)

    def type(self, text: str) -> None:
        xdotool("type", "--delay", "20", text)

    def close_and_time(self) -> dict[str, float]:
        """Ctrl+Q; seconds until the window is gone and until the process has exited."""
        self.keys("ctrl+q")
        closed = time.perf_counter()
        gone = None
        while self.proc.poll() is None:
            if gone is None and not xdotool("search", "--pid", str(self.proc.pid),
                                            "--onlyvisible", "--name", "Acervo"):
                gone = time.perf_counter()
            if time.perf_counter() - closed > 60:
                self.proc.kill()
                raise RuntimeError("still running 60 s after Ctrl+Q")
            time.sleep(0.01)
        exited = time.perf_counter()
        return {"window_gone_s": round((gone or exited) - closed, 3),
                "exit_after_close_s": round(exited - closed, 3),
                "exit_code": float(self.proc.returncode)}


def scenario(name: str, home: Path) -> dict[str, float]:
    app = Launched(home)
    try:
        app.wait_stage("window")
        if name == "loading":
            time.sleep(1.0)
        else:
            app.wait_stage("ready")
            time.sleep(1.0)
        if name == "ingesting":
            app.keys("ctrl+o")
            time.sleep(1.5)  # the file dialog
            app.type(str(BNCC))
            app.keys("Return")
            time.sleep(8.0)
        elif name == "answering":
            app.keys("ctrl+l")
            app.type("Quais são os direitos do titular dos dados?")
            app.keys("Return")
            time.sleep(0.3)
        if SHOTS:
            subprocess.run(["import", "-window", "root", str(SHOTS / f"quit-{name}.png")],
                           check=False)
        return app.close_and_time()
    finally:
        if app.proc.poll() is None:
            app.proc.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scenarios", nargs="*",
                        default=["idle", "loading", "ingesting", "answering"])
    parser.add_argument("--shots", type=Path, default=None)
    args = parser.parse_args()
    global SHOTS
    SHOTS = args.shots
    if not os.environ.get("DISPLAY") or shutil.which("xdotool") is None:
        raise SystemExit("needs an X display and xdotool: run it under xvfb-run")
    if not BNCC.is_file():
        raise SystemExit(f"evaluation PDFs not found under {EVAL}")
    home = prepare_home()
    results: dict[str, Any] = {}
    try:
        for name in args.scenarios:
            runs = [scenario(name, home) for _ in range(args.runs)]
            exits = [r["exit_after_close_s"] for r in runs]
            results[name] = {"runs": runs, "median_exit_after_close_s": statistics.median(exits),
                             "max_exit_after_close_s": max(exits)}
            print(f"{name:10s} exit after close: median {statistics.median(exits):.2f} s, "
                  f"max {max(exits):.2f} s; window gone after "
                  f"{statistics.median(r['window_gone_s'] for r in runs):.2f} s")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    save("quit", {"target_s": 1.0, "scenarios": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
