"""Podium's stored data. Each module is one concept; see its docstring for the vocabulary."""

from podium.web.models.accounts import Account
from podium.web.models.advancement import Advancement
from podium.web.models.appeals import Appeal, FurtherAppeal, Verdict
from podium.web.models.audit import AuditEntry
from podium.web.models.discipline import Ban, Sanction, Withdrawal
from podium.web.models.draws import Draw
from podium.web.models.entries import Entry, EntryMember, Squad
from podium.web.models.events import Event, EventRole
from podium.web.models.money import Cancellation, Payment
from podium.web.models.people import Person
from podium.web.models.presence import CheckIn, SeatOffer
from podium.web.models.questions import Question, QuestionSubmission
from podium.web.models.results import Agreement, Publication, Result, SecondEntry, Verification
from podium.web.models.rounds import Round, Signal, TableStep
from podium.web.models.tokens import ApiToken

__all__ = [
    "Account",
    "Advancement",
    "Agreement",
    "ApiToken",
    "Appeal",
    "AuditEntry",
    "Ban",
    "Cancellation",
    "CheckIn",
    "Draw",
    "Entry",
    "EntryMember",
    "Event",
    "EventRole",
    "FurtherAppeal",
    "Payment",
    "Person",
    "Publication",
    "Question",
    "QuestionSubmission",
    "Result",
    "Round",
    "Sanction",
    "SeatOffer",
    "SecondEntry",
    "Signal",
    "Squad",
    "TableStep",
    "Verdict",
    "Verification",
    "Withdrawal",
]
