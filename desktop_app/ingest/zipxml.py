"""Zip packages of XML (ODF, OOXML, EPUB) read within the hostile-file limits.

`open_package` checks the zip directory before anything is inflated: the sum of declared
sizes against `limits.MAX_UNPACKED_BYTES` and of the XML parts against
`limits.MAX_XML_BYTES` (zipfile never inflates past a member's declared size: a lying
header fails its CRC check instead). `stream_elements` then parses one part with the
standard library's pull parser, fed a megabyte at a time, and enforces while it reads:
no DTD or entity declarations (office formats never carry one; "billion laughs" needs
one), at most `limits.MAX_XML_ELEMENTS` elements, at most `MAX_XML_DEPTH` levels of
nesting, and the parse-time `Deadline`. Callers clear each element they are done with,
so memory stays bounded by the open path, not the document.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError, XMLPullParser

from desktop_app.errors import LimitExceededError, UnreadableDocumentError
from desktop_app.ingest import limits

# Elements inside elements: what real office files nest is far below (a table in a frame in
# a list is ~30 levels); a deeper tree is built to crash recursive readers.
MAX_XML_DEPTH = 256
_BLOCK = 1 << 20
_DECLARATIONS = (b"<!DOCTYPE", b"<!ENTITY")


def unreadable(name: str, kind: str, detail: str = "") -> UnreadableDocumentError:
    """'“x.ods” is not a readable spreadsheet (damaged, or password-protected).'"""
    return UnreadableDocumentError(
        f"“{name}” is not a readable {kind} (damaged, or password-protected).", detail=detail)


def too_deep(name: str) -> LimitExceededError:
    return LimitExceededError(
        f"“{name}” nests XML elements more than {MAX_XML_DEPTH:,} deep, the limit Acervo "
        "reads; it looks damaged or built to crash readers, so nothing was indexed from it.")


def declares_entities(name: str) -> UnreadableDocumentError:
    return UnreadableDocumentError(
        f"“{name}” declares XML entities, which office files never do; it looks built to "
        "exhaust memory, so nothing was indexed from it.")


@contextmanager
def open_package(path: Path, kind: str) -> Iterator[zipfile.ZipFile]:
    """The zip archive at `path`, its declared sizes checked; damage becomes one
    `UnreadableDocumentError` naming `kind` ("spreadsheet", "presentation"…)."""
    name = path.name
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as error:
        raise unreadable(name, kind, str(error)) from error
    with archive:
        members = archive.infolist()
        unpacked = sum(m.file_size for m in members)
        if unpacked > limits.MAX_UNPACKED_BYTES:
            raise limits.too_big(name, "unpacks to", unpacked, limits.MAX_UNPACKED_BYTES)
        xml = sum(m.file_size for m in members
                  if m.filename.lower().endswith((".xml", ".rels", ".xhtml", ".html", ".htm",
                                                  ".opf", ".ncx")))
        if xml > limits.MAX_XML_BYTES:
            raise limits.too_big(name, "holds XML text of", xml, limits.MAX_XML_BYTES)
        try:
            yield archive
        except (zipfile.BadZipFile, EOFError, KeyError, zipfile.LargeZipFile) as error:
            raise unreadable(name, kind, str(error)) from error
        except RuntimeError as error:  # zipfile: an encrypted member needs a password
            raise unreadable(name, kind, str(error)) from error


def member(archive: zipfile.ZipFile, filename: str) -> zipfile.ZipInfo | None:
    try:
        return archive.getinfo(filename)
    except KeyError:
        return None


def read_small(archive: zipfile.ZipFile, filename: str, name: str) -> bytes | None:
    """A small part (a manifest, relationships) read whole after the usual checks; None
    when absent."""
    info = member(archive, filename)
    if info is None:
        return None
    data = archive.read(info)
    if any(marker in data for marker in _DECLARATIONS):
        raise declares_entities(name)
    return data


def parse_small(archive: zipfile.ZipFile, filename: str, name: str, kind: str
                ) -> Element | None:
    """A small part as a tree (relationships, manifests: a few elements); None when absent."""
    from xml.etree.ElementTree import fromstring

    data = read_small(archive, filename, name)
    if data is None:
        return None
    if limits.count_elements([data], limits.MAX_XML_ELEMENTS) > limits.MAX_XML_ELEMENTS:
        raise limits.too_many(name, "XML elements", limits.MAX_XML_ELEMENTS + 1,
                              limits.MAX_XML_ELEMENTS)
    try:
        return fromstring(data)
    except ParseError as error:
        raise unreadable(name, kind, str(error)) from error


class ElementBudget:
    """Elements counted across all the parts of one document (the limit is per document)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0

    def add(self, n: int = 1) -> None:
        self.count += n
        if self.count > limits.MAX_XML_ELEMENTS:
            raise limits.too_many(self.name, "XML elements", self.count,
                                  limits.MAX_XML_ELEMENTS)


