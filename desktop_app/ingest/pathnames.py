"""File names that are not valid UTF-8, or that contain line breaks, handled in one place.

On Linux a file name is bytes. One copied from an old Windows zip is often Latin-1
("rela\\xe7\\xe3o.txt"); Python hands it over with lone surrogates ("rela\\udce7\\udce3o"),
which cannot be hashed as UTF-8, stored by Arrow/LanceDB, or printed. Three views:

- `path_key(path)`: the text stored in the index (`source_path`) and carried by events —
  the path itself when it is valid UTF-8 (every existing library stays as it is); else
  each undecodable byte 0xXY is stored as the private-use character U+F7XY. Lossless:
  `path_from_key` gives back the exact bytes to open the file again. (A real name using
  U+F780–U+F7FF, private-use code points no keyboard or OS produces, would be misread.)
- `display_path(path_or_key)`: what people read — undecodable bytes shown as Windows-1252
  (the usual origin, so "relação.txt" reads right) and control characters escaped
  ("linha\\nnova.txt" on one line), so one output line is always one file.
- `path_bytes(path)`: the OS bytes (for stable document ids).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_PRIVATE_BASE = 0xF700  # byte 0x80..0xFF  <->  U+F780..U+F7FF
_PRIVATE = re.compile("[\uf780-\uf7ff]")
_SURROGATE = re.compile("[\udc80-\udcff]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def path_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file name as the OS stores it."""
    return os.fsencode(path_from_key(os.fspath(path)) if isinstance(path, str) else path)


def path_key(path: str | os.PathLike[str]) -> str:
    """Valid-Unicode, lossless text for a path (see the module docstring)."""
    text = os.fspath(path)
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: chr(_PRIVATE_BASE + ord(m.group()) - 0xDC00), text)


def path_from_key(key: str) -> Path:
    """The real path for a stored `path_key` (opening, re-ingesting, "open original")."""
    if not _PRIVATE.search(key):
        return Path(key)
    return Path(_PRIVATE.sub(lambda m: chr(0xDC00 + ord(m.group()) - _PRIVATE_BASE), key))


def readable(text: str) -> str:
    """Any text with surrogate-escaped or private-use bytes made readable (cp1252 guess)."""
    if not (_SURROGATE.search(text) or _PRIVATE.search(text)):
        return text
    raw = os.fsencode(str(path_from_key(path_key(text))))
    out = []
    for piece in re.split(rb"([\x80-\xff]+)", raw):
        try:
            out.append(piece.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(piece.decode("cp1252", errors="replace"))
    return "".join(out)


def one_line(text: str) -> str:
    """Control characters (a newline in a file name) escaped, so one line stays one line."""
    return _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), f"\\x{ord(m.group()):02x}"), text)


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as people should read it: decoded sensibly and on one line."""
    return one_line(readable(os.fspath(path)))
