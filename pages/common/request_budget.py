"""The CPU budget of one request (one script run).

Every page's computations are bounded so that the heaviest link a page accepts computes
within REQUEST_CPU_SECONDS (in worker processes, pages/common/compute.py):
/bound's sweeps check their estimates against a :class:`RequestBudget` and go on in the
next request (a Continue button); the other pages refuse, before computing, settings
whose estimate is over it (benchmarks/bench_robustness.py --only heavy measures them).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pages.common.compute import cpu_spent

#: CPU seconds one script run may spend on a page's computations
REQUEST_CPU_SECONDS = 0.5
#: bytes every st.cache_data entry of the server process may hold together (pickled),
#: server.maxCacheDataSize in .streamlit/config.toml, which Streamlit enforces (LRU)
CACHE_DATA_BYTES = 256 * 1024**2


class RequestBudget:
    """CPU time this script run has spent computing, in the blocks it :meth:`measured`:
    the CPU time of the computations they ran in the worker processes
    (pages/common/compute.py reports it), not the drawing of the page nor the time a
    computation waited for a worker."""

    def __init__(self, seconds: float = REQUEST_CPU_SECONDS):
        self.seconds = seconds
        self.used = 0.0  # CPU seconds of the measured blocks' computations
        self.runs = 0  # computations started in this request (a caller counts them)

    @contextlib.contextmanager
    def measured(self) -> Iterator[None]:
        """Count the computations of the block."""
        began = cpu_spent()
        try:
            yield
        finally:
            self.used += cpu_spent() - began

    @property
    def left(self) -> float:
        return self.seconds - self.used

    def exhausted(self) -> bool:
        return self.used >= self.seconds
