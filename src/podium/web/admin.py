"""Django admin for what the pages do not cover: every model, read and fixed by superusers.

Vocabulary: the admin bypasses the services (no rulebook checks, no audit entries), so it is for
superusers repairing data, not for running an event.
"""

from __future__ import annotations

from django.contrib import admin

from podium.web.models import (
    AuditEntry,
    Cancellation,
    CheckIn,
    Draw,
    Entry,
    EntryMember,
    Event,
    EventRole,
    Payment,
    Person,
    SeatOffer,
    Squad,
)


class RoleInline(admin.TabularInline):  # type: ignore[type-arg]
    model = EventRole
    extra = 0


class SquadInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Squad
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("title", "slug", "rulebook_key", "starts_at", "status")
    list_filter = ("status", "rulebook_key")
    search_fields = ("title", "slug")
    inlines = [RoleInline, SquadInline]


class MemberInline(admin.TabularInline):  # type: ignore[type-arg]
    model = EntryMember
    extra = 0
    raw_id_fields = ("person",)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("number", "name", "event", "category", "status", "waiting_position")
    list_filter = ("event", "status", "category")
    search_fields = ("name",)
    inlines = [MemberInline]


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("last_name", "first_name", "country", "birth_date")
    search_fields = ("last_name", "first_name", "email")


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("receipt_number", "entry", "fee_key", "amount", "currency", "received_at")
    list_filter = ("entry__event",)


@admin.register(AuditEntry)
class AuditAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("at", "event", "actor", "action", "target")
    list_filter = ("action", "event")


for model in (EventRole, Squad, EntryMember, Cancellation, CheckIn, SeatOffer, Draw):
    admin.site.register(model)
