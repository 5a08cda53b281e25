"""Upgrades keep user data: a data folder written by a released Acervo opens with this code.

tests/fixtures/datadir-v1 is a real Acervo home (settings, document index, memories) written
by tests/fixtures/make_datadir.py with the first release's schemas. Every test works on a copy.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from desktop_app import migrations
from desktop_app.config.paths import AppPaths, app_paths
from desktop_app.config.settings import load_settings
from desktop_app.errors import AppError
from desktop_app.migrations import NewerDataError, data_dir_versions, migrate_data_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DATADIR_V1 = FIXTURES / "datadir-v1"


def _load_fixture_constants() -> Any:
    spec = importlib.util.spec_from_file_location("make_datadir", FIXTURES / "make_datadir.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIXTURE = _load_fixture_constants()


@pytest.fixture
def v1_home(acervo_home: Path) -> AppPaths:
    """A copy of the release-1 data folder as this test's ACERVO_HOME."""
    shutil.copytree(DATADIR_V1, acervo_home)
    return app_paths()


def _tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def test_the_fixture_is_small_and_holds_no_model() -> None:
    files = [p for p in DATADIR_V1.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 1_000_000
    assert not (DATADIR_V1 / "data" / "models").exists()
    assert not [p for p in files if p.suffix in (".gguf", ".safetensors", ".bin")]


def test_the_fixture_records_release_1_schemas(v1_home: AppPaths) -> None:
    assert {v.store: v.found for v in data_dir_versions(v1_home)} == {
        "settings": 1, "index": 1, "state": 1}


@pytest.mark.slow
def test_a_release_1_data_folder_opens_with_library_memories_and_settings_kept(
        v1_home: AppPaths, fp32_embedder: Any) -> None:
    """Opened with the embedder release 1 used (the torch vectors, fp32 ONNX gives them)."""
    from desktop_app.app import build_app

    embedder = fp32_embedder
    assert migrate_data_dir(v1_home) == ["index: schema 1 → 2",  # OCR columns on chunks
                                         "index: schema 2 → 3",  # folders with "/"
                                         "index: schema 3 → 4",  # marks (revoked, path)
                                         "index: schema 4 → 5",  # keyword terms again
                                         "index: schema 5 → 6",  # reader versions
                                         "index: schema 6 → 7",  # keyword terms again
                                         "index: schema 7 → 8"]  # and again
    assert migrate_data_dir(v1_home) == []  # done once
    assert {v.store: v.found for v in data_dir_versions(v1_home)}["index"] == 8
    app = build_app(embedder=embedder)

    assert [d.title for d in app.index.documents()] == [FIXTURE.EXPECTED_TITLE]
    from desktop_app.ingest.pipeline import read_before

    assert app.index.documents()[0].reader == 0  # read before versions were kept
    assert read_before(app.index.documents()[0])
    assert app.index.vector_usable
    hits = app.searcher.search("legal deadline for an access reply", k=3)
    assert hits and hits[0].title == FIXTURE.EXPECTED_TITLE
    assert "15 days" in " ".join(h.text for h in hits)
    assert hits[0].legs == {"vector", "keyword"}  # both legs still work on the old index
    assert hits[0].ocr_confidence is None and hits[0].ocr_boxes == ""  # text-layer chunks
    assert hits[0].revoked == () and hits[0].path == ""  # indexed before marks existed

    note = v1_home.data_dir / "nota.md"
    note.write_text("# Nota\n\nO prazo de guarda dos recibos é de cinco anos.\n", encoding="utf-8")
    events = list(app.pipeline.run([note], prune_missing=False))
    assert events[-1].indexed == 1  # the upgraded table takes new rows

    settings = load_settings(v1_home.settings_file)
    for key, value in FIXTURE.SETTINGS_CHANGES.items():
        assert getattr(settings, key) == value

    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.memory.service import MemoryService
    from desktop_app.state_db import StateDB

    db = StateDB.open(v1_home.state_db)
    try:
        memory = MemoryService(db, v1_home.data_dir / "memory", embedder,
                               conversations=ConversationStore(db))
        texts = [item.text for item in memory.list_items()]
        assert len(texts) == 1 and FIXTURE.MEMORY_TEXT_PART in texts[0]
        recalled = memory.recall("Em que setor eu trabalho?", 3)
        assert [FIXTURE.MEMORY_TEXT_PART in item.text for item in recalled] == [True]
    finally:
        db.close()


@pytest.mark.slow
def test_a_release_1_index_is_reindexed_with_the_new_default_embedder_only_with_consent(
        v1_home: AppPaths, embedder: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Release 1 indexed with the torch path's id; today's default (int8-split) has its own:
    the old index is detected, keeps serving keyword search, and is rebuilt (blue/green, from
    its own chunk texts) only when the user agrees — nothing lost."""
    import io

    from desktop_app.app import build_app
    from desktop_app.retrieval.commands import offer_reindex
    from desktop_app.retrieval.embedder import E5_MODEL_ID

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    migrate_data_dir(v1_home)
    app = build_app(embedder=embedder)
    assert embedder.id != E5_MODEL_ID
    index = app.index
    assert index.embedder_id == E5_MODEL_ID and not index.vector_usable  # detected
    before = {(d.title, d.chunk_count) for d in index.documents()}
    hits = app.searcher.search("legal deadline for an access reply", k=3)
    assert hits and hits[0].legs == {"keyword"}  # still searchable meanwhile

    assert not offer_reindex(app, "ask", stdin=Terminal("n\n"))  # no consent: unchanged
    assert "Reindex now?" in capsys.readouterr().err
    assert not app.index.vector_usable and app.index.embedder_id == E5_MODEL_ID

    assert offer_reindex(app, "ask", stdin=Terminal("s\n"))
    index = app.index
    assert index.vector_usable and index.embedder_id == embedder.id
    assert {(d.title, d.chunk_count) for d in index.documents()} == before  # nothing lost
    hits = app.searcher.search("legal deadline for an access reply", k=3)
    assert hits[0].title == FIXTURE.EXPECTED_TITLE and "vector" in hits[0].legs


def test_the_index_upgrade_is_repaired_after_a_crash_before_it_recorded_its_version(
        v1_home: AppPaths) -> None:
    from desktop_app.retrieval.index import upgrade_generation_to_v2

    generation = v1_home.index_dir / "g1"
    upgrade_generation_to_v2(generation)
    _bump_index(v1_home, 1)  # the columns exist, the version was not written yet

    assert migrate_data_dir(v1_home) == ["index: schema 1 → 2", "index: schema 2 → 3",
                                         "index: schema 3 → 4", "index: schema 4 → 5",
                                         "index: schema 5 → 6", "index: schema 6 → 7",
                                         "index: schema 7 → 8"]
    import lancedb

    names = lancedb.connect(str(generation)).open_table("chunks").schema.names
    assert {"ocr_confidence", "ocr_boxes", "marks"} <= set(names)
    assert "reader" in lancedb.connect(str(generation)).open_table("documents").schema.names


def _bump_index(paths: AppPaths, version: int) -> None:
    meta = paths.index_dir / "g1" / "index_meta.json"
    data = json.loads(meta.read_text(encoding="utf-8"))
    meta.write_text(json.dumps({**data, "schema_version": version}), encoding="utf-8")


def _bump_settings(paths: AppPaths, version: int) -> None:
    data = json.loads(paths.settings_file.read_text(encoding="utf-8"))
    paths.settings_file.write_text(json.dumps({**data, "version": version}), encoding="utf-8")


def _bump_state(paths: AppPaths, version: int) -> None:
    conn = sqlite3.connect(paths.state_db)
    with conn:
        conn.execute("UPDATE schema_versions SET version = ? WHERE component = 'state'",
                     (version,))
    conn.close()


@pytest.mark.parametrize("store, bump", [("index", _bump_index), ("settings", _bump_settings),
                                         ("state", _bump_state)])
def test_a_data_folder_from_a_newer_release_is_refused_and_left_untouched(
        v1_home: AppPaths, store: str, bump: Any) -> None:
    bump(v1_home, 99)
    before = _tree_digest(v1_home.config_dir.parent)

    with pytest.raises(NewerDataError) as refused:
        migrate_data_dir(v1_home)

    message = refused.value.user_message
    assert isinstance(refused.value, AppError)
    assert "newer version of Acervo" in message
    assert f"{store} schema 99" in message and "nothing was changed" in message
    assert _tree_digest(v1_home.config_dir.parent) == before


def test_a_newer_store_is_refused_before_an_older_one_is_upgraded(
        v1_home: AppPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "current_versions",
                        lambda: {"settings": 2, "index": 1, "state": 1})
    _bump_index(v1_home, 5)
    ran: list[str] = []
    steps = {"settings": {1: lambda paths: ran.append("settings 1→2")}}

    with pytest.raises(NewerDataError):
        migrate_data_dir(v1_home, steps)
    assert ran == []


def _settings_step(version: int, change: dict[str, Any]) -> Any:
    def step(paths: AppPaths) -> None:
        data = json.loads(paths.settings_file.read_text(encoding="utf-8"))
        paths.settings_file.write_text(json.dumps({**data, **change, "version": version + 1}),
                                       encoding="utf-8")
    return step


def test_an_older_store_is_upgraded_one_version_at_a_time_and_only_once(
        v1_home: AppPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "current_versions",
                        lambda: {"settings": 3, "index": 1, "state": 1})
    steps = {"settings": {1: _settings_step(1, {"retrieval_k": 8}),
                          2: _settings_step(2, {"n_threads": 3})}}

    assert migrate_data_dir(v1_home, steps) == ["settings: schema 1 → 2",
                                                "settings: schema 2 → 3"]
    data = json.loads(v1_home.settings_file.read_text(encoding="utf-8"))
    assert (data["version"], data["retrieval_k"], data["n_threads"]) == (3, 8, 3)
    assert data["language"] == FIXTURE.SETTINGS_CHANGES["language"]  # untouched keys kept
    assert migrate_data_dir(v1_home, steps) == []


def test_an_older_store_without_an_upgrade_path_is_an_error_that_changes_nothing(
        v1_home: AppPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "current_versions",
                        lambda: {"settings": 1, "index": 2, "state": 1})
    before = _tree_digest(v1_home.config_dir.parent)

    with pytest.raises(AppError, match="cannot upgrade your index data from schema 1 to 2"):
        migrate_data_dir(v1_home, {"index": {}})
    assert _tree_digest(v1_home.config_dir.parent) == before


def test_a_step_that_does_not_record_its_version_is_reported(
        v1_home: AppPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "current_versions",
                        lambda: {"settings": 2, "index": 1, "state": 1})
    with pytest.raises(AppError, match="did not complete"):
        migrate_data_dir(v1_home, {"settings": {1: lambda paths: None}})


def test_a_fresh_install_has_nothing_to_migrate(acervo_home: Path) -> None:
    paths = app_paths().ensure()
    assert migrate_data_dir(paths) == []
    assert all(v.found is None for v in data_dir_versions(paths))


WINDOWS_NOTES = {  # a library indexed on Windows before folders were stored with "/"
    "C:\\Users\\ana\\Docs\\prazos.md": "O prazo de resposta ao titular é de quinze dias.",
    "C:\\Users\\ana\\Docs\\sub\\multas.md": "A multa por atraso é de dois por cento.",
    "C:\\Users\\ana\\Docsold\\antigo.md": "Prazo antigo de resposta, revogado.",
}


def test_a_library_indexed_on_windows_gets_forward_slash_folders_on_open(
        acervo_home: Path, embedder: Any) -> None:
    """Index schema 2 → 3: the backslash folders an older Windows install stored are
    normalised, so folder filters (written either way) find its documents again."""
    import lancedb

    from desktop_app.app import build_app
    from desktop_app.ingest.pipeline import embedding_text
    from desktop_app.retrieval.index import META_FILE, LanceIndex
    from desktop_app.retrieval.index_api import DocumentRecord
    from desktop_app.retrieval.types import Chunk, SearchFilters

    paths = app_paths().ensure()
    index = LanceIndex.open(paths.index_dir, embedder_id=embedder.id, dim=embedder.dim)
    for n, (path, text) in enumerate(WINDOWS_NOTES.items()):
        doc_id = f"doc{n}"
        chunk = Chunk(doc_id, 0, text, 1, 1, ("Nota",), 0, len(text), "Nota")
        record = DocumentRecord(doc_id, f"Nota {n}", path, "md", "pt", 100, f"h{n}", 1, 1,
                                "2026-11-01T00:00:00Z", "2026-10-01T00:00:00Z", embedder.id)
        assert index.add_document(record, [chunk], embedder.embed_passages([embedding_text(chunk)]))
    index.optimize()
    generation = migrations.active_index_generation(paths)
    assert generation is not None
    db = lancedb.connect(str(generation))  # what schema 2 wrote on Windows: os.sep folders
    for name in ("chunks", "documents"):
        db.open_table(name).update(values_sql={"folder": "replace(folder, '/', '\\')"})
    meta = json.loads((generation / META_FILE).read_text(encoding="utf-8"))
    (generation / META_FILE).write_text(json.dumps({**meta, "schema_version": 2}), "utf-8")
    folders = db.open_table("chunks").to_arrow().column("folder").to_pylist()
    assert sorted(folders) == ["C:\\Users\\ana\\Docs", "C:\\Users\\ana\\Docs\\sub",
                               "C:\\Users\\ana\\Docsold"]

    assert migrate_data_dir(paths) == ["index: schema 2 → 3", "index: schema 3 → 4",
                                       "index: schema 4 → 5", "index: schema 5 → 6",
                                       "index: schema 6 → 7", "index: schema 7 → 8"]
    assert migrate_data_dir(paths) == []
    for name in ("chunks", "documents"):
        folders = db.open_table(name).to_arrow().column("folder").to_pylist()
        assert sorted(folders) == ["C:/Users/ana/Docs", "C:/Users/ana/Docs/sub",
                                   "C:/Users/ana/Docsold"]
    app = build_app(embedder=embedder)
    try:
        for folder in ("C:\\Users\\ana\\Docs", "C:/Users/ana/Docs/", "C:\\Users\\ana\\Docs\\"):
            hits = app.searcher.search("prazo de resposta", k=5,
                                       filters=SearchFilters(folder=folder))
            assert {h.source_path for h in hits} == {"C:\\Users\\ana\\Docs\\prazos.md",
                                                     "C:\\Users\\ana\\Docs\\sub\\multas.md"}
            assert "keyword" in hits[0].legs  # the keyword index still covers the rewritten rows
        under = app.searcher.search("multa", k=5,
                                    filters=SearchFilters(folder="C:\\Users\\ana\\Docs\\sub"))
        assert [h.source_path for h in under] == ["C:\\Users\\ana\\Docs\\sub\\multas.md"]
    finally:
        app.close()


# (schema that stored them, a note, its terms as that schema's analyzer wrote them, as
# this one does, a word the keyword leg finds it by only with this analyzer)
OLDER_STEMMERS = [
    # analyzer 1 left "fundamentar" as "fundament"
    (4, "O legítimo interesse pode fundamentar o tratamento.", "fundament ", "fund ",
     "fundamentos"),
    # analyzer 2 stemmed "assegurado" apart from "garantido"
    (6, "É assegurado aos presos o respeito à integridade física.", "assegurad ", "garant ",
     "garantido"),
    # analyzer 3 stemmed the plural future "promoverão" apart from "promover"
    (7, "Os sistemas de ensino promoverão as adaptações necessárias.", "promovera ",
     "promov ", "promover"),
]


@pytest.mark.parametrize(("schema", "note", "old", "new", "query"), OLDER_STEMMERS)
def test_an_index_analysed_by_an_older_stemmer_is_analysed_again_on_open(
        acervo_home: Path, embedder: Any, schema: int, note: str, old: str, new: str,
        query: str) -> None:
    """Index schemas 4 → 5, 6 → 7 and 7 → 8: the stemmer changed ("fundamentar" now stems as
    "fundamentos" does, "assegurado" as "garantido", "promoverão" as "promover"), so the stored keyword terms are
    analysed again, without an embedder or the source file, and the keyword leg finds the
    note by the other word."""
    import lancedb

    from desktop_app.app import build_app
    from desktop_app.ingest.pipeline import embedding_text
    from desktop_app.retrieval.index import META_FILE, SCHEMA_VERSION, LanceIndex
    from desktop_app.retrieval.index_api import DocumentRecord
    from desktop_app.retrieval.types import Chunk

    paths = app_paths().ensure()
    index = LanceIndex.open(paths.index_dir, embedder_id=embedder.id, dim=embedder.dim)
    notes = {"verbo.md": note, "outra.md": "O prazo de resposta é de quinze dias."}
    for n, (path, text) in enumerate(notes.items()):
        chunk = Chunk(f"doc{n}", 0, text, 1, 1, ("Nota",), 0, len(text), "Nota")
        record = DocumentRecord(f"doc{n}", f"Nota {n}", f"/notas/{path}", "md", "pt", 100,
                                f"h{n}", 1, 1, "2026-11-01T00:00:00Z", "2026-10-01T00:00:00Z",
                                embedder.id)
        assert index.add_document(record, [chunk], embedder.embed_passages([embedding_text(chunk)]))
    index.optimize()
    generation = migrations.active_index_generation(paths)
    assert generation is not None
    chunks = lancedb.connect(str(generation)).open_table("chunks")
    now = {r["chunk_id"]: r["search_text"] for r in chunks.to_arrow().to_pylist()}
    assert any(f" {new}" in f" {t} " for t in now.values())
    # what the older schema stored
    chunks.update(where="doc_id = 'doc0'",
                  values_sql={"search_text": f"replace(search_text, '{new}', '{old}')"})
    assert all(f" {new}" not in f" {r['search_text']} " for r in chunks.to_arrow().to_pylist())
    meta = json.loads((generation / META_FILE).read_text(encoding="utf-8"))
    (generation / META_FILE).write_text(json.dumps({**meta, "schema_version": schema}), "utf-8")

    assert migrate_data_dir(paths) == [f"index: schema {v} → {v + 1}"
                                       for v in range(schema, SCHEMA_VERSION)]
    assert migrate_data_dir(paths) == []
    rows = lancedb.connect(str(generation)).open_table("chunks").to_arrow().to_pylist()
    assert {r["chunk_id"]: r["search_text"] for r in rows} == now  # as this analyzer writes
    app = build_app(embedder=embedder)
    try:
        hits = app.searcher.search(query, k=5, legs=("keyword",))
        assert [h.source_path for h in hits] == ["/notas/verbo.md"]
    finally:
        app.close()
