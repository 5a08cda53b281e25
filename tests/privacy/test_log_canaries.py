"""Seeded canaries pushed through every logging path never reach the log files.

Each test also checks that its marker did arrive, so an empty log cannot pass.
"""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest
from privacy_canaries import CANARIES, canary_line, leaked_canaries, read_logs

from desktop_app.privacy.logsetup import (
    DROPPED,
    LoggingHandle,
    install_logging,
    prune_old_logs,
)

REPO = Path(__file__).resolve().parents[2]


def _written(handle: LoggingHandle, log_dir: Path) -> str:
    handle.shutdown()
    return read_logs(log_dir)


def test_message_text(sanitized_logging: LoggingHandle, log_dir: Path):
    logging.getLogger("acervo.test").info(canary_line("path-message"))
    logs = _written(sanitized_logging, log_dir)
    assert "[path-message] cliente <PERSON>, CPF <CPF>, CNPJ <CNPJ>" in logs
    assert ("RELATOR: MINISTRO <PERSON>; endereço <ADDRESS>; título de eleitor <TITULO_ELEITOR>"
            in logs)  # an ALL-CAPS name, an address and a labelled título de eleitor
    assert leaked_canaries(logs) == []


def test_message_arguments(sanitized_logging: LoggingHandle, log_dir: Path):
    c = CANARIES
    logging.getLogger("acervo.test").warning(
        "[path-args] %s %s %s %s %s %s senha=%s /home/%s/x; AGRAVANTE: %s; residente na %s; "
        "título eleitoral %s", c["name"], c["cpf"], c["cnpj"], c["cnpj_alphanumeric"], c["email"],
        c["phone"], c["password"], c["home_user"], c["name_all_caps"], c["address"],
        c["voter_id"])
    logs = _written(sanitized_logging, log_dir)
    assert "[path-args]" in logs
    assert leaked_canaries(logs) == []


def test_exception_chains_notes_and_stack(sanitized_logging: LoggingHandle, log_dir: Path):
    log = logging.getLogger("acervo.test")
    try:
        try:
            try:
                raise KeyError(canary_line("inner"))
            except KeyError:
                raise OSError(f"implicit context {CANARIES['email']}")  # noqa: B904
        except OSError as context:
            error = ValueError(f"explicit cause for {CANARIES['cpf']}")
            error.add_note(canary_line("note"))
            raise error from context
    except ValueError:
        log.exception("[path-exception] failed for %s", CANARIES["name"], stack_info=True)
    logs = _written(sanitized_logging, log_dir)
    assert "[path-exception]" in logs and "KeyError" in logs and "[note]" in logs
    assert "The above exception was the direct cause" in logs and "Stack (most recent" in logs
    assert leaked_canaries(logs) == []


