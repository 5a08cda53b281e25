<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="pt_BR">
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="119" />
        <source>Ask a question about your documents. Every answer cites its sources: click a numbered badge to open the page it came from.</source>
        <translation>Faça uma pergunta sobre seus documentos. Toda resposta cita suas fontes: clique em um selo numerado para abrir a página de onde veio.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="120" />
        <source>Ask about your documents… (Enter to send, Shift+Enter for a new line)</source>
        <translation>Pergunte sobre seus documentos… (Enter envia, Shift+Enter quebra a linha)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="121" />
        <source>Sources only (no model)</source>
        <translation>Só fontes (sem modelo)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="122" />
        <source>Answer with the best passages from your documents, without the language model</source>
        <translation>Responder com os melhores trechos dos seus documentos, sem o modelo de linguagem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="123" />
        <source>Ask</source>
        <translation>Perguntar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="124" />
        <source>Stop</source>
        <translation>Parar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="125" />
        <source>Undo</source>
        <translation>Desfazer</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="146" />
        <location filename="../../desktop_app/gui/chat.py" line="279" />
        <source>You</source>
        <translation>Você</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="147" />
        <location filename="../../desktop_app/gui/chat.py" line="281" />
        <source>Acervo</source>
        <translation>Acervo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="174" />
        <location filename="../../desktop_app/gui/chat.py" line="284" />
        <source>Sources</source>
        <translation>Fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="174" />
        <location filename="../../desktop_app/gui/chat.py" line="284" />
        <source>found by</source>
        <translation>encontrado por</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="175" />
        <location filename="../../desktop_app/gui/chat.py" line="285" />
        <source>p.</source>
        <translation>p.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="176" />
        <location filename="../../desktop_app/gui/chat.py" line="286" />
        <source>meaning</source>
        <translation>significado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="176" />
        <location filename="../../desktop_app/gui/chat.py" line="286" />
        <source>keywords</source>
        <translation>palavras-chave</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="178" />
        <source>Used what you told me: %1</source>
        <translation>Usei o que você me contou: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="185" />
        <source>Memory saved: %1</source>
        <translation>Memória salva: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="191" />
        <source>Not saved: needs your consent for “%1”. You can allow it in the Memory panel.</source>
        <translation>Não salvo: precisa do seu consentimento para “%1”. Você pode permitir no painel Memória.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="193" />
        <source>Forgotten: %n memory item(s).</source>
        <translation>
            <numerusform>Esquecida: %n memória.</numerusform><numerusform>Esquecidas: %n memórias.</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="211" />
        <source>no supporting evidence in your documents</source>
        <translation>sem evidência nos seus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="212" />
        <source>not found in your documents</source>
        <translation>não encontrado nos seus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="213" />
        <source>answered from sources only</source>
        <translation>respondido só com as fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="214" />
        <source>stopped</source>
        <translation>interrompido</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="219" />
        <source>model unavailable: </source>
        <translation>modelo indisponível: </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="220" />
        <source>memory unavailable: </source>
        <translation>memória indisponível: </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="221" />
        <source>reranker unavailable: </source>
        <translation>reordenador indisponível: </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="234" />
        <source>Stopped.</source>
        <translation>Interrompido.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="234" />
        <source>No answer.</source>
        <translation>Sem resposta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="239" />
        <source>The answer failed.</source>
        <translation>A resposta falhou.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="257" />
        <source>Memory removed.</source>
        <translation>Memória removida.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="262" />
        <source>Forget everything</source>
        <translation>Esquecer tudo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="263" />
        <source>Erase everything Acervo remembers about you? This cannot be undone.</source>
        <translation>Apagar tudo o que o Acervo lembra sobre você? Isso não pode ser desfeito.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="190" />
        <source>Answers already come from your documents' passages: no model writes them now (see the status bar).</source>
        <translation>As respostas já vêm dos trechos dos seus documentos: nenhum modelo as redige agora (veja a barra de status).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="201" />
        <source>Acervo · experiment (small model)</source>
        <translation>Acervo · experimento (modelo pequeno)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="206" />
        <location filename="../../desktop_app/gui/chat.py" line="235" />
        <source>Searching your documents…</source>
        <translation>Buscando nos seus documentos…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="237" />
        <source>Reading %n passage(s)…</source>
        <translation>
            <numerusform>Lendo %n trecho…</numerusform><numerusform>Lendo %n trechos…</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="239" />
        <source>Writing…</source>
        <translation>Escrevendo…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="305" />
        <source>The bundled model (SmolLM2, 135M parameters)</source>
        <translation>O modelo incluído (SmolLM2, 135M parâmetros)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="308" />
        <source>%1 is too small to write answers that stick to your documents, so Acervo answers with the passages that match your question.</source>
        <translation>%1 é pequeno demais para redigir respostas fiéis aos seus documentos; por isso o Acervo responde com os trechos que correspondem à sua pergunta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="310" />
        <source>No language model is installed, so Acervo answers with the passages that match your question.</source>
        <translation>Nenhum modelo de linguagem está instalado; por isso o Acervo responde com os trechos que correspondem à sua pergunta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="312" />
        <source>The chosen model is unavailable, so Acervo answers with the passages that match your question.</source>
        <translation>O modelo escolhido não está disponível; por isso o Acervo responde com os trechos que correspondem à sua pergunta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="313" />
        <source>Add a model (Settings → Models)</source>
        <translation>Adicionar um modelo (Configurações → Modelos)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="315" />
        <source>Try the small model anyway (experiment)</source>
        <translation>Testar o modelo pequeno mesmo assim (experimento)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="330" />
        <source>Experiment: written by a model too small to follow the answer prompt. It may invent, repeat or mistranslate — check every badge.</source>
        <translation>Experimento: escrito por um modelo pequeno demais para seguir as instruções de resposta. Ele pode inventar, repetir ou traduzir mal — confira cada selo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="331" />
        <source>The model started repeating itself; the answer was cut there.</source>
        <translation>O modelo começou a se repetir; a resposta foi cortada ali.</translation>
    </message>
