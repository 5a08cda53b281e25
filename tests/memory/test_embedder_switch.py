"""Switching the embedder variant (fp32 -> int8): stored memory vectors are re-embedded on open."""

from __future__ import annotations

from typing import Any

import numpy as np

from desktop_app.memory.core import EMBEDDER_KEY
from desktop_app.memory.service import MemoryService


def test_memories_are_re_embedded_when_the_embedder_id_changes(
        state_db: Any, conversations: Any, paths: Any, say: Any, embedder: Any,
        int8_embedder: Any) -> None:
    assert embedder.id != int8_embedder.id and embedder.dim == int8_embedder.dim
    before = MemoryService(state_db, paths.data_dir / "memory", embedder,
                           conversations=conversations)
    (outcome,) = before.remember(say("Lembre que eu moro em Campinas."), "Eu moro em Campinas.")
    assert state_db.get_kv(EMBEDDER_KEY) == embedder.id

    after = MemoryService(state_db, paths.data_dir / "memory", int8_embedder,
                          conversations=conversations)
    recalled = after.recall("Em que cidade eu moro?", 1)

    assert [item.id for item in recalled] == [outcome.memory_id]  # nothing lost
    assert state_db.get_kv(EMBEDDER_KEY) == int8_embedder.id
    rows = after.index._table.to_arrow().to_pylist()
    assert [r["id"] for r in rows] == [outcome.memory_id]
    text = recalled[0].search_text
    stored = np.asarray(rows[0]["vector"], dtype=np.float32)
    assert float(stored @ int8_embedder.embed_passages([text])[0]) > 0.9999  # the new vectors
    assert float(stored @ embedder.embed_passages([text])[0]) < 0.9999  # not the old ones
