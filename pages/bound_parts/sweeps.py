"""Running /bound's sweeps on a shared server: one cached run at a time, behind a progress
bar, refused up front when one run is too costly, paused with a Continue button before a
run would take the request past its share of CPU time. Not a page itself."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.common.compute import computed
from pages.common.page_basics import core_call
from pages.common.request_budget import RequestBudget
from perceptron_core import MarginUnfinished, sweeps
from perceptron_core.sweeps import concat_sweeps, estimated_run_seconds

#: estimated CPU seconds one sweep may need in all (it then runs in steps of at most
#: REQUEST_CPU_SECONDS, one per request, with a Continue button in between)
MAX_SWEEP_SECONDS = 10.0


def sweep_function(kind: str):
    """The core function that runs a sweep of this kind ("margin", "n", "dim", "delta",
    "scale" or "shift"), looked up at each call (a test may swap one for a slow one)."""
    return {
        "margin": sweeps.margin_sweep,
        "n": sweeps.n_sweep,
        "dim": sweeps.dim_sweep,
        "delta": sweeps.delta_sweep,
        "scale": sweeps.scale_sweep,
        "shift": sweeps.shift_sweep,
    }[kind]


@st.cache_data(show_spinner=False, max_entries=4096, ttl=3600)
def cached_sweep(kind: str, values: tuple, seeds: tuple, settings: tuple, _work: float):
    """One run (one value, one seed) of a core sweep, cached on its arguments (not on
    ``_work``, the work its margin may take, in estimated CPU seconds: MarginUnfinished
    past it), in a worker process (pages/common/compute.py)."""
    return computed(
        sweep_function(kind), list(values), list(seeds), **dict(settings), max_work=_work
    )


def run_estimate(kind: str, value, settings: dict) -> float:
    """Estimated CPU seconds of one run of this sweep at this value."""
    point = dict(
        n=settings.get("n", 200),
        dim=settings.get("dim", 2),
        margin=settings.get("margin", 0.1),
        bias=settings.get("bias", True),
        delta=settings.get("delta", 0.0),
        radius=settings.get("radius", 1.0),
    )
    if kind == "margin":
        point["margin"] = value
    elif kind in ("n", "dim", "delta"):
        point[kind] = value
    elif kind == "shift":
        point["bias"], point["radius"] = True, point["radius"] + abs(value)
    return estimated_run_seconds(**point)


def over_budget(kind: str, values, seeds: int, settings: dict, budget: RequestBudget) -> str | None:
    """Why this sweep is refused before it starts (what to lower), or None."""
    estimates = {value: run_estimate(kind, value, settings) for value in values}
    worst_value = max(estimates, key=estimates.get)
    if estimates[worst_value] > budget.seconds:
        where = {
            "n": f"n = {worst_value:g}",
            "dim": f"d = {worst_value:g}",
            "margin": f"margin γ = {worst_value:g}",
        }.get(kind, f"{kind} = {worst_value:g}")
        return (
            f"One run at {where} (n = {settings.get('n', worst_value)}, "
            f"d = {settings.get('dim', worst_value)}) would need about "
            f"{estimates[worst_value]:.0f} s of computing, more than the "
            f"{budget.seconds:g} s one request may use on this shared server. Lower n "
            "or d (the largest margin computations cost about n·d·min(n, 2d)), or use "
            "a larger margin."
        )
    total = seeds * sum(estimates.values())
    if total > MAX_SWEEP_SECONDS:
        return (
            f"This sweep ({len(estimates)} values × {seeds} seeds) would need about "
            f"{total:.0f} s of computing, more than the {MAX_SWEEP_SECONDS:.0f} s allowed "
            "for one sweep on this shared server. Use fewer values or seeds, or a "
            "smaller n or d."
        )
    return None


def paused(done: int, total: int, label: str) -> None:
    """Say how far the sweep got, and offer to go on in the next request."""
    st.info(
        f"Computed {done} of {total} runs of the {label} sweep. This request has used "
        "its share of the shared server; press **Continue** to compute the next runs "
        "(the finished ones are kept).",
        icon=":material/pause_circle:",
    )
    st.button("Continue the sweep", key=f"bound_continue_{label}", icon=":material/play_arrow:")


def run_sweep(kind: str, values, seeds: int, label: str, budget: RequestBudget, **settings):
    """Run a sweep one run at a time behind a progress bar; None if refused or unfinished.

    The cost is estimated first and a sweep over budget is refused with a
    message. Each (value, seed) run is a separate cached call, so the bar moves
    while the runs are computed, and once this request has used its CPU share
    (``budget``: a run starts only if its estimate fits in what is left) the sweep pauses
    with a Continue button (the finished runs stay cached).
    """
    values = np.asarray(values).tolist()
    refusal = over_budget(kind, values, int(seeds), settings, budget)
    if refusal is not None:
        st.warning(refusal, icon=":material/hourglass_disabled:")
        return None
    frozen_settings = tuple(sorted(settings.items()))
    runs = [(value, seed) for value in values for seed in range(int(seeds))]
    bar = st.progress(0.0, text=f"Running the {label} sweep ...")
    parts = []
    for done, (value, seed) in enumerate(runs, start=1):
        fresh = budget.runs == 0  # the request's first run has a whole budget
        if not fresh and budget.used + run_estimate(kind, value, settings) > budget.seconds:
            return paused(done - 1, len(runs), label)
        budget.runs += 1
        try:
            with budget.measured():
                part = cached_sweep(
                    kind,
                    (value,),
                    (seed,),
                    frozen_settings,
                    budget.seconds if fresh else max(budget.left, 1e-3),
                )
        except MarginUnfinished as error:
            if not fresh:  # it gets a whole budget in the next request
                return paused(done - 1, len(runs), label)
            bar.empty()
            st.error(
                f"{error} One run may use {budget.seconds:g} s of computing on this shared server.",
                icon=":material/hourglass_disabled:",
            )
            return None
        except ValueError as error:
            bar.empty()
            st.error(f"{error}", icon=":material/error:")
            return None
        parts.append(part)
        bar.progress(
            done / len(runs), text=f"Running the {label} sweep: {done} of {len(runs)} runs done"
        )
    bar.empty()
    return core_call(concat_sweeps, parts)
