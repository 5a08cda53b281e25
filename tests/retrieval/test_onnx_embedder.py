"""The ONNX embedder: same vectors as the torch path (fp32), close ones (int8, and the default
int8-split: fused graph, outlier channels fp32), a cached and fingerprinted export,
length-bucketed batches, no torch at run time, and the id change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from desktop_app.config.settings import Settings
from desktop_app.errors import MissingModelError
from desktop_app.modelprep import open_embedder
from desktop_app.modelprep.onnx_export import (
    RECIPES,
    calibration_digest,
    ensure_onnx_model,
    fingerprint,
    is_current,
    onnx_folder,
    onnx_model_id,
)
from desktop_app.retrieval.embedder import E5_MODEL_ID, E5Embedder
from desktop_app.retrieval.onnx_embedder import MAX_BATCH_TOKENS, ONNX_MANIFEST, OnnxE5Embedder

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]

PASSAGES = [
    "A devolução do produto deve ocorrer em até 30 (trinta) dias corridos após a entrega.",
    "Os funcionários têm direito a 30 dias de férias remuneradas a cada período de 12 meses.",
    "Customers may return a product within 30 days of delivery for a full refund.",
    "La política de privacidad se actualizó el 1 de enero de 2025.",
    "Olá",
    "contrato de prestação de serviços " * 150,  # past 512 tokens: truncated on both paths
    "EXIGÊNCIAS TÉCNICAS: ver item 4.2.1 (b) e anexo III; CPF 123.456.789-09.",
    "",
]
QUERIES = ["Qual o prazo para devolver uma compra?", "How many vacation days do I get?"]


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1)


def test_fp32_gives_the_torch_vectors_and_keeps_the_torch_id(
        fp32_embedder: OnnxE5Embedder, torch_embedder: E5Embedder) -> None:
    assert fp32_embedder.id == E5_MODEL_ID == torch_embedder.id  # same vectors, no reindex
    assert cosines(fp32_embedder.embed_passages(PASSAGES),
                   torch_embedder.embed_passages(PASSAGES)).min() >= 0.9999
    assert cosines(fp32_embedder.embed_queries(QUERIES),
                   torch_embedder.embed_queries(QUERIES)).min() >= 0.9999
    np.testing.assert_allclose(fp32_embedder.embed_query(QUERIES[0]),
                               torch_embedder.embed_query(QUERIES[0]), atol=1e-4)


def test_int8_is_close_to_torch_and_has_its_own_id(int8_embedder: OnnxE5Embedder,
                                                   torch_embedder: E5Embedder) -> None:
    assert int8_embedder.backend == "onnx" and int8_embedder.precision == "int8"
    assert int8_embedder.id == onnx_model_id("int8") != E5_MODEL_ID
    sims = cosines(int8_embedder.embed_passages(PASSAGES),
                   torch_embedder.embed_passages(PASSAGES))
    assert sims.min() >= 0.98 and sims.mean() >= 0.99


def test_int8_ranks_like_torch(int8_embedder: OnnxE5Embedder) -> None:
    vectors = int8_embedder.embed_passages(PASSAGES[:4])
    assert int(np.argmax(vectors @ int8_embedder.embed_query(QUERIES[0]))) in (0, 2)  # pt/en
    assert int(np.argmax(vectors @ int8_embedder.embed_query(QUERIES[1]))) == 1


def test_int8_mixed_keeps_the_ffn_down_projections_fp32_and_drifts_less(
        mixed_embedder: OnnxE5Embedder, int8_embedder: OnnxE5Embedder,
        torch_embedder: E5Embedder) -> None:
    import onnx

    assert mixed_embedder.precision == "int8-mixed"
    assert len({mixed_embedder.id, int8_embedder.id, E5_MODEL_ID}) == 3  # never mixed vectors
    config = json.loads((mixed_embedder.model_dir / "config.json").read_text())
    graph = onnx.load(str(mixed_embedder.model_dir / "model.onnx")).graph
    inits = {init.name: init for init in graph.initializer}
    float_matmuls = [n for n in graph.node if n.op_type == "MatMul" and n.input[1] in inits]
    assert len(float_matmuls) == config["num_hidden_layers"]  # one per layer: the down-projections
    assert all(list(inits[n.input[1]].dims) == [config["intermediate_size"], config["hidden_size"]]
               for n in float_matmuls)
    assert sum(n.op_type == "DynamicQuantizeLinear" for n in graph.node) > 0  # the rest is int8
    words = next(i for i in graph.initializer if list(i.dims)[:1] == [config["vocab_size"]])
    assert words.data_type == onnx.TensorProto.FLOAT  # the embedding table stays fp32

    reference = torch_embedder.embed_passages(PASSAGES)
    mixed = cosines(mixed_embedder.embed_passages(PASSAGES), reference)
    full = cosines(int8_embedder.embed_passages(PASSAGES), reference)
    assert mixed.min() >= 0.99 and mixed.mean() > full.mean()


def test_int8_split_is_the_default_fused_with_outliers_fp32_and_drifts_least(
        embedder: OnnxE5Embedder, mixed_embedder: OnnxE5Embedder,
        int8_embedder: OnnxE5Embedder, torch_embedder: E5Embedder) -> None:
    import onnx

    assert Settings().embedder_precision == "int8-split" == embedder.precision
    assert embedder.backend == "onnx" and embedder.id == onnx_model_id("int8-split")
    assert len({embedder.id, mixed_embedder.id, int8_embedder.id, E5_MODEL_ID}) == 4
    config = json.loads((embedder.model_dir / "config.json").read_text())
    layers = config["num_hidden_layers"]
    graph = onnx.load(str(embedder.model_dir / "model.onnx")).graph
    ops = [n.op_type for n in graph.node]
    # fused by onnxruntime's transformer optimizer, then quantized (Q/K/V in one QAttention)
    assert ops.count("QAttention") == layers and ops.count("SkipLayerNormalization") == 2 * layers
    assert ops.count("BiasGelu") == layers and "EmbedLayerNormalization" in ops
    inits = {init.name: init for init in graph.initializer}
    float_matmuls = [n for n in graph.node if n.op_type == "MatMul" and n.input[1] in inits]
    # only the outlier channels' small products stay fp32: k x hidden weights, k << intermediate
    assert float_matmuls and all(n.name.endswith("_outliers") for n in float_matmuls)
    assert all(list(inits[n.input[1]].dims)[1] == config["hidden_size"]
               and list(inits[n.input[1]].dims)[0] <= 16 for n in float_matmuls)
    assert ops.count("MatMulInteger") == 3 * layers  # attention out, FFN up, FFN down

    manifest = json.loads((embedder.model_dir / ONNX_MANIFEST).read_text())
    assert manifest["build"]["fused_probe_cosine"]["min"] >= 0.9999  # fusion changes nothing
    assert manifest["probe_cosine"]["min"] >= RECIPES["int8-split"]["min_cosine"] == 0.995
    split = manifest["build"]["split_outliers"]
    assert len(split["channels_per_layer"]) == layers and sum(split["channels_per_layer"]) > 0
    assert manifest["fingerprint"]["calibration"] == calibration_digest()

    reference = torch_embedder.embed_passages(PASSAGES)
    ours = cosines(embedder.embed_passages(PASSAGES), reference)
    full = cosines(int8_embedder.embed_passages(PASSAGES), reference)
    assert ours.min() >= 0.995 and ours.mean() > full.mean()
    queries = cosines(embedder.embed_queries(QUERIES), torch_embedder.embed_queries(QUERIES))
    assert queries.min() >= 0.995


def test_int8_split_ranks_like_torch(embedder: OnnxE5Embedder) -> None:
    vectors = embedder.embed_passages(PASSAGES[:4])
    assert int(np.argmax(vectors @ embedder.embed_query(QUERIES[0]))) in (0, 2)  # pt/en
    assert int(np.argmax(vectors @ embedder.embed_query(QUERIES[1]))) == 1


def test_the_calibration_texts_are_part_of_the_int8_split_fingerprint(
        embedder: OnnxE5Embedder, e5_model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.modelprep import onnx_export

    wanted = fingerprint(e5_model_dir, "int8-split")
    assert is_current(embedder.model_dir, wanted)
    assert "calibration" not in fingerprint(e5_model_dir, "int8")  # only where it calibrates
    monkeypatch.setattr(onnx_export, "PROBE_TEXTS", onnx_export.PROBE_TEXTS[:-1])
    assert not is_current(embedder.model_dir, fingerprint(e5_model_dir, "int8-split"))
    other_factor = {**wanted, "quantization": {**wanted["quantization"], "split_outliers": {
        **wanted["quantization"]["split_outliers"], "factor": 8.0}}}
    assert not is_current(embedder.model_dir, other_factor)  # another recipe: build again


def test_batches_are_bucketed_by_length_and_keep_input_order(
        fp32_embedder: OnnxE5Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    lengths = [300, 5, 120, 8, 500, 6, 118, 301]
    monkeypatch.setattr(fp32_embedder, "batch_size", 3)
    monkeypatch.setattr(fp32_embedder, "max_batch_tokens", 700)
    groups = fp32_embedder.batches(lengths)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    for group in groups:
        assert len(group) <= 3 and len(group) * max(lengths[i] for i in group) <= 700
    flat = [lengths[i] for g in groups for i in g]
    assert flat == sorted(lengths)  # shortest first: neighbours have similar lengths

    one_by_one = np.stack([fp32_embedder.embed_passages([t])[0] for t in PASSAGES])
    assert cosines(fp32_embedder.embed_passages(PASSAGES), one_by_one).min() > 0.9999


def test_the_default_budget_runs_a_passage_alone_and_groups_short_texts(
        embedder: OnnxE5Embedder, torch_embedder: E5Embedder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Small batches (a passage's activations stay in cache): a passage-sized text runs alone,
    short texts share a run, and the vectors, in input order, are as close to the torch
    path's as with big batches (int8 activations get one scale per run, so batch neighbours
    move a vector by ~0.001-0.004 either way: measured mean cosine 0.99875 vs 0.99878)."""
    assert embedder.max_batch_tokens == MAX_BATCH_TOKENS <= 512
    assert embedder.batches([230, 240, 20, 25, 30, 600]) == [[2, 3, 4], [0], [1], [5]]
    passages = [*PASSAGES, " ".join(PASSAGES) * 2, *PASSAGES]  # short runs and a long text
    reference = torch_embedder.embed_passages(passages)
    ours = cosines(embedder.embed_passages(passages), reference)
    monkeypatch.setattr(embedder, "max_batch_tokens", 4096)
    big = cosines(embedder.embed_passages(passages), reference)
    assert ours.min() >= 0.995 and ours.mean() >= big.mean() - 5e-4


