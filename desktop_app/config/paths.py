"""Every path the app uses, in one place.

platformdirs decides where config, data, cache and logs live; the single
`ACERVO_HOME` environment variable overrides all of them (tests use it through an
autouse fixture). `resource()` finds bundled files from a checkout and from a
PyInstaller bundle alike.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "Acervo"
HOME_ENV = "ACERVO_HOME"


@dataclass(frozen=True)
class AppPaths:
    config_dir: Path
    data_dir: Path
    cache_dir: Path
    log_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def index_dir(self) -> Path:
        """The LanceDB directory holding documents, chunks and memories."""
        return self.data_dir / "index"

    @property
    def memory_index_dir(self) -> Path:
        """LanceDB directory of the memory search table (separate from the document index)."""
        return self.data_dir / "memory"

    @property
    def models_dir(self) -> Path:
        """Models derived at first run (e.g. the converted e5 embedder)."""
        return self.data_dir / "models"

    @property
    def state_db(self) -> Path:
        """SQLite file for conversations, memory history, consents."""
        return self.data_dir / "state.sqlite3"

    def ensure(self) -> AppPaths:
        for d in (self.config_dir, self.data_dir, self.cache_dir, self.log_dir):
            d.mkdir(parents=True, exist_ok=True)
        return self


def app_paths() -> AppPaths:
    """Resolve paths now (not at import), honouring `ACERVO_HOME`."""
    home = os.environ.get(HOME_ENV)
    if home:
        root = Path(home).expanduser()
        return AppPaths(root / "config", root / "data", root / "cache", root / "logs")
    return AppPaths(
        Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )


def _resources_root() -> Path:
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def resource(*parts: str) -> Path:
    """Path of a bundled resource (prompts, samples, icons, translations)."""
    return _resources_root().joinpath(*parts)
