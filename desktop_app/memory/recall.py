"""Conversation recall: what was said in earlier chats, searchable beside profile memories.

Every exchange of a past conversation — a user turn with the assistant turns around it,
both roles — is indexed (`RecallIndex`: vectors + FTS, its own LanceDB table) with its
conversation id, date and message ids. At answer time `search` returns the exchanges
most relevant to the question (vector and keyword legs fused by the same RRF as
documents and memories; ties newer first), rendered from the messages as they are now.
The answer service fits them into the "From earlier chats" block under a token
budget (answer/context.py).

Recall is not memory: recalled text is something said earlier, including what the
assistant said, so it is fenced as untrusted in the prompt and never becomes a profile
fact (only `UserMessage`s write memories).

The index is derived data: built by another embedder, it is emptied on open and every
conversation is re-embedded from SQLite at the next `sync` (even one asked for a single
chat, as the after-turn job does).

Erasure: rows follow the messages. `sync` re-indexes a conversation from what is stored
(a deleted or redacted message drops or changes its exchange); `forget_messages` and
`forget_conversations` delete rows at once and compact, so the text is physically gone
from the LanceDB files; `erase_all` (the setting turned off) drops the whole table.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.memory.erasure import ErasureReceipt
from desktop_app.memory.live import LiveSettings
from desktop_app.memory.recall_index import ExchangeRow, RecallFilters, RecallIndex, _desc
from desktop_app.memory.recall_turns import TURN_PREFIX, Stages, is_turn, stages
from desktop_app.memory.types import (
    ConversationLog,
    EarlierExchange,
    StoredMessage,
    chat_date,
    iso,
    utc_now,
)
from desktop_app.retrieval.index_api import Scored
from desktop_app.retrieval.types import Embedder
from desktop_app.state_db import StateDB
from desktop_app.text.analyze import built_by, content_terms
from desktop_app.text.fold import fold
from desktop_app.text.values import specifics, value_kind

log = logging.getLogger(__name__)

EMBEDDER_KEY = "recall_index.embedder_id"
REBUILD_KEY = "recall_index.rebuild_pending"  # the table was emptied: re-index every chat
UNITS_KEY = "recall_index.units"  # what a row can be; an index of exchanges alone gets turns
UNITS = "exchanges+turns"
EMBED_BATCH = 64
LEG_DEPTH = 40
VECTOR_DEPTH = 300  # rows the vector leg returns: a flat scan costs the same for 40 or 300,
# and every candidate turn among them brings its cosine to the packing
KEYWORD_DEPTH = 200
COMMON_NAME_SHARE = 0.05  # a name in this share of the rows is a participant's, not a topic
COMMON_NAME_MIN = 20
COMMON_NAME_MAX = 200
CANDIDATES = 100  # exchanges offered to the block; it keeps their sentences that fit


@dataclass(frozen=True)
class RecalledExchange:
    """An exchange found for a question, with the turns as they are stored now."""

    exchange_id: str
    conversation_id: str
    title: str
    started_at: str
    turns: tuple[tuple[str, str], ...]  # (role, text), in order
    message_ids: tuple[str, ...]
    score: float
    position: int = 0  # seq of its first message in the conversation
    similarity: tuple[float | None, ...] = ()  # each turn's cosine to the question, if found


def exchanges_of(messages: Sequence[StoredMessage]) -> list[list[StoredMessage]]:
    """A conversation's exchanges: each user turn with the assistant turn before it (the
    question it answers: "your date of birth?" → "March 15th, 1985.") and the one after it
    (the answer it got: "What's the balance?" → "$8,456.23"). An assistant turn belongs to
    up to two exchanges; one next to no user turn stands alone."""
    shown = [m for m in sorted(messages, key=lambda m: m.seq) if m.content.strip()]
    units: list[list[StoredMessage]] = []
    for i, message in enumerate(shown):
        if message.role != "user":
            continue
        unit = [message]
        if i > 0 and shown[i - 1].role == "assistant":
            unit.insert(0, shown[i - 1])
        if i + 1 < len(shown) and shown[i + 1].role == "assistant":
            unit.append(shown[i + 1])
        units.append(unit)
    covered = {m.id for unit in units for m in unit}
    units += [[m] for m in shown if m.id not in covered]
    return sorted(units, key=lambda unit: unit[0].seq)


def exchange_id(unit: Sequence[StoredMessage]) -> str:
    """Stable while the messages are unchanged; a redacted message gives a new id."""
    digest = hashlib.sha1()
    for m in unit:
        digest.update(m.id.encode())
        digest.update(hashlib.sha1(m.content.encode("utf-8")).digest())
    return "ex_" + digest.hexdigest()[:20]


def exchange_text(unit: Sequence[StoredMessage]) -> str:
    return "\n".join(m.content.strip() for m in unit)


def turn_id(message: StoredMessage) -> str:
    """A single turn's row: stable while the message is unchanged."""
    digest = hashlib.sha1(message.id.encode())
    digest.update(hashlib.sha1(message.content.encode("utf-8")).digest())
    return TURN_PREFIX + digest.hexdigest()[:20]


