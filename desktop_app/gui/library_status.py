"""Library status: every file the library has seen, with its status — indexed, unchanged,
waiting (queued, or left by a crash: finished at the next start), failed with its one-line
reason, skipped by a limit — a button that reads the failed files again, and one that reads
again the files an older version of Acervo read (`desktop-app documents reread`). The same
list as `desktop-app documents status`, from the journal the pipeline keeps. The dialog
stays open beside the window, so a language switch re-words it from the files it read.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.gui.library import LibraryPanel
from desktop_app.gui.panel import PanelMixin
from desktop_app.gui.services import LibraryServices
from desktop_app.ingest.pathnames import display_path
from desktop_app.library.state import FileStatus


class LibraryStatusDialog(PanelMixin, QDialog):
    def __init__(self, library: LibraryPanel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.services: LibraryServices = library.services
        self._files: list[FileStatus] = []
        self.resize(760, 420)
        self.summary = QLabel()
        self.problems_only = QCheckBox()
        self.problems_only.toggled.connect(self.refresh)
        self.tree = QTreeWidget()
        self.tree.setRootIsDecorated(False)
        self.retry_button = QPushButton()
        self.retry_button.clicked.connect(self.retry)
        self._older = 0  # files an older version of Acervo read
        self.reread_button = QPushButton()
        self.reread_button.clicked.connect(self.reread)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.retry_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.reread_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.problems_only)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self.refresh()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Library status"))
        self.problems_only.setText(self.tr("Only failed and skipped files"))
        self.tree.setHeaderLabels([self.tr("Status"), self.tr("File"), self.tr("Why")])
        self.retry_button.setText(self.tr("Retry failed files"))
        self.reread_button.setText(self.tr("Read again (%n file(s))", "", self._older))
        self.reread_button.setToolTip(self.tr(
            "These files were read by an older version of Acervo; this one reads headings, "
            "lists and sections better. Passages that did not change keep their vectors."))
        self._show()

    def status_words(self) -> dict[str, str]:
        return {"indexed": self.tr("indexed"), "unchanged": self.tr("unchanged"),
                "waiting": self.tr("waiting"), "failed": self.tr("failed"),
                "skipped": self.tr("skipped by a limit")}

    def status_count(self, status: str, n: int) -> str:
        """"3 indexed" for the summary line: a count agrees with its word ("2 indexados")."""
        forms = {"indexed": lambda: self.tr("%n indexed", "", n),
                 "unchanged": lambda: self.tr("%n unchanged", "", n),
                 "waiting": lambda: self.tr("%n waiting", "", n),
                 "failed": lambda: self.tr("%n failed", "", n),
                 "skipped": lambda: self.tr("%n skipped by a limit", "", n)}
        form = forms.get(status)
        return form() if form else f"{n} {status}"

    def refresh(self) -> None:
        self._files = self.services.file_statuses(problems=self.problems_only.isChecked())
        # the index may still be opening (the embedder loads first): counted off the GUI
        # thread, the button shows when the count arrives
        self.library.workers.call(lambda: len(self.services.read_before()),
                                  name="read-before", on_result=self._older_counted,
                                  on_failed=lambda _e: None)
        self.retranslate()

    def _older_counted(self, count: int) -> None:
        self._older = count
        self.retranslate()

    def _show(self) -> None:
        """The files last read, in the current language."""
        words = self.status_words()
        self.tree.clear()
        counts: dict[str, int] = {}
        for f in self._files:
            counts[f.status] = counts.get(f.status, 0) + 1
            item = QTreeWidgetItem([words.get(f.status, f.status), display_path(f.path),
                                    " ".join(f.reason.split())])
            item.setData(0, Qt.ItemDataRole.UserRole, f.status)
            item.setToolTip(2, f.reason)
            self.tree.addTopLevelItem(item)
        self.tree.resizeColumnToContents(0)
        self.summary.setText(", ".join(self.status_count(s, n) for s, n in sorted(counts.items()))
                             or self.tr("No files yet."))
        problems = counts.get("failed", 0) + counts.get("skipped", 0)
        self.retry_button.setEnabled(problems > 0 and not self.library.is_running())
        self.reread_button.setVisible(self._older > 0)
        self.reread_button.setEnabled(not self.library.is_running())

    def retry(self) -> None:
        if self.library.run_job(self.services.retry_failed, []):
            self.accept()

    def reread(self) -> None:
        if self.library.run_job(self.services.reread_older, []):
            self.accept()
