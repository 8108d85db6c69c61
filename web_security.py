"""What the server tells strangers (issue 23): security headers on every HTTP response, and
no /_stcore/metrics.

app.py hands :class:`SecurityHeaders` to ``st.App`` as middleware, so ``streamlit run
app.py`` (``make run``, every replica of ``make serve``, the tests' servers) serves the app
through it. Streamlit's own /_stcore/metrics lists cached function names, cache sizes and
session counts to anyone who asks: it answers 404 here.

The Content-Security-Policy is what the app needs and no more: scripts from the server
itself (plus the one inline line of Streamlit's index.html, by its hash, and the player,
which ``st.components.v2`` imports from a blob: URL; no other inline script runs); styles
inline (Streamlit's
emotion and Plotly write them); images and fonts also as data: and blob: URLs (Plotly's
downloads, Streamlit's media); the websocket to the same server; no plugins; no other site
may frame a page. This module imports nothing but the standard library (it is loaded by
uvicorn before any Streamlit script runs).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import re
from pathlib import Path

#: set to 1 in a server's environment to leave the metrics open: for a test or a benchmark
#: on this machine that reads what the server holds, never for a served app
OPEN_METRICS_VARIABLE = "PERCEPTRON_LAB_OPEN_METRICS"
#: the paths that answer 404 (the prefix Streamlit mounts its internal routes under); read
#: once, when the server loads this module
CLOSED_PATHS = (() if os.environ.get(OPEN_METRICS_VARIABLE) == "1"
                else ("/_stcore/metrics",))


def inline_script_hashes() -> list[str]:
    """CSP sources ('sha256-…') of the inline scripts of Streamlit's index.html (one line,
    window.prerenderReady = false, in 1.67), read from the installed package."""
    spec = importlib.util.find_spec("streamlit")
    index = Path(spec.origin).parent / "static" / "index.html"
    scripts = re.findall(r"<script>(.*?)</script>", index.read_text(encoding="utf-8"), re.S)
    return [f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
            for s in scripts]


CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    # the player (st.components.v2) is imported from a blob: URL; Streamlit compiles
    # WebAssembly (its dataframes)
    " ".join(["script-src 'self' blob: 'wasm-unsafe-eval'", *inline_script_hashes()]),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
])

HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
_NAMES = {name for name, _ in HEADERS}


def closed(path: str) -> bool:
    """Whether ``path`` is one the server does not answer (under any base URL path)."""
    path = path.rstrip("/")
    return any(path == closed or path.endswith(closed) for closed in CLOSED_PATHS)


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response, 404 for CLOSED_PATHS."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # the websocket and the lifespan pass as they are
            await self.app(scope, receive, send)
            return
        if closed(scope.get("path", "")):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS]})
            await send({"type": "http.response.body", "body": b"Not found\n"})
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": kept + list(HEADERS)}
            await send(message)

        await self.app(scope, receive, send_with_headers)
