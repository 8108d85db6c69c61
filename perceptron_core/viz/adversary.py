"""Figures of the /adversary page (Theorem 1.34 of the notes: the perceptron is optimal).

Arrays in, ``plotly.graph_objects.Figure`` out.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from . import style


def rounds_figure(predictions: np.ndarray, labels: np.ndarray) -> go.Figure:
    """Each round's prediction next to the label the adversary then reveals.

    Parameters
    ----------
    predictions : ndarray of int, shape (k,)
        The learner's predictions (±1) in rounds 1..k.
    labels : ndarray of int, shape (k,)
        The labels y_i (±1); in Theorem 1.34 always the opposite of the prediction.

    Returns
    -------
    go.Figure
        Labels as class markers (+1 blue circles, -1 vermillion squares), the
        predictions as black crosses; every round where they sit on opposite
        rows is a mistake.
    """
    predictions = np.asarray(predictions, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.int64)
    if predictions.shape != labels.shape:
        raise ValueError("predictions and labels must have the same shape.")
    rounds = np.arange(1, predictions.size + 1)
    fig = go.Figure()
    for value in (1, -1):
        mask = labels == value
        fig.add_trace(go.Scatter(x=rounds[mask], y=labels[mask], mode="markers",
                                 marker=style.class_marker(value) | dict(size=style.MARKER_SIZE + 5),
                                 name=f"label y_i = {value:+d}",
                                 hovertemplate="round %{x}<br>label %{y:+d}<extra></extra>"))
    fig.add_trace(go.Scatter(x=rounds, y=predictions, mode="markers", name="prediction",
                             marker=dict(color="black", symbol="x-thin-open", size=16,
                                         line=dict(width=3)),
                             hovertemplate="round %{x}<br>prediction %{y:+d}<extra></extra>"))
    style.base_layout(fig, height=300)
    fig.update_xaxes(title="round i", range=[0.5, max(rounds.size, 1) + 0.5], tick0=1,
                     dtick=max(1, int(np.ceil(rounds.size / 20))))
    fig.update_yaxes(tickvals=[-1, 1], ticktext=["−1", "+1"], range=[-1.6, 1.6])
    return fig


def forced_mistakes_figure(gammas: np.ndarray, forced: np.ndarray, dim: int,
                           current: tuple[float, int] | None = None) -> go.Figure:
    """Mistakes the adversary forces against 1/gamma^2, beside the perceptron's upper bound.

    Parameters
    ----------
    gammas : ndarray of float, shape (m,)
        Margins in (0, 1].
    forced : ndarray of int, shape (m,)
        Mistakes forced at each gamma: n = min(floor(1/gamma^2), d).
    dim : int
        The dimension d (drawn as the horizontal cap).
    current : (gamma, n), optional
        The margin chosen on the page and its n, highlighted.

    Returns
    -------
    go.Figure
        Log-log axes, x = 1/gamma^2. The upper bound 1/gamma^2 of the
        perceptron (eq. (1.5), unit-length examples) is the diagonal; the
        forced mistakes follow it (up to the floor) until they reach d.
    """
    gammas = np.asarray(gammas, dtype=np.float64)
    forced = np.asarray(forced, dtype=np.float64)
    if gammas.shape != forced.shape:
        raise ValueError("gammas and forced must have the same shape.")
    if np.any(gammas <= 0):
        raise ValueError("every gamma must be positive.")
    order = np.argsort(1.0 / gammas**2)
    inverse = (1.0 / gammas**2)[order]
    forced = forced[order]
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=inverse, y=inverse, mode="lines", name="perceptron upper bound 1/γ²",
        line=dict(color=style.BOUND, width=6),
        hovertemplate="1/γ² = %{x:.4g}<br>bound = %{y:.4g}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=inverse, y=forced, mode="lines+markers", line_shape="hv",
        name="mistakes forced by the adversary: min(⌊1/γ²⌋, d)",
        line=dict(color=style.STEP, width=3, dash="dash"),
        marker=dict(color=style.STEP, symbol="diamond", size=8),
        hovertemplate="1/γ² = %{x:.4g}<br>forced = %{y}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=[inverse[0], inverse[-1]], y=[dim, dim], mode="lines", name=f"dimension d = {dim}",
        line=dict(color=style.GHOST, width=2, dash="dot"), hoverinfo="skip"))
    if current is not None:
        gamma, n = current
        fig.add_trace(go.Scatter(
            x=[1.0 / gamma**2], y=[n], mode="markers", name=f"your choice: γ = {gamma:g}, n = {n}",
            marker=dict(color=style.PLANTED, symbol="star", size=22, line=dict(color="black", width=1)),
            hovertemplate="1/γ² = %{x:.4g}<br>n = %{y}<extra></extra>"))
    style.base_layout(fig, height=540)
    fig.update_xaxes(type="log", title="1/γ²  (log scale)", exponentformat="power")
    fig.update_yaxes(type="log", title="mistakes  (log scale)", exponentformat="power")
    return fig
