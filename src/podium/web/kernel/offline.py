"""The desks as an installable app that works offline: the web app manifest and the service
worker, both served from Podium itself (no CDN).

Vocabulary:
- service worker: ``/sw.js`` at the site's root, so its scope covers every desk (``/desk/…``
  and ``/<language>/desk/…``); it keeps the desk pages a person opened and Podium's own static
  files, and serves them when the network is gone (``templates/podium/sw.js``). Its cache is
  named after the static files' addresses, so a release with new files replaces it.
- outbox: the taps waiting on the phone (``static/podium/offline.js``); the worker never sends
  or keeps a write itself.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _

# What a desk needs to draw itself offline, besides its own page.
ASSETS = (
    "podium/podium.css",
    "podium/clock.js",
    "podium/offline.js",
    "podium/desk.js",
    "podium/favicon.svg",
    "django_htmx/htmx-2.min.js",
)


def service_worker(request: HttpRequest) -> HttpResponse:
    assets = [static(a) for a in ASSETS]
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:12]
    context = {"assets": assets, "version": version, "static_url": settings.STATIC_URL}
    body = render_to_string("podium/sw.js", context)
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    # The browser checks for a new worker on each visit; never a stale one from a proxy.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": _("Podium desk"),
        "short_name": "Podium",
        "start_url": "/desk/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#0b6bcb",
        "icons": [{"src": static("podium/favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
