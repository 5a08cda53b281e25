"""Evaluation harnesses (`desktop-app eval …`, bench/): retrieval on BEIR sets, answers
on QA sets, memory on conversation cases. They compose ingest, retrieval, answer, chat and
memory the way the app does, so they sit above all of them; nothing in the app imports
them."""
