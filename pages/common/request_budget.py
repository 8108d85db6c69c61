"""The CPU budget of one request (one script run)."""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import time

#: seconds one script run may spend on a page's computations
REQUEST_CPU_SECONDS = 4.0
#: bytes every st.cache_data entry of the server process may hold together (pickled),
#: server.maxCacheDataSize in .streamlit/config.toml, which Streamlit enforces (LRU)
CACHE_DATA_BYTES = 256 * 1024**2


class RequestBudget:
    """Time this script run has spent since it was created.

    Wall-clock time, not this thread's CPU time: NumPy's BLAS threads do part of
    the work (``thread_time`` would miss it), and on a busy server a request then
    stops earlier, which is what the other sessions need.
    """

    def __init__(self, seconds: float = REQUEST_CPU_SECONDS):
        self.seconds = seconds
        self.start = time.perf_counter()

    @property
    def used(self) -> float:
        return time.perf_counter() - self.start

    @property
    def left(self) -> float:
        return self.seconds - self.used

    def exhausted(self) -> bool:
        return self.used >= self.seconds


def freeze_long_lived_objects() -> bool:
    """Import what every page uses, collect, then move every object the garbage collector
    tracks into its permanent generation (``gc.freeze``), once per process. Returns whether
    it froze now (False if already done, or turned off with PERCEPTRON_GC_FREEZE=0).

    Streamlit runs a full collection after every script run (``runner.postScriptGC``), and
    its cost grows with every tracked object: with the libraries' 130 000 objects each
    collection held the server's interpreter for about 80 ms (py-spy: 45 % of the server's
    samples while students opened /relaxation from the cache), while other students'
    requests waited. Frozen, the libraries' objects are skipped and a collection takes
    1-4 ms; it still frees what each run left (Plotly figures hold reference cycles). The
    objects frozen are the imported modules and whatever the first script run holds at
    that moment: never freed, once per process (issue #23).
    """
    global _FROZEN
    if _FROZEN or os.environ.get("PERCEPTRON_GC_FREEZE", "1") == "0":
        return False
    _FROZEN = True
    import pandas  # noqa: F401  (what the pages import: in the permanent generation)
    import plotly.graph_objects  # noqa: F401

    import perceptron_core.viz  # noqa: F401
    gc.collect()  # garbage is not frozen
    gc.freeze()
    return True


_FROZEN = False
freeze_long_lived_objects()  # on import: the first script run of the server process


def share_the_interpreter_finely() -> float:
    """Let a thread waiting for the interpreter lock have it after 1 ms instead of
    Python's 5 ms (``sys.setswitchinterval``), once per process; returns the interval.

    Every student's script run is a thread of the one server process. A short run (a
    settings change, about 20 ms of Python) asks for the lock many times, and while a
    heavy page's run computes beside it each of those asks could wait up to the whole
    interval (issue #23). PERCEPTRON_SWITCH_INTERVAL (seconds) sets another one.
    """
    interval = float(os.environ.get("PERCEPTRON_SWITCH_INTERVAL", "0.001"))
    sys.setswitchinterval(interval)
    return sys.getswitchinterval()


share_the_interpreter_finely()


try:  # glibc keeps the memory Python frees (above all after large buffers); malloc_trim
    _MALLOC_TRIM = ctypes.CDLL("libc.so.6").malloc_trim
except (OSError, AttributeError):  # not glibc: nothing to do
    _MALLOC_TRIM = None


def give_freed_memory_back() -> bool:
    """Return the memory the process has freed to the system (glibc's ``malloc_trim``; the
    interpreter lock is released meanwhile). A few milliseconds. Returns whether it could."""
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True
