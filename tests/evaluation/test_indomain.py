"""In-domain unanswerables: which paragraphs leave the library, which questions become
unanswerable, and the real FaQuAD/Pirá split (the same on every run)."""

from __future__ import annotations

from pathlib import Path

from desktop_app.evaluation.answers import Question, load_questions
from desktop_app.evaluation.indomain import indomain_split, is_removed
from desktop_app.evaluation.retrieval import BeirSet, load_beir

# with share 0.5: p1 and p2 are removed, p0, p4 and p6 kept (a hash of the id decides)
IDS = ("p0", "p1", "p2", "p4", "p6")


def corpus(*texts: str) -> BeirSet:
    docs = [{"_id": i, "title": "", "text": t} for i, t in zip(IDS, texts, strict=True)]
    return BeirSet("tiny", docs, {}, {})


def test_the_split_is_a_fixed_hash_of_the_id() -> None:
    assert [is_removed(i, 0.5) for i in IDS] == [False, True, True, False, False]
    assert is_removed("p1", 0.0) is False and is_removed("p0", 1.0) is True


def test_a_question_is_unanswerable_only_when_no_kept_paragraph_holds_its_answer() -> None:
    beir = corpus("O recesso começa em julho.", "A matrícula custa cem reais.",
                  "O prazo de trancamento é de trinta dias.", "Trinta dias de férias por ano.",
                  "A biblioteca abre às oito horas.")
    gone = Question("a", "Quanto custa a matrícula?", ("cem reais",), frozenset({"p1"}))
    elsewhere = Question("b", "Qual o prazo de trancamento?", ("trinta dias",), frozenset({"p2"}))
    kept = Question("c", "Quando começa o recesso?", ("em julho",), frozenset({"p0"}))
    mixed = Question("d", "?", ("x",), frozenset({"p0", "p1"}))
    split = indomain_split(beir, [gone, elsewhere, kept, mixed], share=0.5)
    assert [q.id for q in split.unanswerable] == ["a"]
    assert [q.id for q in split.answerable] == ["c"]
    assert split.still_answered == 1  # "trinta dias" is still in p4
    assert {d["_id"] for d in split.kept.corpus} == {"p0", "p4", "p6"}


def test_without_answer_strings_rare_terms_found_together_keep_a_question_answerable() -> None:
    # rare here: in at most 2 of the 5 paragraphs. Kept p4 has every rare word of the
    # mangrove question; kept p6 has "coral" but not "branqueia"
    beir = corpus("Correntes oceânicas e ventos.", "A salinidade do manguezal varia.",
                  "O coral branqueia com o calor.", "No manguezal a salinidade varia muito.",
                  "O coral e a temperatura do oceano.")
    covered = Question("m", "Como varia a salinidade do manguezal?", (), frozenset({"p1"}))
    alone = Question("k", "Por que o coral branqueia?", (), frozenset({"p2"}))
    split = indomain_split(beir, [covered, alone], share=0.5, rare_share=0.4)
    assert [q.id for q in split.unanswerable] == ["k"]
    assert split.still_answered == 1


def test_the_real_faquad_and_pira_splits(eval_dir: Path) -> None:
    faquad = load_beir(eval_dir / "retrieval" / "faquad_pt")
    split = indomain_split(faquad, load_questions(eval_dir / "qa" / "faquad_pt.jsonl"))
    assert split.summary() == {"removed_share": 0.3, "docs_kept": 176, "docs_removed": 73,
                               "unanswerable_questions": 183, "answerable_questions": 650,
                               "left_out_still_answered": 67}
    pira = load_beir(eval_dir / "retrieval" / "pira_pt")
    split = indomain_split(pira, load_questions(eval_dir / "retrieval" / "pira_pt" /
                                                "queries.jsonl", pira.qrels))
    assert (len(split.unanswerable), len(split.answerable), split.still_answered) == (44, 168, 15)
    removed_text = {d["_id"] for d in pira.corpus} - {d["_id"] for d in split.kept.corpus}
    assert all(q.doc_ids <= removed_text for q in split.unanswerable)
