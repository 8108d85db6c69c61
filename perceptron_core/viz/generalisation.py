"""Pictures of /generalisation: the margin perceptron's player payload, four figures, and the
texts that read them.

Arrays in, JSON-ready data, Plotly figures or Markdown out; never streamlit. Sources:
notes-perceptron-margin-generalization.txt (the margin perceptron, its Lemma
"at most 3/gamma^2 margin mistakes" and the stability Theorem
E[L(beta_hat)] <= 3 / ((N + 1) gamma^2)) and notebook-perceptron-sgd-d2l.txt
(the perceptron as SGD on max(0, -y f(x))).
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

import numpy as np
import plotly.graph_objects as go

from perceptron_core.generalisation import (
    CURVE_MAX_TEST_POINTS,
    CURVE_MAX_WORK,
    LOSS_LABELS,
    LOSSES,
    sgd_linear,
)

from ..shown_numbers import relation_text as shown_relation
from . import style
from .player import encode_indices
from .train import vector_scale

#: what the page calls the two kinds of margin mistake (update_scores m = y x·beta)
KIND_WRONG = "wrong side"  # m <= 0 (on the line counts as wrong: sign(0) = -1)
KIND_CLOSE = "inside the band"  # 0 < m < 1: right side, but within the margin band


def mistake_kinds(scores) -> list[str]:
    """The kind of each margin mistake from its margin m = y x·beta before the update."""
    return [KIND_WRONG if s <= 0 else KIND_CLOSE for s in np.asarray(scores, dtype=float)]


# ---------------------------------------------------------------------------
# 1. The margin perceptron, stepped in the browser
# ---------------------------------------------------------------------------


def lemma_quantities(weights, beta_star, margin) -> dict:
    """The Lemma's two quantities after t = 0..M margin mistakes and their lines.

    beta_t·beta* >= t gamma (each margin mistake adds y x with y x·beta* >= gamma)
    and ||beta_t||^2 <= 3 t (||beta + y x||^2 = ||beta||^2 + 2 y x·beta + ||x||^2
    < ||beta||^2 + 2 + 1 when y x·beta < 1 and ||x|| = 1). Together with
    Cauchy-Schwarz, (t gamma)^2 <= ||beta_t||^2 <= 3 t, so t <= 3 / gamma^2.

    Parameters
    ----------
    weights : ndarray (M + 1, d), beta_0 = 0 .. beta_M
    beta_star : ndarray (d,), unit vector with y x·beta* >= gamma on the data
    margin : float, gamma

    Returns
    -------
    dict of lists of length M + 1: alignment, alignment_lower, norm_sq, norm_sq_upper
    """
    weights = np.asarray(weights, dtype=float)
    t = np.arange(weights.shape[0])
    return {
        "alignment": (weights @ np.asarray(beta_star, float)).tolist(),
        "alignment_lower": (t * float(margin)).tolist(),
        "norm_sq": np.einsum("ij,ij->i", weights, weights).tolist(),
        "norm_sq_upper": (3.0 * t).tolist(),
    }


def exact_decimal(value) -> Fraction:
    """A setting as the decimal it prints as (a typed 0.1 is 1/10), exactly."""
    return Fraction(repr(float(value)))


def relation_text(value: Fraction) -> str:
    """A computed bound beside its formula: "= 300" when the digits shown are its exact
    value, else "≈ 133.33" (two decimals from 1 up, three significant digits below 1),
    so "3/γ² = 133.33" is never written for 400/3."""
    if value.denominator == 1:
        text = f"{value.numerator:,}"
    else:
        number = float(value)
        text = f"{number:,.2f}" if abs(number) >= 1 else f"{number:.3g}"
    shown = Fraction(text.replace(",", ""))
    return ("= " if shown == value else "≈ ") + text.replace("-", "−")


def lemma_bound(margin: float) -> Fraction:
    """The Lemma's 3/γ², exactly, for γ as typed."""
    return 3 / exact_decimal(margin) ** 2


def whole_part(value: Fraction) -> int:
    """The largest whole number not above ``value``: a cap on a count."""
    return value.numerator // value.denominator


def lemma_sentence(margin: float) -> str:
    """'3/γ² = 300, so at most 300' (or '≈ 133.33, so at most 133'), decided exactly."""
    bound = lemma_bound(margin)
    return f"3/γ² {relation_text(bound)}, so at most {whole_part(bound):,}"


def own_updates(indices) -> dict:
    """The example the first updates were all on and how many they were: while w is k
    times that example's y x (k = 1 .. until), its score is exactly k (unit vectors,
    ``OwnScore``). The player writes that score, not its float product."""
    indices = [int(i) for i in indices]
    until = 0
    while until < len(indices) and indices[until] == indices[0]:
        until += 1
    return {"index": indices[0] if indices else -1, "until": until}


