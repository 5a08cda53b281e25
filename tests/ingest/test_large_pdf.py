"""Huge PDFs: refused quickly with a clear message, or parsed with page progress and cancel."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.errors import CancelledError, UnreadableDocumentError
from desktop_app.ingest.events import FileFailed, PagesParsed, RunDone
from desktop_app.ingest.loaders import load_document


def write_many_page_pdf(path: Path, pages: int, text: str = "Página de teste") -> Path:
    """A valid PDF with `pages` pages sharing one content stream, written directly (fast)."""
    content = f"BT /F1 12 Tf 20 100 Td ({text}) Tj ET".encode("latin-1")
    first_page = 5
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count %d /Kids [" % pages
        + b" ".join(b"%d 0 R" % (first_page + i) for i in range(pages)) + b"] >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>")
    objects.extend([page] * pages)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_a_40000_page_pdf_is_refused_before_parsing(tmp_path: Path) -> None:
    big = write_many_page_pdf(tmp_path / "enorme.pdf", 40_000)
    with pytest.raises(UnreadableDocumentError) as info:
        load_document(big, max_pages=5000)
    message = info.value.user_message
    assert "40,000 pages" in message and "5,000" in message and "enorme.pdf" in message


def test_the_pipeline_reports_the_limit_and_keeps_the_library(
        tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    app: App = build_app(embedder=embedder)
    note = tmp_path / "nota.md"
    note.write_text("# Nota\n\nUma nota curta sobre contratos.\n", encoding="utf-8")
    assert list(app.pipeline.run([note]))[-1].indexed == 1
    big = write_many_page_pdf(tmp_path / "enorme.pdf", 40_000)
    events = list(app.pipeline.run([big]))
    failure = next(e for e in events if isinstance(e, FileFailed))
    assert "40,000 pages" in failure.reason
    assert [d.title for d in app.index.documents()] == ["Nota"]


def test_page_progress_streams_while_parsing(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    app: App = build_app(embedder=embedder)
    pdf = write_many_page_pdf(tmp_path / "medio.pdf", 300, "Contrato de prestacao de servicos")
    progress = [e for e in app.pipeline.run([pdf]) if isinstance(e, PagesParsed)]
    assert len(progress) >= 10
    assert progress[-1].pages_done == progress[-1].pages_total == 300
    assert [p.pages_done for p in progress] == sorted(p.pages_done for p in progress)


def test_cancel_during_parsing_stops_the_run(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    app: App = build_app(embedder=embedder)
    pdf = write_many_page_pdf(tmp_path / "medio.pdf", 2000)
    seen: list = []
    events = app.pipeline.run([pdf], cancel=lambda: any(isinstance(e, PagesParsed) for e in seen))
    for event in events:
        seen.append(event)
    done = seen[-1]
    assert isinstance(done, RunDone) and done.cancelled
    assert seen[-2].pages_done < 2000  # stopped mid-document
    assert app.index.documents() == []


def test_progress_callback_can_cancel_the_loader(tmp_path: Path) -> None:
    pdf = write_many_page_pdf(tmp_path / "medio.pdf", 50)

    def stop(done: int, total: int) -> None:
        if done == 5:
            raise CancelledError()

    with pytest.raises(CancelledError):
        load_document(pdf, progress=stop)
