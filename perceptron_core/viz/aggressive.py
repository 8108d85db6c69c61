"""Figures and texts of the /aggressive page (Remark 1.19 and Exercise 1.20 of the notes).

Arrays (or the core's result objects) in, ``plotly.graph_objects.Figure`` (or Markdown)
out. Conventions follow :mod:`perceptron_core.constructions`: examples are numbered
k = 1, 2, ... (k counts examples; t is kept for a count of updates, as everywhere in
the app), 1 = 2^0 counts as a power of two, every label is +1, delta = 0 and
sign(0) = -1.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from . import style
from .geometry import halfplane_in_box

#: Line style of the two rules (colour, dash and marker shape all differ)
RULE_STYLE = {
    "standard": dict(
        name="mistake-driven (update only on a mistake)",
        color=style.WEIGHT,
        dash="solid",
        symbol="circle",
    ),
    "aggressive": dict(
        name="aggressive (update on every example)", color=style.STEP, dash="dash", symbol="diamond"
    ),
}

#: Traces of the swing animation, in order (every frame updates all of them)
SWING_TRACES = (
    "predicted +1 region",
    "previous line",
    "line w·x + b = 0",
    "examples (label +1)",
    "misclassified now",
    "the example of this step",
)
#: subscript digits, for example numbers written as indices (x₃₂)
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

#: Remark 1.19's sequence and why the aggressive rule errs on it (Markdown with KaTeX)
SEQUENCE = r"""
Fix one unit vector $\mathbf{x}$ ($\|\mathbf{x}\|_2 = 1$). Example number $k$ is
$\mathbf{x}_k$, counting from the first example as number 1 (here $k$ counts examples;
$t$ counts updates elsewhere in this app).
Every label is $y_k = +1$, the threshold is $\delta = 0$, the weights start at
$\mathbf{w} = \mathbf{0}, b = 0$, and

$$
\mathbf{x}_k = \begin{cases} -2\mathbf{x}, & k \text{ a power of two,}\\ \mathbf{x}, & \text{otherwise}\end{cases}
$$
(the powers of two being $1, 2, 4, 8, \dots$: we count from 1 and treat $1 = 2^0$ as one).

The data are separable: $\mathbf{w} = \mathbf{0}, b = 1$ scores $+1$ on every example.
Because every label is $+1$, the aggressive rule simply adds up the padded examples: after
the first $k$ examples its weights are
$(\mathbf{w}_k, b_k) = \sum_{i \le k} (\mathbf{x}_i, 1)$ (one update per example, so these
are also its weights after $k$ updates), and the score of the next example is

$$
\begin{aligned} \langle (\mathbf{w}_k, b_k), \mathbf{a}_{k+1} \rangle
&= \Big\langle \sum_{i\le k} \mathbf{x}_i,\ \mathbf{x}_{k+1} \Big\rangle + k\\
&= k\,\big(\langle \bar{\mathbf{x}}_k, \mathbf{x}_{k+1}\rangle + 1\big), \end{aligned}
$$
where $\bar{\mathbf{x}}_k = \tfrac1k \sum_{i\le k} \mathbf{x}_i$ is the mean of the first
$k$ examples.

It is a mistake (score $\le 0$, since $\operatorname{sign}(0) = -1$) exactly when
$\langle \bar{\mathbf{x}}_k, \mathbf{x}_{k+1}\rangle \le -1$.
"""
#: why the powers of two keep failing: the running average (Markdown with KaTeX)
AVERAGE = r"""
Most examples equal $\mathbf{x}$, so the average $\bar{\mathbf{x}}_k$ creeps towards
$\mathbf{x}$ and $\langle \bar{\mathbf{x}}_k, \mathbf{x}_{k+1}\rangle$ tends to $1$ when
$k+1$ is not a power of two. Just before a power of two, $\mathbf{x}_{k+1} = -2\mathbf{x}$ and
the same product tends to $\langle \mathbf{x}, -2\mathbf{x}\rangle = -2$, which is below the
threshold $-1$. The powers of two never run out, so neither do the mistakes.
"""
#: Exercise 1.20: a sequence on which the aggressive rule errs every time (Markdown, KaTeX)
EXERCISE = r"""
In one dimension take $y_k = +1$ and $x_k = (-1)^{k-1}(2k-1)$, i.e. $1, -3, 5, -7, \dots$.
The partial sums alternate: $\sum_{i \le k} x_i = (-1)^{k+1}\, k$, and the bias after $k$
examples is $k$. The score of example $k + 1$ is therefore
$x_{k+1}\,(-1)^{k+1} k + k = -(2k+1)k + k = -2k^2 < 0$ (and $0$ on the very first example),
so the aggressive rule is wrong **every** time.

