"""How long a job that re-embeds the whole library will take, from the rate measured here.

Every ingestion and reindex writes down how many passages it embedded in how many seconds,
per embedder (`LibraryState.add_rate`), so the estimate reflects this computer and its
usual load. Before anything re-embeds the library (a reindex, an embedder change), the CLI
and the window say the estimate and ask; a job shorter than `BIG_JOB_SECONDS` is not worth
a question and just runs. The library stays searchable meanwhile (the reindex is
blue/green: the old index serves until the new one is complete).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.library.state import LibraryState

BIG_JOB_SECONDS = 60.0
# passages per second when nothing was measured yet on this computer: e5-small (ONNX int8)
# on two busy cores; a guess on the slow side, said as a guess
GUESSED_RATE = 25.0


@dataclass(frozen=True)
class JobEstimate:
    documents: int
    passages: int
    seconds: float
    rate: float  # passages per second
    measured: bool  # from this computer's own runs (else a guess)

    @property
    def big(self) -> bool:
        return self.seconds >= BIG_JOB_SECONDS

    def english(self) -> str:
        """"1,204 documents (48,310 passages): about 32 minutes at the rate measured here"."""
        how = "at the rate measured here" if self.measured else \
            "a guess: the rate is measured after the first documents"
        return (f"{self.documents:,} documents ({self.passages:,} passages): about "
                f"{duration_words(self.seconds)} ({how}, {self.rate:.0f} passages/s)")


def duration_words(seconds: float) -> str:
    """"under a minute", "about 12 minutes", "about 3.5 hours" (English, for the terminal)."""
    if seconds < 60:
        return "under a minute"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} minutes"
    hours = seconds / 3600
    return f"{hours:.1f} hours" if hours < 48 else f"{hours / 24:.1f} days"


def estimate_reembedding(state: LibraryState, embedder_id: str, *, documents: int,
                         passages: int) -> JobEstimate:
    """The time to embed `passages` again with `embedder_id`: its rate measured here, else
    the mean of the other embedders' rates, else a guess."""
    rate = state.rate(embedder_id)
    measured = rate is not None
    if rate is None:
        others = [r for r in state.rates().values() if r > 0]
        rate = sum(others) / len(others) if others else None
        measured = rate is not None
    rate = rate or GUESSED_RATE
    return JobEstimate(documents, passages, passages / rate, rate, measured)
