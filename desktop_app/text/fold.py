"""Accent folding: the one normalisation every comparison of words goes through."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lowercase and strip accents ("Informação" → "informacao"); keeps other characters."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
