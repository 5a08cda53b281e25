"""Memory only when it concerns the question; `chat` and `ask` print words (issue 26).

"(using what you told me: Meu número de matrícula é 7781-22.)" was printed for every
question, "Quais são os direitos do titular?" included, and `chat` printed
`AnswerWarning(code=<WarningCode.NOT_FOUND: 'not_found'>, detail='')`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from desktop_app.memory.relevance import about_the_user, concerns

FACT = "Meu número de matrícula é 7781-22."


@pytest.mark.parametrize(("question", "expected"), [
    ("Quais são os direitos do titular?", False),
    ("Qual é o prazo de retenção de faturas?", False),
    ("Can you tell me the rights of the data subject?", False),
    ("Me diga os direitos do titular.", False),
    ("Dime los derechos del titular.", False),
    ("qual é a minha matrícula?", True),
    ("Qual é o número de matrícula?", True),  # shares a word with the memory
    ("what is my student id?", True),
    ("¿Cuál es mi número?", True),
])
def test_a_memory_concerns_a_question_about_the_user_or_sharing_a_word(
        question: str, expected: bool) -> None:
    assert concerns(question, FACT) is expected


def test_asking_someone_to_tell_is_not_talking_about_oneself() -> None:
    assert not about_the_user("Tell me the deadline.")
    assert about_the_user("Tell me my deadline.")


def test_ask_and_chat_use_a_memory_only_for_its_question_and_print_words(
        memory_app: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from desktop_app.answer import commands as answer_commands
    from desktop_app.memory import commands as memory_commands

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lgpd.md").write_text("# Direitos\n\nOs direitos do titular incluem acesso, "
                                  "correção e eliminação dos dados.\n", encoding="utf-8")
    list(memory_app.pipeline.run([docs]))
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    memory_commands.register(sub)
    answer_commands.register(sub)

    def run(*argv: str) -> str:
        args = parser.parse_args(list(argv))
        args.handler(args, memory_app)
        captured = capsys.readouterr()
        return captured.out + captured.err

    run("memory", "remember", f"Lembre que {FACT}")
    unrelated = run("ask", "--no-llm", "Quais são os direitos do titular?")
    assert "using what you told me" not in unrelated and "7781" not in unrelated
    related = run("ask", "--no-llm", "qual é a minha matrícula?")
    assert f"(using what you told me: {FACT})" in related
    chatted = run("chat", "--no-llm", "qual é a minha matrícula?")
    assert f"(using what you told me: {FACT})" in chatted
    assert "AnswerWarning(" not in chatted and "WarningCode" not in chatted
    assert "(answered from sources only)" in chatted or "(not found" in chatted \
        or "from what you told me" in chatted
