"""/relaxation: what the player, the charts and the texts show for Algorithm 1.37 (Remark 1.38).

Arrays in, JSON-ready dicts, Plotly figures or Markdown out. The system is A^T w <= c in two
unknowns, A of shape (2, n) with one column a_i per inequality (the notes' convention).
"""

from __future__ import annotations

import csv
import io
import math
from decimal import Decimal
from itertools import combinations

import numpy as np
import plotly.graph_objects as go

from ..data import make_separable
from ..perceptron import run_perceptron
from ..relaxation import (
    INDEX_RULE_LABELS,
    INDEX_RULE_NAMES,
    INDEX_RULES,
    ExactSides,
    exact_value,
    miss_behaviour,
    perceptron_eta,
    perceptron_system,
    plane_system,
    relaxation,
    relaxation_sweep,
)
from ..shown_numbers import relation_text
from . import style

#: name -> (rows (a_1, a_2, c) of a_i·w <= c_i, what the preset shows). The first is the
#: page's default: a narrow triangle, so a projection run zigzags for a while, with one
#: row written three times larger, so the two "maximal" rules choose differently
PRESETS = {
    "narrow wedge": (
        [[0.1, -1.0, -1.0], [-2.4, 3.0, 3.0], [1.0, 0.0, 2.5]],
        "w₂ ≥ 1 + 0.1 w₁, w₂ ≤ 1 + 0.8 w₁ and w₁ ≤ 2.5, a narrow triangle with its tip at "
        "(0, 1); (2) is written three times larger (−2.4 w₁ + 3 w₂ ≤ 3, the same "
        "half-plane), so its residual a₂·w − c₂ is ‖a₂‖ ≈ 3.84 times its distance and the "
        "maximal-residual rule weighs it more than the maximal-distance rule",
    ),
    "wide polygon": (
        [[-1.0, 0.0, -0.5], [0.0, -1.0, -0.3], [1.0, 0.0, 2.5], [0.0, 1.0, 2.0], [1.0, 1.0, 3.5]],
        "five half-planes around a large pentagon",
    ),
    "thin sliver": (
        [[0.15, -1.0, -1.0], [-0.25, 1.0, 1.0], [1.0, 0.0, 3.0]],
        "two boundary lines that meet at a small angle, cut off by a third: a narrow triangle",
    ),
    "infeasible": (
        [[-1.0, 0.0, -1.0], [0.0, -1.0, -1.0], [1.0, 1.0, 1.0]],
        "w₁ ≥ 1, w₂ ≥ 1 and w₁ + w₂ ≤ 1: no point satisfies all three",
    ),
}

#: relaxation parameters of the sweep (0 is excluded, 2 included)
SWEEP_ETAS = tuple(float(v) for v in np.round(np.linspace(0.1, 2.0, 20), 3))
#: the runs of one sweep (every η of SWEEP_ETAS for every rule), computed together
#: (relaxation_sweep), and the seconds one iteration of all of them takes (an upper figure:
#: with every side of the tolerance decided exactly, the thin sliver at tolerance 0, the
#: slowest system, took 125-180 µs per iteration at 2 000-3 300 iterations on the 2-core
#: machine at load 0.4-4, 2026-11-27)
SWEEP_RUNS = len(SWEEP_ETAS) * len(INDEX_RULES)
SECONDS_PER_SWEEP_ITERATION = 250e-6
#: rule -> colour in the sweep chart
RULE_COLOURS = dict(
    zip(
        INDEX_RULES,
        [style.POSITIVE, style.NEGATIVE, style.WEIGHT, style.STEP, style.PLANTED, style.BOUND],
    )
)


def rows_to_system(rows) -> tuple[np.ndarray, np.ndarray]:
    """Rows (a_1, a_2, c) -> A of shape (2, n) (one column per row) and c of shape (n,)."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 3)
    return rows[:, :2].T.copy(), rows[:, 2].copy()


def clip_polygon(A, c, limit: float) -> list[list[float]]:
    """The feasible set cut to the square [-limit, limit]^2, as a polygon (may be empty).

    Sutherland–Hodgman: cut the square by each half-plane a_i·w <= c_i in turn.
    """
    polygon = [
        np.array(p, dtype=float)
        for p in ([-limit, -limit], [limit, -limit], [limit, limit], [-limit, limit])
    ]
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


def violations(A, c, iterates, tol: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """At each iterate: the largest violation max_i (a_i·w - c_i)^+ (shape (T+1,)) and how
    many inequalities have a_i·w - c_i > tol (shape (T+1,)), both decided exactly (the
    decimals of A, c and tol, the float iterate: ``ExactSides``), so a violation shown as
    above 0 is one, and 0 is exactly 0."""
    A, c = np.asarray(A, float), np.asarray(c, float)
    rows = np.ascontiguousarray(A.T)
    zero, above = ExactSides(rows, c, 0.0, 1.0), ExactSides(rows, c, tol, 1.0)
    largest, counts, seen = [], [], {}
    for w in np.asarray(iterates, float):
        key = w.tobytes()
        if key not in seen:
            seen[key] = (
                max(0.0, float(zero.residuals(w).max())),
                int(np.count_nonzero(above.residuals(w) > tol)),
            )
        largest.append(seen[key][0])
        counts.append(seen[key][1])
    return np.array(largest), np.array(counts, dtype=np.int64)


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
    labels : optional list of n names of the inequalities (default "(1)".."(n)")
    """
    A, c = np.asarray(A, float), np.asarray(c, float)
    system = plane_system(A, c)
    limit = view_limit(A, c, trace.iterates)
    n = A.shape[1]
    largest, violated = violations(A, c, trace.iterates, trace.tol)
    return {
        "A": A.T.tolist(),
        "c": c.tolist(),
        "labels": list(labels) if labels is not None else inequality_labels(n),
        "row_texts": [row_text(a1, a2, ci) for (a1, a2), ci in zip(A.T, c)],
        "end_text": end_text(A, c, trace, system),
        "eta": float(trace.eta),
        "eta_text": f"{trace.eta:g}",
        "rule": trace.rule,
        "rule_label": INDEX_RULE_LABELS[trace.rule],
        "tau": None if trace.tau is None else int(trace.tau),
        "tol": float(trace.tol),
        "tol_text": f"{trace.tol:g}",
        "violated_label": (
            "inequalities violated at w"
            if trace.tol == 0
            else f"violated by more than {trace.tol:g} at w"
        ),
        "limit": limit,
        "iterates": trace.iterates.tolist(),
        "indices": trace.indices.tolist(),
        "residuals": trace.residuals.tolist(),
        "moved": [int(m) for m in trace.moved],
        "projections": projections(A, c, trace).tolist(),
        "violation": largest.tolist(),
        "violated": violated.tolist(),
        "n_iter": int(trace.n_iter),
        "feasible": bool(trace.feasible),
        "stop_reason": trace.stop_reason,
        "system": {
            "feasible": system.feasible,
            "reason": system.reason,
            "vertices": system.vertices.tolist(),
        },
        "polygon": clip_polygon(A, c, limit),
        "player": player,
    }


