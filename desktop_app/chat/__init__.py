"""Conversations: the message store, the history a turn sends the model, and the turn
itself (persist → memory command → answer → persist → extraction job).

chat sits above answer and memory (gui → chat → answer | memory → retrieval → text);
memory keeps only what it remembers and reads messages through its own
`memory.types.ConversationLog` protocol, which `chat.conversations.ConversationStore`
implements.
"""
