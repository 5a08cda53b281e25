"""Small mechanisms of the sources-only answer, checked on real legal wording: what a
definition looks like in a law, an inline list, the answer kinds, a follow-up's passages."""

from __future__ import annotations

from desktop_app.answer.events import VALUE_NAMES
from desktop_app.answer.followup import Carried, with_carried
from desktop_app.answer.kinds import (
    KINDS,
    asked_kind,
    asked_value,
    asking_words,
    stated_beside,
    states,
)
from desktop_app.answer.question_fit import (
    asks_members,
    asks_norm,
    contrasts,
    defined_thing,
    defines,
    is_task,
    lists_tasks,
    names_row,
    narrows,
    opposes,
    shared_phrases,
    states_norm,
    terms,
    wants_many,
    without_qualifier,
)
from desktop_app.answer.units import names_a_list

from .conftest import make_hit


def test_a_definition_by_apposition_or_by_assim_entendidas_is_a_definition() -> None:
    infantil = defined_thing("O que é a educação infantil?")
    assert defines("Art. 29. A educação infantil, primeira etapa da educação básica, tem como "
                   "finalidade o desenvolvimento integral da criança", infantil)
    assert not defines("Art. 30. A educação infantil será oferecida em:", infantil)
    assert not defines("A educação infantil, quando oferecida em creches, será gratuita.",
                       infantil)
    # "constitui-se em" says what it is, as "é" does
    republica = defined_thing("O que é a República Federativa do Brasil?")
    assert defines("Art. 1º A República Federativa do Brasil, formada pela união indissolúvel "
                   "dos Estados e Municípios e do Distrito Federal, constitui-se em Estado "
                   "Democrático de Direito e tem como fundamentos:", republica)
    assert not defines("Parágrafo único. A República Federativa do Brasil buscará a "
                       "integração econômica, política, social e cultural", republica)
    publicas = defined_thing("O que são públicas?")
    assert defines("I – públicas, assim entendidas as criadas ou incorporadas, mantidas e "
                   "administradas pelo Poder Público;", publicas)


def test_an_inline_list_has_four_terms_or_a_class_three_and_a_clause_is_not_one() -> None:
    assert names_a_list("incluirá obrigatoriamente estudos e práticas de educação "
                               "física, arte, sociologia e filosofia.")
    assert names_a_list("As artes visuais, a dança, a música e o teatro são as "
                               "linguagens")
    assert not names_a_list("conforme práticas de segurança previstas em regulamento, "
                                   "que incluam, sempre que possível, a anonimização ou "
                                   "pseudonimização dos dados")
    assert not names_a_list("O titular, o controlador e o operador responderão.")
    # three members of a class named by a copula, ending the sentence (CF art. 2º)
    assert names_a_list("Art. 2º São Poderes da União, independentes e harmônicos entre si, "
                        "o Legislativo, o Executivo e o Judiciário.")
    assert not names_a_list("São responsáveis o titular, o controlador e o operador, nos "
                            "termos desta Lei.")
    assert not names_a_list("destinadas a definir o seu perfil pessoal, profissional, de "
                            "consumo e de crédito ou os aspectos de sua personalidade")
    assert names_a_list("A educação básica poderá organizar-se em séries anuais, "
                               "períodos semestrais, ciclos, alternância regular de períodos")
    assert not names_a_list("O ensino médio, etapa final da educação básica, com "
                                   "duração mínima de três anos, terá como finalidades:")
    # a constitution's rights and principles named inline: the first term ends the lead,
    # a term of five words ("a proteção à maternidade e à infância") ends the run
    assert names_a_list("Art. 6º São direitos sociais a educação, a saúde, a alimentação, o "
                        "trabalho, a moradia, o transporte, o lazer, a segurança, a "
                        "previdência social, a proteção à maternidade e à infância, a "
                        "assistência aos desamparados, na forma desta Constituição.")
    assert names_a_list("Art. 37. A administração pública direta e indireta obedecerá aos "
                        "princípios de legalidade, impessoalidade, moralidade, publicidade e "
                        "eficiência e, também, ao seguinte:")
    # "e" alone does not make a list: "estudos e pesquisas e mantidos em ambiente controlado
    # e seguro" (LGPD art. 13)
    assert not names_a_list("estritamente para a finalidade de realização de estudos e "
                            "pesquisas e mantidos em ambiente controlado e seguro, conforme")
    # adverbs qualify a clause, they name no term: "diretamente ou através de órgão
    # vinculado, representa a União, judicial e extrajudicialmente" (CF art. 131)
    assert not names_a_list("A Advocacia-Geral da União é a instituição que, diretamente ou "
                            "através de órgão vinculado, representa a União, judicial e "
                            "extrajudicialmente, cabendo-lhe as atividades de consultoria")


def test_portuguese_articles_are_not_counts() -> None:
    # "dos" (of the) and "um/uma" (a) opened a count: an item that only names a council
    # "stated" how many members it has
    assert not states("count", "II - Conselho Nacional de Proteção de Dados Pessoais e da "
                               "Privacidade;")
    assert not states("count", "Uma instituição de ensino dos Estados")
    assert states("count", "será composto de 23 (vinte e três) representantes")
    assert states("count", "constituir comissão, composta por três docentes")
    assert states("count", "Comumente escrito apenas por uma pessoa.")
    assert states("duration", "fornecida no prazo de até 15 (quinze) dias")



def test_a_compound_number_is_one_value() -> None:
    # "vinte e um anos" is twenty-one years, not a count of twenty "e…"
    assert not states("count", "c) vinte e um anos para Deputado Federal, Deputado Estadual")
    assert states("duration", "c) vinte e um anos para Deputado Federal")
    assert states("count", "composto de trinta e uma escolas")
    assert states("count", "treinta y un miembros")


