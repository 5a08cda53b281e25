"""Rules without a model: explicit commands (PT/EN/ES), stated facts, slots, sensitivity."""

from __future__ import annotations

import pytest

from desktop_app.memory.categories import classify, sensitive_category
from desktop_app.memory.patterns import (
    extract_stated_facts,
    parse_command,
    same_fact_key,
)
from desktop_app.memory.types import StoredMessage, UserMessage
from desktop_app.text.sentences import chat_sentences


def said(text: str, replying_to: str | None = None) -> UserMessage:
    return UserMessage("conv", "msg", text, "2026-01-01T00:00:00Z", replying_to)


@pytest.mark.parametrize(("text", "fact", "language"), [
    ("Lembre que meu nome é Ana Souza.", "Meu nome é Ana Souza.", "pt"),
    ("lembre-se de que eu trabalho na Petrobras", "Eu trabalho na Petrobras.", "pt"),
    ("Por favor, lembre-se que prefiro respostas curtas", "Prefiro respostas curtas.", "pt"),
    ("Remember that my dentist is Dr. Zhang", "My dentist is Dr. Zhang.", "en"),
    ("please remember: I'm vegetarian", "I'm vegetarian.", "en"),
    ("Recuerda que vivo en Madrid.", "Vivo en Madrid.", "es"),
])
def test_remember_commands_in_three_languages(text: str, fact: str, language: str) -> None:
    command = parse_command(text)
    assert command is not None
    assert (command.kind, command.text, command.language) == ("remember", fact, language)


def test_a_question_after_a_command_is_answered_not_stored() -> None:
    command = parse_command("Remember that my dentist is Dr. Zhang. What does LGPD say about health data?")
    assert command is not None
    assert command.text == "My dentist is Dr. Zhang."
    assert command.rest == "What does LGPD say about health data?"


@pytest.mark.parametrize("text", ["remember when we talked about LGPD?", "Você lembra do prazo?",
                                  "What should I remember about art. 18?"])
def test_questions_are_not_commands(text: str) -> None:
    assert parse_command(text) is None


@pytest.mark.parametrize(("text", "target"), [
    ("Esqueça que eu moro em Campinas", "eu moro em Campinas"),
    ("forget about my dentist", "my dentist"),
    ("Olvida que trabajo en Telefónica.", "trabajo en Telefónica"),
])
def test_forget_commands(text: str, target: str) -> None:
    command = parse_command(text)
    assert command is not None and (command.kind, command.text) == ("forget", target)


@pytest.mark.parametrize("text", ["forget everything", "Esqueça tudo.", "olvida todo"])
def test_forget_everything_is_its_own_command(text: str) -> None:
    command = parse_command(text)
    assert command is not None and command.kind == "forget_all"


def test_stated_facts_get_a_slot_per_clause() -> None:
    facts = extract_stated_facts(said("Meu nome é Ana Souza e eu moro em Campinas."))
    assert [(f.text, f.attribute, f.value) for f in facts] == [
        ("Meu nome é Ana Souza.", "name", "Ana Souza"),
        ("Eu moro em Campinas.", "home", "Campinas"),
    ]


@pytest.mark.parametrize(("text", "attribute", "value"), [
    ("I work at TechCorp Industries.", "employer", "TechCorp Industries"),
    ("Eu trabalho na Petrobras.", "employer", "Petrobras"),
    ("Trabajo en Telefónica.", "employer", "Telefónica"),
    ("My cell is 503-555-8924.", "phone", "503-555-8924"),
    ("Meu e-mail é ana@exemplo.com.br", "email", "ana@exemplo.com.br"),
    ("Mi nombre es Juan.", "name", "Juan"),
    ("I'm employed full-time as a software engineer at TechCorp Industries.", "employer",
     "TechCorp Industries"),
])
def test_first_person_statements(text: str, attribute: str, value: str) -> None:
    (fact,) = extract_stated_facts(said(text))
    assert (fact.attribute, fact.value, fact.extracted_by) == (attribute, value, "pattern")