* **It is separable anyway.** The constant rule $w = 0, b = 1$ gives
  $y_k(w x_k + b) = 1 > 0$ for every $k$: the labels are all $+1$, the bias alone does the job.
* **The examples have to grow.** When every step is a mistake the aggressive rule **is** the
  perceptron, so the proof of Theorem 1.28 applies to it. With $|x_k| \le B$ the padded
  examples have $\|\mathbf{a}_k\|_2^2 \le B^2 + 1$, and the separator $(0, 1)$ has norm 1
  and margin $s = 1$, so bound (1.4) with $\delta = 0$ says: a run that starts at
  $\mathbf{w}_0 = \mathbf{0}, b_0 = 0$ makes at most $B^2 + 1$ mistakes before its first
  correct prediction. (From another start the count is at most
  $B^2 + 1 + 2\|(\mathbf{w}_0, b_0)\|$, the $\|\mathbf{w}_0\|$ term of (1.4); a run of
  mistakes that begins later in a sequence starts from whatever weights it has then.) An
  endless run of mistakes from the start is only possible because $|x_k| = 2k - 1$ is
  unbounded.
"""


def example_list(numbers) -> str:
    """Example numbers in words: "1", "1 and 3", "1, 3 and 5"."""
    numbers = [str(int(v)) for v in numbers]
    return numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]


def mistakes_text(result) -> str:
    """What both rules did on the sequence on screen, from its mistake lists (Markdown): the
    aggressive mistakes split into the early ones and the unbroken run of powers of two
    that ends at the last power of two up to T."""
    mistakes = {int(v) for v in result.mistakes_aggressive}
    powers = [2**j for j in range(int(result.T).bit_length()) if 2**j <= result.T]
    tail: list[int] = []
    for power in reversed(powers):  # the powers of two, from the last one down, while erring
        if power not in mistakes:
            break
        tail.insert(0, power)
    early = sorted(mistakes - set(tail))
    w = f"{result.standard_w:g}".replace("-", "−")
    text = (
        f"The mistake-driven rule errs on examples {example_list(result.mistakes_standard)} "
        f"and then ends with w = {w}·x and b = {result.standard_b:g}, which scores both x "
        "and −2x positively, so it never changes again. The aggressive rule errs on "
        f"examples {example_list(early)}"
    )
    if not tail:
        return text + "."
    return (
        text + f", and then on every power of two from {tail[0]} to {tail[-1]} "
        f"({len(tail)} of them, the last power of two up to T = {result.T:,}). On a "
        "logarithmic axis those mistakes are evenly spaced, so their count grows like "
        "log₂ T without end."
    )


def _log_range(t_max: float) -> list[float]:
    """Log-axis range [log10 1, log10 t_max] with a little room on the right."""
    return [-0.05, math.log10(max(float(t_max), 10.0)) + 0.05]


def cumulative_mistakes_figure(result, t_max: int | None = None) -> go.Figure:
    """Cumulative mistakes of both rules against the example number k (log axis) as steps.

    Parameters
    ----------
    result : AggressiveCounterexample
        From :func:`perceptron_core.constructions.aggressive_counterexample`;
        ``result.mistakes_standard`` and ``result.mistakes_aggressive`` are
        int arrays holding the 1-based numbers of the examples erred on and
        ``result.cumulative(k, rule)`` the counts.
    t_max : int, optional
        Right end of the axis: the last example shown (default ``result.T``).

    Returns
    -------
    go.Figure
        One step trace per rule (``line_shape="hv"``): a jump of one at each
        mistake time. The mistake-driven line goes flat after its last
        mistake; the aggressive one keeps climbing at the powers of two.
    """
    t_max = int(result.T if t_max is None else t_max)
    fig = go.Figure()
    for rule, times in (
        ("standard", result.mistakes_standard),
        ("aggressive", result.mistakes_aggressive),
    ):
        rule_style = RULE_STYLE[rule]
        times = np.asarray(times, dtype=np.int64)
        times = times[times <= t_max]
        t = np.unique(np.concatenate([[1], times, [t_max]]))
        counts = np.asarray(result.cumulative(t, rule=rule), dtype=np.int64)
        fig.add_trace(
            go.Scatter(
                x=t,
                y=counts,
                mode="lines",
                line_shape="hv",
                line=dict(
                    color=rule_style["color"],
                    dash=rule_style["dash"],
                    width=7 if rule == "standard" else 4,
                ),
                name=f"{rule_style['name']}: {int(counts[-1])} mistakes up to T",
                legendgroup=rule,
                hovertemplate="example %{x:,}<br>mistakes so far = %{y}<extra></extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=times,
                y=np.asarray(result.cumulative(times, rule=rule)),
                mode="markers",
                marker=dict(
                    color=rule_style["color"],
                    symbol=rule_style["symbol"],
                    size=style.MARKER_SIZE + 2,
                    line=dict(color="white", width=1),
                ),
                name=f"{rule} mistake",
                legendgroup=rule,
                showlegend=False,
                hovertemplate="mistake on example %{x:,}<br>total = %{y}<extra></extra>",
            )
        )
    style.base_layout(fig, height=520)
    fig.update_xaxes(
        type="log",
        range=_log_range(t_max),
        title="example number k (log scale)",
        dtick=1,
        exponentformat="power",
    )
    fig.update_yaxes(title="mistakes on examples 1 to k", rangemode="tozero")
    return fig


def running_average_figure(t: np.ndarray, values: np.ndarray) -> go.Figure:
    """<x̄_k, x_(k+1)> against the example number k (log axis) with the threshold line at -1.

    Parameters
    ----------
    t : ndarray of int, shape (m,)
        Example numbers k >= 1 (e.g. ``result.t_grid``).
    values : ndarray of float, shape (m,)
        <x̄_k, x_(k+1)> at those k (e.g. ``result.average_products``).

    Returns
    -------
    go.Figure
        Points at or below -1 (the aggressive rule errs on example k + 1) are
        drawn as orange diamonds, the others as grey circles; the dashed
        horizontal trace named "threshold -1" marks the line y = -1, and the
        dotted lines y = 1 and y = -2 the two limits of the remark.
    """
    t = np.asarray(t, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    if t.shape != values.shape:
        raise ValueError(
            f"t and values must have the same shape, got {t.shape} and {values.shape}."
        )
    below = values <= -1
    t_max = int(t.max()) if t.size else 10
    fig = go.Figure()
    span = [1, max(t_max, 10)]
    fig.add_trace(
        go.Scatter(
            x=span,
            y=[-1, -1],
            mode="lines",
            name="threshold −1",
            line=dict(color=style.HYPERPLANE, dash="dash", width=3),
            hoverinfo="skip",
        )
    )
    for level, label in ((1.0, "limit ⟨x, x⟩ = 1"), (-2.0, "limit ⟨x, −2x⟩ = −2")):
        fig.add_trace(
            go.Scatter(
                x=span,
                y=[level, level],
                mode="lines",
                name=label,
                line=dict(color=style.GHOST, dash="dot", width=2),
                hoverinfo="skip",
                showlegend=False,
            )
        )
        # left of the middle, above the line at 1 and under the line at −2: where no point is
        fig.add_annotation(
            x=0.12,
            xanchor="left",
            xref="paper",
            y=level,
            yanchor="bottom" if level > 0 else "top",
            text=label,
            showarrow=False,
            font=dict(color="#555555"),
        )
    fig.add_trace(
        go.Scatter(
            x=t[~below],
            y=values[~below],
            mode="markers",
            name="above −1: next example is correct",
            marker=dict(color=style.GHOST, symbol="circle", size=style.MARKER_SIZE - 2),
            hovertemplate="k = %{x:,}<br>⟨x̄ₖ, xₖ₊₁⟩ = %{y:.4f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=t[below],
            y=values[below],
            mode="markers",
            name="at or below −1: the aggressive rule errs on example k + 1",
            marker=dict(
                color=style.STEP,
                symbol="diamond",
                size=style.MARKER_SIZE + 3,
                line=dict(color="black", width=1),
            ),
            hovertemplate="k = %{x:,}<br>⟨x̄ₖ, xₖ₊₁⟩ = %{y:.4f}<extra></extra>",
        )
    )
    style.base_layout(fig, height=520)
    fig.update_xaxes(
        type="log",
        range=_log_range(t_max),
        dtick=1,
        exponentformat="power",
        title="example number k (log scale)",
    )
    fig.update_yaxes(title="⟨x̄ₖ, xₖ₊₁⟩", range=[-2.6, 4.4])
    # the legend above the plot, where it covers no point, line or label
    fig.update_layout(
        legend=dict(orientation="h", x=0, xanchor="left", y=1.02, yanchor="bottom"),
        margin=dict(t=110),
    )
    return fig


def _line_x(w: float, b: float) -> float | None:
    """x1 where w·x1 + b = 0 (None when w = 0: no line)."""
    return None if w == 0 else -b / w


def _vertical(position: float | None, y_lim: tuple[float, float]) -> tuple[list, list]:
    """The vertical line x1 = position over the view's height (nothing when there is no line)."""
    if position is None:
        return [], []
    return [position, position], list(y_lim)


