"""In-memory caches of text, and the one call erasure makes to empty them all.

Several pure functions keep what they computed (a word's stem, a sentence's terms and
values, a sentence's vector): a long-running window would keep words of an erased memory,
message or document in them for as long as it runs. Each cache registers its `clear` here
(`forget_with`); every erasure calls `forget_cached_text()`, so nothing it erased stays in
the process either. Lives in `text` (the bottom layer) so every package may register.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

class Clearable(Protocol):
    """An object holding text that erasure must empty (`clear`)."""

    def clear(self) -> None: ...


_clears: list[Callable[[], object]] = []
_owners: weakref.WeakSet[Clearable] = weakref.WeakSet()


def forget_with(clear: Callable[[], object]) -> None:
    """Register a function that empties a module-level cache (e.g. `lru_cache.cache_clear`)."""
    _clears.append(clear)


def forget_owner(owner: Clearable) -> None:
    """Register an object with a `clear()` method, for as long as it lives."""
    _owners.add(owner)


def forget_cached_text() -> int:
    """Empty every registered cache; returns how many were emptied."""
    done = 0
    for clear in [*_clears, *(o.clear for o in list(_owners))]:
        try:
            clear()
            done += 1
        except Exception as exc:  # a cache that cannot be cleared must not stop an erasure
            log.warning("a text cache could not be emptied (%s)", type(exc).__name__)
    return done
