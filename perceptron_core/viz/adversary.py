"""Figures and texts of the /adversary page (Theorem 1.34 of the notes: the perceptron
is optimal).

Arrays in; a ``plotly.graph_objects.Figure``, a table as a dict of columns, or
Markdown out.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import plotly.graph_objects as go

from perceptron_core.constructions import adversarial_lower_bound, typed_decimal

from . import style

#: learner name (``constructions.LEARNERS``, plus "you") -> its label in the menu and link
LEARNER_LABELS = {
    "you": "You: be the learner",
    "perceptron": "Perceptron (Algorithm 1.16, through the origin)",
    "aggressive": "Aggressive perceptron (updates every round)",
    "always_positive": "Always predicts +1",
    "majority": "Majority label seen so far",
    "nearest_neighbor": "Nearest neighbour",
}
#: subscript digits, for a basis vector's index (e₁₂)
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
#: what the page shows, under its title
SUMMARY = (
    "Started at w = 0 with threshold δ = 0, the perceptron with no bias makes at most 1/γ² "
    "mistakes on unit-length data that a hyperplane through the origin separates with "
    "margin γ. Could a cleverer learner do better? Theorem 1.34 says no: an adversary can "
    "force **every** deterministic learner to make ⌊1/γ²⌋ mistakes, as long as the "
    "dimension d is at least that (otherwise d of them). Play the learner yourself, or "
    "watch a built-in one lose."
)
#: the rules of Theorem 1.34's game, and why its labels have margin γ (Markdown). Plain text
#: with Unicode (bold upright vectors) as in SUMMARY, not KaTeX: math would cost the page
#: KaTeX's 265 kB script; "\*" is a star Markdown shows as written.
GAME_TEXT = r"""
**The game** (Theorem 1.34, labels through the origin, no bias). Fix a margin
γ ∈ (0, 1] and a dimension d, and let n = min(⌊1/γ²⌋, d). In round i = 1, …, n the
adversary shows the standard basis vector **e**ᵢ, the learner predicts ±1, and only then the
adversary announces the label yᵢ = −(prediction). Every round is a mistake, for any
deterministic learner. The labels are still consistent with a margin-γ separator:
w\*ᵢ = γ·yᵢ has ‖**w**\*‖₂ = γ√n ≤ 1 (because n ≤ 1/γ²) and yᵢ⟨**e**ᵢ, **w**\*⟩ = γ for
every i.
"""
#: what the forced-mistakes chart compares (Markdown)
SWEEP_TEXT = r"""
For unit-length examples through the origin (‖**a**ᵢ‖₂ = 1, **w**₀ = **0**, δ = 0), eq. (1.5)
bounds the perceptron's mistakes by 1/γ₂², where γ₂ is the data's margin; with margin at least
γ that is at most 1/γ². The adversary's data are exactly of this kind, and it forces
min(⌊1/γ²⌋, d) mistakes. Below, the perceptron faces the adversary for a sweep of margins.
"""


def learner_label(name: str) -> str:
    """A learner's label in the menu (and so in the link)."""
    return LEARNER_LABELS.get(name, name.replace("_", " "))


def moves_text(predictions) -> str:
    """The student's predictions as a link writes them: +1 -> '+', -1 -> '-'."""
    return "".join("+" if int(p) > 0 else "-" for p in predictions)


def parse_moves(text: str, n: int) -> list[int] | None:
    """The predictions a link wrote (a '+' typed into a URL arrives as a space, so a
    space counts as +1), or None if ``text`` is not a game of at most n rounds."""
    signs = {"+": 1, " ": 1, "-": -1}
    if not text or len(text) > n or any(c not in signs for c in text):
        return None
    return [signs[c] for c in text]


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
        fig.add_trace(
            go.Scatter(
                x=rounds[mask],
                y=labels[mask],
                mode="markers",
                marker=style.class_marker(value) | dict(size=style.MARKER_SIZE + 5),
                name=f"label yᵢ = {value:+d}",
                hovertemplate="round %{x}<br>label %{y:+d}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=rounds,
            y=predictions,
            mode="markers",
            name="prediction",
            marker=dict(color="black", symbol="x-thin-open", size=16, line=dict(width=3)),
            hovertemplate="round %{x}<br>prediction %{y:+d}<extra></extra>",
        )
    )
    style.base_layout(fig, height=300)
    fig.update_xaxes(
        title="round i",
        range=[0.5, max(rounds.size, 1) + 0.5],
        tick0=1,
        dtick=max(1, int(np.ceil(rounds.size / 20))),
    )
    fig.update_yaxes(tickvals=[-1, 1], ticktext=["−1", "+1"], range=[-1.6, 1.6])
    return fig


