"""Typed settings stored as JSON.

A corrupt or unreadable settings file never stops the app: it is copied to
`settings.json.bak`, a warning is logged, and defaults are used. Unknown keys
are ignored and missing keys take their defaults, so older files keep working.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SETTINGS_VERSION = 1


@dataclass
class ModelEntry:
    """A GGUF model the user can pick (bundled or added from disk)."""

    name: str
    path: str
    chat_template: str | None = None  # None → use the GGUF's own template


@dataclass
class TeamLibrary:
    """A shared library on a PostgreSQL + pgvector server (the password lives in the keyring)."""

    name: str
    url: str  # postgresql://user@host:port/database — never with a password
    read_only: bool = False  # this client never adds or removes documents there
    search: bool = True  # questions search it together with the other libraries
    collection: str = ""  # where this client adds documents ("" = the only writable one)
    allow_network: bool = False  # the user allowed this server on another computer


@dataclass
class Settings:
    version: int = SETTINGS_VERSION
    language: str = "auto"  # "auto" (OS locale), "pt_BR", "en"
    # retrieval
    retrieval_k: int = 10
    leg_k: int = 40
    rrf_k: int = 60
    vector_weight: float = 1.0
    keyword_weight: float = 1.0
    chunk_chars: int = 1000
    chunk_overlap: float = 0.15
    max_pages_per_document: int = 5000  # bigger PDFs are refused with a clear message
    # embedder: "onnx" (faster, default) or "torch" (the reference path); precision
    # "int8-split" (default: int8 with each layer's few outlier channels kept fp32, ~2.5x the
    # torch path within 0.5 nDCG@10 points, see docs/measurements.md), "fp32" (the torch path's vectors,
    # same id), "int8-mixed" (FFN down-projections kept fp32) or "int8" (cost 1.1 points on
    # Pirá); each variant but fp32 has its own id, so a switch offers a reindex;
    # embed_threads 0 = all cores for the CLI, all but one while the window ingests
    embedder_backend: str = "onnx"
    embedder_precision: str = "int8-split"
    embed_threads: int = 0
    ocr_enabled: bool = True  # read scanned pages and image files with OCR (ingest/ocr.py)
    ocr_max_pages_per_document: int = 200  # OCR budget per file; later scanned pages are reported
    reranker_enabled: bool = False
    reranker_path: str = ""
    # answering
    llm_backend: str = "llama_cpp"  # "llama_cpp" | "ollama" | "none"
    models: list[ModelEntry] = field(default_factory=list)
    active_model: str = ""  # name in `models`; "" → bundled default
    n_ctx: int = 4096
    n_threads: int = 2
    temperature: float = 0.2
    max_answer_tokens: int = 512
    sources_only: bool = False  # legacy switch, same as answer_mode "sources"
    # who writes the answer (answer/mode.py): "auto" = the model when it is big enough to
    # follow the answer prompt, else the sources; "written" = always the model (a small
    # one is labelled an experiment); "sources" = never the model
    answer_mode: str = "auto"
    # abstention ("not found"), both modes; calibration in docs/answers.md, "Abstention"
    abstention_enabled: bool = True
    abstain_min_margin: float = 0.038  # best sentence cosine minus the library's probe floor
    abstain_min_coverage: float = 0.35  # share of the question's content terms in the passages
    # the margin needed when the passages use every content term of the question (≥ 2 terms):
    # half of abstain_min_margin, since the keyword evidence already confirms the topic
    abstain_min_margin_full_coverage: float = 0.019
    # the "not found" gate fitted on several corpora (answer/gate.py); "" = the bundled one.
    # The thresholds above decide only when it cannot (no embedder, no gate file)
    abstain_gate_file: str = ""
    ollama_url: str = "http://127.0.0.1:11434"
    ollama_model: str = ""
    allow_network: bool = False
    # memory
    memory_enabled: bool = True
    implicit_extraction: bool = True
    memory_retention_days: int = 365  # memories and the conversation-recall index
    # conversation recall (memory/recall.py): earlier chats searchable at answer time;
    # turning it off erases its index. The memory + recall block's share of the prompt:
    recall_enabled: bool = True
    context_block_tokens: int = 600
    # logs
    log_retention_days: int = 14
    log_max_bytes: int = 2_000_000
    log_pseudonymize: bool = False  # salted short hashes instead of bare <CPF>; still personal data
    # library
    # window (only the GUI reads these)
    theme: str = "system"  # "system" (follow the OS) | "light" | "dark"
    last_conversation: str = ""  # reopened at launch
    window_size: list[int] = field(default_factory=list)  # [width, height] at the last close
    splitter_sizes: list[int] = field(default_factory=list)  # library | chat | sources, px
    search_local: bool = True  # questions search this computer's library
    team_libraries: list[TeamLibrary] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in known}
        if "models" in kwargs:
            kwargs["models"] = [ModelEntry(**m) for m in kwargs["models"]]
        if "team_libraries" in kwargs:
            kwargs["team_libraries"] = [_team_library(t) for t in kwargs["team_libraries"]]
        settings = cls(**kwargs)
        _validate(settings)
        return settings

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _team_library(data: dict[str, Any]) -> TeamLibrary:
    from desktop_app.config.secrets import split_url_password

    known = {f.name for f in dataclasses.fields(TeamLibrary)}
    library = TeamLibrary(**{k: v for k, v in data.items() if k in known})
    url, password = split_url_password(library.url)
    if password:  # a hand-edited file: never keep (or log) it
        log.warning("a team library URL in the settings held a password; it was dropped")
        library.url = url
    return library


def _validate(s: Settings) -> None:
    defaults = Settings()
    for f in dataclasses.fields(Settings):
        expected = type(getattr(defaults, f.name))
        value = getattr(s, f.name)
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            setattr(s, f.name, float(value))
            continue
        if not isinstance(value, expected):
            raise ValueError(f"setting {f.name!r} should be {expected.__name__}")


def load_settings(path: Path) -> Settings:
    """Read settings; on any problem keep a `.bak` copy and return defaults."""
    if not path.exists():
        return Settings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("settings file is not a JSON object")
        return Settings.from_dict(data)
    except (OSError, ValueError, TypeError) as exc:
        backup = path.with_name(path.name + ".bak")
        with contextlib.suppress(OSError):
            shutil.copy2(path, backup)
        log.warning("settings file unreadable (%s); using defaults, copy kept at %s",
                    type(exc).__name__, backup.name)
        return Settings()


def save_settings(settings: Settings, path: Path) -> None:
    """Write atomically: a crash mid-write never leaves a half file, and a window and a
    terminal saving at once do not trip over one temporary file."""
    from desktop_app.config.files import write_json_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, settings.to_dict())
