"""The CLI cycle from the issue's "done when": tell a fact, see it listed with its source
message, see it in the memory block, edit it, erase it, and prove by grep it is gone."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from desktop_app.errors import AppError
from desktop_app.memory import commands

from .canary import files_containing, grep_finds


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="desktop-app")
    sub = p.add_subparsers(dest="command")
    commands.register(sub)
    eval_parser = sub.add_parser("eval")
    commands.register_eval(eval_parser.add_subparsers(dest="eval_command"))
    return p


def run(app: Any, *argv: str) -> int:
    args = parser().parse_args(list(argv))
    return int(args.handler(args, app))


def test_full_cycle_from_the_command_line(memory_app: Any, acervo_home: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    canary = "GATE-CODE-55821"
    assert run(memory_app, "memory", "remember",
               f"Lembre que o código do portão da garagem é {canary}") == 0
    saved = capsys.readouterr().out
    memory_id = saved.split()[1].rstrip(":")
    assert saved.startswith("saved mem_") and canary in saved

    run(memory_app, "memory", "list")
    assert memory_id in capsys.readouterr().out
    run(memory_app, "memory", "show", memory_id)
    shown = capsys.readouterr().out
    assert f'you said: "Lembre que o código do portão da garagem é {canary}"' in shown
    assert "source: conversation conv_cli, message msg_" in shown

    run(memory_app, "memory", "recall", "Qual é o código do portão?")
    block = capsys.readouterr().out
    assert block.splitlines()[0] == "What you told me:" and canary in block

    run(memory_app, "memory", "edit", memory_id, f"O código do portão é {canary}-B")
    assert f"{canary}-B." in capsys.readouterr().out
    run(memory_app, "memory", "show", memory_id)
    assert "edited" in capsys.readouterr().out

    run(memory_app, "memory", "delete", memory_id, "--with-messages")
    receipt = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert receipt["memory_ids"] == [memory_id] and receipt["stores"]["messages"]["rows"] == 1
    assert files_containing(acervo_home, canary.encode()) == []
    assert grep_finds(acervo_home, canary) == []


def test_consent_export_and_forget_all(memory_app: Any, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert run(memory_app, "memory", "remember", "I'm allergic to penicillin.") == 1
    assert "needs your consent" in capsys.readouterr().out
    run(memory_app, "memory", "consent", "health", "on")
    assert run(memory_app, "memory", "remember", "I'm allergic to penicillin.") == 0
    run(memory_app, "memory", "consent")
    listing = capsys.readouterr().out
    assert "health             on since" in listing and "religion           never asked" in listing

    out = tmp_path / "export.json"
    run(memory_app, "memory", "export", str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [m["text"] for m in data["memories"]] == ["I'm allergic to penicillin."]

    with pytest.raises(AppError):
        run(memory_app, "memory", "forget-all")
    run(memory_app, "memory", "forget-all", "--yes")
    capsys.readouterr()
    run(memory_app, "memory", "list")
    assert capsys.readouterr().out.strip() == "No memories."


def test_eval_memory_is_a_sub_command_of_eval() -> None:
    args = parser().parse_args(["eval", "memory", "some/dir", "--mode", "both", "--limit", "2"])
    assert (args.handler, args.mode, args.limit, args.k) == (commands.cmd_eval_memory, "both",
                                                            2, 3)


def test_delete_without_messages_says_the_chat_still_holds_the_text(
        memory_app: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """`memory delete` keeps the user's own message unless asked: the CLI says so and gives
    the command that erases it too (which then leaves no message with the text)."""
    canary = "LOCKER-31337"
    run(memory_app, "memory", "remember", f"Lembre que o código do meu armário é {canary}")
    memory_id = capsys.readouterr().out.split()[1].rstrip(":")
    (message_id,) = memory_app.memory.source_message_ids(memory_id)

    run(memory_app, "memory", "delete", memory_id)
    err = capsys.readouterr().err
    assert "still hold the text" in err
    assert f"desktop-app memory delete-message {message_id}" in err
    assert memory_app.conversations.message(message_id) is not None  # kept, as it said

    run(memory_app, "memory", "delete-message", message_id)
    capsys.readouterr()
    assert memory_app.conversations.message(message_id) is None

    run(memory_app, "memory", "remember", f"Lembre que o código do meu armário é {canary}-2")
    other = capsys.readouterr().out.split()[1].rstrip(":")
    run(memory_app, "memory", "delete", other, "--with-messages")
    assert "still hold" not in capsys.readouterr().err  # nothing left to mention
