"""What recovery must do to an index an interruption left behind (pure planning, no I/O).

Rows are identified by LanceDB's `_rowid`, never by doc id alone: when two processes
wrote the same document twice, both copies share a doc id, and "delete the older
version by doc id" deleted both (issue 11: the library came back empty). The plan:

- duplicate `documents` rows of one doc id: keep the first row, drop the others;
- duplicate `chunks` rows of one chunk id: keep the first, drop the others;
- chunks whose document row is missing (killed between the two writes): drop them;
- documents with fewer chunks than their row says (chunks lost): drop the document, so
  the next ingest adds it again instead of searching a partial copy;
- several complete versions of one path (killed between adding the new version and
  deleting the old): keep the newest, drop the rest — never the only complete copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


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
    """`documents` rows need doc_id, source_path, ingested_at, chunk_count, _rowid;
    `chunks` rows need doc_id, chunk_id, _rowid."""
    plan = RecoveryPlan()
    docs, plan.duplicate_document_rows = _first_rows(documents, "doc_id")
    kept_chunks, plan.duplicate_chunk_rows = _first_rows(chunks, "chunk_id")
    per_doc: dict[str, int] = {}
    for row in kept_chunks.values():
        per_doc[row["doc_id"]] = per_doc.get(row["doc_id"], 0) + 1
    plan.orphan_chunk_docs = sorted(set(per_doc) - set(docs))
    plan.incomplete_documents = sorted(
        doc_id for doc_id, row in docs.items() if per_doc.get(doc_id, 0) < int(row["chunk_count"]))
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
