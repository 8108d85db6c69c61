"""How the app is served: the proxy takes every link the app accepts, and `make run` runs
without a file watcher.

- The longest link the app writes is /train with its most drawn points (each point as the
  drawing board stores it, x and y within the board with 3 decimals). Through HAProxy
  (deploy/haproxy.cfg under scripts/serve.py) that link opens the page with every point, and
  a request holding it twice (its address and the Referer the page's own requests carry)
  gets the app's answer, not HAProxy's bare 400.
- `make run` (its command read from `make -n run`, run as is on a free port): the server
  watches no file, where Streamlit's default watches the app's files with inotify.
- A replica killed while its students send requests costs none of them an error: HAProxy
  tries each again at once on the other replica.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "benchmarks")]
import serve  # noqa: E402
from load_client import Student  # noqa: E402

from pages.common.own_data_drawing import DRAW_REACH  # noqa: E402
from pages.train_parts.runs import OWN  # noqa: E402


def longest_points(count: int) -> str:
    """``count`` distinct points as the board writes them into the link (``x,y,label;...``),
    each as long as a point can be: negative x and y with 3 decimals (the board rounds a
    click to 3), and the label -1."""
    values = [-(1 + k / 1000) for k in range(1, 1000) if k % 10]  # -1.001 ... -1.999
    assert max(abs(v) for v in values) <= DRAW_REACH and len(values) ** 2 >= count
    return ";".join(
        f"{values[i % len(values)]:g},{values[i // len(values)]:g},-1" for i in range(count)
    )


def raw_get(port: int, target: str, referer: str) -> str:
    """The status line of a GET with a Referer, as a browser sends the page's requests."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(
            (
                f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Referer: http://127.0.0.1:{port}{referer}\r\n"
                "Connection: close\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
    return head.split(b"\r\n")[0].decode()


def test_the_proxy_takes_the_longest_link_the_app_writes():
    if serve.find_haproxy() is None:
        pytest.skip("haproxy not installed")
    query = "source=draw&points=" + quote(longest_points(OWN.max_points), safe="")
    link = "/train?" + query
    assert len(link) > 45_000  # as the browser sends it: "," and ";" percent-encoded

    async def open_page(base: str):
        student = Student(base, "/train", query, timeout=300)
        try:
            return await student.open()
        finally:
            await student.close()

    with serve.deployment(replicas=1, redis=False) as dep:
        assert raw_get(dep.port, link, link) == "HTTP/1.1 200 OK"
        assert raw_get(dep.port, "/_stcore/health", link) == "HTTP/1.1 200 OK"
        with ThreadPoolExecutor(max_workers=1) as pool:
            run = pool.submit(asyncio.run, open_page(dep.url)).result(timeout=600)
    captions = [
        entry.message.delta.new_element.markdown.body
        for entry in run.entries.values()
        if entry.kind == "markdown"
    ]
    assert any(text.startswith(f"{OWN.max_points} points drawn") for text in captions), captions


def make_run_command() -> list[str]:
    """The command `make run` starts the app with (make -n prints it, runs nothing)."""
    printed = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=30, check=True
    ).stdout.splitlines()
    line = next(line for line in printed if "streamlit run" in line)
    return shlex.split(line)


def inotify_watches(pid: int) -> int:
    """How many files and folders the process watches with inotify."""
    count = 0
    for info in Path(f"/proc/{pid}/fdinfo").iterdir():
        with contextlib.suppress(OSError):
            count += sum(line.startswith("inotify wd:") for line in info.read_text().splitlines())
    return count


def watches_of_a_server(command: list[str], extra: list[str]) -> int:
    """Start ``command`` (KEY=VALUE words first are its environment) on a free port, open a
    page, and count the server's inotify watches while the page's session is open."""
    env = dict(os.environ)
    while command and "=" in command[0] and not command[0].startswith("-"):
        name, value = command.pop(0).split("=", 1)
        env[name] = value
    port = serve.free_port()
    process = subprocess.Popen(
        [*command, "--server.port", str(port), "--server.address", "127.0.0.1", *extra],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not serve.health_ok(f"http://127.0.0.1:{port}"):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.25)

        async def watches_with_a_session_open() -> int:
            student = Student(f"http://127.0.0.1:{port}", "/", timeout=120)
            await student.open()
            await asyncio.sleep(1)  # a session's watcher watches while the session lasts
            try:
                return inotify_watches(process.pid)
            finally:
                await student.close()

        return asyncio.run(watches_with_a_session_open())
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_make_run_watches_no_file():
    command = make_run_command()
    assert command[-2:] == ["run", "app.py"]
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(watches_of_a_server, list(command), []).result(600) == 0
        # the measure sees a watcher when there is one (Streamlit's default, "auto")
        assert (
            pool.submit(
                watches_of_a_server, list(command), ["--server.fileWatcherType", "auto"]
            ).result(600)
            > 0
        )


def test_a_replica_that_dies_costs_no_request_its_students_send():
    """Students held on replica r1 by HAProxy's cookie keep sending requests while r1 is
    killed: every one is answered (by r2), none gets HAProxy's 502 or 503."""
    if serve.find_haproxy() is None:
        pytest.skip("haproxy not installed")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    statuses: list[int | str] = []

    def student(url: str, until: float) -> None:
        while time.monotonic() < until:
            request = urllib.request.Request(url, headers={"Cookie": "REPLICA=r1"})
            try:
                with opener.open(request, timeout=30) as response:
                    statuses.append(response.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
            except OSError as error:
                statuses.append(type(error).__name__)
            time.sleep(0.02)

    with serve.deployment(replicas=2, redis=False) as dep:
        until = time.monotonic() + 8
        students = [
            threading.Thread(target=student, args=(f"{dep.url}/class", until)) for _ in range(4)
        ]
        for thread in students:
            thread.start()
        time.sleep(2)
        dep.stop_replica(0)  # SIGKILL, requests in flight
        for thread in students:
            thread.join()
    failed = [status for status in statuses if status != 200]
    assert len(statuses) > 100 and failed == []
