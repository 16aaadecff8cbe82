"""Bowling: the lane sheet of a squad, game totals per block and frame by frame."""
