"""/relaxation: the perceptron as a method for linear inequalities (Algorithm 1.37,
Remark 1.38, Exercise 1.22).

A pipeline: the system (preset or the student's rows), the run (cached), the
player's payload, the player; then the sweep over η and the perceptron run both ways.
"""

import numpy as np
import pandas as pd
import streamlit as st

from pages.common import (link_step, REQUEST_CPU_SECONDS, as_code, bool_param, choice_param, clean_query_params, copy_link_control,
                          core_call, float_param, int_param, page_guard, page_header, player,
                          report_link_notices, shown_value, show_chart, url_snapshot)
from perceptron_core import (INDEX_RULE_LABELS, INDEX_RULES, make_separable, perceptron_eta,
                             perceptron_system, relaxation, run_perceptron)
from perceptron_core.relaxation import plane_system
from perceptron_core.viz.player import player_spec, run_id
from perceptron_core.viz.relaxation import (PRESETS, eta_sweep, perceptron_figure,
                                            player_payload, rows_to_system, sweep_csv,
                                            sweep_figure)

OWN = "your own rows"
SYSTEMS = [*PRESETS, OWN]
MAX_ROWS = 12
#: largest |a1|, |a2|, |c| of an own row; smallest length of (a1, a2) (a plane drawn at
#: a readable scale; beyond, the projections lose their digits)
MAX_ENTRY = 1e6
MIN_NORMAL = 1e-6
#: seconds per iteration of one relaxation run (10 to 35 µs measured; 15 on average over
#: the six rules) and the runs of the sweep (20 values of η × 6 rules)
SECONDS_PER_ITERATION = 15e-6
SWEEP_RUNS = 20 * 6
URL_KEYS = ["system", "eta", "rule", "tau", "seed", "tol", "w0_1", "w0_2", "max_iter",
            "sweep", "p_n", "p_margin", "p_seed", "p_delta"]
SPEC = {
    "system": choice_param(SYSTEMS, SYSTEMS[0]), "eta": float_param(0.05, 2.0, 1.0),
    "rule": choice_param(list(INDEX_RULES), "cyclic"), "tau": int_param(1, 1000, 10),
    "seed": int_param(0, 1_000_000, 0), "tol": float_param(0.0, 1.0, 0.001),
    "w0_1": float_param(-10.0, 10.0, 0.0), "w0_2": float_param(-10.0, 10.0, 0.0),
    "max_iter": int_param(10, 5000, 1000), "sweep": bool_param(True),
    "p_n": int_param(2, 60, 12), "p_margin": float_param(0.02, 0.5, 0.15),
    "p_seed": int_param(0, 1_000_000, 3), "p_delta": float_param(0.0, 1.0, 0.1),
    # the player's position (not a widget): an iteration beyond the run is named later
    "step": int_param(0, 10**9, 0),
}
present = bool(st.session_state.get("present"))
notices = clean_query_params(SPEC)
link_values = url_snapshot()

SUMMARY = (
    "A system of linear inequalities $\\mathbf a_i\\cdot\\mathbf w\\le c_i$ ($i=1,\\dots,n$, "
    "written $A^\\top\\mathbf w\\le\\mathbf c$ with one column $\\mathbf a_i$ of $A$ per "
    "inequality) in two unknowns, so every inequality is a half-plane and the solutions are "
    "the shaded polygon. The relaxation method (Algorithm 1.37) repeats one move: pick an "
    "inequality $i$ by a rule; if $\\mathbf w$ violates it, let $P_i(\\mathbf w)$ be the "
    "nearest point of its half-plane and set "
    "$\\mathbf w\\leftarrow(1-\\eta)\\mathbf w+\\eta\\,P_i(\\mathbf w)$. With $\\eta=1$ "
    "$\\mathbf w$ lands on the boundary line, with $\\eta=2$ on its mirror image, with "
    "$\\eta<1$ short of the line. **Next move** jumps to the next iteration that moves "
    "$\\mathbf w$; **Next iteration** takes one iteration (a satisfied inequality leaves "
    "$\\mathbf w$ where it is).")

