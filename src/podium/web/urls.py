"""URLs, split by audience: public pages, participants, organizers, and the referees' desk."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
urlpatterns += i18n_patterns(
    path("", include("podium.web.views.public")),
    path("accounts/", include("podium.web.views.accounts")),
    path("me/", include("podium.web.views.participant")),
    path("organize/", include("podium.web.views.organizer")),
    path("organize/<slug:slug>/entries/", include("podium.web.views.registrations")),
    path("organize/<slug:slug>/publication/", include("podium.web.views.publication")),
    path("draws/", include("podium.web.views.draws")),
    path("desk/", include("podium.web.views.desk")),
    path("desk/<slug:slug>/results/", include("podium.web.views.results")),
    path("standings/", include("podium.web.views.standings")),
    prefix_default_language=False,
)