def _swing_traces(
    w: float,
    b: float,
    w_before: float,
    b_before: float,
    x_t: float,
    distinct: np.ndarray,
    x_lim,
    y_lim,
) -> list[go.Scatter]:
    """The traces of one frame, in the order of :data:`SWING_TRACES`.

    (w, b) are the weights after the step, read as the plane weights ((w, 0), b);
    (w_before, b_before) the weights before it; x_k the example of the step.
    """
    wrong = distinct[distinct * w + b <= 0]  # label +1 and sign(0) = -1: wrong iff w x + b <= 0
    region_x, region_y = halfplane_in_box((w, 0.0), b, x_lim, y_lim, label=1)
    line_x, line_y = _vertical(_line_x(w, b), y_lim)
    before_x, before_y = _vertical(_line_x(w_before, b_before), y_lim)
    return [
        go.Scatter(
            x=region_x,
            y=region_y,
            fill="toself",
            fillcolor=style.POSITIVE_FILL,
            mode="lines",
            line=dict(width=0),
            name=SWING_TRACES[0],
            hoverinfo="skip",
        ),
        go.Scatter(
            x=before_x,
            y=before_y,
            mode="lines",
            name="line before this step",
            line=dict(color=style.GHOST, dash="dash", width=3),
            hoverinfo="skip",
        ),
        go.Scatter(
            x=line_x,
            y=line_y,
            mode="lines",
            name="line after this step",
            line=dict(color=style.HYPERPLANE, width=4),
            hoverinfo="skip",
        ),
        go.Scatter(
            x=distinct,
            y=np.zeros_like(distinct),
            mode="markers",
            marker=style.class_marker(1) | dict(size=style.MARKER_SIZE + 5),
            name="examples (label +1)",
            hoverinfo="skip",
        ),
        go.Scatter(
            x=wrong,
            y=np.zeros_like(wrong),
            mode="markers",
            marker=dict(color=style.NEGATIVE, symbol="square-open", size=32, line=dict(width=4)),
            name="misclassified by the new line",
            hoverinfo="skip",
        ),
        go.Scatter(
            x=[x_t],
            y=[0.0],
            mode="markers",
            marker=dict(color=style.STEP, symbol="circle-open", size=44, line=dict(width=4)),
            name="the example of this step",
            hoverinfo="skip",
        ),
    ]