def test_a_persons_age_is_no_length_of_time() -> None:
    ages = "VI - a idade mínima de:\n…\nd) dezoito anos para Vereador."
    assert states("age", ages) and not states("duration", ages)
    assert not states("duration", "b) os maiores de setenta anos;")
    assert not states("duration", "matriculadas aos 6 (seis) anos de idade")
    assert not states("prison", "reclusão, salvo para os maiores de setenta anos")
    assert not states("duration", "persons 65 years old or older")
    # the length beside an age is still one; "idade" is not an age's frame past a comma
    assert states("duration", "ensino fundamental, com duração de 9 (nove) anos, "
                              "iniciando-se aos 6 (seis) anos de idade")
    assert states("duration", "qualquer que seja a idade, no prazo de 2 (dois) anos")
    assert states("duration", "o mandato de quatro anos")
    assert asked_kind("Com quantos anos alguém pode votar?") == "age"
    assert asked_kind("A partir de cuántos años se puede votar?") == "age"
    assert asked_kind("Quantos anos tinha Vargas quando morreu?") == "age"
    assert asked_kind("Em quantos anos prescreve o direito?") == "duration"

def test_a_number_of_hours_is_a_length_of_time_and_the_words_asking_are_known() -> None:
    # "the minimum number of teaching hours" asks a length ("800 horas"), not a count of
    # things; "the maximum number of students" asks a count
    assert asked_kind("What is the minimum number of teaching hours per year?") == "duration"
    assert asked_kind("Qual o número mínimo de dias letivos?") == "duration"
    assert asked_kind("What is the maximum number of students in a class?") == "count"
    # the words that ask for the kind (kept as typed when a question is respelled)
    assert asking_words("¿En cuánto tiempo debe responder el controlador?") == {"cuanto",
                                                                              "tiempo"}
    assert asking_words("Qual a idade mínima para votar?") == {"idade"}
    assert asking_words("Quem decide?") == frozenset()
    # … unless the question respelled in the passages' words still asks the same kind:
    # "en qué plazo" as "en qué prazo" (the law's word), not "cuánto tiempo" as "cuánto tempo"
    assert asking_words("¿En cuánto tiempo debe responder?", "¿En cuánto tempo debe "
                        "responde?") == {"cuanto", "tiempo"}
    assert asking_words("¿y en qué plazo debe responder?",
                        "¿y en qué prazo debe responde?") == frozenset()


def test_a_fraction_is_a_share_not_a_count() -> None:
    # "por três quintos dos votos" answers "Que fração dos votos…?"; it counts no things
    quorum = "aprovados, em cada Casa do Congresso Nacional, por três quintos dos votos"
    assert asked_kind("Que fração dos votos aprova um tratado de direitos humanos?") \
        == "percent"
    assert states("percent", quorum) and not states("count", "por três quintos dos votos")
    assert states("percent", "dois terços dos membros") and states("percent", "cinco décimos")
    assert states("count", "onze Ministros") and not states("percent", "o sétimo ano")


def test_a_whole_number_in_a_table_row_is_a_count() -> None:
    # a ballot's line, a register's row: the figure's things are named by the row or its
    # header, not by a word after it (before, "How many votes did Kamala D Harris get?"
    # was "not found" with her row quoted first)
    assert states("count", "KAMALA D HARRIS | DEM | 68")
    assert states("count", "Wyoming | 383 | 1,745")
    assert not states("count", "Item | 2019 | 2020")  # years name columns
    assert not states("count", "MA | 426,0 | 0.965")  # shares and decimals count nothing
    assert not states("count", "68 | votos")  # the label itself is no count
    assert not states("count", "O candidato teve votos em 2014.")


def test_a_carried_passage_that_search_ranked_low_moves_up() -> None:
    hits = [make_hit(i) for i in range(1, 13)]
    carried = Carried((make_hit(11), make_hit(1), make_hit(20)))
    merged = with_carried(hits, carried, after=2)
    assert [h.chunk_id for h in merged][:5] == ["doc-a:1", "doc-a:2", "doc-a:11", "doc-a:20",
                                                "doc-a:3"]
    assert len(merged) == 13 and len({h.chunk_id for h in merged}) == 13


def test_the_first_asking_word_decides_what_kind_of_answer_is_asked() -> None:
    # "quando" inside a question asking who / what is a conjunction, not a date asked
    assert asked_kind("Quem deve ser avisado quando acontece um incidente de segurança?") is None
    assert asked_kind("O que quer dizer quando um professor avalia por seminários?") is None
    assert asked_kind("Onde são definidos os prazos para trancar a matrícula?") is None
    assert asked_kind("Nos órgãos colegiados, que parcela dos assentos fica com os "
                      "docentes?") == "percent"
    assert asked_kind("A partir de que idade os pais devem matricular a criança?") == "age"
    assert asked_kind("How many weeks of holidays do students get?") == "duration"
    assert asked_kind("Qual a data de entrada em vigor da lei?") == "date"
    assert asked_kind("Para que o dia letivo deve ser considerado?") is None  # a purpose


