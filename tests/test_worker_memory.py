"""The worker pool bounds each worker's memory (issue #23).

A worker that a computation leaves holding more than ``WORKER_KEEP_MB`` is replaced
before the next computation (the allocator would otherwise keep that memory for the
worker's life), and a computation whose worker grows past ``WORKER_MAX_MB`` while it
runs is stopped with a message. The limits are made small here; the tasks hold real,
resident memory (tests/worker_memory_probe.py).
"""

from __future__ import annotations

import os

import pytest

import worker_memory_probe as probe
from pages.common import ComputationStopped, run_in_worker
from pages.common import workers


def resident_mb(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.fixture
def fresh_worker(monkeypatch):
    """A worker for this test and its resident memory at rest (MB). While it is read, no
    worker is replaced for its size (one that earlier tests left above the keep limit
    would be, and its /proc entry gone)."""
    monkeypatch.setattr(workers, "WORKER_KEEP_MB", float("inf"))
    pid = run_in_worker(probe.keep, 0)
    rest = resident_mb(pid)
    monkeypatch.undo()  # the test sets the limits it needs
    yield pid, rest


def test_a_worker_left_below_the_keep_limit_is_kept(monkeypatch, fresh_worker):
    pid, rest = fresh_worker
    monkeypatch.setattr(workers, "WORKER_KEEP_MB", rest + 60)
    assert run_in_worker(probe.keep, 20) == pid  # +20 MB: under the limit
    assert run_in_worker(probe.keep, 20) == pid  # +40 MB: still under
    assert pid in workers._WORKERS.pids()


def test_a_worker_left_above_the_keep_limit_is_replaced(monkeypatch, fresh_worker):
    pid, rest = fresh_worker
    monkeypatch.setattr(workers, "WORKER_KEEP_MB", rest + 30)
    assert run_in_worker(probe.keep, 15) == pid  # under the limit: kept
    assert run_in_worker(probe.keep, 40) == pid  # the task that crossed it got its answer
    assert pid not in workers._WORKERS.pids()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped and reaped, its memory given back
    second = run_in_worker(probe.keep, 0)
    assert second != pid
    assert resident_mb(second) < rest + 30  # the new worker starts small again


def test_a_computation_that_grows_past_the_hard_limit_is_stopped_with_a_message(
        monkeypatch, fresh_worker):
    pid, rest = fresh_worker
    monkeypatch.setattr(workers, "WORKER_MAX_MB", rest + 80)
    with pytest.raises(ComputationStopped) as stopped:
        # +10 MB every 20 ms up to +400 MB: stopped on the way
        run_in_worker(probe.grow, 10, 40, advice="Use fewer points.")
    message = str(stopped.value)
    assert f"more than {rest + 80:.0f} MB of memory" in message
    assert message.endswith("Use fewer points.")
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    # the next computation gets a fresh worker and its answer
    assert run_in_worker(probe.keep, 0) != pid


def test_a_computation_within_the_hard_limit_finishes(monkeypatch, fresh_worker):
    pid, rest = fresh_worker
    monkeypatch.setattr(workers, "WORKER_MAX_MB", rest + 200)
    assert run_in_worker(probe.grow, 10, 5) == pid  # +50 MB, well within


def test_the_stated_limits_hold_a_fresh_worker_and_leave_room_for_a_computation():
    pid = run_in_worker(probe.keep, 0)
    rest = resident_mb(pid)
    assert rest < workers.WORKER_KEEP_MB < workers.WORKER_MAX_MB


def test_memory_a_computation_freed_is_given_back_so_the_worker_is_kept(monkeypatch,
                                                                         fresh_worker):
    """Small objects freed at the end of a computation stay with the allocator unless the
    worker trims its heap (malloc_trim) before it answers: then it is back near its size at
    rest, under the keep limit, and is kept instead of replaced."""
    pid, rest = fresh_worker
    monkeypatch.setattr(workers, "WORKER_KEEP_MB", rest + 40)
    assert run_in_worker(probe.churn, 150) == pid
    assert resident_mb(pid) < rest + 40
    assert pid in workers._WORKERS.pids()