def test_export_is_cached_and_a_changed_fingerprint_is_stale(
        int8_embedder: OnnxE5Embedder, e5_model_dir: Path) -> None:
    models = e5_model_dir.parent
    folder = onnx_folder(models, "int8")
    manifest_before = (folder / ONNX_MANIFEST).read_text()
    assert ensure_onnx_model(models, precision="int8", e5_dir=e5_model_dir) == folder
    assert (folder / ONNX_MANIFEST).read_text() == manifest_before  # not exported again

    manifest = json.loads(manifest_before)
    assert manifest["probe_cosine"]["min"] >= 0.98
    wanted = fingerprint(e5_model_dir, "int8")
    assert manifest["fingerprint"] == wanted and is_current(folder, wanted)
    assert wanted["weights_sha256"] and wanted["packages"]["onnxruntime"]
    newer_torch = {**wanted, "packages": {**wanted["packages"], "torch": "99.0"}}
    assert not is_current(folder, newer_torch)  # another exporter: export again
    other_weights = {**wanted, "weights_sha256": "0" * 64}
    assert not is_current(folder, other_weights)
    # without torch the model cannot be re-exported: same weights and recipe will do
    no_torch = {**wanted, "packages": {**wanted["packages"], "torch": None}}
    assert is_current(folder, no_torch)
    assert not is_current(folder, {**no_torch, "weights_sha256": "0" * 64})


