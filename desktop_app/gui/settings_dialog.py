"""Settings: models, retrieval, libraries, memory, network, logs, language, appearance.

Edits a copy of `Settings`; nothing changes until OK, and OK refuses a non-loopback
Ollama URL unless "allow network" is ticked (with a warning that the app is then
not air-gapped). GGUFs are validated by the model registry before they are listed;
a GGUF without a chat template needs the user to pick one (never guessed).
The Models tab also says which models can write answers (their parameter count
against the line in `answer/llm.py`) and lets the user override who writes them.
"""

from __future__ import annotations

import copy
import os

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.answer import models as model_registry
from desktop_app.answer.gguf_info import GGUFInfo, format_parameters, format_size
from desktop_app.answer.llm import MIN_WRITING_PARAMETERS, Capability
from desktop_app.answer.mode import ANSWER_MODES
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.gui.library_settings import LibrariesTab, LibraryTester
from desktop_app.privacy.airgap import is_loopback_url

LANGUAGES = (("auto", "Automatic (system)"), ("pt_BR", "Português (Brasil)"), ("en", "English"))
BACKENDS = ("llama_cpp", "ollama", "none")
THEMES = ("system", "light", "dark")


class SettingsDialog(QDialog):
    """Tabbed settings editor; `result_settings()` is the edited copy after OK."""

    def __init__(self, settings: Settings, *, embedder_id: str = "",
                 library_tester: LibraryTester | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.settings = copy.deepcopy(settings)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._models_tab(), self.tr("Models"))
        self.tabs.addTab(self._retrieval_tab(embedder_id), self.tr("Search"))
        self.libraries = LibrariesTab(self.settings, tester=library_tester)
        self.tabs.addTab(self.libraries, self.tr("Libraries"))
        self.tabs.addTab(self._memory_tab(), self.tr("Memory"))
        self.tabs.addTab(self._general_tab(), self.tr("General"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        self.resize(620, 520)
        self._load_models()
        self._update_network_warning()

    # ---- tabs ---------------------------------------------------------------------
    def _models_tab(self) -> QWidget:
        page = QWidget()
        s = self.settings
        self.backend = QComboBox()
        for value, label in zip(BACKENDS, (self.tr("Local model (llama.cpp)"),
                                           self.tr("Ollama server"),
                                           self.tr("No model: sources only")), strict=True):
            self.backend.addItem(label, value)
        self.backend.setCurrentIndex(max(0, BACKENDS.index(s.llm_backend)
                                         if s.llm_backend in BACKENDS else 0))
        self.answer_mode = QComboBox()
        for value, label in zip(ANSWER_MODES, (
                self.tr("Automatic: the model, when it is big enough"),
                self.tr("Always the model (a small one as an experiment)"),
                self.tr("Never: answer with passages from my documents")), strict=True):
            self.answer_mode.addItem(label, value)
        self.answer_mode.setCurrentIndex(max(0, self.answer_mode.findData(s.answer_mode)))
        self.mode_hint = QLabel(self.tr("Models under %1 parameters, like the bundled SmolLM2 (135M), cannot follow the answer prompt: Acervo then answers with the passages from your documents. Add a GGUF of 1B parameters or more (e.g. Qwen2.5-3B-Instruct, Q4_K_M) for written answers.").replace("%1", format_parameters(MIN_WRITING_PARAMETERS)))
        self.mode_hint.setWordWrap(True)
        self.mode_hint.setStyleSheet("color: palette(mid);")
        self.model_list = QListWidget()
        self.add_model_button = QPushButton(self.tr("Add GGUF file…"))
        self.add_model_button.clicked.connect(self.add_model)
        self.use_model_button = QPushButton(self.tr("Use selected"))
        self.use_model_button.clicked.connect(self.use_selected_model)
        self.remove_model_button = QPushButton(self.tr("Remove from list"))
        self.remove_model_button.clicked.connect(self.remove_selected_model)
        model_buttons = QHBoxLayout()
        model_buttons.addWidget(self.add_model_button)
        model_buttons.addWidget(self.use_model_button)
        model_buttons.addWidget(self.remove_model_button)
        model_buttons.addStretch(1)
        self.n_ctx = QSpinBox()
        self.n_ctx.setRange(512, 131072)
        self.n_ctx.setSingleStep(512)
        self.n_ctx.setValue(s.n_ctx)
        self.n_threads = QSpinBox()
        self.n_threads.setRange(1, max(1, os.cpu_count() or 1))
        self.n_threads.setValue(min(s.n_threads, self.n_threads.maximum()))
        self.ollama_url = QLineEdit(s.ollama_url)
        self.ollama_model = QLineEdit(s.ollama_model)
        self.ollama_model.setPlaceholderText("qwen2.5:3b")
        self.allow_network = QCheckBox(self.tr("Allow a server on another computer"))
        self.allow_network.setChecked(s.allow_network)
        self.network_warning = QLabel()
        self.network_warning.setWordWrap(True)
        self.network_warning.setStyleSheet("color: #c62828;")
        self.ollama_url.textChanged.connect(self._update_network_warning)
        self.allow_network.toggled.connect(self._update_network_warning)
        self.backend.currentIndexChanged.connect(self._update_backend_fields)
        form = QFormLayout(page)
        form.addRow(self.tr("Answer with:"), self.backend)
        form.addRow(self.tr("Who writes answers:"), self.answer_mode)
        form.addRow("", self.mode_hint)
        form.addRow(self.tr("Models:"), self.model_list)
        form.addRow("", _wrap(model_buttons))
        form.addRow(self.tr("Context size (tokens):"), self.n_ctx)
        form.addRow(self.tr("Threads:"), self.n_threads)
        form.addRow(self.tr("Ollama URL:"), self.ollama_url)
        form.addRow(self.tr("Ollama model:"), self.ollama_model)
        form.addRow("", self.allow_network)
        form.addRow("", self.network_warning)
        self._update_backend_fields()
        return page

    def _update_backend_fields(self) -> None:
        """Only the fields of the chosen backend can be edited (the others keep their
        values for when the user switches back)."""
        backend = self.backend.currentData()
        llama_fields: tuple[QWidget, ...] = (self.model_list, self.add_model_button,
                                             self.use_model_button, self.remove_model_button,
                                             self.n_threads)
        for widget in llama_fields:
            widget.setEnabled(backend == "llama_cpp")
        for field in (self.ollama_url, self.ollama_model, self.allow_network):
            field.setEnabled(backend == "ollama")
        self.n_ctx.setEnabled(backend != "none")
        self.answer_mode.setEnabled(backend != "none")

    def _retrieval_tab(self, embedder_id: str) -> QWidget:
        page = QWidget()
        s = self.settings
        embedder = QLabel(embedder_id or self.tr("multilingual-e5-small (loading…)"))
        embedder.setToolTip(self.tr("The embedding model is fixed; changing it requires a reindex."))
        self.retrieval_k = QSpinBox()
        self.retrieval_k.setRange(1, 50)
        self.retrieval_k.setValue(s.retrieval_k)
        self.reranker_enabled = QCheckBox(self.tr("Rerank results with a cross-encoder"))
        self.reranker_enabled.setChecked(s.reranker_enabled)
        self.ocr_enabled = QCheckBox(self.tr("Read scanned pages and images with OCR"))
        self.ocr_enabled.setChecked(s.ocr_enabled)
        self.ocr_enabled.setToolTip(self.tr(
            "Pages without a text layer are read from their image, on this computer."))
        self.ocr_pages = QSpinBox()
        self.ocr_pages.setRange(1, 5000)
        self.ocr_pages.setValue(max(1, s.ocr_max_pages_per_document))
        self.ocr_pages.setToolTip(self.tr(
            "OCR takes seconds per page; scanned pages beyond this are listed, not read."))
        self.ocr_enabled.toggled.connect(self.ocr_pages.setEnabled)
        self.ocr_pages.setEnabled(s.ocr_enabled)
        self.reranker_path = QLineEdit(s.reranker_path)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse_reranker)
        row = QHBoxLayout()
        row.addWidget(self.reranker_path, 1)
        row.addWidget(browse)
        form = QFormLayout(page)
        form.addRow(self.tr("Embedding model:"), embedder)
        form.addRow(self.tr("Sources per answer (k):"), self.retrieval_k)
        form.addRow("", self.reranker_enabled)
        form.addRow(self.tr("Reranker folder:"), _wrap(row))
        form.addRow("", self.ocr_enabled)
        form.addRow(self.tr("OCR pages per document:"), self.ocr_pages)
        return page

    def _memory_tab(self) -> QWidget:
        page = QWidget()
        s = self.settings
        self.memory_enabled = QCheckBox(self.tr("Remember facts I tell the assistant"))
        self.memory_enabled.setChecked(s.memory_enabled)
        self.implicit = QCheckBox(self.tr("Also notice facts I mention in passing (runs after each answer)"))
        self.implicit.setChecked(s.implicit_extraction)
        self.recall = QCheckBox(self.tr("Use earlier conversations in answers (turning this off erases their search index)"))
        self.recall.setChecked(s.recall_enabled)
        self.retention = QSpinBox()
        self.retention.setRange(0, 3650)
        self.retention.setSpecialValueText(self.tr("keep until I delete"))
        self.retention.setSuffix(self.tr(" days"))
        self.retention.setValue(s.memory_retention_days)
        form = QFormLayout(page)
        form.addRow("", self.memory_enabled)
        form.addRow("", self.implicit)
        form.addRow("", self.recall)
        form.addRow(self.tr("Forget memories after:"), self.retention)
        return page

    def _general_tab(self) -> QWidget:
        page = QWidget()
        s = self.settings
        self.language = QComboBox()
        for value, label in LANGUAGES:
            shown = self.tr("Automatic (system)") if value == "auto" else label
            self.language.addItem(shown, value)
        codes = [value for value, _label in LANGUAGES]
        self.language.setCurrentIndex(codes.index(s.language) if s.language in codes else 0)
        self.log_retention = QSpinBox()
        self.log_retention.setRange(1, 365)
        self.log_retention.setSuffix(self.tr(" days"))
        self.log_retention.setValue(s.log_retention_days)
        self.theme = QComboBox()
        for value, label in zip(THEMES, (self.tr("Follow the system"), self.tr("Light"),
                                         self.tr("Dark")), strict=True):
            self.theme.addItem(label, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(s.theme)))
        form = QFormLayout(page)
        form.addRow(self.tr("Language:"), self.language)
        form.addRow(self.tr("Appearance:"), self.theme)
        form.addRow(self.tr("Keep logs for:"), self.log_retention)
        return page

    # ---- models -------------------------------------------------------------------
    def _load_models(self) -> None:
        self.model_list.clear()
        for status in model_registry.describe_models(self.settings):
            label = status.entry.name
            if status.bundled:
                label += " — " + self.tr("bundled")
            if status.active:
                label = "✓ " + label
            item = QListWidgetItem(label)
            item.setData(256, status.entry.name)
            detail = self.describe(status.info) if status.info else (status.problem or "")
            item.setToolTip(f"{status.entry.path}\n{detail}")
            if status.info:
                item.setText(f"{label}\n    {self._capability_text(status.info.parameter_count)}"
                             f"\n    {detail}")
            self.model_list.addItem(item)

    def describe(self, info: GGUFInfo) -> str:
        """A model file's facts in the UI language (`GGUFInfo.describe` is the CLI's)."""
        parts = [info.architecture]
        if info.parameter_count:
            parts.append(self.tr("%1 parameters").replace(
                "%1", format_parameters(info.parameter_count)))
        parts += [info.quantization, format_size(info.size_bytes),
                  self.tr("context %1").replace("%1", str(info.context_length or "?"))]
        parts.append(self.tr("chat template: yes") if info.has_chat_template
                     else self.tr("chat template: none (choose one)"))
        return " · ".join(parts)

    def _capability_text(self, parameters: int | None) -> str:
        if Capability(parameters, "").can_write:
            return "✎ " + self.tr("writes answers")
        return "❝ " + self.tr("too small to write answers (%1): sources, or an experiment").replace(
            "%1", format_parameters(parameters or 0))

    def add_model(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, self.tr("Add a GGUF model"), "",
                                                    self.tr("GGUF models (*.gguf)"))
        if path:
            self.add_model_from_path(path)

    def add_model_from_path(self, path: str, template: str | None = None) -> bool:
        try:
            added = model_registry.add_model(self.settings, path, template=template)
        except model_registry.NoChatTemplateError as exc:
            choice, ok = QInputDialog.getItem(
                self, self.tr("Choose a chat template"),
                exc.user_message + "\n\n" + self.tr("Template:"),
                list(model_registry.SUPPORTED_TEMPLATES), 0, False)
            return bool(ok) and self.add_model_from_path(path, choice)
        except AppError as exc:
            QMessageBox.warning(self, self.tr("Model not added"), exc.user_message)
            return False
        message = f"{added.entry.name}: {self.describe(added.info)}"
        if model_registry.replaces_active(self.settings, added):
            model_registry.use_model(self.settings, added.entry.name)
            message += "\n\n" + self.tr("It is big enough to write answers and is now the active model.")
        if added.warnings:
            message += "\n\n" + "\n".join(self.template_note(w) for w in added.warnings)
        QMessageBox.information(self, self.tr("Model added"), message)
        self._load_models()
        return True

    def template_note(self, warning: model_registry.TemplateWarning) -> str:
        """A template note in the window's language (the registry gives a code)."""
        texts = {
            model_registry.TemplateNote.OVERRIDES_GGUF: self.tr(
                "Using the “%1” template instead of the one inside the GGUF."),
            model_registry.TemplateNote.CHOSEN_BY_USER: self.tr(
                "You chose “%1”; if answers look garbled or never stop, the template is "
                "probably wrong for this model."),
            model_registry.TemplateNote.GEMMA_NO_SYSTEM: self.tr(
                "The gemma template has no system role: Acervo puts the instructions at the "
                "start of the first user message."),
        }
        return texts[warning.code].replace("%1", warning.template)

    def _selected_model(self) -> str:
        item = self.model_list.currentItem()
        return str(item.data(256)) if item is not None else ""

    def use_selected_model(self) -> None:
        name = self._selected_model()
        if name:
            model_registry.use_model(self.settings, name)
            self._load_models()

    def remove_selected_model(self) -> None:
        name = self._selected_model()
        if not name:
            return
        try:
            model_registry.remove_model(self.settings, name)
        except AppError as exc:
            QMessageBox.warning(self, self.tr("Settings"), exc.user_message)
        self._load_models()

    # ---- network ------------------------------------------------------------------
    def _update_network_warning(self) -> None:
        url = self.ollama_url.text().strip()
        if is_loopback_url(url):
            self.network_warning.setText("")
        elif self.allow_network.isChecked():
            self.network_warning.setText(self.tr("Not air-gapped: your questions and passages from your documents will be sent to this server."))
        else:
            self.network_warning.setText(self.tr("This URL is on another computer. Tick “Allow a server on another computer” to use it."))

    def _browse_reranker(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Cross-encoder folder"))
        if folder:
            self.reranker_path.setText(folder)

    # ---- result -------------------------------------------------------------------
    def accept(self) -> None:
        url = self.ollama_url.text().strip()
        uses_ollama = self.backend.currentData() == "ollama"
        if uses_ollama and not is_loopback_url(url) and not self.allow_network.isChecked():
            QMessageBox.warning(self, self.tr("Settings"), self.network_warning.text())
            return
        s = self.settings
        s.llm_backend = str(self.backend.currentData())
        s.answer_mode = str(self.answer_mode.currentData())
        s.n_ctx = self.n_ctx.value()
        s.n_threads = self.n_threads.value()
        s.ollama_url = url
        s.ollama_model = self.ollama_model.text().strip()
        s.allow_network = self.allow_network.isChecked()
        s.retrieval_k = self.retrieval_k.value()
        s.reranker_enabled = self.reranker_enabled.isChecked()
        s.reranker_path = self.reranker_path.text().strip()
        s.ocr_enabled = self.ocr_enabled.isChecked()
        s.ocr_max_pages_per_document = self.ocr_pages.value()
        s.memory_enabled = self.memory_enabled.isChecked()
        s.implicit_extraction = self.implicit.isChecked()
        s.recall_enabled = self.recall.isChecked()
        s.memory_retention_days = self.retention.value()
        s.language = str(self.language.currentData())
        s.theme = str(self.theme.currentData())
        s.log_retention_days = self.log_retention.value()
        super().accept()

    def result_settings(self) -> Settings:
        return self.settings


def _wrap(layout: QHBoxLayout) -> QWidget:
    holder = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    holder.setLayout(layout)
    return holder
