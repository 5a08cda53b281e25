"""Acervo: offline-first desktop knowledge assistant (core package, Qt-free outside gui/)."""

__version__ = "0.1.0"
