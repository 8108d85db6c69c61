"""/kernels: when no line separates the data, lift them (feature maps, dual and kernel perceptron).

A pipeline: read the settings (every one keyed and in the URL), make the data,
run the kernel perceptron once (cached), build the player's payload, show the
player (every step happens in the browser); then the lift to 3-D, the dual
perceptron checked against the primal one, and the monotone-conjunction kernel
(Claim 2.1). Explanations follow §2 of notes-perceptron-kernels-columbia.txt.
"""

import multiprocessing
import os
import time

import numpy as np
import pandas as pd
import streamlit as st

from pages.common import (link_step, bool_param, choice_param, clean_query_params,
                          core_call, float_param, int_param, page_guard, page_header, player,
                          report_link_notices, show_chart, text_param, url_snapshot)
from perceptron_core import (KERNEL_FORMULAS, ORDERS, kernel_margin, kernel_perceptron,
                             make_blobs, make_circles, make_xor, max_margin,
                             monotone_conjunction_features, monotone_conjunction_kernel,
                             run_perceptron, with_label_noise)
from perceptron_core.viz.kernels import (LIFTS, lift, lift_figure, player_payload,
                                         preimage_figure, timing_figure)
from perceptron_core.viz.player import SPEEDS, player_spec, run_id
from perceptron_core.viz.train import axis_limit

DATA = {"circles": "two circles", "xor": "XOR (four corners)", "blobs": "two blobs"}
KERNEL_MENU = {"linear": "linear", "poly": "polynomial", "rbf": "RBF (Gaussian)"}  # keys: links
LIFT_MENU = {"auto": "z = x₁·x₂ for XOR, else z = x₁² + x₂²",
             "squared_norm": "z = x₁² + x₂²",
             "product": "z = x₁·x₂"}
#: the run stops here when no separator is found (label noise, linear kernel on XOR)
MAX_UPDATES = 2_000
#: the margin in feature space is computed in the server process up to this many points
MARGIN_IN_PROCESS = 150
#: above that, in a worker that is stopped after this many seconds
MARGIN_SECONDS = 3.0
URL_KEYS = ["data", "n", "data_seed", "noise", "kernel", "degree", "coef0", "gamma", "bias",
            "order", "order_seed", "lift", "bits_a", "bits_b", "conj_kind", "conj_size",
            "conj_bits", "conj_m"]
#: what a link may carry for each control (checked before any widget reads the URL)
LINK_SPEC = {
    "data": choice_param(DATA, "circles"), "n": int_param(10, 400, 100),
    "data_seed": int_param(0, 1_000_000, 0), "noise": float_param(0.0, 0.3, 0.0),
    "kernel": choice_param(KERNEL_MENU, "rbf"), "degree": int_param(1, 8, 2),
    "coef0": float_param(0.0, 10.0, 1.0), "gamma": float_param(0.05, 50.0, 2.0),
    "bias": bool_param(True), "order": choice_param(ORDERS, "cyclic"),
    "order_seed": int_param(0, 1_000_000, 0), "lift": choice_param(LIFT_MENU, "auto"),
    "bits_a": text_param(3, "110"), "bits_b": text_param(3, "011"),
    "conj_kind": choice_param(["conjunction", "disjunction"], "conjunction"),
    "conj_size": int_param(1, 6, 2), "conj_bits": int_param(6, 200, 30),
    "conj_m": int_param(20, 1000, 200),
    # the player's position and speed (not widgets): a step beyond the run is named later
    "step": int_param(0, 10**9, 0), "speed": choice_param(SPEEDS, "medium"),
}
present = bool(st.session_state.get("present"))
notices = clean_query_params(LINK_SPEC)  # before any widget reads the URL
link_values = url_snapshot()

