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


def churn(mb: float) -> int:
    """Use ``mb`` MB in 1 MB arrays and free them, with a small array kept after them (a
    computation's result, say): glibc's allocator keeps the freed heap (the heap's top is in
    use, and a first 8 MB array freed has raised its threshold for mapping arrays on their
    own) unless the worker trims it; the pid."""
    import numpy as np

    first = np.ones(2**20)  # 8 MB, mapped on its own; freeing it raises the threshold
    del first
    blocks = [np.ones(2**17) for _ in range(int(mb))]  # 1 MB each: on the heap now
    KEPT.append(np.ones(2**17))  # 1 MB in use, above them: the heap's top stays
    del blocks
    return os.getpid()
