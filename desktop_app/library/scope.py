"""The scope of a question: the whole library, a collection, or chosen documents.

A scope becomes `SearchFilters.doc_ids` (applied inside both search legs by every backend)
with `SearchFilters.scope` naming it; the answer's trace records the filters, so the
scope an answer was given in is kept with it and shown with it. A scope that holds no
document is refused with a sentence rather than answered from nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.errors import AppError
from desktop_app.retrieval.types import SearchFilters

if TYPE_CHECKING:
    from desktop_app.library.collections import Collections
    from desktop_app.retrieval.index_api import DocumentRecord


@dataclass(frozen=True)
class Scope:
    """What a question is asked about: `collections` by name and `documents` by id; both
    empty is the whole library."""

    collections: tuple[str, ...] = ()
    documents: tuple[str, ...] = ()

    @property
    def everything(self) -> bool:
        return not self.collections and not self.documents

    def label(self) -> str:
        """"collection “Contratos”", "3 selected documents", … (English, for the trace and
        the terminal; the window words it in the user's language)."""
        parts = [f"collection “{name}”" for name in self.collections]
        if self.documents:
            n = len(self.documents)
            parts.append("1 selected document" if n == 1 else f"{n} selected documents")
        return " + ".join(parts)


def scope_filters(scope: Scope, records: Sequence[DocumentRecord], collections: Collections,
                  base: SearchFilters | None = None) -> SearchFilters | None:
    """`base` narrowed to the scope's documents (None when the scope is everything and
    there is no base). Raises `AppError` for an unknown collection or document, or a scope
    with no document in it."""
    if scope.everything:
        return base
    known = {r.doc_id for r in records}
    missing = [d for d in scope.documents if d not in known]
    if missing:
        raise AppError(f"No document with id {missing[0]} is in the library (see "
                       "`desktop-app documents list`).")
    chosen = dict.fromkeys(scope.documents)
    names = []
    for name in scope.collections:
        names.append(collections.find(name).name)  # as it was created, for the label
        members = collections.members(name, records)
        if not members:
            raise AppError(f"The collection “{names[-1]}” has no documents yet: add folders "
                           "or documents to it first.")
        chosen.update(dict.fromkeys(r.doc_id for r in members))
    label = Scope(tuple(names), scope.documents).label()
    return dataclasses.replace(base or SearchFilters(), doc_ids=tuple(chosen), scope=label)
