"""The live class's JSON routes, which app.py adds to ``st.App`` (Starlette, no Streamlit).

A phone polls ``GET /class-api/state`` once a second and posts its answer to
``POST /class-api/answer``: no Streamlit script runs for a student after the page has loaded,
so a hall of phones costs a small JSON request each per second, not a rerun each.

- ``POST /class-api/join``    ``{"code"}`` -> ``{"token"}``, the student's anonymous token
- ``GET  /class-api/state?code=CODE`` (header ``X-Class-Token`` optional) -> the poll as a
  student sees it, ``mine``: their own answer
- ``POST /class-api/answer``  ``{"code", "token", "poll", "option"}`` -> ``{"mine"}``
- ``GET  /class-api/counts?code=CODE`` (header ``X-Class-Key``) -> the counts, for the
  instructor (and the benchmark); the key never travels in a URL
- ``POST /class-api/view``    ``{"code", "url"}`` (header ``X-Class-Key``) -> ``{"view",
  "publishing"}``: the instructor's page publishes its address after a step (the player's
  hook in pages/player/player_moves.js), cleaned to a page of this app; nothing changes while
  the instructor has stopped publishing on /class

Every refusal is ``{"error": message}`` with its HTTP status (404 wrong code, 403 wrong key,
409 closed poll, 400 garbled token, body or link, 429 too many answers or views). The routes are plain
``def`` functions: Starlette runs them in its thread pool, so a Redis round trip never holds
up Streamlit's event loop.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from classroom import ClassError, class_store

PREFIX = "/class-api"
MAX_BODY_BYTES = 2048
_NO_STORE = {"Cache-Control": "no-store"}
#: pages/common/page_table.py, read as a file: importing the package ``pages.common`` would
#: start a page's Streamlit set-up outside a script run
_PAGE_TABLE = Path(__file__).resolve().parent.parent / "pages" / "common" / "page_table.py"
_PAGES: set[str] = set()


def followable_pages() -> set[str]:
    """The pages a published view may open: every page of the table but /class itself."""
    if not _PAGES:
        spec = importlib.util.spec_from_file_location("_lab_page_table", _PAGE_TABLE)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _PAGES.update(entry.name for entry in module.PAGE_TABLE if entry.name != "class")
    return _PAGES


def _reply(payload: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(payload, status_code=status, headers=_NO_STORE)


def _error(error: ClassError) -> JSONResponse:
    return _reply({"error": error.message}, error.status)


def _body(request: Request) -> dict:
    """The JSON object a POST carries (a cross-site form cannot send application/json
    without a CORS preflight, which these routes never grant)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ClassError("Send the answer as JSON.", 415)
    if int(request.headers.get("content-length") or 0) > MAX_BODY_BYTES:
        raise ClassError("Request too large.", 413)
    return request.state.body


async def _read(request: Request) -> None:
    raw = await request.body()
    try:
        body = json.loads(raw[:MAX_BODY_BYTES + 1]) if len(raw) <= MAX_BODY_BYTES else None
    except (ValueError, UnicodeDecodeError):
        body = None
    request.state.body = body if isinstance(body, dict) else {}


def _handled(function):
    """Run ``function(request)`` in the thread pool; a ClassError becomes its JSON message."""
    from starlette.concurrency import run_in_threadpool

    async def endpoint(request: Request):
        if request.method == "POST":
            await _read(request)
        try:
            return _reply(await run_in_threadpool(function, request))
        except ClassError as error:
            return _error(error)
    return endpoint


def join(request: Request) -> dict:
    return {"token": class_store().join(_body(request).get("code", ""))}


def state(request: Request) -> dict:
    token = request.headers.get("x-class-token") or None
    return class_store().public_state(request.query_params.get("code", ""), token)


def answer(request: Request) -> dict:
    body = _body(request)
    mine = class_store().answer(body.get("code", ""), body.get("token", ""), body.get("poll"),
                                body.get("option"))
    return {"mine": mine}


def counts(request: Request) -> dict:
    key = request.headers.get("x-class-key", "")
    return class_store().instructor_state(request.query_params.get("code", ""), key)


def view(request: Request) -> dict:
    body = _body(request)
    return class_store().follow_view(body.get("code", ""), request.headers.get("x-class-key", ""),
                                     str(body.get("url") or ""), followable_pages(),
                                     host=request.headers.get("host", ""))


ROUTES = [
    Route(f"{PREFIX}/join", _handled(join), methods=["POST"]),
    Route(f"{PREFIX}/state", _handled(state), methods=["GET"]),
    Route(f"{PREFIX}/answer", _handled(answer), methods=["POST"]),
    Route(f"{PREFIX}/counts", _handled(counts), methods=["GET"]),
    Route(f"{PREFIX}/view", _handled(view), methods=["POST"]),
]
