"""detect_language on real text: the shared PDFs and retrieval corpora, and public texts."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import pytest

from desktop_app.ingest.chunking import chunk_document
from desktop_app.ingest.loaders import load_document
from desktop_app.text.language import UNDETERMINED, detect_language

# Article 1 of the Universal Declaration of Human Rights (official UN versions).
UDHR_PT = ("Todos os seres humanos nascem livres e iguais em dignidade e em direitos. Dotados de "
           "razão e de consciência, devem agir uns para com os outros em espírito de fraternidade.")
UDHR_ES = ("Todos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como "
           "están de razón y conciencia, deben comportarse fraternalmente los unos con los otros.")
UDHR_EN = ("All human beings are born free and equal in dignity and rights. They are endowed with "
           "reason and conscience and should act towards one another in a spirit of brotherhood.")
# Article 1 of the Spanish Constitution of 1978.
CONSTITUCION_ES = (
    "España se constituye en un Estado social y democrático de Derecho, que propugna como valores "
    "superiores de su ordenamiento jurídico la libertad, la justicia, la igualdad y el pluralismo "
    "político. La soberanía nacional reside en el pueblo español, del que emanan los poderes del "
    "Estado. La forma política del Estado español es la Monarquía parlamentaria.")


@pytest.mark.parametrize(("text", "expected"), [
    (UDHR_PT, "pt"), (UDHR_ES, "es"), (UDHR_EN, "en"), (CONSTITUCION_ES, "es"),
])
def test_short_official_texts(text: str, expected: str) -> None:
    assert detect_language(text) == expected


@pytest.mark.parametrize("text", ["", "Olá", "12.345,67 — 2024", "Lorem ipsum dolor sit amet, "
                                  "consectetuer adipiscing elit. Ut purus elit, vestibulum ut."])
def test_too_little_or_unknown_text_is_undetermined(text: str) -> None:
    assert detect_language(text) == UNDETERMINED


@pytest.mark.parametrize(("relative", "expected"), [
    ("pdfs/pt/lgpd.pdf", "pt"), ("pdfs/pt/ldb.pdf", "pt"),
    ("pdfs/en/federal-register-2020-17221.pdf", "en"),
])
@pytest.mark.slow  # over a second: the full tier only
def test_whole_documents_and_nearly_all_their_chunks(eval_dir: Path, relative: str,
                                                     expected: str) -> None:
    document = load_document(eval_dir / relative)
    assert detect_language("\n".join(page.text for page in document.pages)) == expected
    chunks = chunk_document(document, "d")
    detected = [detect_language(chunk.text) for chunk in chunks]
    assert detected.count(expected) >= 0.9 * len(chunks)
    wrong = [d for d in detected if d not in (expected, UNDETERMINED)]
    assert len(wrong) <= 0.03 * len(chunks), wrong


@pytest.mark.parametrize(("corpus", "expected"), [
    ("faquad_pt", "pt"), ("pira_pt", "pt"), ("scifact", "en"),
])
def test_retrieval_corpus_passages(eval_dir: Path, corpus: str, expected: str) -> None:
    with (eval_dir / "retrieval" / corpus / "corpus.jsonl").open(encoding="utf-8") as lines:
        passages = [json.loads(line)["text"] for line in islice(lines, 100)]
    detected = [detect_language(text) for text in passages]
    assert detected.count(expected) >= 97, {d: detected.count(d) for d in set(detected)}


def test_words_compare_within_a_language_and_between_portuguese_and_spanish() -> None:
    from desktop_app.text.language import UNDETERMINED, words_comparable

    assert words_comparable("pt", "pt") and words_comparable("pt", "es")
    assert words_comparable("en", UNDETERMINED) and words_comparable("en", "")
    assert not words_comparable("en", "pt") and not words_comparable("es", "en")
