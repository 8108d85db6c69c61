"""Mistakes against the bound: sweep the margin (and n, d, δ, λ, s) and compare the
perceptron's update counts with the mistake bounds of the notes.

The page is a pipeline: the shared settings → the opening and the bound they make valid
→ the open tab, drawn from its row of ``TABS`` (pages/bound_parts/tabs.py): for each section
its prose, its inputs (``sweep_inputs``) and its sweeps (``show_sweep``: run within the
CPU budget, check updates / bound ≤ 1, charts, table, CSV) → the quiz → the link to
this view. The words are in pages/bound_parts/text.py, the runs in pages/bound_parts/sweeps.py.
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pandas as pd
import streamlit as st

from pages.bound_parts import text
from pages.bound_parts.sweeps import run_sweep
from pages.bound_parts.tabs import SHARED, SHARED_WIDTHS, TABS
from pages.bound_parts.views import Outcome, Shared
from pages.bound_parts.views import runs_table as show_runs
from pages.common.guard import page_guard
from pages.common.link_cleaning import choice_param
from pages.common.linked_controls import PageLink, link_rule
from pages.common.notation import named_results
from pages.common.page_basics import core_call, show_chart
from pages.common.question_bank import QUESTIONS_BY_PAGE
from pages.common.quizzes import quiz
from pages.common.request_budget import RequestBudget
from pages.common.static_table import numbers_table
from perceptron_core.perceptron import ORDERS
from perceptron_core.sweeps import MAX_UPDATES_PER_RUN
from perceptron_core.viz import sweep_tables

KEEP = "page"  # a tab's inputs keep their values while the tab is hidden
URL = "query-params"  # bind: every control is in the URL, its key is the parameter
TAB_KEY = "bound_tab"


def link_spec() -> dict:
    """What a link may carry for each control: the shared settings, the tab, then each
    tab's inputs (their range, choices or length, read from the widget's arguments)."""

    def rules(controls):
        return {c.key: link_rule(getattr(st, c.widget), (c.label,), c.options) for c in controls}

    spec = rules(SHARED) | {TAB_KEY: choice_param(TABS, next(iter(TABS)))}
    for sections in TABS.values():
        for section in sections:
            spec |= rules(section.controls)
    return spec


def sweep_inputs(controls, widths=None, persist: str | None = KEEP) -> dict:
    """Draw one row of controls, each in its column and bound to the URL; their values
    by role ("low", "values", "seeds", ...)."""
    columns = st.columns(widths or len(controls))
    return {
        c.role: link.control(
            getattr(column, c.widget), c.label, key=c.key, persist_state=persist, **c.options
        )
        for column, c in zip(columns, controls)
    }


def places(count: int, side_by_side: bool) -> list:
    """Where to draw ``count`` things: in columns side by side, or one below the other."""
    return st.columns(count) if side_by_side else [nullcontext()] * count


def report_ratio(ratios, result, bound_name: str) -> None:
    """Say loudly whether every run stayed within its bound; a run the page stopped at its
    cap of updates (below its bound) is named as such, not as a violation."""
    worst, converged = float(np.max(ratios)), np.asarray(result.converged)
    capped = ~converged & (np.asarray(result.updates) >= MAX_UPDATES_PER_RUN) & (ratios <= 1)
    if worst > 1.0 or np.any(~converged & ~capped):
        st.error(
            f"A run exceeded {bound_name} or stopped before converging within it (largest ratio "
            f"{worst:.3f}). The theorem forbids this: it is a bug in the app, please report it.",
            icon=":material/report:",
        )
    elif capped.any():
        st.warning(
            f"{int(capped.sum())} of {len(ratios)} runs were stopped after "
            f"{MAX_UPDATES_PER_RUN:,} updates, the most this page runs, before converging: "
            f"their {bound_name} allows up to "
            f"{float(np.max(result.updates[capped] / ratios[capped])):,.0f}, so "
            "the theorem is not contradicted, but their counts are not updates until "
            "convergence. Use a larger margin (or λ) to see them converge.",
            icon=":material/hourglass_disabled:",
        )
    else:
        st.success(
            f"All {len(ratios)} runs converged within {bound_name}: the largest "
            f"ratio updates / bound is {worst:.3f} ≤ 1.",
            icon=":material/check_circle:",
        )


def show_sweep(sweep, inputs: dict, shared: Shared) -> None:
    """Run one sweep and show it: the ratio check, its charts, its table, the CSV."""
    values = core_call(sweep.grid, inputs)
    result = (
        None
        if values is None
        else run_sweep(
            sweep.kind,
            values,
            inputs["seeds"],
            sweep.label,
            budget,
            **sweep.settings(inputs, shared),
        )
    )
    if result is None:
        return
    bound_name = sweep.bound or shared.valid_name
    outcome = Outcome(
        result, result.updates / getattr(result, sweep.ratio_of), bound_name, inputs, shared
    )
    if sweep.before_check:
        sweep.before_check(outcome)
    if not sweep.check_below_charts:
        report_ratio(outcome.ratio, result, bound_name)
    if not np.all(result.exact):
        st.caption(
            f"In {int(np.sum(~result.exact))} of {result.n_runs} runs the margin was too "
            "costly to compute in exact arithmetic here: it is a certified lower bound, "
            "so the bound of those runs can only be larger than the exact one."
        )
    if sweep.after_check:
        sweep.after_check(outcome)
    charts = sweep.figures(outcome)
    for place, (key, figure) in zip(places(len(charts), sweep.charts_side_by_side), charts.items()):
        with place:
            show_chart(figure, key=key)
    if sweep.check_below_charts:
        report_ratio(outcome.ratio, result, bound_name)
    if sweep.after_charts:
        sweep.after_charts(outcome)
    numbers_table(
        f"The sweep in numbers: median and bound per "
        f"{sweep_tables.SWEPT_NAMES.get(result.parameter, result.parameter)}",
        sweep_tables.bound_sweep_table(
            result.parameter,
            result.values(),
            result.value,
            result.updates,
            getattr(result, sweep.ratio_of),
            outcome.ratio,
            bound_name,
        ),
    )
    if sweep.table:
        show_runs(outcome, sweep.table)
    st.download_button(
        "Download the runs as CSV",
        pd.DataFrame(result.columns()).to_csv(index=False).encode("utf-8"),
        file_name=sweep.csv,
        mime="text/csv",
        key=f"bound_{sweep.name}_csv",
        icon=":material/download:",
        on_click="ignore",
    )


def show_tab(sections, shared: Shared) -> None:
    """Each section of a tab: its prose, its inputs, its sweeps."""
    for section in sections:
        if section.prose:
            section.prose(shared)
        inputs = sweep_inputs(section.controls, section.widths)
        if section.below_inputs:
            section.below_inputs(shared)
        for place, sweep in zip(
            places(len(section.sweeps), section.sweeps_side_by_side), section.sweeps
        ):
            with place:
                show_sweep(sweep, inputs, shared)


def shared_settings() -> Shared:
    """The box of settings every tab uses: bias, order of the examples, n and d."""
    with st.container(border=True):
        st.markdown("**Settings shared by every tab**")
        return Shared(**sweep_inputs(SHARED, SHARED_WIDTHS, persist=None))


def show_tabs(shared: Shared) -> None:
    """The tabs; only the open one is drawn and runs its sweeps."""
    tabs = st.tabs(list(TABS), key=TAB_KEY, bind=URL, on_change="rerun")
    for index, (tab, sections) in enumerate(zip(tabs, TABS.values())):
        with tab:
            if tab.open or (tab.open is None and index == 0):  # the first tab opens by itself
                show_tab(sections, shared)


def link_to_this_view() -> None:
    """The copy-link control, and one warning naming every link value the page ignored."""
    link.copy_control("bound_copy_link")
    link.report()


def main() -> None:
    st.title("Mistakes against the bound")
    opening = st.empty()  # names the bound of the current bias setting, once it is read
    link_slot = st.container(key="bound_link_slot")  # filled once every control is known
    shared = shared_settings()
    opening.markdown(text.opening(shared.bias))
    named_results(
        "Theorem 1.28",
        "bound (1.4)",
        "eq. 1.5",
        "Novikoff",
        "notebook bound",
        "Remark 1.17",
        "Remark 1.38",
        "Exercise 1.29",
        "3/γ² lemma",
        label="The results this page uses, one line each",
    )
    text.the_valid_bound(shared.bias)
    show_tabs(shared)
    quiz(QUESTIONS_BY_PAGE["bound"])
    with link_slot:
        link_to_this_view()


#: order labels older links carry -> today's (the cyclic order counted from 0 before examples
#: were numbered from 1 everywhere): such a link still opens, without a warning
OLD_ORDER_LABELS = {"cyclic (0, 1, ..., n-1, repeat)": ORDERS["cyclic"]}
if st.query_params.get("bound_order") in OLD_ORDER_LABELS:
    st.query_params["bound_order"] = OLD_ORDER_LABELS[st.query_params["bound_order"]]
LINK_SPEC = link_spec()
# every control of every tab is declared (and cleaned) before any widget reads the URL, and
# kept in the link while its tab is closed; the order menu writes its label
link = PageLink(
    kept={key: ORDERS.get if key == "bound_order" else None for key in LINK_SPEC}, **LINK_SPEC
)
budget = RequestBudget()  # CPU time this request may spend on sweeps

with page_guard("bound"):
    main()
