"""Pictures of the /train page: the player's payload and the drawing board.

Arrays in, JSON-ready data (or a Plotly figure) out; never streamlit. The
player (``pages/player/player.js`` with ``pages/player/train_scene.js``) draws every step in
the browser from one payload per run, so stepping never asks the server.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import plotly.graph_objects as go

from ..perceptron import ROUNDING_ULPS, row_norms
from ..shown_numbers import decimal_value, exact_text, relation_text, significant_text
from ..theory import value_text
from . import style


def axis_limit(X: np.ndarray, radius: float | None = None) -> float:
    """Half-width of the fixed square view: covers the data (and the ball) with 15% room."""
    reach = float(np.max(np.abs(X))) if X.size else 1.0
    if radius is not None:
        reach = max(reach, float(radius))
    return 1.15 * max(reach, 1e-9)


def vector_scale(weights: np.ndarray, limit: float) -> float:
    """One drawing scale for all w of a run, so w's growth stays visible and honest."""
    largest = float(np.max(np.linalg.norm(weights, axis=1))) if len(weights) else 0.0
    return 1.0 if largest <= 0.85 * limit else 0.85 * limit / largest


def _layout(fig, limit, height):
    style.base_layout(fig, height=height)
    fig.update_xaxes(
        range=[-limit, limit],
        zeroline=True,
        zerolinecolor="#cccccc",
        title_text="x₁",
        constrain="domain",
    )
    fig.update_yaxes(
        range=[-limit, limit],
        zeroline=True,
        zerolinecolor="#cccccc",
        title_text="x₂",
        scaleanchor="x",
        scaleratio=1,
        constrain="domain",
    )
    fig.update_layout(
        uirevision="train",
        legend=dict(
            orientation="h",
            x=0,
            xanchor="left",
            y=-0.07,
            yanchor="top",
            font=dict(size=14),
            itemsizing="constant",
        ),
        margin=dict(l=60, r=10, t=20, b=70),
    )
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
    traces = [
        go.Scatter(
            x=grid_x,
            y=grid_y,
            mode="markers",
            name="click to add",
            marker=dict(size=14, color="rgba(0,0,0,0.01)"),
            showlegend=False,
            hovertemplate="add a point at (%{x:.2f}, %{y:.2f})<extra></extra>",
        )
    ]
    for label, name in ((1, "class +1"), (-1, "class -1")):
        members = np.flatnonzero(y == label)
        traces.append(
            go.Scatter(
                x=X[members, 0],
                y=X[members, 1],
                mode="markers",
                name=name,
                marker=style.class_marker(label),
                customdata=members + 1,  # numbered x_1 .. x_n
                hovertemplate="example %{customdata}: click to remove<extra></extra>",
            )
        )
    fig = go.Figure(traces)
    fig.update_layout(clickmode="event+select", dragmode=False)
    return _layout(fig, limit, height)


# ---------------------------------------------------------------------------
# The player's payload for /train: one per run, everything the browser shows
# ---------------------------------------------------------------------------


def state_slacks(trace, X) -> np.ndarray:
    """The rounding allowance of the scores under each (w_t, b_t) of a run, t = 0..M.

    The run takes a computed score within this allowance of δ to be δ exactly
    (:class:`perceptron_core.perceptron.ScoreRounding`: 16 ulps of the sizes the score adds
    up); the page's rings, step texts and accuracy use the same allowance, so that float
    residue never decides a tie the exact arithmetic leaves (points drawn on a grid sit
    exactly on a line w·x + b = 0 that its floats miss by 10⁻¹⁷).

    Returns
    -------
    ndarray of shape (M + 1,)
    """
    X = np.asarray(X, dtype=float)
    sizes = row_norms(X)
    largest = float(sizes.max()) if sizes.size else 0.0
    # Σ over the updates so far of ‖x_i‖, from ‖w0‖, added in the run's order
    totals = np.cumsum(
        np.concatenate(
            [
                row_norms(np.asarray(trace.weights[:1], float)),
                sizes[np.asarray(trace.update_indices, dtype=int)],
            ]
        )
    )
    with np.errstate(over="ignore", invalid="ignore"):
        size = np.where(totals != 0, totals * largest, 0.0) + np.abs(np.asarray(trace.biases))
        slacks = ROUNDING_ULPS * float(np.finfo(np.float64).eps) * size
    return np.where(slacks < np.inf, slacks, 0.0)  # 0 once the sizes overflow, as the run


