"""/multiclass: more than two classes with binary perceptrons (Remark 1.36).

A pipeline: the settings (all in the URL), the data (k blobs), both reductions
(cached), the regions on a grid, three figures and a side-by-side table.
"""

import numpy as np
import pandas as pd
import streamlit as st

from pages.common import (REQUEST_CPU_SECONDS, choice_param, clean_query_params, copy_link_control, core_call,
                          float_param, int_param, page_guard, page_header, report_link_notices,
                          show_chart, url_snapshot)
from perceptron_core import ORDERS, make_blobs, one_vs_all, one_vs_one
from perceptron_core.viz.multiclass import (axis_limit, disagreement_figure, ova_figure,
                                            ovo_figure, regions, summary, winner_notes)

LAYOUTS = ["ring", "one class in the middle"]
URL_KEYS = ["k", "n", "spread", "data_seed", "layout", "order", "order_seed", "max_epochs",
            "lines"]
SPEC = {
    "k": int_param(3, 6, 4), "n": int_param(6, 600, 120), "spread": float_param(0.02, 0.6, 0.12),
    "data_seed": int_param(0, 1_000_000, 1), "layout": choice_param(LAYOUTS, LAYOUTS[0]),
    "order": choice_param(list(ORDERS), "cyclic"), "order_seed": int_param(0, 1_000_000, 0),
    "max_epochs": int_param(1, 500, 100),
}
#: seconds per examined example of one binary run (measured: n = 600, k = 6, spread 0.6,
#: 500 epochs took 6.7 s (cyclic, max_residual) to 10.3 s (permuted) for both schemes)
SECONDS_PER_EXAMPLE = 3e-6


def fit_seconds(k: int, n: int, max_epochs: int) -> float:
    """Upper estimate of both schemes' time: k one-vs-all runs on n points and k(k-1)/2
    one-vs-one runs on about 2n/k points, each at most max_epochs passes: (2k - 1)·n·epochs."""
    return (2 * k - 1) * n * max_epochs * SECONDS_PER_EXAMPLE


present = bool(st.session_state.get("present"))
notices = clean_query_params(SPEC)
link_values = url_snapshot()

SUMMARY = (
    "A perceptron separates two classes. With k classes, Remark 1.36 builds a classifier from "
    "several binary perceptrons in one of two ways. **One-vs-all** trains k perceptrons, "
    "perceptron j with class j as +1 and every other class as −1, and gives a point to the "
    "class whose score $\\mathbf w_j\\cdot\\mathbf x+b_j$ is largest. Each of these problems "
    "has about (k−1)/k negatives. **One-vs-one** trains one perceptron per pair (j, j′) on "
    "those two classes only, k(k−1)/2 of them, and lets each pair vote; the class with the "
    "most votes wins. When several classes share the top score or the top vote count the "
    "notes allow any choice; here the first class in the list wins, and the plane marks "
    "those points.")

