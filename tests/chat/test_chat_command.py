"""The `chat MESSAGE` command: one turn from the command line, extraction run inline."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from desktop_app.chat import commands


def run(app: Any, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="desktop-app")
    commands.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return int(args.handler(args, app))


def test_chat_command_runs_a_turn_and_extracts(memory_app: Any,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    run(memory_app, "chat", "Meu nome é Ana Souza e eu trabalho na Vale.", "--no-llm")
    err = capsys.readouterr().err
    assert "[memory saved: mem_" in err
    assert "AnswerWarning(" not in err  # warnings in words, not their repr
    assert sorted(i.attribute for i in memory_app.memory.list_items()) == ["employer", "name"]
