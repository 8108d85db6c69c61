"""Heavy computations run in worker processes, not in the server process.

Every session's script runs in the server process, and pure NumPy/Python work holds its
interpreter lock: one student's sweep would slow every other student's page. In a
worker at lower priority it competes only for the CPU, which the operating system
gives to the server first; the session's script just waits for the result.

    part = run_in_worker(margin_sweep, [0.1], [0], n=5000, dim=100,
                         advice="Lower n or d.")  # ComputationStopped if over its time

The pool, ``_WORKERS``, exists once per server process (this module's state).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator

from pages.common.request_budget import REQUEST_CPU_SECONDS
from pages.common.worker_process import OverCPU, OverMemory, WorkerProcess

_LOG = logging.getLogger("perceptron_lab")

#: most computations running at once, one per core; more requests wait for a worker
MAX_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: CPU seconds one computation may use in a worker, unless the caller says otherwise
WORKER_SECONDS = REQUEST_CPU_SECONDS + 1.0
#: longest a student waits for one computation (a niced worker is slow on a busy server)
WORKER_WAIT_SECONDS = 30.0
#: a worker process is replaced after this many computations
WORKER_TASKS = 500
#: a worker whose resident memory is above this after a computation is replaced (MB): the
#: allocator keeps a computation's memory in the process (workers grew from 42 to 95 MB
#: each over 1 000 heavy links and stayed there); a fresh worker (NumPy and the core
#: imported) holds 31 MB and starts in about 0.3 s
WORKER_KEEP_MB = 100.0
#: a computation whose worker holds more than this (MB, read every 50 ms) is stopped with a
#: message; the heaviest valid link of each page peaked at 109 MB in a worker (2026-11-25).
#: So each worker holds at most WORKER_KEEP_MB between computations and this during one
WORKER_MAX_MB = 300.0


class ComputationStopped(ValueError):
    """:func:`run_in_worker` stopped a computation that ran over its time, or could
    not start it because every worker stayed busy, or its worker ended. A ValueError,
    so ``core_call`` shows the message like any other refusal."""


class FairSlots:
    """At most ``limit`` holders at once, handed out first come, first served.

    ``threading.BoundedSemaphore`` is not fair: a released slot goes to whichever thread
    takes it first, often a newcomer rather than one that has waited for seconds. Here
    each waiter queues its own event and a released slot is handed to the oldest one.
    """

    def __init__(self, limit: int):
        self._lock = threading.Lock()
        self._free = limit
        self._queue: collections.deque[threading.Event] = collections.deque()

    def acquire(self, timeout: float) -> bool:
        with self._lock:
            if self._free > 0 and not self._queue:
                self._free -= 1
                return True
            turn = threading.Event()
            self._queue.append(turn)
        if turn.wait(timeout):
            return True
        with self._lock:
            if turn.is_set():  # handed over just as the wait ended
                return True
            self._queue.remove(turn)
            return False

    def release(self) -> None:
        with self._lock:
            if self._queue:
                self._queue.popleft().set()  # the slot passes straight to the oldest waiter
            else:
                self._free += 1

    def waiting(self) -> int:
        """How many callers wait for a slot (for tests and benchmarks)."""
        with self._lock:
            return len(self._queue)


class _Workers:
    """The worker processes of this server process, shared by every session.

    A worker is a fresh Python process (not a fork of the server), so it holds no
    session, no Streamlit and no student data: a call sends the function (by name)
    and its arguments, and gets the result back. A computation over its time is
    stopped by ending its own worker only; the next call starts a new one.
    """

    def __init__(self, limit: int = MAX_WORKERS):
        self._lock = threading.Lock()
        self._idle: list[WorkerProcess] = []
        self._slots = FairSlots(limit)  # first come, first served

    def run(self, function, args: tuple, kwargs: dict, seconds: float, wait: float,
            advice: str):
        deadline = time.monotonic() + wait
        if not self._slots.acquire(timeout=wait):
            raise ComputationStopped(
                f"The server is busy with other long computations, so nothing was computed "
                f"in {wait:.0f} s. Try again in a moment.")
        try:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            if worker is None:
                worker = WorkerProcess()
            try:
                ok, value = worker.call(function, args, kwargs, seconds, deadline,
                                        memory_mb=WORKER_MAX_MB)
            except (OverCPU, OverMemory, TimeoutError, EOFError, OSError) as error:
                worker.stop()  # this computation only; the other workers go on
                name = getattr(function, "__name__", "computation")
                if isinstance(error, OverCPU):
                    _LOG.warning("stopped %s after %.1f s of CPU", name, seconds)
                    reason = (f"This computation was stopped after {seconds:.0f} s of "
                              "computing, the most one request may use on this shared "
                              "server.")
                elif isinstance(error, OverMemory):
                    _LOG.warning("stopped %s above %.0f MB", name, WORKER_MAX_MB)
                    reason = (f"This computation was stopped: it needed more than "
                              f"{WORKER_MAX_MB:.0f} MB of memory, the most one computation "
                              "may use on this shared server.")
                elif isinstance(error, TimeoutError):
                    _LOG.warning("stopped %s after waiting %.1f s", name, wait)
                    reason = (f"This computation was stopped: the server is too busy to "
                              f"finish it within {wait:.0f} s. Try again in a moment, or:")
                else:
                    _LOG.error("the worker computing %s ended: %r", name, error)
                    reason = "The process computing this ended unexpectedly."
                raise ComputationStopped(f"{reason} {advice}".strip()) from None
            except BaseException:
                worker.stop()  # not picklable, or interrupted: a reply may still come
                raise
            self._give_back(worker)
            if not ok:
                raise value  # the function's own error, e.g. the core's ValueError
            return value
        finally:
            self._slots.release()

    def _give_back(self, worker: WorkerProcess) -> None:
        """Keep the worker for the next computation, or replace it (the next call starts a
        fresh one) after WORKER_TASKS computations or one that left it above
        WORKER_KEEP_MB (unreadable memory counts as within the limit)."""
        if worker.done >= WORKER_TASKS or (worker.rss_mb() or 0.0) > WORKER_KEEP_MB:
            worker.stop()
            return
        with self._lock:
            self._idle.append(worker)

    def pids(self) -> list[int]:
        """Process ids of the idle workers (for tests and benchmarks)."""
        with self._lock:
            return [worker.process.pid for worker in self._idle]


_WORKERS = _Workers()

def run_in_worker(function, *args, seconds: float | None = None, wait: float | None = None,
                  advice: str = "Use smaller inputs.", **kwargs):
    """``function(*args, **kwargs)`` computed in a worker process at lower priority.

    Returns what the function returns and raises what it raises. ``function`` must be
    importable by name (a core function, not a lambda or a page's function), and its
    arguments and result picklable. A computation that has used ``seconds`` of CPU
    (default ``WORKER_SECONDS``), or is not finished ``wait`` seconds after the call
    (default ``WORKER_WAIT_SECONDS``, waiting for a free worker included), is stopped,
    and :class:`ComputationStopped`, a ValueError, says so and adds ``advice`` (what
    the student can lower).
    """
    seconds = WORKER_SECONDS if seconds is None else float(seconds)
    wait = WORKER_WAIT_SECONDS if wait is None else float(wait)
    from pages.common.page_runs import give_up_turn  # (it imports FairSlots from here)

    give_up_turn()  # a heavy page run waiting here lets the next one compute
    return _WORKERS.run(function, args, kwargs, seconds, wait, advice)
