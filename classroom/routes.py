"""The live class's JSON routes, which app.py adds to ``st.App`` (Starlette, no Streamlit).

A phone polls ``GET /class-api/state`` once a second and posts its answer to
``POST /class-api/answer``: no Streamlit script runs for a student after the page has loaded,
so a hall of phones costs a small JSON request each per second, not a rerun each.

- ``POST /class-api/join``    ``{"code"}`` -> ``{"token"}``, the student's anonymous token (also
  left in an HttpOnly cookie, so a browser whose storage was cleared gets the same one back)
- ``GET  /class-api/state?code=CODE`` (header ``X-Class-Token`` optional) -> the poll as a
  student sees it, ``mine``: their own answer
- ``POST /class-api/answer``  ``{"code", "token", "poll", "option"}`` -> ``{"mine"}``
- ``GET  /class-api/counts?code=CODE`` (header ``X-Class-Key``) -> the counts, for the
  instructor (and the benchmark); the key never travels in a URL
- ``POST /class-api/view``    ``{"code", "url"}`` (header ``X-Class-Key``) -> ``{"view",
  "publishing"}``: the instructor's page publishes its address after a step (the player's
  hook in pages/player/player_moves.js), cleaned to a page of this app; nothing changes while
  the instructor has stopped publishing on /class

Every refusal is ``{"error": message}`` with its HTTP status (404 wrong code, 403 wrong key or
joining closed, 409 closed poll, 400 garbled token, body or link, 413 a body over 2 KB, 415 not
JSON, 429 too many requests, with ``Retry-After``). A body is read only up to its 2 KB: a
longer one is refused at once, before the rest is read. Joins and answers are limited per client
address (:mod:`classroom.clients`: the peer, or the address a loopback proxy forwards). The
routes' work runs in Starlette's thread pool, so a Redis round trip never holds up Streamlit's
event loop; a fault of ours is one line in the log, never a traceback per request.
"""

from __future__ import annotations

import json
import logging
import math

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from classroom import ClassError, class_store, normalise_code
from classroom.clients import client_address
from classroom.store import CLASS_TTL_SECONDS
from pages.common.page_table import PAGE_TABLE

PREFIX = "/class-api"
MAX_BODY_BYTES = 2048
#: the cookie that keeps a student's token of class CODE (``lab_class_CODE``)
COOKIE_PREFIX = "lab_class_"
_NO_STORE = {"Cache-Control": "no-store"}
_LOG = logging.getLogger("perceptron_lab.class")
_PAGES: set[str] = set()
_FAULTS_LOGGED: set[str] = set()
_EXAMPLE = 'a JSON object such as {"code": "ABC234"}'


class _NotFinite(ValueError):
    pass


def followable_pages() -> set[str]:
    """The pages a published view may open: every page of the table but /class itself."""
    if not _PAGES:
        _PAGES.update(entry.name for entry in PAGE_TABLE if entry.name != "class")
    return _PAGES


def client_of(request: Request) -> str:
    """The client's address (the peer, or what a loopback proxy says it forwards for)."""
    peer = request.client.host if request.client else None
    return client_address(peer, request.headers.getlist("x-forwarded-for"))


def _reply(payload: dict, status: int = 200, headers: dict | None = None) -> JSONResponse:
    return JSONResponse(payload, status_code=status, headers={**_NO_STORE, **(headers or {})})


def _error(error: ClassError) -> JSONResponse:
    headers = {}
    if error.retry_after:
        headers["Retry-After"] = str(max(1, math.ceil(error.retry_after)))
    return _reply(
        {"error": error.message, **({"retry": error.retry_after} if error.retry_after else {})},
        error.status,
        headers,
    )


def _refuse_constant(name: str):
    raise _NotFinite(name)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _NotFinite(text)
    return number


def parse_body(raw: bytes) -> dict:
    """The JSON object of a body; a ClassError (400) saying what is wrong with any other."""
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, parse_float=_finite)
    except _NotFinite:
        raise ClassError(
            f"Numbers in the request must be finite (not Infinity, NaN or 1e400): send {_EXAMPLE}.",
            400,
        ) from None
    except RecursionError:
        raise ClassError(
            f"The request is nested too deeply to read: send {_EXAMPLE}.", 400
        ) from None
    except (ValueError, UnicodeDecodeError):
        raise ClassError(f"The request is not JSON: send {_EXAMPLE}.", 400) from None
    if not isinstance(body, dict):
        raise ClassError(f"The request must be a JSON object: send {_EXAMPLE}.", 400)
    return body


