"""Entries: registering and cancelling, approval and the waiting list, ChGK rosters, the
check-in desk, payments, the public entry lists, and the e-mails about an entry."""
