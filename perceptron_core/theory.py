"""Mistake bounds of the perceptron and the two quantities of their proof.

Each bound names its source among the notes in ``shared/seeds``. Hypotheses
matter: every bound here holds only for data that are linearly separable with
the margin given, and each function says for which variant of the algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import check_dataset, check_number, frozen
from .margin import max_margin, padded_max_margin
from .perceptron import Trace
from .shown_numbers import exact_text, significant_text


def _positive(value, name):
    return check_number(value, name, low=0, low_open=True)


def _representable(value: float, what: str, lower: str) -> float:
    """A bound computed in float64 must be finite: otherwise say which input to change."""
    if not np.isfinite(value):
        raise ValueError(f"{what} is too large to represent (over 1.8e308); {lower}.")
    return float(value)


def _ratio_sq(numerator: float, denominator: float) -> float:
    """numerator / denominator**2 in float64 (the same IEEE operations as Python's), but
    an overflow or a denominator squared to 0 gives inf instead of OverflowError or
    ZeroDivisionError."""
    with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
        return float(np.float64(numerator) / np.float64(denominator) ** 2)


def novikoff_bound(radius: float, margin: float) -> float:
    """(R / gamma)^2: Novikoff's bound for the perceptron through the origin.

    Hypotheses: ||x_i|| <= R for all i, a unit w* with y_i <w*, x_i> >= gamma > 0,
    start at w = 0, update when y <w, x> <= 0, no bias. Source:
    slides-perceptron-hust-cs4780.txt (1/gamma^2 with R = 1) and
    notes-perceptron-kernels-columbia.txt (Claims 1.2 and 1.3).
    """
    radius, margin = _positive(radius, "R (radius)"), _positive(margin, "gamma (margin)")
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        value = float((np.float64(radius) / np.float64(margin)) ** 2)
    return _representable(value, "(R / gamma)^2", "use a larger margin or a smaller radius")


def padded_bound(max_norm_sq: float, margin_2: float) -> float:
    """T(A) = max_i ||a_i||^2 / gamma_2(A)^2, eq. (1.5) of notes-perceptron-yu.txt.

    a_i = y_i (x_i, 1) is the padded example (Remark 1.17) and gamma_2(A) the
    margin of the padded problem; hypotheses: w_0 = 0, delta = 0, data separable.
    Without a bias use a_i = y_i x_i and the margin through the origin.
    """
    value = _ratio_sq(_positive(max_norm_sq, "max ||a_i||^2"), _positive(margin_2, "gamma_2"))
    return _representable(value, "T(A)", "use a larger margin gamma_2 or smaller examples")


def threshold_bound(
    max_norm_sq: float, margin: float, delta: float = 0.0, w0_norm: float = 0.0
) -> float:
    """The general bound (1.4) of Theorem 1.28 (notes-perceptron-yu.txt), with ||w*|| = 1.

    t <= ((2 delta + ||A||_{2,inf}^2) ||w*||^2 + 2 s ||w*|| ||w_0||) / s^2, here with
    ||w*||_2 = 1 and s = margin, so
    t <= (2 delta + max_i ||a_i||^2 + 2 s ||w_0||) / s^2.
    """
    max_norm_sq = _positive(max_norm_sq, "max ||a_i||^2")
    s = _positive(margin, "margin s")
    delta = check_number(delta, "delta", low=0)
    w0_norm = check_number(w0_norm, "||w_0||", low=0)
    with np.errstate(over="ignore"):
        numerator = float(np.float64(2) * delta + max_norm_sq + np.float64(2) * s * w0_norm)
    value = _ratio_sq(numerator, s)
    return _representable(
        value, "bound (1.4)", "use a larger margin or smaller delta, ||w_0|| or examples"
    )


def bias_bound(radius: float, epsilon: float) -> float:
    """2 (R^2 + 1) / epsilon^2, the bound with a bias of notebook-perceptron-sgd-d2l.txt.

    Hypotheses: ||x_i|| <= R, some (w*, b*) with ||w*|| <= 1, b*^2 <= 1 and
    y_i (w*·x_i + b*) >= epsilon for all i; start at (w, b) = 0.
    """
    radius = _positive(radius, "R (radius)")
    with np.errstate(over="ignore"):
        numerator = float(np.float64(2) * (np.float64(radius) ** 2 + 1))
    value = _ratio_sq(numerator, _positive(epsilon, "epsilon (margin)"))
    return _representable(
        value, "2 (R^2 + 1) / epsilon^2", "use a larger margin or a smaller radius"
    )


def margin_mistake_bound(margin: float) -> float:
    """3 / gamma^2 margin mistakes, notes-perceptron-margin-generalization.txt (Lemma).

    For the margin perceptron (update when y x·beta < 1, beta_0 = 0, no bias),
    with ||x_i|| <= 1 and a unit beta* with y_i x_i·beta* > gamma.
    """
    margin = _positive(margin, "gamma (margin)")
    return _representable(_ratio_sq(3.0, margin), "3 / gamma^2", "use a larger margin")


@dataclass(frozen=True)
class BoundSummary:
    """The numbers a page shows next to a run on separable data.

    radius : R = max_i ||x_i||; margin : geometric margin (max_margin);
    margin_2 : gamma_2(A); max_norm_sq : max_i ||a_i||^2;
    novikoff : (R / gamma)^2, valid through the origin; padded : T(A);
    bound : bound (1.4) with this delta and ||w_0||;
    reference : w*, the unit vector attaining margin_2 (padded (w, b) with a bias),
    which the convergence proof measures progress along (``proof_quantities``);
    exact : separability, margin and margin_2 were decided in exact rational arithmetic
    (``MarginResult.exact``; otherwise they are certified lower bounds, see margin.py).
    """

    radius: float
    margin: float
    margin_2: float
    max_norm_sq: float
    novikoff: float
    padded: float
    bound: float
    separable: bool
    reference: np.ndarray
    exact: bool = True


def bound_summary(X, y, bias=True, delta=0.0, w0_norm=0.0) -> BoundSummary:
    """R, the margins, (R/gamma)^2, T(A) and bound (1.4) for a dataset.

    With ``bias`` the padded examples a_i = y_i (x_i, 1) are used (Remark 1.17);
    without, a_i = y_i x_i and the margin through the origin. Bounds are inf
    when the data are not separable.

    Data of one class are allowed (the slides' first quiz has one point). With a
    bias their geometric margin is inf (``max_margin``), so (R/gamma)^2 has no
    value and ``novikoff`` is inf; gamma_2, T(A) and (1.4) stay finite, because
    the bias counts in the norm of the padded vector (w, b).
    """
    X, y = check_dataset(X, y, both_classes=False)
    radius = float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X))))
    geometric = max_margin(X, y, bias=bias)
    if bias:
        padded = padded_max_margin(X, y)
        margin_2, reference = padded.margin, np.append(padded.w, padded.b)
        max_norm_sq = radius**2 + 1.0
        exact = geometric.exact and padded.exact
    else:
        margin_2, reference, max_norm_sq = geometric.margin, geometric.w, radius**2
        exact = geometric.exact
    inf = float("inf")
    separable = margin_2 > 0 and geometric.separable
    return BoundSummary(
        radius=radius,
        margin=geometric.margin,
        margin_2=margin_2,
        max_norm_sq=max_norm_sq,
        novikoff=(
            novikoff_bound(radius, geometric.margin)
            if separable and radius > 0 and np.isfinite(geometric.margin)
            else inf
        ),
        padded=padded_bound(max_norm_sq, margin_2) if separable else inf,
        bound=threshold_bound(max_norm_sq, margin_2, delta, w0_norm) if separable else inf,
        separable=bool(separable),
        reference=frozen(reference),
        exact=bool(exact),
    )


@dataclass(frozen=True)
class ProofQuantities:
    """The two quantities of the convergence proof (Theorem 1.28), per update t.

    alignment : <w_t, w*>, grows by at least gamma per update (lower line
    alignment[0] + t·gamma); norm_sq : ||w_t||^2, grows by at most R^2 + 2 delta
    per update (upper line norm_sq[0] + t (R^2 + 2 delta)). With a bias all
    vectors are padded: w_t = (w, b), a = y (x, 1), w* the unit maximiser of
    gamma_2(A).
    """

    alignment: np.ndarray
    norm_sq: np.ndarray
    alignment_lower: np.ndarray
    norm_sq_upper: np.ndarray
    margin: float
    max_norm_sq: float
    reference: np.ndarray


def proof_quantities(trace: Trace, X, y, bounds: BoundSummary | None = None) -> ProofQuantities:
    """<w_t, w*> and ||w_t||^2 along a trace, with the lines the proof predicts.

    Parameters
    ----------
    trace : Trace from run_perceptron on (X, y)
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    bounds : BoundSummary of (X, y) with the trace's bias, optional
        Its margin_2 and w* are used instead of solving for them again.

    Returns
    -------
    ProofQuantities, arrays of shape (n_updates + 1,)
    """
    if not isinstance(trace, Trace):
        raise ValueError("proof_quantities expects a Trace from run_perceptron.")
    X, y = check_dataset(X, y, both_classes=False)
    if X.shape[1] != trace.weights.shape[1]:
        raise ValueError("X does not match the trace: different number of features.")
    if bounds is None:
        bounds = bound_summary(X, y, bias=trace.bias)
    elif not isinstance(bounds, BoundSummary) or bounds.reference.shape != (
        X.shape[1] + trace.bias,
    ):
        raise ValueError("bounds must be the BoundSummary of these data with the trace's bias.")
    # w* and gamma_2 of the padded a_i = y_i (x_i, 1) with a bias, of a_i = y_i x_i without
    margin, max_norm_sq = bounds.margin_2, bounds.max_norm_sq
    reference = np.asarray(bounds.reference)
    iterates = (
        np.column_stack([trace.weights, trace.biases]) if trace.bias else np.asarray(trace.weights)
    )
    updates = np.arange(iterates.shape[0])
    alignment = iterates @ reference
    norm_sq = np.einsum("ij,ij->i", iterates, iterates)
    return ProofQuantities(
        alignment=frozen(alignment),
        norm_sq=frozen(norm_sq),
        alignment_lower=frozen(alignment[0] + updates * margin),
        norm_sq_upper=frozen(norm_sq[0] + updates * (max_norm_sq + 2 * trace.delta)),
        margin=float(margin),
        max_norm_sq=max_norm_sq,
        reference=frozen(reference),
    )


def training_path(trace: Trace, X, y) -> tuple[np.ndarray, np.ndarray]:
    """||w_t|| and the training accuracy after each update t = 0..M.

    On data that are not separable the perceptron never converges, yet its
    weights stay bounded (Theorem 1.35, Amaldi and Hauser 2005; Minsky and
    Papert; Block and Levin): the norm levels off while the accuracy keeps
    oscillating. With a bias the norm is that of the padded vector (w, b).

    Parameters
    ----------
    trace : Trace
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)

    Returns
    -------
    norms : ndarray of shape (n_updates + 1,)
    accuracy : ndarray of shape (n_updates + 1,), share of y (w·x + b) > 0
    """
    if not isinstance(trace, Trace):
        raise ValueError("training_path expects a Trace from run_perceptron.")
    X, y = check_dataset(X, y, both_classes=False)
    if X.shape[1] != trace.weights.shape[1]:
        raise ValueError("X does not match the trace: different number of features.")
    weights, biases = np.asarray(trace.weights), np.asarray(trace.biases)
    norms = np.sqrt(np.einsum("ij,ij->i", weights, weights) + (biases**2 if trace.bias else 0))
    accuracy = np.empty(weights.shape[0])
    chunk = max(1, 2_000_000 // max(1, X.shape[0]))
    for start in range(0, weights.shape[0], chunk):
        scores = (weights[start : start + chunk] @ X.T + biases[start : start + chunk, None]) * y
        accuracy[start : start + chunk] = np.mean(scores > 0, axis=1)
    return frozen(norms), frozen(accuracy)


# ---------------------------------------------------------------------------
# Which statement holds for the settings of a run
# ---------------------------------------------------------------------------

#: separability case -> what it means, in words (decided by max_margin, in exact arithmetic
#: unless its result's ``exact`` is False)
SEPARABILITY = {
    "through_origin": "a line through the origin separates the two classes",
    "with_bias": "a line separates the two classes, but none through the origin does",
    "none": "no line separates the two classes",
}


def separability_case(X, y) -> str:
    """Which kind of line separates (X, y): a key of ``SEPARABILITY``.

    Through the origin (no bias, Theorem 1.28 with a_i = y_i x_i), only with a
    bias (a_i = y_i (x_i, 1), Remark 1.17), or none. Decided by the margin solver
    (``max_margin``), in exact rational arithmetic unless its ``exact`` is False.
    Data of one class are separable with a bias (put the line beyond all the
    points) and through the origin when the origin is outside their convex hull.
    """
    X, y = check_dataset(X, y, both_classes=False)
    if max_margin(X, y, bias=False).separable:
        return "through_origin"
    return "with_bias" if max_margin(X, y, bias=True).separable else "none"


@dataclass(frozen=True)
class BoundStatement:
    """A mistake bound named with its value and the hypotheses it needs.

    ``holds`` says whether those hypotheses hold for the run; ``reason`` says
    which one fails when they do not.
    """

    name: str
    value: float
    hypotheses: str
    holds: bool
    reason: str = ""


def run_bounds(
    bounds: BoundSummary, *, bias: bool, delta: float, w0_norm: float
) -> list[BoundStatement]:
    """The bounds a page may name for one run, the one that holds first.

    On separable data Theorem 1.28 gives bound (1.4) for any delta >= 0 and
    start w_0 (with a bias, for the padded a_i = y_i (x_i, 1) and gamma_2).
    With w_0 = 0 and delta = 0 it is T(A) (eq. 1.5); without a bias T(A) is
    (R/gamma)^2. Novikoff's (R/gamma)^2 assumes no bias. Returns [] when the
    data are not separable in the sense the run needs.
    """
    if not isinstance(bounds, BoundSummary):
        raise ValueError(
            f"bounds must be the BoundSummary of bound_summary(X, y), got {type(bounds).__name__}."
        )
    if not bounds.separable:
        return []
    delta = check_number(delta, "delta", low=0)
    w0_norm = check_number(w0_norm, "||w_0||", low=0)
    vectors = "aᵢ = yᵢ(xᵢ, 1), margin γ₂" if bias else "aᵢ = yᵢxᵢ, margin γ"
    plain = delta == 0 and w0_norm == 0
    if plain:
        name = "T(A) = max‖aᵢ‖²/γ₂², eq. 1.5" if bias else "(R/γ)², Theorem 1.28 with no bias"
        hypotheses = f"separable data ({vectors}), start at w = 0, update when y(w·x + b) ≤ 0"
    else:
        name = "bound (1.4) of Theorem 1.28"
        start = "‖(w₀, b₀)‖" if bias else "‖w₀‖"
        hypotheses = (
            f"separable data ({vectors}), update when y(w·x + b) ≤ δ = "
            f"{exact_text(delta)}, start with {start} = {significant_text(w0_norm, 3)}"
        )
    statements = [BoundStatement(name=name, value=bounds.bound, hypotheses=hypotheses, holds=True)]
    if not plain:
        statements.append(
            BoundStatement(
                name="T(A)",
                value=bounds.padded,
                hypotheses="w₀ = 0 and δ = 0",
                holds=False,
                reason="it assumes a start at w = 0 and δ = 0",
            )
        )
    if bias and np.isfinite(bounds.novikoff):
        statements.append(
            BoundStatement(
                name="(R/γ)²",
                value=bounds.novikoff,
                hypotheses="no bias: a line through 0",
                holds=False,
                reason="it is a theorem for a perceptron with no bias",
            )
        )
    return statements


# ---------------------------------------------------------------------------
# The notebook's bound with a bias, and the words the pages use for named results
# ---------------------------------------------------------------------------


def bias_bound_margin(radius: float, margin: float) -> float:
    """A margin epsilon for which the hypotheses of ``bias_bound`` hold: gamma / max(1, R).

    The notebook (notebook-perceptron-sgd-d2l.txt) asks for (w*, b*) with
    ||w*|| <= 1, b*^2 <= 1 and y_i (w*·x_i + b*) >= epsilon. Take the best affine
    separator: unit w*, bias b*, geometric margin gamma. It is the perpendicular
    bisector of the closest points of the two classes' convex hulls, so it passes
    through a point p of the data's convex hull, ||p|| <= R, and
    |b*| = |w*·p| <= R. Dividing (w*, b*) by max(1, R) keeps ||w*|| <= 1, makes
    b*^2 <= 1 and divides the margin by max(1, R). With R <= 1, epsilon = gamma.

    Parameters
    ----------
    radius : float, R = max_i ||x_i|| > 0
    margin : float, geometric margin gamma > 0 of the best affine separator

    Returns
    -------
    float, epsilon = gamma / max(1, R)
    """
    radius, margin = _positive(radius, "R (radius)"), _positive(margin, "gamma (margin)")
    return margin / max(1.0, radius)


def value_text(value: float) -> str:
    """A computed value as an equality may write it: never rounded to a whole number.

    A whole number is written as it is (8, 1,404); any other value to two decimals from 1
    up (3.70, 8.33, 1,404.37) and to three significant digits below 1 (0.533). A value
    within 10^-9 (relative) of a whole number counts as whole: 3/0.1² is 299.99999999999994
    in floating point but 300 in the arithmetic the page means. Infinity is "∞".
    """
    value = float(value)
    if not np.isfinite(value):
        return "∞" if value > 0 else ("−∞" if value < 0 else "undefined")
    whole = round(value)
    if abs(value - whole) <= 1e-9 * max(1.0, abs(value)):
        return f"{whole:,}".replace("-", "−")
    text = f"{value:,.2f}" if abs(value) >= 1 else f"{value:.3g}"
    return text.replace("-", "−")


def whole_cap(value: float) -> int:
    """The largest whole number not above ``value`` (a cap on a count), with the same
    10^-9 allowance as :func:`value_text` for a value that is whole in exact arithmetic."""
    value = float(value)
    whole = round(value)
    return int(whole) if abs(value - whole) <= 1e-9 * max(1.0, abs(value)) else int(np.floor(value))


#: symbol -> what it is, in one line: every symbol any page shows (one panel per page
#: lists its own, :data:`PAGE_NOTATION`)
NOTATION = {
    "xᵢ, yᵢ": "the i-th example and its label, yᵢ ∈ {−1, +1}",
    "w, b": "the weight vector and the bias: the prediction is sign(w·x + b) (b = 0 when no "
    "bias is learnt); the notes on margins write β for w",
    "w*": "a unit vector (with a bias b*) that separates the data: the one a proof compares w with",
    "d": "the dimension: how many coordinates each example xᵢ has",
    "n": "the number of examples (on /relaxation, of inequalities)",
    "N": "the number of training points; the test point is number N + 1",
    "t": "the number of updates so far: examples that failed the test y(w·x + b) ≤ δ (the "
    "notes' mistakes)",
    "xₖ": "the k-th example of a sequence, k = 1, 2, 3, …: k counts examples, not updates",
    "u": "the shift of a translation: every example moves by u along the first coordinate, "
    "xᵢ → xᵢ + u e₁ (Exercise 1.29)",
    "R": "radius of the data: R = maxᵢ ‖xᵢ‖",
    "γ": "geometric margin: the largest distance from the nearest example to a separating "
    "hyperplane (through the origin when there is no bias); γ means a margin and "
    "nothing else",
    "aᵢ": "the padded example aᵢ = yᵢ(xᵢ, 1) with a bias (Remark 1.17); aᵢ = yᵢxᵢ without",
    "γ₂": "margin of the padded problem: γ₂ = max over ‖w‖ ≤ 1 of minᵢ ⟨aᵢ, w⟩; with a bias "
    "the bias counts in the norm, so γ₂ ≤ γ",
    "δ": "threshold: an update happens when y(w·x + b) ≤ δ (δ = 0 in the plain perceptron)",
    "w₀": "the starting weights (w₀ = 0, b₀ = 0 unless a random start is chosen); with a "
    "bias, (1.4) uses the length of the padded start, ‖(w₀, b₀)‖",
    "s": "a margin of an unnormalised w*: ⟨aᵢ, w*⟩ ≥ s > 0 for every i (bound (1.4))",
    "T(A)": "maxᵢ ‖aᵢ‖² / γ₂²: most updates from w₀ = 0 with δ = 0 (eq. 1.5)",
    "(1.4)": "t ≤ (2δ + maxᵢ ‖aᵢ‖² + 2γ₂‖w₀‖) / γ₂²: most updates for any δ ≥ 0 and start w₀ "
    "(Theorem 1.28 with a unit w*)",
    "ε": "the notebook's margin: some (w*, b*) with ‖w*‖ ≤ 1 and b*² ≤ 1 has "
    "yᵢ(w*·xᵢ + b*) ≥ ε for every i",
    "λ": "the factor every example is multiplied by when the data are scaled (Exercise 1.29)",
    "sign(0)": "read as −1: a point on the hyperplane is predicted −1",
    "ŷ": "the predicted label: ŷ = sign(f(x)), with sign(0) = −1",
    "β": "the notes' name for the weight vector w (β* for w*, β₀ for the start w₀)",
    "η": "step size: the relaxation parameter of a relaxation step, or the step of SGD",
    "τ": "the window of the chaotic rule: every inequality is chosen at least once in every "
    "τ iterations",
    "aᵢ·w ≤ cᵢ": "inequality i of the system Aᵀw ≤ c (A has the columns aᵢ)",
    "Pᵢ(w)": "the nearest point to w of the half-plane of inequality i (the projection)",
    "k": "the number of classes",
    "K(x, z)": "a kernel: K(x, z) = Φ(x)·Φ(z), the inner product of the features (x and z "
    "name its two arguments; b is only ever the bias)",
    "Φ": "a feature map: Φ(x) lists the features of x (the lift)",
    "f(x)": "the score the prediction thresholds: f(x) = w·x + b, or with a kernel "
    "f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b; the prediction is sign f(x)",
    "αᵢ": "how many updates example i has caused (the dual weights: w = Σᵢ αᵢ yᵢ Φ(xᵢ))",
    "κ": "the kernel's scale: (κ x·z + c)^degree for the polynomial kernel, exp(−κ‖x − z‖²) "
    "for the RBF kernel, where a larger κ means narrower bumps (software such as "
    "scikit-learn calls it gamma)",
    "σ": "the width of the RBF kernel: exp(−κ‖x − z‖²) = exp(−‖x − z‖²/(2σ²)), σ = 1/√(2κ)",
    "c": "the constant of the polynomial kernel (κ x·z + c)^degree",
    "R_Φ, γ_Φ": "the radius and the margin of the padded examples yᵢ(Φ(xᵢ), 1) in feature "
    "space (without the 1 when no bias is learnt)",
}

#: page -> the symbols its Notation panel lists (keys of NOTATION), in the order shown
PAGE_NOTATION = {
    "home": (
        "xᵢ, yᵢ",
        "w, b",
        "f(x)",
        "ŷ",
        "w*",
        "d",
        "t",
        "R",
        "γ",
        "aᵢ",
        "γ₂",
        "δ",
        "w₀",
        "s",
        "T(A)",
        "(1.4)",
        "sign(0)",
    ),
    "train": (
        "xᵢ, yᵢ",
        "w, b",
        "f(x)",
        "w*",
        "d",
        "n",
        "t",
        "R",
        "γ",
        "aᵢ",
        "γ₂",
        "δ",
        "w₀",
        "s",
        "T(A)",
        "(1.4)",
        "sign(0)",
    ),
    "bound": (
        "xᵢ, yᵢ",
        "w, b",
        "f(x)",
        "w*",
        "β",
        "d",
        "n",
        "t",
        "R",
        "γ",
        "aᵢ",
        "γ₂",
        "δ",
        "w₀",
        "s",
        "T(A)",
        "(1.4)",
        "ε",
        "λ",
        "u",
        "sign(0)",
    ),
    "aggressive": ("xᵢ, yᵢ", "xₖ", "w, b", "f(x)", "w*", "t", "δ", "s", "sign(0)"),
    "adversary": ("xᵢ, yᵢ", "w, b", "w*", "d", "n", "t", "γ", "δ", "s", "T(A)", "sign(0)"),
    "kernels": (
        "xᵢ, yᵢ",
        "w, b",
        "d",
        "n",
        "t",
        "R",
        "γ",
        "K(x, z)",
        "Φ",
        "f(x)",
        "αᵢ",
        "κ",
        "σ",
        "c",
        "R_Φ, γ_Φ",
        "δ",
        "sign(0)",
    ),
    "generalisation": (
        "xᵢ, yᵢ",
        "w, b",
        "f(x)",
        "w*",
        "β",
        "d",
        "N",
        "t",
        "γ",
        "δ",
        "η",
        "sign(0)",
    ),
    "multiclass": ("xᵢ, yᵢ", "w, b", "d", "n", "k", "sign(0)"),
    "relaxation": ("aᵢ·w ≤ cᵢ", "w, b", "n", "t", "γ", "δ", "η", "τ", "Pᵢ(w)", "w₀"),
}
# the live class polls /train's waiting question: its symbols are /train's
PAGE_NOTATION["class"] = PAGE_NOTATION["train"]


def page_notation(page: str) -> dict[str, str]:
    """The symbols one page shows, symbol -> meaning (its Notation panel).

    Parameters
    ----------
    page : str, a key of :data:`PAGE_NOTATION` ("train", "kernels", ...)
    """
    if page not in PAGE_NOTATION:
        raise ValueError(f"unknown page {page!r}; choose one of: {', '.join(PAGE_NOTATION)}.")
    return {symbol: NOTATION[symbol] for symbol in PAGE_NOTATION[page]}


#: named result -> its statement in one line, with its hypotheses
NAMED_RESULTS = {
    "Definition 1.12": "Thresholding: predict sign(f(x)), where this app reads sign(0) = −1.",
    "Algorithm 1.16": "The perceptron: look at one example at a time; if y(w·x + b) ≤ δ, add "
    "y·x to w and y to b; otherwise change nothing.",
    "Remark 1.17": "Padding: with aᵢ = yᵢ(xᵢ, 1) and the vector (w, b), the test is "
    "⟨aᵢ, (w, b)⟩ ≤ δ and the update adds aᵢ, so the bias is one more weight.",
    "Remark 1.19": "Updating after every example, right or wrong, can make infinitely many "
    "mistakes on a separable sequence of bounded examples; updating only on "
    "mistakes cannot (Theorem 1.28).",
    "Theorem 1.28": "If some w* has ⟨aᵢ, w*⟩ ≥ s > 0 for every i, the perceptron makes "
    "finitely many updates, at most the bound (1.4); if every example is "
    "examined again and again, it ends with ⟨aᵢ, w⟩ > δ for all i.",
    "bound (1.4)": "t ≤ ((2δ + maxᵢ‖aᵢ‖²)‖w*‖² + 2s‖w*‖‖w₀‖) / s² for any start w₀ and "
    "threshold δ ≥ 0, when ⟨aᵢ, w*⟩ ≥ s > 0 for all i.",
    "eq. 1.5": "T(A) = maxᵢ‖aᵢ‖² / γ₂²: the bound (1.4) with the best unit w*, for w₀ = 0 "
    "and δ = 0.",
    "Exercise 1.29": "What do scaling every xᵢ by λ > 0, or moving every xᵢ by the same "
    "vector, do to separability, to the speed of the perceptron and to (1.4)?",
    "Theorem 1.34": "For any deterministic learner and margin γ there is a data set of "
    "min(⌊1/γ²⌋, d) unit vectors with margin ≥ γ on which it errs every time.",
    "Theorem 1.35": "With every aᵢ ≠ 0 and updates only when ⟨w, aᵢ⟩ ≤ 0 (δ = 0), from any "
    "start w₀, the weights stay bounded even on data that are not separable.",
    "Remark 1.38": "Ways to pick the next example: cyclic, chaotic, randomised, permuted, "
    "maximal distance, maximal residual.",
    "Exercise 1.20": "A sequence of growing examples, all labelled +1, on which the "
    "aggressive rule errs on every single example.",
    "Novikoff": "(R/γ)²: most updates of the perceptron with no bias, from w = 0 with δ = 0, "
    "when ‖xᵢ‖ ≤ R and a unit w* through the origin has margin γ.",
    "notebook bound": "2(R² + 1)/ε²: most updates of the perceptron with a bias, from "
    "(w, b) = 0 with δ = 0, when some (w*, b*) with ‖w*‖ ≤ 1 and b*² ≤ 1 "
    "has yᵢ(w*·xᵢ + b*) ≥ ε for all i.",
    "3/γ² lemma": "The margin perceptron (no bias, w₀ = 0, update when y w·x ≤ 1) makes at "
    "most 3/γ² updates when ‖xᵢ‖ ≤ 1 and a unit w* has margin γ (the notes "
    "write β for w).",
}
