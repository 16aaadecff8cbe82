"""Writes. Every service is typed and keyword-only, runs in one transaction, checks every rule
before changing anything, and writes an audit entry. A refused action raises ``Refused`` with the
field it concerns and a message (citing the rulebook's clause where a rule refused it); nothing
is changed then.
"""
