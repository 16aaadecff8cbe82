"""What production mode refuses (``podium.web.deployment``), checked on the environment alone."""

from __future__ import annotations

from podium.web.deployment import (
    DEVELOPMENT_KEY,
    allowed_hosts,
    development_site_url,
    flag,
    production_refusal,
)

KEY = "k3Jq-9vXz_" * 7


def test_a_complete_environment_is_accepted() -> None:
    env = {"PODIUM_SECRET_KEY": KEY, "PODIUM_ALLOWED_HOSTS": "results.example.org"}
    assert production_refusal(env) is None


def test_each_refusal_names_the_variable_to_set() -> None:
    assert "PODIUM_SECRET_KEY is not set" in str(production_refusal({}))
    assert "development key" in str(production_refusal({"PODIUM_SECRET_KEY": DEVELOPMENT_KEY}))
    assert "too weak" in str(production_refusal({"PODIUM_SECRET_KEY": "abcde" * 9 + "xyzw"}))
    debug = {"PODIUM_SECRET_KEY": KEY, "PODIUM_DEBUG": "true"}
    assert "PODIUM_DEBUG is on" in str(production_refusal(debug))
    # The test client's host is allowed by default in development, never in production.
    assert "testserver" in allowed_hosts({})
    assert "testserver" not in allowed_hosts({"PODIUM_PRODUCTION": "1"})
    hosts = {"PODIUM_SECRET_KEY": KEY, "PODIUM_ALLOWED_HOSTS": "a.org, testserver"}
    assert "includes testserver" in str(production_refusal(hosts))


def test_flags_read_the_usual_words() -> None:
    assert flag({"X": "1"}, "X")
    assert flag({"X": "Yes"}, "X")
    assert not flag({"X": "0"}, "X")
    assert not flag({"X": ""}, "X")
    assert flag({}, "X", default=True)


def test_production_refuses_a_wildcard_host() -> None:
    for hosts in ("*", "results.example.org, *", "*.example.org"):
        refusal = production_refusal({"PODIUM_SECRET_KEY": KEY, "PODIUM_ALLOWED_HOSTS": hosts})
        assert "PODIUM_ALLOWED_HOSTS has a wildcard (*)" in str(refusal), hosts
    subdomains = {"PODIUM_SECRET_KEY": KEY, "PODIUM_ALLOWED_HOSTS": ".example.org"}
    assert production_refusal(subdomains) is None  # Django's own "this domain and below"


def test_the_development_server_links_its_mail_to_the_address_it_serves() -> None:
    assert development_site_url("127.0.0.1:8301") == "http://127.0.0.1:8301"
    assert development_site_url("8302") == "http://127.0.0.1:8302"
    assert development_site_url("0.0.0.0:8000") == "http://127.0.0.1:8000"
    assert development_site_url("localhost:9000") == "http://localhost:9000"