def test_only_some_kinds_can_be_answered_by_a_value_alone() -> None:
    assert asked_value("Quanto ganha por mês o Diretor-Presidente da ANPD?") == "money"
    assert asked_value("Qual o valor máximo da multa simples?") == "money"
    assert asked_value("Em quantos anos prescreve o direito de pedir indenização?") == "duration"
    assert asked_value("Em que ano foi criado o curso?") == "date"
    # English names the amount with words before it, as Portuguese does after it
    # ("o salário inicial", "the starting salary")
    assert asked_value("What is the starting salary of a public school teacher?") == "money"
    assert asked_value("What is the maximum monthly tuition a school can charge?") == "money"
    assert asked_value("What tax rate is charged on data processing services?") == "percent"
    # Spanish spells the rate "alícuota"; a rate of interest is a share, a fee's an amount
    assert asked_value("¿Cuál es la alícuota del impuesto sobre los servicios?") == "percent"
    assert asked_value("¿Cuál es la tasa de interés del préstamo?") == "percent"
    assert asked_value("Qual a taxa de juros do empréstimo?") == "percent"
    assert asked_value("Qual a taxa de inscrição?") == "money"
    assert asked_value("Qual o valor da taxa de juros do empréstimo?") == "percent"
    assert asked_value("Qual o valor da alíquota do imposto?") == "percent"
    # an event or a condition answers "quando"; "15 horas" the value of a credit
    assert asked_value("Quando nasceram os computadores atuais?") is None
    assert asked_value("Qual o valor de um crédito?") is None
    # but the value of what is only ever paid is an amount
    assert asked_value("Qual o valor da fiança em crimes comuns?") == "money"
    assert asked_value("Qual é o valor da bolsa de monitoria?") == "money"
    assert asked_value("Qual o valor do adicional noturno?") == "money"
    # … and a bounded value is an amount, whatever it is of
    assert asked_value("Qual é o valor máximo de uma compra que pode ser parcelada?") == "money"
    assert asked_value("Qual o valor mínimo do depósito?") == "money"
    # a count: any number of things, named otherwise or not, but not of hours or money
    assert asked_value("Quantos membros compõem o Conselho?") == "count"
    assert states("count", "será composto de 23 (vinte e três) representantes")
    # … or a number of them, named before it
    assert states("count", "parlamentares federais, reunidos em número não inferior a "
                           "trinta, poderão requerer o registro provisório")
    assert not states("count", "informará o número de matrícula do aluno")
    assert states("count", "constituir comissão, composta por três docentes")
    assert states("count", "Comumente escrito apenas por uma pessoa.")
    assert not states("count", "carga horária mínima anual de oitocentas horas, por 200 dias")
    assert not states("count", "no mínimo setenta e cinco por cento do total de horas")
    assert not states("count", "a partir de 2 de março de 2017 os sistemas de ensino")
    # "the maximum number of …" asks how many, as "quantos" does; of days or hours, how
    # long; "o número de matrícula" asks a code, no count
    assert asked_value("What is the maximum number of students in a class?") == "count"
    assert asked_value("Qual é o número máximo de alunos por turma?") == "count"
    assert asked_value("¿Cuál es el número total de consejeros?") == "count"
    assert asked_value("What is the minimum number of days in the school year?") == "duration"
    assert asked_value("Qual o número mínimo de horas por dia?") == "duration"
    assert asked_value("Qual o número de matrícula do aluno?") is None
    assert asked_value("What is the number of the policy?") is None
    # a prison term is the length of an imprisonment, stated beside it; another length of
    # time ("mandato de 2 anos", "no prazo de 2 anos" after "sob pena de") is none
    assert asked_value("Qual é a pena de prisão para quem vaza dados?") == "prison"
    assert asked_value("¿Cuántos años de cárcel se aplican?") == "prison"
    assert asked_value("How many years in prison for leaking data?") == "prison"
    assert states("prison", "Pena - reclusão, de dois a cinco anos, e multa.")
    assert states("prison", "pena de 3 (três) anos de detenção")
    assert states("prison", "imprisonment for up to 5 years")
    assert not states("prison", "III - terão mandato de 2 (dois) anos, permitida 1 recondução.")
    assert not states("prison", "sob pena de responsabilidade, no prazo de 2 anos")
    # how soon something happens to a prisoner is no length of imprisonment (CF art. 5º, LXV)
    assert not states("prison", "LXV - a prisão ilegal será imediatamente relaxada pela "
                                "autoridade judiciária;")
    assert states("duration", "a prisão ilegal será imediatamente relaxada")
    # a penalty asked is answered by its measure: a term, a fine or a share, not by "a
    # pena de reclusão" alone; "Quais penas…?" asks for a list
    assert asked_value("Qual a pena para o crime de racismo?") == "penalty"
    assert asked_value("What is the penalty for leaking personal data?") == "penalty"
    assert asked_kind("Quais penas são proibidas pela Constituição?") is None
    assert not states("penalty", "constitui crime inafiançável, sujeito à pena de reclusão")
    assert states("penalty", "Pena - reclusão, de dois a cinco anos, e multa.")
    assert states("penalty", "multa simples, de até 2% (dois por cento) do faturamento")

    # a physical measure
    assert asked_value("Qual a profundidade máxima alcançada pelas perfurações?") == "measure"
    assert states("measure", "em lâmina d'água de 2.000 m, a 300 km da costa")
    assert not states("measure", "em lâmina d'água profunda, longe da costa")
    assert asked_value("What is the maximum takeoff weight of the 737 MAX?") == "measure"
    assert asked_value("What is the length of the runway?") == "measure"
    assert asked_kind("What is the weighting of the criteria?") is None

    # "may" and "march" are verbs as often as months: a date with a day
    assert not states("date", "The FAA will consider all comments received by the closing "
                              "date and may amend this proposed AD.")
    assert states("date", "comments must be received by May 5.")
    assert states("date", "signed on 3rd March in Washington")

    # a mark or score is a number beside it; the law that lets a ministry set one states none
    assert asked_value("Qual a nota mínima no Enem para entrar em uma universidade federal?") \
        == "score"
    assert asked_value("What is the minimum Enem score to get into a federal university?") \
        == "score"
    assert asked_value("¿Cuál es la nota mínima en el Enem para entrar en una universidad?") \
        == "score"
    assert asked_kind("Qual a pontuação disponibilizada pela SBC?") is None  # how it scores
    assert states("score", "será aprovado o acadêmico que obtiver nota igual ou superior a "
                           "nove (9,0) na avaliação")
    assert states("score", "a banca atribuirá uma nota final de zero vírgula zero (0,0) a dez")
    assert states("score", "candidates scoring 450 points or more")
    assert not states("score", "O Ministério da Educação poderá estabelecer nota mínima em "
                               "exame nacional aplicado aos concluintes do ensino médio")

    # a speed is so much per unit of time, on the road or in a machine; a speed-up is a factor
    assert asked_value("Qual a velocidade máxima permitida nas rodovias?") == "speed"
    assert states("speed", "a velocidade máxima será de 110 km/h nas rodovias")
    assert states("speed", "embeds 11.5 chunks/s on two cores")
    assert states("speed", "reads about 950 pages per second")
    assert not states("speed", "nos termos do regulamento, em duas horas")
    assert asked_kind("What speed-up does OTSL give over HTML in inference?") is None


