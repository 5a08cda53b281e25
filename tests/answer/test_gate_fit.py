"""bench/fit_gate.py: the gate is fitted on several corpora at once and its threshold keeps
false abstention under the bound on every one of them."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest


@pytest.fixture(scope="module")
def fit_gate() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "fit_gate.py"
    spec = importlib.util.spec_from_file_location("fit_gate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows(corpus: str, shift: float, seed: int) -> list[dict[str, Any]]:
    """Answerable questions score `shift` higher on every feature than unanswerable ones
    (one corpus's questions are easier than another's: a shift of the whole corpus)."""
    rng = random.Random(seed)
    out = []
    for group, base in (("own", 1.0 + shift), ("indomain_answerable", 0.8 + shift),
                        ("indomain_unanswerable", shift), ("cross", -1.0)):
        for _ in range(200):
            out.append({"corpus": corpus, "group": group,
                        "features": {"margin": base + rng.gauss(0, 0.6),
                                     "lead": base + rng.gauss(0, 0.6)}})
    return out


def test_the_threshold_bounds_false_abstention_on_every_training_corpus(fit_gate) -> None:  # type: ignore[no-untyped-def]
    data = rows("easy", 0.5, 1) + rows("hard", 0.0, 2)
    gate = fit_gate.fit(data, features=("margin", "lead"), max_false=0.03)
    assert gate.trained_on == ("easy", "hard") and gate.features == ("margin", "lead")
    report = fit_gate.report(gate, data)
    for corpus in ("easy", "hard"):
        assert report[corpus]["own"] <= 0.03
        assert report[corpus]["indomain_answerable"] <= 0.03
    # the harder corpus decides: the easier one keeps a lower false abstention
    assert report["easy"]["indomain_answerable"] < report["hard"]["indomain_answerable"]
    assert report["hard"]["indomain_unanswerable"] > 0.3
    # bounding the mean of the corpora instead lets the threshold rise
    mean = fit_gate.fit(data, features=("margin", "lead"), max_false=0.03, rule="mean")
    assert mean.threshold >= gate.threshold
