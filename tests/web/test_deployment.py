"""What production mode refuses (``podium.web.deployment``), checked on the environment alone."""

from __future__ import annotations

from podium.web.deployment import DEVELOPMENT_KEY, allowed_hosts, flag, production_refusal

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
