"""Citation markers: streaming parser, stream-time badges and final verification,
driven by scripted token streams (wrong ids, duplicate documents, claims without
overlap, unterminated markers, markers split across tokens)."""

from __future__ import annotations

import itertools

import pytest

from desktop_app.answer import citations as cit
from desktop_app.answer.citations import (
    CitationStream,
    Marker,
    MarkerStreamParser,
    grounding_terms,
    verify_answer,
)
from desktop_app.answer.events import AnswerWarning, CitationEvent, Token, WarningCode

from .conftest import make_hit

DEADLINE = make_hit(1, doc="lgpd", text="O titular pode pedir a correção dos dados em até 15 dias.",
                    page=7, score=0.9)
SANCTIONS = make_hit(2, doc="lgpd", text="As sanções administrativas incluem advertência e multa.",
                     page=21, score=0.5)
SCHOOL = make_hit(3, doc="ldb", text="A educação básica é obrigatória dos 4 aos 17 anos de idade.",
                  page=3, score=0.7)
SOURCES = {1: DEADLINE, 2: SANCTIONS, 3: SCHOOL}


def parse_all(chunks: list[str]) -> list[str | Marker]:
    parser = MarkerStreamParser()
    out: list[str | Marker] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    tail = parser.flush()
    if tail:
        out.append(tail)
    return out


def normalize(parts: list[str | Marker]) -> list[str | tuple[int, ...]]:
    """Merge adjacent text so results compare independently of chunking."""
    merged: list[str | tuple[int, ...]] = []
    for part in parts:
        if isinstance(part, Marker):
            merged.append(part.numbers)
        elif merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return merged


class TestMarkerStreamParser:
    def test_a_marker_inside_one_chunk_is_split_out(self) -> None:
        assert normalize(parse_all(["Prazo de 15 dias [1]."])) == ["Prazo de 15 dias ", (1,), "."]

    def test_a_marker_split_across_tokens_is_held_back_until_complete(self) -> None:
        parser = MarkerStreamParser()
        assert parser.feed("Prazo [") == ["Prazo "]
        assert parser.feed("1") == []
        assert parser.feed("2") == []
        assert parser.feed("] ok") == [Marker((12,), "[12]"), " ok"]

    def test_lists_of_ids_are_one_marker(self) -> None:
        assert normalize(parse_all(["a [1, 3] b [2;4]"])) == ["a ", (1, 3), " b ", (2, 4)]

    def test_brackets_that_are_not_markers_stay_text(self) -> None:
        text = "see [nota] and [1234] and [a1] and []"
        assert normalize(parse_all([text])) == [text]

    def test_an_unterminated_marker_at_the_end_is_returned_by_flush(self) -> None:
        parser = MarkerStreamParser()
        assert parser.feed("final [4") == ["final "]
        assert parser.flush() == "[4"

    def test_an_unterminated_marker_mid_text_is_released_as_text(self) -> None:
        assert normalize(parse_all(["valor [1", " de referência"])) == ["valor [1 de referência"]

    @pytest.mark.parametrize("text", [
        "Prazo de 15 dias [1]. Multa [2][3]. Idade [1, 3] fim [4",
        "[1] no início, [12] no meio e [ 2 ] com espaços; [x] não.",
    ])
    def test_any_chunking_gives_the_same_result(self, text: str) -> None:
        expected = normalize(parse_all([text]))
        for i, j in itertools.combinations(range(1, len(text)), 2):
            assert normalize(parse_all([text[:i], text[i:j], text[j:]])) == expected, (i, j)
        assert normalize(parse_all(list(text))) == expected  # one character per token


class TestCitationStream:
    def test_the_badge_event_comes_as_soon_as_the_marker_completes(self) -> None:
        stream = CitationStream(SOURCES)
        assert stream.feed("Prazo de 15 dias [") == [Token("Prazo de 15 dias ")]
        events = stream.feed("1] e")
        assert events[0] == Token("[1]")
        assert isinstance(events[1], CitationEvent) and events[1].citation.chunk_id == "lgpd:1"
        assert events[2] == Token(" e")

    def test_each_source_is_announced_once(self) -> None:
        stream = CitationStream(SOURCES)
        events = stream.feed("a [1]. b [1]. c [2].")
        announced = [e.citation.number for e in events if isinstance(e, CitationEvent)]
        assert announced == [1, 2]

    def test_unknown_ids_never_reach_the_stream(self) -> None:
        stream = CitationStream(SOURCES)
        events = stream.feed("a [9]. b [1, 7].") + stream.flush()
        text = "".join(e.text for e in events if isinstance(e, Token))
        assert text == "a . b [1]."
        assert [e.citation.number for e in events if isinstance(e, CitationEvent)] == [1]
        assert stream.unknown == 2

    def test_a_half_marker_at_the_end_of_the_stream_is_not_shown(self) -> None:
        stream = CitationStream(SOURCES)
        events = stream.feed("fim [") + stream.feed("2") + stream.flush()
        assert "".join(e.text for e in events if isinstance(e, Token)) == "fim "


