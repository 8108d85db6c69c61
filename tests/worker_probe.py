"""Functions that tests/test_run_in_worker.py runs in a worker process.

A worker imports a function by its module and name, so these live in a module of
their own that imports neither Streamlit nor the pages (importing the test module
itself would import both).
"""

from __future__ import annotations

import os
import sys
import time

#: set by a test in the server process; a worker must not see it
MARK = None


def facts() -> dict:
    """What a computation running here can see of its process."""
    runtime = sys.modules.get("streamlit.runtime")
    return {
        "pid": os.getpid(),
        "parent": os.getppid(),
        "niceness": os.nice(0),
        "mark": MARK,
        "streamlit imported": "streamlit" in sys.modules,
        "streamlit runtime": bool(runtime and runtime.exists()),
        "page modules": sorted(name for name in sys.modules if name.startswith("pages")),
        "blas threads": blas_threads(),
    }


def blas_threads() -> list[int]:
    """The thread count of each BLAS library NumPy loaded in this process."""
    import numpy  # noqa: F401  (loads the BLAS library)
    from threadpoolctl import threadpool_info

    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def add_one_in_place(array):
    """Change the array it was given, and return it."""
    array += 1
    return array


def spin(seconds: float) -> float:
    """Compute (use the CPU) for ``seconds`` of this process's CPU time."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        sum(range(10_000))
    return time.process_time() - start


def slow_margin_sweep(*args, **kwargs):
    """Stands in for a sweep whose cost was underestimated: it computes for minutes."""
    spin(120)
    raise AssertionError("a stopped computation went on")
