"""What recovery must do to an index an interruption left behind (pure planning, no I/O).

Rows are identified by LanceDB's `_rowid`, never by doc id alone: when two processes
wrote the same document twice, both copies share a doc id, and "delete the older
version by doc id" deleted both (issue 11: the library came back empty). The plan:

- duplicate `documents` rows of one doc id: keep the first row, drop the others;
- duplicate `chunks` rows of one chunk id: keep the first, drop the others;
- chunks whose document row is missing (killed between the two writes): drop them;
- documents with fewer chunks than their row says (chunks lost): drop the document, so
  the next ingest adds it again instead of searching a partial copy — except a placeholder
  (`PLACEHOLDER_HASH`, below), which is known to be partial and is being read again;
- several complete versions of one path (killed between adding the new version and
  deleting the old): keep the newest, drop the rest — never the only complete copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# A document row whose content hash is empty is a placeholder: its details or some of its
# passages came from what survived a damaged file, and the next ingest of its file (or
# `doctor --repair`) reads it again — re-embedding only the passages that were lost.
PLACEHOLDER_HASH = ""
LOST_MARK = "in a damaged index file"


@dataclass
class RecoveryPlan:
    duplicate_document_rows: list[int] = field(default_factory=list)
    duplicate_chunk_rows: list[int] = field(default_factory=list)
    orphan_chunk_docs: list[str] = field(default_factory=list)
    incomplete_documents: list[str] = field(default_factory=list)
    superseded_documents: list[str] = field(default_factory=list)

    @property
    def fixes(self) -> int:
        return (len(self.duplicate_document_rows) + len(self.duplicate_chunk_rows)
                + len(self.orphan_chunk_docs) + len(self.incomplete_documents)
                + len(self.superseded_documents))

    def __bool__(self) -> bool:
        return self.fixes > 0

    def problems(self) -> list[str]:
        """One sentence per kind of problem found (ids only: no document text)."""
        out = []
        if self.duplicate_document_rows or self.duplicate_chunk_rows:
            out.append(f"{len(self.duplicate_document_rows)} duplicate document rows and "
                       f"{len(self.duplicate_chunk_rows)} duplicate passages")
        if self.orphan_chunk_docs:
            out.append(f"passages of {len(self.orphan_chunk_docs)} documents whose ingest "
                       "was interrupted")
        if self.incomplete_documents:
            out.append(f"{len(self.incomplete_documents)} documents missing passages "
                       "(they are re-added by the next ingest)")
        if self.superseded_documents:
            out.append(f"{len(self.superseded_documents)} old versions of changed files")
        return out

    def describe(self) -> str:
        return "; ".join(self.problems()) or "nothing to repair"


def _first_rows(rows: Sequence[dict[str, Any]], key: str) -> tuple[dict[str, dict[str, Any]],
                                                                   list[int]]:
    kept: dict[str, dict[str, Any]] = {}
    extra: list[int] = []
    for row in sorted(rows, key=lambda r: int(r["_rowid"])):
        if row[key] in kept:
            extra.append(int(row["_rowid"]))
        else:
            kept[row[key]] = row
    return kept, extra


def plan_recovery(documents: Sequence[dict[str, Any]],
                  chunks: Sequence[dict[str, Any]]) -> RecoveryPlan:
    """`documents` rows need doc_id, source_path, ingested_at, chunk_count, _rowid (and
    content_hash, to know a placeholder); `chunks` rows need doc_id, chunk_id, _rowid."""
    plan = RecoveryPlan()
    docs, plan.duplicate_document_rows = _first_rows(documents, "doc_id")
    kept_chunks, plan.duplicate_chunk_rows = _first_rows(chunks, "chunk_id")
    per_doc: dict[str, int] = {}
    for row in kept_chunks.values():
        per_doc[row["doc_id"]] = per_doc.get(row["doc_id"], 0) + 1
    plan.orphan_chunk_docs = sorted(set(per_doc) - set(docs))
    plan.incomplete_documents = sorted(
        doc_id for doc_id, row in docs.items()
        if per_doc.get(doc_id, 0) < int(row["chunk_count"])
        and row.get("content_hash", "-") != PLACEHOLDER_HASH)
    complete = [row for doc_id, row in docs.items() if doc_id not in plan.incomplete_documents]
    by_path: dict[str, list[dict[str, Any]]] = {}
    for row in complete:
        by_path.setdefault(row["source_path"], []).append(row)
    for versions in by_path.values():
        if len(versions) > 1:
            versions.sort(key=lambda r: (r["ingested_at"], r["doc_id"]))
            plan.superseded_documents += [r["doc_id"] for r in versions[:-1]]
    plan.superseded_documents.sort()
    return plan


# ---- after damaged files: rebuild one table's rows from the other ----------------------------


def lost_note(lost: int, total: int) -> str:
    what = (f"{lost} of its {total} passages were" if lost else
            "some of its passages may have been")
    return (f"{what} {LOST_MARK}: run `desktop-app doctor --repair` to read them again from "
            "the file")


def has_lost_passages(notes: Sequence[str]) -> bool:
    return any(LOST_MARK in note for note in notes)


@dataclass
class HealPlan:
    """Rows to write so both tables agree again after damaged files were set aside."""

    restored: list[dict[str, Any]] = field(default_factory=list)  # rebuilt from passages
    placeholders: list[dict[str, Any]] = field(default_factory=list)  # passages lost

    def sentences(self) -> list[str]:
        out = []
        if self.restored:
            out.append(f"{len(self.restored)} document entries were rebuilt from their "
                       "passages")
        lost = sum(1 for r in self.placeholders + self.restored
                   if has_lost_passages(r["notes_list"]))
        if lost:
            out.append(f"{lost} documents lost passages")
        return out


CHUNK_DOCUMENT_COLUMNS = ("title", "source_path", "folder", "file_type", "language", "ingested_at",
               "modified_at")


def plan_heal(documents: Sequence[dict[str, Any]], chunks: Sequence[dict[str, Any]], *,
              documents_damaged: bool, chunks_damaged: bool, embedder_id: str) -> HealPlan:
    """`documents`: full rows (notes as a list in `notes_list`); `chunks`: doc_id, position,
    page_end and the document columns every chunk repeats (`CHUNK_DOCUMENT_COLUMNS`).

    A document short of passages becomes a placeholder with a note saying how many were
    lost; passages without a document row (only when the documents table was damaged:
    otherwise they are an interrupted ingest's, which `recover` drops) get their row back,
    rebuilt from the columns every passage repeats."""
    plan = HealPlan()
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in chunks:
        groups.setdefault(row["doc_id"], []).append(row)
    known = set()
    for doc in documents:
        known.add(doc["doc_id"])
        have = len(groups.get(doc["doc_id"], ()))
        total = int(doc["chunk_count"])
        if have < total:
            notes = [n for n in doc["notes_list"] if LOST_MARK not in n]
            plan.placeholders.append({**doc, "chunk_count": have,
                                      "content_hash": PLACEHOLDER_HASH,
                                      "notes_list": [*notes, lost_note(total - have, total)]})
    if not documents_damaged:
        return plan
    for doc_id, rows in sorted(groups.items()):
        if doc_id in known:
            continue
        first = min(rows, key=lambda r: int(r["position"]))
        expected = max(int(r["position"]) for r in rows) + 1
        # a gap in the positions is a lost passage; a lost last passage cannot be seen, so
        # when passages were damaged too, every rebuilt entry is read again from its file
        notes = ([lost_note(expected - len(rows), expected)] if expected > len(rows)
                 else [lost_note(0, expected)] if chunks_damaged else [])
        plan.restored.append({
            "doc_id": doc_id, **{k: first[k] for k in CHUNK_DOCUMENT_COLUMNS}, "size": 0,
            "content_hash": PLACEHOLDER_HASH,
            "page_count": max(int(r["page_end"]) for r in rows),
            "chunk_count": len(rows), "embedder_id": embedder_id, "notes_list": notes,
            "reader": 0})
    return plan
