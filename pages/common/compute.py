"""Computations run apart from the server process: :func:`computed`.

Every session's script runs in a thread of the one server process, and NumPy's many small
operations hold its interpreter lock: with four heaviest links computing in the server
(each at most 0.5 CPU-s), another student's settings change took 2.3-7.5 times as long
as at rest (docs/performance.md). In a worker process the computation competes for a
core only. The workers are Python's own ``concurrent.futures.ProcessPoolExecutor``: fresh
interpreters (``forkserver``: not copies of the server), at lower priority, each replaced
after WORKER_TASKS computations and held to WORKER_MEMORY_BYTES of address space
(``resource.setrlimit``), so memory a computation leaves behind goes with its worker.

    fit = computed(viz.fit_both, X, labels, order, seed, max_epochs)

A computation's own ValueError reaches the page as it is (``core_call`` shows it).
"""

from __future__ import annotations

import atexit
import concurrent.futures
import multiprocessing
import os
import threading
import time

#: computations at once (one per core); more wait for a worker
MAX_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: a worker process is replaced after this many computations
WORKER_TASKS = 200
#: niceness added to each worker (the server's own threads get the cores first)
WORKER_NICENESS = 10
#: address space one worker may use (a computation past it fails with MemoryError)
WORKER_MEMORY_BYTES = 1024 * 1024**2
#: longest a page waits for one computation (seconds): each is bounded to about 0.5 CPU-s,
#: so only a server far too busy waits this long
WAIT_SECONDS = 60.0

#: set to "1", computations run in the calling thread (tests that patch a core function)
IN_PROCESS_VARIABLE = "PERCEPTRON_COMPUTE_IN_PROCESS"
_LOCK = threading.Lock()
_SPENT = threading.local()  # .seconds: CPU time of this thread's computations so far
_POOL: concurrent.futures.ProcessPoolExecutor | None = None
_TASKS = 0  # computations given to the current pool


def _worker_start() -> None:
    """In each new worker: lower its priority, bound its memory, one BLAS thread."""
    import resource

    os.nice(WORKER_NICENESS)
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    import perceptron_core.viz  # noqa: F401  (the core and Plotly: before the first task)


def _pool() -> concurrent.futures.ProcessPoolExecutor:
    """The pool, replaced whole after WORKER_TASKS computations a worker. Not through the
    executor's own ``max_tasks_per_child``: with it, Python 3.11's executor stalled once a
    worker had reached its count (every later computation waited its WAIT_SECONDS: the test
    suite's few hundred computations froze the shared test server)."""
    global _POOL, _TASKS
    with _LOCK:
        _TASKS += 1
        if _POOL is not None and _TASKS > WORKER_TASKS * MAX_WORKERS:
            _POOL.shutdown(wait=False)  # its workers end after the computations they hold
            _POOL = None
        if _POOL is None:
            _TASKS = 1
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # inherited by the workers
            _POOL = concurrent.futures.ProcessPoolExecutor(
                max_workers=MAX_WORKERS,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=_worker_start,
            )
            atexit.register(_POOL.shutdown, wait=False, cancel_futures=True)
        return _POOL


def _timed(function, args: tuple, kwargs: dict) -> tuple:
    """In a worker: what ``function`` returns, and the CPU seconds it took there."""
    began = time.thread_time()
    result = function(*args, **kwargs)
    return result, time.thread_time() - began


def cpu_spent() -> float:
    """CPU seconds the computations of this thread (one script run) have taken so far, in
    the workers or here."""
    return getattr(_SPENT, "seconds", 0.0)


def computed(function, *args, **kwargs):
    """``function(*args, **kwargs)`` computed in a worker process; what it returns, or what
    it raises. ``function`` must be importable by name (a core function) and its
    arguments and result picklable. A worker that ended (memory, a crash) is a
    ValueError saying so, and the next computation gets a fresh pool. The CPU time it
    took is added to :func:`cpu_spent`."""
    global _POOL
    if os.environ.get(IN_PROCESS_VARIABLE) == "1":  # tests that look into a computation
        result, seconds = _timed(function, args, kwargs)
        _SPENT.seconds = cpu_spent() + seconds
        return result
    try:
        result, seconds = (
            _pool().submit(_timed, function, args, kwargs).result(timeout=WAIT_SECONDS)
        )
        _SPENT.seconds = cpu_spent() + seconds
        return result
    except concurrent.futures.process.BrokenProcessPool:
        with _LOCK:
            _POOL = None
        raise ValueError(
            "The process computing this ended unexpectedly (too much memory?); use smaller inputs."
        ) from None
    except concurrent.futures.TimeoutError:
        raise ValueError(
            f"The server is too busy to compute this within {WAIT_SECONDS:.0f} "
            "s; try again in a moment."
        ) from None
    except MemoryError:
        raise ValueError(
            "This computation needed more memory than one may use on this "
            "shared server; use smaller inputs."
        ) from None