with page_guard("multiclass"):
    if not present:
        page_header("More than two classes", SUMMARY)
    with st.sidebar:
        st.header("Data: k blobs")
        k = st.slider("classes k", 3, 6, 4, key="k", bind="query-params")
        n = st.number_input("points n", 6, 600, 120, 10, key="n", bind="query-params")
        spread = st.slider("spread of each blob", 0.02, 0.6, 0.12, 0.02, key="spread",
                           bind="query-params",
                           help="Large spreads overlap the blobs: some binary problems are "
                                "then not separable.")
        data_seed = st.number_input("data seed", 0, 1_000_000, 1, key="data_seed",
                                    bind="query-params")
        layout = st.radio("centres", LAYOUTS, key="layout", bind="query-params",
                          help="ring: the blob centres on a circle. one class in the middle: "
                               "class 0 moved to the origin, surrounded by the others, so "
                               "'0 against the rest' has no separating line.")
        st.header("Perceptrons")
        order = st.selectbox("order of examples", list(ORDERS), key="order",
                             bind="query-params", help="; ".join(ORDERS.values()))
        order_seed = st.number_input("order seed", 0, 1_000_000, 0, key="order_seed",
                                     bind="query-params")
        max_epochs = st.number_input("epoch limit of each binary run", 1, 500, 100,
                                     key="max_epochs", bind="query-params",
                                     help="A binary problem that is not separable never "
                                          "converges; its run stops here.")

    @st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
    def blobs(k, n, spread, data_seed, layout):
        data = make_blobs(n=n, seed=data_seed, dim=2, radius=1.0, k=k, spread=spread)
        X, labels = np.array(data.X), np.array(data.y)
        if layout == LAYOUTS[1]:  # move class 0's blob to the origin
            X[labels == 0] -= X[labels == 0].mean(axis=0)
        return X, labels

    @st.cache_data(show_spinner="Training the perceptrons…", max_entries=32, ttl=3600)
    def fit(X, labels, order, order_seed, max_epochs):
        settings = dict(bias=True, order=order, seed=order_seed, max_updates=20_000,
                        max_epochs=max_epochs)
        ova, ovo = one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)
        limit = axis_limit(X)
        region = regions(ova, ovo, limit)
        return ova, ovo, limit, region, summary(X, labels, ova, ovo, region)

    def stop_page():
        """Name the ignored link values, then stop (nothing below can be drawn)."""
        report_link_notices(notices, link_values, URL_KEYS)
        st.stop()

    seconds = fit_seconds(int(k), int(n), int(max_epochs))
    if seconds > REQUEST_CPU_SECONDS:
        st.warning(f"Training both schemes could need about {seconds:.0f} s of computing "
                   f"(k = {k} classes, n = {n} points, up to {max_epochs} epochs per binary "
                   f"run), more than the {REQUEST_CPU_SECONDS:.0f} s one request may use on "
                   "this shared server. Lower the epoch limit or n, or use fewer classes.", icon=":material/hourglass_disabled:")
        stop_page()
    data = core_call(blobs, int(k), int(n), float(spread), int(data_seed), layout)
    if data is None:
        stop_page()
    X, labels = data
    result = core_call(fit, X, labels, order, int(order_seed), int(max_epochs))
    if result is None:
        stop_page()
    ova, ovo, limit, region, numbers = result
    classes = ova.classes.tolist()
    shown = st.pills("draw the line of 'class j vs rest' for j =", classes,
                     selection_mode="multi", default=classes, key="lines", bind="query-params")
    report_link_notices(notices, link_values, URL_KEYS)

    left, middle = st.columns(2)
    with left:
        show_chart(ova_figure(X, labels, ova, region, limit, shown_lines=shown or ()),
                   key="ova_chart")
    with middle:
        show_chart(ovo_figure(X, labels, ovo, region, limit), key="ovo_chart")

    notes = winner_notes(ova, region)
    if notes:
        st.warning("One-vs-all: " + "; ".join(notes) + ".", icon=":material/warning:")

    def share_text(share: float) -> str:
        """A share as a percentage; a small positive share is not shown as 0.0 %."""
        return "< 0.1%" if 0 < share < 0.0005 else f"{share:.1%}"

    st.subheader("Side by side")
    a, o = numbers["one-vs-all"], numbers["one-vs-one"]
    table = pd.DataFrame({
        "": ["training accuracy", "perceptrons", "total updates",
             "binary problems separated", "training points with a tie",
             "share of the square with a tie"],
        "one-vs-all": [f"{a['accuracy']:.1%}", a["perceptrons"], a["updates"],
                       f"{a['converged']} of {a['perceptrons']}", a["training_ties"],
                       share_text(a["tie_share"])],
        "one-vs-one": [f"{o['accuracy']:.1%}", o["perceptrons"], o["updates"],
                       f"{o['converged']} of {o['perceptrons']}", o["training_ties"],
                       share_text(o["tie_share"])],
    }).astype(str)
    left, middle = st.columns(2)
    with left:
        st.dataframe(table, hide_index=True, key="summary_table")
        st.markdown(
            f"The two schemes give different classes on **{numbers['disagree_share']:.1%}** of "
            f"the square drawn and on {numbers['disagree_training']} of the {len(labels)} "
            "training points.")
        st.markdown("**Imbalance of one-vs-all** (share of −1 examples in each binary "
                    "problem):")
        st.dataframe(pd.DataFrame({
            "problem": [f"{label} vs rest" for label in classes],
            "negatives": [f"{v:.0%}" for v in ova.imbalance],
            "updates": ova.n_updates.tolist(),
            "separated": ["yes" if v else "no (limit)" for v in ova.converged],
            "wins in the square": [share_text(v) for v in region["ova_share"]],
        }), hide_index=True, key="imbalance_table")
    with middle:
        show_chart(disagreement_figure(X, labels, ova.classes, region, limit, height=600),
                   key="disagree_chart")
    with st.expander("One-vs-one: the pairs"):
        st.dataframe(pd.DataFrame({
            "pair (+1, −1)": [f"{p[0]} vs {p[1]}" for p in ovo.pairs.tolist()],
            "negatives": [f"{v:.0%}" for v in ovo.imbalance],
            "updates": ovo.n_updates.tolist(),
            "separated": ["yes" if v else "no (stopped at the limit)" for v in ovo.converged],
        }), hide_index=True, key="pairs_table")
    st.caption("Regions, shares and ties are computed on a 161 × 161 grid over the square "
               "drawn. Uploading or drawing your own points is not available on this page yet.")
    copy_link_control("multiclass_link", URL_KEYS)
    if present:
        with st.expander("About this page"):
            st.markdown(SUMMARY)
