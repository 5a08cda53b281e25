"""E-mail: single messages (EML) and mailboxes (MBOX), read with the standard library.

A message is a section of its own: its subject as the heading, then its From/To/Cc/Date
lines, then its body (the plain-text part, else the HTML part read like an HTML file).
An .eml file is one page; in a mailbox each message is a page, in mailbox order (page 12
is message 12), at most `max_pages` of them (the rest is reported). Attachments of a
supported type become `Attachment`s, indexed by the pipeline as documents of their own
linked to the message (`ingest/attachments.py`); inline pictures (logos, signatures) and
attachments of other types are counted in a note. A forwarded message is an .eml
attachment. Size and time are bounded: a message up to `limits.MAX_TEXT_BYTES`, a
mailbox up to `MAX_MAILBOX_BYTES`, the parse-time `Deadline` checked per message and per
part, nesting of parts up to `MAX_PART_DEPTH`.
"""

from __future__ import annotations

import email
import mailbox
import time
from collections.abc import Callable
from email import policy
from email.message import EmailMessage, Message
from pathlib import Path, PurePath

from desktop_app.errors import UnreadableDocumentError
from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import (
    Paragraph,
    assemble_page,
    compact_ranges,
    normalize_line,
    split_paragraphs,
    unwrap_lines,
)
from desktop_app.ingest.types import Attachment, LoadedDocument, PageProgress, PageText

MAX_MAILBOX_BYTES = 4 * 1024 * limits.MB
MAX_PART_DEPTH = 20
MAX_ATTACHMENTS = 1_000  # per file
NO_SUBJECT = "(no subject)"
_HEADERS = ("From", "To", "Cc", "Date")


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
    except Exception:  # a malformed header the policy cannot parse
        value = message.get_all(name, [""])[0] if hasattr(message, "get_all") else ""
    return normalize_line(str(value or ""))


def _decoded(part: Message, name: str) -> str:
    from desktop_app.ingest.loaders import decode_bytes

    try:
        content = part.get_content() if isinstance(part, EmailMessage) else None
        if isinstance(content, str):
            return content
    except (LookupError, ValueError, AssertionError, KeyError):
        pass  # an unknown charset, a bad transfer encoding: decode the bytes ourselves
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes) or not payload:
        return ""
    try:
        text, _notes = decode_bytes(payload, part.get_content_charset(), name=name)
    except UnreadableDocumentError:
        return ""
    return text


def _body_paragraphs(body: Message | None, name: str, deadline: limits.Deadline
                     ) -> list[Paragraph]:
    if body is None:
        return []
    text = _decoded(body, name)
    if body.get_content_subtype() == "html":
        from desktop_app.ingest.html_loader import html_paragraphs

        elements = limits.count_elements([text.encode("utf-8", "replace")],
                                         limits.MAX_XML_ELEMENTS)
        if elements > limits.MAX_XML_ELEMENTS:
            raise limits.too_many(name, "HTML elements", elements, limits.MAX_XML_ELEMENTS)
        return html_paragraphs(text, deadline)[0]
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    return [Paragraph(unwrap_lines(block)) for block in split_paragraphs(lines)]


def _as_bytes(message: Message) -> Callable[[], bytes]:
    return message.as_bytes


def _payload(part: Message) -> Callable[[], bytes]:
    def read() -> bytes:
        data = part.get_payload(decode=True)
        return data if isinstance(data, bytes) else b""

    return read


class _Parts:
    """A message's attachments (supported ones kept, the others counted)."""

    def __init__(self, supported: frozenset[str], deadline: limits.Deadline) -> None:
        self.supported = supported
        self.deadline = deadline
        self.kept: list[tuple[str, int, Callable[[], bytes]]] = []
        self.other_types: set[str] = set()

    def visit(self, part: Message, body: Message | None, depth: int = 0) -> None:
        self.deadline.check()
        if depth > MAX_PART_DEPTH:
            return
        if part.get_content_type() == "message/rfc822" and depth:
            inner = part.get_payload()
            forwarded = inner[0] if isinstance(inner, list) and inner else None
            if isinstance(forwarded, Message):
                subject = _header(forwarded, "Subject") or "message"
                self._keep(f"{subject[:80]}.eml", _as_bytes(forwarded))
            return
        if part.is_multipart():
            for child in part.iter_parts() if isinstance(part, EmailMessage) else (
                    part.get_payload() or []):
                if isinstance(child, Message):
                    self.visit(child, body, depth + 1)
            return
        if part is body:
            return
        filename = part.get_filename()
        disposition = part.get_content_disposition()
        if not filename or (disposition == "inline" and part.get_content_maintype() == "image"):
            return
        self._keep(filename, _payload(part))

    def _keep(self, filename: str, read: Callable[[], bytes]) -> None:
        name = PurePath(filename.replace("\\", "/")).name or "attachment"
        suffix = PurePath(name).suffix.lower()
        if suffix not in self.supported:
            self.other_types.add(suffix or "(none)")
        elif len(self.kept) < MAX_ATTACHMENTS:
            self.kept.append((name, 0, read))


def message_page(number: int, message: Message, parts: _Parts, name: str,
                 deadline: limits.Deadline) -> PageText:
    """One message as a page: subject heading, header lines, body."""
    subject = _header(message, "Subject") or NO_SUBJECT
    lines = [f"{h}: {v}" for h in _HEADERS if (v := _header(message, h))]
    try:
        body = message.get_body(("plain", "html")) if isinstance(message, EmailMessage) else None
    except Exception:  # a damaged structure: the message has no readable body
        body = None
    paragraphs = [Paragraph(subject, 1)]
    if lines:
        paragraphs.append(Paragraph("\n".join(lines)))
    paragraphs += _body_paragraphs(body, name, deadline)
    parts.visit(message, body)
    return assemble_page(number, paragraphs)


