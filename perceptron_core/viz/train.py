"""Pictures of the /train page: the player's payload and the drawing board.

Arrays in, JSON-ready data (or a Plotly figure) out; never streamlit. The
player (``pages/player/player.js`` with ``pages/player/train_scene.js``) draws every step in
the browser from one payload per run, so stepping never asks the server.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

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
    fig.update_xaxes(range=[-limit, limit], zeroline=True, zerolinecolor="#cccccc",
                     title_text="x₁", constrain="domain")
    fig.update_yaxes(range=[-limit, limit], zeroline=True, zerolinecolor="#cccccc",
                     title_text="x₂", scaleanchor="x", scaleratio=1, constrain="domain")
    fig.update_layout(uirevision="train", legend=dict(
        orientation="h", x=0, xanchor="left", y=-0.07, yanchor="top", font=dict(size=14),
        itemsizing="constant"), margin=dict(l=60, r=10, t=20, b=70))
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
            marker=style.class_marker(label), customdata=members + 1,  # numbered x_1 .. x_n
            hovertemplate="example %{customdata}: click to remove<extra></extra>"))
    fig = go.Figure(traces)
    fig.update_layout(clickmode="event+select", dragmode=False)
    return _layout(fig, limit, height)



# ---------------------------------------------------------------------------
# The player's payload for /train: one per run, everything the browser shows
# ---------------------------------------------------------------------------



def prediction_accuracy(weights, biases, X, y) -> np.ndarray:
    """Training accuracy of every (w_t, b_t): predicted sign(w·x + b), sign(0) = -1.

    Parameters
    ----------
    weights : ndarray of shape (M + 1, 2); biases : ndarray of shape (M + 1,)
    X : ndarray of shape (n, 2); y : ndarray of shape (n,)

    Returns
    -------
    ndarray of shape (M + 1,), the share of examples predicted correctly.
    """
    weights, biases = np.asarray(weights, float), np.asarray(biases, float)
    accuracy = np.empty(weights.shape[0])
    chunk = max(1, 2_000_000 // max(1, len(y)))
    for start in range(0, weights.shape[0], chunk):
        scores = weights[start:start + chunk] @ X.T + biases[start:start + chunk, None]
        predicted = np.where(scores > 0, 1, -1)  # a point on the line is predicted -1
        accuracy[start:start + chunk] = np.mean(predicted == y, axis=1)
    return accuracy


def lines_meet(alignment_start: float, norm_sq_start: float, margin: float,
               step_sq: float) -> float:
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


def _proof_title(proof, bound, w0_norm, step_sq: float) -> str:
    """What the two lines show, true for this start: where they stop agreeing."""
    meet = lines_meet(float(proof.alignment[0]), float(proof.norm_sq[0]), proof.margin, step_sq)
    head = "Why it stops (Theorem 1.28): since ⟨w, w*⟩ ≤ ‖w‖, the two lines below allow"
    if w0_norm == 0:
        return f"{head} at most t = {value_text(meet)} updates: that is {bound.name}"
    return (f"{head} at most t = {value_text(meet)} updates from this start; {bound.name} = "
            f"{value_text(bound.value)} holds for every start of this length")


def _proof_payload(proof, trace, bound, w0_norm) -> dict:
    """The two quantities of Theorem 1.28's proof along the run, named as they are."""
    padded = trace.bias
    vector = "(w_t, b_t)" if padded else "w_t"
    start = "(w₀, b₀)" if padded else "w₀"
    gamma = "γ₂" if padded else "γ"
    step = "max‖aᵢ‖²" + (" + 2δ" if trace.delta > 0 else "")
    lower = f"⟨{start}, w*⟩ + t·{gamma}" if w0_norm > 0 else f"t·{gamma}"
    upper = f"‖{start}‖² + t({step})" if w0_norm > 0 else f"t({step})"
    return {
        "alignment": [float(v) for v in proof.alignment],
        "alignment_lower": [float(v) for v in proof.alignment_lower],
        "norm_sq": [float(v) for v in proof.norm_sq],
        "norm_sq_upper": [float(v) for v in proof.norm_sq_upper],
        "margin": float(proof.margin),
        "step_sq": float(proof.max_norm_sq + 2 * trace.delta),
        "title": _proof_title(proof, bound, w0_norm, proof.max_norm_sq + 2 * trace.delta),
        "alignment_title": f"⟨{vector}, w*⟩ gains at least {gamma} = {proof.margin:.4g} per update",
        "alignment_name": f"⟨{vector}, w*⟩",
        "alignment_lower_name": lower,
        "norm_sq_title": f"‖{vector}‖² gains at most {step} = "
                         f"{proof.max_norm_sq + 2 * trace.delta:.4g} per update",
        "norm_sq_name": f"‖{vector}‖²",
        "norm_sq_upper_name": upper,
        "caption": (f"w* is the unit vector with the best margin {gamma}"
                    + (" of the padded examples aᵢ = yᵢ(xᵢ, 1)" if padded else "")
                    + f". Each update adds some aᵢ to {vector}: the left quantity climbs at "
                    "least as fast as its line, the right one at most as fast as its line. "
                    f"Since ⟨{vector}, w*⟩ ≤ ‖{vector}‖, a steady climb on the left cannot "
                    "outrun the square root of the right for ever: solving for t gives the "
                    "bound."),
    }


