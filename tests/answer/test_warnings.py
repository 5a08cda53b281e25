"""Answer warnings are a code and a parameter, rendered to words at the edge: the CLI's
English here, the window's translation table in tests/gui. Stored traces of older
versions (English sentences) still read back with their code."""

from __future__ import annotations

from desktop_app.answer.events import ENGLISH, AnswerWarning, Done, WarningCode


def test_every_code_has_english_words_and_the_detail_is_a_parameter() -> None:
    assert set(ENGLISH) == set(WarningCode)
    warning = AnswerWarning(WarningCode.MODEL_UNAVAILABLE, "llama.cpp could not load x.gguf")
    assert warning.english() == "model unavailable: llama.cpp could not load x.gguf"
    assert AnswerWarning(WarningCode.NOT_FOUND).english() == "not found in your documents"


def test_a_stored_warning_reads_back_equal() -> None:
    for code in WarningCode:
        warning = AnswerWarning(code, "detail with: a colon" if "{" in ENGLISH[code] else "")
        assert AnswerWarning.from_stored(warning.as_dict()) == warning


def test_traces_stored_before_codes_keep_their_meaning() -> None:
    assert AnswerWarning.from_stored("cancelled") == AnswerWarning(WarningCode.CANCELLED)
    assert (AnswerWarning.from_stored("not found in your documents")
            == AnswerWarning(WarningCode.NOT_FOUND))
    # a sentence with a parameter (or one these codes never had) is shown as it was stored
    old = AnswerWarning.from_stored("model unavailable: the file is gone")
    assert old == AnswerWarning(WarningCode.OTHER, "model unavailable: the file is gone")
    assert old.english() == "model unavailable: the file is gone"
    assert AnswerWarning.from_stored({"code": "from a newer version", "detail": ""}).code \
        == WarningCode.OTHER


def test_done_answers_which_codes_it_carries() -> None:
    done = Done("", (), warnings=(AnswerWarning(WarningCode.SOURCES_ONLY),))
    assert done.warned(WarningCode.SOURCES_ONLY) and not done.warned(WarningCode.NOT_FOUND)