def typed(value: float) -> str:
    """A number of the system as the student typed it: the shortest decimal that reads back
    as the float (0.125, 1e−10, 3), with a true minus sign."""
    text = repr(float(value))
    text = text[:-2] if text.endswith(".0") else text
    return text.replace("-", "−")


def row_text(a1: float, a2: float, c: float) -> str:
    """a₁·w₁ + a₂·w₂ ≤ c as typed, a zero term left out: "−2.4·w₁ + 3·w₂ ≤ 3"."""
    terms = [f"{typed(v)}·{name}" for v, name in ((a1, "w₁"), (a2, "w₂")) if v != 0]
    return " + ".join(terms).replace("+ −", "− ") + f" ≤ {typed(c)}"


def inequality_labels(n: int) -> list[str]:
    """The inequalities' names on the plane, in the player's sentences and in the page's
    texts: "(1)", ..., "(n)", numbered from 1 as the rows of the table and the notes'
    i = 1..n (in parentheses, so a label next to an axis is not read as a tick)."""
    return [f"({i + 1})" for i in range(n)]


def number(value: float) -> str:
    """Three significant digits (whole from 1,000 up), a true minus sign, powers of ten as
    2.45e−9."""
    if abs(value) >= 1000 and np.isfinite(value):
        return f"{value:,.0f}".replace("-", "−")
    text = f"{value:.3g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text.replace("-", "−")


def at_most(value: float) -> str:
    """A number not below ``value`` with three significant digits (whole from 100 up), to
    write after "at most" or "within": 238.4 is "239", never the false "238"."""
    if value <= 0 or not np.isfinite(value):
        return number(value)
    if value >= 100:
        return f"{math.ceil(value):,}"
    text = f"{value:.3g}"
    if float(text) < value:
        exponent = int(Decimal(text).as_tuple().exponent)  # finite: a whole number
        text = (
            f"{Decimal(text) + Decimal(1).scaleb(exponent):.2e}"
            if "e" in text
            else str(Decimal(text) + Decimal(1).scaleb(exponent))
        )
    return number(float(text)) if "e" in text.lower() else text


def beside(value: float, bound: float) -> str:
    """``value`` with three significant digits, or as many more as it takes to stand on
    the same side of ``bound`` (2.7e−17 stays above 0; 0.00104 stays above 0.001)."""
    side = (value > bound) - (value < bound)
    for digits in range(3, 18):
        text = f"{value:.{digits}g}"
        shown = float(text)
        if (shown > bound) - (shown < bound) == side:
            return text.replace("-", "−")
    return repr(value).replace("-", "−")


def parallel_contradictions(A, c) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, of inequalities whose half-planes are parallel and share no
    point (a_j = −λ a_i with λ > 0 and c_i < −c_j / λ), decided exactly on the decimals."""
    rows = [
        (exact_value(a1), exact_value(a2), exact_value(ci))
        for (a1, a2), ci in zip(np.asarray(A, float).T, np.asarray(c, float))
    ]
    pairs = []
    for i, j in combinations(range(len(rows)), 2):
        (a1, a2, ci), (b1, b2, cj) = rows[i], rows[j]
        if a1 * b2 - a2 * b1 != 0 or a1 * b1 + a2 * b2 >= 0:
            continue  # not parallel, or pointing the same way
        scale = -(b1 if a1 != 0 else b2) / (a1 if a1 != 0 else a2)  # λ > 0
        if ci < -cj / scale:
            pairs.append((i, j))
    return pairs


def _last_change(trace) -> int:
    """The last iteration that changed w (0 if none did)."""
    changed = np.flatnonzero(np.any(np.diff(trace.iterates, axis=0) != 0, axis=1))
    return int(changed[-1]) + 1 if changed.size else 0


def _drift_text(miss) -> str:
    """The drift of a deterministic rule's run, if its last periods moved w alike."""
    if miss.drift is None:
        return ""
    period, (dx, dy) = miss.drift
    return (
        f" Over the last {3 * period:,} iterations every {period:,} moved w by the same "
        f"({dx:.3g}, {dy:.3g}), a steady drift.".replace("-", "−")
    )