def prediction_accuracy(weights, biases, X, y, slacks=None) -> np.ndarray:
    """Training accuracy of every (w_t, b_t): predicted sign(w·x + b), sign(0) = -1.

    A score w·x + b within ``slacks[t]`` of 0 (its rounding, :func:`state_slacks`) is 0,
    and so predicted −1, as the run decides its ties.

    Parameters
    ----------
    weights : ndarray of shape (M + 1, 2); biases : ndarray of shape (M + 1,)
    X : ndarray of shape (n, 2); y : ndarray of shape (n,)
    slacks : ndarray of shape (M + 1,) or None (no allowance)

    Returns
    -------
    ndarray of shape (M + 1,), the share of examples predicted correctly.
    """
    weights, biases = np.asarray(weights, float), np.asarray(biases, float)
    slacks = np.zeros(weights.shape[0]) if slacks is None else np.asarray(slacks, float)
    accuracy = np.empty(weights.shape[0])
    chunk = max(1, 2_000_000 // max(1, len(y)))
    for start in range(0, weights.shape[0], chunk):
        scores = weights[start : start + chunk] @ X.T + biases[start : start + chunk, None]
        # a point on the line (up to rounding) is predicted -1
        predicted = np.where(scores > slacks[start : start + chunk, None], 1, -1)
        accuracy[start : start + chunk] = np.mean(predicted == y, axis=1)
    return accuracy


def lines_meet(
    alignment_start: float, norm_sq_start: float, margin: float, step_sq: float
) -> float:
    """The last t at which the proof's two lines still agree: the most updates they allow.

    ⟨w_t, w*⟩ ≥ a₀ + tγ and ‖w_t‖² ≤ n₀ + t·s, while ⟨w_t, w*⟩ ≤ ‖w_t‖ for a unit
    w*. So (a₀ + tγ)² ≤ n₀ + t·s once a₀ + tγ ≥ 0: t is at most the larger root of
    γ²t² + (2a₀γ − s)t + a₀² − n₀ = 0 (Theorem 1.28's argument, for this start).
    From w₀ = 0 it is s/γ², the bound itself; bound (1.4) takes the worst start
    a₀ = −‖w₀‖ and so is never smaller.
    """
    linear = step_sq - 2 * alignment_start * margin
    # discriminant >= (s - 2|a0|γ)^2 >= 0, since n0 >= a0^2 (Cauchy-Schwarz, ||w*|| = 1)
    discriminant = max(linear**2 - 4 * margin**2 * (alignment_start**2 - norm_sq_start), 0.0)
    return (linear + np.sqrt(discriminant)) / (2 * margin**2)


def _updates(value: float) -> str:
    """A bound on updates with its noun: "1 update", "211.02 updates"."""
    text = value_text(value)
    return f"{text} update{'' if text == '1' else 's'}"


def _proof_title(proof, bound, w0_norm, step_sq: float, padded: bool) -> str:
    """What the two lines show, true for this start: where they stop agreeing, and, from
    a start w₀ ≠ 0, why bound (1.4) is larger (it assumes the worst start of this length)."""
    vector, start = ("(w, b)", "(w₀, b₀)") if padded else ("w", "w₀")
    head = (
        f"Why it stops (Theorem 1.28): since ⟨{vector}, w*⟩ ≤ ‖{vector}‖, the two lines "
        "below allow at most"
    )
    if w0_norm == 0:  # the lines meet at (max‖aᵢ‖² + 2δ)/γ₂², the bound itself
        return f"{head} t = {_updates(bound.value)}: that is {bound.name}"
    a0 = float(proof.alignment[0])
    meet = lines_meet(a0, float(proof.norm_sq[0]), proof.margin, step_sq)
    return (
        f"{head} t = {_updates(meet)} from this start, where ⟨{start}, w*⟩ = "
        f"{significant_text(a0, 3)}. {bound.name[0].upper()}{bound.name[1:]}, "
        f"{value_text(bound.value)}, is at least that: it holds for every start of length "
        f"‖{start}‖ = {significant_text(w0_norm, 3)} because it assumes the worst one, "
        f"⟨{start}, w*⟩ = −{significant_text(w0_norm, 3)} (a start pointing away from w*)"
    )


def _proof_payload(proof, trace, bound, w0_norm) -> dict:
    """The two quantities of Theorem 1.28's proof along the run, named as they are."""
    padded = trace.bias
    vector = "(w_t, b_t)" if padded else "w_t"
    start = "(w₀, b₀)" if padded else "w₀"
    gamma = "γ₂" if padded else "γ"
    step = "max‖aᵢ‖²" + (" + 2δ" if trace.delta > 0 else "")
    step_sq = proof.max_norm_sq + 2 * trace.delta
    lower = f"⟨{start}, w*⟩ + t·{gamma}" if w0_norm > 0 else f"t·{gamma}"
    upper = f"‖{start}‖² + t({step})" if w0_norm > 0 else f"t({step})"
    return {
        "alignment": [float(v) for v in proof.alignment],
        "alignment_lower": [float(v) for v in proof.alignment_lower],
        "norm_sq": [float(v) for v in proof.norm_sq],
        "norm_sq_upper": [float(v) for v in proof.norm_sq_upper],
        "margin": float(proof.margin),
        "step_sq": float(step_sq),
        "title": _proof_title(proof, bound, w0_norm, step_sq, padded),
        # the inequalities name the quantities; their rounded values stand in equalities,
        # in the caption
        "alignment_title": f"⟨{vector}, w*⟩ gains at least {gamma} per update",
        "alignment_name": f"⟨{vector}, w*⟩",
        "alignment_lower_name": lower,
        "norm_sq_title": f"‖{vector}‖² gains at most {step} per update",
        "norm_sq_name": f"‖{vector}‖²",
        "norm_sq_upper_name": upper,
        "caption": (
            f"w* is the unit vector with the best margin {gamma}"
            + (" of the padded examples aᵢ = yᵢ(xᵢ, 1)" if padded else "")
            + f". Each update adds some aᵢ to {vector}: the left quantity climbs at "
            "least as fast as its line, the right one at most as fast as its line. "
            f"Since ⟨{vector}, w*⟩ ≤ ‖{vector}‖, a steady climb on the left cannot "
            "outrun the square root of the right for ever: solving for t gives the "
            f"bound. Here {gamma} = {significant_text(proof.margin)} and {step} = "
            f"{significant_text(step_sq)}."
        ),
    }


def _decided(exact: bool) -> str:
    """How the core decided separability (perceptron_core/margin.py): in exact rational
    arithmetic on the stored coordinates, unless its result says the exact pass was too
    costly (large support sets in many dimensions; never in the plane)."""
    if exact:
        return "decided in exact arithmetic on the coordinates as stored"
    return (
        "found by the margin solver in floating point, within its certified bracket: "
        "exact arithmetic was too costly here"
    )


def _none_found(through_origin: bool, exact: bool = True) -> str:
    """The verdict that no line (through the origin) separates, and how it was decided
    (a sentence's start)."""
    where = " through the origin" if through_origin else ""
    return f"No line{where} separates these data ({_decided(exact)})"


def percent_text(count: int, total: int) -> str:
    """count of total as a percentage with one decimal, more if needed so that it reads
    100% only when count = total and 0% only when count = 0 (the player's percentText)."""
    if count in (0, total):
        return "0%" if count == 0 else "100%"
    value = Decimal(100 * count / total)  # the float's exact value, rounded half up as the
    # player's toFixed rounds it

    def shown(places: int) -> Decimal:
        return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)

    places = 1
    while places < 6 and shown(places) in (0, 100):
        places += 1
    return f"{shown(places)}%"