def margin_player_payload(X, y, trace, *, beta_star, margin, player, limit=1.15) -> dict:
    """Everything the /generalisation player shows for one margin-perceptron run.

    Parameters
    ----------
    X : ndarray (n, 2), unit vectors; y : ndarray (n,), labels in {-1, +1}
    trace : Trace of ``margin_perceptron(..., unit=True)`` on (X, y)
    beta_star : ndarray (2,), the planted unit vector; margin : float, gamma
    player : dict from ``viz.player.player_spec``
    limit : float, half-width of the square view

    Returns
    -------
    dict: the data, the updates (weights (M+1, 2), indices, steps, scores, kinds),
    the example examined at each step, the Lemma's quantities, the bound
    3/gamma^2, counts of both kinds and the texts.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=int)
    weights = np.asarray(trace.weights, dtype=float)
    scores = np.asarray(trace.update_scores, dtype=float)
    kinds = mistake_kinds(scores)
    n_wrong = kinds.count(KIND_WRONG)
    n_close = kinds.count(KIND_CLOSE)
    steps = np.arange(1, trace.n_examined + 1)
    examined = encode_indices(trace.indices_at_steps(steps) if steps.size else [], len(y))
    bound = lemma_bound(margin)
    count = trace.n_updates
    if trace.converged:
        end = (
            f"Converged after {count} margin mistake{'s' * (count != 1)} ({n_wrong} on "
            f"the wrong side, {n_close} right but inside the band) in "
            f"{trace.n_examined:,} examined examples: every point now has y x·w ≥ 1. The "
            f"Lemma allows at most {lemma_sentence(margin)} margin mistakes."
        )
    else:
        end = f"Stopped without converging after {count} margin mistakes: {trace.stop_reason}."
    star = np.asarray(beta_star, dtype=float)
    closest = float(np.min(y * (X @ star)))  # the planted margin these points have
    gamma = f"{margin:g}"
    held = (
        f"the smallest y x·w* here is {closest:.4f}"
        if closest >= margin
        else f"**not** met here: the smallest y x·w* is {closest:.6g}, please report it"
    )
    return {
        "player": player,
        "X": X.tolist(),
        "y": y.tolist(),
        "limit": float(limit),
        "scale": float(vector_scale(weights, limit)),
        "planted": {
            "beta": [float(v) for v in beta_star],
            "margin": float(margin),
            "margin_text": gamma,
        },
        "examined": examined,
        "updates": {
            "weights": weights.tolist(),
            "indices": [int(i) for i in trace.update_indices],
            "steps": [int(s) for s in trace.update_steps],
            "scores": scores.tolist(),
            "kinds": kinds,
        },
        "own": own_updates(trace.update_indices),
        "counts": {"margin_mistakes": count, "wrong": n_wrong, "close": n_close},
        "bound": {
            "value": float(bound),
            "relation": relation_text(bound),
            "hypotheses": (
                f"every ‖x‖ = 1 and the planted unit w* has y x·w* ≥ γ = "
                f"{gamma} for every point (the data are drawn that way; "
                f"{held}); w starts at 0"
            ),
        },
        "proof": {
            **lemma_quantities(weights, beta_star, margin),
            "title": (
                f"Why at most 3/γ² {relation_text(bound)} margin mistakes (the "
                "notes' Lemma): the two lines below cannot both hold for ever"
            ),
            "alignment_title": f"w·w* gains at least γ = {gamma} per margin mistake",
            "alignment_name": "w_t·w*",
            "alignment_lower_name": "t·γ",
            "norm_sq_title": "‖w‖² gains less than 3 per margin mistake",
            "norm_sq_name": "‖w_t‖²",
            "norm_sq_upper_name": "3t",
            "caption": (
                "t counts margin mistakes. Left: each one adds y x, and "
                "y x·w* ≥ γ, so w_t·w* ≥ tγ. Right: ‖w + y x‖² = ‖w‖² + "
                "2 y x·w + ‖x‖² < ‖w‖² + 2 + 1, because y x·w < 1 (that is "
                "what a margin mistake is) and ‖x‖ = 1; so ‖w_t‖² ≤ 3t. Since "
                "w* is a unit vector, tγ ≤ w_t·w* ≤ ‖w_t‖, hence "
                "(tγ)² ≤ 3t, i.e. t ≤ 3/γ²."
            ),
        },
        "converged": bool(trace.converged),
        "end_text": end,
    }


# ---------------------------------------------------------------------------
# 2. Mean test error against N, log-log
# ---------------------------------------------------------------------------


def combine_curves(parts):
    """One curve from single-N curves of the same settings (each N is seeded by (seed, N),
    so this equals one ``generalisation_curve`` call over all the N; a page computes them
    one by one to show progress and cache each)."""
    from dataclasses import replace

    from perceptron_core._checks import frozen

    parts = list(parts)
    if not parts:
        raise ValueError("give at least one curve to combine.")
    stack = {
        name: frozen(np.concatenate([np.asarray(getattr(p, name)) for p in parts]))
        for name in ("n_train", "mean_error", "stderr", "stability_bound", "uniform_bound")
    }
    for name in ("errors", "margin_mistakes"):
        stack[name] = frozen(np.concatenate([np.asarray(getattr(p, name)) for p in parts]))
    return replace(parts[0], **stack)


def curve_rows(curve) -> dict[str, np.ndarray]:
    """The curve's columns plus how many runs had a test error above 0."""
    columns = dict(curve.columns)
    columns["runs_with_error"] = np.count_nonzero(np.asarray(curve.errors) > 0, axis=1)
    columns["repeats"] = np.full(len(curve.n_train), curve.repeats)
    return columns


def curve_csv(curve) -> str:
    """One row per N: the mean error, its standard error, both bounds, runs that erred."""
    columns = curve_rows(curve)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(columns))
    for row in zip(*columns.values()):
        writer.writerow(
            [f"{v:.10g}" if isinstance(v, (float, np.floating)) else int(v) for v in row]
        )
    return out.getvalue()


def curve_floor(curve) -> float:
    """Bottom of the log y axis: a decade under the smallest positive value shown."""
    values = np.concatenate(
        [np.asarray(curve.mean_error, float), np.asarray(curve.stability_bound, float)]
    )
    positive = values[values > 0]
    smallest = float(positive.min()) if positive.size else 1e-3
    return 10 ** (np.floor(np.log10(smallest)) - 1)


#: the narrowest plot a phone gives the curve (px) and the width of a tick label's character
NARROW_PLOT_PX = 250
TICK_CHAR_PX = 9


