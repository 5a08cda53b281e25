"""PowerPoint (PPTX) slides and speaker notes, read with the standard library.

Each slide is one page (page 3 is slide 3, in the presentation's order, hidden slides
included): its title placeholder is the page's heading, then the text of its shapes in
the order they are drawn (groups opened, tables as rows with cells separated by " | "),
then its speaker notes under a "Speaker notes" heading. Slide numbers, dates and footers
repeated by the master are left out. The package and every slide are read within the
limits (`zipxml`).
"""

from __future__ import annotations

import posixpath
import zipfile
from pathlib import Path
from xml.etree.ElementTree import Element

from desktop_app.ingest import limits
from desktop_app.ingest.cleaning import Paragraph, assemble_page, normalize_line, table_to_text
from desktop_app.ingest.types import LoadedDocument, PageText
from desktop_app.ingest.zipxml import (
    ElementBudget,
    attribute,
    local,
    member,
    open_package,
    parse_small,
    stream_elements,
    unreadable,
)

KIND = "presentation"
NOTES_HEADING = "Speaker notes"
_TITLES = frozenset({"title", "ctrTitle"})
_REPEATED = frozenset({"sldNum", "dt", "ftr", "hdr", "sldImg"})
_NOTES_REL = "/notesSlide"


def _relationships(archive: zipfile.ZipFile, part: str, name: str) -> dict[str, tuple[str, str]]:
    """Relationship id → (type, target part) of `part` ("ppt/slides/slide1.xml")."""
    folder, base = posixpath.split(part)
    tree = parse_small(archive, posixpath.join(folder, "_rels", base + ".rels"), name, KIND)
    if tree is None:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for rel in tree:
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External" or not target:
            continue
        resolved = (target.lstrip("/") if target.startswith("/")
                    else posixpath.normpath(posixpath.join(folder, target)))
        out[rel.get("Id", "")] = (rel.get("Type", ""), resolved)
    return out


def _slide_parts(archive: zipfile.ZipFile, name: str) -> list[str]:
    presentation = parse_small(archive, "ppt/presentation.xml", name, KIND)
    if presentation is None:
        raise unreadable(name, KIND, "no ppt/presentation.xml")
    rels = _relationships(archive, "ppt/presentation.xml", name)
    parts = []
    for element in presentation.iter():
        if local(element.tag) == "sldId":
            found = rels.get(_rel_id(element))
            if found:
                parts.append(found[1])
    return parts


def _rel_id(element: Element) -> str:
    """The r:id attribute (the plain `id` is the slide's numeric id)."""
    for key, value in element.attrib.items():
        if key.startswith("{") and key.endswith("}id"):
            return value
    return ""


def _paragraph_text(paragraph: Element) -> str:
    parts: list[str] = []
    for element in paragraph.iter():
        tag = local(element.tag)
        if tag == "t" and element.text:
            parts.append(element.text)
        elif tag == "br":
            parts.append("\n")
        elif tag == "tab":
            parts.append(" ")
    return "\n".join(normalize_line(line) for line in "".join(parts).split("\n")).strip()


def _placeholder(shape: Element) -> str | None:
    for element in shape.iter():
        if local(element.tag) == "ph":
            return attribute(element, "type", "body")
    return None


def _shape_paragraphs(shape: Element, *, notes: bool) -> list[Paragraph]:
    """The text of one drawn shape (a group's shapes in order, a table as rows)."""
    tag = local(shape.tag)
    if tag == "grpSp":
        return [p for child in shape for p in _shape_paragraphs(child, notes=notes)]
    if tag == "graphicFrame":
        rows = [[" ".join(_paragraph_text(p) for p in cell.iter() if local(p.tag) == "p")
                 for cell in row if local(cell.tag) == "tc"]
                for row in shape.iter() if local(row.tag) == "tr"]
        return [Paragraph(table_to_text(rows))] if rows else []
    if tag != "sp":
        return []
    kind = _placeholder(shape)
    if kind in _REPEATED or (notes and kind not in (None, "body")):
        return []
    level = 1 if kind in _TITLES else None
    texts = [_paragraph_text(p) for body in shape if local(body.tag) == "txBody"
             for p in body if local(p.tag) == "p"]
    texts = [t for t in texts if t]
    if level and texts:
        return [Paragraph(" ".join(texts), level)]
    return [Paragraph("\n".join(texts))] if texts else []


def _read_shapes(archive: zipfile.ZipFile, part: str, name: str, deadline: limits.Deadline,
                 budget: ElementBudget, *, notes: bool) -> list[Paragraph]:
    info = member(archive, part)
    if info is None:
        return []
    paragraphs: list[Paragraph] = []
    tree_depth = 0
    for event, element, depth in stream_elements(archive, info, name=name, kind=KIND,
                                                 deadline=deadline, budget=budget):
        tag = local(element.tag)
        if tag == "spTree":
            tree_depth = depth if event == "start" else 0
        elif event == "end" and tree_depth and depth == tree_depth + 1:
            paragraphs += _shape_paragraphs(element, notes=notes)
            element.clear()
    return paragraphs


def load_pptx(path: Path) -> LoadedDocument:
    """A .pptx file: one page per slide with its text and speaker notes."""
    name = path.name
    deadline = limits.Deadline(name)
    budget = ElementBudget(name)
    pages: list[PageText] = []
    with open_package(path, KIND) as archive:
        core = parse_small(archive, "docProps/core.xml", name, KIND)
        title_element = (next((e for e in core.iter() if local(e.tag) == "title"), None)
                         if core is not None else None)
        title = " ".join((title_element.text or "").split()) if title_element is not None else ""
        for number, part in enumerate(_slide_parts(archive, name), start=1):
            paragraphs = _read_shapes(archive, part, name, deadline, budget, notes=False)
            notes_part = next((target for kind, target in
                               _relationships(archive, part, name).values()
                               if kind.endswith(_NOTES_REL)), None)
            spoken = (_read_shapes(archive, notes_part, name, deadline, budget, notes=True)
                      if notes_part else [])
            if spoken:
                paragraphs += [Paragraph(NOTES_HEADING, 2), *spoken]
            pages.append(assemble_page(number, paragraphs))
    if not title:
        title = next((h.title for page in pages[:1] for h in page.headings), "")
    notes = [] if any(page.text for page in pages) else ["no text found"]
    return LoadedDocument(path=str(path), file_type="pptx", title=title or path.stem,
                          pages=pages, notes=notes)
