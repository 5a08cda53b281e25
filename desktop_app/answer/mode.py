"""Answer-mode policy: does the language model write the answer, or does Acervo
answer from the sources (the best passages, each with its badge)?

One decision, made here and nowhere else: the answer service exposes it as
`AnswerService.mode()` / `.use_llm`, and everything that would use the model (the
written answer, the follow-up rewrite) keys off it; the CLI and the window show it.
A model below the capability line (`llm.MIN_WRITING_PARAMETERS`; the bundled
SmolLM2-135M is far below it) is never the default writer: it only writes when the
user asks for an experiment, and such answers are labelled.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from desktop_app.answer.gguf_info import format_parameters
from desktop_app.answer.llm import MIN_WRITING_PARAMETERS, capability_of
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError

AUTO, WRITTEN, SOURCES = "auto", "written", "sources"
ANSWER_MODES = (AUTO, WRITTEN, SOURCES)

# why the mode is what it is (AnswerMode.reason; also in every answer's trace)
CAPABLE = "capable"  # the active model is big enough: it writes
OVERRIDE = "override"  # settings answer_mode "written": the model writes whatever its size
EXPERIMENT = "experiment"  # this one answer was asked as an experiment
TOO_SMALL = "too_small"  # a model is active but below the line: sources
NO_MODEL = "no_model"  # no model installed (e.g. the bundled one is missing): sources
MODEL_ERROR = "model_error"  # the model the user chose cannot be used: sources
SOURCES_SETTING = "sources_setting"  # the user chose sources-only answers in settings
SOURCES_REQUEST = "sources_request"  # this question was asked sources-only (checkbox, --no-llm)


@dataclass(frozen=True)
class AnswerMode:
    use_llm: bool  # the model writes the answer (and rewrites follow-up questions)
    reason: str
    model: str | None = None  # the active model's name, when there is one
    parameters: int | None = None
    experiment: bool = False  # written by a model below the line: label the answer
    detail: str = ""  # the model's error, when it is unusable

    @property
    def needs_model(self) -> bool:
        """Sources because no capable model is available: offer to add one."""
        return self.reason in (TOO_SMALL, NO_MODEL, MODEL_ERROR)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def user_chose_model(settings: Settings) -> bool:
    """A model the user picked (their own GGUF, an Ollama tag), not the bundled default."""
    return settings.llm_backend == "ollama" or bool(settings.active_model)


def decide_mode(llm: Any, settings: Settings, *, sources_only: bool = False,
                experiment: bool = False, llm_error: AppError | None = None) -> AnswerMode:
    """Who writes this answer. `sources_only` / `experiment` are per-question requests."""
    name = getattr(llm, "name", None) if llm is not None else None
    if sources_only:
        return AnswerMode(False, SOURCES_REQUEST, name)
    if llm is None:
        if settings.llm_backend == "none" and llm_error is None:
            return AnswerMode(False, SOURCES_SETTING)
        if llm_error is not None and user_chose_model(settings):
            return AnswerMode(False, MODEL_ERROR, detail=llm_error.user_message)
        return AnswerMode(False, NO_MODEL, detail=llm_error.user_message if llm_error else "")
    setting = settings.answer_mode if settings.answer_mode in ANSWER_MODES else AUTO
    if (settings.sources_only or setting == SOURCES) and not experiment:
        return AnswerMode(False, SOURCES_SETTING, name)
    try:
        capability = capability_of(llm)
    except AppError as exc:  # e.g. Ollama not reachable while asking its size
        return AnswerMode(False, MODEL_ERROR, name, detail=exc.user_message)
    small = not capability.can_write
    if experiment:
        return AnswerMode(True, EXPERIMENT if small else CAPABLE, name, capability.parameters,
                          experiment=small)
    if setting == WRITTEN:
        return AnswerMode(True, OVERRIDE if small else CAPABLE, name, capability.parameters,
                          experiment=small)
    if small:
        return AnswerMode(False, TOO_SMALL, name, capability.parameters)
    return AnswerMode(True, CAPABLE, name, capability.parameters)


def describe_mode(mode: AnswerMode) -> str:
    """One plain English line for the CLI (the window has its own translated texts)."""
    size = f" ({format_parameters(mode.parameters)} parameters)" if mode.parameters else ""
    line = format_parameters(MIN_WRITING_PARAMETERS)
    add = "add a model with `desktop-app models add PATH --use`"
    if mode.use_llm and mode.experiment:
        return (f"answer mode: EXPERIMENT — written by {mode.model}{size}, a model below the "
                f"{line} line that cannot follow the answer prompt reliably")
    if mode.use_llm:
        return f"answer mode: written by {mode.model}{size}"
    texts = {
        TOO_SMALL: (f"answer mode: from your sources — {mode.model}{size} is too small to write "
                    f"answers (the line is {line}); {add}, or try it anyway with --experiment"),
        NO_MODEL: f"answer mode: from your sources — no language model is installed; {add}",
        MODEL_ERROR: f"answer mode: from your sources — the model is unavailable: {mode.detail}",
        SOURCES_SETTING: "answer mode: from your sources (chosen in settings)",
        SOURCES_REQUEST: "answer mode: from your sources (--no-llm)",
    }
    return texts.get(mode.reason, "answer mode: from your sources")
