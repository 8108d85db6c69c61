"""Figures of the /train page: one step of the perceptron, the animation, the proof.

Arrays in, ``plotly.graph_objects.Figure`` out. The step figure and every
animation frame share one fixed list of traces (see ``TRACE_NAMES``), so the
animation only swaps data and the axes never move.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from . import style

TRACE_NAMES = (
    "predicted +1", "predicted -1", "planted w*·x + b* = 0", "margin band",
    "class +1", "class -1", "misclassified", "previous hyperplane", "hyperplane w·x + b = 0",
    "previous w", "update y·x", "w", "examined example",
)
_INDEX = {name: position for position, name in enumerate(TRACE_NAMES)}


def axis_limit(X: np.ndarray, radius: float | None = None) -> float:
    """Half-width of the fixed square view: covers the data (and the ball) with 15% room."""
    reach = float(np.max(np.abs(X))) if X.size else 1.0
    if radius is not None:
        reach = max(reach, float(radius))
    return 1.15 * max(reach, 1e-9)


def halfplane_polygon(w: np.ndarray, b: float, limit: float, side: int) -> tuple[list, list]:
    """Polygon of {x : side·(w·x + b) > 0} inside the square [-limit, limit]^2.

    Parameters
    ----------
    w : ndarray of shape (2,)
    b : float
    limit : float
    side : +1 or -1

    Returns
    -------
    xs, ys : lists of vertex coordinates (closed), empty if the region is empty.
    With w = 0 the whole square is predicted sign(b) (sign(0) = -1).
    """
    square = [(-limit, -limit), (limit, -limit), (limit, limit), (-limit, limit)]
    w = np.asarray(w, dtype=float)
    if np.allclose(w, 0):
        predicted = 1 if b > 0 else -1
        if predicted != side:
            return [], []
        xs, ys = zip(*(square + [square[0]]))
        return list(xs), list(ys)

    def value(point):
        return side * (w[0] * point[0] + w[1] * point[1] + b)

    clipped = []
    for start, end in zip(square, square[1:] + square[:1]):  # Sutherland-Hodgman, one edge
        v_start, v_end = value(start), value(end)
        if v_start >= 0:
            clipped.append(start)
        if (v_start >= 0) != (v_end >= 0):
            fraction = v_start / (v_start - v_end)
            clipped.append((start[0] + fraction * (end[0] - start[0]),
                            start[1] + fraction * (end[1] - start[1])))
    if len(clipped) < 3:
        return [], []
    xs, ys = zip(*(clipped + [clipped[0]]))
    return list(xs), list(ys)


def line_segment(w: np.ndarray, b: float, limit: float) -> tuple[list, list]:
    """End points of the line w·x + b = 0 inside the square; empty if w = 0 or it misses."""
    w = np.asarray(w, dtype=float)
    if np.allclose(w, 0):
        return [], []
    direction = np.array([-w[1], w[0]]) / np.linalg.norm(w)
    foot = -b * w / float(w @ w)  # closest point of the line to the origin
    span = 3 * limit
    start, end = foot - span * direction, foot + span * direction
    # clip the long segment to the square (Liang-Barsky)
    low, high = 0.0, 1.0
    delta = end - start
    for axis in range(2):
        for bound, sign in ((-limit, -1), (limit, 1)):
            if delta[axis] == 0:
                if sign * (start[axis] - bound) > 0:
                    return [], []
                continue
            t = (bound - start[axis]) / delta[axis]
            if sign * delta[axis] > 0:
                high = min(high, t)
            else:
                low = max(low, t)
    if low >= high:
        return [], []
    a, c = start + low * delta, start + high * delta
    return [float(a[0]), float(c[0])], [float(a[1]), float(c[1])]


def vector_scale(weights: np.ndarray, limit: float) -> float:
    """One drawing scale for all w of a run, so w's growth stays visible and honest."""
    largest = float(np.max(np.linalg.norm(weights, axis=1))) if len(weights) else 0.0
    return 1.0 if largest <= 0.85 * limit else 0.85 * limit / largest


def _arrow(start, end, color, name, width=4, dash=None):
    return go.Scatter(
        x=[float(start[0]), float(end[0])], y=[float(start[1]), float(end[1])],
        mode="lines+markers", name=name, hoverinfo="skip",
        line=dict(color=color, width=width, dash=dash),
        marker=dict(symbol="arrow", angleref="previous", size=[0, 18], color=color),
    )


