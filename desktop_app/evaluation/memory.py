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
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop_app.chat.conversations import ConversationStore
from desktop_app.errors import AppError
from desktop_app.memory.db import StateDB
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import SENSITIVE_CATEGORIES

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


def load_gold(directory: Path) -> dict[str, Any]:
    for candidate in (directory / "gold_facts.json", directory.parent / "gold_facts.json"):
        if candidate.is_file():
            return dict(json.loads(candidate.read_text(encoding="utf-8")))
    return {}


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def conversation_text(case: dict[str, Any], *, role: str | None = None) -> str:
    return _norm(" ".join(str(m.get("content", "")) for conv in case["conversation_histories"]
                          for m in conv.get("messages", [])
                          if role is None or m.get("role") == role))


def key_values(criteria: str, conversation: str) -> list[list[str]]:
    """Key values from evaluation criteria that occur in the conversation (any-of lists)."""
    text = re.sub(r"\([^)]*\)", " ", criteria)  # "(changed from $85,000 to …)" is history
    text = re.sub(r"\b(?:not|instead of|rather than)\s+[^,.;\n]*", " ", text, flags=re.I)
    found: list[str] = []
    for match in _KEY_VALUE.finditer(text):
        value = match.group(0).strip().rstrip(".")
        first = value.split()[0]
        if first in _NAME_STOP or len(value) < 3:
            continue
        if _norm(value) in conversation and value not in found:
            found.append(value)
    kept = [v for v in found if not any(v != o and _norm(v) in _norm(o) for o in found)]
    return [[v] for v in kept]


def needed_facts(case: dict[str, Any], gold: dict[str, Any]) -> tuple[list[list[str]], str]:
    entry = gold.get(str(case.get("test_id")))
    if entry and entry.get("required_facts"):
        return [f if isinstance(f, list) else [f] for f in entry["required_facts"]], "gold"
    return key_values(str(case.get("evaluation_criteria", "")), conversation_text(case)), \
        "criteria"


def _contains(haystack: str, alternatives: list[str]) -> bool:
    return any(_norm(a) in haystack for a in alternatives)


def evaluate_case(case: dict[str, Any], gold: dict[str, Any], embedder: Any, *, mode: str,
                  k: int, llm: Any, workdir: Path) -> dict[str, Any]:
    """Replay one case into a fresh store, ask its question, score the memory block."""
    db = StateDB.open(workdir / "state.sqlite3")
    conversations = ConversationStore(db)
    memory = MemoryService(db, workdir / "memory", embedder, conversations=conversations,
                           retention_days=0, llm_provider=(lambda: llm) if llm else None)
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
    question = " ".join(str(case["user_question"]).split())
    ranked = memory.recall(question, max(K_VALUES + (k,)))
    blocks = {n: _norm(" ".join(i.text for i in ranked[:n])) for n in set(K_VALUES + (k,))}
    block_items = ranked[:k]
    block = blocks[k]
    stored = _norm(" ".join(i.text for i in memory.list_items(status="history")))
    user_said = conversation_text(case, role="user")
    facts, source = needed_facts(case, gold)
    per_fact = [{"fact": f[0], "found": _contains(block, f), "stored": _contains(stored, f),
                 "user_said": _contains(user_said, f),
                 **{f"found@{n}": _contains(blocks[n], f) for n in K_VALUES}} for f in facts]
    active = memory.list_items()
    db.close()
    return {
        "test_id": case.get("test_id"), "facts_from": source, "facts": per_fact,
        "n_facts": len(facts), "found": sum(p["found"] for p in per_fact),
        "stored": sum(p["stored"] for p in per_fact),
        "user_said": sum(p["user_said"] for p in per_fact),
        **{f"found@{n}": sum(p[f"found@{n}"] for p in per_fact) for n in K_VALUES},
        "memories": len(active), "sensitive_saved_with_consent": sensitive,
        "block": [i.id for i in block_items],
    }


def summarize(cases: list[dict[str, Any]]) -> dict[str, Any]:
    total = sum(c["n_facts"] for c in cases) or 1
    scored = [c for c in cases if c["n_facts"]]
    return {
        "cases": len(cases), "facts": sum(c["n_facts"] for c in cases),
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


def run_memory_eval(app: Any, directory: Path, *, mode: str = "patterns", k: int = 3,
                    limit: int | None = None, llm: Any = None,
                    progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Evaluate memory extraction + recall on every case in `directory`.

    `mode`: "patterns" (rules only, the no-LLM floor), "llm" (the local model only) or
    "both" (what the app does when implicit extraction is on and a model is present).
    """
    if mode not in MODES:
        raise AppError(f"Unknown mode {mode!r}: use one of {', '.join(MODES)}.")
    directory = Path(directory)
    cases = load_cases(directory)[: limit or None]
    gold = load_gold(directory)
    if mode != "patterns" and llm is None:
        from desktop_app.answer.llm import build_llm

        llm = build_llm(app.settings)
        if llm is None:
            raise AppError("The llm mode needs a model; the LLM backend is set to 'none'.")
    started = time.perf_counter()
    results = []
    app.paths.cache_dir.mkdir(parents=True, exist_ok=True)
    for case in cases:
        with tempfile.TemporaryDirectory(dir=app.paths.cache_dir) as tmp:
            result = evaluate_case(case, gold, app.embedder, mode=mode, k=k, llm=llm,
                                   workdir=Path(tmp))
        results.append(result)
        if progress:
            progress(f"{result['test_id']}: {result['found']}/{result['n_facts']} in block, "
                     f"{result['stored']} stored, {result['memories']} memories")
    return {"directory": str(directory), "mode": mode, "k": k,
            "llm": getattr(llm, "name", None) if mode != "patterns" else None,
            "seconds": round(time.perf_counter() - started, 1),
            "summary": summarize(results), "cases": results}
