"""`documents status` and `documents retry`: every file's status with the failed ones'
reason, from the journal the pipeline keeps; a fixed file retried is indexed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.cli import build_parser


@pytest.fixture()
def app(embedder) -> App:  # type: ignore[no-untyped-def]
    return build_app(embedder=embedder, llm=None)


def _cli(app: App, *argv: str) -> int:
    args = build_parser().parse_args(list(argv))
    return int(args.handler(args, app))


def test_status_lists_each_file_and_retry_reads_the_failed_again(
        app: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ok.md").write_text("# Bom\n\nUm texto que se lê.\n", encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7 this is not a pdf at all")
    assert _cli(app, "ingest", str(folder)) == 3  # a file failed
    capsys.readouterr()

    assert _cli(app, "documents", "status") == 0
    out = capsys.readouterr().out
    assert "indexed" in out and "ok.md" in out
    failed_line = next(line for line in out.splitlines() if "broken.pdf" in line)
    assert failed_line.startswith("failed") and len(failed_line) > 40  # with its reason
    assert "1 indexed" in out and "1 failed" in out

    assert _cli(app, "documents", "status", "--problems", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [Path(f["path"]).name for f in data["files"]] == ["broken.pdf"]
    assert data["files"][0]["reason"] and data["unfinished_runs"] == 0

    # still broken: it fails again, with its reason, and nothing else is touched
    assert _cli(app, "documents", "retry") == 3
    assert "failed" in capsys.readouterr().out
    (folder / "broken.pdf").unlink()
    (folder / "broken.md").write_text("# Consertado\n\nAgora se lê.\n", encoding="utf-8")
    assert _cli(app, "ingest", str(folder)) == 0
    capsys.readouterr()
    assert _cli(app, "documents", "status", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    statuses = {Path(f["path"]).name: f["status"] for f in data["files"]}
    assert statuses.pop("ok.md") in ("indexed", "unchanged")
    assert statuses == {"broken.md": "indexed"}  # the deleted file's status went with it
    assert _cli(app, "documents", "retry") == 0
    assert "no failed files" in capsys.readouterr().out


def test_folders_add_and_watch_once_catch_up(app: App, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "pasta"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nPrimeiro.\n", encoding="utf-8")
    assert _cli(app, "folders", "add", str(folder)) == 0
    out = capsys.readouterr().out
    assert "added (watched)" in out and "indexed" in out
    assert _cli(app, "folders", "list") == 0
    assert f"{folder}  watched" in capsys.readouterr().out
    # while nothing was watching: one new file, one deleted
    (folder / "b.md").write_text("# B\n\nSegundo.\n", encoding="utf-8")
    (folder / "a.md").unlink()
    assert _cli(app, "watch", "--once") == 0
    out = capsys.readouterr().out
    assert "indexed" in out and "b.md" in out and "removed" in out and "a.md" in out
    assert [d.title for d in app.index.documents()] == ["B"]
    assert _cli(app, "folders", "remove", str(folder)) == 0
    assert "1 documents removed" in capsys.readouterr().out
    assert app.index.documents() == []
