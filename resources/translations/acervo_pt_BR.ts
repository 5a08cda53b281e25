<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR">
<context>
    <name>BigJobs</name>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="25"/>
        <source>under a minute</source>
        <translation>menos de um minuto</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="27"/>
        <source>about a minute</source>
        <translation>cerca de um minuto</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="30"/>
        <source>about %1 minutes</source>
        <translation>cerca de %1 minutos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="33"/>
        <source>about %1 hours</source>
        <translation>cerca de %1 horas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="35"/>
        <source>about %1 days</source>
        <translation>cerca de %1 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="41"/>
        <source>at the rate measured on this computer</source>
        <translation>no ritmo medido neste computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="43"/>
        <source>a first guess: the rate is measured as documents are added</source>
        <translation>uma primeira estimativa: o ritmo é medido à medida que documentos são adicionados</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="45"/>
        <source>Reindexing re-embeds all %1 documents (%2 passages): %3 (%4).</source>
        <translation>Reindexar recalcula os vetores de todos os %1 documentos (%2 trechos): %3 (%4).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="70"/>
        <source>It runs in the background with its progress in the Library panel; search keeps working meanwhile. You can cancel it: the current index stays as it is.</source>
        <translation>Roda em segundo plano, com o progresso no painel Biblioteca; a busca continua funcionando enquanto isso. Você pode cancelar: o índice atual fica como está.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/big_jobs.py" line="74"/>
        <source>Reindex the library?</source>
        <translation>Reindexar a biblioteca?</translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="202"/>
        <source>Ask a question about your documents. Every answer cites its sources: click a numbered badge to open the page it came from.</source>
        <translation>Faça uma pergunta sobre seus documentos. Toda resposta cita suas fontes: clique em um selo numerado para abrir a página de onde veio.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="203"/>
        <source>Ask about your documents… (Enter to send, Shift+Enter for a new line)</source>
        <translation>Pergunte sobre seus documentos… (Enter envia, Shift+Enter quebra a linha)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="204"/>
        <source>Sources only (no model)</source>
        <translation>Só fontes (sem modelo)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="251"/>
        <source>Answer with the best passages from your documents, without the language model</source>
        <translation>Responder com os melhores trechos dos seus documentos, sem o modelo de linguagem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="206"/>
        <source>Ask</source>
        <translation>Perguntar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="207"/>
        <source>Stop</source>
        <translation>Parar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="208"/>
        <location filename="../../desktop_app/gui/chat.py" line="610"/>
        <source>Undo</source>
        <translation>Desfazer</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="258"/>
        <source>Answers quote your sources: no model writes them</source>
        <translation>As respostas citam suas fontes: nenhum modelo as escreve</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="640"/>
        <source>You</source>
        <translation>Você</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="326"/>
        <source>Acervo</source>
        <translation>Acervo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="260"/>
        <source>add a model</source>
        <translation>adicionar um modelo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="332"/>
        <source>Scope: %1</source>
        <translation>Escopo: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="333"/>
        <source>Sources</source>
        <translation>Fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="333"/>
        <source>found by</source>
        <translation>encontrado por</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="334"/>
        <source>p.</source>
        <translation>p.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="335"/>
        <source>meaning</source>
        <translation>significado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="335"/>
        <source>keywords</source>
        <translation>palavras-chave</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="338"/>
        <source>Show all %1</source>
        <translation>Mostrar todos os %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="402"/>
        <source>Used what you told me: %1</source>
        <translation>Usei o que você me contou: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="413"/>
        <source>Memory saved: %1</source>
        <translation>Memória salva: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="420"/>
        <source>Forgotten: %n memory item(s).</source>
        <translation>
            <numerusform>Esquecida: %n memória.</numerusform>
            <numerusform>Esquecidas: %n memórias.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="447"/>
        <source>Why not found?</source>
        <translation>Por que não encontrei?</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="451"/>
        <source>Copy with citations</source>
        <translation>Copiar com citações</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="452"/>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="488"/>
        <source>From your chat of %1</source>
        <translation>Da sua conversa de %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="490"/>
        <source>Open that chat</source>
        <translation>Abrir essa conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="513"/>
        <source>no supporting evidence in your documents</source>
        <translation>sem evidência nos seus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="514"/>
        <source>not found in your documents</source>
        <translation>não encontrado nos seus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="515"/>
        <source>answered from sources only</source>
        <translation>respondido só com as fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="519"/>
        <source>model unavailable: %1</source>
        <translation>modelo indisponível: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="520"/>
        <source>the model stopped with an error: %1</source>
        <translation>o modelo parou com um erro: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="521"/>
        <source>memory unavailable: %1</source>
        <translation>memória indisponível: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="522"/>
        <source>reranker unavailable: %1</source>
        <translation>reordenador indisponível: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="523"/>
        <source>no sentence matched the question&apos;s words; showing the top passages</source>
        <translation>nenhuma frase tem as palavras da pergunta; estes são os trechos mais próximos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="330"/>
        <source>Searched for: %1</source>
        <translation>Pesquisado: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="337"/>
        <source>Closest passages (%n)</source>
        <translation>
            <numerusform>Trecho mais próximo (%n)</numerusform>
            <numerusform>Trechos mais próximos (%n)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="516"/>
        <source>stopped</source>
        <translation>interrompido</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="524"/>
        <source>searched by keywords only in %1: it was indexed with another embedding model (reindex it)</source>
        <translation>busca só por palavras-chave: %1 foi indexada com outro modelo de embeddings (reindexe)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="525"/>
        <source>a library could not be searched: %1</source>
        <translation>uma biblioteca não pôde ser consultada: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="526"/>
        <source>not in your documents; from your chat of %1</source>
        <translation>não está nos seus documentos; da sua conversa de %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="527"/>
        <source>not in your documents; from what you told me</source>
        <translation>não está nos seus documentos; do que você me contou</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="528"/>
        <source>the question asks for %1, and no passage found states one</source>
        <translation>a pergunta pede %1, que nenhum trecho encontrado informa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="529"/>
        <source>the quotes are in another language than the question: found by meaning alone, check them</source>
        <translation>as citações estão em outro idioma que a pergunta: encontradas só pelo sentido, confira-as</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="534"/>
        <source>this computer&apos;s library</source>
        <translation>a biblioteca deste computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="564"/>
        <source>No answer.</source>
        <translation>Sem resposta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="572"/>
        <source>The answer failed.</source>
        <translation>A resposta falhou.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="610"/>
        <source>Since it was saved, this memory was changed in the Memory panel:

%1

Undo the save anyway? The changed memory is erased too.</source>
        <translation>Depois de salva, esta memória foi alterada no painel Memória:

%1

