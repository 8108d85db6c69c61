"""The live class under `make serve`: two replicas behind HAProxy share one class in a real
Redis, and a replica that dies mid-poll loses no answer (tests start Debian's redis-server
on a free port through scripts/serve.py)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
import redis
from class_helpers import serve, small_question

from classroom.redis_store import RedisStore

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def call(base, path, body=None, headers=None):
    """(status, JSON) of a request to the class's routes."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}/class-api/{path}",
        data=data,
        headers={**({"Content-Type": "application/json"} if data else {}), **(headers or {})},
    )
    try:
        with _NO_PROXY.open(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def served():
    if serve.find_haproxy() is None or serve.find_redis_server() is None:
        pytest.skip("haproxy or redis-server not installed")
    with serve.deployment(replicas=2) as dep:
        yield dep


def test_two_replicas_share_a_class_and_a_dead_replica_loses_no_answer(served):
    store = RedisStore(redis.Redis.from_url(served.redis_url, decode_responses=True))
    new = store.create()  # as the instructor's page does, on whichever replica
    poll = store.open_poll(new.code, new.key, small_question())
    first, second = served.replica_urls
    tokens = []
    for index in range(6):  # students on both replicas, directly and through the proxy
        base = (first, second, served.url)[index % 3]
        status, body = call(base, "join", {"code": new.code})
        assert status == 200
        tokens.append(body["token"])
        status, body = call(
            base,
            "answer",
            {"code": new.code, "token": body["token"], "poll": poll, "option": index % 3},
        )
        assert (status, body) == (200, {"mine": index % 3})
    served.stop_replica(0)  # a crash mid-poll
    status, state = call(second, "counts?code=" + new.code, headers={"X-Class-Key": new.key})
    assert status == 200 and state["poll"]["counts"] == [2, 2, 2]
    # the students of the dead replica answer again through the proxy: replaced, not added
    for token in tokens[:3]:
        assert (
            call(
                served.url, "answer", {"code": new.code, "token": token, "poll": poll, "option": 0}
            )[0]
            == 200
        )
    served.start_replica(served.replicas[0])  # restarted, as make serve does
    served.wait_healthy(served.replicas[0])
    status, state = call(first, "counts?code=" + new.code, headers={"X-Class-Key": new.key})
    assert status == 200 and state["poll"]["total"] == 6
    assert state["poll"]["counts"] == [4, 1, 1]  # tokens 0..2 now on option 0


def test_the_routes_refuse_what_they_should_with_a_clear_message(served):
    store = RedisStore(redis.Redis.from_url(served.redis_url, decode_responses=True))
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    base = served.url
    status, body = call(base, f"counts?code={new.code}", headers={"X-Class-Key": "wrong" * 5})
    assert status == 403 and "instructor" in body["error"]
    status, body = call(base, f"counts?code={new.code}")
    assert status == 403
    status, body = call(base, f"state?code={new.code}")
    assert status == 200 and "counts" not in body["poll"] and "answer" not in body["poll"]
    assert call(base, "join", {"code": "ZZZZZZ"})[0] == 404
    assert (
        call(base, "answer", {"code": new.code, "token": "x.y", "poll": poll, "option": 0})[0]
        == 400
    )
    token = call(base, "join", {"code": new.code})[1]["token"]
    store.close(new.code, new.key)
    status, body = call(
        base, "answer", {"code": new.code, "token": token, "poll": poll, "option": 1}
    )
    assert status == 409 and "closed" in body["error"]
    # not JSON: refused before anything is read into the class
    request = urllib.request.Request(f"{base}/class-api/join", data=b"code=ABCDEF")
    with pytest.raises(urllib.error.HTTPError) as refused:
        _NO_PROXY.open(request, timeout=10)
    assert refused.value.code == 415
