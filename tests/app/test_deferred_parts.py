"""Issue 21: what the first view of a page does not need waits until the student opens it.

/kernels, /generalisation and /relaxation open with their player and controls; the 3-D
lift, the curve, the sweeps and the other charts below sit in closed parts that send no
Plotly chart and compute nothing until opened (pages/common/deferred.py). Opening a part
draws it; a link keeps every setting whether or not a part is open."""

from __future__ import annotations

import pytest
import streamlit as st
from app_helpers import chart_elements, open_page, player_payload, plotly_specs

from pages.common.deferred import DEFERRED_PARTS, deferred_key

#: the computations of these pages' parts and first views, by module: (module, name)
COMPUTATIONS = [
    ("perceptron_core", "kernel_perceptron"),
    ("perceptron_core", "kernel_margin"),
    *(
        ("perceptron_core.viz.kernels", name)
        for name in (
            "player_payload",
            "dual_check",
            "lifted_run",
            "bias_trick_data",
            "learn_target",
        )
    ),
    ("pages.generalisation_parts.runs", "generalisation_curve"),
    ("perceptron_core.viz.generalisation", "eta_check"),
    ("perceptron_core.viz.relaxation", "eta_sweep"),
]

#: page -> (its deferred parts, a Plotly chart key each part draws when opened)
PAGES = {
    "pages/kernels.py": {
        "lift": "lift_3d",
        "bias_trick": "bias_3d",
        "conjunctions": "conjunction_timing",
    },
    "pages/generalisation.py": {
        "curve": "curve_chart",
        "stability": "stability_chart",
        "loss": "loss_chart",
    },
    "pages/relaxation.py": {"sweep": "sweep_chart", "perceptron": "perceptron_chart"},
}


def chart_keys(at) -> set[str]:
    return {chart.proto.id.rsplit("-", 1)[-1] for chart in chart_elements(at)}


def test_every_deferred_part_belongs_to_a_page_here():
    assert sorted(DEFERRED_PARTS) == sorted(name for parts in PAGES.values() for name in parts)


@pytest.mark.parametrize("page", PAGES)
def test_the_first_view_sends_the_player_and_no_plotly_chart(page, monkeypatch):
    import importlib

    sent = []

    def recorded(function):  # records what a page computes, and computes it
        def call(*args, **kwargs):
            sent.append(function.__name__)
            return function(*args, **kwargs)

        return call

    monkeypatch.setenv("PERCEPTRON_COMPUTE_IN_PROCESS", "1")  # patched: not picklable
    for module, name in COMPUTATIONS:
        module = importlib.import_module(module)
        monkeypatch.setattr(module, name, recorded(getattr(module, name)))
    st.cache_data.clear()
    at = open_page(page, parts_open=False)
    assert player_payload(at, page.split("/")[1][:-3])
    assert plotly_specs(at) == []
    assert at.get("dataframe") == [] and at.get("table") == []  # no Arrow tables
    # no heavy computation for a part nobody opened (on /kernels the player's run, its
    # payload and its bound, the dual check and the learnt target are in the first view)
    first_view = {
        "kernel_perceptron",
        "player_payload",
        "kernel_margin",
        "dual_check",
        "learn_target",
    }
    assert set(sent) <= (first_view if "kernels" in page else set()), sent
    labels = [expander.label for expander in at.expander]
    assert len([label for label in labels if label.startswith(("Show", "The bias"))]) == len(
        PAGES[page]
    )


@pytest.mark.parametrize(
    "page, name, chart",
    [(page, name, chart) for page, parts in PAGES.items() for name, chart in parts.items()],
)
def test_opening_a_part_draws_its_chart(page, name, chart):
    at = open_page(page, state={deferred_key(name): True}, parts_open=False)
    assert any(key.endswith(chart) for key in chart_keys(at)), chart_keys(at)
    others = set(PAGES[page].values()) - {chart}
    assert not any(key.endswith(other) for key in chart_keys(at) for other in others)