def _swing_title(k: int, x_k: float, score: float, w: float, b: float, x_lim) -> str:
    """What the step of example k did, in words: the example, its score, and where the new
    line is (x₁ is the first coordinate of the plane)."""
    power = k & (k - 1) == 0
    where = "no line (w = 0)" if w == 0 else f"line at x₁ = {-b / w:.2f}"
    if w != 0 and not x_lim[0] <= -b / w <= x_lim[1]:
        where += " (off screen)"
    index = str(k).translate(SUBSCRIPTS)
    return (
        f"Example {k}{' (a power of two)' if power else ''}: x{index} = "
        f"({x_k:g}, 0), score {score:g} → {'MISTAKE' if score <= 0 else 'correct'}; "
        f"{where}"
    ).replace("-", "−")


def _swing_frame(
    k: int,
    x_values: np.ndarray,
    sums: np.ndarray,
    biases: np.ndarray,
    distinct: np.ndarray,
    x_lim,
    y_lim,
) -> tuple[list[go.Scatter], str]:
    """Traces and title of the step of example k (1-based): the aggressive weights after
    it are (S_k, k), S_k the sum of the first k examples' first coordinates."""
    w, b = float(sums[k]), float(biases[k])
    w_before, b_before = float(sums[k - 1]), float(biases[k - 1])
    x_k = float(x_values[k - 1])
    score = x_k * w_before + b_before  # y (w·x + b) before the step, label +1: mistake iff <= 0
    traces = _swing_traces(w, b, w_before, b_before, x_k, distinct, x_lim, y_lim)
    return traces, _swing_title(k, x_k, score, w, b, x_lim)


