"""/generalisation: margin mistakes, why the perceptron errs about 1/N of the time, its loss.

Four sections, each widgets (in the link) -> a cached core call -> a payload or figure: the
margin perceptron in the player, test error against N, the stability argument (hold a point
out, retrain), SGD on a loss with the student's η. Sources (../shared/seeds/):
notes-perceptron-margin-generalization.txt, notebook-perceptron-sgd-d2l.txt."""

import numpy as np
import streamlit as st

from pages.common import (REQUEST_CPU_SECONDS, PageLink, choice_param, core_call, int_param,
                          page_guard, page_header, presenting, prose, run_in_worker,
                          show_chart, text_param)
from pages.player import player, player_start
from perceptron_core import generalisation_curve, make_unit_margin, margin_perceptron
from perceptron_core.viz import generalisation as viz
from perceptron_core.viz.player import SPEEDS, player_spec, run_id

LIMIT = 1.15  # half-width of the square view: unit vectors with room around them
DEFAULT_SIZES = "2, 5, 10, 20, 50, 100, 200"
N_TEST = 5_000  # fresh test points per run in dimension d > 2
CACHE = dict(max_entries=32, ttl=3600)


@st.cache_data(show_spinner=False, **CACHE)
def unit_data(n, margin, seed):
    data = make_unit_margin(n=n, margin=margin, dim=2, seed=seed)
    return np.asarray(data.X), np.asarray(data.y), np.asarray(data.w_star)


@st.cache_data(show_spinner="Training…", **CACHE)
def margin_run(n, margin, data_seed, order_seed):
    X, y, _ = unit_data(n, margin, data_seed)
    return margin_perceptron(X, y, order="random", seed=order_seed)


@st.cache_data(show_spinner=False, **CACHE)
def margin_payload(n, margin, data_seed, order_seed, start_step, speed, present):
    X, y, star = unit_data(n, margin, data_seed)
    trace = margin_run(n, margin, data_seed, order_seed)
    spec = player_spec(run_id("generalisation", n, margin, data_seed, order_seed),
                       trace.n_examined, trace.update_steps, start_step=start_step,
                       speed=speed, present=present)
    return viz.margin_player_payload(X, y, trace, beta_star=star, margin=margin, player=spec,
                                     limit=LIMIT)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def curve_at(size, margin, dim, repeats, seed):
    """The curve at one N (seeded by (seed, N): the same as within a call over all N),
    computed in a niced worker process (the server stays free for the other students)."""
    return run_in_worker(generalisation_curve, n_train=[size], margin=margin, dim=dim,
                         repeats=repeats, seed=seed, n_test=N_TEST,
                         advice="Use fewer runs per N, smaller values of N or a smaller dimension d.")


def curve(sizes, margin, dim, repeats, seed):
    """The whole curve, one cached N at a time, with a progress bar while it computes."""
    viz.check_curve_cost(sizes, margin, dim, repeats, N_TEST, REQUEST_CPU_SECONDS)
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
    X, y, _ = unit_data(n_points, margin, seed)
    full = margin_perceptron(X, y, order="cyclic")
    keep = np.arange(n_points) != heldout
    reduced = margin_perceptron(X[keep], y[keep], order="cyclic")  # the others, same order
    return viz.stability_summary(full, reduced, heldout)


@st.cache_data(show_spinner="Running SGD…", **CACHE)
def sgd_check(n, margin, data_seed, order_seed, eta):
    X, y, _ = unit_data(n, margin, data_seed)
    return viz.eta_check(X, y, eta, order="random", seed=order_seed)


def margin_section(link: PageLink, notice_slot) -> tuple:
    """1. The margin perceptron, stepped in the browser. Returns (n, γ, data seed, order seed)."""
    st.header("1. The margin perceptron")
    prose(viz.MARGIN_TEXT)
    with st.container(horizontal=True, key="margin_controls"):
        n = link.control(st.number_input, "points N", 2, 300, 40, step=10, key="n")
        margin = link.control(st.number_input, "margin γ", 0.05, 0.9, 0.1, 0.05, format="%.2f",
                              key="margin")
        data_seed = link.control(st.number_input, "data seed", 0, 1_000_000, 0, key="data_seed")
        order_seed = link.control(st.number_input, "order seed", 0, 1_000_000, 0,
                                  key="order_seed")
    trace = core_call(margin_run, n, margin, data_seed, order_seed)
    if trace is None:
        link.stop(notice_slot)  # name the ignored link values before the page stops
    start, speed = player_start("generalisation",
                                run_id("generalisation", n, margin, data_seed, order_seed),
                                link.values, trace.n_examined)
    player("generalisation", margin_payload(n, margin, data_seed, order_seed, start, speed,
                                            presenting()), key="generalisation_player")
    return n, margin, data_seed, order_seed


