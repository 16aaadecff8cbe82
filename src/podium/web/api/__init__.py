"""The HTTP API (being written)."""
