"""The queue survives kill -9: a real `desktop-app ingest` subprocess killed mid-queue; the
next start finds the unfinished run in the journal, finishes it, loses no file and embeds
no finished file again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_app.app import build_app
from desktop_app.ingest.events import FileDone, FileSkipped, RunDone
from desktop_app.ingest.journal import INDEXED, WAITING

REPO = Path(__file__).resolve().parents[2]
FILES = 8


class CountingEmbedder:
    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.id, self.dim, self.passages = inner, inner.id, inner.dim, 0

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        self.passages += len(texts)
        return self.inner.embed_passages(texts)

    def embed_query(self, text):  # type: ignore[no-untyped-def]
        return self.inner.embed_query(text)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(FILES):
        paragraphs = [f"Documento {i}, seção {s}: o contrato {i * 100 + s} trata de prazos, "
                      f"multas e garantias do fornecedor número {i}-{s}. " * 6
                      for s in range(12)]
        (folder / f"doc{i}.md").write_text(f"# Documento {i}\n\n" + "\n\n".join(paragraphs),
                                           encoding="utf-8")
    return folder


@pytest.mark.slow
def test_kill_9_mid_queue_then_resume_loses_nothing_and_reembeds_nothing(
        tmp_path: Path, acervo_home: Path, e5_model_dir: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    folder = _folder(tmp_path)
    env = dict(os.environ, ACERVO_HOME=str(acervo_home))
    env.pop("PYTHONUNBUFFERED", None)
    models = acervo_home / "data" / "models"
    models.mkdir(parents=True, exist_ok=True)
    os.symlink(e5_model_dir, models / e5_model_dir.name)
    proc = subprocess.Popen([sys.executable, "-m", "desktop_app", "ingest", str(folder)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 300
    done_before = 0
    for line in proc.stdout:
        done_before += line.startswith("indexed")
        if done_before >= 2 or time.monotonic() > deadline:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert done_before >= 1

    counting = CountingEmbedder(embedder)
    app = build_app(embedder=counting, llm=None)
    state = app.library_state
    assert len(state.unfinished_runs("local")) == 1  # the kill left its run to finish
    statuses = {Path(f.path).name: f.status for f in state.files("local")}
    assert set(statuses) == {f"doc{i}.md" for i in range(FILES)}  # the whole queue was kept
    assert WAITING in statuses.values()
    finished = {r.source_path: r.chunk_count for r in app.index.documents()}
    assert 1 <= len(finished) < FILES

    # the next start: nothing given, the journal's unfinished run is resumed
    events = list(app.pipeline.run([], resume=True))
    done = events[-1]
    assert isinstance(done, RunDone) and done.failed == 0
    redone = [e.path for e in events if isinstance(e, FileDone) and e.path in finished]
    assert redone == []  # no finished file embedded again
    assert {e.path for e in events if isinstance(e, FileSkipped)} == set(finished)
    after = {r.source_path: r.chunk_count for r in app.index.documents()}
    assert len(after) == FILES  # nothing lost
    assert counting.passages <= sum(n for p, n in after.items() if p not in finished)
    assert not state.unfinished_runs("local")
    assert {f.status for f in state.files("local")} <= {INDEXED, "unchanged"}