def _animation_controls(n_frames: int, frame_ms: int) -> dict:
    """Play / Pause buttons and a slider over frames "1".."n_frames", below the plot."""
    play = dict(
        frame=dict(duration=frame_ms, redraw=True),
        fromcurrent=True,
        transition=dict(duration=0),
        mode="immediate",
    )
    pause = dict(
        frame=dict(duration=0, redraw=False), transition=dict(duration=0), mode="immediate"
    )
    jump = dict(frame=dict(duration=0, redraw=True), transition=dict(duration=0), mode="immediate")
    return dict(
        updatemenus=[
            dict(
                type="buttons",
                direction="left",
                showactive=False,
                x=0,
                xanchor="left",
                y=-0.12,
                yanchor="top",
                pad=dict(r=10, t=10),
                buttons=[
                    dict(label="Play", method="animate", args=[None, play]),
                    dict(label="Pause", method="animate", args=[[None], pause]),
                ],
            )
        ],
        sliders=[
            dict(
                active=0,
                x=0.17,
                len=0.83,
                y=-0.12,
                yanchor="top",
                pad=dict(t=10),
                currentvalue=dict(prefix="example ", font=dict(size=style.FONT_SIZE)),
                steps=[
                    dict(label=str(t), method="animate", args=[[str(t)], jump])
                    for t in range(1, n_frames + 1)
                ],
            )
        ],
    )


