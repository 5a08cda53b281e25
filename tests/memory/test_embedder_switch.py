"""Switching the embedder variant (the previous default fp32 -> today's int8-split): stored memory vectors are re-embedded on open."""

from __future__ import annotations

from typing import Any

import numpy as np

from desktop_app.memory.core import EMBEDDER_KEY
from desktop_app.memory.service import MemoryService


def test_memories_are_re_embedded_when_the_embedder_id_changes(
        state_db: Any, conversations: Any, paths: Any, say: Any, fp32_embedder: Any,
        embedder: Any) -> None:
    old, new = fp32_embedder, embedder
    assert old.id != new.id and old.dim == new.dim
    before = MemoryService(state_db, paths.data_dir / "memory", old,
                           conversations=conversations)
    (outcome,) = before.remember(say("Lembre que eu moro em Campinas."), "Eu moro em Campinas.")
    assert state_db.get_kv(EMBEDDER_KEY) == old.id

    after = MemoryService(state_db, paths.data_dir / "memory", new,
                          conversations=conversations)
    recalled = after.recall("Em que cidade eu moro?", 1)

    assert [item.id for item in recalled] == [outcome.memory_id]  # nothing lost
    assert state_db.get_kv(EMBEDDER_KEY) == new.id
    rows = after.index._table.to_arrow().to_pylist()
    assert [r["id"] for r in rows] == [outcome.memory_id]
    text = recalled[0].search_text
    stored = np.asarray(rows[0]["vector"], dtype=np.float32)
    assert float(stored @ new.embed_passages([text])[0]) > 0.9999  # the new vectors
    assert float(stored @ old.embed_passages([text])[0]) < 0.9999  # not the old ones
