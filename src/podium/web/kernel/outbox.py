"""Mail leaves after the answer: a sender thread in each process hands it to the mail server.

Vocabulary:
- sender: the back-end that really sends (``PODIUM_MAIL_SENDER``: SMTP, or the console on a
  laptop).
- outbox: Django's ``EMAIL_BACKEND`` in Podium. ``send_messages`` only queues the messages in
  the process and answers at once; one daemon thread per process takes them from the queue and
  hands each batch to the sender over one connection. So no request waits for the mail
  server: a publication that writes to hundreds of entrants answers as fast as one that writes
  to none, and a password reset for a known address answers as fast as for an unknown one (the
  time of the SMTP exchange cannot tell that an address has an account).
- loss: a message still queued when its process dies is lost, as one the mail server refuses
  is (``podium.web.kernel.mail``: what it tells is never undone). A process that exits
  normally sends what is queued first, for at most ``FLUSH_SECONDS``.
- fork: a process forked from one that had a sender thread (gunicorn imports the application
  before it forks its workers) starts its own on its first message.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from collections.abc import Sequence

from django.conf import settings
from django.core.mail import get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

FLUSH_SECONDS = 10.0
_BATCH = 100  # messages handed to the sender over one connection at most

log = logging.getLogger(__name__)
_lock = threading.Lock()
_queue: queue.Queue[EmailMessage] = queue.Queue()
_thread: threading.Thread | None = None
_pid = 0


def _deliver(batch: list[EmailMessage]) -> None:
    try:
        with get_connection(settings.PODIUM_MAIL_SENDER, fail_silently=True) as connection:
            connection.send_messages(batch)
    except Exception:  # a mail server that fails must never stop the sender thread
        log.exception("could not send %d messages", len(batch))


def _run() -> None:
    while True:
        batch = [_queue.get()]
        while len(batch) < _BATCH:
            try:
                batch.append(_queue.get_nowait())
            except queue.Empty:
                break
        _deliver(batch)
        for _message in batch:
            _queue.task_done()


def _ensure_sender() -> None:
    global _thread, _pid, _queue
    with _lock:
        if _thread is not None and _pid == os.getpid() and _thread.is_alive():
            return
        if _pid != os.getpid():
            _queue = queue.Queue()  # a fork's copy of the parent's queue is nobody's
        _pid = os.getpid()
        _thread = threading.Thread(target=_run, name="podium-outbox", daemon=True)
        _thread.start()


def flush(timeout: float = FLUSH_SECONDS) -> bool:
    """Waits until every queued message was handed to the sender; ``False`` on timeout."""
    done = threading.Event()

    def wait() -> None:
        _queue.join()
        done.set()

    threading.Thread(target=wait, daemon=True).start()
    return done.wait(timeout)


atexit.register(flush)


class BackgroundBackend(BaseEmailBackend):
    """The outbox (see the vocabulary)."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        messages = [m for m in email_messages if m.recipients()]
        if not messages:
            return 0
        _ensure_sender()
        for message in messages:
            message.connection = None  # the sender opens its own
            _queue.put(message)
        return len(messages)
