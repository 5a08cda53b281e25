"""Fault-injection suite (issue 11)."""
