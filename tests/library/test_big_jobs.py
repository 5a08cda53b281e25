"""Asking before the big jobs from the command line: a reindex estimated from the rate
measured here; a long one asks (and, without a terminal, says to add --yes); --yes runs it
and the rate it measured is written down for the next estimate."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.cli import build_parser
from desktop_app.library.estimate import GUESSED_RATE, duration_words, estimate_reembedding


@pytest.fixture()
def app(embedder, tmp_path: Path) -> App:  # type: ignore[no-untyped-def]
    application = build_app(embedder=embedder, llm=None)
    (tmp_path / "a.md").write_text("# A\n\nUm texto sobre prazos e multas.\n", "utf-8")
    list(application.pipeline.run([tmp_path / "a.md"]))
    return application


def _cli(app: App, *argv: str) -> int:
    args = build_parser().parse_args(list(argv))
    return int(args.handler(args, app))


def test_the_estimate_uses_the_rate_measured_here(app: App) -> None:
    state = app.library_state
    assert state.rate(app.embedder.id)  # the ingest measured it
    fresh = build_app(embedder=app.embedder, llm=None)
    guess = estimate_reembedding(fresh.library_state, "other-embedder", documents=10,
                                 passages=1000)
    assert guess.measured  # another embedder's rate stands in for a new one
    empty = estimate_reembedding(type(state)(state.path.with_name("x.sqlite3")), "e",
                                 documents=1, passages=int(GUESSED_RATE * 600))
    assert not empty.measured and empty.seconds == pytest.approx(600) and empty.big
    assert "a guess" in empty.english() and "10 minutes" in empty.english()
    assert duration_words(30) == "under a minute" and duration_words(7200) == "2.0 hours"


def test_a_long_reindex_asks_and_yes_runs_it(app: App, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    state = app.library_state
    assert _cli(app, "reindex") == 0  # short: no question
    assert "reindex complete" in capsys.readouterr().out
    state.add_rate(app.embedder.id, 1, 100_000.0)  # now a very slow machine
    assert _cli(app, "reindex") == 1  # no terminal here: not run, and told how
    err = capsys.readouterr().err
    assert "re-embeds the whole library: 1 documents" in err and "--yes" in err
    before = state.rate(app.embedder.id)
    assert _cli(app, "reindex", "--yes") == 0
    assert "reindex complete" in capsys.readouterr().out
    assert state.rate(app.embedder.id) > before  # the reindex's own rate was added
