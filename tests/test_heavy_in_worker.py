"""Issue #23 item 2: every heavy computation of a page runs in the niced worker pool
(pages/common/workers.py), not in the server process, and one that runs over its time
becomes a message on the page."""

from __future__ import annotations

import pytest
import streamlit as st

from app_helpers import chart_elements, fallback_messages, open_page
from pages.common import workers

#: (page, link, the core function the page must send to a worker)
HEAVY = [
    ("pages/multiclass.py", {"k": "6", "n": "600", "max_epochs": "200", "data_seed": "91",
                             "layout": "one class in the middle", "spread": "0.6",
                             "order": "max_residual"}, "fit_both"),
    ("pages/generalisation.py", {"curve_n": "2, 5, 10", "repeats": "40", "curve_seed": "91"},
     "generalisation_curve"),
    ("pages/relaxation.py", {}, "eta_sweep"),
    ("pages/kernels.py", {}, "kernel_margin"),
    # /kernels' heaviest link: the run, the player's payload and the dual check (50-250 ms
    # each at n = 2 000 with flipped labels) are computed in a worker too
    *[("pages/kernels.py", {"n": "2000", "noise": "0.3", "data_seed": "91"}, name)
      for name in ("kernel_perceptron", "player_payload", "dual_check", "learn_target")],
]


@pytest.fixture
def sent(monkeypatch):
    """The names of the functions the pages send to the workers, in order."""
    names, run = [], workers._WORKERS.run

    def recording(function, *args, **kwargs):
        names.append(function.__name__)
        return run(function, *args, **kwargs)

    monkeypatch.setattr(workers._WORKERS, "run", recording)
    st.cache_data.clear()  # a cached result would not be computed again
    return names


@pytest.mark.parametrize("page, query, function", HEAVY, ids=[f"{h[0]}-{h[2]}" for h in HEAVY])
def test_the_heavy_computation_runs_in_a_worker(sent, page, query, function):
    at = open_page(page, query)
    assert not fallback_messages(at) and not at.error, [e.value for e in at.error]
    assert function in sent


def test_a_multiclass_fit_over_its_time_becomes_a_message(sent, monkeypatch):
    monkeypatch.setattr(workers, "WORKER_SECONDS", 0.05)  # where run_in_worker reads it
    page, query, _ = HEAVY[0]
    at = open_page(page, {**query, "data_seed": "92"})
    assert not fallback_messages(at)
    stops = [e.value for e in at.error if "stopped after 0 s of computing" in e.value]
    assert len(stops) == 1 and "Lower the epoch limit" in stops[0], [e.value for e in at.error]
    assert not chart_elements(at)  # nothing drawn from a stopped fit
