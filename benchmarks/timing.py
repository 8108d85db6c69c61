"""What the benchmarks share: the median time of a call, and the machine it ran on.

    from timing import machine_line, median_time

Import it from a script in benchmarks/ (run as ``python benchmarks/NAME.py``, the folder
is on ``sys.path``). The benchmarks time with time.perf_counter and print; they assert
nothing.
"""

from __future__ import annotations

import os
import platform
import statistics
import time


def median_time(fn, repeats: int, warmup: int = 1):
    """(median seconds, all timings, last result) of ``fn()`` over ``repeats`` timed runs
    after ``warmup`` untimed ones."""
    result = None
    for _ in range(warmup):
        result = fn()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), timings, result


def load_average() -> str:
    """The load average over 1, 5 and 15 minutes ("unknown" where the system has none):
    other processes on the cores slow every timing down."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def machine_line() -> str:
    """Python, NumPy and the number of CPUs, in one line."""
    import numpy as np

    return (
        f"python {platform.python_version()}  numpy {np.__version__}  "
        f"os.cpu_count() = {os.cpu_count()}"
    )
