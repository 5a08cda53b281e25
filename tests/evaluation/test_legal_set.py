"""The legal dev set (bench/data/legal_pt.jsonl) against the real PDFs: it loads, has the
kinds the eval needs, every gold phrase is current (not struck-through) text of its
document, and every gold article is an article the document prints."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from desktop_app.evaluation.legal import LegalQuestion, load_legal_set
from desktop_app.evaluation.legal_text import article_starts, read_pdf_text
from desktop_app.ingest.loaders import load_document

SET = Path(__file__).resolve().parents[2] / "bench" / "data" / "legal_pt.jsonl"
TRANSLATIONS = [(SET.with_name("legal_es.jsonl"), "es"), (SET.with_name("legal_en.jsonl"), "en")]


def test_the_set_has_every_kind_in_the_numbers_the_eval_needs() -> None:
    questions = load_legal_set(SET)
    kinds = Counter(q.kind for q in questions)
    assert len(questions) >= 80
    assert kinds["list"] >= 25 and kinds["fact"] >= 20 and kinds["definition"] >= 10
    assert kinds["followup"] >= 10 and kinds["out_of_scope"] >= 15
    docs = Counter(q.doc for q in questions)
    assert set(docs) == {"lgpd.pdf", "ldb.pdf"} and min(docs.values()) >= 0.4 * len(questions)
    for q in questions:
        assert q.kind == "out_of_scope" or q.article
        if q.kind == "followup":
            assert q.followup is not None and q.followup.answers and q.followup.article


@pytest.mark.parametrize(("path", "language"), TRANSLATIONS, ids=lambda v: getattr(v, "name", v))
def test_a_translated_set_is_the_same_questions_and_gold_asked_in_its_language(
        path: Path, language: str) -> None:
    from desktop_app.text.language import question_language

    portuguese, translated = load_legal_set(SET), load_legal_set(path)
    assert [q.id for q in translated] == [q.id for q in portuguese]
    for pt, tr in zip(portuguese, translated, strict=True):
        assert (tr.kind, tr.doc, tr.article, tr.items, tr.answers) == (
            pt.kind, pt.doc, pt.article, pt.items, pt.answers)
        turns = [tr] + ([tr.followup] if tr.followup else [])
        assert all(question_language(t.text, "pt") == language for t in turns), tr.id
        if pt.followup:
            assert tr.followup is not None
            assert (tr.followup.article, tr.followup.answers) == (pt.followup.article,
                                                                  pt.followup.answers)


def test_the_loader_names_the_line_of_a_bad_question(tmp_path: Path) -> None:
    good = {"id": "a", "doc": "x.pdf", "kind": "fact", "question": "Q?", "article": "1",
            "answers": ["sim"]}
    for bad, message in (({**good, "kind": "lista"}, "kind must be"),
                         ({**good, "kind": "list"}, "needs its items"),
                         ({**good, "answers": []}, "needs its answers"),
                         ({**good, "article": ""}, "needs its article"),
                         ({**good, "kind": "followup"}, "needs its follow-up")):
        path = tmp_path / "set.jsonl"
        path.write_text(json.dumps(good) + "\n" + json.dumps({**bad, "id": "b"}) + "\n",
                        encoding="utf-8")
        with pytest.raises(ValueError, match=f"set.jsonl:2: .*{message}"):
            load_legal_set(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate id a"):
        load_legal_set(path)


# the dev set, and the blind one asked of the same PDFs (bench/answers.py `legal_blind`)
ON_THE_PDFS = [SET, SET.with_name("legal_blind_pt.jsonl")]


def _turns(questions: list[LegalQuestion]) -> list[tuple[str, LegalQuestion]]:
    """Each question and its follow-up's second question, with the document asked."""
    return [(q.doc, turn) for q in questions for turn in [q] + ([q.followup] if q.followup else [])]


def _missing_phrases(questions: list[LegalQuestion], current: dict[str, str]) -> list[tuple[str, str]]:
    """The gold phrases (items and answers) that are not current text of their document."""
    return [(turn.id, phrase) for doc, turn in _turns(questions)
            for phrase in turn.items + turn.answers
            if " ".join(phrase.split()) not in current[doc]]


