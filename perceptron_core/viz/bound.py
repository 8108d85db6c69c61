"""Figures of the "Mistakes against the bound" page: update counts of many runs
next to the mistake bounds, on log axes.

Arrays in, ``plotly.graph_objects.Figure`` out; colours, marker shapes and
font sizes come from :mod:`perceptron_core.viz.style`. In every figure the
runs are dots (one per run), their median per swept value is a black line,
the bound that is a theorem for these runs is a thick sky-blue line and a
bound that is only a reference is a dashed grey line.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from . import style

RUN_COLOUR = style.STEP          # orange: one run's update count
MEDIAN_COLOUR = style.HYPERPLANE  # black: the median over seeds
VALID_COLOUR = style.BOUND        # sky blue: the bound that holds
REFERENCE_COLOUR = style.GHOST    # grey: a reference that is not a theorem here
LIMIT_COLOUR = style.NEGATIVE     # vermillion: ratio = 1, the line a run must stay under

#: Top margin leaving room for a horizontal legend above the plot area.
LEGEND_ROOM = 110


def log_ticks(values) -> np.ndarray:
    """Tick positions 1, 2, 5 x 10^k covering the positive finite ``values``.

    Parameters
    ----------
    values : array-like of any shape

    Returns
    -------
    ndarray of shape (n_ticks,)
        Increasing; only powers of ten when 1-2-5 would give more than 12
        ticks; empty when there is no positive finite value.
    """
    data = np.asarray(values, dtype=float).ravel()
    data = data[np.isfinite(data) & (data > 0)]
    if data.size == 0:
        return np.array([])
    low, high = data.min(), data.max()
    exponents = np.arange(np.floor(np.log10(low)) - 1, np.ceil(np.log10(high)) + 1)
    for mantissas in ((1.0, 2.0, 5.0), (1.0,)):
        ticks = np.array([m * 10.0**e for e in exponents for m in mantissas])
        ticks = ticks[(ticks >= low / 1.6) & (ticks <= high * 1.6)]
        if ticks.size <= 12:
            break
    return ticks


def _tick_text(ticks: np.ndarray) -> list[str]:
    return [f"{tick:g}" for tick in ticks]


def _set_log_ticks(fig: go.Figure, axis: str) -> None:
    """Label a log axis at 1-2-5 values instead of plotly's small minor digits."""
    chunks = [np.asarray(getattr(trace, axis), dtype=float).ravel() for trace in fig.data
              if getattr(trace, axis) is not None]
    ticks = log_ticks(np.concatenate(chunks)) if chunks else np.array([])
    if ticks.size:
        update = fig.update_xaxes if axis == "x" else fig.update_yaxes
        update(tickmode="array", tickvals=ticks.tolist(), ticktext=_tick_text(ticks))


def _layout(fig: go.Figure, *, xlabel: str, ylabel: str, log_x: bool, log_y: bool,
            height: int) -> go.Figure:
    style.base_layout(fig, height=height)
    fig.update_layout(margin=dict(l=90, r=30, t=LEGEND_ROOM, b=80),
                      legend=dict(orientation="h", yanchor="bottom", y=1.03, xanchor="left",
                                  x=0, font=dict(size=style.FONT_SIZE)))
    fig.update_xaxes(title_text=xlabel, type="log" if log_x else "linear",
                     showline=True, linecolor="black", mirror=True, ticks="outside")
    fig.update_yaxes(title_text=ylabel, type="log" if log_y else "linear",
                     showline=True, linecolor="black", mirror=True, ticks="outside")
    if log_x:
        _set_log_ticks(fig, "x")
    if log_y:
        _set_log_ticks(fig, "y")
    return fig


def _runs_trace(x, y, name: str, hover: str) -> go.Scatter:
    return go.Scatter(x=np.asarray(x, float), y=np.asarray(y, float), mode="markers",
                      name=name, marker=dict(color=RUN_COLOUR, symbol="circle",
                                             size=style.MARKER_SIZE, opacity=0.75,
                                             line=dict(color="white", width=1)),
                      hovertemplate=hover + "<extra></extra>")


def _line_trace(x, y, name: str, colour: str, *, width: int = 4, dash: str = "solid",
                markers: bool = False) -> go.Scatter:
    return go.Scatter(x=np.asarray(x, float), y=np.asarray(y, float),
                      mode="lines+markers" if markers else "lines", name=name,
                      line=dict(color=colour, width=width, dash=dash),
                      marker=dict(color=colour, size=style.MARKER_SIZE - 3),
                      hovertemplate=name + ": %{y:.4g} at %{x:.4g}<extra></extra>")