def swing_animation(
    x_values: np.ndarray, *, x_lim: tuple[float, float] = (-4.0, 3.0), frame_ms: int = 350
) -> go.Figure:
    """Animation of the aggressive hyperplane of Remark 1.19 in the plane, one frame per step.

    The examples are (x_k, 0) with x_k in {1, -2} and every label is +1, so the
    aggressive weight after k examples is sum_{i<=k} ((x_i, 0), 1): w = (S_k, 0) with
    S_k = x_1 + ... + x_k, and b = k. Its hyperplane is the vertical line
    x1 = -k / S_k (no line when S_k = 0: then every point is predicted sign(k)).

    Parameters
    ----------
    x_values : ndarray of float, shape (T,)
        x_1, ..., x_T (first feature; e.g. ``counterexample_x(np.arange(1, T + 1))``).
    x_lim : (float, float)
        Fixed range of the x1 axis; lines outside it are reported in the title.
    frame_ms : int
        Duration of one frame when playing.

    Returns
    -------
    go.Figure
        ``len(fig.frames) == T`` frames named "1".."T"; frame k draws the line of
        the weights after example k (black), the line before the step (grey, dashed), the
        half-plane predicted +1 (shaded), both distinct examples (blue circles),
        the ones those weights misclassify (vermillion open squares) and example k
        (orange ring). Play / Pause buttons and a slider run it in the browser.
    """
    x_values = np.asarray(x_values, dtype=np.float64).ravel()
    if x_values.size == 0:
        raise ValueError("x_values must hold at least one example.")
    T = x_values.size
    sums = np.concatenate([[0.0], np.cumsum(x_values)])  # S_0..S_T
    biases = np.arange(T + 1, dtype=np.float64)  # b_0..b_T
    distinct = np.unique(x_values)
    y_lim = (-1.5, 1.5)
    frames = []
    for k in range(1, T + 1):
        traces, title = _swing_frame(k, x_values, sums, biases, distinct, x_lim, y_lim)
        frames.append(
            go.Frame(
                data=traces,
                name=str(k),
                traces=list(range(len(traces))),
                layout=dict(title=dict(text=title)),
            )
        )
    first_traces, first_title = _swing_frame(1, x_values, sums, biases, distinct, x_lim, y_lim)
    fig = go.Figure(data=first_traces, frames=frames)
    style.base_layout(fig, title=first_title, height=660)
    for value in distinct:  # static labels above the two points (frames leave them alone)
        fig.add_annotation(
            x=value,
            y=0.35,
            yanchor="bottom",
            text=f"({value:g}, 0)",
            showarrow=False,
            bgcolor="rgba(255, 255, 255, 0.8)",
            font=dict(color=style.POSITIVE, size=style.FONT_SIZE),
        )
    fig.update_layout(
        margin=dict(l=60, r=20, t=150, b=150),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
        title=dict(y=0.98, yanchor="top", x=0, xanchor="left"),
        **_animation_controls(T, frame_ms),
    )
    fig.update_xaxes(range=list(x_lim), title="x₁", zeroline=True, fixedrange=True)
    fig.update_yaxes(range=list(y_lim), title="x₂", fixedrange=True, showticklabels=False)
    return fig


def always_wrong_figure(sequence) -> go.Figure:
    """Exercise 1.20: the examples x_k and the aggressive score of each, all <= 0.

    Parameters
    ----------
    sequence : AlwaysWrongSequence
        From :func:`perceptron_core.constructions.always_wrong_sequence`;
        ``x`` and ``scores`` are float arrays of shape (T,).

    Returns
    -------
    go.Figure
        Two stacked panels sharing the axis of example numbers k: x_k = (-1)^(k-1) (2k - 1)
        on top (class +1 circles), the score of example k before its update,
        -2 (k-1)^2, below as bars
        with the zero line (a mistake whenever the bar does not rise above 0).
    """
    x = np.asarray(sequence.x, dtype=np.float64)
    scores = np.asarray(sequence.scores, dtype=np.float64)
    t = np.arange(1, x.size + 1)
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.08,
        subplot_titles=(
            "the examples xₖ (all labelled +1)",
            "score of example k before its update: never above 0",
        ),
    )
    fig.add_trace(
        go.Scatter(
            x=t,
            y=x,
            mode="lines+markers",
            name="xₖ (label +1)",
            marker=style.class_marker(1),
            line=dict(color=style.POSITIVE, width=1),
            hovertemplate="example %{x}<br>xₖ = %{y:g}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Bar(
            x=t,
            y=scores,
            name="score (≤ 0: mistake)",
            marker_color=style.NEGATIVE,
            hovertemplate="example %{x}<br>score = %{y:g}<extra></extra>",
        ),
        row=2,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=[0.5, t[-1] + 0.5],
            y=[0, 0],
            mode="lines",
            name="score 0",
            line=dict(color=style.HYPERPLANE, dash="dash", width=2),
            hoverinfo="skip",
        ),
        row=2,
        col=1,
    )
    style.base_layout(fig, height=620)
    fig.update_layout(showlegend=False, margin=dict(t=60))
    fig.update_annotations(font_size=style.FONT_SIZE)
    fig.update_xaxes(title="example number k", row=2, col=1)
    fig.update_yaxes(title="xₖ", row=1, col=1)
    fig.update_yaxes(title="score", row=2, col=1)
    return fig
