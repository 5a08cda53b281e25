"""The embedder prepared at package time: slimmed, verified, found and opened in place with no
export on first use; rejected when damaged or made by another recipe; unused from source."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from desktop_app.errors import InvalidModelError
from desktop_app.modelprep import open_embedder
from desktop_app.modelprep import prepared as prep
from desktop_app.modelprep.onnx_export import onnx_model_id
from desktop_app.modelprep.word_table import (
    dequantize_uint4_groups,
    quantize_uint4_groups,
)
from desktop_app.retrieval.embedder import E5Embedder
from desktop_app.retrieval.onnx_embedder import MODEL_FILE, ONNX_MANIFEST, OnnxE5Embedder

pytestmark = pytest.mark.slow

PASSAGES = ["A devolução do produto deve ocorrer em até 30 dias corridos após a entrega.",
            "Customers may return a product within 30 days of delivery for a full refund.",
            "La política de privacidad se actualizó el 1 de enero de 2025."]


@pytest.fixture(scope="module")
def prepared_root(tmp_path_factory: pytest.TempPathFactory, e5_model_dir: Path) -> Path:
    """build/models as the spec makes it (the export reused from the session's models dir)."""
    out = tmp_path_factory.mktemp("prepared")
    prep.prepare(out, e5_model_dir.parent)
    return out


@pytest.fixture()
def bundle(prepared_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(prep.PREPARED_ENV, str(prepared_root))
    return prepared_root / "multilingual-e5-small-onnx-int8-split"


def test_the_slimmed_model_is_small_and_as_close_to_torch(bundle: Path) -> None:
    manifest = json.loads((bundle / ONNX_MANIFEST).read_text(encoding="utf-8"))
    # its own id: the 4-bit table moves vectors a little, an int8-split index asks for a reindex
    assert manifest["model_id"] == prep.prepared_model_id("int8-split") != onnx_model_id(
        "int8-split")
    assert (bundle / MODEL_FILE).stat().st_size < 100e6 < manifest["prepared"]["unslimmed_mb"] * 1e6
    probe = manifest["prepared"]["probe_cosine"]
    assert probe["min"] >= probe["floor"] == 0.995
    assert abs(probe["min"] - probe["unslimmed_min"]) < 0.001


def test_open_embedder_uses_it_in_place_without_exporting(
        bundle: Path, tmp_path: Path, torch_embedder: E5Embedder) -> None:
    models = tmp_path / "models"
    models.mkdir()
    embedder = open_embedder(models, backend="onnx", precision="int8-split")
    assert isinstance(embedder, OnnxE5Embedder) and embedder.model_dir == bundle
    assert embedder.id == prep.prepared_model_id("int8-split")
    cos = np.sum(embedder.embed_passages(PASSAGES) * torch_embedder.embed_passages(PASSAGES),
                 axis=1)
    assert cos.min() >= 0.995
    assert list(models.iterdir()) == []  # nothing converted, nothing exported


def test_the_graph_unpacks_only_the_tokens_rows_and_padding_changes_nothing(
        bundle: Path) -> None:
    """No fp32 word table and no fused embedding node in the file; a passage embedded in a
    padded batch (the mask index the unfused graph computes) matches it embedded alone, as
    closely as the int8 activations allow (their dynamic scale depends on the batch: the
    fused model of version 1 gave 0.9979-0.9987 on these texts too)."""
    import onnx

    model = onnx.load(str(bundle / MODEL_FILE))
    assert not [n for n in model.graph.node if n.op_type == "EmbedLayerNormalization"]
    float_tables = [i.name for i in model.graph.initializer
                    if i.data_type == onnx.TensorProto.FLOAT and len(i.dims) == 2
                    and i.dims[0] > 100_000]
    assert float_tables == []
    embedder = OnnxE5Embedder(bundle)
    together = embedder.embed_passages(PASSAGES + ["curto"])
    alone = np.vstack([embedder.embed_passages([text]) for text in PASSAGES + ["curto"]])
    assert np.sum(together * alone, axis=1).min() > 0.996
    twice = embedder.embed_passages([PASSAGES[0], PASSAGES[0]])  # no padding: the same vector
    assert float(np.sum(twice[1] * alone[0])) > 0.99999


def test_4bit_groups_round_trip_within_half_a_step() -> None:
    rng = np.random.default_rng(7)
    weights = rng.normal(0, 0.05, size=(50, 384)).astype(np.float32)
    weights[3] = 0.25  # a constant row: scale 0 is stored as 1, every code 0
    packed, scale, low = quantize_uint4_groups(weights, 32)
    assert packed.shape == (50, 192) and packed.dtype == np.uint8
    assert scale.shape == low.shape == (50, 12, 1) and scale.dtype == np.float16
    restored = dequantize_uint4_groups(packed, scale, low)
    step = np.repeat(scale.astype(np.float32)[:, :, 0], 32, axis=1)
    assert np.all(np.abs(restored - weights) <= step * 0.5 + 1e-3)
    assert np.allclose(restored[3], 0.25, atol=1e-3)


def test_without_torch_any_embedder_setting_falls_back_to_it(
        bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prep, "torch_available", lambda: False)
    for backend, precision in (("torch", "fp32"), ("onnx", "fp32")):
        embedder = open_embedder(tmp_path, backend=backend, precision=precision)
        assert isinstance(embedder, OnnxE5Embedder) and embedder.model_dir == bundle


def test_with_torch_other_settings_still_prepare_their_own(
        bundle: Path, e5_model_dir: Path) -> None:
    embedder = open_embedder(e5_model_dir.parent, backend="torch", precision="fp32")
    assert isinstance(embedder, E5Embedder)


def test_verify_passes_then_catches_a_damaged_file(bundle: Path, tmp_path: Path) -> None:
    checked = prep.verify_prepared(bundle)
    assert checked["sha256"] == "ok" and checked["probe_min"] >= checked["floor"]
    damaged = tmp_path / bundle.name
    shutil.copytree(bundle, damaged)
    with (damaged / MODEL_FILE).open("r+b") as handle:  # same size, one byte changed
        handle.seek(1_000_000)
        byte = handle.read(1)
        handle.seek(1_000_000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(InvalidModelError, match="damaged"):
        prep.verify_prepared(damaged)


def test_another_recipe_or_a_truncated_file_is_not_taken(
        bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert prep.find_prepared("int8-split") == bundle
    assert prep.find_prepared("fp32") is None  # not prepared
    root = tmp_path / "root"
    copy = root / bundle.name
    shutil.copytree(bundle, copy)
    monkeypatch.setenv(prep.PREPARED_ENV, str(root))
    assert prep.find_prepared("int8-split") == copy
    manifest = json.loads((copy / ONNX_MANIFEST).read_text(encoding="utf-8"))
    manifest["fingerprint"]["export_version"] = -1
    (copy / ONNX_MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert prep.find_prepared("int8-split") is None
    shutil.copy2(bundle / ONNX_MANIFEST, copy / ONNX_MANIFEST)
    with (copy / MODEL_FILE).open("r+b") as handle:
        handle.truncate(1000)
    assert prep.find_prepared("int8-split") is None


def test_from_source_nothing_prepared_is_looked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(prep.PREPARED_ENV, raising=False)
    assert prep.prepared_models_dir() is None
    assert prep.find_prepared("int8-split") is None
