"""The CPU budget of one request (one script run)."""

from __future__ import annotations

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
