"""/relaxation: the perceptron as a method for linear inequalities (Algorithm 1.37, Remark
1.38, Exercise 1.22). A pipeline: the settings (in the link), the system (a preset or the
student's rows), the run (cached), the player; the sweep over η; the perceptron both ways."""

import numpy as np
import pandas as pd
import streamlit as st

from pages.common.deferred import deferred
from pages.common.guard import page_guard
from pages.common.link_cleaning import int_param
from pages.common.linked_controls import PageLink
from pages.common.page_basics import core_call, page_header, show_chart
from pages.common.presenter import about_this_page, off_stage, presenting
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.common.request_budget import REQUEST_CPU_SECONDS
from pages.common.shown_text import as_code, shown_value
from pages.common.static_table import numbers_table, static_table
from pages.player import PREDICT_PARAMS, player, player_start
from pages.relaxation_parts.runs import both_ways, payload_for, run, sweep
from pages.relaxation_parts.settings import OWN, SETTINGS
from perceptron_core.relaxation import plane_system
from perceptron_core.viz import relaxation as viz
from perceptron_core.viz import sweep_tables
from perceptron_core.viz.player import run_id


def method_settings(link: PageLink) -> tuple[str, dict]:
    """The sidebar: the system's name and the method's settings, every one in the link."""
    with st.sidebar:
        st.header(SETTINGS["system"].group)
        name = SETTINGS.draw(link, "system")
        st.header(SETTINGS["eta"].group)
        eta = SETTINGS.draw(link, "eta")
        rule = SETTINGS.draw(link, "rule")
        tau = SETTINGS.draw(link, "tau", disabled=rule != "chaotic")
        seed, tol, w0_1, w0_2, max_iter = (
            SETTINGS.draw(link, key) for key in ("seed", "tol", "w0_1", "w0_2", "max_iter")
        )
    return name, dict(
        eta=eta, rule=rule, w0=(w0_1, w0_2), seed=seed, tol=tol, max_iter=max_iter, tau=tau
    )


def own_rows(link: PageLink) -> list:
    """The student's inequalities in an editable table (the link's rows= on the first
    visit, else the wide polygon); a refused row keeps the last good system. The rows go
    into the link as rows=a1,a2,c;..."""
    st.markdown(viz.OWN_ROWS_TEXT)
    old = st.session_state.own_rows  # numbered from 1, as the plane and the texts name them
    columns = {"_index": st.column_config.NumberColumn("(i)", disabled=True)} | {
        name: st.column_config.NumberColumn(name, format="%.3g") for name in ("a1", "a2", "c")
    }
    edited = st.data_editor(
        pd.DataFrame(old, columns=["a1", "a2", "c"], index=np.arange(1, len(old) + 1)),
        num_rows="dynamic",
        key="rows_editor",
        width=420,
        column_config=columns,
    )
    rows = edited.dropna().astype(float).head(viz.MAX_ROWS).to_numpy().tolist()  # unfinished
    refused = next(
        (
            (number, row, why)
            for number, row in enumerate(rows, start=1)
            if (why := viz.row_problem(row)) is not None
        ),
        None,
    )
    if refused:
        number, row, why = refused
        shown = ", ".join(shown_value(f"{v:g}", 20) for v in row)
        st.error(
            f"Row ({number}) ({as_code(shown)}) {why}. The previous system is kept "
            "until every row is an inequality.",
            icon=":material/error:",
        )
        rows = st.session_state.own_rows  # the last system whose rows were all good
    st.session_state.own_rows = rows
    link.write("rows", viz.rows_text(rows))  # own rows live in the link
    if not rows:
        st.info("Add at least one row with a₁ or a₂ not zero.")
        link.stop()
    return rows


def the_system(link: PageLink, name: str) -> tuple[list, str]:
    """The rows (a₁, a₂, c) of the system and what it shows: a preset, or the student's."""
    if "own_rows" not in st.session_state:  # the first visit: rows= of the link, if any
        raw = link.values.get("rows")
        restored = viz.rows_from_text(raw) if raw else None
        st.session_state.own_rows = restored or [list(r) for r in viz.PRESETS["wide polygon"][0]]
        if raw and restored is None:
            link.notice(f"rows={shown_value(raw)} ({viz.ROWS_REFUSED})")
    if name != OWN:
        link.write("rows", "")
        return viz.PRESETS[name]
    rows = own_rows(link)
    return rows, f"{len(rows)} inequalities of your own"


