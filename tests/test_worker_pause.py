"""While a light page run computes in the server, the workers computing are paused, each
computation at most PAUSE_SECONDS in all (issue #23, pages/common/worker_pause.py).

Checked on real worker processes through the kernel's view of them (/proc/PID/stat: state
T while stopped): a light run stops a computing worker and its end continues it; a
computation that starts during a light run starts paused; a pause ends once its budget is
spent even while the light run goes on, so the result still comes; no worker is ever left
paused (after its result, after a stop for CPU time); and a paused worker whose server dies
ends with it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import worker_probe
from pages.common import ComputationStopped, page_runs, run_in_worker, worker_pause

ROOT = Path(__file__).resolve().parents[1]


def state(pid: int) -> str:
    """The process's state letter (R running, S sleeping, T stopped), or "gone"."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "gone"


def wait_until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


def computing_pids() -> list[int]:
    with worker_pause._COMPUTING_LOCK:
        return [pauses.pid for pauses in worker_pause._COMPUTING]


class Computation(threading.Thread):
    """run_in_worker(worker_probe.spin, cpu_seconds) in a thread of its own."""

    def __init__(self, cpu_seconds: float, **limits):
        super().__init__(daemon=True)
        self.cpu_seconds, self.limits = cpu_seconds, limits
        self.result = self.error = None
        self.started_at = self.ended_at = None
        self.start()

    def run(self):
        self.started_at = time.monotonic()
        try:
            self.result = run_in_worker(worker_probe.spin, self.cpu_seconds, **self.limits)
        except ComputationStopped as error:
            self.error = error
        self.ended_at = time.monotonic()


@pytest.fixture
def budget(monkeypatch):
    def set_budget(seconds: float) -> None:
        monkeypatch.setattr(worker_pause, "PAUSE_SECONDS", seconds)
    set_budget(1.0)
    return set_budget


def test_a_light_run_pauses_a_computing_worker_and_its_end_continues_it(budget):
    computation = Computation(0.5)
    assert wait_until(lambda: computing_pids())
    [pid] = computing_pids()
    assert wait_until(lambda: state(pid) in "RS") and state(pid) != "T"
    with page_runs.light_run():
        assert wait_until(lambda: state(pid) == "T", 2)
        time.sleep(0.3)
        assert state(pid) == "T"  # held for the whole light run (within its budget)
    assert wait_until(lambda: state(pid) != "T", 2)
    computation.join(30)
    assert computation.error is None and computation.result >= 0.5
    # it used its 0.5 s of CPU, and was held 0.3 s besides
    assert computation.ended_at - computation.started_at >= 0.5 + 0.3
    assert state(pid) != "T" and computing_pids() == []


def test_a_computation_that_starts_during_a_light_run_starts_paused(budget):
    run_in_worker(worker_probe.spin, 0.0)  # a worker started and idle
    with page_runs.light_run():
        computation = Computation(0.3)
        assert wait_until(lambda: computing_pids())
        [pid] = computing_pids()
        assert wait_until(lambda: state(pid) == "T", 2)
    computation.join(30)
    assert computation.error is None and state(pid) != "T"


def test_a_pause_ends_when_its_budget_is_spent_and_the_result_still_comes(budget):
    budget(0.3)
    with page_runs.light_run():  # a light run that lasts longer than any pause may
        began = time.monotonic()
        computation = Computation(0.4)
        computation.join(30)
        # the result came while the light run still computed: held about 0.3 s, not 30
        assert computation.error is None and computation.result >= 0.4
        assert 0.4 + 0.25 <= time.monotonic() - began < 5
    assert computing_pids() == []


def test_a_computation_stopped_for_its_cpu_time_while_paused_leaves_nothing_paused(budget):
    budget(0.2)
    with page_runs.light_run():
        computation = Computation(5.0, seconds=0.3)
        assert wait_until(lambda: computing_pids())
        [pid] = computing_pids()
        computation.join(30)
    assert isinstance(computation.error, ComputationStopped)
    assert "stopped after" in str(computation.error)
    assert wait_until(lambda: state(pid) in ("gone", "Z")) and computing_pids() == []


def test_no_pause_at_all_with_a_budget_of_zero(budget):
    budget(0.0)
    computation = Computation(0.4)
    assert wait_until(lambda: computing_pids())
    [pid] = computing_pids()
    with page_runs.light_run():
        time.sleep(0.2)
        assert state(pid) != "T"
    computation.join(30)
    assert computation.error is None


#: a server stand-in: starts a worker, has it compute, pauses it, prints its pid and dies
DYING_SERVER = textwrap.dedent("""
    import os, sys, threading, time
    sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
    import worker_probe
    from pages.common.worker_process import WorkerProcess
    worker = WorkerProcess()
    threading.Thread(target=worker.call, args=(worker_probe.spin, (60.0,), {}, 120.0,
                     time.monotonic() + 120), daemon=True).start()
    time.sleep(0.5)
    worker.pauses.pause()
    print(worker.process.pid, flush=True)
    time.sleep(0.3)
    os._exit(0)
""")


def test_a_paused_worker_ends_when_its_server_dies():
    server = subprocess.run([sys.executable, "-c", DYING_SERVER, str(ROOT)], capture_output=True,
                            text=True, timeout=60, cwd=ROOT)
    pid = int(server.stdout.split()[0])
    # the worker's own process group is orphaned with the server: the kernel sends it
    # SIGHUP and SIGCONT, and the worker ends instead of staying stopped for ever
    assert wait_until(lambda: state(pid) in ("gone", "Z"), 10), f"worker {pid} is {state(pid)}"


def test_the_workers_stay_paused_a_moment_after_a_light_run_and_through_the_next(budget,
                                                                                  monkeypatch):
    """The light run's messages reach the student before the workers go on; a light run
    that starts in that moment keeps them paused."""
    monkeypatch.setattr(page_runs, "RESUME_AFTER_SECONDS", 0.3)
    computation = Computation(0.6)
    assert wait_until(lambda: computing_pids())
    [pid] = computing_pids()
    with page_runs.light_run():
        assert wait_until(lambda: state(pid) == "T", 2)
    assert state(pid) == "T"  # the run ended; its hold has not
    time.sleep(0.15)
    with page_runs.light_run():  # the next light run, within the hold
        time.sleep(0.3)
        assert state(pid) == "T"  # the first hold's resume was skipped
    assert wait_until(lambda: state(pid) != "T", 2)
    computation.join(30)
    assert computation.error is None


def test_a_students_page_run_pauses_the_workers_computing(budget, monkeypatch):
    """Every script run is light (app.py, page_guard) until a heavy page says otherwise."""
    from app_helpers import open_page

    monkeypatch.setattr(page_runs, "RESUME_AFTER_SECONDS", 0.0)
    computation = Computation(3.0)
    assert wait_until(lambda: computing_pids())
    with worker_pause._COMPUTING_LOCK:
        [pauses] = list(worker_pause._COMPUTING)
    assert pauses.paused_seconds == 0.0
    open_page("pages/aggressive.py")  # another student opens a light page
    # paused while it ran, continued by the resume that follows its end (a timer's thread)
    assert wait_until(lambda: pauses.paused_seconds > 0.0 and not pauses.paused, 2)
    computation.join(30)
    assert computation.error is None
