"""/relaxation: what the player and the charts show for Algorithm 1.37 (Remark 1.38).

Arrays in, JSON-ready dicts or Plotly figures out. The system is A^T w <= c in two
unknowns, A of shape (2, n) with one column a_i per inequality (the notes' convention).
"""

from __future__ import annotations

import csv
import io

import numpy as np
import plotly.graph_objects as go

from ..relaxation import INDEX_RULE_LABELS, INDEX_RULES, plane_system, relaxation
from . import style

#: name -> (rows (a_1, a_2, c) of a_i·w <= c_i, what the preset shows)
PRESETS = {
    "wide polygon": (
        [[-1.0, 0.0, -0.5], [0.0, -1.0, -0.3], [1.0, 0.0, 2.5], [0.0, 1.0, 2.0],
         [1.0, 1.0, 3.5]],
        "five half-planes around a large pentagon; every rule gets in within a few steps"),
    "thin sliver": (
        [[0.15, -1.0, -1.0], [-0.25, 1.0, 1.0], [1.0, 0.0, 3.0]],
        "two boundary lines that meet at a small angle: a narrow wedge, so projections "
        "zigzag towards its tip"),
    "infeasible": (
        [[-1.0, 0.0, -1.0], [0.0, -1.0, -1.0], [1.0, 1.0, 1.0]],
        "x₁ ≥ 1, x₂ ≥ 1 and x₁ + x₂ ≤ 1: no point satisfies all three"),
}

#: relaxation parameters of the sweep (0 is excluded, 2 included)
SWEEP_ETAS = tuple(float(v) for v in np.round(np.linspace(0.1, 2.0, 20), 3))
#: rule -> colour in the sweep chart
RULE_COLOURS = dict(zip(INDEX_RULES, [style.POSITIVE, style.NEGATIVE, style.WEIGHT, style.STEP,
                                      style.PLANTED, style.BOUND]))


