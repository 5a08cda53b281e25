"""answer package."""
