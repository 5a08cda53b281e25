"""From a library in the settings to a connected team index, through the air gap.

A team server is a network destination the user allowed explicitly: a library
whose host is another computer is refused unless the user ticked "allow" for it
(`allow_network`), and only its hosts are opened in the outbound guard. The
check happens here, before connecting, because libpq opens its sockets in C
where Python's audit hook cannot see them (psycopg resolves host names in Python,
which the guard does see; IP addresses go straight to libpq). The password comes
from the secret store; it is never part of a URL that is stored or logged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from desktop_app.config.settings import Settings, TeamLibrary
from desktop_app.errors import AppError

if TYPE_CHECKING:
    from desktop_app.config.secrets import SecretStore
    from desktop_app.retrieval.pg_index import PgIndex

INSTALL_HINT = "pip install -e '.[team]' (psycopg and keyring)"
CONNECT_TIMEOUT_S = 5


def secret_key(library_name: str) -> str:
    return f"team-library:{library_name}"


def _params(url: str) -> dict[str, Any]:
    try:
        from psycopg.conninfo import conninfo_to_dict
    except ImportError as exc:
        raise AppError(f"Team libraries need the psycopg package: {INSTALL_HINT}") from exc
    try:
        return dict(conninfo_to_dict(url))
    except Exception as exc:  # psycopg.ProgrammingError: not a connection string
        raise AppError("Not a PostgreSQL connection URL (example: "
                       "postgresql://ana@server.example:5432/acervo).") from exc


def network_hosts(url: str) -> list[str]:
    """The TCP hosts a URL reaches ([] for a local Unix socket)."""
    from desktop_app.privacy.airgap import is_loopback_host

    params = _params(url)
    hosts = []
    for key in ("host", "hostaddr"):
        for host in str(params.get(key) or "").split(","):
            host = host.strip()
            if host and not host.startswith("/") and host[1:2] != ":" and host not in hosts:
                hosts.append(host)
    return [h for h in hosts if not is_loopback_host(h)]


def describe(url: str) -> str:
    """`user@host:port/database` for the status bar, logs and `doctor` (no password)."""
    params = _params(url)
    host = str(params.get("host") or "local socket")
    if host.startswith("/"):
        host = "local socket"
    port = f":{params['port']}" if params.get("port") and host != "local socket" else ""
    user = f"{params['user']}@" if params.get("user") else ""
    return f"{user}{host}{port}/{params.get('dbname', '')}"


def allowed_destinations(settings: Settings) -> list[tuple[str, str]]:
    """(library name, host) for every team server on another computer the user allowed."""
    out = []
    for library in settings.team_libraries:
        if library.allow_network:
            try:
                out += [(library.name, host) for host in network_hosts(library.url)]
            except AppError:
                continue
    return out


def open_guard_for(settings: Settings, guard: Any) -> list[str]:
    """Let the outbound guard through to the allowed team servers; returns their hosts."""
    hosts = [host for _name, host in allowed_destinations(settings)]
    for host in hosts:
        guard.allow_host(host)
    return hosts


def check_allowed(library: TeamLibrary) -> None:
    remote = network_hosts(library.url)
    if remote and not library.allow_network:
        raise AppError(
            f"The team library “{library.name}” is on another computer ({', '.join(remote)}). "
            "Acervo stays offline unless you allow that server: Settings → Libraries → "
            f"“Allow the connection”, or `desktop-app library allow {library.name}`.")


def open_team_index(library: TeamLibrary, *, secrets: SecretStore | None, embedder_id: str,
                    keyword_ranking: str = "bm25", password: str | None = None) -> PgIndex:
    """Connect as the analyst's own role; raises AppError with a message for the user.
    `password` (a library being tested before it is saved) overrides the secret store."""
    check_allowed(library)
    try:
        import psycopg
    except ImportError as exc:
        raise AppError(f"Team libraries need the psycopg package: {INSTALL_HINT}") from exc
    from desktop_app.retrieval.pg_index import PgIndex

    if password is None and secrets is not None:
        password = secrets.get(secret_key(library.name))

    def connect() -> Any:
        return psycopg.connect(library.url, password=password, connect_timeout=CONNECT_TIMEOUT_S,
                               application_name="acervo")

    return PgIndex(connect, library=library.name, current_embedder_id=embedder_id,
                   collection=library.collection, read_only=library.read_only,
                   keyword_ranking=keyword_ranking, location=describe(library.url))


def find_library(settings: Settings, name: str) -> TeamLibrary:
    for library in settings.team_libraries:
        if library.name == name:
            return library
    names = ", ".join(t.name for t in settings.team_libraries) or "none configured"
    raise AppError(f"No team library named “{name}” ({names}).")


def unique_name(name: str, existing: Iterable[str]) -> str:
    name = " ".join(name.split())
    if not name or name.lower() == "local":
        raise AppError("Give the library a name (not “local”, which is this computer's).")
    if name in set(existing):
        raise AppError(f"There is already a library named “{name}”.")
    return name
