"""Collections and the scope of a question, from the command line: real files, the real
pipeline and index; `search`, `ask` and `chat` with `--collection` / `--doc`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.app import App, build_app
from desktop_app.cli import build_parser
from desktop_app.errors import AppError
from desktop_app.library.collections import Collections, member_folder
from desktop_app.library.scope import Scope, scope_filters

COFFEE = "# Coffee\n\nEspresso needs water at about 93 degrees Celsius for extraction.\n"
TEA = "# Tea\n\nGreen tea is brewed with water at about 80 degrees Celsius.\n"
LEAVE = "# Férias\n\nO pedido de férias deve ser feito com trinta dias de antecedência.\n"


@pytest.fixture()
def app(embedder, tmp_path: Path) -> App:  # type: ignore[no-untyped-def]
    application = build_app(embedder=embedder, llm=None)
    for folder, name, text in (("drinks", "coffee.md", COFFEE), ("drinks", "tea.md", TEA),
                               ("rh", "ferias.md", LEAVE)):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(text, encoding="utf-8")
    done = list(application.pipeline.run([tmp_path / "drinks", tmp_path / "rh"]))[-1]
    assert done.indexed == 3
    return application


def _cli(app: App, *argv: str) -> int:
    args = build_parser().parse_args(list(argv))
    return int(args.handler(args, app))


def test_a_collection_holds_its_folders_files_now_and_later(app: App, tmp_path: Path) -> None:
    collections = Collections(app.library_state)
    collections.add("Bebidas", folders=[member_folder(tmp_path / "drinks")])
    titles = {r.title for r in collections.members("bebidas", app.index.documents())}
    assert titles == {"Coffee", "Tea"}  # names compare without case
    # a file saved into the folder later belongs at once
    (tmp_path / "drinks" / "mate.md").write_text("# Mate\n\nYerba mate, cold.\n", "utf-8")
    list(app.pipeline.run([tmp_path / "drinks" / "mate.md"], prune_missing=False))
    assert len(collections.members("Bebidas", app.index.documents())) == 3
    # a document may be in several collections
    ferias = next(r for r in app.index.documents() if r.title == "Férias")
    collections.add("Tudo", documents=[ferias.source_path],
                    folders=[member_folder(tmp_path / "drinks")])
    assert collections.of_document(ferias.source_path) == ["Tudo"]
    coffee = next(r for r in app.index.documents() if r.title == "Coffee")
    assert collections.of_document(coffee.source_path) == ["Bebidas", "Tudo"]
    with pytest.raises(AppError, match="already a collection"):
        collections.create("BEBIDAS")


def test_scope_filters_narrow_to_the_collection_and_refuse_nothing(app: App,
                                                                   tmp_path: Path) -> None:
    collections = Collections(app.library_state)
    records = app.index.documents()
    assert scope_filters(Scope(), records, collections) is None
    collections.create("Vazia")
    with pytest.raises(AppError, match="has no documents"):
        scope_filters(Scope(("Vazia",)), records, collections)
    with pytest.raises(AppError, match="no collection named"):
        scope_filters(Scope(("Nope",)), records, collections)
    with pytest.raises(AppError, match="No document with id"):
        scope_filters(Scope(documents=("0000",)), records, collections)
    collections.add("RH", folders=[member_folder(tmp_path / "rh")])
    filters = scope_filters(Scope(("rh",)), records, collections)
    assert filters is not None and filters.scope == "collection “RH”"
    assert len(filters.doc_ids) == 1


def test_search_and_ask_with_collection_answer_only_from_it(
        app: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(app, "collections", "add", "RH", str(tmp_path / "rh")) == 0
    capsys.readouterr()
    # a question about water, scoped to the HR collection: only the HR note can be found
    assert _cli(app, "search", "water temperature degrees", "--collection", "rh",
                "--json") == 0
    found = json.loads(capsys.readouterr().out)
    assert found["scope"] == "collection “RH”"
    assert {h["title"] for h in found["hits"]} == {"Férias"}
    assert _cli(app, "search", "water temperature degrees", "--json") == 0
    assert "Coffee" in {h["title"] for h in json.loads(capsys.readouterr().out)["hits"]}

    assert _cli(app, "ask", "How hot is the water for espresso?", "--no-llm",
                "--collection", "RH", "--json") == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["trace"]["filters"]["scope"] == "collection “RH”"
    assert all(c["title"] == "Férias" for c in answer["citations"])
    # the same question without a scope cites the coffee note
    assert _cli(app, "ask", "How hot is the water for espresso?", "--no-llm", "--json") == 0
    assert "Coffee" in {c["title"] for c in json.loads(capsys.readouterr().out)["citations"]}

    # --doc: one document by id; the scope is said with the answer
    tea = next(r for r in app.index.documents() if r.title == "Tea")
    assert _cli(app, "ask", "How hot is the water?", "--no-llm", "--doc", tea.doc_id) == 0
    out = capsys.readouterr().out
    assert "(scope: 1 selected document" in out and "Tea" in out and "Coffee" not in out


def test_chat_takes_a_scope_and_bad_scopes_are_sentences(
        app: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(app, "collections", "add", "RH", str(tmp_path / "rh")) == 0
    capsys.readouterr()
    assert _cli(app, "chat", "How hot is the water for espresso?", "--no-llm",
                "--collection", "RH") == 0
    out = capsys.readouterr().out
    assert "(scope: collection “RH”" in out and "Coffee" not in out
    with pytest.raises(AppError, match="no collection named “Nope”"):
        _cli(app, "ask", "water?", "--no-llm", "--collection", "Nope")
