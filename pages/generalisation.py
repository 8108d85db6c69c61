"""/generalisation: margin mistakes, why the perceptron errs about 1/N of the time, its loss.

Four sections, each a pipeline (widgets bound to the URL, a cached core call, a
payload or figure): the margin perceptron in the player, the mean test error
against N, the stability argument (remove one point, retrain), and the loss
view with SGD at a step size the student picks.
Source: notes-perceptron-margin-generalization.txt, notebook-perceptron-sgd-d2l.txt.
"""

import numpy as np
import streamlit as st

from pages.common import (link_step, REQUEST_CPU_SECONDS, choice_param, clean_query_params, copy_link_control, core_call, float_param,
                          int_param, page_guard, page_header, player, report_link_notices,
                          show_chart, text_param, url_snapshot)
from perceptron_core import generalisation_curve, make_unit_margin, margin_perceptron
from perceptron_core.generalisation import CURVE_MAX_TEST_POINTS, CURVE_MAX_WORK
from perceptron_core.viz.generalisation import (combine_curves, curve_csv, curve_figure, curve_rows, eta_check,
                                                loss_figure, margin_player_payload,
                                                stability_figure, stability_summary)
from perceptron_core.viz.player import SPEEDS, player_spec, run_id

URL = "query-params"
LIMIT = 1.15  # half-width of the square view: unit vectors with room around them
DEFAULT_SIZES = "2, 5, 10, 20, 50, 100, 200"
N_TEST = 5_000  # fresh test points per run in P > 2
LINK_SPEC = {
    "n": int_param(2, 300, 40), "margin": float_param(0.05, 0.9, 0.1),
    "data_seed": int_param(0, 1_000_000, 0), "order_seed": int_param(0, 1_000_000, 0),
    "curve_n": text_param(120, DEFAULT_SIZES), "curve_margin": float_param(0.05, 0.9, 0.1),
    "curve_dim": int_param(2, 50, 2), "repeats": int_param(10, 1000, 500),
    "curve_seed": int_param(0, 1_000_000, 0),
    "stab_n": int_param(5, 200, 30), "heldout": int_param(0, 199, 0),
    "eta": float_param(0.01, 100.0, 0.1),
    # the player's position and speed (not widgets): a step beyond the run is named later
    "step": int_param(0, 10**9, 0), "speed": choice_param(SPEEDS, "medium"),
}
URL_KEYS = [key for key in LINK_SPEC if key not in ("step", "speed")]
present = bool(st.session_state.get("present"))
notices = clean_query_params(LINK_SPEC)  # before any widget reads the URL
link_values = url_snapshot()

SUMMARY = (
    "The perceptron stops once it separates the training points. How often does that "
    "hyperplane get a **new** point wrong? The lecture notes answer with the *margin "
    "perceptron*: it learns until every point is not just on the right side but at least "
    "one unit of $\\mathbf x^T\\boldsymbol\\beta$ away from the line, makes at most "
    "$3/\\gamma^2$ such corrections however many points it sees, and therefore errs on a new "
    "point with probability at most $3/((N+1)\\gamma^2)$. At the end: the same algorithm as "
    "stochastic gradient descent on a loss.")


# ---------------------------------------------------------------------------
# cached core calls
# ---------------------------------------------------------------------------
@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def unit_data(n, margin, seed):
    data = make_unit_margin(n=n, margin=margin, dim=2, seed=seed)
    return np.asarray(data.X), np.asarray(data.y), np.asarray(data.w_star)


@st.cache_data(show_spinner="Training…", max_entries=32, ttl=3600)
def margin_run(n, margin, data_seed, order_seed):
    X, y, _ = unit_data(n, margin, data_seed)
    return margin_perceptron(X, y, order="random", seed=order_seed)


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def margin_payload(n, margin, data_seed, order_seed, start_step, speed, present):
    X, y, star = unit_data(n, margin, data_seed)
    trace = margin_run(n, margin, data_seed, order_seed)
    spec = player_spec(run_id("generalisation", n, margin, data_seed, order_seed),
                       trace.n_examined, trace.update_steps, start_step=start_step,
                       speed=speed, present=present)
    return margin_player_payload(X, y, trace, beta_star=star, margin=margin, player=spec,
                                 limit=LIMIT)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def curve_at(size, margin, dim, repeats, seed):
    """The curve at one N (seeded by (seed, N): the same as within a call over all N)."""
    return generalisation_curve(n_train=[size], margin=margin, dim=dim, repeats=repeats,
                                seed=seed, n_test=N_TEST)