def _accuracy_sentence(accuracy, n: int) -> str:
    """What the accuracy did along the run, read from it."""
    counts = np.rint(np.asarray(accuracy) * n).astype(int)
    low, high = int(counts.min()), int(counts.max())
    if low == high:
        return f"The training accuracy stays at {percent_text(low, n)} at every update."
    changes = int(np.count_nonzero(np.diff(counts)))
    return (
        f"The training accuracy moves between {percent_text(low, n)} and "
        f"{percent_text(high, n)}: it changes at {changes:,} of the {len(counts) - 1:,} "
        "updates."
    )


def _boundedness(trace, X) -> str:
    """Theorem 1.35 with its hypotheses checked: δ = 0 and every aᵢ ≠ 0 (without a bias,
    aᵢ = yᵢxᵢ is 0 for a point at the origin; an update on it adds nothing)."""
    if trace.delta > 0:
        return (
            "Theorem 1.35 (bounded weights) is stated for δ = 0; here δ = "
            f"{exact_text(trace.delta)}, so the left panel shows what happens, not a theorem."
        )
    text = (
        "The weights stay bounded all the same (Theorem 1.35, for updates when "
        "y(w·x + b) ≤ 0, from any start, when every aᵢ ≠ 0)"
    )
    zero: list[int] | np.ndarray = (
        [] if trace.bias else np.flatnonzero(~np.asarray(X, float).any(axis=1))
    )
    if len(zero) == 0:
        return text + "."
    if len(zero) == len(X):
        return text + ": here every example is at the origin, so aᵢ = 0 and w never changes."
    names = ", ".join(str(i + 1) for i in zero[:5]) + (", …" if len(zero) > 5 else "")
    return (
        text + f". Example{'s' * (len(zero) > 1)} {names}, at the origin, "
        f"{'have' if len(zero) > 1 else 'has'} aᵢ = 0 without a bias: an update on it "
        "adds nothing, so w moves only with the other examples, which the theorem covers."
    )


