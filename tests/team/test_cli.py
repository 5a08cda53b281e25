"""The team library from the command line: add it (password to the secret store), ingest into
it, search it with the local library, and the air gap around it (real server, real models)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.cli import build_parser
from desktop_app.errors import AppError

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"
PASSWORD = "ana-senha-1"


def run(app: App, *argv: str, stdin: str = "", capsys=None) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    args = build_parser().parse_args(list(argv))
    if stdin:
        import sys

        old, sys.stdin = sys.stdin, io.StringIO(stdin)
        try:
            code = args.handler(args, app)
        finally:
            sys.stdin = old
    else:
        code = args.handler(args, app)
    out = capsys.readouterr().out if capsys else ""
    return int(code or 0), out


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    application = build_app(embedder=embedder)
    return application


@pytest.fixture()
def with_team(app: App, team_db, capsys) -> App:  # type: ignore[no-untyped-def]
    url = team_db.url("ana").replace("ana@", f"ana:{PASSWORD}@")
    code, out = run(app, "library", "add", "equipe", url, "--collection", "leis", capsys=capsys)
    assert code == 0 and "connected to ana@127.0.0.1" in out
    return app


def test_adding_a_library_keeps_its_password_out_of_the_settings(with_team: App) -> None:
    app = with_team
    settings = app.paths.settings_file.read_text(encoding="utf-8")
    assert PASSWORD not in settings and json.loads(settings)["team_libraries"][0]["name"] == \
        "equipe"
    assert app.secrets.get("team-library:equipe") == PASSWORD
    assert PASSWORD not in "".join(p.read_text(encoding="utf-8", errors="replace")
                                   for p in app.paths.log_dir.glob("*") if p.is_file())


def test_a_wrong_password_is_refused_and_nothing_is_saved(app: App, team_db, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(AppError, match="Cannot connect to the team library “x”"):
        run(app, "library", "add", "x", team_db.url("ana"), "--password-stdin",
            stdin="wrong-password\n")
    assert app.settings.team_libraries == [] and app.secrets.get("team-library:x") is None


def test_ingest_and_search_across_libraries(with_team: App, capsys) -> None:  # type: ignore[no-untyped-def]
    app = with_team
    assert run(app, "ingest", str(SAMPLES / "lgpd-excerpt.pdf"), "--library", "equipe")[0] == 0
    assert run(app, "ingest", str(SAMPLES / "note-en.md"))[0] == 0
    capsys.readouterr()
    code, out = run(app, "search", "direitos do titular dos dados", "--json", capsys=capsys)
    hits = json.loads(out)["hits"]
    assert code == 0 and {h["library"] for h in hits} == {"local", "equipe"}
    assert hits[0]["library"] == "equipe" and "LGPD" in hits[0]["title"]
    _, out = run(app, "search", "direitos do titular", "--library", "local", "--json",
                 capsys=capsys)
    assert {h["library"] for h in json.loads(out)["hits"]} == {"local"}
    _, out = run(app, "documents", "list", "--library", "equipe", capsys=capsys)
    assert "lgpd-excerpt.pdf" in out and "1 documents" in out


def test_an_unreachable_team_library_does_not_stop_local_search(app: App, capsys) -> None:  # type: ignore[no-untyped-def]
    run(app, "library", "add", "fora", "postgresql://ana@127.0.0.1:9/acervo", "--no-check",
        "--password-stdin", stdin="x\n")
    run(app, "ingest", str(SAMPLES / "note-en.md"))
    capsys.readouterr()
    code, out = run(app, "search", "access requests backlog", "--json", capsys=capsys)
    result = json.loads(out)
    assert code == 0 and result["hits"] and {h["library"] for h in result["hits"]} == {"local"}
    assert any(w.startswith("fora: Cannot connect") for w in result["warnings"])
    assert [(w["code"], w["library"]) for w in result["warning_codes"]] == [
        ("library_unavailable", "fora")]
    # an answer says so too: "not found" must not hide a library that was not searched
    code, out = run(app, "ask", "access requests backlog", "--no-llm", "--json",
                    capsys=capsys)
    warnings = json.loads(out)["warnings"]
    unavailable = [w for w in warnings if w["code"] == "library_unavailable"]
    assert code == 0 and len(unavailable) == 1
    assert unavailable[0]["detail"].startswith("Cannot connect to the team library “fora”")
    assert unavailable[0]["text"].startswith("a library could not be searched: Cannot connect")


def test_a_server_on_another_computer_needs_the_users_permission(app: App, capsys) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.privacy.airgap import current_guard

    with pytest.raises(AppError, match="on another computer \\(db.unit.example\\)"):
        run(app, "library", "add", "sede", "postgresql://ana@db.unit.example/acervo",
            "--no-check")
    assert app.settings.team_libraries == []
    guard = current_guard()
    assert guard is not None and not guard.is_allowed("db.unit.example")
    code, _ = run(app, "library", "add", "sede", "postgresql://ana@db.unit.example/acervo",
                  "--no-check", "--allow-network")
    assert code == 0 and guard.is_allowed("db.unit.example")
    assert not guard.is_allowed("other.example")
    from desktop_app.privacy.doctor import network_section

    assert "  db.unit.example: team library “sede” (allowed)" in network_section(app)
    reopened = build_app()  # a new start opens the gap for that host again, and only it
    from desktop_app.team.connection import allowed_destinations

    assert allowed_destinations(reopened.settings) == [("sede", "db.unit.example")]
    run(app, "library", "disallow", "sede")
    with pytest.raises(AppError, match="Acervo stays offline unless you allow that server"):
        app.team_index("sede")
    guard.disallow_host("db.unit.example")


def test_removing_a_library_forgets_its_password(with_team: App, capsys) -> None:  # type: ignore[no-untyped-def]
    app = with_team
    run(app, "library", "remove", "equipe")
    assert app.settings.team_libraries == [] and app.secrets.get("team-library:equipe") is None
    capsys.readouterr()
    code, out = run(app, "library", "list", capsys=capsys)
    assert "equipe" not in out and "local" in out


def test_team_administration_commands(app: App, team_db, capsys) -> None:  # type: ignore[no-untyped-def]
    admin_url = team_db.server.admin_url(team_db.name)
    assert run(app, "team", "init", "--url", admin_url)[0] == 0
    assert run(app, "team", "user", "add", "dora", "--url", admin_url, "--password-stdin",
               stdin="dora-senha-1\n")[0] == 0
    assert run(app, "team", "collection", "pareceres", "--url", admin_url)[0] == 0
    assert run(app, "team", "grant", "dora", "pareceres", "--url", admin_url)[0] == 0
    capsys.readouterr()
    _, out = run(app, "team", "collections", "--url", admin_url, capsys=capsys)
    assert "pareceres: 0 documents; dora:r" in out
    assert run(app, "team", "revoke", "dora", "pareceres", "--url", admin_url)[0] == 0
    assert run(app, "team", "revoke", "dora", "pareceres", "--url", admin_url)[0] == 1
    assert run(app, "team", "purge", "--url", admin_url)[0] == 0
