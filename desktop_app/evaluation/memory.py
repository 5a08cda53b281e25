"""Memory evaluation on the user-memory test cases (bojieli/ai-agent-book, layer1/layer2).

Method, per case: a fresh memory store (a simulated user who consented to every
sensitive category, no retention expiry) replays the case's conversation histories
through the real extraction pipeline — only the user's messages can create memories,
the agent's turns are stored as conversation context — then the case's `user_question`
is asked and the top-k recalled memories form the prompt's "What you told me" block.
A needed fact counts as found when its text occurs in that block (case-insensitive).
This is a retrieval-level score: it does not depend on how the tiny LLM words an answer.

Needed facts: `gold_facts.json` where it has the case, else key values (numbers, codes,
amounts, times, dates, capitalized names) read from `evaluation_criteria`, kept only
when they occur in the conversation and dropping parenthesised history ("changed from
$85,000…") and negated values ("not Wells Fargo").

Also reported: `stored` (the fact is in some memory, whatever the question) and
`user_said` (the fact occurs in the user's own words at all: the ceiling for a memory
that refuses to learn from the other party's turns).
"""

from __future__ import annotations

import json
import logging
import math
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop_app.answer.context import (
    MAX_MEMORIES,
    estimate_tokens,
    fit_context,
    memory_similarity,
)
from desktop_app.answer.prompt import MemoryItem as PromptMemory
from desktop_app.answer.prompt import load_prompts
from desktop_app.chat.conversations import ConversationStore
from desktop_app.errors import AppError
from desktop_app.memory.recall import RecallService, dated
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import SENSITIVE_CATEGORIES
from desktop_app.state_db import StateDB
from desktop_app.text.language import question_language

log = logging.getLogger(__name__)

MODES = ("patterns", "llm", "both")
K_VALUES = (3, 5, 10)  # 3 is what the answer service puts in the prompt (MEMORY_K)
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|"
           "December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")
_KEY_VALUE = re.compile(
    rf"\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b"  # dates
    r"|\$\d[\d,]*(?:\.\d+)?"  # amounts
    r"|\b\d{1,2}:\d{2}\s?(?:AM|PM|am|pm)?"  # times
    r"|\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{2,}\b"  # codes: PAC-778K4M, 12C
    r"|\b\d[\d-]{3,}\d\b"  # long numbers: 4429853327, 7789-4456-901
    r"|\b(?:Dr\.\s|Professor\s)?[A-Z][a-z]+(?:\s(?:[A-Z][a-z]+(?:-[A-Z][a-z]+)?|[A-Z]\.))+"
)
_NAME_STOP = {"The", "This", "That", "These", "Since", "When", "If", "Agent", "User", "Rather",
              "Both", "For", "And", "But", "While", "After", "Before", "Course", "Total",
              "Financial", "Current", "Final", "Response", "It", "In", "On", "At", "Any"}


def load_cases(directory: Path) -> list[dict[str, Any]]:
    import yaml

    files = sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml"))
    if not files:
        raise AppError(f"No test cases (*.yaml) in {directory}.")
    return [yaml.safe_load(f.read_text(encoding="utf-8")) for f in files]


def load_gold(directory: Path, gold_file: Path | None = None) -> dict[str, Any]:
    """Gold facts: `gold_file` when given (`eval memory --gold FILE`), else a
    `gold_facts.json` beside the cases or one folder up."""
    if gold_file is not None:
        if not gold_file.is_file():
            raise AppError(f"No gold facts file at {gold_file}.")
        try:
            return dict(json.loads(gold_file.read_text(encoding="utf-8")))
        except (ValueError, TypeError) as exc:
            raise AppError(f"The gold facts file {gold_file} is not a JSON object: {exc}") \
                from exc
    for candidate in (directory / "gold_facts.json", directory.parent / "gold_facts.json"):
        if candidate.is_file():
            return dict(json.loads(candidate.read_text(encoding="utf-8")))
    return {}


_MERIDIEM = re.compile(r"(\d)\s*([ap])\.?\s?m\b\.?", re.I)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def _norm(text: str) -> str:
    """Case-folded, one space, "2:30pm"/"2:30 p.m." → "2:30 pm", "$1,800" → "$1800"."""
    text = _MERIDIEM.sub(lambda m: f"{m.group(1)} {m.group(2).lower()}m", text)
    return " ".join(_THOUSANDS.sub("", text).casefold().split())