def end_text(A, c, trace, system) -> str:
    """The player's banner at the last iteration, from what the run did: feasible; or
    not within the limit and why (``miss_behaviour``: can never get in, still approaching,
    circling, within rounding); or no solution and whether ‖w‖ grew (``system``:
    ``plane_system(A, c)``)."""
    iterations = f"{trace.n_iter:,} iteration{'s' if trace.n_iter != 1 else ''}"
    tol = f" + {trace.tol:g}" if trace.tol else ""
    if trace.feasible:
        return (
            f"Feasible after {iterations}: every aᵢ·w ≤ cᵢ{tol}, checked exactly (in "
            "fractions of the numbers as typed)."
        )
    miss = miss_behaviour(A, c, trace, system)
    half = f"from iteration {trace.n_iter // 2:,} to {trace.n_iter:,}"
    outside = (
        f"the largest aᵢ·w − cᵢ at the end is {beside(miss.violation, trace.tol)}, "
        f"above the tolerance {trace.tol:g}"
    )
    if miss.kind == "never":
        last = _last_change(trace)
        moving = (
            f" w has not moved since iteration {last:,}: the moves left are shorter "
            "than float64 can store at this size."
            if last < trace.n_iter // 2
            else f" w still got closer: the distance to the solutions fell from "
            f"{number(miss.before)} to {number(miss.after)} {half}."
        )
        return (
            f"Not feasible within {iterations}, and it never will be: with tolerance 0 "
            f"and η = {trace.eta:g} < 1 a move shrinks the violation of its inequality to "
            "(1 − η) times what it was, so after every move that inequality is still "
            "violated (exactly: each move here is rounded to the side exact arithmetic "
            f"puts it on).{moving} A tolerance above 0 lets a run stop once every "
            "violation is at most the tolerance."
        )
    if miss.kind == "rounding":
        return (
            f"Not feasible within {iterations}: w is within {at_most(miss.after)} of the "
            "solutions, below 10⁻¹² of the numbers' size, closer than float64 steps can "
            f"resolve, yet {outside}. A tolerance above 0 lets it count as in."
        )
    if miss.kind == "approaching":
        return (
            f"Not feasible within {iterations}, but still getting closer: the distance "
            f"from w to the solutions fell from {number(miss.before)} to {number(miss.after)} "
            f"{half}. Raise the iteration limit to see whether it gets in."
        )
    if miss.kind == "circling":
        repeat = ""
        if miss.period:
            depends = "w and the iteration number" if trace.rule == "cyclic" else "w"
            repeat = (
                f" w is back at exactly the same point (bit for bit) every "
                f"{miss.period:,} iterations, and the rule's next choice depends only "
                f"on {depends}, so this run never gets in."
            )
        return (
            f"Not feasible within {iterations}, and not getting closer: the distance "
            f"from w to the solutions was {number(miss.before)} at iteration "
            f"{trace.n_iter // 2:,} and {number(miss.after)} at the end.{repeat}"
        )
    grew = (
        f"‖w‖ grew from at most {at_most(miss.before)} in the first half to "
        f"{number(miss.after)} in the last quarter: the iterates move away."
        if miss.kind == "diverging"
        else f"‖w‖ stayed at most {at_most(max(miss.before, miss.after))} in the first half "
        "and the last quarter."
    )
    return (
        f"Stopped after {iterations}: this system has no solution, so no iterate "
        f"satisfies every inequality. {grew}{_drift_text(miss)}"
    )


# ---------------------------------------------------------------------------
# The sweep: iterations to feasibility against eta, one line per index rule
# ---------------------------------------------------------------------------


def eta_sweep(
    A,
    c,
    *,
    etas=SWEEP_ETAS,
    rules=tuple(INDEX_RULES),
    w0=None,
    seed=None,
    tol=1e-3,
    max_iter=1_000,
    tau=None,
) -> list[dict]:
    """One run per (rule, eta): rows {rule, eta, iterations, moves, feasible, missed,
    before, after, period}.

    ``iterations`` is the run's n_iter when it reached feasibility (every
    a_i·w <= c_i + tol), else None (not within max_iter). For a run that missed,
    ``missed`` is what its iterates did (``miss_behaviour``: "approaching", "circling",
    "diverging" or "bounded") with its ``before``/``after`` numbers and ``period``;
    None, None, None, None for a run that got in. With tolerance 0, eta < 1 and a start
    outside (decided exactly), no run can get in (every move leaves its own inequality
    violated): that row is "never" and is not run (moves, before, after None).
    """
    system = plane_system(A, c)
    A_rows = np.ascontiguousarray(np.asarray(A, float).T)
    start = np.zeros(A_rows.shape[1]) if w0 is None else np.asarray(w0, float)
    outside = ExactSides(A_rows, np.asarray(c, float), tol, 1.0).residuals(start).max() > tol
    never = tol == 0 and outside and system.feasible  # then eta < 1 never gets in
    run = [eta for eta in etas if not (never and eta < 1)]
    rows = []
    # every run at once: the same runs as relaxation(A, c, eta=eta, rule=rule, ...)
    traces = iter(
        relaxation_sweep(
            A, c, run, rules=rules, w0=w0, seed=seed, tol=tol, max_iter=max_iter, tau=tau
        )
        if run
        else ()
    )
    for rule in rules:
        for eta in etas:
            if never and eta < 1:
                rows.append(
                    {
                        "rule": rule,
                        "eta": float(eta),
                        "iterations": None,
                        "moves": None,
                        "feasible": False,
                        "missed": "never",
                        "before": None,
                        "after": None,
                        "period": None,
                    }
                )
                continue
            trace = next(traces)
            miss = None if trace.feasible else miss_behaviour(A, c, trace, system)
            rows.append(
                {
                    "rule": rule,
                    "eta": float(eta),
                    "iterations": int(trace.n_iter) if trace.feasible else None,
                    "moves": int(trace.n_moves),
                    "feasible": bool(trace.feasible),
                    "missed": miss and miss.kind,
                    "before": miss and miss.before,
                    "after": miss and miss.after,
                    "period": miss and miss.period,
                }
            )
    return rows


