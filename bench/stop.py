"""Stop latency and first feedback, on the real bundled SmolLM2 (not tests: figures).

1. Stop during prompt processing: a ~3,000-token RAG prompt (about a minute of
   prompt processing on these cores) is cancelled after 0.5–4 s; we time from the
   cancel to the call returning, and record how much of the prompt llama.cpp had
   read. Beside it, the time the whole prompt takes: what Stop used to wait for
   when the cancel check ran only between generated tokens.
2. Stop during generation: cancelled after 10 pieces.
3. First feedback through the real pipeline (the LGPD PDF from ../shared/eval
   ingested into a fresh index): time from `ask()` to each `Progress` event and to
   the first word, in sources mode (the default) and as an experiment with the model.

Usage: .venv/bin/python bench/stop.py [--runs 2]; writes bench/results/stop.json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from _common import EVAL, save, shared_models_dir, temp_home  # noqa: E402

from desktop_app.answer.events import Done, Progress, Token  # noqa: E402
from desktop_app.answer.llama_cpp_llm import LlamaCppLLM  # noqa: E402
from desktop_app.answer.models import bundled_model_path  # noqa: E402
from desktop_app.config.paths import resource  # noqa: E402

LGPD = EVAL / "pdfs" / "pt" / "lgpd.pdf"
QUESTION = "Quais são os direitos do titular dos dados?"


def long_messages(llm: LlamaCppLLM, tokens: int) -> list[dict[str, str]]:
    text = (resource("samples") / "faq-lgpd.md").read_text(encoding="utf-8")
    body = text
    while llm.count_tokens(body) < tokens:
        body += "\n\n" + text
    return [{"role": "system", "content": "Answer from the sources only."},
            {"role": "user", "content": body + "\n\nQual é o prazo de resposta?"}]


def stop_after(llm: LlamaCppLLM, messages: list[dict[str, str]], *, seconds: float | None = None,
               pieces: int | None = None) -> dict[str, Any]:
    """Run one stream; cancel after `seconds` or after `pieces`; time cancel → return."""
    cancel = threading.Event()
    got: list[str] = []
    done = threading.Event()
    returned: list[float] = []

    def run() -> None:
        for piece in llm.stream_chat(messages, max_tokens=200, temperature=0.0,
                                     cancel=cancel.is_set):
            got.append(piece)
            if pieces is not None and len(got) >= pieces:
                cancel_at.append(time.perf_counter())
                cancel.set()
        returned.append(time.perf_counter())
        done.set()

    cancel_at: list[float] = []
    thread = threading.Thread(target=run)
    start = time.perf_counter()
    thread.start()
    if seconds is not None:
        done.wait(seconds)
        cancel_at.append(time.perf_counter())
        cancel.set()
    done.wait()
    thread.join()
    return {"cancel_after_s": round(cancel_at[0] - start, 3),
            "stop_latency_ms": round(1000 * (returned[0] - cancel_at[0]), 1),
            "pieces": len(got), "prompt_tokens_read": int(llm.llama.n_tokens)}


def first_feedback(runs: int) -> dict[str, Any]:
    temp_home("stop")
    from desktop_app.app import build_app
    from desktop_app.modelprep import ensure_e5_model
    from desktop_app.retrieval.embedder import E5Embedder

    app = build_app(embedder=E5Embedder(ensure_e5_model(shared_models_dir())))
    list(app.pipeline.run([LGPD]))
    service = app.answer_service
    _ = app.embedder.embed_query("warm-up")
    out: dict[str, Any] = {"mode_default": service.mode().as_dict()}
    for label, experiment in (("sources", False), ("experiment", True)):
        samples = []
        for _ in range(runs):
            llm = app.__dict__.get("llm")
            if llm is not None and llm._llama is not None:
                llm.llama.reset()  # no prompt cache from the previous run: each run reads it all
            t0 = time.perf_counter()
            marks: dict[str, float] = {}
            for event in service.ask(QUESTION, experiment=experiment):
                now = round(1000 * (time.perf_counter() - t0), 1)
                if isinstance(event, Progress):
                    marks.setdefault(event.stage, now)
                elif isinstance(event, Token):
                    marks.setdefault("first_word", now)
                elif isinstance(event, Done):
                    marks["done"] = now
            samples.append(marks)
        out[label] = samples
        print(label, samples)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    llm = LlamaCppLLM(bundled_model_path(), n_ctx=4096)
    messages = long_messages(llm, 3000)
    prompt_tokens = llm.count_tokens(messages[1]["content"])
    print(f"prompt: {prompt_tokens} tokens; abort callback native: "
          f"{llm.abortable and llm._abort is not None and llm._abort.native}")

    t0 = time.perf_counter()
    list(llm.stream_chat(messages, max_tokens=1, temperature=0.0))
    full_prompt_s = time.perf_counter() - t0
    llm.llama.reset()
    print(f"whole prompt processed in {full_prompt_s:.1f} s "
          f"({prompt_tokens / full_prompt_s:.0f} tokens/s)")

    during_prompt = []
    for _ in range(args.runs):
        for seconds in (0.5, 1.0, 2.0, 4.0):
            llm.llama.reset()
            result = stop_after(llm, messages, seconds=seconds)
            during_prompt.append(result)
            print("prompt", result)
    short = [{"role": "user", "content": "Write a long story about a lighthouse keeper."}]
    during_generation = []
    for _ in range(args.runs):
        result = stop_after(llm, short, pieces=10)
        during_generation.append(result)
        print("generation", result)

    latencies = [r["stop_latency_ms"] for r in during_prompt]
    summary = {
        "stop_during_prompt_ms_p50": statistics.median(latencies),
        "stop_during_prompt_ms_max": max(latencies),
        "stop_during_generation_ms_p50": statistics.median(
            r["stop_latency_ms"] for r in during_generation),
        "full_prompt_s": round(full_prompt_s, 1),
        "prompt_tokens": prompt_tokens,
        "prompt_read_when_stopped_max": max(r["prompt_tokens_read"] for r in during_prompt),
    }
    print(summary)
    feedback = first_feedback(args.runs) if LGPD.is_file() else {"skipped": f"{LGPD} absent"}
    save("stop", {"model": llm.path.name, "summary": summary, "during_prompt": during_prompt,
                  "during_generation": during_generation, "first_feedback": feedback})
    llm.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
