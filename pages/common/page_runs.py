"""Heavy page runs queue, and give way to light ones (issue #23).

Python runs one thread at a time: six heavy page runs at once shared the interpreter with
every other student's request, which then got a seventh of it. Two rules keep another
student's click fast:

* a queue: at most PAGE_RUN_SLOTS heavy page scripts (``heavy_page_run``) compute in the
  server process at once, first come, first served;
* light runs first: every page run is light (``light_run``, entered by ``page_guard``)
  unless it is a heavy one, and a heavy run, at the boundaries of its sections
  (``give_way``: a core call, a chart, a part), waits while a light run is computing, for
  at most GIVE_WAY_SECONDS in all per run, so a stream of light runs cannot starve it;
  the worker processes computing are paused meanwhile too, each computation at most
  ``worker_pause.PAUSE_SECONDS`` in all.

PERCEPTRON_PAGE_RUN_SLOTS=0 turns both off (for A/B measurements).
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from collections.abc import Iterator

from pages.common.request_budget import give_freed_memory_back
from pages.common.worker_pause import pause_computing, resume_computing
from pages.common.workers import FairSlots

#: script runs of heavy pages computing in the server process at once; the others queue
PAGE_RUN_SLOTS = max(0, int(os.environ.get("PERCEPTRON_PAGE_RUN_SLOTS", "1")))
#: longest a page run waits for its turn; then it runs anyway (a page is never refused)
PAGE_RUN_WAIT_SECONDS = 20.0
#: longest a heavy run waits in all, per run, for light runs to finish
GIVE_WAY_SECONDS = 1.0
_PAGE_RUNS = FairSlots(max(1, PAGE_RUN_SLOTS))
_TURN = threading.local()  # this script run's thread: inside a heavy run, holding a turn

#: the garbage of heavy page runs (Plotly figures hold reference cycles) is collected after
#: such a run, at most once per this many seconds, and only while no light run computes:
#: Streamlit's collection after every run is off (.streamlit/config.toml, runner.postScriptGC)
COLLECT_EVERY_SECONDS = 1.0
_COLLECTED_AT = float("-inf")  # time.monotonic() of the last collection here

#: the workers stay paused this long after the last light run ends (seconds): its messages
#: then reach the student first (a light run's end is not yet the student's page drawn)
RESUME_AFTER_SECONDS = 0.02

_LIGHT_LOCK = threading.Lock()
_LIGHT_COUNT = 0
_LIGHT_GENERATION = 0  # counts the starts and ends of light periods: a stale resume is skipped
_NO_LIGHT_RUN = threading.Event()  # set while no light run computes
_NO_LIGHT_RUN.set()


def _light_changed(step: int) -> None:
    global _LIGHT_COUNT, _LIGHT_GENERATION
    with _LIGHT_LOCK:
        was = _LIGHT_COUNT
        _LIGHT_COUNT += step
        if _LIGHT_COUNT > 0:
            _NO_LIGHT_RUN.clear()
            if was == 0:  # the workers wait too (pages/common/worker_pause.py)
                _LIGHT_GENERATION += 1
                pause_computing()
        else:
            _NO_LIGHT_RUN.set()
            if was > 0:  # they go on RESUME_AFTER_SECONDS later, unless a light run came
                _LIGHT_GENERATION += 1
                timer = threading.Timer(RESUME_AFTER_SECONDS, _resume_if_quiet,
                                        args=(_LIGHT_GENERATION,))
                timer.daemon = True
                timer.start()


def _resume_if_quiet(generation: int) -> None:
    """Continue the paused workers if no light run started since the one that ended."""
    with _LIGHT_LOCK:
        if generation == _LIGHT_GENERATION and _LIGHT_COUNT == 0:
            resume_computing()


@contextlib.contextmanager
def light_run() -> Iterator[None]:
    """A page run that heavy runs give way to (every page run, until ``heavy_page_run``
    says otherwise). Nested blocks count once."""
    if getattr(_TURN, "light", False) or getattr(_TURN, "inside", False):
        yield
        return
    _TURN.light = True
    _light_changed(+1)
    try:
        yield
    finally:
        if _TURN.light:
            _TURN.light = False
            _light_changed(-1)


@contextlib.contextmanager
def heavy_page_run() -> Iterator[None]:
    """Run the block (a heavy page's script) in its turn: at most PAGE_RUN_SLOTS heavy page
    runs of this server process compute at once, the rest wait first come, first served
    (at most PAGE_RUN_WAIT_SECONDS, then they run anyway). Light pages do not take a turn,
    so their requests pass the queue. A run that waits for a worker (``run_in_worker``)
    gives its turn to the next page run and finishes without one: queueing again could
    wait on a run that itself waits for this one (Streamlit lets one script compute a
    cached value while others with the same arguments wait for it). A run waits for a turn
    only when it starts, holding nothing, so no two runs can wait for each other. Nested
    blocks share the outer turn.
    """
    if not PAGE_RUN_SLOTS or getattr(_TURN, "inside", False):
        yield
        return
    if getattr(_TURN, "light", False):  # page_guard counted this run as light: it is not
        _TURN.light = False
        _light_changed(-1)
    _TURN.inside, _TURN.gave_way = True, 0.0
    _TURN.held = _PAGE_RUNS.acquire(timeout=PAGE_RUN_WAIT_SECONDS)
    try:
        yield
    finally:
        if _TURN.held:
            _PAGE_RUNS.release()
        _TURN.inside = _TURN.held = False
        collect_garbage()


def collect_garbage() -> bool:
    """A full garbage collection, and what it freed given back to the system (malloc_trim,
    which releases the interpreter), unless one ran in the last COLLECT_EVERY_SECONDS or a
    light run computes now (a collection holds the interpreter: 8-33 ms with a class's
    sessions). Returns whether it collected."""
    global _COLLECTED_AT
    now = time.monotonic()
    if now - _COLLECTED_AT < COLLECT_EVERY_SECONDS or not _NO_LIGHT_RUN.is_set():
        return False
    _COLLECTED_AT = now
    gc.collect()
    give_freed_memory_back()
    return True


def give_up_turn() -> None:
    """Inside :func:`heavy_page_run`: pass the turn to the next page run (before a wait for
    a worker); the rest of this run goes on without one."""
    if getattr(_TURN, "held", False):
        _TURN.held = False
        _PAGE_RUNS.release()


def give_way() -> float:
    """Inside :func:`heavy_page_run`, between two sections: wait while a light run computes
    (at most what is left of GIVE_WAY_SECONDS for this run). Returns the seconds waited."""
    if not getattr(_TURN, "inside", False) or _NO_LIGHT_RUN.is_set():
        return 0.0
    left = GIVE_WAY_SECONDS - _TURN.gave_way
    if left <= 0:
        return 0.0
    started = time.monotonic()
    _NO_LIGHT_RUN.wait(timeout=left)
    waited = time.monotonic() - started
    _TURN.gave_way += waited
    return waited
