"""Conversation recall on LoCoMo (long dialogues between two people, with dated sessions).

Method, per conversation: a fresh store replays every session as an earlier chat dated
with the session's date and time — the first speaker as the user (their turns go through
memory extraction, as a user's do), the second as the assistant — and the recall index
is built as the app builds it. Then every question is asked and the context block an
answer would get is built (`fit_context`, the app's budget and tokenizer). Reported per
category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) and over 1–4:

- `answer_in_block`: the answer, folded, occurs in the block as whole words;
- `evidence_in_block`: some turn the dataset names as evidence is shown (a sentence of it);
- `evidence_recall_at_10_turns`: some evidence turn is among the recall's first 10 turns
  (its second stage: turns, not exchanges);
- `quoted`: without a model, the answer would quote the block (`personal_quotes`) instead
  of saying the chats do not tell — wanted for 1–4, not for category 5.

Beside each, a BM25 baseline computed in the same run over the same turns: the top 10
turns by BM25 (`bm25_evidence_recall_at_10`) and a greedy pack of BM25's turns, best
first, each with its session's date, under the same budget (`bm25_pack_answer_in_block`,
`bm25_pack_evidence_in_block`). Category 5 (the dialogue never says) is reported apart:
how often the block still holds something the answer path would quote.

`capture` keeps what the searches gave each question (legs, memories, messages), so the
packing can be re-run offline on exactly these inputs (bench/memory_offline.py).
"""

from __future__ import annotations

import pickle
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop_app.answer.context import MAX_MEMORIES, fit_context, memory_similarity
from desktop_app.answer.personal_quotes import personal_quotes
from desktop_app.answer.prompt import MemoryItem as PromptMemory
from desktop_app.answer.prompt import PromptTexts, load_prompts, neutralize
from desktop_app.chat.conversations import ConversationStore
from desktop_app.errors import AppError
from desktop_app.evaluation.bm25 import BM25
from desktop_app.memory.recall import RecallService, dated
from desktop_app.memory.service import MemoryService
from desktop_app.memory.types import SENSITIVE_CATEGORIES, chat_date
from desktop_app.state_db import StateDB
from desktop_app.text.fold import fold

CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop"}
UNANSWERABLE = 5
TOP_TURNS = 10
_WORDS = re.compile(r"[0-9a-z]+")


