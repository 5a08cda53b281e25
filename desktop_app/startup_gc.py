"""Python's cyclic garbage collector held back while the window starts.

A full collection walks every tracked object, and start-up is when their number grows fastest:
the window's modules, then LanceDB, onnxruntime, presidio and spaCy imported on worker
threads. Each full pass held the interpreter lock for 60–110 ms in the start-up benchmark
(bench/startup.py) — whichever thread triggered it — and a key pressed meanwhile waited that
long. Start-up makes almost no cyclic garbage (a pass found 0–109 objects), so the window
holds collections back until its models are loaded (`hold` / `release`), then freezes what
start-up built (`gc.freeze`: imported modules, models, the stored listing live as long as the
process) so the collections that follow walk only what was made since. Core module, no Qt:
the CLI never holds.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_held = False


def hold() -> None:
    """Stop automatic collections (start-up); idempotent."""
    global _held
    with _lock:
        if not _held and gc.isenabled():
            gc.disable()
            _held = True


def release() -> None:
    """Freeze what exists now and collect automatically again; idempotent, safe to call when
    nothing was held (then it does nothing)."""
    global _held
    with _lock:
        if not _held:
            return
        _held = False
        gc.freeze()
        gc.enable()


def held() -> bool:
    return _held
