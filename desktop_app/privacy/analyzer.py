"""An offline presidio `AnalyzerEngine` with Acervo's recognizers, and overlap resolution.

Never `AnalyzerEngine()` without arguments: it wants spaCy's `en_core_web_lg`
and tries to download it. Every recognizer here is self-contained (labels are
part of its rules; no NLP artifacts, no lemma trick, nothing that grows with
the number of unique tokens seen), so `PiiAnalyzer` calls them directly: the
engine's per-call bookkeeping (decision traces, context enhancement that has
no tokens to work on) cost a third of the time on log lines. `build_offline_engine`
still registers the same recognizers in presidio's `AnalyzerEngine` on the
`no_op` NLP engine for callers who want presidio's API; a test checks both agree.
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
    "VOTER_ID": "TITULO_ELEITOR",
    "CTPS": "CTPS",
    "OAB": "OAB",
    "REGISTRATION": "MATRICULA",
    "PROPERTY_ID": "INSCRICAO_IMOVEL",
    "NIRE": "NIRE",
    "RENAVAM": "RENAVAM",
    "LICENSE_PLATE": "PLACA",
    "BIRTH_DATE": "BIRTH_DATE",
    "ADDRESS": "ADDRESS",
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
    from desktop_app.privacy.recognizers_address import address_recognizers
    from desktop_app.privacy.recognizers_br import brazilian_recognizers
    from desktop_app.privacy.recognizers_generic import generic_recognizers

    recognizers: list[Any] = [*brazilian_recognizers(), *address_recognizers(),
                              *generic_recognizers()]
    if names:
        from desktop_app.privacy.names import PersonNameRecognizer

        recognizers.append(PersonNameRecognizer(first_names))
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

    def __init__(self, recognizers: Sequence[Any], *,
                 score_threshold: float = DEFAULT_SCORE_THRESHOLD) -> None:
        self._recognizers = list(recognizers)
        self._score_threshold = score_threshold

    @classmethod
    def offline(cls, *, names: bool = True, first_names: Mapping[str, int] | None = None,
                extra_recognizers: Sequence[Any] = (),
                score_threshold: float = DEFAULT_SCORE_THRESHOLD) -> PiiAnalyzer:
        from desktop_app.privacy.logsetup import quiet_third_party_loggers

        recognizers = [*offline_recognizers(names=names, first_names=first_names),
                       *extra_recognizers]
        for recognizer in recognizers:  # load now, not on the first log line
            recognizer.load()
            recognizer.is_loaded = True
        quiet_third_party_loggers()  # presidio imported spaCy, which attached a handler
        return cls(recognizers, score_threshold=score_threshold)

    @property
    def recognizers(self) -> list[Any]:
        return list(self._recognizers)

    def find(self, text: str) -> list[Finding]:
        """Non-overlapping findings in `text`, by position."""
        if not text or not text.strip():
            return []
        findings = []
        for recognizer in self._recognizers:
            for r in recognizer.analyze(text, recognizer.supported_entities, None):
                if r.score >= self._score_threshold and r.end > r.start:
                    findings.append(Finding(r.entity_type, r.start, r.end, float(r.score)))
        return resolve_overlaps(findings)
