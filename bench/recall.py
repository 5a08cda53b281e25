"""What conversation recall adds to an answer at 10,000 indexed exchanges.

Builds a temporary home with a small document library and a chat history of N exchanges
(real dialogue text from ../shared/eval/memory, repeated as separate conversations; each
exchange's turns are rows of their own too, as the app indexes them), then
asks the same questions with recall on and off, alternating, through the app's real
answer service (sources mode: no LLM, so the figure is recall's own cost, not the
model's). Reports p50/p95 of both and the difference; saves bench/results/recall.json.

Stored exchange vectors are random unit vectors (embedding 10,000 exchanges would take
most of the run on a shared 2-core machine, and LanceDB's flat vector scan costs the same
whatever the values); the keyword index holds the real text, and each question is
embedded for real, once per answer, as in the app.

Run: .venv/bin/python bench/recall.py [--exchanges 10000] [--rounds 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _common import EVAL, percentiles, save, shared_models_dir, temp_home

BATCH = 2000  # exchanges per table append while building

QUESTIONS = [
    "What was my hotel confirmation number?",
    "Which account number did the bank give me?",
    "What time is my appointment with the doctor?",
    "How much was the total for the vet visit?",
    "What did we agree about the wire transfer amount?",
    "Which seat did I get on the flight?",
]


def dialogue_turns() -> list[list[tuple[str, str]]]:
    import yaml

    chats = []
    for path in sorted((EVAL / "memory" / "user-memory").glob("layer*/*.yaml")):
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        for conv in case["conversation_histories"]:
            turns = [(str(m["role"]), str(m["content"]).strip())
                     for m in conv.get("messages", []) if str(m.get("content", "")).strip()]
            if turns:
                chats.append(turns)
    return chats


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--exchanges", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    if not (EVAL / "memory" / "user-memory").is_dir():
        print("needs ../shared/eval/memory/user-memory", file=sys.stderr)
        return 2
    home = temp_home("recall")
    import numpy as np

    from desktop_app.app import App
    from desktop_app.config.paths import app_paths
    from desktop_app.config.settings import Settings
    from desktop_app.memory.recall import ExchangeRow, exchange_text, is_turn, units_of
    from desktop_app.modelprep import ensure_e5_model

    paths = app_paths().ensure()
    (paths.data_dir / "models").symlink_to(ensure_e5_model(shared_models_dir()).parent,
                                           target_is_directory=True)
    app = App(paths, Settings(llm_backend="none", answer_mode="sources"))
    docs = Path(home) / "docs"
    docs.mkdir()
    (docs / "hotel-policy.md").write_text(
        "# Hotel policy\n\nBookings for conferences are made through the travel desk. "
        "Confirmation numbers are sent by e-mail within one business day.\n", encoding="utf-8")
    (docs / "expenses.md").write_text(
        "# Expenses\n\nVeterinary bills are not reimbursed. Flight seats in economy are "
        "chosen at check-in; wire transfers above $10,000 need two approvals.\n",
        encoding="utf-8")
    list(app.pipeline.run([docs]))

    store = app.conversations
    recall = app.recall
    index = recall.index
    chats = dialogue_turns()
    started = time.perf_counter()
    made = 0
    rng = np.random.default_rng(13)
    round_no = 0
    pending: list[tuple[Any, str]] = []  # (row, text): added in large batches (fast build)

    def flush() -> None:
        vectors = rng.normal(size=(len(pending), index.dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        index.add_exchanges([r for r, _ in pending], [t for _, t in pending], vectors)
        pending.clear()

    while made < args.exchanges:
        for turns in chats:
            conv = store.new_conversation(f"bench {round_no}")
            day = f"2026-{1 + round_no % 12:02d}-{1 + made % 28:02d}T10:00:00Z"
            for role, text in turns:
                if role == "user":
                    store.add_user_message(conv, text, timestamp=day)
                else:
                    store.add_assistant_message(conv, text, timestamp=day)
            # every exchange and, as rows of their own, its turns (as the app indexes them)
            units = units_of(store.messages(conv))
            exchanges = [u for u in units if not is_turn(u[1])][: args.exchanges - made]
            kept = {m.id for u, _ in exchanges for m in u}
            units = exchanges + [u for u in units if is_turn(u[1]) and u[0][0].id in kept]
            pending += [(ExchangeRow(row_id, conv, tuple(m.id for m in u), u[0].created_at),
                         exchange_text(u)) for u, row_id in units]
            made += len(exchanges)
            if len(pending) >= BATCH:
                flush()
            if made >= args.exchanges:
                break
        round_no += 1
    if pending:
        flush()
    index.compact()
    build_s = time.perf_counter() - started
    print(f"{recall.count()} exchanges ({index.count()} rows with their turns) indexed in "
          f"{build_s:.0f} s")

    exchanges_indexed = recall.count()  # read while recall is on (the loop switches it)
    service = app.answer_service
    warm = service.ask(QUESTIONS[0])
    list(warm)
    on_ms: list[float] = []
    off_ms: list[float] = []
    recall_ms: list[float] = []
    for _ in range(args.rounds):
        for question in QUESTIONS:
            for enabled in (True, False):  # side by side, alternating
                app.settings.recall_enabled = enabled
                t0 = time.perf_counter()
                events = list(service.ask(question))
                elapsed = (time.perf_counter() - t0) * 1000
                (on_ms if enabled else off_ms).append(elapsed)
                if enabled:
                    trace = events[-1].trace
                    recall_ms.append(float(trace["timings"].get("recall_ms", 0.0)))
    on, off = percentiles(on_ms), percentiles(off_ms)
    added = round(on["p50_ms"] - off["p50_ms"], 1)
    print(f"answer p50: recall on {on['p50_ms']} ms, off {off['p50_ms']} ms "
          f"(+{added} ms); recall step p50 {statistics.median(recall_ms):.1f} ms")
    save("recall", {
        "exchanges_indexed": exchanges_indexed, "rows_indexed": index.count(),
        "build_seconds": round(build_s, 1),
        "stored_vectors": "random unit vectors (flat scan cost is value-independent); "
                          "keyword index over the real text; questions embedded for real",
        "answer_mode": "sources (no LLM)", "questions": len(QUESTIONS), "rounds": args.rounds,
        "recall_on": on, "recall_off": off, "added_p50_ms": added,
        "recall_step_p50_ms": round(statistics.median(recall_ms), 1),
        "target_added_p50_ms": 150,
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
