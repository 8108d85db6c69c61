"""Following the lecturer: ``POST /class-api/view``, which the instructor's
pages call after each step, against the in-memory store and a real Redis. The key (in a
header), the cleaning of the link (this app's pages and host only), Stop publishing, and the
per-class rate limit."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis
from class_helpers import (
    Clock,
    redis_url,  # noqa: F401 (a fixture)
)
from starlette.applications import Starlette

import classroom
from classroom.memory import MemoryStore
from classroom.redis_store import RedisStore
from classroom.routes import ROUTES, followable_pages
from classroom.store import VIEW_RATE
from pages.common.page_table import PAGE_TABLE

HOST = "lab.example:8500"
REPO_ROOT = Path(__file__).resolve().parents[2]


def call(path: str, body=None, headers=None, method=None, host=HOST, raw: bytes | None = None):
    """(status, JSON) of one request to the class's routes, through the ASGI app (no server)."""
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
    heads = {"host": host, "content-length": str(len(data)), **(headers or {})}
    if body is not None and "content-type" not in {k.lower() for k in heads}:
        heads["content-type"] = "application/json"
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method or ("POST" if data else "GET"),
        "scheme": "http",
        "path": f"/class-api/{path}",
        "raw_path": f"/class-api/{path}".encode(),
        "query_string": query.encode(),
        "root_path": "",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 5000),
        "headers": [(k.lower().encode(), v.encode()) for k, v in heads.items()],
    }
    sent = {"status": None, "body": b""}

    async def receive():
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            sent["status"] = message["status"]
        elif message["type"] == "http.response.body":
            sent["body"] += message.get("body", b"")

    # in a thread of its own: a browser test earlier in the session may leave Playwright's
    # event loop running in this one, where asyncio.run() refuses to start
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, Starlette(routes=ROUTES)(scope, receive, send)).result(timeout=60)
    try:
        return sent["status"], json.loads(sent["body"] or b"{}")
    except ValueError:  # Starlette's own plain-text refusals (405)
        return sent["status"], {"text": sent["body"].decode()}


@pytest.fixture(params=["memory", "redis"])
def store(request, monkeypatch):
    """The store the routes use (classroom.class_store()), one of each kind."""
    if request.param == "memory":
        chosen = MemoryStore()
    else:
        client = redis.Redis.from_url(request.getfixturevalue("redis_url"), decode_responses=True)
        client.flushdb()
        chosen = RedisStore(client)
    monkeypatch.setattr(classroom, "_STORE", chosen)
    return chosen


def publish(new, url, key=None, **kwargs):
    return call(
        "view",
        {"code": new.code, "url": url},
        headers={"X-Class-Key": new.key if key is None else key},
        **kwargs,
    )


def test_the_pages_that_may_be_followed_are_the_page_tables_but_class():
    # read from the file, not through pages.common: an independent reference
    assert followable_pages() == {e.name for e in PAGE_TABLE} - {"class"}
    assert "train" in followable_pages() and "class" not in followable_pages()


def test_only_the_key_publishes_and_students_see_the_cleaned_view(store):
    new, other = store.create(), store.create()
    for bad in ("", "x" * 32, other.key, new.key[:-1] + ("A" if new.key[-1] != "A" else "B")):
        status, body = publish(new, "/train?step=3", key=bad)
        assert status == 403 and "instructor" in body["error"], (bad, body)
    status, body = call("view", {"code": new.code, "url": "/train?step=3"})  # no header at all
    assert status == 403
    assert store.public_state(new.code)["view"] == ""  # nothing published by a refusal
    # the key in the URL instead of the header does not count either
    status, _ = call(f"view?key={new.key}", {"code": new.code, "url": "/train?step=3"})
    assert status == 403

    cases = {  # what the player posts -> what a follower's frame opens
        "/train?data=blobs&seed=7&step=12": "/train?data=blobs&seed=7&step=12",
        "/train?present=1&step=4": "/train?step=4",
        "/bound/?embed=true&embed_options=x&n=20": "/bound?n=20",
        f"http://{HOST}/kernels?step=2": "/kernels?step=2",
        f"https://{HOST.upper()}/relaxation": "/relaxation",
    }
    for url, seen in cases.items():
        status, body = publish(new, url)
        assert (status, body) == (200, {"view": seen, "publishing": True}), url
        assert store.public_state(new.code)["view"] == seen
        assert store.instructor_state(new.code, new.key)["view"] == seen
    assert store.public_state(other.code)["view"] == ""  # another class is untouched