Desfazer o salvamento mesmo assim? A memória alterada também será apagada.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="612"/>
        <source>Kept: the memory as you changed it stays.</source>
        <translation>Mantida: a memória fica como você a alterou.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="624"/>
        <source>Nothing to undo: this memory was already removed.</source>
        <translation>Nada a desfazer: esta memória já foi removida.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="628"/>
        <source>Memory removed.</source>
        <translation>Memória removida.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="632"/>
        <source>Forget everything</source>
        <translation>Esquecer tudo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="633"/>
        <source>Erase everything Acervo remembers about you? This cannot be undone.</source>
        <translation>Apagar tudo o que o Acervo lembra sobre você? Isso não pode ser desfeito.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="254"/>
        <source>Answers already come from your documents&apos; passages: no model writes them now (see the status bar).</source>
        <translation>As respostas já vêm dos trechos dos seus documentos: nenhum modelo as redige agora (veja a barra de status).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="325"/>
        <source>Acervo · experiment (small model)</source>
        <translation>Acervo · experimento (modelo pequeno)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="283"/>
        <location filename="../../desktop_app/gui/chat.py" line="364"/>
        <source>Searching your documents…</source>
        <translation>Buscando nos seus documentos…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/chat.py" line="367"/>
        <source>Reading %n passage(s)…</source>
        <translation>
            <numerusform>Lendo %n trecho…</numerusform>
            <numerusform>Lendo %n trechos…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="369"/>
        <source>Writing…</source>
        <translation>Escrevendo…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="417"/>
        <source>Not saved: remembering facts about %1 needs your consent. You can give it in the Memory panel (Sensitive data consent…).</source>
        <translation>Não salvo: lembrar fatos sobre %1 precisa do seu consentimento. Você pode dá-lo no painel Memória (Consentimento para dados sensíveis…).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="470"/>
        <source>The bundled model (SmolLM2, 135M parameters)</source>
        <translation>O modelo incluído (SmolLM2, 135M parâmetros)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="472"/>
        <source>%1 is too small to write answers that stick to your documents, so Acervo answers with the passages that match your question.</source>
        <translation>%1 é pequeno demais para redigir respostas fiéis aos seus documentos; por isso o Acervo responde com os trechos que correspondem à sua pergunta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="474"/>
        <source>No language model is installed, so Acervo answers with the passages that match your question.</source>
        <translation>Nenhum modelo de linguagem está instalado; por isso o Acervo responde com os trechos que correspondem à sua pergunta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="476"/>
        <source>The chosen model is unavailable, so Acervo answers with the passages that match your question.</source>
        <translation>O modelo escolhido não está disponível; por isso o Acervo responde com os trechos que correspondem à sua pergunta.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="477"/>
        <source>Add a model (Settings → Models)</source>
        <translation>Adicionar um modelo (Configurações → Modelos)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="479"/>
        <source>Try the small model anyway (experiment)</source>
        <translation>Testar o modelo pequeno mesmo assim (experimento)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="517"/>
        <source>Experiment: written by a model too small to follow the answer prompt. It may invent, repeat or mistranslate — check every badge.</source>
        <translation>Experimento: escrito por um modelo pequeno demais para seguir as instruções de resposta. Ele pode inventar, repetir ou traduzir mal — confira cada selo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/chat.py" line="518"/>
        <source>The model started repeating itself; the answer was cut there.</source>
        <translation>O modelo começou a se repetir; a resposta foi cortada ali.</translation>
    </message>
</context>
<context>
    <name>ConsentDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="95"/>
        <source>Consent for sensitive data</source>
        <translation>Consentimento para dados sensíveis</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="99"/>
        <source>Acervo stores facts in these categories only with your explicit consent (LGPD art. 11). Withdrawing consent erases what was stored.</source>
        <translation>O Acervo só guarda fatos destas categorias com o seu consentimento explícito (LGPD art. 11). Retirar o consentimento apaga o que foi guardado.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="108"/>
        <source>Recorded on %1</source>
        <translation>Registrado em %1</translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="61"/>
        <source>New chat</source>
        <translation>Nova conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="84"/>
        <source>Untitled chat</source>
        <translation>Conversa sem título</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/conversations.py" line="87"/>
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n mensagem</numerusform>
            <numerusform>%n mensagens</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="140"/>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="141"/>
        <source>Rename…</source>
        <translation>Renomear…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="142"/>
        <source>Delete…</source>
        <translation>Excluir…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="146"/>
        <source>Rename chat</source>
        <translation>Renomear conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="146"/>
        <source>Title:</source>
        <translation>Título:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="156"/>
        <source>Delete chat</source>
        <translation>Excluir conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/conversations.py" line="157"/>
        <source>Delete this chat and its messages? Memories you saved from it stay until you delete them in the Memory panel.</source>
        <translation>Excluir esta conversa e suas mensagens? As memórias salvas a partir dela ficam até você excluí-las no painel Memória.</translation>
    </message>
</context>
<context>
    <name>ConversationsView</name>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="92"/>
        <source>Earlier conversations Acervo can recall when it answers (what you and the assistant said). Delete a conversation to erase it and its search entries for good; Settings can turn recall off.</source>
        <translation>Conversas anteriores que o Acervo pode lembrar ao responder (o que você e o assistente disseram). Exclua uma conversa para apagá-la de vez, com suas entradas de busca; nas Configurações você pode desligar essa lembrança.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="93"/>
        <source>Search earlier conversations</source>
        <translation>Buscar nas conversas anteriores</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="94"/>
        <location filename="../../desktop_app/gui/recall_view.py" line="193"/>
        <source>Delete conversation</source>
        <translation>Excluir conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="95"/>
        <location filename="../../desktop_app/gui/recall_view.py" line="175"/>
        <source>Delete message</source>
        <translation>Excluir mensagem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="96"/>
        <source>Nothing to recall yet: earlier conversations appear here after you chat (or recall is switched off in Settings).</source>
        <translation>Nada para lembrar ainda: as conversas anteriores aparecem aqui depois que você conversa (ou a lembrança está desligada nas Configurações).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="110"/>
        <source>Untitled chat</source>
        <translation>Conversa sem título</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="111"/>
        <source>%1 — chat of %2</source>
        <translation>%1 — conversa de %2</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="116"/>
        <source>You</source>
        <translation>Você</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="116"/>
        <source>Assistant</source>
        <translation>Assistente</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="176"/>
        <source>Erase this message from the chat and from what recall can use? The rest of the conversation stays.</source>
        <translation>Apagar esta mensagem da conversa e do que a lembrança pode usar? O resto da conversa fica.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/recall_view.py" line="194"/>
        <source>Erase this conversation, its messages and everything recall indexed from it? Memories you saved from it stay until you delete them.</source>
        <translation>Apagar esta conversa, suas mensagens e tudo o que a lembrança indexou dela? As memórias salvas a partir dela ficam até você excluí-las.</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="19"/>
        <source>Acervo</source>
        <translation>Acervo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="21"/>
        <source>Something went wrong inside Acervo ({name}). Your documents and memories are safe.</source>
        <translation>Algo deu errado dentro do Acervo ({name}). Seus documentos e memórias estão seguros.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="25"/>
        <source>Details were written to the log in {folder}.</source>
        <translation>Os detalhes foram gravados no log em {folder}.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="28"/>
        <source>Unexpected error</source>
        <translation>Erro inesperado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="63"/>
        <source>No application to open it</source>
        <translation>Nenhum aplicativo para abrir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="64"/>
        <source>No application on this computer opens this kind of file. The file is here:</source>
        <translation>Nenhum aplicativo deste computador abre este tipo de arquivo. O arquivo está aqui:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/dialogs.py" line="66"/>
        <source>Copy path</source>
        <translation>Copiar caminho</translation>
    </message>
</context>
<context>
    <name>DocumentTableModel</name>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_model.py" line="49"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n página</numerusform>
            <numerusform>%n páginas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_model.py" line="50"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform>
            <numerusform>%n trechos</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="51"/>
        <source>Added %1</source>
        <translation>Adicionado em %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="101"/>
        <source>Passages</source>
        <translation>Trechos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="102"/>
        <source>Folder</source>
        <translation>Pasta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_model.py" line="102"/>
        <source>Added</source>
        <translation>Adicionado</translation>
    </message>
</context>
<context>
    <name>EraseDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="140"/>
        <source>Delete memories</source>
        <translation>Excluir memórias</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="142"/>
        <source>Erase %n memory item(s) everywhere? Older versions and the copies in Acervo&apos;s answers and their traces are erased too.</source>
        <translation>
            <numerusform>Apagar %n memória de todos os lugares? As versões antigas e as cópias nas respostas do Acervo e nos seus registros também são apagadas.</numerusform>
            <numerusform>Apagar %n memórias de todos os lugares? As versões antigas e as cópias nas respostas do Acervo e nos seus registros também são apagadas.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="148"/>
        <source>Also delete the %n message(s) where I said it</source>
        <translation>
            <numerusform>Excluir também a mensagem em que eu disse isso</numerusform>
            <numerusform>Excluir também as %n mensagens em que eu disse isso</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="152"/>
        <source>Your messages stay in the chat history otherwise, word for word.</source>
        <translation>Caso contrário, suas mensagens continuam no histórico da conversa, palavra por palavra.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="156"/>
        <source>Delete</source>
        <translation>Excluir</translation>
    </message>
