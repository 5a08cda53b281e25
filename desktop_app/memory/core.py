"""The core of the memory service: saving (consent, merge, supersede) and recall.

Writes (`remember`, `extract_from`) take a `UserMessage` and verify it against the
conversation store. Saving applies, in order: the on/off setting, consent for sensitive
categories, duplicate merging (same fact or same slot and value → one item, one more
source), temporal resolution (same slot, new value → the old item becomes `superseded`
with a pointer), then the embedding. `recall(query, k)` is the answer service's hook:
hybrid (vector + keyword, RRF) over active, unexpired items. The rights (edit, delete,
forget all, export, sweep, consent withdrawal) are added by `service.MemoryService`.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.locking import MEMORY, writer_lock
from desktop_app.memory.consent import ConsentRegistry
from desktop_app.memory.events import MemoryEvent, MemoryNotSaved, MemorySaved
from desktop_app.memory.extraction import ImplicitExtractor, JsonLLM
from desktop_app.memory.index import MemoryFilters, MemoryIndex
from desktop_app.memory.live import LiveSettings
from desktop_app.memory.patterns import (
    candidate_for,
    extract_stated_facts,
    same_fact_key,
    slot_name,
    updates,
)
from desktop_app.memory.recall import RecallService
from desktop_app.memory.relevance import concerns
from desktop_app.memory.store import MemoryStore
from desktop_app.memory.types import (
    Candidate,
    ConversationLog,
    MemoryItem,
    MemorySource,
    SaveOutcome,
    UserMessage,
    iso,
    utc_now,
)
from desktop_app.retrieval.types import Embedder
from desktop_app.state_db import StateDB
from desktop_app.text.analyze import built_by
from desktop_app.text.fold import fold

log = logging.getLogger(__name__)

EMBEDDER_KEY = "memory_index.embedder_id"
NEEDS_CONSENT = "not saved: needs your consent"
# A fact without a slot is compared with the active memories nearest to it by meaning
# (`patterns.updates` decides); e5 puts unrelated short sentences at a cosine of about
# 0.75-0.83 and restatements above 0.84, so this floor only drops the clearly unrelated.
UPDATE_NEIGHBOURS = 5
UPDATE_MIN_SIMILARITY = 0.80


@dataclass
class UndoRecord:
    created: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)  # superseded by a created item
    merged: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    # (memory id, message id, previous updated_at, previous expires_at)
    edits_at_save: dict[str, int] = field(default_factory=dict)  # to see later edits


class MemoryCore(LiveSettings):
    """Long-term user memory: provenance, consent, temporal resolution and recall."""

    def __init__(self, db: StateDB, index_dir: Path, embedder: Embedder | Callable[[], Embedder],
                 *, conversations: ConversationLog, retention_days: int = 365,
                 enabled: bool = True, implicit: bool = True,
                 llm_provider: Callable[[], JsonLLM | None] | None = None,
                 clock: Callable[[], datetime] = utc_now,
                 settings: Settings | None = None, log_dir: Path | None = None) -> None:
        super().__init__(embedder, settings=settings, retention_days=retention_days)
        self.db = db
        self.log_dir = log_dir  # erasure also scrubs log files written by older versions
        self.store = MemoryStore(db)
        self.consents = ConsentRegistry(db)
        self.conversations = conversations
        self.index_dir = index_dir
        self._enabled = enabled
        self._implicit = implicit
        self.clock = clock
        self._index: MemoryIndex | None = None
        self._llm_provider = llm_provider
        self._undo: dict[str, UndoRecord] = {}
        # conversation recall (memory/recall.py): erasures reach its index too
        self.conversation_recall: RecallService | None = None
        # Another process (the window, a terminal) may write memories into the same folder.
        self.writer = writer_lock(index_dir.parent, MEMORY)

    @contextmanager
    def writing(self, purpose: str) -> Iterator[None]:
        """Hold the `memory` writer lock (other processes wait) and this process's DB lock."""
        with self.writer.hold(purpose), self.db.lock:
            yield

    # --- switches (read live from the settings when the app passes them) ---

    @property
    def enabled(self) -> bool:
        return self._settings.memory_enabled if self._settings else self._enabled

    @property
    def implicit(self) -> bool:
        return self._settings.implicit_extraction if self._settings else self._implicit

    # --- lazily opened heavy parts (the embedder: LiveSettings) ---

    @property
    def index(self) -> MemoryIndex:
        if self._index is None:
            with self.db.lock:
                self._index = MemoryIndex(self.index_dir, dim=self.embedder.dim)
                self._check_index()
        return self._index

    def reopen_index(self) -> int:
        """Open the index again (a damaged table is made again and re-embedded from SQLite:
        `doctor --repair`); returns its rows."""
        self._index = None
        return self.index.count()

    def _check_index(self) -> None:
        """Re-embed from SQLite when the index was built by another embedder or is out of sync.

        Only when no other process is writing memories: a writer between its SQLite row and
        its index row is not out of sync, and a read-only folder cannot be repaired anyway."""
        with self.writer.hold_if_free("checking the memory index") as held:
            if held:
                self._sync_index()

    def _sync_index(self) -> None:
        assert self._index is not None
        live = {i.id: i for i in self.store.items(statuses=("active", "superseded"))}
        if (self.db.get_kv(EMBEDDER_KEY) == built_by(self.embedder.id)
                and self._index.ids() == set(live)):
            return
        log.info("rebuilding memory index (%d items) for embedder %s", len(live),
                 self.embedder.id)
        self._index.drop_all()
        items = list(live.values())
        if items:
            vectors = self.embedder.embed_passages([i.search_text for i in items])
            self._index.add([i.id for i in items], [i.search_text for i in items], vectors,
                            [i.status for i in items])
        self._index.compact()
        self.db.set_kv(EMBEDDER_KEY, built_by(self.embedder.id))

    def _expiry(self, now: datetime) -> str | None:
        return iso(now + timedelta(days=self.retention_days)) if self.retention_days > 0 else None

    # --- writes ---

    def remember(self, message: UserMessage, text: str | None = None) -> list[SaveOutcome]:
        """Explicit memory: save `text` (default: the whole message) now.

        `text` must come from `message` (e.g. the part after "remember that"); the
        provenance keeps the full message as the user's exact words.
        """
        self._check_message(message)
        fact = (text or message.text).strip()
        if " ".join(fold(fact).rstrip(".").split()) not in " ".join(fold(message.text).split()):
            raise ValueError("an explicit memory must quote the user's own message")
        return self.save([candidate_for(fact, message, "explicit")])

    def save_after_consent(self, message_id: str, text: str) -> list[SaveOutcome]:
        """The GUI's "allow and save" on a "not saved: needs your consent" chip."""
        stored = self.conversations.message(message_id)
        if stored is None or stored.role != "user":
            raise ValueError("not a stored user message: memory accepts only what the user typed")
        message = UserMessage(stored.conversation_id, stored.id, stored.content,
                              stored.created_at)
        return self.remember(message, text)

    def extract_from(self, message: UserMessage, *, use_llm: bool | None = None,
                     use_patterns: bool = True) -> list[SaveOutcome]:
        """Implicit extraction after a turn: rules always, the LLM when on and available."""
        return self.save(self.candidates_from(message, use_llm=use_llm,
                                              use_patterns=use_patterns))

    def candidates_from(self, message: UserMessage, *, use_llm: bool | None = None,
                        use_patterns: bool = True) -> list[Candidate]:
        """What implicit extraction proposes for one message (nothing saved yet)."""
        self._check_message(message)
        if not self.enabled or not self.implicit:
            return []
        candidates = extract_stated_facts(message) if use_patterns else []
        if use_llm is None or use_llm:
            llm = self._llm_provider() if self._llm_provider else None
            if llm is not None:
                candidates += ImplicitExtractor(llm).extract(message)
        return candidates

    def _check_message(self, message: UserMessage) -> None:
        if not isinstance(message, UserMessage):
            raise TypeError("memory is written only from the user's own messages (UserMessage)")
        if not self.conversations.is_user_message(message):
            raise ValueError("not a stored user message: memory accepts only what the user typed")

    def save(self, candidates: Sequence[Candidate]) -> list[SaveOutcome]:
        """Apply consent, merge duplicates, supersede contradictions, embed and index."""
        outcomes: list[SaveOutcome] = []
        new_items: list[MemoryItem] = []
        undo = UndoRecord()
        token = f"undo_{uuid.uuid4().hex[:12]}"
        with self.writing("saving a memory"):
            index = self.index  # open (and sync) the index before any new row exists
            for candidate in candidates:
                if not isinstance(candidate.message, UserMessage):
                    raise TypeError("a candidate must come from a UserMessage")
            vectors = self._vectors_for(candidates)
            for candidate in candidates:
                outcome, item = self._save_one(candidate, undo, vectors)
                outcomes.append(replace(outcome, undo_token=token)
                                if outcome.memory_id else outcome)
                if item is not None:
                    new_items.append(item)
            if undo.created or undo.merged:
                for memory_id in undo.created + [m[0] for m in undo.merged]:
                    undo.edits_at_save[memory_id] = len(self.store.edits(memory_id))
                self._undo[token] = undo
            if new_items:
                texts = [i.search_text for i in new_items]
                try:
                    index.add([i.id for i in new_items], texts,
                              np.stack([vectors[t] for t in texts]),
                              ["active"] * len(new_items))
                except BaseException:
                    self._revert(undo)  # no row may exist that search cannot see
                    self._undo.pop(token, None)
                    raise
        for o in outcomes:
            log.info("memory %s: %s (%s)", o.status, o.memory_id or "-", o.candidate.category)
        return outcomes

    def _allowed(self, c: Candidate) -> bool:
        return self.enabled and (not c.sensitive or self.consents.allows(c.category))

    def _vectors_for(self, candidates: Sequence[Candidate]) -> dict[str, np.ndarray]:
        """The passage vector of every candidate that may be saved, by its search text: one
        batch, used both to find what a fact updates and to index it."""
        texts = list(dict.fromkeys(c.search_text for c in candidates if self._allowed(c)))
        if not texts:
            return {}
        return dict(zip(texts, self.embedder.embed_passages(texts), strict=True))

    def _save_one(self, c: Candidate, undo: UndoRecord,
                  vectors: dict[str, np.ndarray]) -> tuple[SaveOutcome, MemoryItem | None]:
        if not self.enabled:
            return SaveOutcome("disabled", c, reason="memory is switched off"), None
        if c.sensitive and not self.consents.allows(c.category):
            return SaveOutcome("needs_consent", c, reason=NEEDS_CONSENT), None
        now = self.clock()
        source = MemorySource(c.message.conversation_id, c.message.message_id,
                              c.message.timestamp, c.message.text)
        attribute = slot_name(c.attribute) if c.attribute else ""
        duplicate = self._duplicate_of(c, attribute)
        if duplicate is not None:
            added = all(s.message_id != source.message_id for s in duplicate.sources)
            if added:
                self.store.add_source(duplicate.id, source, added_at=iso(now))
            undo.merged.append((duplicate.id, source.message_id if added else "",
                                duplicate.updated_at, duplicate.expires_at))
            self.store.touch(duplicate.id, updated_at=iso(now), expires_at=self._expiry(now))
            return SaveOutcome("merged", c, memory_id=duplicate.id), None
        old = self.store.active_in_slot(c.subject, attribute) if attribute else []
        if not old:
            old = self._updated_by_meaning(c, vectors[c.search_text])
        item = MemoryItem(
            id=f"mem_{uuid.uuid4().hex[:12]}", text=c.text, category=c.category,
            subject=c.subject, attribute=attribute, value=c.value, sensitive=c.sensitive,
            status="active", created_at=iso(now), updated_at=iso(now),
            expires_at=self._expiry(now), supersedes=old[-1].id if old else None,
            superseded_by=None, extracted_by=c.extracted_by, sources=(source,),
            search_context=c.search_context)
        self.store.insert(item)
        undo.created.append(item.id)
        for previous in old:
            self.store.set_status(previous.id, "superseded", superseded_by=item.id,
                                  updated_at=iso(now))
            self.index.set_status([previous.id], "superseded")
            undo.restored.append(previous.id)
        return SaveOutcome("saved", c, memory_id=item.id,
                           superseded_id=old[-1].id if old else None), item

    def _revert(self, undo: UndoRecord) -> None:
        now = iso(self.clock())
        for memory_id in undo.restored:
            self.store.set_status(memory_id, "active", superseded_by=None, updated_at=now)
            self.index.set_status([memory_id], "active")
        for memory_id, message_id, updated_at, expires_at in undo.merged:
            if message_id:
                self.store.remove_source(memory_id, message_id)
            self.store.touch(memory_id, updated_at=updated_at, expires_at=expires_at)
        self.store.purge(undo.created)

    def _updated_by_meaning(self, c: Candidate, vector: np.ndarray) -> list[MemoryItem]:
        """The active memories this fact corrects when no slot rule knew its attribute:
        those of the user's active memories about the same subject nearest to it by meaning
        that `patterns.updates` accepts (a bare correction only for the nearest one)."""
        scored = self.index.search_vector(vector, UPDATE_NEIGHBOURS, MemoryFilters(("active",)))
        near = [s for s in scored if s.score >= UPDATE_MIN_SIMILARITY]
        items = self.store.get_many([s.row for s in near])
        replaced: list[MemoryItem] = []
        nearest = True
        for s in near:
            item = items.get(s.row)
            if item is None or item.status != "active" or item.subject != c.subject:
                continue
            if updates(c.text, item.text, nearest=nearest, new_context=c.search_context,
                       old_context=item.search_context):
                replaced.append(item)
            nearest = False
        return sorted(replaced, key=lambda i: i.created_at)

    def _duplicate_of(self, c: Candidate, attribute: str) -> MemoryItem | None:
        key = same_fact_key(c.text)
        same_text = self.store.active_with_key(key)
        if same_text is not None:
            return same_text
        if attribute and c.value:
            for item in self.store.active_in_slot(c.subject, attribute):
                if same_fact_key(item.value) == same_fact_key(c.value):
                    return item
        return None

    # --- undo for the "memory saved · undo" chip ---

    @staticmethod
    def events_for(outcomes: Sequence[SaveOutcome]) -> list[MemoryEvent]:
        """Turn outcomes into GUI events; the undo token covers the batch of writes."""
        events: list[MemoryEvent] = []
        saved = [o for o in outcomes if o.status in ("saved", "merged") and o.memory_id]
        if saved:
            token = saved[-1].undo_token or ""
            events.append(MemorySaved(
                tuple(o.memory_id for o in saved if o.memory_id), token,
                tuple(o.candidate.text for o in saved),
                tuple(o.superseded_id for o in saved if o.superseded_id)))
        for o in outcomes:
            if o.status == "needs_consent":
                events.append(MemoryNotSaved(o.candidate.category, o.reason, o.candidate.text,
                                             o.candidate.message.message_id))
        return events

    def take_undo(self, token: str) -> UndoRecord | None:
        return self._undo.pop(token, None)

    def discard_undo_for(self, memory_ids: set[str]) -> None:
        for token, record in list(self._undo.items()):
            if memory_ids & (set(record.created) | set(record.restored)
                             | {m[0] for m in record.merged}):
                del self._undo[token]

    # --- reads ---

    def recall(self, query: str, k: int = 5, *,
               query_vector: np.ndarray | None = None) -> list[MemoryItem]:
        """Top-k active, unexpired memories for a question that concern it (the answer
        service's hook; it passes the question's vector, so a turn embeds the question
        once). A question about the documents that says nothing of the user and shares no
        word with a memory gets none (`memory.relevance`)."""
        if not self.enabled or not query.strip():
            return []
        return [m for m in self.search(query, k=k, query_vector=query_vector)
                if concerns(query, m.text)]

    def search(self, query: str, *, k: int = 10, include_history: bool = False,
               category: str | None = None,
               query_vector: np.ndarray | None = None) -> list[MemoryItem]:
        """The one hybrid searcher over the memory index (vector and keyword legs, RRF; ties
        by id); SQLite, the source of truth, then drops expired and other-category items."""
        from desktop_app.retrieval.search import HybridSearcher

        statuses = ("active", "superseded") if include_history else ("active",)
        with self.db.lock:
            if self.index.count() == 0:
                return []
            depth = max(20, 4 * k)
            searcher = HybridSearcher(self.index, self.embedder, self._settings)
            fused = searcher.search_rows(query, k=2 * depth, filters=MemoryFilters(statuses),
                                         query_vector=query_vector, depth=depth)
        items = self.store.get_many([f.row for f in fused])
        now = iso(self.clock())
        ranked = []
        for f in fused:
            item = items.get(f.row)
            if item is None or item.status not in statuses:
                continue
            if item.expires_at is not None and item.expires_at <= now:
                continue
            if category and item.category != category:
                continue
            ranked.append(item)
        return ranked[:k]

    def get(self, memory_id: str) -> MemoryItem | None:
        return self.store.get(memory_id)

    def source_message_ids(self, memory_id: str) -> list[str]:
        """The user's messages a memory and its older versions were taken from, still in
        the chat history (what `delete` without `erase_messages` leaves behind)."""
        ids = list(dict.fromkeys(s.message_id for i in self.store.chain(memory_id)
                                 if (item := self.store.get(i)) is not None
                                 for s in item.sources))
        return [i for i in ids if self.conversations.message(i) is not None]

    def list_items(self, *, status: str = "active", category: str | None = None,
                   subject: str | None = None, query: str | None = None) -> list[MemoryItem]:
        statuses = {"active": ("active",), "superseded": ("superseded",),
                    "history": ("active", "superseded"),
                    "all": ("active", "superseded", "deleted")}.get(status, ("active",))
        if query:
            found = self.search(query, k=50, include_history="superseded" in statuses,
                                category=category)
            return [i for i in found if subject is None or fold(i.subject) == fold(subject)]
        return self.store.items(statuses=statuses, category=category, subject=subject)

    def memory_block(self, query: str, k: int = 5) -> str:
        """The "What you told me" block as the prompt shows it (used by the evaluation)."""
        items = self.recall(query, k)
        return "\n".join(f"- {i.text}" for i in items)
