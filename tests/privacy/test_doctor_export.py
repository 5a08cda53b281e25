"""`doctor` and `logs export`: zero outbound attempts, sanitized bundles, the LLM-pass hook."""

from __future__ import annotations

import argparse
import logging
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from privacy_canaries import CANARIES, canary_line, leaked_canaries

from desktop_app.config.paths import app_paths
from desktop_app.config.settings import Settings
from desktop_app.privacy import commands
from desktop_app.privacy.airgap import apply_offline_environment
from desktop_app.privacy.doctor import format_report, run_doctor
from desktop_app.privacy.export import export_support_bundle
from desktop_app.privacy.logsetup import install_logging


@pytest.fixture
def app(sanitizer):
    """What the commands use of `desktop_app.app.App`: paths, settings (and a sanitizer)."""
    return SimpleNamespace(paths=app_paths().ensure(), settings=Settings(), sanitizer=sanitizer)


def _cli(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="desktop-app")
    commands.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_doctor_reports_models_index_flags_and_zero_outbound_attempts(app, sanitizer):
    apply_offline_environment()
    (app.paths.models_dir / "e5-small").mkdir(parents=True)
    (app.paths.models_dir / "e5-small" / "model.safetensors").write_bytes(b"\0" * 4096)
    (app.paths.index_dir / "chunks.lance").mkdir(parents=True)
    handle = install_logging(app.paths.log_dir, sanitize=sanitizer.sanitize, console_level=None)
    try:
        report = run_doctor(app, sanitize=sanitizer.sanitize, deep=True)
    finally:
        handle.shutdown()
    text = format_report(report)
    assert "e5-small: 4.0 KB" in text
    assert "table chunks:" in text
    assert "HF_HUB_OFFLINE='1'" in text and "huggingface_hub offline mode in effect: True" in text
    assert "sanitizer self-test: 8/8 canaries redacted" in text
    assert "0 during the self-check" in text
    assert "transformers config load in offline mode: raised OSError" in text
    assert report.problems == []