def size_ticks(sizes) -> list[int]:
    """The values of N to label on the log x axis: the N typed, each at its true place,
    the smallest and the largest always, leaving out one that would run into a neighbour
    on a phone's plot (NARROW_PLOT_PX wide); the table under the chart lists every N."""
    sizes = sorted({int(v) for v in sizes})
    if len(sizes) < 2:
        return sizes
    span = np.log10(sizes[-1]) - np.log10(sizes[0])
    per_decade = NARROW_PLOT_PX / (span * 1.1)  # the plot's padding around the data

    def apart(a: int, b: int) -> bool:  # labels a < b do not touch on the phone
        gap = (np.log10(b) - np.log10(a)) * per_decade
        return gap >= TICK_CHAR_PX * (len(f"{a:,}") + len(f"{b:,}")) / 2 + 8

    kept = [sizes[0]]
    for n in sizes[1:-1]:
        if apart(kept[-1], n) and apart(n, sizes[-1]):
            kept.append(n)
    if apart(kept[-1], sizes[-1]) or len(kept) > 1:
        kept = kept if apart(kept[-1], sizes[-1]) else kept[:-1]
        kept.append(sizes[-1])
    return kept


def curve_figure(curve, *, height=620) -> go.Figure:
    """Mean test error against N on log-log axes, with the stability and uniform bounds.

    Means that are exactly 0 (no run erred) cannot sit on a log axis: they are
    drawn as hollow triangles on the floor, labelled "0 of R runs erred".
    Error bars are one standard error of the mean over the runs. The x axis is labelled
    at the N typed (:func:`size_ticks`), never at a round number beside one.
    """
    n = np.asarray(curve.n_train, dtype=float)
    mean = np.asarray(curve.mean_error, dtype=float)
    stderr = np.nan_to_num(np.asarray(curve.stderr, dtype=float))
    erred = curve_rows(curve)["runs_with_error"]
    floor = curve_floor(curve)
    positive = mean > 0
    how = (
        "closed-form error, d = 2"
        if curve.exact
        else f"error on {curve.n_test:,} fresh points per run"
    )
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=n,
            y=curve.stability_bound,
            mode="lines",
            name="3/((N+1)γ²): stability theorem",
            line=dict(color=style.BOUND, width=3, dash="dash"),
            hovertemplate="N = %{x}: 3/((N+1)γ²) = %{y:.3g}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=n,
            y=curve.uniform_bound,
            mode="lines",
            name=f"uniform law, {curve.confidence:.0%} confidence",
            line=dict(color=style.PLANTED, width=3, dash="dot"),
            hovertemplate="N = %{x}: uniform law %{y:.3g}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=n[positive],
            y=mean[positive],
            mode="lines+markers",
            name=f"mean test error of {curve.repeats} runs",
            line=dict(color=style.HYPERPLANE, width=2),
            marker=dict(size=11),
            error_y=dict(type="data", array=stderr[positive], visible=True, thickness=2),
            customdata=np.column_stack([erred[positive], stderr[positive]]),
            hovertemplate=(
                "N = %{x}: mean %{y:.3g} ± %{customdata[1]:.2g}, "
                f"%{{customdata[0]}} of {curve.repeats} runs erred<extra></extra>"
            ),
        )
    )
    if (~positive).any():
        fig.add_trace(
            go.Scatter(
                x=n[~positive],
                y=np.full((~positive).sum(), floor * 2),
                mode="markers+text",
                name="mean 0: no run erred (drawn on the floor)",
                marker=dict(
                    symbol="triangle-down-open", size=14, color=style.HYPERPLANE, line=dict(width=2)
                ),
                text=[f"0 of {curve.repeats}" for _ in range(int((~positive).sum()))],
                textposition="top center",
                textfont=dict(size=13),
                hovertemplate=f"N = %{{x}}: 0 of {curve.repeats} runs erred<extra></extra>",
            )
        )
    fig.add_hline(
        y=1.0,
        line=dict(color="#777777", width=1.5),
        annotation_text="error 1: a bound above this line says nothing",
        annotation_position="bottom left",
        annotation_font_size=13,
    )
    style.base_layout(fig, height=height)
    top = max(1.5, float(np.max(curve.stability_bound)) * 1.5, float(np.max(curve.uniform_bound)))
    ticks = size_ticks(curve.n_train)
    fig.update_xaxes(
        type="log",
        title_text="N, training points",
        tickmode="array",
        tickvals=ticks,
        ticktext=[f"{v:,}" for v in ticks],
    )
    # error rates in powers of ten (10⁻⁵), not SI prefixes ("10μ" read as ten micro-)
    fig.update_yaxes(
        type="log",
        title_text=f"test error ({how})",
        dtick=1,
        exponentformat="power",
        range=[np.log10(floor), np.log10(top)],
    )
    fig.update_layout(
        legend=dict(
            orientation="h", x=0, xanchor="left", y=-0.2, yanchor="top", font=dict(size=14)
        ),
        margin=dict(l=90, r=20, t=30, b=150),
    )
    return fig


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _number(value: float, digits: int = 3) -> str:
    """A table cell: ``digits`` significant digits, 0 as 0, a true minus sign, and a
    small value in powers of ten as on the chart's axis (6.64×10⁻⁶, not 6.64e-06)."""
    if value == 0:
        return "0"
    if abs(value) >= 10 ** (digits - 1):  # whole digits only: 100, 1,234
        return f"{value:,.0f}".replace("-", "−")
    if abs(value) >= 1e-4:
        return f"{value:.{digits}g}".replace("-", "−")
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPTS)}".replace("-", "−")


def curve_table(curve) -> dict[str, list[str]]:
    """Every N typed, with what the page says about it: the mean test error and its
    standard error (0 when no run erred), and both bounds at that N (the chart's lines).
    Four columns: the table fits a phone's width (the CSV adds the runs that erred)."""
    rows = curve_rows(curve)
    means = [
        ("0, no run erred" if m == 0 else f"{_number(m)} ± {_number(s, 2)}")
        if np.isfinite(s)
        else _number(m)
        for m, s in zip(rows["mean_error"], rows["stderr"])
    ]
    return {
        "N": [f"{int(v):,}" for v in rows["n_train"]],
        "mean test error ± s.e.": means,
        "3/((N+1)γ²)": [_number(v) for v in rows["stability_bound"]],
        f"uniform law, {curve.confidence:.0%}": [_number(v) for v in rows["uniform_bound"]],
    }


