"""What the server tells strangers: security headers on every HTTP response (errors too), no
/_stcore/metrics, and no server path or installation id on the websocket.

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
may frame a page.

An exception under this middleware (a fault of the app, never of a request) becomes a 500
with the same headers and one line in the log, not Starlette's bare 500 and a traceback per
request. On the websocket, Streamlit's first message of every script run names the app's
file by its full path on the server and the installation's ids (its metrics would use them;
they are off here): the path is cut to the file's name and the ids emptied, and Streamlit's
answer to a browser asking for the server's git repository (branch, uncommitted files) is
dropped. This module imports nothing but the standard library when loaded (by uvicorn,
before any Streamlit script runs); Streamlit's protocol messages are read only to rewrite
one of them.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import logging
import os
import re
from pathlib import Path

#: set to 1 in a server's environment to leave the metrics open: for a test or a benchmark
#: on this machine that reads what the server holds, never for a served app
OPEN_METRICS_VARIABLE = "PERCEPTRON_LAB_OPEN_METRICS"
#: the paths that answer 404 (the prefix Streamlit mounts its internal routes under); read
#: once, when the server loads this module
CLOSED_PATHS = () if os.environ.get(OPEN_METRICS_VARIABLE) == "1" else ("/_stcore/metrics",)


def inline_script_hashes() -> list[str]:
    """CSP sources ('sha256-…') of the inline scripts of Streamlit's index.html (one line,
    window.prerenderReady = false, in 1.67), read from the installed package."""
    spec = importlib.util.find_spec("streamlit")
    index = Path(spec.origin).parent / "static" / "index.html"
    scripts = re.findall(r"<script>(.*?)</script>", index.read_text(encoding="utf-8"), re.S)
    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in scripts
    ]


CONTENT_SECURITY_POLICY = "; ".join(
    [
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
    ]
)

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


_LOG = logging.getLogger("perceptron_lab.web")
_FAULTS_LOGGED: set[str] = set()
#: ForwardMsg's fields (streamlit/proto/ForwardMsg.proto): a new session, and the git
#: information a browser may ask for
_NEW_SESSION, _GIT_INFO = 4, 14


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7


def forward_msg_type(data: bytes) -> int | None:
    """The field number of the message a serialized ForwardMsg carries (its top-level fields
    are read by their tags only; the payloads are skipped), None if it cannot be read."""
    at = 0
    try:
        while at < len(data):
            tag, at = _varint(data, at)
            number, wire = tag >> 3, tag & 7
            if number not in (1, 2):  # hash and metadata come with every message
                return number
            if wire == 2:
                length, at = _varint(data, at)
                at += length
            elif wire == 0:
                _, at = _varint(data, at)
            else:
                return None
    except IndexError:
        return None
    return None


def scrub_new_session(data: bytes) -> bytes:
    """A new-session message without the server's path to the app (its file name kept, which
    the browser hashes with the ids) and without the installation ids."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    message = ForwardMsg.FromString(data)
    session = message.new_session
    session.main_script_path = os.path.basename(session.main_script_path)
    user = session.initialize.user_info
    user.installation_id = user.installation_id_v3 = user.installation_id_v4 = ""
    return message.SerializeToString()


def _log_fault(path: str, error: BaseException) -> None:
    """One line per fault; the traceback only the first time a kind of fault is met."""
    kind = type(error).__name__
    if kind in _FAULTS_LOGGED:
        _LOG.error("request %s failed: %s", path[:200], type(error).__name__)
    else:
        _FAULTS_LOGGED.add(kind)
        _LOG.error("request %s failed (traceback shown once)", path[:200], exc_info=error)


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response, 404 for CLOSED_PATHS, a 500
    with the headers for a fault; on the websocket, the server's path and ids left out."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            await self.app(scope, receive, self._websocket_send(send))
            return
        if scope["type"] != "http":  # the lifespan passes as it is
            await self.app(scope, receive, send)
            return
        if closed(scope.get("path", "")):
            await send(
                {
                    "type": "http.response.start",
                    "status": 404,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS],
                }
            )
            await send({"type": "http.response.body", "body": b"Not found\n"})
            return
        started = False

        async def send_with_headers(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": kept + list(HEADERS)}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as error:  # noqa: BLE001 - a fault of the app: a 500, said briefly
            _log_fault(scope.get("path", ""), error)
            if started:
                raise
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS],
                }
            )
            await send(
                {
                    "type": "http.response.body",
                    "body": b"The server could not answer this request: try again.\n",
                }
            )

    @staticmethod
    def _websocket_send(send):
        async def scrubbed(message):
            data = message.get("bytes") if message.get("type") == "websocket.send" else None
            if data:
                kind = forward_msg_type(data)
                if kind == _GIT_INFO:
                    return
                if kind == _NEW_SESSION:
                    message = {**message, "bytes": scrub_new_session(data)}
            await send(message)

        return scrubbed
