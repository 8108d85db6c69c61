"""A hostile student against a real server (`make serve`'s deployment: HAProxy, one replica,
Redis; every request to 127.0.0.1): a 300 MB body, nested JSON, Infinity, 1e400 and NaN,
2 000 joins and answers from one address, a browser that cleared its storage, and the proxy's
own error pages. What must hold: bounded memory, a 400 with a sentence for every malformed body,
no 500, no traceback in the log, the security headers on every answer, and a room that one
address cannot lock out."""

from __future__ import annotations

import json
import select
import socket
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie

import pytest
import redis
from class_helpers import serve, small_question

from classroom.redis_store import RedisStore
from classroom.store import ANSWER_LIMIT, JOIN_LIMIT

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))
HALL = "203.0.113.9"
ELSEWHERE = "198.51.100.7"
HEADERS = (
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
)


def call(base, path, body=None, headers=None, raw: bytes | None = None):
    """(status, headers, JSON) of one request; ``raw`` is sent as the body as it is."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(
        f"{base}/class-api/{path}",
        data=data,
        headers={
            **({"Content-Type": "application/json"} if data is not None else {}),
            **(headers or {}),
        },
    )
    try:
        with _NO_PROXY.open(request, timeout=30) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            headers["set-cookie"] = response.headers.get_all("Set-Cookie") or []
            return response.status, headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            payload = json.loads(text)
        except ValueError:
            payload = {"text": text.decode(errors="replace")}
        return error.code, {k.lower(): v for k, v in error.headers.items()}, payload


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def served():
    if serve.find_haproxy() is None or serve.find_redis_server() is None:
        pytest.skip("haproxy or redis-server not installed")
    with serve.deployment(replicas=1) as dep:
        yield dep


@pytest.fixture
def klass(served):
    """A new class with an open poll (made in Redis, as the instructor's page makes it)."""
    store = RedisStore(redis.Redis.from_url(served.redis_url, decode_responses=True))
    new = store.create()
    return store, new, store.open_poll(new.code, new.key, small_question())


def stream_body(port: int, path: str, chunked: bool, megabytes: int = 300) -> tuple[int, bytes]:
    """POST ``megabytes`` of body to ``path``, 1 MB at a time from one buffer (the test never
    holds the whole body), until the server answers; (bytes sent by then, the answer)."""
    chunk = b"[" * (1 << 20)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {megabytes << 20}"
    head = (
        f"POST /class-api/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
        f"application/json\r\n{framing}\r\n\r\n"
    ).encode()
    piece = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") if chunked else chunk
    sent, answer = 0, b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        for _ in range(megabytes):
            if select.select([sock], [], [], 0)[0]:
                break  # the server has answered: stop sending, as a client would
            try:
                sock.sendall(piece)
            except OSError:  # it closed the connection once it had answered
                break
            sent += len(chunk)
        deadline = time.monotonic() + 30
        while b"\r\n\r\n" not in answer and time.monotonic() < deadline:
            got = sock.recv(65536)
            if not got:
                break
            answer += got
    return sent, answer


def test_a_300_mb_body_is_refused_at_once_and_the_server_does_not_grow(served):
    replica = served.replicas[0]
    before = rss_mb(replica.process.pid)
    for port, path, chunked in (
        (replica.port, "join", False),
        (replica.port, "view", True),
        (served.port, "answer", False),
        (served.port, "join", True),
    ):
        sent, answer = stream_body(port, path, chunked)
        head = answer.split(b"\r\n\r\n")[0].decode(errors="replace").lower()
        assert head.startswith("http/1.1 413"), (path, head[:200])
        assert all(f"\n{name}:" in head for name in HEADERS), head
        assert sent < 64 << 20, (path, sent)  # answered long before the 300 MB were sent
    time.sleep(1)
    grown = rss_mb(replica.process.pid) - before
    print(f"\n4 bodies of 300 MB: the replica grew {grown:.1f} MB")
    assert grown < 50, (before, grown)
    assert call(replica.url, "join", {"code": "ZZZZZZ"})[0] == 404  # and it still answers


MALFORMED = {
    "nested list": b"[" * 1000 + b"]" * 1000,
    "nested value": b'{"code": ' + b"[" * 900 + b"]" * 900 + b"}",
    "Infinity": b'{"code": "CODE", "token": "TOKEN", "poll": Infinity, "option": 0}',
    "-Infinity option": b'{"code": "CODE", "token": "TOKEN", "poll": 1, "option": -Infinity}',
    "1e400": b'{"code": "CODE", "token": "TOKEN", "poll": 1e400, "option": 0}',
    "NaN": b'{"code": "CODE", "token": "TOKEN", "poll": NaN, "option": 0}',
    "a list as code": b'{"code": ["CODE"], "token": "TOKEN", "poll": 1, "option": 0}',
    "not JSON": b"code=CODE",
    "not an object": b'["CODE"]',
    "not UTF-8": b'{"code": "\xff\xfe"}',
    "empty": b"",
}
#: bodies only an answer refuses (the other routes take no poll or option)
MALFORMED_ANSWERS = {
    "a huge whole number": b'{"code": "CODE", "token": "TOKEN", "poll": 1'
    + b"0" * 400
    + b', "option": 0}',
    "a float option": b'{"code": "CODE", "token": "TOKEN", "poll": 1, "option": 1.5}',
    "a bool option": b'{"code": "CODE", "token": "TOKEN", "poll": 1, "option": true}',
    "a text token": b'{"code": "CODE", "token": ["TOKEN"], "poll": 1, "option": 0}',
}


CASES = [(route, name) for route in ("answer", "join", "view") for name in MALFORMED] + [
    ("answer", name) for name in MALFORMED_ANSWERS
]


@pytest.mark.parametrize("route, name", CASES)
def test_every_malformed_body_is_a_400_with_a_sentence_and_no_traceback(served, klass, route, name):
    store, new, poll = klass
    base = served.replicas[0].url
    log = served.replicas[0].log_path
    logged = log.stat().st_size
    token = call(base, "join", {"code": new.code})[2]["token"]
    raw = {**MALFORMED, **MALFORMED_ANSWERS}[name]
    raw = raw.replace(b"CODE", new.code.encode()).replace(b"TOKEN", token.encode())
    status, headers, body = call(base, route, raw=raw, headers={"X-Class-Key": new.key})
    assert status == 400, (status, body)
    assert body["error"].endswith(".") and len(body["error"]) > 20, body
    assert all(headers.get(h) for h in HEADERS), headers
    grown = log.read_bytes()[logged:].decode(errors="replace")
    assert "Traceback" not in grown and len(grown) < 300, grown[-2000:]
    assert store.instructor_state(new.code, new.key)["poll"]["total"] == 0


def test_two_thousand_joins_and_answers_from_one_address_leave_the_room_open(served, klass):
    store, new, poll = klass
    base = served.replicas[0].url  # its peer is loopback: it reads the address a proxy gives
    hall = {"X-Forwarded-For": HALL}
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=8) as pool:
        joins = list(pool.map(lambda _: call(base, "join", {"code": new.code}, hall), range(2000)))
    seconds = time.monotonic() - started
    tokens = [body["token"] for status, _, body in joins if status == 200]
    refused = [(headers, body) for status, headers, body in joins if status == 429]
    assert len(tokens) + len(refused) == 2000
    assert (
        JOIN_LIMIT.burst <= len(tokens) <= JOIN_LIMIT.burst + JOIN_LIMIT.per_second * (seconds + 1)
    )
    assert all(int(h["retry-after"]) >= 1 and "joins by itself" in b["error"] for h, b in refused)
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(
            pool.map(
                lambda i: call(
                    base,
                    "answer",
                    {"code": new.code, "token": tokens[i % len(tokens)], "poll": poll, "option": 0},
                    hall,
                ),
                range(2000),
            )
        )
    counted = sum(status == 200 for status, _, _ in answers)
    print(
        f"\n2000 joins from one address in {seconds:.1f} s: {len(tokens)} tokens, "
        f"{len(refused)} refused; 2000 answers with them: {counted} counted"
    )
    assert counted <= ANSWER_LIMIT.burst + ANSWER_LIMIT.per_second * (
        time.monotonic() - started + 1
    )
    assert {status for status, _, _ in answers} <= {200, 429}
    # students elsewhere, directly and through the proxy, join and answer as if nothing happened
    for front, headers in ((base, {"X-Forwarded-For": ELSEWHERE}), (served.url, hall)):
        status, _, body = call(front, "join", {"code": new.code}, headers)
        assert status == 200, body  # through the proxy a forged X-Forwarded-For is dropped
        assert (
            call(
                front,
                "answer",
                {"code": new.code, "token": body["token"], "poll": poll, "option": 1},
                headers,
            )[0]
            == 200
        )
    state = store.instructor_state(new.code, new.key)
    assert state["joined"] == len(tokens) + 2 and state["poll"]["counts"][1] == 2