</context>
<context>
    <name>ConsentDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="90" />
        <source>Consent for sensitive data</source>
        <translation>Consentimento para dados sensíveis</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="94" />
        <source>Acervo stores facts in these categories only with your explicit consent (LGPD art. 11). Withdrawing consent erases what was stored.</source>
        <translation>O Acervo só guarda fatos destas categorias com o seu consentimento explícito (LGPD art. 11). Retirar o consentimento apaga o que foi guardado.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="103" />
        <source>Recorded on %1</source>
        <translation>Registrado em %1</translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="56" />
        <source>New chat</source>
        <translation>Nova conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="70" />
        <source>Untitled chat</source>
        <translation>Conversa sem título</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/conversations.py" line="73" />
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n mensagem</numerusform><numerusform>%n mensagens</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="101" />
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="102" />
        <source>Rename…</source>
        <translation>Renomear…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="103" />
        <source>Delete…</source>
        <translation>Excluir…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="107" />
        <source>Rename chat</source>
        <translation>Renomear conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="107" />
        <source>Title:</source>
        <translation>Título:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="117" />
        <source>Delete chat</source>
        <translation>Excluir conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="118" />
        <source>Delete this chat and its messages? Memories you saved from it stay until you delete them in the Memory panel.</source>
        <translation>Excluir esta conversa e suas mensagens? As memórias salvas a partir dela ficam até você excluí-las no painel Memória.</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="19" />
        <source>Acervo</source>
        <translation>Acervo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="21" />
        <source>Something went wrong inside Acervo ({name}). Your documents and memories are safe.</source>
        <translation>Algo deu errado dentro do Acervo ({name}). Seus documentos e memórias estão seguros.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="25" />
        <source>Details were written to the log in {folder}.</source>
        <translation>Os detalhes foram gravados no log em {folder}.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="28" />
        <source>Unexpected error</source>
        <translation>Erro inesperado</translation>
    </message>