def test_subject_tells_my_dentist_from_my_fathers_cardiologist() -> None:
    (dentist,) = extract_stated_facts(said("My dentist is Dr. Zhang."))
    (cardiologist,) = extract_stated_facts(said("My father's cardiologist is Dr. Lima."))
    (pai,) = extract_stated_facts(said("O cardiologista do meu pai é o Dr. Lima."))
    assert (dentist.subject, dentist.attribute, dentist.value) == ("user", "dentist", "Dr. Zhang")
    assert (cardiologist.subject, cardiologist.attribute) == ("father", "cardiologist")
    assert (pai.subject, pai.attribute, pai.value) == ("pai", "cardiologista", "Dr. Lima")


def test_negations_and_questions_state_nothing() -> None:
    assert extract_stated_facts(said("My name is not John.")) == []
    assert extract_stated_facts(said("Is my flight on time?")) == []
    assert extract_stated_facts(said("Yes, thanks.")) == []


def test_an_identifier_the_user_typed_is_kept_with_the_question_it_answered() -> None:
    (fact,) = extract_stated_facts(said(
        "Sure, it's 4429853327.",
        replying_to="Our routing number is 123006800. What's your checking account number?"))
    assert fact.text == "Sure, it's 4429853327."
    assert "checking account number" in fact.search_context  # for search only
    assert "checking" not in fact.text  # the fact itself is only the user's words
    # repeating the agent's number back as a question states nothing new (conversation
    # recall finds the agent's turn itself)
    assert extract_stated_facts(said(
        "Let me write that down... 4429853327, right?",
        replying_to="Your new checking account number is 4429853327.")) == []


def test_commands_are_not_extracted_twice() -> None:
    assert extract_stated_facts(said("Lembre que meu nome é Ana.")) == []


def test_only_user_messages_can_be_extracted() -> None:
    assistant = StoredMessage("m1", "c", 1, "assistant", "My name is HAL.", "2026-01-01T00:00:00Z")
    with pytest.raises(TypeError):
        extract_stated_facts(assistant)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "category"), [
    ("I have diabetes and take insulin.", "health"),
    ("Tenho asma.", "health"),
    ("Sou católica praticante.", "religion"),
    ("I use a wheelchair.", "disability"),
    ("Votei no partido verde.", "political_opinion"),
    ("My checking account number is 4429853327.", "financial_account"),
    ("Meu cartão é 4111 1111 1111 1111", "financial_account"),
])
def test_sensitive_categories(text: str, category: str) -> None:
    assert sensitive_category(text) == category
    assert classify(text) == (category, True)


@pytest.mark.parametrize("text", [
    "I opened a checking account.",  # an account, but no account number
    "Meu escritório fica em Pinheiros.",  # "pin" is not a PIN
    "The store is on the right.",
    "My dentist is Dr. Zhang.",
])
def test_ordinary_facts_are_not_sensitive(text: str) -> None:
    assert sensitive_category(text) is None


def test_sentences_do_not_split_on_titles_or_ellipses() -> None:
    assert chat_sentences("Meu dentista é o Dr. Zhang. Ele atende na Av. Paulista. Ok... sim.") == [
        "Meu dentista é o Dr. Zhang.", "Ele atende na Av. Paulista.", "Ok... sim."]


def test_same_fact_key_ignores_case_accents_and_punctuation() -> None:
    assert same_fact_key("Eu trabalho na Petrobrás.") == same_fact_key("trabalho na petrobras")


@pytest.mark.parametrize(("text", "subject", "attribute", "value"), [
    ("Yes, my wife's Honda CR-V.", "wife", "", "Honda CR-V"),
    ("My husband takes Lisinopril.", "husband", "medication", "Lisinopril"),
    ("I'd prefer the window seat.", "user", "preference:window", "window seat"),
])
def test_possessions_medications_and_preferences(text: str, subject: str, attribute: str,
                                                 value: str) -> None:
    (fact,) = extract_stated_facts(said(text))
    assert (fact.subject, fact.attribute, fact.value) == (subject, attribute, value)