def curve(sizes, margin, dim, repeats, seed):
    """The whole curve, one cached N at a time, with a progress bar while it computes."""
    # the whole curve must fit the core's budget for one call (each N alone is checked there)
    work = repeats * sum(sizes) * (dim + 8) * (3 / margin**2 + 40)
    if work > CURVE_MAX_WORK:
        raise ValueError(f"this curve is too much work ({work:.2g} > {CURVE_MAX_WORK:.0e}: "
                         "runs per N × sum of N × (P + 8) × (3/γ² + 40)); use fewer runs, "
                         "smaller N, a smaller P or a larger margin.")
    if dim > 2 and repeats * len(sizes) * N_TEST > CURVE_MAX_TEST_POINTS:
        raise ValueError(f"runs per N × values of N × {N_TEST:,} test points is over "
                         f"{CURVE_MAX_TEST_POINTS:.0e}; use fewer runs or fewer values of N.")
    # one request's share of the shared server: about 6e8 units of work per second and
    # 160 ns per test point (measured on this 2-core machine; see CURVE_MAX_WORK)
    seconds = work / 6e8 + (repeats * len(sizes) * N_TEST * 160e-9 if dim > 2 else 0.0)
    if seconds > REQUEST_CPU_SECONDS:
        raise ValueError(f"this curve would need about {seconds:.0f} s of computing, more than "
                         f"the {REQUEST_CPU_SECONDS:.0f} s one request may use on this shared "
                         "server; use fewer runs per N, smaller or fewer values of N, a "
                         "smaller P or a larger margin γ.")
    bar = st.progress(0.0, text="Training and testing…")
    total, done, parts = sum(sizes), 0, []
    for size in sizes:
        parts.append(curve_at(size, margin, dim, repeats, seed))
        done += size
        bar.progress(done / total, text=f"Training and testing… N = {size} done")
    bar.empty()
    return combine_curves(parts)


@st.cache_data(show_spinner="Training twice…", max_entries=32, ttl=3600)
def stability(n_points, margin, seed, heldout):
    X, y, _ = unit_data(n_points, margin, seed)
    full = margin_perceptron(X, y, order="cyclic")
    keep = np.arange(n_points) != heldout
    reduced = margin_perceptron(X[keep], y[keep], order="cyclic")  # the others, same order
    return stability_summary(full, reduced, heldout)


@st.cache_data(show_spinner="Running SGD…", max_entries=32, ttl=3600)
def sgd_check(n, margin, data_seed, order_seed, eta):
    X, y, _ = unit_data(n, margin, data_seed)
    return eta_check(X, y, eta, order="random", seed=order_seed)


def parse_sizes(text: str) -> list[int] | None:
    """'2, 5, 10' -> [2, 5, 10] (sorted, unique); None if malformed."""
    try:
        values = sorted({int(v) for v in text.replace(";", ",").split(",") if v.strip()})
    except ValueError:
        return None
    return values if values and all(1 <= v <= 10_000 for v in values) else None


