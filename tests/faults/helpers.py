"""Helpers of the fault suite: run the CLI in a home, judge what the user saw, read the
library raw. `assert_clear` is what "every error a sentence a user understands" means
here: no traceback, no raw exception text."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MEMORY_CANARY = "ZEBRA-4471"
DOCUMENT_CANARY = "ORNITORRINCO-55120"
OLD_LOG_LINE = ("2026-01-01 10:00:00,000 WARNING stderr [MainThread] (using what you told me: "
                f"Meu código do armário é {MEMORY_CANARY}.)\n")  # what `ask` logged before
RAW_ERROR_MARKERS = ("Traceback (most recent call last)", "lance error", "os error",
                     "OperationalError", "UnicodeEncodeError", "BrokenPipeError",
                     "RuntimeError:", "unexpected error")


def cli_env(home: Path) -> dict[str, str]:
    env = dict(os.environ, ACERVO_HOME=str(home))
    env.pop("PYTHONUNBUFFERED", None)  # the CLI must flush what a supervisor reads
    return env


def link_models(home: Path, e5_model_dir: Path) -> None:
    """The converted e5 folder and the ONNX folders already prepared beside it (the default
    one by the session's `embedder` fixture): a CLI started here then does not export its
    own copy (≈2 GB and two minutes per process)."""
    models = home / "data" / "models"
    models.mkdir(parents=True, exist_ok=True)
    for folder in (e5_model_dir, *sorted(e5_model_dir.parent.glob(f"{e5_model_dir.name}-onnx-*"))):
        link = models / folder.name
        if folder.is_dir() and not folder.name.startswith(".") and not link.exists():
            os.symlink(folder, link)


def assert_clear(result: subprocess.CompletedProcess[str]) -> None:
    """No traceback and no raw exception text in what the user sees."""
    shown = (result.stdout or "") + (result.stderr or "")
    leaks = [m for m in RAW_ERROR_MARKERS if m in shown]
    assert not leaks, f"raw error text {leaks} shown to the user:\n{shown[-3000:]}"



def write_notes(folder: Path, count: int, *, tag: str = "") -> list[Path]:
    """`count` small distinct Markdown notes (a few passages each)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        body = "\n\n".join(f"Parágrafo {j} da nota {tag}{i} sobre proteção de dados pessoais, "
                           f"direitos do titular e prazos de resposta número {i * 10 + j}."
                           for j in range(6))
        path = folder / f"nota{tag}{i:02}.md"
        path.write_text(f"# Nota {tag}{i}\n\n{body}\n", encoding="utf-8")
        paths.append(path)
    return paths


def library_state(home: Path) -> tuple[dict[str, int], dict[str, int], int]:
    """(documents per source path, chunk rows per doc id, duplicate doc rows) read raw from
    LanceDB, bypassing the app's own de-duplication, so duplicates cannot hide."""
    import json

    import lancedb

    root = home / "data" / "index"
    generation = json.loads((root / "current.json").read_text())["generation"]
    db = lancedb.connect(str(root / generation))
    docs = db.open_table("documents").to_arrow().select(["doc_id", "source_path"]).to_pylist()
    chunks = db.open_table("chunks").to_arrow().select(["doc_id"]).to_pylist()
    per_path: dict[str, int] = {}
    for row in docs:
        per_path[row["source_path"]] = per_path.get(row["source_path"], 0) + 1
    per_doc: dict[str, int] = {}
    for row in chunks:
        per_doc[row["doc_id"]] = per_doc.get(row["doc_id"], 0) + 1
    duplicates = len(docs) - len({row["doc_id"] for row in docs})
    return per_path, per_doc, duplicates


def canary_document(folder: Path) -> Path:
    """A document holding the document canary, as a chat answer would quote it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cofre.md"
    path.write_text("# Procedimento do cofre\n\nA senha do cofre da diretoria é "
                    f"{DOCUMENT_CANARY} e deve ser trocada todo trimestre pelo gerente "
                    "responsável.\n", encoding="utf-8")
    return path