def rows_to_system(rows) -> tuple[np.ndarray, np.ndarray]:
    """Rows (a_1, a_2, c) -> A of shape (2, n) (one column per row) and c of shape (n,)."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 3)
    return rows[:, :2].T.copy(), rows[:, 2].copy()


def clip_polygon(A, c, limit: float) -> list[list[float]]:
    """The feasible set cut to the square [-limit, limit]^2, as a polygon (may be empty).

    Sutherland–Hodgman: cut the square by each half-plane a_i·w <= c_i in turn.
    """
    polygon = [np.array(p, dtype=float) for p in
               ([-limit, -limit], [limit, -limit], [limit, limit], [-limit, limit])]
    for a, bound in zip(np.asarray(A).T, c):
        out = []
        for k, p in enumerate(polygon):
            q = polygon[(k + 1) % len(polygon)]
            vp, vq = float(a @ p - bound), float(a @ q - bound)
            if vp <= 0:
                out.append(p)
            if (vp <= 0) != (vq <= 0):
                out.append(p + vp / (vp - vq) * (q - p))  # the crossing of the boundary
        polygon = out
        if len(polygon) < 3:
            return []
    return [[float(v) for v in p] for p in polygon]


def view_limit(A, c, points) -> float:
    """Half-width of a square view that shows the corners of the system, the crossings of
    its boundary lines and the points given (at most 4 times the system's own size)."""
    A, c = np.asarray(A, float), np.asarray(c, float)
    marks = [np.zeros(2)]
    for i in range(A.shape[1]):
        for j in range(i + 1, A.shape[1]):
            M = np.array([A[:, i], A[:, j]])
            if abs(np.linalg.det(M)) > 1e-9:
                marks.append(np.linalg.solve(M, c[[i, j]]))
    for i in range(A.shape[1]):  # the nearest point of each boundary line to the origin
        a = A[:, i]
        marks.append(c[i] / float(a @ a) * a)
    size = max(1.0, float(np.abs(np.array(marks)).max()))
    reach = float(np.abs(np.asarray(points, float)).max()) if len(points) else 0.0
    return round(1.2 * min(max(size, reach), 4 * size), 3)


def violations(A, c, iterates) -> np.ndarray:
    """Largest violation max_i (a_i·w - c_i)^+ at each iterate, shape (T+1,)."""
    return np.maximum((np.asarray(iterates) @ np.asarray(A)) - np.asarray(c), 0.0).max(axis=1)


def projections(A, c, trace) -> np.ndarray:
    """P_i(w_{t-1}) for the index chosen at every iteration t, shape (T, 2)."""
    A = np.asarray(A, float)
    a = A[:, trace.indices].T  # (T, 2): a_{I_t}
    w = trace.iterates[:-1]
    excess = np.maximum(trace.residuals, 0.0)
    # tol > 0: a step below the tolerance does not move, so its "projection" is w itself
    excess = np.where(trace.moved, excess, 0.0)
    return w - (excess / np.einsum("ij,ij->i", a, a))[:, None] * a


def player_payload(A, c, trace, *, player: dict, labels=None) -> dict:
    """Everything /relaxation's scene draws, JSON-ready.

    Parameters
    ----------
    A : ndarray of shape (2, n), c : ndarray of shape (n,), the system A^T w <= c
    trace : RelaxationTrace of that system
    player : dict from ``player_spec`` (one examined step per iteration; an
        "update" is an iteration that moved w)
    labels : optional list of n names of the inequalities (default "1".."n")
    """
    A, c = np.asarray(A, float), np.asarray(c, float)
    system = plane_system(A, c)
    limit = view_limit(A, c, trace.iterates)
    n = A.shape[1]
    return {
        "A": A.T.tolist(), "c": c.tolist(),
        "labels": list(labels) if labels is not None else [str(i + 1) for i in range(n)],
        "eta": float(trace.eta), "rule": trace.rule, "rule_label": INDEX_RULE_LABELS[trace.rule],
        "tau": int(trace.tau), "tol": float(trace.tol), "limit": limit,
        "iterates": trace.iterates.tolist(), "indices": trace.indices.tolist(),
        "residuals": trace.residuals.tolist(), "moved": [int(m) for m in trace.moved],
        "projections": projections(A, c, trace).tolist(),
        "violation": violations(A, c, trace.iterates).tolist(),
        "n_iter": int(trace.n_iter), "feasible": bool(trace.feasible),
        "stop_reason": trace.stop_reason,
        "system": {"feasible": system.feasible, "reason": system.reason,
                   "vertices": system.vertices.tolist()},
        "polygon": clip_polygon(A, c, limit),
        "player": player,
    }


# ---------------------------------------------------------------------------
# The sweep: iterations to feasibility against eta, one line per index rule
# ---------------------------------------------------------------------------


def eta_sweep(A, c, *, etas=SWEEP_ETAS, rules=tuple(INDEX_RULES), w0=None, seed=None,
              tol=1e-3, max_iter=1_000, tau=None) -> list[dict]:
    """One run per (rule, eta): rows {rule, eta, iterations, moves, feasible}.

    ``iterations`` is the run's n_iter when it reached feasibility (every
    a_i·w <= c_i + tol), else None (not within max_iter).
    """
    rows = []
    for rule in rules:
        for eta in etas:
            trace = relaxation(A, c, eta=eta, rule=rule, w0=w0, seed=seed, tol=tol,
                               max_iter=max_iter, tau=tau)
            rows.append({"rule": rule, "eta": float(eta),
                         "iterations": int(trace.n_iter) if trace.feasible else None,
                         "moves": int(trace.n_moves), "feasible": bool(trace.feasible)})
    return rows


def sweep_csv(rows) -> str:
    """The sweep as CSV: rule, eta, iterations (empty when not reached), moves, feasible."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rule", "eta", "iterations_to_feasible", "moves", "feasible"])
    for row in rows:
        writer.writerow([row["rule"], f"{row['eta']:g}",
                         "" if row["iterations"] is None else row["iterations"],
                         row["moves"], str(row["feasible"]).lower()])
    return out.getvalue()


def sweep_figure(rows, max_iter: int, *, height: int = 480) -> go.Figure:
    """Iterations to feasibility against eta (log axis); runs that did not get there
    within max_iter are drawn as crosses on a dashed line at max_iter."""
    fig = go.Figure()
    fig.add_hline(y=max_iter, line=dict(color=style.GHOST, dash="dash"),
                  annotation_text=f"limit {max_iter:,}: not reached", annotation_position="top left")
    for rule in dict.fromkeys(row["rule"] for row in rows):
        mine = [row for row in rows if row["rule"] == rule]
        colour = RULE_COLOURS.get(rule, style.GHOST)
        fig.add_trace(go.Scatter(
            x=[r["eta"] for r in mine], y=[r["iterations"] for r in mine], mode="lines+markers",
            name=INDEX_RULE_LABELS[rule], line=dict(color=colour, width=3), connectgaps=False,
            hovertemplate="η = %{x}<br>%{y} iterations<extra>" + rule + "</extra>"))
        missed = [r for r in mine if r["iterations"] is None]
        if missed:
            fig.add_trace(go.Scatter(
                x=[r["eta"] for r in missed], y=[max_iter] * len(missed), mode="markers",
                marker=dict(symbol="x", size=10, color=colour), showlegend=False,
                hovertemplate="η = %{x}: not feasible within the limit<extra>" + rule + "</extra>"))
    style.base_layout(fig, height=height)
    fig.update_xaxes(title="relaxation parameter η", range=[0, 2.05])
    fig.update_yaxes(title="iterations to feasibility", type="log", dtick=1)
    # the legend under the plot (fixed margin): the lines fill the whole plot area
    fig.update_layout(margin=dict(b=150), legend=dict(orientation="h", x=0, xanchor="left",
                                                      y=-0.22, yanchor="top", font=dict(size=14)))
    return fig


# ---------------------------------------------------------------------------
# The perceptron as a special case (Exercise 1.22)
# ---------------------------------------------------------------------------


def perceptron_figure(A, c, perceptron_weights, relaxation_iterates, *, eta: float,
                      height: int = 560) -> go.Figure:
    """Both paths in the (w_1, w_2) plane over the solution cone {w : A^T w <= c}."""
    P = np.asarray(perceptron_weights, float)
    R = np.asarray(relaxation_iterates, float)
    limit = 1.15 * max(1.0, float(np.abs(P).max()), float(np.abs(R).max()))
    fig = go.Figure()
    polygon = clip_polygon(A, c, limit)
    if polygon:
        xs, ys = zip(*(polygon + polygon[:1]))
        fig.add_trace(go.Scatter(x=xs, y=ys, fill="toself", mode="lines",
                                 line=dict(color=style.WEIGHT, width=1),
                                 fillcolor="rgba(0, 158, 115, 0.15)",
                                 name="solutions: y_i w·x_i ≥ δ for all i", hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=P[:, 0], y=P[:, 1], mode="lines+markers", name="perceptron",
                             line=dict(color=style.NEGATIVE, width=3),
                             marker=dict(symbol="square", size=8)))
    fig.add_trace(go.Scatter(x=R[:, 0], y=R[:, 1], mode="lines+markers",
                             name=f"relaxation, η = {eta:g}", line=dict(color=style.POSITIVE,
                                                                        width=3, dash="dot"),
                             marker=dict(size=8)))
    style.base_layout(fig, height=height)
    fig.update_layout(margin=dict(b=130), legend=dict(orientation="h", x=0, xanchor="left",
                                                      y=-0.16, yanchor="top", font=dict(size=14)))
    fig.update_xaxes(title="w₁", range=[-limit, limit], zeroline=True)
    fig.update_yaxes(title="w₂", range=[-limit, limit], scaleanchor="x", zeroline=True)
    return fig