class TestVerifyAnswer:
    def test_a_supported_citation_carries_everything_the_viewer_needs(self) -> None:
        result = verify_answer("O titular tem 15 dias para pedir correção [1].", SOURCES)
        assert result.answer == "O titular tem 15 dias para pedir correção [1]."
        (c,) = result.citations
        assert (c.number, c.doc_id, c.chunk_id, c.page, c.page_end) == (1, "lgpd", "lgpd:1", 7, 7)
        assert (c.char_start, c.char_end) == (DEADLINE.char_start, DEADLINE.char_end)
        assert c.score == 0.9 and c.legs == frozenset({"vector", "keyword"})
        assert c.snippet == DEADLINE.text and c.source_path == DEADLINE.source_path
        assert result.warnings == () and result.dropped == {}

    def test_unknown_ids_are_removed_from_the_text_and_counted(self) -> None:
        result = verify_answer("A multa é uma sanção [2][9]. Outra coisa [0].", SOURCES)
        assert result.answer == "A multa é uma sanção [2]. Outra coisa."
        assert result.dropped == {cit.UNKNOWN_SOURCE: 2}
        assert [c.number for c in result.citations] == [2]

    def test_a_citation_whose_chunk_shares_no_words_with_its_sentence_is_dropped(self) -> None:
        result = verify_answer("O céu é verde e a lua é feita de queijo [3].", SOURCES)
        assert result.citations == ()
        assert result.answer == "O céu é verde e a lua é feita de queijo."
        assert result.dropped == {cit.NO_OVERLAP: 1}
        assert result.warnings == (AnswerWarning(WarningCode.NO_SUPPORTING_EVIDENCE),)

    def test_meta_words_alone_are_not_overlap(self) -> None:
        result = verify_answer("According to the source, see the documents [1].", SOURCES)
        assert result.citations == () and result.dropped == {cit.NO_OVERLAP: 1}

    def test_overlap_ignores_case_accents_and_inflection(self) -> None:
        result = verify_answer("CORRECAO de DADO pedida pelos titulares [1].", SOURCES)
        assert [c.number for c in result.citations] == [1]

    def test_a_marker_after_the_full_stop_supports_the_previous_sentence(self) -> None:
        result = verify_answer("A educação básica é obrigatória. [3]", SOURCES)
        assert [c.number for c in result.citations] == [3]

    def test_abbreviations_do_not_cut_the_claim(self) -> None:
        result = verify_answer("Conforme o art. 18 da lei, o titular pede correção [1].", SOURCES)
        assert [c.number for c in result.citations] == [1]

    def test_each_claim_is_checked_against_its_own_sentence(self) -> None:
        text = "A multa é uma sanção [2]. A educação é obrigatória [2]."
        result = verify_answer(text, SOURCES)
        assert result.answer == "A multa é uma sanção [2]. A educação é obrigatória."
        assert result.dropped == {cit.NO_OVERLAP: 1}

    def test_at_most_two_chunks_per_document_the_most_relevant_win(self) -> None:
        sources = {
            1: make_hit(1, doc="lei", text="prazo de quinze dias", score=0.4),
            2: make_hit(2, doc="lei", text="prazo maior em casos complexos", score=0.9),
            3: make_hit(3, doc="lei", text="prazo contado em dias úteis", score=0.7),
            4: make_hit(4, doc="outra", text="prazo diferente no regulamento", score=0.1),
        }
        text = "O prazo é curto [1]. O prazo pode crescer [2]. O prazo conta dias [3]. Outro prazo [4]."
        result = verify_answer(text, sources)
        assert [c.number for c in result.citations] == [2, 3, 4]
        assert result.answer == ("O prazo é curto. O prazo pode crescer [2]. "
                                 "O prazo conta dias [3]. Outro prazo [4].")
        assert result.dropped == {cit.OVER_DOCUMENT_LIMIT: 1}

    def test_the_document_limit_uses_the_reranker_score_when_present(self) -> None:
        sources = {
            1: make_hit(1, doc="lei", text="prazo um", score=0.9, rerank_score=0.1),
            2: make_hit(2, doc="lei", text="prazo dois", score=0.1, rerank_score=0.8),
            3: make_hit(3, doc="lei", text="prazo três", score=0.5, rerank_score=0.5),
        }
        result = verify_answer("prazo [1]. prazo [2]. prazo [3].", sources)
        assert [c.number for c in result.citations] == [2, 3]

    def test_citing_the_same_source_twice_gives_one_citation(self) -> None:
        result = verify_answer("Correção em 15 dias [1]. O titular pede correção [1].", SOURCES)
        assert [c.number for c in result.citations] == [1]
        assert result.answer.count("[1]") == 2

    def test_a_list_marker_keeps_only_the_verified_ids(self) -> None:
        result = verify_answer("A correção dos dados leva 15 dias [1, 3, 8].", SOURCES)
        assert result.answer == "A correção dos dados leva 15 dias [1]."
        assert result.dropped == {cit.NO_OVERLAP: 1, cit.UNKNOWN_SOURCE: 1}

    def test_an_unterminated_marker_at_the_end_is_removed(self) -> None:
        result = verify_answer("Correção em 15 dias [1]. Multa e sanção [2", SOURCES)
        assert result.answer == "Correção em 15 dias [1]. Multa e sanção"
        assert [c.number for c in result.citations] == [1]
        assert result.dropped == {cit.UNTERMINATED: 1}

    def test_not_found_is_reported_as_not_found_not_as_missing_evidence(self) -> None:
        phrases = ("Não encontrei isso nos seus documentos.", "nao foi encontrado nos seus documentos")
        for answer in ("Não encontrei isso nos seus documentos.",
                       "Infelizmente, NAO FOI ENCONTRADO nos seus documentos!"):
            result = verify_answer(answer, SOURCES, not_found_phrases=phrases)
            assert result.not_found and result.citations == ()
            assert result.warnings == (AnswerWarning(WarningCode.NOT_FOUND),)

    def test_a_cited_answer_mentioning_not_found_keeps_its_citations(self) -> None:
        result = verify_answer("A multa é sanção [2]. O resto não encontrei nos seus documentos.",
                               SOURCES, not_found_phrases=("não encontrei nos seus documentos",))
        assert [c.number for c in result.citations] == [2]
        assert result.warnings == () and not result.not_found

    @pytest.mark.parametrize("answer", [
        "", "Sem marcadores.", "Céu verde [1].", "Correção em 15 dias [1].", "Coisa [7] [8]",
        "Não encontrei isso nos seus documentos.", "[1][2][3]", "Multa e sanção [2", "A [1, 2, 3].",
        "Educação básica obrigatória [3]. Multa [2]. Correção [1].",
    ])
    def test_the_warning_and_the_source_list_always_describe_the_same_set(self, answer: str) -> None:
        result = verify_answer(answer, SOURCES,
                               not_found_phrases=("Não encontrei isso nos seus documentos.",))
        evidence_warnings = {WarningCode.NOT_FOUND, WarningCode.NO_SUPPORTING_EVIDENCE} & {
            w.code for w in result.warnings}
        if result.citations:
            assert evidence_warnings == set()
        else:
            assert len(evidence_warnings) == 1
        # every badge left in the text is a citation in the list, and vice versa
        numbers_in_text = {n for m in cit.MARKER.finditer(result.answer)
                           for n in cit.parse_marker_numbers(m.group(1))}
        assert numbers_in_text == {c.number for c in result.citations}


