"""The sections of /kernels below the player: the dual perceptron checked against the
primal one, the lift to 3-D, the bias trick as a lift, and the monotone-conjunction kernel
(Claim 2.1). Texts and computations are in perceptron_core/viz/kernels.py; every control is
in the page's link. Not a page itself: pages/kernels.py calls these in order."""

import numpy as np
import streamlit as st

from pages.common.compute import computed
from pages.common.deferred import deferred
from pages.common.linked_controls import PageLink
from pages.common.page_basics import core_call, show_chart
from pages.common.static_table import static_table
from pages.kernels_parts.settings import SETTINGS
from perceptron_core.viz import kernels as viz
from perceptron_core.viz.train import axis_limit

MAX_UPDATES = 2_000  # a run stops here when no separator is found (as on the player)
cached = st.cache_data(show_spinner=False, max_entries=32, ttl=3600)

conjunction_timing = st.cache_data(show_spinner="Timing…", max_entries=1, ttl=3600)(
    viz.conjunction_timing
)


# The runs below are new for every new data set or data seed (a few to 60 ms at n = 2 000),
# each in a worker process (pages/common/compute.py)
@cached
def dual_check(X, y, bias: bool, order: str, order_seed: int, max_updates: int) -> dict:
    return computed(viz.dual_check, X, y, bias, order, order_seed, max_updates)


@cached
def lifted_run(X, y, name: str, max_updates: int) -> tuple:
    return computed(viz.lifted_run, X, y, name, max_updates)


@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def bias_trick_data(data_seed: int, max_updates: int) -> tuple:
    return computed(viz.bias_trick_data, data_seed, max_updates)


@st.cache_data(show_spinner="Training…", max_entries=16, ttl=3600)
def learn_target(
    kind: str, size: int, n_bits: int, m: int, data_seed: int, max_updates: int
) -> tuple:
    return computed(viz.learn_target, kind, size, n_bits, m, data_seed, max_updates)


def two_charts(X, y, name: str, w, b, limit: float, keys: tuple, through_origin=False):
    """The lifted points with the plane found (left) and its curve in the plane (right)."""
    left, right = st.columns(2)
    with left:
        show_chart(
            viz.lift_figure(X, y, name, w, b, limit=limit, through_origin=through_origin),
            key=keys[0],
        )
    with right:
        show_chart(viz.preimage_figure(X, y, name, w, b, limit=limit), key=keys[1])


def show_dual(X, y, bias: bool, order: str, order_seed: int) -> None:
    """The dual perceptron (linear kernel) makes the primal run's mistakes (eq. 1)."""
    st.subheader("The dual perceptron makes the same updates")
    check = core_call(dual_check, X, y, bias, order, order_seed, MAX_UPDATES)
    if check is None:
        return
    st.markdown(viz.DUAL_TEXT)
    if check["same"]:
        st.success(viz.dual_verdict(check), icon=":material/check_circle:")
    else:
        st.error(viz.dual_verdict(check), icon=":material/error:")
    with st.container(horizontal=True):
        for label, value in viz.dual_metrics(check, bias):
            st.metric(label, value)
    if (limit := viz.dual_limit_text(check)) is not None:
        st.caption(limit)


def show_lift(X, y, dataset: str, link: PageLink) -> None:
    """A feature map to 3-D, the plane the perceptron finds there, its curve in the plane."""
    st.subheader("Lifting: a plane in 3-D is a curve in the plane")
    choice = SETTINGS.draw(link, "lift")
    with deferred("lift", "Show the lift: the points in 3-D and the plane found there") as shown:
        if not shown:
            return
        name = viz.lift_name_for(choice, dataset)
        run = core_call(lifted_run, X, y, name, MAX_UPDATES)  # two margins and a run
        if run is None:
            return
        flat, lifted, trace, other = run
        said = viz.lift_texts(flat, lifted, trace, name, other)
        if said["flat_separable"]:
            st.info(said["flat"], icon=":material/info:")
        else:
            st.warning(said["flat"], icon=":material/block:")
        st.markdown(said["text"])
        two_charts(X, y, name, said["w"], said["b"], axis_limit(X, 1.0), ("lift_3d", "lift_plane"))


def show_bias_trick(data_seed: int) -> None:
    """The bias as the constant coordinate of a lift."""
    with deferred(
        "bias_trick", "The bias trick is a lift too", icon=":material/view_in_ar:"
    ) as shown:
        if not shown:
            return
        scene = core_call(bias_trick_data, data_seed, MAX_UPDATES)
        if scene is None:
            return
        X, y, through_origin, free, trace = scene
        st.markdown(viz.bias_trick_text(through_origin, free, trace))
        w = np.array([*trace.weights[-1], trace.biases[-1]]) if trace.converged else None
        two_charts(X, y, "constant", w, 0.0, 1.1, ("bias_3d", "bias_plane"), through_origin=True)


def bits_inputs(link: PageLink) -> tuple:
    """The calculator's two boxes: (x, z) as bit arrays, or the last valid pair kept while
    the student fixes what the message names."""
    with st.container(horizontal=True):
        x_text = SETTINGS.draw(link, "bits_x")
        z_text = SETTINGS.draw(link, "bits_z")
    x, z, problem = viz.read_bits(x_text, z_text)
    if problem is None:
        st.session_state["bits_shown"] = (x_text, z_text)
        return x, z
    st.error(problem, icon=":material/error:")
    kept = st.session_state.get("bits_shown")
    if kept is None:
        return None, None
    x, z, _ = viz.read_bits(*kept)
    st.caption(
        f"Below: the last valid pair, x = {''.join(map(str, x))} and "
        f"z = {''.join(map(str, z))}, until both boxes hold bits of one length."
    )
    return x, z


def show_conjunctions(link: PageLink, data_seed: int) -> None:
    """Claim 2.1 by hand on the bits typed, its timing, and a target learnt over d bits."""
    st.subheader("2ᵈ features for the price of d: the monotone-conjunction kernel")
    st.markdown(viz.CONJUNCTION_TEXT)
    x, z = bits_inputs(link)
    if x is not None:
        st.markdown(viz.conjunction_sentence(x, z))
    with deferred(
        "conjunctions",
        "Show the features of x and z written out, and the timing: "
        "features written out against the kernel",
    ) as shown:
        if shown and x is not None:
            columns, _ = viz.conjunction_by_hand(x, z)
            static_table(
                columns,
                tall=len(columns["conjunction"]) > 16,
                caption=(
                    f"The {len(columns['conjunction']):,} monotone conjunctions of d = {x.size} "
                    "bits and their values on x and on z; both = the product, 1 where the "
                    "conjunction is true on both. That column sums to Φ(x)·Φ(z)."
                ),
            )
        if shown:
            bits, explicit, kernel_seconds = conjunction_timing()
            show_chart(viz.timing_figure(bits, explicit, kernel_seconds), key="conjunction_timing")
            st.caption(viz.timing_caption(bits, explicit))
    st.markdown(viz.LEARN_TEXT)
    with st.container(horizontal=True):
        kind, size, n_bits, m = (
            SETTINGS.draw(link, key) for key in ("conj_kind", "conj_size", "conj_bits", "conj_m")
        )
    learnt = core_call(learn_target, kind, size, n_bits, m, data_seed, MAX_UPDATES)
    if learnt is None:
        return
    text, overfit = viz.learn_target_texts(kind, size, n_bits, m, *learnt)
    st.markdown(text)
    if overfit:
        st.caption(overfit)
