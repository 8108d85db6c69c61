"""/multiclass: one-vs-all and one-vs-one (Remark 1.36) drawn over the plane.

Arrays in, plain dicts or Plotly figures out. The plane is a square grid
[-limit, limit]^2 of ``resolution`` points a side; every region, share and count
below is computed on that grid (it is what the page draws).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from . import style

#: k colours (Okabe-Ito) and marker shapes: classes differ by both
CLASS_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
CLASS_SYMBOLS = ["circle", "square", "diamond", "triangle-up", "cross", "star"]
TIE_COLOUR = "#000000"


def _fill(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def grid(limit: float, resolution: int = 161) -> tuple[np.ndarray, np.ndarray]:
    """Axis values (resolution,) and the grid points (resolution², 2), x varying fastest."""
    axis = np.linspace(-limit, limit, resolution)
    xx, yy = np.meshgrid(axis, axis)
    return axis, np.column_stack([xx.ravel(), yy.ravel()])


def axis_limit(X) -> float:
    """Half-width of the square view: the data plus a tenth."""
    return round(1.1 * max(1.0, float(np.abs(np.asarray(X)).max())), 3)


def regions(ova, ovo, limit: float, resolution: int = 161) -> dict:
    """What both schemes predict on the grid, as class positions 0..k-1.

    Returns a dict with ``axis`` (resolution,), ``ova`` and ``ovo`` (resolution,
    resolution) winners, ``ova_tie`` / ``ovo_tie`` masks (shared maximum / shared
    top vote), ``disagree`` mask, and per class j: ``ova_share[j]`` /
    ``ovo_share[j]`` the share of the square where j wins (ties included, as the
    predict method breaks them).
    """
    axis, points = grid(limit, resolution)
    shape = (resolution, resolution)
    k = ova.classes.shape[0]
    codes = {label: j for j, label in enumerate(ova.classes.tolist())}
    ova_label, ova_tie = ova.predict_with_ties(points)
    ovo_label, ovo_tie = ovo.predict_with_ties(points)
    ova_code = np.array([codes[v] for v in ova_label.tolist()])
    ovo_code = np.array([codes[v] for v in ovo_label.tolist()])
    return {
        "axis": axis,
        "ova": ova_code.reshape(shape), "ovo": ovo_code.reshape(shape),
        "ova_tie": ova_tie.reshape(shape), "ovo_tie": ovo_tie.reshape(shape),
        "disagree": (ova_code != ovo_code).reshape(shape),
        "ova_share": np.bincount(ova_code, minlength=k) / ova_code.size,
        "ovo_share": np.bincount(ovo_code, minlength=k) / ovo_code.size,
    }


def summary(X, labels, ova, ovo, region: dict) -> dict:
    """Side-by-side numbers of the two schemes (training accuracy, perceptrons, updates,
    converged binary problems, ties among the training points, disagreement share)."""
    labels = np.asarray(labels)
    out = {}
    for name, model, tie_key in (("one-vs-all", ova, "ova_tie"), ("one-vs-one", ovo, "ovo_tie")):
        predicted, ties = model.predict_with_ties(X)
        out[name] = {
            "accuracy": float(np.mean(predicted == labels)),
            "perceptrons": model.n_perceptrons, "updates": model.total_updates,
            "converged": int(model.converged.sum()),
            "training_ties": int(ties.sum()),
            "tie_share": float(region[tie_key].mean()),
        }
    out["disagree_share"] = float(region["disagree"].mean())
    out["disagree_training"] = int(np.sum(ova.predict(X) != ovo.predict(X)))
    return out


def winner_notes(ova, region: dict) -> list[str]:
    """Sentences about one-vs-all classes that win nowhere or everywhere in the view, or
    whose binary problem was not separated (with the share of the square they win)."""
    notes = []
    for j, label in enumerate(ova.classes.tolist()):
        share = float(region["ova_share"][j])
        separated = bool(ova.converged[j])
        where = ("wins nowhere in the square drawn" if share == 0 else
                 "wins everywhere in the square drawn" if share == 1 else
                 f"wins {share:.1%} of the square drawn" if share >= 0.0005 else
                 "wins less than 0.1% of the square drawn")
        if not separated:
            notes.append(f"class {label} against the rest was not separated (its run stopped "
                         f"at the epoch limit) and {where}")
        elif share in (0.0, 1.0):
            notes.append(f"class {label} {where}, although its binary problem was separated")
    return notes


def _points(fig, X, labels, classes, visible=True):
    for j, label in enumerate(classes.tolist()):
        rows = np.asarray(labels) == label
        fig.add_trace(go.Scatter(
            x=X[rows, 0], y=X[rows, 1], mode="markers", name=f"class {label}",
            marker=dict(color=CLASS_COLOURS[j % 6], symbol=CLASS_SYMBOLS[j % 6], size=10,
                        line=dict(color="white", width=1)), visible=visible))


def _regions_trace(winner, axis, k, name):
    """A heatmap of winner positions, one pale colour per class."""
    scale = []
    for j in range(k):
        low, high = j / k, (j + 1) / k
        scale += [[low, _fill(CLASS_COLOURS[j], 0.22)], [high, _fill(CLASS_COLOURS[j], 0.22)]]
    return go.Heatmap(x=axis, y=axis, z=winner + 0.5, zmin=0, zmax=k, colorscale=scale,
                      showscale=False, hoverinfo="skip", name=name)


def _mask_trace(mask, axis, colour, name):
    z = np.where(mask, 1.0, np.nan)
    return go.Heatmap(x=axis, y=axis, z=z, zmin=0, zmax=1, showscale=False, hoverinfo="skip",
                      colorscale=[[0, colour], [1, colour]], name=name, showlegend=True)


def _line(fig, w, b, limit, colour, name, dash="solid"):
    """The line w·x + b = 0 across the square (nothing if it misses it)."""
    w = np.asarray(w, float)
    if np.allclose(w, 0):
        return
    if abs(w[1]) >= abs(w[0]):
        xs = np.array([-limit, limit])
        ys = -(b + w[0] * xs) / w[1]
    else:
        ys = np.array([-limit, limit])
        xs = -(b + w[1] * ys) / w[0]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name,
                             line=dict(color=colour, width=3, dash=dash), hoverinfo="name"))


def _frame(fig, limit, height, title):
    style.base_layout(fig, title=title, height=height)
    fig.update_xaxes(title="x₁", range=[-limit, limit], constrain="domain")
    fig.update_yaxes(title="x₂", range=[-limit, limit], scaleanchor="x", constrain="domain")
    # the legend under the plot (fixed margin), so it covers no region and no point
    fig.update_layout(margin=dict(b=215), legend=dict(
        orientation="h", x=0, xanchor="left", y=-0.17, yanchor="top", font=dict(size=13),
        entrywidth=125, entrywidthmode="pixels"))
    return fig


def ova_figure(X, labels, ova, region, limit, *, shown_lines=(), height=700) -> go.Figure:
    """One-vs-all: the plane coloured by argmax_j w_j·x + b_j, the chosen binary lines."""
    k = ova.classes.shape[0]
    fig = go.Figure(_regions_trace(region["ova"], region["axis"], k, "argmax region"))
    if region["ova_tie"].any():
        fig.add_trace(_mask_trace(region["ova_tie"], region["axis"], TIE_COLOUR,
                                  "tie (shared maximum)"))
    for j, label in enumerate(ova.classes.tolist()):
        if label in shown_lines:
            _line(fig, ova.weights[j], ova.biases[j], limit, CLASS_COLOURS[j % 6],
                  f"line {label} vs rest")
    _points(fig, X, labels, ova.classes)
    return _frame(fig, limit, height, "one-vs-all: argmax of k scores")


def ovo_figure(X, labels, ovo, region, limit, *, height=700) -> go.Figure:
    """One-vs-one: the plane coloured by the vote winner, tied votes in grey."""
    k = ovo.classes.shape[0]
    fig = go.Figure(_regions_trace(region["ovo"], region["axis"], k, "vote winner"))
    if region["ovo_tie"].any():
        fig.add_trace(_mask_trace(region["ovo_tie"], region["axis"], "rgba(80, 80, 80, 0.55)",
                                  "tied vote"))
    _points(fig, X, labels, ovo.classes)
    return _frame(fig, limit, height, "one-vs-one: most votes")


def disagreement_figure(X, labels, classes, region, limit, *, height=560) -> go.Figure:
    """Where the two schemes predict different classes (dark), the data on top."""
    fig = go.Figure(_mask_trace(region["disagree"], region["axis"], "rgba(0, 0, 0, 0.45)",
                                "the schemes disagree"))
    _points(fig, X, labels, classes)
    return _frame(fig, limit, height, "where they disagree")