SUMMARY = (
    "The perceptron only ever adds examples to $\\mathbf w$: after mistakes on "
    "$x_{i_1},\\dots,x_{i_k}$ it holds $\\mathbf w=\\sum_j y_{i_j}x_{i_j}$, so every score "
    "$\\mathbf w\\cdot x$ is a sum of inner products $x_{i_j}\\cdot x$. Replace each inner "
    "product by a kernel $K(a,b)=\\Phi(a)\\cdot\\Phi(b)$ and the same algorithm runs on the "
    "features $\\Phi(x)$, which may have many more coordinates than $x$, without ever writing "
    "$\\Phi(x)$ down. A flat boundary there is a curved one here (unless K is "
    "linear, e.g. degree 1). With "
    "$\\alpha_i$ = the number of updates example $i$ caused, the rule is "
    "$f(x)=\\sum_i\\alpha_i y_i K(x_i,x)+b$, and a mistake on $x_i$ adds 1 to $\\alpha_i$.")
with page_guard("kernels"):
    if not present:
        page_header("Kernels: lift the data, keep the perceptron", SUMMARY)

    # ---------------------------------------------------------------------------
    # settings (every one keyed and reflected in the URL)
    # ---------------------------------------------------------------------------
    with st.sidebar:
        st.header("Data")
        dataset = st.segmented_control("data", list(DATA), default="circles", required=True,
                                       key="data", bind="query-params",
                                       help="; ".join(f"{k}: {v}" for k, v in DATA.items()))
        n = st.number_input("points n", 10, 400, 100, step=10, key="n", bind="query-params")
        data_seed = st.number_input("data seed", 0, 1_000_000, 0, key="data_seed",
                                    bind="query-params")
        noise = st.slider("label noise (share flipped)", 0.0, 0.3, 0.0, 0.01, key="noise",
                          bind="query-params",
                          help="Flip labels at random. A flexible kernel may still separate the "
                               "flipped points, with a tiny margin; a simple one cannot.")
        st.caption("Uploading or drawing your own points is not offered on this page yet; "
                   "/train has both.")
        st.header("Kernel")
        kernel = st.selectbox("kernel", list(KERNEL_MENU), index=2, key="kernel",
                              bind="query-params",
                              help="; ".join(f"{k}: {KERNEL_FORMULAS[k]}" for k in KERNEL_MENU))
        degree = st.number_input("degree (polynomial)", 1, 8, 2, key="degree", bind="query-params",
                                 disabled=kernel != "poly")
        coef0 = st.number_input("c (polynomial)", 0.0, 10.0, 1.0, 0.5, key="coef0",
                                bind="query-params", disabled=kernel != "poly")
        gamma = st.number_input("γ (polynomial and RBF)", 0.05, 50.0, 2.0, 0.5, key="gamma",
                                bind="query-params", disabled=kernel == "linear",
                                help="RBF: larger γ makes each example's bump narrower.")
        bias = st.toggle("learn a bias b (K + 1)", True, key="bias", bind="query-params")
        order = st.selectbox("order of examples", list(ORDERS), key="order", bind="query-params",
                             help="; ".join(ORDERS.values()))
        order_seed = st.number_input("order seed", 0, 1_000_000, 0, key="order_seed",
                                     bind="query-params")
    # every ignored link value named once, before anything can stop the page
    report_link_notices(notices, link_values, URL_KEYS)


    # ---------------------------------------------------------------------------
    # step 1: the data; step 2: the run (cached); step 3: the payload (cached)
    # ---------------------------------------------------------------------------
    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def make_data(name, n, data_seed, noise):
        maker = {"circles": make_circles, "xor": make_xor, "blobs": make_blobs}[name]
        data = maker(n=n, seed=data_seed)
        data = with_label_noise(data, noise, seed=data_seed + 1) if noise > 0 else data
        return np.asarray(data.X), np.asarray(data.y)


    def kernel_settings():
        """The kernel's parameters as the core takes them (unused ones at their defaults)."""
        return {"kernel": kernel, "degree": int(degree) if kernel == "poly" else 2,
                "coef0": float(coef0) if kernel == "poly" else 1.0,
                "gamma": float(gamma) if kernel != "linear" else 1.0, "bias": bias}


    @st.cache_resource(show_spinner=False, max_entries=1)
    def margin_pool():
        """One niced worker process for the margins that may take long (shared by sessions)."""
        # (a pool can be terminated when a margin runs over its time, a thread cannot)
        return multiprocessing.get_context("spawn").Pool(1, initializer=os.nice, initargs=(10,))

    @st.cache_data(show_spinner="Computing the margin in feature space…", max_entries=64,
                   ttl=3600)
    def feature_margin(X, y, settings: tuple):
        """kernel_margin, or None when it would hold the server too long.

        Wolfe's solver needs a time that inputs do not predict (from 0.05 s to over a
        minute at n = 200 to 400, most when the data are nearly or not separable). Up to
        MARGIN_IN_PROCESS points it runs here (at most about 0.5 s measured); above, in a
        worker that is stopped after MARGIN_SECONDS (the page then shows no bound).
        """
        if len(y) <= MARGIN_IN_PROCESS:
            return kernel_margin(X, y, **dict(settings))
        pool = margin_pool()
        job = pool.apply_async(kernel_margin, (X, y), dict(settings))
        try:
            return job.get(timeout=MARGIN_SECONDS)
        except multiprocessing.TimeoutError:
            pool.terminate()  # the solver stops; the next margin gets a fresh worker
            margin_pool.clear()
            return None

    @st.cache_data(show_spinner="Training…", max_entries=32, ttl=3600)
    def train(X, y, settings: tuple, order, order_seed):
        params = dict(settings)
        trace = kernel_perceptron(X, y, **params, order=order, seed=order_seed,
                                  max_updates=MAX_UPDATES, max_epochs=500)
        margin = feature_margin(X, y, settings)
        return trace, margin


    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def payload_for(X, y, settings: tuple, order, order_seed, start_step, speed, present,
                    link=True):
        trace, margin = train(X, y, settings, order, order_seed)
        spec = player_spec(run_id(X, y, settings, order, order_seed), trace.n_examined,
                           trace.update_steps, start_step=start_step, speed=speed,
                           present=present, link=link)
        return player_payload(trace, margin, limit=axis_limit(X, 1.0), player=spec)


    def link_speed() -> str:
        raw = link_values.get("speed", "medium")
        return raw if raw in SPEEDS else "medium"


    X, y = make_data(dataset, n, data_seed, noise)
    settings = tuple(kernel_settings().items())
    run = core_call(train, X, y, settings, order, order_seed)
    if run is None:
        st.stop()
    trace, margin = run
    if margin is None:
        st.info(f"The margin in feature space for these {len(y)} points took longer than "
                f"{MARGIN_SECONDS:.0f} s to compute on this shared server, so no bound is "
                "shown. Use fewer points (n), less label noise or a smaller γ to see it.",
                icon=":material/hourglass_disabled:")
    identity = run_id(X, y, settings, order, order_seed)
    if st.session_state.get("kernels_run") != identity:  # a new run: open at the link's step or 0
        st.session_state.kernels_run = identity
        st.session_state.kernels_start = link_step("kernels", link_values, trace.n_examined)
        st.session_state.kernels_speed = st.session_state.get("kernels_speed") or link_speed()

    # ---------------------------------------------------------------------------
    # step 4: the player (the kernel perceptron, stepped in the browser)
    # ---------------------------------------------------------------------------
    if not present:
        st.subheader("The kernel perceptron, one mistake at a time")
        st.markdown(
            "The colours show $f(x)$ on the whole square, the black curve is $f(x)=0$ (the "
            "boundary), and each point's size is its $\\alpha_i$. Everything below the buttons "
            "is computed in your browser from the list of updates.")
    payload = payload_for(X, y, settings, order, order_seed, st.session_state.kernels_start,
                          st.session_state.kernels_speed, present)
    player("kernels", payload, key="kernels_player")
    if present:
        with st.expander("About this page"):
            st.markdown(SUMMARY)
            st.caption(f"Runs stop after {MAX_UPDATES:,} updates.")
    else:
        st.caption(f"A run stops after {MAX_UPDATES:,} updates if it has not converged by then.")

    # ---------------------------------------------------------------------------
    # the dual perceptron: the same mistakes as the primal one
    # ---------------------------------------------------------------------------
    st.subheader("The dual perceptron makes the same mistakes")


    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def dual_check(X, y, bias, order, order_seed):
        """The linear kernel run and run_perceptron on the same data, order and limits."""
        dual = kernel_perceptron(X, y, kernel="linear", bias=bias, order=order, seed=order_seed,
                                 max_updates=MAX_UPDATES, max_epochs=500)
        primal = run_perceptron(X, y, bias=bias, order=order, seed=order_seed,
                                max_updates=MAX_UPDATES, max_epochs=500)
        same = (np.array_equal(dual.update_indices, primal.update_indices)
                and np.array_equal(dual.update_steps, primal.update_steps))
        # w = Σ α_i y_i x_i (eq. 1) from the dual run, against the primal w
        w_dual = (dual.alphas * y) @ X
        return dual, primal, same, w_dual


    dual, primal, same, w_dual = dual_check(X, y, bias, order, order_seed)
    st.markdown(
        "The perceptron never needs $\\mathbf w$ itself: $\\mathbf w=\\sum_i \\alpha_i y_i x_i$, "
        "so $\\mathbf w\\cdot x=\\sum_i\\alpha_i y_i\\,(x_i\\cdot x)$ (eq. 1). Storing the counts "
        "$\\alpha_i$ instead of $\\mathbf w$ is the *dual* perceptron. Below, the dual run with the "
        "linear kernel $K(a,b)=a\\cdot b$ is checked against the ordinary (primal) run on the "
        "data above, with the same order and limit.")
    verdict = (f"Checked: both runs make the same {primal.n_updates:,} updates, on the same "
               "examples at the same steps."
               if same else "The two runs differ: the dual run's updates are not the primal run's.")
    (st.success if same else st.error)(verdict, icon=":material/check_circle:" if same
                                       else ":material/error:")
    with st.container(horizontal=True):
        st.metric("primal w (run_perceptron)",
                  f"({primal.weights[-1][0]:.3f}, {primal.weights[-1][1]:.3f})".replace("-", "−"))
        st.metric("dual Σ αᵢ yᵢ xᵢ", f"({w_dual[0]:.3f}, {w_dual[1]:.3f})".replace("-", "−"))
        st.metric("b (both)" if bias else "b", f"{primal.biases[-1]:.0f}" if bias else "0 (off)")
        st.metric("examples with α > 0", f"{int(np.count_nonzero(dual.alphas))} of {len(y)}")
    if not primal.converged:
        st.caption("With the linear kernel these data are not separated: both runs stop at the "
                   f"limit of {MAX_UPDATES:,} updates, making the same mistakes until then.")

    # ---------------------------------------------------------------------------
    # lifting: a feature map to 3-D, the plane found there, its curve in the plane
    # ---------------------------------------------------------------------------
    st.subheader("Lifting: a plane in 3-D is a curve in the plane")
    lift_choice = st.segmented_control("feature map Φ(x) = (x₁, x₂, z)", list(LIFT_MENU),
                                       default="auto", required=True, key="lift",
                                       bind="query-params",
                                       help="; ".join(f"{k}: {v}" for k, v in LIFT_MENU.items()))
    lift_name = lift_choice if lift_choice != "auto" else (
        "product" if dataset == "xor" else "squared_norm")


    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def lifted_run(X, y, lift_name):
        flat = max_margin(X, y)
        Z = lift(X, lift_name)
        lifted = max_margin(Z, y)
        trace = run_perceptron(Z, y, bias=True, max_updates=MAX_UPDATES, max_epochs=500)
        return flat, lifted, trace


    flat, lifted, lift_trace = lifted_run(X, y, lift_name)
    limit = axis_limit(X, 1.0)
    third = LIFTS[lift_name][1]
    if flat.separable:
        st.info(f"These data are separable by a line (best margin γ = {flat.margin:.3f}, "
                "computed), so they do not need a lift; the lift still works.",
                icon=":material/info:")
    else:
        st.warning("No line separates these data (the hard-margin solver finds margin 0).",
                   icon=":material/block:")
    if lifted.separable and lift_trace.converged:
        w3, b3 = np.asarray(lift_trace.weights[-1]), float(lift_trace.biases[-1])
        st.markdown(
            f"With $\\Phi(x) = (x_1, x_2, {third})$ a plane separates the lifted points (margin "
            f"{lifted.margin:.3f} there). The perceptron, run on the three coordinates, found "
            f"$w = ({w3[0]:.2f}, {w3[1]:.2f}, {w3[2]:.2f})$, $b = {b3:.0f}$ after "
            f"{lift_trace.n_updates} updates. The points of the plane where "
            f"$w_1x_1 + w_2x_2 + w_3\\,({third}) + b = 0$ form the curve on the right: "
            "the boundary it draws in the plane.")
    else:
        w3, b3 = None, 0.0
        st.markdown(f"With $\\Phi(x) = (x_1, x_2, {third})$ no plane separates the lifted points "
                    "either (computed), so no plane is drawn; try the other map, or less label "
                    "noise.")
    left, right = st.columns(2)
    with left:
        show_chart(lift_figure(X, y, lift_name, w3, b3, limit=limit), key="lift_3d")
    with right:
        show_chart(preimage_figure(X, y, lift_name, w3, b3, limit=limit), key="lift_plane")


    @st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
    def bias_trick_data(seed):
        """Two blobs on the same rays from the origin: a line separates them, not one through 0."""
        rng = np.random.default_rng(seed)
        angles = rng.uniform(np.pi / 8, 3 * np.pi / 8, 40)
        radii = np.where(np.arange(40) < 20, rng.uniform(0.25, 0.5, 40), rng.uniform(0.7, 1.0, 40))
        X = np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]
        y = np.where(np.arange(40) < 20, -1, 1)
        through_origin, free = max_margin(X, y, bias=False), max_margin(X, y, bias=True)
        trace = run_perceptron(X, y, bias=True, max_updates=MAX_UPDATES)
        return X, y, through_origin, free, trace


    with st.expander("The bias trick is a lift too", expanded=not present):
        bx, by, through_origin, free, bias_trace = bias_trick_data(data_seed)
        wb = np.array([*bias_trace.weights[-1], bias_trace.biases[-1]])
        st.markdown(
            "Append a constant 1 to every example, $x \\mapsto (x_1, x_2, 1)$, and the weights "
            "$(w_1, w_2, b)$: then $(w, b)\\cdot(x, 1) = w\\cdot x + b$. A line that misses the "
            "origin in the plane becomes a plane through the origin in 3-D, cut by the sheet "
            "$z = 1$ where the data now live. "
            + ("Here no line through the origin separates the two classes (computed), but a "
               f"line with a bias does (margin {free.margin:.3f})."
               if not through_origin.separable and free.separable else
               "Here a line through the origin "
               + ("also separates" if through_origin.separable else "does not separate")
               + " the classes (computed).")
            + f" The perceptron with the padded 1 needed {bias_trace.n_updates} updates.")
        bl, br = st.columns(2)
        with bl:
            show_chart(lift_figure(bx, by, "constant", wb if bias_trace.converged else None, 0.0,
                                   limit=1.1, through_origin=True), key="bias_3d")
        with br:
            show_chart(preimage_figure(bx, by, "constant", wb if bias_trace.converged else None,
                                       0.0, limit=1.1), key="bias_plane")

    # ---------------------------------------------------------------------------
    # the monotone-conjunction kernel (Claim 2.1)
    # ---------------------------------------------------------------------------
    st.subheader("2ⁿ features for the price of n: the monotone-conjunction kernel")
    st.markdown(
        "For bit vectors $a\\in\\{0,1\\}^n$ let $\\Phi(a)$ list the value of every monotone "
        "conjunction (an AND of some of the bits, the empty one being 1): $2^n$ features. "
        "$\\Phi(a)\\cdot\\Phi(b)$ counts the conjunctions true on both, and a conjunction is "
        "true on both exactly when all its bits are 1 in $a$ and in $b$: any subset of "
        "$\\mathrm{Ones}(a,b)$, the positions where both are 1. So "
        "$K(a,b)=2^{|\\mathrm{Ones}(a,b)|}$ (Claim 2.1), computed in $O(n)$ time instead of $2^n$.")


    def parse_bits(text: str, length: int):
        text = text.strip()
        if len(text) == length and set(text) <= {"0", "1"}:
            return np.array([int(c) for c in text])
        return None


    with st.container(horizontal=True):
        bits_a = st.text_input("a (3 bits)", "110", max_chars=3, key="bits_a", bind="query-params")
        bits_b = st.text_input("b (3 bits)", "011", max_chars=3, key="bits_b", bind="query-params")
    a_bits, b_bits = parse_bits(bits_a, 3), parse_bits(bits_b, 3)
    if a_bits is None or b_bits is None:
        st.error("Write a and b as three characters 0 or 1, for example 101.",
                 icon=":material/error:")
    else:
        features = monotone_conjunction_features(np.vstack([a_bits, b_bits]))
        names = ["1" if s == 0 else "∧".join(f"x{j + 1}" for j in range(3) if s >> j & 1)
                 for s in range(8)]
        table = pd.DataFrame(np.vstack([features, features[0] * features[1]]).astype(int),
                             index=["Φ(a)", "Φ(b)", "Φ(a)·Φ(b) term"], columns=names)
        st.dataframe(table, key="conjunction_table")
        ones = int(a_bits @ b_bits)
        kernel_value = float(monotone_conjunction_kernel(a_bits[None], b_bits[None])[0, 0])
        st.markdown(f"Φ(a)·Φ(b) = {int(features[0] @ features[1])} (the sum of the last row) and "
                    f"|Ones(a, b)| = {ones}, so $K(a, b) = 2^{{{ones}}} = {kernel_value:.0f}$.")


    @st.cache_data(show_spinner="Timing…", max_entries=1, ttl=3600)
    def conjunction_timing(rows=24, budget=1.5):
        """Seconds for one rows x rows Gram matrix, explicit (2ⁿ features) against the kernel.

        Best of three per n; the explicit way stops once one n took more than a fifth of
        the budget (its time doubles with every bit).
        """
        rng = np.random.default_rng(0)
        bits, explicit, kernel_times = [], [], []
        spent, explicit_on = 0.0, True
        for size in range(2, 21):
            A = rng.integers(0, 2, size=(rows, size)).astype(float)

            def best(function):
                times = []
                for _ in range(3):
                    start = time.perf_counter()
                    function()
                    times.append(time.perf_counter() - start)
                return min(times), sum(times)

            seconds, total = best(lambda: monotone_conjunction_kernel(A, A))
            spent += total
            if explicit_on and size <= 16:
                def explicit_gram():
                    features = monotone_conjunction_features(A)
                    return features @ features.T
                slow, total = best(explicit_gram)
                spent += total
                explicit_on = slow < budget / 5 and spent < budget
            else:
                slow = np.nan
            bits.append(size)
            explicit.append(slow)
            kernel_times.append(seconds)
        return bits, explicit, kernel_times


    bits, explicit, kernel_times = conjunction_timing()
    show_chart(timing_figure(bits, explicit, kernel_times), key="conjunction_timing")
    measured = [(b, e) for b, e in zip(bits, explicit) if np.isfinite(e)]
    st.caption(f"Time for the Gram matrix of 24 random bit vectors (best of 3, measured on this "
               f"server when the page first ran). The explicit way writes out 2ⁿ features and was "
               f"run up to n = {measured[-1][0]}; each extra bit doubles the number of features it "
               "writes. The kernel needs one inner product of the bits per pair, O(n).")

    st.markdown("**Learn a target over n bits.** The label is a monotone conjunction or "
                "disjunction of the first bits; both are linear in Φ (a disjunction by "
                "inclusion-exclusion), so the kernel perceptron on the bits can learn either.")
    with st.container(horizontal=True):
        conj_kind = st.segmented_control("target", ["conjunction", "disjunction"],
                                         default="conjunction", required=True, key="conj_kind",
                                         bind="query-params")
        conj_size = st.number_input("bits in the target r", 1, 6, 2, key="conj_size",
                                    bind="query-params")
        conj_bits = st.number_input("bits n", 6, 200, 30, key="conj_bits", bind="query-params")
        conj_m = st.number_input("training examples", 20, 1000, 200, step=20, key="conj_m",
                                 bind="query-params")


    @st.cache_data(show_spinner="Training…", max_entries=16, ttl=3600)
    def learn_target(kind, size, bits, m, seed):
        rng = np.random.default_rng(seed)
        # each bit is 1 with probability 2^(-1/r): a conjunction of r bits is true about half the time
        p_one = 0.5 ** (1 / size) if kind == "conjunction" else 1 - 0.5 ** (1 / size)
        A = (rng.random((m + 2000, bits)) < p_one).astype(float)
        target = A[:, :size].min(axis=1) if kind == "conjunction" else A[:, :size].max(axis=1)
        labels = np.where(target > 0, 1, -1)
        train_A, train_y = A[:m], labels[:m]
        trace = kernel_perceptron(train_A, train_y, kernel="monotone_conjunction", bias=False,
                                  max_updates=MAX_UPDATES, max_epochs=500)
        test = np.where(trace.decision_function(A[m:]) > 0, 1, -1)
        return trace, float(np.mean(test == labels[m:])), float(np.mean(train_y > 0))


    if conj_size > conj_bits:
        st.error("The target cannot use more bits than there are.", icon=":material/error:")
    else:
        learnt, test_accuracy, positive_share = learn_target(conj_kind, conj_size, conj_bits,
                                                             conj_m, data_seed)
        joiner = " ∧ " if conj_kind == "conjunction" else " ∨ "
        formula = joiner.join(f"x{j + 1}" for j in range(conj_size))
        state = ("converged: every training example is classified correctly"
                 if learnt.converged else f"stopped at its limit ({learnt.stop_reason})")
        st.markdown(
            f"Target $c(x) = {formula}$ over n = {conj_bits} bits ({positive_share:.0%} of the "
            f"training examples positive). The kernel perceptron with $K(a,b)=2^{{|Ones(a,b)|}}$ "
            f"works in a space of $2^{{{conj_bits}}}$ features without writing one down. It made "
            f"**{learnt.n_updates} mistakes** on {conj_m} examples in {learnt.epochs} "
            f"epoch{'s' if learnt.epochs != 1 else ''} and {state}; on 2,000 fresh examples it "
            f"predicts {test_accuracy:.1%} correctly.")
        if learnt.converged and test_accuracy < 0.75:
            st.caption("It fits every training example but predicts fresh ones poorly: with "
                       f"2^{conj_bits} features many weight vectors fit {conj_m} examples, and the "
                       "perceptron found one that is not the target. The kernel saves time, not "
                       "examples.")

