"""`make serve` heals by itself: scripts/serve.py, run as `make serve` runs it, starts again
whatever dies (Redis with its data, HAProxy, a replica) and says so in its log, and a class
in progress goes on with every answer it had.

The module starts one `python scripts/serve.py` (two replicas, Redis, HAProxy on loopback)
and kills its processes one after another with SIGKILL, as a crash would; between kills the
class's counts are read through the proxy. The supervisor's back-off is checked on its own,
with processes that exit at once and a clock the test moves.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from class_helpers import serve, small_question

from classroom.join_link import PUBLIC_URL_VARIABLE, join_origin
from classroom.redis_store import RedisStore

ROOT = Path(__file__).resolve().parents[2]
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))
#: how long a killed process may take to serve again on this shared 2-core machine
HEAL_SECONDS = 120


def call(base, path, body=None, headers=None, timeout=10):
    """(status, JSON) of a request to the class's routes; (0, {}) if nothing answers."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}/class-api/{path}",
        data=data,
        headers={**({"Content-Type": "application/json"} if data else {}), **(headers or {})},
    )
    try:
        with _NO_PROXY.open(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}
    except (urllib.error.URLError, OSError, ValueError):
        return 0, {}


class ServeProcess:
    """`python scripts/serve.py` with ``env``; its output lines, read as they come."""

    def __init__(self, **env: str) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "serve.py")],
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, after: int = 0, timeout: float = HEAL_SECONDS) -> re.Match:
        """The first line from ``after`` on that matches ``pattern``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines[after:]:
                found = re.search(pattern, line)
                if found:
                    return found
            if self.process.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.1)
        raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.lines))

    def pid(self, name: str) -> int:
        """The pid serve.py last named for ``name`` ("redis-server", "haproxy", "replica r1")."""
        pattern = re.compile(rf"{re.escape(name)}(?: started again)? \(pid (\d+)\)")
        found = [m.group(1) for line in self.lines for m in [pattern.search(line)] if m]
        assert found, f"serve.py named no pid for {name}"
        return int(found[-1])

    def stop(self) -> int:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return (
        Path(f"/proc/{pid}").exists()
        and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    )


@pytest.fixture(scope="module")
def served():
    if serve.find_haproxy() is None or serve.find_redis_server() is None:
        pytest.skip("haproxy or redis-server not installed")
    port, stats = serve.free_port(), serve.free_port()
    running = ServeProcess(PORT=str(port), REPLICAS="2", ADDRESS="127.0.0.1", STATS_PORT=str(stats))
    try:
        running.wait_for(r"Perceptron Lab on http://127\.0\.0\.1:\d+", timeout=300)
        running.base = f"http://127.0.0.1:{port}"
        running.stats_port = stats
        running.redis_url = running.wait_for(r"on (redis://127\.0\.0\.1:\d+/0)").group(1)
        running.redis_dir = Path(running.wait_for(r"append-only file in (\S+)").group(1))
        yield running
    finally:
        assert running.stop() == 0
        running.wait_for(r"stopping", timeout=5)


@pytest.fixture(scope="module")
def lesson(served):
    """A class with an open poll and six answers, through the proxy: (code, key, tokens)."""
    store = RedisStore(redis.Redis.from_url(served.redis_url, decode_responses=True))
    new = store.create()
    poll = store.open_poll(new.code, new.key, small_question())
    tokens = []
    for index in range(6):
        status, body = call(served.base, "join", {"code": new.code})
        assert status == 200
        tokens.append(body["token"])
        assert (
            call(
                served.base,
                "answer",
                {"code": new.code, "token": body["token"], "poll": poll, "option": index % 3},
            )[0]
            == 200
        )
    return {"code": new.code, "key": new.key, "poll": poll, "tokens": tokens, "counts": [2, 2, 2]}


def counts(served, lesson):
    status, state = call(
        served.base, f"counts?code={lesson['code']}", headers={"X-Class-Key": lesson["key"]}
    )
    return state["poll"]["counts"] if status == 200 else status


def seconds_until_counts_return(served, lesson, started: float) -> float:
    """Read the counts through the proxy until they come back; the seconds since ``started``."""
    deadline = started + HEAL_SECONDS
    while time.monotonic() < deadline:
        if counts(served, lesson) == lesson["counts"]:
            return time.monotonic() - started
        time.sleep(0.1)
    raise AssertionError(f"the class's counts did not come back: {counts(served, lesson)}")


def answer_again(served, lesson, student: int, option: int) -> None:
    """A student changes their answer: replaced, not added."""
    body = {
        "code": lesson["code"],
        "token": lesson["tokens"][student],
        "poll": lesson["poll"],
        "option": option,
    }
    assert call(served.base, "answer", body)[0] == 200
    lesson["counts"][student % 3] -= 1
    lesson["counts"][option] += 1
    assert counts(served, lesson) == lesson["counts"]


def kill(served, name: str) -> tuple[int, int, float]:
    """SIGKILL the process serve.py calls ``name``: (its pid, the log line count before, when)."""
    pid = served.pid(name)
    before = len(served.lines)
    os.kill(pid, signal.SIGKILL)
    return pid, before, time.monotonic()


def test_redis_killed_is_started_again_with_its_classes(served, lesson):
    assert counts(served, lesson) == [2, 2, 2]
    pid, before, started = kill(served, "redis-server")
    served.wait_for(r"redis-server exited \(killed by SIGKILL\); starting it again now", before)
    served.wait_for(r"redis-server \(pid \d+\) serves again", before)
    back = seconds_until_counts_return(served, lesson, started)
    assert served.pid("redis-server") != pid and back < HEAL_SECONDS
    answer_again(served, lesson, 0, 2)  # the class goes on
    print(f"Redis killed: the class's counts back through the proxy after {back:.1f} s")


def test_haproxy_killed_is_started_again(served, lesson):
    pid, before, started = kill(served, "haproxy")
    served.wait_for(r"haproxy exited \(killed by SIGKILL\); starting it again now", before)
    served.wait_for(r"haproxy \(pid \d+\) serves again", before)
    back = seconds_until_counts_return(served, lesson, started)
    assert served.pid("haproxy") != pid and alive(served.pid("haproxy"))
    answer_again(served, lesson, 1, 0)
    print(f"HAProxy killed: the class's counts back through the proxy after {back:.1f} s")


def test_a_replica_killed_is_started_again_and_back_in_rotation(served, lesson):
    pid, before, started = kill(served, "replica r1")
    served.wait_for(r"replica r1 exited \(killed by SIGKILL\); starting it again in 3 s", before)
    served.wait_for(r"replica r1 \(pid \d+\) serves again", before)
    deadline = time.monotonic() + HEAL_SECONDS
    while serve.haproxy_stats(served.stats_port)["r1"]["status"] != "UP":
        assert time.monotonic() < deadline, "HAProxy never put r1 back"  # its health check
        time.sleep(0.25)
    print(f"replica r1 killed: back in HAProxy's rotation after {time.monotonic() - started:.1f} s")
    assert served.pid("replica r1") != pid and alive(served.pid("replica r1"))
    answer_again(served, lesson, 2, 1)


def test_each_start_keeps_its_classes_in_a_folder_of_its_own_unless_one_is_given(served, tmp_path):
    # this start's own folder, not one every `make serve` of the machine shares
    assert served.redis_dir.is_dir() and served.redis_dir.name.startswith("perceptron-lab-redis-")
    assert (served.redis_dir / "appendonlydir").is_dir()  # the classes' append-only file
    given = tmp_path / "classes"
    second = ServeProcess(
        PORT=str(serve.free_port()), REPLICAS="1", ADDRESS="127.0.0.1", REDIS_DIR=str(given)
    )
    try:
        second.wait_for(r"Perceptron Lab on", timeout=300)
        assert second.wait_for(r"append-only file in (\S+)").group(1) == str(given)
    finally:
        assert second.stop() == 0
    assert (given / "appendonlydir").is_dir()  # kept after the stop: the next start reads it
    assert served.redis_dir.is_dir()  # the first start's folder untouched


def test_serve_says_where_students_join(monkeypatch):
    monkeypatch.delenv(PUBLIC_URL_VARIABLE, raising=False)
    expected = join_origin("http://127.0.0.1:8500/")
    said = serve.students_address("0.0.0.0", 8500)
    if expected.how == "network":
        assert said.startswith(f"Students join at {expected.origin}/class (")
        assert expected.interface in said
    else:  # a machine with no network address: phones cannot reach it, and it says so
        assert "cannot reach" in said
    assert "cannot reach" in serve.students_address("127.0.0.1", 8500)
    monkeypatch.setenv(PUBLIC_URL_VARIABLE, "https://lab.example.edu")
    assert serve.students_address("0.0.0.0", 8500).startswith(
        "Students join at https://lab.example.edu/class (PERCEPTRON_LAB_PUBLIC_URL)"
    )


# ---- the supervisor on its own: a process that keeps dying -------------------------------
class ExitsAtOnce:
    """A process that has already exited (killed by SIGKILL)."""

    pid = 4242
    returncode = -signal.SIGKILL

    def poll(self):
        return self.returncode


def test_a_process_that_keeps_exiting_is_started_again_with_back_off_and_never_given_up():
    now = [0.0]
    lines: list[str] = []
    starts: list[float] = []
    dep = serve.Deployment(port=1)
    dep.workdir.rmdir()
    replica = serve.Replica("r1", 1, process=ExitsAtOnce())
    dep.replicas = [replica]
    supervisor = serve.Supervisor(dep, lines.append, clock=lambda: now[0])
    supervisor.watched = [w for w in supervisor.watched if w.name == "replica r1"]
    watched = supervisor.watched[0]
    watched.spawn = lambda: (starts.append(now[0]), ExitsAtOnce())[1]
    watched.current = lambda: ExitsAtOnce()
    watched.log_tail = lambda: "ImportError: the last line of its log"
    for _ in range(20 * 60 * 4):  # 20 minutes of checks, four a second
        supervisor.check()
        now[0] += 0.25
    gaps = [round(b - a, 2) for a, b in zip(starts, starts[1:])]
    # once HAProxy has it out of rotation (3 s), then after 3, 3, 4, 8, 16 s, then every 30 s
    # for as long as it runs (each plus the quarter second until a check sees the exit)
    assert starts[0] == serve.REPLICA_RESTART_SECONDS == 3.0
    assert gaps[:5] == [3.25, 3.25, 4.25, 8.25, 16.25]
    assert set(gaps[5:]) == {30.25} and len(starts) > 35
    exits = [line for line in lines if "exited (killed by SIGKILL)" in line]
    assert len(starts) <= len(exits) <= len(starts) + 1  # every exit said (the last waits)
    assert all("ImportError: the last line of its log" in line for line in exits[1:])
