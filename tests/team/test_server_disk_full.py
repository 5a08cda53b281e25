"""A team library's server runs out of disk: the analyst reads the app's one sentence (the
storage boundary issue 11 built for LanceDB and SQLite), not psycopg's "could not extend
file …", and nothing is half-written.

Real server, real full disk: the database lives in a tablespace on a small tmpfs (its WAL
stays on the server's own disk, so PostgreSQL reports ERROR 53100 instead of stopping), and
the tmpfs is then filled to the last byte. Needs root for the mount, like the fault suite's
real full disk; without it the mapping is still covered by `test_storage_errors`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from desktop_app.errors import DiskFullError, storage_error
from desktop_app.retrieval.index import DocumentRecord, LanceIndex
from desktop_app.retrieval.pg_index import PgIndex
from desktop_app.retrieval.types import Chunk
from desktop_app.team.evaluation import EVAL_USER, open_eval_team_index
from tests.conftest import E5_ID  # the default embedder's id: the one the vectors here come from
from tests.faults.helpers import REPO, assert_clear, cli_env, link_models

ANALYST, PASSWORD = "ana", "ana-senha-1"

pytestmark = pytest.mark.slow

RAW = ("could not extend", "53100", "psycopg", "DiskFull", "Traceback")


def _mount_tmpfs(target: Path, size: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs",
                           str(target)], capture_output=True).returncode == 0


def _fill(disk: Path) -> None:
    """Fill the tmpfs to the last byte (dd stops at ENOSPC)."""
    subprocess.run(["dd", "if=/dev/zero", f"of={disk / 'filler'}", "bs=64k"],
                   capture_output=True)


@dataclass
class ServerDb:
    server: Any
    name: str

    def admin_url(self) -> str:
        return str(self.server.admin_url(self.name))

    def index(self) -> PgIndex:
        import psycopg

        return PgIndex(lambda: psycopg.connect(self.server.user_url(ANALYST, self.name),
                                               password=PASSWORD, connect_timeout=10),
                       library="equipe", current_embedder_id=E5_ID, collection="leis")


@pytest.fixture()
def full_server_db(team_server) -> Iterator[tuple[ServerDb, Path]]:  # type: ignore[no-untyped-def]
    import psycopg

    from desktop_app.team import admin

    root = Path(tempfile.mkdtemp(prefix="acervo-test-pgfull-"))
    root.chmod(0o755)  # the server runs as its own system user under root
    disk = root / "disk"
    disk.mkdir()
    if not _mount_tmpfs(disk, "48m"):
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip("needs root and tmpfs for a real full disk (the mapping is tested alone)")
    name = "t_server_disk_full"
    try:
        space = disk / "tablespace"
        space.mkdir()
        owner = "pgserver" if os.geteuid() == 0 else None
        if owner:
            shutil.chown(space, owner, owner)
        space.chmod(0o700)
        with psycopg.connect(team_server.admin_url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE TABLESPACE acervo_tiny LOCATION '{space}'")
            conn.execute(f"CREATE DATABASE {name} TABLESPACE acervo_tiny")
        db = ServerDb(team_server, name)
        with psycopg.connect(db.admin_url(), autocommit=True) as conn:
            admin.init_server(conn, embedder_id=E5_ID, dim=384)
            admin.add_user(conn, ANALYST, PASSWORD)
            admin.add_collection(conn, "leis")
            admin.grant(conn, ANALYST, "leis", write=True)
        yield db, disk
    finally:
        with psycopg.connect(team_server.admin_url("postgres"), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute("DROP TABLESPACE IF EXISTS acervo_tiny")
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def _document(embedder, doc_id: str, passages: int) -> tuple[DocumentRecord, list[Chunk],  # type: ignore[no-untyped-def]
                                                             np.ndarray]:
    texts = [f"Artigo {n} da lei {doc_id}: o titular dos dados pessoais tem direito de acesso, "
             f"correção e eliminação, com prazo de resposta de {n + 5} dias. " * 6
             for n in range(passages)]
    chunks = [Chunk(doc_id, n, t, 1, 1, (), 0, len(t), "") for n, t in enumerate(texts)]
    record = DocumentRecord(doc_id, f"Lei {doc_id}", f"/leis/{doc_id}.txt", "txt", "pt",
                            sum(map(len, texts)), f"hash-{doc_id}", 1, passages,
                            "2026-11-30T00:00:00Z", "2026-11-30T00:00:00Z", E5_ID)
    return record, chunks, embedder.embed_passages(texts)


def test_psycopg_disk_full_is_recognised_as_a_storage_error() -> None:
    from psycopg import errors

    mapped = storage_error(errors.DiskFull("could not extend file \"base/1/2\": No space left "
                                           "on device"), "the server")
    assert isinstance(mapped, DiskFullError) and mapped.exit_code == 4
    assert mapped.user_message.startswith("The disk is full (writing to the server)")
    # the server's other resource errors are not a full disk, and not a storage error
    assert storage_error(errors.OutOfMemory("out of memory")) is None
    assert storage_error(errors.InsufficientPrivilege("permission denied")) is None
    # a connection the server refused at start-up carries no SQLSTATE, only its FATAL text
    from psycopg import OperationalError

    refused = OperationalError('connection failed: connection to server on socket "/tmp/s" '
                               "failed: FATAL:  could not write init file: No space left on "
                               "device")
    assert refused.sqlstate is None
    assert isinstance(storage_error(refused, "the server"), DiskFullError)
    assert storage_error(OperationalError("connection failed: FATAL:  password authentication "
                                          "failed for user \"ana\"")) is None


def test_a_connection_refused_by_a_full_server_disk_is_the_disk_full_sentence() -> None:
    """Every team library connection goes through one boundary: a server that refuses the
    connection because its disk is full says so; any other refusal stays 'cannot connect'."""
    from psycopg import OperationalError

    from desktop_app.retrieval.pg_connection import TeamLibraryError

    def refused(text: str) -> Any:
        def connect() -> Any:
            raise OperationalError(f"connection failed: FATAL:  {text}")
        return connect

    with pytest.raises(DiskFullError) as full:
        PgIndex(refused("could not write init file: No space left on device"), library="team",
                current_embedder_id="e5")
    assert full.value.exit_code == 4
    with pytest.raises(TeamLibraryError, match="Cannot connect to the team library “team”"):
        PgIndex(refused('password authentication failed for user "ana"'), library="team",
                current_embedder_id="e5")


def test_adding_to_a_team_library_on_a_full_server_disk(full_server_db, embedder) -> None:  # type: ignore[no-untyped-def]
    db, disk = full_server_db
    index = db.index()
    first = _document(embedder, "l1", 3)
    assert index.add_document(*first)  # room enough before the disk fills
    _fill(disk)
    with pytest.raises(DiskFullError) as refused:
        index.add_document(*_document(embedder, "l2", 40))
    message = refused.value.user_message
    assert message.startswith("The disk is full (writing to the server of the team library "
                              "“equipe”)") and "Nothing already stored was lost." in message
    assert not [m for m in RAW if m in message]
    # nothing half-written: the refused document left no row, the first one is whole
    (kept,) = index.documents()
    assert kept.content_hash == "hash-l1" and len(index.document_chunks(kept.doc_id)) == 3
    assert index.search_keyword("titular prazo", 5, None)  # reading still works
    (disk / "filler").unlink()  # space again: the same add now succeeds
    assert index.add_document(*_document(embedder, "l2", 40))
    assert index.stats().documents == 2 and index.stats().chunks == 43


def test_the_evaluation_copy_on_a_full_server_disk(full_server_db, embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, disk = full_server_db
    source = LanceIndex.open(tmp_path / "eval", embedder_id=embedder.id, dim=embedder.dim)
    for n in range(3):
        source.add_document(*_document(embedder, f"e{n}", 30))
    _fill(disk)

    def copy():  # type: ignore[no-untyped-def]
        return open_eval_team_index(
            source, collection="eval-tiny", admin_url=db.admin_url(),
            user_url=db.server.user_url(EVAL_USER, db.name), embedder_id=embedder.id,
            dim=embedder.dim)

    with pytest.raises(DiskFullError) as refused:
        copy()
    assert "the team library “evaluation”" in refused.value.user_message
    assert not [m for m in RAW if m in refused.value.user_message]
    (disk / "filler").unlink()
    copied = copy()  # resumes: every document once, complete
    assert {(d.content_hash, d.chunk_count) for d in copied.documents()} == \
        {(d.content_hash, d.chunk_count) for d in source.documents()}


def test_the_cli_says_the_disk_is_full_in_one_sentence(full_server_db, e5_model_dir,  # type: ignore[no-untyped-def]
                                                        eval_dir, acervo_home) -> None:
    db, disk = full_server_db
    link_models(acervo_home, e5_model_dir)
    _fill(disk)
    result = subprocess.run(
        [sys.executable, "-m", "desktop_app", "eval", "retrieval",
         str(eval_dir / "retrieval" / "faquad_pt"), "--limit", "2", "--max-docs", "4",
         "--backend", "postgres", "--pg-url", db.admin_url()],
        cwd=REPO, env=cli_env(acervo_home), capture_output=True, text=True, timeout=900)
    assert_clear(result)
    assert result.returncode == 4, result.stderr[-2000:]
    shown = result.stdout + result.stderr
    assert "error: The disk is full (writing to the server of the team library “evaluation”)" \
        in shown
    assert not [m for m in RAW if m in shown]
