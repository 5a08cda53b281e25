"""`team purge`: deleted text leaves the server's files — and the report says only what was
checked.

A removed document's rows are invisible at once, but their bytes stay in three places:
the table files (dead rows), the planner's statistics (`pg_statistic` rows name titles and
paths) and the write-ahead log (`pg_wal`: every insert is logged with its row, and a
checkpoint's first change to a page logs the whole page). Measured on the trial server:
after `VACUUM FULL` the canary was gone from the tables' files but still in `pg_wal`, also
after `CHECKPOINT; SELECT pg_switch_wal()` — a recycled segment keeps its old bytes until
overwritten.

So the purge, as the server's owner:
1. rewrites the text tables (`VACUUM (FULL, ANALYZE)`) and vacuums the vectors;
2. keeps names and text out of the planner's statistics (`pg_schema.PRIVATE_COLUMNS`) and,
   as superuser, rewrites `pg_statistic` so older statistics rows go too;
3. as superuser, turns `wal_recycle` off for the purge and checkpoints and switches segments
   until `pg_wal` holds only segments written after the purge (new ones are zero-filled:
   `wal_init_zero`), then puts `wal_recycle` back — unless the server keeps old segments on
   purpose (archiving, `wal_keep_size`, replication slots), which the report names;
4. lists `pg_wal` again and reports what it found. Without superuser, it says the WAL was
   not checked and how long old segments may stay. Copies outside the server's data folder
   (WAL archives, replicas, backups) are never reached, and the report says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from desktop_app.retrieval.pg_schema import TEXT_TABLES, private_statistics_sql

NOT_REACHED = ("Not reached: copies outside this server's data folder (WAL archives, "
               "replicas, backups).")


@dataclass
class PurgeReport:
    rewritten: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # VACUUM skipped them (no privilege)
    statistics: str = ""
    wal: str = ""
    wal_clean: bool = False

    def lines(self) -> list[str]:
        out = []
        if self.rewritten:
            out.append(f"rewritten without deleted rows (VACUUM FULL): "
                       f"{', '.join(self.rewritten)}")
        if self.refused:
            out.append(f"NOT rewritten (the server refused): {', '.join(self.refused)}")
        out += [self.statistics, self.wal, NOT_REACHED]
        return [line for line in out if line]

    @property
    def complete(self) -> bool:
        return not self.refused and self.wal_clean


def purge_server(conn: Any) -> PurgeReport:
    """Purge as the owner (`conn` in autocommit); see the module docstring."""
    report = PurgeReport()
    notices: list[str] = []
    conn.add_notice_handler(lambda diag: notices.append(diag.message_primary or ""))
    for table in TEXT_TABLES:
        notices.clear()
        conn.execute(f"VACUUM (FULL, ANALYZE) acervo.{table}")
        (report.refused if any("skipping" in n for n in notices) else report.rewritten
         ).append(table)
    conn.execute("VACUUM (ANALYZE) acervo.chunk_vectors")
    superuser = _setting(conn, "is_superuser") == "on"
    for statement in private_statistics_sql(conn.info.server_version):
        conn.execute(statement)
    if superuser:
        conn.execute("VACUUM FULL pg_catalog.pg_statistic")  # old rows named titles, paths
        report.statistics = ("planner statistics: none kept for names and text; older "
                             "statistics rows rewritten away")
    else:
        report.statistics = ("planner statistics: none kept for names and text from now on; "
                             "older statistics rows were not rewritten (needs superuser)")
    report.wal, report.wal_clean = (_purge_wal(conn) if superuser else (
        "write-ahead log NOT checked: only a superuser may checkpoint and list pg_wal. "
        "Deleted text stays there until PostgreSQL reuses those segments (after about "
        f"max_wal_size = {_setting(conn, 'max_wal_size')} of new writes), and a reused "
        "segment keeps old bytes until they are overwritten.", False))
    return report


def _setting(conn: Any, name: str) -> str:
    return str(conn.execute("SELECT current_setting(%s)", (name,)).fetchone()[0])


def _segments(conn: Any) -> list[str]:
    return [str(r[0]) for r in conn.execute(
        "SELECT name FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$' ORDER BY name")]


def _current_segment(conn: Any) -> str:
    return str(conn.execute("SELECT pg_walfile_name(pg_current_wal_lsn())").fetchone()[0])


def _keepers(conn: Any) -> list[str]:
    """What makes the server keep old WAL segments on purpose."""
    reasons = []
    if _setting(conn, "archive_mode") != "off":
        reasons.append("archive_mode is on")
    if _setting(conn, "wal_keep_size") not in ("0", "0MB", "0kB"):
        reasons.append(f"wal_keep_size is {_setting(conn, 'wal_keep_size')}")
    slots = [str(r[0]) for r in conn.execute("SELECT slot_name FROM pg_replication_slots")]
    if slots:
        reasons.append(f"replication slots keep it ({', '.join(slots)})")
    return reasons


def _purge_wal(conn: Any) -> tuple[str, bool]:
    """Checkpoint and switch segments with recycling off until pg_wal holds only segments
    written after the purge; returns (the sentence, whether that was verified).

    Every segment in pg_wal once recycling is off may hold the deleted text, one under a
    future name too: a checkpoint before the purge may have recycled an old segment by
    renaming it ahead of the current one, and its tail keeps the old bytes until they are
    written over. So the purge is done when none of those files is left, not when the
    names left are all newer."""
    recycled = _setting(conn, "wal_recycle") == "on"
    if recycled:
        _reload(conn, "ALTER SYSTEM SET wal_recycle = off", "off")
    before = set(_segments(conn))
    try:
        for _round in range(len(before) + 3):
            conn.execute("SELECT pg_switch_wal()")
            conn.execute("CHECKPOINT")  # its record starts the new segment; older ones go
            current = _current_segment(conn)
            if _segments(conn) == [current] and current not in before:
                break
    finally:
        if recycled:
            _reload(conn, "ALTER SYSTEM RESET wal_recycle", "on")
    current = _current_segment(conn)
    remaining = _segments(conn)
    older = [n for n in remaining if n in before]
    if not older and all(n >= current for n in remaining):
        return (f"write-ahead log checked: pg_wal holds {len(remaining)} segment(s), all "
                "written after the purge", True)
    keepers = _keepers(conn)
    why = "; ".join(keepers) if keepers else "PostgreSQL did not remove them yet"
    return (f"write-ahead log checked: {len(older)} segment(s) written before the purge are "
            f"still in pg_wal ({why}); deleted text stays in them until they are removed",
            False)


def _reload(conn: Any, statement: str, wanted: str) -> None:
    conn.execute(statement)
    conn.execute("SELECT pg_reload_conf()")
    for _ in range(50):  # the reload is asynchronous: wait until this session sees it
        if _setting(conn, "wal_recycle") == wanted:
            return
        time.sleep(0.1)
