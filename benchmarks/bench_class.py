"""A live class of S phones through `make serve`, and a replica, Redis and HAProxy each
killed during a poll.

    python benchmarks/bench_class.py --students 200 --replicas 2

It starts ``scripts/serve.py`` as `make serve` does (PORT, REPLICAS; on 127.0.0.1 only), and
the instructor starts a class. Each of the S students is one phone:

- it opens the join link, ``/class?code=CODE``, as a real Streamlit session (the page's
  HTTP requests, the websocket and the page run, benchmarks/load_client.py) and keeps that
  session open; when its websocket closes (its replica or the proxy died) it opens the page
  again once the server's health answers, as Streamlit's page reconnects;
- its page's element (pages/class_parts/student.js) then does what the bench does: join
  (``POST /class-api/join``), poll ``GET /class-api/state`` every second and, once a poll is
  open, wait 0-5 s (reading the question) and tap (``POST /class-api/answer``). A refusal with
  a Retry-After (the per-address limits: every simulated phone comes from 127.0.0.1, as a
  hall behind one NAT does; HAProxy replaces any X-Forwarded-For a client sends) is tried
  again after it, plus up to a second, as student.js does; any other failure after a second,
  as a student taps again after reading the error.

"Join" is the time from opening the link until the join is acknowledged (the page sent and
the token received). Then four polls: one undisturbed, and one each where replica r1, Redis
and HAProxy is killed (SIGKILL) once half the phones' answers are acknowledged. For each
poll: answers sent (one per phone), acknowledged, counted (the projector's counts, read
through the proxy with the instructor's key once the poll is closed), lost (acknowledged but
not counted, per option), double-counted (counted beyond the phones that chose that option),
the requests tried again (by the status they got; "no answer": the connection failed), and
after a kill: seconds until the class's routes answered through the proxy again (the last
failure a probe every 0.1 s or a phone met), and until every phone whose page lost its
websocket had the page open again. Each poll also gives the time from a tap to the
projector's count (the projector reading the counts every 50 ms; the page's own projector
redraws every second).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts"), str(ROOT / "benchmarks")]
import redis  # noqa: E402
import serve  # noqa: E402
from load_client import Student, StudentError  # noqa: E402

from classroom import poll_question  # noqa: E402
from classroom.redis_store import RedisStore  # noqa: E402

KILLS = ("replica r1", "redis-server", "haproxy")
POLL_SECONDS = 1.0  # student.js's POLL_MS
READ_SECONDS = 5.0  # a phone taps 0-5 s after the question appears
ANSWER_DEADLINE = 180.0  # a poll ends when every phone's tap is acknowledged, or after this
MAX_BODY = 64 * 1024


# ---- HTTP as a phone's page sends it ------------------------------------------------------
async def request(
    port: int,
    method: str,
    target: str,
    body: dict | None = None,
    headers: dict | None = None,
    cookies: dict | None = None,
    timeout: float = 10.0,
) -> tuple[int, dict, dict]:
    """One HTTP/1.1 request to 127.0.0.1:``port``: (status, headers, JSON body); status 0 when
    nothing answered. Set-Cookie is stored in ``cookies``."""
    data = b"" if body is None else json.dumps(body).encode()
    lines = [
        f"{method} {target} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Connection: close",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    if cookies:
        lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))

    async def exchange() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
            await writer.drain()
            raw = b""
            while len(raw) <= MAX_BODY and (chunk := await reader.read(65536)):
                raw += chunk
            return raw
        finally:
            writer.close()

    try:
        async with asyncio.timeout(timeout):
            raw = await exchange()
        head, _, rest = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
    except (OSError, ValueError, IndexError, TimeoutError):
        return 0, {}, {}
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        found[name] = value
        if name == "set-cookie" and cookies is not None and "=" in value:
            cookie, _, cookie_value = value.split(";", 1)[0].partition("=")
            cookies[cookie] = cookie_value
    try:
        payload = json.loads(rest) if rest else {}
    except ValueError:
        payload = {}
    return status, found, payload if isinstance(payload, dict) else {}


def retry_after(headers: dict, payload: dict) -> float | None:
    """Seconds a 429 says to wait (student.js: the body's ``retry``, else Retry-After)."""
    for value in (payload.get("retry"), headers.get("retry-after")):
        try:
            if value is not None:
                return float(value)
        except (TypeError, ValueError):
            pass
    return None


# ---- serve.py as `make serve` runs it ------------------------------------------------------
class Served:
    """``python scripts/serve.py`` (what `make serve` runs) on 127.0.0.1; its log lines."""

    def __init__(self, port: int, replicas: int) -> None:
        self.port, self.lines = port, []
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "serve.py")],
            cwd=ROOT,
            env={
                **os.environ,
                "PYTHONUNBUFFERED": "1",
                "PORT": str(port),
                "REPLICAS": str(replicas),
                "ADDRESS": "127.0.0.1",
            },
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 300) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if found := re.search(pattern, line):
                    return found
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("serve.py did not say " + pattern + ":\n" + "\n".join(self.lines))

    def pid(self, name: str) -> int:
        pattern = re.compile(rf"{re.escape(name)}(?: started again)? \(pid (\d+)\)")
        return int(
            [m.group(1) for line in list(self.lines) for m in [pattern.search(line)] if m][-1]
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


# ---- the phones -----------------------------------------------------------------------------
@dataclass
class Tap:
    option: int
    sent: float  # the first tap
    acked: float | None = None
    tries: int = 0


@dataclass
class Phone:
    index: int
    rng: random.Random
    cookies: dict = field(default_factory=dict)
    token: str | None = None
    joined: float | None = None  # seconds from opening the link to the join acknowledged
    page_opens: int = 0
    page_errors: list = field(default_factory=list)  # a page that showed an error
    page_retries: Counter = field(default_factory=Counter)  # loads that failed, by status
    page_open: bool = False
    page_closed: list = field(default_factory=list)  # when its websocket closed
    page_reopened: list = field(default_factory=list)  # when its page was open again
    taps: dict = field(default_factory=dict)  # poll id -> Tap
    retries: Counter = field(default_factory=Counter)  # failed requests by status


class Hall:
    def __init__(self, port: int, code: str, students: int, seed: int) -> None:
        self.port, self.code = port, code
        self.phones = [Phone(i, random.Random(seed * 100_003 + i)) for i in range(students)]
        self.stopping = asyncio.Event()
        self.failures: list[float] = []  # when a phone's request failed (5xx, no answer)

    async def open_page(self, phone: Phone) -> Student | None:
        """The join link's page, opened as a browser does; None after a failure (said)."""
        student = Student(
            f"http://127.0.0.1:{self.port}", "/class", f"code={self.code}", timeout=300
        )
        student.cookies = phone.cookies
        try:
            run = await student.open()
        except (StudentError, OSError, TimeoutError) as error:
            await student.close()
            said = str(error)
            if "exception on the page" in said:
                phone.page_errors.append(said[:200])
            else:  # the page did not load: the browser tries again
                answered = re.search(r"answered (\d+)", said)
                phone.page_retries[int(answered.group(1)) if answered else 0] += 1
            return None
        if not any(entry.kind == "bidi_component" for entry in run.entries.values()):
            phone.page_errors.append("the page has no student element")
        phone.page_opens += 1
        if phone.page_closed:
            phone.page_reopened.append(time.monotonic())
        phone.page_open = True
        return student

    async def keep_page(self, phone: Phone, student: Student | None) -> None:
        """Hold the page's session; when its websocket closes, open the page again once the
        server's health answers through the proxy (Streamlit's page reconnects so)."""
        while not self.stopping.is_set():
            if student is not None:
                closed = asyncio.ensure_future(student._ws.wait_closed())
                stop = asyncio.ensure_future(self.stopping.wait())
                await asyncio.wait({closed, stop}, return_when=asyncio.FIRST_COMPLETED)
                closed.cancel(), stop.cancel()
                if self.stopping.is_set():
                    await student.close()
                    return
                phone.page_open = False
                phone.page_closed.append(time.monotonic())
                student = None
            status, _, _ = await request(self.port, "GET", "/_stcore/health", timeout=2)
            if status == 200:
                student = await self.open_page(phone)
            if student is None:
                await asyncio.sleep(1.0)

    async def call(self, phone: Phone, method: str, path: str, body=None, headers=None):
        answer = await request(
            self.port, method, f"/class-api/{path}", body, headers, phone.cookies
        )
        if answer[0] not in (200, 409, 429):  # the service failed this phone
            self.failures.append(time.monotonic())
        return answer

    async def join(self, phone: Phone, opened_at: float) -> None:
        while phone.token is None and not self.stopping.is_set():
            status, headers, payload = await self.call(phone, "POST", "join", {"code": self.code})
            if status == 200:
                phone.token = payload["token"]
                phone.joined = time.monotonic() - opened_at
                return
            phone.retries[status] += 1
            wait = retry_after(headers, payload) if status == 429 else None
            await asyncio.sleep(max(POLL_SECONDS, (wait or 0) + phone.rng.random()))

    async def tap(self, phone: Phone, poll: int, option: int) -> None:
        tap = phone.taps[poll] = Tap(option, time.monotonic())
        while not self.stopping.is_set():
            tap.tries += 1
            status, headers, payload = await self.call(
                phone,
                "POST",
                "answer",
                {"code": self.code, "token": phone.token, "poll": poll, "option": option},
            )
            if status == 200:
                tap.acked = time.monotonic()
                return
            if status == 409:  # the poll closed before it got through: not answered
                return
            phone.retries[status] += 1
            wait = retry_after(headers, payload) if status == 429 else None
            await asyncio.sleep(
                max(POLL_SECONDS, (wait or 0) + phone.rng.random()) if wait else 1.0
            )

    async def live(self, phone: Phone) -> None:
        """A phone from the scan of the QR code to the end of the lesson."""
        opened_at = time.monotonic()
        student = await self.open_page(phone)
        keeper = asyncio.ensure_future(self.keep_page(phone, student))
        await self.join(phone, opened_at)
        tapping = None
        while not self.stopping.is_set():
            status, _, state = await self.call(
                phone,
                "GET",
                f"state?code={self.code}",
                headers={"X-Class-Token": phone.token or ""},
            )
            poll = state.get("poll") if status == 200 else None
            if (
                poll
                and poll["status"] == "open"
                and poll["id"] not in phone.taps
                and tapping is None
            ):

                async def later(poll_id=poll["id"], options=len(poll["options"])):
                    await asyncio.sleep(phone.rng.uniform(0, READ_SECONDS))
                    await self.tap(phone, poll_id, phone.rng.randrange(options))

                tapping = asyncio.ensure_future(later())
            if tapping is not None and tapping.done():
                tapping = None
            try:
                await asyncio.wait_for(self.stopping.wait(), POLL_SECONDS)
            except TimeoutError:
                pass
        if tapping is not None:
            tapping.cancel()
        await keeper


def retry_text(retries: Counter) -> str:
    """ "3 (2 × 503, 1 × no answer)": the requests tried again, by what they got."""
    if not retries:
        return "0"
    said = ", ".join(f"{n} × {status or 'no answer'}" for status, n in sorted(retries.items()))
    return f"{sum(retries.values())} ({said})"


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


@dataclass
class PollResult:
    kill: str
    sent: int = 0
    acked: int = 0
    counted: int = 0
    lost: int = 0
    double: int = 0
    retries: Counter = field(default_factory=Counter)
    routes_back: float | None = None  # seconds from the kill to the routes answering again
    pages_back: float | None = None  # ... to every phone's page open again
    pages_lost: int = 0  # phones whose page's websocket closed after the kill
    to_projector: list = field(default_factory=list)


async def run_poll(
    hall: Hall, store: RedisStore, key: str, kill: str | None, served: Served, number: int
) -> PollResult:
    result = PollResult(kill or "none")
    retries_before = sum((p.retries for p in hall.phones), Counter())
    poll = await asyncio.to_thread(
        store.open_poll,
        hall.code,
        key,
        poll_question(f"bench{number}", "Pick one", ("a", "b", "c"), "a", "any"),
    )
    seen: list[tuple[float, int]] = []
    watching = asyncio.Event()

    async def projector():
        last = -1
        while not watching.is_set():
            status, _, state = await request(
                hall.port,
                "GET",
                f"/class-api/counts?code={hall.code}",
                headers={"X-Class-Key": key},
                timeout=5,
            )
            if status == 200 and state.get("poll", {}).get("id") == poll:
                if state["poll"]["total"] > last:
                    last = state["poll"]["total"]
                    seen.append((time.monotonic(), last))
            await asyncio.sleep(0.05)

    async def probe(killed_at: float):
        """The routes through the proxy, every 0.1 s, until they answer after the kill."""
        failed = False
        while True:
            status, _, _ = await request(
                hall.port, "GET", f"/class-api/state?code={hall.code}", timeout=2
            )
            if status == 200:
                return time.monotonic() - killed_at if failed else 0.0
            failed = True
            await asyncio.sleep(0.1)

    watcher = asyncio.ensure_future(projector())
    phones = hall.phones
    joined = [p for p in phones if p.token]
    killed_at = None
    prober = None
    deadline = time.monotonic() + ANSWER_DEADLINE
    while time.monotonic() < deadline:
        taps = [p.taps.get(poll) for p in joined]
        acked = sum(1 for t in taps if t and t.acked)
        if kill and killed_at is None and acked >= len(joined) // 2:
            os.kill(served.pid(kill), signal.SIGKILL)
            killed_at = time.monotonic()
            prober = asyncio.ensure_future(probe(killed_at))
        pages_back = (
            killed_at is not None
            and time.monotonic() - killed_at > 2
            and all(p.page_open for p in phones)
        )
        if acked == len(joined) and (killed_at is None or (prober.done() and pages_back)):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)  # the projector's last reads
    watching.set()
    await watcher
    if prober is not None:
        # back when neither the probe nor any phone met a failure any more
        last_failure = max((t for t in hall.failures if t > killed_at), default=killed_at)
        result.routes_back = (
            max(prober.result(), last_failure - killed_at) if prober.done() else None
        )
        prober.cancel()
        reopened = [t for p in phones for t in p.page_reopened if t > killed_at]
        if any(t > killed_at for p in phones for t in p.page_closed):
            result.pages_back = (
                max(reopened) - killed_at if reopened and all(p.page_open for p in phones) else None
            )
            result.pages_lost = sum(1 for p in phones if any(t > killed_at for t in p.page_closed))
    await asyncio.to_thread(store.close, hall.code, key)
    status, _, state = await request(
        hall.port,
        "GET",
        f"/class-api/counts?code={hall.code}",
        headers={"X-Class-Key": key},
        timeout=10,
    )
    counted = state["poll"]["counts"] if status == 200 else [0, 0, 0]
    chosen = [0, 0, 0]
    for phone in joined:
        tap = phone.taps.get(poll)
        if tap is not None:
            result.sent += 1
            if tap.acked:
                result.acked += 1
                chosen[tap.option] += 1
    result.counted = sum(counted)
    result.lost = sum(max(0, c - n) for c, n in zip(chosen, counted))
    result.double = sum(max(0, n - c) for c, n in zip(chosen, counted))
    result.retries = sum((p.retries for p in phones), Counter()) - retries_before
    acked_times = sorted(t.sent for p in joined if (t := p.taps.get(poll)) and t.acked)
    for k, sent in enumerate(acked_times, start=1):
        when = next((t for t, total in seen if total >= k), None)
        if when is not None:
            result.to_projector.append(max(0.0, when - sent))
    return result


