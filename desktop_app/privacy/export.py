"""Support bundles: the log files, sanitized once more, plus optional extra sections.

Logs were sanitized when written; the export runs the pattern sanitizer again
(files written by an older version, or by a process that crashed before its
sanitizer loaded, are covered too) and then, only if the caller passes one,
an `llm_pass` – e.g. the local LLM asked to mask free-text secrets. The LLM
pass is off by default, never used inline in logging, and only ever sees
text the pattern pass has already cleaned; if it fails, the pattern-clean
text is kept and the failure noted.
"""

from __future__ import annotations

import contextlib
import os
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from desktop_app.privacy.logsetup import DROPPED, LOG_GLOB

LLM_CHUNK_CHARS = 4000


@dataclass
class ExportSummary:
    destination: Path
    files: list[str] = field(default_factory=list)
    characters: int = 0
    llm_pass_applied: bool = False
    problems: list[str] = field(default_factory=list)


def log_files(log_dir: Path) -> list[Path]:
    """Current file first, then rotations (`acervo.log`, `acervo.log.1`, …)."""
    def order(path: Path) -> tuple[int, str]:
        suffix = path.name.rsplit(".", 1)[-1]
        return (int(suffix) if suffix.isdigit() else 0, path.name)

    return sorted((p for p in log_dir.glob(LOG_GLOB) if p.is_file()), key=order)


def _chunks(text: str, size: int) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    length = 0
    for line in text.splitlines(keepends=True):
        if current and length + len(line) > size:
            chunks.append("".join(current))
            current, length = [], 0
        current.append(line)
        length += len(line)
    if current:
        chunks.append("".join(current))
    return chunks


def clean_text(text: str, sanitize: Callable[[str], str],
               llm_pass: Callable[[str], str] | None, summary: ExportSummary,
               name: str) -> str:
    try:
        text = sanitize(text)
    except Exception as error:  # fail closed
        summary.problems.append(f"{name}: sanitizer failed ({type(error).__name__}); dropped")
        return DROPPED.format(error=type(error).__name__) + "\n"
    if llm_pass is None:
        return text
    try:
        cleaned = "".join(llm_pass(chunk) for chunk in _chunks(text, LLM_CHUNK_CHARS))
    except Exception as error:
        summary.problems.append(f"{name}: LLM pass failed ({type(error).__name__}); "
                                "pattern-sanitized text kept")
        return text
    summary.llm_pass_applied = True
    return cleaned


def export_support_bundle(log_dir: Path, destination: Path, sanitize: Callable[[str], str], *,
                          llm_pass: Callable[[str], str] | None = None,
                          extra_sections: Mapping[str, str] | None = None) -> ExportSummary:
    """Write a `.zip` (or, for any other suffix, one text file) of sanitized logs and sections."""
    summary = ExportSummary(destination)
    entries: list[tuple[str, str]] = []
    for name, text in (extra_sections or {}).items():
        entries.append((name, clean_text(text, sanitize, llm_pass, summary, name)))
    for path in log_files(log_dir):
        raw = path.read_text(encoding="utf-8", errors="replace")
        entries.append((f"logs/{path.name}", clean_text(raw, sanitize, llm_pass, summary,
                                                         path.name)))
        summary.files.append(path.name)
    summary.characters = sum(len(text) for _, text in entries)

    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    try:
        if destination.suffix.lower() == ".zip":
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
                for name, text in entries:
                    bundle.writestr(name, text)
        else:
            with partial.open("w", encoding="utf-8") as out:
                for name, text in entries:
                    out.write(f"===== {name} =====\n{text}")
                    if not text.endswith("\n"):
                        out.write("\n")
        os.replace(partial, destination)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return summary


class JsonCompleter(Protocol):
    """The one LLM call the log pass needs (`answer.llm.LLM` has it)."""

    def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *,
                      max_tokens: int = 256) -> dict[str, Any]: ...


_REDACT_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}},
                  "required": ["text"]}
_REDACT_PROMPT = (
    "Rewrite this application log excerpt exactly, but replace every secret or personal "
    "detail the patterns missed (names, addresses, passwords, personal notes) with <SECRET>. "
    "Change nothing else. Answer as JSON {\"text\": ...}.\n\n")


def llm_redactor(llm: JsonCompleter) -> Callable[[str], str]:
    """An `llm_pass` backed by the local LLM. A reply that is not the same text with parts
    masked (much shorter or longer) is refused, so the pattern-clean text is kept."""

    def redact(text: str) -> str:
        reply = llm.complete_json([{"role": "user", "content": _REDACT_PROMPT + text}],
                                  _REDACT_SCHEMA, max_tokens=len(text) // 2 + 64)
        cleaned = reply.get("text")
        if not isinstance(cleaned, str) or not 0.5 * len(text) <= len(cleaned) <= 1.5 * len(text):
            raise ValueError("the model did not return the excerpt")
        return cleaned

    return redact
