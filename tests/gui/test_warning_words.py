"""Every answer warning has its own words in the window's language (a code without them
would fall back to English in a Portuguese window)."""

from __future__ import annotations

import pytest

from desktop_app.answer.events import AnswerWarning, WarningCode

pytestmark = pytest.mark.gui


def test_every_warning_code_is_translated(window) -> None:  # type: ignore[no-untyped-def]
    window.translations.apply("pt_BR")
    try:
        chat = window.chat
        untranslated = [code for code in WarningCode if code != WarningCode.OTHER
                        and chat.translate_warning(AnswerWarning(code, "X"))
                        == AnswerWarning(code, "X").english()]
        assert untranslated == []
        local = chat.translate_warning(AnswerWarning(WarningCode.KEYWORD_ONLY, "local"))
        team = chat.translate_warning(AnswerWarning(WarningCode.KEYWORD_ONLY, "equipe"))
        assert local == ("busca só por palavras-chave: a biblioteca deste computador foi "
                         "indexada com outro modelo de embeddings (reindexe)")
        assert "palavras-chave: “equipe” foi indexada" in team
        assert chat.translate_warning(AnswerWarning(WarningCode.NO_VALUE, "money")) == \
            "a pergunta pede um valor em dinheiro, que nenhum trecho encontrado informa"
        # every kind of value a question can ask for has its Portuguese name
        from desktop_app.answer.events import VALUE_NAMES
        from desktop_app.gui.values import value_name
        assert [kind for kind, english in VALUE_NAMES.items()
                if value_name(kind) == english] == []
        assert value_name("score") == "uma nota ou pontuação"
    finally:
        window.translations.apply("en")
