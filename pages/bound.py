"""Mistakes against the bound: sweep the margin (and n, d, delta, lambda, s) and
compare the perceptron's update counts with the mistake bounds of the notes."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pandas as pd
import streamlit as st

from pages.common import (RequestBudget, bool_param, choice_param, clean_query_params,
                          copy_link_control, core_call, float_param, int_param, named_result,
                          named_results, page_guard, report_link_notices, show_chart,
                          text_param, url_snapshot)
from perceptron_core.perceptron import ORDERS
from perceptron_core.sweeps import (concat_sweeps, delta_sweep, dim_sweep,
                                    estimated_run_seconds, log_grid, margin_sweep, n_sweep,
                                    parse_values, scale_sweep, shift_sweep)
from perceptron_core.theory import bias_bound, bias_bound_margin
from perceptron_core.viz.bound import dependence_figure, ratio_figure, sweep_figure

SWEEPS = {"margin": margin_sweep, "n": n_sweep, "dim": dim_sweep, "delta": delta_sweep,
          "scale": scale_sweep, "shift": shift_sweep}
KEEP = "page"  # widget values survive while their tab is hidden
URL = "query-params"  # bind: every control is in the URL, its key is the parameter
#: every control bound to the URL: shared settings, the tab, then each tab's inputs
KEYS = ["bound_bias", "bound_order", "bound_n", "bound_dim", "bound_tab",
        "bound_margin_low", "bound_margin_high", "bound_margin_count", "bound_margin_seeds",
        "bound_size_margin", "bound_n_values", "bound_d_values", "bound_size_seeds",
        "bound_delta_margin", "bound_delta_values", "bound_delta_seeds",
        "bound_mm_low", "bound_mm_high", "bound_mm_count", "bound_mm_seeds",
        "bound_scale_margin", "bound_scale_values", "bound_scale_seeds",
        "bound_shift_margin", "bound_shift_values", "bound_shift_seeds"]


TAB_LABELS = [":material/show_chart: Margin sweep", ":material/straighten: n and d",
              ":material/tune: Threshold δ", ":material/target: Margin mistakes",
              ":material/open_in_full: Scaling and translation"]
#: what a link may carry for each control (checked before any widget reads the URL)
LINK_SPEC = {
    "bound_bias": bool_param(True),
    "bound_order": choice_param(ORDERS.values(), ORDERS["cyclic"]),
    "bound_n": int_param(2, 5000, 200), "bound_dim": int_param(1, 1000, 2),
    "bound_tab": choice_param(TAB_LABELS, TAB_LABELS[0]),
    "bound_margin_low": float_param(0.005, 0.95, 0.02),
    "bound_margin_high": float_param(0.005, 0.95, 0.5),
    "bound_margin_count": int_param(2, 30, 8), "bound_margin_seeds": int_param(1, 50, 5),
    "bound_size_margin": float_param(0.005, 0.95, 0.1),
    "bound_n_values": text_param(200, "10, 30, 100, 300, 1000, 2000"),
    "bound_d_values": text_param(200, "1, 10, 100, 1000"),
    "bound_size_seeds": int_param(1, 20, 3),
    "bound_delta_margin": float_param(0.005, 0.95, 0.1),
    "bound_delta_values": text_param(200, "0, 0.25, 0.5, 1, 2, 4"),
    "bound_delta_seeds": int_param(1, 50, 5),
    "bound_mm_low": float_param(0.005, 0.95, 0.05), "bound_mm_high": float_param(0.005, 0.95, 0.5),
    "bound_mm_count": int_param(2, 30, 6), "bound_mm_seeds": int_param(1, 50, 5),
    "bound_scale_margin": float_param(0.005, 0.95, 0.1),
    "bound_scale_values": text_param(200, "0.1, 0.3, 1, 3, 10"),
    "bound_scale_seeds": int_param(1, 20, 3),
    "bound_shift_margin": float_param(0.005, 0.95, 0.1),
    "bound_shift_values": text_param(200, "0, 0.5, 1, 2, 4"),
    "bound_shift_seeds": int_param(1, 20, 3),
}
#: estimated CPU seconds one sweep may need in all (it then runs in steps of
#: REQUEST_CPU_SECONDS, one per request, with a Continue button in between)
MAX_SWEEP_SECONDS = 60.0


#: niceness of the worker process that computes the sweeps
WORKER_NICENESS = 10

@st.cache_resource(show_spinner=False)
def sweep_worker() -> ProcessPoolExecutor:
    """One worker process, at lower priority, shared by every session of this server.

    The runs are pure NumPy and Python: in the server process they would hold
    the interpreter lock and slow every other student's page. In a niced worker
    they queue one at a time and the server only waits for the result.
    """
    # (the initializer must be importable in the worker: a page script is not)
    return ProcessPoolExecutor(max_workers=1, initializer=os.nice,
                               initargs=(WORKER_NICENESS,),
                               mp_context=multiprocessing.get_context("spawn"))


def run_in_worker(function, *args, **kwargs):
    """``function(*args, **kwargs)`` in the worker; a new worker if the last one died."""
    try:
        return sweep_worker().submit(function, *args, **kwargs).result()
    except BrokenProcessPool:
        sweep_worker.clear()
        return sweep_worker().submit(function, *args, **kwargs).result()


@st.cache_data(show_spinner=False, max_entries=4096, ttl=3600)
def cached_sweep(kind: str, values: tuple, seeds: tuple, settings: tuple):
    """One run (one value, one seed) of a core sweep, cached on its arguments."""
    return run_in_worker(SWEEPS[kind], list(values), list(seeds), **dict(settings))


def run_estimate(kind: str, value, settings: dict) -> float:
    """Estimated CPU seconds of one run of this sweep at this value."""
    point = dict(n=settings.get("n", 200), dim=settings.get("dim", 2),
                 margin=settings.get("margin", 0.1), bias=settings.get("bias", True),
                 delta=settings.get("delta", 0.0), radius=settings.get("radius", 1.0))
    if kind == "margin":
        point["margin"] = value
    elif kind in ("n", "dim", "delta"):
        point[kind] = value
    elif kind == "shift":
        point["bias"], point["radius"] = True, point["radius"] + abs(value)
    return estimated_run_seconds(**point)


def over_budget(kind: str, values, seeds: int, settings: dict) -> str | None:
    """Why this sweep is refused before it starts (what to lower), or None."""
    estimates = {value: run_estimate(kind, value, settings) for value in values}
    worst_value = max(estimates, key=estimates.get)
    if estimates[worst_value] > budget.seconds:
        where = {"n": f"n = {worst_value:g}", "dim": f"d = {worst_value:g}",
                 "margin": f"margin γ = {worst_value:g}"}.get(kind, f"{kind} = {worst_value:g}")
        return (f"One run at {where} (n = {settings.get('n', worst_value)}, "
                f"d = {settings.get('dim', worst_value)}) would need about "
                f"{estimates[worst_value]:.0f} s of computing, more than the "
                f"{budget.seconds:.0f} s one request may use on this shared server. Lower n "
                "or d (the largest margin computations cost about n·d·min(n, 2d)), or use "
                "a larger margin.")
    total = seeds * sum(estimates.values())
    if total > MAX_SWEEP_SECONDS:
        return (f"This sweep ({len(estimates)} values × {seeds} seeds) would need about "
                f"{total:.0f} s of computing, more than the {MAX_SWEEP_SECONDS:.0f} s allowed "
                "for one sweep on this shared server. Use fewer values or seeds, or a "
                "smaller n or d.")
    return None


def run_sweep(kind: str, values, seeds: int, label: str, **settings):
    """Run a sweep one run at a time behind a progress bar; None if refused or unfinished.

    The cost is estimated first and a sweep over budget is refused with a
    message. Each (value, seed) run is a separate cached call, so the bar moves
    while the runs are computed, and once this request has used its CPU share
    the sweep pauses with a Continue button (the finished runs stay cached).
    """
    values = np.asarray(values).tolist()
    refusal = over_budget(kind, values, int(seeds), settings)
    if refusal is not None:
        st.warning(refusal, icon=":material/hourglass_disabled:")
        return None
    frozen_settings = tuple(sorted(settings.items()))
    runs = [(value, seed) for value in values for seed in range(int(seeds))]
    bar = st.progress(0.0, text=f"Running the {label} sweep ...")
    parts = []
    for done, (value, seed) in enumerate(runs, start=1):
        if parts and budget.used + 0.5 * run_estimate(kind, value, settings) > budget.seconds:
            st.info(f"Computed {done - 1} of {len(runs)} runs of the {label} sweep. This "
                    "request has used its share of the shared server; press **Continue** to "
                    "compute the next runs (the finished ones are kept).",
                    icon=":material/pause_circle:")
            st.button("Continue the sweep", key=f"bound_continue_{label}",
                      icon=":material/play_arrow:")
            return None
        part = core_call(cached_sweep, kind, (value,), (seed,), frozen_settings)
        if part is None:
            bar.empty()
            return None
        parts.append(part)
        bar.progress(done / len(runs),
                     text=f"Running the {label} sweep: {done} of {len(runs)} runs done")
    bar.empty()
    return core_call(concat_sweeps, parts)


def report_ratio(ratios, converged, bound_name: str) -> None:
    """Say loudly whether every run stayed within its bound."""
    worst = float(np.max(ratios))
    if worst > 1.0 or not np.all(converged):
        st.error(
            f"A run exceeded {bound_name} or did not converge within it (largest ratio "
            f"{worst:.3f}). The theorem forbids this: it is a bug in the app, please report it.",
            icon=":material/report:")
    else:
        st.success(f"All {len(ratios)} runs converged within {bound_name}: the largest "
                   f"ratio updates / bound is {worst:.3f} ≤ 1.", icon=":material/check_circle:")


def download(result, file_name: str, key: str) -> None:
    """CSV download of every run of a sweep."""
    table = pd.DataFrame(result.columns())
    st.download_button("Download the runs as CSV", table.to_csv(index=False).encode("utf-8"),
                       file_name=file_name, mime="text/csv", key=key,
                       icon=":material/download:")


def summary_table(result, labels: dict[str, str]) -> None:
    """Per-value medians as a table with readable column names."""
    table = pd.DataFrame(result.summary()).rename(columns=labels)
    st.dataframe(table, hide_index=True, width="stretch")


def notebook_bounds(result) -> tuple[np.ndarray, np.ndarray]:
    """Per run: epsilon = gamma / max(1, R) and the notebook's 2 (R^2 + 1) / epsilon^2.

    With a bias the sweep's gamma is the geometric margin of the best affine
    separator; scaled by 1 / max(1, R) it meets the notebook's hypotheses
    ||w*|| <= 1, b*^2 <= 1 (see ``theory.bias_bound_margin``).
    """
    eps = np.array([bias_bound_margin(r, g) for r, g in zip(result.radius, result.gamma)])
    return eps, np.array([bias_bound(r, e) for r, e in zip(result.radius, eps)])


def halving_factors(values, bounds) -> np.ndarray:
    """By what factor the bound grew per halving of the margin, between neighbouring margins."""
    values, bounds = np.asarray(values, float), np.asarray(bounds, float)
    return (bounds[:-1] / bounds[1:]) ** (np.log(2.0) / np.log(values[1:] / values[:-1]))


def step_changes(result, column: str) -> tuple[int, int, int]:
    """From each swept value to the next larger one, for each seed: how often ``column``
    rose, fell or stayed the same (relative tolerance 1e-9). Returns (rose, fell, same)."""
    rose = fell = same = 0
    data = np.asarray(getattr(result, column), float)
    for seed in np.unique(result.seed):
        mask = result.seed == seed
        series = data[mask][np.argsort(result.value[mask])]
        change = np.diff(series)
        tolerance = 1e-9 * np.maximum(np.abs(series[:-1]), 1e-300)
        rose += int(np.sum(change > tolerance))
        fell += int(np.sum(change < -tolerance))
        same += int(np.sum(np.abs(change) <= tolerance))
    return rose, fell, same


def shift_findings(result) -> str:
    """What the translation runs on screen show, counted step by step (Exercise 1.29)."""
    steps = sum(int(np.sum(result.seed == seed)) - 1 for seed in np.unique(result.seed))
    if steps == 0:
        return "Give at least two values of s to see how the runs change with the shift."
    seeds = np.unique(result.seed).size
    moves = {name: step_changes(result, column) for name, column in
             (("R", "radius"), ("γ₂", "gamma_2"), ("T(A)", "padded"), ("updates", "updates"))}

    def times(k: int) -> str:
        return f"{k} of {steps}"

    r, g, t, u = (moves[k] for k in ("R", "γ₂", "T(A)", "updates"))
    claims = [("T(A) grew", t[0]), ("γ₂ shrank", g[1]), ("R grew", r[0]),
              ("the number of updates grew", u[0])]
    held = [claim for claim, count in claims if count == steps]
    failed = [f"{claim} (only {count} of {steps})" for claim, count in claims if count < steps]
    text = (f"**What these runs show.** Going from each value of s to the next larger one, "
            f"for each of the {seeds} seed{'s' if seeds != 1 else ''} ({steps} steps in all): "
            f"R grew in {times(r[0])}; γ₂ shrank in {times(g[1])} and grew in {times(g[0])}; "
            f"T(A) grew in {times(t[0])} and shrank in {times(t[1])}; the number of updates "
            f"grew in {times(u[0])}, fell in {times(u[1])} and stayed the same in "
            f"{times(u[2])}. ")
    text += ("Held every time: " + ", ".join(held) + ". " if held
             else "None of these held every time. ")
    text += ("Did not hold every time: " + ", ".join(failed) + "." if failed
             else "All of them held every time here.")
    return text


notices = clean_query_params(LINK_SPEC)  # before any widget reads the URL
snapshot = url_snapshot()  # the link after cleaning, before the widgets check it
budget = RequestBudget()  # CPU time this request may spend on sweeps

with page_guard("bound"):
    st.title("Mistakes against the bound")
    opening = st.empty()  # names the bound of the current bias setting, once it is read
    link_slot = st.container(key="bound_link_slot")  # filled once every control is known

    with st.container(border=True):
        st.markdown("**Settings shared by every tab**")
        col_bias, col_order, col_n, col_d = st.columns([1.2, 1.6, 1, 1])
        bias = col_bias.toggle("Learn a bias b", value=True, key="bound_bias", bind=URL,
                               help="On: the hyperplane w·x + b = 0 is learnt with b (padding). "
                                    "Off: the data are drawn separable through the origin and b "
                                    "stays 0.")
        order = col_order.selectbox("Order of the examples", list(ORDERS),
                                    format_func=ORDERS.get, key="bound_order", bind=URL,
                                    help=named_result("Remark 1.38") + " The bounds hold for "
                                    "every order.")
        n_points = col_n.number_input("n (points)", min_value=2, max_value=5000, value=200,
                                      step=50, key="bound_n", bind=URL)
        dim = col_d.number_input("d (features)", min_value=1, max_value=1000, value=2, step=1,
                                 key="bound_dim", bind=URL)

    opening.markdown(
        "The convergence theorem (Theorem 1.28) bounds the number of updates the perceptron "
        "makes on separable data, whatever the number of points or their dimension. "
        + ("With **Learn a bias** on, as now, the runs start at $(w, b) = 0$ with threshold "
           "$\\delta = 0$ and the bound they are measured against is "
           "$T(A) = (R^2 + 1)/\\gamma_2^2$ (eq. 1.5), with $\\gamma_2$ the margin of the "
           "padded examples." if bias else
           "With **Learn a bias** off, as now, the runs start at $w = 0$ with threshold "
           "$\\delta = 0$ and the bound they are measured against is $(R/\\gamma)^2$, with "
           "$\\gamma$ the margin through the origin.")
        + " Here we run it many times on fresh data with a known margin and put every update "
        "count next to the bound that holds for that run.")
    named_results("Theorem 1.28", "bound (1.4)", "eq. 1.5", "Novikoff", "notebook bound",
                  "Remark 1.17", "Remark 1.38", "Exercise 1.29", "3/γ² lemma",
                  label="The results this page uses, one line each")

    if bias:
        st.markdown(
            "**Bias on.** Each example becomes the padded vector $a_i = y_i\\,(x_i, 1)$ "
            "(the bias is the last weight). Started at $(w, b) = 0$ with threshold "
            "$\\delta = 0$, the run stops after at most")
        st.latex(r"T(A) = \frac{\max_i \|a_i\|_2^2}{\gamma_2(A)^2}"
                 r"= \frac{R^2 + 1}{\gamma_2(A)^2},\qquad "
                 r"\gamma_2(A) = \max_{\|w\|_2 \le 1}\ \min_i \langle a_i, w\rangle"
                 r"\qquad\text{(eq. 1.5)}")
        st.markdown(
            "updates, where $R = \\max_i\\|x_i\\|_2$. The margin, n and d, and scaling tabs measure "
            "every ratio against it (the δ tab against (1.4), the margin-mistakes tab against "
            "$3/\\gamma^2$). The padded margin $\\gamma_2$ counts the bias in the norm, so "
            "it is never larger than the geometric margin $\\gamma$. Novikoff's $(R/\\gamma)^2$ "
            "with the geometric margin $\\gamma$ is **not** a theorem for a learnt bias: it is "
            "drawn dashed, as a reference only.")
    else:
        st.markdown(
            "**Bias off.** The data are drawn with a separator through the origin and the "
            "perceptron keeps $b = 0$. If $\\|x_i\\|_2 \\le R$ for all $i$ and some unit $w^*$ "
            "has $y_i \\langle w^*, x_i\\rangle \\ge \\gamma > 0$, then, started at $w = 0$ "
            "with threshold $\\delta = 0$, the number of updates is at most")
        st.latex(r"\left(\frac{R}{\gamma}\right)^2 \qquad\text{(Novikoff; also } T(A) "
                 r"\text{ of eq. 1.5 with } a_i = y_i x_i\text{)}")
        st.markdown("The margin, n and d, and scaling tabs measure every ratio against it "
                    "(the δ tab against (1.4), the margin-mistakes tab against $3/\\gamma^2$), "
                    "with $\\gamma$ the largest margin through the origin, computed exactly for "
                    "each dataset.")

    valid_name = "T(A)" if bias else "(R/γ)²"
    valid_label = ("T(A) = (R²+1)/γ₂², largest over seeds" if bias
                   else "(R/γ)² (Novikoff), largest over seeds")

    tab_margin, tab_size, tab_delta, tab_mistakes, tab_scale = st.tabs(
        TAB_LABELS, key="bound_tab", bind=URL, on_change="rerun")

    with tab_margin:
        if tab_margin.open is not False:
            cols = st.columns(4)
            low = cols[0].number_input("smallest margin γ", min_value=0.005, max_value=0.95,
                                       value=0.02, step=0.01, format="%.3f",
                                       key="bound_margin_low", bind=URL, persist_state=KEEP)
            high = cols[1].number_input("largest margin γ", min_value=0.005, max_value=0.95,
                                        value=0.5, step=0.05, format="%.3f",
                                        key="bound_margin_high", bind=URL, persist_state=KEEP)
            count = cols[2].number_input("number of margins", min_value=2, max_value=30, value=8,
                                         key="bound_margin_count", bind=URL, persist_state=KEEP)
            seeds = cols[3].number_input("seeds per margin", min_value=1, max_value=50, value=5,
                                         key="bound_margin_seeds", bind=URL, persist_state=KEEP)
            margins = core_call(log_grid, low, high, count, "margin")
            result = None if margins is None else run_sweep(
                "margin", margins, seeds, "margin", n=n_points, dim=dim, bias=bias, delta=0.0,
                order=order)
            if result is not None:
                st.markdown(f"**{result.n_runs} runs** ({count} margins × {seeds} seeds, "
                            f"n = {n_points}, d = {dim}); the ratio is against **{valid_name}**.")
                report_ratio(result.ratio, result.converged, valid_name)
                values = result.values()
                notebook = None
                if bias:
                    epsilon, notebook = notebook_bounds(result)
                    notebook_ratio = result.updates / notebook
                    values_eps = "ε = γ" if np.all(result.radius <= 1) else "ε = γ/max(1, R)"
                    st.markdown(
                        "**Two bounds hold here, both for a perceptron with a bias started at "
                        "$(w, b) = 0$ with $\\delta = 0$.** $T(A)$ (solid blue) needs only "
                        "separable data: its $\\gamma_2$ is computed from the data. The "
                        "notebook's $2(R^2 + 1)/\\varepsilon^2$ (dotted blue) needs a separator "
                        "$(w^*, b^*)$ with $\\|w^*\\| \\le 1$, $b^{*2} \\le 1$ and margin "
                        "$\\varepsilon$; the best separator, divided by $\\max(1, R)$, is one, "
                        f"so here {values_eps}. It is never below $T(A)$: "
                        "$(w^*, b^*)/\\sqrt 2$ has norm at most 1 and margin at least "
                        "$\\varepsilon/\\sqrt 2$, so $\\gamma_2 \\ge \\varepsilon/\\sqrt 2$. "
                        f"Largest ratio updates / (2(R² + 1)/ε²) over the {result.n_runs} runs: "
                        f"{float(np.max(notebook_ratio)):.3f}.",
                        help=named_result("notebook bound"))
                show_chart(sweep_figure(
                    result.margin, result.updates, values, result.per_value("updates"),
                    result.per_value("bound", "max"), valid_label,
                    reference=result.per_value("novikoff", "max") if bias else None,
                    reference_label="(R/γ)², geometric γ: reference only",
                    also_holds=(None if notebook is None else
                                np.array([notebook[result.value == v].max() for v in values])),
                    also_holds_label="2(R²+1)/ε² (notebook), largest over seeds"),
                    key="bound_sweep_chart")
                show_chart(ratio_figure(result.margin, result.ratio, valid_name),
                           key="bound_ratio_chart")
                factors = halving_factors(values, result.per_value("bound"))
                spread = (f"about {factors.min():.2f}" if np.isclose(factors.min(), factors.max(),
                                                               rtol=5e-3)
                          else f"between {factors.min():.2f} and {factors.max():.2f}")
                why = ("only roughly four: $T(A)$ divides by $\\gamma_2^2$, the margin of the "
                       "padded examples, where the bias counts in the norm, so $\\gamma_2$ is "
                       "not proportional to $\\gamma$ (and $R$ differs a little between data "
                       "sets)" if bias else
                       "exactly four if $R$ stayed the same; here $R$ differs a little between "
                       "data sets")
                st.markdown(
                    "Both axes are logarithmic, so a bound proportional to $1/\\gamma^2$ is a "
                    "straight line of slope $-2$. The dots stay well under the bound: it is a "
                    "worst case over all datasets and all orders, and random data are far from "
                    f"the worst case. Between neighbouring margins on screen, halving $\\gamma$ "
                    f"multiplied the median {valid_name} by {spread}, which is {why}. The observed counts "
                    "grow too, but more slowly.")
                download(result, "margin_sweep.csv", "bound_margin_csv")

    with tab_size:
        if tab_size.open:
            cols = st.columns([1, 2, 2, 1])
            fixed_margin = cols[0].number_input("margin γ (fixed)", min_value=0.005,
                                                max_value=0.95, value=0.1, step=0.01,
                                                format="%.3f", key="bound_size_margin", bind=URL,
                                                persist_state=KEEP)
            sizes_text = cols[1].text_input("values of n", value="10, 30, 100, 300, 1000, 2000",
                                            key="bound_n_values", bind=URL, persist_state=KEEP)
            dims_text = cols[2].text_input("values of d", value="1, 10, 100, 1000",
                                           key="bound_d_values", bind=URL, persist_state=KEEP)
            size_seeds = cols[3].number_input("seeds per value", min_value=1, max_value=20, value=3,
                                         key="bound_size_seeds", bind=URL, persist_state=KEEP)
            st.markdown(
                "Neither $n$ nor $d$ appears in the bound: it only sees the radius and the margin. "
                f"The sweep over $n$ keeps d = {dim}; the sweep over $d$ keeps n = {n_points}. "
                "The blue line is the largest bound among all runs, drawn flat across the range.")
            def dependence_column(kind, values, label, axis_title, name, **fixed):
                """One sweep over n or d at the fixed margin: chart, ratio check, CSV."""
                result = None if values is None else run_sweep(
                    kind, values, size_seeds, label, margin=fixed_margin, bias=bias, delta=0.0,
                    order=order, **fixed)
                if result is not None:
                    show_chart(dependence_figure(
                        result.value, result.updates, result.values(), result.per_value("updates"),
                        float(np.max(result.bound)), axis_title,
                        f"largest {valid_name} over runs"), key=f"bound_{name}_chart")
                    report_ratio(result.ratio, result.converged, valid_name)
                    download(result, f"{name}_sweep.csv", f"bound_{name}_csv")

            left, right = st.columns(2)
            with left:
                dependence_column("n", core_call(parse_values, sizes_text, "n", integer=True,
                                                 low=2, high=5000),
                                  "n", "number of points n (log scale)", "n", dim=dim)
            with right:
                dependence_column("dim", core_call(parse_values, dims_text, "d", integer=True,
                                                   low=1, high=1000),
                                  "d", "number of features d (log scale)", "d", n=n_points)

    with tab_delta:
        if tab_delta.open:
            st.markdown(
                "With a threshold $\\delta \\ge 0$ the perceptron also updates on examples it "
                "classifies correctly but by too little, $y\\,\\langle a, w\\rangle \\le \\delta$. "
                "Theorem 1.28 bounds the number of updates $t$ for any $w^*$ and $s > 0$ with "
                "$\\langle a_i, w^*\\rangle \\ge s$ for all $i$:")
            st.latex(r"t \le \frac{(2\delta + \|A\|_{2,\infty}^2)\,\|w^*\|_2^2 "
                     r"+ 2s\,\|w^*\|_2\,\|w_0\|_2}{s^2},\qquad "
                     r"\|A\|_{2,\infty} = \max_i \|a_i\|_2 \qquad\text{(1.4)}")
            margin_used = (r"$s = \gamma_2(A)$, padded" if bias
                           else r"$s = \gamma$, through the origin")
            st.markdown(
                "Here $w_0 = 0$ and $w^*$ is the unit vector achieving the margin "
                f"({margin_used}), so the bound is $(2\\delta + \\max_i\\|a_i\\|_2^2)/s^2$: it "
                "grows linearly "
                "in $\\delta$, and for $\\delta = 0$ it is the bound of the first tab.")
            cols = st.columns(3)
            delta_margin = cols[0].number_input("margin γ (fixed)", min_value=0.005,
                                                max_value=0.95, value=0.1, step=0.01,
                                                format="%.3f", key="bound_delta_margin", bind=URL,
                                                persist_state=KEEP)
            deltas_text = cols[1].text_input("values of δ", value="0, 0.25, 0.5, 1, 2, 4",
                                             key="bound_delta_values", bind=URL, persist_state=KEEP)
            delta_seeds = cols[2].number_input("seeds per δ", min_value=1, max_value=50, value=5,
                                               key="bound_delta_seeds", bind=URL, persist_state=KEEP)
            deltas = core_call(parse_values, deltas_text, "δ", low=0, high=100)
            by_delta = None if deltas is None else run_sweep(
                "delta", deltas, delta_seeds, "δ", margin=delta_margin, n=n_points, dim=dim,
                bias=bias, order=order)
            if by_delta is not None:
                report_ratio(by_delta.ratio, by_delta.converged, "bound (1.4)")
                left, right = st.columns(2)
                with left:
                    show_chart(dependence_figure(
                        by_delta.value, by_delta.updates, by_delta.values(),
                        by_delta.per_value("updates"), by_delta.per_value("bound", "max"),
                        "threshold δ", "bound (1.4), largest over seeds", log_x=False,
                        log_y=False), key="bound_delta_chart")
                with right:
                    show_chart(ratio_figure(by_delta.value, by_delta.ratio, "bound (1.4)",
                                            xlabel="threshold δ", log_x=False),
                               key="bound_delta_ratio_chart")
                download(by_delta, "delta_sweep.csv", "bound_delta_csv")

    with tab_mistakes:
        if tab_mistakes.open:
            st.markdown(
                "The *margin perceptron* keeps no bias, starts at $\\beta = 0$ and adds "
                "$y_n x_n$ whenever $y_n\\, x_n^\\top \\beta < 1$, a *margin mistake*. If every "
                "$\\|x_n\\|_2 \\le 1$ and a unit $\\beta^*$ separates the data with "
                "$y_n\\, x_n^\\top\\beta^* \\ge \\gamma > 0$, it makes at most")
            st.latex(r"\frac{3}{\gamma^2}\ \text{margin mistakes.}")
            st.markdown(
                "This is the perceptron through the origin with threshold $\\delta = 1$: the "
                "norm of $\\beta$ grows by at most $2\\cdot 1 + 1 = 3$ (squared) per update while "
                "its component along $\\beta^*$ grows by at least $\\gamma$. Indeed (1.4) with "
                "$\\delta = 1$ gives $(2 + R^2)/\\gamma^2 \\le 3/\\gamma^2$. One honest "
                "difference: the runs here update when $y\\,x^\\top\\beta \\le 1$ and stop once "
                "every example has $y\\,x^\\top\\beta > 1$, while the notes use the strict "
                "$< 1$. The two rules only part ways on a score of exactly 1, which random data "
                "essentially never produce, and the $3/\\gamma^2$ argument covers both (it only "
                "uses score $\\le 1$ at an update). Likewise the notes ask for a strict "
                "$y_n\\, x_n^\\top\\beta^* > \\gamma$; our data have two points exactly at "
                "the margin, which the proof allows. This tab ignores the bias toggle: the data "
                "lie in the unit ball and are separable through the origin. Since $R$ is close "
                "to 1, the dashed line (1.4) almost covers the blue one.")
            cols = st.columns(4)
            mm_low = cols[0].number_input("smallest margin γ", min_value=0.005, max_value=0.95,
                                          value=0.05, step=0.01, format="%.3f",
                                          key="bound_mm_low", bind=URL, persist_state=KEEP)
            mm_high = cols[1].number_input("largest margin γ", min_value=0.005, max_value=0.95,
                                           value=0.5, step=0.05, format="%.3f",
                                           key="bound_mm_high", bind=URL, persist_state=KEEP)
            mm_count = cols[2].number_input("number of margins", min_value=2, max_value=30,
                                            value=6, key="bound_mm_count", bind=URL, persist_state=KEEP)
            mm_seeds = cols[3].number_input("seeds per margin", min_value=1, max_value=50,
                                            value=5, key="bound_mm_seeds", bind=URL, persist_state=KEEP)
            mm_margins = core_call(log_grid, mm_low, mm_high, mm_count, "margin")
            mistakes = None if mm_margins is None else run_sweep(
                "margin", mm_margins, mm_seeds, "margin-mistake", n=n_points, dim=dim,
                bias=False, delta=1.0, order=order, radius=1.0)
            if mistakes is not None:
                mm_ratio = mistakes.updates / mistakes.margin_mistakes
                report_ratio(mm_ratio, mistakes.converged, "3/γ²")
                values = mistakes.values()
                show_chart(sweep_figure(
                    mistakes.margin, mistakes.updates, values, mistakes.per_value("updates"),
                    mistakes.per_value("margin_mistakes", "max"), "3/γ² (margin mistakes)",
                    reference=mistakes.per_value("bound", "max"),
                    reference_label="(2 + R²)/γ²: bound (1.4) with δ = 1",
                    ylabel="margin mistakes (updates, log scale)"), key="bound_mm_chart")
                show_chart(ratio_figure(mistakes.margin, mm_ratio, "(3/γ²)"),
                           key="bound_mm_ratio_chart")
                download(mistakes, "margin_mistakes.csv", "bound_mm_csv")

    with tab_scale:
        if tab_scale.open:
            st.markdown(
                "Exercise 1.29 asks, for every $x_i$ replaced by $\\lambda x_i$ "
                "($\\lambda > 0$) and then by $x_i + \\bar x$: are the data still linearly "
                "separable, does the perceptron converge faster or slower, and how does the "
                "bound (1.4) change? The runs below answer for the data on screen, started at "
                "$w_0 = 0$ with $\\delta = 0$, where (1.4) is $T(A)$.",
                help=named_result("Exercise 1.29"))
            st.subheader("Scaling: $x_i \\to \\lambda x_i$")
            st.markdown(
                "Scaling multiplies $R$ and the geometric margin $\\gamma$ by $\\lambda$, so "
                "$(R/\\gamma)^2$ does not move. Through the origin with $w_0 = 0$ and "
                "$\\delta = 0$ the run itself does not move either: every iterate is $\\lambda$ "
                "times the original one, every score $\\lambda^2$ times, and the signs that decide "
                "the updates are the same. With a bias the padded coordinate 1 is *not* scaled, "
                "so $\\gamma_2$, $T(A)$ and the update counts can change with $\\lambda$.")
            cols = st.columns(3)
            scale_margin = cols[0].number_input("margin γ before scaling", min_value=0.005,
                                                max_value=0.95, value=0.1, step=0.01,
                                                format="%.3f", key="bound_scale_margin", bind=URL,
                                                persist_state=KEEP)
            scales_text = cols[1].text_input("values of λ", value="0.1, 0.3, 1, 3, 10",
                                             key="bound_scale_values", bind=URL, persist_state=KEEP)
            scale_seeds = cols[2].number_input("seeds per value", min_value=1, max_value=20,
                                               value=3, key="bound_scale_seeds", bind=URL,
                                               persist_state=KEEP)
            scales = core_call(parse_values, scales_text, "λ", low=1e-3, high=1e3)
            by_scale = None if scales is None else run_sweep(
                "scale", scales, scale_seeds, "λ", margin=scale_margin, n=n_points, dim=dim,
                bias=bias, order=order)
            if by_scale is not None:
                report_ratio(by_scale.ratio, by_scale.converged, valid_name)
                if not bias:
                    if by_scale.updates_constant_per_seed():
                        st.success("Checked: for every seed the update count is the same at every "
                                   "λ, as the argument above predicts.",
                                   icon=":material/check_circle:")
                    else:
                        st.error("The update count changed with λ for some seed although the "
                                 "run through the origin should not depend on λ: this is a bug.",
                                 icon=":material/report:")
                show_chart(dependence_figure(
                    by_scale.value, by_scale.updates, by_scale.values(),
                    by_scale.per_value("updates"), by_scale.per_value("bound", "max"),
                    "scaling factor λ (log scale)", f"{valid_name}, largest over seeds"),
                    key="bound_scale_chart")
                summary_table(by_scale, {"scale": "λ", "median radius": "R", "median gamma": "γ",
                                         "median gamma_2": "γ₂ (bound's margin)",
                                         "median novikoff": "(R/γ)²",
                                         "median padded": "T(A)", "median bound": "bound (1.4)"})
                download(by_scale, "scale_sweep.csv", "bound_scale_csv")

            st.subheader("Translation: $x_i \\to x_i + s\\,e_1$")
            st.markdown(
                "**Still separable?** With a bias, yes: the separating hyperplane moved by the "
                "same vector separates the moved data with the same geometric margin "
                "$\\gamma$ (only its bias changes). Through the origin, not necessarily, so "
                "this sweep always learns a bias. **The bound:** with $w_0 = 0$ and "
                "$\\delta = 0$, (1.4) is $T(A) = (R^2 + 1)/\\gamma_2^2$; a shift changes $R$, "
                "and it changes the bias a separator needs, which counts in the norm behind "
                "$\\gamma_2$. **Faster or slower?** That is for the runs to say; the counts "
                "below are taken from the runs on screen. The notes hint that a start $w_0$ "
                "other than 0 can make up for a shift; here every run starts at 0.")
            cols = st.columns(3)
            shift_margin = cols[0].number_input("margin γ", min_value=0.005, max_value=0.95,
                                                value=0.1, step=0.01, format="%.3f",
                                                key="bound_shift_margin", bind=URL,
                                                persist_state=KEEP)
            shifts_text = cols[1].text_input("values of s (shift along the first feature)",
                                             value="0, 0.5, 1, 2, 4", key="bound_shift_values",
                                             bind=URL, persist_state=KEEP)
            shift_seeds = cols[2].number_input("seeds per value", min_value=1, max_value=20,
                                               value=3, key="bound_shift_seeds", bind=URL,
                                               persist_state=KEEP)
            shifts = core_call(parse_values, shifts_text, "s", low=-20, high=20)
            by_shift = None if shifts is None else run_sweep(
                "shift", shifts, shift_seeds, "shift", margin=shift_margin, n=n_points, dim=dim,
                order=order)
            if by_shift is not None:
                report_ratio(by_shift.ratio, by_shift.converged, "T(A)")
                st.markdown(shift_findings(by_shift))
                show_chart(dependence_figure(
                    by_shift.value, by_shift.updates, by_shift.values(),
                    by_shift.per_value("updates"), by_shift.per_value("bound", "max"),
                    "shift s along the first feature (data units)",
                    "T(A), largest over seeds", log_x=False), key="bound_shift_chart")
                summary_table(by_shift, {"shift": "s", "median radius": "R",
                                         "median gamma": "γ (geometric)",
                                         "median gamma_2": "γ₂ (padded)",
                                         "median novikoff": "(R/γ)²", "median padded": "T(A)",
                                         "median bound": "bound (1.4)"})
                download(by_shift, "shift_sweep.csv", "bound_shift_csv")

    # ---------------------------------------------------------------------------
    # Check your understanding: three questions, feedback as soon as one is answered
    # ---------------------------------------------------------------------------

    QUIZ = [
        {
            "key": "bound_quiz_scale",
            "question": "Through the origin (no bias, start at w = 0, threshold δ = 0), every "
                        "example x is replaced by 10·x. What happens to the number of updates?",
            "options": ["It is multiplied by 100", "It is divided by 100", "It does not change",
                        "It depends on the data set"],
            "answer": "It does not change",
            "why": "The radius R and the margin γ are both multiplied by 10, so (R/γ)² is the "
                   "same number. More than that, the run itself is the same: each weight vector "
                   "is 10 times the one of the unscaled run, each score y⟨w, x⟩ is 100 times the "
                   "old one, and multiplying by 100 never changes a sign, so exactly the same "
                   "examples trigger updates. With a learnt bias this breaks: the padded "
                   "coordinate 1 is not scaled, so the padded margin γ₂ and the count can change "
                   "(see the *Scaling and translation* tab).",
        },
        {
            "key": "bound_quiz_margin",
            "question": "No bias: the radius R stays the same and the margin γ doubles. What "
                        "happens to the bound (R/γ)²?",
            "options": ["It doubles", "It halves", "It is divided by 4", "It does not change"],
            "answer": "It is divided by 4",
            "why": "The margin enters squared in the denominator: (R/(2γ))² = (R/γ)²/4. In the "
                   "proof (from w = 0, δ = 0) every update moves w at least γ further along the "
                   "separating unit vector w*, while ‖w‖² grows by at most R²; a wider gap means "
                   "each update makes more progress, so fewer updates fit before the two facts "
                   "collide. With a bias the bound is T(A) = (R² + 1)/γ₂², and γ₂ (the bias "
                   "counts in its norm) need not double when γ does, so T(A) is divided by "
                   "roughly, not exactly, 4. The observed counts usually drop less: the bound is "
                   "a worst case, see the *Margin sweep* tab.",
        },
        {
            "key": "bound_quiz_size",
            "question": "On separable data, started at w = 0 with δ = 0, does the bound on the "
                        "number of updates grow with the number of points n or with the "
                        "dimension d?",
            "options": ["It grows with n", "It grows with d", "It grows with both",
                        "With neither"],
            "answer": "With neither",
            "why": "Only R and the margin appear in the bound (γ without a bias, γ₂ with "
                   "one); the proof never counts points or coordinates, and it holds for any "
                   "order of the examples. Two caveats: n and d can change R and γ of a particular data set "
                   "(more points usually leave a smaller margin, which the *n and d* tab holds "
                   "fixed), and the bound counts updates, not passes: checking that no mistake is "
                   "left still costs a sweep over all n points.",
        },
    ]


    def quiz_feedback(item: dict, chosen: str) -> None:
        """Explain the answer: the reasoning for a right one, the right one for a wrong one."""
        if chosen == item["answer"]:
            st.success(f"**Right.** {item['why']}", icon=":material/check_circle:")
        else:
            st.info(f"**Not quite: {item['answer'].lower()}.** {item['why']}",
                    icon=":material/lightbulb:")


    st.header("Check your understanding")
    st.caption("Pick an answer: the explanation appears right away. Answers are not part of the "
               "link to this view.")
    for number, item in enumerate(QUIZ, start=1):
        with st.container(border=True):
            chosen = st.radio(f"**{number}.** {item['question']}", item["options"], index=None,
                              key=item["key"])
            if chosen is not None:
                quiz_feedback(item, chosen)

    with link_slot:
        # the order menu keeps its *label* in the URL: put it in the link and accept it
        copy_link_control("bound_copy_link", [k for k in KEYS if k != "bound_order"],
                          {"bound_order": ORDERS.get(order)})
        report_link_notices(notices, {k: v for k, v in snapshot.items()
                                      if not (k == "bound_order" and v == ORDERS.get(order))}, KEYS)
