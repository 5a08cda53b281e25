"""Passwords of team libraries: the OS keyring, or a file only the user can read.

Never in settings.json and never in a log line. The keyring (Windows Credential
Manager, macOS Keychain, Secret Service on Linux) is used when the `keyring`
package finds a real backend; otherwise — a headless Linux box, an air-gapped
laptop without a desktop keyring — a JSON file in the data folder written with
mode 0600 (owner read/write only). `ACERVO_SECRET_STORE=file|keyring` forces
one (the tests force the file, so no test ever touches a developer's keyring).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import urllib.parse
from pathlib import Path
from typing import Any

from desktop_app.errors import AppError

log = logging.getLogger(__name__)

SERVICE = "Acervo"
SECRETS_FILE = "secrets.json"
ENV_STORE = "ACERVO_SECRET_STORE"
_DSN_PASSWORD = re.compile(r"(?:^|\s)password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)")


def split_url_password(url: str) -> tuple[str, str | None]:
    """A connection URL or `key=value` string without its password, and the password."""
    url = url.strip()
    parts = urllib.parse.urlsplit(url)
    if parts.scheme and parts.netloc and "@" in parts.netloc:
        userinfo, host = parts.netloc.rsplit("@", 1)  # a password may itself hold an '@'
        if ":" in userinfo:
            user, password = userinfo.split(":", 1)
            clean = parts._replace(netloc=f"{user}@{host}").geturl()
            return clean, urllib.parse.unquote(password) or None
        return url, None
    match = _DSN_PASSWORD.search(url)
    if match and not parts.scheme:
        value = match.group(1)
        if value.startswith("'"):
            value = value[1:-1].replace("\\'", "'").replace("\\\\", "\\")
        clean = (url[:match.start()] + url[match.end():]).strip()
        return re.sub(r"\s{2,}", " ", clean), value or None
    return url, None


class SecretStore:
    """get/set/delete a secret by key; `where` says which store is in use."""

    def __init__(self, data_dir: Path, *, backend: str | None = None) -> None:
        self.path = Path(data_dir) / SECRETS_FILE
        choice = (backend or os.environ.get(ENV_STORE, "auto")).lower()
        self._keyring = _usable_keyring() if choice in ("auto", "keyring") else None
        if choice == "keyring" and self._keyring is None:
            raise AppError("No usable OS keyring was found (install the 'keyring' package and a "
                           "desktop keyring, or store secrets in a private file).")

    @property
    def where(self) -> str:
        if self._keyring is not None:
            return f"OS keyring ({type(self._keyring).__name__})"
        return f"private file {self.path} (mode 0600)"

    def get(self, key: str) -> str | None:
        if self._keyring is not None:
            value = self._keyring.get_password(SERVICE, key)
            return str(value) if value is not None else None
        return self._read().get(key)

    def set(self, key: str, value: str) -> None:
        if self._keyring is not None:
            self._keyring.set_password(SERVICE, key, value)
            return
        data = self._read()
        data[key] = value
        self._write(data)

    def delete(self, key: str) -> None:
        if self._keyring is not None:
            with contextlib.suppress(Exception):  # keyring.errors.PasswordDeleteError: absent
                self._keyring.delete_password(SERVICE, key)
            return
        data = self._read()
        if data.pop(key, None) is not None:
            self._write(data)

    # ---- the private file ------------------------------------------------------------
    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise AppError(f"The secrets file {self.path} is unreadable; delete it and enter "
                           "the passwords again.") from exc
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def _write(self, data: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.chmod(tmp, 0o600)  # umask cannot widen it, but be explicit on odd filesystems
        os.replace(tmp, self.path)


def _usable_keyring() -> Any:
    """The keyring backend when it is a real one (not the 'fail' or 'null' placeholders)."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # a broken keyring configuration must not stop the app
        log.warning("the OS keyring is not usable; secrets go to a private file")
        return None
    name = type(backend).__module__
    if isinstance(backend, fail.Keyring) or name.endswith(".null"):
        return None
    backends = getattr(backend, "backends", None)  # the chainer: usable only if not empty
    if backends is not None and not backends:
        return None
    return backend
