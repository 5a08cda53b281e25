"""Erasure reaches logs and chats: canaries grepped over data, logs and the support bundle.

Issue 11: "(using what you told me: …)" went from stderr into acervo.log and survived
`memory delete`; an answer quoting a removed document stayed in the chat history.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from memory.canary import files_containing, grep_finds

from .helpers import DOCUMENT_CANARY, MEMORY_CANARY, OLD_LOG_LINE, canary_document

pytestmark = pytest.mark.slow



def _bundle(cli, tmp_path: Path) -> Path:
    target = tmp_path / "bundle"
    archive = tmp_path / "support.zip"
    assert cli("logs", "export", archive).returncode == 0
    with zipfile.ZipFile(archive) as bundle:
        bundle.extractall(target)
    return target


def _hits(home: Path, bundle: Path, canary: str) -> list[str]:
    """Files holding the canary, as typed or in a derived form (folded, stemmed, its letters
    or digits alone: issue 26 found a removed document's stemmed canary in the recall index)."""
    from memory.canary import derived_hits

    places = [home / "data", home / "logs", bundle]
    found = [str(p) for root in places for p in files_containing(root, canary.encode())]
    return sorted(set(found) | {h for root in places for h in grep_finds(root, canary)}
                  | set(derived_hits(places, canary)))


def test_a_memory_leaves_no_trace_in_data_logs_or_bundle(home: Path, tmp_path: Path,
                                                         cli) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "armario.md").write_text("# Armários\n\nOs armários ficam no segundo andar.\n",
                                     encoding="utf-8")
    assert cli("ingest", docs).returncode == 0
    saved = cli("memory", "remember", f"Lembre que meu código do armário é {MEMORY_CANARY}")
    memory_id = saved.stdout.split()[1].rstrip(":")
    asked = cli("ask", "--no-llm", "qual é o código do meu armário?")
    assert f"(using what you told me: Meu código do armário é {MEMORY_CANARY}.)" in asked.stderr
    assert cli("chat", "--no-llm", "qual é o código do meu armário?").returncode == 0
    assert not files_containing(home / "logs", MEMORY_CANARY.encode())  # ids only, always
    assert files_containing(home / "data", MEMORY_CANARY.encode())  # the memory is stored

    erased = cli("memory", "delete", memory_id, "--with-messages")
    assert erased.returncode == 0
    assert _hits(home, _bundle(cli, tmp_path), MEMORY_CANARY) == []


def test_erasing_a_memory_also_scrubs_logs_an_older_version_wrote(home: Path, cli) -> None:
    saved = cli("memory", "remember", f"Lembre que meu código do armário é {MEMORY_CANARY}")
    memory_id = saved.stdout.split()[1].rstrip(":")
    log = home / "logs" / "acervo.log"
    with log.open("a", encoding="utf-8") as fh:
        fh.write(OLD_LOG_LINE)
    receipt = cli("memory", "delete", memory_id)
    assert '"log_files"' in receipt.stdout
    assert not files_containing(home / "logs", MEMORY_CANARY.encode())
    assert "2026-01-01 10:00:00,000 WARNING" in log.read_text(encoding="utf-8")  # rest kept


def test_removing_a_document_says_what_chats_still_quote_it_and_purges_them(
        home: Path, tmp_path: Path, cli) -> None:
    docs = tmp_path / "docs"
    canary_document(docs)
    (docs / "outro.md").write_text("# Outro\n\nO refeitório abre às onze horas.\n",
                                   encoding="utf-8")
    assert cli("ingest", docs).returncode == 0
    answer = cli("chat", "--no-llm", "qual é a senha do cofre da diretoria?")
    assert DOCUMENT_CANARY in answer.stdout
    listed = cli("documents", "list").stdout
    doc_id = next(line.split()[0] for line in listed.splitlines() if "cofre" in line)

    removed = cli("documents", "remove", doc_id)
    assert "1 assistant answers in your chats still quote this document" in removed.stdout
    assert f"documents remove {doc_id} --purge-chats" in removed.stdout
    assert files_containing(home / "data", DOCUMENT_CANARY.encode())  # the chat, as told

    purged = cli("documents", "remove", doc_id, "--purge-chats")
    assert "erased 1 assistant answers" in purged.stdout
    assert _hits(home, _bundle(cli, tmp_path), DOCUMENT_CANARY) == []
    exported = tmp_path / "export.json"
    assert cli("memory", "export", exported, "--with-conversations").returncode == 0
    assert "qual é a senha do cofre" in exported.read_text(encoding="utf-8")  # the question stays


