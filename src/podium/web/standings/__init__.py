"""Standings: live and frozen tables, publication (draft → preliminary → final), advancement
into the next stage, prizes, charts, and the e-mail when results are published."""
