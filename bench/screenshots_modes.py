"""Screenshots of the answer modes as a new user meets them (and the Stop latency felt).

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python bench/screenshots_modes.py \
        [--language pt_BR|en] [--size 1366x768] [--pdf PATH] [--out DIR]

A fresh ACERVO_HOME with default settings (the bundled SmolLM2 is the active model):
models loaded (status bar: the mode) → the LGPD PDF ingested → the first question
(answered from the sources, with the one-time notice and its links) → "try the
small model (experiment)" clicked → the progress line while the model reads its
prompt → Stop → Settings, Models tab. Without a display it runs offscreen.
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
LGPD_PDF = REPO.parent / "shared" / "eval" / "pdfs" / "pt" / "lgpd.pdf"
QUESTIONS = {"pt_BR": "Quais são os direitos do titular dos dados?",
             "en": "What rights does the data subject have?"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="pt_BR", choices=("pt_BR", "en"))
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--pdf", type=Path, default=LGPD_PDF)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "screenshots")
    args = parser.parse_args()
    if not (os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["ACERVO_HOME"] = tempfile.mkdtemp(prefix="acervo-modes-")
    width, height = (int(x) for x in args.size.split("x"))
    tag = f"{args.language}-{args.size}"
    args.out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtCore import QPoint, Qt, QThreadPool
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest

    from desktop_app.app import build_app
    from desktop_app.gui.run import build_window, create_qt_application

    qt_app = create_qt_application()
    app = build_app()
    app.settings.language = args.language
    window = build_window(app, qt_app)
    window.resize(width, height)
    window.show()

    def wait(condition: Callable[[], bool], timeout: float, what: str) -> float:
        t0 = time.perf_counter()
        while not condition():
            if time.perf_counter() - t0 > timeout:
                raise SystemExit(f"timed out waiting for {what}")
            qt_app.processEvents()
            time.sleep(0.01)
        return time.perf_counter() - t0

    def shot(widget, name: str) -> None:  # type: ignore[no-untyped-def]
        for _ in range(5):
            qt_app.processEvents()
        path = args.out / f"modes-{tag}-{name}.png"
        widget.grab().save(str(path))
        print(f"  saved {path.relative_to(REPO)}")

    window.start()
    wait(window.models_loaded, 600, "models")
    print("mode:", window.model_label.text())
    shot(window, "01-loaded")

    list(app.pipeline.run([args.pdf]))
    window.library.refresh()
    wait(lambda: window.library.model.rowCount() > 0, 60, "library")

    chat, view = window.chat, window.chat.view
    chat.question.setPlainText(QUESTIONS[args.language])
    QTest.mouseClick(chat.ask_button, Qt.MouseButton.LeftButton)
    wait(lambda: not chat.is_busy(), 300, "first answer")
    print("notice links:", [h for _p, h in view.action_positions()])
    shot(window, "02-first-answer")

    position = next(p for p, h in view.action_positions() if h == "action:experiment")
    cursor = QTextCursor(view.document())
    cursor.setPosition(position + 1)
    view.ensureCursorVisible()
    rect = view.cursorRect(cursor)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(rect.x() + 2, rect.center().y()))
    wait(lambda: chat.is_busy(), 10, "the experiment to start")
    wait(lambda: view.progress_text().endswith(" s") and "…" in view.progress_text(), 120,
         "progress with seconds")
    print("progress:", view.progress_text())
    shot(window, "03-progress")
    clicked = time.perf_counter()
    QTest.mouseClick(chat.stop_button, Qt.MouseButton.LeftButton)
    stopped = wait(lambda: not chat.is_busy(), 60, "stop")
    print(f"Stop → turn finished in {1000 * (time.perf_counter() - clicked):.0f} ms "
          f"(wait loop {1000 * stopped:.0f} ms)")
    shot(window, "04-stopped")

    from desktop_app.gui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(app.settings, parent=window)
    dialog.show()
    shot(dialog, "05-settings-models")
    dialog.close()
    window.close()
    QThreadPool.globalInstance().waitForDone()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