def _path_title(trace, case: str, no_line: bool) -> str:
    """The chart's title: what the run and the margin solver found (no_line: the solver
    finds no line of the kind the run learns)."""
    if trace.converged:
        return "The run separates the data, but the margin solver gives no margin: no bound"
    if not no_line:
        return "A line separates these data, but its padded margin γ₂ counts as 0: no bound"
    where = " through the origin" if case == "with_bias" else ""
    return f"No separating line{where} found: the updates did not stop"


def _path_payload(trace, X, norms, accuracy, case: str, limit_text: str) -> dict:
    """‖w_t‖ and the accuracy along a run with no bound (data the margin solver finds not
    separable), and what they show, computed from the run."""
    name = "‖(w_t, b_t)‖" if trace.bias else "‖w_t‖"
    no_line = case == "none" or (case == "with_bias" and not trace.bias)
    if trace.converged:
        status = (
            "This run ends with every example past the update test, so its own line "
            "separates the data; the margin solver counts their margin as 0, so no "
            "bound or proof is drawn."
        )
    else:
        where = " through the origin" if case == "with_bias" and not trace.bias else ""
        status = (
            f"The run stopped at its limit of {limit_text} with examples still failing "
            f"the update test. Where no line{where} separates the data, some example "
            "fails the test in every pass, so the updates never stop."
        )
    caption = " ".join((status, _boundedness(trace, X), _accuracy_sentence(accuracy, len(X))))
    return {
        "norms": [float(v) for v in norms],
        "accuracy": [float(v) for v in accuracy],
        "title": _path_title(trace, case, no_line),
        "norm_title": f"{name} along the updates",
        "norm_name": name,
        "caption": caption,
    }


def _one_class_facts(bounds, case: str, bias: bool, label: int) -> str:
    """What the margin and the bounds are when every example has the same label."""
    text = f"Every example has label {_label(label)}: one class. "
    if bias:
        return text + (
            "With a bias the best margin γ is unbounded: a line far enough to one "
            "side has every point on the same side, as far from it as you like, so "
            "(R/γ)² has no value here. The padded margin stays finite, because b "
            "counts in the length of (w, b): "
            f"γ₂ = {significant_text(bounds.margin_2)}, so T(A) = "
            f"{value_text(bounds.padded)}."
        )
    if case == "through_origin":
        return text + (
            "A line through the origin has every point on one side: best margin "
            f"through the origin γ = {significant_text(bounds.margin)}."
        )
    exact = getattr(bounds, "exact", True)
    return text + (
        "No line through the origin has every point strictly on one side "
        f"({_decided(exact)}): the origin lies in their convex hull"
        f"{'' if exact else ', or that close to it'}, so no bound applies. With a "
        "bias any far line does: turn on \u201clearn a bias\u201d."
    )


