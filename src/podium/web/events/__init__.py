"""The event as a whole: creating and editing one, its staff and API tokens, the organizer's
dashboard, public pages (the events, an event, its rules, a competitor), accounts and log-ins, and
the rulebook workshop."""