with page_guard("generalisation"):
    if not present:
        page_header("Margin mistakes and generalisation", SUMMARY)
    notice_slot = st.container()  # link warnings and the link, filled once every widget exists

    # -----------------------------------------------------------------------
    # 1. the margin perceptron, stepped in the browser
    # -----------------------------------------------------------------------
    st.header("1. The margin perceptron")
    if not present:
        st.markdown(
            "Every point is a unit vector ($\\|\\mathbf x\\|=1$), and a planted unit vector "
            "$\\boldsymbol\\beta^*$ keeps every point at least $\\gamma$ from its line: "
            "$y\\,\\mathbf x^T\\boldsymbol\\beta^*\\ge\\gamma$ (no bias, lines through the "
            "origin). Start at $\\boldsymbol\\beta=0$ and draw examples at random. If "
            "$y\\,\\mathbf x^T\\boldsymbol\\beta<1$ it is a **margin mistake** and "
            "$\\boldsymbol\\beta\\leftarrow\\boldsymbol\\beta+y\\,\\mathbf x$. There are two "
            "kinds: the point is on the **wrong side** ($y\\,\\mathbf x^T\\boldsymbol\\beta\\le0$,"
            " black ring), or on the right side but **inside the band** between the lines "
            "$\\mathbf x^T\\boldsymbol\\beta=\\pm1$ ($0<y\\,\\mathbf x^T\\boldsymbol\\beta<1$, "
            "orange dashed ring). The run stops when no point is ringed.")
    with st.container(horizontal=True, key="margin_controls"):
        n = st.number_input("points N", 2, 300, 40, step=10, key="n", bind=URL)
        margin = st.number_input("margin γ", 0.05, 0.9, 0.1, 0.05, format="%.2f", key="margin",
                                 bind=URL)
        data_seed = st.number_input("data seed", 0, 1_000_000, 0, key="data_seed", bind=URL)
        order_seed = st.number_input("order seed", 0, 1_000_000, 0, key="order_seed", bind=URL)
    trace = core_call(margin_run, n, margin, data_seed, order_seed)
    if trace is None:
        with notice_slot:  # name the ignored link values before the page stops
            report_link_notices(notices, link_values, URL_KEYS)
        st.stop()
    identity = run_id("generalisation", n, margin, data_seed, order_seed)
    if st.session_state.get("generalisation_run") != identity:
        st.session_state.generalisation_run = identity
        st.session_state.generalisation_start = link_step("generalisation", link_values,
                                                              trace.n_examined)
        speed = link_values.get("speed", "medium")
        st.session_state.generalisation_speed = speed if speed in SPEEDS else "medium"
    payload = margin_payload(n, margin, data_seed, order_seed,
                             st.session_state.generalisation_start,
                             st.session_state.generalisation_speed, present)
    player("generalisation", payload, key="generalisation_player")

    # -----------------------------------------------------------------------
    # 2. mean test error against N
    # -----------------------------------------------------------------------
    st.header("2. Test error against the number of training points N")
    if not present:
        st.markdown(
            "Draw $N$ training points (a fresh planted $\\boldsymbol\\beta^*$ each time, points "
            "uniform on the unit sphere outside the band $|\\mathbf x^T\\boldsymbol\\beta^*|<"
            "\\gamma$, labelled by the side of $\\boldsymbol\\beta^*$), train the margin "
            "perceptron (random order) until it makes no margin mistake, and measure its test "
            "error $L(\\hat{\\boldsymbol\\beta})$, the chance that a new point from the same "
            "distribution lands on the wrong side. Repeat and average. The notes give two "
            "bounds: the **stability theorem** $\\mathbb E[L(\\hat{\\boldsymbol\\beta})]\\le "
            "3/((N+1)\\gamma^2)$ (slope −1 on these axes) and the **uniform law** "
            "$\\sqrt{(P+1)\\log(N+1)/N}+\\delta$, which holds for each run with probability "
            "$1-e^{-N\\delta^2/2}$ (set to 95 % here; slope about −½).")
    with st.container(horizontal=True, key="curve_controls"):
        sizes_text = st.text_input("values of N", DEFAULT_SIZES, key="curve_n", bind=URL)
        curve_margin = st.number_input("margin γ", 0.05, 0.9, 0.1, 0.05, format="%.2f",
                                       key="curve_margin", bind=URL)
        dim = st.number_input("dimension P", 2, 50, 2, key="curve_dim", bind=URL,
                              help="P = 2: every test error is computed exactly (an angle). "
                                   "P > 2: estimated on 5 000 fresh points per run.")
        repeats = st.number_input("runs per N", 10, 1000, 500, step=50, key="repeats", bind=URL)
        curve_seed = st.number_input("seed", 0, 1_000_000, 0, key="curve_seed", bind=URL)
    sizes = parse_sizes(sizes_text)
    result = None
    if sizes is None:
        st.error("Values of N: write whole numbers from 1 to 10 000 separated by commas, "
                 "e.g. 2, 5, 10, 20.", icon=":material/error:")
    else:
        result = core_call(curve, tuple(sizes), curve_margin, dim, repeats, curve_seed)
    if result is not None:
        show_chart(curve_figure(result), key="curve_chart")
        rows = curve_rows(result)
        below = bool(np.all(result.mean_error <= result.stability_bound))
        zero_at = [int(v) for v, k in zip(result.n_train, rows["runs_with_error"]) if k == 0]
        how = ("each test error is exact (in the plane it is an angle, restricted to where "
               "points can fall)" if result.exact else
               f"each test error is estimated on {N_TEST:,} fresh points, so error bars "
               "include that sampling noise")
        st.markdown(
            f"Here {how}; error bars are ± one standard error of the mean over "
            f"{result.repeats} runs. The mean is "
            + ("below $3/((N+1)\\gamma^2)$ at every N shown. " if below else
               "**not** below $3/((N+1)\\gamma^2)$ at every N shown (a finite average can "
               "exceed an expectation bound by chance). ")
            + f"The Lemma's cap 3/γ² = {result.mistake_bound:,.0f} held in every run: the most "
            f"margin mistakes in one run was {int(result.margin_mistakes.max())}. ")
        if zero_at:
            st.markdown(
                f"At N = {', '.join(map(str, zero_at))} **none of the {result.repeats} runs "
                "made any test error**: a mean of exactly 0 has no place on a log axis, so it "
                "is drawn as a triangle on the floor. The bounds are for *every* distribution "
                "with margin γ; this one (points spread evenly outside the band) is easier, "
                "and once a few points sit near both edges of the band the learned line "
                "separates everything. Where the stability bound is above 1 it says nothing.")
        with st.container(horizontal=True):
            st.download_button("Curve (CSV)", curve_csv(result), "generalisation-curve.csv",
                               "text/csv", key="download_curve", icon=":material/table:")

    # -----------------------------------------------------------------------
    # 3. the stability argument
    # -----------------------------------------------------------------------
    st.header("3. Why 1/N: remove a point that caused no margin mistake")
    if not present:
        st.markdown(
            "Train on $N+1$ points. By the Lemma at most $3/\\gamma^2$ of them ever cause a "
            "margin mistake. Hold one point out, chosen at random: it is one of those with "
            "chance at most $3/((N+1)\\gamma^2)$. If it never caused a margin mistake, it never "
            "changed $\\boldsymbol\\beta$, so training without it gives **the same** "
            "$\\hat{\\boldsymbol\\beta}$, and that $\\hat{\\boldsymbol\\beta}$ has it at "
            "$y\\,\\mathbf x^T\\hat{\\boldsymbol\\beta}\\ge1$: it is classified right. The "
            "held-out point is a fresh test point for the run on the other $N$, so that run "
            "errs on a new point with probability at most $3/((N+1)\\gamma^2)$.\n\n"
            "Here both runs use **cyclic order**: the points in their listed order, again and "
            "again, and the run without the held-out point keeps the others in the same "
            "order. Then the exact condition is: *if the held-out point caused no margin "
            "mistake in the run on all N + 1, the run without it makes the same updates at "
            "the same places and ends at the same β bit for bit*; if it did cause one, β "
            "usually changes (it may, by chance, not). (The notes draw examples at random; "
            "the same holds if the run without the point skips exactly that point's draws.)")
    with st.container(horizontal=True, key="stability_controls"):
        stab_n = st.number_input("points N + 1", 5, 200, 30, key="stab_n", bind=URL)
        heldout = st.number_input("held-out point", 0, 199, 0, key="heldout", bind=URL,
                                  help="Its number: hover a point to see it.")
    if heldout >= stab_n:
        st.info(f"Point {heldout} does not exist: there are {stab_n} points, 0 to "
                f"{stab_n - 1}. Showing point {stab_n - 1}.")
        heldout = stab_n - 1
    summary = core_call(stability, stab_n, margin, data_seed, heldout)
    if summary is not None:
        X_s, y_s, _ = unit_data(stab_n, margin, data_seed)
        cols = st.columns([3, 2])
        with cols[0]:
            show_chart(stability_figure(X_s, y_s, summary, heldout, limit=LIMIT),
                       key="stability_chart")
        with cols[1]:
            caused = (f"Point {heldout} **caused {summary['count']} margin "
                      f"mistake{'s' * (summary['count'] != 1)}**"
                      if summary["caused"] else
                      f"Point {heldout} **caused no margin mistake**")
            changed = ("the hyperplane is **the same**, bit for bit"
                       if summary["same"] else "the hyperplane **changed**")
            st.markdown(
                f"{len(summary['mistake_points'])} of the {stab_n} points caused the "
                f"{summary['full_updates']} margin mistakes of the run on all of them (γ = "
                f"{margin:g}, data seed {data_seed}, as in section 1; at most 3/γ² = "
                f"{3 / margin**2:,.0f}).\n\n{caused}; trained without it, {changed}.")
            st.markdown(
                f"- β̂ on all {stab_n}: ({summary['full_beta'][0]:.4f}, "
                f"{summary['full_beta'][1]:.4f}), {summary['full_updates']} margin mistakes\n"
                f"- β̂ without point {heldout}: ({summary['reduced_beta'][0]:.4f}, "
                f"{summary['reduced_beta'][1]:.4f}), {summary['reduced_updates']} margin "
                "mistakes\n"
                f"- points that caused a margin mistake: "
                f"{', '.join(map(str, summary['mistake_points']))}")
            if not summary["caused"] and not summary["same"]:
                st.error("The hyperplane changed although the point caused no margin "
                         "mistake: this contradicts the argument; please report it.")

    # -----------------------------------------------------------------------
    # 4. the loss view
    # -----------------------------------------------------------------------
    st.header("4. The same algorithms as gradient descent on a loss")
    if not present:
        st.markdown(
            "Write $m=y\\,f(\\mathbf x)=y\\,\\mathbf x^T\\boldsymbol\\beta$. Stochastic gradient "
            "descent takes one example and steps "
            "$\\boldsymbol\\beta\\leftarrow\\boldsymbol\\beta-\\eta\\,l'(m)\\,y\\,\\mathbf x$. "
            "With the **perceptron loss** $\\max(0,-m)$ the slope is −1 when $m\\le0$ (we "
            "count $m=0$ as wrong) and 0 otherwise: with $\\eta=1$ this *is* the perceptron. "
            "With the **hinge loss** $\\max(0,1-m)$ the slope is −1 when $m<1$: with $\\eta=1$ "
            "this is the margin perceptron above. The 0–1 loss counts mistakes but is flat "
            "wherever it has a slope, so SGD on it never moves.")
    show_chart(loss_figure(), key="loss_chart")
    eta = st.columns([1, 3])[0].number_input("step size η", 0.01, 100.0, 0.1, format="%.2f",
                                             key="eta", bind=URL)
    check = core_call(sgd_check, n, margin, data_seed, order_seed, eta)
    if check is not None:
        perceptron, hinge = check["perceptron"], check["hinge"]
        st.markdown(
            f"On the data of section 1 (N = {n}, γ = {margin:g}), random order with order seed "
            f"{order_seed}, from β = 0:")
        st.table({
            "loss": ["perceptron max(0, −m)", "hinge max(0, 1 − m)"],
            "updates, η = 1": [perceptron["updates_eta_1"], hinge["updates_eta_1"]],
            f"updates, η = {eta:g}": [perceptron["updates_eta"], hinge["updates_eta"]],
            "same examples at the same steps": ["yes" if perceptron["same_updates"] else "no",
                                                "yes" if hinge["same_updates"] else "no"],
        })
        if perceptron["scaled"]:
            st.success(
                f"Checked on this run: the perceptron with η = {eta:g} updated on exactly the "
                f"same examples at the same steps as with η = 1, and every β was η times the "
                "η = 1 one. Why: both start at 0; if β is η times the η = 1 vector, every "
                "margin m is η times its η = 1 value, which has the same sign (η > 0), so the "
                "same examples are wrong and the next step is η times as long.",
                icon=":material/check_circle:")
        else:
            st.error("On this run the perceptron's updates differ between η and η = 1; by "
                     "the argument they should not (a rounding tie at m = 0?).",
                     icon=":material/error:")
        hinge_bound = (1 + 2 / eta) / margin**2
        st.markdown(
            f"The hinge loss asks for m ≥ 1, a fixed number, so the scale of β matters: "
            f"with η = {eta:g} SGD on it made {hinge['updates_eta']} updates, with η = 1 "
            f"{hinge['updates_eta_1']}"
            + (" (the same examples here: these settings happen not to tell them apart)."
               if hinge["same_updates"] else " (not the same examples: η changed the run).")
            + " Divide β by η: the rule becomes β ← β + y x whenever y x·β < 1/η, the margin "
            "perceptron asking for a margin of 1/η instead of 1. The Lemma's proof then gives "
            f"at most (1 + 2/η)/γ² = {hinge_bound:,.0f} updates"
            + (" (it holds here)." if hinge["updates_eta"] <= hinge_bound else
               " (**not** met here: please report it).")
            + " A small η asks for a wider margin on that scale and allows more updates."
            + ("" if hinge["converged_eta"] else " This run stopped at its limit before "
               "converging."))

    with notice_slot:
        report_link_notices(notices, link_values, URL_KEYS)
        copy_link_control("generalisation_link", URL_KEYS)
