"""The retrieval evaluation on the PostgreSQL backend: the cached evaluation corpus is copied row
for row into a team collection, read back through an analyst's role, and both legs rank the
same chunks with the same scores as LanceDB (real server, real embeddings, FaQuAD)."""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.cli import build_parser
from desktop_app.config.settings import Settings
from desktop_app.evaluation.retrieval import build_eval_index, evaluate, load_beir
from desktop_app.retrieval.search import HybridSearcher
from desktop_app.team.evaluation import EVAL_USER, open_eval_team_index

QUERIES = 15
DOCS = 40


@pytest.fixture(scope="module")
def beir(eval_dir: Path):  # type: ignore[no-untyped-def]
    return load_beir(eval_dir / "retrieval" / "faquad_pt", max_queries=QUERIES, max_docs=DOCS)


@pytest.fixture(scope="module")
def lance(beir, embedder, tmp_path_factory):  # type: ignore[no-untyped-def]
    return build_eval_index(beir, embedder, Settings(), tmp_path_factory.mktemp("eval"))


@pytest.fixture(scope="module")
def team(lance, team_db, embedder):  # type: ignore[no-untyped-def]
    return open_eval_team_index(
        lance, collection="eval-faquad", admin_url=team_db.server.admin_url(team_db.name),
        user_url=team_db.server.user_url(EVAL_USER, team_db.name), embedder_id=embedder.id,
        dim=embedder.dim)


def _by_score(pairs: list[tuple[tuple[str, int], float]], digits: int) -> list[set[tuple[str, int]]]:
    """Chunks grouped by equal (rounded) score, best first: the order both backends must agree on
    (inside a group of equal scores each backend breaks the tie by its own document ids)."""
    return [{key for key, _ in group}
            for _, group in groupby(pairs, key=lambda p: round(p[1], digits))]


@pytest.mark.slow  # over a second: the full tier only
def test_the_team_collection_holds_exactly_the_evaluation_rows(lance, team) -> None:  # type: ignore[no-untyped-def]
    assert {(d.content_hash, d.chunk_count) for d in team.documents()} == \
        {(d.content_hash, d.chunk_count) for d in lance.documents()}
    assert team.stats().chunks == lance.stats().chunks
    source = next(iter(lance.documents()))
    copied = team.document_by_hash(source.content_hash)
    assert copied is not None and copied.source_path == source.source_path
    mine = lance.chunk_vectors_by_hash(source.doc_id)
    theirs = team.chunk_vectors_by_hash(copied.doc_id)
    assert mine.keys() == theirs.keys()
    assert all((mine[h] == theirs[h]).all() for h in mine)  # float32 round-trips exactly


def test_both_legs_rank_the_same_chunks_with_the_same_scores(beir, lance, team, embedder) -> None:  # type: ignore[no-untyped-def]
    for query in beir.queries.values():
        local = lance.search_keyword(query, 20, None)
        shared = team.search_keyword(query, 20, None)
        assert _by_score([((r.row.source_path, r.row.position), r.score) for r in local], 3) \
            == _by_score([((h.row.source_path, h.row.position), h.score) for h in shared], 3)
        vector = embedder.embed_query(query)
        local = lance.search_vector(vector, 20, None)
        shared = team.search_vector(vector, 20, None)
        assert [(r.row.source_path, r.row.position) for r in local] == \
            [(h.row.source_path, h.row.position) for h in shared]
        assert [r.score for r in local] == \
            pytest.approx([h.score for h in shared], abs=1e-5)


def test_ndcg_is_the_same_on_both_backends(beir, lance, team, embedder) -> None:  # type: ignore[no-untyped-def]
    settings = Settings()
    local = evaluate(beir, HybridSearcher(lance, embedder, settings), embedder)
    shared = evaluate(beir, HybridSearcher(team, embedder, settings), embedder)
    assert local["queries"] == shared["queries"] == QUERIES
    for mode in ("keyword", "vector"):
        assert shared[mode]["ndcg@10"] == pytest.approx(local[mode]["ndcg@10"], abs=0.005)
    assert local["hybrid"]["ndcg@10"] > 0.5  # the copied corpus is found, not an empty run


def test_opening_again_reuses_the_copy(lance, team, team_db, embedder) -> None:  # type: ignore[no-untyped-def]
    keys = {d.doc_id for d in team.documents()}
    with team_db.admin() as conn:
        before = conn.execute("SELECT count(*) FROM acervo.audit").fetchone()[0]
    again = open_eval_team_index(
        lance, collection="eval-faquad", admin_url=team_db.server.admin_url(team_db.name),
        user_url=team_db.server.user_url(EVAL_USER, team_db.name), embedder_id=embedder.id,
        dim=embedder.dim)
    assert {d.doc_id for d in again.documents()} == keys
    with team_db.admin() as conn:
        assert conn.execute("SELECT count(*) FROM acervo.audit").fetchone()[0] == before


def test_an_interrupted_copy_resumes_with_what_is_missing(lance, team, team_db, embedder) -> None:  # type: ignore[no-untyped-def]
    victim = team.documents()[0]
    with team_db.admin() as conn:  # as if the copy had stopped before this document
        conn.execute("DELETE FROM acervo.documents WHERE doc_id = %s", (victim.doc_id,))
        before = conn.execute("SELECT count(*) FROM acervo.audit WHERE action = 'add'"
                              ).fetchone()[0]
    again = open_eval_team_index(
        lance, collection="eval-faquad", admin_url=team_db.server.admin_url(team_db.name),
        user_url=team_db.server.user_url(EVAL_USER, team_db.name), embedder_id=embedder.id,
        dim=embedder.dim)
    assert {(d.content_hash, d.chunk_count) for d in again.documents()} == \
        {(d.content_hash, d.chunk_count) for d in lance.documents()}
    with team_db.admin() as conn:  # one document added again, the others left alone
        assert conn.execute("SELECT count(*) FROM acervo.audit WHERE action = 'add'"
                            ).fetchone()[0] == before + 1


def test_eval_retrieval_runs_on_the_postgres_backend_from_the_cli(
        eval_dir, team_db, embedder, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    app: App = build_app(embedder=embedder)
    out_json = tmp_path / "pg.json"
    args = build_parser().parse_args([
        "eval", "retrieval", str(eval_dir / "retrieval" / "faquad_pt"), "--limit", "5",
        "--max-docs", "20", "--backend", "postgres",
        "--pg-url", team_db.server.admin_url(team_db.name), "--json", str(out_json)])
    assert args.handler(args, app) == 0
    out = capsys.readouterr().out
    assert "backend postgres" in out and "hybrid" in out
    results = json.loads(out_json.read_text(encoding="utf-8"))
    assert results["backend"] == "postgres" and results["queries"] == 5
    assert results["vector"]["ndcg@10"] > 0.3

