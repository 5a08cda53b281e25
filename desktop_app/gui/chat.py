"""The chat: question box, streamed answer with citation chips, Stop, memory chip.

One turn runs in a worker (`ChatServices.ask`); its events arrive in order on the GUI
thread: `Token` → text, `CitationEvent` → chip data, `Done` → the verified answer
with warnings and the sources list, memory events → the "memory saved · undo" chip
or a "needs your consent" note. Stop cancels the worker (checked between events;
the generator is closed, which stops llama.cpp generation; during prompt processing
the model's abort callback ends it within a fraction of a second).

Before the first word, `Progress` events show "Searching… / Reading N passages… /
Writing…" with the seconds waited. When no model able to write answers is
available, the first answer of the session says so once, with links to add a model
(Settings → Models) and to try the small model as a labelled experiment; the status
bar shows the mode all the time, so the per-answer "sources only" warning is not
repeated.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.answer.events import (
    READING,
    SEARCHING,
    WRITING,
    AnswerWarning,
    Citation,
    CitationEvent,
    Done,
    MemoryUsed,
    Progress,
    RecallUsed,
    Token,
    WarningCode,
)
from desktop_app.answer.mode import (
    MODEL_ERROR,
    NO_MODEL,
    SOURCES_REQUEST,
    TOO_SMALL,
    AnswerMode,
)
from desktop_app.answer.models import BUNDLED_NAME
from desktop_app.chat.events import ChatEvent, ConversationStarted, TurnComplete
from desktop_app.chat.stored import ReloadedMessage
from desktop_app.errors import AppError
from desktop_app.gui import chat_history
from desktop_app.gui.answer_view import AnswerView
from desktop_app.gui.dialogs import confirm
from desktop_app.gui.memory_dialogs import category_label
from desktop_app.gui.panel import PanelMixin
from desktop_app.gui.services import ChatServices, MemoryServices
from desktop_app.gui.values import value_name
from desktop_app.gui.workers import GeneratorWorker, WorkerSet
from desktop_app.memory.events import (
    ForgetAllRequested,
    MemoryEvent,
    MemoryForgotten,
    MemoryNotSaved,
    MemorySaved,
)
from desktop_app.memory.types import MemoryItem, chat_date

Render = Callable[[], None]


class QuestionEdit(QPlainTextEdit):
    """Enter sends, Shift+Enter adds a line."""

    submitted = Signal()
    typed = Signal()  # any key press (the window loads heavy parts when typing pauses)
    # the start-up benchmark's tap on each key press (gui/run.py); None otherwise
    key_observer: Callable[[str], None] | None = None

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if self.key_observer is not None:
            self.key_observer(event.text())
        self.typed.emit()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class ChatPanel(PanelMixin, QWidget):
    """Asks questions and renders the conversation; `citationClicked` opens the viewer."""

    citationClicked = Signal(Citation, str)  # the badge's citation, the claim it supports
    busyChanged = Signal(bool)
    conversationChanged = Signal(str)  # conversation id (new or continued)
    memoryChanged = Signal()
    addModelRequested = Signal()  # "add a model" in the sources-mode notice
    recallOpened = Signal(str)  # "from your chat of 15 Nov" clicked: that conversation's id
    explainRequested = Signal(str)  # "Why not found?" under an answer: its question
    exportRequested = Signal(str)  # "Export…" under an answer: its stored message id
    copyRequested = Signal(str)  # "Copy with citations" under an answer: its message id

    def __init__(self, chat: ChatServices, memory: MemoryServices, workers: WorkerSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services: ChatServices = chat
        self.memory_services = memory  # the memory chip: undo a save, forget everything
        self.workers = workers
        self.conversation_id: str | None = None
        self._turn: GeneratorWorker | None = None
        self._done_seen = False
        self._serial = 0  # bumped when the transcript is replaced (new chat, other chat)
        self._undo_token = ""
        self._memories_used: list[str] = []
        self._recalled: list[RecallUsed] = []  # earlier chats the current answer drew on
        self._last_question = ""
        self._mode: AnswerMode | None = None
        self._mode_notice_shown = False
        self._progress: Callable[[], str] | None = None  # the progress text (no seconds)
        self._transcript: list[Render] = []  # how to redraw it (language switch)
        self._relabel_pending = False
        self._streamed: list[str] = []  # the current answer's tokens (to redraw a stop)
        self._announced: list[Citation] = []  # its citations announced while streaming
        self._chip_text: Callable[[], str] | None = None
        self._asked_at = 0.0
        self._questions: dict[int, str] = {}  # "why not found" links → the question asked
        self._answered = False  # the turn's Done came from the answer service
        self._shown_messages: list[ReloadedMessage] = []  # the stored chat shown (if any)
        self._pending: list[Render] = []  # its messages not drawn yet (stepwise, start-up)
        self._user_sources_only = False  # the box's state while no model writes answers
        self._progress_timer = QTimer(self)
        self._progress_timer.setInterval(1000)
        self._progress_timer.timeout.connect(self._refresh_progress)

        self.view = AnswerView()
        self.view.citationClicked.connect(self.citationClicked)
        self.view.actionClicked.connect(self._action)
        self.memory_chip = QFrame()
        self.memory_chip.setFrameShape(QFrame.Shape.StyledPanel)
        self.memory_chip.setObjectName("memoryChip")
        self.memory_chip.setStyleSheet(
            "#memoryChip { background: rgba(46, 125, 50, 0.16); border-radius: 10px; }")
        self.memory_label = QLabel()
        self.memory_label.setWordWrap(True)
        self.undo_button = QPushButton()
        self.undo_button.setFlat(True)
        self.undo_button.clicked.connect(self.undo_memory)
        chip_layout = QHBoxLayout(self.memory_chip)
        chip_layout.setContentsMargins(10, 2, 4, 2)
        chip_layout.addWidget(self.memory_label, 1)
        chip_layout.addWidget(self.undo_button)
        self.memory_chip.hide()

        self.question = QuestionEdit()
        self.question.setTabChangesFocus(True)
        self.question.setFixedHeight(self.question.fontMetrics().lineSpacing() * 3 + 16)
        self.question.submitted.connect(self.ask)
        self.sources_only = QCheckBox()
        self.sources_only.toggled.connect(self._sources_only_toggled)
        # why the box is greyed: no model writes answers now (with a link to add one)
        self.mode_hint = QLabel()
        self.mode_hint.setTextFormat(Qt.TextFormat.RichText)
        self.mode_hint.setWordWrap(True)
        self.mode_hint.linkActivated.connect(lambda _link: self.addModelRequested.emit())
        self.mode_hint.hide()
        self.ask_button = QPushButton()
        self.ask_button.setDefault(True)
        self.ask_button.clicked.connect(self.ask)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.hide()
        controls = QHBoxLayout()
        controls.addWidget(self.sources_only)
        controls.addWidget(self.mode_hint, 1)
        controls.addStretch(0)
        controls.addWidget(self.stop_button)
        controls.addWidget(self.ask_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.memory_chip)
        layout.addWidget(self.question)
        layout.addLayout(controls)
        self.retranslate()

    def retranslate(self) -> None:
        self._relabel()  # earlier answers, notices and the chip in the new language
        self.view.show_welcome(self.tr("Ask a question about your documents. Every answer cites its sources: click a numbered badge to open the page it came from."))
        self.question.setPlaceholderText(self.tr("Ask about your documents… (Enter to send, Shift+Enter for a new line)"))
        self.sources_only.setText(self.tr("Sources only (no model)"))
        self._update_sources_only_tip()
        self.ask_button.setText(self.tr("Ask"))
        self.stop_button.setText(self.tr("Stop"))
        self.undo_button.setText(self.tr("Undo"))

    # ---- turns --------------------------------------------------------------------
    def is_busy(self) -> bool:
        return self._turn is not None

    def new_chat(self) -> None:
        if self.is_busy():
            self.stop()
        self._serial += 1
        self.conversation_id = None
        self._transcript = []
        self._pending = []
        self._questions = {}
        self.view.clear_transcript()
        self.retranslate()  # the welcome hint
        self.memory_chip.hide()
        self.question.setFocus()

    def set_mode(self, mode: AnswerMode | None) -> None:
        """The answer mode the window decided (status bar). The sources-only box only means
        something when a model writes answers: otherwise it is shown ticked and greyed, and
        the words beside it say why (and offer to add a model)."""
        self._mode = mode
        enabled = mode is None or mode.use_llm or mode.reason == SOURCES_REQUEST
        if enabled and not self.sources_only.isEnabled():
            self.sources_only.blockSignals(True)
            self.sources_only.setChecked(self._user_sources_only)  # the user's own choice
            self.sources_only.blockSignals(False)
        elif not enabled:
            self.sources_only.blockSignals(True)
            self.sources_only.setChecked(True)
            self.sources_only.blockSignals(False)
        self.sources_only.setEnabled(enabled)
        self.sources_only.setVisible(enabled)  # greyed, it would say nothing: the hint does
        self._update_sources_only_tip()

    def _sources_only_toggled(self, on: bool) -> None:
        if self.sources_only.isEnabled():
            self._user_sources_only = on

    def _update_sources_only_tip(self) -> None:
        if self.sources_only.isEnabled():
            self.sources_only.setToolTip(self.tr("Answer with the best passages from your documents, without the language model"))
            self.mode_hint.hide()
            return
        why = self.tr("Answers already come from your documents' passages: no model writes them now (see the status bar).")
        self.sources_only.setToolTip(why)
        self.mode_hint.setToolTip(why)
        mode = self._mode
        text = "❝ " + escape(self.tr("Answers quote your sources: no model writes them"))
        if mode is not None and mode.needs_model:
            add = self.tr("add a model")  # (outside the f-string: lupdate would miss it)
            text += f' — <a href="add-model">{escape(add)}</a>'
        self.mode_hint.setText(f'<span style="color:#8a8a8a">{text}</span>')
        self.mode_hint.show()

    def ask(self, question: str | None = None, *, experiment: bool = False) -> None:
        text = (question if isinstance(question, str) else self.question.toPlainText()).strip()
        if not text or self.is_busy():
            return
        chat_history.flush_pending(self)
        if not isinstance(question, str):
            self.question.clear()
        self.memory_chip.hide()
        self._last_question = text
        self._render(lambda: self.view.add_user_message(text, self.you()))
        self._render(lambda: self._begin_answer(experiment))
        self._done_seen = False
        self._answered = False
        self._memories_used = []
        self._recalled = []
        self._streamed = []
        self._announced = []
        self._asked_at = time.monotonic()
        self._show_progress(lambda: self.tr("Searching your documents…"))
        self._progress_timer.start()
        # (a greyed box is ticked only to show that answers are quoted: not a request)
        sources_only = (self.sources_only.isChecked() and self.sources_only.isEnabled()
                        and not experiment)
        conversation = self.conversation_id
        options = {"experiment": True} if experiment else {}
        serial = self._serial  # a stopped turn's last events must not reach another chat

        def shown() -> bool:
            return serial == self._serial

        self._turn = self.workers.start(
            lambda cancel: self.services.ask(conversation, text, sources_only=sources_only,
                                             cancel=cancel, **options),
            name="answer", on_item=lambda event: self.on_event(event) if shown() else None,
            on_failed=lambda error: self._failed(error) if shown() else None,
            on_finished=lambda cancelled: self._finished(cancelled, shown=shown()))
        self._set_busy(True)

    # ---- the transcript, redrawn on a language switch -------------------------------
    def _render(self, step: Render, *, live: Render | None = None) -> None:
        """Draw one piece of the transcript and keep `step` to draw it again after a language
        switch (steps call `self.tr` when they run). `live`, when given, is what to do now
        instead (the piece is already partly on screen, e.g. a stopped answer's words)."""
        self._transcript.append(step)
        (live or step)()

    def _relabel(self) -> None:
        if self.is_busy():
            self._relabel_pending = True  # after this answer: replaying mid-stream would race
            return
        self._relabel_pending = False
        if self._chip_text is not None:
            self.memory_label.setText(self._chip_text())
        if not self._transcript:
            return
        self.view.clear_transcript()
        for step in self._transcript:
            step()

    def _begin_answer(self, experiment: bool = False) -> None:
        self.view.begin_answer(self.tr("Acervo · experiment (small model)") if experiment
                               else self.tr("Acervo"))

    def _answer_labels(self, done: Done) -> dict[str, Any]:
        searched_for = done.searched_for
        notes = [self.tr("Searched for: %1").replace("%1", searched_for)] if searched_for else []
        if done.scope:  # the scope the answer was given in (the scope chip's)
            notes.append(self.tr("Scope: %1").replace("%1", done.scope))
        return {"sources_title": self.tr("Sources"), "found_by": self.tr("found by"),
                "page_label": self.tr("p."),
                "leg_names": {"vector": self.tr("meaning"), "keyword": self.tr("keywords")},
                "searched_for": " · ".join(notes),
                "closest_title": self.tr("Closest passages (%n)", "", len(done.closest)),
                "show_all": self.tr("Show all %1")}

    def _set_chip(self, text: Callable[[], str], *, undo: bool) -> None:
        self._chip_text = text
        self.memory_label.setText(text())
        self.undo_button.setVisible(undo)
        self.undo_button.setEnabled(undo)
        self.memory_chip.show()

    # ---- progress -----------------------------------------------------------------
    def _show_progress(self, text: Callable[[], str]) -> None:
        self._progress = text
        self._refresh_progress()

    def _refresh_progress(self) -> None:
        if self._progress is None:
            return
        waited = int(time.monotonic() - self._asked_at)
        self.view.show_progress(self._progress() + (f"  {waited} s" if waited >= 2 else ""))

    def _stop_progress(self) -> None:
        self._progress = None
        self._progress_timer.stop()

    def _progress_event(self, event: Progress) -> None:
        if event.stage == SEARCHING:
            self._show_progress(lambda: self.tr("Searching your documents…"))
        elif event.stage == READING:
            count = event.count
            self._show_progress(lambda: self.tr("Reading %n passage(s)…", "", count))
        elif event.stage == WRITING:
            self._show_progress(lambda: self.tr("Writing…"))

    def stop(self) -> None:
        if self._turn is not None:
            self._turn.cancel()
            self.stop_button.setEnabled(False)

    def on_event(self, event: ChatEvent) -> None:
        if isinstance(event, Progress):
            self._progress_event(event)
        elif isinstance(event, Token):
            self._stop_progress()
            self._streamed.append(event.text)
            self.view.append_token(event.text)
        elif isinstance(event, CitationEvent):
            self._announced.append(event.citation)
            self.view.add_citation(event.citation)
        elif isinstance(event, MemoryUsed):
            self._memories_used.append(event.text)
        elif isinstance(event, RecallUsed):
            self._recalled.append(event)
        elif isinstance(event, Done):
            self._done_seen = True
            self._answered = event.answer_mode is not None
            self._stop_progress()
            done, used = event, "; ".join(self._memories_used)
            recalled = list(self._recalled)

            question = self._last_question

            def finish() -> None:
                self._finish(done, question)
                if used and not done.sources_only:
                    self.view.add_notice(self.tr("Used what you told me: %1").replace("%1", used))
                self._recall_notice(recalled, sources_only=done.sources_only)

            self._render(finish)
            self._mode_notice(event)
        elif isinstance(event, ConversationStarted):
            self.conversation_id = event.conversation_id
            self.conversationChanged.emit(event.conversation_id)
        elif isinstance(event, MemorySaved):
            self._undo_token = event.undo_token
            saved = "; ".join(event.texts)
            self._set_chip(lambda: self.tr("Memory saved: %1").replace("%1", saved), undo=True)
            self.memoryChanged.emit()
        elif isinstance(event, MemoryNotSaved):
            category = event.category
            self._render(lambda: self.view.add_notice(self.tr("Not saved: remembering facts about %1 needs your consent. You can give it in the Memory panel (Sensitive data consent…).").replace("%1", category_label(category)), warning=True))
        elif isinstance(event, MemoryForgotten):
            count = len(event.memory_ids)
            self._set_chip(lambda: self.tr("Forgotten: %n memory item(s).", "", count),
                           undo=False)
            self.memoryChanged.emit()
        elif isinstance(event, ForgetAllRequested):
            self._confirm_forget_all()
        elif isinstance(event, TurnComplete):
            message_id = event.assistant_message_id
            if self._answered:  # an answer (not only a memory command's reply)
                self._render(lambda: self._answer_links(message_id))
            if event.extraction is not None:
                job = event.extraction
                self.workers.call(lambda: self.services.run_extraction(job),
                                  name="memory-extract", on_result=self._extracted,
                                  on_failed=self.show_failure)

    def _finish(self, done: Done, question: str) -> None:
        """The verified answer in the view. "Not found" is said once — by the answer, in
        the question's language like any answer — with a link to see why."""
        not_found = done.warned(WarningCode.NOT_FOUND)
        if not_found:  # (not again as a warning in the UI's language)
            done = dataclasses.replace(
                done, warnings=tuple(w for w in done.warnings if w.code != WarningCode.NOT_FOUND))
        self.view.finish_answer(done, warnings=self._warning_texts(done),
                                **self._answer_labels(done))
        if not_found and question:
            number = len(self._questions)
            self._questions[number] = question
            self.view.add_notice("", links=[(self.tr("Why not found?"), f"explain-{number}")])

    def _answer_links(self, message_id: str) -> None:
        """Under a stored answer: take it out of Acervo, with its citations."""
        self.view.add_notice("", links=[(self.tr("Copy with citations"), f"copy-{message_id}"),
                                        (self.tr("Export…"), f"export-{message_id}")])

    def _extracted(self, events: list[MemoryEvent]) -> None:
        for event in events:
            self.on_event(event)

    def _mode_notice(self, done: Done) -> None:
        """Once per session: why answers come from the sources, and what to do about it."""
        mode = done.answer_mode
        if (self._mode_notice_shown or mode is None
                or mode.reason not in (TOO_SMALL, NO_MODEL, MODEL_ERROR)):
            return
        self._mode_notice_shown = True
        reason, model = mode.reason, mode.model or ""
        self._render(lambda: self._show_mode_notice(reason, model))

    def _show_mode_notice(self, reason: str, model: str) -> None:
        if reason == TOO_SMALL:
            who = (self.tr("The bundled model (SmolLM2, 135M parameters)")
                   if model == BUNDLED_NAME else model)
            text = self.tr("%1 is too small to write answers that stick to your documents, so Acervo answers with the passages that match your question.").replace("%1", who)
        elif reason == NO_MODEL:
            text = self.tr("No language model is installed, so Acervo answers with the passages that match your question.")
        else:
            text = self.tr("The chosen model is unavailable, so Acervo answers with the passages that match your question.")
        links = [(self.tr("Add a model (Settings → Models)"), "add-model")]
        if reason == TOO_SMALL:
            links.append((self.tr("Try the small model anyway (experiment)"), "experiment"))
        self.view.add_notice(text, links=links)

    def _recall_notice(self, recalled: list[RecallUsed], *, sources_only: bool) -> None:
        """Which earlier chats the answer drew on, each a link that opens it. Without a
        model writing the answer, what was said there is shown (it is the answer's reach)."""
        for event in recalled:
            date = (chat_date(event.started_at, QLocale().name()) if event.started_at
                    else event.date_label)
            label = self.tr("From your chat of %1").replace("%1", date)
            text = label + (f": “{event.excerpt}”" if sources_only and event.excerpt else "")
            self.view.add_notice(text, links=[(self.tr("Open that chat"),
                                               f"recall-{event.conversation_id}")])

    def _action(self, name: str) -> None:
        if name.startswith("recall-"):
            self.recallOpened.emit(name.removeprefix("recall-"))
        elif name.startswith("explain-"):
            number = name.removeprefix("explain-")
            if number.isdigit() and int(number) in self._questions:
                self.explainRequested.emit(self._questions[int(number)])
        elif name.startswith("copy-"):
            self.copyRequested.emit(name.removeprefix("copy-"))
        elif name.startswith("export-"):
            self.exportRequested.emit(name.removeprefix("export-"))
        elif name == "add-model":
            self.addModelRequested.emit()
        elif name == "experiment" and self._last_question and not self.is_busy():
            self.ask(self._last_question, experiment=True)

    def translate_warning(self, warning: AnswerWarning) -> str:
        """A warning's words in the UI language (%1: its detail, the error's message)."""
        code = WarningCode
        texts = {
            code.NO_SUPPORTING_EVIDENCE: self.tr("no supporting evidence in your documents"),
            code.NOT_FOUND: self.tr("not found in your documents"),
            code.SOURCES_ONLY: self.tr("answered from sources only"),
            code.CANCELLED: self.tr("stopped"),
            code.EXPERIMENT: self.tr("Experiment: written by a model too small to follow the answer prompt. It may invent, repeat or mistranslate — check every badge."),
            code.REPETITION: self.tr("The model started repeating itself; the answer was cut there."),
            code.MODEL_UNAVAILABLE: self.tr("model unavailable: %1"),
            code.MODEL_STOPPED: self.tr("the model stopped with an error: %1"),
            code.MEMORY_UNAVAILABLE: self.tr("memory unavailable: %1"),
            code.RERANKER_UNAVAILABLE: self.tr("reranker unavailable: %1"),
            code.NO_SENTENCE_MATCHED: self.tr("no sentence matched the question's words; showing the top passages"),
            code.KEYWORD_ONLY: self.tr("searched by keywords only in %1: it was indexed with another embedding model (reindex it)"),
            code.LIBRARY_UNAVAILABLE: self.tr("a library could not be searched: %1"),
            code.FROM_EARLIER_CHAT: self.tr("not in your documents; from your chat of %1"),
            code.FROM_MEMORY: self.tr("not in your documents; from what you told me"),
            code.NO_VALUE: self.tr("the question asks for %1, and no passage found states one"),
            code.BY_MEANING: self.tr("the quotes are in another language than the question: found by meaning alone, check them"),
        }
        if warning.code == code.NO_VALUE:
            return texts[code.NO_VALUE].replace("%1", value_name(warning.detail))
        if warning.code == code.KEYWORD_ONLY:
            library = (self.tr("this computer's library") if warning.detail == "local"
                       else f"“{warning.detail}”")
            return texts[code.KEYWORD_ONLY].replace("%1", library)
        text = texts.get(warning.code)
        return text.replace("%1", warning.detail) if text is not None else warning.english()

    def _warning_texts(self, done: Done) -> list[str]:
        # "answered from sources only" is not repeated under every answer: the status bar
        # shows the mode, and the first answer explains it (`_mode_notice`)
        return [self.translate_warning(self._dated(w, done)) for w in done.warnings
                if w.code != WarningCode.SOURCES_ONLY]

    @staticmethod
    def _dated(warning: AnswerWarning, done: Done) -> AnswerWarning:
        """FROM_EARLIER_CHAT names its chats' dates in the UI's language (the detail has
        them in the question's)."""
        if warning.code != WarningCode.FROM_EARLIER_CHAT or not done.quoted_chats:
            return warning
        try:
            dates = [chat_date(q.started_at, QLocale().name()) for q in done.quoted_chats]
        except (TypeError, ValueError):
            return warning
        return AnswerWarning(warning.code, ", ".join(dict.fromkeys(dates)))

    def _finished(self, cancelled: bool, *, shown: bool = True) -> None:
        self._turn = None
        self._stop_progress()
        if shown and not self._done_seen:  # the same marker a reload shows (stored trace)
            stopped = AnswerWarning(WarningCode.CANCELLED)
            self._abort(lambda: "⚠ " + self.translate_warning(stopped) if cancelled
                        else self.tr("No answer."))
        self._set_busy(False)
        if self._relabel_pending:
            self._relabel()

    def _failed(self, error: BaseException) -> None:
        self._done_seen = True
        self._stop_progress()
        self._abort(lambda: self.tr("The answer failed."))
        self.show_failure(error)

    def _abort(self, note: Callable[[], str]) -> None:
        """End the answer without a `Done`: what was streamed stays, with `note` under it."""
        streamed, announced = "".join(self._streamed), list(self._announced)

        def redraw() -> None:
            for citation in announced:
                self.view.add_citation(citation)
            self.view.append_token(streamed)
            self.view.abort_answer(note())

        self._render(redraw, live=lambda: self.view.abort_answer(note()))

    def _set_busy(self, busy: bool) -> None:
        self.ask_button.setVisible(not busy)
        self.stop_button.setVisible(busy)
        self.stop_button.setEnabled(busy)
        self.busyChanged.emit(busy)

    # ---- memory -------------------------------------------------------------------
    def undo_memory(self) -> None:
        """Undo this chip's save, and only it: when the memory was edited (or replaced)
        since, say so and ask first — undoing would erase the later change too."""
        token = self._undo_token
        if not token:
            return
        self.undo_button.setEnabled(False)
        self.workers.call(lambda: self.memory_services.undo_conflicts(token), name="memory-undo-check",
                          on_result=lambda changed: self._confirm_undo(token, changed),
                          on_failed=self._undo_unavailable)

    def _confirm_undo(self, token: str, changed: list[MemoryItem]) -> None:
        if token != self._undo_token:
            return  # another memory was saved meanwhile: this chip is gone
        if changed:
            texts = "\n".join(f"“{item.text}”" for item in changed)
            if not confirm(self, self.tr("Undo"), self.tr("Since it was saved, this memory was changed in the Memory panel:\n\n%1\n\nUndo the save anyway? The changed memory is erased too.").replace("%1", texts)):
                self._undo_token = ""
                self._set_chip(lambda: self.tr("Kept: the memory as you changed it stays."),
                               undo=False)
                return
        self._undo_token = ""
        self.workers.call(lambda: self.memory_services.undo_memory(token), name="memory-undo",
                          on_result=lambda _r: self._undone(), on_failed=self._undo_unavailable)

    def _undo_unavailable(self, error: BaseException) -> None:
        if not isinstance(error, AppError):
            self.show_failure(error)
        self._undo_token = ""
        # typically: the memory was deleted in the Memory panel since
        self._set_chip(lambda: self.tr("Nothing to undo: this memory was already removed."),
                       undo=False)

    def _undone(self) -> None:
        self._set_chip(lambda: self.tr("Memory removed."), undo=False)
        self.memoryChanged.emit()

    def _confirm_forget_all(self) -> None:
        if confirm(self, self.tr("Forget everything"),
                   self.tr("Erase everything Acervo remembers about you? This cannot be undone.")):
            self.workers.call(self.memory_services.forget_all, name="memory-forget-all",
                              on_result=lambda _r: self.memoryChanged.emit(),
                              on_failed=self.show_failure)

    def you(self) -> str:
        """The label of the user's messages."""
        return self.tr("You")

    # ---- a stored chat (gui/chat_history.py) ------------------------------------------
    def show_conversation(self, conversation_id: str, messages: list[ReloadedMessage], *,
                          stepwise: bool = False, then: Callable[[], None] | None = None
                          ) -> None:
        """Render a stored conversation as it was shown live (`stepwise`: a message per
        turn of the event loop, at start-up; `then` when it is all drawn)."""
        chat_history.show_conversation(self, conversation_id, messages, stepwise=stepwise,
                                       then=then)

    def complete_conversation(self, conversation_id: str,
                              messages: list[ReloadedMessage]) -> bool:
        """The last chat shown at start-up, its badges now with their passages."""
        return chat_history.complete_conversation(self, conversation_id, messages)
