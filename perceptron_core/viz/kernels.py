"""Pictures of the /kernels page: the kernel player's payload, the lift to 3-D, the timing chart.

Arrays in, JSON-ready data (or a Plotly figure) out; never streamlit. The player
(``pages/player/player.js`` with ``pages/player/kernels_scene.js``) evaluates the decision
function f(x) = sum_i alpha_i y_i K(x_i, x) + b (eq. 2 of
notes-perceptron-kernels-columbia.txt) on a grid in the browser from the
update list, so the payload grows with the number of updates (one index each),
not with updates x grid cells.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go

from ..kernels import (KERNEL_FORMULAS, KERNELS, KernelMarginResult, KernelTrace,
                       kernel_perceptron, monotone_conjunction_features,
                       monotone_conjunction_kernel)
from ..margin import max_margin
from ..perceptron import ScoreRounding, row_norms, run_perceptron
from ..theory import value_text
from . import style

#: grid cells per side on which the browser evaluates f (GRID x GRID points)
GRID = 72


def gram_matrix(trace: KernelTrace) -> np.ndarray:
    """K(x_i, x_j) of the run's kernel on its training examples, shape (n, n)."""
    return KERNELS[trace.kernel](trace.X, trace.X, degree=trace.degree, coef0=trace.coef0,
                                 scale=trace.scale)


class GramColumns:
    """The columns of the run's Gram matrix for some examples: K(x_j, x_i) for every
    training example j and each i in ``wanted`` (the examples updated on, the support).

    The player's numbers need only these: at n = 2 000 a run to 2 000 updates touches
    about 1 060 examples and one without flipped labels about 20, so the whole (n, n)
    matrix (26-35 ms there) is not computed (issue #23). The kernel is evaluated on the
    same pairs as :func:`gram_matrix`, so the values are its columns.
    """

    def __init__(self, trace: KernelTrace, wanted):
        self.index = np.unique(np.asarray(wanted, dtype=np.int64))     # sorted examples i
        self.values = KERNELS[trace.kernel](                            # (n, len(index))
            trace.X, trace.X[self.index], degree=trace.degree, coef0=trace.coef0,
            scale=trace.scale) if self.index.size else np.zeros((len(trace.y), 0))

    def positions(self, ids) -> np.ndarray:
        """Where examples ``ids`` (each in ``index``) are among the columns."""
        return np.searchsorted(self.index, np.asarray(ids, dtype=np.int64))



def kernel_text(trace: KernelTrace) -> str:
    """The kernel with its parameters, in words (e.g. K(a, b) = exp(−κ ‖a − b‖²) with κ = 2,
    width σ = 0.5)."""
    formula = KERNEL_FORMULAS[trace.kernel]
    if trace.kernel == "poly":
        return f"{formula} with degree {trace.degree}, c = {trace.coef0:g}, κ = {trace.scale:g}"
    if trace.kernel == "rbf":
        return f"{formula} with κ = {trace.scale:g} (width σ = {rbf_width(trace.scale):.3g})"
    return formula


def rbf_width(scale: float) -> float:
    """The width σ of the RBF kernel exp(−κ‖a − b‖²) = exp(−‖a − b‖²/(2σ²)): σ = 1/√(2κ)."""
    return float(1.0 / np.sqrt(2.0 * scale))


#: the help of the kernel's scale κ on the page
SCALE_HELP = ("κ scales the inner products. Polynomial: K(a, b) = (κ a·b + c)^degree. RBF: "
              "K(a, b) = exp(−κ‖a − b‖²), a bump of width σ = 1/√(2κ) around each example "
              "(κ = 2 gives σ = 0.5): a larger κ makes the bumps narrower. (Software such as "
              "scikit-learn calls κ gamma; here γ always means a margin.)")


