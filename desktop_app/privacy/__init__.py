"""privacy package."""
