<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>BigJobs</name>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="25"/>
        <source>under a minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="27"/>
        <source>about a minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="30"/>
        <source>about %1 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="33"/>
        <source>about %1 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="35"/>
        <source>about %1 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="41"/>
        <source>at the rate measured on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="43"/>
        <source>a first guess: the rate is measured as documents are added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="45"/>
        <source>Reindexing re-embeds all %1 documents (%2 passages): %3 (%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="70"/>
        <source>It runs in the background with its progress in the Library panel; search keeps working meanwhile. You can cancel it: the current index stays as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="74"/>
        <source>Reindex the library?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="202"/>
        <source>Ask a question about your documents. Every answer cites its sources: click a numbered badge to open the page it came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="203"/>
        <source>Ask about your documents… (Enter to send, Shift+Enter for a new line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="204"/>
        <source>Sources only (no model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="251"/>
        <source>Answer with the best passages from your documents, without the language model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="206"/>
        <source>Ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="207"/>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="208"/>
        <location filename="../../desktop_app/gui/chat.py" line="610"/>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="258"/>
        <source>Answers quote your sources: no model writes them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="640"/>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="326"/>
        <source>Acervo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="260"/>
        <source>add a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="333"/>
        <source>Sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="333"/>
        <source>found by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="334"/>
        <source>p.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="335"/>
        <source>meaning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="335"/>
        <source>keywords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="330"/>
        <source>Searched for: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="332"/>
        <source>Scope: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="337"/>
        <source>Closest passages (%n)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="338"/>
        <source>Show all %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="402"/>
        <source>Used what you told me: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="413"/>
        <source>Memory saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="420"/>
        <source>Forgotten: %n memory item(s).</source>
        <translation>
            <numerusform>Forgotten: %n memory item.</numerusform>
            <numerusform>Forgotten: %n memory items.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="447"/>
        <source>Why not found?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="451"/>
        <source>Copy with citations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="452"/>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="488"/>
        <source>From your chat of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="490"/>
        <source>Open that chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="513"/>
        <source>no supporting evidence in your documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="514"/>
        <source>not found in your documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="515"/>
        <source>answered from sources only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="516"/>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="519"/>
        <source>model unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="520"/>
        <source>the model stopped with an error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="521"/>
        <source>memory unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="522"/>
        <source>reranker unavailable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="523"/>
        <source>no sentence matched the question&apos;s words; showing the top passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="524"/>
        <source>searched by keywords only in %1: it was indexed with another embedding model (reindex it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="525"/>
        <source>a library could not be searched: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="526"/>
        <source>not in your documents; from your chat of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="527"/>
        <source>not in your documents; from what you told me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="528"/>
        <source>the question asks for %1, and no passage found states one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="529"/>
        <source>the quotes are in another language than the question: found by meaning alone, check them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="534"/>
        <source>this computer&apos;s library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="564"/>
        <source>No answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="572"/>
        <source>The answer failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="610"/>
        <source>Since it was saved, this memory was changed in the Memory panel:

%1

Undo the save anyway? The changed memory is erased too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="612"/>
        <source>Kept: the memory as you changed it stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="624"/>
        <source>Nothing to undo: this memory was already removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="628"/>
        <source>Memory removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="632"/>
        <source>Forget everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="633"/>
        <source>Erase everything Acervo remembers about you? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="254"/>
        <source>Answers already come from your documents&apos; passages: no model writes them now (see the status bar).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="325"/>
        <source>Acervo · experiment (small model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="283"/>
        <location filename="../../desktop_app/gui/chat.py" line="364"/>
        <source>Searching your documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="367"/>
        <source>Reading %n passage(s)…</source>
        <translation>
            <numerusform>Reading %n passage…</numerusform>
            <numerusform>Reading %n passages…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="369"/>
        <source>Writing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="417"/>
        <source>Not saved: remembering facts about %1 needs your consent. You can give it in the Memory panel (Sensitive data consent…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="470"/>
        <source>The bundled model (SmolLM2, 135M parameters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="472"/>
        <source>%1 is too small to write answers that stick to your documents, so Acervo answers with the passages that match your question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="474"/>
        <source>No language model is installed, so Acervo answers with the passages that match your question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="476"/>
        <source>The chosen model is unavailable, so Acervo answers with the passages that match your question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="477"/>
        <source>Add a model (Settings → Models)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="479"/>
        <source>Try the small model anyway (experiment)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="517"/>
        <source>Experiment: written by a model too small to follow the answer prompt. It may invent, repeat or mistranslate — check every badge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="518"/>
        <source>The model started repeating itself; the answer was cut there.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConsentDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="95"/>
        <source>Consent for sensitive data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="99"/>
        <source>Acervo stores facts in these categories only with your explicit consent (LGPD art. 11). Withdrawing consent erases what was stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="108"/>
        <source>Recorded on %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="61"/>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="84"/>
        <source>Untitled chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/conversations.py" line="87"/>
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n message</numerusform>
            <numerusform>%n messages</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="140"/>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="141"/>
        <source>Rename…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="142"/>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="146"/>
        <source>Rename chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="146"/>
        <source>Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="156"/>
        <source>Delete chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="157"/>
        <source>Delete this chat and its messages? Memories you saved from it stay until you delete them in the Memory panel.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConversationsView</name>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="92"/>
        <source>Earlier conversations Acervo can recall when it answers (what you and the assistant said). Delete a conversation to erase it and its search entries for good; Settings can turn recall off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="93"/>
        <source>Search earlier conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="94"/>
        <location filename="../../desktop_app/gui/recall_view.py" line="193"/>
        <source>Delete conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="95"/>
        <location filename="../../desktop_app/gui/recall_view.py" line="175"/>
        <source>Delete message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="96"/>
        <source>Nothing to recall yet: earlier conversations appear here after you chat (or recall is switched off in Settings).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="110"/>
        <source>Untitled chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="111"/>
        <source>%1 — chat of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="116"/>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="116"/>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="176"/>
        <source>Erase this message from the chat and from what recall can use? The rest of the conversation stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="194"/>
        <source>Erase this conversation, its messages and everything recall indexed from it? Memories you saved from it stay until you delete them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="19"/>
        <source>Acervo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="21"/>
        <source>Something went wrong inside Acervo ({name}). Your documents and memories are safe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="25"/>
        <source>Details were written to the log in {folder}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="28"/>
        <source>Unexpected error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="63"/>
        <source>No application to open it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="64"/>
        <source>No application on this computer opens this kind of file. The file is here:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="66"/>
        <source>Copy path</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DocumentTableModel</name>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_model.py" line="49"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_model.py" line="50"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform>
            <numerusform>%n passages</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="51"/>
        <source>Added %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="102"/>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="102"/>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EraseDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="140"/>
        <source>Delete memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="142"/>
        <source>Erase %n memory item(s) everywhere? Older versions and the copies in Acervo&apos;s answers and their traces are erased too.</source>
        <translation>
            <numerusform>Erase %n memory item everywhere? Older versions and the copies in Acervo&apos;s answers and their traces are erased too.</numerusform>
            <numerusform>Erase %n memory items everywhere? Older versions and the copies in Acervo&apos;s answers and their traces are erased too.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="148"/>
        <source>Also delete the %n message(s) where I said it</source>
        <translation>
            <numerusform>Also delete the %n message where I said it</numerusform>
            <numerusform>Also delete the %n messages where I said it</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="152"/>
        <source>Your messages stay in the chat history otherwise, word for word.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="156"/>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Erasure</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="127"/>
        <source>[erased at your request]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="130"/>
        <source>[erased]</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="46"/>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="46"/>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="47"/>
        <source>References</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="47"/>
        <source>p.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="47"/>
        <source>pp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="48"/>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="48"/>
        <source>Team library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="49"/>
        <source>Searched for: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="50"/>
        <source>Closest passages (not an answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="50"/>
        <source>revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="51"/>
        <source>Exported from Acervo on %1. The quotes are the documents&apos; own words.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="52"/>
        <source>(no answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/export_actions.py" line="77"/>
        <source>Copied with %n reference(s).</source>
        <translation>
            <numerusform>Copied with %n reference.</numerusform>
            <numerusform>Copied with %n references.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="99"/>
        <source>Export with citations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="110"/>
        <source>Exported to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="31"/>
        <source>1. Add your documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="32"/>
        <source>Drop files or folders anywhere on the window, or use Add files… (Ctrl+O). PDFs, Word, Markdown, text, web pages and scanned images are read on this computer; the Library lists them with their progress.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="33"/>
        <source>2. Ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="34"/>
        <source>Type a question in the box under the chat and press Enter. Acervo searches your documents and answers with the passages that answer it, or with a text written by a language model if you added one (Settings → Models).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="35"/>
        <source>3. Check the badges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="36"/>
        <source>Every claim carries a numbered badge. Click it: the source opens at the page, with the quoted words highlighted. When nothing in your documents answers, Acervo says so, shows the closest passages, and “Why not found?” explains it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="37"/>
        <source>4. See the search itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="38"/>
        <source>The Search tab beside the chat lists the passages as the answers rank them: what found each one (keywords, meaning), its rank and score, and your words it contains. Filters and the libraries searched are shown too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="39"/>
        <source>5. Take answers with you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="40"/>
        <source>Under each answer, “Copy with citations” and “Export…” (Markdown, Word, PDF) keep the quotes exactly, with numbered references: document, page or article, the quoted words and the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="41"/>
        <source>6. Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="42"/>
        <source>Say “Remember that …” and Acervo keeps it; the chip under the chat undoes it. View → Memory… lists everything remembered, where it came from, and lets you edit, delete or export it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="43"/>
        <source>7. Privacy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="44"/>
        <source>Everything stays on this computer: the documents, the index, the models and your chats. “offline ✓” in the status bar says nothing leaves it; it names any server you allowed yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="48"/>
        <source>How Acervo works</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IngestProgress</name>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="99"/>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="130"/>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="221"/>
        <source>queued (folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="132"/>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="222"/>
        <source>queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="136"/>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="236"/>
        <source>Cancelled: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="141"/>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="148"/>
        <source>Stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="164"/>
        <source>reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="168"/>
        <source>parsed %1 of %2 pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="174"/>
        <source>embedding %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="181"/>
        <source>indexed · %n page(s)</source>
        <translation>
            <numerusform>indexed · %n page</numerusform>
            <numerusform>indexed · %n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="182"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform>
            <numerusform>%n passages</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="186"/>
        <source>skipped: unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="188"/>
        <source>skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="192"/>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="196"/>
        <source>removed (file no longer exists)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="209"/>
        <source>Switching to the new index…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="213"/>
        <source>Reindexed %n document(s); search uses the new index.</source>
        <translation>
            <numerusform>Reindexed %n document; search uses the new index.</numerusform>
            <numerusform>Reindexed %n documents; search uses the new index.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="216"/>
        <source>Reindexing %1 of %2 documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="223"/>
        <source>scanned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="229"/>
        <source>cancelled; nothing from this file was indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="233"/>
        <source>%1 indexed, %2 unchanged, %3 failed, %4 removed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibrariesTab</name>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="179"/>
        <source>Search this computer&apos;s library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="184"/>
        <source>Add team library…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="186"/>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="188"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="190"/>
        <source>A team library lives on your team&apos;s PostgreSQL server: a question searches every library ticked here, and each source says which library it came from. Passwords are kept in the system keyring (or a private file), never in the settings file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="213"/>
        <source>read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="213"/>
        <source>read-write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="214"/>
        <source>searched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="214"/>
        <source>not searched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="216"/>
        <source>network allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="217"/>
        <source>network NOT allowed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibraryExtras</name>
    <message>
        <location filename="../../desktop_app/gui/library_extras.py" line="43"/>
        <source>Library status…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibraryKeeper</name>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="76"/>
        <source>%n file(s) to read again: Tools ▸ Library status</source>
        <translation>
            <numerusform>%n file to read again: Tools ▸ Library status</numerusform>
            <numerusform>%n files to read again: Tools ▸ Library status</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="148"/>
        <source>%n added</source>
        <translation>
            <numerusform>%n added</numerusform>
            <numerusform>%n added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="149"/>
        <source>%n changed</source>
        <translation>
            <numerusform>%n changed</numerusform>
            <numerusform>%n changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="150"/>
        <source>%n removed</source>
        <translation>
            <numerusform>%n removed</numerusform>
            <numerusform>%n removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="151"/>
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_watch.py" line="155"/>
        <source>Watched folders: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="273"/>
        <source>Add files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="274"/>
        <source>Add folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="275"/>
        <source>Filter by title or folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="276"/>
        <source>Reindex</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="277"/>
        <source>Your library is empty. Drop files or folders here, or start with the sample documents.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="278"/>
        <source>Load samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="285"/>
        <source>All types</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="293"/>
        <source>Any time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="293"/>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="293"/>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="294"/>
        <source>Last year</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="365"/>
        <source>This library was indexed with another embedding model, so only keyword search works. Reindex to restore meaning-based search (the current index keeps working meanwhile).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="387"/>
        <source>Remove documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="388"/>
        <source>Remove these documents from the library? Their text and vectors are erased from the index; the files themselves stay on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="402"/>
        <source>Removed %n document(s).</source>
        <translation>
            <numerusform>Removed %n document.</numerusform>
            <numerusform>Removed %n documents.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="425"/>
        <source>Another Acervo process is updating the memory; waiting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="447"/>
        <source>Open original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="448"/>
        <source>Re-index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="450"/>
        <source>Remove from library…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="481"/>
        <source>Adding documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="496"/>
        <source>Reindexing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="529"/>
        <source>an unexpected error (details in the log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="389"/>
        <source>Also erase chat answers that quote them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="244"/>
        <location filename="../../desktop_app/gui/library.py" line="271"/>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="244"/>
        <location filename="../../desktop_app/gui/library.py" line="272"/>
        <source>Team: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="261"/>
        <location filename="../../desktop_app/gui/library.py" line="462"/>
        <source>This team library is read-only in your settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="280"/>
        <source>How Acervo works</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="404"/>
        <source>Erased %n chat answer(s) that quoted them.</source>
        <translation>
            <numerusform>Erased %n chat answer that quoted them.</numerusform>
            <numerusform>Erased %n chat answers that quoted them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="407"/>
        <source>%n chat answer(s) still quote them; delete those chats to erase the text.</source>
        <translation>
            <numerusform>%n chat answer still quotes them; delete that chat to erase the text.</numerusform>
            <numerusform>%n chat answers still quote them; delete those chats to erase the text.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="423"/>
        <source>Another Acervo process is updating the library; waiting…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibraryStatusDialog</name>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="60"/>
        <source>Library status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="61"/>
        <source>Only failed and skipped files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="62"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="62"/>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="62"/>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="63"/>
        <source>Retry failed files</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="64"/>
        <source>Read again (%n file(s))</source>
        <translation>
            <numerusform>Read again (%n file)</numerusform>
            <numerusform>Read again (%n files)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="66"/>
        <source>These files were read by an older version of Acervo; this one reads headings, lists and sections better. Passages that did not change keep their vectors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="71"/>
        <source>indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="71"/>
        <source>unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="72"/>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="72"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="73"/>
        <source>skipped by a limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="77"/>
        <source>%n indexed</source>
        <translation>
            <numerusform>%n indexed</numerusform>
            <numerusform>%n indexed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="78"/>
        <source>%n unchanged</source>
        <translation>
            <numerusform>%n unchanged</numerusform>
            <numerusform>%n unchanged</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="79"/>
        <source>%n waiting</source>
        <translation>
            <numerusform>%n waiting</numerusform>
            <numerusform>%n waiting</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="80"/>
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="81"/>
        <source>%n skipped by a limit</source>
        <translation>
            <numerusform>%n skipped by a limit</numerusform>
            <numerusform>%n skipped by a limit</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="112"/>
        <source>No files yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="302"/>
        <location filename="../../desktop_app/gui/main_window.py" line="322"/>
        <source>Library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="303"/>
        <location filename="../../desktop_app/gui/main_window.py" line="323"/>
        <source>Chats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="304"/>
        <location filename="../../desktop_app/gui/main_window.py" line="329"/>
        <source>Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="305"/>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="306"/>
        <source>Memory — what Acervo remembers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="307"/>
        <source>Memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="308"/>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="309"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="310"/>
        <source>&amp;Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="311"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="312"/>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="313"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="314"/>
        <source>Add files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="315"/>
        <source>Add folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="316"/>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="317"/>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="318"/>
        <source>Ask a question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="319"/>
        <source>Stop answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="320"/>
        <source>Sources only (no model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="321"/>
        <source>Memory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="324"/>
        <source>Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="325"/>
        <source>Reindex library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="326"/>
        <location filename="../../desktop_app/gui/main_window.py" line="743"/>
        <source>About Acervo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="327"/>
        <source>How Acervo works</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="328"/>
        <source>Search the documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="330"/>
        <source>Export chat with citations…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="331"/>
        <source>Copy chat with citations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="332"/>
        <source>Adding %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="512"/>
        <source>offline ✓</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="513"/>
        <source>Nothing leaves this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="439"/>
        <location filename="../../desktop_app/gui/main_window.py" line="449"/>
        <source>Model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="440"/>
        <source>none (sources only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="461"/>
        <source>search model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="461"/>
        <source>library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="462"/>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="463"/>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="444"/>
        <source>Model: none (sources only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="446"/>
        <source>Model: unavailable — sources-only answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="501"/>
        <source>Models failed to load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="517"/>
        <source>team server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="518"/>
        <source>model server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="520"/>
        <source>network: %1 only ⚠</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="521"/>
        <source>Questions and passages go to these servers; nothing else leaves this computer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="531"/>
        <source>Library empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="535"/>
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n document</numerusform>
            <numerusform>%n documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="536"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform>
            <numerusform>%n passages</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="542"/>
        <source>Add files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="543"/>
        <source>Documents and scans (*.pdf *.docx *.md *.markdown *.txt *.html *.htm *.png *.jpg *.jpeg *.tif *.tiff);;Scanned images (*.png *.jpg *.jpeg *.tif *.tiff);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="551"/>
        <source>Add folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="622"/>
        <source>Ask a question first: there is no chat to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="743"/>
        <source>Acervo answers questions about your own documents with cited sources, entirely on this computer. Nothing is sent anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="477"/>
        <source>This model is too small to follow the answer prompt; its answers are labelled as experiments. Settings → Models → Who writes answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="478"/>
        <source>Experiment: %1 writes answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="480"/>
        <source>Answers are written by the language model from the passages it finds, with citation badges.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="481"/>
        <source>Written answers: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="483"/>
        <source>The active model is too small to write reliable answers: Acervo shows the passages that answer your question, with badges. Add a model of 1B parameters or more (a GGUF file) for written answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="484"/>
        <source>No language model is installed: Acervo shows the passages that answer your question, with badges. Add a GGUF model for written answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="487"/>
        <source>You chose answers from your sources in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="488"/>
        <source>Answers from your sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="474"/>
        <source>add a model</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryCategories</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="31"/>
        <source>identity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="32"/>
        <source>work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="33"/>
        <source>preference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="34"/>
        <source>contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="35"/>
        <source>location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="36"/>
        <source>family</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="37"/>
        <source>schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="38"/>
        <source>reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="39"/>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="40"/>
        <source>health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="41"/>
        <source>disability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="42"/>
        <source>religion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="43"/>
        <source>ethnicity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="44"/>
        <source>sex life</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="45"/>
        <source>political opinion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="46"/>
        <source>biometric data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="47"/>
        <source>financial account numbers</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="270"/>
        <source>What Acervo remembers from what you told it. Double-click a text to correct it; click a source to see the message it came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="271"/>
        <source>Search memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="272"/>
        <source>Show older versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="273"/>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="274"/>
        <source>Forget everything…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="275"/>
        <source>Export JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="276"/>
        <source>Sensitive data consent…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="277"/>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="336"/>
        <source>Forget everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="337"/>
        <source>Erase everything Acervo remembers about you, with every copy? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="377"/>
        <source>Export memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="378"/>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="383"/>
        <source>Exported to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="395"/>
        <source>Withdraw consent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="396"/>
        <source>Withdrawing consent erases what is stored in: %1. Continue?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="102"/>
        <source>Saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="102"/>
        <source>Expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="102"/>
        <source>Sensitive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="124"/>
        <source>You said on %1: “%2” (click to see the message)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="141"/>
        <source>before the edit of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="143"/>
        <source>superseded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="148"/>
        <source>you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="154"/>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="156"/>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Places</name>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="13"/>
        <source>slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="13"/>
        <source>slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="14"/>
        <source>sheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="14"/>
        <source>sheets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="15"/>
        <source>message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="15"/>
        <source>messages</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProvenanceDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="57"/>
        <source>Where this memory came from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="59"/>
        <source>You said on %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="60"/>
        <source>Older versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="61"/>
        <source>Edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="62"/>
        <source>(old text erased)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReceiptText</name>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="179"/>
        <source>%n memory item(s) (with older versions)</source>
        <translation>
            <numerusform>%n memory item (with older versions)</numerusform>
            <numerusform>%n memory items (with older versions)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="182"/>
        <source>%n message(s) of yours</source>
        <translation>
            <numerusform>%n message of yours</numerusform>
            <numerusform>%n messages of yours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="184"/>
        <source>%n chat message(s)</source>
        <translation>
            <numerusform>%n chat message</numerusform>
            <numerusform>%n chat messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="186"/>
        <source>%n copy(ies) in answers and their traces</source>
        <translation>
            <numerusform>%n copy in answers and their traces</numerusform>
            <numerusform>%n copies in answers and their traces</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="188"/>
        <source>%n exchange(s) from the conversation-recall index (text, vectors and keyword entries)</source>
        <translation>
            <numerusform>%n exchange from the conversation-recall index (text, vectors and keyword entries)</numerusform>
            <numerusform>%n exchanges from the conversation-recall index (text, vectors and keyword entries)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="189"/>
        <source>Erased for good: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="191"/>
        <source>The files on disk were rewritten, so nothing can be recovered from them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="195"/>
        <source>Stores touched:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="200"/>
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="201"/>
        <source>%1 bytes of content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="205"/>
        <source>file %1 → %2 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="210"/>
        <source>Physical cleanup:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="211"/>
        <source>none needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="214"/>
        <source>Memory ids:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="217"/>
        <source>Recall exchanges:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScopeChip</name>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="58"/>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="59"/>
        <source>Ask the whole library again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="64"/>
        <source>Asking: the whole library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="66"/>
        <source>collection “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/scope_chip.py" line="69"/>
        <source>%n selected document(s)</source>
        <translation>
            <numerusform>%n selected document</numerusform>
            <numerusform>%n selected documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/scope_chip.py" line="70"/>
        <source>Asking: %1 (%n document(s))</source>
        <translation>
            <numerusform>Asking: %1 (%n document)</numerusform>
            <numerusform>Asking: %1 (%n documents)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="77"/>
        <source>The whole library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="83"/>
        <source>Collections</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/scope_chip.py" line="91"/>
        <source>The %n document(s) selected in the library</source>
        <translation>
            <numerusform>The document selected in the library</numerusform>
            <numerusform>The %n documents selected in the library</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="97"/>
        <source>Search your documents (the passages answers would use)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="98"/>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="99"/>
        <source>All types</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="102"/>
        <source>Any time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="102"/>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="102"/>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="103"/>
        <source>Last year</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="108"/>
        <source>The passages are listed as the answers rank them: what found each one (keywords, meaning), its rank and score, and the words of your query it contains.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="123"/>
        <source>Libraries your answers search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="130"/>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="130"/>
        <source>Team: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="152"/>
        <source>Searching your documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="186"/>
        <source>No passage matches this search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/search_view.py" line="194"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform>
            <numerusform>%n passages</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="197"/>
        <source>via %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="250"/>
        <source>found by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="198"/>
        <source>searched: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/search_view.py" line="203"/>
        <source>%n document(s) left out by the filters</source>
        <translation>
            <numerusform>%n document left out by the filters</numerusform>
            <numerusform>%n documents left out by the filters</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="205"/>
        <source>%1: could not count what the filters leave out</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/search_view.py" line="208"/>
        <source>%1 is not searched (%n document(s))</source>
        <translation>
            <numerusform>%1 is not searched (%n document)</numerusform>
            <numerusform>%1 is not searched (%n documents)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="212"/>
        <source>%1 is not searched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="219"/>
        <source>keywords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="219"/>
        <source>meaning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="222"/>
        <source>Why “%1” was not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="226"/>
        <source>Words of your question that occur nowhere in your library: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="228"/>
        <source>Your question asks for %1, and none of the closest passages states one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="232"/>
        <source>No document was left out: every library your answers search was searched, without filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="233"/>
        <source>The closest passages did not answer the question well enough to quote them. Judge them yourself:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="240"/>
        <source>p. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="247"/>
        <source>keywords #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="249"/>
        <source>meaning #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="251"/>
        <source>score %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="253"/>
        <source>words: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="255"/>
        <source>none of your words (found by meaning)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="275"/>
        <source>revoked</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="58"/>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="334"/>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="357"/>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="61"/>
        <source>Models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="62"/>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="64"/>
        <source>Libraries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="65"/>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="66"/>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="83"/>
        <source>Local model (llama.cpp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="84"/>
        <source>Ollama server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="85"/>
        <source>No model: sources only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="100"/>
        <source>Add GGUF file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="102"/>
        <source>Use selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="104"/>
        <source>Remove from list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="121"/>
        <source>Allow a server on another computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="130"/>
        <source>Answer with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="133"/>
        <source>Models:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="135"/>
        <source>Context size (tokens):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="136"/>
        <source>Threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="137"/>
        <source>Ollama URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="138"/>
        <source>Ollama model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="161"/>
        <source>multilingual-e5-small (loading…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="162"/>
        <source>The embedding model is fixed; changing it requires a reindex.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="166"/>
        <source>Rerank results with a cross-encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="168"/>
        <source>Read scanned pages and images with OCR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="171"/>
        <source>Pages without a text layer are read from their image, on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="176"/>
        <source>OCR takes seconds per page; scanned pages beyond this are listed, not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="180"/>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="186"/>
        <source>Embedding model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="187"/>
        <source>Sources per answer (k):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="189"/>
        <source>Reranker folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="191"/>
        <source>OCR pages per document:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="197"/>
        <source>Remember facts I tell the assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="199"/>
        <source>Also notice facts I mention in passing (runs after each answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="201"/>
        <source>Use earlier conversations in answers (turning this off erases their search index)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="205"/>
        <source>keep until I delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="206"/>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="226"/>
        <source> days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="212"/>
        <source>Forget memories after:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="220"/>
        <source>Automatic (system)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="229"/>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="229"/>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="230"/>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="234"/>
        <source>Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="235"/>
        <source>Appearance:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="236"/>
        <source>Keep logs for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="245"/>
        <source>bundled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="261"/>
        <source>%1 parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="264"/>
        <source>context %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="265"/>
        <source>chat template: yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="266"/>
        <source>chat template: none (choose one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="276"/>
        <source>Add a GGUF model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="277"/>
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="286"/>
        <source>Choose a chat template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="287"/>
        <source>Template:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="291"/>
        <source>Model not added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="299"/>
        <source>Model added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="307"/>
        <source>Using the “%1” template instead of the one inside the GGUF.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="309"/>
        <source>You chose “%1”; if answers look garbled or never stop, the template is probably wrong for this model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="312"/>
        <source>The gemma template has no system role: Acervo puts the instructions at the start of the first user message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="343"/>
        <source>Not air-gapped: your questions and passages from your documents will be sent to this server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="345"/>
        <source>This URL is on another computer. Tick “Allow a server on another computer” to use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="348"/>
        <source>Cross-encoder folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="91"/>
        <source>Automatic: the model, when it is big enough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="92"/>
        <source>Always the model (a small one as an experiment)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="93"/>
        <source>Never: answer with passages from my documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="96"/>
        <source>Models under %1 parameters, like the bundled SmolLM2 (135M), cannot follow the answer prompt: Acervo then answers with the passages from your documents. Add a GGUF of 1B parameters or more (e.g. Qwen2.5-3B-Instruct, Q4_K_M) for written answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="131"/>
        <source>Who writes answers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="271"/>
        <source>writes answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="272"/>
        <source>too small to write answers (%1): sources, or an experiment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="296"/>
        <source>It is big enough to write answers and is now the active model.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SourcesViewer</name>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="281"/>
        <source>Open original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="282"/>
        <source>Open the file in the system viewer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="283"/>
        <source>Close the source (back to the library)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="284"/>
        <source>Click a citation badge to see the cited passage here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="285"/>
        <source>Zoom out (Ctrl+−, Ctrl+wheel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="286"/>
        <source>Zoom in (Ctrl++, Ctrl+wheel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="287"/>
        <source>Fit width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="288"/>
        <source>Fit the page to the width (Ctrl+0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="289"/>
        <source>Cited page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="291"/>
        <source>Sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="523"/>
        <source>Page %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="527"/>
        <source>Team library “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="529"/>
        <source>the file is not on this computer; showing the text stored in the team library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="531"/>
        <source>original file not found; showing the indexed text</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TeamLibraryDialog</name>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="57"/>
        <location filename="../../desktop_app/gui/library_settings.py" line="164"/>
        <source>Team library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="68"/>
        <source>unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="70"/>
        <source>the one you may write to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="71"/>
        <source>Read-only: never add or remove documents there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="73"/>
        <source>Search it with every question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="80"/>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="87"/>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="88"/>
        <source>Server URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="89"/>
        <source>Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="90"/>
        <source>Add documents to collection:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="112"/>
        <source>Allow the connection to %1 (Acervo is offline otherwise)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="117"/>
        <source>Not air-gapped for this server: your questions and the passages found go to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="119"/>
        <source>This server is on another computer. Tick the box to allow it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Values</name>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="13"/>
        <source>an amount of money</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="14"/>
        <source>a percentage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="15"/>
        <source>a time of day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="16"/>
        <source>a speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="17"/>
        <source>an age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="18"/>
        <source>a duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="19"/>
        <source>a date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="20"/>
        <source>a date or a start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="21"/>
        <source>a number of things</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="22"/>
        <source>a penalty&apos;s term or amount</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="23"/>
        <source>a prison term</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="24"/>
        <source>a length or a weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="25"/>
        <source>a mark or score</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