def test_remove_with_purge_in_one_step_finds_copies_by_their_words(home: Path,
                                                                   tmp_path: Path) -> None:
    """A quote without a citation (an answer whose trace was lost) is found by its words."""
    from desktop_app.app import build_app

    docs = tmp_path / "docs"
    canary_document(docs)
    app = build_app()
    list(app.pipeline.run([docs]))
    doc = app.index.documents()[0]
    store = app.conversations
    conversation = store.new_conversation("sem rastro")
    store.add_user_message(conversation, "e a senha?")
    store.add_assistant_message(conversation, "Segundo o manual, a senha do cofre da diretoria "
                                f"é {DOCUMENT_CANARY} e deve ser trocada todo trimestre.")
    store.add_assistant_message(conversation, "O refeitório abre às onze.",
                                {"hits": [{"doc_id": doc.doc_id, "chunk_id": f"{doc.doc_id}:0",
                                           "title": doc.title}]})
    passages = [c.text for c in app.index.document_chunks(doc.doc_id)]
    assert len(store.document_quotes(doc.doc_id, passages)) == 1
    app.pipeline.remove_document(doc.doc_id)
    deleted, scrubbed, _bytes = store.purge_document(doc.doc_id, passages)
    assert (deleted, scrubbed) == (1, 1)
    remaining = store.messages(conversation)
    assert [m.role for m in remaining] == ["user", "assistant"]
    assert remaining[1].trace == {"hits": []}
    assert not files_containing(app.paths.data_dir, DOCUMENT_CANARY.encode())


DERIVED_CANARY = "QZXWV-48151623"


def test_a_memory_erased_with_its_message_leaves_no_derived_form(home: Path, tmp_path: Path,
                                                                 cli) -> None:
    """Issue 26: after `memory delete --with-messages` the answer trace kept the question's
    stemmed words in `evidence.missing`, a later rewrite carried them, and the code's digits
    stayed alone. Every form is grepped: as typed, folded, letters alone, digits alone."""
    import json
    import sqlite3

    from memory.canary import derived_hits

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "armario.md").write_text("# Armários\n\nOs armários ficam no segundo andar.\n",
                                     encoding="utf-8")
    assert cli("ingest", docs).returncode == 0
    told = cli("chat", "--no-llm", f"Meu código secreto é {DERIVED_CANARY}.")
    assert "[memory saved:" in told.stderr
    memory_id = told.stderr.split("[memory saved: ")[1].split("]")[0]
    used = cli("chat", "--no-llm", "qual é o meu código secreto?")
    assert DERIVED_CANARY in used.stdout  # answered from what the user said
    cli("chat", "--no-llm", "e o outro código?")  # a rewrite that carries earlier words
    assert derived_hits([home / "data"], DERIVED_CANARY)  # stored, in several forms

    assert cli("memory", "delete", memory_id, "--with-messages").returncode == 0
    assert derived_hits([home / "data", home / "logs", _bundle(cli, tmp_path)],
                        DERIVED_CANARY) == []
    db = sqlite3.connect(home / "data" / "state.sqlite3")
    traces = [json.loads(t) for (t,) in db.execute(
        "SELECT trace FROM messages WHERE trace IS NOT NULL")]
    first = traces[0]  # the answer to the erased statement: no form of it is left
    assert first["question"] == "[erased]" and first["evidence"]["missing"] == []
    for trace in traces[1:]:
        assert trace["rewrite"]["carried"] == []
        assert trace["rewritten_query"] == trace["question"]


def test_a_question_with_a_half_remembered_code_is_not_a_memory(cli) -> None:
    told = cli("chat", "--no-llm",
               f"Qual é o meu código secreto? Lembro que era {DERIVED_CANARY}.")
    assert "[memory saved:" not in told.stderr
    assert cli("memory", "list").stdout.strip() == "No memories."
