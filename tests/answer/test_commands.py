"""CLI: `ask` and `models list|add|use|remove|mode`, run through their argparse parsers."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from desktop_app.answer import commands
from desktop_app.answer.models import BUNDLED_NAME
from desktop_app.answer.service import AnswerService
from desktop_app.app import App, build_app
from desktop_app.config.settings import load_settings
from desktop_app.errors import AppError, InvalidModelError, MissingModelError

from .conftest import FakeSearcher, ScriptedLLM, make_hit, write_gguf

HITS = [make_hit(1, doc="lgpd", title="LGPD", page=9, path="/docs/lgpd.pdf",
                 text="O titular pode pedir a correção. O prazo de resposta é de 15 dias."),
        make_hit(2, doc="ldb", title="LDB", page=3, page_end=4, path="/docs/ldb.pdf",
                 text="A educação básica é obrigatória.")]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="desktop-app")
    commands.register(p.add_subparsers(dest="command"))
    return p


def run(app: App, *argv: str) -> str:
    args = parser().parse_args(argv)
    out = io.StringIO()
    assert args.handler(args, app, out=out) == 0
    return out.getvalue()


@pytest.fixture
def app() -> App:
    app = build_app()
    app.settings.max_answer_tokens = 16
    app.answer_service = AnswerService(FakeSearcher(HITS), None, app.settings)  # type: ignore[misc]
    return app


def test_ask_without_llm_prints_badged_sentences_and_the_sources(app: App) -> None:
    text = run(app, "ask", "Qual é o prazo de resposta?", "--no-llm")
    assert "O prazo de resposta é de 15 dias [1]." in text
    assert "Sources:\n  [1] LGPD, p. 9 — /docs/lgpd.pdf" in text
    assert "(answered from sources only)" in text


def test_ask_json_prints_the_done_event(app: App) -> None:
    data = json.loads(run(app, "ask", "Qual é o prazo de resposta?", "--no-llm", "--json", "--k", "1"))
    assert data["sources_only"] is True
    assert [c["chunk_id"] for c in data["citations"]] == ["lgpd:1"]
    assert data["citations"][0]["legs"] == ["keyword", "vector"]
    assert data["trace"]["hits"][0]["chunk_id"] == "lgpd:1" and len(data["trace"]["hits"]) == 1


def test_ask_streams_model_tokens_and_reprints_when_verification_changed_them(app: App) -> None:
    llm = ScriptedLLM(["O prazo é de 15 dias [1]", ". A lua é de queijo [2]."])
    app.answer_service = AnswerService(FakeSearcher(HITS), llm, app.settings)  # type: ignore[misc]
    text = run(app, "ask", "Qual é o prazo?")
    assert text.startswith("O prazo é de 15 dias [1]. A lua é de queijo [2].")
    assert "Verified answer:\nO prazo é de 15 dias [1]. A lua é de queijo." in text
    assert "[1] LGPD, p. 9" in text and "LDB" not in text


def test_ask_with_a_model_path_validates_the_file(app: App, tmp_path: Path) -> None:
    with pytest.raises(MissingModelError):
        run(app, "ask", "q", "--model", str(tmp_path / "none.gguf"))
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"\x00" * 100)
    with pytest.raises(InvalidModelError):
        run(app, "ask", "q", "--model", str(junk))


def test_ask_with_a_small_model_file_answers_from_sources_and_says_why(
        app: App, smollm2_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = run(app, "ask", "Qual é o prazo de resposta?", "--model", str(smollm2_path))
    assert "O prazo de resposta é de 15 dias [1]." in text
    note = capsys.readouterr().err
    assert "from your sources" in note and "135M parameters" in note and "--experiment" in note


@pytest.mark.slow
def test_ask_with_the_real_model_file_as_an_experiment(app: App, smollm2_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    text = run(app, "ask", "What is the deadline?", "--model", str(smollm2_path), "--experiment")
    assert "answer mode: EXPERIMENT — written by SmolLM2-135M-Instruct.Q4_1" in capsys.readouterr().err
    # labelled as an experiment; or, when the model only echoed the prompt, the passages
    assert ("(experiment: written by a model too small" in text
            or "(model unavailable: the model wrote nothing usable)" in text)


def test_models_mode_shows_and_saves_the_override(app: App) -> None:
    assert "answer_mode: auto" in run(app, "models", "mode")
    text = run(app, "models", "mode", "written")
    assert "answer_mode: written" in text
    assert load_settings(app.paths.settings_file).answer_mode == "written"
    run(app, "models", "mode", "auto")


def test_models_list_shows_the_bundled_model_as_active(app: App) -> None:
    text = run(app, "models", "list")
    assert f"* {BUNDLED_NAME} (bundled)" in text
    assert "llama · 135M params · Q4_1 · 94 MB · ctx 8192 · chat template: yes" in text
    assert "too small to write answers (135M < 900M)" in text


def test_models_add_and_use_are_saved(app: App, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    base = write_gguf(tmp_path / "base-model.gguf", context_length=4096)
    with pytest.raises(InvalidModelError, match="--template"):
        run(app, "models", "add", str(base))
    assert not app.paths.settings_file.exists()
    text = run(app, "models", "add", str(base), "--name", "base", "--template", "chatml")
    assert "added base: llama · 128 params · F32" in text and "context 4096" in text
    assert "chosen by you" in capsys.readouterr().err
    run(app, "models", "use", "base")
    saved = load_settings(app.paths.settings_file)
    assert saved.active_model == "base"
    assert saved.models[0].chat_template == "chatml" and saved.models[0].path == str(base.resolve())
    assert "* base" in run(app, "models", "list")
    run(app, "models", "remove", "base")
    assert load_settings(app.paths.settings_file).models == []


def test_models_use_refuses_a_model_whose_file_is_gone(app: App, tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "m.gguf", template="x")
    run(app, "models", "add", str(model), "--name", "m")
    model.unlink()
    with pytest.raises(MissingModelError):
        run(app, "models", "use", "m")
    assert load_settings(app.paths.settings_file).active_model == ""
    with pytest.raises(AppError, match="No model named"):
        run(app, "models", "use", "other")
