"""Podium's stored data. Each module is one concept; see its docstring for the vocabulary."""

from podium.web.models.advancement import Advancement
from podium.web.models.audit import AuditEntry
from podium.web.models.draws import Draw
from podium.web.models.entries import Entry, EntryMember, Squad
from podium.web.models.events import Event, EventRole
from podium.web.models.money import Cancellation, Payment
from podium.web.models.people import Person
from podium.web.models.presence import CheckIn, SeatOffer
from podium.web.models.results import Agreement, Publication, Result, SecondEntry, Verification
from podium.web.models.rounds import Round, Signal, TableStep
from podium.web.models.tokens import ApiToken

__all__ = [
    "Advancement",
    "Agreement",
    "ApiToken",
    "AuditEntry",
    "Cancellation",
    "CheckIn",
    "Draw",
    "Entry",
    "EntryMember",
    "Event",
    "EventRole",
    "Payment",
    "Person",
    "Publication",
    "Result",
    "Round",
    "SeatOffer",
    "SecondEntry",
    "Signal",
    "Squad",
    "TableStep",
    "Verification",
]
