"""Thin views by audience: they read through selectors, write through services, and render."""