def _facts(bounds, case: str, bias: bool, statements, labels=(), converged=False) -> str:
    """The data's R, margins and separability, and any bound that does not apply."""
    from perceptron_core.theory import SEPARABILITY

    text = f"R = max‖x‖ = {significant_text(bounds.radius)}. "
    if len(set(labels)) == 1:
        text += _one_class_facts(bounds, case, bias, int(next(iter(set(labels)))))
    elif case == "none":
        text += _none_found(False, bounds.exact) + ", so no bound applies."
    elif case == "with_bias" and not bias:
        text += (
            _none_found(True, bounds.exact)
            + ", and without a bias the perceptron can only learn such "
            "a line: no bound applies. A line with an offset does separate them: turn on "
            "\u201clearn a bias\u201d."
        )
    else:
        text += SEPARABILITY[case][0].upper() + SEPARABILITY[case][1:]
        text += f" ({_decided(bounds.exact)}). " if case == "with_bias" else ". "
        if not bias:
            text += f"Best margin through the origin γ = {significant_text(bounds.margin)}."
        elif bounds.separable:
            text += (
                f"Best margin γ = {significant_text(bounds.margin)}, padded γ₂ = "
                f"{significant_text(bounds.margin_2)}."
            )
        else:
            text += (
                f"Best margin γ = {significant_text(bounds.margin)}; the margin solver "
                "counts the padded margin γ₂ as 0, so no bound applies."
            )
    if converged and not bounds.separable:
        text += (
            " This run ends with every example past the update test, so its own line "
            "separates them: their margin is below the solver's allowance."
        )
    for statement in statements[1:]:
        text += (
            f" {statement.name} = {value_text(statement.value)} does not apply here: "
            f"{statement.reason}."
        )
    return text


def limit_text(trace, limits: tuple[int, int] | None) -> str:
    """The limit a run that did not converge stopped at: its updates or its epochs."""
    if limits is None:
        return "updates or epochs"
    most_updates, most_epochs = limits
    return (
        f"{most_updates:,} updates"
        if trace.n_updates >= most_updates
        else f"{most_epochs:,} epochs"
    )


def _limit_reason(trace, holds, bounds, w0_norm: float, limits) -> str:
    """Why a run on separable data stopped before converging, from its numbers: the bound
    lets it take more updates than the limit, or it used up its epochs; and which of the
    settings on screen add to the bound."""
    text = (
        f"These data are separable, so the run converges within {value_text(holds.value)} "
        f"updates ({holds.name})"
    )
    if limits is not None and trace.n_updates >= limits[0]:
        text += f", more than this page's limit of {limits[0]:,}."
    else:
        text += "; it used up its epochs first (an epoch may hold a single update)."
    gamma, margin = ("γ₂", bounds.margin_2) if trace.bias else ("γ", bounds.margin)
    parts = []
    if trace.delta > 0:
        parts.append(
            f"δ = {exact_text(trace.delta)} adds 2δ/{gamma}² = "
            f"{value_text(2 * trace.delta / margin**2)}"
        )
    if w0_norm > 0:
        parts.append(f"the random start adds 2‖w₀‖/{gamma} = {value_text(2 * w0_norm / margin)}")
    if parts:
        text += " Of that bound, " + " and ".join(parts) + "."
    return text


def _end_text(
    trace, statements, case: str, bias: bool, bounds=None, w0_norm: float = 0.0, limits=None
) -> str:
    epochs = f"{trace.epochs:,} epoch{'s' * (trace.epochs != 1)}"
    updates = f"{trace.n_updates:,} update{'s' * (trace.n_updates != 1)}"
    if trace.converged:
        text = (
            f"Converged after {updates} in {epochs}: every example now has "
            f"y(w·x + b) > δ = {exact_text(trace.delta)}."
        )
        if statements:
            text += (
                f" The bound that holds here, {statements[0].name}, allows at most "
                f"{value_text(statements[0].value)}."
            )
        return text
    text = (
        f"Stopped without converging after {updates} in {epochs}: the run reached this "
        f"page's limit of {limit_text(trace, limits)}. "
    )
    if statements:
        return text + _limit_reason(trace, statements[0], bounds, w0_norm, limits)
    exact = getattr(bounds, "exact", True)
    if case == "with_bias" and not bias:
        return text + _none_found(True, exact) + "."
    if case == "none":
        return text + _none_found(False, exact) + "."
    return text + "The margin solver counts the padded margin γ₂ as 0, so no bound applies."


