"""Mail leaves after the answer (``podium.web.kernel.outbox``), through a real SMTP exchange with a
mail server on 127.0.0.1 that greets only when the test lets it.

- A password reset for a known address answers while the mail server has not even said hello:
  the answer cannot tell, by its time, that the address has an account. Once the server
  speaks, the message arrives, to that address, with the reset link.
- A publication's mail to many entrants is queued the same way and arrives in one connection.
- A mail server that is down loses its messages (as one that refuses them does) and the sender
  goes on: the next message, once the server is back, arrives.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from podium.web.kernel import outbox


class GatedServer:
    """A minimal SMTP server: each connection waits for ``gate`` before its greeting, then
    takes every message given to it (``messages``: (recipients, data)); ``connections``
    counts the connections served."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.messages: list[tuple[list[str], str]] = []
        self.connections = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        self.gate.wait(30)
        self.connections += 1
        reader = conn.makefile("rb")

        def say(text: str) -> None:
            conn.sendall(text.encode() + b"\r\n")

        say("220 gated ESMTP")
        recipients: list[str] = []
        with conn, reader:
            for raw in reader:
                line = raw.decode().strip()
                verb = line[:4].upper()
                if verb in ("EHLO", "HELO"):
                    say("250 gated")
                elif verb == "MAIL":
                    recipients = []
                    say("250 OK")
                elif verb == "RCPT":
                    recipients.append(line.split(":", 1)[1].strip(" <>"))
                    say("250 OK")
                elif verb == "DATA":
                    say("354 go on")
                    data = []
                    for body in reader:
                        if body == b".\r\n":
                            break
                        data.append(body.decode())
                    self.messages.append((recipients, "".join(data)))
                    say("250 queued")
                elif verb == "QUIT":
                    say("221 bye")
                    return
                else:
                    say("250 OK")

    def close(self) -> None:
        self.gate.set()
        self.sock.close()


@pytest.fixture
def server(settings: Any) -> Iterator[GatedServer]:
    made = GatedServer()
    settings.EMAIL_BACKEND = "podium.web.kernel.outbox.BackgroundBackend"
    settings.PODIUM_MAIL_SENDER = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", made.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield made
    made.close()
    assert outbox.flush(10)


def test_a_reset_answers_before_the_mail_server_has_said_hello(
    server: GatedServer, make_user: Any
) -> None:
    make_user("olga")
    answer = Client().post("/accounts/password/reset/", {"email": "olga@example.org"})
    assert answer.status_code == 302
    assert (server.connections, server.messages) == (0, [])  # the server still waits
    server.gate.set()
    assert outbox.flush(10)
    [(to, data)] = server.messages
    assert to == ["olga@example.org"]
    assert "Subject: A new password for Podium" in data
    assert re.search(rf"{re.escape(settings.PODIUM_SITE_URL)}/\S*/password/reset/\S+/", data)
    assert mail.outbox == []  # the real exchange, not Django's test outbox


def test_many_messages_go_in_one_connection(server: GatedServer) -> None:
    messages = [
        mail.EmailMessage("Results", f"Your place: {n}", to=[f"team{n}@example.org"])
        for n in range(1, 31)
    ]
    assert mail.get_connection().send_messages(messages) == 30
    server.gate.set()
    assert outbox.flush(10)
    assert [to for to, _data in server.messages] == [[f"team{n}@example.org"] for n in range(1, 31)]
    assert server.connections == 1


def test_a_mail_server_that_is_down_does_not_stop_the_sender(
    server: GatedServer, settings: Any
) -> None:
    down = socket.create_server(("127.0.0.1", 0))
    closed_port = down.getsockname()[1]
    down.close()
    settings.EMAIL_PORT = closed_port
    mail.send_mail("Lost", "the server is down", None, ["lost@example.org"])
    assert outbox.flush(10)
    settings.EMAIL_PORT = server.port
    server.gate.set()
    mail.send_mail("Found", "the server is back", None, ["found@example.org"])
    assert outbox.flush(10)
    assert [to for to, _data in server.messages] == [["found@example.org"]]
