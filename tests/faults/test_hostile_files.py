"""Hostile, broken and oddly named files: refused with a sentence naming the limit, or read.

Loader-level tests run in-process (fast); the names, encodings and pipes go through the CLI.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fixtures import hostile_files as hostile

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.loaders import decode_bytes, load_document

from .helpers import REPO, assert_clear, cli_env


def _refusal(path: Path) -> str:
    with pytest.raises(UnreadableDocumentError) as caught:
        load_document(path)
    message = caught.value.user_message
    assert message.startswith(f"“{path.name}”") and message.endswith(".")
    return message


def test_a_docx_that_unpacks_to_millions_of_elements_is_refused_at_once(tmp_path: Path) -> None:
    bomb = hostile.docx_million_paragraphs(tmp_path / "bomb.docx")
    assert bomb.stat().st_size < 400_000
    started = time.monotonic()
    message = _refusal(bomb)
    assert "more than 2,000,000 XML elements" in message
    assert time.monotonic() - started < 60  # it hung for > 500 s before (a guard, not a bench)


@pytest.mark.slow  # over a second: the full tier only
def test_a_zip_bomb_docx_is_refused_by_its_unpacked_size(tmp_path: Path) -> None:
    message = _refusal(hostile.docx_zip_bomb(tmp_path / "bomb.docx", megabytes=600))
    assert "unpacks to 601 MB, more than the 512 MB limit" in message


def test_a_docx_too_slow_to_parse_is_refused_naming_the_time_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    slow = hostile.docx_many_paragraphs(tmp_path / "long.docx", 3000)
    assert load_document(slow).pages[0].text  # readable within the real limit
    monkeypatch.setattr(limits, "MAX_PARSE_SECONDS", 0.0)
    assert "took longer than 0 s to read, the time limit" in _refusal(slow)


@pytest.mark.slow  # over a second: the full tier only
def test_long_docx_reads_in_linear_time(tmp_path: Path) -> None:
    """20,000 paragraphs: python-docx's per-paragraph style search made this take ~70 s."""
    document = load_document(hostile.docx_many_paragraphs(tmp_path / "long.docx", 20_000))
    assert document.pages[0].text.count("Parágrafo") == 20_000


def test_html_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crowded = hostile.html_many_elements(tmp_path / "crowded.html")
    assert "more than 2,000,000 HTML elements" in _refusal(crowded)
    page = tmp_path / "page.html"
    page.write_text("<html><body>" + "<p>texto comum</p>" * 500 + "</body></html>",
                    encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_XML_BYTES", 1024)
    assert "more than the 1 KB limit" in _refusal(page)
    monkeypatch.setattr(limits, "MAX_XML_BYTES", 64 * limits.MB)
    monkeypatch.setattr(limits, "MAX_PARSE_SECONDS", 0.0)
    assert "time limit" in _refusal(page)


def test_text_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    note = tmp_path / "note.txt"
    note.write_text("linha de texto\n" * 200, encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_TEXT_BYTES", 1024)
    assert "more than the 1 KB limit" in _refusal(note)


def test_damaged_pdfs_say_damaged_pdf(tmp_path: Path, eval_dir: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    bad_tree = hostile.pdf_bad_page_count(tmp_path / "bad-tree.pdf")
    assert "is a damaged PDF" in _refusal(bad_tree)
    cut = hostile.pdf_truncated(eval_dir / "pdfs" / "pt" / "lgpd.pdf", tmp_path / "cut.pdf")
    assert "damaged PDF" in _refusal(cut)
    monkeypatch.setattr(limits, "MAX_PDF_OBJECTS", 5)
    good = eval_dir / "pdfs" / "pt" / "lgpd.pdf"
    assert "more than 5 PDF objects" in _refusal(good)


def test_latin1_short_lines_are_read_as_latin1_not_mac_roman() -> None:
    text, notes = decode_bytes(hostile.LATIN1_LINES.encode("latin-1"))
    assert text == hostile.LATIN1_LINES
    assert notes == ["encoding detected: cp1252"]
    # a spread of short Portuguese/Spanish lines, none misread
    import random

    words = ["ação", "informação", "não", "coração", "São", "João", "você", "código", "mês",
             "ÁREA", "EXCEÇÃO", "señor", "año", "français"]
    rng = random.Random(11)
    for _ in range(300):
        sample = "\n".join(f"L{i} " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
                           for i in range(rng.randint(1, 8))) + "\n"
        assert decode_bytes(sample.encode("latin-1"))[0] == sample


def test_other_scripts_still_decode() -> None:
    for text, encoding in (("Привет, как дела? Это тест кодировки.", "cp1251"),
                           ("Γειά σου κόσμε, αυτό είναι ένα τεστ.", "cp1253")):
        assert decode_bytes(text.encode(encoding))[0] == text


def test_binary_junk_is_not_a_text_file(tmp_path: Path) -> None:
    junk = hostile.binary_junk(tmp_path / "junk.txt")
    assert "is not a text file (it looks like binary data)" in _refusal(junk)
    high_bytes = tmp_path / "high.txt"
    high_bytes.write_bytes(bytes(range(128, 256)) * 40)
    assert "not a text file" in _refusal(high_bytes)


@pytest.mark.slow
def test_odd_file_names_are_indexed_and_printed_on_one_line(tmp_path: Path, cli) -> None:
    folder = tmp_path / "nomes"
    folder.mkdir()
    hostile.non_utf8_name(folder, "Relatório com conteúdo suficiente para indexar.")
    hostile.newline_name(folder, "Arquivo com quebra de linha no nome, conteúdo de teste.")
    hostile.latin1_text(folder / "latin1.txt")
    hostile.binary_junk(folder / "junk.txt")
    first = cli("ingest", folder)
    assert first.returncode == 3  # one file failed (junk), the others indexed
    lines = first.stdout.splitlines()
    assert f"indexed  {folder}/relação.txt  pages=1 chunks=1" in lines
    assert any(line.startswith(f"indexed  {folder}/linha\\nnova.txt") for line in lines)
    assert any("junk.txt" in line and "not a text file" in line for line in lines)
    assert lines[-1] == "done: 3 indexed, 0 unchanged, 1 failed, 0 removed"
    again = cli("ingest", folder)
    assert again.stdout.splitlines()[-1] == "done: 0 indexed, 3 unchanged, 1 failed, 0 removed"
    listed = cli("documents", "list").stdout.splitlines()
    assert len(listed) == 4 and any("(" + f"{folder}/relação.txt)" in line for line in listed)
    found = cli("search", "relatório conteúdo").stdout
    assert found.startswith("[1] relação")
    hits = cli("search", "L2 informação", "--json").stdout
    assert "L2 informação não" in hits


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(home: Path, tmp_path: Path, cli) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\n" + "Linha sobre prazos do titular.\n\n" * 200,
                                 encoding="utf-8")
    assert cli("ingest", folder).returncode == 0
    for args in (["search", "prazos do titular", "--k", "20"],
                 ["chat", "--no-llm", "quais são os prazos do titular?"]):
        shell = (f"{sys.executable} -m desktop_app {' '.join(args[:1])} "
                 + " ".join(f"'{a}'" for a in args[1:]) + " | head -n 1")
        result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], cwd=REPO,
                                env=cli_env(home), capture_output=True, text=True, timeout=600)
        assert_clear(result)
        assert len(result.stdout.splitlines()) == 1
        assert result.returncode in (0, 141)