</context>
<context>
    <name>Erasure</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="127"/>
        <source>[erased at your request]</source>
        <translation>[apagado a seu pedido]</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="130"/>
        <source>[erased]</source>
        <translation>[apagado]</translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="46"/>
        <source>Question</source>
        <translation>Pergunta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="46"/>
        <source>Answer</source>
        <translation>Resposta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="47"/>
        <source>References</source>
        <translation>Referências</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="47"/>
        <source>p.</source>
        <translation>p.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="47"/>
        <source>pp.</source>
        <translation>pp.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="48"/>
        <source>File</source>
        <translation>Arquivo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="48"/>
        <source>Team library</source>
        <translation>Biblioteca da equipe</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="49"/>
        <source>Searched for: %1</source>
        <translation>Pesquisado: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="50"/>
        <source>Closest passages (not an answer)</source>
        <translation>Trechos mais próximos (não são uma resposta)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="50"/>
        <source>revoked</source>
        <translation>revogado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="51"/>
        <source>Exported from Acervo on %1. The quotes are the documents&apos; own words.</source>
        <translation>Exportado do Acervo em %1. As citações são as palavras dos próprios documentos.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="52"/>
        <source>(no answer)</source>
        <translation>(sem resposta)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/export_actions.py" line="77"/>
        <source>Copied with %n reference(s).</source>
        <translation>
            <numerusform>Copiado com %n referência.</numerusform>
            <numerusform>Copiado com %n referências.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="99"/>
        <source>Export with citations</source>
        <translation>Exportar com citações</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/export_actions.py" line="110"/>
        <source>Exported to %1</source>
        <translation>Exportado para %1</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="31"/>
        <source>1. Add your documents</source>
        <translation>1. Adicione seus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="32"/>
        <source>Drop files or folders anywhere on the window, or use Add files… (Ctrl+O). PDFs, Word, Markdown, text, web pages and scanned images are read on this computer; the Library lists them with their progress.</source>
        <translation>Solte arquivos ou pastas em qualquer lugar da janela, ou use Adicionar arquivos… (Ctrl+O). PDFs, Word, Markdown, texto, páginas web e imagens digitalizadas são lidos neste computador; a Biblioteca os lista com o andamento.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="33"/>
        <source>2. Ask</source>
        <translation>2. Pergunte</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="34"/>
        <source>Type a question in the box under the chat and press Enter. Acervo searches your documents and answers with the passages that answer it, or with a text written by a language model if you added one (Settings → Models).</source>
        <translation>Digite uma pergunta na caixa abaixo da conversa e tecle Enter. O Acervo busca nos seus documentos e responde com os trechos que a respondem, ou com um texto escrito por um modelo de linguagem, se você adicionou um (Configurações → Modelos).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="35"/>
        <source>3. Check the badges</source>
        <translation>3. Confira os selos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="36"/>
        <source>Every claim carries a numbered badge. Click it: the source opens at the page, with the quoted words highlighted. When nothing in your documents answers, Acervo says so, shows the closest passages, and “Why not found?” explains it.</source>
        <translation>Cada afirmação traz um selo numerado. Clique nele: a fonte abre na página, com as palavras citadas destacadas. Quando nada nos seus documentos responde, o Acervo diz isso, mostra os trechos mais próximos e “Por que não encontrei?” explica.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="37"/>
        <source>4. See the search itself</source>
        <translation>4. Veja a própria busca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="38"/>
        <source>The Search tab beside the chat lists the passages as the answers rank them: what found each one (keywords, meaning), its rank and score, and your words it contains. Filters and the libraries searched are shown too.</source>
        <translation>A aba Busca, ao lado da conversa, lista os trechos na ordem em que as respostas os classificam: o que encontrou cada um (palavras-chave, significado), sua posição e pontuação, e as suas palavras que ele contém. Os filtros e as bibliotecas pesquisadas também aparecem.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="39"/>
        <source>5. Take answers with you</source>
        <translation>5. Leve as respostas com você</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="40"/>
        <source>Under each answer, “Copy with citations” and “Export…” (Markdown, Word, PDF) keep the quotes exactly, with numbered references: document, page or article, the quoted words and the file.</source>
        <translation>Abaixo de cada resposta, “Copiar com citações” e “Exportar…” (Markdown, Word, PDF) mantêm as citações exatas, com referências numeradas: documento, página ou artigo, as palavras citadas e o arquivo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="41"/>
        <source>6. Memory</source>
        <translation>6. Memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="42"/>
        <source>Say “Remember that …” and Acervo keeps it; the chip under the chat undoes it. View → Memory… lists everything remembered, where it came from, and lets you edit, delete or export it.</source>
        <translation>Diga “Lembre que …” e o Acervo guarda; o aviso abaixo da conversa desfaz. Exibir → Memória… lista tudo o que foi lembrado, de onde veio, e permite editar, apagar ou exportar.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="43"/>
        <source>7. Privacy</source>
        <translation>7. Privacidade</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="44"/>
        <source>Everything stays on this computer: the documents, the index, the models and your chats. “offline ✓” in the status bar says nothing leaves it; it names any server you allowed yourself.</source>
        <translation>Tudo fica neste computador: os documentos, o índice, os modelos e as suas conversas. “offline ✓” na barra de status diz que nada sai dele; ela nomeia qualquer servidor que você mesmo tenha permitido.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/guide.py" line="48"/>
        <source>How Acervo works</source>
        <translation>Como o Acervo funciona</translation>
    </message>
</context>
<context>
    <name>IngestProgress</name>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="99"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="130"/>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="221"/>
        <source>queued (folder)</source>
        <translation>na fila (pasta)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="132"/>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="222"/>
        <source>queued</source>
        <translation>na fila</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="136"/>
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="236"/>
        <source>Cancelled: </source>
        <translation>Cancelado: </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="141"/>
        <source>Cancelled.</source>
        <translation>Cancelado.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="148"/>
        <source>Stopped: %1</source>
        <translation>Interrompido: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="164"/>
        <source>reading…</source>
        <translation>lendo…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="168"/>
        <source>parsed %1 of %2 pages</source>
        <translation>%1 de %2 páginas lidas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="174"/>
        <source>embedding %1/%2</source>
        <translation>gerando embeddings %1/%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="181"/>
        <source>indexed · %n page(s)</source>
        <translation>
            <numerusform>indexado · %n página</numerusform>
            <numerusform>indexado · %n páginas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="182"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform>
            <numerusform>%n trechos</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="186"/>
        <source>skipped: unchanged</source>
        <translation>ignorado: sem mudanças</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="188"/>
        <source>skipped: %1</source>
        <translation>ignorado: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="192"/>
        <source>failed: %1</source>
        <translation>falhou: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="196"/>
        <source>removed (file no longer exists)</source>
        <translation>removido (o arquivo não existe mais)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="209"/>
        <source>Switching to the new index…</source>
        <translation>Passando para o novo índice…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/ingest_progress.py" line="213"/>
        <source>Reindexed %n document(s); search uses the new index.</source>
        <translation>
            <numerusform>%n documento reindexado; a busca usa o novo índice.</numerusform>
            <numerusform>%n documentos reindexados; a busca usa o novo índice.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="216"/>
        <source>Reindexing %1 of %2 documents…</source>
        <translation>Reindexando %1 de %2 documentos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="223"/>
        <source>scanned</source>
        <translation>varrida</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="233"/>
        <source>%1 indexed, %2 unchanged, %3 failed, %4 removed</source>
        <translation>%1 indexados, %2 sem mudanças, %3 com falha, %4 removidos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/ingest_progress.py" line="229"/>
        <source>cancelled; nothing from this file was indexed</source>
        <translation>cancelado; nada deste arquivo foi indexado</translation>
    </message>
