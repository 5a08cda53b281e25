"""The one test double of the GUI seam (Dangerzone's dummy-provider pattern: the real
class, with only what a test cannot make real replaced).

`ScriptedServices` is the real `GuiServices` over a real `App`, whose chat part answers
from a script instead of the answer service: the window, its workers and its signals
run for real; the events of a turn are whatever the test needs to render (a warning no
model produces on demand, a badge on a given PDF page, a slow first word). It records
what the window asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from desktop_app.app import App, build_app
from desktop_app.gui.services import ChatServices, GuiServices

Script = Callable[[Callable[[], bool]], Iterator[Any]]  # cancel → the turn's events


class ScriptedChat(ChatServices):
    """The real chat part with `ask` played from `script`."""

    def __init__(self, app: App, script: Script) -> None:
        super().__init__(app)
        self.script = script
        self.calls: list[dict[str, Any]] = []

    def ask(self, conversation_id: str | None, question: str, *, sources_only: bool,
            cancel: Callable[[], bool], experiment: bool = False) -> Iterator[Any]:
        self.calls.append({"question": question, "sources_only": sources_only,
                           "experiment": experiment})
        return self.script(cancel)


class ScriptedServices(GuiServices):
    """`GuiServices` whose chat turns follow `script`; everything else is real."""

    def __init__(self, script: Script, app: App | None = None) -> None:
        super().__init__(app or build_app())
        self.chat: ScriptedChat = ScriptedChat(self.app, script)

    @property
    def calls(self) -> list[dict[str, Any]]:
        """What the window asked, in order (question, sources_only, experiment)."""
        return self.chat.calls