def test_path_keys_round_trip_and_display() -> None:
    from desktop_app.ingest.pathnames import display_path, path_from_key, path_key

    raw = os.fsdecode(b"/tmp/rela\xe7\xe3o\n.txt")
    key = path_key(raw)
    key.encode("utf-8")  # storable
    assert str(path_from_key(key)) == raw  # lossless
    assert display_path(key) == "/tmp/relação\\n.txt"
    assert path_key("/tmp/ação.txt") == "/tmp/ação.txt"  # valid UTF-8 names unchanged


# ---- issue 26: nesting, link loops -----------------------------------------------------------
def test_deeply_nested_html_is_refused_in_one_sentence_not_a_recursion_error(
        tmp_path: Path) -> None:
    message = _refusal(hostile.html_deeply_nested(tmp_path / "fundo.html"))
    assert "nests HTML elements more than 1,000 deep" in message


def test_html_nested_below_the_limit_is_read_without_recursion(tmp_path: Path) -> None:
    import sys as system

    path = hostile.html_deeply_nested(tmp_path / "raso.html", depth=900)
    limit = system.getrecursionlimit()
    system.setrecursionlimit(200)  # the walk must not recurse per level
    try:
        assert "fundo" in load_document(path).pages[0].text
    finally:
        system.setrecursionlimit(limit)


def test_deeply_nested_docx_is_refused_naming_the_limit(tmp_path: Path) -> None:
    message = _refusal(hostile.docx_deeply_nested(tmp_path / "fundo.docx"))
    assert "nests XML elements more than 256 deep" in message


@pytest.mark.slow  # over a second: the full tier only
def test_a_symlink_loop_is_counted_in_the_summary(tmp_path: Path, home: Path) -> None:
    folder = hostile.symlink_loop(tmp_path / "pasta")
    result = subprocess.run([sys.executable, "-m", "desktop_app", "ingest", str(folder)],
                            cwd=REPO, env=cli_env(home), capture_output=True, text=True,
                            timeout=600)
    assert_clear(result)
    lines = result.stdout.splitlines()
    assert any(line.startswith("skipped") and "volta" in line and "link loop" in line
               for line in lines)
    assert lines[-1] == ("done: 1 indexed, 0 unchanged, 0 failed, 0 removed, 1 linked folder "
                         "skipped (read once)")
    assert result.returncode == 0