def fact_in(haystack: str, fact: str) -> bool:
    """A needed fact occurs in a (normalised) text as whole tokens: "$80" is not inside
    "$800" or "$80.50", "12C" not inside "112C", "2:30 PM" is not "2:30 AM"."""
    needle = _norm(fact)
    if not needle:
        return False
    for m in re.finditer(re.escape(needle), haystack):
        before = haystack[max(0, m.start() - 2):m.start()]
        after = haystack[m.end():m.end() + 2]
        if before[-1:].isalnum() or re.fullmatch(r"\d[.,:]", before):
            continue
        if after[:1].isalnum() or re.fullmatch(r"[.,:]\d", after):
            continue
        return True
    return False


def conversation_text(case: dict[str, Any], *, role: str | None = None) -> str:
    return _norm(" ".join(str(m.get("content", "")) for conv in case["conversation_histories"]
                          for m in conv.get("messages", [])
                          if role is None or m.get("role") == role))


# a parenthesis or clause that states history or a rejected option, not a current fact
_HISTORY_PAREN = re.compile(
    r"\((?:\s*(?:changed|moved|increased|decreased|reduced|raised|lowered|updated|revised|"
    r"was|were|previously|originally|formerly|initially|before|old|up|down|from|not|"
    r"instead|rather|replaced|superseded)\b)[^)]*\)", re.I)
_NEGATED = re.compile(r"\b(?:not|instead\s+of|rather\s+than)\s+[^,.;()\n]*", re.I)


def key_values(criteria: str, conversation: str) -> list[list[str]]:
    """Key values from evaluation criteria that occur in the conversation (any-of lists).

    History ("(changed from $85,000 to …)", "(was 15mg weekly)") and the value right after
    "not / instead of / rather than" are dropped; any other parenthesis ("$300 ($150 per
    child)") and the rest of a clause after a negation ("instead of shaker (saved $1,800)")
    keep their current facts."""
    conversation = _norm(conversation)
    text = _HISTORY_PAREN.sub(" ", criteria)
    text = _NEGATED.sub(" ", text)
    found: list[str] = []
    for match in _KEY_VALUE.finditer(text):
        value = match.group(0).strip().rstrip(".")
        first = value.split()[0]
        if first in _NAME_STOP or len(value) < 3:
            continue
        if fact_in(conversation, value) and value not in found:
            found.append(value)
    kept = [v for v in found if not any(v != o and fact_in(_norm(o), v) for o in found)]
    return [[v] for v in kept]


def needed_facts(case: dict[str, Any], gold: dict[str, Any]) -> tuple[list[list[str]], str]:
    entry = gold.get(str(case.get("test_id")))
    if entry and entry.get("required_facts"):
        return [f if isinstance(f, list) else [f] for f in entry["required_facts"]], "gold"
    return key_values(str(case.get("evaluation_criteria", "")), conversation_text(case)), \
        "criteria"


def _contains(haystack: str, alternatives: list[str]) -> bool:
    return any(fact_in(haystack, a) for a in alternatives)


