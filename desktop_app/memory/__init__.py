"""User memory: long-term facts from the user's own words, conversation recall over
earlier chats, and the user's LGPD rights over both (access, correction, erasure with
receipts, export, consent).

Entry points: `service.MemoryService` (save/recall/edit/delete/export/erase),
`recall.RecallService` (earlier chats an answer may draw on), `commands` (CLI).
Conversations themselves live in `desktop_app.chat` (memory reads them through
`types.ConversationLog`); the SQLite file both use is `desktop_app.state_db`.
See docs/memory.md.
"""
