"""Canary helpers: find which files on disk still contain some bytes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def files_containing(root: Path, needle: bytes) -> list[Path]:
    """Every file under `root` (or `root` itself) whose bytes contain `needle`."""
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
    return [p for p in files if needle in p.read_bytes()]


def grep_finds(root: Path, needle: str) -> list[str]:
    """`grep -r` as a user would run it (an independent check of the walk above)."""
    if shutil.which("grep") is None or not root.exists():
        return []
    result = subprocess.run(["grep", "-r", "-l", "-a", needle, str(root)], capture_output=True,
                            text=True, check=False)
    return result.stdout.split()


def derived_canaries(canary: str) -> list[str]:
    """The forms of a canary erasure must reach as well (issue 26): as typed, folded, its
    letters alone (and stemmed) and its digits alone (the keyword index and answer traces
    store words split, folded and stemmed). A canary for these checks has five letters or more and six
    digits or more, so that no form turns up by chance in binary data."""
    import re

    from desktop_app.text.analyze import analyze

    forms = {canary, canary.casefold()}
    for piece in re.findall(r"[^\W\d_]{5,}|\d{6,}", canary):
        forms.add(piece.casefold())
        forms.update(t for t in analyze(piece).split() if len(t) >= 5)  # stemmed, folded
    return sorted(forms, key=len, reverse=True)


def derived_hits(roots: list[Path], canary: str) -> list[str]:
    """Files under `roots` holding any derived form of `canary` (case-insensitive grep)."""
    hits: set[str] = set()
    for form in derived_canaries(canary):
        for root in roots:
            if root.exists():
                found = subprocess.run(["grep", "-r", "-l", "-a", "-i", form, str(root)],
                                       capture_output=True, text=True, check=False).stdout
                hits.update(f"{form}: {path}" for path in found.split())
    return sorted(hits)