def sweep_csv(rows) -> str:
    """The sweep as CSV: rule, eta, iterations (empty when not reached), moves, feasible,
    and for a miss what its iterates did (approaching, circling, diverging, bounded)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["rule", "eta", "iterations_to_feasible", "moves", "feasible", "missed_because"]
    )
    for row in rows:
        writer.writerow(
            [
                row["rule"],
                f"{row['eta']:g}",
                "" if row["iterations"] is None else row["iterations"],
                "" if row["moves"] is None else row["moves"],
                str(row["feasible"]).lower(),
                row.get("missed") or "",
            ]
        )
    return out.getvalue()


def sweep_figure(rows, max_iter: int, *, height: int = 480) -> go.Figure:
    """Iterations to feasibility against eta (log axis); runs that did not get there
    within max_iter are drawn as crosses on a dashed line at max_iter."""
    fig = go.Figure()
    fig.add_hline(y=max_iter, line=dict(color=style.GHOST, dash="dash"))
    # its label: an annotation on a log axis is placed in log10 units (a shape in data units)
    fig.add_annotation(
        x=0,
        xref="x domain",
        xanchor="left",
        y=float(np.log10(max_iter)),
        yref="y",
        yanchor="bottom",
        showarrow=False,
        text=f"limit {max_iter:,}: not reached",
    )
    for rule in dict.fromkeys(row["rule"] for row in rows):
        mine = [row for row in rows if row["rule"] == rule]
        colour = RULE_COLOURS.get(rule, style.GHOST)
        fig.add_trace(
            go.Scatter(
                x=[r["eta"] for r in mine],
                y=[r["iterations"] for r in mine],
                mode="lines+markers",
                name=INDEX_RULE_LABELS[rule],
                line=dict(color=colour, width=3),
                connectgaps=False,
                hovertemplate=(
                    "η = %{x}<br>%{y} iterations<extra>" + RULE_NAMES.get(rule, rule) + "</extra>"
                ),
            )
        )
        missed = [r for r in mine if r["iterations"] is None]
        if missed:
            fig.add_trace(
                go.Scatter(
                    x=[r["eta"] for r in missed],
                    y=[max_iter] * len(missed),
                    mode="markers",
                    marker=dict(symbol="x", size=10, color=colour),
                    showlegend=False,
                    customdata=[MISS_SHORT.get(r.get("missed"), "") for r in missed],
                    hovertemplate="η = %{x}: not feasible within the limit, %{customdata}<extra>"
                    + RULE_NAMES.get(rule, rule)
                    + "</extra>",
                )
            )
    style.base_layout(fig, height=height)
    fig.update_xaxes(title="relaxation parameter η", range=[0, 2.05])
    fig.update_yaxes(title="iterations to feasibility", type="log", dtick=1)
    # the legend under the plot (fixed margin): the lines fill the whole plot area
    fig.update_layout(
        margin=dict(b=150),
        legend=dict(
            orientation="h", x=0, xanchor="left", y=-0.22, yanchor="top", font=dict(size=14)
        ),
    )
    return fig


# ---------------------------------------------------------------------------
# The perceptron as a special case (Exercise 1.22)
# ---------------------------------------------------------------------------


def perceptron_both_ways(n: int, margin: float, seed: int, delta: float, eta: float):
    """The perceptron and the relaxation method on one data set's system (Exercise 1.22).

    Parameters
    ----------
    n, margin, seed : the data: ``make_separable`` in the plane, through the origin, radius 1
    delta : float, the threshold δ: the system is y_i w·x_i ≥ δ, i.e. A^T w ≤ c with
        a_i = -y_i x_i and c_i = -δ (``perceptron_system``)
    eta : float, the relaxation parameter of the relaxation method's run

    Returns
    -------
    perceptron : Trace of the perceptron (no bias, cyclic order, from w = 0)
    A, c : the system, shapes (2, n) and (n,)
    relaxed : the relaxation method's trace (cyclic rule, tolerance 0, from w = 0)
    etas : ndarray of shape (n_updates,), the η_t that makes each relaxation step the
        perceptron's update (``perceptron_eta``; inf for a score of exactly δ)
    """
    data = make_separable(n=n, margin=margin, dim=2, radius=1.0, seed=seed, through_origin=True)
    perceptron = run_perceptron(
        data.X, data.y, bias=False, delta=delta, order="cyclic", max_updates=5_000, max_epochs=1_000
    )
    A, c = perceptron_system(data.X, data.y, bias=False, delta=delta)
    relaxed = relaxation(A, c, eta=eta, rule="cyclic", tol=0.0, max_iter=20_000)
    etas = np.array(
        [
            perceptron_eta(A, c, perceptron.weights[k], perceptron.update_indices[k])
            for k in range(perceptron.n_updates)
        ]
    )
    return perceptron, A, c, relaxed, etas


def perceptron_figure(
    A, c, perceptron_weights, relaxation_iterates, *, eta: float, height: int = 560
) -> go.Figure:
    """Both paths in the (w_1, w_2) plane over the solution cone {w : A^T w <= c}."""
    P = np.asarray(perceptron_weights, float)
    R = np.asarray(relaxation_iterates, float)
    limit = 1.15 * max(1.0, float(np.abs(P).max()), float(np.abs(R).max()))
    fig = go.Figure()
    polygon = clip_polygon(A, c, limit)
    if polygon:
        xs, ys = zip(*(polygon + polygon[:1]))
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                fill="toself",
                mode="lines",
                line=dict(color=style.WEIGHT, width=1),
                fillcolor="rgba(0, 158, 115, 0.15)",
                name="solutions: yᵢ w·xᵢ ≥ δ for all i",
                hoverinfo="skip",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=P[:, 0],
            y=P[:, 1],
            mode="lines+markers",
            name="perceptron",
            line=dict(color=style.NEGATIVE, width=3),
            marker=dict(symbol="square", size=8),
        )
    )
    fig.add_trace(
        go.Scatter(
            x=R[:, 0],
            y=R[:, 1],
            mode="lines+markers",
            name=f"relaxation, η = {eta:g}",
            line=dict(color=style.POSITIVE, width=3, dash="dot"),
            marker=dict(size=8),
        )
    )
    style.base_layout(fig, height=height)
    fig.update_layout(
        margin=dict(b=130),
        legend=dict(
            orientation="h", x=0, xanchor="left", y=-0.16, yanchor="top", font=dict(size=14)
        ),
    )
    fig.update_xaxes(title="w₁", range=[-limit, limit], zeroline=True)
    fig.update_yaxes(title="w₂", range=[-limit, limit], scaleanchor="x", zeroline=True)
    return fig


# ---------------------------------------------------------------------------
# The page's texts, and the student's own rows
# ---------------------------------------------------------------------------

#: largest |a1|, |a2|, |c| of an own row; smallest length of (a1, a2) (a plane drawn at
#: a readable scale; beyond, the projections lose their digits)
MAX_ENTRY = 1e6
MIN_NORMAL = 1e-6
#: most rows of the student's own system
MAX_ROWS = 50
#: the player's controls speak of moves and iterations on this page
PLAYER_WORDS = {
    "next_mistake": "Next move",
    "next_example": "Next iteration",
    "update": "move",
    "keys": "Keys: → or PageDown next move · ↓ next iteration · ← or PageUp back · "
    "Home reset · End run to end · Space play/pause",
}
#: the page's first paragraph, in plain text with Unicode (bold upright vectors), not KaTeX:
#: Markdown with math makes a first visit fetch KaTeX (92 kB gzipped) and its fonts, and this
#: paragraph is the largest text the first view paints
SUMMARY = (
    "A system of linear inequalities **a**ᵢ · **w** ≤ cᵢ (i = 1, …, n, written "
    "Aᵀ**w** ≤ **c** with one column **a**ᵢ of A per inequality) in two unknowns, so every "
    "inequality is a half-plane and the solutions, where they form a region, are shaded "
    "(cut to the square drawn). The relaxation method (Algorithm 1.37) repeats one move: "
    "pick an inequality i by a rule; if **w** violates it (by more than the tolerance set), "
    "let Pᵢ(**w**) be the nearest "
    "point of its half-plane and set **w** ← (1 − η)**w** + η Pᵢ(**w**). With η = 1 **w** "
    "lands on the boundary line, with η = 2 on its mirror image, with η < 1 short of the "
    "line and with 1 < η < 2 past it. **Next move** jumps to the next iteration that moves "
    "**w**; **Next iteration** takes one iteration (a satisfied inequality leaves **w** "
    "where it is)."
)
#: why the sweep is not run on a system without solution
SWEEP_NOT_RUN = (
    "Not run: this system has no solution, so every run would end at the iteration limit."
)
#: Theorem 1.35 of the notes, within its hypotheses (p unknowns, n columns)
THEOREM_135 = (
    "**Theorem 1.35** (Amaldi and Hauser 2005): let A have nonzero columns, and take steps "
    "w ← w + ηₜ aᵢ, each on a column aᵢ with ⟨w, aᵢ⟩ ≤ 0 at that w, with 0 ≤ ηₜ ≤ η̄ for a "
    "bound η̄ fixed in advance; then ‖w‖ stays bounded (by a number that depends on A, w₀ "
    "and η̄), whether or not any w has Aᵀw > 0."
)
#: the perceptron as a case of Theorem 1.35, with the hypothesis a point at the origin breaks
PERCEPTRON_CASE = (
    "The perceptron with δ = 0 is such a method when no point sits at the origin: on a "
    "mistake, ⟨w, yᵢxᵢ⟩ ≤ 0, it steps along the column yᵢxᵢ with ηₜ = 1, so its weights stay "
    "bounded. (A point at the origin is a zero column, outside the theorem; its updates add "
    "nothing, so the theorem still applies to the other points.)"
)


def _theorem_hypotheses(A, c, trace) -> str:
    """Why Theorem 1.35 does not cover this run: the step has no bound fixed in advance,
    and ⟨w, −aᵢ⟩ ≤ 0 fails at the moves that start where aᵢ·w < 0 (counted exactly)."""
    A, c = np.asarray(A, float), np.asarray(c, float)
    rows = np.ascontiguousarray(A.T)
    signs = ExactSides(rows, np.zeros(len(c)), 0.0, 1.0)  # a_i·w, on its exact side of 0
    moves = np.flatnonzero(trace.moved)
    against = sum(signs.residuals(trace.iterates[t])[trace.indices[t]] < 0 for t in moves)
    steps = [
        trace.eta * trace.residuals[t] / float(rows[trace.indices[t]] @ rows[trace.indices[t]])
        for t in moves
    ]
    negative = [i for i in range(len(c)) if exact_value(c[i]) < 0]
    top = max(steps) if steps else 0.0
    largest = (
        (
            f" (in this run ηₜ went up to {top:,.0f})"
            if top >= 1000
            else f" (in this run ηₜ went up to {top:.3g})"
        )
        if steps
        else ""
    )
    # w = 0 satisfies every inequality with c_i >= 0: a system without solution has c_i < 0
    where = (
        f"A system without solution has some cᵢ < 0 (w = 0 satisfies every inequality "
        f"with cᵢ ≥ 0), here {_names(negative)}, so a move can start where aᵢ·w < 0"
    )
    hypothesis = (
        f"{where}, and {against:,} of this run's {len(moves):,} moves did."
        if against
        else f"{where}; none of this run's {len(moves):,} moves did."
    )
    return (
        "The relaxation method with a fixed η is not such a method. Written as "
        "w + ηₜ(−aᵢ), a move has ηₜ = η(aᵢ·w − cᵢ)/‖aᵢ‖², which grows with the violation: no "
        f"bound η̄ is fixed in advance{largest}. And the theorem asks for ⟨w, −aᵢ⟩ ≤ 0, that "
        "is aᵢ·w ≥ 0, while this method moves whenever aᵢ·w > cᵢ. "
        + hypothesis
        + " So Theorem 1.35 says nothing about it."
    )


def _names(indices) -> str:
    """(1), (2) and (4): inequalities by their numbers from 1."""
    names = [f"({i + 1})" for i in indices]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def no_solution_text(A, c, trace, system) -> str:
    """Why no run gets in, Theorem 1.35 within its hypotheses and why it does not cover
    this method (computed on this system and run), what this run's ‖w‖ did, and, with
    η = 2 and two parallel half-planes that share no point, why two reflections translate."""
    pairs = parallel_contradictions(A, c)
    reflections = ""
    if trace.eta == 2 and pairs:
        i, j = pairs[0]
        reflections = (
            f" With η = 2 every move is a reflection, and ({i + 1}) and ({j + 1}) "
            "are parallel half-planes with no common point: a reflection across "
            "one boundary line and then across the other is a translation by twice "
            "the gap between them."
        )
    return (
        "No solution: no rule and no η can reach a feasible point, so the run ends at "
        "its iteration limit. "
        + THEOREM_135
        + " "
        + PERCEPTRON_CASE
        + " "
        + _theorem_hypotheses(A, c, trace)
        + " In this run: "
        + end_text(A, c, trace, system).split("every inequality. ", 1)[-1]
        + reflections
    )


RULES_TEXT = (
    "Remark 1.38 lists six ways to choose the inequality of each iteration: **cyclic** "
    "(1, 2, …, n, again), **chaotic** (any order that visits every inequality within every "
    "window of τ iterations), **randomized** (inequality i with probability proportional "
    "to ‖aᵢ‖²), **permuted** (a fresh random order each pass), **maximal distance** (the "
    "inequality whose half-plane is farthest from w) and **maximal residual** (the largest "
    "aᵢ·w − cᵢ). The chart runs every rule for η = 0.1, 0.2, …, 2 from the same start, "
    "with this page's tolerance, iteration limit, τ and seed (one seeded run per point; "
    "chaotic with τ = n when the τ set is below n), and counts iterations until every "
    "inequality holds up to the tolerance."
)
PERCEPTRON_TEXT = (
    "Labelled points (xᵢ, yᵢ) with a line through the origin ask for w with "
    "yᵢ w·xᵢ ≥ δ for every i. Put aᵢ = −yᵢxᵢ and cᵢ = −δ: that is the system "
    "Aᵀw ≤ c in the two unknowns of w (Exercise 1.22). The perceptron's update on a "
    "mistake, w ← w + yᵢxᵢ = w − aᵢ, moves along the same direction as the relaxation "
    "step, but always by the full length ‖aᵢ‖, however small the violation: it is a "
    "relaxation step whose η changes from step to step, ηₜ = ‖aᵢ‖² / (aᵢ·w − cᵢ), and "
    "that ηₜ can be far above 2 (below: how often in this run). With δ = 0 the point w = 0 "
    "already solves the system, so the relaxation method does not move at all while the "
    "perceptron (which counts a score of 0 as a mistake) does: take δ > 0 to compare them."
)
#: under the comparison of the two runs
BOTH_WAYS_CAPTION = (
    "Both run the examples in the cyclic order from w = 0; the perceptron stops when every "
    "yᵢ w·xᵢ > δ, the relaxation method when every yᵢ w·xᵢ ≥ δ (tolerance 0, decided "
    "exactly), with the η set in the sidebar: with η below 1, a run that starts outside "
    "never gets in, since each move leaves its own inequality violated."
)
#: how the student writes a system of their own
OWN_ROWS_TEXT = (
    f"**Your inequalities** a₁·w₁ + a₂·w₂ ≤ c, one per row, numbered (1), (2), … as on "
    f"the plane (at most {MAX_ROWS}; a row with a₁ = a₂ = 0 is not an inequality and is "
    f"refused, as is one with (a₁, a₂) shorter than {MIN_NORMAL:g} or a number above "
    f"{MAX_ENTRY:g} in size; an unfinished row is skipped). Whether they have a solution, "
    "and whether a run's w satisfies them, is decided exactly on the numbers as typed "
    "(decimals read as exact fractions)."
)
#: why a link's rows= was not used
ROWS_REFUSED = (
    f"not rows a1,a2,c separated by ';', at most {MAX_ROWS}, each a₁ or a₂ not 0 and "
    f"every value at most {MAX_ENTRY:g} in size; used the wide polygon"
)


def row_problem(row) -> str | None:
    """Why an own row (a₁, a₂, c) cannot be an inequality a₁w₁ + a₂w₂ ≤ c of the page
    (not finite, an entry above MAX_ENTRY, or (a₁, a₂) nearly 0); None if it can."""
    a1, a2, value = row
    if not all(np.isfinite(v) for v in row):
        return "holds an infinite value"
    if max(abs(a1), abs(a2), abs(value)) > MAX_ENTRY:
        return f"holds a value above {MAX_ENTRY:g} in size"
    if np.hypot(a1, a2) < MIN_NORMAL:
        return (
            "has a₁ = a₂ = 0 (or nearly): 0 ≤ c is not an inequality in w; set a₁ "
            "or a₂, or delete the row"
        )
    return None


def rows_text(rows) -> str:
    """Own rows as a link writes them: 'a1,a2,c;a1,a2,c' (each number as %g)."""
    return ";".join(f"{a:g},{b:g},{v:g}" for a, b, v in rows)


def rows_from_text(text: str) -> list[list[float]] | None:
    """The rows a link wrote (:func:`rows_text`), or None unless it holds 1 to MAX_ROWS
    rows of three numbers that are each an inequality (:func:`row_problem`)."""
    if len(text) > 60 * MAX_ROWS:
        return None
    try:
        rows = [[float(v) for v in item.split(",")] for item in text.split(";") if item]
    except ValueError:
        return None
    if rows and len(rows) <= MAX_ROWS and all(len(r) == 3 and row_problem(r) is None for r in rows):
        return rows
    return None


#: what a missed run's iterates did, in words (``miss_behaviour``'s kinds)
MISS_WORDS = {
    "never": "can never get in from this start: with tolerance 0 and η < 1 every move "
    "leaves its own inequality violated by (1 − η) times its violation",
    "rounding": "as close as float64 arithmetic can tell: at the end the distance from w "
    "to the solutions was below 10⁻¹² of the numbers' size, yet some aᵢ·w − cᵢ "
    "was still above the tolerance",
    "approaching": "still getting closer: over the second half of each run the distance "
    "from w to the solutions fell",
    "circling": "not getting closer: over the second half of each run the distance from w "
    "to the solutions did not fall",
    "diverging": "moving away: ‖w‖ over the last quarter of each run rose above 1.5 times "
    "its largest value in the first half",
    "bounded": "not moving away: ‖w‖ over the last quarter of each run stayed at most 1.5 "
    "times its largest value in the first half",
}


#: a missed run's kind in a few words (the sweep chart's hover)
MISS_SHORT = {
    "never": "never gets in (η < 1, tolerance 0)",
    "rounding": "within rounding of the solutions",
    "approaching": "still getting closer",
    "circling": "not getting closer",
    "diverging": "moving away",
    "bounded": "bounded, no solution",
}


def _span(values) -> str:
    """'3' or '0.13 to 0.146' (3 significant digits, as :func:`number` writes them)."""
    low, high = number(min(values)), number(max(values))
    return low if low == high else f"{low} to {high}"


def _etas_text(etas) -> str:
    etas = sorted(set(etas))
    return "η = " + ", ".join(f"{e:g}" for e in etas)


#: rule -> its name in a sentence ("maximal distance"), from the rule table
RULE_NAMES = INDEX_RULE_NAMES


def _rules_text(runs) -> str:
    said = [f"{RULE_NAMES[r['rule']]} at η = {r['eta']:g}" for r in runs[:3]]
    return ", ".join(said) + (f" and {len(runs) - 3} more" if len(runs) > 3 else "")


def miss_sentence(kind: str, runs: list[dict]) -> str:
    """One kind of miss over the runs that had it (sweep rows): the η values, how many
    runs, what their iterates did with the numbers, and which repeat for ever."""
    if kind == "rounding":
        numbers = f" (distance at the end at most {at_most(max(r['after'] for r in runs))})"
    elif kind == "never":
        numbers = " (proved, so these runs were not run)"
    elif kind == "approaching":
        numbers = (
            f" (at the middle of the run {_span([r['before'] for r in runs])}, at the "
            f"end {_span([r['after'] for r in runs])})"
        )
    elif kind == "circling":
        numbers = f" (at the end {_span([r['after'] for r in runs])})"
    else:
        numbers = f" (‖w‖ at the end {_span([r['after'] for r in runs])})"
    repeats = ""
    for period in sorted({r["period"] for r in runs if r["period"]}):
        mine = [r for r in runs if r["period"] == period]
        repeats += (
            f"; {_rules_text(mine)} bring{'s' if len(mine) == 1 else ''} w back "
            f"to the same point every {period} iterations, for ever"
        )
    return (
        f"{_etas_text(r['eta'] for r in runs)}: {len(runs)} "
        f"run{'s' if len(runs) != 1 else ''} {MISS_WORDS[kind]}{numbers}{repeats}."
    )


def sweep_missed_text(rows, max_iter: int, tol: float) -> str | None:
    """How many sweep runs missed feasibility within ``max_iter`` and, per η, what those
    runs did (``miss_behaviour``, computed from their iterates), as Markdown; None if
    every run got in."""
    missed = [row for row in rows if row["iterations"] is None]
    if not missed:
        return None
    within = f"aᵢ·w ≤ cᵢ + {tol:g}" if tol else "aᵢ·w ≤ cᵢ, tolerance 0"
    skipped = any(row["missed"] == "never" for row in missed)
    lines = [
        f"{len(missed)} of {len(rows)} runs did not reach feasibility (every "
        f"{within}) within {max_iter:,} iterations (crosses on the dashed line"
        + ("; those that provably never can were not run" if skipped else "")
        + "). Why, from what each run did:"
    ]
    for kind in MISS_WORDS:
        runs = [row for row in missed if row["missed"] == kind]
        if runs:
            lines.append("- " + miss_sentence(kind, runs))
    advice = []
    if any(row["missed"] == "never" for row in missed):
        advice.append(
            "With tolerance 0 no run with η < 1 can get in, however many "
            "iterations it makes; a tolerance above 0 lets such runs stop."
        )
    if any(row["missed"] == "approaching" for row in missed):
        advice.append(
            "Raise the iteration limit to see whether the runs still getting closer get in."
        )
    if any(row["missed"] == "rounding" for row in missed):
        advice.append("A tolerance above 0 lets runs that are within rounding count as in.")
    if advice:
        lines.append("\n" + " ".join(advice))
    return "\n".join(lines)


def comparison_table(perceptron, relaxed, eta: float) -> dict[str, list[str]]:
    """The perceptron and the relaxation method side by side: moves, examples examined,
    final w, and whether each solved the system (``perceptron``: a perceptron Trace,
    ``relaxed``: a relaxation trace)."""
    return {
        "run": ["moves (updates)", "examples examined", "final w", "solves the system"],
        "perceptron": [
            f"{perceptron.n_updates}",
            f"{perceptron.n_examined}",
            f"({perceptron.w[0]:.3f}, {perceptron.w[1]:.3f})",
            "yes" if perceptron.converged else "no (limit)",
        ],
        f"relaxation, η = {eta:g}": [
            f"{relaxed.n_moves}",
            f"{relaxed.n_iter}",
            f"({relaxed.w[0]:.3f}, {relaxed.w[1]:.3f})",
            "yes"
            if relaxed.feasible
            else "no: never with η < 1 and tolerance 0"
            if relaxed.eta < 1
            else "no (limit)",
        ],
    }


def perceptron_eta_text(etas, n_updates: int) -> str | None:
    """The range of the perceptron's own ηₜ (``etas``, one per update, inf for a score of
    exactly δ) and how many lie above 2 (Markdown); None if none is finite."""
    etas = np.asarray(etas, dtype=float)
    finite = etas[np.isfinite(etas)]
    if not finite.size:
        return None
    return (
        f"The perceptron's own ηₜ over its {n_updates} updates: from {finite.min():.3g} to "
        f"{finite.max():.3g} (median {np.median(finite):.3g}); {int((finite > 2).sum())} of "
        "them above 2, outside the range (0, 2] of Algorithm 1.37"
        + (
            f"; {etas.size - finite.size} infinite (a score equal to δ up to rounding, "
            "where the projection does not move)"
            if etas.size > finite.size
            else ""
        )
        + "."
    )


def system_caption(name: str, description: str, system) -> str:
    """One line under the system's name: what it shows, and whether it has a solution
    (``system``: ``plane_system``'s exact answer, not a run's)."""
    return (
        f"**{name}**: {description}. "
        + ("This system has a solution" if system.feasible else "**This system has no solution**")
        + f" ({system.reason}; not by running the method)."
    )


def tau_text(tau: int, n: int) -> str:
    """Why the chaotic rule runs with τ = n when the chosen τ is below n."""
    return (
        f"τ = {tau} is below n = {n}: a window of τ iterations cannot visit all {n} "
        f"inequalities, so the run uses τ = n = {n}."
    )


def taus(rule: str, tau: int, n: int) -> tuple[int | None, int, str | None]:
    """The τ of the page's run (None unless the rule is chaotic: only it has a window),
    the τ of the sweep's chaotic runs (at least n: RULES_TEXT says so) and, when the
    rule is chaotic and the τ set is below n, why the run uses τ = n (else None)."""
    used = max(int(tau), n)
    if rule != "chaotic":
        return None, used, None
    return used, used, None if used == tau else tau_text(tau, n)


def sweep_refused_text(max_iter: int, seconds_allowed: float) -> str | None:
    """Why the sweep is not run when SWEEP_RUNS runs of up to ``max_iter`` iterations could
    take more than ``seconds_allowed`` (with the iteration limit that fits); None if it fits."""
    seconds = max_iter * SECONDS_PER_SWEEP_ITERATION
    if seconds <= seconds_allowed:
        return None
    most = int(seconds_allowed / SECONDS_PER_SWEEP_ITERATION) // 100 * 100
    allowed = f"{seconds_allowed:g}"
    shown = relation_text(seconds, ">", allowed, 1)  # 0.53 (not 0.5) more than 0.5
    return (
        f"Not run: the sweep ({SWEEP_RUNS} runs of up to {max_iter:,} iterations) could "
        f"need about {shown} s of computing, more than the {allowed} s "
        "one request may use on this shared server. Lower the iteration limit to "
        f"{most:,} or less to run it."
    )
