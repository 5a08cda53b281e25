"""CLI: `ask` (streamed, cited answers), `models list|add|use|remove|mode` and
`eval answers` (answer quality on a BEIR corpus with a QA file, or on a folder of
documents with a legal set).

Handlers take `(args, app)` where `app` is `desktop_app.app.App`; they use
`app.answer_service`, `app.settings` and `app.save_settings()`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from desktop_app.answer.events import (
    READING,
    Citation,
    Done,
    MemoryUsed,
    Progress,
    RecallUsed,
    Token,
)
from desktop_app.answer.gguf_info import format_size
from desktop_app.privacy.stderr import tell_user


def register(subparsers: Any) -> None:
    ask = subparsers.add_parser("ask", help="answer a question from your documents, with sources")
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--model", metavar="PATH",
                     help="use this GGUF file for this answer only (it writes the answer when it "
                          "is big enough, like the active model)")
    ask.add_argument("--no-llm", action="store_true",
                     help="sources only: best sentences from the top passages, no model")
    ask.add_argument("--experiment", action="store_true",
                     help="let a model too small to follow the answer prompt (e.g. the bundled "
                          "SmolLM2) write this answer; it is labelled an experiment")
    ask.add_argument("--json", action="store_true", help="print the final answer and trace as JSON")
    ask.add_argument("--k", type=int, metavar="N", help="how many passages to retrieve")
    ask.set_defaults(handler=run_ask)

    models = subparsers.add_parser("models", help="list, add or choose the local language model")
    sub = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="models known to Acervo").set_defaults(handler=run_models_list)
    add = sub.add_parser("add", help="add a GGUF file from disk")
    add.add_argument("path", help="path to a .gguf file")
    add.add_argument("--name", help="name to show (default: the file name)")
    add.add_argument("--template", help="chat template when the GGUF has none (e.g. chatml)")
    add.add_argument("--use", action="store_true", help="make it the active model")
    add.set_defaults(handler=run_models_add)
    use = sub.add_parser("use", help="make a model the active one")
    use.add_argument("name")
    use.set_defaults(handler=run_models_use)
    remove = sub.add_parser("remove", help="forget a model you added (the file is kept)")
    remove.add_argument("name")
    remove.set_defaults(handler=run_models_remove)
    mode = sub.add_parser("mode", help="who writes answers: auto (a capable model, else the "
                                       "sources), written (always the model), sources (never)")
    mode.add_argument("value", nargs="?", choices=("auto", "written", "sources"),
                      help="omit to show the current mode")
    mode.set_defaults(handler=run_models_mode)


def register_eval(eval_sub: Any) -> None:
    e = eval_sub.add_parser(
        "answers", help="answer quality: gold spans, badges, abstention, latency; on a "
                        "folder of documents, a legal set (articles, lists, revoked text)")
    e.add_argument("corpus", type=Path,
                   help="BEIR folder (corpus.jsonl, qrels/test.tsv), or a folder of documents "
                        "(the files a legal set names, ingested by the app's pipeline)")
    e.add_argument("qa", type=Path,
                   help="questions: a QA .jsonl with answers and doc_id, or BEIR queries.jsonl; "
                        "for a documents folder, a legal set (see evaluation/legal.py)")
    e.add_argument("--unanswerable", type=Path, metavar="OTHER_QUERIES.jsonl",
                   help="questions from another set: each should be answered 'not found'")
    e.add_argument("--indomain", action="store_true",
                   help="also take the questions' own paragraphs out of the corpus: each "
                        "should then be answered 'not found' (abstention_indomain)")
    e.add_argument("--settings", type=Path, default=None, metavar="FILE.json",
                   help="answer with these settings replaced (a JSON object of setting names "
                        "and values, e.g. a calibration made without this set)")
    e.add_argument("--limit", type=int, default=None, help="first N questions of each file")
    e.add_argument("--sources-only", action="store_true",
                   help="skip written answers even when a capable model is configured")
    e.add_argument("--json", type=Path, default=None, metavar="OUT",
                   help="write the report (with per-question outcomes) here")
    e.set_defaults(handler=run_eval_answers)


def run_eval_answers(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.evaluation.answers import load_overrides, run_answer_eval, with_overrides
    from desktop_app.evaluation.legal_run import run_legal_eval

    out = out or sys.stdout
    legal = args.corpus.is_dir() and not (args.corpus / "corpus.jsonl").exists()
    if legal and (args.unanswerable or args.indomain):
        print("error: --unanswerable and --indomain are for a BEIR corpus; a legal set has "
              "its own out-of-scope questions", file=sys.stderr)
        return 2
    needed = [args.corpus, args.qa, args.unanswerable, args.settings]
    if not legal:
        needed[0] = args.corpus / "corpus.jsonl"
    for path in needed:
        if path is not None and not path.exists():
            print(f"error: not found: {path}", file=sys.stderr)
            return 2
    try:
        overrides = load_overrides(args.settings)
        with_overrides(app.settings, overrides)  # a name that is not a setting: say so now
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    def say(message: str) -> None:
        print(f"  {message}", file=sys.stderr, flush=True)

    if legal:
        report = run_legal_eval(app, args.corpus, args.qa, limit=args.limit,
                                overrides=overrides, progress=say)
        print_legal_report(report, out)
    else:
        report = run_answer_eval(app, args.corpus, args.qa, args.unanswerable, limit=args.limit,
                                 written=False if args.sources_only else None,
                                 indomain=args.indomain, overrides=overrides, progress=say)
        print_answer_report(report, out)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


_REPORT_ROWS = ("first_block_contains_gold", "answer_contains_gold", "citation_precision",
                "abstention_unanswerable", "false_abstention_answerable", "mean_blocks",
                "answer_step_ms_p50", "answer_step_ms_p90", "answer_step_cold_ms_p50",
                "retrieval_ms_p50")
_INDOMAIN_ROWS = ("abstention_indomain", "false_abstention_answerable_indomain")
_LEGAL_ROWS = ("article_in_first_block", "lists_complete", "list_completeness_mean",
               "answer_contains_gold", "first_block_contains_gold", "abstention_out_of_scope",
               "false_abstention", "revoked_quoted", "revoked_quoted_answers",
               "followups_answered", "followup_article_in_first_block")


def print_answer_report(report: dict[str, Any], out: TextIO) -> None:
    print(f"{report['corpus']}: {report['questions']} questions "
          f"(+{report['unanswerable_questions']} from {report['unanswerable']})", file=out)
    written = report.get("written", {})
    header = "sources-only" + ("      written" if written.get("run") else "")
    print(f"{'':30} {header}", file=out)
    for key in _REPORT_ROWS:
        value = report.get(key)
        line = f"{key:30} {'—' if value is None else value!s:>12}"
        if written.get("run"):
            other = written.get(key)
            line += f" {'—' if other is None else other!s:>12}"
        print(line, file=out)
    if not written.get("run"):
        print(f"written mode not run: {written.get('why', '')}", file=out)
    setting = report.get("indomain")
    if setting:
        print(f"in-domain: {setting['unanswerable_questions']} questions without their "
              f"paragraphs ({setting['docs_removed']} of "
              f"{setting['docs_removed'] + setting['docs_kept']} removed), "
              f"{setting['answerable_questions']} answerable", file=out)
        for key in _INDOMAIN_ROWS:
            value = report.get(key)
            print(f"{key:38} {'—' if value is None else value!s:>8}", file=out)


def print_legal_report(report: dict[str, Any], out: TextIO) -> None:
    """The legal set's figures, then the count and scores of each kind of question."""
    print(f"{report['qa']} on {', '.join(report['documents'])}: {report['questions']} "
          f"questions, {report['answers_given']} answers (sources-only)", file=out)
    for key in _LEGAL_ROWS:
        value = report.get(key)
        print(f"{key:34} {'—' if value is None else value!s:>8}", file=out)
    for kind, row in report.get("per_kind", {}).items():
        article = row.get("article_in_first_block")
        print(f"  {kind:18} {row['questions']:4} asked, {row['abstained']:3} not found"
              + ("" if article is None else f", right article first {article}"), file=out)


