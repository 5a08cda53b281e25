"""The llama.cpp backend on the real bundled SmolLM2: machinery only (streaming,
constrained JSON, cancellation, token counts) — never its wording — and every
way a model file can be unusable."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.answer.gguf_info import read_gguf_info
from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
from desktop_app.answer.llm import LLM, build_llm, build_llm_or_none
from desktop_app.answer.rewrite import REWRITE_SCHEMA
from desktop_app.config.settings import ModelEntry, Settings
from desktop_app.errors import InvalidModelError, MissingModelError

from .conftest import truncated_copy, write_gguf

MESSAGES = [{"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "Name three colours."}]


def test_it_is_an_llm(smollm2: LlamaCppLLM) -> None:
    assert isinstance(smollm2, LLM)
    assert smollm2.n_ctx == 2048 and smollm2.name == "SmolLM2-135M-Instruct.Q4_1"


def test_it_streams_several_pieces(smollm2: LlamaCppLLM) -> None:
    pieces = list(smollm2.stream_chat(MESSAGES, max_tokens=12, temperature=0.0))
    assert len(pieces) >= 2
    assert all(isinstance(p, str) and p for p in pieces)
    assert "".join(pieces).strip()


def test_cancel_stops_generation(smollm2: LlamaCppLLM) -> None:
    seen: list[str] = []
    for piece in smollm2.stream_chat(MESSAGES, max_tokens=64, temperature=0.0,
                                     cancel=lambda: len(seen) >= 3):
        seen.append(piece)
    assert len(seen) == 3
    # the model is free again afterwards (the lock was released)
    assert smollm2.count_tokens("ok") >= 1


def test_abandoning_a_stream_releases_the_model(smollm2: LlamaCppLLM) -> None:
    stream = smollm2.stream_chat(MESSAGES, max_tokens=64, temperature=0.0)
    next(stream)
    stream.close()
    assert smollm2.count_tokens("still usable") >= 2


@pytest.mark.slow
def test_constrained_json_parses_and_follows_the_schema(smollm2: LlamaCppLLM) -> None:
    messages = [{"role": "system", "content": "Rewrite the question as a search query in JSON."},
                {"role": "user", "content": "And what about its deadline?"}]
    result = smollm2.complete_json(messages, REWRITE_SCHEMA, max_tokens=160)
    assert isinstance(result, dict)
    assert isinstance(result["query"], str) and result["query"]
    assert set(result) <= {"query", "filters"}


def test_token_counts_come_from_the_model_tokenizer(smollm2: LlamaCppLLM) -> None:
    text = "O titular dos dados pessoais tem direito de obter do controlador"
    assert smollm2.count_tokens(text) == len(smollm2.llama.tokenize(text.encode(), add_bos=False))
    assert smollm2.count_tokens(text * 2) > smollm2.count_tokens(text)


def test_the_context_is_capped_at_what_the_model_was_trained_for(smollm2_path: Path) -> None:
    llm = LlamaCppLLM(smollm2_path, n_ctx=100_000)
    assert llm.n_ctx == read_gguf_info(smollm2_path).context_length == 8192


def test_a_missing_file_says_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(MissingModelError, match="not found") as err:
        LlamaCppLLM(tmp_path / "gone.gguf")
    assert "gone.gguf" in err.value.user_message


def test_a_file_that_is_not_gguf_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04 this is a zip, not a model" * 10)
    with pytest.raises(InvalidModelError, match="not a GGUF"):
        LlamaCppLLM(fake)


def test_a_truncated_download_is_refused(smollm2_path: Path, tmp_path: Path) -> None:
    cut = truncated_copy(smollm2_path, tmp_path / "cut.gguf", 20 * 1024 * 1024)
    with pytest.raises(InvalidModelError, match="incomplete"):
        LlamaCppLLM(cut)


def test_a_model_too_big_for_the_memory_is_refused_before_loading(smollm2_path: Path) -> None:
    with pytest.raises(InvalidModelError, match="memory"):
        LlamaCppLLM(smollm2_path, ram_bytes=64 * 1024 * 1024)


def test_a_gguf_without_template_needs_an_explicit_choice(tmp_path: Path) -> None:
    bare = write_gguf(tmp_path / "base.gguf")
    with pytest.raises(InvalidModelError, match="chat template"):
        LlamaCppLLM(bare)
    assert LlamaCppLLM(bare, chat_template="chatml").template_warnings


def test_weights_that_llama_cpp_cannot_load_fail_on_first_use_with_a_clear_error(
        tmp_path: Path) -> None:
    broken = write_gguf(tmp_path / "hollow.gguf", template="{{ messages }}")
    llm = LlamaCppLLM(broken)  # the header is fine; the tensors are not a model
    with pytest.raises(InvalidModelError, match="could not load"):
        llm.count_tokens("x")


def test_build_llm_follows_the_settings(smollm2_path: Path, tmp_path: Path) -> None:
    assert build_llm(Settings(llm_backend="none")) is None
    default = build_llm(Settings())
    assert isinstance(default, LlamaCppLLM) and default.path == smollm2_path
    missing = Settings(models=[ModelEntry("big", str(tmp_path / "big.gguf"))], active_model="big")
    llm, error = build_llm_or_none(missing)
    assert llm is None and isinstance(error, MissingModelError)
    override = build_llm(Settings(llm_backend="none"), model_path=str(smollm2_path))
    assert isinstance(override, LlamaCppLLM)


def long_prompt(llm: LlamaCppLLM, tokens: int) -> list[dict[str, str]]:
    """A real-sized RAG prompt: the LGPD sample's text repeated to about `tokens` tokens."""
    from desktop_app.config.paths import resource

    text = (resource("samples") / "faq-lgpd.md").read_text(encoding="utf-8")
    body = text
    while llm.count_tokens(body) < tokens:
        body += "\n\n" + text
    return [{"role": "system", "content": "Answer from the sources only."},
            {"role": "user", "content": body + "\n\nQual é o prazo de resposta?"}]