def _path_payload(trace, norms, accuracy, case: str = "none") -> dict:
    """‖w_t‖ and the accuracy along a run on data that are not separable (as it runs)."""
    name = "‖(w_t, b_t)‖" if trace.bias else "‖w_t‖"
    if trace.delta == 0:
        caption = ("Some example is always on the wrong side, so the updates never stop and "
                   "the run ends at its limit. Yet the weights stay bounded (Theorem 1.35, "
                   "for updates when y(w·x + b) ≤ 0), while the accuracy keeps jumping.")
    else:
        caption = ("Some example always fails the update test, so the run ends at its limit. "
                   f"Theorem 1.35 (bounded weights) is stated for δ = 0; here δ = "
                   f"{trace.delta:g}, so the left panel shows what happens, not a theorem.")
    return {"norms": [float(v) for v in norms], "accuracy": [float(v) for v in accuracy],
            "title": ("No line through the origin separates these data: the updates never "
                      "stop" if case == "with_bias" and not trace.bias
                      else "Not separable: the updates never stop"),
            "norm_title": f"{name} along the updates", "norm_name": name, "caption": caption}


def _one_class_facts(bounds, case: str, bias: bool, label: int) -> str:
    """What the margin and the bounds are when every example has the same label."""
    text = f"Every example has label {label:+d}: one class. "
    if bias:
        return text + ("With a bias the best margin γ is unbounded: a line far enough to one "
                       "side has every point on the same side, as far from it as you like, so "
                       "(R/γ)² has no value here. The padded margin stays finite, because b "
                       "counts in the length of (w, b): "
                       f"γ₂ = {bounds.margin_2:.4f}, so T(A) = {value_text(bounds.padded)}.")
    if case == "through_origin":
        return text + ("A line through the origin has every point on one side: best margin "
                       f"through the origin γ = {bounds.margin:.4f}.")
    return text + ("The origin lies among the points (in their convex hull), so no line "
                   "through the origin has them all on one side: no bound applies. With a "
                   "bias any far line does: turn on \u201clearn a bias\u201d.")


def _facts(bounds, case: str, bias: bool, statements, labels=()) -> str:
    """The data's R, margins and separability, and any bound that does not apply."""
    from perceptron_core.theory import SEPARABILITY

    text = f"R = max‖x‖ = {bounds.radius:.3f}. "
    if len(set(labels)) == 1:
        text += _one_class_facts(bounds, case, bias, int(next(iter(set(labels)))))
    elif case == "none":
        text += "No line separates these data (computed exactly), so no bound applies."
    elif case == "with_bias" and not bias:
        text += ("No line through the origin separates these data, and without a bias the "
                 "perceptron can only learn such a line: no bound applies. A line with an "
                 "offset does separate them: turn on \u201clearn a bias\u201d.")
    else:
        text += SEPARABILITY[case].capitalize() + ". "
        text += (f"Best margin γ = {bounds.margin:.4f}, padded γ₂ = {bounds.margin_2:.4f}."
                 if bias else f"Best margin through the origin γ = {bounds.margin:.4f}.")
    for statement in statements[1:]:
        text += (f" {statement.name} = {value_text(statement.value)} does not apply here: "
                 f"{statement.reason}.")
    return text


