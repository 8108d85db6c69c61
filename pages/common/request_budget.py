"""The CPU budget of one request (one script run).

Every page's computations are bounded so that the heaviest link a page accepts computes
within REQUEST_CPU_SECONDS (in worker processes, pages/common/compute.py):
/bound's sweeps check their estimates against a :class:`RequestBudget` and go on in the
next request (a Continue button); the other pages refuse, before computing, settings
whose estimate is over it (benchmarks/bench_robustness.py --only heavy measures them).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

#: CPU seconds one script run may spend on a page's computations
REQUEST_CPU_SECONDS = 0.5
#: bytes every st.cache_data entry of the server process may hold together (pickled),
#: server.maxCacheDataSize in .streamlit/config.toml, which Streamlit enforces (LRU)
CACHE_DATA_BYTES = 256 * 1024**2


class RequestBudget:
    """Time this script run has spent computing, in the blocks it :meth:`measured`.

    Wall-clock time around each computation: they run in worker processes
    (pages/common/compute.py), whose CPU time the script's thread does not see; what a
    computation used is at most the time waited for it. Drawing the page is not counted.
    """

    def __init__(self, seconds: float = REQUEST_CPU_SECONDS):
        self.seconds = seconds
        self.used = 0.0  # seconds spent in measured blocks
        self.runs = 0  # computations started in this request (a caller counts them)

    @contextlib.contextmanager
    def measured(self) -> Iterator[None]:
        """Count the time the block takes as computing."""
        began = time.perf_counter()
        try:
            yield
        finally:
            self.used += time.perf_counter() - began

    @property
    def left(self) -> float:
        return self.seconds - self.used

    def exhausted(self) -> bool:
        return self.used >= self.seconds
