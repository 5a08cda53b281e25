"""Small files written atomically and safely when several Acervo processes share a folder.

`write_json_atomic` goes through a unique temporary file in the same folder (fsync, then
`os.replace`): a crash never leaves half a file, readers never see a partial one, and two
processes writing at once never rename each other's temporary file (issue 11: a search
died on `index_meta.json.tmp` another process had just renamed). Storage failures become
the app's `StorageError`s.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from desktop_app.errors import storage_error


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Replace `path` with `data` as indented JSON, atomically."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=2, ensure_ascii=False))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        mapped = storage_error(exc, str(path.parent)) if isinstance(exc, Exception) else None
        if mapped is not None:
            raise mapped from exc
        raise


def read_json(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))