def curve_section(link: PageLink) -> None:
    """2. Mean test error against N, beside the two bounds of the notes; CSV download."""
    st.header("2. Test error against the number of training points N")
    prose(viz.CURVE_TEXT)
    with st.container(horizontal=True, key="curve_controls"):
        sizes_text = link.control(st.text_input, "values of N", DEFAULT_SIZES, key="curve_n",
                                  rule=text_param(120, DEFAULT_SIZES))
        margin = link.control(st.number_input, "margin γ", 0.05, 0.9, 0.1, 0.05, format="%.2f",
                              key="curve_margin")
        dim = link.control(st.number_input, "dimension d", 2, 50, 2, key="curve_dim",
                           help="d = 2: every test error is computed exactly (an angle). "
                                "d > 2: estimated on 5 000 fresh points per run.")
        repeats = link.control(st.number_input, "runs per N", 10, 1000, 500, step=50,
                               key="repeats")
        seed = link.control(st.number_input, "seed", 0, 1_000_000, 0, key="curve_seed")
    sizes = viz.parse_sizes(sizes_text)
    if sizes is None:
        st.error("Values of N: write whole numbers from 1 to 10 000 separated by commas, "
                 "e.g. 2, 5, 10, 20.", icon=":material/error:")
        return
    result = core_call(curve, tuple(sizes), margin, dim, repeats, seed)
    if result is None:
        return
    show_chart(viz.curve_figure(result), key="curve_chart")
    for text in viz.curve_findings(result, N_TEST):
        st.markdown(text)
    with st.container(horizontal=True):
        st.download_button("Curve (CSV)", viz.curve_csv(result), "generalisation-curve.csv",
                           "text/csv", key="download_curve", icon=":material/table:")


def stability_section(link: PageLink, margin: float, data_seed: int) -> None:
    """3. Hold one point out and retrain (the data of section 1): the same ŵ if it caused
    no margin mistake."""
    st.header("3. Why 1/N: remove a point that caused no margin mistake")
    prose(viz.STABILITY_TEXT)
    with st.container(horizontal=True, key="stability_controls"):
        n_points = link.control(st.number_input, "points N + 1", 5, 200, 30, key="stab_n")
        heldout = link.control(st.number_input, "held-out point", 0, 199, 0, key="heldout",
                               help="Its number: hover a point to see it.")
    if heldout >= n_points:
        st.info(f"Point {heldout} does not exist: there are {n_points} points, 0 to "
                f"{n_points - 1}. Showing point {n_points - 1}.")
        heldout = n_points - 1
    summary = core_call(stability, n_points, margin, data_seed, heldout)
    if summary is None:
        return
    X, y, _ = unit_data(n_points, margin, data_seed)
    chart, words = st.columns([3, 2])
    with chart:
        show_chart(viz.stability_figure(X, y, summary, heldout, limit=LIMIT),
                   key="stability_chart")
    with words:
        for text in viz.stability_texts(summary, heldout, n_points, margin, data_seed):
            st.markdown(text)
        if not summary["caused"] and not summary["same"]:
            st.error("The hyperplane changed although the point caused no margin "
                     "mistake: this contradicts the argument; please report it.")


def loss_section(link: PageLink, n: int, margin: float, data_seed: int, order_seed: int):
    """4. The losses and their slopes; SGD with the student's η on the data of section 1."""
    st.header("4. The same algorithms as gradient descent on a loss")
    prose(viz.LOSS_TEXT)
    show_chart(viz.loss_figure(), key="loss_chart")
    eta = link.control(st.columns([1, 3])[0].number_input, "step size η", 0.01, 100.0, 0.1,
                       format="%.2f", key="eta")
    check = core_call(sgd_check, n, margin, data_seed, order_seed, eta)
    if check is None:
        return
    st.markdown(f"On the data of section 1 (N = {n}, γ = {margin:g}), random order with order "
                f"seed {order_seed}, from w = 0:")
    st.table(viz.eta_table(check))
    scaled, verdict = viz.scaling_verdict(check)
    if scaled:
        st.success(verdict, icon=":material/check_circle:")
    else:
        st.error(verdict, icon=":material/error:")
    st.markdown(viz.hinge_text(check, margin))


page_link = PageLink(  # before any widget reads the URL; the player's position and speed:
    step=int_param(0, 10**9, 0), speed=choice_param(SPEEDS, "medium"))
with page_guard("generalisation"):
    if not presenting():
        page_header("Margin mistakes and generalisation", viz.SUMMARY)
    notice_slot = st.container()  # link warnings and the link, filled once every widget exists
    n, margin, data_seed, order_seed = margin_section(page_link, notice_slot)
    curve_section(page_link)
    stability_section(page_link, margin, data_seed)
    loss_section(page_link, n, margin, data_seed, order_seed)
    with notice_slot:  # the player's "Copy link to this view" is the page's one copy link
        page_link.report()
