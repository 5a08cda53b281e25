"""`desktop-app doctor`: models found, stores, logging, offline flags, outbound self-check.

The store sections (`doctor_stores`) check the document index, the memory and recall
indexes and the conversation and memory database for damaged files and inconsistencies;
`desktop-app doctor --repair` rebuilds what it finds from what still exists. What could not
be checked is a problem: the result is never OK about something doctor did not see.

The self-check runs the code paths that historically phoned home – presidio's
stock e-mail recognizer (module-level tldextract), our sanitizer, a
huggingface_hub download and a transformers config load, both in offline
mode – with the outbound guard installed, and reports how many non-loopback
connection attempts the process has made. Only paths and settings of the app
are used (duck-typed), no other package's internals.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.privacy import airgap, logsetup
from desktop_app.privacy.doctor_stores import (
    Progress,
    human_size,
    index_section,
    state_section,
    tree_size,
)

# Synthetic values only (valid check digits, reserved domains, fictitious people).
SELF_TEST_CANARIES: dict[str, str] = {
    "CPF": "529.982.247-25",
    "CNPJ": "11.222.333/0001-81",
    "alphanumeric CNPJ": "12.ABC.345/01DE-35",
    "e-mail": "ana.canario@example.com",
    "phone": "(11) 98765-4321",
    "password": "Canario#2024",
    "name": "Joana Canário",
    "home directory": "joanacanario",
}
SELF_TEST_LINE = ("cliente {name}, CPF {CPF}, CNPJ {CNPJ} / {alphanumeric CNPJ}, e-mail {e-mail}, "
                  "tel {phone}, senha: {password}, arquivo /home/{home directory}/relatorio.pdf")


@dataclass
class DoctorReport:
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    outbound_attempts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.outbound_attempts == 0

    def add(self, title: str, lines: list[str]) -> None:
        self.sections.append((title, lines))


def models_section(app: Any) -> list[str]:
    lines: list[str] = []
    try:
        models_dir = Path(app.paths.models_dir)
        lines.append(f"models folder: {models_dir}")
        entries = sorted(models_dir.iterdir()) if models_dir.is_dir() else []
        lines += [f"  {p.name}: {human_size(tree_size(p))}" for p in entries] or ["  (empty)"]
    except Exception as error:
        lines.append(f"models folder unreadable ({type(error).__name__})")
    settings = getattr(app, "settings", None)
    configured = [(m.name, m.path) for m in getattr(settings, "models", []) or []]
    reranker = getattr(settings, "reranker_path", "")
    if reranker:
        configured.append(("reranker", reranker))
    for name, raw_path in configured:
        path = Path(raw_path).expanduser()
        found = f"{human_size(tree_size(path))}" if path.exists() else "MISSING"
        lines.append(f"  configured {name}: {path} ({found})")
    return lines


def logging_section(app: Any, sanitize: Callable[[str], str] | None,
                    report: DoctorReport) -> list[str]:
    lines: list[str] = []
    with contextlib.suppress(Exception):
        log_dir = Path(app.paths.log_dir)
        files = sorted(log_dir.glob(logsetup.LOG_GLOB))
        size = sum(p.stat().st_size for p in files)
        lines.append(f"log folder: {log_dir} ({len(files)} files, {human_size(size)})")
    active = logsetup._active
    lines.append("sanitizing log handlers: " + ("installed" if active else "NOT installed"))
    if active is None:
        report.problems.append("logging is not routed through the sanitizer")
    bypassing, routed = logsetup.unsanitized_handlers()
    if routed:
        lines.append(f"library handlers writing to the captured stderr (sanitized): {routed}")
    lines.append("handlers bypassing the sanitizer: " + (", ".join(bypassing) or "none"))
    if sanitize is not None:
        line = SELF_TEST_LINE.format(**SELF_TEST_CANARIES)
        try:
            cleaned = sanitize(line)
            leaked = [k for k, v in SELF_TEST_CANARIES.items() if v in cleaned]
        except Exception as error:
            leaked = [f"sanitizer failed ({type(error).__name__})"]
        total = len(SELF_TEST_CANARIES)
        lines.append(f"sanitizer self-test: {total - len(leaked)}/{total} canaries redacted"
                     + (f" – LEAKED: {', '.join(leaked)}" if leaked else ""))
        if leaked:
            report.problems.append("sanitizer self-test leaked canaries")
    return lines


def flags_section(report: DoctorReport) -> list[str]:
    lines = [f"  {key}={value!r}" for key, value in airgap.offline_flags().items()]
    missing = airgap.offline_flags_missing()
    if missing:
        report.problems.append("offline switches not set: " + ", ".join(missing))
        lines.append("  NOT SET: " + ", ".join(missing))
    with contextlib.suppress(Exception):
        import huggingface_hub.constants as hub_constants

        lines.append(f"  huggingface_hub offline mode in effect: {hub_constants.HF_HUB_OFFLINE}")
        if not hub_constants.HF_HUB_OFFLINE:
            report.problems.append("huggingface_hub is not in offline mode")
    tld_offline = airgap.tldextract_module_is_offline()
    state = "not imported" if tld_offline is None else str(tld_offline)
    lines.append(f"  tldextract module-level extractor offline (no URLs, no disk cache): {state}")
    return lines


def _url_host(url: str) -> str:
    """The host of a URL or of a libpq `host=` string ("" when local or unreadable)."""
    import re

    host = airgap.url_host(url) if "://" in url else ""
    if not host:
        match = re.search(r"(?:^|\s)host\s*=\s*([^\s]+)", url)
        host = match.group(1) if match else ""
    return "" if host.startswith("/") else host.lower()


def network_section(app: Any) -> list[str]:
    """Every destination the user allowed past the air gap, and what it is for."""
    guard = airgap.current_guard()
    allowed = sorted(guard.allowed_hosts) if guard is not None else []
    settings = getattr(app, "settings", None)
    uses: dict[str, list[str]] = {}
    for library in getattr(settings, "team_libraries", []) or []:
        host = _url_host(library.url)
        if host and not airgap.is_loopback_host(host):
            state = "allowed" if library.allow_network else "NOT allowed (stays offline)"
            uses.setdefault(host, []).append(f"team library “{library.name}” ({state})")
        elif host or library.url:
            uses.setdefault("this computer", []).append(f"team library “{library.name}”")
    ollama = getattr(settings, "ollama_url", "")
    if getattr(settings, "llm_backend", "") == "ollama" and ollama:
        host = _url_host(ollama)
        where = host if host and not airgap.is_loopback_host(host) else "this computer"
        uses.setdefault(where, []).append("Ollama server")
    lines = [f"  {host}: {', '.join(uses.get(host, ['allowed']))}" for host in allowed]
    lines += [f"  {host}: {', '.join(what)}" for host, what in sorted(uses.items())
              if host not in allowed]
    if not allowed:
        lines.insert(0, "  no network destination allowed: loopback only")
    return lines


def _exercise(name: str, action: Callable[[], object], results: list[str]) -> None:
    started = time.perf_counter()
    try:
        action()
        outcome = "ran"
    except Exception as error:  # offline libraries are expected to raise "not found locally"
        outcome = f"raised {type(error).__name__} (expected offline)"
    results.append(f"  {name}: {outcome} in {time.perf_counter() - started:.1f} s")


def outbound_section(report: DoctorReport, sanitize: Callable[[str], str] | None,
                     *, deep: bool) -> list[str]:
    guard = airgap.current_guard()
    lines: list[str] = []
    if guard is None:
        guard = airgap.install_outbound_guard()
        lines.append("outbound guard: installed by doctor (earlier attempts were not counted)")
    else:
        lines.append("outbound guard: installed at start-up, "
                     + ("blocking" if guard.block else "counting only"))
    before = guard.attempt_count
    tld_cache = Path(os.path.expanduser("~/.cache/python-tldextract"))
    cache_existed = tld_cache.exists()
    exercised: list[str] = []
    if sanitize is not None:
        _exercise("sanitizer on an e-mail (offline tldextract)",
                  lambda: sanitize("contato: ana.canario@example.com.br"), exercised)

    def stock_email() -> object:
        from presidio_analyzer.predefined_recognizers import EmailRecognizer

        return EmailRecognizer().validate_result("ana.canario@example.com")

    import tldextract  # noqa: F401  (so its module-level extractor can be inspected)

    if airgap.tldextract_module_is_offline():
        _exercise("presidio stock e-mail recognizer (module-level tldextract)", stock_email,
                  exercised)
    else:  # calling it would try two hosts and write ~/.cache: report instead
        report.problems.append("tldextract's module-level extractor is not offline "
                               "(imported before apply_offline_environment?)")
        exercised.append("  presidio stock e-mail recognizer: NOT run, tldextract not offline")
    with tempfile.TemporaryDirectory(prefix="acervo-doctor-") as scratch:
        def hub_download() -> object:
            import huggingface_hub

            return huggingface_hub.hf_hub_download("intfloat/multilingual-e5-small",
                                                   "config.json", cache_dir=scratch)

        _exercise("huggingface_hub download in offline mode", hub_download, exercised)
        if deep:
            def transformers_config() -> object:
                from transformers import AutoConfig

                return AutoConfig.from_pretrained("intfloat/multilingual-e5-small",
                                                  cache_dir=scratch)

            _exercise("transformers config load in offline mode", transformers_config, exercised)
    during = guard.attempt_count - before
    report.outbound_attempts = guard.attempt_count
    lines += exercised
    lines.append(f"outbound connection attempts: {guard.attempt_count} in this process, "
                 f"{during} during the self-check")
    lines += [f"  {a.event} → {a.destination} (thread {a.thread}, "
              f"{'blocked' if a.blocked else 'NOT blocked'})" for a in guard.attempts]
    if tld_cache.exists() and not cache_existed:
        report.problems.append(f"tldextract wrote {tld_cache}")
        lines.append(f"  tldextract created {tld_cache}")
    return lines


def run_doctor(app: Any, *, sanitize: Callable[[str], str] | None = None,
               deep: bool = True, repair: bool = False,
               progress: Progress | None = None) -> DoctorReport:
    """`deep`: also the slow checks (every index row decoded, SQLite's full integrity
    check, the transformers config load); `progress`: lines while `repair` re-reads files."""
    report = DoctorReport()
    report.add("Models", models_section(app))
    report.add("Index", index_section(app, report.problems, repair=repair, deep=deep,
                                      progress=progress))
    report.add("Conversations and memory", state_section(app, report.problems, repair=repair,
                                                         deep=deep))
    report.add("Logging", logging_section(app, sanitize, report))
    report.add("Offline switches in force", flags_section(report))
    report.add("Network destinations you allowed", network_section(app))
    report.add("Air gap", outbound_section(report, sanitize, deep=deep))
    return report


def format_report(report: DoctorReport) -> str:
    out: list[str] = []
    for title, lines in report.sections:
        out.append(f"== {title}")
        out.extend(lines)
    out.append("== Result")
    out.extend(f"  problem: {p}" for p in report.problems)
    out.append("  OK: offline and sanitized" if report.ok else "  NOT OK")
    return "\n".join(out)
