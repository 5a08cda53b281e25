"""A library indexed with the previous default embedder (fp32), reopened with today's
(int8-split): the state an upgrade leaves, for the reindex tests (CLI, core, window)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.app import App, build_app

DOCS = {
    "ferias.md": "# Férias\n\nOs funcionários têm direito a 30 dias de férias remuneradas por ano.",
    "senha.md": "# Senha\n\nPara redefinir a senha, clique em 'Esqueci minha senha' no login.",
    "coffee.txt": "Espresso needs finely ground coffee and water at about 93 degrees Celsius.",
}


def switched_app(folder: Path, fp32_embedder: Any, embedder: Any) -> App:
    """`DOCS` ingested with `fp32_embedder` from `folder`, reopened with `embedder`."""
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    app = build_app(embedder=fp32_embedder)
    assert list(app.pipeline.run([folder]))[-1].indexed == len(DOCS)
    app.close()
    app = build_app(embedder=embedder)  # reopened after the switch to today's default
    assert not app.index.vector_usable
    return app
