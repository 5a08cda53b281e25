"""The word-embedding table of the prepared e5 model as 4-bit groups, unpacked per token.

multilingual-e5-small's table is 250,037 tokens x 384 columns: 384 MB in fp32, 94% of the
exported model (the encoder is int8 already). `slim_word_embeddings` (package time, needs
`onnx`) stores it as 4-bit codes with an fp16 scale and low per group of 16 columns (48 MB of
codes + 24 MB of scales and lows) and replaces the fused `EmbedLayerNormalization` node, which
wants the whole fp32 table as an input, by its parts: Gather the packed rows of the batch's
tokens, unpack and scale just those, add the position and token-type rows,
LayerNormalization; the attention's mask index is the attention mask's row sums, as the fused
node computed it. The running app never builds the fp32 table (onnxruntime would otherwise
hold it: ~300 MB of memory, ~1 s to fold at each load). Standard ONNX ops (opset 17) only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import InvalidModelError

WORD_EMBEDDINGS = "bert.embeddings.word_embeddings.weight"
WORD_GROUP = 16  # columns that share one fp16 scale and low (384 = 24 groups)


def quantize_uint4_groups(weights: np.ndarray, group: int = WORD_GROUP
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of `weights` as 4-bit codes, per group of `group` columns: value = low + code x
    scale (fp16 low and scale, codes 0..15). Packed two codes a byte: column j in the low
    nibble, column j + dim/2 in the high one. Returns (packed, scale, low)."""
    rows, dim = weights.shape
    groups = weights.astype(np.float32).reshape(rows, dim // group, group)
    low = groups.min(axis=2, keepdims=True).astype(np.float16)
    scale = ((groups.max(axis=2, keepdims=True) - low.astype(np.float32)) / 15).astype(np.float16)
    scale[scale == 0] = 1  # a constant group: every code 0
    codes = np.clip(np.round((groups - low.astype(np.float32)) / scale.astype(np.float32)),
                    0, 15).astype(np.uint8).reshape(rows, dim)
    packed = codes[:, : dim // 2] | (codes[:, dim // 2:] << 4)
    return packed, scale, low


def dequantize_uint4_groups(packed: np.ndarray, scale: np.ndarray, low: np.ndarray
                            ) -> np.ndarray:
    """The fp32 table `quantize_uint4_groups` stands for (what the graph's nodes compute)."""
    codes = np.concatenate([packed & 15, packed >> 4], axis=1).astype(np.float32)
    rows, dim = codes.shape
    groups = codes.reshape(rows, scale.shape[1], -1)
    values = groups * scale.astype(np.float32) + low.astype(np.float32)
    return values.reshape(rows, dim)


def slim_word_embeddings(source: Path, target: Path) -> dict[str, Any]:
    """Write `source` (an exported e5 ONNX model) to `target` with the 4-bit table and the
    unfused embedding node (see the module docstring); returns the quantization's figures."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    table = next((init for init in graph.initializer if init.name == WORD_EMBEDDINGS), None)
    fused = [n for n in graph.node if n.op_type == "EmbedLayerNormalization"]
    if table is None or len(fused) != 1 or len(fused[0].input) < 8:
        raise InvalidModelError("The embedding model could not be prepared.",
                                detail=f"{source}: no {WORD_EMBEDDINGS} or no single "
                                       "EmbedLayerNormalization with a mask")
    embed = fused[0]
    ids, segments, _, positions, types, gamma, beta, mask = embed.input[:8]
    output, mask_index = embed.output[0], embed.output[1]
    epsilon = next((a.f for a in embed.attribute if a.name == "epsilon"), 1e-12)
    weights = numpy_helper.to_array(table).astype(np.float32)
    rows, dim = weights.shape
    packed, scale, low = quantize_uint4_groups(weights, WORD_GROUP)
    prefix = "word_embeddings_"
    graph.initializer.remove(table)
    constants = {"u4": packed, "scale": scale, "low": low,
                 "four": np.array(4, dtype=np.uint8), "sixteen": np.array(16, dtype=np.uint8),
                 "grouped": np.array([0, 0, dim // WORD_GROUP, WORD_GROUP], dtype=np.int64),
                 "flat": np.array([0, 0, dim], dtype=np.int64),
                 "zero": np.array(0, dtype=np.int64), "one": np.array(1, dtype=np.int64),
                 "seq_axis": np.array([1], dtype=np.int64)}
    graph.initializer.extend(numpy_helper.from_array(value, prefix + key)
                             for key, value in constants.items())

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> Any:
        names = [i if i in embed.input or i.startswith(prefix) else prefix + i for i in inputs]
        result = out if out in (output, mask_index) else prefix + out
        return helper.make_node(op, names, [result], name=prefix + op + "_" + out[-12:],
                                **attrs)

    p = prefix
    nodes = [node("Gather", [p + "u4", ids], "rows", axis=0),
             node("BitShift", ["rows", p + "four"], "high", direction="RIGHT"),
             node("Mod", ["rows", p + "sixteen"], "low_codes"),
             node("Concat", ["low_codes", "high"], "codes", axis=-1),
             node("Cast", ["codes"], "codes_f", to=TensorProto.FLOAT),
             node("Reshape", ["codes_f", p + "grouped"], "groups"),
             node("Gather", [p + "scale", ids], "row_scale", axis=0),
             node("Cast", ["row_scale"], "row_scale_f", to=TensorProto.FLOAT),
             node("Gather", [p + "low", ids], "row_low", axis=0),
             node("Cast", ["row_low"], "row_low_f", to=TensorProto.FLOAT),
             node("Mul", ["groups", "row_scale_f"], "scaled"),
             node("Add", ["scaled", "row_low_f"], "values"),
             node("Reshape", ["values", p + "flat"], "words"),
             node("Shape", [ids], "ids_shape"),
             node("Gather", ["ids_shape", p + "one"], "length", axis=0),
             node("Range", [p + "zero", "length", p + "one"], "position_ids"),
             node("Gather", [positions, "position_ids"], "position_rows", axis=0),
             node("Gather", [types, segments], "type_rows", axis=0),
             node("Add", ["words", "position_rows"], "with_positions"),
             node("Add", ["with_positions", "type_rows"], "summed"),
             node("LayerNormalization", ["summed", gamma, beta], output, axis=-1,
                  epsilon=epsilon),
             node("ReduceSum", [mask, p + "seq_axis"], mask_index, keepdims=0)]
    ordered = []  # in the fused node's place: its inputs come before, its users after
    for item in graph.node:
        ordered.extend(nodes if item is embed else [item])
    del graph.node[:]
    graph.node.extend(ordered)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
    error = np.abs(dequantize_uint4_groups(packed, scale, low) - weights)
    return {"table": [rows, dim], "group": WORD_GROUP, "max_abs_error": round(float(error.max()), 6),
            "mean_abs_error": round(float(error.mean()), 6)}
