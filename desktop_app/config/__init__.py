"""Paths and settings."""
