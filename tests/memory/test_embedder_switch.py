"""Switching the embedder variant (the previous default fp32 -> today's int8-split): stored memory vectors are re-embedded on open."""

from __future__ import annotations

from typing import Any

import numpy as np

from desktop_app.memory.core import EMBEDDER_KEY
from desktop_app.memory.service import MemoryService
from desktop_app.text.analyze import built_by


def test_memories_are_re_embedded_when_the_embedder_id_changes(
        state_db: Any, conversations: Any, paths: Any, say: Any, fp32_embedder: Any,
        embedder: Any) -> None:
    old, new = fp32_embedder, embedder
    assert old.id != new.id and old.dim == new.dim
    before = MemoryService(state_db, paths.data_dir / "memory", old,
                           conversations=conversations)
    (outcome,) = before.remember(say("Lembre que eu moro em Campinas."), "Eu moro em Campinas.")
    assert state_db.get_kv(EMBEDDER_KEY) == built_by(old.id)

    after = MemoryService(state_db, paths.data_dir / "memory", new,
                          conversations=conversations)
    recalled = after.recall("Em que cidade eu moro?", 1)

    assert [item.id for item in recalled] == [outcome.memory_id]  # nothing lost
    assert state_db.get_kv(EMBEDDER_KEY) == built_by(new.id)
    rows = after.index._table.to_arrow().to_pylist()
    assert [r["id"] for r in rows] == [outcome.memory_id]
    text = recalled[0].search_text
    stored = np.asarray(rows[0]["vector"], dtype=np.float32)
    assert float(stored @ new.embed_passages([text])[0]) > 0.9999  # the new vectors
    assert float(stored @ old.embed_passages([text])[0]) < 0.9999  # not the old ones


def test_memories_are_analysed_again_when_the_analyzer_changed(
        state_db: Any, conversations: Any, paths: Any, say: Any, embedder: Any) -> None:
    """A memory index written before `ANALYZER_VERSION` 2 recorded the bare embedder id: its
    keyword terms came from the older stemmer, so it is rebuilt from SQLite on open."""
    from desktop_app.memory.index import keyword_text

    before = MemoryService(state_db, paths.data_dir / "memory", embedder,
                           conversations=conversations)
    (outcome,) = before.remember(say("Lembre que eu vou fundamentar o parecer na LGPD."),
                                 "Eu vou fundamentar o parecer na LGPD.")
    before.index._table.update(values={"search_text": "stale"})  # as analyzer 1 left it
    state_db.set_kv(EMBEDDER_KEY, embedder.id)  # what the older Acervo recorded

    after = MemoryService(state_db, paths.data_dir / "memory", embedder,
                          conversations=conversations)
    rows = after.index._table.to_arrow().to_pylist()
    assert [r["id"] for r in rows] == [outcome.memory_id]
    assert rows[0]["search_text"] == keyword_text(after.recall("parecer", 1)[0].search_text)
    assert " fund " in f" {rows[0]['search_text']} "
    assert state_db.get_kv(EMBEDDER_KEY) == built_by(embedder.id)