def load_locomo(path: Path, conversations: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The conversations of a LoCoMo JSON file (all, or those whose `sample_id` is named)."""
    import json

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AppError(f"Cannot read the LoCoMo file {path}: {exc}") from exc
    if not isinstance(data, list) or not all(isinstance(d, dict) and "qa" in d for d in data):
        raise AppError(f"{path} is not a LoCoMo file (a list of conversations with qa).")
    if conversations:
        known = {str(d.get("sample_id")) for d in data}
        missing = [c for c in conversations if c not in known]
        if missing:
            raise AppError(f"No conversation {', '.join(missing)} in {path} "
                           f"(it has {', '.join(sorted(known))}).")
        data = [d for d in data if str(d.get("sample_id")) in conversations]
    return data


def sessions(sample: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """(ISO 8601 date, turns) of each session, in order."""
    conv = sample["conversation"]
    numbers = sorted(int(k.split("_")[1]) for k in conv
                     if re.fullmatch(r"session_\d+", k) and conv[k])
    return [(session_time(str(conv[f"session_{n}_date_time"])), list(conv[f"session_{n}"]))
            for n in numbers]


def session_time(label: str) -> str:
    """"1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z"."""
    moment = datetime.strptime(" ".join(label.split()), "%I:%M %p on %d %B, %Y")
    return moment.replace(tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_GLUED = re.compile(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)")


def words(text: Any) -> list[str]:
    """Folded words; a number glued to a word is two ("23January" → "23 january"), as some
    answers are written."""
    return _WORDS.findall(_GLUED.sub(" ", fold(str(text))))


def answer_in(answer: Any, text: str) -> bool:
    """The folded answer occurs in `text` as whole words ("7 May 2023", "Adoption agencies")."""
    needle = words(answer)
    return bool(needle) and f" {' '.join(needle)} " in f" {' '.join(words(text))} "


class Replay:
    """One conversation replayed into a fresh store: the app's memory and recall."""

    def __init__(self, sample: dict[str, Any], embedder: Any, workdir: Path) -> None:
        self.db = StateDB.open(workdir / "state.sqlite3")
        self.conversations = ConversationStore(self.db)
        self.memory = MemoryService(self.db, workdir / "memory", embedder,
                                    conversations=self.conversations, retention_days=0)
        self.recall = RecallService(self.db, workdir / "recall", embedder,
                                    conversations=self.conversations, retention_days=0)
        self.memory.conversation_recall = self.recall
        for category in SENSITIVE_CATEGORIES:
            self.memory.consents.record(category, True)
        user = str(sample["conversation"]["speaker_a"])
        self.message_of: dict[str, str] = {}  # dataset turn id (D1:3) → message id
        self.turns: list[tuple[str, str, str, str]] = []  # (dia id, role, text, ISO date)
        for number, (when, turns) in enumerate(sessions(sample), start=1):
            conv_id = self.conversations.new_conversation(f"session {number}")
            candidates = []
            for turn in turns:
                text = " ".join(str(turn.get("text", "")).split())
                if not text:
                    continue
                if turn["speaker"] == user:
                    message = self.conversations.add_user_message(conv_id, text, timestamp=when)
                    self.message_of[turn["dia_id"]] = message.message_id
                    candidates += self.memory.candidates_from(message, use_llm=False,
                                                              use_patterns=True)
                    role = "user"
                else:
                    stored = self.conversations.add_assistant_message(conv_id, text,
                                                                      timestamp=when)
                    self.message_of[turn["dia_id"]] = stored.id
                    role = "assistant"
                self.turns.append((turn["dia_id"], role, text, when))
            self.memory.save(candidates)
        self.recall.sync()

    def close(self) -> None:
        self.db.close()


def bm25_pack(order: Sequence[int], turns: Sequence[tuple[str, str, str, str]],
              texts: PromptTexts, count_tokens: Callable[[str], int],
              budget: int) -> tuple[str, list[int]]:
    """BM25's turns, best first, each with its session's date, while the block fits."""
    head = texts["recall"].format(items="")
    used = count_tokens(head)
    lines: list[str] = []
    chosen: list[int] = []
    for i in order:
        _, role, text, when = turns[i]
        label = texts["recall_user" if role == "user" else "recall_assistant"]
        line = f"[{chat_date(when, texts.language)}] " + label.format(text=neutralize(text))
        cost = count_tokens(line) + 1
        if used + cost > budget:
            continue
        used += cost
        lines.append(line)
        chosen.append(i)
    return texts["recall"].format(items="\n".join(lines)), chosen


def evaluate_conversation(sample: dict[str, Any], embedder: Any, workdir: Path, *,
                          budget: int, count_tokens: Callable[[str], int],
                          capture: list[Any] | None = None) -> list[dict[str, Any]]:
    replay = Replay(sample, embedder, workdir)
    try:
        texts = load_prompts("en")
        bm25 = BM25([text for _, _, text, _ in replay.turns])
        index_of = {dia: i for i, (dia, _, _, _) in enumerate(replay.turns)}
        results = []
        for qa in sample["qa"]:
            question = " ".join(str(qa["question"]).split())
            category = int(qa["category"])
            evidence = [e for e in qa.get("evidence", []) if e in replay.message_of]
            wanted = {replay.message_of[e] for e in evidence}
            vector = embedder.embed_query(question)
            memories = replay.memory.recall(question, MAX_MEMORIES, query_vector=vector)
            legs = replay.recall.legs(question, vector=vector)
            found = replay.recall.stages(question, legs=legs)
            earlier = dated(replay.recall.render(found), texts.language)
            items = [PromptMemory(str(m.id), str(m.text)) for m in memories]
            similarity = memory_similarity(items, embedder.embed_passages, vector)
            block = fit_context(items, earlier, texts, count_tokens=count_tokens,
                                budget=budget, query=question, memory_similarity=similarity)
            order = bm25.ranked(question)
            pack, packed = bm25_pack(order, replay.turns, texts, count_tokens, budget)
            answer = qa.get("answer", qa.get("adversarial_answer", ""))
            results.append({
                "conversation": sample.get("sample_id"), "question": question,
                "category": category, "answer": str(answer), "evidence": evidence,
                "answer_in_block": answer_in(answer, block.text),
                "evidence_in_block": bool(wanted & set(block.message_ids)),
                "evidence_recall_at_10_turns": bool(wanted & set(found.turns[:TOP_TURNS])),
                "bm25_pack_answer_in_block": answer_in(answer, pack),
                "bm25_pack_evidence_in_block": bool(set(evidence) & {replay.turns[i][0]
                                                                     for i in packed}),
                "bm25_evidence_recall_at_10": bool(set(evidence) & {
                    replay.turns[i][0] for i in order[:TOP_TURNS]}),
                "block_tokens": block.tokens, "block_memories": len(block.memories),
                "memory_tokens": count_tokens(block.text.split("From earlier chats")[0])
                if block.memories else 0,
                "recalled_turns": len(block.message_ids),
                "quoted": bool(personal_quotes(question, block.memories, block.exchanges)),
            })
            if capture is not None:
                capture.append({"question": question, "category": category,
                                "memory_similarity": similarity,
                                "answer": answer, "wanted": sorted(wanted),
                                "memories": [(i.id, i.text) for i in items], "legs": legs,
                                "bm25_order": order, "vector": vector})
        if capture is not None:
            stored = {m.id: m for c in replay.conversations.conversations()
                      for m in replay.conversations.messages(c["id"])}
            capture.append({"messages": stored, "index_of": index_of,
                            "vectors": replay.recall.index.vectors(),
                            "turns": replay.turns, "sample_id": sample.get("sample_id")})
        return results
    finally:
        replay.close()


def _share(rows: Sequence[dict[str, Any]], key: str) -> float | None:
    return round(sum(bool(r[key]) for r in rows) / len(rows), 3) if rows else None


METRICS = ("answer_in_block", "bm25_pack_answer_in_block", "evidence_in_block",
           "bm25_pack_evidence_in_block", "evidence_recall_at_10_turns",
           "bm25_evidence_recall_at_10", "quoted")


def summarize_locomo(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per category and over categories 1–4, each figure beside BM25's."""
    answerable = [r for r in rows if r["category"] in CATEGORIES]
    out: dict[str, Any] = {"questions": len(answerable),
                           **{m: _share(answerable, m) for m in METRICS}}
    out["per_category"] = {
        f"{n}_{name}": {"questions": len(of), **{m: _share(of, m) for m in METRICS}}
        for n, name in CATEGORIES.items()
        if (of := [r for r in answerable if r["category"] == n])}
    unanswerable = [r for r in rows if r["category"] == UNANSWERABLE]
    if unanswerable:
        out["per_category"]["5_unanswerable"] = {
            "questions": len(unanswerable),
            "evidence_in_block": _share(unanswerable, "evidence_in_block"),
            "quoted": _share(unanswerable, "quoted")}
    tokens = sorted(r["block_tokens"] for r in rows)
    out["block_tokens_p95"] = tokens[max(0, -(-95 * len(tokens) // 100) - 1)] if tokens else 0
    out["mean_block_memories"] = round(sum(r["block_memories"] for r in rows)
                                       / (len(rows) or 1), 2)
    out["mean_memory_tokens"] = round(sum(r["memory_tokens"] for r in rows)
                                      / (len(rows) or 1), 1)
    return out


def run_locomo_eval(app: Any, path: Path, *, conversations: Sequence[str] | None = None,
                    budget: int, count_tokens: Callable[[str], int], tokenizer: str,
                    progress: Callable[[str], None] | None = None,
                    capture_dir: Path | None = None) -> dict[str, Any]:
    samples = load_locomo(path, conversations)
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    halves: dict[str, Any] = {}
    app.paths.cache_dir.mkdir(parents=True, exist_ok=True)
    for sample in samples:
        capture: list[Any] | None = [] if capture_dir is not None else None
        with tempfile.TemporaryDirectory(dir=app.paths.cache_dir) as tmp:
            got = evaluate_conversation(sample, app.embedder, Path(tmp), budget=budget,
                                        count_tokens=count_tokens, capture=capture)
        if capture is not None and capture_dir is not None:
            capture_dir.mkdir(parents=True, exist_ok=True)
            with open(capture_dir / f"{sample.get('sample_id')}.pkl", "wb") as fh:
                pickle.dump(capture, fh)
        rows += got
        halves[str(sample.get("sample_id"))] = summarize_locomo(got)
        if progress:
            s = halves[str(sample.get("sample_id"))]
            progress(f"{sample.get('sample_id')}: answer in block {s['answer_in_block']} "
                     f"(BM25 pack {s['bm25_pack_answer_in_block']}), evidence@10 turns "
                     f"{s['evidence_recall_at_10_turns']} (BM25 "
                     f"{s['bm25_evidence_recall_at_10']})")
    summary = summarize_locomo(rows)
    return {**{m: summary[m] for m in METRICS}, "questions": summary["questions"],
            "block_tokens_p95": summary["block_tokens_p95"], "budget_tokens": budget,
            "tokenizer": tokenizer, "file": str(path),
            "conversations": [str(s.get("sample_id")) for s in samples],
            "seconds": round(time.perf_counter() - started, 1),
            "summary": summary, "per_conversation": halves, "questions_detail": rows}
