"""The API against its own OpenAPI document: schemathesis loads ``/api/openapi.json`` from a
running test server and sends generated requests to every operation, checking that no answer
is a server error and that every answer — success or JSON error — has a status code, content
type, headers and body the document declares.

The data: cz-jigsaw with a published (preliminary) qualification of two entrants, and
cba-qualifier with two bowlers and a token of its lane scoring machine. Most generated paths
are pointed at these (a real event, stage and round 1), so the operations run their real
reads and writes, not only their 404s; the writes carry the token, and a generated entry
number is mostly replaced by a real one. A few writes are also sent as they would be by a
scoring machine (a block recorded, sent again, a clash of keys, a correction), so the 201, 200
and 409 answers are checked against the document as well.

Every operation is called anonymously and with the token (writes mostly with it, reads mostly
without), so the 401 answers and a token's reads conform too.

Bounded: 8 examples per operation and generation mode (positive, negative), no deadline (the
test server shares two cores), no example database. Each operation's cases come from its own
Hypothesis strategy (``operation.as_strategy``): schemathesis's lazy pytest loader
(``schemathesis.pytest.from_fixture``, needed to read the schema from ``live_server``) sets
``node._nodeid``, which pytest 9 no longer has.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from podium.web.events.services.tokens import token_create
from podium.web.models import Event, Squad
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 8  # per operation and mode: 12 operations × 2 modes × 8 ≈ 200 requests
READS = {"cz-jigsaw": "individual-qualification", "cba-qualifier": "qualification"}

# Writes that succeed or clash, so their answers are checked against the document too.
WRITES = [
    ("result_record", {"entry": 1, "cells": {"g1": "200", "g2": "190"}}, "w1", 201),
    ("result_record", {"entry": 1, "cells": {"g1": "200", "g2": "190"}}, "w1", 200),
    ("result_record", {"entry": 1, "game": 3, "rolls": "X X X X X X X X X X X X"}, "w2", 201),
    ("result_record", {"entry": 2, "cells": {"g1": "180"}}, "w1", 409),
    ("result_correct", {"entry": 1, "cells": {"g2": "191"}, "reason": "misread"}, "w3", 201),
    ("result_finish", {"entry": 2}, "w4", 422),
    ("battle_record", {"round": 1, "team1": 1, "team2": 2, "score1": 3, "score2": 1}, "w5", 422),
]


@pytest.fixture
def seeded(make_event: Any, staff: Any, add_entry: Any, settings: Any) -> dict[str, Any]:
    settings.PODIUM_API_ANONYMOUS_PER_MINUTE = 100_000  # the test is one client, many requests
    cz = make_event("cz-jigsaw", status=Event.Status.CLOSED)
    cz_staff = staff(cz, organizer="ota", referee="radek")
    qualification = ((1, "Anna Nová", {"time": "1:02:03"}),
                     (2, "Cyril Dlouhý", {"time": "1:00:00", "missing": "2"}))  # fmt: skip
    for number, name, cells in qualification:
        entry = add_entry(cz, number, name, group="A")
        result_record(
            event=cz, stage=READS["cz-jigsaw"], entry=entry, cells=cells, by=cz_staff["referee"],
            idempotency_key=f"cz-{number}",
        )  # fmt: skip
    publication_set(
        event=cz, stage=READS["cz-jigsaw"], state="preliminary", by=cz_staff["organizer"]
    )
    cba = make_event("cba-qualifier", status=Event.Status.CLOSED)
    cba_staff = staff(cba, organizer="olga", referee="rudolf")
    squad = Squad.objects.create(event=cba, name="Squad A", starts_at=cba.starts_at, capacity=8)
    add_entry(cba, 1, "Adam", division="master-men", squad=squad)
    add_entry(cba, 2, "Bohuš", division="master-men", squad=squad)
    _token, secret = token_create(
        event=cba, name="lane scoring machine", user=cba_staff["referee"], by=cba_staff["organizer"]
    )
    return {"secret": secret}


def _aim(case: Any) -> None:
    """Points most generated paths and entry numbers at the seeded data."""
    seen = repr((case.operation.label, case.path_parameters, case.query, case.body))
    choice = zlib.crc32(seen.encode())  # stable: the same case always goes the same way
    params = case.path_parameters or {}
    if "slug" in params and choice % 4:
        slug = "cba-qualifier" if _writes(case) else sorted(READS)[choice % 2]
        params["slug"] = slug
        if "stage" in params and choice % 4 != 1:
            params["stage"] = READS[slug]
        if "round" in params and choice % 4 == 3:
            params["round"] = 1
    if isinstance(case.body, dict) and isinstance(case.body.get("entry"), int) and choice % 3:
        case.body["entry"] = 1 + choice % 2


def _writes(case: Any) -> bool:
    return case.method.upper() == "POST" or case.path.endswith("/results")


def _fuzz(
    operation: Any, mode: GenerationMode, url: str, token: dict[str, str], answered: set[int]
) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
        phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    def exchange(case: Any) -> None:
        _aim(case)
        # Anonymous and with a token, for reads and writes alike: most writes carry the token
        # (to reach the service), most reads none; the others are checked as well.
        choice = zlib.crc32(repr((case.path_parameters, case.query, case.body)).encode())
        headers = token if _writes(case) == bool(choice % 4) else {}
        answered.add(
            case.call_and_validate(base_url=url, headers=headers, checks=CHECKS).status_code
        )

    try:
        exchange()
    except Unsatisfiable:
        # Nothing invalid can be sent to it (a path of plain strings, no body).
        assert mode == GenerationMode.NEGATIVE, operation.label


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_every_answer_conforms_to_the_openapi_document(
    live_server: Any, seeded: dict[str, Any]
) -> None:
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 12
    token = {"Authorization": f"Bearer {seeded['secret']}"}
    answered: dict[str, set[int]] = defaultdict(set)
    by_id = {op.definition.raw["operationId"]: op for op in operations}
    for operation_id, body, key, status in WRITES:
        case = by_id[operation_id].Case(
            path_parameters={"slug": "cba-qualifier", "stage": "qualification", "round": 1},
            headers={**token, "Idempotency-Key": key}, body=body, media_type="application/json",
        )  # fmt: skip
        response = case.call_and_validate(base_url=live_server.url, checks=CHECKS)
        assert response.status_code == status, (operation_id, response.text)
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _fuzz(operation, mode, live_server.url, token, answered[operation.label])
    # Every operation answered something besides its 404s: the generated requests reached it.
    assert all(codes - {404} for codes in answered.values()), dict(answered)
