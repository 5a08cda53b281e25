"""A sources-only answer (no model) whose documents do not answer, but an earlier chat or a
memory does: it quotes that, says it is not from the documents (FROM_EARLIER_CHAT /
FROM_MEMORY), and never says "not found" above the chat that holds the answer. The
abstention gate for documents is unchanged: nothing relevant said before → "not found".
The real app (`build_app`), real LanceDB, real recall and a real PDF from the eval set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.answer.events import Done, WarningCode
from desktop_app.answer.prompt import load_prompts

from .test_erasure import run_turn
from .test_recall import earlier_chat


def _done(events: list[Any]) -> Done:
    (done,) = [e for e in events if isinstance(e, Done)]
    return done


def test_an_earlier_chat_answers_what_the_documents_do_not(memory_app: Any,
                                                          eval_dir: Path) -> None:
    list(memory_app.pipeline.run([eval_dir / "pdfs" / "en" / "la-precinct-bulletin-2014-p1.pdf"],
                                 prune_missing=False))
    earlier = earlier_chat(memory_app, "seguro", [
        ("user", "Qual é o número da apólice do seguro do carro?"),
        ("assistant", "A apólice do seguro do carro é AP-77120, válida até março."),
        ("user", "Obrigado."),
    ])
    memory_app.memory.conversation_recall.sync()

    conv = memory_app.chat.new_conversation()
    done = _done(run_turn(memory_app.chat, conv, "Qual é a apólice do seguro do carro?"))

    # the question and its answer, in the order they were said; not the "thanks"
    assert done.answer.splitlines() == ["“Qual é o número da apólice do seguro do carro?”",
                                        "“A apólice do seguro do carro é AP-77120, válida até "
                                        "março.”"]
    assert load_prompts("pt").not_found not in done.answer
    assert not done.warned(WarningCode.NOT_FOUND) and not done.citations  # no document badge
    (origin,) = [w for w in done.warnings if w.code == WarningCode.FROM_EARLIER_CHAT]
    assert origin.detail.startswith("15 de nov")
    assert origin.english().startswith("not in your documents; from your chat of 15 de nov")
    assert done.trace["mode"] == "from_context" and done.closest  # documents were searched
    assert done.trace["recall"][0]["conversation_id"] == earlier
    # the window dates the chat in its own language from the typed field
    assert [q.conversation_id for q in done.quoted_chats] == [earlier]
    assert done.quoted_chats[0].started_at.startswith("20")


def test_a_memory_answers_and_unrelated_chats_do_not(memory_app: Any) -> None:
    say = memory_app.conversations
    conv = say.new_conversation("me")
    memory_app.memory.remember(say.add_user_message(conv, "Lembre que meu dentista é o Dr. Zhang."),
                               "Meu dentista é o Dr. Zhang.")
    earlier_chat(memory_app, "tempo", [("user", "Vai chover amanhã em Porto?"),
                                       ("assistant", "Não consigo ver a previsão offline.")])
    memory_app.memory.conversation_recall.sync()

    asked = memory_app.chat.new_conversation()
    done = _done(run_turn(memory_app.chat, asked, "Quem é o meu dentista?"))
    assert "Dr. Zhang" in done.answer and done.warned(WarningCode.FROM_MEMORY)
    assert not done.warned(WarningCode.NOT_FOUND)
    assert "chover" not in done.answer  # an earlier chat about something else is not quoted

    # nothing said before speaks to the question: the documents' abstention stands
    done = _done(run_turn(memory_app.chat, asked, "Qual é a capital da Mongólia?"))
    assert done.answer == load_prompts("pt").not_found and done.warned(WarningCode.NOT_FOUND)


def test_an_earlier_answer_quoted_from_the_documents_does_not_come_back(memory_app: Any) -> None:
    """Re-asking a question the documents do not answer: Acervo's earlier answer, which
    quoted a document (its badges), is not quoted again as "from your chat", nor is its
    earlier "not found"; the question alone says nothing either."""
    earlier_chat(memory_app, "lgpd", [
        ("user", "Qual a alíquota de imposto sobre serviços de tratamento de dados?"),
        ("assistant", "Art. 52. Os agentes de tratamento ficam sujeitos a multa simples, de "
                      "até 2% do faturamento [1]."),
    ])
    earlier_chat(memory_app, "lgpd again", [
        ("user", "E a alíquota de imposto sobre o tratamento de dados pessoais?"),
        ("assistant", load_prompts("pt").not_found),
    ])
    memory_app.memory.conversation_recall.sync()

    asked = memory_app.chat.new_conversation()
    done = _done(run_turn(memory_app.chat, asked,
                          "Qual é a alíquota de imposto sobre o tratamento de dados?"))
    assert done.answer == load_prompts("pt").not_found and done.warned(WarningCode.NOT_FOUND)
    assert not done.warned(WarningCode.FROM_EARLIER_CHAT)
