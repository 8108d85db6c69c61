"""The server's garbage collections skip the libraries' objects (issue #23,
pages/common/request_budget.freeze_long_lived_objects).

Streamlit collects after every script run; frozen, the collection does not walk the
libraries' 130 000 objects, yet still frees the cycles a run leaves behind.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pages.common  # noqa: F401  (imports request_budget, which freezes once)

REPO_ROOT = Path(__file__).resolve().parents[1]


class Node:
    """An object in a reference cycle (as Plotly figures are)."""

    def __init__(self):
        self.me = self


#: run in a fresh interpreter: in the test process, other tests' objects are left to walk
FRESH_PROCESS = """
import gc
import pages.common  # imports request_budget, which freezes once
from pages.common import request_budget
assert request_budget.freeze_long_lived_objects() is False  # once per process
gc.collect()
print(gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_the_libraries_are_frozen_once_and_few_objects_are_left_to_walk():
    done = subprocess.run([sys.executable, "-c", FRESH_PROCESS], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    frozen, left = (int(word) for word in done.stdout.split())
    assert frozen > 50_000  # numpy, pandas, plotly, streamlit, the core
    assert left < frozen / 2


def test_cycles_made_after_the_freeze_are_still_collected():
    cycle = Node()
    gone = weakref.ref(cycle)
    del cycle
    gc.collect()
    assert gone() is None  # freed by the collection: it was not frozen