@pytest.mark.parametrize(
    "url",
    [
        "http://evil.example/train?step=3",
        f"http://{HOST}.evil.example/train",
        "//evil.example/train",
        f"javascript://{HOST}/train",
        f"ftp://{HOST}/train",
        "/class?code=ABCDEF",
        "/home",
        "/",
        "",
        "/train/../class",
        "/nowhere?step=1",
        "/train?step=" + "9" * 1995,  # over the 2000 characters a view may have
    ],
)
def test_links_to_other_hosts_or_pages_are_refused_and_the_view_is_kept(store, url):
    new = store.create()
    assert publish(new, "/train?step=5")[0] == 200
    status, body = publish(new, url)
    assert status == 400 and "page of this app" in body["error"], (url, body)
    assert store.public_state(new.code)["view"] == "/train?step=5"


def test_bad_requests_get_a_clear_message(store):
    new = store.create()
    status, body = call(
        "view",
        raw=b"code=X&url=/train",
        headers={"X-Class-Key": new.key, "content-type": "application/x-www-form-urlencoded"},
    )
    assert status == 415 and "JSON" in body["error"]
    status, body = publish(new, "/train", method="GET")
    assert status == 405
    status, body = publish(new, "/train?step=" + "9" * 2100)  # over the 2 KB of a body
    assert status == 413 and "too large" in body["error"]
    assert store.public_state(new.code)["view"] == ""
    status, body = call(
        "view",
        {"code": "ZZZZZZ" if new.code != "ZZZZZZ" else "YYYYYY", "url": "/train"},
        headers={"X-Class-Key": new.key},
    )
    assert status == 404 and "No class has the code" in body["error"]
    status, body = call("view", {"code": "12", "url": "/train"}, headers={"X-Class-Key": new.key})
    assert status == 400 and "not a class code" in body["error"]


def test_stop_publishing_clears_the_view_and_keeps_the_pages_quiet_until_resumed(store):
    new = store.create()
    assert store.instructor_state(new.code, new.key)["publishing"] is True  # a new class does
    assert publish(new, "/train?step=2")[1]["view"] == "/train?step=2"
    store.set_publishing(new.code, new.key, False)
    state = store.instructor_state(new.code, new.key)
    assert state["publishing"] is False and state["view"] == ""
    assert store.public_state(new.code)["view"] == ""
    for step in (3, 4):
        assert publish(new, f"/train?step={step}") == (200, {"view": "", "publishing": False})
    assert store.public_state(new.code)["view"] == ""
    # a view pasted on /class is still published: the instructor asked for it
    store.publish_view(new.code, new.key, "/bound?n=5", followable_pages())
    assert publish(new, "/train?step=6")[1] == {"view": "/bound?n=5", "publishing": False}
    assert store.public_state(new.code)["view"] == "/bound?n=5"
    store.set_publishing(new.code, new.key, True)
    assert publish(new, "/train?step=7")[1] == {"view": "/train?step=7", "publishing": True}
    assert store.instructor_state(new.code, new.key)["publishing"] is True
    with pytest.raises(classroom.ClassError) as refused:  # only the key stops it
        store.set_publishing(new.code, "x" * 32, False)
    assert refused.value.status == 403
    assert store.public_state(new.code)["view"] == "/train?step=7"


