"""Figures of the "Mistakes against the bound" page: update counts of many runs
next to the mistake bounds, on log axes.

Arrays in, ``plotly.graph_objects.Figure`` out (and, at the end, what the runs on
screen show in numbers and words); colours, marker shapes and
font sizes come from :mod:`perceptron_core.viz.style`. In every figure the
runs are dots (one per run), their median per swept value is a black line,
the bound that is a theorem for these runs is a thick sky-blue line and a
bound that is only a reference is a dashed grey line.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..theory import bias_bound, bias_bound_margin
from . import style

RUN_COLOUR = style.STEP  # orange: one run's update count
MEDIAN_COLOUR = style.HYPERPLANE  # black: the median over seeds
VALID_COLOUR = style.BOUND  # sky blue: the bound that holds
REFERENCE_COLOUR = style.GHOST  # grey: a reference that is not a theorem here
LIMIT_COLOUR = style.NEGATIVE  # vermillion: ratio = 1, the line a run must stay under

#: Height of one legend entry's row above the plot area, and the gap under the legend.
LEGEND_ROW, LEGEND_GAP = 30, 16
#: Widest legend written on one row: it fits the narrowest chart the pages draw.
ONE_ROW_WIDTH = 640


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


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def tick_label(tick: float) -> str:
    """A 1-2-5 tick as a student reads it: 0.02, 500, 20000; from 10⁵ up and below 10⁻³ as
    10⁵, 2·10⁵, 5·10⁻⁴ (never Python's 1e+06)."""
    if 1e-3 <= tick < 1e5:
        return f"{tick:g}"
    exponent = int(np.floor(np.log10(tick) + 1e-9))
    mantissa = round(tick / 10.0**exponent)
    power = "10" + str(exponent).translate(SUPERSCRIPTS)
    return power if mantissa == 1 else f"{mantissa}·{power}"


def _tick_text(ticks: np.ndarray) -> list[str]:
    return [tick_label(float(tick)) for tick in ticks]


def _set_log_ticks(fig: go.Figure, axis: str) -> None:
    """Label a log axis at 1-2-5 values instead of plotly's small minor digits."""
    chunks = [
        np.asarray(getattr(trace, axis), dtype=float).ravel()
        for trace in fig.data
        if getattr(trace, axis) is not None
    ]
    ticks = log_ticks(np.concatenate(chunks)) if chunks else np.array([])
    if ticks.size:
        update = fig.update_xaxes if axis == "x" else fig.update_yaxes
        update(tickmode="array", tickvals=ticks.tolist(), ticktext=_tick_text(ticks))


def _layout(
    fig: go.Figure, *, xlabel: str, ylabel: str, log_x: bool, log_y: bool, height: int
) -> go.Figure:
    """The sweep charts' look; ``height`` is the figure's without its legend, which adds
    LEGEND_GAP + LEGEND_ROW per row of entries above the plot."""
    # the legend above the plot area: on one row when it fits the narrowest chart, else
    # one entry per row, so that no entry is pushed out of the figure's top; the figure
    # grows by the legend's rows and the plot area keeps its height
    names = [trace.name for trace in fig.data if trace.name and trace.showlegend is not False]
    one_row = sum(50 + 0.6 * style.FONT_SIZE * len(name) for name in names) <= ONE_ROW_WIDTH
    rows = 1 if one_row else len(names)
    room = LEGEND_GAP + LEGEND_ROW * rows
    style.base_layout(fig, height=height + room)
    fig.update_layout(
        margin=dict(l=90, r=30, t=room, b=80),
        legend=dict(
            orientation="h" if one_row else "v",
            yanchor="bottom",
            y=1.0,
            xanchor="left",
            x=0,
            font=dict(size=style.FONT_SIZE),
        ),
    )
    fig.update_xaxes(
        title_text=xlabel,
        type="log" if log_x else "linear",
        showline=True,
        linecolor="black",
        mirror=True,
        ticks="outside",
    )
    fig.update_yaxes(
        title_text=ylabel,
        type="log" if log_y else "linear",
        showline=True,
        linecolor="black",
        mirror=True,
        ticks="outside",
    )
    if log_x:
        _set_log_ticks(fig, "x")
    if log_y:
        _set_log_ticks(fig, "y")
    return fig


def _runs_trace(x, y, name: str, hover: str) -> go.Scatter:
    return go.Scatter(
        x=np.asarray(x, float),
        y=np.asarray(y, float),
        mode="markers",
        name=name,
        marker=dict(
            color=RUN_COLOUR,
            symbol="circle",
            size=style.MARKER_SIZE,
            opacity=0.75,
            line=dict(color="white", width=1),
        ),
        hovertemplate=hover + "<extra></extra>",
    )


def _line_trace(
    x, y, name: str, colour: str, *, width: int = 4, dash: str = "solid", markers: bool = False
) -> go.Scatter:
    return go.Scatter(
        x=np.asarray(x, float),
        y=np.asarray(y, float),
        mode="lines+markers" if markers else "lines",
        name=name,
        line=dict(color=colour, width=width, dash=dash),
        marker=dict(color=colour, size=style.MARKER_SIZE - 3),
        hovertemplate=name + ": %{y:.4g} at %{x:.4g}<extra></extra>",
    )


def sweep_figure(
    margins,
    updates,
    values,
    medians,
    bound,
    bound_label: str,
    reference=None,
    reference_label: str | None = None,
    *,
    also_holds=None,
    also_holds_label: str | None = None,
    xlabel: str = "margin γ (data units, log scale)",
    ylabel: str = "updates until convergence (log scale)",
    height: int = 450,
) -> go.Figure:
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
    height : int, pixels, without the legend (:func:`_layout` adds its rows)

    Returns
    -------
    plotly.graph_objects.Figure
        Traces, in order: "runs", "median over seeds", the bound, the second bound
        that holds (if any), the reference.
    """
    fig = go.Figure()
    fig.add_trace(
        _runs_trace(margins, updates, "runs (one dot each)", "γ = %{x:.3g}<br>updates = %{y}")
    )
    fig.add_trace(
        _line_trace(values, medians, "median over seeds", MEDIAN_COLOUR, width=3, markers=True)
    )
    fig.add_trace(_line_trace(values, bound, bound_label, VALID_COLOUR, width=5))
    if also_holds is not None:
        fig.add_trace(
            _line_trace(
                values,
                also_holds,
                also_holds_label or "another bound",
                VALID_COLOUR,
                width=3,
                dash="dot",
            )
        )
    if reference is not None:
        fig.add_trace(
            _line_trace(
                values,
                reference,
                reference_label or "reference",
                REFERENCE_COLOUR,
                width=3,
                dash="dash",
            )
        )
    return _layout(fig, xlabel=xlabel, ylabel=ylabel, log_x=True, log_y=True, height=height)


def ratio_figure(
    x_values,
    ratios,
    bound_label: str,
    *,
    xlabel: str = "margin γ (data units, log scale)",
    log_x: bool = True,
    height: int = 350,
) -> go.Figure:
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
    height : int, pixels, without the legend (:func:`_layout` adds its rows)

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: "runs" (markers) and "ratio = 1" (the line no run may cross).
        The y axis is linear, from 0 to at least 1.1.
    """
    x = np.asarray(x_values, float)
    r = np.asarray(ratios, float)
    fig = go.Figure()
    fig.add_trace(
        _runs_trace(x, r, "runs: updates / bound", "x = %{x:.3g}<br>updates / bound = %{y:.3f}")
    )
    if x.size:
        low, high = float(np.min(x)), float(np.max(x))
    else:
        low, high = 1.0, 10.0
    if log_x and low > 0:
        span = [low / 1.3, high * 1.3]
    else:
        pad = 0.05 * (high - low) if high > low else 1.0
        span = [low - pad, high + pad]
    fig.add_trace(
        go.Scatter(
            x=span,
            y=[1.0, 1.0],
            mode="lines",
            name="ratio = 1: the bound",
            line=dict(color=LIMIT_COLOUR, width=4, dash="dash"),
            hovertemplate="updates = bound<extra></extra>",
        )
    )
    top = max(1.1, float(np.nanmax(r)) * 1.1) if r.size else 1.1
    _layout(
        fig,
        xlabel=xlabel,
        ylabel=f"updates / {bound_label}",
        log_x=log_x,
        log_y=False,
        height=height,
    )
    fig.update_yaxes(range=[0, top])
    return fig


def dependence_figure(
    x_values,
    updates,
    values,
    medians,
    bound,
    xlabel: str,
    bound_label: str,
    *,
    log_x: bool = True,
    log_y: bool = True,
    ylabel: str = "updates until convergence",
    height: int = 410,
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
    height : int, pixels, without the legend (:func:`_layout` adds its rows)

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: "runs", "median over seeds", the bound.
    """
    values = np.asarray(values, float)
    fig = go.Figure()
    fig.add_trace(
        _runs_trace(x_values, updates, "runs (one dot each)", "x = %{x:.3g}<br>updates = %{y}")
    )
    fig.add_trace(
        _line_trace(values, medians, "median over seeds", MEDIAN_COLOUR, width=3, markers=True)
    )
    if np.ndim(bound) == 0:
        ends = [values.min(), values.max()] if values.size else [0.0, 1.0]
        fig.add_trace(_line_trace(ends, [float(bound)] * 2, bound_label, VALID_COLOUR, width=5))
    else:
        fig.add_trace(_line_trace(values, bound, bound_label, VALID_COLOUR, width=5))
    suffix = " (log scale)" if log_y else ""
    return _layout(
        fig, xlabel=xlabel, ylabel=ylabel + suffix, log_x=log_x, log_y=log_y, height=height
    )


# ---------------------------------------------------------------------------
# What the runs on screen show, in numbers and words (the page prints these)
# ---------------------------------------------------------------------------


def notebook_bounds(result) -> tuple[np.ndarray, np.ndarray]:
    """Per run: epsilon = gamma / max(1, R) and the notebook's 2 (R^2 + 1) / epsilon^2.

    With a bias the sweep's gamma is the geometric margin of the best affine
    separator; scaled by 1 / max(1, R) it meets the notebook's hypotheses
    ||w*|| <= 1, b*^2 <= 1 (see ``theory.bias_bound_margin``).

    Parameters
    ----------
    result : SweepResult with ``radius`` and ``gamma`` of shape (n_runs,)

    Returns
    -------
    (epsilon, bound) : two ndarrays of shape (n_runs,)
    """
    eps = np.array([bias_bound_margin(r, g) for r, g in zip(result.radius, result.gamma)])
    return eps, np.array([bias_bound(r, e) for r, e in zip(result.radius, eps)])


def largest_per_value(result, per_run) -> np.ndarray:
    """The largest of ``per_run`` (shape (n_runs,)) at each swept value, aligned with
    ``result.values()``: the line every dot of that value lies under."""
    per_run = np.asarray(per_run, float)
    return np.array([per_run[result.value == v].max() for v in result.values()])


def halving_factors(values, bounds) -> np.ndarray:
    """By what factor the bound grew per halving of the margin, between neighbouring margins.

    Between margins gamma_k < gamma_{k+1} with bounds B_k, B_{k+1}: the factor f with
    B_k / B_{k+1} = f ** log2(gamma_{k+1} / gamma_k); f = 4 for a bound proportional to
    1 / gamma^2. Shapes: (n_values,) in, (n_values - 1,) out.
    """
    values, bounds = np.asarray(values, float), np.asarray(bounds, float)
    return (bounds[:-1] / bounds[1:]) ** (np.log(2.0) / np.log(values[1:] / values[:-1]))


def halving_spread(values, bounds) -> str:
    """The halving factors in words: "about 3.97" when they agree to 0.5 %, else
    "between 3.61 and 3.95"."""
    factors = halving_factors(values, bounds)
    if np.isclose(factors.min(), factors.max(), rtol=5e-3):
        return f"about {factors.min():.2f}"
    return f"between {factors.min():.2f} and {factors.max():.2f}"


def _spread_text(numbers) -> str:
    numbers = np.asarray(numbers, float)
    if np.isclose(numbers.min(), numbers.max(), rtol=5e-3):
        return f"about {numbers.min():.2f}"
    return f"between {numbers.min():.2f} and {numbers.max():.2f}"


def margin_step_text(values, bounds) -> str:
    """What the sweep on screen did, in its own steps: the ratio of neighbouring margins
    actually used, the factor the bound grew by over each such step, and that growth
    per halving of the margin (:func:`halving_factors`). Shapes (n_values,), increasing
    margins, at least two of them."""
    values, bounds = np.asarray(values, float), np.asarray(bounds, float)
    ratios = values[1:] / values[:-1]
    growth = bounds[:-1] / bounds[1:]
    apart = _spread_text(ratios) + " times apart"
    if not np.allclose(ratios, 2.0, rtol=5e-3):
        apart += " (not 2)"
    return (
        f"neighbouring margins on screen are {apart}, and each step to the "
        f"smaller margin multiplied the median bound by {_spread_text(growth)}; per "
        f"halving of γ that is a factor {halving_spread(values, bounds)}"
    )


def percent(share: float) -> str:
    """A share as a percentage: three digits from 10 % on ("48.9 %", "100 %"), two below
    ("1.2 %", "0.031 %")."""
    value = 100 * float(share)
    return f"{value:.3g} %" if value >= 10 else f"{value:.2g} %"


def spread_percent(shares) -> str:
    """ "between 67 % and 100 %" (or "about 99 %" when they agree to the digits shown)."""
    shares = np.asarray(shares, float)
    low, high = percent(shares.min()), percent(shares.max())
    return f"about {low}" if low == high else f"between {low} and {high}"


def ratio_spread_text(ratio, bound: str) -> str:
    """How much of its own bound each run on screen used: "each of these 40 runs made
    between 1.2 % and 48.9 % of the updates its own T(A) allows (median 9.8 %)."."""
    ratio = np.asarray(ratio, float)
    runs = "this run" if ratio.size == 1 else f"each of these {ratio.size} runs"
    return (
        f"{runs} made {spread_percent(ratio)} of the updates its own {bound} allows "
        f"(median {percent(np.median(ratio))})."
    )


def halving_reason(result, bias: bool) -> str:
    """Why halving γ need not multiply the bound on screen by exactly 4, from the runs: the
    range of R over them, and with a bias that γ₂ is not proportional to γ."""
    radius = np.asarray(result.radius, float)
    spread = (
        f"R is {radius[0]:.4g} in every run"
        if np.ptp(radius) == 0
        else f"R ranged from {radius.min():.4g} to {radius.max():.4g} over these runs"
    )
    if bias:
        return (
            "T(A) divides by γ₂², the margin of the padded examples, where the bias "
            f"counts in the norm, so γ₂ need not be proportional to γ; and {spread}."
        )
    return f"(R/γ)² would grow by 4 per halving if R stayed the same; {spread}."


def shrinking_margin_counts(values, median_updates) -> str:
    """What the median update counts did as the margin shrank, in words, from the runs.

    ``values`` increasing margins and their median update counts (shape (n_values,)),
    read from the largest margin to the smallest: the overall change and how many
    steps to a smaller margin raised, lowered or kept the median.
    """
    counts = np.asarray(median_updates, float)[np.argsort(values)[::-1]]
    change = np.diff(counts)
    rose, fell, same = int(np.sum(change > 0)), int(np.sum(change < 0)), int(np.sum(change == 0))
    steps = (
        [f"rose at {rose}"] + [f"fell at {fell}"] * (fell > 0) + [f"stayed at {same}"] * (same > 0)
    )
    return (
        f"The median observed count went from {counts[0]:g} updates at the largest "
        f"margin to {counts[-1]:g} at the smallest; it {', '.join(steps)} of the "
        f"{change.size} steps to a smaller margin."
    )


def step_changes(result, column: str) -> tuple[int, int, int]:
    """From each swept value to the next larger one, for each seed: how often ``column``
    rose, fell or stayed the same (relative tolerance 1e-9). Returns (rose, fell, same)."""
    rose = fell = same = 0
    data = np.asarray(getattr(result, column), float)
    for seed in np.unique(result.seed):
        mask = result.seed == seed
        series = data[mask][np.argsort(result.value[mask])]
        change = np.diff(series)
        tolerance = 1e-9 * np.maximum(np.abs(series[:-1]), 1e-300)
        rose += int(np.sum(change > tolerance))
        fell += int(np.sum(change < -tolerance))
        same += int(np.sum(np.abs(change) <= tolerance))
    return rose, fell, same


def shift_findings(result) -> str:
    """What the translation runs on screen show, counted step by step (Exercise 1.29)."""
    steps = sum(int(np.sum(result.seed == seed)) - 1 for seed in np.unique(result.seed))
    if steps == 0:
        return "Give at least two values of u to see how the runs change with the shift."
    seeds = np.unique(result.seed).size
    r, g, t, u = (
        step_changes(result, column) for column in ("radius", "gamma_2", "padded", "updates")
    )

    def times(k: int) -> str:
        return f"{k} of {steps}"

    claims = [
        ("T(A) grew", t[0]),
        ("γ₂ shrank", g[1]),
        ("R grew", r[0]),
        ("the number of updates grew", u[0]),
    ]
    held = [claim for claim, count in claims if count == steps]
    failed = [f"{claim} (only {count} of {steps})" for claim, count in claims if count < steps]
    text = (
        f"**What these runs show.** Going from each shift u to the next larger one, "
        f"for each of the {seeds} seed{'s' if seeds != 1 else ''} ({steps} steps in all): "
        f"R grew in {times(r[0])}; γ₂ shrank in {times(g[1])} and grew in {times(g[0])}; "
        f"T(A) grew in {times(t[0])} and shrank in {times(t[1])}; the number of updates "
        f"grew in {times(u[0])}, fell in {times(u[1])} and stayed the same in "
        f"{times(u[2])}. "
    )
    text += (
        "Held every time: " + ", ".join(held) + ". " if held else "None of these held every time. "
    )
    text += (
        "Did not hold every time: " + ", ".join(failed) + "."
        if failed
        else "All of them held every time here."
    )
    return text


def scaling_setting(bias: bool) -> str:
    """Whether the scaling runs learn a bias, and what that does to the answer
    (Exercise 1.29). Through the origin, w₀ = 0 and δ = 0, scaling every xᵢ by λ > 0
    scales every iterate by λ and every score by λ², so the updates are the same; with a
    bias the padded coordinate 1 is not scaled, so γ₂, T(A) and the run can change."""
    if bias:
        return (
            "**These runs learn a bias b** (Learn a bias is on). The padded "
            "coordinate 1 is not scaled with the data, so the margin γ₂ of the padded "
            "examples, the bound T(A) and the number of updates can all change with λ. "
            "Switch Learn a bias off and the answer flips: the run does not change."
        )
    return (
        "**These runs go through the origin, with no bias** (Learn a bias is off). Every "
        "iterate is λ times the unscaled one and every score λ² times, so the same "
        "examples are updated on and the number of updates does not change with λ. "
        "Switch Learn a bias on and the answer flips: the counts can change."
    )


def seeds_changed(result) -> tuple[int, int]:
    """(seeds whose number of updates changed with the swept value, seeds)."""
    seeds = np.unique(result.seed)
    changed = sum(np.unique(result.updates[result.seed == s]).size > 1 for s in seeds)
    return int(changed), int(seeds.size)


def scaling_findings(result) -> str:
    """With a bias: for how many seeds the number of updates changed with λ (the runs on
    screen, not a promise)."""
    if np.unique(result.value).size < 2:
        return "Give at least two values of λ to see whether the runs change with λ."
    changed, seeds = seeds_changed(result)
    return (
        f"**What these runs show.** With a bias, the number of updates changed with λ for "
        f"{changed} of {seeds} seed{'s' if seeds != 1 else ''}."
    )


def largest_bound_text(result, name: str) -> str:
    """The chart's blue line in numbers: at each swept value the largest bound over its runs
    and the seed of that run ("u = 0: 233.5239 (seed 0); ..."), to the four decimals of the
    table of runs; empty beyond eight values."""
    values = result.values()
    if values.size > 8:
        return ""
    parts = []
    for value in values:
        runs = np.flatnonzero(result.value == value)
        top = runs[np.argmax(result.bound[runs])]
        parts.append(f"{name} = {value:g}: {result.bound[top]:.4f} (seed {result.seed[top]})")
    return "; ".join(parts)