def test_a_short_named_answer_to_a_question_is_kept() -> None:
    (fact,) = extract_stated_facts(said("Susan Wilson.", replying_to="And your daughter's name?"))
    assert fact.text == "Susan Wilson." and "daughter's name" in fact.search_context
    assert extract_stated_facts(said("Yes, that works.", replying_to="Is 3 PM ok?")) == []
    assert extract_stated_facts(said("I take the bus to work.")) == []


def test_questions_about_documents_are_not_memories() -> None:
    assert extract_stated_facts(said("O que diz a Lei 13.709/2018 sobre consentimento?")) == []
    assert extract_stated_facts(said("What is form 1040-SR used for?")) == []
    # a confirmation question repeats the other party's figure: not the user's fact
    assert extract_stated_facts(said("So cabinets September 25th?")) == []
    assert extract_stated_facts(said("So grand total around $41,800?")) == []


def test_filler_is_not_remembered() -> None:
    assert extract_stated_facts(said("No, I think that covers everything. Thanks Sarah!",
                                     replying_to="Anything else I can help with?")) == []
    assert extract_stated_facts(said("I'll take that risk.")) == []
    assert extract_stated_facts(said("Let's take a look.")) == []
    (choice,) = extract_stated_facts(said("I'll take the Junior Suite."))
    assert choice.value == "Junior Suite"


def test_one_message_gives_one_item_per_fact() -> None:
    facts = extract_stated_facts(said("Great. My account number is 4429853327.",
                                      replying_to="Do you want to write it down?"))
    assert [f.text for f in facts] == ["My account number is 4429853327."]
    assert facts[0].attribute == "account number"


def test_a_pets_bill_and_amounts_are_not_sensitive() -> None:
    (bill,) = extract_stated_facts(said("OK, so $700 total for diagnostics.",
                                        replying_to="Max's X-rays and blood work for your dog "
                                                    "come to $700. Shall I book?"))
    assert not bill.sensitive
    (pet,) = extract_stated_facts(said("My dog takes Rimadyl 75 mg."))
    assert not pet.sensitive
    (money,) = extract_stated_facts(said("Move $2,500 from my checking account."))
    assert not money.sensitive
    (account,) = extract_stated_facts(said("My checking account is 4429853327."))
    assert account.sensitive and account.category == "financial_account"


@pytest.mark.parametrize(("text", "context", "category"), [
    # care a person receives, in their words or answering "your …?"
    ("My therapist is Dr. Lima.", "", "health"),
    ("Faço terapia às quartas.", "", "health"),
    ("Estou em tratamento para depressão.", "", "health"),
    ("My husband had surgery in May.", "", "health"),
    ("Surgery on May 3rd.", "When is your surgery?", "health"),
    ("Vou à igreja aos domingos.", "", "religion"),
    # a price for a service is no one's health data; neither is a machine's or a pet's
    ("So about $700 total for diagnostics.", "Hip and leg X-rays would be $420.", None),
    ("$700 total for diagnostics.", "", None),
    ("The car needs diagnostics, $120.", "", None),
    ("Tratamento de água custa R$ 300.", "", None),
    ("My dog needs surgery.", "", None),
])
def test_care_words_are_health_data_only_for_a_person(text: str, context: str,
                                                       category: str | None) -> None:
    assert sensitive_category(text, context=context) == category


def test_only_people_become_subjects() -> None:
    (locker,) = extract_stated_facts(said("O código do meu armário é ZK-99."))
    assert (locker.subject, locker.attribute, locker.value) == ("user", "codigo armario", "ZK-99")


@pytest.mark.parametrize("text", [
    "Qual é o meu código secreto? Lembro que era QZXWV-48151623.",
    "Como faço para trocar a senha 4455-22?",
    "what is my locker code",
    "I think it was PAC-778K4M. Can you check my booking?",
])
def test_questions_are_not_memories(text: str) -> None:
    assert extract_stated_facts(said(text)) == []


def test_a_fact_beside_a_question_is_kept_without_the_question() -> None:
    found = [c.text for c in extract_stated_facts(said("VEL-89923476, got it. Do you have a "
                                                       "mobile app?"))]
    assert found == ["VEL-89923476, got it."]
