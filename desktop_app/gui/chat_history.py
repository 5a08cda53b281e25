"""A stored chat shown again in the chat panel — as it was shown live: the answers with
their badges, "Searched for", "found by", the closest passages of a "not found" answer (and
"Why not found?"), the note on who writes answers under the first answer it explains, and
each answer's "Copy with citations · Export…".

At start-up the last chat is shown from the stored state before the index is open (its
badges know their document, page and quote; not yet their passage's text):
`complete_conversation` then gives the badges their passages in place, without drawing the
transcript again — unless a badge's document was missing from the stored listing, in which
case the chat is drawn again with it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from desktop_app.answer.events import Done
from desktop_app.answer.mode import MODEL_ERROR, NO_MODEL, TOO_SMALL
from desktop_app.chat.stored import ReloadedMessage
from desktop_app.gui.memory_dialogs import erased_placeholders

if TYPE_CHECKING:
    from desktop_app.gui.chat import ChatPanel


def _badges(messages: list[ReloadedMessage]) -> list[list[tuple[int, str, str]]]:
    """Per answer, its badges as (number, library, chunk id), and its closest passages."""
    return [[(c.number, c.library, c.chunk_id) for c in (*m.answer.citations, *m.answer.closest)]
            for m in messages if m.answer is not None]


def show_conversation(panel: ChatPanel, conversation_id: str,
                      messages: list[ReloadedMessage], *, stepwise: bool = False,
                      then: Callable[[], None] | None = None) -> None:
    """Render a stored conversation (answers keep their citations when traced).
    `stepwise`: one message per turn of the event loop (keys typed meanwhile are handled
    between them); another chat shown before the end stops it. `then`: once drawn."""
    if panel.is_busy():
        panel.stop()
    panel._serial += 1  # the stopped turn's last events are not shown here
    serial = panel._serial
    panel.conversation_id = conversation_id
    panel._transcript = []
    panel._questions = {}
    panel.view.clear_transcript()
    panel.memory_chip.hide()
    panel._shown_messages = list(messages)
    panel._pending = history_steps(panel, messages)
    if not stepwise:
        flush_pending(panel)
        if then is not None:
            then()
        return

    def next_step() -> None:
        if serial != panel._serial:
            return  # another chat took the panel
        if panel._pending:
            panel._render(panel._pending.pop(0))
            QTimer.singleShot(0, next_step)
        elif then is not None:
            then()

    next_step()


def flush_pending(panel: ChatPanel) -> None:
    """Draw what a stepwise `show_conversation` has not drawn yet (a question asked
    meanwhile goes below the whole chat)."""
    while panel._pending:
        panel._render(panel._pending.pop(0))


def complete_conversation(panel: ChatPanel, conversation_id: str,
                          messages: list[ReloadedMessage]) -> bool:
    """The chat shown from the stored state, now read with the index: the badges get their
    passages in place (True), or the chat is drawn again when its badges differ (False;
    nothing happens when another chat is shown or a question is on its way)."""
    if conversation_id != panel.conversation_id or panel.is_busy():
        return False
    if _badges(messages) != _badges(panel._shown_messages) or len(messages) != len(
            panel._shown_messages):
        show_conversation(panel, conversation_id, messages)
        return False
    answers = [m for m in messages if m.answer is not None]
    for index, message in enumerate(answers):
        assert message.answer is not None
        panel.view.update_sources(index, dataclasses.replace(
            message.answer, answer=erased_placeholders(message.message.content)))
    panel._transcript = history_steps(panel, messages)  # a language switch redraws these
    panel._shown_messages = list(messages)
    return True


def history_steps(panel: ChatPanel, messages: list[ReloadedMessage]) -> list[Callable[[], None]]:
    """How to draw each message (kept: a language switch draws them again)."""
    steps: list[Callable[[], None]] = []
    question = ""
    noted = False  # the mode note, once, under the first answer it explains
    for message in messages:
        answer = message.answer
        note = (not noted and answer is not None and answer.answer_mode is not None
                and answer.answer_mode.reason in (TOO_SMALL, NO_MODEL, MODEL_ERROR))
        noted = noted or note
        steps.append(partial(show_message, panel, message, question, note))
        question = message.message.content if answer is None else ""
    return steps


def show_message(panel: ChatPanel, shown: ReloadedMessage, question: str = "",
                 mode_note: bool = False) -> None:
    content = erased_placeholders(shown.message.content)  # "[erased]" in the UI language
    if shown.answer is None:
        panel.view.add_user_message(content, panel.you())
        return
    panel._begin_answer()
    done: Done = dataclasses.replace(shown.answer, answer=content)
    panel._finish(done, question)
    panel._recall_notice(list(shown.recalled), sources_only=False)
    mode = done.answer_mode
    if mode_note and mode is not None:
        panel._show_mode_notice(mode.reason, mode.model or "")
    if done.answer_mode is not None or done.citations or done.closest:
        panel._answer_links(shown.message.id)  # an answer (not a memory command's reply)