def _empty(name, **kwargs):
    return go.Scatter(x=[], y=[], name=name, mode="lines", **kwargs)


def step_traces(X, y, w, b, limit, scale, *, previous=None, example=None, updated=False,
                show_misclassified=True) -> list[go.Scatter]:
    """The traces that change from step to step (fills, lines, arrows, marks).

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    w : ndarray of shape (2,), b : float
        The hyperplane in force after the step.
    previous : (ndarray of shape (2,), float) or None
        The hyperplane before an update (ghosted).
    example : int or None
        Index of the example examined at this step.
    updated : bool
        Whether this step changed (w, b): draws y·x head to tail.

    Returns
    -------
    dict trace-name -> go.Scatter for the dynamic traces.
    """
    w = np.asarray(w, dtype=float)
    traces = {}
    xs, ys = halfplane_polygon(w, b, 2 * limit, +1)
    traces["predicted +1"] = go.Scatter(x=xs, y=ys, fill="toself", mode="lines",
                                        fillcolor=style.POSITIVE_FILL, line=dict(width=0),
                                        name="predicted +1", hoverinfo="skip")
    xs, ys = halfplane_polygon(w, b, 2 * limit, -1)
    traces["predicted -1"] = go.Scatter(x=xs, y=ys, fill="toself", mode="lines",
                                        fillcolor=style.NEGATIVE_FILL, line=dict(width=0),
                                        name="predicted -1", hoverinfo="skip")
    scores = y * (X @ w + b)
    wrong = np.flatnonzero(scores <= 0) if show_misclassified else np.array([], dtype=int)
    traces["misclassified"] = go.Scatter(
        x=X[wrong, 0], y=X[wrong, 1], mode="markers", name="misclassified",
        marker=dict(symbol="circle-open", size=style.MARKER_SIZE + 10, color="black",
                    line=dict(width=2)), hoverinfo="skip")
    if previous is not None and updated:
        xs, ys = line_segment(previous[0], previous[1], limit)
        traces["previous hyperplane"] = go.Scatter(x=xs, y=ys, mode="lines",
                                                   name="previous hyperplane",
                                                   line=dict(color=style.GHOST, width=3,
                                                             dash="dash"))
    else:
        traces["previous hyperplane"] = _empty("previous hyperplane")
    xs, ys = line_segment(w, b, limit)
    traces["hyperplane w·x + b = 0"] = go.Scatter(x=xs, y=ys, mode="lines",
                                                  name="hyperplane w·x + b = 0",
                                                  line=dict(color=style.HYPERPLANE, width=4))
    origin = np.zeros(2)
    if previous is not None and updated:
        w_old = np.asarray(previous[0], dtype=float) * scale
        traces["previous w"] = _arrow(origin, w_old, style.GHOST, "previous w", width=3)
        traces["update y·x"] = _arrow(w_old, w * scale, style.STEP, "update y·x", width=4)
    else:
        traces["previous w"] = _empty("previous w")
        traces["update y·x"] = _empty("update y·x")
    traces["w"] = _arrow(origin, w * scale, style.WEIGHT, "w") if np.any(w) else _empty("w")
    if example is not None:
        color = style.STEP if updated else style.WEIGHT
        traces["examined example"] = go.Scatter(
            x=[float(X[example, 0])], y=[float(X[example, 1])], mode="markers",
            name="examined example",
            marker=dict(symbol="diamond-open", size=style.MARKER_SIZE + 16, color=color,
                        line=dict(width=4)), hoverinfo="skip")
    else:
        traces["examined example"] = _empty("examined example")
    return traces