def training_accuracy(trace: KernelTrace, columns: GramColumns | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Share of training examples with sign f(x) = y, and how many have y f(x) <= 0.

    Parameters
    ----------
    trace : KernelTrace
    columns : GramColumns of the run holding (at least) its updated examples, if built

    Returns two arrays of shape (n_updates + 1,), after 0, 1, ..., M updates
    (sign(0) = -1, so f(x) = 0 predicts -1).

    The values f_k(x_j) are those of ``trace.decision_path(trace.X)`` (eq. 2), computed
    the same way and in the same blocks of updates (so bit for bit the same numbers):
    each update on example i adds y_i K(x_i, x_j) to f - b, a cumulative sum over the
    update columns of the Gram matrix. Only the two counts per update are kept, not the
    (M + 1, n) table of values (150 ms at n = M = 2 000 with the table, issue #23).
    """
    y = trace.y
    n = y.shape[0]
    columns = GramColumns(trace, trace.update_indices) if columns is None else columns
    rows = np.ascontiguousarray(columns.values.T)  # row r: K(x_j, x_i) for every j, i = index[r]
    at = columns.positions(trace.update_indices)   # the row of each update's example
    positive = y > 0
    correct = np.empty(trace.n_updates + 1, dtype=np.int64)
    wrong_side = np.empty(trace.n_updates + 1, dtype=np.int64)
    # after 0 updates f = 0 on every example: predicted -1, and y f(x) = 0 <= 0 for all
    correct[0], wrong_side[0] = int(np.count_nonzero(~positive)), n
    running = np.zeros(n)  # f - b after `done` updates
    done, last = 0, trace.n_updates
    chunk = max(1, (1 << 22) // max(n, 1))  # decision_path's blocks of updates
    # one block's values and signs, reused (a fresh 32 MB array per step costs page faults)
    block = np.empty((min(chunk, last), n))
    signs, agree = (np.empty((min(chunk, last), n), dtype=bool) for _ in range(2))
    while done < last:
        stop = min(done + chunk, last)
        ids = trace.update_indices[done:stop]
        k = stop - done
        values, positive_f, same = block[:k], signs[:k], agree[:k]
        # f_t - b_t = f_{t-1} - b_{t-1} + y_{i_t} K(x_{i_t}, x): one row per update, summed
        # in order down the rows (a cumulative sum adds one term at a time, as
        # decision_path's along its columns; x + y = y + x exactly, so the same numbers)
        np.take(rows, at[done:stop], axis=0, out=values)
        values *= y[ids][:, None]
        np.cumsum(values, axis=0, out=values)
        values += running[None, :]
        running = values[-1].copy()
        values += trace.biases[done + 1:stop + 1][:, None]       # f_t(x_j), (k, n)
        # predicted +1 where f > 0 (sign(0) = -1); right where that is y's sign
        np.greater(values, 0, out=positive_f)
        np.equal(positive_f, positive[None, :], out=same)
        correct[done + 1:stop + 1] = np.count_nonzero(same, axis=1)
        values *= y[None, :]                                       # y_j f_t(x_j)
        np.less_equal(values, 0, out=same)
        wrong_side[done + 1:stop + 1] = np.count_nonzero(same, axis=1)
        done = stop
    return correct / n, wrong_side


def feature_norms_sq(trace: KernelTrace, columns: GramColumns | None = None) -> np.ndarray:
    """‖w_k‖² in feature space after k = 0..M updates, from the Gram matrix alone
    (``columns``: GramColumns of the run holding its updated examples, if built).

    An update on example i adds a_i = y_i (Phi(x_i), 1) to w, so
    ‖w + a_i‖² = ‖w‖² + 2 y_i f(x_i) + K~(x_i, x_i), where y_i f(x_i) is the
    score just before the update and K~ = K (+ 1 with a bias): the proof's
    second quantity (Theorem 1.28), in the feature space.
    """
    ids = trace.update_indices
    if ids.size == 0:
        return np.zeros(1)
    columns = GramColumns(trace, ids) if columns is None else columns
    # K(x_i, x_i) of each update's example: row i of its column
    diagonal = columns.values[ids, columns.positions(ids)] + (1.0 if trace.bias else 0.0)
    return np.concatenate([[0.0], np.cumsum(2.0 * trace.update_scores + diagonal)])


def feature_alignment(trace: KernelTrace, margin: KernelMarginResult,
                      columns: GramColumns | None = None) -> np.ndarray:
    """⟨w_k, u⟩ after k = 0..M updates, u the unit max-margin direction in feature space
    (``columns``: GramColumns of the run holding the margin's support, if built).

    u = p / ‖p‖ with p = sum_s lambda_s a_s the nearest point of kernel_margin;
    ⟨a_j, p⟩ = y_j sum_s lambda_s y_s K~(x_j, x_s), so each update on i adds
    ⟨a_i, u⟩ >= gamma_Phi (the proof's first quantity, Theorem 1.28).
    """
    y = trace.y.astype(float)
    support, weights = margin.support, margin.support_weights
    columns = GramColumns(trace, support) if columns is None else columns
    gram = columns.values[:, columns.positions(support)] + (1.0 if trace.bias else 0.0)  # (n, |S|)
    products = y * (gram @ (weights * y[support]))                  # <a_j, p> for every j
    norm = float(np.sqrt(max(float(weights @ products[support]), 0.0)))
    along = products / norm                                          # <a_j, u>
    return np.concatenate([[0.0], np.cumsum(along[trace.update_indices])])


#: how close to the origin the hull of the lifted examples must come for kernel_margin to
#: call them not separable (relative to R_Φ; perceptron_core.kernels.kernel_margin)
HULL_TOLERANCE_TEXT = "10⁻¹² R_Φ"


def opposite_duplicates(X, y) -> tuple[int, int] | None:
    """The first pair (i, j), i < j, of examples at the same point with opposite labels,
    or None. Such a pair lifts to a_j = −a_i for every kernel (Φ(x_i) = Φ(x_j)), so the
    hull of the lifted examples contains the origin exactly: no separator exists."""
    _, inverse = np.unique(np.asarray(X, dtype=float), axis=0, return_inverse=True)
    first: dict[tuple[int, int], int] = {}  # (point, label) -> its first example
    for j, (point, label) in enumerate(zip(np.ravel(inverse).tolist(), np.ravel(y).tolist())):
        if (point, -label) in first:
            return first[(point, -label)], j
        first.setdefault((point, label), j)
    return None


def _not_separable_text(trace: KernelTrace) -> str:
    """What a computed margin of 0 means for this run, from what the run did and, where
    it decides separability exactly, from the data: two copies of a point with opposite
    labels (never separable), or the RBF kernel on distinct points (always separable:
    its Gram matrix is positive definite, so some w has ⟨w, Φ(x_i)⟩ = y_i for all i)."""
    clash = opposite_duplicates(trace.X, trace.y)
    if clash is not None:
        i, j = clash
        return (f" Examples {i + 1} and {j + 1} are the same point with opposite labels, so "
                "every kernel gives them the same features: no w gives y f(x) > 0 on "
                "both, the perceptron never stops on these data, this run was cut at its "
                "limit, and no mistake bound applies.")
    if trace.converged or trace.kernel == "rbf":
        # a finished run is a separator; distinct points are separable with any RBF kernel
        why = ("this run ended with y f(x) > 0 for every example, so a separator exists"
               if trace.converged else
               "with the RBF kernel points that are all different are always separable "
               "in feature space (its table of values K(xᵢ, xⱼ) is positive definite, so "
               "some f has y f(x) = 1 on every example)")
        return (" The margin computation put it at 0 (the hull of the lifted examples, "
                "the smallest convex set holding them all, comes within "
                f"{HULL_TOLERANCE_TEXT} of the origin), yet {why}: the margin is "
                "positive but too small to compute here, and no bound is shown."
                + ("" if trace.converged else " Theorem 1.28 still bounds the updates, "
                   "by a number too large to compute here; this run reached its limit first."))
    return (" No hyperplane through the origin separates the lifted examples (γ_Φ = 0: "
            "their hull, the smallest convex set holding them all, reaches the origin, to within {HULL_TOLERANCE_TEXT}). Then no w "
            "gives y f(x) > 0 on every example, so the perceptron never stops on these "
            "data: this run was cut at its limit, and no mistake bound applies.")


def _end_text(trace: KernelTrace, margin: KernelMarginResult | None) -> str:
    if trace.converged:
        text = (f"Converged after {trace.n_updates:,} updates in {trace.epochs} epoch"
                f"{'s' if trace.epochs != 1 else ''} (rounds of n examined examples): every "
                "training example has y f(x) > 0.")
        if margin is not None and margin.separable:
            text += (f" Theorem 1.28 in feature space allowed at most (R_Φ/γ_Φ)² = "
                     f"{value_text(margin.bound)} updates; {trace.n_updates:,} were needed.")
        elif margin is not None:
            text += _not_separable_text(trace)
        return text
    text = f"Stopped without converging: {trace.stop_reason.split(' (', 1)[0]}"
    text += f" ({trace.stop_reason.split(' (', 1)[1].split(')')[0]})." if " (" in \
        trace.stop_reason else "."
    if margin is not None and margin.separable:
        if margin.bound > trace.n_updates:
            text += (" The data are separable in this feature space, but the bound "
                     f"(R_Φ/γ_Φ)² = {value_text(margin.bound)} allows more updates than "
                     f"the {trace.n_updates:,} this run made before its limit.")
        else:
            text += (" The data are separable in this feature space and the run stayed "
                     f"within the bound (R_Φ/γ_Φ)² = {value_text(margin.bound)}; it "
                     "reached its limit on examined examples first.")
    elif margin is not None:
        text += _not_separable_text(trace)
    return text


def _facts(trace: KernelTrace, margin: KernelMarginResult | None) -> str:
    text = f"Kernel {kernel_text(trace)}" + ("; bias b learnt (K + 1)." if trace.bias
                                              else "; no bias.")
    if margin is None:
        return text + (" The margin in feature space was not computed (it took too long "
                       "on this server), so no bound is shown.")
    if margin.separable:
        return (text + f" In feature space R_Φ = {margin.radius:.4g} (the longest "
                f"{'(Φ(x), 1)' if trace.bias else 'Φ(x)'}) and the best margin γ_Φ = "
                f"{margin.margin:.4g}, so Theorem 1.28 (the perceptron makes at most "
                "(R/γ)² updates on data of radius R and margin γ > 0) allows at most "
                f"(R_Φ/γ_Φ)² = {value_text(margin.bound)} updates.")
    return text + f" In feature space R_Φ = {margin.radius:.4g}." + _not_separable_text(trace)


def player_payload(trace: KernelTrace, margin: KernelMarginResult | None, *, limit: float,
                   player: dict, grid: int = GRID) -> dict:
    """Everything the /kernels player shows, for one kernel perceptron run (JSON-ready).

    Parameters
    ----------
    trace : KernelTrace of ``kernel_perceptron`` on 2-D data (trace.X of shape (n, 2))
    margin : KernelMarginResult of ``kernel_margin`` for the same data, kernel and bias
        (None: not computed)
    limit : float, half-width of the square view [-limit, limit]²
    player : dict from ``viz.player.player_spec``
    grid : points per side of the grid on which the browser evaluates f

    Returns
    -------
    dict with the data, the kernel (name and parameters, evaluated in the browser
    exactly as the core does), the updates (indices, steps, scores y f(x) before
    each (M,), biases b (M+1,), accuracy (M+1,), wrong_side (M+1,), norm_sq (M+1,),
    alignment (M+1,) or None), the example examined at each step, the bound and texts.
    """
    from .player import encode_indices

    X = np.asarray(trace.X, dtype=float)
    y = np.asarray(trace.y, dtype=int)
    separable = margin is not None and margin.separable
    # the Gram matrix's columns once, for the accuracy, ‖w‖² and ⟨w, u⟩
    columns = GramColumns(trace, np.concatenate(
        [trace.update_indices, margin.support if separable else []]))
    accuracy, wrong_side = training_accuracy(trace, columns)
    steps = np.arange(1, trace.n_examined + 1)
    cyclic = trace.order == "cyclic"
    examined = encode_indices(trace.indices_at_steps(steps) if steps.size and not cyclic
                              else [], len(y), cyclic=cyclic)
    norm_sq = feature_norms_sq(trace, columns)
    return {
        "player": player,
        "X": X.tolist(), "y": y.tolist(), "limit": float(limit), "grid": int(grid),
        "kernel": {"name": trace.kernel, "degree": int(trace.degree),
                   "coef0": float(trace.coef0), "scale": float(trace.scale),
                   "text": kernel_text(trace)},
        "bias": bool(trace.bias),
        "examined": examined,
        "updates": {"indices": [int(i) for i in trace.update_indices],
                    "steps": [int(s) for s in trace.update_steps],
                    "scores": [float(s) for s in trace.update_scores],
                    "biases": [float(b) for b in trace.biases],
                    "accuracy": accuracy.tolist(),
                    "wrong_side": [int(v) for v in wrong_side],
                    "norm_sq": norm_sq.tolist(),
                    "alignment": feature_alignment(trace, margin, columns).tolist() if separable
                    else None},
        "converged": bool(trace.converged),
        "bound": None if not separable else {
            "radius": float(margin.radius), "margin": float(margin.margin),
            "value": float(margin.bound), "value_text": value_text(margin.bound)},
        "facts": _facts(trace, margin),
        "end_text": _end_text(trace, margin),
    }


# ---------------------------------------------------------------------------
# Lifting: a feature map to 3-D, the plane found there, its preimage in the plane
# ---------------------------------------------------------------------------

#: name -> (third coordinate as a function of x1, x2, its formula)
LIFTS = {
    "squared_norm": (lambda a, b: a * a + b * b, "x₁² + x₂²"),
    "product": (lambda a, b: a * b, "x₁·x₂"),
    "constant": (lambda a, b: np.ones_like(a), "1"),
}


def lift(X, name: str) -> np.ndarray:
    """Φ(x) = (x₁, x₂, z(x₁, x₂)) for the lift ``name`` of :data:`LIFTS`, shape (n, 3)."""
    X = np.asarray(X, dtype=float)
    third, _ = LIFTS[name]
    return np.column_stack([X[:, 0], X[:, 1], third(X[:, 0], X[:, 1])])


def _class_traces_3d(Z, y) -> list[dict]:
    traces = []
    for label, name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        marker = style.class_marker(label)
        traces.append(dict(
            type="scatter3d", x=Z[members, 0], y=Z[members, 1], z=Z[members, 2],
            mode="markers", name=name,
            marker=dict(color=marker["color"], size=4,
                        symbol="circle" if label > 0 else "square")))
    return traces


def lift_figure(X, y, name: str, w, b, *, limit: float, height: int = 520,
                through_origin: bool = False) -> go.Figure:
    """The lifted points in 3-D and the plane w·Φ + b = 0 found there.

    Built as plain dicts (``style.figure_without_validation``): the page builds it on every
    run with the part open, for new data on every link, and Plotly's validation was most
    of the server's work for /kernels (issue #23).

    Parameters
    ----------
    X : ndarray (n, 2); y : ndarray (n,) in {-1, +1}
    name : key of LIFTS
    w : ndarray (3,), b : float, the separator in the lifted space (None: none drawn)
    limit : half-width of the square the plane is drawn over
    through_origin : draw the plane down to z = 0 and mark the origin (the bias trick)
    """
    y = np.asarray(y)
    Z = lift(X, name)
    traces = _class_traces_3d(Z, y)
    if w is not None and abs(w[2]) > 1e-12:
        axis = np.linspace(-limit, limit, 25)
        gx, gy = np.meshgrid(axis, axis)
        # the plane w·Φ + b = 0 solved for its third coordinate: z = −(w₁x₁ + w₂x₂ + b)/w₃
        gz = -(w[0] * gx + w[1] * gy + b) / w[2]
        span = (float(Z[:, 2].min()), float(Z[:, 2].max()))
        if through_origin:
            span = (min(span[0], 0.0), max(span[1], 0.0))
        pad = 0.3 * max(span[1] - span[0], 0.5)
        gz = np.where((gz >= span[0] - pad) & (gz <= span[1] + pad), gz, np.nan)
        traces.append(dict(type="surface", x=gx, y=gy, z=gz, showscale=False, opacity=0.45,
                           colorscale=[[0, style.WEIGHT], [1, style.WEIGHT]],
                           name="separating plane", showlegend=True, hoverinfo="skip"))
    if through_origin:
        traces.append(dict(type="scatter3d", x=[0], y=[0], z=[0], mode="markers",
                           name="origin",
                           marker=dict(color=style.HYPERPLANE, size=6, symbol="diamond")))
    layout = style.base_layout_spec(height=height)

    def axis_spec(title: str) -> dict:
        return dict(title=dict(text=title, font=dict(size=14)), tickfont=dict(size=11))

    layout.update(
        margin=dict(l=0, r=0, t=10, b=0, autoexpand=False),
        scene=dict(xaxis=axis_spec("x₁"), yaxis=axis_spec("x₂"),
                   zaxis=axis_spec("z = " + LIFTS[name][1]), aspectmode="cube",
                   camera=dict(eye=dict(x=1.5, y=-1.6, z=0.9))),
        uirevision=name, legend=layout["legend"] | dict(font=dict(size=14)))
    return style.figure_without_validation(traces, layout)


def preimage_figure(X, y, name: str, w, b, *, limit: float, height: int = 520,
                    grid: int = 161) -> go.Figure:
    """The data in the plane with the preimage {x : w·Φ(x) + b = 0} of the lifted plane.

    The curve is the zero level of g(x) = w₁x₁ + w₂x₂ + w₃ z(x) + b on a grid: a
    circle or ellipse for z = x₁² + x₂², a hyperbola for z = x₁x₂, a line for z = 1.
    Built as plain dicts, as :func:`lift_figure`. The predicted class on the grid is sent
    as bytes (0 or 1, uint8): the same cells and colours in an eighth of the JSON.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    traces = []
    if w is not None:
        axis = np.linspace(-limit, limit, grid)
        gx, gy = np.meshgrid(axis, axis)
        third, _ = LIFTS[name]
        values = w[0] * gx + w[1] * gy + w[2] * third(gx, gy) + b
        # predicted +1 where g > 0, -1 elsewhere (sign(0) = -1)
        traces.append(dict(
            type="heatmap", x=axis, y=axis, z=(values > 0).astype(np.uint8), zmin=0, zmax=1,
            showscale=False, colorscale=[[0, style.NEGATIVE_FILL], [1, style.POSITIVE_FILL]],
            hoverinfo="skip", showlegend=False))
        traces.append(dict(
            type="contour", x=axis, y=axis, z=values, showscale=False, hoverinfo="skip",
            contours=dict(start=0, end=0, size=1, coloring="none"),
            line=dict(color=style.HYPERPLANE, width=3),
            name="where the plane cuts: w·Φ(x) + b = 0", showlegend=True))
    for label, label_name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        traces.append(dict(type="scatter", x=X[members, 0], y=X[members, 1], mode="markers",
                           name=label_name, marker=style.class_marker(label)))
    layout = style.base_layout_spec(height=height)
    layout.update(
        xaxis=dict(range=[-limit, limit], title=dict(text="x₁"), constrain="domain"),
        yaxis=dict(range=[-limit, limit], title=dict(text="x₂"), scaleanchor="x",
                   scaleratio=1, constrain="domain"),
        margin=dict(l=70, r=10, t=10, b=60, autoexpand=False),
        legend=layout["legend"] | dict(font=dict(size=14)))
    return style.figure_without_validation(traces, layout)


# ---------------------------------------------------------------------------
# The monotone-conjunction kernel: explicit features against the kernel
# ---------------------------------------------------------------------------


def timing_figure(bits, explicit_seconds, kernel_seconds, *, height: int = 420) -> go.Figure:
    """Time for one Gram matrix: explicit 2ⁿ features against 2^|Ones| (log y axis).

    explicit_seconds may hold NaN where the explicit way was not run (over budget).
    Built as plain dicts, as :func:`lift_figure`.
    """
    bits = np.asarray(bits)
    explicit = np.asarray(explicit_seconds, dtype=float) * 1e3
    kernel = np.asarray(kernel_seconds, dtype=float) * 1e3
    traces = [
        dict(type="scatter", x=bits, y=explicit, mode="lines+markers",
             name="explicit Φ(a)·Φ(b) (2ᵈ features)", line=dict(color=style.NEGATIVE, width=3),
             marker=dict(symbol="square", size=9)),
        dict(type="scatter", x=bits, y=kernel, mode="lines+markers",
             name="kernel 2^|Ones(a, b)|", line=dict(color=style.POSITIVE, width=3),
             marker=dict(size=9)),
    ]
    layout = style.base_layout_spec(height=height)
    layout.update(xaxis=dict(title=dict(text="bits d"), dtick=2),
                  yaxis=dict(title=dict(text="milliseconds (log scale)"), type="log", dtick=1))
    return style.figure_without_validation(traces, layout)


# ---------------------------------------------------------------------------
# The page's menus and texts (pages/kernels.py shows them)
# ---------------------------------------------------------------------------

#: generated data sets: link value -> what they are
GENERATED = {"circles": "two circles", "xor": "XOR (four corners)", "blobs": "two blobs"}
#: every data source: link value -> what it is
DATA = GENERATED | {"upload": "your CSV file", "draw": "points you click on a chart"}
#: kernels on the menu: link value -> name
KERNEL_MENU = {"linear": "linear", "poly": "polynomial", "rbf": "RBF (Gaussian)"}
#: feature maps to 3-D on the menu: link value -> what they add
LIFT_MENU = {"auto": "z = x₁·x₂ for XOR, else z = x₁² + x₂²",
             "squared_norm": "z = x₁² + x₂²",
             "product": "z = x₁·x₂"}

# The page's texts are plain text with Unicode (bold upright w), not KaTeX: a Markdown element
# with math waits for KaTeX's 265 kB script before it paints, and SUMMARY is the largest thing
# the first view paints (issue 21). Italic emphasis is bold: italic costs a 138 kB font.
SUMMARY = (
    "The perceptron only ever adds examples to **w**: with αᵢ the number of updates example i "
    "caused, **w** = Σᵢ αᵢ yᵢ xᵢ, so every score **w** · x is a sum of inner products xᵢ · x. "
    "Replace each inner product by a kernel K(a, b) = Φ(a) · Φ(b) and the same algorithm runs "
    "on the features Φ(x), which may have many more coordinates than x, without ever writing "
    "Φ(x) down. A flat boundary there is a curved one here (unless K is linear, e.g. degree "
    "1). The rule becomes f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b, and a mistake on xᵢ adds 1 to αᵢ.")

PLAYER_TEXT = (
    "The colours show f(x) on the whole square, the black curve is f(x) = 0 (the "
    "boundary), and the light halo round each point grows with its αᵢ (up to a "
    "cap, so it never hides the data). The picture is drawn in your browser from the "
    "list of updates.")

DUAL_TEXT = (
    "The perceptron never needs **w** itself: **w** = Σᵢ αᵢ yᵢ xᵢ, so "
    "**w** · x = Σᵢ αᵢ yᵢ (xᵢ · x) (eq. 1). Storing the counts αᵢ instead of **w** is the "
    "**dual** perceptron. Below, the dual run with the linear kernel K(a, b) = a · b is "
    "checked against the ordinary (primal) run on the data above, with the same order and "
    "limit.")

CONJUNCTION_TEXT = (
    "For bit vectors a ∈ {0, 1}ᵈ let Φ(a) list the value of every monotone conjunction (an "
    "AND of some of the bits, the empty one being 1): 2ᵈ features. Φ(a) · Φ(b) counts the "
    "conjunctions true on both, and a conjunction is true on both exactly when all its bits "
    "are 1 in a and in b: any subset of Ones(a, b), the positions where both are 1. So "
    "K(a, b) = 2^|Ones(a, b)|, two to the number of such positions (Claim 2.1), computed in "
    "O(d) time instead of 2ᵈ.")

#: digits written as exponents (2³⁰) and as indices (x₁)
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

LEARN_TEXT = ("**Learn a target over d bits.** The label is a monotone conjunction or "
              "disjunction of the first bits; both are linear in Φ (a disjunction by "
              "inclusion–exclusion, e.g. x₁ ∨ x₂ = x₁ + x₂ − x₁∧x₂), so the kernel perceptron on the bits can learn either.")


def export_caption(max_updates: int) -> str:
    """The caption beside the offline player's download button."""
    return (f"A run stops after {max_updates:,} updates if it has not converged by "
            "then. The HTML file holds this run and the player (buttons, keys, Play): "
            "open it in any browser, with no server or internet.")


def data_label(name: str, n: int, data_seed: int, noise: float) -> str:
    """How generated data are named on the page and in the offline player's title."""
    flipped = f", {noise:.0%} of labels flipped" if noise else ""
    return f"{GENERATED[name]}, n = {n}, seed {data_seed}{flipped}"


#: the RBF scale at or below which the margin in feature space was quick to compute
#: (measured with kernel_margin on circles, XOR and blobs, n = 200 and 400, 0 and 30 %
#: flipped labels: at most 0.25 s of CPU at κ ≤ 0.5; from κ = 2 up, seconds to minutes
#: on noisy data, and over a second at κ = 50 even without noise)
QUICK_RBF_SCALE = 0.5


def slow_margin_text(n: int, seconds: float, generated: bool, kernel: str = "rbf") -> str:
    """Why no bound is shown when the margin in feature space needs too much work, and what
    makes it quicker: fewer points, less label noise and, for the RBF kernel only, a
    small κ (wider bumps; measured, see QUICK_RBF_SCALE; the polynomial kernel's κ
    hardly changes the time)."""
    quicker = ["fewer points (n)"] + (["less label noise"] if generated else [])
    if kernel == "rbf":
        quicker.append(f"a small κ (κ ≤ {QUICK_RBF_SCALE:g} was quick in our measurements; "
                       "a larger κ is slower)")
    fewer = ", ".join(quicker[:-1]) + " or " + quicker[-1] if len(quicker) > 1 else quicker[0]
    return (f"The margin in feature space for these {n} points needs more than about "
            f"{seconds:g} s of computing (counted from the steps of Wolfe's algorithm), more "
            f"than one request may use on this shared server, so no bound is "
            f"shown. Use {fewer} to see it.")


# ---------------------------------------------------------------------------
# The dual perceptron: the same mistakes as the primal one (eq. 1)
# ---------------------------------------------------------------------------

def dual_check(X, y, bias: bool, order: str, seed: int, max_updates: int) -> dict:
    """The linear-kernel run and ``run_perceptron`` on the same data, order and limits.

    Returns a dict: ``dual`` (KernelTrace), ``primal`` (Trace), ``w_dual`` = Σ αᵢ yᵢ xᵢ,
    shape (2,) (eq. 1), ``difference`` (:func:`runs_difference`: None when the runs
    agree) and ``same`` (they agree).
    """
    limits = dict(bias=bias, order=order, seed=seed, max_updates=max_updates, max_epochs=500)
    dual = kernel_perceptron(X, y, kernel="linear", **limits)
    primal = run_perceptron(X, y, **limits)
    difference = runs_difference(primal, dual, X, y)
    # w = Σ α_i y_i x_i (eq. 1) from the dual run, against the primal w
    return dict(dual=dual, primal=primal, same=difference is None, difference=difference,
                w_dual=(dual.alphas * np.asarray(y)) @ np.asarray(X, dtype=float))


def runs_difference(primal, dual, X, y) -> str | None:
    """Where the dual run departs from the primal one, in words, or None if they agree.

    They agree when they update on the same examples at the same steps and, up to
    rounding, record the same scores and end at the same w = Σ αᵢ yᵢ xᵢ. Both
    compute exactly defined numbers in floating point, in different orders, so a
    number may differ by its rounding error: :class:`ScoreRounding`'s slack (16 ulps
    of the sum of the sizes of the terms) for each of the two runs.
    """
    X = np.asarray(X, dtype=float)
    steps_p, steps_d = primal.update_steps, dual.update_steps
    ids_p, ids_d = primal.update_indices, dual.update_indices
    common = min(ids_p.size, ids_d.size)
    differs = np.flatnonzero((ids_p[:common] != ids_d[:common])
                             | (steps_p[:common] != steps_d[:common]))
    if differs.size or ids_p.size != ids_d.size:
        k = int(differs[0]) if differs.size else common
        said = [f"{name} run: " + (f"on example {int(ids[k]) + 1} at step {int(steps[k]):,}"
                                   if k < ids.size else "none (it stopped)")
                for name, ids, steps in (("primal", ids_p, steps_p), ("dual", ids_d, steps_d))]
        return f"update {k + 1:,} differs ({'; '.join(said)})."
    rounding = ScoreRounding(row_norms(X))
    for k, (index, b) in enumerate(zip(ids_p.tolist(), primal.biases[:-1].tolist())):
        slack = 2 * rounding.slack(b)  # each run may be off by its slack
        if abs(primal.update_scores[k] - dual.update_scores[k]) > slack:
            return (f"update {k + 1:,} has score {primal.update_scores[k]:.6g} in the primal "
                    f"run and {dual.update_scores[k]:.6g} in the dual one.")
        rounding.add(index)
    w_dual = (dual.alphas * np.asarray(y)) @ X
    if np.abs(w_dual - primal.weights[-1]).max(initial=0.0) > 2 * rounding.slack(0.0):
        return "the final w differs: Σ αᵢ yᵢ xᵢ is not the primal run's w."
    return None


def dual_verdict(check: dict) -> str:
    """Whether the two runs made the same updates, in words."""
    if check["same"]:
        return (f"Checked: both runs make the same {check['primal'].n_updates:,} updates, on "
                "the same examples at the same steps.")
    return f"The two runs differ: {check['difference']}"


def dual_metrics(check: dict, bias: bool) -> list[tuple[str, str]]:
    """(label, value) of the four numbers shown under the verdict."""
    primal, w_dual, n = check["primal"], check["w_dual"], len(check["dual"].alphas)
    return [("primal w (run_perceptron)",
             f"({primal.weights[-1][0]:.3f}, {primal.weights[-1][1]:.3f})".replace("-", "−")),
            ("dual Σ αᵢ yᵢ xᵢ", f"({w_dual[0]:.3f}, {w_dual[1]:.3f})".replace("-", "−")),
            ("b (both)" if bias else "b", f"{primal.biases[-1]:.0f}" if bias else "0 (off)"),
            ("examples with α > 0", f"{int(np.count_nonzero(check['dual'].alphas))} of {n}")]


def _why_stopped(trace) -> str:
    """The run's stop reason without the core's guess about the data (e.g. "no separator
    found after 2000 updates (limit of 2000 updates)")."""
    return trace.stop_reason.split(":", 1)[0]


def dual_limit_text(check: dict) -> str:
    """Why both runs stopped without separating the data: the primal run's own reason."""
    return ("With the linear kernel neither run separated these data; both stopped "
            f"({_why_stopped(check['primal'])}), making the same mistakes until then.")


# ---------------------------------------------------------------------------
# Lifting, as a section: the run in 3-D and what it says
# ---------------------------------------------------------------------------

def lift_name_for(choice: str, dataset: str) -> str:
    """The lift a menu choice means ("auto": the product for XOR, else the squared norm)."""
    if choice != "auto":
        return choice
    return "product" if dataset == "xor" else "squared_norm"


def lifted_run(X, y, lift_name: str, max_updates: int) -> tuple:
    """(best margin in the plane, best margin after the lift, the perceptron's run on the
    lifted points with a bias)."""
    Z = lift(X, lift_name)
    trace = run_perceptron(Z, y, bias=True, max_updates=max_updates, max_epochs=500)
    return max_margin(X, y), max_margin(Z, y), trace


def lift_texts(flat, lifted, trace, lift_name: str, generated: bool) -> dict:
    """What the lift section says: ``flat_separable`` and ``flat`` (the note on the data in
    the plane), ``text`` (what the lift found), and ``w``, ``b`` of the plane found in
    3-D (``w`` None when no plane separates the lifted points or the run stopped)."""
    third = LIFTS[lift_name][1]
    flat_text = (f"These data are separable by a line (best margin γ = {flat.margin:.3g}, "
                 "computed), so they do not need a lift; the lift still works."
                 if flat.separable else
                 "No line separates these data (computed: the largest margin any line reaches, "
                 "with a bias, is 0).")
    if lifted.separable and trace.converged:
        w3, b3 = np.asarray(trace.weights[-1]), float(trace.biases[-1])
        text = (f"With $\\Phi(x) = (x_1, x_2, {third})$ a plane separates the lifted points "
                f"(margin {lifted.margin:.3g} there). The perceptron, run on the three "
                f"coordinates, found $w = ({w3[0]:.2f}, {w3[1]:.2f}, {w3[2]:.2f})$, "
                f"$b = {b3:.0f}$ after {trace.n_updates} updates. The points of the plane where "
                f"$w_1x_1 + w_2x_2 + w_3\\,({third}) + b = 0$ form the curve on the right: "
                "the boundary it draws in the plane.")
    elif lifted.separable:  # separable, but the run reached its limit first
        w3, b3 = None, 0.0
        text = (f"With $\\Phi(x) = (x_1, x_2, {third})$ a plane separates the lifted points "
                f"(margin {lifted.margin:.3g} there, computed), but the perceptron had not "
                f"found one when it stopped ({_why_stopped(trace)}), so no plane is drawn.")
    else:
        w3, b3 = None, 0.0
        other = "try the other map, or less label noise" if generated else "try the other map"
        text = (f"With $\\Phi(x) = (x_1, x_2, {third})$ no plane separates the lifted points "
                f"either (computed), so no plane is drawn; {other}.")
    return dict(flat_separable=bool(flat.separable), flat=flat_text, text=text, w=w3, b=b3)


def bias_trick_data(seed: int, max_updates: int) -> tuple:
    """Two blobs on the same rays from the origin: a line separates them, not one through 0.

    Returns (X (40, 2), y (40,), margin through the origin, margin with a bias, the
    perceptron's run with a bias).
    """
    rng = np.random.default_rng(seed)
    angles = rng.uniform(np.pi / 8, 3 * np.pi / 8, 40)
    radii = np.where(np.arange(40) < 20, rng.uniform(0.25, 0.5, 40), rng.uniform(0.7, 1.0, 40))
    X = np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]
    y = np.where(np.arange(40) < 20, -1, 1)
    through_origin, free = max_margin(X, y, bias=False), max_margin(X, y, bias=True)
    trace = run_perceptron(X, y, bias=True, max_updates=max_updates)
    return X, y, through_origin, free, trace


def bias_trick_text(through_origin, free, trace) -> str:
    """The bias trick as a lift (x ↦ (x, 1)), and what these data show."""
    return (
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
        + (f" The perceptron with the padded 1 needed {trace.n_updates} updates."
           if trace.converged else " The perceptron with the padded 1 had not separated "
           f"them when it stopped ({_why_stopped(trace)})."))


# ---------------------------------------------------------------------------
# The monotone-conjunction kernel (Claim 2.1)
# ---------------------------------------------------------------------------

def parse_bits(text: str, length: int):
    """The bits of ``text`` as an int array of shape (length,), or None if it is not
    ``length`` characters 0 or 1."""
    text = text.strip()
    if len(text) == length and set(text) <= {"0", "1"}:
        return np.array([int(c) for c in text])
    return None


def conjunction_by_hand(a_bits, b_bits) -> tuple:
    """Φ(a), Φ(b) and their products written out (Claim 2.1) for 3 bits.

    Returns (rows (3, 8) of int, row names, column names (the conjunctions), the
    sentence that checks Φ(a)·Φ(b) = 2^|Ones(a, b)|).
    """
    features = monotone_conjunction_features(np.vstack([a_bits, b_bits]))
    names = ["1" if s == 0 else "∧".join(f"x{j + 1}" for j in range(3) if s >> j & 1)
             for s in range(8)]
    rows = np.vstack([features, features[0] * features[1]]).astype(int)
    ones = int(a_bits @ b_bits)
    kernel_value = float(monotone_conjunction_kernel(a_bits[None], b_bits[None])[0, 0])
    text = (f"Φ(a)·Φ(b) = {int(features[0] @ features[1])} (the sum of the last row) and "
            f"|Ones(a, b)| = {ones}, so $K(a, b) = 2^{{{ones}}} = {kernel_value:.0f}$.")
    return rows, ["Φ(a)", "Φ(b)", "Φ(a)·Φ(b) term"], names, text


def _best_of_three(function) -> tuple[float, float]:
    """(fastest, total) seconds of three calls."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times), sum(times)


def conjunction_timing(rows: int = 24, budget: float = 1.5) -> tuple[list, list, list]:
    """Seconds for one rows x rows Gram matrix, explicit (2ⁿ features) against the kernel.

    Best of three per n = 2..20; the explicit way stops once one n took more than a
    fifth of the budget (its time doubles with every bit). Returns (bits, explicit
    seconds (nan where not run), kernel seconds).
    """
    rng = np.random.default_rng(0)
    bits, explicit, kernel_times = [], [], []
    spent, explicit_on = 0.0, True
    for size in range(2, 21):
        A = rng.integers(0, 2, size=(rows, size)).astype(float)
        seconds, total = _best_of_three(lambda: monotone_conjunction_kernel(A, A))
        spent += total
        slow = np.nan
        if explicit_on and size <= 16:
            def explicit_gram():
                features = monotone_conjunction_features(A)
                return features @ features.T
            slow, total = _best_of_three(explicit_gram)
            spent += total
            explicit_on = slow < budget / 5 and spent < budget
        bits.append(size)
        explicit.append(slow)
        kernel_times.append(seconds)
    return bits, explicit, kernel_times


def timing_caption(bits, explicit) -> str:
    """What the timing chart measured, and up to which n the explicit way ran."""
    measured = [b for b, e in zip(bits, explicit) if np.isfinite(e)]
    return (f"Time for the Gram matrix (every value K(a, b)) of 24 random bit vectors (best of 3, measured on this "
            f"server when the page first ran). The explicit way writes out 2ᵈ features and was "
            f"run up to d = {measured[-1]}; each extra bit doubles the number of features it "
            "writes. The kernel needs one inner product of the bits per pair, O(d).")


def learn_target(kind: str, size: int, bits: int, m: int, seed: int, max_updates: int):
    """The kernel perceptron (K(a,b) = 2^|Ones(a,b)|, no bias) on m random examples of a
    monotone conjunction or disjunction of the first ``size`` of ``bits`` bits.

    Returns (trace, accuracy on 2,000 fresh examples, share of positive training labels).
    """
    rng = np.random.default_rng(seed)
    # each bit is 1 with probability 2^(-1/r): a conjunction of r bits is true about half the time
    p_one = 0.5 ** (1 / size) if kind == "conjunction" else 1 - 0.5 ** (1 / size)
    A = (rng.random((m + 2000, bits)) < p_one).astype(float)
    target = A[:, :size].min(axis=1) if kind == "conjunction" else A[:, :size].max(axis=1)
    labels = np.where(target > 0, 1, -1)
    train_A, train_y = A[:m], labels[:m]
    trace = kernel_perceptron(train_A, train_y, kernel="monotone_conjunction", bias=False,
                              max_updates=max_updates, max_epochs=500)
    test = np.where(trace.decision_function(A[m:]) > 0, 1, -1)
    return trace, float(np.mean(test == labels[m:])), float(np.mean(train_y > 0))


def learn_target_texts(kind: str, size: int, bits: int, m: int, learnt, test_accuracy: float,
                       positive_share: float) -> tuple[str, str | None]:
    """What the run on a conjunction or disjunction did, and (or None) why it fits the
    training examples but not fresh ones."""
    joiner = " ∧ " if kind == "conjunction" else " ∨ "
    formula = joiner.join(f"x{str(j + 1).translate(SUBSCRIPT)}" for j in range(size))
    state = ("converged: every training example is classified correctly"
             if learnt.converged else f"stopped at its limit ({learnt.stop_reason})")
    text = (
        f"Target {formula} over d = {bits} bits ({positive_share:.0%} of the "
        f"training examples positive). The kernel perceptron with K(a, b) = 2^|Ones(a, b)| "
        f"works in a space of 2{str(bits).translate(SUPERSCRIPT)} features without writing one "
        "down. It made "
        f"**{learnt.n_updates} mistakes** on {m} examples in {learnt.epochs} "
        f"epoch{'s' if learnt.epochs != 1 else ''} and {state}; on 2,000 fresh examples it "
        f"predicts {test_accuracy:.1%} correctly.")
    overfit = None
    if learnt.converged and test_accuracy < 0.75:
        overfit = ("It fits every training example but predicts fresh ones poorly: with "
                   f"2{str(bits).translate(SUPERSCRIPT)} features many weight vectors fit {m} "
                   "examples, and the "
                   "perceptron found one that is not the target. The kernel saves time, not "
                   "examples.")
    return text, overfit
