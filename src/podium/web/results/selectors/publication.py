"""Reads of what is public of a round: its publication changes, the current state, and the
frozen final tables.

Vocabulary:
- publication, version: see ``podium.web.models.results``; a round never changed is a draft.
- frozen table: the standings document (``podium.engine.document``) stored when a round is
  published final, with the moment it is as of.
"""

from __future__ import annotations

from podium.web.models import Event, Publication


def publication_history(event: Event, stage: str, round: int = 1) -> list[Publication]:
    return list(
        Publication.objects.filter(event=event, stage=stage, round=round).order_by(
            "changed_at", "id"
        )
    )


def publication_current(event: Event, stage: str, round: int = 1) -> Publication | None:
    """The latest change of what is public of the round (``None``: never changed — a draft)."""
    return (
        Publication.objects.filter(event=event, stage=stage, round=round)
        .order_by("changed_at", "id")
        .last()
    )


def publication_state(event: Event, stage: str, round: int = 1) -> str:
    current = publication_current(event, stage, round)
    return current.state if current else Publication.State.DRAFT


def publications_current(event: Event, stage: str) -> dict[int, Publication]:
    """Round → the latest change of what is public of it, for every round of the stage that
    ever changed (one read; without the frozen tables, which a list of rounds does not show)."""
    changes = Publication.objects.filter(event=event, stage=stage).defer("table")
    return {p.round: p for p in changes.order_by("changed_at", "id")}


def final_versions(event: Event, stage: str, round: int = 1) -> list[Publication]:
    """Every frozen final table of the round, oldest version first."""
    return list(
        Publication.objects.filter(
            event=event, stage=stage, round=round, state=Publication.State.FINAL
        ).order_by("version")
    )