def _sizes_text(sizes) -> str:
    """'2', '2 and 5' or '2, 5 and 10'."""
    names = [f"{int(v):,}" for v in sizes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------------------
# 3. Stability: remove one point, retrain, compare
# ---------------------------------------------------------------------------


def stability_summary(full_trace, reduced_trace, heldout: int) -> dict:
    """Did the held-out point cause a margin mistake, and did removing it change beta?

    Parameters
    ----------
    full_trace : Trace of ``margin_perceptron(X, y, order="cyclic")`` on all N + 1 points
    reduced_trace : the same without point ``heldout`` (the others in their order)
    heldout : int, index in 0..N

    Returns
    -------
    dict: mistake_points (sorted indices that caused margin mistakes), caused
    (bool), count (margin mistakes it caused), same (final beta equal bit for bit),
    full_beta, reduced_beta, the updates of both runs.
    """
    indices = np.asarray(full_trace.update_indices)
    caused = int(np.count_nonzero(indices == heldout))
    full_beta = np.asarray(full_trace.w, dtype=float)
    reduced_beta = np.asarray(reduced_trace.w, dtype=float)
    return {
        "mistake_points": sorted(set(int(i) for i in indices)),
        "caused": caused > 0,
        "count": caused,
        "same": bool(np.array_equal(full_beta, reduced_beta)),
        "full_beta": full_beta.tolist(),
        "reduced_beta": reduced_beta.tolist(),
        "full_updates": int(full_trace.n_updates),
        "reduced_updates": int(reduced_trace.n_updates),
    }


def _line_through_origin(beta, limit):
    """End points of {x : x·beta = 0} across the square [-limit, limit]^2."""
    beta = np.asarray(beta, dtype=float)
    direction = np.array([-beta[1], beta[0]]) / np.linalg.norm(beta)
    reach = limit * 1.5
    return [-reach * direction[0], reach * direction[0]], [
        -reach * direction[1],
        reach * direction[1],
    ]


def stability_figure(X, y, summary, heldout: int, *, limit=1.15, height=680) -> go.Figure:
    """All N + 1 points, those that caused margin mistakes ringed, the held-out one
    (row ``heldout`` of X) starred; the hyperplane trained on all N + 1 and the one trained
    without it. Points are named by their number from 1, as the page's texts name them."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    fig = go.Figure()
    for beta, name, dash, color, width in (
        (summary["full_beta"], "ŵ on all N + 1", "solid", style.HYPERPLANE, 4),
        (summary["reduced_beta"], "ŵ without the held-out", "dash", style.STEP, 4),
    ):
        if np.any(np.asarray(beta) != 0):
            xs, ys = _line_through_origin(beta, limit)
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="lines",
                    name=name,
                    line=dict(color=color, width=width, dash=dash),
                )
            )
    for label, name in ((1, "class +1"), (-1, "class −1")):
        members = np.flatnonzero(y == label)
        fig.add_trace(
            go.Scatter(
                x=X[members, 0],
                y=X[members, 1],
                mode="markers",
                name=name,
                marker=style.class_marker(label),
                customdata=members + 1,
                hovertemplate="point %{customdata}<extra></extra>",
            )
        )
    ringed = np.asarray(summary["mistake_points"], dtype=int)
    fig.add_trace(
        go.Scatter(
            x=X[ringed, 0],
            y=X[ringed, 1],
            mode="markers",
            name=f"caused a margin mistake ({len(ringed)})",
            marker=dict(symbol="circle-open", size=24, color="black", line=dict(width=2.5)),
            customdata=ringed + 1,
            hovertemplate="point %{customdata} caused a margin mistake<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[X[heldout, 0]],
            y=[X[heldout, 1]],
            mode="markers+text",
            name=f"held-out point {heldout + 1}",
            text=[str(heldout + 1)],
            textposition="top center",
            marker=dict(symbol="star-open", size=30, color=style.PLANTED, line=dict(width=3)),
        )
    )
    style.base_layout(fig, height=height)
    fig.update_xaxes(range=[-limit, limit], title_text="x₁", constrain="domain")
    fig.update_yaxes(
        range=[-limit, limit], title_text="x₂", scaleanchor="x", scaleratio=1, constrain="domain"
    )
    fig.update_layout(
        legend=dict(
            orientation="h",
            x=0,
            y=-0.1,
            yanchor="top",
            font=dict(size=14),
            entrywidth=0.5,
            entrywidthmode="fraction",
            itemsizing="constant",
        ),
        margin=dict(l=60, r=10, t=20, b=170),
    )
    return fig


# ---------------------------------------------------------------------------
# 4. The loss view
# ---------------------------------------------------------------------------

LOSS_COLORS = {"zero_one": style.GHOST, "perceptron": style.WEIGHT, "hinge": style.NEGATIVE}
LOSS_DASH = {"zero_one": "solid", "perceptron": "solid", "hinge": "dash"}


#: the two loss charts: what each draws against the margin m, its title and y range
LOSS_VIEWS = {
    "loss": (0, "Losses l(m)", (-0.2, 3.7)),
    "slope": (1, "Slopes l′(m) SGD uses", (-1.3, 0.4)),
}


def loss_figure(view: str = "loss", *, low=-2.0, high=2.5, height=440) -> go.Figure:
    """The losses of :data:`LOSSES` (``view="loss"``) or the subgradients SGD uses
    (``view="slope"``) against the margin m = y f(x). Jumps are drawn as vertical steps
    at m = 0 / 1; at a kink the slope drawn is the one the code takes (:data:`LOSSES`).

    Built as plain dicts (``style.figure_without_validation``): Plotly's validation of the
    same figure cost 30-130 ms, for a figure that is the same for every student."""
    if view not in LOSS_VIEWS:
        raise ValueError(f"view must be one of {sorted(LOSS_VIEWS)}, not {view!r}.")
    which, title, y_range = LOSS_VIEWS[view]
    # breakpoints appear twice so the step functions jump straight up
    margins = np.sort(np.concatenate([np.linspace(low, high, 451), [0.0, 0.0, 1.0, 1.0]]))
    traces = []
    for name, functions in LOSSES.items():
        function = functions[which]
        values = function(margins)
        # at a jump, the left copy takes the limit from the left
        for jump in (0.0, 1.0):
            where = np.flatnonzero(margins == jump)
            if where.size == 2:
                values[where[0]] = function(np.array([jump - 1e-12]))[0]
                values[where[1]] = function(np.array([jump]))[0]
        line: dict[str, Any] = dict(color=LOSS_COLORS[name], dash=LOSS_DASH[name])
        line["width"] = 4 if name != "hinge" else 3
        traces.append(
            dict(
                type="scatter", x=margins, y=values, mode="lines", name=LOSS_LABELS[name], line=line
            )
        )
    layout = style.base_layout_spec(height=height, title=title)
    # the legend below the plot, in a row
    layout["legend"] |= dict(orientation="h", x=0, xanchor="left", y=-0.25, yanchor="top")
    layout["legend"]["font"] = dict(size=14)
    layout["margin"] |= dict(l=60, r=20, t=60, b=150)
    layout["xaxis"] = dict(
        title=dict(text="margin m = y f(x)"), zeroline=True, zerolinecolor="#bbbbbb"
    )
    layout["yaxis"] = dict(zeroline=True, zerolinecolor="#bbbbbb", range=list(y_range))
    return style.figure_without_validation(traces, layout)


#: limits of the step-size runs: room for the (1 + 2/eta)/gamma^2 hinge updates of a small eta
SGD_LIMITS = dict(max_updates=1_000_000, max_epochs=100_000)


#: relative agreement asked of w_eta and eta w_1 (float sums in another order differ by
#: a few ulps, far below this); the texts write it as 10⁻⁹
SCALED_RTOL = 1e-9


def _first_difference(one, run, X, y) -> dict | None:
    """Where two SGD runs on the same stream first part: the step, the example and its
    margin m in each run there (the run that did not update: m at its w then)."""
    for k in range(min(one.n_updates, run.n_updates) + 1):
        a = (int(one.update_steps[k]), int(one.update_indices[k])) if k < one.n_updates else None
        b = (int(run.update_steps[k]), int(run.update_indices[k])) if k < run.n_updates else None
        if a == b:
            continue
        step, index = min(p for p in (a, b) if p is not None)
        margins = [
            float(y[index] * (np.asarray(X[index]) @ np.asarray(trace.weights[k])))
            for trace in (one, run)
        ]
        return {"step": step, "example": index + 1, "m_eta_1": margins[0], "m_eta": margins[1]}
    return None


def eta_check(X, y, eta, *, order="random", seed=0, unit=False) -> dict:
    """SGD from beta = 0 with step eta against step 1, on the perceptron and hinge losses.

    Perceptron loss: every beta of the eta run is eta times the step-1 beta
    (induction: both start at 0, and m scales by eta > 0, so the sign test
    y x·beta <= 0 picks the same examples). Hinge loss: the test y x·beta < 1 is
    not scale-free, so eta changes which examples update. ``unit``: the rows are unit
    vectors (``sgd_linear(..., unit=True)``).

    Returns
    -------
    dict keyed by loss ("perceptron", "hinge") with the updates of both runs,
    whether the same examples updated at the same steps (same_updates), for the
    perceptron whether beta_eta = eta beta_1 (scaled, to SCALED_RTOL relative), and
    where the runs first part (first_difference: step, example from 1, both margins).
    """
    out: dict[str, Any] = {"eta": float(eta)}  # eta, then one dict per loss
    for loss in ("perceptron", "hinge"):
        one = sgd_linear(X, y, loss=loss, eta=1.0, order=order, seed=seed, unit=unit, **SGD_LIMITS)
        run = sgd_linear(X, y, loss=loss, eta=eta, order=order, seed=seed, unit=unit, **SGD_LIMITS)
        same = np.array_equal(one.update_indices, run.update_indices) and np.array_equal(
            one.update_steps, run.update_steps
        )
        scaled = same and np.allclose(
            run.weights, eta * np.asarray(one.weights), rtol=SCALED_RTOL, atol=1e-12 * max(1.0, eta)
        )
        out[loss] = {
            "updates_eta_1": int(one.n_updates),
            "updates_eta": int(run.n_updates),
            "wrong_eta_1": int(np.count_nonzero(one.update_mistakes)),
            "wrong_eta": int(np.count_nonzero(run.update_mistakes)),
            "same_updates": bool(same),
            "scaled": bool(scaled),
            "first_difference": None if same else _first_difference(one, run, X, y),
            "converged_eta_1": bool(one.converged),
            "converged_eta": bool(run.converged),
            "beta_eta_1": np.asarray(one.w).tolist(),
            "beta_eta": np.asarray(run.w).tolist(),
        }
    return out


# ---------------------------------------------------------------------------
# The page's texts: what each section explains, and what its results say
# ---------------------------------------------------------------------------

# The first view's texts are plain text with Unicode (bold upright vectors), not KaTeX: Markdown
# with math makes the browser fetch KaTeX (92 kB gzipped) and its fonts, and italic emphasis
# fetches Source Sans italic (138 kB), for a first visit of at most 1.5 MB. The
# results drawn inside the closed parts may still use KaTeX: they load it when opened.
SUMMARY = (
    "The perceptron stops once it separates the training points. How often does that "
    "hyperplane get a **new** point wrong? The lecture notes answer with the **margin "
    "perceptron**: it learns until every point is not just on the right side but has "
    "y **x**ᵀ**w** ≥ 1. On points of length 1 that a line through the origin separates with "
    "margin γ, it makes at most 3/γ² such corrections however many points it sees, and "
    "when the N training points and the new one are drawn independently from one "
    "distribution it errs on the new point with probability at most 3/((N + 1)γ²). At the "
    "end: the same algorithm as stochastic gradient descent on a loss."
)
MARGIN_TEXT = (
    "Every point is a unit vector (‖**x**‖ = 1), and a planted unit vector **w**\\* keeps "
    "every point at least γ from its line: y **x**ᵀ**w**\\* ≥ γ (no bias, lines through "
    "the origin; the notes write **β** for **w**). Start at **w** = **0** and draw examples "
    "at random. If y **x**ᵀ**w** < 1 it is a **margin mistake** and **w** ← **w** + y**x**. "
    "There are two kinds: the point is on the **wrong side** (y **x**ᵀ**w** ≤ 0, black "
    "ring), or on the right side but **inside the band** between the lines **x**ᵀ**w** = ±1 "
    "(0 < y **x**ᵀ**w** < 1, orange dashed ring). Right after **w** = y**x** that point has "
    "y **x**ᵀ**w** = ‖**x**‖² = 1 exactly: on the band's edge, not a margin mistake (the "
    "page computes that score as exactly 1, not from the rounded coordinates it stores). "
    "The run stops when no point is ringed."
)
CURVE_TEXT = (
    "Draw N training points (a fresh planted **w**\\* each time, points uniform on the unit "
    "sphere outside the band |**x**ᵀ**w**\\*| < γ, labelled by the side of **w**\\*), train "
    "the margin perceptron (random order) until it makes no margin mistake, and measure its "
    "test error L(**ŵ**), the chance that a new point from the same distribution lands on the "
    "wrong side. Repeat and average. The notes give two bounds: the **stability theorem** "
    "E[L(**ŵ**)] ≤ 3/((N + 1)γ²), a line of slope −N/(N + 1) on these log–log axes (−½ at "
    "N = 1, close to −1 for large N), and the **uniform law** "
    "√((d + 1) log(N + 1)/N) + √(2 log(20)/N) in dimension d, which holds for each run "
    "with probability 95 % and falls more slowly, with a slope between −½ and 0. The table "
    "under the chart gives both at every N you typed."
)
STABILITY_TEXT = (
    "Train on N + 1 points. By the Lemma at most 3/γ² of them ever cause a margin mistake. "
    "Hold one point out, chosen at random: it is one of those with chance at most "
    "3/((N + 1)γ²). If it never caused a margin mistake, it never changed **w**, so "
    "training without it gives **the same ŵ**, and that **ŵ** has it at "
    "y **x**ᵀ**ŵ** ≥ 1: it is classified right. The held-out point is a fresh test point "
    "for the run on the other N, so that run errs on a new point with probability at most "
    "3/((N + 1)γ²).\n\n"
    "Here both runs use **cyclic order**: the points in their listed order, again and "
    "again, and the run without the held-out point keeps the others in the same "
    "order. Then, exactly: **if the held-out point caused no margin mistake in the run on "
    "all N + 1, the run without it makes the same updates in the same order and ends at "
    "the same w, bit for bit**; if it did cause one, **w** usually changes (it may, by "
    "chance, not). (The notes draw examples at random; the same holds if the run without "
    "the point skips exactly that point's draws.) Points are numbered from 1."
)
LOSS_TEXT = (
    "Write m = y f(**x**) = y **x**ᵀ**w**. Stochastic gradient descent takes one example and "
    "steps **w** ← **w** − η l′(m) y**x**. With the **perceptron loss** max(0, −m) the "
    "slope is −1 when m ≤ 0 (at the kink m = 0 we take −1: a score of 0 counts as wrong) "
    "and 0 otherwise: with η = 1 this **is** the perceptron. With the **hinge loss** "
    "max(0, 1 − m) the slope is −1 when m < 1 (at the kink m = 1 we take 0): with η = 1 "
    "this is the margin perceptron above. The 0–1 loss counts mistakes but is flat "
    "wherever it has a slope (at its jump we take 0 too), so SGD on it never moves."
)


def curve_findings(curve, n_test: int) -> list[str]:
    """What the curve shows, as Markdown paragraphs: how each error was measured, whether
    the mean stayed below 3/((N+1)γ²), the Lemma's cap 3/γ² in every run, the N at which no
    run made any test error (drawn on the floor of the log axis) and those at which the
    stability bound is above 1. Every number is the curve's; 3/γ² exactly for γ as typed."""
    sizes = np.asarray(curve.n_train)
    above_bound = sizes[np.asarray(curve.mean_error) > np.asarray(curve.stability_bound)]
    most = int(np.max(curve.margin_mistakes))
    cap = whole_part(lemma_bound(curve.margin))
    zero_at = [int(v) for v, k in zip(sizes, curve_rows(curve)["runs_with_error"]) if k == 0]
    how = (
        "each test error comes from a formula, not from test points: in the plane the "
        "points fall on two arcs of the unit circle, and the error of ŵ is the share of "
        "those arcs on its wrong side, a function of the angle between ŵ and w\\* "
        "(computed in floating point)"
        if curve.exact
        else f"each test error is estimated on {n_test:,} fresh points, so error bars "
        "include that sampling noise"
    )
    below = (
        "below 3/((N + 1)γ²) at every N shown. "
        if not above_bound.size
        else f"**not** below 3/((N + 1)γ²) at N = {_sizes_text(above_bound)} (a finite "
        "average can exceed an expectation bound by chance). "
    )
    texts = [
        f"Here {how}; error bars are ± one standard error of the mean over "
        f"{curve.repeats} runs. The mean is "
        + below
        + f"The Lemma caps the margin mistakes of a run: {lemma_sentence(curve.margin)}; "
        f"the most in one run here was {most}"
        + (
            ", so the cap held in every run."
            if most <= cap
            else " (**over** the cap: please report it)."
        )
    ]
    if zero_at:
        none = (
            f"**none of the {curve.repeats} runs made any test error**: in each, ŵ's "
            "angle to w\\* was at most arcsin γ, so its line stays inside the band where "
            "no point falls"
            if curve.exact
            else f"**none of the {curve.repeats} runs erred on any of its {n_test:,} fresh "
            "test points** (its true error may still be above 0)"
        )
        texts.append(
            f"At N = {_sizes_text(zero_at)} {none}. A mean of 0 has no place on a log "
            "axis, so it is drawn as a triangle on the floor. The bounds hold for **every** "
            "distribution of unit vectors with margin γ; this one spreads the points evenly "
            "outside the band."
        )
    vacuous = sizes[np.asarray(curve.stability_bound) > 1]
    if vacuous.size:
        texts.append(
            f"At N = {_sizes_text(vacuous)} the stability bound is above 1, so it "
            "says nothing there (any error rate is at most 1)."
        )
    return texts


def _vector(values) -> str:
    """(0.1234, −5.6789): a vector with four decimals and true minus signs."""
    return "(" + ", ".join(f"{v:.4f}".replace("-", "−") for v in values) + ")"


def stability_texts(
    summary: dict,
    heldout: int,
    n_points: int,
    margin: float,
    data_seed: int,
    heldout_margin: float | None = None,
) -> list[str]:
    """The stability check in words (Markdown): which points caused the margin mistakes,
    whether the held-out one (row ``heldout``, named ``heldout + 1``) did, both runs' ŵ,
    and the held-out point's margin y x·ŵ under the run without it (``heldout_margin``)
    (``summary``: :func:`stability_summary`)."""
    count = summary["count"]
    name = heldout + 1
    caused = (
        f"Point {name} **caused {count} margin mistake{'s' * (count != 1)}**"
        if summary["caused"]
        else f"Point {name} **caused no margin mistake**"
    )
    changed = (
        "the hyperplane is **the same**, bit for bit"
        if summary["same"]
        else "the hyperplane **changed**"
    )
    mistakes = len(summary["mistake_points"])
    texts = [
        f"{mistakes} of the {n_points} points caused the {summary['full_updates']} margin "
        f"mistake{'s' * (summary['full_updates'] != 1)} of the run on all of them (points "
        f"drawn with section 1's γ = {margin:g} and data seed {data_seed}; "
        f"{lemma_sentence(margin)} margin mistakes).\n\n"
        f"{caused}; trained without it, {changed}."
    ]
    if heldout_margin is not None:
        verdict = "classified right" if heldout_margin > 0 else "on the wrong side: a test error"
        texts[0] += (
            f" As a test point for the run without it, point {name} has "
            f"y x·ŵ = {heldout_margin:.4f}".replace("-", "−")
            + (" ≥ 1" if heldout_margin >= 1 else "")
            + f": {verdict}."
        )
    texts.append(
        f"- ŵ on all {n_points}: {_vector(summary['full_beta'])}, {summary['full_updates']} "
        f"margin mistakes\n"
        f"- ŵ without point {name}: {_vector(summary['reduced_beta'])}, "
        f"{summary['reduced_updates']} margin mistakes\n"
        f"- points that caused a margin mistake: "
        f"{', '.join(str(i + 1) for i in summary['mistake_points'])}"
    )
    return texts


def eta_table(check: dict) -> dict[str, list]:
    """The step-size check of :func:`eta_check` as a table: updates with η = 1 and with η,
    and whether the same examples updated at the same steps, for both losses (with η = 1
    the two runs are one run: one column)."""
    perceptron, hinge = check["perceptron"], check["hinge"]
    table = {
        "loss": ["perceptron max(0, −m)", "hinge max(0, 1 − m)"],
        "updates, η = 1": [perceptron["updates_eta_1"], hinge["updates_eta_1"]],
    }
    if check["eta"] == 1:
        return table
    return table | {
        f"updates, η = {check['eta']:g}": [perceptron["updates_eta"], hinge["updates_eta"]],
        "same examples at the same steps": [
            "yes" if perceptron["same_updates"] else "no",
            "yes" if hinge["same_updates"] else "no",
        ],
    }


def hinge_bound(eta: float, margin: float) -> Fraction:
    """(1 + 2/η)/γ², exactly for η and γ as typed."""
    return (1 + 2 / exact_decimal(eta)) / exact_decimal(margin) ** 2


def hinge_text(check: dict, margin: float) -> str:
    """Why η matters for the hinge loss (Markdown): dividing β by η turns SGD into the
    margin perceptron asking for margin 1/η, with at most (1 + 2/η)/γ² updates."""
    eta, hinge = check["eta"], check["hinge"]
    bound = hinge_bound(eta, margin)
    cap = whole_part(bound)
    if eta == 1:
        made = hinge["updates_eta_1"]
        ran = (
            f"With η = 1 SGD on it is the margin perceptron of section 1: {made} "
            f"update{'s' * (made != 1)} here."
        )
    else:
        made = hinge["updates_eta"]
        ran = (
            f"SGD on it made {made} update{'s' * (made != 1)} with η = {eta:g} and "
            f"{hinge['updates_eta_1']} with η = 1"
            + (
                " (the same examples here: these settings happen not to tell them apart)."
                if hinge["same_updates"]
                else " (not the same examples: η changed the run)."
            )
        )
    return (
        "The hinge loss asks for m ≥ 1, a fixed number, so the scale of w matters. "
        + ran
        + " Divide w by η: the rule becomes w ← w + y x whenever y x·w < 1/η, the margin "
        "perceptron asking for a margin of 1/η instead of 1. The Lemma's proof (unit "
        f"vectors, margin γ) then gives at most (1 + 2/η)/γ² {relation_text(bound)} "
        f"updates, so at most {cap:,}"
        + (
            " (it holds here)."
            if hinge["updates_eta"] <= cap
            else " (**not** met here: please report it)."
        )
        + " A small η asks for a wider margin on that scale and allows more updates."
        + ("" if hinge["converged_eta"] else " This run stopped at its limit before converging.")
    )


def scaling_verdict(check: dict) -> tuple[bool, str]:
    """Whether SGD on the perceptron loss with step η made the step-1 run scaled by η
    (:func:`eta_check`), and the reason why it must, or where the two runs parted and
    with which margins (Markdown)."""
    eta = check["eta"]
    perceptron = check["perceptron"]
    if eta == 1:
        return True, (
            "With η = 1 there is nothing to compare: choose another η to see the "
            "perceptron's updates scale with it."
        )
    if perceptron["scaled"]:
        return True, (
            f"Checked on this run: the perceptron with η = {eta:g} updated on exactly the "
            "same examples at the same steps as with η = 1, and every w was η times the "
            "η = 1 one (to a relative 10⁻⁹: the two sums round differently). "
            "Why: both start at 0; if w is η times the η = 1 vector, every margin m is η "
            "times its η = 1 value, which has the same sign (η > 0), so the same examples "
            "are wrong and the next step is η times as long."
        )
    first = perceptron["first_difference"]
    if first is None:
        return False, (
            "The two runs updated on the same examples at the same steps, but w "
            "was not η times the η = 1 one to a relative 10⁻⁹: please report it."
        )
    return False, (
        f"On this run the two part at step {first['step']:,}, example {first['example']}: "
        f"its margin was m = {first['m_eta_1']:.3g} with η = 1 and {first['m_eta']:.3g} "
        f"with η = {eta:g}. By the argument they differ by the factor η and so have the same "
        "sign; here they fall on opposite sides of the kink at 0, which only the rounding of "
        "an exact 0 can do."
    )


#: the curve's units of work per CPU second, a lower figure: 1.6e9 to 1.8e9 were measured
#: at N = 2 to 300 with 300 runs each (γ = 0.1, d = 2) on the 2-core machine at load 1,
#: 2026-11-27, since every run draws its stream from a generator of its own (2.4e9 before)
CURVE_UNITS_PER_SECOND = 1.35e9


def check_curve_cost(
    sizes, margin: float, dim: int, repeats: int, n_test: int, seconds_allowed: float
) -> None:
    """Refuse a whole curve that is too much work, with what to lower (ValueError).

    The units of work of ``generalisation_curve`` over all of ``sizes`` (runs per N × sum
    of N × (P + 8) × (3/γ² + 40)) must fit CURVE_MAX_WORK, its test points (P > 2) fit
    CURVE_MAX_TEST_POINTS, and the estimated time, at CURVE_UNITS_PER_SECOND and 160 ns
    per test point, ``seconds_allowed``.
    """
    work = repeats * sum(sizes) * (dim + 8) * (3 / margin**2 + 40)
    if work > CURVE_MAX_WORK:
        raise ValueError(
            f"this curve is too much work ({work:.2g} > {CURVE_MAX_WORK:.0e}: "
            "runs per N × sum of N × (d + 8) × (3/γ² + 40)); use fewer runs, "
            "smaller N, a smaller dimension d or a larger margin."
        )
    if dim > 2 and repeats * len(sizes) * n_test > CURVE_MAX_TEST_POINTS:
        raise ValueError(
            f"runs per N × values of N × {n_test:,} test points is over "
            f"{CURVE_MAX_TEST_POINTS:.0e}; use fewer runs or fewer values of N."
        )
    seconds = work / CURVE_UNITS_PER_SECOND + (
        repeats * len(sizes) * n_test * 160e-9 if dim > 2 else 0.0
    )
    if seconds > seconds_allowed:
        allowed = f"{seconds_allowed:g}"
        shown = shown_relation(seconds, ">", allowed, 2)  # the digits that keep ">" true
        raise ValueError(
            f"this curve would need about {shown} s of computing, more than the "
            f"{allowed} s it may use on this shared server; use fewer "
            "runs per N, smaller or fewer values of N, a smaller dimension d or a "
            "larger margin γ."
        )


#: CPU seconds of :func:`eta_check` per unit of its work ((1 + 2/η)/γ² + 5/γ², the bounds
#: on the updates of its four runs), an upper figure: 5.8-7.8 µs were measured at N = 300,
#: γ = 0.05 and η = 0.01 to 100 (2-core machine, one BLAS thread, load < 1, 2026-11-27)
SGD_SECONDS_PER_UNIT = 10e-6


def check_sgd_cost(margin: float, eta: float, seconds_allowed: float) -> None:
    """Refuse a step-size check that could be too much work, with what to change
    (ValueError).

    :func:`eta_check` runs SGD four times from 0 on data of margin γ: the hinge loss with
    step η makes at most (1 + 2/η)/γ² updates, with step 1 at most 3/γ², the perceptron
    loss at most 1/γ² with either step. Their sum, at SGD_SECONDS_PER_UNIT, must fit
    ``seconds_allowed``: a small η on data with a small margin is what costs.
    """
    work = (1 + 2 / eta) / margin**2 + 5 / margin**2
    seconds = work * SGD_SECONDS_PER_UNIT
    if seconds > seconds_allowed:
        allowed = f"{seconds_allowed:g}"
        shown = shown_relation(seconds, ">", allowed, 2)  # the digits that keep ">" true
        raise ValueError(
            f"SGD with step η = {eta:g} on data of margin γ = {margin:g} may take up to "
            f"(1 + 2/η)/γ² {relation_text(hinge_bound(eta, margin))} updates; its four "
            f"runs would need about {shown} s of computing, more than the {allowed} s they "
            "may use on this shared server; use a larger step η, or a larger margin γ in section 1."
        )


def parse_sizes(text: str) -> list[int] | None:
    """The values of N the page's text box lists: '2, 5, 10' -> [2, 5, 10] (sorted,
    unique, each 1 to 10 000); None if the text is not such a list."""
    try:
        values = sorted({int(v) for v in text.replace(";", ",").split(",") if v.strip()})
    except ValueError:
        return None
    return values if values and all(1 <= v <= 10_000 for v in values) else None