def evaluate_case(case: dict[str, Any], gold: dict[str, Any], embedder: Any, *, mode: str,
                  k: int, llm: Any, workdir: Path, budget: int = 600,
                  count_tokens: Callable[[str], int] = estimate_tokens,
                  recall: bool = True, capture: list[Any] | None = None) -> dict[str, Any]:
    """Replay one case into a fresh store, ask its question, score the context block."""
    db = StateDB.open(workdir / "state.sqlite3")
    conversations = ConversationStore(db)
    memory = MemoryService(db, workdir / "memory", embedder, conversations=conversations,
                           retention_days=0, llm_provider=(lambda: llm) if llm else None)
    recaller = RecallService(db, workdir / "recall", embedder, conversations=conversations,
                             retention_days=0, enabled=recall)
    memory.conversation_recall = recaller
    for category in SENSITIVE_CATEGORIES:
        memory.consents.record(category, True)
    use_llm = mode in ("llm", "both")
    use_patterns = mode in ("patterns", "both")
    sensitive = 0
    for conv in case["conversation_histories"]:
        conv_id = conversations.new_conversation(str(conv.get("conversation_id", "")))
        stamp = str(conv.get("timestamp", "")).replace(" ", "T") + "Z"
        candidates = []
        for m in conv.get("messages", []):
            content = str(m.get("content", "")).strip()
            if not content:
                continue
            if m.get("role") == "user":
                message = conversations.add_user_message(conv_id, content, timestamp=stamp)
                candidates += memory.candidates_from(message, use_llm=use_llm,
                                                     use_patterns=use_patterns)
            else:
                conversations.add_assistant_message(conv_id, content, timestamp=stamp)
        # saved in message order (so later statements supersede earlier ones), one
        # embedding batch per conversation
        outcomes = memory.save(candidates)
        sensitive += sum(o.candidate.sensitive for o in outcomes if o.status == "saved")
    recaller.sync()
    question = " ".join(str(case["user_question"]).split())
    vector = embedder.embed_query(question)  # once, as the answer service does
    ranked = memory.recall(question, max(K_VALUES + (k,)), query_vector=vector)
    blocks = {n: _norm(" ".join(i.text for i in ranked[:n])) for n in set(K_VALUES + (k,))}
    block_items = ranked[:k]
    block = blocks[k]
    # the block the model would get: memories + earlier conversations under the budget
    texts = load_prompts(question_language(question))
    legs = recaller.legs(question, vector=vector) if recaller.enabled else ([], [])
    found = recaller.stages(question, legs=legs)
    items = [PromptMemory(i.id, i.text) for i in ranked[:MAX_MEMORIES]]
    similarity = memory_similarity(items, embedder.embed_passages, vector)
    context = fit_context(items, dated(recaller.render(found), texts.language), texts,
                          count_tokens=count_tokens, budget=budget, query=question,
                          memory_similarity=similarity)
    in_context = _norm(context.text)
    stored = _norm(" ".join(i.text for i in memory.list_items(status="history")))
    user_said = conversation_text(case, role="user")
    facts, source = needed_facts(case, gold)
    per_fact = [{"fact": f[0], "found": _contains(block, f), "stored": _contains(stored, f),
                 "user_said": _contains(user_said, f),
                 "in_context_block": _contains(in_context, f),
                 **{f"found@{n}": _contains(blocks[n], f) for n in K_VALUES}} for f in facts]
    active = memory.list_items()
    exchanges = recaller.count()
    if capture is not None:  # what the searches gave: the packing can be re-run offline
        capture.append({"question": question, "memories": [(i.id, i.text) for i in items],
                        "memory_similarity": similarity,
                        "legs": legs, "facts": facts, "language": texts.language,
                        "vectors": recaller.index.vectors() if recaller.enabled else {},
                        "messages": {m.id: m for c in conversations.conversations()
                                     for m in conversations.messages(c["id"])}})
    db.close()
    n = len(facts)
    in_block = sum(bool(p["in_context_block"]) for p in per_fact)
    return {
        "test_id": case.get("test_id"), "facts_from": source, "facts": per_fact,
        "n_facts": n, "found": sum(p["found"] for p in per_fact),
        "in_context_block": in_block,
        "in_context_block_share": round(in_block / n, 3) if n else None,
        "block_tokens": context.tokens, "block_memories": len(context.memories),
        "block_exchanges": len(context.exchanges), "indexed_exchanges": exchanges,
        "stored": sum(p["stored"] for p in per_fact),
        "user_said": sum(p["user_said"] for p in per_fact),
        **{f"found@{n}": sum(p[f"found@{n}"] for p in per_fact) for n in K_VALUES},
        "memories": len(active), "sensitive_saved_with_consent": sensitive,
        "block": [i.id for i in block_items],
    }


def _p95(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)] if ordered else 0


def summarize(cases: list[dict[str, Any]]) -> dict[str, Any]:
    total = sum(c["n_facts"] for c in cases) or 1
    scored = [c for c in cases if c["n_facts"]]
    return {
        "cases": len(cases), "facts": sum(c["n_facts"] for c in cases),
        "in_context_block": round(sum(c["in_context_block"] for c in cases) / total, 3),
        "block_tokens_p95": _p95([c["block_tokens"] for c in cases]),
        "fact_recall_in_block": round(sum(c["found"] for c in cases) / total, 3),
        **{f"fact_recall@{n}": round(sum(c[f"found@{n}"] for c in cases) / total, 3)
           for n in K_VALUES},
        "fact_stored": round(sum(c["stored"] for c in cases) / total, 3),
        "fact_user_said_ceiling": round(sum(c["user_said"] for c in cases) / total, 3),
        "cases_all_facts_in_block": round(
            sum(c["found"] == c["n_facts"] for c in scored) / (len(scored) or 1), 3),
        "gold_cases": sum(c["facts_from"] == "gold" for c in cases),
        "mean_memories_per_case": round(sum(c["memories"] for c in cases) / (len(cases) or 1),
                                        1),
        "sensitive_saved_with_consent": sum(c["sensitive_saved_with_consent"] for c in cases),
    }


