"""Done-when of the foundation: the LGPD PDF ingests cleanly and the rights question finds Art. 18."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.cli import build_parser


@pytest.fixture(scope="module")
def lgpd_app(tmp_path_factory: pytest.TempPathFactory, eval_dir: Path, embedder) -> App:  # type: ignore[no-untyped-def]
    mp = pytest.MonkeyPatch()
    home = tmp_path_factory.mktemp("lgpd-home")
    mp.setenv("ACERVO_HOME", str(home))
    app = build_app(embedder=embedder)
    events = list(app.pipeline.run([eval_dir / "pdfs/pt/lgpd.pdf"]))
    assert events[-1].indexed == 1, events[-1]
    yield app
    mp.undo()


@pytest.mark.slow  # over a second: the full tier only
def test_rights_question_finds_article_18_in_top_3(lgpd_app: App) -> None:
    hits = lgpd_app.searcher.search("Quais são os direitos do titular?", k=3)
    assert any("Art. 18" in h.text for h in hits), [h.text[:80] for h in hits]
    art18 = next(h for h in hits if "Art. 18" in h.text)
    assert art18.page_start in (8, 9)  # Art. 18 starts at the bottom of page 8 of the print
    assert art18.title and art18.heading_path


def test_no_running_header_or_footer_survives(lgpd_app: App) -> None:
    rows = list(lgpd_app.index.iter_chunks())
    assert len(rows) > 50
    footer = re.compile(r"^\s*\d{1,2}\s*/\s*26\s*$", re.M)
    for row in rows:
        assert not footer.search(row.text), row.text[:200]
        assert "3:54 PM" not in row.text  # the browser's print header "8/26/25, 3:54 PM"
        assert not re.search(r"^\s*L13709\s*$", row.text, re.M)
        assert "planalto.gov.br/ccivil_03" not in row.text


def test_unaccented_query_still_finds_accented_text(lgpd_app: App) -> None:
    hits = lgpd_app.searcher.search("revogacao do consentimento", k=3, legs=("keyword",))
    assert any("revogação do consentimento" in h.text.lower() for h in hits)


def test_cli_search_json_reports_legs_and_pages(lgpd_app: App, capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(
        ["search", "direitos do titular", "--k", "3", "--json", "--type", "pdf"])
    assert args.handler(args, lgpd_app) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["hits"]) == 3
    assert {"vector", "keyword"} & set(out["hits"][0]["legs"])
    assert all(h["file_type"] == "pdf" and h["page_start"] >= 1 for h in out["hits"])