def _static_traces(X, y, limit, planted, show_planted):
    traces = {}
    if planted is not None and show_planted:
        w_star, b_star, margin = planted
        xs, ys = line_segment(np.asarray(w_star), float(b_star), limit)
        traces["planted w*·x + b* = 0"] = go.Scatter(
            x=xs, y=ys, mode="lines", name="planted w*·x + b* = 0",
            line=dict(color=style.PLANTED, width=2, dash="dot"))
        band_x, band_y = [], []
        for offset in ((-margin, margin) if margin else ()):
            xs, ys = line_segment(np.asarray(w_star), float(b_star) + offset, limit)
            band_x += xs + [None]
            band_y += ys + [None]
        traces["margin band"] = go.Scatter(x=band_x, y=band_y, mode="lines",
                                           name=f"margin band ±{margin:g}",
                                           line=dict(color=style.PLANTED, width=1, dash="dash"))
    else:
        traces["planted w*·x + b* = 0"] = _empty("planted w*·x + b* = 0", showlegend=False)
        traces["margin band"] = _empty("margin band", showlegend=False)
    for label, name in ((1, "class +1"), (-1, "class -1")):
        members = np.flatnonzero(y == label)
        traces[name] = go.Scatter(
            x=X[members, 0], y=X[members, 1], mode="markers", name=name,
            marker=style.class_marker(label), customdata=members,
            hovertemplate="example %{customdata}<br>x = (%{x:.2f}, %{y:.2f})<extra>"
                          + name + "</extra>")
    return traces


def _layout(fig, limit, height):
    style.base_layout(fig, height=height)
    fig.update_xaxes(range=[-limit, limit], zeroline=True, zerolinecolor="#cccccc",
                     title_text="x₁", constrain="domain")
    fig.update_yaxes(range=[-limit, limit], zeroline=True, zerolinecolor="#cccccc",
                     title_text="x₂", scaleanchor="x", scaleratio=1, constrain="domain")
    fig.update_layout(uirevision="train", legend=dict(
        orientation="h", x=0, xanchor="left", y=-0.1, yanchor="top", font=dict(size=14),
        itemsizing="constant"), margin=dict(l=50, r=10, t=20, b=10))
    return fig


