"""The collector held back during the window's start-up, then frozen-and-enabled once."""

from __future__ import annotations

import gc

from desktop_app import startup_gc


def test_hold_stops_automatic_collection_and_release_freezes_then_restores_it():
    assert gc.isenabled()
    frozen_before = gc.get_freeze_count()
    try:
        startup_gc.hold()
        startup_gc.hold()  # idempotent
        assert not gc.isenabled() and startup_gc.held()
        start_up_objects = [[i] for i in range(1000)]  # what start-up builds and keeps
        startup_gc.release()
        assert gc.isenabled() and not startup_gc.held()
        assert gc.get_freeze_count() >= frozen_before + len(start_up_objects)
        startup_gc.release()  # a second release (the fallback timer) changes nothing
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_release_without_hold_leaves_a_disabled_collector_alone():
    gc.disable()
    try:
        startup_gc.release()
        assert not gc.isenabled()  # someone else's choice (a test, an embedding host)
    finally:
        gc.enable()
