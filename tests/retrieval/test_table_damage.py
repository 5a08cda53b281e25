"""The damage check and the heal of a LanceDB table, without Lance's Python package.

Real LanceDB tables, real damage on disk: a data file cut short, emptied, deleted or
overwritten in place; a deletion file deleted or garbled; an index file deleted; the version
file garbled. `lance_manifest` must read what LanceDB itself reports about the table, the
check must name exactly the damaged fragment, and `detach_fragments` must leave every other
row readable — and no row deleted before the damage may come back (LGPD erasure).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from desktop_app.retrieval import lance_manifest, lancedb_io

REPO = Path(__file__).resolve().parents[2]
ROWS = 300  # per fragment
DIM = 16


def _rows(fragment: int) -> list[dict[str, Any]]:
    return [{"id": f"f{fragment}-{n}",
             "search_text": f"parecer {fragment} sobre retenção de dados pessoais item {n}",
             "vector": [float((fragment * 7 + n * 13 + d) % 17) for d in range(DIM)]}
            for n in range(ROWS)]


def _table(directory: Path, *, fragments: int = 3, vector_index: bool = False,
           **storage: str) -> Any:
    """A table of `fragments` appends with one row deleted from fragment 0 (so it has a
    deletion file) and the keyword index; optionally the vector index."""
    db = lancedb_io.connect(directory) if not storage else _connect(directory, storage)
    table = db.create_table("t", _rows(0))
    for fragment in range(1, fragments):
        table.add(_rows(fragment))
    table.delete("id = 'f0-5'")
    lancedb_io.create_fts(table)
    if vector_index:
        from lancedb.index import IvfPq

        table.create_index("vector", config=IvfPq(distance_type="cosine", num_partitions=2,
                                                  num_sub_vectors=2))
    return table


def _connect(directory: Path, storage: dict[str, str]) -> Any:
    import lancedb

    return lancedb.connect(str(directory), storage_options=storage)


def _ids(directory: Path) -> set[str]:
    table = lancedb_io.connect(directory).open_table("t")
    return set(table.to_arrow().column("id").to_pylist())


def _fragment(directory: Path, fragment_id: int) -> lance_manifest.Fragment:
    manifest = lance_manifest.read_manifest(lancedb_io.table_path(directory, "t"))
    return next(f for f in manifest.fragments if f.id == fragment_id)


def _expected_after_losing(fragment_id: int, fragments: int = 3) -> set[str]:
    return {f"f{f}-{n}" for f in range(fragments) for n in range(ROWS)
            if f != fragment_id} - {"f0-5"}


def test_the_version_file_reader_agrees_with_lancedb(tmp_path: Path) -> None:
    table = _table(tmp_path, vector_index=True)
    for _ in range(2):  # before and after a compaction rewrote the fragments
        manifest = lance_manifest.read_manifest(lancedb_io.table_path(tmp_path, "t"))
        facts = table.list_versions()[-1]["metadata"]
        assert manifest.version == table.version and not manifest.unsupported
        assert len(manifest.fragments) == int(facts["total_fragments"])
        assert sum(len(f.files) for f in manifest.fragments) == int(facts["total_data_files"])
        assert sum(f.physical_rows for f in manifest.fragments) == int(
            facts["total_data_file_rows"])
        assert sum(f.rows for f in manifest.fragments) == table.count_rows()
        assert sum(f.deletion_file is not None for f in manifest.fragments) == int(
            facts["total_deletion_files"])
        for fragment in manifest.fragments:
            for data_file in fragment.files:
                assert data_file.path.stat().st_size == data_file.size > 0
            assert fragment.deletion_file is None or fragment.deletion_file.is_file()
        assert {ix.name for ix in manifest.indexes} == {i.name for i in table.list_indices()}
        for index in manifest.indexes:
            assert index.files and all(f.path.stat().st_size == f.size for f in index.files)
        assert not lancedb_io.table_damage(tmp_path, "t", deep=True)
        lancedb_io.compact(table)
    assert not any(f.deletion_file for f in manifest.fragments)  # compaction applied them


def test_version_files_of_both_naming_schemes_are_read(tmp_path: Path) -> None:
    assert lance_manifest.manifest_version("18446744073709551614.manifest") == 1
    assert lance_manifest.manifest_version("00000000000000000002.manifest") == 2**64 - 3
    assert lance_manifest.manifest_version("7.manifest") == 7
    for other in ("d9223372036854775809.manifest", "latest_version_hint.json", "x.manifest"):
        assert lance_manifest.manifest_version(other) is None
    v1 = _table(tmp_path, new_table_enable_v2_manifest_paths="false")
    names = {p.name for p in (tmp_path / "t.lance" / "_versions").glob("*.manifest")}
    assert f"{v1.version}.manifest" in names  # the old scheme, for real
    assert lance_manifest.read_manifest(tmp_path / "t.lance").version == v1.version
    assert not lancedb_io.table_damage(tmp_path, "t", deep=True)


def _cut(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 3)


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _overwrite_end(path: Path) -> None:  # same size, its footer garbled (bit rot)
    data = bytearray(path.read_bytes())
    data[-120:-20] = b"\xff" * 100
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_cut, _empty, Path.unlink, _overwrite_end],
                         ids=["truncated", "emptied", "deleted", "footer-garbled"])
def test_a_damaged_data_file_is_found_and_its_fragment_detached(
        tmp_path: Path, damage: Callable[[Path], None]) -> None:
    _table(tmp_path)
    damage(_fragment(tmp_path, 1).files[0].path)

    found = lancedb_io.table_damage(tmp_path, "t")
    assert found.fragments == (1,) and found.rows == ROWS and not found.unreadable
    assert lancedb_io.table_damage(tmp_path, "t", deep=True).fragments == (1,)
    lancedb_io.detach_fragments(tmp_path, "t", found.fragments)
    assert not lancedb_io.table_damage(tmp_path, "t", deep=True)
    assert _ids(tmp_path) == _expected_after_losing(1)
    table = lancedb_io.connect(tmp_path).open_table("t")
    hits = table.search("retenção", query_type="fts").limit(1000).to_list()
    assert hits and not any(h["id"].startswith("f1-") for h in hits)


@pytest.mark.parametrize("damage", [Path.unlink, _overwrite_end],
                         ids=["deleted", "garbled"])
def test_a_damaged_deletion_file_costs_its_fragment_and_no_deleted_row_returns(
        tmp_path: Path, damage: Callable[[Path], None]) -> None:
    """LanceDB's delete reads every deletion file: the table is written again from the
    other fragments, and fragment 2's own deletion (made before the damage) holds."""
    table = _table(tmp_path)
    table.delete("id = 'f2-7'")
    deletion = _fragment(tmp_path, 0).deletion_file
    assert deletion is not None
    damage(deletion)

    found = lancedb_io.table_damage(tmp_path, "t")
    assert found.fragments == (0,) and found.rows == ROWS - 1
    lancedb_io.detach_fragments(tmp_path, "t", found.fragments)
    assert not lancedb_io.table_damage(tmp_path, "t", deep=True)
    assert _ids(tmp_path) == _expected_after_losing(0) - {"f2-7"}


