"""Text helpers shared by every package: one of each, Qt-free and model-free.

- `fold`: lower case without accents ("Informação" → "informacao").
- `stem`: the light Portuguese/Spanish/English suffix stripper of the keyword leg.
- `stopwords`: the function-word table per language and the sets derived from it.
- `analyze`: the keyword-leg representation (`analyze`) and term sets for overlap checks.
- `sentences`: sentence spans for documents, answers and chat messages.
- `language`: pt / en / es detection for documents and for questions.
- `values`: the specific things a text states (numbers, amounts, codes, names).

Nothing here imports another desktop_app package (a test checks the import graph).
"""