def player_payload(
    X,
    y,
    trace,
    bounds,
    *,
    statements,
    case,
    proof=None,
    w0_norm=0.0,
    planted=None,
    show_planted=True,
    limit,
    player,
    limits=None,
) -> dict:
    """Everything the /train player shows, for one run (JSON-ready).

    Parameters
    ----------
    X : ndarray of shape (n, 2); y : ndarray of shape (n,), labels in {-1, +1}
    trace : Trace of ``run_perceptron`` on (X, y)
    bounds : BoundSummary of (X, y) for the run's bias, delta and w_0
    statements : list of BoundStatement (``run_bounds``), the one that holds first
    case : key of ``SEPARABILITY`` (``separability_case``)
    proof : ProofQuantities or None (separable data)
    w0_norm : float, ‖(w₀, b₀)‖
    planted : (w_star, b_star, margin) or None
    limit : float, half-width of the fixed square view
    player : dict from ``viz.player.player_spec``
    limits : (max_updates, max_epochs) the run was given, or None

    Returns
    -------
    dict with the data, the updates (weights (M+1, 2), biases (M+1,), indices,
    steps, scores (M,), accuracy (M+1,), slack (M+1,): the rounding allowance of
    the scores under each (w, b), :func:`state_slacks`), the example examined at each step,
    the texts, and the proof or the boundedness path.
    """
    from .player import encode_indices

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=int)
    weights, biases = np.asarray(trace.weights, float), np.asarray(trace.biases, float)
    slacks = state_slacks(trace, X)
    accuracy = prediction_accuracy(weights, biases, X, y, slacks)
    steps = np.arange(1, trace.n_examined + 1)
    cyclic = trace.order == "cyclic"
    examined = encode_indices(
        trace.indices_at_steps(steps) if steps.size and not cyclic else [], len(y), cyclic=cyclic
    )
    holds = statements[0] if statements else None
    payload = {
        "player": player,
        "X": X.tolist(),
        "y": y.tolist(),
        "limit": float(limit),
        "scale": float(vector_scale(weights, limit)),
        "bias": bool(trace.bias),
        "delta": float(trace.delta),
        "planted": None
        if planted is None
        else {
            "w": [float(v) for v in planted[0]],
            "b": float(planted[1]),
            "margin": float(planted[2]),
        },
        "show_planted": bool(show_planted),
        "examined": examined,
        "updates": {
            "weights": weights.tolist(),
            "biases": biases.tolist(),
            "indices": [int(i) for i in trace.update_indices],
            "steps": [int(s) for s in trace.update_steps],
            "scores": [float(s) for s in trace.update_scores],
            "accuracy": accuracy.tolist(),
            "slack": slacks.tolist(),
        },
        "converged": bool(trace.converged),
        "facts": _facts(
            bounds, case, trace.bias, statements, labels=y.tolist(), converged=trace.converged
        ),
        "bound": None
        if holds is None
        else {
            "name": holds.name,
            "value": float(holds.value),
            "value_text": value_text(holds.value),
            "hypotheses": holds.hypotheses,
        },
        "end_text": _end_text(trace, statements, case, trace.bias, bounds, w0_norm, limits),
        "proof": None
        if proof is None or holds is None
        else _proof_payload(proof, trace, holds, w0_norm),
        "path": None,
    }
    if payload["proof"] is None:
        norms = np.sqrt(
            np.einsum("ij,ij->i", weights, weights) + (biases**2 if trace.bias else 0.0)
        )
        payload["path"] = _path_payload(trace, X, norms, accuracy, case, limit_text(trace, limits))
    return payload


