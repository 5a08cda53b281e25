"""Consent records for sensitive memory categories (LGPD art. 11: specific consent).

Append-only: every grant or withdrawal is a row with its time, so the panel can show
when the user said yes and when they changed their mind. The current state of a
category is its latest record; no record means no consent.
"""

from __future__ import annotations

from desktop_app.errors import AppError
from desktop_app.memory.types import SENSITIVE_CATEGORIES, ConsentRecord, iso, utc_now
from desktop_app.state_db import StateDB


class ConsentRegistry:
    """Who said yes to what, and when."""

    def __init__(self, db: StateDB) -> None:
        self.db = db

    @staticmethod
    def check_category(category: str) -> str:
        name = category.strip().lower().replace("-", "_").replace(" ", "_")
        if name not in SENSITIVE_CATEGORIES:
            raise AppError(f"'{category}' is not a sensitive category. Consent applies to: "
                           + ", ".join(SENSITIVE_CATEGORIES) + ".")
        return name

    def record(self, category: str, granted: bool) -> ConsentRecord:
        name = self.check_category(category)
        now = iso(utc_now())
        with self.db.transaction() as conn:
            conn.execute("INSERT INTO consents(category, granted, recorded_at) VALUES (?, ?, ?)",
                         (name, int(granted), now))
        return ConsentRecord(name, granted, now)

    def current(self, category: str) -> ConsentRecord | None:
        rows = self.db.query("SELECT category, granted, recorded_at FROM consents "
                             "WHERE category = ? ORDER BY id DESC LIMIT 1", (category,))
        if not rows:
            return None
        return ConsentRecord(rows[0]["category"], bool(rows[0]["granted"]),
                             rows[0]["recorded_at"])

    def allows(self, category: str) -> bool:
        if category not in SENSITIVE_CATEGORIES:
            return True
        record = self.current(category)
        return record is not None and record.granted

    def history(self) -> list[ConsentRecord]:
        rows = self.db.query("SELECT category, granted, recorded_at FROM consents ORDER BY id")
        return [ConsentRecord(r["category"], bool(r["granted"]), r["recorded_at"]) for r in rows]

    def state(self) -> dict[str, ConsentRecord | None]:
        return {c: self.current(c) for c in SENSITIVE_CATEGORIES}