def test_every_value_kind_has_a_name_for_the_user() -> None:
    # "the question asks for {a duration}, and no passage found states one"
    assert {name for name, _, _ in KINDS} <= set(VALUE_NAMES)
    # a length of time named by its noun
    assert asked_value("Qual a duração da licença à gestante?") == "duration"
    assert asked_value("Qual é a jornada de trabalho normal?") == "duration"
    assert asked_value("Qual a carga horária mínima anual do ensino médio?") == "duration"
    assert asked_value("Quem define a duração do mandato?") is None


def test_one_of_a_time_unit_is_a_duration() -> None:
    assert states("duration", "o aluno passará talvez um ano ou mais escrevendo")
    assert states("count", "poderá ser solicitado uma única vez")
    assert not states("duration", "durante a semana de provas")
    assert states("duration", "aprovado até o primeiro dia do período letivo")  # a deadline
    assert states("duration", "concedeu a Excelerate Energy A 15-YR Charter de tempo")
    assert states("duration", "a ten-year lease")
    assert states("date", "o estágio se dá durante o terceiro ano do curso")  # a school year


def test_a_unit_about_a_sibling_of_the_asked_thing_contrasts_with_the_question() -> None:
    question = ("Quantos dias de efetivo trabalho escolar, no mínimo, o ano letivo da "
                "educação básica deve ter?")
    assert contrasts(question, "Art. 47. Na educação superior, o ano letivo regular, "
                               "independente do ano civil, tem, no mínimo, duzentos dias de "
                               "trabalho acadêmico efetivo")
    assert not contrasts(question, "A educação básica, nos níveis fundamental e médio, será "
                                   "organizada de acordo com as seguintes regras comuns:\n"
                                   "I - a carga horária mínima anual será de oitocentas horas, "
                                   "distribuídas por um mínimo de duzentos dias de efetivo "
                                   "trabalho escolar")
    # a verb or an adverb after a word of the question does not qualify it
    assert not contrasts("Quais despesas contam como manutenção do ensino?",
                         "as despesas previstas no orçamento da escola")
    assert not contrasts("Para quais finalidades os dados ainda podem ser guardados?",
                         "Os dados pessoais serão eliminados após o término")
    assert not contrasts("A empresa pode guardar os dados depois de terminar o tratamento?",
                         "Os dados pessoais serão eliminados após o término")
    assert not contrasts("¿Se pueden guardar los datos después del tratamiento?",
                         "Los datos personales serán eliminados")
    # the thing a "qual é…" question asks to name is answered by one of its kind
    assert not contrasts("Qual é a natureza jurídica da ANPD?",
                         "Fica criada a ANPD, autarquia de natureza especial, dotada de autonomia")
    assert contrasts("Qual a carga horária mínima da educação básica?",
                     "a carga horária da educação superior")


def test_who_makes_up_a_body_is_not_answered_by_what_it_does() -> None:
    assert asks_members("Quem tem assento no Conselho Nacional de Proteção de Dados?")
    assert asks_members("Who sits on the National Data Protection Council?")
    assert not asks_members("Quem deve zelar pela proteção dos dados pessoais?")  # a task
    assert lists_tasks(["Art. 58-B. Compete ao Conselho:", "I - propor diretrizes;",
                        "II - elaborar relatórios;", "III - sugerir ações;"])
    assert not lists_tasks(["Art. 58-A. O Conselho será composto de 23 representantes:",
                            "I - 5 (cinco) do Poder Executivo federal;",
                            "II - 1 (um) do Senado Federal;"])
    assert not lists_tasks(["Art. 89. Dele participam:", "I - o Vice-Presidente da República;",
                            "II - o Presidente da Câmara dos Deputados;"])
    # one line of such a list is one thing the body does, no member of it
    assert is_task("V - disseminar o conhecimento sobre a proteção de dados pessoais")
    assert not is_task("II - 1 (um) do Senado Federal;")
    assert asks_members("¿Quiénes integran el Consejo Nacional de Protección de Datos?")


def test_how_much_and_how_many_ask_and_are_no_topic() -> None:
    # "much" counted as a question term no passage had: coverage 6/7 on a fare's row
    assert terms("How much was the train fare to New York?") == terms("train fare New York")
    assert "many" not in terms("How many people live there?")
    assert terms("¿Cuánta agua usa?") == terms("agua usa")


def test_a_table_cell_takes_the_unit_its_header_names() -> None:
    # "Qual o custo…?" is answered only by an amount: the row's "98.400,00" is one under
    # "Custo (R$)" (before, the gate said no passage stated an amount and abstained)
    table = "Fase | Custo (R$) | Prazo\nImplantação final | 98.400,00 | 18 meses"
    assert states("money", table)
    assert not states("money", table.split("\n")[1])  # the row alone names no currency
    assert states("percent", "Região | Taxa (%)\nSul | 12,5")
    assert not states("money", "Fase | Prazo (meses)\nFinal | 18")


