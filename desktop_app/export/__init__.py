"""Take an answer or a whole chat out of Acervo: Markdown, Word (.docx) or PDF, with
numbered references (title, page or section, the quoted words, the file's path).

Nothing goes through a model: the export is the stored chat (`chat.stored.reloaded`, its
badges rebuilt from the index as the window rebuilds them) laid out as text, so every
quote is the documents' own words. `export_conversation` builds it; `write_export` writes
it in a format (whole or not at all: a temporary file renamed into place). The window
uses the same functions (and `text.to_markdown` / `to_html` for "Copy with citations");
the CLI is `python -m desktop_app export` (export/commands.py).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.chat.stored import ChunkLookup, reloaded
from desktop_app.errors import AppError
from desktop_app.export.model import (
    ExportDocument,
    ExportedTurn,
    ExportLabels,
    Reference,
    build_export,
)
from desktop_app.export.text import to_html, to_markdown

if TYPE_CHECKING:
    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.retrieval.doc_text import DocumentTexts
    from desktop_app.retrieval.index_api import ChunkRow

__all__ = ["FORMATS", "ExportDocument", "ExportLabels", "ExportedTurn", "Reference",
           "build_export", "export_conversation", "format_of", "to_html", "to_markdown",
           "write_export"]

FORMATS = ("md", "docx", "pdf")
_SUFFIXES = {".md": "md", ".markdown": "md", ".docx": "docx", ".pdf": "pdf"}


def format_of(path: Path, requested: str | None = None) -> str:
    """The format asked for, else the one the file name ends in (Markdown by default)."""
    if requested:
        if requested not in FORMATS:
            raise AppError(f"Unknown export format {requested!r}; use one of "
                           f"{', '.join(FORMATS)}.")
        return requested
    return _SUFFIXES.get(path.suffix.lower(), "md")


def export_conversation(store: ConversationStore, conversation_id: str, lookup: ChunkLookup,
                        *, documents: DocumentTexts | None = None,
                        labels: ExportLabels | None = None,
                        answers: Collection[str] | None = None,
                        exported_at: str = "") -> ExportDocument:
    """The stored chat (or only its answers whose message ids are in `answers`) as an
    export. `lookup` gives a
    badge's passage as its library holds it now (a removed document's badges are gone);
    `documents` the documents rebuilt from their passages (each quote's section and
    revoked words: export/sources.py)."""
    from desktop_app.export.sources import SourceLocator

    conversation = next((c for c in store.conversations() if c["id"] == conversation_id), None)
    if conversation is None:
        raise AppError(f"No chat with id {conversation_id}.")
    rows: dict[tuple[str, str], ChunkRow | None] = {}

    def remembered(library: str, chunk_id: str) -> ChunkRow | None:
        if (library, chunk_id) not in rows:
            rows[(library, chunk_id)] = lookup(library, chunk_id)
        return rows[(library, chunk_id)]

    messages = reloaded(store, conversation_id, remembered)
    locate = SourceLocator(documents, lambda c: rows.get((c.library, c.chunk_id)))
    document = build_export(messages, title=str(conversation.get("title") or "Acervo"),
                            labels=labels, locate=locate, answers=answers,
                            exported_at=exported_at)
    if not document.turns:
        raise AppError("This chat has no answer to export yet.")
    return document


def write_export(document: ExportDocument, path: Path, fmt: str | None = None) -> Path:
    """Write `document` to `path` in `fmt` (default: from the suffix); returns the path."""
    fmt = format_of(path, fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if fmt == "md":
            tmp.write_text(to_markdown(document), encoding="utf-8")
        elif fmt == "docx":
            from desktop_app.export.docx_writer import write_docx

            write_docx(document, tmp)
        else:
            from desktop_app.export.pdf_writer import write_pdf

            write_pdf(document, tmp)
        tmp.replace(path)
    except OSError as exc:
        raise AppError(f"Could not write {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path
