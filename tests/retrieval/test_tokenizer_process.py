"""The window's tokenizer in a helper process: the same ids and vectors as in-process, and a
fallback to in-process when the helper cannot read the file or dies."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from desktop_app.retrieval.onnx_embedder import OnnxE5Embedder
from desktop_app.retrieval.tokenizer_process import TokenizerProcess

TEXTS = [
    "query: Quais são os direitos do titular dos dados?",
    "passage: Art. 18. O titular dos dados pessoais tem direito a obter do controlador…",
    "passage: Customers may return a product within 30 days of delivery.",
    "passage: La política de privacidad se actualizó el 1 de enero de 2025.",
    "passage: Москва — столица России. 東京は日本の首都です。 emoji 🙂 and\ttabs\n\nnewlines",
    "passage: " + "contrato de prestação de serviços " * 150,
    "",
]


@pytest.fixture(scope="module")
def model_dir(embedder) -> Path:  # type: ignore[no-untyped-def]
    folder = getattr(embedder, "model_dir", None)
    if folder is None or not (Path(folder) / "tokenizer.json").is_file():
        pytest.skip("needs the real embedder's folder (make test)")
    return Path(folder)


def test_the_helper_gives_the_ids_the_in_process_tokenizer_gives(model_dir: Path):
    from tokenizers import Tokenizer

    local = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    helper = TokenizerProcess(model_dir / "tokenizer.json", lambda: pytest.fail("fell back"))
    try:
        got = [e.ids for e in helper.encode_batch(TEXTS)]
        assert helper.in_helper
        assert got == [e.ids for e in local.encode_batch(TEXTS)]
        assert helper.encode(TEXTS[0]).ids == local.encode(TEXTS[0]).ids
    finally:
        helper.close()


def test_an_embedder_tokenizing_in_the_helper_gives_the_same_vectors(model_dir: Path):
    local = OnnxE5Embedder(model_dir, threads=1)
    remote = OnnxE5Embedder(model_dir, threads=1)
    remote.tokenize_in_helper_process()
    try:
        assert remote.token_ids("Art. 18", query=True) == local.token_ids("Art. 18", query=True)
        np.testing.assert_array_equal(remote.embed_query("prazo de 15 dias"),
                                      local.embed_query("prazo de 15 dias"))
        np.testing.assert_array_equal(remote.embed_passages(TEXTS[1:4]),
                                      local.embed_passages(TEXTS[1:4]))
        assert remote._tokenizer.in_helper
    finally:
        remote._tokenizer.close()


def test_an_unreadable_tokenizer_file_falls_back_to_in_process(model_dir: Path, tmp_path: Path):
    broken = tmp_path / "tokenizer.json"
    broken.write_text("{not json", encoding="utf-8")
    fallbacks = []

    def in_process():  # type: ignore[no-untyped-def]
        from tokenizers import Tokenizer

        fallbacks.append(1)
        return Tokenizer.from_file(str(model_dir / "tokenizer.json"))

    helper = TokenizerProcess(broken, in_process)
    try:
        assert helper.encode("Olá").ids[0] == 0  # <s>: answered by the fallback
        assert fallbacks == [1] and not helper.in_helper
    finally:
        helper.close()


def test_a_helper_that_dies_is_replaced_by_the_in_process_tokenizer(model_dir: Path,
                                                                    tmp_path: Path):
    copy = tmp_path / "tokenizer.json"
    shutil.copy(model_dir / "tokenizer.json", copy)
    helper = TokenizerProcess(copy, lambda: __import__("tokenizers").Tokenizer.from_file(
        str(copy)))
    first = helper.encode("Art. 18").ids
    assert helper.in_helper
    helper._process.kill()
    helper._process.join(10)
    assert helper.encode("Art. 18").ids == first  # no error reaches the caller
    assert not helper.in_helper
    helper.close()


def test_the_windows_app_tokenizes_in_the_helper_and_the_cli_does_not(
        model_dir: Path, monkeypatch: pytest.MonkeyPatch):
    import desktop_app.modelprep as modelprep
    from desktop_app.app import build_app

    monkeypatch.setattr(modelprep, "open_embedder",
                        lambda *_a, **_k: OnnxE5Embedder(model_dir, threads=1))
    window_app, cli_app = build_app(), build_app()
    window_app.reserve_ui_core = True  # what run_gui_or_demo sets before the window opens
    try:
        assert isinstance(window_app.embedder._tokenizer, TokenizerProcess)
        assert cli_app.embedder._tokenizer is None  # read in-process on first use
        assert window_app.embedder.token_ids("prazo") == cli_app.embedder.token_ids("prazo")
        assert window_app.embedder._tokenizer.in_helper
    finally:
        window_app.embedder._tokenizer.close()
        window_app.close()
        cli_app.close()
