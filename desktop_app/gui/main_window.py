"""The main window: Library | Chat | Sources, plus the Memory window and Settings.

The window is built without touching any model: `start()` (called right after
`show()`) loads the embedder, the index and the LLM in a worker and reports each
step in the status bar. Files and folders dropped anywhere on the window are
ingested. Status bar: the answer mode ("written answers: MODEL" or "answers from
your sources — add a model", a link to Settings → Models), index size, and
"offline ✓" (or a warning when an off-machine Ollama server is allowed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QIcon,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.answer.events import Citation
from desktop_app.answer.mode import AnswerMode
from desktop_app.chat.stored import ReloadedMessage
from desktop_app.config.paths import resource
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.gui.chat import ChatPanel
from desktop_app.gui.conversations import ConversationsPanel
from desktop_app.gui.dialogs import show_error
from desktop_app.gui.export_actions import ExportActions
from desktop_app.gui.guide import GuideDialog
from desktop_app.gui.i18n import Translations
from desktop_app.gui.layout import PaneLayout
from desktop_app.gui.library import LibraryPanel, PreparedListing
from desktop_app.gui.library_extras import LibraryExtras
from desktop_app.gui.memory_panel import MemoryPanel
from desktop_app.gui.panel import PanelMixin, StatusLine
from desktop_app.gui.recall_view import ConversationsView
from desktop_app.gui.search_view import SearchPanel
from desktop_app.gui.services import GuiServices, IndexSummary, ModelLoadState, StoredState
from desktop_app.gui.settings_dialog import SettingsDialog
from desktop_app.gui.sources_viewer import SourcesViewer
from desktop_app.gui.theme import ColorSchemeFollower
from desktop_app.gui.workers import WorkerSet
from desktop_app.memory.erasure import ErasureReceipt

IDLE_MS = 700  # typing paused this long: the search model may load
MAX_DEFER_S = 15.0  # …and after this long it loads anyway


class MainWindow(PanelMixin, QMainWindow):
    """Top-level window; owns the workers of every panel."""

    filesDropped = Signal(list)  # list[Path]
    modelsReady = Signal()
    libraryListed = Signal()  # the library's documents are on screen (start-up bench)
    lastChatShown = Signal()  # the last chat is on screen at start-up (start-up bench)
    lastChatComplete = Signal()  # …and its badges have their passages (the index is open)
    loadStep = Signal(str, str)  # a start-up step's component and state (start-up bench)

    def _fit_to_screen(self, width: int, height: int) -> None:
        """Preferred size, shrunk to the screen's free area (small laptop screens, Xvfb)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            free = screen.availableGeometry()
            width, height = min(width, free.width()), min(height, free.height())
        self.resize(width, height)

    def __init__(self, services: GuiServices, translations: Translations | None = None) -> None:
        super().__init__()
        self.services: GuiServices = services
        self.translations = translations or Translations()
        self.workers = WorkerSet(self)
        self.model_states: dict[str, ModelLoadState] = {}
        self._index_summary: IndexSummary | None = None
        self.settings_dialog: SettingsDialog | None = None
        self._add_from = Path.home()  # where "Add files/folder" dialogs open
        self._reopening = False  # the last chat is being reopened at launch
        self._provisional = ""  # the last chat shown from the stored state (badges to fill)
        self._listed = False  # the library's documents have been on screen
        self._completing = ""  # the last chat, reloaded with its badges' passages
        self._search_started = False  # the embedder's load has begun
        self._defer_until = 0.0
        self._idle = QTimer(self)  # typing has paused: the search model may load
        self._idle.setSingleShot(True)
        self._idle.setInterval(IDLE_MS)
        self._idle.timeout.connect(self._run_next)
        self._next_step: Callable[[], None] | None = None
        self.guide: GuideDialog | None = None
        self.setAcceptDrops(True)
        self.setWindowIcon(QIcon(str(resource("icons", "acervo.svg"))))

        self.library = LibraryPanel(services.library, self.workers)
        self.conversations = ConversationsPanel(services.chat, services.memory, self.workers)
        self.chat = ChatPanel(services.chat, services.memory, self.workers)
        self.search = SearchPanel(services.chat, self.workers)
        self.viewer = SourcesViewer(self._load_text_pages)
        self.exports = ExportActions(services.chat, self.workers, self,
                                     self.chat.translate_warning)
        self.left_tabs = QTabWidget()
        self.left_tabs.addTab(self.library, "")
        self.left_tabs.addTab(self.conversations, "")
        # the chat, and beside it the search the answers run (same libraries, filters)
        self.center_tabs = QTabWidget()
        self.center_tabs.setDocumentMode(True)
        self.center_tabs.addTab(self.chat, "")
        self.center_tabs.addTab(self.search, "")
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.left_tabs)
        self.splitter.addWidget(self.center_tabs)
        self.splitter.addWidget(self.viewer)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setStretchFactor(2, 4)
        self.setCentralWidget(self.splitter)
        self.panes = PaneLayout(self.splitter, services.settings.current)
        self._panes_restored = False

        self.memory_window = QDialog(self)
        self.memory_window.setModal(False)
        self.memory_panel = MemoryPanel(services.memory, self.workers, self.memory_window)
        # the memory window: profile memories, and the earlier chats recall can use
        self.recall_view = ConversationsView(services.memory, self.workers, self.memory_window)
        self.memory_tabs = QTabWidget(self.memory_window)
        self.memory_tabs.addTab(self.memory_panel, "")
        self.memory_tabs.addTab(self.recall_view, "")
        self.memory_tabs.currentChanged.connect(self._memory_tab_changed)
        memory_layout = QVBoxLayout(self.memory_window)
        memory_layout.setContentsMargins(0, 0, 0, 0)
        memory_layout.addWidget(self.memory_tabs)
        self.memory_window.resize(960, 520)

        self.model_label = QLabel()  # the answer mode (rich text: "add a model" is a link)
        self.model_label.setTextFormat(Qt.TextFormat.RichText)
        self.model_label.linkActivated.connect(lambda _link: self.open_settings())
        self.index_label = QLabel()
        self.offline_label = QLabel()
        self.loading_bar = QProgressBar()
        self.loading_bar.setRange(0, 0)
        self.loading_bar.setMaximumWidth(80)
        self.loading_bar.hide()
        self.loading_label = QLabel()  # what is still loading (the mode stays readable)
        self.loading_label.hide()
        # the library's overall ingestion bar, mirrored here: visible from every tab
        self.ingest_bar = QProgressBar()
        self.ingest_bar.setRange(0, 1000)
        self.ingest_bar.setMaximumWidth(170)
        self.ingest_bar.setCursor(Qt.CursorShape.PointingHandCursor)
        self.ingest_bar.installEventFilter(self)  # a click shows the library
        self.ingest_bar.hide()
        status = self.statusBar()
        self.status_line = StatusLine(status)  # its messages re-worded on a language switch
        status.addPermanentWidget(self.ingest_bar)
        status.addPermanentWidget(self.loading_label)
        status.addPermanentWidget(self.loading_bar)
        status.addPermanentWidget(self.model_label)
        status.addPermanentWidget(self.index_label)
        status.addPermanentWidget(self.offline_label)

        self._build_actions()
        self._connect()
        self.library_extras = LibraryExtras(self)  # watched folders, scope chip, status
        self._set_tab_order()
        remembered = services.settings.current.window_size
        self._fit_to_screen(*(remembered if len(remembered) == 2 else (1400, 860)))
        self.retranslate()

    # ---- construction -------------------------------------------------------------
    def _build_actions(self) -> None:
        def action(shortcut: QKeySequence | QKeySequence.StandardKey | str | None,
                   slot: Any) -> QAction:
            act = QAction(self)
            if shortcut:
                act.setShortcut(QKeySequence(shortcut))
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        self.add_files_action = action(QKeySequence.StandardKey.Open, self.add_files)
        self.add_folder_action = action("Ctrl+Shift+O", self.add_folder)
        self.quit_action = action(QKeySequence.StandardKey.Quit, self.close)
        self.new_chat_action = action(QKeySequence.StandardKey.New, self.new_chat)
        self.focus_question_action = action("Ctrl+L", self.focus_question)
        self.stop_action = action("Esc", self.chat.stop)
        self.sources_only_action = action(None, lambda on: self.chat.sources_only.setChecked(on))
        self.sources_only_action.setCheckable(True)
        self.memory_action = action("Ctrl+Shift+M", self.show_memory)
        self.library_action = action("Ctrl+1", lambda: self.show_left(self.library))
        self.conversations_action = action("Ctrl+2", lambda: self.show_left(self.conversations))
        self.settings_action = action("Ctrl+,", self.open_settings)
        self.reindex_action = action(None, self.library.start_reindex)
        self.search_action = action("Ctrl+F", self.show_search)
        self.chat_tab_action = action("Ctrl+3", self.show_chat)
        self.export_chat_action = action("Ctrl+E", self.export_chat)
        self.copy_chat_action = action("Ctrl+Shift+C", self.copy_chat)
        self.guide_action = action(QKeySequence.StandardKey.HelpContents, self.show_guide)
        self.about_action = action(None, self.about)

        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.file_menu.addActions([self.add_files_action, self.add_folder_action])
        self.file_menu.addSeparator()
        self.file_menu.addActions([self.export_chat_action, self.copy_chat_action])
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)
        self.chat_menu = bar.addMenu("")
        self.chat_menu.addActions([self.new_chat_action, self.focus_question_action,
                                   self.stop_action, self.sources_only_action])
        self.view_menu = bar.addMenu("")
        self.view_menu.addActions([self.library_action, self.conversations_action,
                                   self.chat_tab_action, self.search_action,
                                   self.memory_action])
        self.tools_menu = bar.addMenu("")
        self.tools_menu.addActions([self.reindex_action, self.settings_action])
        self.help_menu = bar.addMenu("")
        self.help_menu.addActions([self.guide_action, self.about_action])

    def _connect(self) -> None:
        self.filesDropped.connect(self.library.add_paths)
        self.library.add_files_button.clicked.connect(self.add_files)
        self.library.add_folder_button.clicked.connect(self.add_folder)
        self.library.indexChanged.connect(self._show_index_summary)
        self.library.statusMessage.connect(lambda text: self.status_line.show(text, 8000))
        self.library.progress.valueChanged.connect(self.ingest_bar.setValue)
        self.library.progress_box.activity.connect(self.ingest_bar.setToolTip)
        self.library.runningChanged.connect(self.ingest_bar.setVisible)
        self.chat.citationClicked.connect(self.show_citation)
        self.search.citationClicked.connect(self.show_citation)
        self.chat.question.typed.connect(self._typing)
        self.search.query.textEdited.connect(lambda _t: self._typing())
        # a question asked meanwhile: what waited for a pause runs now
        self.chat.busyChanged.connect(lambda busy: self._run_next() if busy else None)
        self.chat.explainRequested.connect(self.explain_not_found)
        self.chat.exportRequested.connect(self._export_answer)
        self.chat.copyRequested.connect(self._copy_answer)
        self.exports.done.connect(lambda text: self.status_line.show(text, 8000))
        self.library.guideRequested.connect(self.show_guide)
        self.library.documentsShown.connect(self._documents_shown)
        self.viewer.closeRequested.connect(self.panes.hide_sources)
        self.left_tabs.tabBarClicked.connect(lambda _index: self.panes.show_left())
        self.chat.conversationChanged.connect(self._conversation_started)
        self.chat.busyChanged.connect(self._turn_state)
        self.chat.memoryChanged.connect(self._memory_changed)
        self.chat.busyChanged.connect(lambda busy: self.stop_action.setEnabled(busy))
        self.chat.sources_only.toggled.connect(self.sources_only_action.setChecked)
        self.chat.addModelRequested.connect(self.open_settings)
        self.conversations.newChatRequested.connect(self.new_chat)
        self.conversations.openRequested.connect(self._open_conversation)
        self.conversations.deleted.connect(self._conversation_deleted)
        self.recall_view.conversationDeleted.connect(self._conversation_deleted)
        self.recall_view.conversationDeleted.connect(lambda _c: self.conversations.refresh())
        self.recall_view.messageDeleted.connect(self._message_deleted)
        self.chat.recallOpened.connect(self._open_recalled)
        self.conversations.listed.connect(self._update_title)
        self.memory_panel.memoryChanged.connect(self.conversations.refresh)
        self.memory_panel.receiptShown.connect(self._reload_chat)
        self.stop_action.setEnabled(False)

    def _set_tab_order(self) -> None:
        """Tab goes left to right, as the panes are laid out: the library (or chats), the
        transcript (Tab again walks its badges; Enter opens one), the question and its
        buttons, then the source with its zoom and the page itself."""
        viewer = self.viewer
        chain = [self.left_tabs.tabBar(),
                 self.library.add_files_button, self.library.add_folder_button,
                 self.library.filter_edit, self.library.type_combo, self.library.date_combo,
                 self.library.table, self.library.progress_box.cancel_button,
                 self.conversations.new_button, self.conversations.list,
                 self.center_tabs.tabBar(),
                 self.chat.view, self.chat.undo_button, self.chat.question,
                 self.chat.sources_only, self.chat.stop_button, self.chat.ask_button,
                 viewer.open_button, viewer.close_button, viewer.zoom_out_button,
                 viewer.zoom_in_button, viewer.fit_button, viewer.pdf_view, viewer.text_view]
        for before, after in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(before, after)

    def retranslate(self) -> None:
        self._update_title()
        self.left_tabs.setTabText(0, self.tr("Library"))
        self.left_tabs.setTabText(1, self.tr("Chats"))
        self.center_tabs.setTabText(0, self.tr("Chat"))
        self.center_tabs.setTabText(1, self.tr("Search"))
        self.memory_window.setWindowTitle(self.tr("Memory — what Acervo remembers"))
        self.memory_tabs.setTabText(0, self.tr("Memories"))
        self.memory_tabs.setTabText(1, self.tr("Conversations"))
        self.file_menu.setTitle(self.tr("&File"))
        self.chat_menu.setTitle(self.tr("&Chat"))
        self.view_menu.setTitle(self.tr("&View"))
        self.tools_menu.setTitle(self.tr("&Tools"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.add_files_action.setText(self.tr("Add files…"))
        self.add_folder_action.setText(self.tr("Add folder…"))
        self.quit_action.setText(self.tr("Quit"))
        self.new_chat_action.setText(self.tr("New chat"))
        self.focus_question_action.setText(self.tr("Ask a question"))
        self.stop_action.setText(self.tr("Stop answer"))
        self.sources_only_action.setText(self.tr("Sources only (no model)"))
        self.memory_action.setText(self.tr("Memory…"))
        self.library_action.setText(self.tr("Library"))
        self.conversations_action.setText(self.tr("Chats"))
        self.settings_action.setText(self.tr("Settings…"))
        self.reindex_action.setText(self.tr("Reindex library"))
        self.about_action.setText(self.tr("About Acervo"))
        self.guide_action.setText(self.tr("How Acervo works"))
        self.search_action.setText(self.tr("Search the documents"))
        self.chat_tab_action.setText(self.tr("Chat"))
        self.export_chat_action.setText(self.tr("Export chat with citations…"))
        self.copy_chat_action.setText(self.tr("Copy chat with citations"))
        self.ingest_bar.setFormat(self.tr("Adding %p%"))
        self._show_network_state()
        self._show_model_state()
        self._show_index_summary(self._index_summary)
        self.viewer.retranslate()
        self.library_extras.retranslate()
        self.status_line.retranslate()

    # ---- start-up -----------------------------------------------------------------
    def start(self) -> None:
        """Show the library and the last chat from the stored state (milliseconds: no
        index, no model), then load the rest in the background (the window is already on
        screen and answers keystrokes all along)."""
        self.loading_bar.show()
        last = self.services.settings.current.last_conversation
        self._reopening = bool(last) and self._chat_untouched()
        def stored() -> tuple[StoredState, PreparedListing | None]:
            state = self.services.stored_state(last)
            return state, (self.library.prepared(state.listing) if state.listing else None)

        self.workers.call(stored, name="stored-state", on_result=self._stored_state,
                          on_failed=lambda _error: self._load_models())

    def _stored_state(self, result: tuple[StoredState, PreparedListing | None]) -> None:
        """The stored state on screen, a piece per turn of the event loop (keys typed
        meanwhile are handled between the pieces): the list, the chats, the last chat."""
        state, prepared = result
        if prepared is not None:
            self.library.show_prepared(prepared)
        last = self.services.settings.current.last_conversation
        self.conversations.show_list(state.conversations, select=last)
        reopening, self._reopening = self._reopening, False
        if state.last_chat is not None and reopening and self._chat_untouched():
            self._provisional = last  # its badges' passages come once the index is open
            self.chat.show_conversation(last, state.last_chat, stepwise=True,
                                        then=self.lastChatShown.emit)
            self._chat_shown(last)
        self._load_models()

    def _load_models(self) -> None:
        """Who writes answers at once (the model file's header only); then the index and
        the search model, each when typing pauses: importing LanceDB and starting
        onnxruntime hold Python's interpreter lock for moments, and every key press needs
        it. Without a stored listing the library waits for the index: it opens at once."""
        self.workers.start(self.services.settings.load_llm, name="answer-mode",
                           on_item=self._model_state, on_failed=self._load_failed,
                           on_finished=lambda cancelled: None if cancelled else self._when_idle(
                               self._open_index, now=not self.library.has_listing()))

    def _when_idle(self, step: Callable[[], None], *, now: bool = False) -> None:
        """Run `step` once typing pauses (`IDLE_MS`), or after `MAX_DEFER_S` regardless."""
        self._next_step = step
        if now:
            self._run_next()
            return
        self._defer_until = time.monotonic() + MAX_DEFER_S
        self._idle.start()

    def _run_next(self) -> None:
        step, self._next_step = self._next_step, None
        self._idle.stop()
        if step is not None:
            step()

    def _typing(self) -> None:
        if self._idle.isActive() and time.monotonic() < self._defer_until:
            self._idle.start()  # (re)start the pause

    def _open_index(self) -> None:
        self.workers.start(self.services.open_index, name="open-index",
                           on_item=self._model_state, on_failed=self._load_failed,
                           on_finished=lambda cancelled: None if cancelled else self._when_idle(
                               self._load_search))

    def _load_search(self) -> None:
        if self._search_started:
            return
        self._search_started = True
        self.workers.start(self.services.load_search, name="load-search",
                           on_item=self._model_state, on_failed=self._load_failed,
                           on_finished=self._models_loaded)

    def _model_state(self, state: ModelLoadState) -> None:
        self.model_states[state.component] = state
        self.loadStep.emit(state.component, state.state)
        if state.component == "llm" and state.state != "loading":
            self.chat.set_mode(state.mode)
        self._show_model_state()
        if state.component == "index" and state.state == "ready":
            self.library.refresh()  # from the index now (and stored for the next start)
            provisional, self._provisional = self._provisional, ""
            if provisional and self.chat.conversation_id == provisional \
                    and not self.chat.is_busy():
                self._completing = provisional
                self.conversations.open(provisional)  # the badges with their passages
            elif not self.conversations.list.count():
                self.conversations.refresh()

    def _documents_shown(self, count: int) -> None:
        if count and not self._listed:
            self._listed = True
            self.libraryListed.emit()

    def _show_model_state(self) -> None:
        states = self.model_states
        llm = states.get("llm")
        if not states:
            text = self.tr("Model: %1").replace("%1", self.services.settings.active_model_name()
                                                 or self.tr("none (sources only)"))
        elif llm is not None and llm.mode is not None:
            text = self._mode_text(llm.mode)
        elif llm is not None and llm.state == "off":
            text = self.tr("Model: none (sources only)")
        elif llm is not None and llm.state == "unavailable":
            text = self.tr("Model: unavailable — sources-only answers")
            self.model_label.setToolTip(llm.detail)
        else:
            text = self.tr("Model: %1").replace("%1", (llm.detail if llm else "")
                                                 or self.services.settings.active_model_name())
            self.model_label.setToolTip("")
        self.model_label.setText(text)
        self._show_loading()

    def _show_loading(self) -> None:
        """What still loads, beside the answer mode (which is known first)."""
        loading = next((s for s in self.model_states.values() if s.state == "loading"), None)
        if loading is None:
            self.loading_label.hide()
            return
        names = {"embedder": self.tr("search model"), "index": self.tr("library"),
                 "memory": self.tr("memory")}
        self.loading_label.setText(self.tr("Loading %1…").replace(
            "%1", names.get(loading.component, loading.component)))
        self.loading_label.show()

    def _mode_text(self, mode: AnswerMode) -> str:
        """Status-bar text for an `AnswerMode` (rich text; sets the tooltip too)."""
        from html import escape

        from desktop_app.answer.mode import MODEL_ERROR, NO_MODEL, TOO_SMALL

        name = escape(mode.model or "")
        add_label = self.tr("add a model")  # (not inside the f-string: lupdate would miss it)
        add = f'<a href="settings:models">{escape(add_label)}</a>'
        if mode.use_llm and mode.experiment:
            self.model_label.setToolTip(self.tr("This model is too small to follow the answer prompt; its answers are labelled as experiments. Settings → Models → Who writes answers."))
            return "⚗ " + escape(self.tr("Experiment: %1 writes answers")).replace("%1", name)
        if mode.use_llm:
            self.model_label.setToolTip(self.tr("Answers are written by the language model from the passages it finds, with citation badges."))
            return "✎ " + escape(self.tr("Written answers: %1")).replace("%1", name)
        tips = {
            TOO_SMALL: self.tr("The active model is too small to write reliable answers: Acervo shows the passages that answer your question, with badges. Add a model of 1B parameters or more (a GGUF file) for written answers."),
            NO_MODEL: self.tr("No language model is installed: Acervo shows the passages that answer your question, with badges. Add a GGUF model for written answers."),
            MODEL_ERROR: mode.detail,
        }
        self.model_label.setToolTip(tips.get(mode.reason, self.tr("You chose answers from your sources in Settings.")))
        text = "❝ " + escape(self.tr("Answers from your sources"))
        return f"{text} — {add}" if mode.needs_model else text

    def _models_loaded(self, _cancelled: bool) -> None:
        self.loading_bar.hide()
        self.loading_label.hide()
        self.library_extras.models_loaded()
        self._show_model_state()
        self.modelsReady.emit()

    def _load_failed(self, error: BaseException) -> None:
        self.loading_bar.hide()
        self.loading_label.hide()
        self.model_label.setText(self.tr("Models failed to load"))
        self.show_failure(error)

    def models_loaded(self) -> bool:
        return {"llm", "embedder", "memory"} <= set(self.model_states) and all(
            s.state != "loading" for s in self.model_states.values())

    def _show_network_state(self) -> None:
        """"offline ✓", or the servers on other computers the user allowed, by name."""
        destinations = self.services.settings.network_destinations()
        if not destinations:
            self.offline_label.setText(self.tr("offline ✓"))
            self.offline_label.setToolTip(self.tr("Nothing leaves this computer"))
            return
        teams = [host for what, host in destinations if what != "Ollama"]
        ollama = [host for what, host in destinations if what == "Ollama"]
        parts = ([self.tr("team server %1").replace("%1", ", ".join(dict.fromkeys(teams)))]
                 if teams else []) + ([self.tr("model server %1").replace("%1", ollama[0])]
                                      if ollama else [])
        self.offline_label.setText(self.tr("network: %1 only ⚠").replace("%1", " · ".join(parts)))
        lines = [self.tr("Questions and passages go to these servers; nothing else leaves this computer:")]
        lines += [f"• {host} ({what})" for what, host in destinations]
        self.offline_label.setToolTip("\n".join(lines))

    def _show_index_summary(self, summary: IndexSummary | None) -> None:
        self._index_summary = summary
        if summary is None:
            return
        where = "" if summary.library == "local" else f"{summary.library}: "
        if summary.documents == 0:
            self.index_label.setText(where + self.tr("Library empty"))
        else:
            size = f" · {summary.bytes / 1e6:.1f} MB" if summary.library == "local" else ""
            self.index_label.setText(
                where + self.tr("%n document(s)", "", summary.documents) + " · "
                + self.tr("%n passage(s)", "", summary.chunks) + size)
        self.index_label.setToolTip(summary.mismatch_message or summary.embedder_id)

    # ---- actions ------------------------------------------------------------------
    def add_files(self) -> None:
        paths, _filter = QFileDialog.getOpenFileNames(
            self, self.tr("Add files"), str(self._add_from),
            self.tr("Documents and scans (*.pdf *.docx *.md *.markdown *.txt *.html *.htm *.png "
                    "*.jpg *.jpeg *.tif *.tiff);;Scanned images (*.png *.jpg *.jpeg *.tif *.tiff)"
                    ";;All files (*)"))
        if paths:
            self._add_from = Path(paths[0]).parent
            self.library.add_paths([Path(p) for p in paths])

    def add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add folder"), str(self._add_from))
        if folder:
            self._add_from = Path(folder).parent
            self.library_extras.folder_added(Path(folder))
            self.library.add_paths([Path(folder)])

    def new_chat(self) -> None:
        self.chat.new_chat()
        self._chat_shown("")

    def _conversation_started(self, conversation_id: str) -> None:
        self._chat_shown(conversation_id)
        self.conversations.refresh(select=conversation_id)

    def _chat_untouched(self) -> bool:
        return self.chat.conversation_id is None and not self.chat.is_busy()

    def _open_conversation(self, conversation_id: str, messages: list[ReloadedMessage]) -> None:
        reopening, self._reopening = self._reopening, False
        if reopening and not self._chat_untouched():
            return  # the user started a chat while the last one was loading: keep theirs
        if conversation_id == self.chat.conversation_id and self.chat.is_busy():
            return  # a question is on its way in this chat: it stays as it is
        if conversation_id == self._completing:  # the last chat, its badges' passages now
            self._completing = ""
            self.chat.complete_conversation(conversation_id, messages)
            self.lastChatComplete.emit()
            return
        self.chat.show_conversation(conversation_id, messages)
        self._chat_shown(conversation_id)

    def _chat_shown(self, conversation_id: str) -> None:
        """The chat shows this conversation now ("" = a new chat): remembered for the next
        launch, marked in the list, named in the window title."""
        self.services.settings.current.last_conversation = conversation_id
        self.conversations.set_shown(conversation_id)
        self._update_title()

    def _update_title(self) -> None:
        # Qt adds " — Acervo" (the application display name) to any other title itself
        chat = self.conversations.title_of(self.chat.conversation_id or "")
        self.setWindowTitle(chat or "Acervo")

    def focus_question(self) -> None:
        self.chat.question.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.chat.question.selectAll()

    def show_citation(self, citation: Citation, claim: str = "") -> None:
        self.panes.show_sources()
        self.viewer.close_button.show()
        self.viewer.show_citation(citation, claim)

    def show_search(self) -> None:
        self.center_tabs.setCurrentWidget(self.search)
        self.search.query.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.query.selectAll()

    def show_chat(self) -> None:
        self.center_tabs.setCurrentWidget(self.chat)
        self.chat.question.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def explain_not_found(self, question: str) -> None:
        """"Why not found?" under an answer: the Search view explains it."""
        self.center_tabs.setCurrentWidget(self.search)
        self.search.explain(question)

    def export_chat(self) -> None:
        if self.chat.conversation_id:
            self.exports.export(self.chat.conversation_id,
                                title=self.conversations.title_of(self.chat.conversation_id))
        else:
            self.status_line.show(lambda: self.tr("Ask a question first: there is no chat to export yet."), 8000)

    def copy_chat(self) -> None:
        if self.chat.conversation_id:
            self.exports.copy(self.chat.conversation_id)

    def _export_answer(self, message_id: str) -> None:
        if self.chat.conversation_id:
            self.exports.export(self.chat.conversation_id, [message_id],
                                title=self.conversations.title_of(self.chat.conversation_id))

    def _copy_answer(self, message_id: str) -> None:
        if self.chat.conversation_id:
            self.exports.copy(self.chat.conversation_id, [message_id])

    def show_guide(self) -> None:
        if self.guide is None:
            self.guide = GuideDialog(self)
        self.guide.show()
        self.guide.raise_()

    def show_left(self, panel: Any) -> None:
        self.panes.show_left()
        self.left_tabs.setCurrentWidget(panel)

    def show_memory(self) -> None:
        self.memory_panel.refresh()
        self.memory_window.show()
        self.memory_window.raise_()

    def show_recall(self) -> None:
        """The memory window on its "Conversations" tab."""
        self.memory_tabs.setCurrentWidget(self.recall_view)
        self.show_memory()

    def _memory_tab_changed(self, _index: int) -> None:
        if self.memory_tabs.currentWidget() is self.recall_view:
            self.recall_view.refresh()

    def _recall_switched(self, receipt: ErasureReceipt | None) -> None:
        if receipt is not None:
            self.recall_view.show_receipt(receipt)
        if self.memory_window.isVisible():
            self.recall_view.refresh()

    def _memory_changed(self) -> None:
        if self.memory_window.isVisible():
            self.memory_panel.refresh()

    def _reload_chat(self, _receipt: object = None) -> None:
        """After an erasure: show the chat as stored now (deleted messages gone, copies
        in answers shown as the erased placeholder)."""
        if self.chat.conversation_id and not self.chat.is_busy():
            self.conversations.open(self.chat.conversation_id)

    def _turn_state(self, busy: bool) -> None:
        if not busy and self.chat.conversation_id:  # newest first: the list order changed
            self.conversations.refresh(select=self.chat.conversation_id)

    def _open_recalled(self, conversation_id: str) -> None:
        """"From your chat of 15 Nov" was clicked: open that chat."""
        self.show_left(self.conversations)
        self.conversations.open(conversation_id)

    def _message_deleted(self, conversation_id: str, _message_id: str) -> None:
        """A message was erased in the Conversations view: the chat list's counts change,
        and the open chat, if it is that one, is shown as stored now."""
        self.conversations.refresh()
        if self.chat.conversation_id == conversation_id:
            self._reload_chat()

    def _conversation_deleted(self, conversation_id: str) -> None:
        if self.chat.conversation_id == conversation_id:
            self.new_chat()

    def open_settings(self) -> None:
        """Settings, on the Models tab (also where "add a model" links lead)."""
        settings = self.services.settings
        dialog = SettingsDialog(settings.current, embedder_id=settings.loaded_embedder_id(),
                                library_tester=settings.test_library, parent=self)
        self.settings_dialog = dialog  # reachable while it is open (tests, screenshots)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.apply_settings(dialog.result_settings(), passwords=dialog.libraries.passwords,
                                renamed=dialog.libraries.renamed)

    def apply_settings(self, new: Settings, *, passwords: dict[str, str | None] | None = None,
                       renamed: dict[str, str] | None = None) -> None:
        """Copy the edited values into the live settings, save, reload what depends on them.
        Team-library passwords go to the secret store, never into the settings file."""
        settings = self.services.settings
        old = dataclasses.replace(settings.current)
        change = settings.apply(new)
        try:
            settings.rename_library_passwords(renamed or {})
            for name, password in (passwords or {}).items():
                settings.store_library_password(name, password)
            settings.save()
        except (OSError, AppError) as exc:
            show_error(self, exc)
        if new.language != old.language:
            self.translations.apply(new.language)
        if new.theme != old.theme:
            qt_app = QApplication.instance()
            follower = qt_app.findChild(ColorSchemeFollower) if qt_app is not None else None
            if follower is not None:
                follower.set_preference(new.theme)
        if change.libraries or passwords:
            self.library.libraries_changed()
            self.search.refresh_scope()
        if old.recall_enabled != new.recall_enabled:
            enabled = new.recall_enabled  # off: its index is erased, and the receipt shown
            self.workers.call(lambda: self.services.memory.recall_switched(enabled),
                              name="recall-switch", on_failed=lambda e: show_error(self, e),
                              on_result=self._recall_switched)
        if change.models and "llm" in self.model_states:  # started: who writes answers now
            self.workers.start(self.services.settings.load_llm, name="load-llm",
                               on_item=self._model_state, on_failed=self._load_failed,
                               on_finished=self._models_loaded)
        self.retranslate()

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Acervo"), self.tr("Acervo answers questions about your own documents with cited sources, entirely on this computer. Nothing is sent anywhere."))

    # ---- drag and drop ------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.show_left(self.library)
        self.filesDropped.emit(paths)

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.ingest_bar and event.type() == QEvent.Type.MouseButtonRelease:
            self.show_left(self.library)
            return True
        return super().eventFilter(watched, event)

    # ---- lifecycle ----------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.library_extras.close()
        self.workers.cancel_all()
        self.memory_window.close()
        self.save_window_state()
        super().closeEvent(event)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._panes_restored:  # sizes need the real width: on the first show
            self._panes_restored = True
            self.panes.restore()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self._panes_restored:
            self.panes.resized()

    def save_window_state(self) -> None:
        """Remember the last chat and the layout for the next launch."""
        if self._panes_restored:
            self.panes.remember()
        with contextlib.suppress(OSError):  # a full disk must not keep the window open
            self.services.settings.save()

    def _load_text_pages(self, citation: Citation,
                         callback: Callable[[list[str]], None]) -> None:
        self.workers.call(lambda: self.services.library.load_text_pages(
                              citation.source_path, citation.library, citation.doc_id),
                          name="load-text", on_result=callback,
                          on_failed=lambda _e: None)