def _page(c: Citation) -> str:
    if c.page <= 0:
        return ""
    from desktop_app.ingest.places import place_label  # "slide 3", "sheet 2", "p. 8"

    place = place_label(c.file_type, c.page, c.page_end)
    return (f", {place}" if place else "") + (f", {c.ocr_label}" if c.ocr_label else "")


def print_sources(done: Done, out: TextIO) -> None:
    if done.citations:
        print("\nSources:", file=out)
        for c in done.citations:
            print(f"  [{c.number}] {c.title}{_page(c)} — {c.source_path}", file=out)
    if done.closest:
        print("\nClosest passages (not an answer):", file=out)
        for c in done.closest:
            snippet = " ".join(c.snippet.split())[:160]
            print(f"  {c.title}{_page(c)} — {snippet}", file=out)
    for warning in done.warnings:
        print(f"({warning.english()})", file=out)


def run_ask(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.llm import build_llm
    from desktop_app.answer.mode import describe_mode
    from desktop_app.answer.service import done_as_dict

    out = out or sys.stdout
    if args.k is not None and args.k < 1:
        print("error: --k must be at least 1", file=sys.stderr)
        return 2
    service = app.answer_service
    if args.model and not args.no_llm:
        service = service.with_llm(build_llm(app.settings, model_path=args.model))
    experiment = bool(getattr(args, "experiment", False))
    mode = service.mode(sources_only=args.no_llm, experiment=experiment)  # once, shown first
    if not args.json:
        print(describe_mode(mode), file=sys.stderr)
    streamed: list[str] = []
    done: Done | None = None
    for event in service.ask(args.question, sources_only=args.no_llm, k=args.k,
                             experiment=experiment, mode=mode):
        if isinstance(event, Token):
            streamed.append(event.text)
            if not args.json:
                print(event.text, end="", flush=True, file=out)
        elif isinstance(event, Progress) and not args.json and not streamed:
            label = f"reading {event.count} passages" if event.stage == READING else event.stage
            print(f"({label}…)", file=sys.stderr, flush=True)
        elif isinstance(event, MemoryUsed) and not args.json:
            # the user's channel, never the log: it quotes the memory (erasable, LGPD)
            tell_user(f"(using what you told me: {event.text})")
        elif isinstance(event, RecallUsed) and not args.json:
            tell_user(f"(from your chat of {event.date_label})")
        elif isinstance(event, Done):
            done = event
    if done is None:  # the service always ends with Done; guard against a broken stream
        print("error: the answer stream ended unexpectedly", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(done_as_dict(done), ensure_ascii=False, indent=2), file=out)
        return 0
    print(file=out)
    if done.searched_for:
        print(f"(searched for: {done.searched_for})", file=out)
    if done.answer.strip() != "".join(streamed).strip():
        # verification removed citations the stream had shown
        print("\nVerified answer:\n" + done.answer, file=out)
    print_sources(done, out)
    return 0


def _capability_line(parameters: int | None) -> str:
    from desktop_app.answer.gguf_info import format_parameters
    from desktop_app.answer.llm import MIN_WRITING_PARAMETERS, Capability

    line = format_parameters(MIN_WRITING_PARAMETERS)
    if Capability(parameters, "").can_write:
        return "writes answers"
    return (f"too small to write answers ({format_parameters(parameters or 0)} < {line}): "
            "sources-only unless you ask for an experiment")


def run_models_list(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.models import describe_models

    out = out or sys.stdout
    statuses = describe_models(app.settings)
    if not statuses:
        print("No models. Add a GGUF with `desktop-app models add PATH`.", file=out)
    for status in statuses:
        mark = "*" if status.active else " "
        kind = " (bundled)" if status.bundled else ""
        template = f" · template {status.entry.chat_template}" if status.entry.chat_template else ""
        print(f"{mark} {status.entry.name}{kind}", file=out)
        if status.info is not None:
            print(f"    {status.info.describe()}{template}", file=out)
            print(f"    {_capability_line(status.info.parameter_count)}", file=out)
        else:
            print(f"    unavailable: {status.problem}", file=out)
        print(f"    {status.entry.path}", file=out)
    backend = app.settings.llm_backend
    if backend != "llama_cpp":
        print(f"note: the active backend is {backend!r}; these models are used with 'llama_cpp'.",
              file=out)
    return 0


def run_models_add(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.models import add_model, replaces_active, use_model

    out = out or sys.stdout
    added = add_model(app.settings, args.path, name=args.name, template=args.template)
    activate = args.use or replaces_active(app.settings, added)
    if activate:
        use_model(app.settings, added.entry.name)
    app.save_settings()
    info = added.info
    print(f"added {added.entry.name}: {info.describe()}", file=out)
    print(f"  architecture {info.architecture}, size {format_size(info.size_bytes)}, "
          f"quantization {info.quantization}, context {info.context_length or 'unknown'}", file=out)
    print(f"  {_capability_line(info.parameter_count)}", file=out)
    for warning in added.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if activate:
        print(f"active model: {added.entry.name}", file=out)
    else:
        print(f"use it with: desktop-app models use {added.entry.name}", file=out)
    return 0


def run_models_use(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.gguf_info import read_gguf_info
    from desktop_app.answer.models import check_template, find_model, use_model

    out = out or sys.stdout
    candidate = find_model(app.settings, args.name)
    if candidate is not None:  # still there and usable? (settings stay unchanged if not)
        check_template(read_gguf_info(candidate.path), candidate.chat_template)
    entry = use_model(app.settings, args.name)
    app.save_settings()
    print(f"active model: {entry.name}", file=out)
    return 0


def run_models_remove(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.models import remove_model

    out = out or sys.stdout
    entry = remove_model(app.settings, args.name)
    app.save_settings()
    print(f"removed {entry.name} from the list (file kept at {entry.path})", file=out)
    return 0


def run_models_mode(args: argparse.Namespace, app: Any, out: TextIO | None = None) -> int:
    from desktop_app.answer.llm import build_llm_or_none
    from desktop_app.answer.mode import decide_mode, describe_mode

    out = out or sys.stdout
    if args.value:
        app.settings.answer_mode = args.value
        app.save_settings()
        app.reset_models()
    print(f"answer_mode: {app.settings.answer_mode}", file=out)
    llm, error = build_llm_or_none(app.settings)  # header only: nothing is loaded
    print(describe_mode(decide_mode(llm, app.settings, llm_error=error)), file=out)
    return 0
