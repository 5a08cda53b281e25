"""Settings: typed JSON with defaults, and a corrupt file never stops the app."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from desktop_app.config.paths import app_paths, resource
from desktop_app.config.settings import ModelEntry, Settings, load_settings, save_settings


def test_acervo_home_overrides_every_directory(acervo_home: Path) -> None:
    paths = app_paths()
    for d in (paths.config_dir, paths.data_dir, paths.cache_dir, paths.log_dir):
        assert acervo_home in d.parents
    assert paths.index_dir.parent == paths.data_dir


def test_resource_finds_bundled_files_from_a_checkout() -> None:
    assert resource("samples").is_dir()


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    s = Settings(retrieval_k=7, temperature=0.5, models=[ModelEntry("m", "/x.gguf", "chatml")])
    save_settings(s, tmp_path / "settings.json")
    assert load_settings(tmp_path / "settings.json") == s


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "nope.json") == Settings()


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"retrieval_k": "ten"}'])
def test_corrupt_file_falls_back_to_defaults_and_keeps_a_backup(
        tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "settings.json"
    path.write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert load_settings(path) == Settings()
    assert (tmp_path / "settings.json.bak").read_text(encoding="utf-8") == content
    assert "using defaults" in caplog.text


def test_unknown_keys_are_ignored_and_missing_keys_default(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"retrieval_k": 3, "from_the_future": True}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.retrieval_k == 3
    assert loaded.leg_k == Settings().leg_k
