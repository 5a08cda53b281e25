"""The library as analysts keep it: watched folder → searchable, kill -9 and resume, an
unchanged 10,000-file folder synced, and the formats read.

- watch_to_searchable_s: a 10-page PDF (ten pages of the LDB from ../shared/eval, a
  different ten each time) saved into a watched folder, until `search` finds a phrase of
  it — the watcher, its debounce and the incremental path as the window runs them.
- resume_after_kill: a real `desktop-app ingest` killed with SIGKILL after some files;
  a fresh app resumes the journal's run: files lost, finished files embedded again.
- sync_unchanged_10k_files_s: a folder of 10,000 small notes, indexed once (with the
  deterministic stand-in embedder: the sync embeds nothing, so the embedder does not
  matter), then synced again with nothing changed by a fresh app (a new process's first
  sync: the journal is read from disk).
- formats: each new format built by the tests' fixtures, ingested, with its pages and
  passages.

Usage: python bench/library.py [--quick]   (writes bench/results/library.json)
The machine's load average is recorded: timings on a shared machine are noisy.
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import EVAL, REPO, save, temp_home


class CountingEmbedder:
    def __init__(self, inner: Any) -> None:
        self.inner, self.id, self.dim, self.passages = inner, inner.id, inner.dim, 0

    def embed_passages(self, texts: list[str]) -> Any:
        self.passages += len(texts)
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> Any:
        return self.inner.embed_query(text)


def _real_embedder(models: Path) -> Any:
    from desktop_app.config.settings import Settings
    from desktop_app.modelprep import ensure_e5_model, open_embedder

    e5 = ensure_e5_model(models)
    s = Settings()
    return open_embedder(e5.parent, backend=s.embedder_backend,
                         precision=s.embedder_precision, threads=2)


def _ten_page_pdfs(out: Path, n: int) -> list[tuple[Path, str]]:
    """`n` 10-page PDFs cut from the LDB, each with a phrase only it holds."""
    import pymupdf

    source = pymupdf.open(EVAL / "pdfs/pt/ldb.pdf")
    made = []
    for i in range(n):
        pdf = pymupdf.open()
        pdf.insert_pdf(source, from_page=i * 10, to_page=i * 10 + 9)
        words = pdf[5].get_text().split()
        phrase = " ".join(words[40:52])
        path = out / f"ldb-{i}.pdf"
        pdf.save(path)
        made.append((path, phrase))
    return made


def watch_to_searchable(models: Path, samples: int) -> dict[str, Any]:
    from desktop_app.app import build_app
    from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS
    from desktop_app.library.folders import Folders
    from desktop_app.library.sync import apply_batch
    from desktop_app.library.watch import FolderWatcher

    temp_home("library-watch")
    app = build_app(embedder=_real_embedder(models), llm=None)
    app.embedder.embed_query("warm-up")
    staging = Path(tempfile.mkdtemp(prefix="acervo-bench-pdfs-"))
    folder = Path(tempfile.mkdtemp(prefix="acervo-bench-watched-"))
    pdfs = _ten_page_pdfs(staging, samples)
    watcher = FolderWatcher([Folders(app.library_state).add(folder)],
                            frozenset(SUPPORTED_EXTENSIONS))
    watcher.start()
    stop = threading.Event()

    def keep() -> None:  # what the window's keeper does on its worker thread
        for batch in watcher.batches(stop.is_set):
            for _event in apply_batch(app.pipeline, batch):
                pass

    thread = threading.Thread(target=keep, daemon=True)
    thread.start()
    times = []
    try:
        for path, phrase in pdfs:
            t0 = time.perf_counter()
            shutil.copyfile(path, folder / path.name)  # "saved into the folder"
            target = str((folder / path.name).resolve())
            while time.perf_counter() - t0 < 300:
                hits = app.searcher.search(phrase, k=5)
                if any(h.source_path == target for h in hits):
                    break
                time.sleep(0.05)
            times.append(time.perf_counter() - t0)
            print(f"  watch → searchable: {times[-1]:.2f} s ({path.name})", flush=True)
    finally:
        stop.set()
        thread.join(timeout=30)
        watcher.stop()
    return {"watch_to_searchable_s_p50": round(statistics.median(times), 2),
            "watch_to_searchable_s": [round(t, 2) for t in times],
            "watch_pdf_pages": 10}


def resume_after_kill(models: Path, files: int) -> dict[str, Any]:
    from desktop_app.app import build_app
    from desktop_app.ingest.events import FileDone, RunDone

    home = temp_home("library-kill")
    (home / "data" / "models").mkdir(parents=True)
    e5 = _real_embedder(models)
    for model in models.iterdir():
        if model.is_dir():
            os.symlink(model, home / "data" / "models" / model.name)
    folder = Path(tempfile.mkdtemp(prefix="acervo-bench-kill-"))
    for i in range(files):
        text = "\n\n".join(f"Documento {i}, seção {s}: o contrato {i * 100 + s} trata de "
                           f"prazos, multas e garantias do fornecedor {i}-{s}. " * 5
                           for s in range(10))
        (folder / f"doc{i:02}.md").write_text(f"# Documento {i}\n\n{text}", encoding="utf-8")
    env = dict(os.environ, ACERVO_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "desktop_app", "ingest", str(folder)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    done_before = 0
    for line in proc.stdout:
        done_before += line.startswith("indexed")
        if done_before >= files // 3:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    counting = CountingEmbedder(e5)
    app = build_app(embedder=counting, llm=None)
    finished = {r.source_path for r in app.index.documents()}
    events = list(app.pipeline.run([], resume=True))
    assert isinstance(events[-1], RunDone)
    reembedded = sum(1 for e in events if isinstance(e, FileDone) and e.path in finished)
    after = app.index.documents()
    return {"resume_after_kill_lost": files - len(after),
            "resume_after_kill_reembedded": reembedded,
            "resume_after_kill": {"files": files, "done_before_kill": len(finished),
                                  "indexed_on_resume": sum(isinstance(e, FileDone)
                                                           for e in events),
                                  "passages_embedded_on_resume": counting.passages}}


def sync_unchanged(n: int) -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "tests"))
    from embedder_double import FakeEmbedder

    from desktop_app.app import build_app

    temp_home("library-sync")
    folder = Path(tempfile.mkdtemp(prefix="acervo-bench-10k-"))
    for i in range(n):
        sub = folder / f"pasta{i // 500:02}"
        sub.mkdir(exist_ok=True)
        (sub / f"nota{i:05}.txt").write_text(
            f"Nota {i}: reunião sobre o processo {i * 7} e o prazo de {i % 30} dias.\n",
            encoding="utf-8")
    t0 = time.perf_counter()
    builder = build_app(embedder=FakeEmbedder(), llm=None)
    indexed = 0
    # a run per 500-file subfolder: each run ends by compacting the index, which one
    # 10,000-file run would not do until its end (each add is a LanceDB fragment)
    for sub in sorted(folder.iterdir()):
        indexed += list(builder.pipeline.run([sub], prune_missing=False))[-1].indexed
        print(f"  indexed {indexed}/{n} ({time.perf_counter() - t0:.0f} s)", flush=True)
    build_s = time.perf_counter() - t0
    assert indexed == n, indexed
    timings = []
    for _ in range(2):
        app = build_app(embedder=FakeEmbedder(), llm=None)  # a new start: journal from disk
        t0 = time.perf_counter()
        done = list(app.pipeline.run([folder]))[-1]
        timings.append(time.perf_counter() - t0)
        assert done.indexed == 0 and done.skipped == n, done
    print(f"  sync of {n} unchanged files: {[round(t, 2) for t in timings]} s", flush=True)
    return {"sync_unchanged_10k_files_s": round(min(timings), 2),
            "sync_unchanged_runs_s": [round(t, 2) for t in timings],
            "sync_files": n, "sync_first_index_s": round(build_s, 1)}


def formats() -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "tests"))
    from fixtures import office_files as of

    from desktop_app.ingest.loaders import load_document

    out = Path(tempfile.mkdtemp(prefix="acervo-bench-formats-"))
    rows = [["Produto", "Quantidade", "Preço"]] + [[f"item {i}", i, i * 1.5] for i in range(60)]
    built = {
        "xlsx": of.xlsx(out / "vendas.xlsx", {"Vendas": rows}),
        "ods": of.ods(out / "pessoas.ods", {"Pessoas": "".join(
            of.ods_row([str(c) for c in r]) for r in rows)}),
        "csv": out / "dados.csv",
        "pptx": of.pptx(out / "deck.pptx", [{"title": "Resultados", "body": ["Vendas subiram"],
                                             "notes": ["Falar do trimestre"]}]),
        "epub": of.epub(out / "livro.epub", [("Capítulo um", ["Era uma vez um acervo."] * 20)]),
        "eml": of.eml(out / "m.eml", of.email_message("Contrato", "Segue o contrato.")),
        "mbox": of.mbox(out / "caixa.mbox", [of.email_message("Um", "Primeira."),
                                             of.email_message("Dois", "Segunda.")]),
        "odt": of.odt(out / "regimento.odt", "<text:h>Regimento</text:h><text:p>Art. 1º</text:p>"),
    }
    (out / "dados.csv").write_text("\n".join(",".join(map(str, r)) for r in rows),
                                   encoding="utf-8")
    read = {}
    for kind, path in built.items():
        document = load_document(path)
        read[kind] = {"pages": len(document.pages),
                      "characters": sum(len(p.text) for p in document.pages)}
    return {"formats": sorted(k for k, v in read.items() if v["characters"] > 0),
            "formats_read": read}


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    load_before = os.getloadavg()
    models = Path(os.environ.get("ACERVO_TEST_MODELS", "/work/cache/models"))
    result: dict[str, Any] = {}
    result.update(formats())
    result.update(watch_to_searchable(models, 3 if quick else 5))
    result.update(resume_after_kill(models, 9 if quick else 12))
    result.update(sync_unchanged(1000 if quick else 10_000))
    result["load_average"] = {"before": [round(x, 2) for x in load_before],
                              "after": [round(x, 2) for x in os.getloadavg()]}
    for key in ("watch_to_searchable_s_p50", "resume_after_kill_lost",
                "resume_after_kill_reembedded", "sync_unchanged_10k_files_s", "formats"):
        print(f"{key}: {result[key]}")
    save("library" + ("-quick" if quick else ""), result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
