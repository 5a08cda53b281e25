"""Folders added to the library, and whether each is watched.

A watched folder is kept in sync by itself (`watch.FolderWatcher`): new, changed, renamed
and deleted files are picked up without the analyst asking. Folders added in the window
are watched by default; `desktop-app folders add` too, unless `--no-watch`. A folder on a
network share is watched by polling (file events from a server are unreliable or absent),
decided when it is added (`is_network_path`) or chosen with `--polling`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.errors import AppError
from desktop_app.ingest.pathnames import path_from_key, path_key
from desktop_app.library.state import now_iso

if TYPE_CHECKING:
    from desktop_app.library.state import LibraryState

# Linux file systems whose change events do not reach this computer
_NETWORK_FS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ncpfs",
                         "fuse.sshfs", "fuse.rclone", "davfs", "fuse.davfs2", "glusterfs",
                         "ceph", "fuse.s3fs", "fuse.gcsfuse"})


@dataclass(frozen=True)
class WatchedFolder:
    path: str  # path key of the resolved folder
    watch: bool
    polling: bool

    @property
    def folder(self) -> Path:
        return path_from_key(self.path)


def is_network_path(path: Path) -> bool:
    """A folder on a network share (SMB, NFS, SSHFS…), where file events cannot be trusted."""
    text = str(path)
    if os.name == "nt":
        if text.startswith("\\\\"):
            return True
        try:
            import ctypes

            drive = os.path.splitdrive(text)[0] + "\\"
            return bool(ctypes.windll.kernel32.GetDriveTypeW(drive) == 4)  # type: ignore[attr-defined]  # DRIVE_REMOTE
        except (AttributeError, OSError):
            return False
    if sys.platform.startswith("linux"):
        try:
            mounts = Path("/proc/mounts").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
        best, kind = "", ""
        for line in mounts.splitlines():
            fields = line.split()
            if len(fields) >= 3:
                point = fields[1].replace("\\040", " ")
                if (text == point or text.startswith(point.rstrip("/") + "/")) \
                        and len(point) > len(best):
                    best, kind = point, fields[2]
        return kind in _NETWORK_FS
    return False  # elsewhere (macOS) a share can be set to polling by hand (`--polling`)


class Folders:
    """The folders of this computer's library (in `library.sqlite3`)."""

    def __init__(self, state: LibraryState) -> None:
        self.state = state

    def all(self) -> list[WatchedFolder]:
        return [WatchedFolder(str(p), bool(w), bool(poll)) for p, w, poll in self.state.query(
            "SELECT path, watch, polling FROM folders ORDER BY path")]

    def watched(self) -> list[WatchedFolder]:
        return [f for f in self.all() if f.watch]

    def add(self, folder: Path, *, watch: bool = True, polling: bool | None = None
            ) -> WatchedFolder:
        resolved = folder.expanduser().resolve()
        if not resolved.is_dir():
            raise AppError(f"“{folder}” is not a folder.")
        if polling is None:
            polling = is_network_path(resolved)
        added = WatchedFolder(path_key(resolved), watch, polling)
        with self.state.transaction() as db:
            db.execute("INSERT OR REPLACE INTO folders VALUES (?, ?, ?, ?)",
                       (added.path, int(watch), int(polling), now_iso()))
        return added

    def remove(self, folder: Path | str) -> WatchedFolder:
        key = path_key(Path(folder).expanduser().resolve()) if isinstance(folder, Path) \
            else folder
        found = next((f for f in self.all() if f.path == key), None)
        if found is None:
            raise AppError(f"“{folder}” is not one of the library's folders.")
        with self.state.transaction() as db:
            db.execute("DELETE FROM folders WHERE path = ?", (key,))
        return found

    def set_watch(self, folder: str, watch: bool) -> None:
        with self.state.transaction() as db:
            db.execute("UPDATE folders SET watch = ? WHERE path = ?", (int(watch), folder))