</context>
<context>
    <name>IngestProgress</name>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="75" />
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="91" />
        <location filename="../../desktop_app/gui/ingest_progress.py" line="138" />
        <source>queued (folder)</source>
        <translation>na fila (pasta)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="91" />
        <location filename="../../desktop_app/gui/ingest_progress.py" line="138" />
        <source>queued</source>
        <translation>na fila</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="95" />
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="99" />
        <location filename="../../desktop_app/gui/ingest_progress.py" line="146" />
        <source>Cancelled: </source>
        <translation>Cancelado: </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="100" />
        <source>Cancelled.</source>
        <translation>Cancelado.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="106" />
        <source>reading…</source>
        <translation>lendo…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="109" />
        <source>parsed %1 of %2 pages</source>
        <translation>%1 de %2 páginas lidas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="112" />
        <source>embedding %1/%2</source>
        <translation>gerando embeddings %1/%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="117" />
        <source>indexed · %n page(s)</source>
        <translation>
            <numerusform>indexado · %n página</numerusform><numerusform>indexado · %n páginas</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="118" />
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform><numerusform>%n trechos</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="121" />
        <source>skipped: unchanged</source>
        <translation>ignorado: sem mudanças</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="122" />
        <source>skipped: %1</source>
        <translation>ignorado: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="125" />
        <source>failed: %1</source>
        <translation>falhou: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="128" />
        <source>removed (file no longer exists)</source>
        <translation>removido (o arquivo não existe mais)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="133" />
        <source>Reindexing %1 of %2 documents…</source>
        <translation>Reindexando %1 de %2 documentos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="141" />
        <source>scanned</source>
        <translation>varrida</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="142" />
        <source>%1 indexed, %2 unchanged, %3 failed, %4 removed</source>
        <translation>%1 indexados, %2 sem mudanças, %3 com falha, %4 removidos</translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="193" />
        <source>Add files…</source>
        <translation>Adicionar arquivos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="194" />
        <source>Add folder…</source>
        <translation>Adicionar pasta…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="195" />
        <source>Filter by title or folder</source>
        <translation>Filtrar por título ou pasta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="196" />
        <source>Reindex</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="197" />
        <source>Your library is empty. Drop files or folders here, or start with the sample documents.</source>
        <translation>Sua biblioteca está vazia. Arraste arquivos ou pastas para cá, ou comece com os documentos de exemplo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="198" />
        <source>Load samples</source>
        <translation>Carregar exemplos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="200" />
        <source>Chunks</source>
        <translation>Trechos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="201" />
        <source>Folder</source>
        <translation>Pasta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="201" />
        <source>Added</source>
        <translation>Adicionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="205" />
        <source>All types</source>
        <translation>Todos os tipos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="213" />
        <source>Any time</source>
        <translation>Qualquer data</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="213" />
        <source>Last 7 days</source>
        <translation>Últimos 7 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="213" />
        <source>Last 30 days</source>
        <translation>Últimos 30 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="214" />
        <source>Last year</source>
        <translation>Último ano</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="239" />
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform><numerusform>%n trechos</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="252" />
        <source>This library was indexed with another embedding model, so only keyword search works. Reindex to restore meaning-based search (the current index keeps working meanwhile).</source>
        <translation>Esta biblioteca foi indexada com outro modelo de embeddings, então só a busca por palavras funciona. Reindexe para recuperar a busca por significado (o índice atual continua funcionando enquanto isso).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="274" />
        <source>Remove documents</source>
        <translation>Remover documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="275" />
        <source>Remove these documents from the library? Their text and vectors are erased from the index; the files themselves stay on disk.</source>
        <translation>Remover estes documentos da biblioteca? O texto e os vetores são apagados do índice; os arquivos continuam no disco.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="287" />
        <source>Removed %n document(s).</source>
        <translation>
            <numerusform>%n documento removido.</numerusform><numerusform>%n documentos removidos.</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="305" />
        <source>Open original</source>
        <translation>Abrir original</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="306" />
        <source>Re-index</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="308" />
        <source>Remove from library…</source>
        <translation>Remover da biblioteca…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="336" />
        <source>Adding documents…</source>
        <translation>Adicionando documentos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="343" />
        <source>Reindexing…</source>
        <translation>Reindexando…</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Este computador</translation>
    </message>
    <message>
        <source>Team: %1</source>
        <translation>Equipe: %1</translation>
    </message>
    <message>
        <source>This team library is read-only in your settings.</source>
        <translation>Esta biblioteca da equipe está como somente leitura nas suas configurações.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="171" />
        <source>Acervo — your documents, offline</source>
        <translation>Acervo — seus documentos, offline</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="172" />
        <location filename="../../desktop_app/gui/main_window.py" line="188" />
        <source>Library</source>
        <translation>Biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="173" />
        <location filename="../../desktop_app/gui/main_window.py" line="189" />
        <source>Chats</source>
        <translation>Conversas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="174" />
        <source>Memory — what Acervo remembers</source>
        <translation>Memória — o que o Acervo lembra</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="175" />
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="176" />
        <source>&amp;Chat</source>
        <translation>&amp;Conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="177" />
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="178" />
        <source>&amp;Tools</source>
        <translation>&amp;Ferramentas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="179" />
        <source>&amp;Help</source>
        <translation>A&amp;juda</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="180" />
        <source>Add files…</source>
        <translation>Adicionar arquivos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="181" />
        <source>Add folder…</source>
        <translation>Adicionar pasta…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="182" />
        <source>Quit</source>
        <translation>Sair</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="183" />
        <source>New chat</source>
        <translation>Nova conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="184" />
        <source>Ask a question</source>
        <translation>Fazer uma pergunta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="185" />
        <source>Stop answer</source>
        <translation>Parar resposta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="186" />
        <source>Sources only (no model)</source>
        <translation>Só fontes (sem modelo)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="187" />
        <source>Memory…</source>
        <translation>Memória…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="190" />
        <source>Settings…</source>
        <translation>Configurações…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="191" />
        <source>Reindex library</source>
        <translation>Reindexar biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="192" />
        <location filename="../../desktop_app/gui/main_window.py" line="336" />
        <source>About Acervo</source>
        <translation>Sobre o Acervo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="193" />
        <source>offline ✓</source>
        <translation>offline ✓</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="194" />
        <source>network: model server allowed ⚠</source>
        <translation>rede: servidor de modelo permitido ⚠</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="195" />
        <source>Nothing leaves this computer</source>
        <translation>Nada sai deste computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="195" />
        <source>Questions and passages are sent to the Ollama server</source>
        <translation>Perguntas e trechos são enviados ao servidor Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="219" />
        <location filename="../../desktop_app/gui/main_window.py" line="233" />
        <source>Model: %1</source>
        <translation>Modelo: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="220" />
        <source>none (sources only)</source>
        <translation>nenhum (só fontes)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="223" />
        <source>search model</source>
        <translation>modelo de busca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="223" />
        <source>library</source>
        <translation>biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="224" />
        <source>language model</source>
        <translation>modelo de linguagem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="224" />
        <source>memory</source>
        <translation>memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="225" />
        <source>Loading %1…</source>
        <translation>Carregando %1…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="228" />
        <source>Model: none (sources only)</source>
        <translation>Modelo: nenhum (só fontes)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="230" />
        <source>Model: unavailable — sources-only answers</source>
        <translation>Modelo: indisponível — respostas só com fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="245" />
        <source>Models failed to load</source>
        <translation>Falha ao carregar os modelos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="257" />
        <source>Library empty</source>
        <translation>Biblioteca vazia</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="260" />
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n documento</numerusform><numerusform>%n documentos</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="261" />
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform><numerusform>%n trechos</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="268" />
        <source>Add files</source>
        <translation>Adicionar arquivos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="269" />
        <source>Documents (*.pdf *.docx *.md *.markdown *.txt *.html *.htm);;All files (*)</source>
        <translation>Documentos (*.pdf *.docx *.md *.markdown *.txt *.html *.htm);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="274" />
        <source>Add folder</source>
        <translation>Adicionar pasta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="336" />
        <source>Acervo answers questions about your own documents with cited sources, entirely on this computer. Nothing is sent anywhere.</source>
        <translation>O Acervo responde perguntas sobre os seus próprios documentos, com fontes citadas, inteiramente neste computador. Nada é enviado para lugar nenhum.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="265" />
        <source>This model is too small to follow the answer prompt; its answers are labelled as experiments. Settings → Models → Who writes answers.</source>
        <translation>Este modelo é pequeno demais para seguir as instruções de resposta; as respostas dele são marcadas como experimento. Configurações → Modelos → Quem redige as respostas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="266" />
        <source>Experiment: %1 writes answers</source>
        <translation>Experimento: %1 redige as respostas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="268" />
        <source>Answers are written by the language model from the passages it finds, with citation badges.</source>
        <translation>As respostas são redigidas pelo modelo de linguagem a partir dos trechos encontrados, com selos de citação.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="269" />
        <source>Written answers: %1</source>
        <translation>Respostas redigidas: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="271" />
        <source>The active model is too small to write reliable answers: Acervo shows the passages that answer your question, with badges. Add a model of 1B parameters or more (a GGUF file) for written answers.</source>
        <translation>O modelo ativo é pequeno demais para redigir respostas confiáveis: o Acervo mostra os trechos que respondem à sua pergunta, com selos. Adicione um modelo de 1B parâmetros ou mais (um arquivo GGUF) para ter respostas redigidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="272" />
        <source>No language model is installed: Acervo shows the passages that answer your question, with badges. Add a GGUF model for written answers.</source>
        <translation>Nenhum modelo de linguagem está instalado: o Acervo mostra os trechos que respondem à sua pergunta, com selos. Adicione um modelo GGUF para ter respostas redigidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="275" />
        <source>You chose answers from your sources in Settings.</source>
        <translation>Você escolheu respostas a partir das suas fontes nas Configurações.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="276" />
        <source>Answers from your sources</source>
        <translation>Respostas das suas fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="263" />
        <source>add a model</source>
        <translation>adicionar um modelo</translation>
    </message>
    <message>
        <source>team server %1</source>
        <translation>servidor da equipe %1</translation>
    </message>
    <message>
        <source>model server %1</source>
        <translation>servidor de modelo %1</translation>
    </message>
    <message>
        <source>network: %1 only ⚠</source>
        <translation>rede: só %1 ⚠</translation>
    </message>
    <message>
        <source>Questions and passages go to these servers; nothing else leaves this computer:</source>
        <translation>Perguntas e trechos vão para estes servidores; nada mais sai deste computador:</translation>
    </message>