def forced_mistakes_figure(
    gammas: np.ndarray, forced: np.ndarray, dim: int, current: tuple[float, int] | None = None
) -> go.Figure:
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
    fig.add_trace(
        go.Scatter(
            x=inverse,
            y=inverse,
            mode="lines",
            name="perceptron upper bound 1/γ²",
            line=dict(color=style.BOUND, width=6),
            hovertemplate="1/γ² = %{x:.4g}<br>bound = %{y:.4g}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=inverse,
            y=forced,
            mode="lines+markers",
            line_shape="hv",
            name="mistakes forced by the adversary: min(⌊1/γ²⌋, d)",
            line=dict(color=style.STEP, width=3, dash="dash"),
            marker=dict(color=style.STEP, symbol="diamond", size=8),
            hovertemplate="1/γ² = %{x:.4g}<br>forced = %{y}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[inverse[0], inverse[-1]],
            y=[dim, dim],
            mode="lines",
            name=f"dimension d = {dim}",
            line=dict(color=style.GHOST, width=2, dash="dot"),
            hoverinfo="skip",
        )
    )
    if current is not None:
        gamma, n = current
        fig.add_trace(
            go.Scatter(
                x=[1.0 / gamma**2],
                y=[n],
                mode="markers",
                name=f"your choice: γ = {gamma:g}, n = {n}",
                marker=dict(
                    color=style.PLANTED, symbol="star", size=22, line=dict(color="black", width=1)
                ),
                hovertemplate="1/γ² = %{x:.4g}<br>n = %{y}<extra></extra>",
            )
        )
    style.base_layout(fig, height=540)
    fig.update_xaxes(type="log", title="1/γ²  (log scale)", exponentformat="power")
    fig.update_yaxes(type="log", title="mistakes  (log scale)", exponentformat="power")
    return fig


def rounds_columns(predictions: np.ndarray, labels: np.ndarray) -> dict[str, np.ndarray]:
    """The table of the rounds, one column per entry (a plain dict of arrays): four narrow
    columns, so that it fits a 360 px phone without scrolling sideways (round i shows eᵢ,
    which the caption says, and the running count tells each round's mistake).

    Parameters
    ----------
    predictions, labels : ndarray of int, shape (m,)
        The learner's predictions and the labels y_i the adversary revealed, rounds 1..m.

    Returns
    -------
    dict
        "round i", "prediction", "label yᵢ" and "mistakes so far" (the running count),
        each of length m.
    """
    predictions = np.asarray(predictions, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.int64)
    rounds = np.arange(1, predictions.size + 1)
    wrong = predictions != labels
    return {
        "round i": rounds,
        "prediction": predictions,
        "label yᵢ": labels,
        "mistakes so far": np.cumsum(wrong),
    }