</context>
<context>
    <name>LibrariesTab</name>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="179"/>
        <source>Search this computer&apos;s library</source>
        <translation>Pesquisar a biblioteca deste computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="184"/>
        <source>Add team library…</source>
        <translation>Adicionar biblioteca da equipe…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="186"/>
        <source>Edit…</source>
        <translation>Editar…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="188"/>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="190"/>
        <source>A team library lives on your team&apos;s PostgreSQL server: a question searches every library ticked here, and each source says which library it came from. Passwords are kept in the system keyring (or a private file), never in the settings file.</source>
        <translation>Uma biblioteca da equipe fica no servidor PostgreSQL da sua equipe: cada pergunta pesquisa todas as bibliotecas marcadas aqui, e cada fonte diz de qual biblioteca veio. As senhas ficam no chaveiro do sistema (ou num arquivo privado), nunca no arquivo de configurações.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="213"/>
        <source>read-only</source>
        <translation>somente leitura</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="213"/>
        <source>read-write</source>
        <translation>leitura e escrita</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="214"/>
        <source>searched</source>
        <translation>pesquisada</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="214"/>
        <source>not searched</source>
        <translation>não pesquisada</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="216"/>
        <source>network allowed</source>
        <translation>rede permitida</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="217"/>
        <source>network NOT allowed</source>
        <translation>rede NÃO permitida</translation>
    </message>
</context>
<context>
    <name>LibraryExtras</name>
    <message>
        <location filename="../../desktop_app/gui/library_extras.py" line="43"/>
        <source>Library status…</source>
        <translation>Estado da biblioteca…</translation>
    </message>
</context>
<context>
    <name>LibraryKeeper</name>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="76"/>
        <source>%n file(s) to read again: Tools ▸ Library status</source>
        <translation>
            <numerusform>%n arquivo a ler de novo: Ferramentas ▸ Estado da biblioteca</numerusform>
            <numerusform>%n arquivos a ler de novo: Ferramentas ▸ Estado da biblioteca</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="148"/>
        <source>%n added</source>
        <translation>
            <numerusform>%n adicionado</numerusform>
            <numerusform>%n adicionados</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="149"/>
        <source>%n changed</source>
        <translation>
            <numerusform>%n alterado</numerusform>
            <numerusform>%n alterados</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="150"/>
        <source>%n removed</source>
        <translation>
            <numerusform>%n removido</numerusform>
            <numerusform>%n removidos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_watch.py" line="151"/>
        <source>%n failed</source>
        <translation>
            <numerusform>%n com falha</numerusform>
            <numerusform>%n com falha</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_watch.py" line="155"/>
        <source>Watched folders: %1</source>
        <translation>Pastas acompanhadas: %1</translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="273"/>
        <source>Add files…</source>
        <translation>Adicionar arquivos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="274"/>
        <source>Add folder…</source>
        <translation>Adicionar pasta…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="275"/>
        <source>Filter by title or folder</source>
        <translation>Filtrar por título ou pasta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="276"/>
        <source>Reindex</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="277"/>
        <source>Your library is empty. Drop files or folders here, or start with the sample documents.</source>
        <translation>Sua biblioteca está vazia. Arraste arquivos ou pastas para cá, ou comece com os documentos de exemplo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="278"/>
        <source>Load samples</source>
        <translation>Carregar exemplos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="285"/>
        <source>All types</source>
        <translation>Todos os tipos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="293"/>
        <source>Any time</source>
        <translation>Qualquer data</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="293"/>
        <source>Last 7 days</source>
        <translation>Últimos 7 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="293"/>
        <source>Last 30 days</source>
        <translation>Últimos 30 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="294"/>
        <source>Last year</source>
        <translation>Último ano</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="365"/>
        <source>This library was indexed with another embedding model, so only keyword search works. Reindex to restore meaning-based search (the current index keeps working meanwhile).</source>
        <translation>Esta biblioteca foi indexada com outro modelo de embeddings, então só a busca por palavras funciona. Reindexe para recuperar a busca por significado (o índice atual continua funcionando enquanto isso).</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="387"/>
        <source>Remove documents</source>
        <translation>Remover documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="388"/>
        <source>Remove these documents from the library? Their text and vectors are erased from the index; the files themselves stay on disk.</source>
        <translation>Remover estes documentos da biblioteca? O texto e os vetores são apagados do índice; os arquivos continuam no disco.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="402"/>
        <source>Removed %n document(s).</source>
        <translation>
            <numerusform>%n documento removido.</numerusform>
            <numerusform>%n documentos removidos.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="425"/>
        <source>Another Acervo process is updating the memory; waiting…</source>
        <translation>Outro processo do Acervo está atualizando a memória; aguardando…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="447"/>
        <source>Open original</source>
        <translation>Abrir original</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="448"/>
        <source>Re-index</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="450"/>
        <source>Remove from library…</source>
        <translation>Remover da biblioteca…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="481"/>
        <source>Adding documents…</source>
        <translation>Adicionando documentos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="496"/>
        <source>Reindexing…</source>
        <translation>Reindexando…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="529"/>
        <source>an unexpected error (details in the log)</source>
        <translation>um erro inesperado (detalhes no log)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="389"/>
        <source>Also erase chat answers that quote them</source>
        <translation>Apagar também as respostas do chat que os citam</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="280"/>
        <source>How Acervo works</source>
        <translation>Como o Acervo funciona</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="404"/>
        <source>Erased %n chat answer(s) that quoted them.</source>
        <translation>
            <numerusform>%n resposta do chat que os citava foi apagada.</numerusform>
            <numerusform>%n respostas do chat que os citavam foram apagadas.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library.py" line="407"/>
        <source>%n chat answer(s) still quote them; delete those chats to erase the text.</source>
        <translation>
            <numerusform>%n resposta do chat ainda os cita; apague essas conversas para apagar o texto.</numerusform>
            <numerusform>%n respostas do chat ainda os citam; apague essas conversas para apagar o texto.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="423"/>
        <source>Another Acervo process is updating the library; waiting…</source>
        <translation>Outro processo do Acervo está atualizando a biblioteca; aguardando…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="244"/>
        <location filename="../../desktop_app/gui/library.py" line="271"/>
        <source>This computer</source>
        <translation>Este computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="244"/>
        <location filename="../../desktop_app/gui/library.py" line="272"/>
        <source>Team: %1</source>
        <translation>Equipe: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library.py" line="261"/>
        <location filename="../../desktop_app/gui/library.py" line="462"/>
        <source>This team library is read-only in your settings.</source>
        <translation>Esta biblioteca da equipe está como somente leitura nas suas configurações.</translation>
    </message>
