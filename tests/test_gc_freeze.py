"""The server's garbage collections skip the libraries' objects (issue #23,
pages/common/request_budget.freeze_long_lived_objects).

A full collection (Python's own, or one after a heavy page run, pages/common/page_runs.py;
Streamlit's after every run is off) does not walk the libraries' 130 000 frozen objects, yet
still frees the cycles a run leaves behind.
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


def test_streamlit_does_not_collect_after_every_run():
    """A full collection after each run held the interpreter 8-33 ms with a class's sessions
    (issue #23): .streamlit/config.toml turns it off for the server and AppTest alike."""
    import tomllib

    with open(REPO_ROOT / ".streamlit" / "config.toml", "rb") as config:
        assert tomllib.load(config)["runner"]["postScriptGC"] is False
    from streamlit import config as streamlit_config

    assert streamlit_config.get_option("runner.postScriptGC") is False  # read as such


def test_a_heavy_run_collects_at_most_once_a_second_and_never_while_a_light_run_computes(
        monkeypatch):
    from pages.common import page_runs

    collections, trims = [], []
    monkeypatch.setattr(page_runs.gc, "collect", lambda *args: collections.append(args))
    monkeypatch.setattr(page_runs, "give_freed_memory_back", lambda: trims.append(0))
    monkeypatch.setattr(page_runs, "_COLLECTED_AT", float("-inf"))
    clock = [1000.0]
    monkeypatch.setattr(page_runs.time, "monotonic", lambda: clock[0])
    with page_runs.heavy_page_run():
        pass
    assert len(collections) == 1  # the garbage a heavy run left is collected
    clock[0] += 0.5
    with page_runs.heavy_page_run():
        pass
    assert len(collections) == 1  # not twice within a second
    clock[0] += 0.6
    with page_runs.light_run():  # another student's run computes
        assert page_runs.collect_garbage() is False
    assert len(collections) == 1
    with page_runs.heavy_page_run():
        pass
    assert len(collections) == 2  # a second later, nobody light computing
    assert trims == [0, 0]  # each collection gave the freed memory back


def test_a_heavy_page_run_frees_the_cycles_it_left():
    from pages.common import page_runs

    page_runs._COLLECTED_AT = float("-inf")
    with page_runs.heavy_page_run():
        cycle = Node()
        gone = weakref.ref(cycle)
        del cycle
    assert gone() is None