with page_guard("relaxation"):
    if not present:
        page_header("Linear inequalities by relaxation", SUMMARY)

    # -----------------------------------------------------------------------
    # settings (every one keyed and in the URL; the own rows travel as rows=)
    # -----------------------------------------------------------------------
    with st.sidebar:
        st.header("System")
        system_name = st.selectbox("system A^T w ≤ c", SYSTEMS, key="system",
                                   bind="query-params")
        st.header("Method")
        eta = st.slider("relaxation η", 0.05, 2.0, 1.0, 0.05, key="eta", bind="query-params",
                        help="1 projects onto the violated half-plane, 2 reflects across its "
                             "line, below 1 stops short.")
        rule = st.selectbox("index rule (Remark 1.38)", list(INDEX_RULES), key="rule",
                            bind="query-params",  # plain names keep links readable
                            help="; ".join(INDEX_RULE_LABELS.values()))
        tau = st.number_input("τ (chaotic: every index within τ iterations, τ ≥ n)", 1, 1000,
                              10, key="tau", bind="query-params", disabled=rule != "chaotic")
        seed = st.number_input("seed (chaotic, randomized, permuted)", 0, 1_000_000, 0,
                               key="seed", bind="query-params")
        tol = st.number_input("tolerance: stop when every a_i·w ≤ c_i + tol", 0.0, 1.0,
                              0.001, 0.001, format="%.4f", key="tol", bind="query-params")
        w0_1 = st.number_input("start w₀, first entry", -10.0, 10.0, 0.0, 0.5, key="w0_1",
                               bind="query-params")
        w0_2 = st.number_input("start w₀, second entry", -10.0, 10.0, 0.0, 0.5, key="w0_2",
                               bind="query-params")
        max_iter = st.number_input("iteration limit", 10, 5000, 1000, 100, key="max_iter",
                                   bind="query-params")

    # -----------------------------------------------------------------------
    # step 1: the system
    # -----------------------------------------------------------------------
    def bad_row(row) -> str | None:
        """Why an own row a1, a2, c cannot be an inequality of this page; None if it can."""
        a1, a2, value = row
        if not all(np.isfinite(v) for v in row):
            return "holds an infinite value"
        if max(abs(a1), abs(a2), abs(value)) > MAX_ENTRY:
            return f"holds a value above {MAX_ENTRY:g} in size"
        if np.hypot(a1, a2) < MIN_NORMAL:
            return ("has a₁ = a₂ = 0 (or nearly): 0 ≤ c is not an inequality in w; set a₁ "
                    "or a₂, or delete the row")
        return None

    def rows_from_url(text):
        """'a1,a2,c;a1,a2,c' -> rows, or None when malformed."""
        if len(text) > 60 * MAX_ROWS:
            return None
        try:
            rows = [[float(v) for v in item.split(",")] for item in text.split(";") if item]
        except ValueError:
            return None
        if rows and len(rows) <= MAX_ROWS and all(len(r) == 3 and bad_row(r) is None
                                                  for r in rows):
            return rows
        return None

    if "own_rows" not in st.session_state:
        restored = rows_from_url(link_values.get("rows", "")) if link_values.get("rows") else None
        st.session_state.own_rows = restored or [list(r) for r in PRESETS["wide polygon"][0]]
        if link_values.get("rows") and restored is None:
            notices.append(f"rows={shown_value(link_values['rows'])} (not rows a1,a2,c "
                           f"separated by ';', at most {MAX_ROWS}, each a₁ or a₂ not 0 and "
                           f"every value at most {MAX_ENTRY:g} in size; used the wide polygon)")

    if system_name == OWN:
        st.markdown("**Your inequalities** a₁·w₁ + a₂·w₂ ≤ c, one per row (at most "
                    f"{MAX_ROWS}; a row with a₁ = a₂ = 0 is not an inequality and is refused; an "
                    "unfinished row is skipped).")
        edited = st.data_editor(
            pd.DataFrame(st.session_state.own_rows, columns=["a1", "a2", "c"]),
            num_rows="dynamic", key="rows_editor", width=420,
            column_config={name: st.column_config.NumberColumn(name, format="%.3g")
                           for name in ("a1", "a2", "c")})
        clean = edited.dropna().astype(float).head(MAX_ROWS)  # unfinished rows: skipped
        rows = clean.to_numpy().tolist()
        refused = [(number, row, bad_row(row)) for number, row in enumerate(rows, start=1)
                   if bad_row(row) is not None]
        if refused:
            number, row, why = refused[0]
            shown = ", ".join(shown_value(f"{v:g}", 20) for v in row)
            st.error(f"Row {number} ({as_code(shown)}) {why}. The previous system is kept "
                     "until every row is an inequality.", icon=":material/error:")
            rows = st.session_state.own_rows  # the last system whose rows were all good
        st.session_state.own_rows = rows
        encoded = ";".join(f"{a:g},{b:g},{v:g}" for a, b, v in rows)
        if st.query_params.get("rows") != (encoded or None):  # own rows live in the link
            if encoded:
                st.query_params["rows"] = encoded
            else:
                st.query_params.pop("rows", None)
        if not rows:
            st.info("Add at least one row with a₁ or a₂ not zero.")
            report_link_notices(notices, link_values, URL_KEYS)
            st.stop()
        description = f"{len(rows)} inequalities of your own"
    else:
        st.query_params.pop("rows", None)
        rows, description = PRESETS[system_name]
    A, c = rows_to_system(rows)
    n = A.shape[1]
    if rule == "chaotic" and tau < n:
        st.warning(f"τ = {tau} is below n = {n}: a window of τ iterations cannot visit all "
                   f"{n} inequalities, so the run uses τ = n = {n}.", icon=":material/info:")
        tau = n
    w0 = (float(w0_1), float(w0_2))
    system = plane_system(A, c)

    # -----------------------------------------------------------------------
    # step 2: the run (cached); step 3: the payload; step 4: the player
    # -----------------------------------------------------------------------
    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def run(A, c, eta, rule, w0, seed, tol, max_iter, tau):
        return relaxation(A, c, eta=eta, rule=rule, w0=np.array(w0), seed=seed, tol=tol,
                          max_iter=max_iter, tau=tau)

    settings = (float(eta), rule, w0, int(seed), float(tol), int(max_iter), int(tau))
    trace = core_call(run, A, c, *settings)
    if trace is None:
        st.stop()
    identity = run_id(A, c, settings)

    if st.session_state.get("relaxation_run") != identity:
        st.session_state.relaxation_run = identity
        st.session_state.relaxation_start = link_step("relaxation", link_values, trace.n_iter,
                                                      notices, what="iteration")

    RELAXATION_WORDS = {  # the player's controls speak of moves and iterations here
        "next_mistake": "Next move", "next_example": "Next iteration", "update": "move",
        "keys": "Keys: → or PageDown next move · ↓ next iteration · ← or PageUp back · "
                "Home reset · End run to end · Space play/pause"}

    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def payload_for(A, c, settings, start_step, present):
        trace = run(A, c, *settings)
        moves = np.flatnonzero(trace.moved) + 1  # 1-based iterations that moved w
        spec = player_spec(run_id(A, c, settings), trace.n_iter, moves, start_step=start_step,
                           present=present, labels=RELAXATION_WORDS)
        return player_payload(A, c, trace, player=spec)

    report_link_notices(notices, link_values, URL_KEYS)
    st.caption(f"**{system_name}**: {description}. "
               + ("This system has a solution" if system.feasible else
                  "**This system has no solution**")
               + f" (decided exactly, not by running: {system.reason}).")
    payload = payload_for(A, c, settings, st.session_state.relaxation_start, present)
    player("relaxation", payload, key="relaxation_player")
    copy_link_control("relaxation_link", URL_KEYS,
                      extra={"rows": st.query_params["rows"]} if "rows" in st.query_params
                      else None)
    if not system.feasible:
        st.info(
            "No solution: no rule and no η can reach a feasible point; the run ends at its "
            "iteration limit. For η < 2 the iterates stay in a bounded region (the analogue "
            "for this method of Theorem 1.35, which says so for the perceptron). With η = 2 "
            "they need not: two reflections across parallel lines add up to a translation, so "
            "a system with two contradicting parallel inequalities pushes w away for ever.",
            icon=":material/block:")
    if present:
        with st.expander("About this page"):
            st.markdown(SUMMARY)

    # -----------------------------------------------------------------------
    # the sweep: iterations to feasibility against η, one line per rule
    # -----------------------------------------------------------------------
    st.header("Which rule, which η?")
    st.markdown(
        "Remark 1.38 lists six ways to choose the inequality of each iteration: **cyclic** "
        "(1, 2, …, n, again), **chaotic** (any order that visits every inequality within every "
        "window of τ iterations), **randomized** (inequality i with probability proportional "
        "to ‖aᵢ‖²), **permuted** (a fresh random order each pass), **maximal distance** (the "
        "inequality whose half-plane is farthest from w) and **maximal residual** (the largest "
        "aᵢ·w − cᵢ). The chart runs every rule for η = 0.1, 0.2, …, 2 from the same start, "
        "with this page's tolerance, iteration limit, τ and seed (one seeded run per point), "
        "and counts iterations until every inequality holds up to the tolerance.")
    do_sweep = st.toggle("run the sweep", True, key="sweep", bind="query-params")

    @st.cache_data(show_spinner="Sweeping η…", max_entries=16, ttl=3600)
    def sweep(A, c, w0, seed, tol, max_iter, tau):
        return eta_sweep(A, c, w0=np.array(w0), seed=seed, tol=tol, max_iter=max_iter, tau=tau)

    sweep_seconds = SWEEP_RUNS * int(max_iter) * SECONDS_PER_ITERATION
    if not do_sweep:
        pass
    elif sweep_seconds > REQUEST_CPU_SECONDS:
        most = int(REQUEST_CPU_SECONDS / (SWEEP_RUNS * SECONDS_PER_ITERATION)) // 100 * 100
        st.warning(f"Not run: the sweep ({SWEEP_RUNS} runs of up to {int(max_iter):,} "
                   f"iterations) could need about {sweep_seconds:.0f} s of computing, more "
                   f"than the {REQUEST_CPU_SECONDS:.0f} s one request may use on this shared "
                   f"server. Lower the iteration limit to {most:,} or less to run it.",
                   icon=":material/hourglass_disabled:")
    elif not system.feasible:
        st.info("Not run: this system has no solution, so every run would end at the "
                "iteration limit.", icon=":material/block:")
    else:
        rows_sweep = sweep(A, c, w0, int(seed), float(tol), int(max_iter), int(tau))
        show_chart(sweep_figure(rows_sweep, int(max_iter)), key="sweep_chart")
        missed = sum(r["iterations"] is None for r in rows_sweep)
        if missed:
            why = ("With tolerance 0 and η ≤ 1 the iterates can approach the solutions for "
                   "ever without entering them: set a tolerance." if tol == 0 else
                   "A small η moves only part of the way each time: raise the iteration limit "
                   "to see where those runs get in.")
            st.caption(f"{missed} of {len(rows_sweep)} runs did not reach feasibility within "
                       f"{int(max_iter):,} iterations (crosses on the dashed line). {why}")
        st.download_button("Download the sweep (CSV)", sweep_csv(rows_sweep),
                           file_name="relaxation_sweep.csv", mime="text/csv",
                           key="sweep_csv", icon=":material/download:")

    # -----------------------------------------------------------------------
    # the perceptron as a special case (Exercise 1.22)
    # -----------------------------------------------------------------------
    st.header("The perceptron is a relaxation method")
    st.markdown(
        "Labelled points (xᵢ, yᵢ) with a line through the origin ask for w with "
        "yᵢ w·xᵢ ≥ δ for every i. Put aᵢ = −yᵢxᵢ and cᵢ = −δ: that is the system "
        "Aᵀw ≤ c in the two unknowns of w (Exercise 1.22). The perceptron's update on a "
        "mistake, w ← w + yᵢxᵢ = w − aᵢ, moves along the same direction as the relaxation "
        "step, but always by the full length ‖aᵢ‖, however small the violation: it is a "
        "relaxation step whose η changes from step to step, ηₜ = ‖aᵢ‖² / (aᵢ·w − cᵢ), and "
        "that ηₜ can be far above 2 (below: how often in this run). With δ = 0 the point w = 0 already solves the "
        "system, so the relaxation method does not move at all while the perceptron (which "
        "counts a score of 0 as a mistake) does: take δ > 0 to compare them.")
    with st.container(horizontal=True, key="perceptron_controls"):
        p_n = st.number_input("points", 2, 60, 12, key="p_n", bind="query-params")
        p_margin = st.number_input("margin γ", 0.02, 0.5, 0.15, 0.01, key="p_margin",
                                   bind="query-params")
        p_seed = st.number_input("data seed", 0, 1_000_000, 3, key="p_seed",
                                 bind="query-params")
        p_delta = st.number_input("threshold δ", 0.0, 1.0, 0.1, 0.05, key="p_delta",
                                  bind="query-params")

    @st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
    def both_ways(p_n, p_margin, p_seed, p_delta, eta):
        data = make_separable(n=p_n, margin=p_margin, dim=2, radius=1.0, seed=p_seed,
                              through_origin=True)
        percep = run_perceptron(data.X, data.y, bias=False, delta=p_delta, order="cyclic",
                                max_updates=5_000, max_epochs=1_000)
        A_p, c_p = perceptron_system(data.X, data.y, bias=False, delta=p_delta)
        relax = relaxation(A_p, c_p, eta=eta, rule="cyclic", tol=0.0, max_iter=20_000)
        etas = []
        for k in range(percep.n_updates):  # eta_t that makes the relaxation step the update
            etas.append(perceptron_eta(A_p, c_p, percep.weights[k], percep.update_indices[k]))
        return data, percep, A_p, c_p, relax, np.array(etas)

    result = core_call(both_ways, int(p_n), float(p_margin), int(p_seed), float(p_delta),
                       float(eta))
    if result is not None:
        data, percep, A_p, c_p, relax, etas = result
        left, right = st.columns(2)
        with left:
            show_chart(perceptron_figure(A_p, c_p, percep.weights, relax.iterates, eta=eta),
                       key="perceptron_chart")
        with right:
            finite = etas[np.isfinite(etas)]
            table = pd.DataFrame({
                "": ["moves (updates)", "examples examined", "final w", "solves the system"],
                "perceptron": [f"{percep.n_updates}", f"{percep.n_examined}",
                               f"({percep.w[0]:.3f}, {percep.w[1]:.3f})",
                               "yes" if percep.converged else "no (limit)"],
                f"relaxation, η = {eta:g}": [f"{relax.n_moves}", f"{relax.n_iter}",
                                             f"({relax.w[0]:.3f}, {relax.w[1]:.3f})",
                                             "yes" if relax.feasible else "no (limit)"],
            })
            st.dataframe(table, hide_index=True, key="perceptron_table")
            st.caption(f"Perceptron: {percep.stop_reason}. Relaxation: {relax.stop_reason}.")
            if finite.size:
                above = int((finite > 2).sum())
                st.markdown(
                    f"The perceptron's own ηₜ over its {percep.n_updates} updates: from "
                    f"{finite.min():.3g} to {finite.max():.3g} (median {np.median(finite):.3g}); "
                    f"{above} of them above 2, outside the range (0, 2] of Algorithm 1.37"
                    + (f"; {etas.size - finite.size} infinite (a score exactly δ)"
                       if etas.size > finite.size else "") + ".")
            st.caption("Both run the examples in the cyclic order from w = 0; the perceptron "
                       "stops when every yᵢ w·xᵢ > δ, the relaxation method when every "
                       "yᵢ w·xᵢ ≥ δ (tolerance 0). The η used is the one set in the sidebar.")
