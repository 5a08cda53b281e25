"""Limits that keep a hostile or absurd file from hanging or exhausting the machine.

A 318 KB DOCX that unpacks to 84 MB of XML (a million paragraphs) kept ingest busy for
over 500 s with no output. Every limit below is checked before the expensive step it
protects (sizes and element counts from the zip directory and a streaming byte scan,
before any XML tree is built), and a refusal names the limit, so the analyst knows it was
the file, not the app. Generous on purpose: a 2,000-page report is far below all of them.

PDFs have their own: the page limit is a user setting (`max_pages_per_document`); the
object limit is here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

from desktop_app.errors import LimitExceededError

MB = 1024 * 1024
MAX_PARSE_SECONDS = 120.0  # DOCX and HTML: wall-clock time to turn the file into text
MAX_UNPACKED_BYTES = 512 * MB  # DOCX: everything in the zip, decompressed
MAX_XML_BYTES = 64 * MB  # DOCX: the XML parts, decompressed; HTML: the file
MAX_XML_ELEMENTS = 2_000_000  # DOCX main document / HTML: elements (tags)
MAX_TEXT_BYTES = 256 * MB  # .txt / .md
MAX_PDF_OBJECTS = 2_000_000  # PDF: objects in the cross-reference table
# DOCX/XML: elements inside elements. lxml (python-docx's parser) refuses deeper trees
# itself; HTML: the parsed tree (unclosed <p> nest in it), walked without recursion up to
# here. 1,000 <div>s in 11 KB made the reader fail with a RecursionError.
MAX_XML_DEPTH = 256
MAX_HTML_DEPTH = 1_000


def _size(n: float) -> str:
    return f"{n / MB:,.0f} MB" if n >= MB else f"{n / 1024:,.0f} KB"


def too_big(name: str, what: str, actual: float, limit: float) -> LimitExceededError:
    """'“x.docx” unpacks to 840 MB, more than the 512 MB limit for …; nothing was indexed.'"""
    return LimitExceededError(
        f"“{name}” {what} {_size(actual)}, more than the {_size(limit)} limit; it looks "
        "damaged or built to exhaust memory, so nothing was indexed from it.")


def too_many(name: str, what: str, actual: int, limit: int) -> LimitExceededError:
    return LimitExceededError(
        f"“{name}” has more than {limit:,} {what} (at least {actual:,}), the limit Acervo "
        "reads; it looks damaged or built to exhaust memory, so nothing was indexed from it.")


def too_deep(name: str, what: str, limit: int) -> LimitExceededError:
    return LimitExceededError(
        f"“{name}” nests {what} more than {limit:,} deep, the limit Acervo reads; it looks "
        "damaged or built to crash readers, so nothing was indexed from it.")


class Deadline:
    """A parse-time budget; `check()` in the parsing loop refuses the file when it runs out."""

    def __init__(self, name: str, seconds: float | None = None) -> None:
        self.name = name
        self.seconds = MAX_PARSE_SECONDS if seconds is None else seconds
        self._end = time.monotonic() + self.seconds
        self._calls = 0

    def check(self) -> None:
        self._calls += 1
        if self._calls % 64 == 0 and time.monotonic() > self._end:
            raise LimitExceededError(
                f"“{self.name}” took longer than {self.seconds:.0f} s to read, the time limit "
                "for one document, so nothing was indexed from it. A file this slow to "
                "parse is usually damaged or built to hang readers.")


def count_elements(chunks: Iterable[bytes], limit: int) -> int:
    """Start tags in a stream of XML/HTML bytes (a C-speed scan, no tree built); stops once
    past `limit`. A tag split across two chunks may be missed: close enough for a limit."""
    total = 0
    for chunk in chunks:
        total += (chunk.count(b"<") - chunk.count(b"</") - chunk.count(b"<?")
                  - chunk.count(b"<!"))
        if total > limit:
            break
    return total


_TAG = re.compile(rb"<([/?!])?[^<>]*?(/)?>")


def xml_depth(chunks: Iterable[bytes], limit: int) -> int:
    """How deep elements nest in a stream of XML bytes (a scan, no tree built); stops once
    past `limit`. A tag split across two chunks is carried over to the next one."""
    depth = deepest = 0
    tail = b""
    for chunk in chunks:
        data = tail + chunk
        cut = data.rfind(b"<")
        tail = data[cut:] if cut != -1 and data.find(b">", cut) == -1 else b""
        data = data[:len(data) - len(tail)]
        for match in _TAG.finditer(data):
            kind, empty = match.group(1), match.group(2)
            if kind == b"/":
                depth -= 1
            elif kind is None and empty is None:
                depth += 1
                if depth > deepest:
                    deepest = depth
                    if deepest > limit:
                        return deepest
    return deepest