async def read_body(request: Request) -> dict:
    """The JSON object a POST carries, read at most ``MAX_BODY_BYTES`` far: a longer body is
    refused (413) as soon as its length says so or the bytes read pass it, never read whole.
    (A cross-site form cannot send application/json without a CORS preflight, which these
    routes never grant.)"""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ClassError("Send the request as JSON (Content-Type: application/json).", 415)
    too_large = ClassError(
        f"Request too large: a request to the class is at most {MAX_BODY_BYTES} bytes.", 413
    )
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise ClassError("The request's Content-Length is not a number.", 400)
        if int(declared) > MAX_BODY_BYTES:
            raise too_large
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise too_large
    return parse_body(bytes(raw))


def _text(body: dict, name: str) -> str:
    value = body.get(name, "")
    if not isinstance(value, str):
        raise ClassError(f"“{name}” must be text in the request.", 400)
    return value


def _log_fault(request: Request, error: Exception) -> None:
    """One line per fault; the traceback only the first time a kind of fault is met."""
    kind = f"{request.url.path}:{type(error).__name__}"
    if kind in _FAULTS_LOGGED:
        _LOG.error("class route %s failed: %s", request.url.path, type(error).__name__)
    else:
        _FAULTS_LOGGED.add(kind)
        _LOG.error("class route %s failed (traceback shown once)", request.url.path, exc_info=error)


def _handled(function):
    """An endpoint: read a POST's body, run ``function(request, body)`` in the thread pool; a
    ClassError becomes its JSON message, any other fault a 500 with a sentence."""

    async def endpoint(request: Request):
        try:
            body = await read_body(request) if request.method == "POST" else {}
            result = await run_in_threadpool(function, request, body)
        except ClassError as error:
            return _error(error)
        except Exception as error:  # noqa: BLE001 - a fault of ours: said briefly, logged once
            _log_fault(request, error)
            return _reply(
                {"error": "The class server could not answer: try again in a moment."}, 500
            )
        return result if isinstance(result, JSONResponse) else _reply(result)

    return endpoint


def join(request: Request, body: dict):
    code = _text(body, "code")
    store = class_store()
    cookie_name = None
    try:
        cookie_name = COOKIE_PREFIX + normalise_code(code)
    except ClassError:
        pass  # the store says what is wrong with the code
    kept = request.cookies.get(cookie_name) if cookie_name else None
    token = store.join(code, client=client_of(request), token=kept)
    if cookie_name is None:  # unreachable: join refuses a code that does not normalise
        raise ClassError("That is not a class code.", 400)
    response = _reply({"token": token})
    response.set_cookie(
        cookie_name,
        token,
        max_age=int(CLASS_TTL_SECONDS),
        path=PREFIX,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def state(request: Request, body: dict) -> dict:
    token = request.headers.get("x-class-token") or None
    return class_store().public_state(request.query_params.get("code", ""), token)


def answer(request: Request, body: dict) -> dict:
    mine = class_store().answer(
        _text(body, "code"),
        _text(body, "token"),
        body.get("poll"),
        body.get("option"),
        client=client_of(request),
    )
    return {"mine": mine}


def counts(request: Request, body: dict) -> dict:
    key = request.headers.get("x-class-key", "")
    return class_store().instructor_state(request.query_params.get("code", ""), key)


def view(request: Request, body: dict) -> dict:
    return class_store().follow_view(
        _text(body, "code"),
        request.headers.get("x-class-key", ""),
        _text(body, "url"),
        followable_pages(),
        host=request.headers.get("host", ""),
    )


ROUTES = [
    Route(f"{PREFIX}/join", _handled(join), methods=["POST"]),
    Route(f"{PREFIX}/state", _handled(state), methods=["GET"]),
    Route(f"{PREFIX}/answer", _handled(answer), methods=["POST"]),
    Route(f"{PREFIX}/counts", _handled(counts), methods=["GET"]),
    Route(f"{PREFIX}/view", _handled(view), methods=["POST"]),
]