def test_grounding_terms_drop_stopwords_markers_and_single_digits() -> None:
    assert grounding_terms("O prazo é de 15 dias [3] e 5 horas") == {"prazo", "15", "dias", "horas"}


def test_a_written_answers_badge_carries_its_claim_and_the_supporting_span() -> None:
    """From the verifier to the viewer: the claim it checked and the exact source words."""
    passage = ("A lei trata de dados pessoais. O titular pode pedir a correção dos dados em até "
               "15 dias. As sanções incluem multa.")
    hit = make_hit(1, doc="lgpd", text=passage, page=7)
    result = verify_answer("Você pode pedir a correção em 15 dias [1]. Isso vale sempre.",
                           {1: hit})
    [citation] = result.citations
    assert citation.claim == "Você pode pedir a correção em 15 dias."
    quote = citation.quote
    assert quote is not None and quote.exact
    assert quote.text == "O titular pode pedir a correção dos dados em até 15 dias."
    assert passage[quote.start:quote.end] == quote.text
    assert (quote.page, quote.char_start) == (7, hit.char_start + quote.start)
    assert quote.char_end - quote.char_start == len(quote.text)


def test_a_badge_supports_the_first_sentence_that_cites_it() -> None:
    result = verify_answer("As sanções incluem advertência [2]. E também multa [2].", SOURCES)
    [citation] = result.citations
    assert citation.claim == "As sanções incluem advertência."
    assert citation.quote is not None and citation.quote.text == SANCTIONS.text
