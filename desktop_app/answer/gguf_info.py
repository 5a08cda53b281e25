"""Read what a GGUF file is without loading it: header, metadata and tensor table.

Used to validate a model before the user can pick it (magic, version, truncation)
and to show its architecture, size, quantization, context length and whether it
carries its own chat template, and how many parameters it has (the sum of the
tensor table's element counts: exact, and what the answer-mode policy uses to
decide whether a model can write answers). Parses the header directly (only a few KB to a few
MB are read, the weights never are), so a 5 GB file is checked in milliseconds.

Why not `gguf.GGUFReader` (installed: its quantization tables are used below)? It maps the
whole file and builds numpy views of every field, the 49k-entry vocabulary included. On
the bundled 94 MB SmolLM2, measured side by side in fresh processes (bench/parsers.py →
bench/results/parsers.json, 3 interleaved rounds, load ~10 on 2 cores): this reader 383 ms
and +5 MB of peak memory, GGUFReader 6,450 ms and +159 MB (17x slower, 34x the memory),
same parameter count, context length and template. The check runs each time Settings
lists models, so the hand-written reader stays; the format is small and pinned by tests.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from desktop_app.errors import InvalidModelError, MissingModelError

GGUF_MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32
_MAX_STRING = 64 * 1024 * 1024  # a chat template or key is never this long: corrupt header
_MAX_COUNT = 50_000_000

# GGUF metadata value types → struct format (fixed-size ones)
_SCALAR_FORMATS: dict[int, str] = {
    0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d",
}
_STRING, _ARRAY = 8, 9
# keys whose arrays we keep; other arrays (the tokenizer's vocabulary) are skipped
_KEEP_ARRAYS = {"general.languages"}


class _Truncated(Exception):
    pass


@dataclass(frozen=True)
class GGUFInfo:
    """What the model registry shows for a GGUF file."""

    path: Path
    size_bytes: int
    version: int
    architecture: str
    name: str
    quantization: str  # e.g. "Q4_K_M", from general.file_type (or the dominant tensor type)
    context_length: int | None
    chat_template: str | None
    tensor_count: int
    block_count: int | None = None
    embedding_length: int | None = None
    head_count: int | None = None
    head_count_kv: int | None = None
    parameter_count: int | None = None  # weights in the tensor table (None: empty table)

    @property
    def has_chat_template(self) -> bool:
        return bool(self.chat_template and self.chat_template.strip())

    def estimated_memory_bytes(self, n_ctx: int) -> int:
        """Weights (mapped) plus an f16 KV cache for `n_ctx` tokens; an estimate, not a promise."""
        kv = 0
        if self.block_count and self.embedding_length and self.head_count:
            kv_heads = self.head_count_kv or self.head_count
            kv_dim = self.embedding_length // self.head_count * kv_heads
            kv = 2 * self.block_count * n_ctx * kv_dim * 2
        return int(self.size_bytes * 1.05) + kv + 64 * 1024 * 1024

    def describe(self) -> str:
        ctx = f"ctx {self.context_length}" if self.context_length else "ctx ?"
        template = "chat template: yes" if self.has_chat_template else "chat template: NONE"
        params = f"{format_parameters(self.parameter_count)} params · " if self.parameter_count else ""
        return (f"{self.architecture} · {params}{self.quantization} · "
                f"{format_size(self.size_bytes)} · {ctx} · {template}")


def format_size(n: int) -> str:
    if n >= 1024**3:
        return f"{n / 1024**3:.1f} GB"
    return f"{n / 1024**2:.0f} MB"


def format_parameters(n: int) -> str:
    """135M, 1.5B, 7.6B: how model cards write sizes."""
    if n >= 1_000_000_000:
        return f"{n / 1e9:.1f}B"
    if n >= 1_000_000:
        return f"{n / 1e6:.0f}M"
    return f"{n / 1e3:.0f}K" if n >= 1_000 else str(n)


def read_gguf_info(path: str | os.PathLike[str]) -> GGUFInfo:
    """Validate and describe a GGUF file; raise a user-facing error when it is not usable."""
    file = Path(path).expanduser()
    if not file.exists():
        raise MissingModelError(
            f"Model file not found: {file}. Check the path, or pick another model with "
            "`desktop-app models list` / `models use NAME`.")
    if not file.is_file():
        raise InvalidModelError(f"{file} is a folder, not a GGUF model file.")
    try:
        size = file.stat().st_size
        with file.open("rb") as fh:
            return _parse(fh, file, size)
    except PermissionError as exc:
        raise InvalidModelError(
            f"Cannot read the model file {file} (permission denied). "
            "Copy it to a folder you own or fix its permissions.", detail=str(exc)) from exc
    except _Truncated as exc:
        raise InvalidModelError(
            f"The model file {file.name} is incomplete (truncated or still copying): {exc}. "
            "Copy or download it again.", detail=str(exc)) from exc
    except OSError as exc:
        raise InvalidModelError(f"Cannot read the model file {file}: {exc.strerror or exc}.",
                                detail=str(exc)) from exc


def _parse(fh: BinaryIO, file: Path, size: int) -> GGUFInfo:
    reader = _Reader(fh, size)
    magic = fh.read(4)
    if magic != GGUF_MAGIC:
        raise InvalidModelError(
            f"{file.name} is not a GGUF model (the file does not start with 'GGUF'). "
            "Acervo runs llama.cpp GGUF files, e.g. a Qwen2.5-3B-Instruct Q4_K_M .gguf; "
            "convert or download the model in GGUF format.")
    version = reader.scalar("<I")
    if version not in (2, 3):
        raise InvalidModelError(
            f"{file.name} uses GGUF version {version}, which this llama.cpp cannot load. "
            "Use a file converted with a recent llama.cpp (GGUF v3).")
    tensor_count = reader.scalar("<Q")
    kv_count = reader.scalar("<Q")
    if tensor_count > _MAX_COUNT or kv_count > _MAX_COUNT:
        raise InvalidModelError(f"{file.name} has a corrupt GGUF header.")
    meta: dict[str, Any] = {}
    for _ in range(kv_count):
        key = reader.string()
        vtype = reader.scalar("<I")
        meta[key] = reader.value(vtype, keep=key in _KEEP_ARRAYS or not key.startswith("tokenizer.ggml."))
    tensor_types: list[int] = []
    data_needed = 0
    parameters = 0
    for _ in range(tensor_count):
        reader.string()  # tensor name
        n_dims = reader.scalar("<I")
        if n_dims > 8:
            raise InvalidModelError(f"{file.name} has a corrupt tensor table.")
        elements = 1
        for _d in range(n_dims):
            elements *= reader.scalar("<Q")
        ggml_type = reader.scalar("<I")
        offset = reader.scalar("<Q")
        tensor_types.append(ggml_type)
        parameters += elements
        data_needed = max(data_needed, offset + _tensor_bytes(ggml_type, elements))
    alignment = int(meta.get("general.alignment", DEFAULT_ALIGNMENT) or DEFAULT_ALIGNMENT)
    data_start = -(-fh.tell() // alignment) * alignment
    if data_start + data_needed > size:
        raise _Truncated(f"{format_size(size)} on disk, {format_size(data_start + data_needed)} expected")
    arch = str(meta.get("general.architecture", "unknown"))

    def arch_int(suffix: str) -> int | None:
        value = meta.get(f"{arch}.{suffix}")
        return int(value) if isinstance(value, int | float) else None

    template = meta.get("tokenizer.chat_template")
    return GGUFInfo(
        path=file, size_bytes=size, version=version, architecture=arch,
        name=str(meta.get("general.name", file.stem)),
        quantization=_quantization(meta.get("general.file_type"), tensor_types),
        context_length=arch_int("context_length"),
        chat_template=template if isinstance(template, str) else None,
        tensor_count=tensor_count, block_count=arch_int("block_count"),
        embedding_length=arch_int("embedding_length"), head_count=arch_int("attention.head_count"),
        head_count_kv=arch_int("attention.head_count_kv"), parameter_count=parameters or None,
    )


class _Reader:
    """Bounds-checked little-endian reads: running past the end means a truncated file."""

    def __init__(self, fh: BinaryIO, size: int) -> None:
        self.fh = fh
        self.size = size

    def read(self, n: int) -> bytes:
        data = self.fh.read(n)
        if len(data) != n:
            raise _Truncated("the header ends early")
        return data

    def scalar(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.read(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        length = self.scalar("<Q")
        if length > _MAX_STRING or self.fh.tell() + length > self.size:
            raise _Truncated("a metadata string runs past the end of the file")
        return self.read(length).decode("utf-8", errors="replace")

    def skip(self, n: int) -> None:
        if self.fh.tell() + n > self.size:
            raise _Truncated("metadata runs past the end of the file")
        self.fh.seek(n, os.SEEK_CUR)

    def value(self, vtype: int, *, keep: bool) -> Any:
        if vtype in _SCALAR_FORMATS:
            return self.scalar(_SCALAR_FORMATS[vtype])
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            item_type = self.scalar("<I")
            count = self.scalar("<Q")
            if count > _MAX_COUNT:
                raise InvalidModelError("corrupt GGUF metadata (array too long)")
            if item_type in _SCALAR_FORMATS and not keep:
                self.skip(count * struct.calcsize(_SCALAR_FORMATS[item_type]))
                return None
            items = [self.value(item_type, keep=keep) for _ in range(count)]
            return items if keep else None
        raise InvalidModelError(f"corrupt GGUF metadata (unknown value type {vtype})")


def _tensor_bytes(ggml_type: int, elements: int) -> int:
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType

    try:
        block, type_size = GGML_QUANT_SIZES[GGMLQuantizationType(ggml_type)]
    except (ValueError, KeyError):
        return 0  # a type newer than our table: cannot check its size, do not reject the file
    return elements // block * type_size


def _quantization(file_type: Any, tensor_types: list[int]) -> str:
    from gguf import GGMLQuantizationType, LlamaFileType

    if isinstance(file_type, int):
        try:
            return LlamaFileType(file_type).name.removeprefix("MOSTLY_").removeprefix("ALL_")
        except ValueError:
            return f"file_type {file_type}"
    if tensor_types:
        dominant = max(set(tensor_types), key=tensor_types.count)
        try:
            return GGMLQuantizationType(dominant).name
        except ValueError:
            return f"type {dominant}"
    return "unknown"
