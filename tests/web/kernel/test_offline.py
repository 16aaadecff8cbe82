"""The desks' app shell: the service worker served at the site's root (so its scope covers
``/desk/`` and ``/<language>/desk/``) with Podium's own static files to keep, never cached by a
proxy; and the web app manifest that makes the desks installable."""

from __future__ import annotations

from django.templatetags.static import static
from django.test import Client


def test_the_service_worker_is_served_at_the_root_with_the_files_it_keeps() -> None:
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache, private"  # never kept by a shared cache
    body = answer.content.decode()
    for asset in ("podium/offline.js", "podium/clock.js", "podium/podium.css"):
        assert f'"{static(asset)}"' in body
    assert 'const CACHE = "podium-desk-' in body
    assert "https://" not in body  # nothing from a CDN


def test_the_manifest_opens_the_desks() -> None:
    answer = Client().get("/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    data = answer.json()
    assert (data["start_url"], data["scope"], data["display"]) == ("/desk/", "/", "standalone")
    assert data["icons"][0]["src"] == static("podium/favicon.svg")
