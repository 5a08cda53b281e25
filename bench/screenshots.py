"""Scripted GUI session that saves screenshots (and prints start-up/ingest/answer timings).

    .venv/bin/python bench/screenshots.py [--language pt_BR|en] [--docs PATH ...]
        [--question "..."] [--followup "..."] [--out bench/results/screenshots] [--home DIR]
        [--size 1024x600] [--prefix 1024x600-] [--skip-model]

Runs offscreen (QT_QPA_PLATFORM=offscreen: real pixels, fonts and PDF glyphs, the
same as Xvfb; pass --xcb to use a real display such as `xvfb-run -a`). A fresh
ACERVO_HOME is used unless --home is given. Session: window before models →
models loaded → files dropped on the window (ingesting, then done) → a preference
told in chat ("memory saved · undo") → a question answered by the bundled model
(as a labelled experiment: it is below the answer-mode line) → the same question
answered from the sources (the default) → a real click on the first citation badge (viewer
at the cited page, passage highlighted) → the same passage zoomed in (Ctrl++) → a
sensitive fact told in chat (consent given first) → the memory panel → its deletion
dialog offering to delete the messages too → the erasure receipt (details open) → the
chat reloaded after the erasure → settings → dark mode → the other UI language, switched
live (earlier answers re-labelled). `--size 1024x600` runs the whole session in a
window of that size (a small laptop); `--prefix` names those files apart.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_PDF = REPO.parent / "shared" / "eval" / "pdfs" / "pt" / "lgpd.pdf"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="pt_BR", choices=("pt_BR", "en"))
    parser.add_argument("--docs", nargs="*", type=Path, default=None,
                        help="files/folders to drop (default: resources/samples, else LGPD)")
    parser.add_argument("--question", default="Quais são os direitos do titular?")
    parser.add_argument("--followup", default="",
                        help="asked right after the sources-only answer, in its conversation "
                             "(its badges are the ones clicked)")
    parser.add_argument("--preference", default="Lembre que eu prefiro respostas curtas e objetivas.")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "screenshots")
    parser.add_argument("--home", type=Path, default=None, help="ACERVO_HOME (default: a temp dir)")
    parser.add_argument("--skip-model", action="store_true",
                        help="skip the answer by the bundled model (slow on a busy machine)")
    parser.add_argument("--xcb", action="store_true", help="use the real display instead of offscreen")
    parser.add_argument("--size", default="", help="window size, e.g. 1024x600")
    parser.add_argument("--prefix", default="", help="file name prefix, e.g. 1024x600-")
    parser.add_argument("--sensitive", default="Lembre que eu tenho diabetes tipo 2.",
                        help="a fact of a sensitive category told in chat (consent given)")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if not args.xcb:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    home = args.home or Path(tempfile.mkdtemp(prefix="acervo-shots-"))
    os.environ["ACERVO_HOME"] = str(home)
    args.out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QThreadPool, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent, QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from desktop_app.app import build_app
    from desktop_app.config.paths import resource
    from desktop_app.gui.run import build_window, create_qt_application
    from desktop_app.gui.settings_dialog import SettingsDialog
    from desktop_app.gui.theme import ColorSchemeFollower

    qt_app = create_qt_application()
    app = build_app()
    app.settings.language = args.language
    window = build_window(app, qt_app)
    if args.size:  # (offscreen, the window is not limited to a screen's size)
        width, height = (int(x) for x in args.size.split("x"))
        window.resize(width, height)
    window.show()
    qt_app.processEvents()
    shown = time.perf_counter() - started
    print(f"window shown after {shown:.2f} s (models not loaded: "
          f"{'embedder' not in app.__dict__})")

    # event-loop stall probe: a 20 ms timer; any gap well above 20 ms is a frozen GUI
    from PySide6.QtCore import QTimer

    gaps: list[float] = []
    last_tick = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last_tick[0])
        last_tick[0] = now

    probe = QTimer()
    probe.setInterval(20)
    probe.timeout.connect(tick)
    probe.start()

    def stalls(label: str) -> None:
        if gaps:
            ordered = sorted(gaps)
            p99 = ordered[int(0.99 * (len(ordered) - 1))]
            print(f"  GUI event loop during {label}: {len(gaps)} ticks, max gap "
                  f"{1000 * ordered[-1]:.0f} ms, p99 {1000 * p99:.0f} ms")
        gaps.clear()

    def wait(condition: Callable[[], bool], timeout: float, what: str) -> float:
        t0 = time.perf_counter()
        while not condition():
            if time.perf_counter() - t0 > timeout:
                raise SystemExit(f"timed out waiting for {what}")
            qt_app.processEvents()
            time.sleep(0.02)
        for _ in range(5):
            qt_app.processEvents()
        return time.perf_counter() - t0

    def shot(widget, name: str) -> None:
        for _ in range(5):
            qt_app.processEvents()
        path = args.out / f"{args.prefix}{name}.png"
        widget.grab().save(str(path))
        print(f"  saved {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")

    window.start()  # what run_gui does right after show()
    wait(lambda: bool(window.model_states), 60, "the first loading state")
    shot(window, "01-startup-loading")
    loaded = wait(window.models_loaded, 600, "models")
    stalls("model loading")
    print(f"models loaded in {loaded:.1f} s: "
          + ", ".join(f"{k}={s.state}" for k, s in window.model_states.items()))

    samples = [p for p in resource("samples").glob("*") if p.is_file()] \
        if resource("samples").is_dir() else []
    docs = args.docs or samples or [DEFAULT_PDF]
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p.resolve())) for p in docs])
    centre = window.rect().center()
    QApplication.sendEvent(window, QDragEnterEvent(QPoint(centre), Qt.DropAction.CopyAction, mime,
                                                   Qt.MouseButton.LeftButton,
                                                   Qt.KeyboardModifier.NoModifier))
    finished: list[object] = []
    window.library.runFinished.connect(finished.append)
    QApplication.sendEvent(window, QDropEvent(QPointF(centre), Qt.DropAction.CopyAction, mime,
                                              Qt.MouseButton.LeftButton,
                                              Qt.KeyboardModifier.NoModifier))
    wait(lambda: window.library.progress.value() >= 300 or bool(finished), 900, "ingest progress")
    shot(window, "02-ingesting")
    gaps.clear()  # the grab itself is GUI work; measure the ingestion alone from here
    ingest_s = wait(lambda: bool(finished), 1800, "ingestion")
    wait(lambda: window.library.model.rowCount() > 0, 60, "library refresh")
    stalls("ingestion")
    print(f"ingested {[p.name for p in docs]}: {finished[0]} (+{ingest_s:.1f} s after shot 02)")
    shot(window, "03-library")

    def ask(question: str, sources_only: bool, experiment: bool = False) -> float:
        window.chat.sources_only.setChecked(sources_only)
        t0 = time.perf_counter()
        if experiment:  # what the notice's "try the small model (experiment)" link does
            window.chat.ask(question, experiment=True)
        else:
            window.chat.question.setPlainText(question)
            QTest.mouseClick(window.chat.ask_button, Qt.MouseButton.LeftButton)
        wait(lambda: not window.chat.is_busy(), 900, "answer")
        return time.perf_counter() - t0

    print(f"preference turn: {ask(args.preference, False):.1f} s")
    shot(window, "04-memory-saved")
    if not args.skip_model:
        gaps.clear()
        print(f"answer with the bundled model: {ask(args.question, False, True):.1f} s")
        stalls("the model's answer")
        shot(window, "05-answer-model")
    window.chat.new_chat()
    print(f"sources-only answer: {ask(args.question, True):.1f} s")
    shot(window, "06-answer-sources-only")
    if args.followup:
        print(f"follow-up: {ask(args.followup, True):.1f} s")
        shot(window, "06b-follow-up")

    view = window.chat.view
    anchors = view.anchor_positions()

    def badge(href: str) -> tuple[int, int]:
        """(answer, number) of a badge's "cite:<answer>/<number>" link."""
        answer, number = (int(x) for x in href.split(":", 1)[1].split("/"))
        return answer, number

    if anchors:  # the last answer's badges (the follow-up's, when there is one)
        last = max(badge(h)[0] for _p, h in anchors)
        anchors = [a for a in anchors if badge(a[1])[0] == last]

    def is_pdf(href: str) -> bool:
        cited = view.citation(*badge(href))
        return cited is not None and cited.file_type == "pdf"

    # prefer a PDF citation (the viewer jumps to the page); the last one in the answer
    # text, i.e. before the sources list, supports the most specific claim
    in_answer = anchors[:len(anchors) - 2 * len({h for _p, h in anchors})] or anchors
    pdf_anchors = [a for a in in_answer if is_pdf(a[1])]
    if anchors:
        position, href = (pdf_anchors or anchors)[-1] if pdf_anchors else anchors[0]
        cursor = QTextCursor(view.document())
        cursor.setPosition(position)
        rect = view.cursorRect(cursor)
        highlighted: list[str] = []
        window.viewer.highlightApplied.connect(highlighted.append)
        window.viewer.passageShown.connect(lambda page: highlighted.append(str(page)))
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, QPoint(rect.x() + 5, rect.center().y()))
        wait(lambda: len(highlighted) >= 2 or (bool(highlighted) and
                                               window.viewer.stack.currentWidget()
                                               is window.viewer.text_view), 60, "viewer")
        print(f"clicked {href}: viewer page {window.viewer.current_pdf_page()}, "
              f"highlight {highlighted[-1][:60]!r}")
        shot(window, "07-citation-opened")
        if window.viewer.stack.currentWidget() is window.viewer.pdf_view:
            for _ in range(2):
                QTest.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
            _pause(qt_app, 1.5)  # the page re-renders at the new zoom
            print(f"zoomed to {window.viewer.pdf_view.effective_zoom():.0%}")
            shot(window, "07b-citation-zoomed")
            QTest.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    else:
        print("no citation badge in the answer: nothing to click")

    # a sensitive fact (consent given as in the consent dialog), then erased from the panel
    app.memory.set_consent("health", True)
    print(f"sensitive turn: {ask(args.sensitive, False):.1f} s")
    conversation = window.chat.conversation_id
    window.show_memory()
    panel = window.memory_panel
    wait(lambda: panel.model.rowCount() > 1, 60, "memory rows")
    shot(window.memory_window, "08-memory-panel")
    sensitive_rows = [row for row, item in enumerate(panel.model.items) if item.sensitive]
    if sensitive_rows:
        from desktop_app.gui.memory_dialogs import EraseDialog

        panel.table.selectRow(panel.proxy.mapFromSource(
            panel.model.index(sensitive_rows[0], 0)).row())
        shown: list[EraseDialog] = []

        def open_dialog(dialog: EraseDialog) -> int:
            shown.append(dialog)
            dialog.show()
            shot(dialog, "08b-erase-with-messages")
            print(f"erase dialog: 'also delete my messages' ticked = "
                  f"{dialog.with_messages.isChecked()}")
            dialog.hide()
            return int(EraseDialog.DialogCode.Accepted)

        EraseDialog.exec = open_dialog  # type: ignore[method-assign]
        receipts: list[object] = []
        panel.receiptShown.connect(receipts.append)
        panel.delete_selected()
        wait(lambda: bool(receipts), 120, "erasure")
        panel.receipt_details_button.setChecked(True)
        shot(window.memory_window, "08c-erasure-receipt")
        window.memory_window.hide()
        wait(lambda: window.chat.conversation_id == conversation, 30, "chat reload")
        _pause(qt_app, 1.0)
        shot(window, "08d-chat-after-erasure")
    else:
        print("the sensitive fact was not saved: no erasure dialog to show")
        window.memory_window.hide()

    embedder = app.__dict__.get("embedder")
    dialog = SettingsDialog(app.settings, embedder_id=getattr(embedder, "id", ""), parent=window)
    dialog.show()
    shot(dialog, "09-settings")
    dialog.close()

    # the offscreen platform cannot switch the OS scheme: tell the follower directly
    follower = qt_app.findChild(ColorSchemeFollower)
    assert follower is not None, "create_qt_application installs it"
    follower.apply(Qt.ColorScheme.Dark)
    wait(lambda: True, 1, "palette")
    shot(window, "10-dark")
    follower.apply(Qt.ColorScheme.Light)
    # the other language, live: earlier answers re-labelled (open the answered chat again)
    window.show_left(window.conversations)
    window.translations.apply("en" if args.language != "en" else "pt_BR")
    _pause(qt_app, 1.0)
    shot(window, "11-other-language")

    window.close()
    QThreadPool.globalInstance().waitForDone()
    print(f"total {time.perf_counter() - started:.1f} s; ACERVO_HOME={home}")
    return 0


def _pause(qt_app: object, seconds: float) -> None:
    """Let the event loop run (page renders, re-labelling) for `seconds`."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        qt_app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.02)


if __name__ == "__main__":
    raise SystemExit(main())
