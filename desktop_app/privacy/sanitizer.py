"""Replace personal data in text with placeholders: `<CPF>`, `<EMAIL>`, `<PERSON>`…

With a salt, each placeholder carries a short keyed hash of the value
(`<EMAIL:3f9a1c2e>`), so one person's events can be correlated in a support
bundle without exposing who they are; the salt never leaves the machine.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from desktop_app.privacy.analyzer import Finding, PiiAnalyzer

HASH_CHARS = 8
CHUNK_CHARS = 20_000  # very long texts are analysed line-aligned in pieces of about this size


class FindsPii(Protocol):
    def find(self, text: str) -> list[Finding]: ...


def normalise_value(entity: str, value: str) -> str:
    """The same person's value written two ways hashes the same (separators, case)."""
    if entity in {"CPF", "CNPJ", "PIS", "CNH", "RG", "CEP", "PHONE_NUMBER", "CREDIT_CARD",
                  "IBAN_CODE", "VOTER_ID", "CTPS", "OAB", "REGISTRATION", "PROPERTY_ID", "NIRE",
                  "RENAVAM", "LICENSE_PLATE"}:
        return "".join(c for c in value if c.isalnum()).upper()
    return value.strip().lower()


def salt_file(data_dir: Path) -> Path:
    """Where the installation's hash salt lives (under the app's data folder)."""
    return data_dir / "privacy" / "log-salt"


def load_or_create_salt(path: Path) -> bytes:
    """A per-installation random salt kept in `path` (created 0600 on first use)."""
    try:
        salt = path.read_bytes()
        if len(salt) >= 16:
            return salt
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    salt = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(salt)
    return salt


class Sanitizer:
    """Text in, text with every finding replaced out. Raises on analyzer failure (callers fail closed)."""

    def __init__(self, analyzer: FindsPii, *, hash_salt: bytes | None = None,
                 hash_chars: int = HASH_CHARS) -> None:
        self._analyzer = analyzer
        self._salt = hash_salt
        self._hash_chars = hash_chars

    @classmethod
    def offline(cls, *, hash_salt: bytes | None = None, names: bool = True,
                first_names: Mapping[str, int] | None = None) -> Sanitizer:
        return cls(PiiAnalyzer.offline(names=names, first_names=first_names), hash_salt=hash_salt)

    def findings(self, text: str) -> list[Finding]:
        found: list[Finding] = []
        offset = 0
        for piece in _line_aligned_pieces(text, CHUNK_CHARS):
            found.extend(Finding(f.entity, f.start + offset, f.end + offset, f.score)
                         for f in self._analyzer.find(piece))
            offset += len(piece)
        return found

    def sanitize(self, text: str) -> str:
        if not text:
            return text
        parts: list[str] = []
        position = 0
        for finding in self.findings(text):
            parts.append(text[position:finding.start])
            parts.append(self._placeholder(finding, text[finding.start:finding.end]))
            position = finding.end
        parts.append(text[position:])
        return "".join(parts)

    def _placeholder(self, finding: Finding, value: str) -> str:
        if self._salt is None:
            return f"<{finding.placeholder}>"
        message = f"{finding.entity}\x00{normalise_value(finding.entity, value)}".encode()
        digest = hmac.new(self._salt, message, hashlib.sha256).hexdigest()[: self._hash_chars]
        return f"<{finding.placeholder}:{digest}>"


def _line_aligned_pieces(text: str, size: int) -> list[str]:
    if len(text) <= size:
        return [text]
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            newline = text.rfind("\n", start, end)
            if newline > start:
                end = newline + 1
        pieces.append(text[start:end])
        start = end
    return pieces
