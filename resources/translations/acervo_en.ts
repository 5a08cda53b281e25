<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="119" />
        <source>Ask a question about your documents. Every answer cites its sources: click a numbered badge to open the page it came from.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="120" />
        <source>Ask about your documents… (Enter to send, Shift+Enter for a new line)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="121" />
        <source>Sources only (no model)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="122" />
        <source>Answer with the best passages from your documents, without the language model</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="123" />
        <source>Ask</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="124" />
        <source>Stop</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="125" />
        <source>Undo</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="146" />
        <location filename="../../desktop_app/gui/chat.py" line="279" />
        <source>You</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="147" />
        <location filename="../../desktop_app/gui/chat.py" line="281" />
        <source>Acervo</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="174" />
        <location filename="../../desktop_app/gui/chat.py" line="284" />
        <source>Sources</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="174" />
        <location filename="../../desktop_app/gui/chat.py" line="284" />
        <source>found by</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="175" />
        <location filename="../../desktop_app/gui/chat.py" line="285" />
        <source>p.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="176" />
        <location filename="../../desktop_app/gui/chat.py" line="286" />
        <source>meaning</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="176" />
        <location filename="../../desktop_app/gui/chat.py" line="286" />
        <source>keywords</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="178" />
        <source>Used what you told me: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="185" />
        <source>Memory saved: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="191" />
        <source>Not saved: needs your consent for “%1”. You can allow it in the Memory panel.</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="193" />
        <source>Forgotten: %n memory item(s).</source>
        <translation>
            <numerusform>Forgotten: %n memory item.</numerusform><numerusform>Forgotten: %n memory items.</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="211" />
        <source>no supporting evidence in your documents</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="212" />
        <source>not found in your documents</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="213" />
        <source>answered from sources only</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="214" />
        <source>stopped</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="219" />
        <source>model unavailable: </source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="220" />
        <source>memory unavailable: </source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="221" />
        <source>reranker unavailable: </source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="234" />
        <source>Stopped.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="234" />
        <source>No answer.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="239" />
        <source>The answer failed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="257" />
        <source>Memory removed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="262" />
        <source>Forget everything</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="263" />
        <source>Erase everything Acervo remembers about you? This cannot be undone.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="190" />
        <source>Answers already come from your documents' passages: no model writes them now (see the status bar).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="201" />
        <source>Acervo · experiment (small model)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="206" />
        <location filename="../../desktop_app/gui/chat.py" line="235" />
        <source>Searching your documents…</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="237" />
        <source>Reading %n passage(s)…</source>
        <translation>
            <numerusform>Reading %n passage…</numerusform><numerusform>Reading %n passages…</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="239" />
        <source>Writing…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="305" />
        <source>The bundled model (SmolLM2, 135M parameters)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="308" />
        <source>%1 is too small to write answers that stick to your documents, so Acervo answers with the passages that match your question.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="310" />
        <source>No language model is installed, so Acervo answers with the passages that match your question.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="312" />
        <source>The chosen model is unavailable, so Acervo answers with the passages that match your question.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="313" />
        <source>Add a model (Settings → Models)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="315" />
        <source>Try the small model anyway (experiment)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="330" />
        <source>Experiment: written by a model too small to follow the answer prompt. It may invent, repeat or mistranslate — check every badge.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="331" />
        <source>The model started repeating itself; the answer was cut there.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>ConsentDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="90" />
        <source>Consent for sensitive data</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="94" />
        <source>Acervo stores facts in these categories only with your explicit consent (LGPD art. 11). Withdrawing consent erases what was stored.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="103" />
        <source>Recorded on %1</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="56" />
        <source>New chat</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="70" />
        <source>Untitled chat</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/conversations.py" line="73" />
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n message</numerusform><numerusform>%n messages</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="101" />
        <source>Open</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="102" />
        <source>Rename…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="103" />
        <source>Delete…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="107" />
        <source>Rename chat</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="107" />
        <source>Title:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="117" />
        <source>Delete chat</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="118" />
        <source>Delete this chat and its messages? Memories you saved from it stay until you delete them in the Memory panel.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="19" />
        <source>Acervo</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="21" />
        <source>Something went wrong inside Acervo ({name}). Your documents and memories are safe.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="25" />
        <source>Details were written to the log in {folder}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="28" />
        <source>Unexpected error</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>IngestProgress</name>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="75" />
        <source>Cancel</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="91" />
        <location filename="../../desktop_app/gui/ingest_progress.py" line="138" />
        <source>queued (folder)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="91" />
        <location filename="../../desktop_app/gui/ingest_progress.py" line="138" />
        <source>queued</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="95" />
        <source>Cancelling…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="99" />
        <location filename="../../desktop_app/gui/ingest_progress.py" line="146" />
        <source>Cancelled: </source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="100" />
        <source>Cancelled.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="106" />
        <source>reading…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="109" />
        <source>parsed %1 of %2 pages</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="112" />
        <source>embedding %1/%2</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="117" />
        <source>indexed · %n page(s)</source>
        <translation>
            <numerusform>indexed · %n page</numerusform><numerusform>indexed · %n pages</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="118" />
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform><numerusform>%n passages</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="121" />
        <source>skipped: unchanged</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="122" />
        <source>skipped: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="125" />
        <source>failed: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="128" />
        <source>removed (file no longer exists)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="133" />
        <source>Reindexing %1 of %2 documents…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="141" />
        <source>scanned</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="142" />
        <source>%1 indexed, %2 unchanged, %3 failed, %4 removed</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="193" />
        <source>Add files…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="194" />
        <source>Add folder…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="195" />
        <source>Filter by title or folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="196" />
        <source>Reindex</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="197" />
        <source>Your library is empty. Drop files or folders here, or start with the sample documents.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="198" />
        <source>Load samples</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Title</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Type</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Pages</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Chunks</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="201" />
        <source>Folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="201" />
        <source>Added</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="205" />
        <source>All types</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="213" />
        <source>Any time</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="213" />
        <source>Last 7 days</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="213" />
        <source>Last 30 days</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="214" />
        <source>Last year</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="239" />
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform><numerusform>%n passages</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="252" />
        <source>This library was indexed with another embedding model, so only keyword search works. Reindex to restore meaning-based search (the current index keeps working meanwhile).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="274" />
        <source>Remove documents</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="275" />
        <source>Remove these documents from the library? Their text and vectors are erased from the index; the files themselves stay on disk.</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="287" />
        <source>Removed %n document(s).</source>
        <translation>
            <numerusform>Removed %n document.</numerusform><numerusform>Removed %n documents.</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="305" />
        <source>Open original</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="306" />
        <source>Re-index</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="308" />
        <source>Remove from library…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="336" />
        <source>Adding documents…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="343" />
        <source>Reindexing…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="0" />
        <source>Also erase chat answers that quote them</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="0" />
        <source>Erased %n chat answer(s) that quoted them.</source>
        <translation>
            <numerusform>Erased %n chat answer that quoted them.</numerusform><numerusform>Erased %n chat answers that quoted them.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="0" />
        <source>%n chat answer(s) still quote them; delete those chats to erase the text.</source>
        <translation>
            <numerusform>%n chat answer still quotes them; delete that chat to erase the text.</numerusform><numerusform>%n chat answers still quote them; delete those chats to erase the text.</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="0" />
        <source>Another Acervo process is updating the library; waiting…</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="171" />
        <source>Acervo — your documents, offline</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="172" />
        <location filename="../../desktop_app/gui/main_window.py" line="188" />
        <source>Library</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="173" />
        <location filename="../../desktop_app/gui/main_window.py" line="189" />
        <source>Chats</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="174" />
        <source>Memory — what Acervo remembers</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="175" />
        <source>&amp;File</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="176" />
        <source>&amp;Chat</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="177" />
        <source>&amp;View</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="178" />
        <source>&amp;Tools</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="179" />
        <source>&amp;Help</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="180" />
        <source>Add files…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="181" />
        <source>Add folder…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="182" />
        <source>Quit</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="183" />
        <source>New chat</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="184" />
        <source>Ask a question</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="185" />
        <source>Stop answer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="186" />
        <source>Sources only (no model)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="187" />
        <source>Memory…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="190" />
        <source>Settings…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="191" />
        <source>Reindex library</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="192" />
        <location filename="../../desktop_app/gui/main_window.py" line="336" />
        <source>About Acervo</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="193" />
        <source>offline ✓</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="194" />
        <source>network: model server allowed ⚠</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="195" />
        <source>Nothing leaves this computer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="195" />
        <source>Questions and passages are sent to the Ollama server</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="219" />
        <location filename="../../desktop_app/gui/main_window.py" line="233" />
        <source>Model: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="220" />
        <source>none (sources only)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="223" />
        <source>search model</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="223" />
        <source>library</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="224" />
        <source>language model</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="224" />
        <source>memory</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="225" />
        <source>Loading %1…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="228" />
        <source>Model: none (sources only)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="230" />
        <source>Model: unavailable — sources-only answers</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="245" />
        <source>Models failed to load</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="257" />
        <source>Library empty</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="260" />
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n document</numerusform><numerusform>%n documents</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="261" />
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform><numerusform>%n passages</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="268" />
        <source>Add files</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="269" />
        <source>Documents (*.pdf *.docx *.md *.markdown *.txt *.html *.htm);;All files (*)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="274" />
        <source>Add folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="336" />
        <source>Acervo answers questions about your own documents with cited sources, entirely on this computer. Nothing is sent anywhere.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="265" />
        <source>This model is too small to follow the answer prompt; its answers are labelled as experiments. Settings → Models → Who writes answers.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="266" />
        <source>Experiment: %1 writes answers</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="268" />
        <source>Answers are written by the language model from the passages it finds, with citation badges.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="269" />
        <source>Written answers: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="271" />
        <source>The active model is too small to write reliable answers: Acervo shows the passages that answer your question, with badges. Add a model of 1B parameters or more (a GGUF file) for written answers.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="272" />
        <source>No language model is installed: Acervo shows the passages that answer your question, with badges. Add a GGUF model for written answers.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="275" />
        <source>You chose answers from your sources in Settings.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="276" />
        <source>Answers from your sources</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="263" />
        <source>add a model</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>MemoryCategories</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="27" />
        <source>identity</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="28" />
        <source>work</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="29" />
        <source>preference</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="30" />
        <source>contact</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="31" />
        <source>location</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="32" />
        <source>family</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="33" />
        <source>schedule</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="34" />
        <source>reference</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="35" />
        <source>other</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="36" />
        <source>health</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="37" />
        <source>disability</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="38" />
        <source>religion</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="39" />
        <source>ethnicity</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="40" />
        <source>sex life</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="41" />
        <source>political opinion</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="42" />
        <source>biometric data</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="43" />
        <source>financial account numbers</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="234" />
        <source>What Acervo remembers from what you told it. Double-click a text to correct it; click a source to see the message it came from.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="235" />
        <source>Search memories</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="236" />
        <source>Show older versions</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="237" />
        <source>Delete</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="238" />
        <source>Forget everything…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="239" />
        <source>Export JSON…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="240" />
        <source>Sensitive data consent…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="274" />
        <source>Delete memories</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_panel.py" line="275" />
        <source>Erase %n memory item(s) everywhere (including older versions and copies in answer traces)?</source>
        <translation>
            <numerusform>Erase %n memory item everywhere (including older versions and copies in answer traces)?</numerusform><numerusform>Erase %n memory items everywhere (including older versions and copies in answer traces)?</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="285" />
        <source>Forget everything</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="286" />
        <source>Erase everything Acervo remembers about you, with every copy? This cannot be undone.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="304" />
        <source>Erasure receipt: %1 memory item(s) erased; stores touched: %2; %3 bytes of content removed; %4.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="306" />
        <source>none</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="308" />
        <source>no file cleanup needed</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="315" />
        <source>Export memories</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="316" />
        <source>JSON files (*.json)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="321" />
        <source>Exported to %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="333" />
        <source>Withdraw consent</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="334" />
        <source>Withdrawing consent erases what is stored in: %1. Continue?</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>Text</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>Category</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>About</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>Source</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="95" />
        <source>Saved</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="95" />
        <source>Expires</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="95" />
        <source>Sensitive</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="117" />
        <source>You said on %1: “%2” (click to see the message)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="132" />
        <source>superseded</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="137" />
        <source>you</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="143" />
        <source>never</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="145" />
        <source>yes</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>ProvenanceDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="53" />
        <source>Where this memory came from</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="55" />
        <source>You said on %1:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="56" />
        <source>Older versions</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="57" />
        <source>Edits</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="58" />
        <source>(old text erased)</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="55" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="246" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="268" />
        <source>Settings</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="58" />
        <source>Models</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="59" />
        <source>Search</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="60" />
        <source>Memory</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="61" />
        <source>General</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="78" />
        <source>Local model (llama.cpp)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="79" />
        <source>Ollama server</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="80" />
        <source>No model: sources only</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="85" />
        <source>Add GGUF file…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="87" />
        <source>Use selected</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="89" />
        <source>Remove from list</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="106" />
        <source>Allow a server on another computer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="114" />
        <source>Answer with:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="115" />
        <source>Models:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="117" />
        <source>Context size (tokens):</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="118" />
        <source>Threads:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="119" />
        <source>Ollama URL:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="120" />
        <source>Ollama model:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="128" />
        <source>multilingual-e5-small (loading…)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="129" />
        <source>The embedding model is fixed; changing it requires a reindex.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="133" />
        <source>Rerank results with a cross-encoder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="136" />
        <source>Browse…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="142" />
        <source>Embedding model:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="143" />
        <source>Sources per answer (k):</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="145" />
        <source>Reranker folder:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="151" />
        <source>Remember facts I tell the assistant</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="153" />
        <source>Also notice facts I mention in passing (runs after each answer)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="157" />
        <source>keep until I delete</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="158" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="177" />
        <source> days</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="163" />
        <source>Forget memories after:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="171" />
        <source>Automatic (system)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="180" />
        <source>Language:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="181" />
        <source>Keep logs for:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="190" />
        <source>bundled</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="202" />
        <source>Add a GGUF model</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="203" />
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="213" />
        <source>Choose a chat template</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="214" />
        <source>Template:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="217" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="220" />
        <source>Model not added</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="225" />
        <source>Model added</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="255" />
        <source>Not air-gapped: your questions and passages from your documents will be sent to this server.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="257" />
        <source>This URL is on another computer. Tick “Allow a server on another computer” to use it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="260" />
        <source>Cross-encoder folder</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="91" />
        <source>Automatic: the model, when it is big enough</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="92" />
        <source>Always the model (a small one as an experiment)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="93" />
        <source>Never: answer with passages from my documents</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="96" />
        <source>Models under %1 parameters, like the bundled SmolLM2 (135M), cannot follow the answer prompt: Acervo then answers with the passages from your documents. Add a GGUF of 1B parameters or more (e.g. Qwen2.5-3B-Instruct, Q4_K_M) for written answers.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="130" />
        <source>Who writes answers:</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="221" />
        <source>writes answers</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="222" />
        <source>too small to write answers (%1): sources, or an experiment</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="249" />
        <source>It is big enough to write answers and is now the active model.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>SourcesViewer</name>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="152" />
        <source>Open original</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="153" />
        <source>Open the file in the system viewer</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="154" />
        <source>Click a citation badge to see the cited passage here.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="156" />
        <source>Sources</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="281" />
        <source>Page %1 · %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="283" />
        <source>original file not found; showing the indexed text</source>
        <translation type="unfinished" />
    </message>
</context>
</TS>