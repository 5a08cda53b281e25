"""multilingual-e5-small on onnxruntime: the default embedder (no torch at run time).

The folder is prepared once by `modelprep.onnx_export.ensure_onnx_model` (model.onnx,
tokenizer.json, config.json, manifest). Here: tokenize with `tokenizers`, group texts of
similar token length (length-bucketed batches under a token budget, so little work goes
into padding), run the encoder, mean-pool over the attention mask and L2-normalize — exactly
what the sentence-transformers modules (Transformer -> mean pooling -> Normalize) do on the
torch path.

Small batches: the budget is `MAX_BATCH_TOKENS` padded tokens, so a passage-sized text
(~230 tokens) runs alone and only short texts share a run. The largest activation, the FFN's
intermediate (tokens x 1536 fp32, ~6 KB a token), then stays within a core's L2 cache (256
tokens ~1.5 MB) instead of streaming from memory, and padding shrinks. Side by side on 2
cores, int8-split used 1.29x less CPU per BNCC passage (and ran at 1.73x the rate, on a loaded
machine) than with the earlier budget of 4096 tokens / 64 texts, with vectors as close to
the torch path's (`bench/embed.py --batch-tokens 4096`, docs/measurements.md, "Batch size").

Threads: one onnxruntime session with `threads` intra-op threads that sleep when idle (no
spinning, which would steal the core the window needs); the window passes cores − 1. A query
uses the same session and waits for at most one batch of an ongoing ingest.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.retrieval.embedder import PASSAGE_PROMPT, QUERY_PROMPT, E5EmbedderBase, _unusable

ONNX_MANIFEST = "acervo-onnx.json"  # written by modelprep/onnx_export.py beside the model
MODEL_FILE = "model.onnx"

_PROMPTS = {"query": QUERY_PROMPT, "passage": PASSAGE_PROMPT}
MAX_BATCH_TOKENS = 256  # padded tokens per run (a longer text runs alone); see above


class OnnxE5Embedder(E5EmbedderBase):
    """The ONNX path (fp32 or dynamic int8); its id says which (see `onnx_model_id`)."""

    backend = "onnx"
    required_files = ("config.json", "tokenizer.json", MODEL_FILE)

    def __init__(self, model_dir: Path, *, threads: int = 2, batch_size: int = 64,
                 max_batch_tokens: int = MAX_BATCH_TOKENS, model_id: str | None = None) -> None:
        super().__init__(model_dir, batch_size=batch_size, batch_threads=threads,
                         query_threads=threads)
        manifest = self._read_manifest()
        self.id = model_id or str(manifest.get("model_id") or "")
        if not self.id:
            raise _unusable(self.model_dir, f"{ONNX_MANIFEST} names no model id")
        self.precision = str(manifest.get("precision") or self.id.rsplit("-", 1)[-1])
        self.max_seq_length = int(manifest.get("max_seq_length") or 512)
        self.max_batch_tokens = max(1, int(max_batch_tokens))
        self.threads = max(1, int(threads))

    def __repr__(self) -> str:
        return (f"OnnxE5Embedder({str(self.model_dir)!r}, id={self.id!r}, "
                f"threads={self.threads}, loaded={self.is_loaded})")

    def _read_manifest(self) -> dict[str, Any]:
        path = self.model_dir / ONNX_MANIFEST
        if not path.is_file():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise _unusable(self.model_dir, f"unreadable {ONNX_MANIFEST}: {exc}") from exc
        return data if isinstance(data, dict) else {}

    # -- batching --------------------------------------------------------------------------

    def _ids(self, texts: Sequence[str], prompt_name: str) -> list[list[int]]:
        """Token ids per text, truncated like the torch path (<s> … </s>, at most 512)."""
        prompt = _PROMPTS[prompt_name]
        encoded = self._loaded_tokenizer().encode_batch([prompt + t for t in texts])
        limit = self.max_seq_length
        out = []
        for enc in encoded:
            ids = list(enc.ids)
            if len(ids) > limit:
                ids = ids[: limit - 1] + ids[-1:]  # keep the closing </s>
            out.append(ids)
        return out

    def batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """Row indices grouped by similar length: at most `batch_size` rows and
        `max_batch_tokens` padded tokens per batch (a longer text alone), shortest first."""
        order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
        groups: list[list[int]] = []
        current: list[int] = []
        for i in order:
            longest = max(lengths[i], 1)  # sorted: the newcomer is the longest so far
            if current and (len(current) >= self.batch_size
                            or (len(current) + 1) * longest > self.max_batch_tokens):
                groups.append(current)
                current = []
            current.append(i)
        if current:
            groups.append(current)
        return groups

    def _embed_many(self, items: list[str], prompt_name: str) -> np.ndarray:
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        if not items:
            return out
        ids = self._ids(items, prompt_name)
        for rows in self.batches([len(x) for x in ids]):
            out[rows] = self._run([ids[i] for i in rows])
        return out

    def _encode(self, texts: list[str], prompt_name: str, threads: int) -> np.ndarray:
        return self._run(self._ids(texts, prompt_name))

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        session = self._loaded_model()
        width = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)  # pad id 1 is masked out anyway
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, seq in enumerate(ids):
            input_ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        with self._encode_lock:
            hidden = session.run(None, {"input_ids": input_ids, "attention_mask": mask})[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return np.ascontiguousarray(pooled / norms, dtype=np.float32)

    # -- loading ---------------------------------------------------------------------------

    def _load_model(self) -> Any:
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # before the library loads
        import onnxruntime as ort

        ort.disable_telemetry_events()
        self._read_dim()  # the folder may have gone away since construction
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Idle worker threads sleep instead of spinning: a busy-waiting pool takes the core
        # the window (or a query, or llama.cpp) needs.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(str(self.model_dir / MODEL_FILE), options,
                                           providers=["CPUExecutionProvider"])
        except Exception as exc:  # a truncated or foreign file: the folder is unusable
            raise _unusable(self.model_dir, f"{type(exc).__name__}: {exc}") from exc
        width = session.get_outputs()[0].shape[-1]
        if isinstance(width, int) and width != self.dim:
            raise _unusable(self.model_dir, f"model gives {width} dims, config says {self.dim}")
        return session
