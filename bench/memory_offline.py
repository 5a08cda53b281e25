"""Re-run conversation recall's two stages and the context packing offline, on what the
searches gave each case in a real evaluation run (`desktop-app eval memory … --capture
DIR`): LoCoMo conversations and the user-memory layers, in seconds instead of minutes,
so a change to the packing or the second stage is judged on all three sets at once.

The figures are those of `eval memory` (same `stages`, `rendered`, `fit_context`,
tokenizer and budget); only the searches are not re-run, so a change to the index or
to the legs needs a new capture.

Run: .venv/bin/python bench/memory_offline.py DIR [--budget 600] [--set NAME=VALUE ...]
`--set` overrides a module constant for the run (context.MEMORY_FLOOR=0, …).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import REPO  # noqa: F401  (puts the repository on sys.path)

DEV = ("conv-26", "conv-30", "conv-41")  # developed on; conv-42 and conv-43 held out
SIMILARITY = True  # memories weighed by their cosine to the question, as the app does
WITH_UNANSWERABLE = False  # category 5 has no answer to find: left out unless dumped


def counter() -> Callable[[str], int]:
    from functools import lru_cache

    from desktop_app.answer.llm import build_llm
    from desktop_app.config.settings import Settings

    llm = build_llm(Settings())
    assert llm is not None
    return lru_cache(maxsize=None)(llm.count_tokens)  # sentences recur question after question


_EMBEDDER: list[Any] = []


def _similarity(case: dict[str, Any]) -> dict[str, float]:
    """The memories' cosines as the run measured them, or measured now (older captures)."""
    if "memory_similarity" in case:
        return dict(case["memory_similarity"])
    from desktop_app.answer.context import memory_similarity
    from desktop_app.answer.prompt import MemoryItem

    if not _EMBEDDER:
        from desktop_app.app import App
        from desktop_app.config.paths import app_paths
        from desktop_app.config.settings import Settings

        _EMBEDDER.append(App(app_paths().ensure(), Settings(llm_backend="none")).embedder)
    embedder = _EMBEDDER[0]
    vector = case.get("vector")
    if vector is None:
        vector = case["vector"] = embedder.embed_query(case["question"])
    case["memory_similarity"] = memory_similarity(
        [MemoryItem(i, t) for i, t in case["memories"]], embedder.embed_passages, vector)
    return dict(case["memory_similarity"])


def _found(case: dict[str, Any], messages: dict[str, Any]) -> tuple[Any, list[Any]]:
    from desktop_app.memory.recall import dated, rendered
    from desktop_app.memory.recall_turns import stages

    found = stages(*case["legs"], k=_recall().CANDIDATES)
    titles: dict[str, str] = {}
    return found, dated(rendered(found, messages, titles), case.get("language", "en"))


def _recall() -> Any:
    import desktop_app.memory.recall as recall

    return recall


def run_locomo(path: Path, count: Callable[[str], int], budget: int) -> list[dict[str, Any]]:
    from desktop_app.answer.context import fit_context
    from desktop_app.answer.prompt import MemoryItem, load_prompts
    from desktop_app.evaluation.locomo import TOP_TURNS, answer_in

    captured = pickle.loads(path.read_bytes())
    meta = captured[-1]
    texts = load_prompts("en")
    rows = []
    for case in captured[:-1]:
        if case["category"] == 5 and not WITH_UNANSWERABLE:
            continue
        found, earlier = _found(case, meta["messages"])
        block = fit_context([MemoryItem(i, t) for i, t in case["memories"]], earlier, texts,
                            count_tokens=count, budget=budget, query=case["question"],
                            memory_similarity=_similarity(case) if SIMILARITY else None)
        wanted = set(case["wanted"])
        rows.append({"conversation": meta["sample_id"], "category": case["category"],
                     "question": case["question"], "answer": case["answer"],
                     "answer_in_block": answer_in(case["answer"], block.text),
                     "evidence_in_block": bool(wanted & set(block.message_ids)),
                     "evidence_recall_at_10_turns": bool(wanted & set(found.turns[:TOP_TURNS])),
                     "block_tokens": block.tokens, "block_memories": len(block.memories),
                     "text": block.text})
    return rows


def run_layer(path: Path, count: Callable[[str], int], budget: int) -> tuple[int, int, list[int]]:
    from desktop_app.answer.context import fit_context
    from desktop_app.answer.prompt import MemoryItem, load_prompts
    from desktop_app.evaluation.memory import _contains, _norm

    found_facts = total = 0
    tokens = []
    for case in pickle.loads(path.read_bytes()):
        _, earlier = _found(case, case["messages"])
        block = fit_context([MemoryItem(i, t) for i, t in case["memories"]], earlier,
                            load_prompts(case["language"]), count_tokens=count, budget=budget,
                            query=case["question"],
                            memory_similarity=_similarity(case) if SIMILARITY else None)
        text = _norm(block.text)
        found_facts += sum(_contains(text, f) for f in case["facts"])
        total += len(case["facts"])
        tokens.append(block.tokens)
    return found_facts, total, tokens


def share(rows: list[dict[str, Any]], key: str) -> float:
    return round(sum(bool(r[key]) for r in rows) / (len(rows) or 1), 3)


def report(rows: list[dict[str, Any]], label: str) -> None:
    answerable = [r for r in rows if r["category"] != 5]
    cats = " ".join(f"c{c}={share([r for r in answerable if r['category'] == c], 'answer_in_block')}"
                    for c in (1, 2, 3, 4))
    print(f"{label:8} answer {share(answerable, 'answer_in_block')} evidence "
          f"{share(answerable, 'evidence_in_block')} @10 "
          f"{share(answerable, 'evidence_recall_at_10_turns')}  [{cats}] "
          f"mem/block {sum(r['block_memories'] for r in rows) / (len(rows) or 1):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("capture", type=Path)
    parser.add_argument("--budget", type=int, default=600)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--dump", type=Path, default=None)
    parser.add_argument("--only", choices=("dev", "held-out", "layers"), default=None)
    args = parser.parse_args()
    import importlib

    for item in args.set:
        name, value = item.split("=", 1)
        module, attr = name.rsplit(".", 1)
        mod = importlib.import_module(f"desktop_app.{module}")
        setattr(mod, attr, type(getattr(mod, attr))(eval(value)))  # noqa: S307 (a bench flag)
    global WITH_UNANSWERABLE
    WITH_UNANSWERABLE = args.dump is not None
    count = counter()
    dev: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    for path in sorted(args.capture.glob("conv-*.pkl")):
        if args.only == "layers" or (args.only and (path.stem in DEV) != (args.only == "dev")):
            continue
        rows = run_locomo(path, count, args.budget)
        (dev if path.stem in DEV else held).extend(rows)
    if dev or held:
        report(dev, "dev")
        report(held, "held-out")
    if args.dump:
        args.dump.write_bytes(pickle.dumps(dev + held))
    for name in ("layer1", "layer2"):
        path = args.capture / f"{name}.pkl"
        if path.is_file() and args.only in (None, "layers"):
            got, total, tokens = run_layer(path, count, args.budget)
            tokens.sort()
            print(f"{name}: {got}/{total} = {got / total:.3f} in block, "
                  f"p95 {tokens[max(0, -(-95 * len(tokens) // 100) - 1)]} tokens")
    return 0


if __name__ == "__main__":
    sys.exit(main())