def test_a_question_names_a_table_row_by_its_label() -> None:
    assert names_row("What was the total for Arizona?", "Arizona | 2,303 | 27,087")
    assert names_row("Qual a população de Porto Alegre?", "Porto Alegre | 1.332.570 | Sul")
    assert names_row("What was the rice production in Maranhão (MA)?", "MA | 426,0 | 467,7")
    assert names_row("What is the data type of CLIENT_PORT?", "CLIENT_PORT | INTEGER | Port")
    # a short label in capitals only as written; a label of figures names nothing; a
    # word inside another word is not the label; prose is no row
    assert not names_row("Qual é a má notícia?", "MA | 426,0 | 467,7")
    assert not names_row("What about 4 encoder layers?", "4 | 2 | OTSL | 0.938")
    assert not names_row("What about Arizonans?", "Arizona | 2,303 | 27,087")
    assert not names_row("What about Arizona?", "Arizona has 2,303 permits.")


def test_a_unit_naming_both_cases_of_the_asked_thing_does_not_narrow_it() -> None:
    question = "A quais princípios a administração pública deve obedecer?"
    assert not narrows(question, "Art. 37. A administração pública direta e indireta de "
                                 "qualquer dos Poderes obedecerá aos princípios de legalidade")
    assert narrows(question, "A administração pública direta deverá publicar seus atos")
    assert narrows("Quando é permitido o tratamento de dados pessoais?",
                   "O tratamento de dados pessoais sensíveis somente poderá ocorrer")
    assert not narrows("Quais são os Poderes da União?", "São Poderes da União, independentes "
                       "e harmônicos entre si, o Legislativo, o Executivo e o Judiciário.")
    # a verb's future goes on the sentence as "poderá" does: "ocorrerá" is no qualifier
    assert not narrows("Em que casos o tratamento de dados pessoais chega ao fim?",
                       "Art. 15. O término do tratamento de dados pessoais ocorrerá nas "
                       "seguintes hipóteses:")
    assert narrows("Quais dados a instituição financeira deve guardar?",
                   "A instituição financeira estrangeira deverá manter os dados")


def test_words_side_by_side_are_not_paired_across_punctuation_or_lines() -> None:
    """A unit's lead and its chapter's title are read together: "A educação superior tem
    por finalidade:" then "Da educação superior" said "finalidade educação", the pair of
    "Qual é a finalidade da educação?", as art. 2º, which answers it, does not."""
    question = "Qual é a finalidade da educação?"
    assert shared_phrases(question, "A educação superior tem por finalidade:\n"
                                    "DA EDUCAÇÃO SUPERIOR") == 0.0
    assert shared_phrases(question, "A finalidade, educação e cultura") == 0.0
    assert shared_phrases(question, "a finalidade da educação nacional") == 1.0
    assert shared_phrases("Quais são os direitos do titular de dados pessoais sensíveis?",
                          "O tratamento de dados pessoais sensíveis") == 0.5


def test_an_apposition_after_the_asked_thing_does_not_narrow_it() -> None:
    """Past a comma the sentence says something else of the thing: "A educação infantil,
    primeira etapa da educação básica, tem como finalidade …" answers "Qual a finalidade da
    educação infantil?" (art. 29 of the LDB), it is no special case of it."""
    question = "Qual a finalidade da educação infantil?"
    assert not narrows(question, "Art. 29. A educação infantil, primeira etapa da educação "
                                 "básica, tem como finalidade o desenvolvimento integral")
    assert narrows(question, "A educação infantil indígena terá como finalidade")
    # a preposition between the phrase and the word after it is still read through
    assert narrows("Quando é permitido o tratamento de dados pessoais?",
                   "O tratamento de dados pessoais pelas pessoas jurídicas de direito público")


def test_the_source_named_in_a_question_is_no_topic_but_what_follows_it_is() -> None:
    assert without_qualifier("Quais são os direitos sociais previstos na Constituição?") == \
        "Quais são os direitos sociais?"
    assert without_qualifier("Quais direitos são garantidos pela Constituição aos presos?") == \
        "Quais direitos são aos presos?"
    assert without_qualifier("Quais os deveres do encarregado previstos na LGPD para empresas "
                             "pequenas?") == "Quais os deveres do encarregado para empresas pequenas?"
    assert without_qualifier("Quais os prazos na lei de proteção de dados?") == "Quais os prazos?"
    assert without_qualifier("Qual a carga horária mínima, segundo a Lei nº 9.394, de "
                             "1996?") == "Qual a carga horária mínima?"
    assert without_qualifier("¿Qué derechos tiene el titular según la LGPD?") == \
        "¿Qué derechos tiene el titular?"
    # a participle about something else stays: "previstos no art. 5º" names no source
    assert without_qualifier("Quais direitos estão previstos no art. 5º?") == \
        "Quais direitos estão previstos no art. 5º?"


def test_a_value_is_of_the_question_words_beside_it_not_of_the_asking_words() -> None:
    question = "Quanto tempo dura o mandato de um senador?"
    asked = terms(question)
    assert stated_beside(question, "duration", "elegerão três Senadores, com mandato de oito "
                         "anos.", asked, terms)
    assert not stated_beside(question, "duration", "desde que o afastamento não ultrapasse "
                             "cento e vinte dias por sessão legislativa.", asked, terms)
    # "percentual" asks for the kind and "mínima" bounds any value: neither says what a
    # value is of
    question = "Que percentual do PIB o país deve investir em educação?"
    assert not stated_beside(question, "percent", "a relação dos alunos com faltas acima de "
                             "cinquenta por cento do percentual permitido", terms(question), terms)
    # a count is of the things it counts; a unit is what a value is in, not what it is of
    question = "Quantos senadores cada Estado elege?"
    assert stated_beside(question, "count", "elegerão três Senadores, com mandato",
                         terms(question), terms)
    question = "Qual é o valor do salário mínimo?"
    assert not stated_beside(question, "money", "pensão mensal vitalícia no valor de dois "
                             "salários mínimos", terms(question), terms)
    question = "Qual a idade mínima para fazer o exame supletivo?"
    assert not stated_beside(question, "age", "O ensino médio, com duração mínima de três anos",
                             terms(question), terms)
    assert stated_beside(question, "age", "a inscrição no exame supletivo é aos dezoito anos",
                         terms(question), terms)


