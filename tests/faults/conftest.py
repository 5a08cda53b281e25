"""The fault suite: real CLI processes on a real home (real LanceDB, real embedder).

`cli` runs `python -m desktop_app …` in the test's ACERVO_HOME (the converted embedder
is linked in, so no process converts it again); `start_cli` returns the running process
for the concurrency tests.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import REPO, assert_clear, cli_env, link_models

CLI = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture()
def home(acervo_home: Path, e5_model_dir: Path, embedder: Any) -> Path:
    link_models(acervo_home, e5_model_dir)  # `embedder`: the default ONNX folder exists
    return acervo_home


@pytest.fixture()
def cli(home: Path) -> CLI:
    def run(*args: str, timeout: float = 600, input: str | None = None,
            check_clear: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([sys.executable, "-m", "desktop_app", *map(str, args)],
                                cwd=REPO, env=cli_env(home), capture_output=True, text=True,
                                timeout=timeout, input=input)
        if check_clear:
            assert_clear(result)
        return result

    return run


@pytest.fixture()
def start_cli(home: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-m", "desktop_app", *map(str, args)],
                                cwd=REPO, env=cli_env(home), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