def test_a_browser_that_cleared_its_storage_gets_its_token_back_or_is_counted_apart(served, klass):
    store, new, poll = klass
    base = served.url
    status, headers, body = call(base, "join", {"code": new.code})
    jar = SimpleCookie()
    for line in headers["set-cookie"]:  # HAProxy's REPLICA, and the class's
        jar.load(line)
    cookie = jar[f"lab_class_{new.code}"]
    assert cookie["httponly"] and cookie["samesite"].lower() == "strict"
    assert cookie["path"] == "/class-api" and int(cookie["max-age"]) > 3600
    token = body["token"]
    assert (
        call(base, "answer", {"code": new.code, "token": token, "poll": poll, "option": 0})[0]
        == 200
    )
    # localStorage cleared, the cookie kept: the same student, the same single answer
    again = call(
        base, "join", {"code": new.code}, {"Cookie": f"lab_class_{new.code}={cookie.value}"}
    )[2]["token"]
    assert again == token
    # everything cleared: a new token, whose answer the projector counts apart
    other = call(base, "join", {"code": new.code})[2]["token"]
    assert (
        call(base, "answer", {"code": new.code, "token": other, "poll": poll, "option": 1})[0]
        == 200
    )
    state = store.instructor_state(new.code, new.key)["poll"]
    assert (state["total"], state["late"]) == (2, 1)