def units_of(messages: Sequence[StoredMessage]) -> list[tuple[list[StoredMessage], str]]:
    """What the index holds of a conversation, as (messages, row id): every exchange, and
    every turn of an exchange of two or more on its own. An exchange gives a short answer
    its question ("your date of birth?" → "March 15th, 1985."); a turn alone is found
    for what it says itself, not drowned by the turns around it, and tells which of an
    exchange's turns a question is about (the second stage of `search`)."""
    exchanges = exchanges_of(messages)
    out = [(unit, exchange_id(unit)) for unit in exchanges]
    seen: set[str] = set()
    for unit in exchanges:
        if len(unit) < 2:
            continue
        for m in unit:
            if m.id not in seen:
                seen.add(m.id)
                out.append(([m], turn_id(m)))
    return out


class RecallService(LiveSettings):
    """Indexes past exchanges and finds the ones a question needs."""

    def __init__(self, db: StateDB, index_dir: Path, embedder: Embedder | Callable[[], Embedder],
                 *, conversations: ConversationLog,
                 settings: Settings | None = None, enabled: bool = True,
                 retention_days: int = 365, clock: Callable[[], datetime] = utc_now) -> None:
        super().__init__(embedder, settings=settings, retention_days=retention_days)
        self.db = db
        self.conversations = conversations  # chat's store, through memory's protocol
        self.index_dir = index_dir
        self._enabled = enabled
        self.clock = clock
        self._index: RecallIndex | None = None

    def after_erasure(self, conversation_ids: list[str]) -> None:
        """Messages were erased outside memory (a removed document's quoting answers): the
        exchanges holding them leave the index, analysed words and all (compacted)."""
        if self.enabled and conversation_ids:
            try:
                self.sync(conversation_ids)
            except AppError as exc:  # the erasure itself is done; the next sync finishes this
                log.warning("recall index not brought level after an erasure: %s",
                            exc.user_message)

    # --- switches (live from the settings when the app passes them) ---

    @property
    def enabled(self) -> bool:
        if self._settings is not None:
            return self._settings.memory_enabled and self._settings.recall_enabled
        return self._enabled

    @property
    def index(self) -> RecallIndex:
        if self._index is None:
            with self.db.lock:
                self._index = RecallIndex(self.index_dir, dim=self.embedder.dim,
                                          embedder_id=self.embedder.id)
                if self._index.rebuilt_after_damage:
                    self.db.set_kv(REBUILD_KEY, "1")  # damaged files: every chat again
                if self.db.get_kv(EMBEDDER_KEY) not in (None, built_by(self.embedder.id)):
                    # built by another embedder or analyzer: re-index from SQLite
                    self._index.drop_all()
                    self.db.set_kv(REBUILD_KEY, "1")  # every chat, at the next sync
                if self.db.get_kv(UNITS_KEY) != UNITS:
                    self.db.set_kv(REBUILD_KEY, "1")  # exchanges only: add every chat's turns
                    self.db.set_kv(UNITS_KEY, UNITS)
                self.db.set_kv(EMBEDDER_KEY, built_by(self.embedder.id))
        return self._index

    def reopen_index(self) -> int:
        """Open the index again and bring it level with the chats (a damaged table is made
        again and every chat re-indexed: `doctor --repair`); returns its rows."""
        self._index = None
        self.sync()
        return self.index.count()

    def _cutoff(self) -> str | None:
        days = self.retention_days
        return iso(self.clock() - timedelta(days=days)) if days > 0 else None

    # --- indexing ---

    def sync(self, conversation_ids: Iterable[str] | None = None) -> int:
        """Bring the index level with the stored messages (all conversations when None):
        new exchanges embedded, changed or vanished ones removed. Returns rows added."""
        if not self.enabled:
            return 0
        index = self.index
        rebuilding = self.db.get_kv(REBUILD_KEY) == "1"
        if rebuilding:
            # emptied for a new embedder: the after-turn job's sync of one chat brings
            # every chat back, not only the one just written to
            conversation_ids = None
        wanted_convs = (list(dict.fromkeys(conversation_ids)) if conversation_ids is not None
                        else [c["id"] for c in self.conversations.conversations()])
        cutoff = self._cutoff()
        wanted: dict[str, tuple[ExchangeRow, str]] = {}
        for conv_id in wanted_convs:
            for unit, row_id in units_of(self.conversations.messages(conv_id)):
                started = unit[0].created_at
                if cutoff is not None and started < cutoff:
                    continue  # past the retention period: not recalled
                row = ExchangeRow(row_id, conv_id, tuple(m.id for m in unit), started)
                wanted[row.exchange_id] = (row, exchange_text(unit))
        have = index.ids_in(None if conversation_ids is None else wanted_convs)
        stale = [i for i in have if i not in wanted]
        new = [wanted[i] for i in wanted if i not in have]
        if stale:
            index.delete(stale)
        for start in range(0, len(new), EMBED_BATCH):
            batch = new[start:start + EMBED_BATCH]
            vectors = self.embedder.embed_passages([text for _, text in batch])
            index.add_exchanges([row for row, _ in batch], [text for _, text in batch], vectors)
        if stale:
            index.compact()  # a changed (redacted) exchange's old text must leave the disk
        if rebuilding:
            self.db.set_kv(REBUILD_KEY, "0")
        if new or stale:
            log.info("recall index: %d exchanges added, %d removed", len(new), len(stale))
        return len(new)

    # --- search ---

    def legs(self, query: str, *, vector: np.ndarray | None = None
             ) -> tuple[list[Scored[ExchangeRow]], list[Scored[ExchangeRow]]]:
        """One search of each leg over exchanges and turns: (vector, keywords), best first.

        A name the chats are full of (the person the user talks with, their own) says
        little about which turn is wanted, yet it pulls the question's vector towards
        every turn that greets that person ("Wow, Caroline, that's awesome!"): the vector
        leg searches for the question without it. The keyword leg keeps every word (its
        idf already weighs a common name down)."""
        index = self.index
        rows = index.count()
        if rows == 0:
            return [], []
        plain = without_names(query, self._common_names(query, rows))
        if plain != query:
            vector = self.embedder.embed_query(plain)
        elif vector is None:
            vector = self.embedder.embed_query(query)
        return (index.search_vector(vector, VECTOR_DEPTH, RecallFilters()),
                index.search_keyword(query, KEYWORD_DEPTH, RecallFilters()))

    def _common_names(self, query: str, rows: int) -> set[str]:
        """The question's names found in `COMMON_NAME_SHARE` of the rows or more (at
        least `COMMON_NAME_MIN` rows; counting stops at `COMMON_NAME_MAX`)."""
        names = {v for v in specifics(query)
                 if value_kind(v) == "name" and " " not in v and content_terms(v)}
        wanted = min(COMMON_NAME_MAX, max(COMMON_NAME_MIN, int(COMMON_NAME_SHARE * rows)))
        return {n for n in names if self.index.keyword_rows(n, wanted) >= wanted}

    def stages(self, query: str, *, vector: np.ndarray | None = None, k: int | None = None,
               exclude_conversation: str | None = None,
               legs: tuple[list[Scored[ExchangeRow]], list[Scored[ExchangeRow]]] | None = None
               ) -> Stages:
        """Exchanges and turns for `query` (memory/recall_turns.py), before rendering;
        `legs` when the caller has read them already (the evaluation keeps them)."""
        if not self.enabled or not query.strip():
            return Stages([])
        by_vector, by_keywords = legs if legs is not None else self.legs(query, vector=vector)
        settings = self._settings
        cutoff = self._cutoff()
        return stages(by_vector, by_keywords, k=CANDIDATES if k is None else k,
                      rrf_k=settings.rrf_k if settings else 60,
                      weights={"vector": settings.vector_weight,
                               "keyword": settings.keyword_weight} if settings else None,
                      keep=lambda row: row.conversation_id != exclude_conversation
                      and (cutoff is None or row.started_at >= cutoff))

    def search(self, query: str, *, vector: np.ndarray | None = None, k: int | None = None,
               exclude_conversation: str | None = None) -> list[RecalledExchange]:
        """The exchanges most relevant to `query`, best first (RRF of both legs; ties newer
        first), then the turns the second stage found beyond them. The current
        conversation is excluded: its turns are in the history."""
        return self.render(self.stages(query, vector=vector, k=k,
                                       exclude_conversation=exclude_conversation))

    def render(self, found: Stages) -> list[RecalledExchange]:
        """The candidates with their turns as stored now (a deleted message is left out)."""
        wanted = [row for row, _ in found.candidates]
        stored = self.conversations.messages_by_id(
            [m for row in wanted for m in row.message_ids])
        return rendered(found, stored, self._titles({row.conversation_id for row in wanted}))

    def earlier(self, query: str, *, exclude_conversation: str | None = None,
                vector: np.ndarray | None = None,
                language: str = "en") -> list[EarlierExchange]:
        """The answer service's hook: candidates for "From earlier chats", dated
        in the answer's language."""
        return dated(self.search(query, vector=vector,
                                 exclude_conversation=exclude_conversation), language)

    def _titles(self, conversation_ids: set[str]) -> dict[str, str]:
        """Titles of several chats in one query (a search spans up to CANDIDATES chats)."""
        ids = sorted(conversation_ids)
        if not ids:
            return {}
        rows = self.db.query("SELECT id, title FROM conversations WHERE id IN ("
                             + ", ".join("?" * len(ids)) + ")", tuple(ids))
        return {str(r["id"]): str(r["title"] or "") for r in rows}

    def _title(self, conversation_id: str) -> str:
        rows = self.db.query("SELECT title FROM conversations WHERE id = ?", (conversation_id,))
        return str(rows[0]["title"] or "") if rows else ""

    def indexed(self, query: str = "") -> list[RecalledExchange]:
        """What recall can use (the memory panel's "Conversations" view): every indexed
        exchange, newest first, or the ones matching `query`."""
        if not self.enabled:
            return []
        if query.strip():
            return self.search(query, k=50)[:50]
        index = self.index
        out: list[RecalledExchange] = []
        ids = index.ids_in()
        by_conv: dict[str, list[str]] = {}
        for ex_id, conv_id in ids.items():
            by_conv.setdefault(conv_id, []).append(ex_id)
        for conv_id in by_conv:
            title = self._title(conv_id)
            for unit in exchanges_of(self.conversations.messages(conv_id)):
                if exchange_id(unit) in ids:
                    out.append(RecalledExchange(
                        exchange_id(unit), conv_id, title, unit[0].created_at,
                        tuple((m.role, m.content.strip()) for m in unit),
                        tuple(m.id for m in unit), 0.0, unit[0].seq))
        latest: dict[str, str] = {}
        for e in out:
            latest[e.conversation_id] = max(latest.get(e.conversation_id, ""), e.started_at)
        # chats with the latest activity first; inside a chat, in the order things were said
        return sorted(out, key=lambda e: (_desc(latest[e.conversation_id]), e.conversation_id,
                                          e.position))

    def count(self) -> int:
        """Exchanges indexed (the turns indexed on their own are not counted)."""
        if not self.enabled:
            return 0
        return sum(not is_turn(i) for i in self.index.ids_in())

    # --- erasure ---

    def forget_messages(self, message_ids: Sequence[str], receipt: ErasureReceipt) -> int:
        """Delete the exchanges holding these messages (rows, vectors, FTS entries)."""
        if self._index is None and not self.index_dir.is_dir():
            return 0
        index = self.index
        ids = index.ids_with_messages(list(message_ids))
        return self._delete(ids, receipt)

    def forget_conversations(self, conversation_ids: Sequence[str],
                             receipt: ErasureReceipt) -> int:
        if self._index is None and not self.index_dir.is_dir():
            return 0
        return self._delete(list(self.index.ids_in(list(conversation_ids))), receipt)

    def _delete(self, ids: list[str], receipt: ErasureReceipt) -> int:
        touch = receipt.touch("recall_index")
        touch.file_bytes_before = self.index.file_bytes()
        rows = self.index.delete(ids)
        touch.rows += rows
        touch.content_bytes += rows * 4 * self.index.dim
        receipt.exchange_ids.extend(ids)
        self.index.compact()
        touch.file_bytes_after = self.index.file_bytes()
        return rows

    def erase_all(self, receipt: ErasureReceipt) -> int:
        """Drop the whole recall index (recall switched off, forget everything)."""
        if self._index is None and not self.index_dir.is_dir():
            return 0
        index = self.index
        touch = receipt.touch("recall_index")
        touch.file_bytes_before = index.file_bytes()
        rows = index.drop_all()
        index.compact()
        touch.rows += rows
        touch.file_bytes_after = index.file_bytes()
        receipt.physical_cleanup.append("recall index: table dropped, old versions removed")
        return rows

    def sweep_expired(self, receipt: ErasureReceipt) -> int:
        """Retention: exchanges older than the retention period leave the index."""
        cutoff = self._cutoff()
        if cutoff is None or (self._index is None and not self.index_dir.is_dir()):
            return 0
        ids = self.index.rows_before(cutoff)
        return self._delete(ids, receipt) if ids else 0