def test_a_question_asked_yes_or_no_about_a_rule_is_told_from_other_questions() -> None:
    for question in ("O operador pode tratar os dados do jeito que quiser?",
                     "É permitido criar escolas experimentais?",
                     "O controlador é obrigado a indicar um encarregado?",
                     "Uma pessoa que não é aluna regular pode se matricular em disciplinas?",
                     "¿Puede el titular pedir la revisión de una decisión?",
                     "Is the controller required to appoint a data protection officer?"):
        assert asks_norm(question), question
    for question in ("A partir de que idade um adolescente pode trabalhar como aprendiz?",
                     "O seguro contra acidentes de trabalho fica a cargo de quem?",
                     "Há quantos anos um estrangeiro precisa morar no Brasil?",
                     "Nas relações de consumo, que regras podem valer?",
                     "¿Con base en qué principios debe impartirse la enseñanza?",
                     "What can the data subject ask the controller?",
                     "O habeas data é gratuito?"):  # a yes or no, but about no rule
        assert not asks_norm(question), question
    assert states_norm("Art. 39. O operador deverá realizar o tratamento segundo as instruções")
    assert states_norm("Esta Lei aplica-se a qualquer operação de tratamento")
    assert states_norm("O titular dos dados tem direito a solicitar a revisão")
    assert not states_norm("O término do tratamento de dados pessoais ocorrerá nas hipóteses:")
    assert not states_norm("As obrigações do controlador")  # a noun, no duty stated


def test_a_list_denying_what_the_question_asks_may_be_done_opposes_it() -> None:
    question = "Sobre o que a União pode cobrar impostos?"
    assert opposes(question, "Sem prejuízo de outras garantias asseguradas ao contribuinte, é "
                   "vedado à União, aos Estados, ao Distrito Federal e aos Municípios:")
    assert not opposes(question, "Compete à União instituir impostos sobre:")
    # asked what may not be done, a lead that grants opposes, one that denies does not
    question = "O que não pode ser abolido por emenda constitucional?"
    assert not opposes(question, "Não será objeto de deliberação a proposta de emenda "
                       "tendente a abolir:")
    assert opposes(question, "A Constituição poderá ser emendada mediante proposta:")
    # in Spanish and English too; a question asking neither opposes nothing
    assert opposes("¿Qué no se puede abolir por enmienda?", "Compete à União instituir:")
    assert opposes("What can the Union tax?", "É vedado à União:")
    assert not opposes("Quais são os direitos sociais?", "É vedado à União:")
    # "não" before no verb, "not" after none, and the contraction "no" deny nothing
    question = "De que formas a educação básica pode ser organizada?"
    assert not opposes(question, "A educação básica poderá organizar-se em séries anuais, "
                       "ciclos, grupos não-seriados, com base na idade")
    assert not opposes("What can be counted?", "Expenses of not less than 25 % count:")
    assert not opposes("O que a União pode cobrar no Brasil?", "Compete à União instituir "
                       "impostos no território nacional sobre:")


def test_asked_what_does_not_count_a_list_of_what_counts_opposes_it() -> None:
    """"¿y cuáles no cuentan?" after the LDB's art. 70 (what counts as spending on
    education) asks for art. 71's "Não constituirão despesas …:": the question denies
    though it asks no permission ("no cuentan", "não contam", "não se incluem")."""
    counts = "Considerar-se-ão como de manutenção e desenvolvimento do ensino as despesas:"
    does_not = "Não constituirão despesas de manutenção e desenvolvimento do ensino:"
    for question in ("¿y cuáles no cuentan?", "e quais não contam?",
                     "O que não se inclui nessas despesas?", "Which do not count?",
                     "¿Qué gastos no se consideran de mantenimiento?"):
        assert opposes(question, counts) and not opposes(question, does_not), question
    assert not opposes("Quais despesas contam?", does_not)  # it asks no permission


def test_how_many_asks_a_count_not_a_list_in_every_language() -> None:
    """"¿Cuántos directores tiene el Consejo Directivo?" is answered by "5 (cinco) diretores",
    as "Quantos diretores tem…?" is, not by the list of what the ANPD is made of; a plural
    after "quais"/"cuáles"/"which"/"que" still asks for several things."""
    for question in ("¿Cuántos directores tiene el Consejo Directivo de la ANPD?",
                     "Quantos diretores tem o Conselho Diretor da ANPD?",
                     "¿Cuántas horas diarias de clase debe tener la jornada?",
                     "How many directors does the Board have?"):
        assert not wants_many(question), question
    for question in ("¿Cuáles son los derechos del titular?", "¿En qué casos se permite?",
                     "Que princípios regem o ensino?", "Which courses does it comprise?"):
        assert wants_many(question), question


def test_que_after_a_noun_relates_and_asks_for_no_list() -> None:
    """"Os sistemas que tratam dados pessoais precisam ser projetados pensando em segurança?"
    asks yes or no (art. 49: "devem ser estruturados de forma a atender aos requisitos de
    segurança"); its "que tratam dados" read as "Que dados…?" made every list come first
    (art. 11's hypotheses). "que" asks where a clause starts, or accented in Spanish."""
    for question in ("Os sistemas que tratam dados pessoais precisam ser seguros?",
                     "A empresa que recebe dados de clientes responde por danos?",
                     "Do the systems which process personal records need audits?"):
        assert not wants_many(question), question
    for question in ("Em que situações a empresa se livra da responsabilidade?",
                     "Nos órgãos colegiados, que parcelas dos assentos ficam com os docentes?",
                     "O que as escolas devem garantir aos alunos com deficiência?",
                     "¿Con base en qué principios debe impartirse la enseñanza?",
                     "Into which areas of knowledge is high school organized?"):
        assert wants_many(question), question


