"""The answer-mode policy: who writes the answer, decided from the model's real size.

Real GGUF headers throughout: the bundled SmolLM2 (135M) and "big" models written
here as sparse files (a real header and tensor table declaring billions of weights;
the data area is a hole on disk, so nothing is allocated and nothing is loaded).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from desktop_app.answer import mode as answer_mode
from desktop_app.answer.events import Done, WarningCode
from desktop_app.answer.gguf_info import read_gguf_info
from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
from desktop_app.answer.llm import MIN_WRITING_PARAMETERS, Capability, build_llm_or_none
from desktop_app.answer.mode import decide_mode, describe_mode
from desktop_app.answer.service import AnswerService
from desktop_app.config.settings import ModelEntry, Settings
from desktop_app.errors import InvalidModelError

from .conftest import FakeSearcher, ScriptedLLM, make_hit

HITS = [make_hit(1, text="O titular pode pedir a correção. O prazo de resposta é de 15 dias.")]
HUGE_RAM = 1 << 42  # the sparse models must not be refused for this machine's memory


def write_sparse_gguf(path: Path, parameters: int) -> Path:
    """A GGUF whose tensor table declares `parameters` Q4_0 weights; data is a sparse hole."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name(path.stem)
    writer.add_context_length(32768)
    writer.add_chat_template("{% for m in messages %}{{ m['content'] }}{% endfor %}")
    rows = parameters // 4096
    nbytes = rows * 4096 // 32 * 18  # Q4_0: 18 bytes per block of 32
    writer.add_tensor_info("token_embd.weight", (rows, 4096), np.dtype(np.float32), nbytes,
                           raw_dtype=gguf.GGMLQuantizationType.Q4_0)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    end = path.stat().st_size
    os.truncate(path, -(-end // 32) * 32 + nbytes)
    return path


@pytest.fixture
def big_gguf(tmp_path: Path) -> Path:
    return write_sparse_gguf(tmp_path / "qwen2.5-3b-instruct-q4_0.gguf", 3_085_938_688)


@dataclass
class SizedLLM(ScriptedLLM):
    """A scripted model that reports a size, like the real backends do."""

    parameters: int | None = None

    def capability(self) -> Capability:
        return Capability(self.parameters, "test")


def test_the_bundled_smollm2_is_below_the_line_and_a_3b_model_above(
        smollm2_path: Path, big_gguf: Path) -> None:
    small = LlamaCppLLM(smollm2_path)
    big = LlamaCppLLM(big_gguf, ram_bytes=HUGE_RAM)
    assert small.capability().parameters == 134_515_008 < MIN_WRITING_PARAMETERS
    assert not small.capability().can_write
    assert read_gguf_info(big_gguf).parameter_count == 3_085_938_688 // 4096 * 4096
    assert big.capability().can_write and big.capability().basis == "GGUF tensor table"
    assert small._llama is None and big._llama is None  # decided from headers, nothing loaded


def test_a_fresh_install_answers_from_sources_and_says_why(smollm2_path: Path) -> None:
    settings = Settings()  # the bundled model is the active one
    llm, error = build_llm_or_none(settings)
    assert isinstance(llm, LlamaCppLLM) and error is None
    mode = decide_mode(llm, settings)
    assert not mode.use_llm and mode.reason == answer_mode.TOO_SMALL and mode.needs_model
    assert mode.parameters == 134_515_008 and not mode.experiment
    line = describe_mode(mode)
    assert "from your sources" in line and "135M" in line and "models add" in line


def test_adding_a_capable_gguf_makes_written_answers_the_default(
        smollm2_path: Path, big_gguf: Path) -> None:
    settings = Settings(models=[ModelEntry("qwen3b", str(big_gguf))], active_model="qwen3b")
    big = LlamaCppLLM(big_gguf, ram_bytes=HUGE_RAM, name="qwen3b")
    mode = decide_mode(big, settings)
    assert mode.use_llm and mode.reason == answer_mode.CAPABLE and not mode.experiment
    assert describe_mode(mode) == "answer mode: written by qwen3b (3.1B parameters)"


@pytest.mark.parametrize(("setting", "use_llm", "reason", "experiment"), [
    ("auto", False, answer_mode.TOO_SMALL, False),
    ("written", True, answer_mode.OVERRIDE, True),
    ("sources", False, answer_mode.SOURCES_SETTING, False),
    ("nonsense", False, answer_mode.TOO_SMALL, False),  # an unknown value behaves as auto
])
def test_the_user_override_for_a_small_model(setting: str, use_llm: bool, reason: str,
                                             experiment: bool) -> None:
    small = SizedLLM([], parameters=134_515_008)
    mode = decide_mode(small, Settings(answer_mode=setting))
    assert (mode.use_llm, mode.reason, mode.experiment) == (use_llm, reason, experiment)


def test_the_user_can_also_keep_a_capable_model_from_writing() -> None:
    big = SizedLLM([], parameters=7_000_000_000)
    assert decide_mode(big, Settings(answer_mode="sources")).reason == answer_mode.SOURCES_SETTING
    assert decide_mode(big, Settings(sources_only=True)).reason == answer_mode.SOURCES_SETTING
    assert decide_mode(big, Settings(), sources_only=True).reason == answer_mode.SOURCES_REQUEST
    assert decide_mode(big, Settings(answer_mode="written")).reason == answer_mode.CAPABLE


def test_one_question_can_be_an_experiment_with_the_small_model() -> None:
    small = SizedLLM([], parameters=134_515_008)
    mode = decide_mode(small, Settings(), experiment=True)
    assert mode.use_llm and mode.experiment and mode.reason == answer_mode.EXPERIMENT
    assert "EXPERIMENT" in describe_mode(mode)
    # the per-question sources-only request wins over everything
    assert not decide_mode(small, Settings(), sources_only=True, experiment=True).use_llm


def test_a_model_of_unknown_size_that_the_user_picked_is_trusted() -> None:
    mode = decide_mode(ScriptedLLM([]), Settings())
    assert mode.use_llm and mode.reason == answer_mode.CAPABLE and mode.parameters is None


def test_no_model_and_a_broken_chosen_model_are_told_apart(tmp_path: Path) -> None:
    assert decide_mode(None, Settings(llm_backend="none")).reason == answer_mode.SOURCES_SETTING
    chosen = Settings(models=[ModelEntry("m", str(tmp_path / "gone.gguf"))], active_model="m")
    llm, error = build_llm_or_none(chosen)
    broken = decide_mode(llm, chosen, llm_error=error)
    assert broken.reason == answer_mode.MODEL_ERROR and "gone.gguf" in broken.detail
    # the bundled default missing is not an error the user made: just "no model"
    missing_bundled = decide_mode(None, Settings(), llm_error=InvalidModelError("not installed"))
    assert missing_bundled.reason == answer_mode.NO_MODEL and missing_bundled.needs_model


def test_the_service_exposes_the_decision_and_never_uses_a_small_model_for_anything() -> None:
    small = SizedLLM(["texto [1]."], json_reply={"query": "prazo de correção"},
                     parameters=134_515_008)
    service = AnswerService(FakeSearcher(HITS), small, Settings())
    assert service.use_llm is False and service.mode().reason == answer_mode.TOO_SMALL
    history = [{"role": "user", "content": "O que diz a LGPD sobre correção?"},
               {"role": "assistant", "content": "Permite a correção [1]."}]
    done = list(service.ask("E o prazo?", history=history))[-1]
    assert isinstance(done, Done) and done.sources_only
    assert small.calls == []  # neither the answer nor the follow-up rewrite used it
    assert done.trace["answer_mode"]["reason"] == answer_mode.TOO_SMALL
    assert done.answer_mode == service.mode()  # the typed answer carries the same decision
    # the follow-up was rewritten without any model (the user's words + earlier topic words)
    assert done.trace["rewrite"]["method"] == "model-free"
    assert done.searched_for == done.trace["rewritten_query"] != "E o prazo?"
    assert not done.warned(WarningCode.MODEL_UNAVAILABLE)


def test_a_capable_model_writes_and_rewrites() -> None:
    big = SizedLLM(["O prazo é de 15 dias [1]."], json_reply={"query": "prazo de correção"},
                   parameters=3_000_000_000)
    service = AnswerService(FakeSearcher(HITS), big, Settings())
    assert service.use_llm is True
    history = [{"role": "user", "content": "LGPD?"}, {"role": "assistant", "content": "Sim [1]."}]
    done = list(service.ask("E o prazo?", history=history))[-1]
    assert isinstance(done, Done) and not done.sources_only
    assert [kind for kind, _ in big.calls] == ["complete_json", "stream_chat"]
    assert done.answer == "O prazo é de 15 dias [1]." and done.warnings == ()


def test_an_experiment_answer_is_labelled() -> None:
    small = SizedLLM(["O prazo é de 15 dias [1]."], parameters=134_515_008)
    done = list(AnswerService(FakeSearcher(HITS), small, Settings()).ask(
        "Qual é o prazo?", experiment=True))[-1]
    assert isinstance(done, Done) and not done.sources_only
    assert done.warned(WarningCode.EXPERIMENT)
    assert done.trace["answer_mode"]["experiment"] is True


def test_an_experiment_does_not_let_the_small_model_rewrite_follow_ups() -> None:
    small = SizedLLM(["O prazo é de 15 dias [1]."], json_reply={"query": "algo inventado"},
                     parameters=134_515_008)
    history = [{"role": "user", "content": "LGPD?"}, {"role": "assistant", "content": "Sim [1]."}]
    done = list(AnswerService(FakeSearcher(HITS), small, Settings()).ask(
        "E o prazo?", history=history, experiment=True))[-1]
    assert isinstance(done, Done)
    assert [kind for kind, _ in small.calls] == ["stream_chat"]
    assert done.trace["rewritten_query"] != "algo inventado"


def test_adding_a_capable_gguf_from_the_cli_makes_it_the_active_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from desktop_app.answer import commands
    from desktop_app.app import build_app

    app = build_app()
    big = write_sparse_gguf(tmp_path / "qwen2.5-3b-instruct-q4_0.gguf", 3_085_938_688)
    parser = argparse.ArgumentParser()
    commands.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["models", "add", str(big)])
    assert args.handler(args, app) == 0
    out = capsys.readouterr().out
    assert "writes answers" in out and "active model: qwen2.5-3b-instruct-q4_0" in out
    assert app.settings.active_model == "qwen2.5-3b-instruct-q4_0"
    # a second capable model does not displace the first: the user chooses (models use)
    other = write_sparse_gguf(tmp_path / "gemma-3-4b-it-q4_0.gguf", 3_880_000_000)
    args = parser.parse_args(["models", "add", str(other)])
    assert args.handler(args, app) == 0
    assert app.settings.active_model == "qwen2.5-3b-instruct-q4_0"


@pytest.mark.slow
def test_a_fresh_install_asked_from_the_cli_answers_from_sources_with_badges(
        embedder, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    """First start, default settings, the real index and the real answer service: the
    bundled SmolLM2 is the active model, yet it is never loaded and never writes."""
    import argparse
    import json

    from desktop_app.answer import commands
    from desktop_app.app import build_app
    from desktop_app.config.paths import resource

    app = build_app(embedder=embedder)
    list(app.pipeline.run([resource("samples") / "lgpd-excerpt.pdf"]))
    parser = argparse.ArgumentParser()
    commands.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["ask", "Quais são os direitos do titular dos dados?"])
    assert args.handler(args, app) == 0
    out, err = capsys.readouterr()
    assert err.startswith("answer mode: from your sources — smollm2-135m-instruct (135M "
                          "parameters) is too small to write answers")
    assert "[1]" in out and "\nSources:\n  [1] " in out
    args = parser.parse_args(["ask", "Quais são os direitos do titular dos dados?", "--json"])
    assert args.handler(args, app) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sources_only"] and data["citations"]
    assert data["trace"]["answer_mode"]["reason"] == "too_small"
    assert data["trace"]["llm"] is None
    llm = app.llm
    assert isinstance(llm, LlamaCppLLM) and llm._llama is None  # never loaded: no model text


def test_the_mode_passed_in_is_the_one_used_and_not_decided_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.answer import service as service_module

    big = SizedLLM(["O prazo é de 15 dias [1]."], parameters=3_000_000_000)
    service = AnswerService(FakeSearcher(HITS), big, Settings())
    chosen = service.mode(sources_only=True)
    decided: list[object] = []
    monkeypatch.setattr(service_module, "decide_mode",
                        lambda *a, **kw: decided.append(a) or chosen)
    done = list(service.ask("Qual é o prazo?", sources_only=True, mode=chosen))[-1]
    assert isinstance(done, Done) and done.sources_only and big.calls == []
    assert decided == [] and done.answer_mode is chosen
    assert done.searched_for == ""  # a first question is searched as typed