def _end_text(trace, statements, case: str, bias: bool) -> str:
    epochs = f"{trace.epochs} epoch{'s' * (trace.epochs != 1)}"
    updates = f"{trace.n_updates:,} update{'s' * (trace.n_updates != 1)}"
    if trace.converged:
        text = (f"Converged after {updates} in {epochs}: every example now has "
                f"y(w·x + b) > δ = {trace.delta:g}.")
        if statements:
            text += (f" The bound that holds here, {statements[0].name}, allows at most "
                     f"{value_text(statements[0].value)}.")
        return text
    text = f"Stopped without converging after {updates} in {epochs}: the run hit its limit. "
    if not statements:
        text += ("No line through the origin separates these data."
                 if case == "with_bias" and not bias else "No line separates these data.")
    else:
        text += ("These data are separable, so it would converge: the limit came first. "
                 "Try a smaller δ or another order.")
    return text


def player_payload(X, y, trace, bounds, *, statements, case, proof=None, w0_norm=0.0,
                   planted=None, show_planted=True, limit, player) -> dict:
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

    Returns
    -------
    dict with the data, the updates (weights (M+1, 2), biases (M+1,), indices,
    steps, scores (M,), accuracy (M+1,)), the example examined at each step,
    the texts, and the proof or the boundedness path.
    """
    from .player import encode_indices

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=int)
    weights, biases = np.asarray(trace.weights, float), np.asarray(trace.biases, float)
    accuracy = prediction_accuracy(weights, biases, X, y)
    steps = np.arange(1, trace.n_examined + 1)
    cyclic = trace.order == "cyclic"
    examined = encode_indices(trace.indices_at_steps(steps) if steps.size and not cyclic
                              else [], len(y), cyclic=cyclic)
    holds = statements[0] if statements else None
    payload = {
        "player": player,
        "X": X.tolist(), "y": y.tolist(), "limit": float(limit),
        "scale": float(vector_scale(weights, limit)),
        "bias": bool(trace.bias), "delta": float(trace.delta),
        "planted": None if planted is None else {
            "w": [float(v) for v in planted[0]], "b": float(planted[1]),
            "margin": float(planted[2])},
        "show_planted": bool(show_planted),
        "examined": examined,
        "updates": {"weights": weights.tolist(), "biases": biases.tolist(),
                    "indices": [int(i) for i in trace.update_indices],
                    "steps": [int(s) for s in trace.update_steps],
                    "scores": [float(s) for s in trace.update_scores],
                    "accuracy": accuracy.tolist()},
        "converged": bool(trace.converged),
        "facts": _facts(bounds, case, trace.bias, statements, labels=y.tolist()),
        "bound": None if holds is None else {
            "name": holds.name, "value": float(holds.value), "value_text": value_text(holds.value),
            "hypotheses": holds.hypotheses},
        "end_text": _end_text(trace, statements, case, trace.bias),
        "proof": None if proof is None or holds is None else
        _proof_payload(proof, trace, holds, w0_norm),
        "path": None,
    }
    if payload["proof"] is None:
        norms = np.sqrt(np.einsum("ij,ij->i", weights, weights)
                        + (biases**2 if trace.bias else 0.0))
        payload["path"] = _path_payload(trace, norms, accuracy, case)
    return payload


# ---------------------------------------------------------------------------
# The page's texts (pages/train.py shows them; kept here beside the pictures)
# ---------------------------------------------------------------------------

#: /train's first paragraph, in plain text (bold upright vectors, Unicode symbols), not KaTeX:
#: it is the largest thing the page's first view paints, and Markdown with math waits for
#: KaTeX's 265 kB script before it paints (issue 21)
SUMMARY = ("Each step examines one example in the chosen order. When the example fails the "
           "update test y(**w** · **x** + b) ≤ δ (on the wrong side of the line, on it, or "
           "with a score of at most δ), the perceptron adds y**x** to **w** (and y to b when "
           "it learns a bias). Nothing else ever changes **w**. Step with the buttons or the "
           "keys: everything runs in your browser.")

def _signed_text(value: float, digits: int = 3) -> str:
    """A number as the player writes it, with a real minus; tiny nonzero values keep
    their digits (2.4e−05, not 0.000)."""
    value = float(value)
    text = (f"{value:.2e}" if value != 0 and abs(value) < 0.5 * 10**-digits
            else f"{value:.{digits}f}")
    return text.replace("-", "−")


def _pair_text(v) -> str:
    return "(" + ", ".join(_signed_text(c, 2) for c in np.ravel(v)) + ")"


def next_step_question(trace, X, y, shown_step: int) -> dict:
    """"Will the next example cause an update?" about a run shown at ``shown_step``.

    The player at step s has examined s examples; the next one is examined at step s + 1
    (1-based). The answer is read from the run: the example, its label and the score
    y(w·x + b) against δ under the (w, b) then in force (Algorithm 1.16, line 3).

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
    if isinstance(shown_step, bool) or not isinstance(shown_step, (int, np.integer)) or not (
            0 <= shown_step <= last):
        raise ValueError(f"shown_step must be a whole number from 0 to {last} (the run's "
                         f"examined steps); got {shown_step!r}.")
    if shown_step == last:
        raise ValueError(f"The run has ended at step {last:,}, so no example comes next: "
                         f"{trace.stop_reason.rstrip('.')}. Step back, or ask about another view.")
    nxt = trace.example_at(int(shown_step) + 1, X, y)  # the core replays step s + 1
    x, label, delta = np.asarray(X, float)[nxt.index], int(y[nxt.index]), float(trace.delta)
    b_text = f", b = {_signed_text(nxt.b, 2)}" if trace.bias else ""
    # the example's number as the notes write x_1 .. x_n: its 0-based row index + 1
    question = (f"Step {shown_step:,} is on screen. Step {shown_step + 1:,} examines example "
                f"{nxt.index + 1}: x = {_pair_text(x)}, y = {'+1' if label > 0 else '−1'}, with "
                f"w = {_pair_text(nxt.w)}{b_text}. Will it cause an update?")
    yes = "Yes, an update"
    no = "No, it is classified correctly" if delta == 0 else "No, its score is above δ"
    score = _signed_text(nxt.score)
    test = f"y(w·x{' + b' if trace.bias else ''}) = {score}"
    if nxt.updated:
        new_w = trace.weights[nxt.updates_before + 1]
        new_b = f" and b becomes {_signed_text(trace.biases[nxt.updates_before + 1], 2)}" \
            if trace.bias else ""
        where = ("it is on the wrong side of the line or on it (sign(0) is read as −1)"
                 if nxt.score <= 0 else
                 f"it is on the right side, but its score is at most δ = {delta:g}")
        why = (f"Its score is {test} ≤ δ = {delta:g}: {where}, so the update test fires and "
               f"the perceptron adds y·x to w{' and y to b' if trace.bias else ''}: "
               f"w becomes {_pair_text(new_w)}{new_b}." + (
                   " Only the sign of the score decides, not how far the point is from the "
                   "line." if delta == 0 else ""))
    else:
        why = (f"Its score is {test} > δ = {delta:g}, so the update test "
               f"y(w·x{' + b' if trace.bias else ''}) ≤ δ fails and nothing changes: the "
               "perceptron updates only on mistakes, even while other points are still "
               "wrong.")
    return {"question": question, "options": (yes, no), "answer": yes if nxt.updated else no,
            "why": why, "step": shown_step + 1, "index": int(nxt.index),
            "score": float(nxt.score), "updated": bool(nxt.updated)}


EXPORT_CAPTION = ("The HTML file holds the whole run and the player (buttons, keys, Play): "
                  "open it in any browser, no server or internet needed.")


def data_label(n: int, margin: float, data_seed: int) -> str:
    """How generated data are named on the page and in exports."""
    return f"generated, n = {n}, γ = {margin:g}, seed {data_seed}"


def export_settings(label: str, algorithm: dict, generated: dict | None = None) -> dict:
    """The settings written into the JSON export: the data's name, the algorithm's
    settings, and (generated data) the generator's."""
    return {"data": label, **algorithm, **(generated or {})}
