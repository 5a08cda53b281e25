"""Dialogs of the memory panel: provenance, consent per sensitive category, receipts.

Also the user-facing names of memory categories (stored values stay English keys).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop_app.memory.types import SENSITIVE_CATEGORIES


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
            quote = html_escape(message.content)
            lines.append(f"<p>{said_on.replace('%1', when)}<br><i>“{quote}”</i></p>")
        if not provenance.source_messages:
            for source in provenance.item.sources:
                lines.append(f"<p><i>“{html_escape(source.quote)}”</i> ({source.timestamp[:10]})</p>")
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


def merge_receipts(receipts: list[Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {"memory_ids": [], "stores": {}, "total_content_bytes": 0,
                              "physical_cleanup": []}
    for receipt in receipts:
        data = receipt.to_dict() if hasattr(receipt, "to_dict") else dict(receipt)
        merged["memory_ids"] += data.get("memory_ids", [])
        merged["total_content_bytes"] += int(data.get("total_content_bytes", 0))
        for name, store in data.get("stores", {}).items():
            into = merged["stores"].setdefault(name, {"rows": 0, "content_bytes": 0})
            into["rows"] += int(store.get("rows", 0))
            into["content_bytes"] += int(store.get("content_bytes", 0))
        for step in data.get("physical_cleanup", []):
            if step not in merged["physical_cleanup"]:
                merged["physical_cleanup"].append(step)
    return merged


def html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


