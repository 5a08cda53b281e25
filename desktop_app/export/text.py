"""An export as Markdown (a file, or the clipboard's plain text) and as HTML (the
clipboard's rich text, and the PDF's layout).

Quotes and answers are written as they are: Markdown gets no escaping (the exported text
must hold the documents' words exactly, `*` and `_` included), HTML only the escaping of
`<`, `>` and `&` that any HTML reader undoes. Each line of an answer stays a line.
"""

from __future__ import annotations

from html import escape

from desktop_app.export.model import ExportDocument, ExportedTurn, Reference


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()] or [""]


def _md_reference(ref: Reference, document: ExportDocument, *, numbered: bool = True) -> str:
    """"[1] **Title** — p. 8 · Art. 18", the file's path, then the quote as a block quote
    (each line of it a line: `>` at the start is Markdown's, not the document's)."""
    labels = document.labels
    head = f"[{ref.number}] " if numbered else ""
    where = f" · {labels.library} “{ref.library}”" if ref.library != "local" else ""
    lines = [f"{head}**{ref.title}** — {ref.location(labels)}{where}  ",
             f"{labels.file}: `{ref.source_path}`", ""]
    for pieces in ref.lines():
        line = "".join(_md_piece(text, struck, labels.revoked) for text, struck in pieces)
        lines.append(f"> {line.rstrip()}" if line.strip() else ">")
    return "\n".join(lines)


def _md_piece(text: str, struck: bool, revoked: str) -> str:
    """Revoked words struck through and labelled; the words themselves unchanged."""
    if not struck or not text.strip():
        return text
    lead, core, tail = _split_space(text)
    return f"{lead}~~{core}~~ _({revoked})_{tail}"


def _split_space(text: str) -> tuple[str, str, str]:
    core = text.strip()
    lead = text[:len(text) - len(text.lstrip())]
    return lead, core, text[len(lead) + len(core):]


def _md_turn(number: int, turn: ExportedTurn, document: ExportDocument) -> str:
    labels = document.labels
    parts = []
    if turn.question:
        parts.append(f"## {number}. {turn.question}")
    else:
        parts.append(f"## {number}. {labels.answer}")
    parts.append("  \n".join(_lines(turn.answer)))
    parts += [f"> ⚠ {note}" for note in turn.notes]
    if turn.closest:
        parts.append(f"**{labels.closest}**\n\n"
                     + "\n".join(_md_reference(r, document, numbered=False)
                                 for r in turn.closest))
    return "\n\n".join(parts)


def to_markdown(document: ExportDocument) -> str:
    labels = document.labels
    parts = [f"# {document.title}"]
    if document.exported_at:
        parts.append(f"_{labels.exported.replace('%1', document.exported_at)}_")
    parts += [_md_turn(n, turn, document) for n, turn in enumerate(document.turns, start=1)]
    if document.references:
        parts.append(f"## {labels.references}\n\n"
                     + "\n\n".join(_md_reference(r, document) for r in document.references))
    return "\n\n".join(parts) + "\n"


def _html_lines(text: str) -> str:
    return "<br>".join(escape(line) for line in _lines(text))


def _html_quote(ref: Reference, revoked: str) -> str:
    lines = []
    for pieces in ref.lines():
        lines.append("".join(
            f"<s>{escape(text)}</s> <small>({escape(revoked)})</small>"
            if struck and text.strip() else escape(text) for text, struck in pieces))
    return "<br>".join(lines)


def _html_reference(ref: Reference, document: ExportDocument, *, numbered: bool = True) -> str:
    labels = document.labels
    where = (f" · {escape(labels.library)} “{escape(ref.library)}”"
             if ref.library != "local" else "")
    head = f"[{ref.number}] " if numbered else ""
    return (f'<p class="ref">{head}<b>{escape(ref.title)}</b> — '
            f"{escape(ref.location(labels))}{where}</p>"
            f'<blockquote class="quote">{_html_quote(ref, labels.revoked)}</blockquote>'
            f'<p class="file">{escape(labels.file)}: <code>{escape(ref.source_path)}</code></p>')


def to_html(document: ExportDocument, *, standalone: bool = True) -> str:
    """The export as HTML (`standalone`: a whole page with its styles, for the PDF)."""
    labels = document.labels
    body = [f"<h1>{escape(document.title)}</h1>"]
    if document.exported_at:
        body.append(f'<p class="meta"><i>{escape(labels.exported.replace("%1", document.exported_at))}</i></p>')
    for number, turn in enumerate(document.turns, start=1):
        heading = turn.question or labels.answer
        body.append(f"<h2>{number}. {escape(heading)}</h2>")
        body.append(f'<p class="answer">{_html_lines(turn.answer)}</p>')
        body += [f'<p class="note">⚠ {escape(note)}</p>' for note in turn.notes]
        if turn.closest:
            body.append(f"<p><b>{escape(labels.closest)}</b></p>")
            body += [_html_reference(r, document, numbered=False) for r in turn.closest]
    if document.references:
        body.append(f"<h2>{escape(labels.references)}</h2>")
        body += [_html_reference(r, document) for r in document.references]
    html = "\n".join(body)
    if not standalone:
        return html
    return ("<html><head><meta charset='utf-8'><style>"
            "body{font-family:sans-serif;font-size:11pt}"
            "h1{font-size:16pt} h2{font-size:13pt;margin-top:14pt}"
            "blockquote{margin:2pt 0 2pt 16pt;font-style:italic}"
            ".note{color:#8a5a00} .file,.meta{color:#555555;font-size:9pt}"
            "code{font-family:monospace;font-size:9pt}"
            f"</style></head><body>{html}</body></html>")
