"""Named collections: sets of folders and documents (a document may be in several).

A collection keeps folders (every document under one, now or added later, belongs) and
documents by their file path, not their id: a document's id changes when its file does,
its path does not. Which documents a collection holds is decided when it is asked
(`members`), against the index as it is then, so a file saved into a collection's
folder belongs at once. An attachment belongs wherever its message does. Names are
compared without case ("Contratos" and "contratos" are one collection).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.errors import AppError
from desktop_app.ingest.attachments import owner_of
from desktop_app.ingest.pathnames import path_key
from desktop_app.library.state import now_iso
from desktop_app.retrieval.index_api import folder_key, folder_of, in_folder

if TYPE_CHECKING:
    from desktop_app.library.state import LibraryState
    from desktop_app.retrieval.index_api import DocumentRecord

MAX_NAME = 80


@dataclass(frozen=True)
class Collection:
    name: str
    folders: tuple[str, ...] = ()  # folder keys
    documents: tuple[str, ...] = ()  # source paths (path keys)

    def holds(self, source_path: str) -> bool:
        """Whether the document indexed from `source_path` belongs to this collection."""
        owner = owner_of(source_path)
        if owner in self.documents:
            return True
        folder = folder_of(owner)
        return any(in_folder(folder, member) for member in self.folders)


def member_folder(path: Path | str) -> str:
    """A folder as collections keep it: absolute, resolved, in the form documents store."""
    return folder_key(path_key(Path(path).expanduser().resolve()))


class Collections:
    """The collections of this computer's library (in `library.sqlite3`)."""

    def __init__(self, state: LibraryState) -> None:
        self.state = state

    def names(self) -> list[str]:
        return [str(r[0]) for r in self.state.query(
            "SELECT name FROM collections ORDER BY name COLLATE NOCASE")]

    def all(self) -> list[Collection]:
        members: dict[str, tuple[list[str], list[str]]] = {n.casefold(): ([], [])
                                                           for n in self.names()}
        for collection, kind, value in self.state.query(
                "SELECT collection, kind, value FROM collection_members ORDER BY value"):
            folders, documents = members[str(collection).casefold()]
            (folders if kind == "folder" else documents).append(str(value))
        return [Collection(name, tuple(members[name.casefold()][0]),
                           tuple(members[name.casefold()][1])) for name in self.names()]

    def get(self, name: str) -> Collection | None:
        return next((c for c in self.all() if c.name.casefold() == name.strip().casefold()),
                    None)

    def find(self, name: str) -> Collection:
        found = self.get(name)
        if found is None:
            known = ", ".join(f"“{n}”" for n in self.names()) or "none yet"
            raise AppError(f"There is no collection named “{name}” (collections: {known}).")
        return found

    def create(self, name: str) -> Collection:
        clean = " ".join(name.split())
        if not clean or len(clean) > MAX_NAME:
            raise AppError(f"A collection needs a name of 1 to {MAX_NAME} characters.")
        if self.get(clean) is not None:
            raise AppError(f"There is already a collection named “{clean}”.")
        with self.state.transaction() as db:
            db.execute("INSERT INTO collections VALUES (?, ?)", (clean, now_iso()))
        return Collection(clean)

    def rename(self, name: str, new_name: str) -> None:
        old = self.find(name)
        clean = " ".join(new_name.split())
        if not clean or len(clean) > MAX_NAME:
            raise AppError(f"A collection needs a name of 1 to {MAX_NAME} characters.")
        other = self.get(clean)
        if other is not None and other.name.casefold() != old.name.casefold():
            raise AppError(f"There is already a collection named “{clean}”.")
        with self.state.transaction() as db:  # members follow (ON UPDATE CASCADE)
            db.execute("UPDATE collections SET name = ? WHERE name = ?", (clean, old.name))

    def delete(self, name: str) -> None:
        found = self.find(name)
        with self.state.transaction() as db:  # its members go with it (ON DELETE CASCADE)
            db.execute("DELETE FROM collections WHERE name = ?", (found.name,))

    def add(self, name: str, *, folders: Iterable[str] = (), documents: Iterable[str] = (),
            create: bool = True) -> Collection:
        """Add folder keys and document paths; the collection is created when missing."""
        found = self.get(name)
        if found is None:
            if not create:
                self.find(name)
            found = self.create(name)
        rows = [(found.name, "folder", f) for f in folders]
        rows += [(found.name, "document", d) for d in documents]
        with self.state.transaction() as db:
            db.executemany("INSERT OR IGNORE INTO collection_members VALUES (?, ?, ?)", rows)
        return self.find(found.name)

    def remove(self, name: str, *, folders: Iterable[str] = (),
               documents: Iterable[str] = ()) -> Collection:
        found = self.find(name)
        rows = [(found.name, "folder", f) for f in folders]
        rows += [(found.name, "document", d) for d in documents]
        with self.state.transaction() as db:
            db.executemany("DELETE FROM collection_members WHERE collection = ? AND kind = ? "
                           "AND value = ?", rows)
        return self.find(found.name)

    def members(self, name: str, records: Sequence[DocumentRecord]) -> list[DocumentRecord]:
        """The documents of `records` (the index's) that belong to the collection now."""
        collection = self.find(name)
        return [r for r in records if collection.holds(r.source_path)]

    def of_document(self, source_path: str) -> list[str]:
        """The collections a document belongs to (its row in the library list says so)."""
        return [c.name for c in self.all() if c.holds(source_path)]
