"""Retrieval: embedder, LanceDB index, fusion and hybrid search."""
