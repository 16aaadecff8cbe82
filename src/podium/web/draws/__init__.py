"""Draws from a recorded seed: groups, tables, lanes and ChGK host teams, and the public draw
pages."""
