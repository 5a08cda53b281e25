"""`--self-test` from source: every step passes on a real install, and a failing step fails it.

The frozen bundle runs the same routine in tests/packaging/test_frozen_bundle.py.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app import selftest
from desktop_app.app import build_app
from desktop_app.privacy.airgap import OutboundConnectionBlocked, install_outbound_guard

REPO = Path(__file__).resolve().parents[1]
STEPS = ("migrations", "embedder", "ingest samples", "search", "extractive answer",
         "ocr scan", "bundled model", "memory write/erase", "window", "air gap")


@pytest.mark.slow
def test_the_self_test_passes_from_source_offscreen(e5_model_dir: Path, tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TMPDIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "desktop_app.selftest", "--models-dir", str(e5_model_dir.parent)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)

    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    statuses = {line.split(" (")[0].split(" ", 1)[1]: line.split(" ", 1)[0]
                for line in lines if line.startswith(("PASS ", "FAIL ", "SKIP "))
                and not line.startswith("PASS self-test")}
    assert statuses == {step: "PASS" for step in STEPS}, result.stdout
    assert lines[-1].startswith("PASS self-test: 10 passed, 0 skipped, 0 failed")
    assert not list(tmp_path.glob("acervo-selftest-*"))  # the temporary home is removed


def test_an_outbound_attempt_fails_the_air_gap_step() -> None:
    app = build_app()
    guard = install_outbound_guard()
    baseline = guard.attempt_count
    lines: list[str] = []
    test = selftest.SelfTest(app, lines.append, guard_baseline=baseline)
    try:
        assert test.step("air gap", test.air_gap)
        with pytest.raises(OutboundConnectionBlocked):
            socket.getaddrinfo("example.com", 443)
        assert not test.step("air gap", test.air_gap)
    finally:
        guard.forget_attempts_after(baseline)
    assert lines[0].startswith("PASS air gap")
    assert lines[1].startswith("FAIL air gap") and "example.com" in lines[1]
    assert not test.passed


def test_the_exit_code_is_1_when_any_step_fails(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    def run(out, models_dir=None):  # type: ignore[no-untyped-def]
        results = [selftest.StepResult("search", "PASS", "5 hits", 0.1),
                   selftest.StepResult("window", "SKIP", "no display", 0.0),
                   selftest.StepResult("extractive answer", "FAIL", "empty answer", 0.1)]
        for result in results:
            out(result.line())
        return results

    monkeypatch.setattr(selftest, "run_self_test", run)
    assert selftest.main([]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("FAIL self-test: 1 passed, 1 skipped, 1 failed")
    assert "(extractive answer)" in last


def test_skipped_steps_alone_do_not_fail_the_self_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selftest, "run_self_test", lambda out, models_dir=None: [
        selftest.StepResult("search", "PASS", "", 0.1),
        selftest.StepResult("window", "SKIP", "no display", 0.0)])
    assert selftest.main([]) == 0