def decimal_text(value: Fraction) -> str:
    """An exact number as a student reads it: a finite decimal when it is one (0.0625, 1, 25),
    else the fraction (100/9)."""
    value = Fraction(value)
    den = value.denominator
    for prime in (2, 5):
        while den % prime == 0:
            den //= prime
    if den != 1:
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    whole, part = divmod(abs(value.numerator) * 10**digits // value.denominator, 10**digits)
    return ("−" if value < 0 else "") + str(whole) + (f".{part:0{digits}d}" if digits else "")


def rounds_text(gamma: float) -> str:
    """1/γ² and its floor, exactly, for γ read as typed: "1/γ² = 25 (γ = 0.2)" or
    "1/γ² = 100/9 = 11.11… (γ = 0.3), so ⌊1/γ²⌋ = 11"."""
    exact = typed_decimal(gamma)
    inverse = 1 / exact**2
    shown = decimal_text(inverse)
    if "/" in shown:  # not a finite decimal: its first digits, cut (not rounded) and "…"
        cut = f"{decimal_text(Fraction(int(inverse * 100), 100))}…"
        shown = f"{shown} = {cut}" if len(shown) <= 15 else cut
    return (
        f"1/γ² = {shown} (γ = {decimal_text(exact)}), so ⌊1/γ²⌋ = "
        f"{inverse.numerator // inverse.denominator}"
    )


def certificate_text(result, gamma: float, n: int, dim: int) -> str:
    """Markdown checking Theorem 1.34's certificate w* = γ·y on one game, in exact
    arithmetic with γ read as typed (``constructions.typed_decimal``).

    Parameters
    ----------
    result : AdversaryResult of ``constructions.adversarial_lower_bound``, all n rounds
    gamma : float, the margin γ; n : int, the rounds min(⌊1/γ²⌋, d); dim : int, d

    Returns
    -------
    str
        w* (its first coordinates, each ±γ), its squared norm n·γ² ≤ 1 and its margin γ,
        and the mistakes the learner made anyway.
    """
    exact = typed_decimal(gamma)
    g = decimal_text(exact)
    shown = ", ".join(("+" if v > 0 else "−") + g for v in result.y[: min(n, 6)])
    more = ", …" if n > 6 else ""
    rest = f" and 0 in the other {dim - n} coordinates" if dim > n else ""
    square = n * exact**2
    relation = ", so ‖w\\*‖ = 1" if square == 1 else " < 1, so ‖w\\*‖ < 1"
    return (
        f"**Certificate checked** (in exact arithmetic). "
        f"w\\* = γ·y = ({shown}{more}){rest}.  \n"
        f"Norm: ‖w\\*‖² = n·γ² = {n}·{decimal_text(exact**2)} = {decimal_text(square)}"
        f"{relation}.  \n"
        f"Margin: every yᵢ⟨eᵢ, w\\*⟩ = yᵢ·γyᵢ = γ = {g}.  \n"
        f"So these {n} labelled examples have margin at least γ = {g}, and the "
        f"learner still made {result.n_mistakes} mistakes out of {n}."
    )


def round_prompt(played: int, n: int, dim: int) -> str:
    """What the student sees before predicting round ``played + 1`` of ``n`` (Markdown)."""
    if played >= n:
        return f"**All {n} rounds played.**"
    k = played + 1
    shown = (
        "e₁ = (1), the only unit vector of a 1-dimensional space"
        if dim == 1
        else f"e{str(k).translate(SUBSCRIPTS)}: a 1 in coordinate {k} and 0 in the other "
        f"{dim - 1} coordinate{'s' * (dim != 2)}"
    )
    before = (
        "It is the first example: you have seen nothing yet."
        if played == 0
        else f"It is orthogonal to the {played} example{'s' * (played != 1)} so far, so "
        "nothing you have seen tells you its label."
    )
    return (
        f"**Round {k} of {n}.** The adversary shows {shown}. {before} Whatever you "
        "predict, the label is revealed only afterwards. Your prediction?"
    )


def forced_mistakes_text(dim: int) -> str:
    """Markdown reading the forced-mistakes chart for dimension ``dim``."""
    return (
        "While d ≥ 1/γ² the two curves coincide (up to rounding "
        "1/γ² down to a whole number of rounds): no learner can promise fewer "
        "mistakes than the perceptron already guarantees, so in high dimension its bound "
        f"is the best possible. Once 1/γ² > d = {dim} the adversary runs out of "
        "orthogonal directions and its curve levels off at d, while the bound keeps "
        "rising: in low dimension the perceptron's bound may be loose."
    )


def forced_mistakes(dim: int, points: int = 41) -> tuple[np.ndarray, np.ndarray]:
    """Mistakes the adversary forces on the perceptron over a sweep of margins.

    The margins are chosen so that 1/γ² is 1 or lies half way between two whole numbers
    (1, 1.5, 2.5, ..., about log-spaced up to 10⁴): then ⌊1/γ²⌋ is the same for γ and for
    its rounding to a float, and the chart's points read exactly as the theorem says.

    Parameters
    ----------
    dim : int, the dimension d
    points : int, about how many values of 1/γ², log-spaced from 1 to 10⁴

    Returns
    -------
    gammas : ndarray of shape (m,), decreasing from 1
    forced : ndarray of int, shape (m,), n = min(⌊1/γ²⌋, d) for each γ (Theorem 1.34)
    """
    halves = np.unique(np.floor(np.geomspace(1.0, 1e4, points))) + 0.5
    gammas = 1.0 / np.sqrt(np.concatenate([[1.0], halves[halves < 1e4]]))
    forced = np.array([adversarial_lower_bound(g, dim, "perceptron").n_mistakes for g in gammas])
    return gammas, forced
