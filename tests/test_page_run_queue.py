"""Heavy page runs queue for the server process (issue #23, pages/common/page_runs.py).

At most PAGE_RUN_SLOTS heavy page runs compute in the server process at once, the others
wait their turn first come, first served; a run waiting for a worker gives its turn to the
next one; a run that waited too long runs anyway; nested blocks share the turn.
"""

from __future__ import annotations

import threading
import time

import pytest

import worker_memory_probe as probe
from pages.common import page_runs, run_in_worker, workers


@pytest.fixture
def one_slot(monkeypatch):
    monkeypatch.setattr(page_runs, "PAGE_RUN_SLOTS", 1)
    monkeypatch.setattr(page_runs, "_PAGE_RUNS", page_runs.FairSlots(1))
    return page_runs._PAGE_RUNS


def test_heavy_page_runs_compute_one_at_a_time_in_the_order_they_came(one_slot):
    inside, most, order, lock = [0], [0], [], threading.Lock()

    def page_run(name: int) -> None:
        with page_runs.heavy_page_run():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
                order.append(name)
            time.sleep(0.03)  # computing
            with lock:
                inside[0] -= 1

    threads = []
    with page_runs.heavy_page_run():  # a run computing while the others come in
        for name in range(6):
            threads.append(threading.Thread(target=page_run, args=(name,)))
            threads[-1].start()
            deadline = time.monotonic() + 10
            while one_slot.waiting() < name + 1 and time.monotonic() < deadline:
                time.sleep(0.002)
        assert one_slot.waiting() == 6
    for thread in threads:
        thread.join(30)
    assert most[0] == 1
    assert order == list(range(6))
    assert one_slot.waiting() == 0 and one_slot.acquire(timeout=0)  # every turn given back


def test_a_run_waiting_for_a_worker_lets_the_next_run_compute(one_slot):
    run_in_worker(probe.keep, 0)  # a worker started
    entered = threading.Event()

    def other_run() -> None:
        with page_runs.heavy_page_run():
            entered.set()

    with page_runs.heavy_page_run():
        thread = threading.Thread(target=other_run)
        thread.start()
        assert not entered.wait(0.3)  # queued behind this run
        run_in_worker(time.sleep, 1.0)  # while this run waits for its worker ...
        assert entered.is_set()  # ... the other one had its turn
        assert not page_runs._TURN.held  # and this run goes on without one
    thread.join(10)
    assert one_slot.acquire(timeout=0)


def test_two_runs_of_the_same_link_do_not_wait_for_each_other(one_slot, monkeypatch):
    """Streamlit lets one script compute a cached value while scripts with the same
    arguments wait for it (a per-key lock, here ``computing``). A run whose value is in a
    worker gives its turn to the next run, which then waits for that value: the first run
    must finish without waiting for the turn again, else both wait (PAGE_RUN_WAIT_SECONDS)."""
    monkeypatch.setattr(page_runs, "PAGE_RUN_WAIT_SECONDS", 15.0)
    run_in_worker(probe.keep, 0)  # a worker started
    computing, took = threading.Lock(), {}

    def page_run(name: str, first: bool) -> None:
        started = time.monotonic()
        with page_runs.heavy_page_run():
            with computing:  # the cached value's lock: the first computes, the second waits
                if first:
                    run_in_worker(time.sleep, 0.5)
        took[name] = time.monotonic() - started

    first = threading.Thread(target=page_run, args=("first", True))
    first.start()
    time.sleep(0.1)  # the first holds the value's lock and waits for its worker
    second = threading.Thread(target=page_run, args=("second", False))
    second.start()
    first.join(30)
    second.join(30)
    assert took["first"] < 5 and took["second"] < 5, took
    assert one_slot.acquire(timeout=0)


def test_a_nested_block_shares_the_turn_and_gives_it_back_once(one_slot):
    with page_runs.heavy_page_run():
        with page_runs.heavy_page_run():  # would wait forever if it queued again
            assert page_runs._TURN.held
        assert page_runs._TURN.held
    assert one_slot.acquire(timeout=0)  # the one turn is free again
    assert one_slot.waiting() == 0


def test_a_run_that_waited_too_long_runs_anyway(one_slot, monkeypatch):
    monkeypatch.setattr(page_runs, "PAGE_RUN_WAIT_SECONDS", 0.2)
    assert one_slot.acquire(timeout=0)  # a stuck turn
    ran = []
    started = time.monotonic()
    with page_runs.heavy_page_run():
        ran.append(page_runs._TURN.held)
    assert ran == [False] and time.monotonic() - started < 5
    one_slot.release()
    assert one_slot.acquire(timeout=0)  # the stuck turn was the only one taken


def test_an_error_in_the_page_gives_the_turn_back(one_slot):
    with pytest.raises(ZeroDivisionError):
        with page_runs.heavy_page_run():
            1 / 0
    assert one_slot.acquire(timeout=0)


def test_no_queue_when_turned_off(monkeypatch):
    monkeypatch.setattr(page_runs, "PAGE_RUN_SLOTS", 0)
    slots = workers.FairSlots(1)
    monkeypatch.setattr(page_runs, "_PAGE_RUNS", slots)
    assert slots.acquire(timeout=0)  # every turn taken: with the queue off nobody waits
    started = time.monotonic()
    with page_runs.heavy_page_run():
        pass
    assert time.monotonic() - started < 0.1


# ---------------------------------------------------------------------------
# light runs first: a heavy run gives way at its section boundaries
# ---------------------------------------------------------------------------


def test_a_heavy_run_waits_at_give_way_while_a_light_run_computes(one_slot):
    light_started, light_done, waited = threading.Event(), threading.Event(), []

    def light():
        with page_runs.light_run():
            light_started.set()
            time.sleep(0.3)
            light_done.set()  # its last statement: the run ends right after

    thread = threading.Thread(target=light)
    thread.start()
    light_started.wait(5)
    with page_runs.heavy_page_run():
        waited.append(page_runs.give_way())
        assert light_done.is_set()  # it went on only once the light run had finished
    thread.join()
    assert 0.15 < waited[0] < 1.0


def test_give_way_is_free_without_light_runs_and_outside_heavy_runs(one_slot):
    with page_runs.light_run():  # a light run itself never waits
        assert page_runs.give_way() == 0.0
    with page_runs.heavy_page_run():
        assert page_runs.give_way() == 0.0  # nobody light is computing


def test_a_heavy_run_inside_page_guard_is_not_counted_as_light(one_slot):
    """page_guard enters light_run for every page; heavy_page_run inside it takes the run
    out of the light ones, so two heavy runs never wait for each other at give_way."""
    with page_runs.light_run():
        with page_runs.heavy_page_run():
            assert page_runs._NO_LIGHT_RUN.is_set()
            assert page_runs.give_way() == 0.0
    assert page_runs._NO_LIGHT_RUN.is_set()  # and leaving it does not count it twice
    assert page_runs._LIGHT_COUNT == 0


def test_a_stream_of_light_runs_delays_a_heavy_run_by_at_most_its_budget(one_slot, monkeypatch):
    monkeypatch.setattr(page_runs, "GIVE_WAY_SECONDS", 0.3)
    stop = threading.Event()

    def light_forever():
        with page_runs.light_run():
            stop.wait(10)

    thread = threading.Thread(target=light_forever)
    thread.start()
    try:
        time.sleep(0.05)
        with page_runs.heavy_page_run():
            waits = [page_runs.give_way() for _ in range(5)]
    finally:
        stop.set()
        thread.join()
    assert 0.25 < sum(waits) < 0.6 and waits[-1] == 0.0