def test_spanish_asks_for_an_amount_as_portuguese_does() -> None:
    """"¿Cuál es la multa…?", "¿Cuánto ganan…?" ask for money as "Qual a multa…?" and
    "Quanto ganham…?" do: a passage naming no amount does not answer them."""
    for portuguese, spanish in (("Qual a multa por atraso?", "¿Cuál es la multa por retraso?"),
                                ("Qual a mensalidade da escola?",
                                 "¿Cuál es la mensualidad de la escuela?"),
                                ("Quanto ganham os diretores?", "¿Cuánto ganan los directores?"),
                                ("Qual a remuneração do diretor?",
                                 "¿Cuál es la remuneración del director?")):
        assert asked_value(portuguese) == asked_value(spanish) == "money", spanish


def test_asked_from_when_a_start_answers_as_a_date_does() -> None:
    """"A partir de quando as medidas de segurança precisam ser observadas?" is answered by
    art. 46, § 2º: "… deverão ser observadas desde a fase de concepção do produto", a start
    and no date; a bare "Quando…?" is not (a condition answers it as often)."""
    for question in ("A partir de quando as medidas de segurança precisam ser observadas?",
                     "Desde quando podem ser aplicadas as sanções?",
                     "¿Desde cuándo pueden aplicarse las sanciones?",
                     "Since when do the security measures apply?"):
        assert asked_kind(question) == "start", question
        assert asked_value(question) is None  # no value only: an event answers it too
    assert asked_kind("Quando a lei entra em vigor?") == "date"
    assert states("start", "deverão ser observadas desde a fase de concepção do produto")
    assert states("start", "a contar da data de sua publicação")
    assert states("start", "I-A – dia 1º de agosto de 2021")  # a date too
    assert not states("start", "desde que haja o consentimento do titular")  # a condition
    assert not states("date", "deverão ser observadas desde a fase de concepção do produto")


def test_spanish_asks_for_a_length_of_time_or_a_date_as_portuguese_does() -> None:
    for portuguese, spanish, kind in (
            ("Qual a duração do mandato?", "¿Cuál es la duración del mandato?", "duration"),
            ("Quantos semestres dura o curso?", "¿Cuántos semestres dura el curso?", "duration"),
            ("Em que dia se celebra?", "¿En qué día se celebra?", "date"),
            ("Qual a data da posse?", "¿Qué fecha es la toma de posesión?", "date")):
        assert asked_kind(portuguese) == asked_kind(spanish) == kind, spanish


def test_a_modal_verb_is_no_term_a_passage_must_share() -> None:
    """"Posso pedir para apagarem meus dados?" ("may I") stems as "possível" ("poss"): on
    the bundled LGPD excerpt it led with art. 18, § 4º, I ("… sempre que possível, o
    agente") instead of art. 18. Modals are no content, as "pode" and "deve" are; the
    adjective still is."""
    for question in ("Posso pedir para apagarem meus dados?",
                     "Que dados a empresa possa guardar?", "¿Puedo pedir que borren mis datos?"):
        assert not {"poss", "pued"} & terms(question), terms(question)
    assert "pedir" in " ".join(terms("Posso pedir para apagarem meus dados?"))
    assert "poss" in terms("sempre que possível, o agente")


def test_spanish_plural_asking_words_are_no_terms() -> None:
    """"¿Cuáles…?" and "¿Quiénes…?" ask, as "cuál" and "quién" do: a follow-up carried
    "Cuáles" as its topic ("¿y en qué plazo…? Cuáles direitos titular") and the gate counted
    it as a word the law never uses."""
    assert terms("¿Cuáles son los derechos del titular?") == terms("derechos titular")
    assert terms("¿Quiénes son los agentes de tratamiento?") == terms("agentes tratamiento")


def test_asked_when_a_time_limit_starts_a_start_answers_not_a_length() -> None:
    """"A partir de quando conta o prazo para reclamar de um vício oculto?" asks when the
    time limit starts (the consumer code's art. 26, § 3º: "o prazo decadencial inicia-se no
    momento em que ficar evidenciado o defeito"), not how long it is, though it names a
    "prazo"; the law says when a count starts with "inicia-se", "no momento em que",
    "contado de"."""
    for question in ("A partir de quando conta o prazo para reclamar de um vício oculto?",
                     "e a partir de quando esses prazos contam?",
                     "¿Desde cuándo corre el plazo?"):
        assert asked_kind(question) == "start", question
    assert asked_kind("Qual o prazo para reclamar de um vício oculto?") == "duration"
    for stated in ("o prazo decadencial inicia-se no momento em que ficar evidenciado o defeito",
                   "Inicia-se a contagem do prazo decadencial a partir da entrega efetiva",
                   "terá validade pelo prazo de dez dias, contado de seu recebimento",
                   "el plazo comienza en el momento en que se entrega el producto"):
        assert states("start", stated), stated
    assert not states("start", "O consumidor pode exigir a substituição do produto.")


def test_a_multiple_of_an_amount_answers_how_much() -> None:
    """"Quanto recebe de volta quem foi cobrado em quantia indevida?" is answered by "por
    valor igual ao dobro do que pagou em excesso" (the consumer code's art. 42): a multiple of
    the amount paid, which names no currency."""
    assert asked_value("Quanto recebe de volta quem foi cobrado em quantia indevida?") == "money"
    assert states("money", "tem direito à repetição do indébito, por valor igual ao dobro do "
                           "que pagou em excesso")
    assert states("money", "a quantia será devolvida em dobro")
    assert not states("money", "O consumidor cobrado em quantia indevida tem direito à "
                               "repetição do indébito.")