def hall(base: str, path: str, bodies: list[dict], seconds: float, seed: int) -> dict:
    """Send ``bodies`` to ``path`` spread evenly over ``seconds``, as a hall behind one address
    would (every request through the proxy comes from 127.0.0.1); a refused one is sent again
    when the answer says, plus up to 1 s, as student.js does. Returns the answers, how many
    refusals there were, and the longest delay a student saw (s)."""
    import random

    jitter = random.Random(seed)
    waits = [jitter.random() for _ in bodies]
    start = time.monotonic()

    def one(index):
        due = start + seconds * index / len(bodies)
        time.sleep(max(0.0, due - time.monotonic()))
        refused = 0
        while True:
            status, _, body = call(base, path, bodies[index])
            if status != 429:
                return status, body, refused, time.monotonic() - due
            refused += 1
            time.sleep(max(1.0, body.get("retry", 1)) + waits[index])

    with ThreadPoolExecutor(max_workers=64) as pool:
        done = list(pool.map(one, range(len(bodies))))
    return {
        "answers": [(status, body) for status, body, _, _ in done],
        "refusals": sum(r for _, _, r, _ in done),
        "longest": max(delay for _, _, _, delay in done),
    }


def test_a_hall_of_500_behind_one_address_joins_and_answers_without_a_refusal(served, klass):
    store, new, poll = klass
    joins = hall(served.url, "join", [{"code": new.code}] * 500, seconds=10, seed=1)
    tokens = [body["token"] for status, body in joins["answers"] if status == 200]
    assert len(tokens) == 500 and joins["refusals"] == 0
    taps = [
        {"code": new.code, "token": token, "poll": poll, "option": option}
        for option in (0, 1)
        for token in tokens
    ]  # an answer, then a change of mind
    answers = hall(served.url, "answer", taps, seconds=10, seed=2)
    assert {status for status, _ in answers["answers"]} == {200} and answers["refusals"] == 0
    state = store.instructor_state(new.code, new.key)
    assert state["joined"] == 500 and state["poll"]["counts"] == [0, 500, 0]
    # a hall of 1000 within 10 s: 600 at once and by the rate, the rest a few seconds later
    second = store.create()
    bigger = hall(served.url, "join", [{"code": second.code}] * 1000, seconds=10, seed=3)
    assert {status for status, _ in bigger["answers"]} == {200}
    print(
        f"\nhall of 500 in 10 s: {joins['refusals']} refused joins, longest join "
        f"{joins['longest']:.2f} s; 1000 taps in 10 s: {answers['refusals']} refused, longest "
        f"{answers['longest']:.2f} s; hall of 1000 in 10 s: {bigger['refusals']} refusals, "
        f"longest join {bigger['longest']:.1f} s"
    )


