"""The library panel under issue 11's faults: another process writing, and removing a
document that chat answers quote (the checkbox, and the count when it is left off)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.app import App
from desktop_app.gui import library as library_module
from desktop_app.gui.main_window import MainWindow

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[2]
CANARY = "ORNITORRINCO-55120"
SAFE = ("# Procedimento do cofre\n\nA senha do cofre da diretoria é "
        f"{CANARY} e deve ser trocada todo trimestre pelo gerente responsável.\n")


def _ingest(qtbot, window: MainWindow, paths: list[Path]) -> None:
    with qtbot.waitSignal(window.library.runFinished, timeout=180_000):
        window.library.add_paths(paths)


def _answer_quoting_the_document(gui_app: App) -> None:
    services = window_services(gui_app)
    for _event in services.chat.ask(None, "qual é a senha do cofre da diretoria?", sources_only=True,
                               cancel=lambda: False):
        pass


def window_services(gui_app: App):  # type: ignore[no-untyped-def]
    from desktop_app.gui.services import GuiServices

    return GuiServices(gui_app)


def _select_all_and_remove(qtbot, window: MainWindow, purge: bool,
                           monkeypatch: pytest.MonkeyPatch) -> str:
    library = window.library
    with qtbot.waitSignal(library.indexChanged, timeout=60_000):
        library.refresh()
    library.table.selectAll()
    asked: list[str] = []

    def answer(_parent, _title, _text, option, **_kw):  # type: ignore[no-untyped-def]
        asked.append(option)
        return True, purge

    monkeypatch.setattr(library_module, "confirm_with_option", answer)
    with qtbot.waitSignal(library.statusMessage, timeout=60_000) as status:
        library.remove_selected()
    assert asked == ["Also erase chat answers that quote them"]
    return str(status.args[0]())  # a `Text`: worded when shown


@pytest.mark.parametrize("purge", [True, False])
def test_removing_a_quoted_document_offers_to_erase_the_answers(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, purge: bool) -> None:
    doc = tmp_path / "cofre.md"
    doc.write_text(SAFE, encoding="utf-8")
    _ingest(qtbot, window, [doc])
    _answer_quoting_the_document(gui_app)
    message = _select_all_and_remove(qtbot, window, purge, monkeypatch)
    state = gui_app.paths.state_db.read_bytes()
    if purge:
        assert message == "Removed 1 document. Erased 1 chat answer that quoted them."
        assert CANARY.encode() not in state
    else:
        assert message == ("Removed 1 document. 1 chat answer still quotes them; delete that "
                           "chat to erase the text.")
        assert CANARY.encode() in state
    assert gui_app.index.documents() == []


HOLDER = '''
import sys, time
from pathlib import Path
from desktop_app.locking import LIBRARY, writer_lock
with writer_lock(Path(sys.argv[1]), LIBRARY).hold("reindex in another window"):
    print("held", flush=True)
    sys.stdin.readline()
'''


def test_the_library_says_when_another_process_is_writing(
        qtbot, window: MainWindow, gui_app: App, tmp_path: Path) -> None:
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("# A\n\nPrimeira nota sobre o refeitório.\n", encoding="utf-8")
    second.write_text("# B\n\nSegunda nota sobre o estacionamento.\n", encoding="utf-8")
    _ingest(qtbot, window, [first])  # the library exists; now a terminal holds it
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(gui_app.paths.data_dir)],
                              cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        waiting = "Another Acervo process is updating the library; waiting…"
        with qtbot.waitSignal(window.library.statusMessage, timeout=120_000,
                              check_params_cb=lambda text: text() == waiting):
            window.library.add_paths([second])
        assert window.library.progress_box.title.text() == waiting
        assert window.library.is_running()
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(60)
    with qtbot.waitSignal(window.library.runFinished, timeout=180_000) as done:
        pass
    assert done.args[0].indexed == 1
    assert sorted(d.title for d in gui_app.index.documents()) == ["A", "B"]


def test_a_notice_of_the_core_is_shown_in_its_own_words(qtbot, window: MainWindow) -> None:
    """Every notice of the core reached the status bar as "another process is updating the
    library", whatever it said (damaged index files set aside, the memory's lock)."""
    damaged = "The library's index had damaged or missing files: they were set aside."
    for notice, shown in ((damaged, damaged),
                          ("Another Acervo process is updating the memory; waiting (pid 7, x)…",
                           "Another Acervo process is updating the memory; waiting…"),
                          ("Another Acervo process is updating the library; waiting (pid 7, x)…",
                           "Another Acervo process is updating the library; waiting…")):
        with qtbot.waitSignal(window.library.statusMessage, timeout=5_000) as said:
            window.library.libraryBusy.emit(notice)
        assert said.args[0]() == shown
