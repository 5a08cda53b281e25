"""The settings' services: the live settings and saving them, the models they select (the
answer mode, loading the LLM), team-library passwords, and the servers on other
computers the user allows (the outbound guard follows them)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.errors import AppError
from desktop_app.gui.services.part import CancelCheck, ServicePart

if TYPE_CHECKING:
    from desktop_app.answer.llm import LLM
    from desktop_app.answer.mode import AnswerMode
    from desktop_app.app import App, SettingsChange
    from desktop_app.config.settings import Settings, TeamLibrary
    from desktop_app.gui.services.library import LibraryServices


@dataclass(frozen=True)
class ModelLoadState:
    """Start-up progress of one component, shown in the status bar."""

    component: str  # "embedder" | "index" | "llm" | "memory"
    # "loading" | "ready" | "unavailable" | "off"; for the LLM also "sources": a model is
    # there but does not write answers (too small, or the user chose sources-only)
    state: str
    detail: str = ""
    mode: AnswerMode | None = None  # the LLM's answer mode, once decided


class SettingsServices(ServicePart):
    """The settings and what depends on them."""

    def __init__(self, app: App, library: LibraryServices) -> None:
        super().__init__(app)
        self._library = library  # falls back to "local" when its library is removed

    @property
    def current(self) -> Settings:
        """The live settings (edit a copy and `apply` it; a few window fields are set here
        directly: the last chat, the window size and panes)."""
        return self._app.settings

    def save(self) -> None:
        self._app.save_settings()

    def apply(self, new: Settings) -> SettingsChange:
        """The edited settings become live (`App.apply_settings` rebuilds what depends on
        them); the outbound guard follows the servers the user now allows."""
        from desktop_app.privacy.airgap import allow_only

        change = self._app.apply_settings(new)
        allow_only(host for _what, host in self.network_destinations())
        self._library.set_library(self._library.current_library)  # "local" when removed
        return change

    # ---- models -------------------------------------------------------------------
    def _llm(self) -> tuple[LLM | None, AppError | None]:
        try:
            return self._app.llm, None
        except AppError as exc:
            return None, exc

    def load_llm(self, _cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Build the LLM the settings select (its file's header only) and decide the answer
        mode. The weights are not loaded here: llama.cpp loads them when the model first
        writes (a model too small to write answers is never loaded unless asked for an
        experiment), so the window never waits for a model no answer may use."""
        llm, error = self._llm()
        mode = self.answer_mode(llm, error)
        if llm is None and error is None:
            yield ModelLoadState("llm", "off", mode=mode)  # the user chose sources-only answers
        elif llm is None:
            yield ModelLoadState("llm", "unavailable", error.user_message if error else "",
                                 mode=mode)
        elif not mode.use_llm:
            yield ModelLoadState("llm", "sources", llm.name, mode=mode)
        else:
            yield ModelLoadState("llm", "ready", llm.name, mode=mode)

    def answer_mode(self, llm: LLM | None = None, error: AppError | None = None) -> AnswerMode:
        """Who writes answers with the current settings. Reads GGUF headers (or asks
        Ollama its size): call it from a worker."""
        from desktop_app.answer.mode import decide_mode

        if llm is None and error is None:
            llm, error = self._llm()
        return decide_mode(llm, self._app.settings, llm_error=error)

    def active_model_name(self) -> str:
        """Name of the model the settings select, without loading anything."""
        settings = self._app.settings
        if settings.llm_backend == "none":
            return ""
        if settings.llm_backend == "ollama":
            return f"ollama:{settings.ollama_model}"
        from desktop_app.answer.models import BUNDLED_NAME

        return settings.active_model or BUNDLED_NAME

    def loaded_embedder_id(self) -> str:
        """The embedder's id once loaded ("" before: the settings dialog must not load it)."""
        embedder = self._app.built("embedder")
        return str(getattr(embedder, "id", ""))

    # ---- the network --------------------------------------------------------------
    def is_air_gapped(self) -> bool:
        """False when an Ollama server or a team server on another computer is allowed."""
        return not self.network_destinations()

    def network_destinations(self) -> list[tuple[str, str]]:
        """(what, host) for every server on another computer the user allowed."""
        from desktop_app.privacy.airgap import is_loopback_host, url_host

        settings = self._app.settings
        out: list[tuple[str, str]] = []
        if settings.llm_backend == "ollama" and settings.allow_network:
            host = url_host(settings.ollama_url)
            if host and not is_loopback_host(host):
                out.append(("Ollama", host))
        if settings.team_libraries:
            from desktop_app.team.connection import allowed_destinations

            out += allowed_destinations(settings)
        return out

    # ---- team libraries -----------------------------------------------------------
    def test_library(self, library: TeamLibrary, password: str | None) -> str:
        """Connect with these (unsaved) details; a line for the user, or AppError."""
        from desktop_app.privacy.airgap import allowing
        from desktop_app.team.connection import network_hosts, open_team_index

        with allowing(h for h in network_hosts(library.url) if library.allow_network):
            index = open_team_index(library, secrets=None if password else self._app.secrets,
                                    embedder_id=self._app.embedder.id, password=password)
            stats = index.stats()
            index.close()
        return f"{stats.location}: {stats.documents} documents you can read"

    def rename_library_passwords(self, renamed: dict[str, str]) -> None:
        """A renamed library keeps its stored password (new name → old name)."""
        from desktop_app.team.connection import secret_key

        secrets = self._app.secrets
        for new, old in renamed.items():
            password = secrets.get(secret_key(old))
            if password:
                secrets.set(secret_key(new), password)
            secrets.delete(secret_key(old))

    def store_library_password(self, name: str, password: str | None) -> None:
        from desktop_app.team.connection import secret_key

        if password:
            self._app.secrets.set(secret_key(name), password)
        else:
            self._app.secrets.delete(secret_key(name))
        self._app.reset_team_libraries()  # the next search connects with the new password
