"""Screenshots of the Search view, "Why not found?" and an export, as a user meets them.

    .venv/bin/python bench/screenshots_search.py [--language en|pt_BR] [--size 1366x768]
        [--home DIR] [--out bench/results/screenshots]

Offscreen (real pixels and fonts; `--xcb` uses the display instead). A library with the
LGPD PDF and the bundled samples (ingested into a temporary home unless --home holds one)
and no language model. Session: a question answered from the sources → a click on its
first badge (the answer stays in view while the panes re-arrange) → a question the
documents do not answer, its "Why not found?" (the Search view explains it) → a search of
its own in the Search view → "Export…" of the chat to PDF, DOCX and Markdown (the window,
and the PDF's first page rendered) → the short guide (Help → How Acervo works). Files:
`search-<language>-<size>-NN-what.png`.

`--docs` also copies the ones the documentation shows (the Search view, "Why not found?",
the window after an export and the exported PDF's first page) to docs/images/ as
`<what>-<language>-<size>.png` (the PDF: `export-pdf-<language>.png`), made smaller with ImageMagick when over 150 KB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
LGPD = REPO.parent / "shared" / "eval" / "pdfs" / "pt" / "lgpd.pdf"
QUESTIONS = {"pt_BR": ("Quais são os direitos do titular?", "Qual a capital da Austrália?",
                       "prazo para responder ao titular"),
             "en": ("Quais são os direitos do titular?", "What is the capital of Australia?",
                    "prazo para responder ao titular")}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="pt_BR", choices=("pt_BR", "en"))
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--home", type=Path, default=None,
                        help="an ACERVO_HOME with the library (default: a new one)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "screenshots")
    parser.add_argument("--xcb", action="store_true")
    parser.add_argument("--docs", action="store_true",
                        help="copy the documentation's shots to docs/images/")
    return parser.parse_args()


DOCS = REPO / "docs" / "images"
DOC_SHOTS = {"06-search-passage-opened": "search-view", "04-why-not-found": "why-not-found",
             "07-exported": "export-window", "08-export-pdf-page1": "export-pdf"}
DOC_LIMIT = 150_000  # bytes a documentation image may take


def to_docs(shot: Path, name: str) -> Path:
    """`shot` copied to docs/images as `name`, fewer colours when it is too big (a UI
    screenshot keeps its look with 256 colours; PNG8 is a third of the size)."""
    DOCS.mkdir(parents=True, exist_ok=True)
    target = DOCS / f"{name}.png"
    shutil.copyfile(shot, target)
    convert = shutil.which("magick") or shutil.which("convert")
    for colours in (256, 128, 64):
        if target.stat().st_size <= DOC_LIMIT or convert is None:
            break
        subprocess.run([convert, str(shot), "-strip", "-colors", str(colours),
                        f"PNG8:{target}"], check=True)
    print(f"docs: {target.relative_to(REPO)} ({target.stat().st_size // 1024} KB)")
    return target


def main() -> int:
    args = parse_args()
    if not args.xcb:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    home = Path(tempfile.mkdtemp(prefix="acervo-shots-search-"))
    if args.home is not None:
        shutil.copytree(args.home, home, dirs_exist_ok=True, symlinks=True)
    os.environ["ACERVO_HOME"] = str(home)
    args.out.mkdir(parents=True, exist_ok=True)
    prefix = f"search-{args.language}-{args.size}-"
    width, height = (int(x) for x in args.size.split("x"))

    from PySide6.QtCore import QPoint, Qt, QUrl
    from PySide6.QtGui import QTextCursor

    from desktop_app.app import build_app
    from desktop_app.config.paths import resource
    from desktop_app.gui.run import build_window, create_qt_application

    qt_app = create_qt_application()
    app = build_app()
    app.settings.language = args.language
    app.settings.llm_backend = "none"
    app.settings.last_conversation = ""
    if args.home is None:
        docs = [LGPD, *sorted(p for p in resource("samples").glob("*") if p.is_file())]
        print("ingesting", [p.name for p in docs])
        list(app.pipeline.run(docs))
    window = build_window(app, qt_app)
    window.resize(width, height)
    window.show()

    def wait(condition: Callable[[], bool], timeout: float, what: str) -> None:
        started = time.perf_counter()
        while not condition():
            if time.perf_counter() - started > timeout:
                raise SystemExit(f"timed out waiting for {what}")
            qt_app.processEvents()
            time.sleep(0.02)
        for _ in range(10):
            qt_app.processEvents()

    def shot(widget: object, name: str) -> Path:
        for _ in range(10):
            qt_app.processEvents()
        path = args.out / f"{prefix}{name}.png"
        widget.grab().save(str(path))  # type: ignore[attr-defined]
        print("saved", path.relative_to(REPO) if path.is_relative_to(REPO) else path)
        return path

    def ask(question: str) -> None:
        window.show_chat()
        window.chat.question.setPlainText(question)
        window.chat.ask()
        wait(lambda: not window.chat.is_busy(), 600, f"the answer to {question!r}")

    def click(view: object, href: str) -> None:
        from PySide6.QtTest import QTest

        position = next(p for p, h in [*view.anchor_positions(),  # type: ignore[attr-defined]
                                       *view.action_positions()] if h == href)
        cursor = QTextCursor(view.document())  # type: ignore[attr-defined]
        cursor.setPosition(position)
        rect = view.cursorRect(cursor)  # type: ignore[attr-defined]
        if not view.viewport().rect().contains(rect.center()):  # type: ignore[attr-defined]
            bar = view.verticalScrollBar()  # type: ignore[attr-defined]
            bar.setValue(bar.value() + rect.top() - view.viewport().height() // 2)  # type: ignore[attr-defined]
            qt_app.processEvents()
            rect = view.cursorRect(cursor)  # type: ignore[attr-defined]
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,  # type: ignore[attr-defined]
                         pos=QPoint(rect.x() + 5, rect.center().y()))

    window.start()
    wait(window.models_loaded, 600, "models")
    rights, elsewhere, own_search = QUESTIONS[args.language]

    ask(rights)
    shot(window, "01-answer")
    click(window.chat.view, "cite:0/1")
    wait(lambda: window.viewer.citation is not None, 30, "the viewer")
    time.sleep(0.5)
    shot(window, "02-badge-opened")

    ask(elsewhere)
    link = next(h for _p, h in window.chat.view.action_positions() if h.startswith(
        "action:explain-"))
    window.chat.view.verticalScrollBar().setValue(window.chat.view.verticalScrollBar().maximum())
    shot(window, "03-not-found")
    click(window.chat.view, link)
    wait(lambda: window.search.result is not None and window.search.search_button.isEnabled(),
         300, "the explanation")
    shot(window, "04-why-not-found")

    window.search.query.setText(own_search)
    window.search.search()
    wait(lambda: window.search.search_button.isEnabled() and window.search.result is not None
         and window.search.result.query == own_search, 300, "the search")
    shot(window, "05-search-view")
    window.search.results.anchorClicked.emit(QUrl("passage:1"))
    wait(lambda: window.viewer.citation is not None, 30, "the passage")
    time.sleep(0.5)
    shot(window, "06-search-passage-opened")

    out = Path(tempfile.mkdtemp(prefix="acervo-export-"))
    written: list[str] = []
    window.exports.exported.connect(written.append)
    conversation = window.chat.conversation_id or ""
    for count, suffix in enumerate(("pdf", "docx", "md"), start=1):
        window.exports.export(conversation, path=out / f"chat.{suffix}")
        wait(lambda count=count: len(written) >= count, 120, f"the {suffix} export")
    window.show_chat()
    shot(window, "07-exported")
    import pymupdf

    with pymupdf.open(str(out / "chat.pdf")) as pdf:
        pixmap = pdf[0].get_pixmap(dpi=80)
        target = args.out / f"{prefix}08-export-pdf-page1.png"
        pixmap.save(str(target))
        print("saved", target)
    print("exports:", ", ".join(written))

    if args.docs:
        size = f"{width}x{height}"
        for stem, name in DOC_SHOTS.items():
            # (the exported PDF's page is the same at any window size)
            suffix = "" if name == "export-pdf" else f"-{size}"
            to_docs(args.out / f"{prefix}{stem}.png", f"{name}-{args.language}{suffix}")

    window.show_guide()
    assert window.guide is not None
    shot(window.guide, "09-guide")
    window.workers.cancel_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