# ---------------------------------------------------------------------------
# The page's texts (pages/train.py shows them; kept here beside the pictures)
# ---------------------------------------------------------------------------

#: /train's first paragraph, in plain text (bold upright vectors, Unicode symbols), not KaTeX:
#: it is the largest thing the page's first view paints, and Markdown with math waits for
#: KaTeX's 265 kB script before it paints
SUMMARY = (
    "Each step examines one example in the chosen order. When the example fails the "
    "update test y(**w** · **x** + b) ≤ δ (on the wrong side of the line, on it, or "
    "with a score of at most δ), the perceptron adds y**x** to **w** (and y to b when "
    "it learns a bias). Nothing else ever changes **w**. Step with the buttons, the "
    "keys or a tap on the picture: everything runs in your browser."
)


def noise_note(flipped: int, n: int) -> str:
    """What the label noise did to the generated data: how many labels it flipped."""
    if flipped == 0:
        return (
            f"No label flipped at this share (0 of {n:,}): the data are as generated, "
            "separable with the planted margin γ."
        )
    return (
        f"{flipped:,} of {n:,} labels flipped. Whether a line still separates the data is "
        "said beside the picture."
    )


def _pair_text(v, places: int | None) -> str:
    """A point or a weight vector with ``places`` decimals, or exactly (None)."""
    return "(" + ", ".join(_number(c, places) for c in np.ravel(v)) + ")"


def _number(value: float, places: int | None) -> str:
    text = exact_text(value) if places is None else f"{float(value):.{places}f}"
    return "0" if float(text.replace("−", "-")) == 0 else text.replace("-", "−")


def _deciding_places(x, w, b, label: int, bias: bool, delta_text: str, updated: bool):
    """The fewest decimals (2 to 8) for x, w and b such that the score y(w·x + b) worked
    out from the numbers as written falls on the run's side of δ; None: write them exactly.
    A student who works the question out from the screen then gets the run's answer."""
    delta = decimal_value(delta_text)
    for places in range(2, 9):
        shown = [decimal_value(_number(v, places)) for v in (*x, *w, b)]
        half = len(x)
        score = label * (
            sum(a * c for a, c in zip(shown[:half], shown[half : 2 * half]))
            + (shown[-1] if bias else 0)
        )
        if (score <= delta) == updated:
            return places
    return None


def _label(label: int) -> str:
    return "+1" if label > 0 else "−1"


def _update_cause(nxt, score: float, label: int, delta_text: str) -> str:
    """Why the update test fires, from the score the run recorded: the wrong side, on the
    line (predicted −1 by sign(0) = −1: wrong for +1, right for −1, updating all the same),
    or the right side within δ. ``score``: the run's, 0 within rounding."""
    if score < 0:
        return (
            f"it is on the wrong side of the line: it is predicted {_label(-label)}, its "
            f"label is {_label(label)}"
        )
    if score == 0:
        everywhere = (
            "w = 0 and b = 0, so w·x + b = 0 at every point; "
            if not np.any(nxt.w) and nxt.b == 0
            else ""
        )
        verdict = (
            "which is wrong for its label +1"
            if label > 0
            else "which is right for its label −1: the prediction is correct, and it "
            f"updates only because its score 0 is at most δ = {delta_text}"
        )
        return (
            f"{everywhere}it lies on the line w·x + b = 0 and is predicted sign(0) = −1, {verdict}"
        )
    return (
        f"it is on the right side and predicted correctly, but its score is at most "
        f"δ = {delta_text}"
    )


