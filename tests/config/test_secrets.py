"""Team-library passwords: the OS keyring or a 0600 file, never settings.json."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from desktop_app.config.secrets import SecretStore, split_url_password
from desktop_app.config.settings import Settings, TeamLibrary, load_settings, save_settings
from desktop_app.errors import AppError


@pytest.mark.parametrize(("url", "clean", "password"), [
    ("postgresql://ana:S3nh4@db.unit:5432/acervo", "postgresql://ana@db.unit:5432/acervo", "S3nh4"),
    ("postgresql://ana:p@ss@db/acervo", "postgresql://ana@db/acervo", "p@ss"),
    ("postgresql://ana:Abc%40123@db/acervo?sslmode=require",
     "postgresql://ana@db/acervo?sslmode=require", "Abc@123"),
    ("postgresql://ana@db/acervo", "postgresql://ana@db/acervo", None),
    ("postgresql:///acervo?host=/run/pg", "postgresql:///acervo?host=/run/pg", None),
    ("host=db user=ana password=S3nh4 dbname=acervo", "host=db user=ana dbname=acervo", "S3nh4"),
    ("host=db password='a b\\'c' dbname=acervo", "host=db dbname=acervo", "a b'c"),
])
def test_a_password_is_split_off_any_connection_string(url: str, clean: str,
                                                       password: str | None) -> None:
    assert split_url_password(url) == (clean, password)


def test_the_private_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    store = SecretStore(tmp_path, backend="file")
    store.set("team-library:equipe", "S3nh4-forte")
    store.set("team-library:outra", "outra-senha")
    mode = stat.S_IMODE(store.path.stat().st_mode)
    assert mode == 0o600
    assert SecretStore(tmp_path, backend="file").get("team-library:equipe") == "S3nh4-forte"
    store.delete("team-library:equipe")
    assert store.get("team-library:equipe") is None and store.get("team-library:outra")
    assert "private file" in store.where


def test_a_damaged_secrets_file_is_a_clear_error(tmp_path: Path) -> None:
    store = SecretStore(tmp_path, backend="file")
    store.path.write_text("{not json", encoding="utf-8")
    with pytest.raises(AppError, match="unreadable"):
        store.get("x")


def test_the_os_keyring_is_used_when_a_real_backend_exists(tmp_path: Path) -> None:
    """No desktop keyring runs here, so a backend of our own stands in for the OS one."""
    import keyring
    from keyring.backend import KeyringBackend

    class MemoryKeyring(KeyringBackend):
        priority = 10  # type: ignore[assignment]

        def __init__(self) -> None:
            self.items: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.items.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.items[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.items.pop((service, username))

    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        store = SecretStore(tmp_path, backend="auto")
        store.set("team-library:equipe", "S3nh4")
        assert backend.items == {("Acervo", "team-library:equipe"): "S3nh4"}
        assert store.get("team-library:equipe") == "S3nh4" and not store.path.exists()
        store.delete("team-library:equipe")
        store.delete("team-library:equipe")  # deleting twice is harmless
        assert "OS keyring" in store.where
    finally:
        keyring.set_keyring(previous)


def test_without_a_usable_keyring_forcing_it_is_a_clear_error(tmp_path: Path) -> None:
    import keyring
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        assert "private file" in SecretStore(tmp_path, backend="auto").where
        with pytest.raises(AppError, match="No usable OS keyring"):
            SecretStore(tmp_path, backend="keyring")
    finally:
        keyring.set_keyring(previous)


def test_settings_keep_team_libraries_but_never_a_password(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    settings = Settings(team_libraries=[TeamLibrary("equipe", "postgresql://ana@db/acervo",
                                                    read_only=True, collection="leis")])
    save_settings(settings, path)
    assert load_settings(path).team_libraries == settings.team_libraries
    data = json.loads(path.read_text(encoding="utf-8"))
    data["team_libraries"][0]["url"] = "postgresql://ana:S3nh4@db/acervo"  # hand-edited
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_settings(path).team_libraries[0].url == "postgresql://ana@db/acervo"