def test_the_proxys_own_error_pages_carry_the_security_headers(served):
    served.stop_replica(0)  # the last test of the module: no replica left
    deadline = time.monotonic() + 30
    status = None
    while time.monotonic() < deadline:
        status, headers, _ = call(served.url, "state?code=ABCDEF")
        if status == 503:
            break
        time.sleep(0.5)
    assert status == 503
    assert headers["content-security-policy"].startswith("default-src 'none'")
    assert all(headers.get(h) for h in HEADERS), headers


# ---- web_security.py, in-process (no server) ------------------------------------------
def _run_asgi(app, scope, messages=()):
    import asyncio

    sent = []

    async def receive():
        return messages[0] if messages else {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright may own this thread's loop
        pool.submit(asyncio.run, app(scope, receive, send)).result(timeout=30)
    return sent


def test_a_fault_of_the_app_is_a_500_with_the_headers_and_one_line_in_the_log(caplog):
    from web_security import SecurityHeaders

    async def broken(scope, receive, send):
        raise RuntimeError("a bug of ours, at /work/secret/path.py")

    scope = {"type": "http", "path": "/somewhere", "method": "GET", "headers": []}
    for _ in range(3):
        sent = _run_asgi(SecurityHeaders(broken), scope)
        start = sent[0]
        assert start["status"] == 500
        names = {name.decode() for name, _ in start["headers"]}
        assert set(HEADERS) <= names
        assert b"/work" not in sent[1]["body"] and b"Traceback" not in sent[1]["body"]
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1  # the first time only; then one line each
    assert len([r for r in caplog.records if r.name == "perceptron_lab.web"]) == 3


def test_the_websocket_loses_the_servers_path_and_ids_and_no_git_information_leaves():
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    from web_security import SecurityHeaders

    session = ForwardMsg()
    session.metadata.delta_path[:] = [0]
    session.new_session.main_script_path = "/srv/lab/app.py"
    session.new_session.initialize.user_info.installation_id = "an-installation-id"
    session.new_session.initialize.user_info.installation_id_v3 = "another-id"
    session.new_session.initialize.environment_info.streamlit_version = "1.67"
    delta = ForwardMsg()
    delta.metadata.delta_path[:] = [0, 1]
    delta.delta.new_element.markdown.body = "A path in a student's text: /srv/lab/app.py"
    git = ForwardMsg()
    git.git_info_changed.repository = "lab"
    git.git_info_changed.uncommitted_files[:] = ["/srv/lab/secret.txt"]
    frames = [m.SerializeToString() for m in (session, delta, git)]

    async def app(scope, receive, send):
        for frame in frames:
            await send({"type": "websocket.send", "bytes": frame})
        await send({"type": "websocket.send", "text": "a text frame"})

    sent = _run_asgi(SecurityHeaders(app), {"type": "websocket", "path": "/_stcore/stream"})
    assert len(sent) == 3  # the git information is dropped
    scrubbed = ForwardMsg.FromString(sent[0]["bytes"])
    assert scrubbed.new_session.main_script_path == "app.py"
    info = scrubbed.new_session.initialize
    assert (info.user_info.installation_id, info.user_info.installation_id_v3) == ("", "")
    assert info.environment_info.streamlit_version == "1.67"  # the rest as it was
    assert sent[1]["bytes"] == frames[1] and sent[2]["text"] == "a text frame"
