"""A document as a PDF: A4, rendered by WeasyPrint from the page's own template inside the
print layout ``podium/exports/_print.html``.

Vocabulary:
- margin boxes: the CSS ``@page`` boxes printed on every page — the document's title, its
  state line and as-of time, and "page N of M" (``counter(page)`` / ``counter(pages)``).
- CSS string: text for a margin box's ``content``, quoted and escaped here, because the
  template's HTML escaping does not apply inside ``<style>``.
- fonts: the system fonts WeasyPrint finds through fontconfig (DejaVu covers Czech and
  Cyrillic). Nothing is fetched: the fetcher allows ``data:`` URLs only (inline images and
  charts), never the network or the disk.
"""

from __future__ import annotations

import re
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from weasyprint import HTML, URLFetcher

from podium.rules.schema.stages import Stage
from podium.web.files.formats.cells import as_of_text
from podium.web.files.selectors.diplomas import DiplomaSet
from podium.web.files.selectors.exports import Document
from podium.web.models import Event

WHITESPACE = re.compile(r"\s+")
PLACEHOLDER = re.compile(r"(%\(page\)s|%\(pages\)s)")


def css_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return '"' + WHITESPACE.sub(" ", escaped) + '"'


def page_counter() -> SafeString:
    """``"page " counter(page) " of " counter(pages)`` in the active language."""
    tokens = []
    for part in PLACEHOLDER.split(_("page %(page)s of %(pages)s")):
        if part == "%(page)s":
            tokens.append("counter(page)")
        elif part == "%(pages)s":
            tokens.append("counter(pages)")
        elif part:
            tokens.append(css_string(part))
    return mark_safe(" ".join(tokens))  # built from escaped CSS strings only


def stamp(document: Document) -> str:
    """The line printed on every page: the state (standings) and the as-of time."""
    return " · ".join(p for p in (document.state, as_of_text(document)) if p)


def render_html(document: Document, context: dict[str, Any]) -> str:
    full = {
        "document": document,
        "language": get_language(),
        "stamp": stamp(document),
        "css_title": mark_safe(css_string(document.title)),
        "css_stamp": mark_safe(css_string(stamp(document))),
        "css_pages": page_counter(),
        **document.context,
        **context,
    }
    return render_to_string(document.template, full)


def html_to_pdf(html: str) -> bytes:
    fetcher = URLFetcher(allowed_protocols=["data"])  # inline images only: no network, no disk
    pdf: bytes = HTML(string=html, url_fetcher=fetcher).write_pdf()
    return pdf


def write_pdf(document: Document, context: dict[str, Any]) -> bytes:
    return html_to_pdf(render_html(document, context))


def write_diplomas(event: Event, stage: Stage, found: DiplomaSet) -> bytes:
    """One A4 landscape page per winner (``podium/exports/diplomas.html``)."""
    context = {
        "event": event,
        "stage": stage,
        "set": found,
        "date": event.local_start.date(),
        "language": get_language(),
    }
    return html_to_pdf(render_to_string("podium/exports/diplomas.html", context))
