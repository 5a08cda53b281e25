"""An answer as a conversation stores it and as the window reads it back: badges by id
(`Citation.to_stored` / `from_stored`), the passage text from the index, never the trace."""

from __future__ import annotations

import dataclasses
import json

from desktop_app.answer.events import (
    AnswerWarning,
    Citation,
    Done,
    QuoteSpan,
    WarningCode,
)
from desktop_app.chat.stored import recalled_chats, stored_answer, stored_trace
from desktop_app.retrieval.index_api import ChunkRow

TEXT = "Art. 18. O titular dos dados pessoais tem direito a obter do controlador a correção."
ROW = ChunkRow(chunk_id="lgpd:7", doc_id="lgpd", position=7, text=TEXT, prefix="LGPD",
               title="LGPD", source_path="/docs/lgpd.pdf", folder="/docs", file_type="pdf",
               language="pt", page_start=9, page_end=10, char_start=120,
               char_end=120 + len(TEXT), heading_path=(), ingested_at="t", modified_at="t",
               library="equipe", ocr_confidence=0.93, ocr_boxes="[]")
CITED = Citation(number=1, doc_id="lgpd", chunk_id="lgpd:7", title="LGPD",
                 source_path="/docs/lgpd.pdf", file_type="pdf", page=9, page_end=10,
                 char_start=120, char_end=120 + len(TEXT), score=0.4,
                 legs=frozenset({"vector"}), snippet=TEXT, ocr_confidence=0.93, ocr_boxes="[]",
                 quote=QuoteSpan("O titular", 10, 19, 9, 130, 9, 139), library="equipe",
                 claim="O titular pode pedir a correção.")


def test_a_badge_is_stored_by_id_and_comes_back_from_its_passage() -> None:
    stored = json.loads(json.dumps(CITED.to_stored()))  # as the SQLite trace holds it
    assert TEXT not in json.dumps(stored)  # no copy of the passage in the chat
    back = Citation.from_stored(stored, ROW)
    # what a search knew (its score and legs) is not kept; everything shown is
    assert back == dataclasses.replace(CITED, score=0.0, legs=frozenset())
    assert Citation.from_stored(stored, None) is None  # the document was removed since


def test_an_older_trace_with_the_whole_citation_needs_no_index() -> None:
    legacy = json.loads(json.dumps(dataclasses.asdict(CITED), default=sorted))
    assert Citation.from_stored(legacy) == CITED
    assert Citation.from_stored({"source_path": "/x.pdf", "unknown": 1}) is None


def test_a_stored_answer_reads_back_with_its_badges_warnings_and_chats() -> None:
    done = Done(answer="O titular pode pedir a correção [1].", citations=(CITED,),
                warnings=(AnswerWarning(WarningCode.SOURCES_ONLY),),
                trace={"recall": [{"conversation_id": "c1", "date": "2026-11-15T10:00:00Z"},
                                  {"conversation_id": "c2", "date": "2026-11-16T10:00:00Z"},
                                  {"conversation_id": "c1", "date": "2026-11-15T10:00:00Z"}]})
    trace = json.loads(json.dumps(stored_trace(done, {"memory_command": "remember"})))
    assert trace["memory_command"] == "remember"
    asked: list[tuple[str, str]] = []

    def lookup(library: str, chunk_id: str) -> ChunkRow | None:
        asked.append((library, chunk_id))
        return ROW

    back = stored_answer(done.answer, trace, lookup)
    assert asked == [("equipe", "lgpd:7")]  # looked up in the library it came from
    assert back.citations[0].snippet == TEXT and back.warnings == done.warnings
    assert [c.conversation_id for c in recalled_chats(trace)] == ["c1", "c2"]
    assert [c.conversation_id for c in recalled_chats(trace, {"c2"})] == ["c2"]  # c1 deleted
    assert stored_answer("gone", trace, lambda _l, _c: None).citations == ()
