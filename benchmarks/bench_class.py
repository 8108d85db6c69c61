"""Live class under load (issue 24): S simulated students join and answer one poll through
`make serve` (HAProxy, REPLICAS Streamlit replicas, Redis), by the JSON routes the phones use.

    python benchmarks/bench_class.py --students 200 --replicas 2 [--kill]

Each student is a thread doing what student.js does: join (POST /class-api/join), poll
GET /class-api/state every second, and once the poll is open wait a random 0-5 s and tap
(POST /class-api/answer; a failed request is tried again, up to 5 times, as a student taps
again). The projector polls GET /class-api/counts (the instructor's key in a header) every
50 ms; the k-th answer acknowledged is taken as counted when the projector's total first
reaches k, so "tap to projector" is that time minus the tap's send time. The page's own
projector redraws from the same store every second (pages/class_parts/instructor.py,
REFRESH_SECONDS), which adds at most that second.

With ``--kill`` replica r1 is killed (SIGKILL) once half the answers are in. Printed: answers
sent (one per student), acknowledged, counted, lost (acknowledged but not counted),
double-counted (counted beyond one per student who sent one), retries, and p50/p95 from tap to the projector's count.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]
import serve  # noqa: E402

import redis  # noqa: E402
from classroom import poll_question  # noqa: E402
from classroom.redis_store import RedisStore  # noqa: E402

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def call(base, path, body=None, headers=None, timeout=10):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/class-api/{path}", data=data, headers={
        **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}
    except (urllib.error.URLError, OSError, ValueError):
        return 0, {}


class Run:
    def __init__(self, base, code, students):
        self.base, self.code = base, code
        self.lock = threading.Lock()
        self.sent, self.acked, self.retries, self.failed = 0, [], 0, 0
        self.poll = None
        self.done = threading.Event()
        self.students = students

    def student(self, seed):
        rng = random.Random(seed)
        token = None
        for _ in range(10):
            status, body = call(self.base, "join", {"code": self.code})
            if status == 200:
                token = body["token"]
                break
            time.sleep(0.5)
        if token is None:
            with self.lock:
                self.failed += 1
            return
        header = {"X-Class-Token": token}
        while not self.done.is_set():  # poll every second, as student.js does
            status, state = call(self.base, f"state?code={self.code}", headers=header)
            if status == 200 and state.get("poll") and state["poll"]["status"] == "open":
                break
            time.sleep(1.0)
        time.sleep(rng.uniform(0, 5))  # reading the question
        option = rng.randrange(3)
        sent = time.monotonic()
        with self.lock:
            self.sent += 1
        for attempt in range(5):
            status, _ = call(self.base, "answer", {"code": self.code, "token": token,
                                                   "poll": state["poll"]["id"],
                                                   "option": option})
            if status == 200:
                with self.lock:
                    self.acked.append(sent)
                break
            with self.lock:
                self.retries += 1
            time.sleep(0.3)
        while not self.done.is_set():
            call(self.base, f"state?code={self.code}", headers=header)
            self.done.wait(1.0)


def projector(run, key, seen):
    """(time, total) each time the count the instructor reads grows."""
    last = -1
    while not run.done.is_set():
        status, state = call(run.base, f"counts?code={run.code}", headers={"X-Class-Key": key})
        if status == 200 and state.get("poll"):
            total = state["poll"]["total"]
            if total > last:
                seen.append((time.monotonic(), total))
                last = total
        time.sleep(0.05)


def bench(students, replicas, kill):
    with serve.deployment(replicas=replicas) as dep:
        store = RedisStore(redis.Redis.from_url(dep.redis_url, decode_responses=True))
        new = store.create()
        run = Run(dep.url, new.code, students)
        threads = [threading.Thread(target=run.student, args=(i,), daemon=True)
                   for i in range(students)]
        for thread in threads:
            thread.start()
        time.sleep(3)  # everyone joined and polling
        seen = []
        watcher = threading.Thread(target=projector, args=(run, new.key, seen), daemon=True)
        poll = store.open_poll(new.code, new.key, poll_question(
            "bench", "Pick one", ("a", "b", "c"), "a", "any"))
        watcher.start()
        killed = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with run.lock:
                acked = len(run.acked)
            if kill and not killed and acked >= students // 2:
                dep.stop_replica(0)
                killed = True
            if acked + run.failed >= students and run.sent >= students - run.failed:
                break
            time.sleep(0.05)
        time.sleep(1.5)
        run.done.set()
        counted = store.instructor_state(new.code, new.key)["poll"]["total"]
        answers = store._answers(new.code, poll)
        return run, seen, counted, len(answers), killed


def latencies(acked, seen):
    acked = sorted(acked)
    out = []
    for k, sent in enumerate(acked, start=1):
        when = next((t for t, total in seen if total >= k), None)
        if when is not None:
            out.append(max(0.0, when - sent))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--kill", action="store_true", help="kill replica r1 mid-poll")
    args = parser.parse_args()
    run, seen, counted, distinct, killed = bench(args.students, args.replicas, args.kill)
    acked = len(run.acked)
    lat = latencies(run.acked, seen)
    q = statistics.quantiles(lat, n=20) if len(lat) >= 2 else [float("nan")] * 19
    print(f"students {args.students}, replicas {args.replicas}"
          + (", replica r1 killed mid-poll" if killed else ""))
    print(f"answers sent {run.sent}, acknowledged {acked}, counted {counted}, "
          f"lost {max(0, acked - counted)}, double-counted {max(0, counted - run.sent)}, "
          f"retries {run.retries}, students who could not join {run.failed}")
    print(f"tap to projector's count: p50 {statistics.median(lat) * 1000:.0f} ms, "
          f"p95 {q[18] * 1000:.0f} ms (projector polling every 50 ms; the page's own view "
          f"redraws every second)")


if __name__ == "__main__":
    main()
