"""Podium: runs real competitions from their rulebooks."""

__version__ = "0.1.0"
