"""RRF fusion is pure and deterministic."""

from __future__ import annotations

from desktop_app.retrieval.fusion import rrf_fuse


def test_an_item_found_by_both_legs_beats_items_found_by_one() -> None:
    fused = rrf_fuse({
        "vector": [("a", "d1", 0), ("b", "d1", 1)],
        "keyword": [("c", "d2", 0), ("b", "d1", 1)],
    }, k=60)
    assert fused[0].key == "b"
    assert fused[0].ranks == {"vector": 2, "keyword": 2}
    assert abs(fused[0].score - 2 / 62) < 1e-12


def test_ties_break_by_doc_id_then_position() -> None:
    fused = rrf_fuse({"vector": [("z", "d2", 0)], "keyword": [("y", "d1", 5)]}, k=60)
    assert [f.key for f in fused] == ["y", "z"]  # equal scores → doc id order
    fused = rrf_fuse({"vector": [("p2", "d1", 2)], "keyword": [("p1", "d1", 1)]}, k=60)
    assert [f.key for f in fused] == ["p1", "p2"]


def test_weights_shift_the_balance() -> None:
    legs = {"vector": [("v", "d1", 0)], "keyword": [("k", "d2", 0)]}
    assert rrf_fuse(legs, weights={"vector": 1.0, "keyword": 0.5})[0].key == "v"
    assert rrf_fuse(legs, weights={"vector": 0.5, "keyword": 1.0})[0].key == "k"


def test_same_input_same_output() -> None:
    legs = {"vector": [(str(i), f"d{i % 3}", i) for i in range(30)],
            "keyword": [(str(i), f"d{i % 5}", i) for i in range(29, -1, -1)]}
    assert [f.key for f in rrf_fuse(legs)] == [f.key for f in rrf_fuse(dict(legs))]


def test_two_searches_hits_are_fused_each_passage_once() -> None:
    """An English question searched as typed and with its Latin-root words respelled
    (answer/service.py): a passage both searches rank well comes first, once."""
    from desktop_app.retrieval.fusion import fuse_hits
    from tests.answer.conftest import make_hit

    a, b, c = make_hit(1), make_hit(2), make_hit(3)
    fused = fuse_hits([[a, b], [c, b]])
    assert [h.chunk_id for h, _ in fused] == [b.chunk_id, a.chunk_id, c.chunk_id]
    assert [h for h, _ in fuse_hits([[a, b]])] == [a, b]
    # one search per library (retrieval/multi.py): a chunk id in two libraries is two passages
    from dataclasses import replace

    team = replace(a, library="team")
    assert [h.library for h, _ in fuse_hits([[a], [team]])] == ["local", "team"]
    assert abs(fuse_hits([[a, b], [c, b]])[0][1] - 2 / 62) < 1e-12