def sweep_figure(margins, updates, values, medians, bound, bound_label: str,
                 reference=None, reference_label: str | None = None, *,
                 also_holds=None, also_holds_label: str | None = None,
                 xlabel: str = "margin γ (data units, log scale)",
                 ylabel: str = "updates until convergence (log scale)",
                 height: int = 560) -> go.Figure:
    """Updates against the margin on log-log axes, with the bounds as lines.

    Parameters
    ----------
    margins : array-like of shape (n_runs,)
        The margin of each run (x of its dot).
    updates : array-like of shape (n_runs,)
        Updates each run made (y of its dot); must be positive for a log axis.
    values : array-like of shape (n_values,)
        The distinct margins, increasing.
    medians : array-like of shape (n_values,)
        Median updates over the seeds at each margin.
    bound : array-like of shape (n_values,)
        The bound that holds for these runs, largest over the seeds at each
        margin (so every dot lies under the line when the theorem holds).
    bound_label : str
        Legend text of ``bound``, e.g. "T(A) = max‖a‖²/γ₂² (the theorem)".
    reference : array-like of shape (n_values,) or None
        A second curve drawn dashed grey, e.g. (R/γ)² when it is not a theorem.
    reference_label : str or None
    also_holds : array-like of shape (n_values,) or None
        A second bound that also holds for these runs (e.g. the notebook's
        2(R² + 1)/ε² with a bias), drawn dotted in the bound's colour.
    also_holds_label : str or None
    xlabel, ylabel : str
    height : int, pixels

    Returns
    -------
    plotly.graph_objects.Figure
        Traces, in order: "runs", "median over seeds", the bound, the second bound
        that holds (if any), the reference.
    """
    fig = go.Figure()
    fig.add_trace(_runs_trace(margins, updates, "runs (one dot each)",
                              "γ = %{x:.3g}<br>updates = %{y}"))
    fig.add_trace(_line_trace(values, medians, "median over seeds", MEDIAN_COLOUR, width=3,
                              markers=True))
    fig.add_trace(_line_trace(values, bound, bound_label, VALID_COLOUR, width=5))
    if also_holds is not None:
        fig.add_trace(_line_trace(values, also_holds, also_holds_label or "another bound",
                                  VALID_COLOUR, width=3, dash="dot"))
    if reference is not None:
        fig.add_trace(_line_trace(values, reference, reference_label or "reference",
                                  REFERENCE_COLOUR, width=3, dash="dash"))
    return _layout(fig, xlabel=xlabel, ylabel=ylabel, log_x=True, log_y=True, height=height)


def ratio_figure(x_values, ratios, bound_label: str, *,
                 xlabel: str = "margin γ (data units, log scale)", log_x: bool = True,
                 height: int = 460) -> go.Figure:
    """updates / bound for every run, with the horizontal line ratio = 1.

    Parameters
    ----------
    x_values : array-like of shape (n_runs,)
        The swept value of each run.
    ratios : array-like of shape (n_runs,)
        updates / bound of each run; the theorem says at most 1.
    bound_label : str
        Which bound the ratio is against (goes in the y-axis title).
    xlabel : str
    log_x : bool
    height : int, pixels

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: "runs" (markers) and "ratio = 1" (the line no run may cross).
        The y axis is linear, from 0 to at least 1.1.
    """
    x = np.asarray(x_values, float)
    r = np.asarray(ratios, float)
    fig = go.Figure()
    fig.add_trace(_runs_trace(x, r, "runs: updates / bound",
                              "x = %{x:.3g}<br>updates / bound = %{y:.3f}"))
    if x.size:
        low, high = float(np.min(x)), float(np.max(x))
    else:
        low, high = 1.0, 10.0
    if log_x and low > 0:
        span = [low / 1.3, high * 1.3]
    else:
        pad = 0.05 * (high - low) if high > low else 1.0
        span = [low - pad, high + pad]
    fig.add_trace(go.Scatter(x=span, y=[1.0, 1.0], mode="lines", name="ratio = 1: the bound",
                             line=dict(color=LIMIT_COLOUR, width=4, dash="dash"),
                             hovertemplate="updates = bound<extra></extra>"))
    top = max(1.1, float(np.nanmax(r)) * 1.1) if r.size else 1.1
    _layout(fig, xlabel=xlabel, ylabel=f"updates / {bound_label}", log_x=log_x, log_y=False,
            height=height)
    fig.update_yaxes(range=[0, top])
    return fig


def dependence_figure(x_values, updates, values, medians, bound, xlabel: str,
                      bound_label: str, *, log_x: bool = True, log_y: bool = True,
                      ylabel: str = "updates until convergence", height: int = 520
                      ) -> go.Figure:
    """Updates against a quantity the bound may not involve (n, d, delta, lambda, s).

    Parameters
    ----------
    x_values : array-like of shape (n_runs,)
        The swept value of each run.
    updates : array-like of shape (n_runs,)
    values : array-like of shape (n_values,)
        Distinct swept values, increasing.
    medians : array-like of shape (n_values,)
        Median updates at each value.
    bound : float or array-like of shape (n_values,)
        A number draws a flat line across the whole range (a bound that does
        not depend on x); an array draws the bound at each value.
    xlabel, bound_label, ylabel : str
    log_x, log_y : bool
        Log axes (log_x needs positive x values).
    height : int, pixels

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: "runs", "median over seeds", the bound.
    """
    values = np.asarray(values, float)
    fig = go.Figure()
    fig.add_trace(_runs_trace(x_values, updates, "runs (one dot each)",
                              "x = %{x:.3g}<br>updates = %{y}"))
    fig.add_trace(_line_trace(values, medians, "median over seeds", MEDIAN_COLOUR, width=3,
                              markers=True))
    if np.ndim(bound) == 0:
        ends = [values.min(), values.max()] if values.size else [0.0, 1.0]
        fig.add_trace(_line_trace(ends, [float(bound)] * 2, bound_label, VALID_COLOUR, width=5))
    else:
        fig.add_trace(_line_trace(values, bound, bound_label, VALID_COLOUR, width=5))
    suffix = " (log scale)" if log_y else ""
    return _layout(fig, xlabel=xlabel, ylabel=ylabel + suffix, log_x=log_x, log_y=log_y,
                   height=height)
