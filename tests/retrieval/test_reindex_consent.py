"""An index built by another embedder (the previous default, fp32 / the torch id, reopened with
today's default int8-split) is reindexed only with consent, from the CLI (prompt on a
terminal, `--reindex yes`) and nothing is lost."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from desktop_app.config.settings import Settings
from desktop_app.retrieval.commands import offer_reindex
from desktop_app.retrieval.search import HybridSearcher
from tests.reindex_helpers import DOCS
from tests.reindex_helpers import switched_app as reindexed_library


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def switched_app(tmp_path: Path, fp32_embedder: Any, embedder: Any) -> Any:
    """A library ingested with the previous default (fp32), reopened with today's default."""
    return reindexed_library(tmp_path / "docs", fp32_embedder, embedder)


def test_no_answer_on_a_terminal_keeps_the_old_index(switched_app: Any,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert not offer_reindex(switched_app, "ask", stdin=Terminal("n\n"))
    err = capsys.readouterr().err
    assert "keyword-only" in err and "Reindex now?" in err
    assert not switched_app.index.vector_usable
    assert switched_app.index.stats().documents == len(DOCS)


def test_without_a_terminal_it_only_explains(switched_app: Any,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert not offer_reindex(switched_app, "ask", stdin=io.StringIO("y\n"))
    assert "desktop-app reindex" in capsys.readouterr().err
    assert not switched_app.index.vector_usable


@pytest.mark.parametrize("how", ["yes-on-terminal", "flag"])
def test_consent_reindexes_everything_with_the_new_embedder(switched_app: Any, how: str,
                                                            embedder: Any) -> None:
    before = {(d.title, d.chunk_count) for d in switched_app.index.documents()}
    if how == "flag":
        assert offer_reindex(switched_app, "yes")
    else:
        assert offer_reindex(switched_app, "ask", stdin=Terminal("s\n"))

    index = switched_app.index
    assert index.vector_usable and index.embedder_id == embedder.id
    assert {(d.title, d.chunk_count) for d in index.documents()} == before  # nothing lost
    assert all(d.embedder_id == embedder.id for d in index.documents())
    hits = HybridSearcher(index, embedder, Settings()).search("dias de descanso pagos", k=1)
    assert hits[0].title == "Férias" and "vector" in hits[0].legs
    assert not offer_reindex(switched_app, "yes")  # nothing left to do


def test_cancel_during_the_last_document_does_not_switch(switched_app: Any) -> None:
    """Cancel pressed while the last document is embedded: the window says "Cancelled", so
    the old index must still be the active one (it used to switch anyway)."""
    from desktop_app.errors import CancelledError
    from desktop_app.retrieval.reindex import reindex

    seen: list[tuple[int, int, str]] = []

    def cancelled() -> bool:
        return len(seen) >= len(DOCS)  # set once the last document is reported

    with pytest.raises(CancelledError):
        for p in reindex(switched_app.paths.index_dir, switched_app.index,
                         switched_app.embedder, cancel=cancelled):
            seen.append((p.documents_done, p.documents_total, p.stage))
    assert seen == [(n, len(DOCS), "documents") for n in range(1, len(DOCS) + 1)]
    switched_app.reset_index()
    assert not switched_app.index.vector_usable  # the old generation is still active
    assert switched_app.index.stats().documents == len(DOCS)


def test_reindex_reports_switching_then_done(switched_app: Any) -> None:
    from desktop_app.retrieval.reindex import reindex

    stages = [p.stage for p in reindex(switched_app.paths.index_dir, switched_app.index,
                                       switched_app.embedder)]
    assert stages == ["documents"] * len(DOCS) + ["switching", "done"]
    switched_app.reset_index()
    assert switched_app.index.vector_usable