</context>
<context>
    <name>LibraryStatusDialog</name>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="60"/>
        <source>Library status</source>
        <translation>Estado da biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="61"/>
        <source>Only failed and skipped files</source>
        <translation>Só arquivos com falha ou ignorados</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="62"/>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="62"/>
        <source>File</source>
        <translation>Arquivo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="62"/>
        <source>Why</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="63"/>
        <source>Retry failed files</source>
        <translation>Tentar de novo os arquivos com falha</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="64"/>
        <source>Read again (%n file(s))</source>
        <translation>
            <numerusform>Ler de novo (%n arquivo)</numerusform>
            <numerusform>Ler de novo (%n arquivos)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="66"/>
        <source>These files were read by an older version of Acervo; this one reads headings, lists and sections better. Passages that did not change keep their vectors.</source>
        <translation>Estes arquivos foram lidos por uma versão anterior do Acervo; esta lê melhor títulos, listas e seções. Os trechos que não mudaram mantêm seus vetores.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="71"/>
        <source>indexed</source>
        <translation>indexado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="71"/>
        <source>unchanged</source>
        <translation>sem alteração</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="72"/>
        <source>waiting</source>
        <translation>aguardando</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="72"/>
        <source>failed</source>
        <translation>falhou</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="73"/>
        <source>skipped by a limit</source>
        <translation>ignorado por um limite</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="77"/>
        <source>%n indexed</source>
        <translation>
            <numerusform>%n indexado</numerusform>
            <numerusform>%n indexados</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="78"/>
        <source>%n unchanged</source>
        <translation>
            <numerusform>%n sem alteração</numerusform>
            <numerusform>%n sem alteração</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="79"/>
        <source>%n waiting</source>
        <translation>
            <numerusform>%n aguardando</numerusform>
            <numerusform>%n aguardando</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="80"/>
        <source>%n failed</source>
        <translation>
            <numerusform>%n com falha</numerusform>
            <numerusform>%n com falha</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/library_status.py" line="81"/>
        <source>%n skipped by a limit</source>
        <translation>
            <numerusform>%n ignorado por um limite</numerusform>
            <numerusform>%n ignorados por um limite</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_status.py" line="112"/>
        <source>No files yet.</source>
        <translation>Nenhum arquivo ainda.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="302"/>
        <location filename="../../desktop_app/gui/main_window.py" line="322"/>
        <source>Library</source>
        <translation>Biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="303"/>
        <location filename="../../desktop_app/gui/main_window.py" line="323"/>
        <source>Chats</source>
        <translation>Conversas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="304"/>
        <location filename="../../desktop_app/gui/main_window.py" line="329"/>
        <source>Chat</source>
        <translation>Conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="305"/>
        <source>Search</source>
        <translation>Busca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="306"/>
        <source>Memory — what Acervo remembers</source>
        <translation>Memória — o que o Acervo lembra</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="307"/>
        <source>Memories</source>
        <translation>Memórias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="308"/>
        <source>Conversations</source>
        <translation>Conversas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="309"/>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="310"/>
        <source>&amp;Chat</source>
        <translation>&amp;Conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="311"/>
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="312"/>
        <source>&amp;Tools</source>
        <translation>&amp;Ferramentas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="313"/>
        <source>&amp;Help</source>
        <translation>A&amp;juda</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="314"/>
        <source>Add files…</source>
        <translation>Adicionar arquivos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="315"/>
        <source>Add folder…</source>
        <translation>Adicionar pasta…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="316"/>
        <source>Quit</source>
        <translation>Sair</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="317"/>
        <source>New chat</source>
        <translation>Nova conversa</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="318"/>
        <source>Ask a question</source>
        <translation>Fazer uma pergunta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="319"/>
        <source>Stop answer</source>
        <translation>Parar resposta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="320"/>
        <source>Sources only (no model)</source>
        <translation>Só fontes (sem modelo)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="321"/>
        <source>Memory…</source>
        <translation>Memória…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="324"/>
        <source>Settings…</source>
        <translation>Configurações…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="325"/>
        <source>Reindex library</source>
        <translation>Reindexar biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="326"/>
        <location filename="../../desktop_app/gui/main_window.py" line="743"/>
        <source>About Acervo</source>
        <translation>Sobre o Acervo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="327"/>
        <source>How Acervo works</source>
        <translation>Como o Acervo funciona</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="328"/>
        <source>Search the documents</source>
        <translation>Buscar nos documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="330"/>
        <source>Export chat with citations…</source>
        <translation>Exportar conversa com citações…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="331"/>
        <source>Copy chat with citations</source>
        <translation>Copiar conversa com citações</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="332"/>
        <source>Adding %p%</source>
        <translation>Adicionando %p%</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="512"/>
        <source>offline ✓</source>
        <translation>offline ✓</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="513"/>
        <source>Nothing leaves this computer</source>
        <translation>Nada sai deste computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="439"/>
        <location filename="../../desktop_app/gui/main_window.py" line="449"/>
        <source>Model: %1</source>
        <translation>Modelo: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="440"/>
        <source>none (sources only)</source>
        <translation>nenhum (só fontes)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="461"/>
        <source>search model</source>
        <translation>modelo de busca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="461"/>
        <source>library</source>
        <translation>biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="462"/>
        <source>memory</source>
        <translation>memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="463"/>
        <source>Loading %1…</source>
        <translation>Carregando %1…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="444"/>
        <source>Model: none (sources only)</source>
        <translation>Modelo: nenhum (só fontes)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="446"/>
        <source>Model: unavailable — sources-only answers</source>
        <translation>Modelo: indisponível — respostas só com fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="501"/>
        <source>Models failed to load</source>
        <translation>Falha ao carregar os modelos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="531"/>
        <source>Library empty</source>
        <translation>Biblioteca vazia</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="535"/>
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n documento</numerusform>
            <numerusform>%n documentos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/main_window.py" line="536"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform>
            <numerusform>%n trechos</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="542"/>
        <source>Add files</source>
        <translation>Adicionar arquivos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="543"/>
        <source>Documents and scans (*.pdf *.docx *.md *.markdown *.txt *.html *.htm *.png *.jpg *.jpeg *.tif *.tiff);;Scanned images (*.png *.jpg *.jpeg *.tif *.tiff);;All files (*)</source>
        <translation>Documentos e digitalizações (*.pdf *.docx *.md *.markdown *.txt *.html *.htm *.png *.jpg *.jpeg *.tif *.tiff);;Imagens digitalizadas (*.png *.jpg *.jpeg *.tif *.tiff);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="551"/>
        <source>Add folder</source>
        <translation>Adicionar pasta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="622"/>
        <source>Ask a question first: there is no chat to export yet.</source>
        <translation>Faça uma pergunta primeiro: ainda não há conversa para exportar.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="743"/>
        <source>Acervo answers questions about your own documents with cited sources, entirely on this computer. Nothing is sent anywhere.</source>
        <translation>O Acervo responde perguntas sobre os seus próprios documentos, com fontes citadas, inteiramente neste computador. Nada é enviado para lugar nenhum.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="477"/>
        <source>This model is too small to follow the answer prompt; its answers are labelled as experiments. Settings → Models → Who writes answers.</source>
        <translation>Este modelo é pequeno demais para seguir as instruções de resposta; as respostas dele são marcadas como experimento. Configurações → Modelos → Quem redige as respostas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="478"/>
        <source>Experiment: %1 writes answers</source>
        <translation>Experimento: %1 redige as respostas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="480"/>
        <source>Answers are written by the language model from the passages it finds, with citation badges.</source>
        <translation>As respostas são redigidas pelo modelo de linguagem a partir dos trechos encontrados, com selos de citação.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="481"/>
        <source>Written answers: %1</source>
        <translation>Respostas redigidas: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="483"/>
        <source>The active model is too small to write reliable answers: Acervo shows the passages that answer your question, with badges. Add a model of 1B parameters or more (a GGUF file) for written answers.</source>
        <translation>O modelo ativo é pequeno demais para redigir respostas confiáveis: o Acervo mostra os trechos que respondem à sua pergunta, com selos. Adicione um modelo de 1B parâmetros ou mais (um arquivo GGUF) para ter respostas redigidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="484"/>
        <source>No language model is installed: Acervo shows the passages that answer your question, with badges. Add a GGUF model for written answers.</source>
        <translation>Nenhum modelo de linguagem está instalado: o Acervo mostra os trechos que respondem à sua pergunta, com selos. Adicione um modelo GGUF para ter respostas redigidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="487"/>
        <source>You chose answers from your sources in Settings.</source>
        <translation>Você escolheu respostas a partir das suas fontes nas Configurações.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="488"/>
        <source>Answers from your sources</source>
        <translation>Respostas das suas fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="474"/>
        <source>add a model</source>
        <translation>adicionar um modelo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="517"/>
        <source>team server %1</source>
        <translation>servidor da equipe %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="518"/>
        <source>model server %1</source>
        <translation>servidor de modelo %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="520"/>
        <source>network: %1 only ⚠</source>
        <translation>rede: só %1 ⚠</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/main_window.py" line="521"/>
        <source>Questions and passages go to these servers; nothing else leaves this computer:</source>
        <translation>Perguntas e trechos vão para estes servidores; nada mais sai deste computador:</translation>
    </message>
