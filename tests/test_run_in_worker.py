"""pages.common.run_in_worker: heavy computations in a worker process (issue 8).

The worker must give exactly what an in-process call gives (results, read-only
arrays, the core's ValueError), stop a computation that runs over its time with a
message while the server goes on, and share nothing with the server or between
students: it is a fresh process that receives a function by name and its arguments.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import perceptron_core.sweeps as sweeps
import worker_probe
from app_helpers import fallback_messages, open_page
from pages import common
from pages.common import ComputationStopped, run_in_worker
from perceptron_core import make_separable, run_perceptron

SWEEPS = {"margin": sweeps.margin_sweep, "n": sweeps.n_sweep, "dim": sweeps.dim_sweep,
          "delta": sweeps.delta_sweep, "scale": sweeps.scale_sweep, "shift": sweeps.shift_sweep}
#: one value of each sweep's parameter, drawn around what /bound uses
VALUES = {"margin": st.floats(0.05, 0.5), "n": st.integers(5, 150), "dim": st.integers(1, 6),
          "delta": st.floats(0.0, 2.0), "scale": st.floats(0.1, 10.0),
          "shift": st.floats(-2.0, 2.0)}


def assert_same_sweep(a, b) -> None:
    assert type(a) is type(b)
    for field in fields(a):
        left, right = getattr(a, field.name), getattr(b, field.name)
        if isinstance(left, np.ndarray):
            np.testing.assert_array_equal(left, right, err_msg=field.name)
            assert left.dtype == right.dtype and not right.flags.writeable, field.name
        else:
            assert left == right, field.name


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), kind=st.sampled_from(sorted(SWEEPS)), seed=st.integers(0, 10**6),
       bias=st.booleans(), order=st.sampled_from(["cyclic", "permuted", "max_distance"]))
def test_a_sweep_in_the_worker_equals_the_same_sweep_in_process(data, kind, seed, bias, order):
    value = data.draw(VALUES[kind], label="value")
    options = {"bias": bias} if kind != "shift" else {}
    expected = SWEEPS[kind]([value], [seed], order=order, **options)
    got = run_in_worker(SWEEPS[kind], [value], [seed], order=order, **options)
    assert_same_sweep(expected, got)


def test_a_perceptron_run_in_the_worker_equals_the_run_in_process():
    data = make_separable(n=300, margin=0.05, dim=5, seed=11)
    expected = run_perceptron(data.X, data.y, order="permuted", seed=4)
    got = run_in_worker(run_perceptron, data.X, data.y, order="permuted", seed=4)
    for name in ("weights", "biases", "update_indices", "update_steps"):
        np.testing.assert_array_equal(getattr(expected, name), getattr(got, name))
    assert (got.n_updates, got.converged, got.stop_reason) == (
        expected.n_updates, expected.converged, expected.stop_reason)


def test_the_cores_value_error_comes_back_unchanged_and_the_worker_is_kept():
    with pytest.raises(ValueError) as in_process:
        sweeps.margin_sweep([-1.0], 2)
    before = run_in_worker(os.getpid)
    with pytest.raises(ValueError) as in_worker:
        run_in_worker(sweeps.margin_sweep, [-1.0], 2)
    assert type(in_worker.value) is type(in_process.value)
    assert str(in_worker.value) == str(in_process.value)
    assert run_in_worker(os.getpid) == before  # an error is an answer: same worker


def test_a_computation_over_its_cpu_time_is_stopped_with_a_message():
    started = time.monotonic()
    with pytest.raises(ComputationStopped) as stopped:
        run_in_worker(worker_probe.spin, 60, seconds=1.0, advice="Lower n or d.")
    took = time.monotonic() - started
    assert took < 20, f"the caller waited {took:.1f} s for a limit of 1 s of CPU"
    assert isinstance(stopped.value, ValueError)  # core_call shows it as a message
    message = str(stopped.value)
    assert "stopped after 1 s of computing" in message and message.endswith("Lower n or d.")


def test_the_limit_counts_cpu_time_so_a_computation_that_waits_is_not_stopped_early():
    # 1.5 s asleep uses almost no CPU: within a limit of 1 s of CPU
    assert run_in_worker(time.sleep, 1.5, seconds=1.0) is None


def test_a_computation_still_running_after_the_wait_limit_is_stopped_with_a_message():
    started = time.monotonic()
    with pytest.raises(ComputationStopped, match="too busy to finish it within 1 s"):
        run_in_worker(time.sleep, 60, wait=1.0, advice="Lower n or d.")
    assert time.monotonic() - started < 10


def test_a_stopped_computation_ends_its_worker_and_the_next_call_gets_a_new_one():
    first = run_in_worker(os.getpid)
    assert first in common._WORKERS.pids()
    with pytest.raises(ComputationStopped):
        run_in_worker(time.sleep, 60, wait=0.5)
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)  # the process that ran it is gone (killed and reaped)
    started = time.monotonic()
    assert run_in_worker(sweeps.log_grid, 0.1, 0.4, 3).tolist() == pytest.approx([0.1, 0.2, 0.4])
    assert run_in_worker(os.getpid) != first
    assert time.monotonic() - started < 30


def test_a_worker_that_ends_unexpectedly_is_reported_and_replaced():
    with pytest.raises(ComputationStopped, match="ended unexpectedly"):
        run_in_worker(os._exit, 3)
    assert run_in_worker(sweeps.estimated_run_seconds, 100, 2, 0.1) == pytest.approx(
        sweeps.estimated_run_seconds(100, 2, 0.1))


def test_the_worker_holds_no_session_page_or_server_memory(monkeypatch):
    monkeypatch.setattr(worker_probe, "MARK", "student A's data")
    facts = run_in_worker(worker_probe.facts)
    assert facts["pid"] != os.getpid()
    assert facts["mark"] is None  # a fresh process, not a copy of the server's memory
    assert not facts["streamlit imported"] and not facts["streamlit runtime"]
    assert facts["page modules"] == []
    assert facts["niceness"] == min(19, os.nice(0) + common.WORKER_NICENESS)
    # one BLAS thread: the CPU limit counts the computation, not threads spinning for a core
    assert facts["blas threads"] and set(facts["blas threads"]) == {1}


def test_arguments_go_in_and_results_come_out_as_copies():
    array = np.zeros(4)
    returned = run_in_worker(worker_probe.add_one_in_place, array)
    np.testing.assert_array_equal(array, np.zeros(4))  # the caller's array is untouched
    np.testing.assert_array_equal(returned, np.ones(4))
    assert returned is not array


def test_two_students_interleaved_get_what_each_would_get_alone():
    alone = {"A": sweeps.margin_sweep([0.08], [3], n=60), "B": sweeps.n_sweep([40], [5])}
    calls = {"A": lambda: run_in_worker(sweeps.margin_sweep, [0.08], [3], n=60),
             "B": lambda: run_in_worker(sweeps.n_sweep, [40], [5])}
    for student in "ABBAAB":
        assert_same_sweep(alone[student], calls[student]())


def test_students_at_once_each_get_their_own_result():
    results, errors = {}, []

    def student(k: int) -> None:
        try:
            results[k] = run_in_worker(sweeps.margin_sweep, [0.05 + 0.05 * k], [k], n=80)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=student, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    for k in range(4):
        assert_same_sweep(sweeps.margin_sweep([0.05 + 0.05 * k], [k], n=80), results[k])


def test_the_bound_page_says_a_run_was_stopped_and_the_server_goes_on(monkeypatch):
    """A sweep run whose cost was underestimated: the page shows the stop as a message
    within about the limit, and other pages and computations go on."""
    monkeypatch.setattr(sweeps, "margin_sweep", worker_probe.slow_margin_sweep)
    monkeypatch.setattr("pages.common.workers.WORKER_SECONDS", 1.0)  # where run_in_worker reads it
    started = time.monotonic()
    at = open_page("pages/bound.py", {"bound_n": "137", "bound_margin_count": "2",
                                      "bound_margin_seeds": "1"})  # no exception
    took = time.monotonic() - started
    assert not fallback_messages(at)
    stops = [e.value for e in at.error if "stopped after 1 s of computing" in e.value]
    assert len(stops) == 1 and "Lower n or d" in stops[0], [e.value for e in at.error]
    assert not [m.value for m in at.markdown if "runs**" in m.value]  # no result drawn
    assert took < 60, f"the page took {took:.0f} s"
    monkeypatch.undo()
    other = open_page("pages/aggressive.py")
    assert other.title
    assert run_in_worker(sweeps.log_grid, 1, 4, 2).tolist() == [1.0, 4.0]


def test_waiters_for_a_worker_are_served_first_come_first_served():
    """Issue #23: heavy requests queue fairly. A released slot goes to the oldest waiter,
    never to a newcomer that happens to ask at the right moment."""
    from pages.common.workers import FairSlots

    slots, served, lock = FairSlots(1), [], threading.Lock()
    assert slots.acquire(timeout=1)

    def wait_turn(name: int) -> None:
        assert slots.acquire(timeout=30)
        with lock:
            served.append(name)
        time.sleep(0.01)
        slots.release()

    threads = []
    for name in range(6):
        threads.append(threading.Thread(target=wait_turn, args=(name,)))
        threads[-1].start()
        deadline = time.monotonic() + 10
        while slots.waiting() < name + 1 and time.monotonic() < deadline:
            time.sleep(0.002)  # each thread queues before the next one starts
    slots.release()
    assert not slots.acquire(timeout=0)  # a newcomer does not jump the queue
    for thread in threads:
        thread.join(30)
    assert served == list(range(6))
    assert slots.acquire(timeout=0) and slots.waiting() == 0


def test_a_waiter_that_gives_up_leaves_the_queue():
    from pages.common.workers import FairSlots

    slots = FairSlots(1)
    assert slots.acquire(timeout=1)
    assert not slots.acquire(timeout=0.05)
    assert slots.waiting() == 0
    slots.release()
    assert slots.acquire(timeout=0)
