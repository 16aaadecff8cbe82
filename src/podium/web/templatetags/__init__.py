"""Template filters of Podium."""