def _parse(data: bytes, name: str) -> Message:
    try:
        return email.message_from_bytes(data, policy=policy.default)
    except RecursionError as error:  # parts or header values nested thousands deep
        raise UnreadableDocumentError(
            f"“{name}” nests its parts too deep to read; it looks damaged or built to crash "
            "readers, so nothing was indexed from it.") from error
    except Exception as error:  # the parser is lenient: this is a defect it could not skip
        raise UnreadableDocumentError(
            f"“{name}” is not a readable e-mail message (damaged).",
            detail=f"{type(error).__name__}: {error}") from error


def _attachments(found: list[tuple[str, int, Callable[[], bytes]]], origin: Callable[[int], str]
                 ) -> list[Attachment]:
    out = []
    for name, page, read in found:
        out.append(Attachment(name=name, page=page, size=0, read=read, origin=origin(page)))
    return out


def _notes(parts: _Parts) -> list[str]:
    if not parts.other_types:
        return []
    kinds = ", ".join(sorted(parts.other_types)[:6])
    return [f"attachments of types Acervo does not read were not indexed ({kinds})"]


def _supported() -> frozenset[str]:
    from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS

    return frozenset(SUPPORTED_EXTENSIONS)


def load_eml(path: Path) -> LoadedDocument:
    """One message (.eml) as one page; its attachments listed for the pipeline."""
    from desktop_app.ingest.loaders import read_document_bytes

    size = path.stat().st_size
    if size > limits.MAX_TEXT_BYTES:
        raise limits.too_big(path.name, "is", size, limits.MAX_TEXT_BYTES)
    deadline = limits.Deadline(path.name)
    message = _parse(read_document_bytes(path), path.name)
    if not message.keys() and not message.get_payload():
        raise UnreadableDocumentError(f"“{path.name}” is not an e-mail message (no headers).")
    parts = _Parts(_supported(), deadline)
    page = message_page(1, message, parts, path.name, deadline)
    subject = _header(message, "Subject")
    found = [(name, 1, read) for name, _page, read in parts.kept]
    return LoadedDocument(
        path=str(path), file_type="eml", title=subject or path.stem, pages=[page],
        notes=_notes(parts),
        attachments=_attachments(found, lambda _page: f"“{subject or path.stem}”"))


def _refetcher(box: mailbox.mbox, key: str, index: int, supported: frozenset[str]
               ) -> Callable[[], bytes]:
    def read() -> bytes:
        parts = _Parts(supported, limits.Deadline("attachment"))
        message = _parse(box.get_bytes(key), "attachment")
        body = message.get_body(("plain", "html")) if isinstance(message, EmailMessage) else None
        parts.visit(message, body)
        return parts.kept[index][2]() if index < len(parts.kept) else b""

    return read


def load_mbox(path: Path, *, progress: PageProgress | None = None,
              max_pages: int | None = None) -> LoadedDocument:
    """A mailbox (.mbox): each message a page, in order, up to `max_pages` messages."""
    size = path.stat().st_size
    if size > MAX_MAILBOX_BYTES:
        raise limits.too_big(path.name, "is", size, MAX_MAILBOX_BYTES)
    with path.open("rb") as fh:
        if not fh.read(5) == b"From ":
            raise UnreadableDocumentError(
                f"“{path.name}” is not a mailbox (an mbox file starts with a “From ” line).")
    deadline = limits.Deadline(path.name)
    started = time.monotonic()
    box = mailbox.mbox(str(path), factory=None, create=False)
    pages: list[PageText] = []
    found: list[tuple[str, int, Callable[[], bytes]]] = []
    subjects: dict[int, str] = {}
    unreadable: list[int] = []
    parts = _Parts(_supported(), deadline)
    try:
        keys = list(box.iterkeys())
        limit = len(keys) if max_pages is None else min(len(keys), max_pages)
        for number, key in enumerate(keys[:limit], start=1):
            parts.kept = []
            try:
                message = _parse(box.get_bytes(key), path.name)
                pages.append(message_page(number, message, parts, path.name, deadline))
            except (UnreadableDocumentError, RecursionError):
                if time.monotonic() - started > deadline.seconds:
                    raise  # the whole mailbox is out of time, not this message
                unreadable.append(number)  # one bad message must not lose the mailbox
                pages.append(PageText(number=number, text=""))
                continue
            subjects[number] = _header(message, "Subject") or NO_SUBJECT
            # the bytes are fetched again when indexed: parsed messages are not kept
            found += [(name, number, _refetcher(box, key, i, parts.supported))
                      for i, (name, _page, _read) in enumerate(parts.kept)]
            if progress is not None:
                progress(number, limit)
    except OSError as error:
        raise UnreadableDocumentError(
            f"“{path.name}” could not be read ({error.strerror or error}).",
            detail=str(error)) from error
    notes = _notes(parts)
    if unreadable:
        word = "message" if len(unreadable) == 1 else "messages"
        notes.append(f"could not read {word} {compact_ranges(unreadable)} (damaged)")
    if len(keys) > limit:
        notes.insert(0, f"only the first {limit:,} of {len(keys):,} messages were read "
                        "(Settings → maximum pages per document)")
    if not pages:
        notes.append("no messages found")
    return LoadedDocument(
        path=str(path), file_type="mbox", title=path.stem, pages=pages, notes=notes,
        attachments=_attachments(
            found[:MAX_ATTACHMENTS],
            lambda page: f"“{subjects.get(page, NO_SUBJECT)}”, message {page}"))
