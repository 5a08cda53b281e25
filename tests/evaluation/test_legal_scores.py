"""The legal scores on hand-made outcomes: each one counts what it says and can fail."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_app.evaluation.legal import LegalOutcome, LegalQuestion, load_legal_set, score_legal

LIST = LegalQuestion("l", "lei.pdf", "list", "Quais são?", "18", items=("alfa beta", "gama"))
FACT = LegalQuestion("f", "lei.pdf", "fact", "Qual prazo?", "19", answers=("15 (quinze) dias",))
SECOND = LegalQuestion("u/2", "lei.pdf", "followup", "e o prazo?", "19",
                       answers=("15 (quinze) dias",))
FIRST = LegalQuestion("u", "lei.pdf", "followup", "Quais direitos?", "18",
                      answers=("confirmação",), followup=SECOND)
OUT = LegalQuestion("o", "lei.pdf", "out_of_scope", "Qual a pena?")


def outcome(q: LegalQuestion, answer: str, at: tuple[str, int, str] | None = None, *,
            turn: int = 1, revoked: str | None = None) -> LegalOutcome:
    abstained = not answer
    return LegalOutcome(q, turn, abstained, answer, answer.split("\n")[0], at, revoked=revoked)


def test_the_first_block_must_lie_in_the_gold_article_of_the_first_law() -> None:
    right = outcome(LIST, "Art. 18 …", ("lei.pdf", 0, "18"))
    assert score_legal([right])["article_in_first_block"] == 1.0
    for wrong in (("lei.pdf", 0, "17"), ("lei.pdf", 1, "18"), ("outra.pdf", 0, "18"), None):
        assert score_legal([outcome(LIST, "Art. 18 …", wrong)])["article_in_first_block"] == 0.0
    assert score_legal([outcome(LIST, "")])["article_in_first_block"] == 0.0  # not found


def test_an_article_saying_the_same_in_other_words_is_as_right_first(tmp_path: Path) -> None:
    """The LGPD says twice that the authority may ask public bodies for a report (art. 29,
    art. 55-J, XI): a set lists the second under `also`, and either first is right."""
    row = {"id": "a", "doc": "lei.pdf", "kind": "fact", "question": "Pode pedir?",
           "article": "29", "also": ["55-J"], "answers": ["parecer"]}
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (question,) = load_legal_set(path)
    assert question.articles == ("29", "55-J")
    for at, right in ((("lei.pdf", 0, "29"), 1.0), (("lei.pdf", 0, "55-J"), 1.0),
                      (("lei.pdf", 0, "30"), 0.0), (("lei.pdf", 1, "55-J"), 0.0)):
        figures = score_legal([outcome(question, "… parecer", at)])
        assert figures["article_in_first_block"] == right, at


def test_a_list_is_complete_only_with_every_item_as_whole_words() -> None:
    full = outcome(LIST, "I - Alfa, beta;\nII - gama.", ("lei.pdf", 0, "18"))
    partial = outcome(LIST, "I - alfa beta;\n…", ("lei.pdf", 0, "18"))
    glued = outcome(LIST, "I - alfa beta; II - gamaliel", ("lei.pdf", 0, "18"))
    figures = score_legal([full, partial, glued])
    assert figures["lists_complete"] == round(1 / 3, 4)
    assert figures["list_completeness_mean"] == round((1 + 0.5 + 0.5) / 3, 4)


def test_abstention_is_right_out_of_scope_and_wrong_on_answerable_questions() -> None:
    figures = score_legal([outcome(OUT, ""), outcome(OUT, "Art. 52 multa"),
                           outcome(FACT, ""), outcome(FACT, "prazo de 15 (quinze) dias")])
    assert figures["abstention_out_of_scope"] == 0.5
    assert figures["false_abstention"] == 0.5
    assert figures["answer_contains_gold"] == 0.5
    assert figures["per_kind"]["out_of_scope"] == {"questions": 2, "abstained": 1,
                                                   "article_in_first_block": None}


def test_revoked_quotes_count_over_every_answer_given() -> None:
    answers = [outcome(FACT, "x", revoked="texto antigo"), outcome(OUT, "y"),
               outcome(SECOND, "z", turn=2), outcome(LIST, "w")]
    figures = score_legal(answers)
    assert figures["revoked_quoted"] == 0.25 and figures["revoked_quoted_answers"] == 1
    assert score_legal(answers[1:])["revoked_quoted"] == 0.0


def test_a_follow_up_is_answered_when_its_answer_holds_the_gold_phrase() -> None:
    first = outcome(FIRST, "Art. 18 … confirmação", ("lei.pdf", 0, "18"))
    answered = outcome(SECOND, "II - … no prazo de até 15 (quinze) dias", ("lei.pdf", 0, "19"),
                       turn=2)
    missed = outcome(SECOND, "§ 5º nos prazos previstos em regulamento", ("lei.pdf", 0, "18"),
                     turn=2)
    figures = score_legal([first, answered, first, missed])
    assert figures["followups_answered"] == 0.5
    assert figures["followup_article_in_first_block"] == 0.5
    assert figures["questions"] == 2 and figures["answers_given"] == 4
    assert figures["false_abstention"] == 0.0  # first turns only
