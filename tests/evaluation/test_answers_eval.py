"""`desktop-app eval answers`: the scores' definitions, and the command end to end on a
small BEIR-layout corpus written here (real chunker, e5, LanceDB, AnswerService)."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_app.app import build_app
from desktop_app.cli import build_parser
from desktop_app.evaluation.answers import Outcome, Question, contains_gold, score

CORPUS = [
    {"_id": "ferias", "title": "Férias",
     "text": "O colaborador tem direito a trinta dias de férias remuneradas após doze meses de "
             "trabalho. As férias podem ser divididas em até três períodos."},
    {"_id": "abono", "title": "Abono",
     "text": "O abono pecuniário permite vender um terço das férias. O pedido deve ser feito por "
             "escrito até quinze dias antes do fim do período aquisitivo."},
    {"_id": "reembolso", "title": "Reembolso",
     "text": "Despesas de viagem são reembolsadas em até dez dias úteis após a entrega das notas "
             "fiscais ao setor financeiro."},
]
QA = [
    {"query_id": "q1", "question": "Quantos dias de férias o colaborador tem?",
     "answers": ["trinta dias"], "doc_id": "ferias"},
    {"query_id": "q2", "question": "Até quando deve ser feito o pedido de abono pecuniário?",
     "answers": ["até quinze dias antes do fim do período aquisitivo"], "doc_id": "abono"},
    {"query_id": "q3", "question": "Em quantos dias as despesas de viagem são reembolsadas?",
     "answers": ["em até dez dias úteis"], "doc_id": "reembolso"},
]
OTHER = [{"_id": "x1", "text": "Qual é a profundidade média do oceano Atlântico?"},
         {"_id": "x2", "text": "Quem descobriu a penicilina?"}]


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def test_gold_spans_are_compared_folded_and_without_badges() -> None:
    assert contains_gold("O prazo é de QUINZE dias [1].", ["quinze  dias"])
    assert contains_gold("Até a conclusão do período aquisitivo.", ["ate a conclusao"])
    assert not contains_gold("Não encontrei isso nos seus documentos.", ["quinze dias"])


def test_scores_count_not_found_as_a_miss_and_badges_against_the_gold_paragraph() -> None:
    q = Question("q", "pergunta", ("quinze dias",), frozenset({"d1"}))
    answered = Outcome(q, False, "O prazo é de quinze dias [1].", "O prazo é de quinze dias [1].",
                       ["d1", "d2"], 100.0, 50.0)
    abstained = Outcome(q, True, "", "", [], 90.0, 10.0)
    other = Outcome(Question("o", "outra"), True, "", "", [], 80.0, 5.0)
    figures = score([answered, abstained], [other])
    assert figures["first_block_contains_gold"] == 0.5 == figures["answer_contains_gold"]
    assert figures["citation_precision"] == 0.5
    assert figures["false_abstention_answerable"] == 0.5
    assert figures["abstention_unanswerable"] == 1.0


def test_eval_answers_runs_the_real_pipeline_and_writes_the_report(
        tmp_path: Path, embedder, capsys) -> None:  # type: ignore[no-untyped-def]
    corpus = tmp_path / "tiny"
    (corpus / "qrels").mkdir(parents=True)
    write_jsonl(corpus / "corpus.jsonl", CORPUS)  # type: ignore[arg-type]
    write_jsonl(corpus / "queries.jsonl", [{"_id": q["query_id"], "text": q["question"]}
                                           for q in QA])
    (corpus / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q['query_id']}\t{q['doc_id']}\t1\n"
                                                   for q in QA), encoding="utf-8")
    qa = write_jsonl(tmp_path / "qa.jsonl", QA)  # type: ignore[arg-type]
    other = write_jsonl(tmp_path / "other.jsonl", OTHER)  # type: ignore[arg-type]
    out = tmp_path / "report.json"
    app = build_app(embedder=embedder)
    app.settings.llm_backend = "none"
    args = build_parser().parse_args(["eval", "answers", str(corpus), str(qa), "--unanswerable",
                                      str(other), "--json", str(out)])
    assert args.handler(args, app) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    for key in ("first_block_contains_gold", "answer_contains_gold", "citation_precision",
                "abstention_unanswerable", "false_abstention_answerable", "answer_step_ms_p50",
                "retrieval_ms_p50"):
        assert key in report, key
    assert report["questions"] == 3 and report["unanswerable_questions"] == 2
    assert report["answer_contains_gold"] == 1.0 and report["false_abstention_answerable"] == 0.0
    assert report["abstention_unanswerable"] == 1.0
    assert report["written"]["run"] is False  # no language model in this test
    assert set(report["abstention"]["library_floor"]) >= {"pt", "en", "es"}
    printed = capsys.readouterr().out
    assert "first_block_contains_gold" in printed and "written mode not run" in printed
