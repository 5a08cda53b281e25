"""Ingestion: load → clean → chunk → embed → index, as a generator of progress events."""