def token_counter(app: Any) -> tuple[Callable[[str], int], str]:
    """The app's own token count (its model's tokenizer), else a conservative estimate."""
    try:
        from desktop_app.answer.llm import build_llm

        llm = build_llm(app.settings)
        if llm is not None:
            llm.count_tokens("probe")
            return llm.count_tokens, str(llm.name)
    except Exception as exc:  # no model at hand: the estimate over-counts, never under
        log.info("token counting without a model (%s)", type(exc).__name__)
    return estimate_tokens, "estimate (3 chars/token)"


def run_memory_eval(app: Any, directory: Path, *, mode: str = "patterns", k: int = 3,
                    limit: int | None = None, llm: Any = None,
                    progress: Callable[[str], None] | None = None,
                    gold_file: Path | None = None, recall: bool = True,
                    budget: int | None = None, conversations: list[str] | None = None,
                    capture_dir: Path | None = None) -> dict[str, Any]:
    """Evaluate memory extraction + recall on every case in `directory`.

    `mode`: "patterns" (rules only, the no-LLM floor), "llm" (the local model only) or
    "both" (what the app does when implicit extraction is on and a model is present).
    `recall`: earlier conversations in the context block (the app's default), or
    profile memories only. `budget`: the block's tokens (default: the app's setting).
    A LoCoMo JSON file instead of a folder runs the LoCoMo evaluation (evaluation/locomo.py;
    `conversations`: some of its conversations by id). `capture_dir`: keep each case's
    search results there, to re-run the packing offline (bench/memory_offline.py).
    """
    if mode not in MODES:
        raise AppError(f"Unknown mode {mode!r}: use one of {', '.join(MODES)}.")
    directory = Path(directory)
    if directory.is_file():
        from desktop_app.evaluation.locomo import run_locomo_eval

        count, name = token_counter(app)
        return {**run_locomo_eval(app, directory, conversations=conversations,
                                  budget=budget if budget is not None
                                  else app.settings.context_block_tokens,
                                  count_tokens=count, tokenizer=name, progress=progress,
                                  capture_dir=capture_dir), "measured_on": _revision()}
    cases = load_cases(directory)[: limit or None]
    gold = load_gold(directory, gold_file)
    budget = budget if budget is not None else app.settings.context_block_tokens
    count_tokens, tokenizer = token_counter(app)
    if mode != "patterns" and llm is None:
        from desktop_app.answer.llm import build_llm

        llm = build_llm(app.settings)
        if llm is None:
            raise AppError("The llm mode needs a model; the LLM backend is set to 'none'.")
    started = time.perf_counter()
    results = []
    app.paths.cache_dir.mkdir(parents=True, exist_ok=True)
    captured: list[Any] | None = [] if capture_dir is not None else None
    for case in cases:
        with tempfile.TemporaryDirectory(dir=app.paths.cache_dir) as tmp:
            result = evaluate_case(case, gold, app.embedder, mode=mode, k=k, llm=llm,
                                   workdir=Path(tmp), budget=budget,
                                   count_tokens=count_tokens, recall=recall, capture=captured)
        results.append(result)
        if progress:
            progress(f"{result['test_id']}: {result['in_context_block']}/{result['n_facts']} "
                     f"in the context block ({result['block_tokens']} tokens, "
                     f"{result['block_memories']} memories, {result['block_exchanges']} "
                     f"exchanges); {result['found']} in the top-{k} memories, "
                     f"{result['stored']} stored, {result['memories']} memories")
    if captured is not None and capture_dir is not None:
        import pickle

        capture_dir.mkdir(parents=True, exist_ok=True)
        with open(capture_dir / f"{directory.name}.pkl", "wb") as fh:
            pickle.dump(captured, fh)
    summary = summarize(results)
    return {"facts": summary["facts"], "in_context_block": summary["in_context_block"],
            "block_tokens_p95": summary["block_tokens_p95"], "budget_tokens": budget,
            "measured_on": _revision(), "directory": str(directory), "mode": mode, "k": k,
            "recall": recall,
            "tokenizer": tokenizer,
            "llm": getattr(llm, "name", None) if mode != "patterns" else None,
            "seconds": round(time.perf_counter() - started, 1),
            "summary": summary, "cases": results}


def _revision() -> str | None:
    """The source revision measured (git commit of the checkout), when there is one."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=5, cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return f"commit {out.stdout.strip()}" if out.returncode == 0 and out.stdout.strip() else None