def test_a_damaged_model_file_is_a_missing_model_error(embedder: OnnxE5Embedder,
                                                       tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for item in embedder.model_dir.iterdir():
        if item.name != "model.onnx":
            (damaged / item.name).symlink_to(item)
    (damaged / "model.onnx").write_bytes(b"\x08\x07not an onnx graph")
    broken = OnnxE5Embedder(damaged)

    with pytest.raises(MissingModelError) as caught:
        broken.embed_query("olá")
    assert str(damaged) in caught.value.user_message


def test_an_unknown_precision_falls_back_to_the_torch_path(e5_model_dir: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    fallback = open_embedder(e5_model_dir.parent, backend="onnx", precision="int4")
    assert isinstance(fallback, E5Embedder) and fallback.id == E5_MODEL_ID
    assert "using the torch path" in caplog.text


@pytest.mark.slow
def test_the_running_app_embeds_and_searches_without_torch(embedder: OnnxE5Embedder,
                                                           tmp_path: Path) -> None:
    """Import-time check: once the ONNX model exists, neither the embedder nor presidio/spaCy
    (log sanitizing, PII) bring torch, transformers or sentence-transformers into the process;
    and onnxruntime writes no telemetry id under the home folder."""
    home, user_home = tmp_path / "acervo", tmp_path / "user"
    models = home / "data" / "models"
    models.mkdir(parents=True)
    for folder in (embedder.model_dir, embedder.model_dir.parent / "multilingual-e5-small"):
        (models / folder.name).symlink_to(folder)
    script = (
        "import sys\n"
        "from desktop_app.app import build_app\n"
        "app = build_app()\n"
        "app.start_logging()\n"
        "import logging; logging.getLogger('t').warning('CPF 123.456.789-09')\n"
        "app.embedder.embed_passages(['um texto', 'outro texto maior'])\n"
        "app.searcher.search('direitos do titular')\n"
        "from desktop_app.privacy.analyzer import PiiAnalyzer\n"
        "print(PiiAnalyzer.offline().find('meu CPF é 123.456.789-09')[0].entity)\n"
        "print(type(app.embedder).__name__, app.embedder.id)\n"
        "print(sorted({'torch', 'transformers', 'sentence_transformers'} & set(sys.modules)))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "ACERVO_HOME": str(home), "HOME": str(user_home)}
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=300)

    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.strip().splitlines()
    assert lines[-3] == "CPF"
    assert lines[-2] == f"OnnxE5Embedder {embedder.id}"
    assert lines[-1] == "[]"
    assert not (user_home / ".cache" / "Microsoft").exists()
