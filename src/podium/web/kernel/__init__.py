"""What every domain shares: refusals and the audit trail, finding an event or a stage the
user may work on, roles, the rulebook's texts in the reader's language, rules for typed text,
the body limits, error pages, languages, throttling and the e-mail machinery. Imports no domain."""
