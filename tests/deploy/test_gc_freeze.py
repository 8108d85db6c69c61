"""The server's garbage collections skip the libraries' objects
(pages/common/server.configure_server, called from app.py).

Streamlit collects fully after every script run; unfrozen, each collection walked the
libraries' 130 000 objects (80-160 ms of the server's CPU per click, docs/performance.md).
configure_server freezes them once per process; importing the pages' helpers freezes
nothing (imports have no side effects), and cycles a run leaves are still collected.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


class Node:
    """An object in a reference cycle (as Plotly figures are)."""

    def __init__(self):
        self.me = self


#: run in a fresh interpreter: in the test process, other tests' objects are left to walk
FRESH_PROCESS = """
import gc
from pages.common.server import configure_server
before = gc.get_freeze_count()
configure_server()
once = gc.get_freeze_count()
configure_server()  # once per process: a second call freezes nothing more
gc.collect()
print(before, once, gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_the_libraries_are_frozen_once_and_few_objects_are_left_to_walk():
    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    before, once, twice, left = (int(word) for word in done.stdout.split())
    assert before == 0  # importing the helpers froze nothing
    assert once > 50_000  # numpy, pandas, plotly, streamlit, the core
    assert twice == once
    assert left < once / 2


def test_cycles_made_after_the_freeze_are_still_collected():
    cycle = Node()
    gone = weakref.ref(cycle)
    del cycle
    gc.collect()
    assert gone() is None  # freed by the collection: it was not frozen
