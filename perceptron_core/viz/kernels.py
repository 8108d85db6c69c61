"""Pictures of the /kernels page: the kernel player's payload, the lift to 3-D, the timing chart.

Arrays in, JSON-ready data (or a Plotly figure) out; never streamlit. The player
(``pages/player.js`` with ``pages/kernels_scene.js``) evaluates the decision
function f(x) = sum_i alpha_i y_i K(x_i, x) + b (eq. 2 of
notes-perceptron-kernels-columbia.txt) on a grid in the browser from the
update list, so the payload grows with the number of updates (one index each),
not with updates x grid cells.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..kernels import KERNEL_FORMULAS, KERNELS, KernelMarginResult, KernelTrace
from . import style

#: grid cells per side on which the browser evaluates f (GRID x GRID points)
GRID = 72


def gram_matrix(trace: KernelTrace) -> np.ndarray:
    """K(x_i, x_j) of the run's kernel on its training examples, shape (n, n)."""
    return KERNELS[trace.kernel](trace.X, trace.X, degree=trace.degree, coef0=trace.coef0,
                                 gamma=trace.gamma)


def _number(value: float) -> str:
    """A bound or count as a person writes it: 1,234 or 0.53."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.3g}"


def kernel_text(trace: KernelTrace) -> str:
    """The kernel with its parameters, in words (e.g. K(a, b) = exp(-γ ‖a - b‖²), γ = 2)."""
    formula = KERNEL_FORMULAS[trace.kernel]
    if trace.kernel == "poly":
        return f"{formula} with degree {trace.degree}, c = {trace.coef0:g}, γ = {trace.gamma:g}"
    if trace.kernel == "rbf":
        return f"{formula} with γ = {trace.gamma:g}"
    return formula


def training_accuracy(trace: KernelTrace) -> tuple[np.ndarray, np.ndarray]:
    """Share of training examples with sign f(x) = y, and how many have y f(x) <= 0.

    Returns two arrays of shape (n_updates + 1,), after 0, 1, ..., M updates
    (sign(0) = -1, so f(x) = 0 predicts -1).
    """
    values = trace.decision_path(trace.X)                      # (M+1, n): f(x_j) after k updates
    predictions = np.where(values > 0, 1, -1)
    accuracy = np.mean(predictions == trace.y[None, :], axis=1)
    wrong_side = np.sum(trace.y[None, :] * values <= 0, axis=1)
    return accuracy, wrong_side


def feature_norms_sq(trace: KernelTrace) -> np.ndarray:
    """‖w_k‖² in feature space after k = 0..M updates, from the Gram matrix alone.

    An update on example i adds a_i = y_i (Phi(x_i), 1) to w, so
    ‖w + a_i‖² = ‖w‖² + 2 y_i f(x_i) + K~(x_i, x_i), where y_i f(x_i) is the
    score just before the update and K~ = K (+ 1 with a bias): the proof's
    second quantity (Theorem 1.28), in the feature space.
    """
    ids = trace.update_indices
    if ids.size == 0:
        return np.zeros(1)
    diagonal = np.diag(gram_matrix(trace))[ids] + (1.0 if trace.bias else 0.0)
    return np.concatenate([[0.0], np.cumsum(2.0 * trace.update_scores + diagonal)])


def feature_alignment(trace: KernelTrace, margin: KernelMarginResult) -> np.ndarray:
    """⟨w_k, u⟩ after k = 0..M updates, u the unit max-margin direction in feature space.

    u = p / ‖p‖ with p = sum_s lambda_s a_s the nearest point of kernel_margin;
    ⟨a_j, p⟩ = y_j sum_s lambda_s y_s K~(x_j, x_s), so each update on i adds
    ⟨a_i, u⟩ >= gamma_Phi (the proof's first quantity, Theorem 1.28).
    """
    X, y = trace.X, trace.y.astype(float)
    support, weights = margin.support, margin.support_weights
    gram = gram_matrix(trace)[:, support] + (1.0 if trace.bias else 0.0)  # (n, |S|)
    products = y * (gram @ (weights * y[support]))                  # <a_j, p> for every j
    norm = float(np.sqrt(max(float(weights @ products[support]), 0.0)))
    along = products / norm                                          # <a_j, u>
    return np.concatenate([[0.0], np.cumsum(along[trace.update_indices])])


def _end_text(trace: KernelTrace, margin: KernelMarginResult | None) -> str:
    if trace.converged:
        text = (f"Converged after {trace.n_updates:,} updates in {trace.epochs} epoch"
                f"{'s' if trace.epochs != 1 else ''}: every training example has y f(x) > 0.")
        if margin is not None and margin.separable:
            text += (f" The bound (R_Φ/γ_Φ)² = {_number(margin.bound)} allowed "
                     f"{_number(margin.bound)}; {trace.n_updates:,} were needed.")
        return text
    text = f"Stopped without converging: {trace.stop_reason.split(' (', 1)[0]}"
    text += f" ({trace.stop_reason.split(' (', 1)[1].split(')')[0]})." if " (" in \
        trace.stop_reason else "."
    if margin is not None and margin.separable:
        text += (f" The data are separable in this feature space, but the bound "
                 f"(R_Φ/γ_Φ)² = {_number(margin.bound)} is beyond the run's limit.")
    elif margin is not None:
        text += " The data are not separable in this feature space: no mistake bound applies."
    return text


def _facts(trace: KernelTrace, margin: KernelMarginResult | None) -> str:
    text = f"Kernel {kernel_text(trace)}" + ("; bias b learnt (K + 1)." if trace.bias
                                              else "; no bias.")
    if margin is None:
        return text + " The margin in feature space was not computed (too many examples)."
    if margin.separable:
        return (text + f" In feature space R_Φ = {margin.radius:.4g} (the longest "
                f"{'(Φ(x), 1)' if trace.bias else 'Φ(x)'}) and the best margin γ_Φ = "
                f"{margin.margin:.4g}, so Theorem 1.28 allows at most (R_Φ/γ_Φ)² = "
                f"{_number(margin.bound)} updates.")
    return (text + f" In feature space R_Φ = {margin.radius:.4g}, but no hyperplane through "
            "the origin separates the lifted examples (γ_Φ = 0): no mistake bound holds and "
            "the perceptron may never stop.")


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
    accuracy, wrong_side = training_accuracy(trace)
    steps = np.arange(1, trace.n_examined + 1)
    cyclic = trace.order == "cyclic"
    examined = encode_indices(trace.indices_at_steps(steps) if steps.size and not cyclic
                              else [], len(y), cyclic=cyclic)
    separable = margin is not None and margin.separable
    norm_sq = feature_norms_sq(trace)
    return {
        "player": player,
        "X": X.tolist(), "y": y.tolist(), "limit": float(limit), "grid": int(grid),
        "kernel": {"name": trace.kernel, "degree": int(trace.degree),
                   "coef0": float(trace.coef0), "gamma": float(trace.gamma),
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
                    "alignment": feature_alignment(trace, margin).tolist() if separable
                    else None},
        "converged": bool(trace.converged),
        "bound": None if not separable else {
            "radius": float(margin.radius), "margin": float(margin.margin),
            "value": float(margin.bound), "value_text": _number(margin.bound)},
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


def _class_traces_3d(Z, y):
    traces = []
    for label, name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        marker = style.class_marker(label)
        traces.append(go.Scatter3d(
            x=Z[members, 0], y=Z[members, 1], z=Z[members, 2], mode="markers", name=name,
            marker=dict(color=marker["color"], size=4,
                        symbol="circle" if label > 0 else "square")))
    return traces


def lift_figure(X, y, name: str, w, b, *, limit: float, height: int = 520,
                through_origin: bool = False) -> go.Figure:
    """The lifted points in 3-D and the plane w·Φ + b = 0 found there.

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
    fig = go.Figure(_class_traces_3d(Z, y))
    if w is not None and abs(w[2]) > 1e-12:
        axis = np.linspace(-limit, limit, 25)
        gx, gy = np.meshgrid(axis, axis)
        gz = -(w[0] * gx + w[1] * gy + b) / w[2]
        span = (float(Z[:, 2].min()), float(Z[:, 2].max()))
        if through_origin:
            span = (min(span[0], 0.0), max(span[1], 0.0))
        pad = 0.3 * max(span[1] - span[0], 0.5)
        gz = np.where((gz >= span[0] - pad) & (gz <= span[1] + pad), gz, np.nan)
        fig.add_trace(go.Surface(x=gx, y=gy, z=gz, showscale=False, opacity=0.45,
                                 colorscale=[[0, style.WEIGHT], [1, style.WEIGHT]],
                                 name="separating plane", showlegend=True, hoverinfo="skip"))
    if through_origin:
        fig.add_trace(go.Scatter3d(x=[0], y=[0], z=[0], mode="markers", name="origin",
                                   marker=dict(color=style.HYPERPLANE, size=6,
                                               symbol="diamond")))
    style.base_layout(fig, height=height)
    fig.update_layout(margin=dict(l=0, r=0, t=10, b=0, autoexpand=False),
                      scene=dict(xaxis=dict(title=dict(text="x₁", font_size=14),
                                            tickfont_size=11),
                                 yaxis=dict(title=dict(text="x₂", font_size=14),
                                            tickfont_size=11),
                                 zaxis=dict(title=dict(text="z = " + LIFTS[name][1],
                                                       font_size=14), tickfont_size=11),
                                 aspectmode="cube",
                                 camera=dict(eye=dict(x=1.5, y=-1.6, z=0.9))),
                      uirevision=name, legend=dict(font=dict(size=14)))
    return fig


def preimage_figure(X, y, name: str, w, b, *, limit: float, height: int = 520,
                    grid: int = 161) -> go.Figure:
    """The data in the plane with the preimage {x : w·Φ(x) + b = 0} of the lifted plane.

    The curve is the zero level of g(x) = w₁x₁ + w₂x₂ + w₃ z(x) + b on a grid: a
    circle or ellipse for z = x₁² + x₂², a hyperbola for z = x₁x₂, a line for z = 1.
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
        traces.append(go.Heatmap(
            x=axis, y=axis, z=(values > 0).astype(float), zmin=0, zmax=1, showscale=False,
            colorscale=[[0, style.NEGATIVE_FILL], [1, style.POSITIVE_FILL]], hoverinfo="skip",
            showlegend=False))
        traces.append(go.Contour(
            x=axis, y=axis, z=values, showscale=False, hoverinfo="skip",
            contours=dict(start=0, end=0, size=1, coloring="none"),
            line=dict(color=style.HYPERPLANE, width=3), name="preimage of the plane",
            showlegend=True))
    for label, label_name in ((1, "class +1"), (-1, "class −1")):
        members = y == label
        traces.append(go.Scatter(x=X[members, 0], y=X[members, 1], mode="markers",
                                 name=label_name, marker=style.class_marker(label)))
    fig = go.Figure(traces)
    style.base_layout(fig, height=height)
    fig.update_xaxes(range=[-limit, limit], title_text="x₁", constrain="domain")
    fig.update_yaxes(range=[-limit, limit], title_text="x₂", scaleanchor="x", scaleratio=1,
                     constrain="domain")
    fig.update_layout(margin=dict(l=70, r=10, t=10, b=60, autoexpand=False),
                      legend=dict(font=dict(size=14)))
    return fig


# ---------------------------------------------------------------------------
# The monotone-conjunction kernel: explicit features against the kernel
# ---------------------------------------------------------------------------


def timing_figure(bits, explicit_seconds, kernel_seconds, *, height: int = 420) -> go.Figure:
    """Time for one Gram matrix: explicit 2ⁿ features against 2^|Ones| (log y axis).

    explicit_seconds may hold NaN where the explicit way was not run (over budget).
    """
    bits = np.asarray(bits)
    explicit = np.asarray(explicit_seconds, dtype=float) * 1e3
    kernel = np.asarray(kernel_seconds, dtype=float) * 1e3
    fig = go.Figure([
        go.Scatter(x=bits, y=explicit, mode="lines+markers", name="explicit Φ(a)·Φ(b) (2ⁿ "
                   "features)", line=dict(color=style.NEGATIVE, width=3),
                   marker=dict(symbol="square", size=9)),
        go.Scatter(x=bits, y=kernel, mode="lines+markers", name="kernel 2^|Ones(a, b)|",
                   line=dict(color=style.POSITIVE, width=3), marker=dict(size=9)),
    ])
    style.base_layout(fig, height=height)
    fig.update_xaxes(title_text="bits n", dtick=2)
    fig.update_yaxes(title_text="milliseconds (log scale)", type="log", dtick=1)
    return fig
