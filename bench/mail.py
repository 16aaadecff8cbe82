"""Benchmark of the mail path: what a request costs when it sends e-mail (a report, not a test).

A mail server on 127.0.0.1 that takes ``--delay`` ms (default 150) to accept each message
stands for a distant SMTP relay. Measured side by side, A B A B, in one run:

(a) a password reset for a known address and for an unknown one, with Podium's outbox
    (``podium.web.kernel.outbox``: the request queues the message, a thread sends it) and with the
    SMTP back-end called inside the request (how Podium sent before, the floor of a direct
    send). The ratio known / unknown says whether the answer's time tells an account exists;
(b) handing 200 results e-mails to the mail system (a publication to 200 entrants), outbox
    against direct SMTP.

Medians of ``--runs`` runs with their spread (min–max). The script always exits 0. Run
``.venv/bin/python bench/mail.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

from qualification import TMP  # sets Django up: before any model

# isort: split

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.test.utils import setup_test_environment

from podium.web.kernel import outbox

with warnings.catch_warnings():  # smtpd is deprecated, and enough for a stand-in relay
    warnings.simplefilter("ignore", DeprecationWarning)
    import asyncore
    import smtpd

OUTBOX = "podium.web.kernel.outbox.BackgroundBackend"
SMTP = "django.core.mail.backends.smtp.EmailBackend"


class SlowRelay(smtpd.SMTPServer):
    delay = 0.15

    def process_message(self, *args: Any, **kwargs: Any) -> None:
        time.sleep(self.delay)


def relay(delay: float) -> int:
    server = SlowRelay(("127.0.0.1", 0), None, decode_data=True)
    server.delay = delay
    threading.Thread(target=asyncore.loop, kwargs={"timeout": 0.05}, daemon=True).start()
    return int(server.socket.getsockname()[1])


def spread(times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return f"{statistics.median(ms):8.1f} ms  ({min(ms):.1f}–{max(ms):.1f})"


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--delay", type=int, default=150, help="the relay's ms per message")
    args = parser.parse_args()
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.PODIUM_MAIL_REQUESTS_PER_ADDRESS = 10**6
    call_command("migrate", verbosity=0)
    port = relay(args.delay / 1000)
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.PODIUM_MAIL_SENDER = SMTP
    get_user_model().objects.create_user("olga", "olga@example.org", "correct horse battery")
    client = Client()
    print(f"mail benchmark — Python {sys.version.split()[0]}, relay {args.delay} ms a message")
    print(f"(data in {TMP})")

    def reset(address: str) -> None:
        answer = client.post("/accounts/password/reset/", {"email": address})
        assert answer.status_code == 302, answer.status_code

    modes = (("outbox", OUTBOX), ("direct SMTP", SMTP))
    found: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):
        for mode, backend in modes:  # A B A B: both modes see the same machine
            settings.EMAIL_BACKEND = backend
            for who, address in (("known", "olga@example.org"), ("unknown", "nobody@x.org")):
                found.setdefault((mode, who), []).append(timed(lambda a=address: reset(a)))
            outbox.flush(60)
    print("(a) password reset, the answer's time")
    for mode, _backend in modes:
        known, unknown = found[(mode, "known")], found[(mode, "unknown")]
        ratio = statistics.median(known) / statistics.median(unknown)
        print(f"  {mode:12} known   {spread(known)}")
        print(f"  {mode:12} unknown {spread(unknown)}   known/unknown {ratio:.2f}×")

    messages = [
        mail.EmailMessage("Results", f"Your place: {n}", to=[f"team{n}@example.org"])
        for n in range(1, 201)
    ]
    handed: dict[str, list[float]] = {}
    for _ in range(max(1, args.runs // 3)):
        for mode, backend in modes:
            settings.EMAIL_BACKEND = backend
            handed.setdefault(mode, []).append(
                timed(lambda: mail.get_connection().send_messages(messages))
            )
            outbox.flush(600)
    print("(b) 200 results e-mails handed to the mail system")
    for mode, _backend in modes:
        print(f"  {mode:12} {spread(handed[mode])}")
    floor = statistics.median(handed["direct SMTP"])
    print(f"  direct / outbox: {floor / statistics.median(handed['outbox']):.0f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
