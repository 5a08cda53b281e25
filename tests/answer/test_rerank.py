"""Reranking plumbing with a tiny random cross-encoder built in the test (its
scores mean nothing; these tests check loading, scoring, ordering and limits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.answer.rerank import CrossEncoderReranker, build_reranker, passage_for
from desktop_app.answer.service import AnswerService
from desktop_app.config.settings import Settings
from desktop_app.errors import InvalidModelError, MissingModelError

from .conftest import FakeSearcher, ScriptedLLM, make_hit
from .tiny_models import build_tiny_cross_encoder

pytestmark = pytest.mark.slow  # imports torch and sentence-transformers

TEXTS = [f"O prazo {i} para correção de dados é de {i} dias úteis no capítulo {i}." for i in range(25)]


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_cross_encoder(tmp_path_factory.mktemp("ce") / "tiny-ce",
                                    words=" ".join(TEXTS) + " qual prazo")


@pytest.fixture(scope="module")
def reranker(tiny_cross_encoder: Path) -> CrossEncoderReranker:
    return CrossEncoderReranker(tiny_cross_encoder)


def test_it_scores_every_candidate_and_keeps_the_top_n_in_score_order(
        reranker: CrossEncoderReranker) -> None:
    hits = [make_hit(i, doc=f"d{i}", text=TEXTS[i]) for i in range(20)]
    ranked = reranker.rank("qual o prazo de correção?", hits, top_n=5)
    assert len(ranked) == 5
    scores = [h.rerank_score for h in ranked]
    assert all(isinstance(s, float) for s in scores)
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert {h.chunk_id for h in ranked} <= {h.chunk_id for h in hits}
    # the fused fields are untouched; only rerank_score is added
    original = {h.chunk_id: h for h in hits}
    for h in ranked:
        assert h.score == original[h.chunk_id].score and h.legs == original[h.chunk_id].legs


def test_the_order_is_deterministic(reranker: CrossEncoderReranker) -> None:
    hits = [make_hit(i, doc=f"d{i}", text=TEXTS[i]) for i in range(20)]
    first = [h.chunk_id for h in reranker.rank("prazo", hits, top_n=5)]
    assert first == [h.chunk_id for h in reranker.rank("prazo", list(hits), top_n=5)]


def test_the_passage_includes_the_title_and_section() -> None:
    hit = make_hit(1, title="LGPD", heading=("Art. 18",), text="texto")
    assert passage_for(hit) == "LGPD › Art. 18\ntexto"


def test_nothing_to_rank_costs_nothing(reranker: CrossEncoderReranker) -> None:
    assert reranker.rank("q", [], top_n=5) == []


def test_a_missing_or_wrong_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MissingModelError, match="not found"):
        CrossEncoderReranker(tmp_path / "nope")
    with pytest.raises(InvalidModelError, match="config.json"):
        CrossEncoderReranker(tmp_path)
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(InvalidModelError, match="Could not load"):
        CrossEncoderReranker(tmp_path).rank("q", [make_hit(1)])


def test_reranking_is_off_by_default() -> None:
    assert build_reranker(Settings()) is None
    with pytest.raises(MissingModelError, match="reranker_path"):
        build_reranker(Settings(reranker_enabled=True))


def test_the_service_reranks_the_fused_top_20_and_keeps_5(tiny_cross_encoder: Path) -> None:
    settings = Settings(reranker_enabled=True, reranker_path=str(tiny_cross_encoder))
    hits = [make_hit(i, doc=f"d{i}", text=TEXTS[i]) for i in range(25)]
    searcher = FakeSearcher(hits)
    service = AnswerService(searcher, ScriptedLLM(["ok"]), settings,
                            reranker=build_reranker(settings))
    done = list(service.ask("Qual é o prazo de correção?"))[-1]
    # the search gives the fused `leg_k` rows (their words may respell a question,
    # AnswerService._respell); the reranker reads the top 20 of them
    assert searcher.calls[0][1] == settings.leg_k == 40
    trace_hits = done.trace["hits"]  # type: ignore[union-attr]
    assert len(trace_hits) == 5 and all(h["rerank_score"] is not None for h in trace_hits)
    assert {h["chunk_id"] for h in trace_hits} <= {hit.chunk_id for hit in hits[:20]}
    assert done.trace["reranker"] == "cross-encoder:tiny-ce"  # type: ignore[union-attr]
    assert "rerank_ms" in done.trace["timings"]  # type: ignore[union-attr]
