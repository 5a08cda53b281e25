"""The "not found" gate: one logistic model over evidence that means the same in any library.

The thresholds it replaces were calibrated on one corpus and did not carry over: a
similarity floor fitted to FaQuAD and Pirá abstained on 15 % of answerable questions of
another set, while on-topic questions a law does not answer were answered with loosely
related clauses. The gate weighs the features of `abstain.gate_features` (how far the best
sentences are above the library's off-topic floor, how much of the question the passages
and the chosen quote use, whether the answer names the kind of thing asked, whether both
search legs and the best candidates agree) and gives the probability that the passages
answer the question; below `threshold`, the answer is "not found".

It is fitted on several corpora at once, never one (`bench/fit_gate.py`: FaQuAD, Pirá and
the legal dev set, each with its answerable questions, questions from other sets and
in-domain questions whose paragraphs were removed); each set's figures are reported with a
gate fitted without it (docs/answers.md, "Abstention"). The bundled gate is
`resources/abstention/gate.json`; `Settings.abstain_gate_file` points at another.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from desktop_app.config.paths import resource


@dataclass(frozen=True)
class Gate:
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float  # "not found" below this probability
    trained_on: tuple[str, ...] = ()

    def probability(self, values: Mapping[str, float]) -> float:
        """How likely the passages answer the question (0–1). A feature `values` lacks
        (not measurable for this question) counts at its mean."""
        z = self.bias + sum(w * (float(values[name]) - m) / s
                            for name, m, s, w in zip(self.features, self.mean, self.scale,
                                                     self.weights, strict=True)
                            if name in values)
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def as_dict(self) -> dict[str, Any]:
        return {"features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "weights": list(self.weights), "bias": self.bias,
                "threshold": self.threshold, "trained_on": list(self.trained_on)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Gate:
        names = tuple(str(n) for n in data["features"])

        def floats(key: str) -> tuple[float, ...]:
            values = tuple(float(v) for v in data[key])
            if len(values) != len(names):
                raise ValueError(f"gate: {key} has {len(values)} values for {len(names)}")
            return values

        return cls(names, floats("mean"), tuple(max(v, 1e-9) for v in floats("scale")),
                   floats("weights"), float(data["bias"]), float(data["threshold"]),
                   tuple(str(t) for t in data.get("trained_on", ())))


def fit_summary(gate: Gate) -> dict[str, Any]:
    """What the eval reports print about the gate in force."""
    return {"trained_on": list(gate.trained_on), "threshold": gate.threshold,
            "weights": {n: round(w, 4) for n, w in zip(gate.features, gate.weights,
                                                       strict=True)}}


def gate_path(setting: str) -> Path:
    """The gate file a setting names ("" = the bundled one)."""
    return Path(setting) if setting else resource("abstention") / "gate.json"


@lru_cache(maxsize=8)
def _load(path: str, stamp: float) -> Gate:
    return Gate.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def load_gate(setting: str = "") -> Gate | None:
    """The gate in force, or None when its file is missing or unreadable (the thresholds
    of the settings decide then)."""
    path = gate_path(setting)
    try:
        return _load(str(path), path.stat().st_mtime)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_gate(gate: Gate, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(gate.as_dict(), indent=2) + "\n", encoding="utf-8")


def standardize(rows: Sequence[Mapping[str, float]],
                names: Sequence[str]) -> tuple[list[float], list[float]]:
    """Each feature's mean and spread over the `rows` that have it (the gate's input
    scaling)."""
    means, scales = [], []
    for name in names:
        values = [float(r[name]) for r in rows if name in r]
        mean = sum(values) / max(len(values), 1)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(len(values), 1))
        means.append(mean)
        scales.append(spread or 1.0)
    return means, scales
