"""Helpers shared by the benchmark scripts (not tests): temp home, results file, env facts."""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EVAL = (REPO / ".." / "shared" / "eval").resolve()
RESULTS = REPO / "bench" / "results"

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def temp_home(prefix: str) -> Path:
    """A fresh ACERVO_HOME so a benchmark never touches the user's data."""
    home = Path(tempfile.mkdtemp(prefix=f"acervo-bench-{prefix}-"))
    os.environ["ACERVO_HOME"] = str(home)
    return home


def shared_models_dir() -> Path:
    """Reuse one converted embedder across benchmark runs (cache dir of the invoking user)."""
    d = Path(os.environ.get("ACERVO_BENCH_MODELS", Path(tempfile.gettempdir()) / "acervo-models"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def code_version() -> dict[str, str]:
    """What was measured: the release and the commit ("+dirty" with uncommitted changes),
    so a figure in docs/measurements.md names the code it belongs to."""
    import subprocess

    from desktop_app import __version__

    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                                  timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    commit = git("rev-parse", "--short=7", "HEAD") or "unknown"
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    return {"version": __version__, "commit": commit + ("+dirty" if dirty else "")}


def save(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    data = {"benchmark": name, "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **code_version(),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "platform": platform.platform()}, **data}
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"saved {path.relative_to(REPO)}")
    return path


def percentiles(samples_ms: list[float]) -> dict[str, float]:
    import numpy as np

    arr = np.asarray(samples_ms)
    return {"p50_ms": round(float(np.percentile(arr, 50)), 2),
            "p95_ms": round(float(np.percentile(arr, 95)), 2), "n": len(samples_ms)}
