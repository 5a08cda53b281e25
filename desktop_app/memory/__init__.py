"""User memory: conversations, long-term facts from the user's own words, and LGPD rights.

Entry points: `service.MemoryService` (save/recall/edit/delete/export/erase),
`chat.ChatService` (a chat turn), `commands` (CLI). See README.md in this folder.
"""
