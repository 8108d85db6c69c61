"""The CPU budget of one request (one script run).

Every page's computations run in the script's own thread of the server process, each
bounded so that the heaviest link a page accepts computes within REQUEST_CPU_SECONDS:
/bound's sweeps check their estimates against a :class:`RequestBudget` and go on in the
next request (a Continue button); the other pages refuse, before computing, settings
whose estimate is over it (benchmarks/bench_robustness.py --only heavy measures them).
"""

from __future__ import annotations

import time

#: CPU seconds one script run may spend on a page's computations
REQUEST_CPU_SECONDS = 0.5
#: bytes every st.cache_data entry of the server process may hold together (pickled),
#: server.maxCacheDataSize in .streamlit/config.toml, which Streamlit enforces (LRU)
CACHE_DATA_BYTES = 256 * 1024**2


class RequestBudget:
    """CPU time this script run has used since the budget was made.

    The thread's own CPU time (``time.thread_time``): each session's script runs in a
    thread of its own, and with one BLAS thread (``OPENBLAS_NUM_THREADS=1``, as ``make
    run`` and ``make serve`` start the server) its computations are all counted there.
    """

    def __init__(self, seconds: float = REQUEST_CPU_SECONDS):
        self.seconds = seconds
        self.start = time.thread_time()
        self.runs = 0  # computations started in this request (a caller counts them)

    @property
    def used(self) -> float:
        return time.thread_time() - self.start

    @property
    def left(self) -> float:
        return self.seconds - self.used

    def exhausted(self) -> bool:
        return self.used >= self.seconds
