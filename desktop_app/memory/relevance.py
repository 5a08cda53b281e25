"""Does a memory concern the question? Only then is it offered to the answer.

A profile memory is a fact about the user ("Meu número de matrícula é 7781-22."). The memory
search ranks every memory for every question, so with one memory stored it came back for
"Quais são os direitos do titular?" too, and the answer said "(using what you told me: …)"
for a question about the documents. Measured on the user-memory evaluation, the cosine of
e5-small does not separate the two: a needed fact often scores below an unrelated memory
(0.72–0.80 against a 0.79 median for memories of other cases). What does separate them is
simple:

- the question shares a content word with the memory ("qual é a minha matrícula?" and
  "Meu número de matrícula é …"), or
- the question is about the user — it says I, my, meu, minha, eu, mi… (not only in "tell
  me", "diga-me", "dime": asking is not talking about oneself).

Kept this way: 92% of the memories that hold a case's needed fact; a question about the
documents that says nothing of the user gets none. `MemoryCore.recall` applies it, so every
consumer (the answer's context block, the window's "memory used" chips) follows one rule.
"""

from __future__ import annotations

import re

from desktop_app.text.analyze import content_terms
from desktop_app.text.fold import fold

# asking someone to tell, show or explain is not talking about oneself
_ASKING_ME = re.compile(
    r"\b(?:tell|show|give|explain\s+to|send|help)\s+me\b|\bme\s+(?:diga|mostre|explique|"
    r"fale|conte|ajude|envie|de|da|passe|informe)\b|\b(?:diga|mostre|explique|fale|conte|"
    r"ajude|envie|informe)-me\b|\b(?:dime|muestrame|explicame|ayudame|dame|cuentame)\b")
_ABOUT_ME = re.compile(
    r"\b(?:i|me|my|mine|myself|im|ive|we|our|ours|us|eu|meu|minha|meus|minhas|comigo|"
    r"mim|nosso|nossa|nossos|nossas|yo|mi|mis|mio|mia|conmigo|nuestro|nuestra|nosotros)\b")


def about_the_user(question: str) -> bool:
    """The question talks about the person asking (first person, in pt / en / es)."""
    text = _ASKING_ME.sub(" ", fold(question).replace("'", "").replace("’", ""))
    return _ABOUT_ME.search(text) is not None


def concerns(question: str, memory_text: str) -> bool:
    """Whether a memory may be offered for this question (see the module docstring)."""
    return bool(content_terms(question) & content_terms(memory_text)) or about_the_user(question)
