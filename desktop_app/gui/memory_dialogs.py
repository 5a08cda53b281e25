"""Dialogs of the memory panel: provenance, consent per sensitive category, erasure.

Also the user-facing names of memory categories (stored values stay English keys), the
erasure receipt in plain words (technical detail apart), and the translated placeholders
an erasure leaves in stored text.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop_app.memory.erasure import REDACTED
from desktop_app.memory.service import ERASED_QUOTE
from desktop_app.memory.types import SENSITIVE_CATEGORIES, MemoryItem


def category_label(category: str) -> str:
    """The category as the user reads it (the stored value stays the English key)."""
    labels = {
        "identity": QCoreApplication.translate("MemoryCategories", "identity"),
        "work": QCoreApplication.translate("MemoryCategories", "work"),
        "preference": QCoreApplication.translate("MemoryCategories", "preference"),
        "contact": QCoreApplication.translate("MemoryCategories", "contact"),
        "location": QCoreApplication.translate("MemoryCategories", "location"),
        "family": QCoreApplication.translate("MemoryCategories", "family"),
        "schedule": QCoreApplication.translate("MemoryCategories", "schedule"),
        "reference": QCoreApplication.translate("MemoryCategories", "reference"),
        "other": QCoreApplication.translate("MemoryCategories", "other"),
        "health": QCoreApplication.translate("MemoryCategories", "health"),
        "disability": QCoreApplication.translate("MemoryCategories", "disability"),
        "religion": QCoreApplication.translate("MemoryCategories", "religion"),
        "ethnicity": QCoreApplication.translate("MemoryCategories", "ethnicity"),
        "sex_life": QCoreApplication.translate("MemoryCategories", "sex life"),
        "political_opinion": QCoreApplication.translate("MemoryCategories", "political opinion"),
        "biometric": QCoreApplication.translate("MemoryCategories", "biometric data"),
        "financial_account": QCoreApplication.translate("MemoryCategories", "financial account numbers"),
    }
    return labels.get(category, category.replace("_", " "))


class ProvenanceDialog(QDialog):
    """Where a memory came from: the user's message(s), older versions, edits."""

    def __init__(self, provenance: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Where this memory came from"))
        view = QTextBrowser()
        said_on = self.tr("You said on %1:")
        older_title = self.tr("Older versions")
        edits_title = self.tr("Edits")
        erased = self.tr("(old text erased)")
        lines = [f"<p><b>{html_escape(provenance.item.text)}</b></p>"]
        for message in provenance.source_messages:
            when = message.created_at[:16].replace("T", " ")
            quote = html_escape(erased_placeholders(message.content))
            lines.append(f"<p>{said_on.replace('%1', when)}<br><i>“{quote}”</i></p>")
        if not provenance.source_messages:
            for source in provenance.item.sources:
                lines.append(f"<p><i>“{html_escape(erased_placeholders(source.quote))}”</i> "
                             f"({source.timestamp[:10]})</p>")
        if provenance.history:
            lines.append(f"<p><b>{older_title}</b></p>")
            lines += [f"<p>{html_escape(old.text)} ({old.created_at[:10]})</p>"
                      for old in provenance.history]
        if provenance.edits:
            lines.append(f"<p><b>{edits_title}</b></p>")
            lines += [f"<p>{edit.edited_at[:16].replace('T', ' ')}: "
                      f"{html_escape(edit.old_text) if edit.old_text else erased}</p>"
                      for edit in provenance.edits]
        view.setHtml("".join(lines))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(view)
        layout.addWidget(buttons)
        self.resize(520, 360)


class ConsentDialog(QDialog):
    """One checkbox per sensitive category; shows when consent was last recorded."""

    def __init__(self, state: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Consent for sensitive data"))
        self.initial: dict[str, bool] = {}
        self.boxes: dict[str, QCheckBox] = {}
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("Acervo stores facts in these categories only with your explicit consent (LGPD art. 11). Withdrawing consent erases what was stored."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        for category in SENSITIVE_CATEGORIES:
            record = state.get(category)
            granted = bool(record is not None and record.granted)
            box = QCheckBox(category_label(category))
            box.setChecked(granted)
            if record is not None:
                box.setToolTip(self.tr("Recorded on %1").replace("%1", record.recorded_at[:16]))
            self.initial[category] = granted
            self.boxes[category] = box
            layout.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def changes(self) -> dict[str, bool]:
        return {c: box.isChecked() for c, box in self.boxes.items()
                if box.isChecked() != self.initial[c]}


def erased_placeholders(text: str) -> str:
    """Stored text with the erasure placeholders in the UI language ("Vou lembrar: [erased]"
    is stored; "Vou lembrar: [apagado]" is shown)."""
    if ERASED_QUOTE in text:
        text = text.replace(ERASED_QUOTE, QCoreApplication.translate(
            "Erasure", "[erased at your request]"))
    if REDACTED in text:
        text = text.replace(REDACTED, QCoreApplication.translate("Erasure", "[erased]"))
    return text


class EraseDialog(QDialog):
    """Confirms deleting memories; offers to delete the user's own messages that stated
    them too (the CLI's `memory delete --with-messages`), ticked for sensitive facts."""

    def __init__(self, items: list[MemoryItem], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Delete memories"))
        messages = {s.message_id for item in items for s in item.sources}
        text = QLabel(self.tr("Erase %n memory item(s) everywhere? Older versions and the copies in Acervo's answers and their traces are erased too.", "", len(items)))
        text.setWordWrap(True)
        facts = QLabel("\n".join(f"• {item.text}" for item in items[:6])
                       + ("\n…" if len(items) > 6 else ""))
        facts.setTextFormat(Qt.TextFormat.PlainText)
        facts.setWordWrap(True)
        self.with_messages = QCheckBox(self.tr("Also delete the %n message(s) where I said it", "", len(messages)))
        self.with_messages.setEnabled(bool(messages))
        # a sensitive fact usually should not stay in the chat word for word
        self.with_messages.setChecked(bool(messages) and any(i.sensitive for i in items))
        hint = QLabel(self.tr("Your messages stay in the chat history otherwise, word for word."))
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(mid);")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.delete_button = buttons.addButton(self.tr("Delete"),
                                               QDialogButtonBox.ButtonRole.DestructiveRole)
        self.delete_button.clicked.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setDefault(True)
        layout = QVBoxLayout(self)
        for widget in (text, facts, self.with_messages, hint):
            layout.addWidget(widget)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)


class ReceiptText(QObject):
    """An erasure receipt as the user reads it (a QObject for `tr`: lupdate only finds
    plural forms in `self.tr(text, "", n)`)."""

    def describe(self, receipt: dict[str, Any]) -> tuple[str, str]:
        """(what was erased in plain words, the technical detail behind "Details")."""
        stores = receipt.get("stores", {})
        memories = len(receipt.get("memory_ids", []))
        messages, chats, copies, recall = (
            int(stores.get(name, {}).get("rows", 0))
            for name in ("messages", "conversations", "traces_and_summaries", "recall_index"))
        parts = ([self.tr("%n memory item(s) (with older versions)", "", memories)]
                 if memories or not (messages or recall) else [])
        if messages:
            parts.append(self.tr("%n message(s) of yours", "", messages))
        if chats:
            parts.append(self.tr("%n chat message(s)", "", chats))
        if copies:
            parts.append(self.tr("%n copy(ies) in answers and their traces", "", copies))
        if recall:
            parts.append(self.tr("%n exchange(s) from the conversation-recall index (text, vectors and keyword entries)", "", recall))
        plain = self.tr("Erased for good: %1.").replace("%1", ", ".join(parts))
        if receipt.get("physical_cleanup"):
            plain += " " + self.tr("The files on disk were rewritten, so nothing can be recovered from them.")
        return plain, self._details(receipt)

    def _details(self, receipt: dict[str, Any]) -> str:
        lines = [self.tr("Stores touched:")]
        for name, store in sorted(receipt.get("stores", {}).items()):
            facts = []
            rows = int(store.get("rows", 0))
            if rows or store.get("content_bytes"):
                facts.append(self.tr("%n row(s)", "", rows))
                facts.append(self.tr("%1 bytes of content").replace(
                    "%1", str(store.get("content_bytes", 0))))
            before, after = store.get("file_bytes_before"), store.get("file_bytes_after")
            if before is not None and after is not None:
                facts.append(self.tr("file %1 → %2 bytes").replace("%1", str(before)).replace(
                    "%2", str(after)))
            if facts:
                lines.append(f"  {name}: " + ", ".join(facts))
        cleanup = receipt.get("physical_cleanup", [])
        lines.append(self.tr("Physical cleanup:") + " "
                     + ("; ".join(cleanup) or self.tr("none needed")))
        ids = receipt.get("memory_ids", [])
        if ids:
            lines.append(self.tr("Memory ids:") + " " + ", ".join(ids))
        exchanges = receipt.get("exchange_ids", [])
        if exchanges:
            lines.append(self.tr("Recall exchanges:") + " " + ", ".join(exchanges))
        return "\n".join(lines)


def receipt_texts(receipt: dict[str, Any]) -> tuple[str, str]:
    return ReceiptText().describe(receipt)


def merge_receipts(receipts: list[Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {"memory_ids": [], "stores": {}, "total_content_bytes": 0,
                              "physical_cleanup": []}
    for receipt in receipts:
        data = receipt.to_dict() if hasattr(receipt, "to_dict") else dict(receipt)
        merged["memory_ids"] += data.get("memory_ids", [])
        merged.setdefault("exchange_ids", []).extend(data.get("exchange_ids", []))
        merged["total_content_bytes"] += int(data.get("total_content_bytes", 0))
        for name, store in data.get("stores", {}).items():
            into = merged["stores"].setdefault(name, {"rows": 0, "content_bytes": 0})
            into["rows"] += int(store.get("rows", 0))
            into["content_bytes"] += int(store.get("content_bytes", 0))
            for key in ("file_bytes_before", "file_bytes_after"):
                # before: the first erasure's; after: the last's
                first_or_after = key == "file_bytes_after" or into.get(key) is None
                if store.get(key) is not None and first_or_after:
                    into[key] = int(store[key])
        for step in data.get("physical_cleanup", []):
            if step not in merged["physical_cleanup"]:
                merged["physical_cleanup"].append(step)
    return merged


def html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