def test_doctor_flags_missing_switches_and_uninstalled_logging(app, sanitizer,
                                                               monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    report = run_doctor(app, sanitize=sanitizer.sanitize, deep=False)
    assert not report.ok
    assert any("HF_HUB_OFFLINE" in p for p in report.problems)
    assert "logging is not routed through the sanitizer" in report.problems


def test_doctor_command_exit_code(app, capsys):
    apply_offline_environment()
    handle = install_logging(app.paths.log_dir, sanitize=app.sanitizer.sanitize,
                             console_level=None)
    try:
        args = _cli(["doctor", "--quick"])
        assert args.handler(args, app) == 0
    finally:
        handle.shutdown()
    assert "OK: offline and sanitized" in capsys.readouterr().out


def test_logs_export_writes_a_sanitized_zip_with_the_doctor_report(app, tmp_path: Path):
    app.paths.log_dir.mkdir(parents=True, exist_ok=True)
    # A file written raw (by an older version, say): the export sanitizes it again.
    (app.paths.log_dir / "acervo.log.1").write_text(canary_line("old-raw-file") + "\n")
    handle = install_logging(app.paths.log_dir, sanitize=app.sanitizer.sanitize,
                             console_level=None)
    logging.getLogger("acervo.test").info(canary_line("current-file"))
    handle.shutdown()
    destination = tmp_path / "support.zip"
    args = _cli(["logs", "export", str(destination)])
    assert args.handler(args, app) == 0
    with zipfile.ZipFile(destination) as bundle:
        names = set(bundle.namelist())
        content = "".join(bundle.read(n).decode() for n in names)
    assert names == {"doctor.txt", "logs/acervo.log", "logs/acervo.log.1"}
    assert "[old-raw-file]" in content and "[current-file]" in content
    assert leaked_canaries(content) == []


def test_llm_pass_sees_only_pattern_sanitized_text_and_is_off_by_default(sanitizer,
                                                                        tmp_path: Path):
    log_dir = tmp_path / "logs"
    log_dir.mkdir()
    (log_dir / "acervo.log").write_text(canary_line("llm") + "\nmeu segredo é a cor azul\n")
    seen: list[str] = []

    def llm_pass(text: str) -> str:
        seen.append(text)
        return text.replace("a cor azul", "<SECRET>")

    plain = export_support_bundle(log_dir, tmp_path / "plain.txt", sanitizer.sanitize)
    assert not plain.llm_pass_applied
    assert "a cor azul" in (tmp_path / "plain.txt").read_text()

    summary = export_support_bundle(log_dir, tmp_path / "llm.txt", sanitizer.sanitize,
                                    llm_pass=llm_pass)
    assert summary.llm_pass_applied
    assert seen and leaked_canaries("".join(seen)) == []
    assert "meu segredo é <SECRET>" in (tmp_path / "llm.txt").read_text()


def test_a_failing_llm_pass_keeps_the_pattern_sanitized_text(sanitizer, tmp_path: Path):
    log_dir = tmp_path / "logs"
    log_dir.mkdir()
    (log_dir / "acervo.log").write_text(f"e-mail {CANARIES['email']}\n")

    def broken(text: str) -> str:
        raise TimeoutError("model busy")

    summary = export_support_bundle(log_dir, tmp_path / "out.txt", sanitizer.sanitize,
                                    llm_pass=broken)
    assert not summary.llm_pass_applied
    assert summary.problems == ["acervo.log: LLM pass failed (TimeoutError); "
                                "pattern-sanitized text kept"]
    assert "e-mail <EMAIL>" in (tmp_path / "out.txt").read_text()


def test_logs_export_llm_flag_without_an_llm_is_a_clear_error(app, tmp_path: Path):
    from desktop_app.errors import AppError

    args = _cli(["logs", "export", str(tmp_path / "x.zip"), "--llm-pass", "--no-doctor"])
    with pytest.raises(AppError, match="LLM pass"):
        args.handler(args, app)


def test_the_llm_redactor_masks_and_refuses_a_reply_that_is_not_the_excerpt() -> None:
    from desktop_app.privacy.export import llm_redactor

    class Scripted:  # a scripted model: what it answers is the point of the test
        def __init__(self, reply: str) -> None:
            self.reply = reply

        def complete_json(self, messages, schema, *, max_tokens=256):  # type: ignore[no-untyped-def]
            assert "meu segredo é a cor azul" in messages[0]["content"]
            return {"text": self.reply}

    text = "12:00 INFO meu segredo é a cor azul"
    assert llm_redactor(Scripted("12:00 INFO meu segredo é <SECRET>"))(text) == \
        "12:00 INFO meu segredo é <SECRET>"
    with pytest.raises(ValueError):
        llm_redactor(Scripted("ok"))(text)


def test_logs_export_llm_pass_runs_the_apps_model_from_the_cli(
        acervo_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`logs export --llm-pass` reaches the model the composition root built (a real App)."""
    from desktop_app.app import build_app

    class Masking:  # a scripted model that masks a secret the patterns cannot know
        name, n_ctx = "scripted", 4096

        def complete_json(self, messages, schema, *, max_tokens=256):  # type: ignore[no-untyped-def]
            text = messages[0]["content"].split("\n\n", 1)[1]
            return {"text": text.replace("azul-turquesa", "<SECRET>")}

    app = build_app(settings=Settings(llm_backend="none"), llm=Masking())  # type: ignore[arg-type]
    try:
        (app.paths.log_dir / "acervo.log").write_text(
            "12:00 INFO a senha do cofre é azul-turquesa\n", encoding="utf-8")
        args = _cli(["logs", "export", str(tmp_path / "x.zip"), "--llm-pass", "--no-doctor"])
        assert args.handler(args, app) == 0
        assert "+ LLM pass" in capsys.readouterr().out
        with zipfile.ZipFile(tmp_path / "x.zip") as bundle:
            exported = bundle.read("logs/acervo.log").decode()
        assert "azul-turquesa" not in exported and "<SECRET>" in exported
    finally:
        app.close()
