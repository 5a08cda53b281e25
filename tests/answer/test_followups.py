"""Follow-up questions without a model, on the real LGPD: the pairs in
data/lgpd_followups.jsonl (question, follow-up, the article that answers the follow-up)
were written before the rewrite and are not tuned to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.evaluation.answers import article_labels, articles_in, followup_retrieval
from desktop_app.ingest.loaders import load_document

PAIRS = Path(__file__).parent / "data" / "lgpd_followups.jsonl"


@pytest.mark.slow  # over a second: the full tier only
def test_the_answering_article_is_in_the_top_3_for_most_follow_ups(lgpd_app, eval_dir) -> None:  # type: ignore[no-untyped-def]
    pairs = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]
    pages = {p.number: p.text for p in load_document(eval_dir / "pdfs/pt/lgpd.pdf").pages}
    labels = article_labels(pages)
    report = followup_retrieval(pairs, lambda q: lgpd_app.searcher.search(q, k=3), labels)
    print(f"\nfollow-ups: article in top 3 as typed {report['top_k_as_typed']:.2f}, "
          f"with the model-free rewrite {report['top_k_with_rewrite']:.2f} "
          f"({report['pairs']} pairs)")
    assert report["pairs"] == len(pairs) >= 20
    assert report["top_k_with_rewrite"] >= 0.80
    assert report["top_k_with_rewrite"] > report["top_k_as_typed"]


@pytest.mark.slow  # over a second: the full tier only
def test_articles_are_read_from_the_law_itself(eval_dir) -> None:  # type: ignore[no-untyped-def]
    pages = {p.number: p.text for p in load_document(eval_dir / "pdfs/pt/lgpd.pdf").pages}
    labels = article_labels(pages)
    found = [label for _, label in labels]
    assert {"7", "18", "52", "55-J", "65"} <= set(found)
    first_18 = next(position for position, label in labels if label == "18")
    assert first_18[0] == 8  # art. 18 begins on page 8 of the print

    class Chunk:  # the span of a chunk that starts inside art. 18's list
        page_start, char_start = first_18[0], first_18[1] + 200
        page_end, char_end = first_18[0], first_18[1] + 400

    assert articles_in(Chunk, labels) == {"18"}


def test_the_chat_command_shows_the_query_it_searched_for(lgpd_app, capsys) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.cli import build_parser

    for message in ("Quais são os direitos do titular dos dados?",
                    "E em que prazo o controlador deve responder?"):
        args = build_parser().parse_args(["chat", message, "--no-llm"])
        assert args.handler(args, lgpd_app) == 0
    out = capsys.readouterr().out
    assert "(searched for: E em que prazo o controlador deve responder? direitos titular " \
           "dados)" in out
