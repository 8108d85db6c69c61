"""/generalisation's runs (pages/generalisation.py): the data, the margin perceptron and its
player payload, the curve (one N at a time), the stability check and SGD, each cached.
Not a page."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from pages.common.compute import computed
from perceptron_core import generalisation_curve, make_unit_margin, margin_perceptron
from perceptron_core.viz import generalisation as viz
from perceptron_core.viz.player import player_spec, run_id

LIMIT = 1.15  # half-width of the square view: unit vectors with room around them
DEFAULT_SIZES = "2, 5, 10, 20, 50, 100, 200"
N_TEST = 5_000  # fresh test points per run in dimension d > 2
CACHE = dict(max_entries=32, ttl=3600)
#: the shares of one request's CPU budget (REQUEST_CPU_SECONDS) the two costly parts may
#: take by their estimates (upper figures: the curve computes in about 0.8 of its
#: estimate, SGD in 0.6-0.8), so that the page with every part open stays within it; the
#: rest at its heaviest (section 1's run and player at N = 300, γ = 0.05, the stability
#: runs at N + 1 = 200, the figures) takes about 0.15 CPU-s
CURVE_SECONDS = 0.25
SGD_SECONDS = 0.15


@st.cache_data(show_spinner=False, **CACHE)
def unit_data(n, margin, seed):
    data = make_unit_margin(n=n, margin=margin, dim=2, seed=seed)
    return np.asarray(data.X), np.asarray(data.y), np.asarray(data.w_star)


@st.cache_data(show_spinner="Training…", **CACHE)
def margin_run(n, margin, data_seed, order_seed):
    X, y, _ = unit_data(n, margin, data_seed)
    return margin_perceptron(X, y, order="random", seed=order_seed, unit=True)


@st.cache_data(show_spinner=False, **CACHE)
def margin_payload(n, margin, data_seed, order_seed, start_step, speed, present):
    X, y, star = unit_data(n, margin, data_seed)
    trace = margin_run(n, margin, data_seed, order_seed)
    spec = player_spec(
        run_id("generalisation", n, margin, data_seed, order_seed),
        trace.n_examined,
        trace.update_steps,
        start_step=start_step,
        speed=speed,
        present=present,
    )
    return viz.margin_player_payload(
        X, y, trace, beta_star=star, margin=margin, player=spec, limit=LIMIT
    )


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def curve_at(size, margin, dim, repeats, seed):
    """The curve at one N (seeded by (seed, N): the same as within a call over all N), in a
    worker process (pages/common/compute.py)."""
    return computed(
        generalisation_curve,
        n_train=[size],
        margin=margin,
        dim=dim,
        repeats=repeats,
        seed=seed,
        n_test=N_TEST,
    )


def curve(sizes, margin, dim, repeats, seed):
    """The whole curve, one cached N at a time, with a progress bar while it computes."""
    viz.check_curve_cost(sizes, margin, dim, repeats, N_TEST, CURVE_SECONDS)
    bar = st.progress(0.0, text="Training and testing…")
    total, done, parts = sum(sizes), 0, []
    for size in sizes:
        parts.append(curve_at(size, margin, dim, repeats, seed))
        done += size
        bar.progress(done / total, text=f"Training and testing… N = {size} done")
    bar.empty()
    return viz.combine_curves(parts)


@st.cache_data(show_spinner="Training twice…", **CACHE)
def stability(n_points, margin, seed, heldout):
    """Both runs of section 3 (``heldout``: the row left out, 0-based) and the held-out
    point's margin y x·ŵ under the run without it."""
    X, y, _ = unit_data(n_points, margin, seed)
    full = margin_perceptron(X, y, order="cyclic", unit=True)
    keep = np.arange(n_points) != heldout
    reduced = margin_perceptron(X[keep], y[keep], order="cyclic", unit=True)  # same order
    summary = viz.stability_summary(full, reduced, heldout)
    return summary, float(y[heldout] * (X[heldout] @ np.asarray(reduced.w)))


@st.cache_data(show_spinner="Running SGD…", **CACHE)
def sgd_check(n, margin, data_seed, order_seed, eta):
    """Four SGD runs (two losses, step 1 and η), in a worker process; refused (ValueError)
    when their estimate is over SGD_SECONDS (a small η on data of a small margin)."""
    viz.check_sgd_cost(margin, eta, SGD_SECONDS)
    X, y, _ = unit_data(n, margin, data_seed)
    return computed(viz.eta_check, X, y, eta, order="random", seed=order_seed, unit=True)


def figure_from(spec: dict) -> go.Figure:
    """A figure from a cached ``to_plotly_json()`` dict, without Plotly validating it again
    (it was validated when built): about 1 ms against 50-270 ms to build the loss figure
    anew on every script run that shows it, with the same JSON."""
    return go.Figure(spec, _validate=False)


@st.cache_data(show_spinner=False, max_entries=2, ttl=3600)
def loss_chart(view: str) -> dict:
    """The losses ("loss") or their slopes ("slope"): the same figure for every student."""
    return viz.loss_figure(view).to_plotly_json()


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def curve_chart(sizes, margin, dim, repeats, seed) -> dict:
    """The curve's figure, built once per curve (call it after :func:`curve`: every N is
    then in curve_at's cache)."""
    parts = [curve_at(size, margin, dim, repeats, seed) for size in sizes]
    return viz.curve_figure(viz.combine_curves(parts)).to_plotly_json()
