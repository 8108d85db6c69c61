"""A projector on a replica that crashes comes back by itself (Chromium, `make serve`).

scripts/serve.py with one replica: the instructor starts a class in Chromium and opens a poll,
a phone answers; the replica is killed (SIGKILL) and serve.py starts it again. Without anyone
touching the projector, its page reconnects to the new process, is the instructor's view again
(the key kept by the browser, never typed) and counts the answer that arrives after the
restart, with phones' pages opening on the new process at the same moment.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from browser_helpers import assert_no_exception, new_page
from class_helpers import button, open_poll, serve, start_class
from test_class_serve_faults import ServeProcess, call

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from load_client import Student  # noqa: E402


def phones_reopen(base: str, code: str, count: int) -> list[str]:
    """``count`` phones' pages of the class opened at once, as their browsers reconnect (once
    the server's health answers through the proxy, as Streamlit's page waits for): the errors
    they met ([] if none)."""
    for _ in range(1200):
        if serve.health_ok(base, timeout=1):
            break
        time.sleep(0.1)

    async def one() -> str | None:
        student = Student(base, "/class", f"code={code}", timeout=240)
        try:
            await student.open()
        except Exception as error:  # noqa: BLE001 - reported below
            return str(error)
        finally:
            await student.close()
        return None

    async def all_of_them():
        return [error for error in await asyncio.gather(*(one() for _ in range(count))) if error]

    return asyncio.run(all_of_them())


def test_a_projector_comes_back_by_itself_after_its_replica_is_killed(browser):
    if serve.find_haproxy() is None or serve.find_redis_server() is None:
        pytest.skip("haproxy or redis-server not installed")
    port = serve.free_port()
    served = ServeProcess(PORT=str(port), REPLICAS="1", ADDRESS="127.0.0.1")
    base = f"http://127.0.0.1:{port}"
    try:
        served.wait_for(r"Perceptron Lab on", timeout=300)
        with new_page(browser, 1280, 720) as projector:
            code, _key = start_class(projector, base, "?present=1")
            open_poll(projector)
            first = call(base, "join", {"code": code})[1]["token"]
            state = call(base, f"state?code={code}")[1]
            poll = state["poll"]["id"]
            assert (
                call(base, "answer", {"code": code, "token": first, "poll": poll, "option": 0})[0]
                == 200
            )
            projector.get_by_text("1 answer").first.wait_for(timeout=30_000)

            before = len(served.lines)
            os.kill(served.pid("replica r1"), signal.SIGKILL)
            served.wait_for(r"replica r1 exited \(killed by SIGKILL\)", before)
            served.wait_for(r"replica r1 \(pid \d+\) serves again", before)
            # the phones' pages reconnect to the new process together with the projector
            errors: list[str] = []
            phones = threading.Thread(target=lambda: errors.extend(phones_reopen(base, code, 20)))
            phones.start()
            second = None
            for _ in range(600):  # the routes answer again once HAProxy has it back
                status, body = call(base, "join", {"code": code})
                if status == 200:
                    second = body["token"]
                    break
                projector.wait_for_timeout(100)
            assert second is not None
            assert (
                call(base, "answer", {"code": code, "token": second, "poll": poll, "option": 1})[0]
                == 200
            )
            # nobody touches the projector: it counts the new answer by itself
            projector.get_by_text("2 answers").first.wait_for(timeout=120_000)
            assert button(projector, "Close the poll").is_enabled()  # the instructor's view
            assert_no_exception(projector)
            phones.join(timeout=600)
            assert errors == []
    finally:
        assert served.stop() == 0
