"""`desktop-app eval answers`: the scores' definitions, and the command end to end on a
small BEIR-layout corpus written here (real chunker, e5, LanceDB, AnswerService)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


@pytest.mark.slow  # over a second: the full tier only
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
                                      str(other), "--indomain", "--json", str(out)])
    assert args.handler(args, app) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    # in-domain: "reembolso" leaves the library (a hash of its id), so q3 has no answer left
    assert report["indomain"]["docs_removed"] == 1
    assert report["indomain"]["unanswerable_ids"] == ["q3"]
    assert report["indomain"]["answerable_questions"] == 2
    assert report["abstention_indomain"] in (0.0, 1.0)
    assert report["false_abstention_answerable_indomain"] is not None
    # each in-domain outcome says what was quoted first, for auditing the gate's misses
    kept = {o["id"]: o for o in report["indomain"]["outcomes"]}
    assert set(kept) == {"q1", "q2", "q3"} and not kept["q3"]["answerable"]
    assert all(o["abstained"] or o["first_block"] for o in kept.values())
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
    assert "abstention_indomain" in printed


LAW = """Art. 1º Esta lei trata das férias dos servidores do município.

Art. 2º São direitos do servidor em férias:

I - trinta dias corridos de descanso por ano;

II - abono de um terço da remuneração;

III - adiantamento da gratificação natalina.

Art. 3º O pedido de férias será respondido no prazo de 10 (dez) dias.

Parágrafo único. A resposta será dada por escrito ao servidor.
"""
LEGAL_SET = [
    {"id": "l1", "doc": "lei.txt", "kind": "list", "question": "Quais são os direitos do "
     "servidor em férias?", "article": "2", "path": "Art. 2º",
     "items": ["trinta dias corridos de descanso", "abono de um terço da remuneração",
               "adiantamento da gratificação natalina"]},
    {"id": "f1", "doc": "lei.txt", "kind": "fact", "question": "Em quanto tempo o pedido de "
     "férias é respondido?", "article": "3", "path": "Art. 3º", "answers": ["10 (dez) dias"]},
    {"id": "u1", "doc": "lei.txt", "kind": "followup", "question": "Quais são os direitos do "
     "servidor em férias?", "article": "2", "answers": ["abono de um terço"],
     "followup": {"question": "e a resposta ao pedido é dada como?", "article": "3",
                  "answers": ["por escrito"]}},
    {"id": "o1", "doc": "lei.txt", "kind": "out_of_scope",
     "question": "Qual é a alíquota do imposto de renda sobre o abono?"},
]


def test_eval_answers_on_documents_runs_a_legal_set_through_ingest_and_chat(
        tmp_path: Path, embedder, capsys) -> None:  # type: ignore[no-untyped-def]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lei.txt").write_text(LAW, encoding="utf-8")
    legal = write_jsonl(tmp_path / "legal.jsonl", LEGAL_SET)  # type: ignore[arg-type]
    settings = tmp_path / "calibration.json"
    settings.write_text(json.dumps({"abstention_enabled": False}), encoding="utf-8")
    out = tmp_path / "legal-report.json"
    app = build_app(embedder=embedder)
    app.settings.llm_backend = "none"
    args = build_parser().parse_args(["eval", "answers", str(docs), str(legal), "--settings",
                                      str(settings), "--json", str(out)])
    assert args.handler(args, app) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["documents"] == ["lei.txt"] and report["settings_overrides"] == {
        "abstention_enabled": False}
    assert report["questions"] == 4 and report["answers_given"] == 5
    assert report["abstention_out_of_scope"] == 0.0  # the gate was switched off by --settings
    assert report["revoked_quoted"] == 0.0 and report["first_block_unlocated"] == 0
    for key in ("article_in_first_block", "lists_complete", "list_completeness_mean",
                "followups_answered", "false_abstention"):
        assert report[key] is not None, key
    turns = {o["id"]: o for o in report["outcomes"]}
    assert set(turns) == {"l1", "f1", "u1", "u1/2", "o1"}
    assert turns["l1"]["first_at"][0] == "lei.txt" and turns["l1"]["first_at"][2] in {"1", "2", "3"}
    # the pair was asked as two turns of one chat; single questions outside any chat
    assert turns["u1"]["conversation"] and turns["u1"]["conversation"] == turns["u1/2"][
        "conversation"]
    assert turns["l1"]["conversation"] is None
    assert "article_in_first_block" in capsys.readouterr().out


def test_a_settings_file_naming_no_setting_is_refused(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    settings = tmp_path / "calibration.json"
    settings.write_text(json.dumps({"abstain_min_margn": 0.1}), encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    legal = write_jsonl(tmp_path / "legal.jsonl", LEGAL_SET)  # type: ignore[arg-type]
    args = build_parser().parse_args(["eval", "answers", str(docs), str(legal), "--settings",
                                      str(settings)])
    assert args.handler(args, build_app()) == 2
    assert "abstain_min_margn" in capsys.readouterr().err
    args = build_parser().parse_args(["eval", "answers", str(docs), str(legal), "--indomain"])
    assert args.handler(args, build_app()) == 2
    assert "for a BEIR corpus" in capsys.readouterr().err