@pytest.mark.slow
def test_stop_interrupts_prompt_processing(smollm2_path: Path) -> None:
    """Stop during the long silent phase (the model reading its prompt, ~50 tokens/s on
    these cores: a 3,000-token prompt is about a minute). The cancel check turns true
    after 0.5 s; the call must return without processing the whole prompt. How fast
    it returns is measured by bench/stop.py (bench/results/stop.json)."""
    import time

    llm = LlamaCppLLM(smollm2_path, n_ctx=4096)
    messages = long_prompt(llm, 3000)
    prompt_tokens = llm.count_tokens(messages[1]["content"])
    assert llm.abortable
    started = time.perf_counter()
    pieces = list(llm.stream_chat(messages, max_tokens=32, temperature=0.0,
                                  cancel=lambda: time.perf_counter() - started > 0.5))
    assert pieces == []
    # returned before the prompt was read: llama.cpp kept only the batches it finished
    assert llm.llama.n_tokens < prompt_tokens
    # and the model is fine afterwards
    assert "".join(llm.stream_chat(MESSAGES, max_tokens=8, temperature=0.0)).strip()
    llm.close()


@pytest.mark.slow  # over a second: the full tier only
def test_accented_text_streams_whole_even_when_characters_span_tokens(
        smollm2: LlamaCppLLM) -> None:
    """llama.cpp detokenizes per token and some Portuguese characters are two byte-tokens
    (" ó" = b" \\xc3" + b"\\xb3" for SmolLM2): the stream must carry whole characters."""
    tokens = smollm2.llama.tokenize(" órgão".encode(), add_bos=False)
    assert [smollm2.llama.detokenize([t]) for t in tokens][:2] == [b" \xc3", b"\xb3"]
    messages = [{"role": "user", "content": "Repita: ação, informação, órgão, você, país."}]
    pieces = list(smollm2.stream_chat(messages, max_tokens=40, temperature=0.0))
    whole = smollm2.llama.create_chat_completion(messages=messages, max_tokens=40,
                                                 temperature=0.0, repeat_penalty=1.1)
    text = "".join(pieces)
    assert "órgão" in text and "\ufffd" not in text  # " ó" came as two byte-tokens
    assert text == whole["choices"][0]["message"]["content"]


@pytest.mark.slow
def test_stop_also_interrupts_a_structured_call(smollm2_path: Path) -> None:
    """The follow-up rewrite (constrained JSON) is interruptible the same way."""
    import time

    from desktop_app.answer.llm import with_cancel
    from desktop_app.errors import AppError

    llm = LlamaCppLLM(smollm2_path, n_ctx=4096)
    messages = long_prompt(llm, 3000)
    started = time.perf_counter()
    with pytest.raises(AppError, match="Cancelled"):
        with_cancel(llm, lambda: time.perf_counter() - started > 0.5).complete_json(
            messages, REWRITE_SCHEMA, max_tokens=32)
    assert llm.llama.n_tokens < llm.count_tokens(messages[1]["content"])
    llm.close()