</context>
<context>
    <name>MemoryCategories</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="27" />
        <source>identity</source>
        <translation>identidade</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="28" />
        <source>work</source>
        <translation>trabalho</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="29" />
        <source>preference</source>
        <translation>preferência</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="30" />
        <source>contact</source>
        <translation>contato</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="31" />
        <source>location</source>
        <translation>localização</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="32" />
        <source>family</source>
        <translation>família</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="33" />
        <source>schedule</source>
        <translation>agenda</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="34" />
        <source>reference</source>
        <translation>referência</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="35" />
        <source>other</source>
        <translation>outro</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="36" />
        <source>health</source>
        <translation>saúde</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="37" />
        <source>disability</source>
        <translation>deficiência</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="38" />
        <source>religion</source>
        <translation>religião</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="39" />
        <source>ethnicity</source>
        <translation>origem racial ou étnica</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="40" />
        <source>sex life</source>
        <translation>vida sexual</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="41" />
        <source>political opinion</source>
        <translation>opinião política</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="42" />
        <source>biometric data</source>
        <translation>dados biométricos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="43" />
        <source>financial account numbers</source>
        <translation>números de contas financeiras</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="234" />
        <source>What Acervo remembers from what you told it. Double-click a text to correct it; click a source to see the message it came from.</source>
        <translation>O que o Acervo lembra do que você contou. Clique duas vezes em um texto para corrigi-lo; clique em uma origem para ver a mensagem de onde veio.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="235" />
        <source>Search memories</source>
        <translation>Buscar memórias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="236" />
        <source>Show older versions</source>
        <translation>Mostrar versões antigas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="237" />
        <source>Delete</source>
        <translation>Excluir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="238" />
        <source>Forget everything…</source>
        <translation>Esquecer tudo…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="239" />
        <source>Export JSON…</source>
        <translation>Exportar JSON…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="240" />
        <source>Sensitive data consent…</source>
        <translation>Consentimento para dados sensíveis…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="274" />
        <source>Delete memories</source>
        <translation>Excluir memórias</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_panel.py" line="275" />
        <source>Erase %n memory item(s) everywhere (including older versions and copies in answer traces)?</source>
        <translation>
            <numerusform>Apagar %n memória em todos os lugares (inclusive versões antigas e cópias em registros de respostas)?</numerusform><numerusform>Apagar %n memórias em todos os lugares (inclusive versões antigas e cópias em registros de respostas)?</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="285" />
        <source>Forget everything</source>
        <translation>Esquecer tudo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="286" />
        <source>Erase everything Acervo remembers about you, with every copy? This cannot be undone.</source>
        <translation>Apagar tudo o que o Acervo lembra sobre você, com todas as cópias? Isso não pode ser desfeito.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="304" />
        <source>Erasure receipt: %1 memory item(s) erased; stores touched: %2; %3 bytes of content removed; %4.</source>
        <translation>Comprovante de eliminação: %1 memória(s) apagada(s); armazenamentos afetados: %2; %3 bytes de conteúdo removidos; %4.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="306" />
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="308" />
        <source>no file cleanup needed</source>
        <translation>nenhuma limpeza de arquivo necessária</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="315" />
        <source>Export memories</source>
        <translation>Exportar memórias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="316" />
        <source>JSON files (*.json)</source>
        <translation>Arquivos JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="321" />
        <source>Exported to %1</source>
        <translation>Exportado para %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="333" />
        <source>Withdraw consent</source>
        <translation>Retirar consentimento</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="334" />
        <source>Withdrawing consent erases what is stored in: %1. Continue?</source>
        <translation>Retirar o consentimento apaga o que está guardado em: %1. Continuar?</translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>Text</source>
        <translation>Texto</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>Category</source>
        <translation>Categoria</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>About</source>
        <translation>Sobre</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="94" />
        <source>Source</source>
        <translation>Origem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="95" />
        <source>Saved</source>
        <translation>Salva em</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="95" />
        <source>Expires</source>
        <translation>Expira em</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="95" />
        <source>Sensitive</source>
        <translation>Sensível</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="117" />
        <source>You said on %1: “%2” (click to see the message)</source>
        <translation>Você disse em %1: “%2” (clique para ver a mensagem)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="132" />
        <source>superseded</source>
        <translation>substituída</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="137" />
        <source>you</source>
        <translation>você</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="143" />
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="145" />
        <source>yes</source>
        <translation>sim</translation>
    </message>