def next_step_question(trace, X, y, shown_step: int) -> dict:
    """ "Will the next example cause an update?" about a run shown at ``shown_step``.

    The player at step s has examined s examples; the next one is examined at step s + 1
    (1-based). The answer is read from the run: the example, its label and the score
    y(w·x + b) against δ under the (w, b) then in force (Algorithm 1.16, line 3); the
    explanation gives the cause the score shows, and the numbers of the question have the
    digits that give the run's answer when worked out as written.

    Parameters
    ----------
    trace : Trace of the run (``run_perceptron``)
    X : ndarray of shape (n, d), y : ndarray of shape (n,), the data the run used
    shown_step : int, the step on screen, 0..n_examined − 1

    Returns
    -------
    dict with ``question``, ``options`` (two), ``answer``, ``why`` (texts), and
    ``step``, ``index``, ``score``, ``updated`` (the next step, read from the run).
    ``index`` is the 0-based row of X; the question names it as example ``index + 1``,
    as the notes number x_1, ..., x_n.

    Raises
    ------
    ValueError
        When ``shown_step`` is the run's last step (there is no next example) or not a
        step of the run.
    """
    last = int(trace.n_examined)
    if (
        isinstance(shown_step, bool)
        or not isinstance(shown_step, (int, np.integer))
        or not (0 <= shown_step <= last)
    ):
        raise ValueError(
            f"shown_step must be a whole number from 0 to {last} (the run's "
            f"examined steps); got {shown_step!r}."
        )
    if shown_step == last:
        raise ValueError(
            f"The run has ended at step {last:,}, so no example comes next: "
            f"{trace.stop_reason.rstrip('.')}. Step back, or ask about another view."
        )
    nxt = trace.example_at(int(shown_step) + 1, X, y)  # the core replays step s + 1
    x, label, delta = np.asarray(X, float)[nxt.index], int(y[nxt.index]), exact_text(trace.delta)
    places = _deciding_places(x, nxt.w, nxt.b, label, trace.bias, delta, nxt.updated)
    slack = state_slacks(trace, X)[nxt.updates_before]
    score = 0.0 if abs(nxt.score) <= slack else float(nxt.score)  # 0 up to rounding
    b_text = f", b = {_number(nxt.b, places)}" if trace.bias else ""
    question = (
        f"Step {shown_step:,} is on screen. Step {shown_step + 1:,} examines example "
        f"{nxt.index + 1}: x = {_pair_text(x, places)}, y = {_label(label)}, with "
        f"w = {_pair_text(nxt.w, places)}{b_text} and δ = {delta}. Will it cause an "
        "update?"
    )
    yes = "Yes, an update"
    no = "No, it is classified correctly" if trace.delta == 0 else "No, its score is above δ"
    plus_b = " + b" if trace.bias else ""
    if nxt.updated:
        k = nxt.updates_before + 1
        new_b = f" and b becomes {_number(trace.biases[k], places)}" if trace.bias else ""
        why = (
            f"Its score is y(w·x{plus_b}) = {relation_text(score, '≤', delta)} ≤ "
            f"δ = {delta}: {_update_cause(nxt, score, label, delta)}. So the update test fires and "
            f"the perceptron adds y·x to w{' and y to b' if trace.bias else ''}: w becomes "
            f"{_pair_text(trace.weights[k], places)}{new_b}."
        )
    else:
        scores = np.asarray(y) * (np.asarray(X, float) @ nxt.w + nxt.b)
        due = int(np.count_nonzero(scores <= trace.delta + slack))
        others = (
            "every example passes the test"
            if due == 0
            else f"{due:,} other example{'s' * (due != 1)} still fail{'s' * (due == 1)} it"
        )
        why = (
            f"Its score is y(w·x{plus_b}) = {relation_text(score, '>', delta)} > "
            f"δ = {delta}, so the update test y(w·x{plus_b}) ≤ δ fails and nothing changes: "
            f"the perceptron changes w only on an example that fails the test. With this w, "
            f"{others}."
        )
    return {
        "question": question,
        "options": (yes, no),
        "answer": yes if nxt.updated else no,
        "why": why,
        "step": shown_step + 1,
        "index": int(nxt.index),
        "score": float(nxt.score),
        "updated": bool(nxt.updated),
    }


EXPORT_CAPTION = (
    "The HTML file holds the whole run and the player (buttons, keys, Play): "
    "open it in any browser, no server or internet needed."
)


def data_label(n: int, margin: float, data_seed: int) -> str:
    """How generated data are named on the page and in exports."""
    return f"generated, n = {n}, γ = {margin:g}, seed {data_seed}"


def export_settings(label: str, algorithm: dict, generated: dict | None = None) -> dict:
    """The settings written into the JSON export: the data's name, the algorithm's
    settings, and (generated data) the generator's."""
    return {"data": label, **algorithm, **(generated or {})}
