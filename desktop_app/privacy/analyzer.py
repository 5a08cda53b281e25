"""An offline presidio `AnalyzerEngine` with Acervo's recognizers, and overlap resolution.

Never `AnalyzerEngine()` without arguments: it wants spaCy's `en_core_web_lg`
and tries to download it. Here the NLP engine is presidio's `no_op` engine
(no model, no tokens): every recognizer is self-contained and context comes
from look-behinds in the patterns, so no lemma trick is needed and nothing
grows with the number of unique tokens seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LANGUAGE = "pt"
DEFAULT_SCORE_THRESHOLD = 0.4

# Entity type → placeholder written into logs.
PLACEHOLDERS: Mapping[str, str] = {
    "CPF": "CPF",
    "CNPJ": "CNPJ",
    "PIS": "PIS",
    "CNH": "CNH",
    "RG": "RG",
    "CEP": "CEP",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "CREDIT_CARD": "CREDIT_CARD",
    "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP",
    "SECRET": "SECRET",
    "HOME_USER": "USER",
    "PERSON": "PERSON",
}


@dataclass(frozen=True)
class Finding:
    """One piece of personal data: `text[start:end]` is an `entity`."""

    entity: str
    start: int
    end: int
    score: float

    @property
    def placeholder(self) -> str:
        return PLACEHOLDERS.get(self.entity, self.entity)


def resolve_overlaps(findings: Iterable[Finding]) -> list[Finding]:
    """Keep the best of overlapping findings (score, then length), sorted by position."""
    ranked = sorted(findings, key=lambda f: (-f.score, -(f.end - f.start), f.start, f.entity))
    kept: list[Finding] = []
    for finding in ranked:
        if all(finding.end <= k.start or finding.start >= k.end for k in kept):
            kept.append(finding)
    return sorted(kept, key=lambda f: f.start)


def offline_recognizers(*, names: bool = True,
                        first_names: Mapping[str, int] | None = None) -> list[Any]:
    """Acervo's recognizer set: Brazilian documents, generic PII, secrets, optionally names."""
    from desktop_app.privacy.recognizers_br import brazilian_recognizers
    from desktop_app.privacy.recognizers_generic import generic_recognizers

    recognizers: list[Any] = [*brazilian_recognizers(), *generic_recognizers()]
    if names:
        from desktop_app.privacy.names import FirstNameRecognizer

        recognizers.append(FirstNameRecognizer(first_names))
    return recognizers


def build_offline_engine(recognizers: Sequence[Any]) -> Any:
    """A presidio `AnalyzerEngine` on the `no_op` NLP engine: loads no model, opens no socket."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NoOpNlpEngine

    from desktop_app.privacy.logsetup import quiet_third_party_loggers

    nlp_engine = NoOpNlpEngine(models=[{"lang_code": LANGUAGE, "model_name": "no_op"}])
    nlp_engine.load()
    registry = RecognizerRegistry(recognizers=list(recognizers), supported_languages=[LANGUAGE])
    engine = AnalyzerEngine(registry=registry, nlp_engine=nlp_engine,
                            supported_languages=[LANGUAGE], log_decision_process=False)
    for recognizer in recognizers:  # load now, not on the first log line
        recognizer.load()
        recognizer.is_loaded = True
    # presidio imported spaCy, which attached its own stderr handler on import.
    quiet_third_party_loggers()
    return engine


class PiiAnalyzer:
    """Finds personal data in free text; thread-safe after construction (read-only state)."""

    def __init__(self, engine: Any, *, score_threshold: float = DEFAULT_SCORE_THRESHOLD) -> None:
        self._engine = engine
        self._score_threshold = score_threshold

    @classmethod
    def offline(cls, *, names: bool = True, first_names: Mapping[str, int] | None = None,
                extra_recognizers: Sequence[Any] = (),
                score_threshold: float = DEFAULT_SCORE_THRESHOLD) -> PiiAnalyzer:
        recognizers = [*offline_recognizers(names=names, first_names=first_names),
                       *extra_recognizers]
        return cls(build_offline_engine(recognizers), score_threshold=score_threshold)

    def find(self, text: str) -> list[Finding]:
        """Non-overlapping findings in `text`, by position."""
        if not text or not text.strip():
            return []
        results = self._engine.analyze(text=text, language=LANGUAGE,
                                       score_threshold=self._score_threshold)
        return resolve_overlaps(
            Finding(r.entity_type, r.start, r.end, float(r.score)) for r in results
        )
