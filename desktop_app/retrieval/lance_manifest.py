"""A LanceDB table's version file, read without Lance: which files each fragment of the
current version needs and at what size, and which files each index needs.

The damage check (`lancedb_io.table_damage`) needs exactly this, and LanceDB's Python API
does not expose it; Lance's own Python package (pylance, 215 MB in the installer) would,
so this small reader of the documented format replaces it:

- `_versions/` holds one `.manifest` file per version, named `{version}.manifest` (Lance's
  V1 scheme) or `{2**64 - 1 - version:020}.manifest` (V2, the newest sorting first); the
  current version is the highest (names starting with `d` are detached versions).
- A version file ends with a 16-byte footer: the little-endian i64 position of the manifest,
  two u16 format versions and the magic `LANC`. At that position: a u32 length, then a
  protobuf `lance.table.Manifest` (Lance's protos/table.proto), which runs up to the footer.
  Its `index_section` field is the position of an `IndexSection` (u32 length + message).
- Data files live in `data/`, deletion files at `_deletions/{fragment}-{read_version}-{id}`
  `.arrow|.bin`, index files in `_indices/{uuid}/`.

Only the fields the check needs are decoded (field numbers below, from table.proto); a
table using features this reader does not follow (files outside its folder, stable row
ids, a reader feature flag it does not know) says so in `unsupported` instead of being
reported sound or damaged.
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"LANC"
FOOTER_BYTES = 16
_U64_MAX = 2**64 - 1
# reader feature flags (Lance's feature_flags.rs): 1 deletion files, 2 stable row ids,
# 4 v2 data files (no longer used), 8 table config; 16 (shallow clone) and later ones are not
# followed here
_STABLE_ROW_IDS, _FOLLOWED_FLAGS = 2, 1 | 2 | 4 | 8
_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5


class ManifestError(ValueError):
    """The version file is missing, cut short or garbled: the table cannot be opened."""


@dataclass(frozen=True)
class FileRef:
    path: Path
    size: int  # bytes as written; 0 when the version file does not record it


@dataclass(frozen=True)
class Fragment:
    id: int
    files: tuple[FileRef, ...]
    deletion_file: Path | None
    physical_rows: int  # rows written, deleted ones included
    deleted_rows: int

    @property
    def rows(self) -> int:
        return self.physical_rows - self.deleted_rows


@dataclass(frozen=True)
class IndexSegment:
    name: str
    folder: Path
    files: tuple[FileRef, ...]  # empty when the version file does not list them


@dataclass(frozen=True)
class TableManifest:
    version: int
    fragments: tuple[Fragment, ...]
    indexes: tuple[IndexSegment, ...]
    unsupported: str = ""  # why this reader cannot vouch for the table ("" when it can)


def manifest_version(name: str) -> int | None:
    """The version a file in `_versions/` holds (None for anything else)."""
    stem, dot, suffix = name.partition(".")
    if suffix != "manifest" or not dot or not stem.isdigit():
        return None
    return _U64_MAX - int(stem) if len(stem) == 20 else int(stem)


def latest_manifest(table: Path) -> Path:
    try:
        names = [p.name for p in (table / "_versions").iterdir()]
    except FileNotFoundError:
        raise ManifestError("no _versions folder") from None
    versions = {v: n for n in names if (v := manifest_version(n)) is not None}
    if not versions:
        raise ManifestError("no version file")
    return table / "_versions" / versions[max(versions)]


def read_manifest(table: Path) -> TableManifest:
    """The current version of the table in folder `table` (OSError: the disk failed)."""
    path = latest_manifest(table)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ManifestError(f"{path.name} vanished") from None
    try:
        return _decode(table, data)
    except (IndexError, struct.error, UnicodeDecodeError, ValueError) as exc:
        raise ManifestError(f"{path.name}: {exc}") from None


def _decode(table: Path, data: bytes) -> TableManifest:
    if len(data) < FOOTER_BYTES or not data.endswith(MAGIC):
        raise ManifestError("no Lance footer")
    start = struct.unpack_from("<q", data, len(data) - FOOTER_BYTES)[0]
    manifest = _fields(_message_at(data, start, end=len(data) - FOOTER_BYTES))
    flags = _int(manifest, 9)
    unsupported = ""
    if flags & ~_FOLLOWED_FLAGS:
        unsupported = f"reader feature flags {flags}"
    elif flags & _STABLE_ROW_IDS:
        unsupported = "stable row ids"
    fragments = tuple(_fragment(table, raw) for raw in _all(manifest, 2))
    if _all(manifest, 18):  # base paths: some files live under another folder
        unsupported = unsupported or "files outside the table folder"
    indexes: tuple[IndexSegment, ...] = ()
    if 6 in manifest:
        section = _fields(_message_at(data, _int(manifest, 6)))
        indexes = tuple(i for raw in _all(section, 1) if (i := _index(table, raw)) is not None)
    return TableManifest(_int(manifest, 3), fragments, indexes, unsupported)


def _fragment(table: Path, raw: bytes) -> Fragment:
    fields = _fields(raw)
    fragment_id = _int(fields, 1)
    files = []
    for raw_file in _all(fields, 2):
        data_file = _fields(raw_file)
        files.append(FileRef(table / "data" / _text(data_file, 1), _int(data_file, 6)))
    deletion, deleted = None, 0
    if 3 in fields:
        info = _fields(_all(fields, 3)[0])
        suffix = "bin" if _int(info, 1) == 1 else "arrow"
        deletion = (table / "_deletions"
                    / f"{fragment_id}-{_int(info, 2)}-{_int(info, 3)}.{suffix}")
        deleted = _int(info, 4)
    return Fragment(fragment_id, tuple(files), deletion, _int(fields, 4), deleted)


def _index(table: Path, raw: bytes) -> IndexSegment | None:
    fields = _fields(raw)
    name = _text(fields, 3)
    if name.startswith("__") or 1 not in fields:
        return None  # Lance's own system indexes keep their content in the version file
    raw_uuid = _all(_fields(_all(fields, 1)[0]), 1)
    if not raw_uuid or len(raw_uuid[0]) != 16:
        raise ManifestError(f"index {name!r} without a uuid")
    folder = table / "_indices" / str(uuid.UUID(bytes=raw_uuid[0]))
    files = tuple(FileRef(folder / _text(f, 1), _int(f, 2))
                  for f in map(_fields, _all(fields, 10)))
    return IndexSegment(name, folder, files)


# ---- protobuf wire format: only what these messages use ------------------------------------
def _message_at(data: bytes, position: int, end: int | None = None) -> bytes:
    """The u32-length-prefixed message at `position` (ending exactly at `end` if given)."""
    if not 0 <= position <= len(data) - 4:
        raise ManifestError("message position outside the file")
    length = struct.unpack_from("<I", data, position)[0]
    stop = position + 4 + length
    if stop > len(data) or (end is not None and stop != end):
        raise ManifestError("message length does not match the file")
    return data[position + 4:stop]


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
        shift += 7
        if shift > 63:
            raise ManifestError("varint too long")


def _fields(data: bytes) -> dict[int, list[int | bytes]]:
    """Field number -> its values in order (ints for scalars, bytes for length-delimited)."""
    out: dict[int, list[int | bytes]] = {}
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        value: int | bytes
        if wire == _VARINT:
            value, i = _varint(data, i)
        elif wire == _FIXED64:
            value, i = struct.unpack_from("<Q", data, i)[0], i + 8
        elif wire == _FIXED32:
            value, i = struct.unpack_from("<I", data, i)[0], i + 4
        elif wire == _BYTES:
            length, i = _varint(data, i)
            if i + length > len(data):
                raise ManifestError("field runs past its message")
            value, i = data[i:i + length], i + length
        else:
            raise ManifestError(f"wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def _int(fields: dict[int, list[int | bytes]], number: int) -> int:
    values = fields.get(number)
    if not values:
        return 0
    if not isinstance(values[-1], int):
        raise ManifestError(f"field {number} is not a number")
    return values[-1]


def _all(fields: dict[int, list[int | bytes]], number: int) -> list[bytes]:
    values = fields.get(number, [])
    if not all(isinstance(v, bytes) for v in values):
        raise ManifestError(f"field {number} is not a message")
    return [v for v in values if isinstance(v, bytes)]


def _text(fields: dict[int, list[int | bytes]], number: int) -> str:
    values = _all(fields, number)
    return values[-1].decode("utf-8") if values else ""
