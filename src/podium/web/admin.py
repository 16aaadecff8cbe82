"""Django admin for what the pages do not cover: every model, read and fixed by superusers.

Vocabulary: the admin bypasses the services (no rulebook checks, no audit entries), so it is for
superusers repairing data, not for running an event.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from podium.web.events.forms.accounts import ThrottledAdminLoginForm
from podium.web.events.services.accounts import account_approve
from podium.web.models import (
    Account,
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


class AccountInline(admin.StackedInline):  # type: ignore[type-arg]
    model = Account
    fk_name = "user"
    fields = ("may_create_events", "approved_by", "approved_at", "language")
    readonly_fields = fields  # changed by the actions below, which keep an audit entry
    can_delete = False


@admin.action(description=gettext_lazy("Approve to create events"))
def approve(modeladmin: Any, request: HttpRequest, users: Any) -> None:
    for user in users:
        account_approve(user=user, by=request.user, approved=True)


@admin.action(description=gettext_lazy("Withdraw the approval to create events"))
def withdraw(modeladmin: Any, request: HttpRequest, users: Any) -> None:
    for user in users:
        account_approve(user=user, by=request.user, approved=False)


class PodiumUserAdmin(UserAdmin):  # type: ignore[type-arg]
    """Django's users, with the approval to create events (``PODIUM_EVENT_CREATORS``)."""

    inlines = [AccountInline]
    actions = [approve, withdraw]
    list_display = (*UserAdmin.list_display, "may_create_events")
    list_filter = (*UserAdmin.list_filter, "podium_account__may_create_events")

    @admin.display(boolean=True, description=gettext_lazy("may create events"))
    def may_create_events(self, user: Any) -> bool:
        account = getattr(user, "podium_account", None)
        return bool(account and account.may_create_events)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("podium_account")


# The admin's log-in counts failures with the site's (``podium.web.events.logins``).
admin.site.login_form = ThrottledAdminLoginForm
admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), PodiumUserAdmin)
