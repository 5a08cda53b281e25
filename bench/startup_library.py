"""A library of >= 1,000 documents with a last chat, for the start-up benchmark.

    .venv/bin/python bench/startup_library.py HOME [--documents 1000]

Builds (once; reused while HOME/library.json says it is complete) an ACERVO_HOME whose
library holds the LGPD PDF plus short Markdown documents made from the retrieval eval
corpora (FaQuAD, Pirá, SciFact: one document per paragraph), ingested through the CLI as a
user would, and one chat of three sources-only turns that the settings name as the last
chat (the window reopens it at launch). The embedder comes from the shared converted
models (symlinked).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from _common import EVAL, REPO, shared_models_dir

CORPORA = ("faquad_pt", "pira_pt", "scifact")
LGPD = EVAL / "pdfs" / "pt" / "lgpd.pdf"
QUESTIONS = ("Quais são os direitos do titular?",
             "Quando o tratamento de dados pessoais pode ser realizado?",
             "Qual a capital da Austrália?")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "doc"


def write_documents(folder: Path, count: int) -> int:
    """One Markdown file per corpus paragraph, until `count` documents (with the PDF)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    want = count - 1  # the LGPD PDF is one
    per_corpus = {"faquad_pt": 249, "pira_pt": 309}
    for corpus in CORPORA:
        limit = per_corpus.get(corpus, want - written)
        with (EVAL / "retrieval" / corpus / "corpus.jsonl").open(encoding="utf-8") as lines:
            for n, line in enumerate(lines):
                if n >= limit or written >= want:
                    break
                row = json.loads(line)
                title = str(row.get("title") or row["_id"]).replace("_", " ").strip()
                path = folder / f"{corpus}-{n:04d}-{_slug(title)}.md"
                path.write_text(f"# {title}\n\n{row['text']}\n", encoding="utf-8")
                written += 1
    return written + 1


def link_models(home: Path) -> None:
    from desktop_app.modelprep import ensure_e5_model

    models = shared_models_dir()
    ensure_e5_model(models)
    target = home / "data" / "models"
    target.mkdir(parents=True, exist_ok=True)
    for folder in models.iterdir():
        link = target / folder.name
        if not folder.name.startswith(".") and not link.exists():
            link.symlink_to(folder.resolve())


def last_chat(home: Path) -> str:
    """A chat of sources-only turns, named in the settings as the one to reopen."""
    os.environ["ACERVO_HOME"] = str(home)
    from desktop_app.app import build_app

    app = build_app()
    app.settings.llm_backend = "none"
    chat = app.chat
    conversation = chat.new_conversation(QUESTIONS[0])
    for question in QUESTIONS:
        for _event in chat.turn(conversation, question, sources_only=True,
                                cancel=lambda: False):
            pass
    settings = app.settings
    settings.last_conversation = conversation
    settings.llm_backend = "none"  # no model to load: start-up is the library and the chat
    app.save_settings()
    app.close()
    return conversation


def prepare(home: Path, documents: int) -> dict[str, object]:
    marker = home / "library.json"
    if marker.is_file():
        info = json.loads(marker.read_text(encoding="utf-8"))
        if info.get("documents", 0) >= documents:
            return dict(info)
    started = time.perf_counter()
    home.mkdir(parents=True, exist_ok=True)
    link_models(home)
    docs = home / "docs"
    count = write_documents(docs, documents)
    env = {**os.environ, "ACERVO_HOME": str(home)}
    subprocess.run([sys.executable, "-m", "desktop_app", "ingest", str(LGPD), str(docs)],
                   cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL)
    conversation = last_chat(home)
    info = {"documents": count, "conversation": conversation,
            "built_s": round(time.perf_counter() - started, 1)}
    marker.write_text(json.dumps(info), encoding="utf-8")
    return info


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("--documents", type=int, default=1000)
    args = parser.parse_args()
    print(json.dumps(prepare(args.home.resolve(), args.documents)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