def stream_elements(archive: zipfile.ZipFile, info: zipfile.ZipInfo, *, name: str, kind: str,
                    deadline: limits.Deadline, budget: ElementBudget | None = None
                    ) -> Iterator[tuple[str, Element, int]]:
    """("start" | "end", element, depth) for one part, with every limit enforced as it is
    read. An element the caller clears at its end (`element.clear()`) is dropped from the
    tree, so memory stays bounded by the open path; one it keeps is there for its parent's
    end."""
    budget = budget or ElementBudget(name)
    parser: Any = XMLPullParser(events=("start", "end"))
    open_path: list[Element] = []  # the elements started and not yet ended

    def events() -> Iterator[tuple[str, Element, int]]:
        for event, element in parser.read_events():
            deadline.check()
            if event == "start":
                open_path.append(element)
                budget.add()
                if len(open_path) > MAX_XML_DEPTH:
                    raise too_deep(name)
                yield "start", element, len(open_path)
                continue
            yield "end", element, len(open_path)
            open_path.pop()
            # an element the caller cleared leaves its parent too: memory stays flat
            if (open_path and len(open_path[-1]) and open_path[-1][-1] is element
                    and not len(element) and not element.attrib and element.text is None):
                del open_path[-1][-1]

    tail = b""
    try:
        with archive.open(info) as fh:
            while block := fh.read(_BLOCK):
                window = tail + block  # a declaration split across two blocks
                if any(marker in window for marker in _DECLARATIONS):
                    raise declares_entities(name)
                tail = block[-16:]
                parser.feed(block)
                yield from events()
            parser.close()
            yield from events()
    except ParseError as error:
        raise unreadable(name, kind, str(error)) from error


def local(tag: Any) -> str:
    """'{urn:…}table-row' → 'table-row' (namespaces differ between producers' versions)."""
    text = str(tag)
    return text.rsplit("}", 1)[-1]


def attribute(element: Element, wanted: str, default: str = "") -> str:
    """An attribute by local name, whatever its namespace prefix."""
    for key, value in element.attrib.items():
        if key.rsplit("}", 1)[-1] == wanted:
            return value
    return default


_TAG = re.compile(rb"<([/?!])?([A-Za-z][\w:.-]*)?[^<>]*?(/)?>")
_VOID = frozenset(b"area base br col embed hr img input link meta param source track wbr".split())


def check_markup(chunks: Iterable[bytes], *, name: str, budget: ElementBudget,
                 deadline: limits.Deadline) -> None:
    """The limits of `stream_elements` for markup that may not be well-formed XML (an
    e-book's XHTML, read by MuPDF's lenient HTML parser): entity declarations, elements
    (into `budget`) and nesting depth, by a scan of the bytes (HTML's void elements such
    as <br> need no closing tag)."""
    depth = 0
    tail = b""
    for chunk in chunks:
        deadline.check()
        data = tail + chunk
        if any(marker in data for marker in _DECLARATIONS[1:]):
            raise declares_entities(name)
        cut = data.rfind(b"<")
        tail = data[cut:] if cut != -1 and data.find(b">", cut) == -1 else b""
        data = data[:len(data) - len(tail)]
        opened = 0
        for match in _TAG.finditer(data):
            kind, tag, empty = match.groups()
            if kind == b"/":
                depth = max(0, depth - 1)
            elif kind is None and empty is None and (tag or b"").lower() not in _VOID:
                depth += 1
                opened += 1
                if depth > MAX_XML_DEPTH:
                    raise too_deep(name)
        budget.add(opened)