def test_what_a_law_counts_as_something_is_asked_for_its_definition() -> None:
    """"Quem a lei considera fornecedor?" and "O que conta como serviço para o código?" ask
    what the law defines ("Fornecedor é toda pessoa…", "§ 2º Serviço é qualquer
    atividade…"); "A lei considera crime…?" is asked yes or no."""
    fornecedor = defined_thing("Quem a lei considera fornecedor?")
    assert fornecedor.terms == terms("fornecedor")
    assert defines("Art. 3º Fornecedor é toda pessoa física ou jurídica, pública ou privada",
                   fornecedor)
    servico = defined_thing("O que conta como serviço para o código?")
    assert servico.terms == terms("serviço")
    assert defines("§ 2º Serviço é qualquer atividade fornecida no mercado de consumo", servico)
    assert defined_thing("O que a LGPD considera dado sensível?").terms == terms("dado sensível")
    assert defined_thing("What does the act consider personal data?").terms == terms(
        "personal data")
    assert not defined_thing("A lei considera crime o vazamento de dados?")
    assert not defined_thing("Quais produtos são considerados impróprios para consumo?")


def test_a_predicate_of_the_asked_thing_does_not_define_it() -> None:
    """"O serviço é defeituoso quando …" defines a defective service, not a service; "O
    serviço não é considerado defeituoso …" defines nothing (the consumer code's art. 14;
    before, both were taken for definitions of "serviço" and led "O que conta como
    serviço…?")."""
    servico = defined_thing("O que é serviço?")
    assert not defines("§ 1º O serviço é defeituoso quando não fornece a segurança", servico)
    assert not defines("§ 2º O serviço não é considerado defeituoso pela adoção de novas "
                       "técnicas.", servico)
    assert defines("§ 1º O serviço é defeituoso quando não fornece a segurança",
                   defined_thing("O que é um serviço defeituoso?"))


def test_a_definition_opening_with_its_copula_defines_with_its_division_title() -> None:
    """The consumer code defines by the copula first: "§ 1º É enganosa qualquer modalidade
    de informação … de caráter publicitário", "§ 2º É abusiva, dentre outras a publicidade
    discriminatória …" under "DA PUBLICIDADE", "§ 6º São impróprios ao uso e consumo: …".
    The division's title says what the head is of; "É proibida toda publicidade enganosa"
    defines what is forbidden, not misleading advertising."""
    enganosa = defined_thing("O que é publicidade enganosa?")
    assert defines("§ 1º É enganosa qualquer modalidade de informação", enganosa,
                   context="DA PUBLICIDADE")
    assert not defines("§ 1º É enganosa qualquer modalidade de informação", enganosa)
    assert not defines("Art. 37. É proibida toda publicidade enganosa ou abusiva.", enganosa,
                       context="DA PUBLICIDADE")
    assert defines("§ 2º É abusiva, dentre outras a publicidade discriminatória",
                   defined_thing("O que é publicidade abusiva?"), context="DA PUBLICIDADE")
    assert defines("§ 6º São impróprios ao uso e consumo:",
                   defined_thing("O que é impróprio ao uso e consumo?"))


def test_asked_when_a_law_takes_effect_only_a_date_answers() -> None:
    """"Quando o Código de Defesa do Consumidor entrou em vigor?" is answered by a date or
    so long after the publication, not by art. 1º's "O presente código estabelece normas…"
    (which was quoted as its answer); a bare "Quando…?" may be answered by a condition."""
    for question in ("Quando o Código de Defesa do Consumidor entrou em vigor?",
                     "Quando entra em vigor uma lei que altera o processo eleitoral?",
                     "¿Cuándo entró en vigor la ley?", "When did the act take effect?"):
        assert asked_value(question) == "date", question
    assert asked_value("Quando o comerciante é responsável pelo produto?") is None
    assert states("date", "A lei que alterar o processo eleitoral entrará em vigor na data de "
                          "sua publicação")
    assert not states("date", "O presente código estabelece normas de proteção e defesa do "
                              "consumidor, de ordem pública e interesse social")


def test_a_when_after_the_asking_word_is_a_condition_not_a_date_asked() -> None:
    """"Quais opções o consumidor tem quando um serviço é mal feito?" asks for a list; its
    "quando" joins the condition. Read as a date asked, it ranked first the consumer code's
    art. 4º, whose amendment note has a date. "Quando…?" and "Até quando…?" still ask one."""
    assert asked_kind("Quais opções o consumidor tem quando um serviço é mal feito?") is None
    assert asked_kind("What does the authority take into account when deciding a penalty?") is None
    assert asked_kind("Quando a lei entra em vigor?") == "date"
    assert asked_kind("Até quando o fabricante tem que oferecer peças?") == "date"
    assert asked_kind("Qual o prazo quando o produto é durável?") == "duration"


def test_asked_yes_or_no_whether_something_may_be_done_no_value_is_asked() -> None:
    """"O consumidor pode quitar o financiamento antes do prazo?" is about a time limit, it
    does not ask for one: the consumer code answers it with "É assegurado ao consumidor a
    liquidação antecipada do débito" (art. 52, § 2º), which states none. Read as asking a
    length, it was "not found"."""
    assert asked_kind("O consumidor pode quitar o financiamento antes do prazo?") is None
    assert asked_value("A empresa pode cobrar multa de mais de dois por cento?") is None
    assert asked_kind("Qual o prazo para quitar o financiamento?") == "duration"
    assert asked_kind("Em quantos dias o consumidor pode desistir da compra?") == "duration"
