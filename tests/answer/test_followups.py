"""Follow-up questions without a model, on the real LGPD: the pairs in
data/lgpd_followups.jsonl (question, follow-up, the article that answers the follow-up)
were written before the rewrite and are not tuned to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.answer.events import WarningCode
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


@pytest.mark.slow  # ingests a PDF with the real embedder: the full tier only
def test_a_follow_up_on_the_bundled_sample_finds_the_deadline_of_the_article_after(  # type: ignore[no-untyped-def]
        memory_app) -> None:
    """What a new user tries first (`make run`, "Load samples"): the rights of art. 18, then
    "e qual o prazo para atender essas solicitações?", answered by art. 19, II's fifteen
    days. The follow-up's own subject is two words ("atender", "solicitações"); the topic
    it carried ("direitos do titular") is spoken of but does not make it a subject of four
    that needs two of its words beside the value (before: "not found")."""
    from desktop_app.answer.events import Done, WarningCode

    sample = Path(__file__).parents[2] / "resources" / "samples" / "lgpd-excerpt.pdf"
    assert list(memory_app.pipeline.run([sample]))[-1].indexed == 1
    conversation = memory_app.chat.new_conversation()
    answers = []
    for message in ("Quais são os direitos do titular?",
                    "e qual o prazo para atender essas solicitações?"):
        answers.append([e for e in memory_app.chat.turn(conversation, message, sources_only=True)
                        if isinstance(e, Done)][-1])
    rights, deadline = answers
    assert rights.answer.startswith("Art. 18."), rights.answer[:200]
    assert not deadline.warned(WarningCode.NOT_FOUND), deadline.trace.get("evidence")
    first = deadline.answer.split("[1]")[0]  # the first quote, up to its badge
    assert first.startswith("Art. 19.") and "15 (quinze) dias" in first, deadline.answer[:600]


@pytest.mark.slow
@pytest.mark.ranking
def test_on_the_real_ldb_a_follow_up_naming_another_stage_leaves_the_last_answers_article(  # type: ignore[no-untyped-def]
        ldb_app) -> None:
    """"e do ensino fundamental?" after the purposes of the ensino médio (art. 35) asks
    them of the ensino fundamental (art. 32). The rewrite carried "médio", and the article
    just quoted was preferred as a follow-up's is: art. 35 came back."""
    from desktop_app.answer.events import Done

    conversation = ldb_app.chat.new_conversation()
    for question in ("Quais são as finalidades do ensino médio?", "e do ensino fundamental?"):
        done = [e for e in ldb_app.chat.turn(conversation, question, sources_only=True)
                if isinstance(e, Done)][-1]
        assert not done.warned(WarningCode.NOT_FOUND), done.answer[:200]
    assert done.answer.startswith("Art. 32. O ensino fundamental obrigatório"), \
        done.answer[:300]
    assert done.trace["rewrite"]["replaced"] == ["médio"]
