"""Reads: functions that return what a page shows, with no side effects."""
