"""Recording results: the referee console, the round's clock and the one-tap finish, a
team's table, corrections and agreement, the head referee's checks, and the rows the engine
ranks from what is recorded."""