</context>
<context>
    <name>MemoryCategories</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="31"/>
        <source>identity</source>
        <translation>identidade</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="32"/>
        <source>work</source>
        <translation>trabalho</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="33"/>
        <source>preference</source>
        <translation>preferência</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="34"/>
        <source>contact</source>
        <translation>contato</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="35"/>
        <source>location</source>
        <translation>localização</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="36"/>
        <source>family</source>
        <translation>família</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="37"/>
        <source>schedule</source>
        <translation>agenda</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="38"/>
        <source>reference</source>
        <translation>referência</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="39"/>
        <source>other</source>
        <translation>outro</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="40"/>
        <source>health</source>
        <translation>saúde</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="41"/>
        <source>disability</source>
        <translation>deficiência</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="42"/>
        <source>religion</source>
        <translation>religião</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="43"/>
        <source>ethnicity</source>
        <translation>origem racial ou étnica</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="44"/>
        <source>sex life</source>
        <translation>vida sexual</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="45"/>
        <source>political opinion</source>
        <translation>opinião política</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="46"/>
        <source>biometric data</source>
        <translation>dados biométricos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="47"/>
        <source>financial account numbers</source>
        <translation>números de contas financeiras</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="270"/>
        <source>What Acervo remembers from what you told it. Double-click a text to correct it; click a source to see the message it came from.</source>
        <translation>O que o Acervo lembra do que você contou. Clique duas vezes em um texto para corrigi-lo; clique em uma origem para ver a mensagem de onde veio.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="271"/>
        <source>Search memories</source>
        <translation>Buscar memórias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="272"/>
        <source>Show older versions</source>
        <translation>Mostrar versões antigas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="273"/>
        <source>Delete</source>
        <translation>Excluir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="274"/>
        <source>Forget everything…</source>
        <translation>Esquecer tudo…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="275"/>
        <source>Export JSON…</source>
        <translation>Exportar JSON…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="276"/>
        <source>Sensitive data consent…</source>
        <translation>Consentimento para dados sensíveis…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="277"/>
        <source>Details</source>
        <translation>Detalhes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="336"/>
        <source>Forget everything</source>
        <translation>Esquecer tudo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="337"/>
        <source>Erase everything Acervo remembers about you, with every copy? This cannot be undone.</source>
        <translation>Apagar tudo o que o Acervo lembra sobre você, com todas as cópias? Isso não pode ser desfeito.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="377"/>
        <source>Export memories</source>
        <translation>Exportar memórias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="378"/>
        <source>JSON files (*.json)</source>
        <translation>Arquivos JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="383"/>
        <source>Exported to %1</source>
        <translation>Exportado para %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="395"/>
        <source>Withdraw consent</source>
        <translation>Retirar consentimento</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="396"/>
        <source>Withdrawing consent erases what is stored in: %1. Continue?</source>
        <translation>Retirar o consentimento apaga o que está guardado em: %1. Continuar?</translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>Text</source>
        <translation>Texto</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>Category</source>
        <translation>Categoria</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>About</source>
        <translation>Sobre</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="101"/>
        <source>Source</source>
        <translation>Origem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="102"/>
        <source>Saved</source>
        <translation>Salva em</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="102"/>
        <source>Expires</source>
        <translation>Expira em</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="102"/>
        <source>Sensitive</source>
        <translation>Sensível</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="124"/>
        <source>You said on %1: “%2” (click to see the message)</source>
        <translation>Você disse em %1: “%2” (clique para ver a mensagem)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="141"/>
        <source>before the edit of %1</source>
        <translation>antes da edição de %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="143"/>
        <source>superseded</source>
        <translation>substituída</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="148"/>
        <source>you</source>
        <translation>você</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="154"/>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_panel.py" line="156"/>
        <source>yes</source>
        <translation>sim</translation>
    </message>
</context>
<context>
    <name>Places</name>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="13"/>
        <source>slide</source>
        <translation>slide</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="13"/>
        <source>slides</source>
        <translation>slides</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="14"/>
        <source>sheet</source>
        <translation>planilha</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="14"/>
        <source>sheets</source>
        <translation>planilhas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="15"/>
        <source>message</source>
        <translation>mensagem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/places.py" line="15"/>
        <source>messages</source>
        <translation>mensagens</translation>
    </message>
</context>
<context>
    <name>ProvenanceDialog</name>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="57"/>
        <source>Where this memory came from</source>
        <translation>De onde veio esta memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="59"/>
        <source>You said on %1:</source>
        <translation>Você disse em %1:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="60"/>
        <source>Older versions</source>
        <translation>Versões antigas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="61"/>
        <source>Edits</source>
        <translation>Edições</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="62"/>
        <source>(old text erased)</source>
        <translation>(texto antigo apagado)</translation>
    </message>
</context>
<context>
    <name>ReceiptText</name>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="179"/>
        <source>%n memory item(s) (with older versions)</source>
        <translation>
            <numerusform>%n memória (com versões antigas)</numerusform>
            <numerusform>%n memórias (com versões antigas)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="182"/>
        <source>%n message(s) of yours</source>
        <translation>
            <numerusform>%n mensagem sua</numerusform>
            <numerusform>%n mensagens suas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="184"/>
        <source>%n chat message(s)</source>
        <translation>
            <numerusform>%n mensagem de conversa</numerusform>
            <numerusform>%n mensagens de conversa</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="186"/>
        <source>%n copy(ies) in answers and their traces</source>
        <translation>
            <numerusform>%n cópia em respostas e seus registros</numerusform>
            <numerusform>%n cópias em respostas e seus registros</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="188"/>
        <source>%n exchange(s) from the conversation-recall index (text, vectors and keyword entries)</source>
        <translation>
            <numerusform>%n troca do índice de lembrança de conversas (texto, vetores e entradas de palavras-chave)</numerusform>
            <numerusform>%n trocas do índice de lembrança de conversas (texto, vetores e entradas de palavras-chave)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="189"/>
        <source>Erased for good: %1.</source>
        <translation>Apagado de vez: %1.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="191"/>
        <source>The files on disk were rewritten, so nothing can be recovered from them.</source>
        <translation>Os arquivos no disco foram reescritos, então nada pode ser recuperado deles.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="195"/>
        <source>Stores touched:</source>
        <translation>Armazenamentos afetados:</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="200"/>
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n linha</numerusform>
            <numerusform>%n linhas</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="201"/>
        <source>%1 bytes of content</source>
        <translation>%1 bytes de conteúdo</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="205"/>
        <source>file %1 → %2 bytes</source>
        <translation>arquivo %1 → %2 bytes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="210"/>
        <source>Physical cleanup:</source>
        <translation>Limpeza física:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="211"/>
        <source>none needed</source>
        <translation>nenhuma necessária</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="214"/>
        <source>Memory ids:</source>
        <translation>Ids das memórias:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/memory_dialogs.py" line="217"/>
        <source>Recall exchanges:</source>
        <translation>Trocas da lembrança:</translation>
    </message>