def test_warnings(sanitized_logging: LoggingHandle, log_dir: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn(canary_line("path-warning"), UserWarning, stacklevel=1)
    logs = _written(sanitized_logging, log_dir)
    assert "[path-warning]" in logs and "py.warnings" in logs
    assert leaked_canaries(logs) == []


def test_uncaught_exception_in_a_worker_thread(sanitized_logging: LoggingHandle, log_dir: Path):
    def work() -> None:
        raise RuntimeError(canary_line("path-thread"))

    worker = threading.Thread(target=work, name="worker-1")
    worker.start()
    worker.join()
    logs = _written(sanitized_logging, log_dir)
    assert "Uncaught exception in thread worker-1" in logs and "[path-thread]" in logs
    assert leaked_canaries(logs) == []


@pytest.mark.slow  # over a second: the full tier only
def test_unraisable_exception(sanitized_logging: LoggingHandle, log_dir: Path):
    class Leaky:
        def __del__(self) -> None:
            raise RuntimeError(canary_line("path-unraisable"))

    Leaky()
    gc.collect()
    logs = _written(sanitized_logging, log_dir)
    assert "[path-unraisable]" in logs
    assert leaked_canaries(logs) == []


def _install_in_test_body(log_dir: Path, sanitizer) -> LoggingHandle:
    # pytest re-points sys.stderr at its capture when the test body starts,
    # so stderr capture must be installed from inside the test body.
    return install_logging(log_dir, sanitize=sanitizer.sanitize, console_level=None)


def test_stray_stderr_writes(log_dir: Path, sanitizer):
    handle = _install_in_test_body(log_dir, sanitizer)
    sys.stderr.write(canary_line("path-stderr-write") + "\n")
    print(canary_line("path-print"), file=sys.stderr)
    sys.stderr.write("partial line without newline " + CANARIES["email"])
    logs = _written(handle, log_dir)
    assert "[path-stderr-write]" in logs and "[path-print]" in logs
    assert "partial line without newline <EMAIL>" in logs
    assert leaked_canaries(logs) == []


def test_third_party_loggers_and_their_own_handlers(log_dir: Path, sanitizer):
    handle = _install_in_test_body(log_dir, sanitizer)
    logging.getLogger("urllib3.connectionpool").warning(canary_line("path-third-party"))
    library = logging.getLogger("some_library")
    library.addHandler(logging.StreamHandler())  # a library's own stderr handler
    library.propagate = False
    try:
        library.error(canary_line("path-library-handler"))
    finally:
        library.handlers.clear()
        library.propagate = True
    logs = _written(handle, log_dir)
    assert "[path-third-party]" in logs and "[path-library-handler]" in logs
    assert leaked_canaries(logs) == []


def test_presidio_debug_output_never_reaches_the_file(sanitized_logging: LoggingHandle,
                                                      log_dir: Path):
    logging.getLogger("presidio-analyzer").info("[path-presidio-info] %s", CANARIES["email"])
    logging.getLogger("decision_process").warning("[path-decision] traced text")
    logs = _written(sanitized_logging, log_dir)
    assert "[path-presidio-info]" not in logs and "[path-decision]" not in logs


def test_unlabelled_numbers_with_wrong_check_digits_stay_readable(
        sanitized_logging: LoggingHandle, log_dir: Path):
    line = "[path-ids] pedido 123.456.789-00, protocolo 00015-01009853/2026-01, nota 12.345.678/0001-00"
    logging.getLogger("acervo.test").info(line)
    assert line in _written(sanitized_logging, log_dir)


def test_fails_closed_when_the_sanitizer_raises(log_dir: Path):
    def broken(text: str) -> str:
        raise RuntimeError("sanitizer bug")

    handle = install_logging(log_dir, sanitize=broken, console_level=None)
    logging.getLogger("acervo.test").error(canary_line("path-broken"))
    logs = _written(handle, log_dir)
    assert DROPPED.format(error="RuntimeError") in logs
    assert "[path-broken]" not in logs and leaked_canaries(logs) == []


@pytest.mark.slow
def test_uncaught_exception_in_the_main_thread_is_flushed_at_exit(tmp_path: Path):
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from desktop_app.privacy.logsetup import install_logging\n"
        "install_logging(Path(sys.argv[1]), console_level=None)\n"
        f"raise SystemError({canary_line('path-main-crash')!r})\n"
    )
    log_dir = tmp_path / "crash-logs"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", script, str(log_dir)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    logs = read_logs(log_dir)
    assert "CRITICAL acervo.crash" in logs and "[path-main-crash]" in logs
    assert leaked_canaries(logs) == []
    assert leaked_canaries(done.stderr) == []  # nothing raw on the terminal either


def test_rotation_keeps_every_file_sanitized(log_dir: Path, sanitizer):
    handle = install_logging(log_dir, max_bytes=2_000, backup_count=3,
                             sanitize=sanitizer.sanitize, console_level=None)
    for i in range(40):
        logging.getLogger("acervo.test").info(canary_line(f"rotation-{i}"))
    logs = _written(handle, log_dir)
    assert len(list(log_dir.glob("acervo.log*"))) == 4
    assert "[rotation-39]" in logs and leaked_canaries(logs) == []


def test_old_log_files_are_deleted_at_start_up(log_dir: Path, sanitizer):
    log_dir.mkdir(parents=True)
    old, recent = log_dir / "acervo.log.3", log_dir / "acervo.log.1"
    old.write_text("old\n")
    recent.write_text("recent\n")
    month_ago = time.time() - 30 * 86_400
    os.utime(old, (month_ago, month_ago))
    handle = install_logging(log_dir, retention_days=14, sanitize=sanitizer.sanitize,
                             console_level=None)
    handle.shutdown()
    assert not old.exists() and recent.exists()
    assert prune_old_logs(log_dir, 0) == []  # 0 disables retention


def test_shutdown_restores_the_process_state(log_dir: Path, sanitizer):
    before = (sys.stderr, sys.excepthook, threading.excepthook, sys.unraisablehook,
              list(logging.getLogger().handlers))
    handle = install_logging(log_dir, sanitize=sanitizer.sanitize, console_level=None)
    assert sys.stderr is not before[0] and sys.excepthook is not before[1]
    handle.shutdown()
    after = (sys.stderr, sys.excepthook, threading.excepthook, sys.unraisablehook,
             list(logging.getLogger().handlers))
    assert after == before