def _printed_articles(pdf: Path) -> set[str]:
    """The labels of the articles of the first law a PDF prints."""
    pages = {p.number: p.text for p in load_document(pdf).pages}
    return {s.label for s in article_starts(pages) if s.part == 0}


def _unprinted(questions: list[LegalQuestion], printed: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The gold articles (of both turns) their document does not print."""
    return [(turn.id, turn.article) for doc, turn in _turns(questions)
            if turn.article and turn.article not in printed[doc]]


@pytest.mark.slow  # over a second: the full tier only
@pytest.mark.parametrize("questions_file", ON_THE_PDFS, ids=lambda p: p.stem)
def test_every_gold_phrase_is_current_text_of_its_pdf(eval_dir: Path,
                                                      questions_file: Path) -> None:
    questions = load_legal_set(questions_file)
    current = {name: read_pdf_text(eval_dir / "pdfs" / "pt" / name).current
               for name in {q.doc for q in questions}}
    assert not _missing_phrases(questions, current)


@pytest.mark.slow  # over a second: the full tier only
@pytest.mark.parametrize("questions_file", ON_THE_PDFS, ids=lambda p: p.stem)
def test_every_gold_article_is_printed_in_the_first_law_of_its_pdf(
        eval_dir: Path, questions_file: Path) -> None:
    questions = load_legal_set(questions_file)
    printed = {name: _printed_articles(eval_dir / "pdfs" / "pt" / name)
               for name in {q.doc for q in questions}}
    assert not _unprinted(questions, printed)


LAW = SET.parent / "laws" / "constituicao.txt"
CF_SET = SET.with_name("legal_cf.jsonl")


@pytest.fixture(scope="module")
def constitution(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The third law of the answers bench, printed to PDF as bench/answers.py prints it."""
    from desktop_app.evaluation.law_pdf import render_law

    pdf = tmp_path_factory.mktemp("laws") / "constituicao.pdf"
    assert render_law(LAW.read_text(encoding="utf-8"), pdf) > 1
    return pdf


def test_the_constitution_set_is_asked_of_its_printed_law(constitution: Path) -> None:
    """Every gold phrase of legal_cf.jsonl is current text of the printed law and every gold
    article one of its own (not of its transitional provisions); the struck lines are read
    as revoked, and the wordings they replaced are not."""
    questions = load_legal_set(CF_SET)
    assert {q.doc for q in questions} == {constitution.name}
    kinds = Counter(q.kind for q in questions)
    assert kinds["list"] >= 10 and kinds["fact"] >= 10 and kinds["out_of_scope"] >= 8
    text = read_pdf_text(constitution)
    assert "o transporte, o lazer" in text.current
    assert "a saúde, o trabalho, a moradia, o lazer" not in text.current  # art. 6º as of 2010
    assert any("a saúde, o trabalho, a moradia, o lazer" in run for run in text.struck)
    assert not _missing_phrases(questions, {constitution.name: text.current})
    printed = _printed_articles(constitution)
    assert {"1", "14", "37"} <= printed
    assert not _unprinted(questions, {constitution.name: printed})


CDC = SET.parent / "laws" / "cdc.txt"
CDC_SET = SET.with_name("legal_cdc.jsonl")


def test_the_consumer_code_set_is_asked_of_its_printed_law(tmp_path: Path) -> None:
    """Every gold phrase of legal_cdc.jsonl is current text of the printed consumer code
    (its amendment notes are metadata, not the law's words) and every gold article one it
    prints, "42-A" included."""
    from desktop_app.evaluation.law_pdf import render_law

    pdf = tmp_path / "cdc.pdf"
    assert render_law(CDC.read_text(encoding="utf-8"), pdf) > 1
    questions = load_legal_set(CDC_SET)
    assert {q.doc for q in questions} == {pdf.name}
    kinds = Counter(q.kind for q in questions)
    assert kinds["list"] >= 10 and kinds["fact"] >= 10 and kinds["out_of_scope"] >= 5
    text = read_pdf_text(pdf)
    assert not _missing_phrases(questions, {pdf.name: text.current})
    printed = _printed_articles(pdf)
    assert {"1", "6", "42-A", "50"} <= printed
    assert not _unprinted(questions, {pdf.name: printed})
