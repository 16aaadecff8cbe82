"""QR codes drawn on the server as inline SVG (segno: pure Python, no network, no script).

Vocabulary:
- check-in QR: the address of the desk's search for an entry's check-in code
  (``podium.web.registration.selectors.desk``); a referee's phone camera opens it on the desk, where
  the card of that entry alone is shown.
"""

from __future__ import annotations

import io

import segno


def svg(text: str, *, title: str) -> str:
    """The QR code of ``text`` as an SVG element (medium error correction: survives a crease)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=5, border=2, xmldecl=False, svgns=True, title=title,
        svgclass="qr", lineclass=None,
    )  # fmt: skip
    return out.getvalue().decode()
