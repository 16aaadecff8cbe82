"""Disputes and discipline: appeals on ChGK questions and their jury, bowling protests and
further appeals, sanctions, bans and withdrawals, and the rulings laid over the rows."""
