"""Functions that tests/test_worker_memory.py runs in a worker process: they hold memory.

A worker imports a function by its module and name, so these live in a module that
imports neither Streamlit nor the pages.
"""

from __future__ import annotations

import os

#: arrays a task leaves behind in its worker (as an allocator that keeps memory would)
KEPT: list = []


def keep(mb: float) -> int:
    """Allocate ``mb`` MB, write every page (so it is resident) and keep it; the pid."""
    import numpy as np

    KEPT.append(np.ones(int(mb * 2**20) // 8))
    return os.getpid()


def grow(mb_per_step: float, steps: int) -> int:
    """Keep ``mb_per_step`` more MB every 20 ms for ``steps`` steps (a computation whose
    memory grows while it runs); the pid."""
    import time

    for _ in range(steps):
        keep(mb_per_step)
        time.sleep(0.02)
    return os.getpid()
