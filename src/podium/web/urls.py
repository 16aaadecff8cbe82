"""URLs, split by audience: public pages, participants, organizers, and the referees' desk."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from podium.web.events.views import languages
from podium.web.kernel import errors, health, offline

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("i18n/choose/", languages.choose, name="language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/", include("podium.web.api.urls")),
]
urlpatterns += i18n_patterns(
    path("", include("podium.web.events.views.public")),
    path("accounts/", include("podium.web.events.views.accounts")),
    path("me/", include("podium.web.registration.views.participant")),
    path("organize/", include("podium.web.events.views.organizer")),
    path("organize/<slug:slug>/entries/", include("podium.web.registration.views.registrations")),
    path("organize/<slug:slug>/publication/", include("podium.web.standings.views.publication")),
    path("organize/<slug:slug>/calendar/", include("podium.web.chgk.views.calendar")),
    path("organize/<slug:slug>/advancement/", include("podium.web.standings.views.advancement")),
    path("organize/<slug:slug>/import/", include("podium.web.files.views.imports")),
    path("organize/<slug:slug>/tokens/", include("podium.web.events.views.tokens")),
    path("organize/<slug:slug>/discipline/", include("podium.web.disputes.views.discipline")),
    path("organize/<slug:slug>/season/", include("podium.web.battles.views.season")),
    path("organize/<slug:slug>/workshop/", include("podium.web.events.views.workshop")),
    path("appeals/<slug:slug>/", include("podium.web.disputes.views.appeals")),
    path("jury/<slug:slug>/", include("podium.web.disputes.views.jury")),
    path("questions/", include("podium.web.chgk.views.questions")),
    path("draws/", include("podium.web.draws.views")),
    path("desk/", include("podium.web.registration.views.desk")),
    path("desk/<slug:slug>/results/", include("podium.web.results.views.results")),
    path("desk/<slug:slug>/checks/", include("podium.web.results.views.checks")),
    path("desk/<slug:slug>/board/", include("podium.web.standings.views.board")),
    path("desk/<slug:slug>/chgk/", include("podium.web.chgk.views.desk")),
    path("desk/<slug:slug>/bowling/", include("podium.web.bowling.views")),
    path("desk/<slug:slug>/battles/", include("podium.web.battles.views.battles")),
    path("desk/<slug:slug>/protests/", include("podium.web.disputes.views.protests")),
    path("standings/", include("podium.web.standings.views.standings")),
    path("prizes/", include("podium.web.standings.views.prizes")),
    path("export/", include("podium.web.files.views.exports")),
    prefix_default_language=False,
)

handler400 = errors.bad_request
handler403 = errors.forbidden
handler404 = errors.not_found
handler500 = errors.server_error