def test_publications_are_rate_limited_per_class_and_a_stranger_uses_none_of_it(store):
    new, calm = store.create(), store.create()
    limit, _window = VIEW_RATE
    for _ in range(3 * limit):  # refused before counting: the instructor's share is intact
        assert publish(new, "/train?step=1", key="x" * 32)[0] == 403
    for step in range(1, limit + 1):
        assert publish(new, f"/train?step={step}")[0] == 200
    status, body = publish(new, "/train?step=999")
    assert status == 429 and "Too many" in body["error"]
    assert store.public_state(new.code)["view"] == f"/train?step={limit}"  # the last one let in
    assert publish(calm, "/train?step=1")[0] == 200  # another class is not held up


def use_up_the_view_limit(store, new) -> None:
    """Publish as many views as the limit allows and check the next one is refused."""
    limit, _window = VIEW_RATE
    for step in range(limit):
        store.follow_view(new.code, new.key, f"/train?step={step}", followable_pages())
    with pytest.raises(classroom.ClassError, match="Too many"):
        store.follow_view(new.code, new.key, "/train?step=99", followable_pages())


def test_the_memory_limit_ends_with_its_window():
    clock = Clock()
    store = MemoryStore(clock=clock)
    new = store.create()
    _limit, window = VIEW_RATE
    use_up_the_view_limit(store, new)
    clock.now += window
    assert (
        store.follow_view(new.code, new.key, "/train?step=99", followable_pages())["view"]
        == "/train?step=99"
    )


def test_the_redis_limit_ends_with_its_window_and_leaves_only_a_counter(redis_url):  # noqa: F811
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    store = RedisStore(client)
    new = store.create()
    limit, window = VIEW_RATE
    use_up_the_view_limit(store, new)
    counter = f"lab:class:{new.code}:rate:view"
    assert int(client.get(counter)) == limit + 1 and 0 < client.ttl(counter) <= window
    assert new.key not in " ".join(str(client.hgetall(k)) for k in client.keys("*:meta"))


def _holders(at) -> list[dict]:
    """What the keeper element (keeper.js) is handed: it leaves code and key in localStorage."""
    return [
        json.loads(element.proto.json)
        for element in at.get("bidi_component")
        if element.proto.component_name.endswith("lab_class_keeper")
    ]


def test_the_instructor_view_hands_this_browser_the_class_and_stop_publishing_works(monkeypatch):
    from app_helpers import open_page

    from pages.class_parts.follow import HELD_CLASS_STORAGE

    chosen = MemoryStore()
    monkeypatch.setattr(classroom, "_STORE", chosen)
    new = chosen.create()
    chosen.follow_view(new.code, new.key, "/train?step=8", followable_pages())
    at = open_page("pages/class.py", {"code": new.code, "key": new.key})
    # the element that leaves code and key where the player looks (player_moves.js)
    held = _holders(at)
    assert [(h["code"], h["key"], h["storage"]) for h in held] == [
        (new.code, new.key, HELD_CLASS_STORAGE)
    ]
    assert HELD_CLASS_STORAGE in (REPO_ROOT / "pages/player/player_moves.js").read_text()
    button = at.button(key="class_publishing")
    assert button.label == "Stop publishing"
    assert any("/train?step=8" in c.value for c in at.caption)
    button.click().run()
    assert not at.exception
    assert chosen.instructor_state(new.code, new.key)["publishing"] is False
    assert chosen.public_state(new.code)["view"] == ""
    assert at.button(key="class_publishing").label == "Publish my pages again"
    assert any("no view now" in c.value for c in at.caption)
    at.button(key="class_publishing").click().run()
    assert chosen.instructor_state(new.code, new.key)["publishing"] is True
    assert (
        chosen.follow_view(new.code, new.key, "/train?step=9", followable_pages())["view"]
        == "/train?step=9"
    )


def test_a_student_and_a_wrong_key_get_no_class_to_hold(monkeypatch):
    from app_helpers import open_page

    chosen = MemoryStore()
    monkeypatch.setattr(classroom, "_STORE", chosen)
    new = chosen.create()
    for query in ({"code": new.code}, {"code": new.code, "key": "x" * 32}):
        at = open_page("pages/class.py", query)
        assert _holders(at) == [] and not [b for b in at.button if b.key == "class_publishing"]
        assert new.key not in json.dumps([e.proto.json for e in at.get("bidi_component")])