def step_figure(X, y, w, b, *, limit, scale, previous=None, example=None, updated=False,
                planted=None, show_planted=True, height=760) -> go.Figure:
    """The data, the current hyperplane and its normal w, and what this step did.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,), values in {-1, +1}
    w : ndarray of shape (2,); b : float
    limit : float, half-width of the fixed view (see axis_limit)
    scale : float, drawing scale of vectors (see vector_scale)
    previous : (w, b) before this step, ghosted when ``updated``
    example : int or None, the example examined at this step
    updated : bool
    planted : (w_star, b_star, margin) or None

    Returns
    -------
    go.Figure with the traces in the order of TRACE_NAMES.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    dynamic = step_traces(X, y, w, b, limit, scale, previous=previous, example=example,
                          updated=updated)
    static = _static_traces(X, y, limit, planted, show_planted)
    fig = go.Figure([{**static, **dynamic}[name] for name in TRACE_NAMES])
    if scale < 1:
        fig.add_annotation(text=f"vectors drawn at {scale:.2g}× scale", xref="paper",
                           yref="paper", x=1, y=0, xanchor="right", yanchor="bottom",
                           showarrow=False, font=dict(size=14, color=style.GHOST))
    return _layout(fig, limit, height)


def frame_positions(n_updates: int, max_frames: int = 200) -> np.ndarray:
    """Which updates get an animation frame: all, or evenly spaced with the last kept."""
    if n_updates + 1 <= max_frames:
        return np.arange(n_updates + 1)
    return np.unique(np.linspace(0, n_updates, max_frames).round().astype(int))


def animation_figure(X, y, weights, biases, update_indices, *, limit, scale, planted=None,
                     show_planted=True, frame_ms=400, max_frames=200, height=760) -> go.Figure:
    """Every update as a Plotly frame, with Play/Pause and a slider (runs in the browser).

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    weights : ndarray of shape (n_updates + 1, 2)
    biases : ndarray of shape (n_updates + 1,)
    update_indices : ndarray of shape (n_updates,)
    frame_ms : int, how long each frame shows while playing
    max_frames : int, frames are evenly subsampled beyond this

    Returns
    -------
    go.Figure with ``frames`` named by update number.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    n_updates = len(update_indices)
    positions = frame_positions(n_updates, max_frames)
    dynamic_names = ["predicted +1", "predicted -1", "misclassified", "previous hyperplane",
                     "hyperplane w·x + b = 0", "previous w", "update y·x", "w",
                     "examined example"]
    show_misclassified = X.shape[0] * len(positions) <= 200_000
    frames = []
    for k in positions:
        previous = (weights[k - 1], float(biases[k - 1])) if k > 0 else None
        example = int(update_indices[k - 1]) if k > 0 else None
        dynamic = step_traces(X, y, weights[k], float(biases[k]), limit, scale,
                              previous=previous, example=example, updated=k > 0,
                              show_misclassified=show_misclassified)
        frames.append(go.Frame(name=str(k), data=[dynamic[name] for name in dynamic_names],
                               traces=[_INDEX[name] for name in dynamic_names],
                               layout=dict(title_text=f"after update {k} of {n_updates}")))
    first = frames[0]
    fig = step_figure(X, y, weights[0], float(biases[0]), limit=limit, scale=scale,
                      planted=planted, show_planted=show_planted, height=height)
    for trace_index, trace in zip(first.traces, first.data):
        fig.data[trace_index].update(trace)
    fig.frames = frames
    play = dict(label="Play", method="animate",
                args=[None, dict(frame=dict(duration=frame_ms, redraw=True), fromcurrent=True,
                                 transition=dict(duration=min(frame_ms // 2, 250),
                                                 easing="cubic-in-out"))])
    pause = dict(label="Pause", method="animate",
                 args=[[None], dict(frame=dict(duration=0, redraw=False), mode="immediate",
                                    transition=dict(duration=0))])
    steps = [dict(method="animate", label=str(k),
                  args=[[str(k)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                       transition=dict(duration=0))]) for k in positions]
    fig.update_layout(
        title=dict(text=f"after update 0 of {n_updates}"),
        updatemenus=[dict(type="buttons", direction="left", showactive=False, x=0, y=-0.08,
                          xanchor="left", yanchor="top", pad=dict(t=10, r=10),
                          buttons=[play, pause], font=dict(size=16))],
        sliders=[dict(active=0, x=0.18, y=-0.08, len=0.82, xanchor="left", yanchor="top",
                      pad=dict(t=10), currentvalue=dict(prefix="update ", font=dict(size=16)),
                      steps=steps)],
        margin=dict(b=150, t=90),
        legend=dict(orientation="v", x=1.02, xanchor="left", y=1, yanchor="top"),
    )
    return fig


def proof_figure(alignment, alignment_lower, norm_sq, norm_sq_upper, *, current: int,
                 margin: float, radius_sq: float, bounds: dict[str, float],
                 padded: bool, height=360) -> go.Figure:
    """The convergence proof as it happens (Theorem 1.28).

    Left: <w_t, w*> against its lower line <w_0, w*> + t·gamma. Right: ||w_t||^2
    against its upper line ||w_0||^2 + t (R^2 + 2 delta). The two lines cross
    (after squaring) at the bound, so the updates must stop before it.

    Parameters
    ----------
    alignment, alignment_lower, norm_sq, norm_sq_upper : ndarray of shape (n_updates + 1,)
    current : int, the update the page is showing
    bounds : dict name -> value, shown in the titles
    padded : bool, whether vectors include the bias (w, b)
    """
    t = np.arange(len(alignment))
    vector = "(w_t, b_t)" if padded else "w_t"
    # two panels side by side on hand-made domains (make_subplots is slow to build)
    left, right = dict(xaxis="x", yaxis="y"), dict(xaxis="x2", yaxis="y2")
    fig = go.Figure([
        go.Scatter(x=t, y=alignment, mode="lines+markers", name="⟨w_t, w*⟩",
                   line=dict(color=style.WEIGHT, width=3), marker=dict(size=5), **left),
        go.Scatter(x=t, y=alignment_lower, mode="lines", name="lower line  t·γ",
                   line=dict(color=style.BOUND, width=3, dash="dash"), **left),
        go.Scatter(x=t, y=norm_sq, mode="lines+markers", name="‖w_t‖²",
                   line=dict(color=style.STEP, width=3), marker=dict(size=5, symbol="square"),
                   **right),
        go.Scatter(x=t, y=norm_sq_upper, mode="lines", name="upper line  t·R²",
                   line=dict(color=style.NEGATIVE, width=3, dash="dot"), **right),
    ])
    style.base_layout(fig, height=height, font_size=16)
    span = [0, max(1, len(t) - 1)]
    fig.update_layout(
        xaxis=dict(domain=[0, 0.44], range=span, title_text="update t"),
        xaxis2=dict(domain=[0.56, 1], range=span, title_text="update t"),
        yaxis2=dict(anchor="x2"),
        shapes=[dict(type="line", xref=axis, yref="paper", x0=current, x1=current, y0=0,
                     y1=1, line=dict(color=style.HYPERPLANE, width=2, dash="dot"))
                for axis in ("x", "x2")],
        annotations=[
            dict(text=f"⟨{vector}, w*⟩ grows at least γ = {margin:.3g} per update",
                 x=0.22, y=1.0, xref="paper", yref="paper", xanchor="center",
                 yanchor="bottom", showarrow=False, font=dict(size=15)),
            dict(text=f"‖{vector}‖² grows at most R² = {radius_sq:.3g} per update",
                 x=0.78, y=1.0, xref="paper", yref="paper", xanchor="center",
                 yanchor="bottom", showarrow=False, font=dict(size=15))],
    )
    label = ",  ".join(f"{name} = {value:,.0f}" for name, value in bounds.items())
    fig.update_layout(legend=dict(y=-0.25, yanchor="top", orientation="h"),
                      margin=dict(t=90, b=90),
                      title=dict(text=f"bounds on the number of updates: {label}",
                                 font=dict(size=15), y=0.99))
    return fig


def click_grid(limit: float, spacing: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates of an invisible grid of clickable points covering the view."""
    ticks = np.arange(-np.floor(limit / spacing), np.floor(limit / spacing) + 1) * spacing
    grid_x, grid_y = np.meshgrid(ticks, ticks)
    return grid_x.ravel(), grid_y.ravel()


def draw_figure(X, y, *, limit: float, height=640) -> go.Figure:
    """The editable data: both classes plus an invisible clickable grid.

    Clicking the grid selects its point (Plotly selection), which a page turns
    into a new example; clicking an existing example selects that example.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    limit : float, half-width of the fixed view

    Returns
    -------
    go.Figure: trace 0 is the grid ("click to add"), then "class +1", "class -1".
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    grid_x, grid_y = click_grid(limit)
    traces = [go.Scatter(x=grid_x, y=grid_y, mode="markers", name="click to add",
                         marker=dict(size=14, color="rgba(0,0,0,0.01)"), showlegend=False,
                         hovertemplate="add a point at (%{x:.2f}, %{y:.2f})<extra></extra>")]
    for label, name in ((1, "class +1"), (-1, "class -1")):
        members = np.flatnonzero(y == label)
        traces.append(go.Scatter(
            x=X[members, 0], y=X[members, 1], mode="markers", name=name,
            marker=style.class_marker(label), customdata=members,
            hovertemplate="example %{customdata}: click to remove<extra></extra>"))
    fig = go.Figure(traces)
    fig.update_layout(clickmode="event+select", dragmode=False)
    return _layout(fig, limit, height)


def boundedness_figure(norms, accuracy, *, current: int | None = None, padded=True,
                       height=340) -> go.Figure:
    """||w_t|| and the training accuracy along the updates (non-separable data).

    Parameters
    ----------
    norms : ndarray of shape (n_updates + 1,)
    accuracy : ndarray of shape (n_updates + 1,)
    current : int or None, the update the page is showing
    """
    t = np.arange(len(norms))
    name = "‖(w_t, b_t)‖" if padded else "‖w_t‖"
    fig = go.Figure([
        go.Scatter(x=t, y=norms, mode="lines", name=name, line=dict(color=style.WEIGHT, width=3)),
        go.Scatter(x=t, y=accuracy, mode="lines", name="training accuracy", yaxis="y2",
                   line=dict(color=style.STEP, width=2)),
    ])
    style.base_layout(fig, height=height, font_size=16)
    fig.update_layout(
        xaxis=dict(domain=[0, 0.44], title_text="update t", range=[0, max(1, len(t) - 1)]),
        xaxis2=dict(domain=[0.56, 1], title_text="update t", range=[0, max(1, len(t) - 1)]),
        yaxis=dict(title_text=name, rangemode="tozero"),
        yaxis2=dict(anchor="x2", title_text="accuracy", range=[0, 1.02], tickformat=".0%"),
        legend=dict(y=-0.3, yanchor="top"), margin=dict(t=40, b=90))
    fig.data[1].update(xaxis="x2")
    if current is not None:
        fig.update_layout(shapes=[dict(type="line", xref=axis, yref="paper", x0=current,
                                       x1=current, y0=0, y1=1,
                                       line=dict(color=style.HYPERPLANE, width=2, dash="dot"))
                                  for axis in ("x", "x2")])
    return fig