</context>
<context>
    <name>ProvenanceDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="53" />
        <source>Where this memory came from</source>
        <translation>De onde veio esta memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="55" />
        <source>You said on %1:</source>
        <translation>Você disse em %1:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="56" />
        <source>Older versions</source>
        <translation>Versões antigas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="57" />
        <source>Edits</source>
        <translation>Edições</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="58" />
        <source>(old text erased)</source>
        <translation>(texto antigo apagado)</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="55" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="246" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="268" />
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="58" />
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="59" />
        <source>Search</source>
        <translation>Busca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="60" />
        <source>Memory</source>
        <translation>Memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="61" />
        <source>General</source>
        <translation>Geral</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="78" />
        <source>Local model (llama.cpp)</source>
        <translation>Modelo local (llama.cpp)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="79" />
        <source>Ollama server</source>
        <translation>Servidor Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="80" />
        <source>No model: sources only</source>
        <translation>Sem modelo: só fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="85" />
        <source>Add GGUF file…</source>
        <translation>Adicionar arquivo GGUF…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="87" />
        <source>Use selected</source>
        <translation>Usar o selecionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="89" />
        <source>Remove from list</source>
        <translation>Remover da lista</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="106" />
        <source>Allow a server on another computer</source>
        <translation>Permitir um servidor em outro computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="114" />
        <source>Answer with:</source>
        <translation>Responder com:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="115" />
        <source>Models:</source>
        <translation>Modelos:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="117" />
        <source>Context size (tokens):</source>
        <translation>Tamanho do contexto (tokens):</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="118" />
        <source>Threads:</source>
        <translation>Threads:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="119" />
        <source>Ollama URL:</source>
        <translation>URL do Ollama:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="120" />
        <source>Ollama model:</source>
        <translation>Modelo do Ollama:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="128" />
        <source>multilingual-e5-small (loading…)</source>
        <translation>multilingual-e5-small (carregando…)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="129" />
        <source>The embedding model is fixed; changing it requires a reindex.</source>
        <translation>O modelo de embeddings é fixo; trocá-lo exige reindexar.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="133" />
        <source>Rerank results with a cross-encoder</source>
        <translation>Reordenar resultados com um cross-encoder</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="136" />
        <source>Browse…</source>
        <translation>Procurar…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="142" />
        <source>Embedding model:</source>
        <translation>Modelo de embeddings:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="143" />
        <source>Sources per answer (k):</source>
        <translation>Fontes por resposta (k):</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="145" />
        <source>Reranker folder:</source>
        <translation>Pasta do reordenador:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="151" />
        <source>Remember facts I tell the assistant</source>
        <translation>Lembrar fatos que eu contar ao assistente</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="153" />
        <source>Also notice facts I mention in passing (runs after each answer)</source>
        <translation>Também notar fatos que eu mencionar de passagem (roda depois de cada resposta)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="157" />
        <source>keep until I delete</source>
        <translation>guardar até eu excluir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="158" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="177" />
        <source> days</source>
        <translation> dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="163" />
        <source>Forget memories after:</source>
        <translation>Esquecer memórias após:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="171" />
        <source>Automatic (system)</source>
        <translation>Automático (sistema)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="180" />
        <source>Language:</source>
        <translation>Idioma:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="181" />
        <source>Keep logs for:</source>
        <translation>Manter logs por:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="190" />
        <source>bundled</source>
        <translation>incluído</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="202" />
        <source>Add a GGUF model</source>
        <translation>Adicionar um modelo GGUF</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="203" />
        <source>GGUF models (*.gguf)</source>
        <translation>Modelos GGUF (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="213" />
        <source>Choose a chat template</source>
        <translation>Escolha um modelo de chat</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="214" />
        <source>Template:</source>
        <translation>Modelo de chat:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="217" />
        <location filename="../../desktop_app/gui/settings_dialog.py" line="220" />
        <source>Model not added</source>
        <translation>Modelo não adicionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="225" />
        <source>Model added</source>
        <translation>Modelo adicionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="255" />
        <source>Not air-gapped: your questions and passages from your documents will be sent to this server.</source>
        <translation>Não isolado: suas perguntas e trechos dos seus documentos serão enviados a este servidor.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="257" />
        <source>This URL is on another computer. Tick “Allow a server on another computer” to use it.</source>
        <translation>Esta URL está em outro computador. Marque “Permitir um servidor em outro computador” para usá-la.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="260" />
        <source>Cross-encoder folder</source>
        <translation>Pasta do cross-encoder</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="91" />
        <source>Automatic: the model, when it is big enough</source>
        <translation>Automático: o modelo, quando for grande o bastante</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="92" />
        <source>Always the model (a small one as an experiment)</source>
        <translation>Sempre o modelo (um pequeno, como experimento)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="93" />
        <source>Never: answer with passages from my documents</source>
        <translation>Nunca: responder com trechos dos meus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="96" />
        <source>Models under %1 parameters, like the bundled SmolLM2 (135M), cannot follow the answer prompt: Acervo then answers with the passages from your documents. Add a GGUF of 1B parameters or more (e.g. Qwen2.5-3B-Instruct, Q4_K_M) for written answers.</source>
        <translation>Modelos com menos de %1 parâmetros, como o SmolLM2 incluído (135M), não conseguem seguir as instruções de resposta: o Acervo então responde com os trechos dos seus documentos. Adicione um GGUF de 1B parâmetros ou mais (p. ex. Qwen2.5-3B-Instruct, Q4_K_M) para ter respostas redigidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="130" />
        <source>Who writes answers:</source>
        <translation>Quem redige as respostas:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="221" />
        <source>writes answers</source>
        <translation>redige respostas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="222" />
        <source>too small to write answers (%1): sources, or an experiment</source>
        <translation>pequeno demais para redigir respostas (%1): fontes, ou experimento</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="249" />
        <source>It is big enough to write answers and is now the active model.</source>
        <translation>Ele é grande o bastante para redigir respostas e agora é o modelo ativo.</translation>
    </message>
    <message>
        <source>Libraries</source>
        <translation>Bibliotecas</translation>
    </message>
</context>
<context>
    <name>SourcesViewer</name>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="152" />
        <source>Open original</source>
        <translation>Abrir original</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="153" />
        <source>Open the file in the system viewer</source>
        <translation>Abrir o arquivo no visualizador do sistema</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="154" />
        <source>Click a citation badge to see the cited passage here.</source>
        <translation>Clique em um selo de citação para ver o trecho citado aqui.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="156" />
        <source>Sources</source>
        <translation>Fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="281" />
        <source>Page %1 · %2</source>
        <translation>Página %1 · %2</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="283" />
        <source>original file not found; showing the indexed text</source>
        <translation>arquivo original não encontrado; mostrando o texto indexado</translation>
    </message>
    <message>
        <source>Team library “%1”</source>
        <translation>Biblioteca da equipe “%1”</translation>
    </message>
    <message>
        <source>the file is not on this computer; showing the text stored in the team library</source>
        <translation>o arquivo não está neste computador; mostrando o texto guardado na biblioteca da equipe</translation>
    </message>
</context>
<context>
    <name>LibrariesTab</name>
    <message>
        <source>Search this computer's library</source>
        <translation>Pesquisar a biblioteca deste computador</translation>
    </message>
    <message>
        <source>Add team library…</source>
        <translation>Adicionar biblioteca da equipe…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Editar…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <source>A team library lives on your team's PostgreSQL server: a question searches every library ticked here, and each source says which library it came from. Passwords are kept in the system keyring (or a private file), never in the settings file.</source>
        <translation>Uma biblioteca da equipe fica no servidor PostgreSQL da sua equipe: cada pergunta pesquisa todas as bibliotecas marcadas aqui, e cada fonte diz de qual biblioteca veio. As senhas ficam no chaveiro do sistema (ou num arquivo privado), nunca no arquivo de configurações.</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>somente leitura</translation>
    </message>
    <message>
        <source>read-write</source>
        <translation>leitura e escrita</translation>
    </message>
    <message>
        <source>searched</source>
        <translation>pesquisada</translation>
    </message>
    <message>
        <source>not searched</source>
        <translation>não pesquisada</translation>
    </message>
    <message>
        <source>network allowed</source>
        <translation>rede permitida</translation>
    </message>
    <message>
        <source>network NOT allowed</source>
        <translation>rede NÃO permitida</translation>
    </message>
</context>
<context>
    <name>TeamLibraryDialog</name>
    <message>
        <source>Team library</source>
        <translation>Biblioteca da equipe</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>sem alteração</translation>
    </message>
    <message>
        <source>the one you may write to</source>
        <translation>aquela em que você pode gravar</translation>
    </message>
    <message>
        <source>Read-only: never add or remove documents there</source>
        <translation>Somente leitura: nunca adicionar nem remover documentos ali</translation>
    </message>
    <message>
        <source>Search it with every question</source>
        <translation>Pesquisá-la em toda pergunta</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Testar conexão</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Nome:</translation>
    </message>
    <message>
        <source>Server URL:</source>
        <translation>URL do servidor:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Senha:</translation>
    </message>
    <message>
        <source>Add documents to collection:</source>
        <translation>Adicionar documentos à coleção:</translation>
    </message>
    <message>
        <source>Allow the connection to %1 (Acervo is offline otherwise)</source>
        <translation>Permitir a conexão com %1 (do contrário o Acervo fica offline)</translation>
    </message>
    <message>
        <source>Not air-gapped for this server: your questions and the passages found go to it.</source>
        <translation>Sem isolamento para este servidor: suas perguntas e os trechos encontrados vão para ele.</translation>
    </message>
    <message>
        <source>This server is on another computer. Tick the box to allow it.</source>
        <translation>Este servidor está em outro computador. Marque a caixa para permiti-lo.</translation>
    </message>
</context>
</TS>