"""The two test tiers timed side by side on one machine: `make check` (lint, types and the
tests not marked slow, with the stand-in embedder) and `make test` (everything, real
models). Writes bench/results/test-tiers.json: `check_seconds`, `full_seconds` and each
tier's test counts (passed / skipped / failed / errors, from pytest's JUnit report).

Run it on a quiet machine (nothing else on the cores: a busy one doubles the figures):

    .venv/bin/python bench/test_tiers.py                 # both tiers, ~15-20 min on 2 cores
    .venv/bin/python bench/test_tiers.py --tiers check   # one tier (trying the script out)

Set ACERVO_TEST_MODELS to a folder of converted models, as for `make test`, or the first
tier to need the embedder pays its conversion and export (minutes) inside its time.

Each tier runs the recipe of its Makefile target, read from the Makefile (so what is timed
is what `make` runs), with $(BIN) pointing at this interpreter's folder instead of
going through `make` (which would first check the installation).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from _common import REPO, RESULTS, code_version, save

TARGETS = {"check": "check", "full": "test"}  # tier → Makefile target
CHECK_BUDGET_S = 180  # issue 27: the quick tier stays within 3 minutes on 2 cores


def recipe(target: str) -> list[str]:
    """The command lines of a Makefile target (tab-indented lines after `target:`)."""
    lines = (REPO / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^{target}:", line))
    commands = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        commands.append(line[1:])
    return commands


def expand(command: str, junit: Path) -> str:
    bin_dir = str(Path(sys.executable).parent)
    command = command.replace("$(BIN)", shlex.quote(bin_dir))
    return command.replace("$(PYTEST_ARGS)", f"--junitxml={shlex.quote(str(junit))}")


def counts(junit: Path) -> dict[str, int]:
    """Tests run, and how they ended, from pytest's JUnit XML."""
    root = ET.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    total = {key: sum(int(s.get(key, 0)) for s in suites)
             for key in ("tests", "failures", "errors", "skipped")}
    total["passed"] = total["tests"] - total["failures"] - total["errors"] - total["skipped"]
    return total


def _children_cpu() -> float:
    """CPU seconds (user + system) used so far by finished child processes: less moved by
    other work on the machine than the wall time."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_tier(tier: str, work: Path) -> dict[str, Any]:
    junit = work / f"{tier}.xml"
    env = dict(os.environ)
    env.pop("ACERVO_TEST_EMBEDDER", None)  # the check recipe sets it; the full tier never
    cpu_before = _children_cpu()
    started = time.perf_counter()
    for command in recipe(TARGETS[tier]):
        line = expand(command, junit)
        print(f"[{tier}] {line}", flush=True)
        done = subprocess.run(line, shell=True, cwd=REPO, env=env)
        if done.returncode not in (0, 1):  # 1: some test failed (counted, still timed)
            raise SystemExit(f"{tier}: `{line}` exited with {done.returncode}")
    seconds = round(time.perf_counter() - started, 1)
    return {"seconds": seconds, "cpu_seconds": round(_children_cpu() - cpu_before, 1),
            "counts": counts(junit),
            "commands": [expand(c, Path(f"{tier}.xml")) for c in recipe(TARGETS[tier])]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiers", default="check,full", help="check, full or both (default)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the JSON here instead of bench/results/test-tiers.json")
    args = parser.parse_args()
    tiers = [t for t in args.tiers.split(",") if t]
    if unknown := set(tiers) - set(TARGETS):
        parser.error(f"unknown tier(s): {sorted(unknown)}")
    import tempfile

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="acervo-test-tiers-") as tmp:
        results = {tier: run_tier(tier, Path(tmp)) for tier in tiers}
    data: dict[str, Any] = {
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "check_budget_seconds": CHECK_BUDGET_S,
    }
    for tier, result in results.items():
        data[f"{tier}_seconds"] = result["seconds"]
        data[f"{tier}_cpu_seconds"] = result["cpu_seconds"]
        data[f"{tier}_tests"] = result["counts"]
        data[f"{tier}_commands"] = result["commands"]
    if "check" in results:
        data["check_within_budget"] = results["check"]["seconds"] <= CHECK_BUDGET_S
    for tier in tiers:
        c = results[tier]["counts"]
        print(f"{tier}: {results[tier]['seconds']} s ({results[tier]['cpu_seconds']} s CPU), "
              f"{c['tests']} tests ({c['passed']} passed, "
              f"{c['skipped']} skipped, {c['failures']} failed, {c['errors']} errors)")
    if args.out is not None:
        import json

        args.out.write_text(json.dumps({**code_version(), **data}, indent=2), encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        save("test-tiers", data)
        print(f"(re-measure on a quiet machine before quoting: {RESULTS / 'test-tiers.json'})")


if __name__ == "__main__":
    main()