async def lesson(
    port: int,
    code: str,
    key: str,
    store: RedisStore,
    students: int,
    kills: list[str],
    served: Served,
    seed: int,
):
    hall = Hall(port, code, students, seed)
    started = time.monotonic()
    lives = [asyncio.ensure_future(hall.live(phone)) for phone in hall.phones]
    while time.monotonic() - started < 600 and any(p.token is None for p in hall.phones):
        await asyncio.sleep(0.2)
    all_joined = time.monotonic() - started
    await asyncio.sleep(2)
    results = []
    for number, kill in enumerate([None, *kills], start=1):
        results.append(await run_poll(hall, store, key, kill, served, number))
        await asyncio.sleep(3)
    hall.stopping.set()
    await asyncio.gather(*lives, return_exceptions=True)
    return hall, all_joined, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument(
        "--kills",
        default=",".join(KILLS),
        help="what to kill, one poll each (comma-separated from "
        f"{', '.join(KILLS)}; empty for none)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kills = [k.strip() for k in args.kills.split(",") if k.strip()]
    unknown = [k for k in kills if k not in KILLS]
    if unknown:
        parser.error(f"unknown kills {unknown}: choose from {KILLS}")
    load_before = os.getloadavg()
    served = Served(serve.free_port(), args.replicas)
    try:
        served.wait_for(r"Perceptron Lab on http://127\.0\.0\.1")
        redis_url = served.wait_for(r"on (redis://127\.0\.0\.1:\d+/0)").group(1)
        store = RedisStore(
            redis.Redis.from_url(redis_url, decode_responses=True, retry_on_timeout=True)
        )
        new = store.create()
        hall, all_joined, results = asyncio.run(
            lesson(served.port, new.code, new.key, store, args.students, kills, served, args.seed)
        )
    finally:
        served.stop()
    load_after = os.getloadavg()
    print("serve.py said:")
    for line in served.lines:
        if re.search(r"exited|started again|serves again|could not", line):
            print("  " + line)
    joins = [p.joined for p in hall.phones if p.joined is not None]
    errors = [e for p in hall.phones for e in p.page_errors]
    join_retries = sum((p.retries for p in hall.phones), Counter()) - sum(
        (r.retries for r in results), Counter()
    )
    print(
        f"students {args.students}, replicas {args.replicas}, {os.cpu_count()} cores; load "
        f"average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )
    print(
        f"joined {len(joins)} of {args.students} (all within {all_joined:.1f} s of the first "
        f"opening the link): join time p50 {quantile(joins, 0.5):.1f} s, p95 "
        f"{quantile(joins, 0.95):.1f} s, longest {max(joins, default=float('nan')):.1f} s; joins "
        f"tried again {retry_text(join_retries)}"
    )
    print(
        f"pages opened {sum(p.page_opens for p in hall.phones)} (again after a kill: "
        f"{sum(p.page_opens for p in hall.phones) - args.students}; loads tried again "
        f"{retry_text(sum((p.page_retries for p in hall.phones), Counter()))}), pages that "
        f"showed an error {len(errors)}" + (f": {errors[:3]}" if errors else "")
    )
    print(
        "| poll | sent | acknowledged | counted | lost | double-counted | tried again | routes "
        "back after | every closed page open again after | tap → projector p50 / p95 |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for result in results:
        back = "–" if result.routes_back is None else f"{result.routes_back:.1f} s"
        if result.kill == "none" or not result.pages_lost:
            pages = "–" if result.kill == "none" else "no page closed"
        elif result.pages_back is None:
            pages = f"not all of {result.pages_lost} pages"
        else:
            pages = f"{result.pages_back:.1f} s ({result.pages_lost} pages)"
        lat = result.to_projector
        to_projector = (
            (f"{statistics.median(lat) * 1000:.0f} ms / {quantile(lat, 0.95) * 1000:.0f} ms")
            if lat
            else "–"
        )
        print(
            f"| {'undisturbed' if result.kill == 'none' else result.kill + ' killed'} | "
            f"{result.sent} | {result.acked} | {result.counted} | {result.lost} | "
            f"{result.double} | {retry_text(result.retries)} | {back} | {pages} | "
            f"{to_projector} |"
        )


if __name__ == "__main__":
    main()
