"""The Ollama backend against an Ollama-protocol server written in the tests and
backed by the real SmolLM2; the official `ollama` client is used unchanged."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import ollama
import pytest

from desktop_app.answer.events import Done
from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
from desktop_app.answer.llm import build_llm
from desktop_app.answer.ollama_llm import OllamaLLM
from desktop_app.answer.rewrite import REWRITE_SCHEMA
from desktop_app.answer.service import AnswerService
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError, MissingModelError
from desktop_app.privacy.airgap import is_loopback_url

from .conftest import FakeSearcher, make_hit
from .ollama_server import OllamaProtocolServer

pytestmark = [pytest.mark.enable_socket, pytest.mark.timeout(180), pytest.mark.slow]
MESSAGES = [{"role": "user", "content": "Name three colours."}]


@pytest.fixture(scope="module")
def server(smollm2: LlamaCppLLM) -> Iterator[OllamaProtocolServer]:
    srv = OllamaProtocolServer(smollm2).start()
    yield srv
    srv.stop()


class TestTheOfficialClientAgainstOurServer:
    def test_tags_list_the_model(self, server: OllamaProtocolServer) -> None:
        models = ollama.Client(host=server.url).list().models
        assert [m.model for m in models] == ["smollm2:135m"]
        assert models[0].details and models[0].details.quantization_level == "Q4_1"

    def test_chat_streams_ndjson_and_ends_with_counts(self, server: OllamaProtocolServer) -> None:
        parts = list(ollama.Client(host=server.url).chat(
            model="smollm2:135m", messages=MESSAGES, stream=True,
            options={"num_predict": 8, "temperature": 0}))
        assert len(parts) >= 3
        assert all(not p.done and p.message.content for p in parts[:-1])
        final = parts[-1]
        assert final.done and final.done_reason == "length" and final.eval_count == len(parts) - 1

    def test_format_schema_gives_parseable_json(self, server: OllamaProtocolServer) -> None:
        response = ollama.Client(host=server.url).chat(
            model="smollm2:135m", messages=MESSAGES, format=REWRITE_SCHEMA,
            options={"num_predict": 120, "temperature": 0})
        assert isinstance(json.loads(response.message.content or "")["query"], str)
        assert server.chats[-1]["format"] == REWRITE_SCHEMA

    def test_format_json_gives_a_json_object(self, server: OllamaProtocolServer) -> None:
        response = ollama.Client(host=server.url).chat(
            model="smollm2:135m", messages=MESSAGES, format="json",
            options={"num_predict": 60, "temperature": 0})
        if response.done_reason == "stop":  # a cut-off object cannot parse; the grammar still held
            assert isinstance(json.loads(response.message.content or ""), dict)
        assert (response.message.content or "").lstrip().startswith("{")

    def test_an_unknown_model_is_a_404(self, server: OllamaProtocolServer) -> None:
        with pytest.raises(ollama.ResponseError) as err:
            ollama.Client(host=server.url).chat(model="llama9:70b", messages=MESSAGES)
        assert err.value.status_code == 404


class TestOllamaLLM:
    def test_it_streams_and_passes_the_options(self, server: OllamaProtocolServer) -> None:
        llm = OllamaLLM(server.url, "smollm2:135m", n_ctx=1024)
        pieces = list(llm.stream_chat(MESSAGES, max_tokens=6, temperature=0.0))
        assert 2 <= len(pieces) <= 6 and "".join(pieces).strip()
        assert server.chats[-1]["options"] == {"temperature": 0.0, "num_predict": 6, "num_ctx": 1024}
        assert llm.air_gapped

    def test_constrained_json(self, server: OllamaProtocolServer) -> None:
        llm = OllamaLLM(server.url, "smollm2:135m")
        result = llm.complete_json([{"role": "user", "content": "And its deadline?"}], REWRITE_SCHEMA,
                                   max_tokens=160)
        assert isinstance(result["query"], str)

    def test_cancel_closes_the_connection_and_the_server_stops(
            self, server: OllamaProtocolServer) -> None:
        llm = OllamaLLM(server.url, "smollm2:135m")
        server.chat_finished.clear()
        seen: list[str] = []
        for piece in llm.stream_chat(MESSAGES, max_tokens=400, temperature=0.7,
                                     cancel=lambda: len(seen) >= 2):
            seen.append(piece)
        assert len(seen) == 2
        assert server.chat_finished.wait(timeout=60)
        assert server.generated[-1] < 400

    def test_an_unknown_model_says_how_to_get_it(self, server: OllamaProtocolServer) -> None:
        llm = OllamaLLM(server.url, "qwen2.5:3b")
        with pytest.raises(MissingModelError, match="ollama pull qwen2.5:3b"):
            list(llm.stream_chat(MESSAGES, max_tokens=4, temperature=0.0))

    def test_the_answer_service_runs_over_ollama(self, server: OllamaProtocolServer) -> None:
        hits = [make_hit(1, text="The deadline to correct personal data is 15 days.")]
        settings = Settings(max_answer_tokens=16, llm_backend="ollama", ollama_url=server.url,
                            ollama_model="smollm2:135m")
        llm = build_llm(settings)
        assert isinstance(llm, OllamaLLM)
        service = AnswerService(FakeSearcher(hits), llm, settings)
        # /api/show says 135M: below the line, so it only writes as an experiment
        events = list(service.ask("What is the deadline?", experiment=True))
        done = events[-1]
        assert isinstance(done, Done) and done.trace["mode"] == "llm"
        assert done.trace["llm"] == "ollama:smollm2:135m"
        assert done.trace["answer_mode"]["experiment"] is True

    def test_its_size_comes_from_api_show_and_decides_the_mode(
            self, server: OllamaProtocolServer) -> None:
        settings = Settings(llm_backend="ollama", ollama_url=server.url,
                            ollama_model="smollm2:135m")
        llm = OllamaLLM(server.url, "smollm2:135m")
        capability = llm.capability()
        assert capability.parameters == server.llm.info.parameter_count == 134_515_008
        assert not capability.can_write
        service = AnswerService(FakeSearcher([make_hit(1)]), llm, settings)
        assert service.mode().reason == "too_small" and not service.use_llm
        chats_before = len(server.chats)
        done = list(service.ask("What is the deadline?"))[-1]
        assert isinstance(done, Done) and done.sources_only and done.trace["mode"] == "sources_only"
        assert len(server.chats) == chats_before  # the model was not asked to write

    def test_a_server_that_does_not_say_the_size_is_trusted(
            self, server: OllamaProtocolServer) -> None:
        server.report_size = False
        try:
            capability = OllamaLLM(server.url, "smollm2:135m").capability()
        finally:
            server.report_size = True
        assert capability.parameters is None and capability.can_write

    def test_a_model_the_server_lacks_is_a_model_error_not_a_written_answer(
            self, server: OllamaProtocolServer) -> None:
        settings = Settings(llm_backend="ollama", ollama_url=server.url, ollama_model="qwen2.5:3b")
        service = AnswerService(FakeSearcher([make_hit(1)]), OllamaLLM(server.url, "qwen2.5:3b"),
                                settings)
        mode = service.mode()
        assert mode.reason == "model_error" and "ollama pull qwen2.5:3b" in mode.detail

    def test_stop_returns_while_the_server_is_still_processing_the_prompt(
            self, server: OllamaProtocolServer) -> None:
        import time

        llm = OllamaLLM(server.url, "smollm2:135m")
        server.stall_s = 8.0
        server.chat_finished.clear()
        try:
            started = time.perf_counter()
            pieces = list(llm.stream_chat(MESSAGES, max_tokens=4, temperature=0.0,
                                          cancel=lambda: time.perf_counter() - started > 0.3))
            returned = time.perf_counter() - started
        finally:
            server.stall_s = 0.0
        assert pieces == []
        assert returned < 8.0  # it did not wait for the server's first chunk
        assert server.chat_finished.wait(timeout=60)  # the server noticed the closed connection


def test_nobody_listening_is_a_clear_error() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    llm = OllamaLLM(f"http://127.0.0.1:{port}", "m")
    with pytest.raises(AppError, match="Cannot reach Ollama"):
        llm.complete_json(MESSAGES, {"type": "object"})


@pytest.mark.parametrize(("url", "loopback"), [
    ("http://127.0.0.1:11434", True), ("http://localhost:11434", True), ("127.0.0.9:1", True),
    ("http://[::1]:11434", True), ("http://192.168.0.10:11434", False),
    ("https://ollama.example.com", False), ("http://localhost.evil.com", False),
])
def test_only_loopback_urls_count_as_air_gapped(url: str, loopback: bool) -> None:
    assert is_loopback_url(url) is loopback


def test_a_remote_url_needs_explicit_permission_and_is_marked_not_air_gapped() -> None:
    with pytest.raises(AppError, match="allow network"):
        OllamaLLM("http://192.168.0.10:11434", "qwen2.5:3b")
    remote = OllamaLLM("http://192.168.0.10:11434", "qwen2.5:3b", allow_network=True)
    assert remote.air_gapped is False  # nothing was contacted: construction is offline
    with pytest.raises(AppError, match="allow network"):
        build_llm(Settings(llm_backend="ollama", ollama_url="http://10.0.0.2:11434",
                           ollama_model="m"))
    with pytest.raises(AppError, match="ollama_model"):
        build_llm(Settings(llm_backend="ollama"))