def test_every_fragment_damaged_leaves_an_empty_table_of_the_same_schema(
        tmp_path: Path) -> None:
    table = _table(tmp_path, fragments=1)
    schema = table.schema
    deletion = _fragment(tmp_path, 0).deletion_file
    assert deletion is not None
    deletion.unlink()
    lancedb_io.detach_fragments(tmp_path, "t", lancedb_io.table_damage(tmp_path, "t").fragments)
    table = lancedb_io.connect(tmp_path).open_table("t")
    assert table.count_rows() == 0 and table.schema == schema


@pytest.mark.parametrize("damage", [Path.unlink, _cut], ids=["deleted", "truncated"])
@pytest.mark.parametrize("index", ["search_text_idx", "vector_idx"])
def test_a_damaged_index_file_names_its_index(tmp_path: Path, index: str,
                                              damage: Callable[[Path], None]) -> None:
    _table(tmp_path, vector_index=True)
    manifest = lance_manifest.read_manifest(tmp_path / "t.lance")
    victim = next(i for i in manifest.indexes if i.name == index)
    damage(max((f.path for f in victim.files), key=lambda p: p.stat().st_size))
    found = lancedb_io.table_damage(tmp_path, "t")
    assert found.indexes == (index,) and not found.fragments


def test_a_garbled_version_file_makes_the_table_unreadable(tmp_path: Path) -> None:
    _table(tmp_path)
    latest = lance_manifest.latest_manifest(tmp_path / "t.lance")
    _cut(latest)
    with pytest.raises(lance_manifest.ManifestError):
        lance_manifest.read_manifest(tmp_path / "t.lance")
    assert lancedb_io.table_damage(tmp_path, "t").unreadable
    for path in (tmp_path / "t.lance" / "_versions").iterdir():
        path.unlink()
    assert lancedb_io.table_damage(tmp_path, "t").unreadable
    assert not lancedb_io.table_damage(tmp_path, "absent")  # no table is not damage


def test_a_table_this_reader_cannot_vouch_for_is_unchecked_not_sound(tmp_path: Path) -> None:
    _table(tmp_path, new_table_enable_stable_row_ids="true")
    found = lancedb_io.table_damage(tmp_path, "t")
    assert found.unchecked == "stable row ids" and not found


HIDDEN_LANCE = '''
import importlib.util, sys
class Hide:  # as in the installer: the `lance` package is not there
    def __init__(self, inner): self.inner = inner
    def find_spec(self, name, path=None, target=None):
        if name == "lance" or name.startswith("lance."):
            return None
        return self.inner.find_spec(name, path, target)
    def __getattr__(self, attr): return getattr(self.inner, attr)
sys.meta_path[:] = [Hide(f) for f in sys.meta_path]
assert importlib.util.find_spec("lance") is None
'''


def test_check_and_heal_run_without_the_lance_package(tmp_path: Path) -> None:
    _table(tmp_path).delete("id = 'f2-7'")
    _cut(_fragment(tmp_path, 1).files[0].path)
    deletion = _fragment(tmp_path, 0).deletion_file
    assert deletion is not None
    deletion.unlink()
    code = HIDDEN_LANCE + (
        "from pathlib import Path\n"
        "from desktop_app.retrieval import lancedb_io\n"
        f"folder = Path({str(tmp_path)!r})\n"
        "found = lancedb_io.table_damage(folder, 't', deep=True)\n"
        "lancedb_io.detach_fragments(folder, 't', found.fragments)\n"
        "print(found.fragments, bool(lancedb_io.table_damage(folder, 't', deep=True)))\n"
        "assert 'lance' not in sys.modules\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                            text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["(0,", "1)", "False"]
    assert _ids(tmp_path) == _expected_after_losing(0) - {f"f1-{n}" for n in range(ROWS)} - {
        "f2-7"}