def sweep_section(link: PageLink, A, c, feasible: bool, method: dict) -> None:
    """Iterations to feasibility against η, one line per index rule; CSV download."""
    st.header("Which rule, which η?")
    st.markdown(viz.RULES_TEXT)
    if not SETTINGS.draw(link, "sweep"):
        return
    max_iter = method["max_iter"]
    if refused := viz.sweep_refused_text(max_iter, REQUEST_CPU_SECONDS):
        st.warning(refused, icon=":material/hourglass_disabled:")
    elif not feasible:
        st.info(viz.SWEEP_NOT_RUN, icon=":material/block:")
    else:
        with deferred("sweep", "Show the sweep: every rule at every η") as shown:
            if not shown:
                return
            # a refused sweep is a message with its advice
            rows = core_call(
                sweep, A, c, method["w0"], method["seed"], method["tol"], max_iter, method["tau"]
            )
            if rows is None:
                return
            show_chart(viz.sweep_figure(rows, max_iter), key="sweep_chart")
            numbers_table(
                "The sweep in numbers: iterations per η and rule",
                sweep_tables.eta_sweep_table(rows, max_iter),
                folded=False,
            )
            if missed := viz.sweep_missed_text(rows, max_iter, method["tol"]):
                st.markdown(missed)
            st.download_button(
                "Download the sweep (CSV)",
                viz.sweep_csv(rows),
                "relaxation_sweep.csv",
                "text/csv",
                key="sweep_csv",
                icon=":material/download:",
                on_click="ignore",
            )


def perceptron_section(link: PageLink, eta: float) -> None:
    """Exercise 1.22: the perceptron's run and the relaxation method's on the same system."""
    st.header("The perceptron is a relaxation method")
    st.markdown(viz.PERCEPTRON_TEXT)
    with st.container(horizontal=True, key="perceptron_controls"):
        p_n, p_margin, p_seed, p_delta = (
            SETTINGS.draw(link, key) for key in ("p_n", "p_margin", "p_seed", "p_delta")
        )
    with deferred("perceptron", "Show both runs: the perceptron and relaxation") as shown:
        result = (
            core_call(both_ways, int(p_n), float(p_margin), int(p_seed), float(p_delta), eta)
            if shown
            else None
        )
        if result is None:
            return
        percep, A_p, c_p, relax, etas = result
        left, right = st.columns(2)
        with left:
            show_chart(
                viz.perceptron_figure(A_p, c_p, percep.weights, relax.iterates, eta=eta),
                key="perceptron_chart",
            )
        with right:
            static_table(
                viz.comparison_table(percep, relax, eta),
                caption="The two runs on this system, side by side",
            )
            st.caption(f"Perceptron: {percep.stop_reason}. Relaxation: {relax.stop_reason}.")
            if etas_text := viz.perceptron_eta_text(etas, percep.n_updates):
                st.markdown(etas_text)
        st.caption(viz.BOTH_WAYS_CAPTION)


def main(link: PageLink) -> None:
    with off_stage() as shown:
        if shown:
            page_header("Linear inequalities by relaxation", viz.SUMMARY)
    name, method = method_settings(link)
    rows, description = the_system(link, name)
    A, c = viz.rows_to_system(rows)
    run_tau, method["tau"], said = viz.taus(method["rule"], method["tau"], A.shape[1])
    if said:  # the chaotic rule with τ < n: the run uses τ = n
        st.warning(said, icon=":material/info:")
    notice_slot = st.container()  # the link's ignored values, named once every control exists
    settings = (*(method[k] for k in ("eta", "rule", "w0", "seed", "tol", "max_iter")), run_tau)
    trace = core_call(run, A, c, *settings)
    if trace is None:
        link.stop(notice_slot)
    start, _ = player_start(
        "relaxation",
        run_id(A, c, settings),
        link.values,
        trace.n_iter,
        notices=link,
        what="iteration",
    )
    system = plane_system(A, c)
    st.caption(viz.system_caption(name, description, system))
    player(
        "relaxation",
        payload_for(A, c, settings, start, presenting()),
        key="relaxation_player",
        link=link,
    )
    if not system.feasible:
        st.info(viz.no_solution_text(A, c, trace, system), icon=":material/block:")
    about_this_page(viz.SUMMARY)
    sweep_section(link, A, c, system.feasible, method)
    perceptron_section(link, method["eta"])
    link.report(notice_slot)  # the player's "Copy link to this view" is the page's one link
    quiz(QUESTIONS_BY_PAGE["relaxation"])


page_link = PageLink(
    step=int_param(0, 10**9, 0),  # before any widget reads the URL
    rule=SETTINGS["rule"].link_rule,
    **PREDICT_PARAMS,
)
with page_guard("relaxation"):
    main(page_link)