</context>
<context>
    <name>ScopeChip</name>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="58"/>
        <source>Change</source>
        <translation>Alterar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="59"/>
        <source>Ask the whole library again</source>
        <translation>Voltar a perguntar à biblioteca inteira</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="64"/>
        <source>Asking: the whole library</source>
        <translation>Perguntando: à biblioteca inteira</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="66"/>
        <source>collection “%1”</source>
        <translation>coleção “%1”</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/scope_chip.py" line="69"/>
        <source>%n selected document(s)</source>
        <translation>
            <numerusform>%n documento selecionado</numerusform>
            <numerusform>%n documentos selecionados</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/scope_chip.py" line="70"/>
        <source>Asking: %1 (%n document(s))</source>
        <translation>
            <numerusform>Perguntando: %1 (%n documento)</numerusform>
            <numerusform>Perguntando: %1 (%n documentos)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="77"/>
        <source>The whole library</source>
        <translation>A biblioteca inteira</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/scope_chip.py" line="83"/>
        <source>Collections</source>
        <translation>Coleções</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/scope_chip.py" line="91"/>
        <source>The %n document(s) selected in the library</source>
        <translation>
            <numerusform>O documento selecionado na biblioteca</numerusform>
            <numerusform>Os %n documentos selecionados na biblioteca</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="97"/>
        <source>Search your documents (the passages answers would use)</source>
        <translation>Busque nos seus documentos (os trechos que as respostas usariam)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="98"/>
        <source>Search</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="99"/>
        <source>All types</source>
        <translation>Todos os tipos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="102"/>
        <source>Any time</source>
        <translation>Qualquer data</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="102"/>
        <source>Last 7 days</source>
        <translation>Últimos 7 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="102"/>
        <source>Last 30 days</source>
        <translation>Últimos 30 dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="103"/>
        <source>Last year</source>
        <translation>Último ano</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="108"/>
        <source>The passages are listed as the answers rank them: what found each one (keywords, meaning), its rank and score, and the words of your query it contains.</source>
        <translation>Os trechos aparecem na ordem em que as respostas os classificam: o que encontrou cada um (palavras-chave, significado), sua posição e pontuação, e as palavras da sua busca que ele contém.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="123"/>
        <source>Libraries your answers search</source>
        <translation>Bibliotecas em que as respostas buscam</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="130"/>
        <source>This computer</source>
        <translation>Este computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="130"/>
        <source>Team: %1</source>
        <translation>Equipe: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="152"/>
        <source>Searching your documents…</source>
        <translation>Buscando nos seus documentos…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="186"/>
        <source>No passage matches this search.</source>
        <translation>Nenhum trecho corresponde a esta busca.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/search_view.py" line="194"/>
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n trecho</numerusform>
            <numerusform>%n trechos</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="197"/>
        <source>via %1</source>
        <translation>via %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="250"/>
        <source>found by %1</source>
        <translation>encontrado por %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="198"/>
        <source>searched: %1</source>
        <translation>pesquisado: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/search_view.py" line="203"/>
        <source>%n document(s) left out by the filters</source>
        <translation>
            <numerusform>%n documento deixado de fora pelos filtros</numerusform>
            <numerusform>%n documentos deixados de fora pelos filtros</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="205"/>
        <source>%1: could not count what the filters leave out</source>
        <translation>%1: não foi possível contar o que os filtros deixam de fora</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/gui/search_view.py" line="208"/>
        <source>%1 is not searched (%n document(s))</source>
        <translation>
            <numerusform>%1 não é pesquisada (%n documento)</numerusform>
            <numerusform>%1 não é pesquisada (%n documentos)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="212"/>
        <source>%1 is not searched</source>
        <translation>%1 não é pesquisada</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="219"/>
        <source>keywords</source>
        <translation>palavras-chave</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="219"/>
        <source>meaning</source>
        <translation>significado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="222"/>
        <source>Why “%1” was not found</source>
        <translation>Por que “%1” não foi encontrado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="226"/>
        <source>Words of your question that occur nowhere in your library: %1</source>
        <translation>Palavras da sua pergunta que não aparecem em nenhum lugar da sua biblioteca: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="228"/>
        <source>Your question asks for %1, and none of the closest passages states one.</source>
        <translation>Sua pergunta pede %1, que nenhum dos trechos mais próximos informa.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="232"/>
        <source>No document was left out: every library your answers search was searched, without filters.</source>
        <translation>Nenhum documento ficou de fora: todas as bibliotecas em que as respostas buscam foram pesquisadas, sem filtros.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="233"/>
        <source>The closest passages did not answer the question well enough to quote them. Judge them yourself:</source>
        <translation>Os trechos mais próximos não respondiam à pergunta o bastante para serem citados. Julgue-os você mesmo:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="240"/>
        <source>p. %1</source>
        <translation>p. %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="247"/>
        <source>keywords #%1</source>
        <translation>palavras-chave nº %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="249"/>
        <source>meaning #%1</source>
        <translation>significado nº %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="251"/>
        <source>score %1</source>
        <translation>pontuação %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="253"/>
        <source>words: %1</source>
        <translation>palavras: %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="255"/>
        <source>none of your words (found by meaning)</source>
        <translation>nenhuma das suas palavras (encontrado pelo significado)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/search_view.py" line="275"/>
        <source>revoked</source>
        <translation>revogado</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="58"/>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="334"/>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="357"/>
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="61"/>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="62"/>
        <source>Search</source>
        <translation>Busca</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="65"/>
        <source>Memory</source>
        <translation>Memória</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="66"/>
        <source>General</source>
        <translation>Geral</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="83"/>
        <source>Local model (llama.cpp)</source>
        <translation>Modelo local (llama.cpp)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="84"/>
        <source>Ollama server</source>
        <translation>Servidor Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="85"/>
        <source>No model: sources only</source>
        <translation>Sem modelo: só fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="100"/>
        <source>Add GGUF file…</source>
        <translation>Adicionar arquivo GGUF…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="102"/>
        <source>Use selected</source>
        <translation>Usar o selecionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="104"/>
        <source>Remove from list</source>
        <translation>Remover da lista</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="121"/>
        <source>Allow a server on another computer</source>
        <translation>Permitir um servidor em outro computador</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="130"/>
        <source>Answer with:</source>
        <translation>Responder com:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="133"/>
        <source>Models:</source>
        <translation>Modelos:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="135"/>
        <source>Context size (tokens):</source>
        <translation>Tamanho do contexto (tokens):</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="136"/>
        <source>Threads:</source>
        <translation>Threads:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="137"/>
        <source>Ollama URL:</source>
        <translation>URL do Ollama:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="138"/>
        <source>Ollama model:</source>
        <translation>Modelo do Ollama:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="161"/>
        <source>multilingual-e5-small (loading…)</source>
        <translation>multilingual-e5-small (carregando…)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="162"/>
        <source>The embedding model is fixed; changing it requires a reindex.</source>
        <translation>O modelo de embeddings é fixo; trocá-lo exige reindexar.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="166"/>
        <source>Rerank results with a cross-encoder</source>
        <translation>Reordenar resultados com um cross-encoder</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="180"/>
        <source>Browse…</source>
        <translation>Procurar…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="186"/>
        <source>Embedding model:</source>
        <translation>Modelo de embeddings:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="187"/>
        <source>Sources per answer (k):</source>
        <translation>Fontes por resposta (k):</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="189"/>
        <source>Reranker folder:</source>
        <translation>Pasta do reordenador:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="197"/>
        <source>Remember facts I tell the assistant</source>
        <translation>Lembrar fatos que eu contar ao assistente</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="199"/>
        <source>Also notice facts I mention in passing (runs after each answer)</source>
        <translation>Também notar fatos que eu mencionar de passagem (roda depois de cada resposta)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="201"/>
        <source>Use earlier conversations in answers (turning this off erases their search index)</source>
        <translation>Usar conversas anteriores nas respostas (desligar apaga o índice de busca delas)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="205"/>
        <source>keep until I delete</source>
        <translation>guardar até eu excluir</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="206"/>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="226"/>
        <source> days</source>
        <translation> dias</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="212"/>
        <source>Forget memories after:</source>
        <translation>Esquecer memórias após:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="220"/>
        <source>Automatic (system)</source>
        <translation>Automático (sistema)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="229"/>
        <source>Follow the system</source>
        <translation>Seguir o sistema</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="229"/>
        <source>Light</source>
        <translation>Claro</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="230"/>
        <source>Dark</source>
        <translation>Escuro</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="234"/>
        <source>Language:</source>
        <translation>Idioma:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="235"/>
        <source>Appearance:</source>
        <translation>Aparência:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="236"/>
        <source>Keep logs for:</source>
        <translation>Manter logs por:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="245"/>
        <source>bundled</source>
        <translation>incluído</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="261"/>
        <source>%1 parameters</source>
        <translation>%1 parâmetros</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="264"/>
        <source>context %1</source>
        <translation>contexto %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="265"/>
        <source>chat template: yes</source>
        <translation>modelo de chat: sim</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="266"/>
        <source>chat template: none (choose one)</source>
        <translation>modelo de chat: nenhum (escolha um)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="276"/>
        <source>Add a GGUF model</source>
        <translation>Adicionar um modelo GGUF</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="277"/>
        <source>GGUF models (*.gguf)</source>
        <translation>Modelos GGUF (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="286"/>
        <source>Choose a chat template</source>
        <translation>Escolha um modelo de chat</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="287"/>
        <source>Template:</source>
        <translation>Modelo de chat:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="291"/>
        <source>Model not added</source>
        <translation>Modelo não adicionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="299"/>
        <source>Model added</source>
        <translation>Modelo adicionado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="307"/>
        <source>Using the “%1” template instead of the one inside the GGUF.</source>
        <translation>Usando o modelo de chat “%1” no lugar do que vem dentro do GGUF.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="309"/>
        <source>You chose “%1”; if answers look garbled or never stop, the template is probably wrong for this model.</source>
        <translation>Você escolheu “%1”; se as respostas saírem truncadas ou não pararem, o modelo de chat provavelmente não serve para este modelo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="312"/>
        <source>The gemma template has no system role: Acervo puts the instructions at the start of the first user message.</source>
        <translation>O modelo de chat gemma não tem papel de sistema: o Acervo põe as instruções no início da primeira mensagem do usuário.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="343"/>
        <source>Not air-gapped: your questions and passages from your documents will be sent to this server.</source>
        <translation>Não isolado: suas perguntas e trechos dos seus documentos serão enviados a este servidor.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="345"/>
        <source>This URL is on another computer. Tick “Allow a server on another computer” to use it.</source>
        <translation>Esta URL está em outro computador. Marque “Permitir um servidor em outro computador” para usá-la.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="348"/>
        <source>Cross-encoder folder</source>
        <translation>Pasta do cross-encoder</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="91"/>
        <source>Automatic: the model, when it is big enough</source>
        <translation>Automático: o modelo, quando for grande o bastante</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="92"/>
        <source>Always the model (a small one as an experiment)</source>
        <translation>Sempre o modelo (um pequeno, como experimento)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="93"/>
        <source>Never: answer with passages from my documents</source>
        <translation>Nunca: responder com trechos dos meus documentos</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="96"/>
        <source>Models under %1 parameters, like the bundled SmolLM2 (135M), cannot follow the answer prompt: Acervo then answers with the passages from your documents. Add a GGUF of 1B parameters or more (e.g. Qwen2.5-3B-Instruct, Q4_K_M) for written answers.</source>
        <translation>Modelos com menos de %1 parâmetros, como o SmolLM2 incluído (135M), não conseguem seguir as instruções de resposta: o Acervo então responde com os trechos dos seus documentos. Adicione um GGUF de 1B parâmetros ou mais (p. ex. Qwen2.5-3B-Instruct, Q4_K_M) para ter respostas redigidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="131"/>
        <source>Who writes answers:</source>
        <translation>Quem redige as respostas:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="271"/>
        <source>writes answers</source>
        <translation>redige respostas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="272"/>
        <source>too small to write answers (%1): sources, or an experiment</source>
        <translation>pequeno demais para redigir respostas (%1): fontes, ou experimento</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="296"/>
        <source>It is big enough to write answers and is now the active model.</source>
        <translation>Ele é grande o bastante para redigir respostas e agora é o modelo ativo.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="168"/>
        <source>Read scanned pages and images with OCR</source>
        <translation>Ler páginas digitalizadas e imagens com OCR</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="171"/>
        <source>Pages without a text layer are read from their image, on this computer.</source>
        <translation>Páginas sem camada de texto são lidas da imagem, neste computador.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="176"/>
        <source>OCR takes seconds per page; scanned pages beyond this are listed, not read.</source>
        <translation>O OCR leva segundos por página; páginas digitalizadas além deste limite são listadas, não lidas.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="191"/>
        <source>OCR pages per document:</source>
        <translation>Páginas de OCR por documento:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/settings_dialog.py" line="64"/>
        <source>Libraries</source>
        <translation>Bibliotecas</translation>
    </message>
</context>
<context>
    <name>SourcesViewer</name>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="281"/>
        <source>Open original</source>
        <translation>Abrir original</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="282"/>
        <source>Open the file in the system viewer</source>
        <translation>Abrir o arquivo no visualizador do sistema</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="283"/>
        <source>Close the source (back to the library)</source>
        <translation>Fechar a fonte (voltar à biblioteca)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="284"/>
        <source>Click a citation badge to see the cited passage here.</source>
        <translation>Clique em um selo de citação para ver o trecho citado aqui.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="285"/>
        <source>Zoom out (Ctrl+−, Ctrl+wheel)</source>
        <translation>Diminuir o zoom (Ctrl+−, Ctrl+roda)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="286"/>
        <source>Zoom in (Ctrl++, Ctrl+wheel)</source>
        <translation>Aumentar o zoom (Ctrl++, Ctrl+roda)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="287"/>
        <source>Fit width</source>
        <translation>Ajustar à largura</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="288"/>
        <source>Fit the page to the width (Ctrl+0)</source>
        <translation>Ajustar a página à largura (Ctrl+0)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="289"/>
        <source>Cited page</source>
        <translation>Página citada</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="291"/>
        <source>Sources</source>
        <translation>Fontes</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="523"/>
        <source>Page %1 · %2</source>
        <translation>Página %1 · %2</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="531"/>
        <source>original file not found; showing the indexed text</source>
        <translation>arquivo original não encontrado; mostrando o texto indexado</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="527"/>
        <source>Team library “%1”</source>
        <translation>Biblioteca da equipe “%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/sources_viewer.py" line="529"/>
        <source>the file is not on this computer; showing the text stored in the team library</source>
        <translation>o arquivo não está neste computador; mostrando o texto guardado na biblioteca da equipe</translation>
    </message>
</context>
<context>
    <name>TeamLibraryDialog</name>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="57"/>
        <location filename="../../desktop_app/gui/library_settings.py" line="164"/>
        <source>Team library</source>
        <translation>Biblioteca da equipe</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="68"/>
        <source>unchanged</source>
        <translation>sem alteração</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="70"/>
        <source>the one you may write to</source>
        <translation>aquela em que você pode gravar</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="71"/>
        <source>Read-only: never add or remove documents there</source>
        <translation>Somente leitura: nunca adicionar nem remover documentos ali</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="73"/>
        <source>Search it with every question</source>
        <translation>Pesquisá-la em toda pergunta</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="80"/>
        <source>Test connection</source>
        <translation>Testar conexão</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="87"/>
        <source>Name:</source>
        <translation>Nome:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="88"/>
        <source>Server URL:</source>
        <translation>URL do servidor:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="89"/>
        <source>Password:</source>
        <translation>Senha:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="90"/>
        <source>Add documents to collection:</source>
        <translation>Adicionar documentos à coleção:</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="112"/>
        <source>Allow the connection to %1 (Acervo is offline otherwise)</source>
        <translation>Permitir a conexão com %1 (do contrário o Acervo fica offline)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="117"/>
        <source>Not air-gapped for this server: your questions and the passages found go to it.</source>
        <translation>Sem isolamento para este servidor: suas perguntas e os trechos encontrados vão para ele.</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/library_settings.py" line="119"/>
        <source>This server is on another computer. Tick the box to allow it.</source>
        <translation>Este servidor está em outro computador. Marque a caixa para permiti-lo.</translation>
    </message>
</context>
<context>
    <name>Values</name>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="13"/>
        <source>an amount of money</source>
        <translation>um valor em dinheiro</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="14"/>
        <source>a percentage</source>
        <translation>um percentual</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="15"/>
        <source>a time of day</source>
        <translation>um horário</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="16"/>
        <source>a speed</source>
        <translation>uma velocidade</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="17"/>
        <source>an age</source>
        <translation>uma idade</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="18"/>
        <source>a duration</source>
        <translation>um prazo ou duração</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="19"/>
        <source>a date</source>
        <translation>uma data</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="20"/>
        <source>a date or a start</source>
        <translation>uma data ou um início</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="21"/>
        <source>a number of things</source>
        <translation>uma quantidade de coisas</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="22"/>
        <source>a penalty&apos;s term or amount</source>
        <translation>o prazo ou o valor de uma pena</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="23"/>
        <source>a prison term</source>
        <translation>uma pena de prisão</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="24"/>
        <source>a length or a weight</source>
        <translation>uma medida de comprimento ou de peso</translation>
    </message>
    <message>
        <location filename="../../desktop_app/gui/values.py" line="25"/>
        <source>a mark or score</source>
        <translation>uma nota ou pontuação</translation>
    </message>
</context>
</TS>
