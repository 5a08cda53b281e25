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