def dated(found: Sequence[RecalledExchange], language: str = "en") -> list[EarlierExchange]:
    """Recalled exchanges as the prompt needs them, each chat dated in `language`."""
    return [EarlierExchange(e.exchange_id, e.conversation_id, e.started_at,
                            chat_date(e.started_at, language),
                            tuple((m, role, text) for m, (role, text)
                                  in zip(e.message_ids, e.turns, strict=True)),
                            e.position, e.similarity)
            for e in found]


def rendered(found: Stages, stored: Mapping[str, StoredMessage],
             titles: Mapping[str, str]) -> list[RecalledExchange]:
    """Found rows with their messages as stored (`stored`: by id); a row whose messages
    were all deleted is left out (the next sync drops it)."""
    out: list[RecalledExchange] = []
    for row, score in found.candidates:
        turns, ids, seqs = [], [], []
        for message_id in row.message_ids:
            message = stored.get(message_id)
            if message is not None and message.content.strip():
                turns.append((message.role, message.content.strip()))
                ids.append(message_id)
                seqs.append(message.seq)
        if turns:
            out.append(RecalledExchange(row.exchange_id, row.conversation_id,
                                        titles.get(row.conversation_id, ""), row.started_at,
                                        tuple(turns), tuple(ids), score, seqs[0],
                                        tuple(found.similarity.get(m) for m in ids)))
    return out


def without_names(query: str, names: set[str]) -> str:
    """`query` without the words (folded) in `names`, nor their possessive "'s"."""
    if not names:
        return query
    kept = [w for w in query.split()
            if fold(w).strip("?!.,;:").removesuffix("'s").removesuffix("’s") not in names]
    return " ".join(kept) or query
