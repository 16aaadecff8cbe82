"""Brainball and the season's head-to-head parts: battles and their desk, the battle
schedule, play-offs for tied prize places, and the superfinal."""
