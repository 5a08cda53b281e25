"""Help → How Acervo works: a one-screen guide (add documents, ask, badges, the search,
memory, privacy, taking answers out), reachable from the Help menu and from the banner of
an empty library. Translated like every other text (`tr`)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget


class GuideDialog(QDialog):
    """The short guide; non-modal, so the window stays usable beside it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModal(False)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(620, 560)
        self.retranslate()

    def sections(self) -> list[tuple[str, str]]:
        """(heading, paragraph) in the UI language."""
        return [
            (self.tr("1. Add your documents"),
             self.tr("Drop files or folders anywhere on the window, or use Add files… (Ctrl+O). PDFs, Word, Markdown, text, web pages and scanned images are read on this computer; the Library lists them with their progress.")),
            (self.tr("2. Ask"),
             self.tr("Type a question in the box under the chat and press Enter. Acervo searches your documents and answers with the passages that answer it, or with a text written by a language model if you added one (Settings → Models).")),
            (self.tr("3. Check the badges"),
             self.tr("Every claim carries a numbered badge. Click it: the source opens at the page, with the quoted words highlighted. When nothing in your documents answers, Acervo says so, shows the closest passages, and “Why not found?” explains it.")),
            (self.tr("4. See the search itself"),
             self.tr("The Search tab beside the chat lists the passages as the answers rank them: what found each one (keywords, meaning), its rank and score, and your words it contains. Filters and the libraries searched are shown too.")),
            (self.tr("5. Take answers with you"),
             self.tr("Under each answer, “Copy with citations” and “Export…” (Markdown, Word, PDF) keep the quotes exactly, with numbered references: document, page or article, the quoted words and the file.")),
            (self.tr("6. Memory"),
             self.tr("Say “Remember that …” and Acervo keeps it; the chip under the chat undoes it. View → Memory… lists everything remembered, where it came from, and lets you edit, delete or export it.")),
            (self.tr("7. Privacy"),
             self.tr("Everything stays on this computer: the documents, the index, the models and your chats. “offline ✓” in the status bar says nothing leaves it; it names any server you allowed yourself.")),
        ]

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("How Acervo works"))
        html = [f"<h2>{escape(self.tr('How Acervo works'))}</h2>"]
        for heading, text in self.sections():
            html.append(f"<h3>{escape(heading)}</h3><p>{escape(text)}</p>")
        self.text.setHtml("".join(html))

    def changeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        from PySide6.QtCore import QEvent

        super().changeEvent(event)  # type: ignore[arg-type]
        if getattr(event, "type", lambda: None)() == QEvent.Type.LanguageChange:
            self.retranslate()
