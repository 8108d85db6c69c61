"""Margin mistakes, generalisation, and the perceptron as stochastic gradient descent.

Source: notes-perceptron-margin-generalization.txt (the margin perceptron, its
Lemma "at most 3/gamma^2 margin mistakes", the stability Theorem
E[L(beta_hat)] <= 3 / ((N + 1) gamma^2) and the uniform-law bound) and
notebook-perceptron-sgd-d2l.txt (the perceptron is SGD on max(0, -y f(x))).
Everything goes through the origin: f(x) = x·beta, no bias, as in the notes.

* :func:`margin_perceptron`: beta = 0; on an example with y x·beta < 1 (a
  *margin mistake*: wrong, y x·beta <= 0, or right but too close,
  0 < y x·beta < 1) add y x. It is SGD with step 1 on the hinge loss.
* :data:`LOSSES`: the 0-1, perceptron and hinge losses as functions of the
  margin m = y f(x), each with the subgradient SGD uses.
* :func:`sgd_linear`: SGD through the origin on one of those losses.
* :func:`make_unit_margin`: unit vectors drawn uniformly from the margin
  region {x : ||x|| = 1, |x·beta*| >= gamma}, labelled sign(x·beta*).
* :func:`test_error_exact_2d` (closed form in d = 2) and
  :func:`test_error_sample` (Monte Carlo, any d): the test error L(beta) of a
  learned beta on that distribution.
* :func:`generalisation_curve`: mean test error against N with both bounds.

NumPy only. Runs return the same frozen :class:`~perceptron_core.perceptron.Trace`
as :func:`~perceptron_core.perceptron.run_perceptron`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._checks import MAX_SAMPLES, MAX_VALUES, check_dataset, check_number, check_seed, frozen
from .data import Dataset
from .perceptron import MAX_TRACE_VALUES, STREAM_ORDERS, ExampleScan, Trace, check_run_settings

#: Largest dimension the generators and the curve accept.
MAX_DIM = 1_000
#: Largest number of points one call of make_unit_margin / test_error_sample draws
#: (and n * dim <= MAX_VALUES = 10^7, as for the other generators).
MAX_POINTS = MAX_SAMPLES
#: Limits of generalisation_curve (each value of n_train, the repeats, the values).
CURVE_MAX_N = 10_000
CURVE_MAX_REPEATS = 1_000
CURVE_MAX_VALUES = 20
CURVE_MAX_TEST = 100_000
#: Work budget of one curve: repeats * sum(n_train) * (dim + 8) * (3 / gamma^2 + 40)
#: (runs, their examples, the cost of scoring one, and the Lemma's cap on the loop turns of
#: a run, plus drawing the data and the epochs without updates).
#: The default curve uses 9.8e8 of it (under a second); the budget keeps a call to about
#: ten seconds on a 2-core machine.
CURVE_MAX_WORK = 6e9
#: Test points of one curve in d > 2 (about 160 ns each here).
CURVE_MAX_TEST_POINTS = 2e7

Progress = Callable[[float], None] | None


# ---------------------------------------------------------------------------
# Losses of the margin m = y f(x). Shared signature: (margins: ndarray) -> ndarray.
# The gradient in beta of l(y x·beta) is l'(m) y x, so one SGD step with step
# size eta is beta <- beta - eta l'(m) y x, and it moves only where l'(m) != 0.
# ---------------------------------------------------------------------------


def _margins(margins) -> np.ndarray:
    """The margins m = y f(x) as a float64 array (any shape); ValueError if not numbers."""
    try:
        return np.asarray(margins, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("margins must be numbers of moderate size (m = y f(x)).") from None


def zero_one_loss(margins) -> np.ndarray:
    """1 if m <= 0 (a mistake; sign(0) = -1 counts as wrong), else 0."""
    return (_margins(margins) <= 0).astype(np.float64)


def zero_one_subgradient(margins) -> np.ndarray:
    """0 everywhere: the 0-1 loss is flat wherever it has a derivative (all m != 0);
    at its jump m = 0 we also take 0. So SGD on it never moves beta."""
    return np.zeros_like(_margins(margins))


def perceptron_loss(margins) -> np.ndarray:
    """max(0, -m), the notebook's loss (notebook-perceptron-sgd-d2l.txt)."""
    return np.maximum(0.0, -_margins(margins))


def perceptron_subgradient(margins) -> np.ndarray:
    """-1 for m <= 0, 0 for m > 0.

    At the kink m = 0 any value in [-1, 0] is a subgradient; we take -1, so SGD
    with step 1 updates exactly when y x·beta <= 0: the perceptron with
    sign(0) = -1 (the notebook's "f(x) = 0 counts as incorrect").
    """
    return np.where(_margins(margins) <= 0, -1.0, 0.0)


def hinge_loss(margins) -> np.ndarray:
    """max(0, 1 - m), the hinge loss (notes-perceptron-margin-generalization.txt)."""
    return np.maximum(0.0, 1.0 - _margins(margins))


def hinge_subgradient(margins) -> np.ndarray:
    """-1 for m < 1, 0 for m >= 1.

    At the kink m = 1 we take 0, the notes' gradient ("0 if y x·beta >= 1"), so
    SGD with step 1 updates exactly when y x·beta < 1: the margin perceptron.
    """
    return np.where(_margins(margins) < 1, -1.0, 0.0)


#: loss name -> (loss, subgradient), both functions of the margin m = y f(x)
LOSSES = {
    "zero_one": (zero_one_loss, zero_one_subgradient),
    "perceptron": (perceptron_loss, perceptron_subgradient),
    "hinge": (hinge_loss, hinge_subgradient),
}
#: loss name -> what a menu shows
LOSS_LABELS = {
    "zero_one": "0–1 loss: 1 if y f(x) ≤ 0, else 0",
    "perceptron": "perceptron loss max(0, −y f(x))",
    "hinge": "hinge loss max(0, 1 − y f(x))",
}
# Where each subgradient stops being zero, recorded as the trace's ``delta``
# (an update happens at y x·beta <= 0 for "perceptron", < 1 for "hinge").
_UPDATE_THRESHOLD = {"zero_one": 0.0, "perceptron": 0.0, "hinge": 1.0}


# ---------------------------------------------------------------------------
# SGD through the origin, recorded as a Trace
# ---------------------------------------------------------------------------


class OwnScore:
    """The score of a unit vector against its own updates, exactly.

    While every update so far was on one example i (k of them, step eta),
    w = k eta y_i x_i, so y_i x_i·w = k eta ||x_i||^2 = k eta exactly when x_i is a
    unit vector, as the page says every point is. Stored coordinates of a unit
    vector are rounded (its float ||x||^2 is 1 - 1.1e-16 or 1 + 2.2e-16 as often as
    1), so the float product would count the tie k eta = 1 as a margin mistake, or
    not, by the rounding residue of its coordinates. This keeps the tie exact: k
    eta is computed in fractions (eta as the decimal it prints as, a typed 0.1 is
    1/10) and given as the float on the same side of 1 (equal to 1 when it is 1).
    Once two different examples have updated, an exact tie needs an algebraic
    coincidence of random points (probability 0); those scores stay float64.

    ``active`` False (data not declared unit vectors) leaves every score alone.
    """

    def __init__(self, eta: float, active: bool):
        self.active = bool(active)
        self.eta = Fraction(repr(float(eta)))
        self.only = -1  # the one example every update so far was on; -1: none yet
        self.count = 0  # updates so far
        self.several = False

    def add(self, index: int) -> None:
        """An update on example ``index``."""
        if self.count and index != self.only:
            self.several = True
        self.only, self.count = int(index), self.count + 1

    def value(self) -> float:
        """k eta as the float on its side of 1 (k updates on the one example)."""
        exact = self.count * self.eta
        value = float(exact)
        if exact < 1 <= value:
            return math.nextafter(1.0, 0.0)
        if exact > 1 >= value:
            return math.nextafter(1.0, 2.0)
        return value

    def fix(self, indices: np.ndarray, margins: np.ndarray) -> np.ndarray:
        """``margins`` (y x·w of examples ``indices``) with the own score made exact."""
        if not self.active or self.several or self.count == 0:
            return margins
        mine = np.asarray(indices) == self.only
        if mine.any():
            margins = np.where(mine, self.value(), margins)
        return margins


def check_unit_rows(X: np.ndarray) -> None:
    """ValueError unless every row of X is a unit vector up to rounding (|  ||x|| - 1 |
    <= 1e-12): the rows a run may treat as unit vectors (:class:`OwnScore`)."""
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    if not np.all(np.abs(norms - 1.0) <= 1e-12):
        worst = int(np.argmax(np.abs(norms - 1.0)))
        raise ValueError(
            f"unit=True needs unit vectors, but row {worst} has norm "
            f"{norms[worst]:.17g}; normalise the rows or pass unit=False."
        )


def _stationary(X, labels, beta, subgradient, own: OwnScore) -> bool:
    """No example has a nonzero subgradient: SGD cannot move beta any more."""
    margins = own.fix(np.arange(X.shape[0]), (X @ beta) * labels)
    return not np.any(subgradient(margins))


def _run_sgd(X, labels, subgradient, eta, order, seed, step_limit, max_updates, unit=False):
    """Examine examples in the stream order; step where l'(m) != 0.

    Like ``run_perceptron``'s engine, a block of coming examples is scored with
    one product and the run jumps to the first one that moves beta. It stops
    when n examples in a row did not move beta and none of all n would
    (a stationary point), or at a limit. With ``unit`` the rows are unit vectors
    and an example's score against its own updates alone is exact (:class:`OwnScore`).
    Returns (weights, indices, steps, scores, n_examined, stationary, limit_hit).
    """
    beta = np.zeros(X.shape[1])
    weights, indices, steps, scores = [beta], [], [], []
    scan = ExampleScan(order, X.shape[0], seed, step_limit)
    own = OwnScore(eta, unit)
    every = np.arange(X.shape[0])
    while not scan.at_limit():
        rows = scan.coming()
        margins = (X[rows] @ beta) * labels[rows]  # m = y x·beta for the block
        margins = own.fix(every[rows], margins)
        slopes = subgradient(margins)  # l'(m)
        hit = scan.advance(rows, slopes != 0)
        if hit is not None:
            offset, index = hit
            # SGD step: beta <- beta - eta l'(m) y x   (= beta + eta y x when l'(m) = -1)
            beta = beta - (eta * slopes[offset] * labels[index]) * X[index]
            own.add(index)
            weights.append(beta)
            indices.append(index)
            steps.append(scan.step)
            scores.append(float(margins[offset]))
            if len(indices) >= max_updates:
                done = _stationary(X, labels, beta, subgradient, own)
                return (
                    weights,
                    indices,
                    steps,
                    scores,
                    scan.step,
                    done,
                    f"limit of {max_updates} updates",
                )
        if scan.pass_clean():
            # n examples in a row left beta alone: is it stationary on all of them?
            if _stationary(X, labels, beta, subgradient, own):
                return weights, indices, steps, scores, scan.step, True, None
    done = _stationary(X, labels, beta, subgradient, own)
    return (
        weights,
        indices,
        steps,
        scores,
        scan.step,
        done,
        f"limit of {step_limit // X.shape[0]} epochs",
    )


def _check_run_args(X, y, order, seed, max_updates, max_epochs):
    # one class is allowed: through the origin, y x·beta* > 0 makes sense for any labels
    X, y = check_dataset(X, y, both_classes=False, copy=False)
    if not isinstance(order, str) or order not in STREAM_ORDERS:
        raise ValueError(
            f"unknown order {order!r}; choose one of: {', '.join(STREAM_ORDERS)} "
            "(the stream orders: SGD examines one example at a time)."
        )
    # the same documented limits as run_perceptron (SGD has no threshold)
    _, seed, max_updates, max_epochs = check_run_settings(
        X.shape[0],
        delta=0.0,
        order=order,
        seed=seed,
        max_updates=max_updates,
        max_epochs=max_epochs,
    )
    dim = X.shape[1]
    # the trace's memory: (updates + 1) rows of d weights and a bias
    max_updates = min(max_updates, MAX_TRACE_VALUES // (dim + 1) - 1)
    if max_updates < 1:
        raise ValueError(f"d = {dim} features is too many to record a run; use fewer features.")
    return X, y, seed, max_updates, max_epochs


def _trace(X, y, run, *, order, seed, delta, mistake_rule, stop_reason) -> Trace:
    weights, indices, steps, scores, n_examined, stationary, limit_hit = run
    n, dim = X.shape
    scores = np.asarray(scores, dtype=np.float64)
    epochs = int(-(-n_examined // n))
    converged = bool(stationary and np.all((X @ weights[-1]) * y > 0))
    return Trace(
        weights=frozen(np.array(weights, dtype=np.float64).reshape(-1, dim)),
        biases=frozen(np.zeros(len(weights))),
        update_indices=frozen(indices, dtype=np.int64),
        update_steps=frozen(steps, dtype=np.int64),
        update_scores=frozen(scores),
        update_mistakes=frozen(mistake_rule(scores), dtype=bool),
        n_examined=int(n_examined),
        epochs=epochs,
        converged=converged,
        stop_reason=stop_reason(
            converged,
            stationary,
            len(indices),
            int(np.count_nonzero(scores <= 0)),
            epochs,
            limit_hit,
        ),
        order=order,
        seed=seed,
        delta=float(delta),
        bias=False,
        aggressive=False,
        n_samples=n,
        greedy_indices=None,
    )


def margin_perceptron(
    X, y, order="random", seed=0, max_updates=100_000, max_epochs=1_000, unit=False
) -> Trace:
    """The margin perceptron of notes-perceptron-margin-generalization.txt.

    beta_0 = 0; examine example n; if y_n x_n·beta < 1 (a margin mistake) set
    beta <- beta + y_n x_n; otherwise change nothing. No bias. It stops when
    every example has y x·beta >= 1. Lemma: with ||x_n|| <= 1 and a unit beta*
    with y_n x_n·beta* >= gamma it makes at most 3 / gamma^2 margin mistakes,
    because each one adds at most 1 + 2 = 3 to ||beta||^2 and at least gamma
    to beta·beta*.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1} (one class is allowed)
    order : {"random", "cyclic", "permuted"}
        "random" (i.i.d. uniform draws, the notes' algorithm) is the default.
    seed : int or None (None means 0)
    max_updates, max_epochs : int
        Limits; the run stops there with ``converged=False``. The same documented
        upper limits as ``run_perceptron`` (max_updates <= 10^6, max_epochs <= 10^7,
        max_epochs x n <= 10^10; max_updates lowered to keep the trace under 2 x 10^7
        numbers).
    unit : bool
        The rows are unit vectors (checked to 1e-12): an example's score against its
        own updates alone, y x·w = k for k updates on it, is then exactly k, not the
        rounded k ||x||^2 of its stored coordinates (:class:`OwnScore`). So after
        w = y x that example has score exactly 1 and is not a margin mistake.

    Returns
    -------
    Trace
        The same record as ``run_perceptron`` (``bias=False``, ``delta=1.0``: the
        margin the rule asks for, so ``proof_quantities`` draws the Lemma's lines
        alignment >= t gamma and ||beta_t||^2 <= t (R^2 + 2)). Every update is a
        margin mistake; ``update_mistakes`` says which were real mistakes
        (``update_scores <= 0``) and which were right but too close
        (0 < ``update_scores`` < 1). ``converged`` means every y x·beta >= 1.
        Note ``example_at(...).mistake`` compares with delta = 1 (score <= 1);
        use ``updated`` for "margin mistake" (score < 1).
    """
    X, y, seed, max_updates, max_epochs = _check_run_args(
        X, y, order, seed, max_updates, max_epochs
    )
    if unit:
        check_unit_rows(X)
    labels = y.astype(np.float64)
    run = _run_sgd(
        X,
        labels,
        hinge_subgradient,
        1.0,
        order,
        seed,
        max_epochs * X.shape[0],
        max_updates,
        unit=bool(unit),
    )

    def stop_reason(converged, stationary, count, wrong, epochs, limit_hit):
        if stationary:
            return (
                f"converged: every example has y x·w >= 1 after {count} margin mistakes "
                f"({wrong} wrong, {count - wrong} right but too close) in {epochs} "
                f"epoch{'s' if epochs != 1 else ''}"
            )
        return (
            f"stopped at the {limit_hit} after {count} margin mistakes: the data may not "
            "be linearly separable through the origin"
        )

    return _trace(
        X,
        labels,
        run,
        order=order,
        seed=seed,
        delta=1.0,
        mistake_rule=lambda s: s <= 0,
        stop_reason=stop_reason,
    )


def sgd_linear(
    X,
    y,
    loss="perceptron",
    eta=1.0,
    order="cyclic",
    seed=None,
    max_epochs=1_000,
    max_updates=100_000,
    unit=False,
) -> Trace:
    """Stochastic gradient descent through the origin on one loss of :data:`LOSSES`.

    f(x) = x·beta, beta_0 = 0. At each examined example with margin m = y x·beta,
    beta <- beta - eta l'(m) y x (notebook-perceptron-sgd-d2l.txt's template);
    only steps with l'(m) != 0 change beta and are recorded as updates.

    * "perceptron" with eta = 1 is the perceptron through the origin
      (``run_perceptron(bias=False)``, same updates); with any eta > 0 every
      beta is eta times the eta = 1 one, so the margins only scale and the
      same examples cause the updates.
    * "hinge" with eta = 1 is :func:`margin_perceptron`; here eta matters,
      since the rule y x·beta < 1 is not scale-free.
    * "zero_one" never moves beta (its subgradient is 0): at beta = 0 every
      example counts as wrong and the run stops stuck.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1} (one class is allowed)
    loss : {"perceptron", "hinge", "zero_one"}
    eta : float > 0
        Constant step size.
    order : {"cyclic", "permuted", "random"}
    seed : int or None (None means 0)
    max_epochs, max_updates : int
        Limits; the run stops there with ``converged=False`` (the same upper limits
        as :func:`margin_perceptron` and ``run_perceptron``).
    unit : bool
        The rows are unit vectors (checked to 1e-12): an example's score against its
        own updates alone is exactly k eta (:class:`OwnScore`), so the hinge loss's tie
        k eta = 1 is decided as for exact unit vectors.

    Returns
    -------
    Trace (``bias=False``). ``delta`` is where the subgradient switches on
    (0 for "perceptron" and "zero_one", 1 for "hinge"); ``update_mistakes`` is
    ``update_scores <= 0``; ``converged`` means SGD reached a point where every
    subgradient is 0 and every example is classified right (y x·beta > 0).
    """
    if not isinstance(loss, str) or loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}; choose one of: {', '.join(LOSSES)}.")
    eta = check_number(eta, "eta (step size)", low=0, low_open=True)
    X, y, seed, max_updates, max_epochs = _check_run_args(
        X, y, order, seed, max_updates, max_epochs
    )
    if unit:
        check_unit_rows(X)
    labels = y.astype(np.float64)
    run = _run_sgd(
        X,
        labels,
        LOSSES[loss][1],
        eta,
        order,
        seed,
        max_epochs * X.shape[0],
        max_updates,
        unit=bool(unit),
    )

    def stop_reason(converged, stationary, count, wrong, epochs, limit_hit):
        if converged:
            return (
                f"converged: every {loss} subgradient is 0 and every example is classified "
                f"right after {count} updates in {epochs} epoch{'s' if epochs != 1 else ''}"
            )
        if stationary:
            return (
                "stuck: every subgradient is 0 but w does not classify every example "
                "right (the 0-1 loss has zero gradient everywhere, so SGD never moves)"
            )
        return (
            f"stopped at the {limit_hit} after {count} updates: the data may not be "
            "linearly separable through the origin"
        )

    return _trace(
        X,
        labels,
        run,
        order=order,
        seed=seed,
        delta=_UPDATE_THRESHOLD[loss],
        mistake_rule=lambda s: s <= 0,
        stop_reason=stop_reason,
    )


# ---------------------------------------------------------------------------
# Unit vectors, uniform on the sphere, restricted to the margin region
# ---------------------------------------------------------------------------


def _margin_coordinate(rng: np.random.Generator, count: int, margin: float, dim: int) -> np.ndarray:
    """t = x·beta* for x uniform on the unit sphere of R^dim, given t >= margin.

    On the sphere t has density proportional to (1 - t^2)^k, k = (dim - 3) / 2.
    d = 1: t = 1. d = 2: x at angle alpha from beta*, alpha uniform in
    [0, arccos margin], t = cos alpha (exact, no rejection). d >= 3: log f is
    concave (k >= 0), so it lies under its tangent line at t0: rejection from
    the truncated exponential exp(slope t) on [margin, 1] accepts with
    probability f(t) / envelope(t) (exact). t0 solves 2k t0 (t0 - margin) =
    1 - t0^2, one e-fold from the edge; the acceptance rate is then at least
    0.75 (checked by quadrature for d = 4..1000, margins 1e-6 .. 1 - 1e-6).
    """
    if dim == 1:
        return np.ones(count)
    if dim == 2:
        return np.cos(rng.random(count) * math.acos(margin))
    k = (dim - 3) / 2
    if k == 0:
        return rng.uniform(margin, 1.0, count)
    t0 = (k * margin + math.sqrt((k * margin) ** 2 + 2 * k + 1)) / (2 * k + 1)
    rate = 2 * k * t0 / (1 - t0**2)  # -(d/dt) log f at t0
    log_f0 = k * math.log1p(-(t0**2))
    span = math.expm1(-rate * (1.0 - margin))  # e^{-rate (1 - margin)} - 1
    out = np.empty(count)
    filled = 0
    for _ in range(200):  # each round accepts about 3/4
        want = count - filled
        if want == 0:
            return out
        draw = 2 * want + 16
        # inverse CDF of the truncated exponential on [margin, 1]
        t = margin - np.log1p(rng.random(draw) * span) / rate
        with np.errstate(divide="ignore"):
            log_ratio = k * np.log1p(-np.minimum(t * t, 1.0)) - (log_f0 - rate * (t - t0))
        keep = t[np.log(rng.random(draw)) < log_ratio][:want]
        out[filled : filled + keep.size] = keep
        filled += keep.size
    raise ValueError(
        "sampling the margin region did not finish; this should not happen "
        f"(margin {margin:g}, dim {dim}): please report it."
    )


def _orthogonal_unit(rng: np.random.Generator, count: int, beta_star: np.ndarray) -> np.ndarray:
    """Unit vectors uniform on the sphere of the hyperplane beta*^perp, shape (count, dim)."""
    directions = rng.standard_normal((count, beta_star.shape[0]))
    directions -= np.outer(directions @ beta_star, beta_star)  # project out beta*
    norms = np.linalg.norm(directions, axis=1, keepdims=True)
    norms[norms == 0] = 1.0  # probability zero
    return directions / norms


def _margin_points(rng, count, margin, beta_star):
    """x = y (t beta* + sqrt(1 - t^2) u), y = +-1 with probability 1/2, t >= margin.

    The margin region is symmetric under x -> -x, so drawing the positive side
    and flipping by a fair label gives the uniform distribution on all of it,
    with y = sign(x·beta*) and y x·beta* = t >= margin.
    """
    dim = beta_star.shape[0]
    t = _margin_coordinate(rng, count, margin, dim)
    labels = np.where(rng.random(count) < 0.5, -1, 1).astype(np.int64)
    if dim == 1:
        X = np.outer(t, beta_star)
    else:
        X = np.outer(t, beta_star) + np.sqrt(1 - t * t)[:, None] * _orthogonal_unit(
            rng, count, beta_star
        )
    return X * labels[:, None], labels


def _check_margin(margin) -> float:
    return check_number(margin, "margin (gamma)", low=0, high=1, low_open=True, high_open=True)


def _check_dim(dim) -> int:
    return check_number(dim, "dim (number of features)", low=1, high=MAX_DIM, integer=True)


def make_unit_margin(n=200, margin=0.1, dim=2, seed=0) -> Dataset:
    """Unit vectors drawn uniformly from the margin region of a planted beta*.

    beta* is a random unit vector (from the seed); the points are uniform on
    {x : ||x|| = 1, |x·beta*| >= margin} and labelled y = sign(x·beta*), so
    y x·beta* >= margin for all of them: the notes' assumptions (standardised,
    separable with margin gamma). No rejection in d <= 3; in d >= 4 a rejection
    step that accepts about 3/4 of its draws (see ``_margin_coordinate``).

    Parameters
    ----------
    n : int, 1 <= n <= MAX_POINTS (10^6; also n * dim <= 10^7)
    margin : float in (0, 1)
    dim : int, 1 <= dim <= MAX_DIM (1000)
    seed : int or None (None means 0)

    Returns
    -------
    Dataset with ``w_star`` = beta*, ``b_star`` = 0, ``margin`` = gamma (a lower
    bound: the best separator through the origin has margin >= gamma),
    ``radius`` = 1, ``name`` = "unit_margin".
    """
    n = check_number(n, "n (number of points)", low=1, high=MAX_POINTS, integer=True)
    margin = _check_margin(margin)
    dim = _check_dim(dim)
    if n * dim > MAX_VALUES:
        raise ValueError(
            f"n x dim = {n} x {dim} = {n * dim} values is over the limit of "
            f"{MAX_VALUES}; lower n or dim."
        )
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    beta_star = rng.standard_normal(dim)
    beta_star /= np.linalg.norm(beta_star)
    X, y = _margin_points(rng, n, margin, beta_star)
    return Dataset(
        X=frozen(X),
        y=frozen(y),
        w_star=frozen(beta_star),
        b_star=0.0,
        margin=margin,
        radius=1.0,
        seed=seed,
        name="unit_margin",
    )


# ---------------------------------------------------------------------------
# Test error L(beta) = P(y != sign(x·beta)) on the margin-region distribution
# ---------------------------------------------------------------------------


def _check_betas(beta, beta_star, dim=None):
    """beta as (k, dim) rows, beta* as a unit vector; whether beta was one vector."""
    try:
        star = np.array(beta_star, dtype=np.float64)
        betas = np.array(beta, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("beta and beta_star must be numeric vectors.") from None
    if star.ndim != 1 or star.size == 0:
        raise ValueError(f"beta_star must be a vector of shape (dim,), got shape {star.shape}.")
    if dim is not None and star.shape[0] != dim:
        raise ValueError(f"beta_star has {star.shape[0]} entries but dim = {dim}; they must agree.")
    single = betas.ndim == 1
    betas = np.atleast_2d(betas)
    if betas.ndim != 2 or betas.shape[1] != star.shape[0]:
        raise ValueError(
            f"beta must have shape ({star.shape[0]},) or (k, {star.shape[0]}) "
            f"to match beta_star, got {np.shape(beta)}."
        )
    if not (np.isfinite(star).all() and np.isfinite(betas).all()):
        raise ValueError("beta and beta_star must be finite (no NaN or infinity).")
    norm = np.linalg.norm(star)
    if norm == 0:
        raise ValueError("beta_star must be nonzero: it is the normal of the true separator.")
    return betas, star / norm, single


def _angles(betas: np.ndarray, unit_star: np.ndarray) -> np.ndarray:
    """Angle phi in [0, pi] between each row of beta and beta* (atan2: accurate near 0)."""
    along = betas @ unit_star
    across = np.linalg.norm(betas - np.outer(along, unit_star), axis=1)
    return np.arctan2(across, along)


def _exact_error_2d(angles: np.ndarray, margin: float, zero: np.ndarray) -> np.ndarray:
    """clip((phi - g) / (pi - 2 g), 0, 1) with g = arcsin(gamma); 1/2 where beta = 0."""
    g = math.asin(margin)
    error = np.clip((angles - g) / (math.pi - 2 * g), 0.0, 1.0)
    return np.where(zero, 0.5, error)


def test_error_exact_2d(beta, beta_star, margin):
    """Exact test error in d = 2 of the line through 0 with normal beta.

    Test points are uniform on the unit circle restricted to the margin region
    |x·beta*| >= gamma and labelled sign(x·beta*). Measure angles alpha from
    beta*: the region is the two arcs |alpha| <= a and |alpha - pi| <= a,
    a = arccos gamma, total length 4a = 2 pi - 4g with g = arcsin gamma. If beta
    makes the angle phi in [0, pi] with beta*, the two labellings disagree on
    two arcs of length phi that start at the true boundary alpha = +-pi/2; each
    meets the region in clip(phi - g, 0, pi - 2g), so

        L(beta) = clip((phi - g) / (pi - 2 g), 0, 1).

    Check: phi = 0 gives 0, phi = pi/2 gives 1/2, phi = pi gives 1. beta = 0
    predicts sign(0) = -1 everywhere: error 1/2.

    Parameters
    ----------
    beta : ndarray of shape (2,) or (k, 2)
    beta_star : ndarray of shape (2,), nonzero (only its direction matters)
    margin : float in (0, 1)

    Returns
    -------
    float, or ndarray of shape (k,) for a stack of betas
    """
    margin = _check_margin(margin)
    betas, star, single = _check_betas(beta, beta_star, dim=2)
    zero = ~np.any(betas != 0, axis=1)
    error = _exact_error_2d(_angles(betas, star), margin, zero)
    return float(error[0]) if single else frozen(error)


@dataclass(frozen=True)
class ErrorEstimate:
    """A Monte-Carlo test error: error = share of n_test fresh points misclassified,
    stderr = sqrt(error (1 - error) / n_test). Floats for one beta, arrays (k,) for k."""

    error: float | np.ndarray
    stderr: float | np.ndarray
    n_test: int


def test_error_sample(beta, beta_star, margin, dim=2, n_test=100_000, seed=0) -> ErrorEstimate:
    """Monte-Carlo test error of the separator beta, in any dimension.

    Draws n_test fresh points uniform on the margin region of beta* (as
    :func:`make_unit_margin` does, with this beta*), labelled sign(x·beta*), and
    counts y != sign(x·beta) (sign(0) = -1). A stack of betas is scored on the
    same points.

    Parameters
    ----------
    beta : ndarray of shape (dim,) or (k, dim)
    beta_star : ndarray of shape (dim,), nonzero
    margin : float in (0, 1)
    dim : int, must equal len(beta_star), at most MAX_DIM
    n_test : int, 1 <= n_test <= MAX_POINTS (10^6; also n_test * dim <= 10^7)
    seed : int or None (None means 0)

    Returns
    -------
    ErrorEstimate
    """
    margin = _check_margin(margin)
    dim = _check_dim(dim)
    n_test = check_number(n_test, "n_test (test points)", low=1, high=MAX_POINTS, integer=True)
    if n_test * dim > MAX_VALUES:
        raise ValueError(
            f"n_test x dim = {n_test} x {dim} = {n_test * dim} values is over the "
            f"limit of {MAX_VALUES}; use fewer test points."
        )
    betas, star, single = _check_betas(beta, beta_star, dim=dim)
    rng = np.random.default_rng(check_seed(seed))
    X, y = _margin_points(rng, n_test, margin, star)
    predicted = np.where(X @ betas.T > 0, 1, -1)  # sign(x·beta), sign(0) = -1
    error = np.mean(predicted != y[:, None], axis=0)
    stderr = np.sqrt(error * (1 - error) / n_test)
    if single:
        return ErrorEstimate(error=float(error[0]), stderr=float(stderr[0]), n_test=n_test)
    return ErrorEstimate(error=frozen(error), stderr=frozen(stderr), n_test=n_test)


def _sampled_errors(rng, angles, zero, margin, dim, n_test) -> np.ndarray:
    """Monte-Carlo test error of separators at angles phi from beta*, one fresh
    sample of n_test points per separator.

    The distribution is symmetric under rotations that fix beta*, so only two
    coordinates of a test point matter: t = x·beta* and s = x·e2, e2 the unit
    vector of the plane of beta and beta* orthogonal to beta*. Take the y = +1
    half (y = -1 is its mirror image): s = sqrt(1 - t^2) u, u the first
    coordinate of a uniform unit vector in R^(dim-1), u = Z / sqrt(Z^2 + chi2_(dim-2)).
    The error is the share with cos(phi) t + sin(phi) s <= 0. Cost per point is
    independent of dim (same distribution as test_error_sample).
    No sampling is needed when phi < arcsin(gamma): with t = cos(theta),
    theta <= arccos(gamma), cos(phi) t + sin(phi) s >= cos(theta + phi) > 0, so
    the error is exactly 0 (beta's boundary stays inside the empty band).
    """
    errors = np.zeros(angles.shape[0])
    errs = np.flatnonzero(angles >= math.asin(margin))
    group = max(1, 4_000_000 // n_test)
    for start in range(0, errs.size, group):
        chosen = errs[start : start + group]
        phi = angles[chosen, None]
        shape = (phi.shape[0], n_test)
        t = _margin_coordinate(rng, shape[0] * n_test, margin, dim).reshape(shape)
        if dim == 1:
            u = np.zeros(shape)
        elif dim == 2:
            u = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
        else:
            z = rng.standard_normal(shape)
            u = z / np.sqrt(z * z + rng.chisquare(dim - 2, shape))
        score = np.cos(phi) * t + np.sin(phi) * np.sqrt(1 - t * t) * u
        errors[chosen] = np.mean(score <= 0, axis=1)
    return np.where(zero, 0.5, errors)


# ---------------------------------------------------------------------------
# Many margin perceptrons at once (the curve's engine)
# ---------------------------------------------------------------------------


def _own_scores(
    margins: np.ndarray, examples: np.ndarray, only: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """``margins`` (runs, slots) of the examples ``examples`` (runs, slots), with a run's
    score of the one example all its updates were on (``only`` >= 0) made exact: beta =
    k a_i after k updates on i, so a_i·beta = k ||a_i||^2 = k for a unit a_i
    (:class:`OwnScore`)."""
    alone = np.flatnonzero(only >= 0)
    if alone.size:
        own = examples[alone] == only[alone, None]  # the slots where a_i comes
        margins[alone] = np.where(own, count[alone, None], margins[alone])
    return margins


def _margin_perceptron_batch(
    signed: np.ndarray, streams: Callable, max_updates: int, max_epochs: int
):
    """Run R margin perceptrons in lock step on signed examples a = y x, shape (R, N, d).

    ``streams(runs, epochs)`` returns the examined indices of epoch ``epochs[j]``
    of run ``runs[j]``, shape (len(runs), N). The examples are unit vectors (the
    curve's data): as in ``margin_perceptron(..., unit=True)``, an example's score
    against its own updates alone is exact (:class:`OwnScore`). With
    ``example_order(order, N, seeds[r], epoch)`` rows, run r is exactly
    ``margin_perceptron(X[r], y[r], order, seeds[r], unit=True)`` (same stream, same
    updates).

    Each run's examples are laid out in its epoch's stream order once per epoch. Each
    loop turn scores the examples of every active run (m = a·beta), finds the first
    margin mistake (m < 1) at or after its position and adds that a to beta; a run
    whose rest of epoch is clean moves to the next epoch; a run with no m < 1 left is
    done.
    Returns final beta (R, d), margin mistakes (R,), real mistakes (R,), converged (R,).
    """
    runs, n, dim = signed.shape
    beta_out, count_out = np.zeros((runs, dim)), np.zeros(runs, dtype=np.int64)
    wrong_out, converged_out = np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=bool)
    active, beta = np.arange(runs), np.zeros((runs, dim))
    count, wrong = np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64)
    # the one example every update of a run was on (-1: no update yet, -2: several)
    only = np.full(runs, -1, dtype=np.int64)
    epoch, position = np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64)
    stream = np.asarray(streams(active, epoch))
    ordered = np.take_along_axis(signed, stream[:, :, None], axis=1)  # in stream order
    grid = np.arange(n)
    while active.size:
        # m = y x·beta, stream order
        margins = _own_scores(np.einsum("rnd,rd->rn", ordered, beta), stream, only, count)
        violated = margins < 1.0  # margin mistakes
        # any(axis=1) of a 2-D array is an array; NumPy's stubs also allow a scalar
        clean: np.ndarray = ~violated.any(axis=1)  # type: ignore[assignment]
        if clean.any():  # a random stream may leave examples out: check all of them
            some = np.flatnonzero(clean)
            every = np.einsum("rnd,rd->rn", signed[active[some]], beta[some])
            every = _own_scores(every, np.broadcast_to(grid, every.shape), only[some], count[some])
            clean[some] = ~(every < 1.0).any(axis=1)
        finished = clean | (count >= max_updates) | (epoch >= max_epochs)
        if finished.any():
            done = active[finished]
            beta_out[done], count_out[done] = beta[finished], count[finished]
            wrong_out[done], converged_out[done] = wrong[finished], clean[finished]
            keep = ~finished
            active, beta, count, wrong, only = (
                active[keep],
                beta[keep],
                count[keep],
                wrong[keep],
                only[keep],
            )
            epoch, position, stream = epoch[keep], position[keep], stream[keep]
            ordered, margins, violated = ordered[keep], margins[keep], violated[keep]
            if not active.size:
                break
        # the first margin mistake at or after the current position of the epoch's stream
        ahead = violated & (grid >= position[:, None])
        first = ahead.argmax(axis=1)
        rows = np.arange(active.size)
        hit = ahead[rows, first]
        hit_rows, slot = rows[hit], first[hit]
        # margin mistake: beta <- beta + y x
        beta[hit_rows] += ordered[hit_rows, slot]
        count[hit_rows] += 1
        index = stream[hit_rows, slot]
        wrong[hit_rows] += margins[hit_rows, slot] <= 0
        only[hit_rows] = np.where((only[hit_rows] == -1) | (only[hit_rows] == index), index, -2)
        position[hit_rows] = slot + 1
        # the rest of the epoch was clean: next epoch
        missed = rows[~hit]
        if missed.size:
            epoch[missed] += 1
            position[missed] = 0
            stream[missed] = streams(active[missed], epoch[missed])
            ordered[missed] = np.take_along_axis(
                signed[active[missed]], stream[missed][:, :, None], axis=1
            )
    return beta_out, count_out, wrong_out, converged_out


def _batch_streams(generators: list, order: str, n: int) -> Callable:
    """Streams of the curve's runs, run r's epochs drawn in turn from its own generator
    ``generators[r]`` (the same distribution as ``example_order``: i.i.d. uniform, a
    fresh permutation, or 0..n-1), so a run's stream does not depend on the others.

    In random order a run's epochs are drawn a block at a time (``integers`` of shape
    (epochs, n) gives the same numbers as that many draws of n in a row) and handed out
    one by one: the same streams, far fewer calls."""
    block = max(1, min(64, 4096 // n))
    drawn: dict[int, list] = {}  # run -> [its drawn epochs, how many were handed out]

    def next_random(r: int) -> np.ndarray:
        epochs = drawn.get(r)
        if epochs is None or epochs[1] == block:
            epochs = drawn[r] = [generators[r].integers(0, n, size=(block, n)), 0]
        epochs[1] += 1
        return epochs[0][epochs[1] - 1]

    def streams(runs, epochs):
        if order == "cyclic":
            return np.broadcast_to(np.arange(n), (len(runs), n)).copy()
        if order == "random":
            return np.stack([next_random(int(r)) for r in runs])
        return np.stack([generators[r].permutation(n) for r in runs])

    return streams


def curve_run_data(seed: int, size: int, run: int, margin: float, dim: int):
    """Run ``run`` of the curve at N = ``size``: its generator, planted unit beta* and its
    N training points (X, y), drawn from the generator seeded by (seed, N, run), which
    then draws the run's example streams. The same for any chunking of the runs."""
    rng = np.random.default_rng([seed, size, 0, run])
    star = rng.standard_normal(dim)
    star /= np.linalg.norm(star)
    X, y = _margin_points(rng, size, margin, star)
    return rng, star, X, y


# ---------------------------------------------------------------------------
# Generalisation against N
# ---------------------------------------------------------------------------


def _check_sizes(n_train) -> np.ndarray:
    """Training-set sizes N >= 1 as floats (any shape)."""
    try:
        sizes = np.asarray(n_train, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("N (training points) must be whole numbers >= 1.") from None
    if sizes.size == 0 or not np.all(np.isfinite(sizes)) or np.any(sizes < 1):
        raise ValueError("N (training points) must be whole numbers >= 1.")
    return sizes


def stability_bound(n_train, margin) -> np.ndarray:
    """3 / ((N + 1) gamma^2): the notes' Theorem, E[L(beta_hat)] <= 3 / ((N + 1) gamma^2).

    Can exceed 1 (then it says nothing); it is returned raw, clip it to plot.
    """
    n_train = _check_sizes(n_train)
    return 3.0 / ((n_train + 1.0) * _check_margin(margin) ** 2)


def uniform_bound(n_train, dim, confidence=0.95) -> np.ndarray:
    """sqrt((P + 1) log(N + 1) / N) + delta, the notes' uniform-law (VC) bound.

    With probability at least 1 - exp(-N delta^2 / 2), a separator of the
    training data (training error 0) has L(beta) <= sqrt((P + 1) log(N + 1) / N)
    + delta, P = dim (the notes use VC dimension P + 1, that of affine
    separators; through the origin it is P, so this is slightly loose). We fix
    the probability: exp(-N delta^2 / 2) = 1 - confidence, i.e.
    delta = sqrt(2 log(1 / (1 - confidence)) / N) (natural log). Raw values,
    may exceed 1.
    """
    n_train = _check_sizes(n_train)
    dim = check_number(dim, "P (dimension)", low=1, integer=True)
    confidence = check_number(
        confidence, "confidence", low=0, high=1, low_open=True, high_open=True
    )
    delta = np.sqrt(2 * math.log(1 / (1 - confidence)) / n_train)
    return np.sqrt((dim + 1) * np.log(n_train + 1) / n_train) + delta


@dataclass(frozen=True)
class GeneralisationCurve:
    """Mean test error of the margin perceptron against N, with both bounds.

    Attributes (K = len(n_train), R = repeats)
    ----------
    n_train : ndarray (K,) of int
    mean_error : ndarray (K,)
        Mean over the R runs of the test error L(beta_hat).
    stderr : ndarray (K,)
        Standard error of that mean, std(errors, ddof=1) / sqrt(R) (NaN if R = 1).
        In d > 2 each run has its own test sample, so it includes the sampling noise.
    errors : ndarray (K, R)
        Test error of every run.
    margin_mistakes : ndarray (K, R) of int
        Margin mistakes of every run (never above mistake_bound, by the Lemma).
    stability_bound : ndarray (K,)
        3 / ((N + 1) gamma^2), raw (may exceed 1).
    uniform_bound : ndarray (K,)
        sqrt((P + 1) log(N + 1) / N) + sqrt(2 log(1 / (1 - confidence)) / N), raw.
    mistake_bound : float
        3 / gamma^2.
    exact : bool
        True in d = 2 (closed-form errors), False otherwise (n_test fresh points a run).
    """

    n_train: np.ndarray
    mean_error: np.ndarray
    stderr: np.ndarray
    errors: np.ndarray
    margin_mistakes: np.ndarray
    stability_bound: np.ndarray
    uniform_bound: np.ndarray
    mistake_bound: float
    margin: float
    dim: int
    repeats: int
    seed: int
    n_test: int
    confidence: float
    order: str
    exact: bool

    @property
    def columns(self) -> dict[str, np.ndarray]:
        """One row per N, for a table or a CSV download."""
        return {
            "n_train": self.n_train,
            "mean_error": self.mean_error,
            "stderr": self.stderr,
            "stability_bound": self.stability_bound,
            "uniform_bound": self.uniform_bound,
            "mean_margin_mistakes": self.margin_mistakes.mean(axis=1),
            "max_margin_mistakes": self.margin_mistakes.max(axis=1),
        }


def _check_n_train(n_train) -> list[int]:
    values = np.atleast_1d(np.asarray(n_train, dtype=object))
    if values.size == 0:
        raise ValueError("give at least one training-set size N.")
    if values.size > CURVE_MAX_VALUES:
        raise ValueError(f"{values.size} values of N is too many (at most {CURVE_MAX_VALUES}).")
    return [
        check_number(
            v.item() if hasattr(v, "item") else v,
            "N (training points)",
            low=1,
            high=CURVE_MAX_N,
            integer=True,
        )
        for v in values
    ]


def _curve_runs(rng, first, runs, size, margin, dim, order, n_test, max_updates, seed):
    """Runs first .. first + runs - 1 of the curve at one N: errors (runs,) and margin
    mistakes (runs,).

    Each run draws its target direction beta* uniformly on the sphere and N points
    with margin gamma about it from its own generator (:func:`curve_run_data`), runs
    the margin perceptron until no margin mistake is left (``max_updates``: just over
    the Lemma's 3/gamma^2) and measures the test error of its beta: exactly in d = 2,
    on ``n_test`` fresh points drawn from ``rng`` in d > 2.
    """
    generators, stars = [], np.empty((runs, dim))
    signed = np.empty((runs, size, dim))
    for r in range(runs):
        generator, stars[r], X, y = curve_run_data(seed, size, first + r, margin, dim)
        generators.append(generator)
        signed[r] = y[:, None] * X  # a = y x
    beta, mistakes, _, _ = _margin_perceptron_batch(
        signed, _batch_streams(generators, order, size), max_updates=max_updates, max_epochs=100_000
    )
    angles = _angles_rows(beta, stars)
    zero = ~np.any(beta != 0, axis=1)
    if dim == 2:
        return _exact_error_2d(angles, margin, zero), mistakes
    return _sampled_errors(rng, angles, zero, margin, dim, n_test), mistakes


def generalisation_curve(
    n_train=(10, 30, 100, 300, 1000),
    margin=0.1,
    dim=2,
    repeats=200,
    seed=0,
    n_test=10_000,
    confidence=0.95,
    order="random",
    progress: Progress = None,
) -> GeneralisationCurve:
    """Test error of the margin perceptron against the number of training points N.

    For every N and each of ``repeats`` runs: draw a planted unit beta* and N
    training points with :func:`make_unit_margin`'s distribution, run the margin
    perceptron to convergence (order "random", as in the notes) and measure
    L(beta_hat) exactly in d = 2 (:func:`test_error_exact_2d`) or, in d > 2, on
    n_test fresh points (the same distribution as :func:`test_error_sample`).
    Run r at N draws its data and its example order from its own generator, seeded by
    (seed, N, r) (:func:`curve_run_data`), so a run does not depend on the other N or
    runs; the runs of one N are computed as one batch, and every example's score against
    its own updates alone is exact, as for unit vectors (:class:`OwnScore`).

    Parameters
    ----------
    n_train : sequence of int, each 1 <= N <= CURVE_MAX_N (10 000), at most 20 values
    margin : float in (0, 1)
    dim : int, 1 <= dim <= MAX_DIM
    repeats : int, 1 <= repeats <= CURVE_MAX_REPEATS (1000)
    seed : int or None (None means 0)
    n_test : int, 1 <= n_test <= CURVE_MAX_TEST (100 000); unused in d = 2
    confidence : float in (0, 1), for the uniform bound's delta
    order : {"random", "cyclic", "permuted"}
    progress : callable(fraction) or None, called after each batch

    The whole call must fit the work budget
    repeats * sum(N) * (dim + 8) * (3 / gamma^2 + 40) <= CURVE_MAX_WORK (6e9),
    about ten seconds at most on this 2-core machine, and in d > 2
    repeats * len(n_train) * n_test <= CURVE_MAX_TEST_POINTS (2e7, about 3 s).
    The default curve uses 9.8e8 and takes under a second
    (benchmarks/bench_generalisation.py); in d > 2 it scores 1e7 test points.

    Returns
    -------
    GeneralisationCurve
    """
    sizes = _check_n_train(n_train)
    margin = _check_margin(margin)
    dim = _check_dim(dim)
    repeats = check_number(repeats, "repeats", low=1, high=CURVE_MAX_REPEATS, integer=True)
    seed = check_seed(seed)
    n_test = check_number(n_test, "n_test (test points)", low=1, high=CURVE_MAX_TEST, integer=True)
    confidence = check_number(
        confidence, "confidence", low=0, high=1, low_open=True, high_open=True
    )
    if not isinstance(order, str) or order not in STREAM_ORDERS:
        raise ValueError(f"unknown order {order!r}; choose one of: {', '.join(STREAM_ORDERS)}.")
    if progress is not None and not callable(progress):
        raise ValueError("progress must be a callable taking a fraction, or None.")
    mistake_bound = 3.0 / margin**2
    work = repeats * sum(sizes) * (dim + 8) * (mistake_bound + 40)
    if work > CURVE_MAX_WORK:
        raise ValueError(
            f"this curve is too much work ({work:.2g} > {CURVE_MAX_WORK:.0e}: repeats * sum(N) * "
            "(dim + 8) * (3/gamma^2 + 40)); use fewer repeats, smaller N, fewer dimensions or a "
            "larger margin."
        )
    if dim > 2 and repeats * len(sizes) * n_test > CURVE_MAX_TEST_POINTS:
        raise ValueError(
            f"repeats * len(n_train) * n_test = {repeats * len(sizes) * n_test} "
            f"test points is too many (at most {CURVE_MAX_TEST_POINTS:.0e}); "
            "lower n_test or repeats."
        )
    errors = np.empty((len(sizes), repeats))
    mistakes = np.empty((len(sizes), repeats), dtype=np.int64)
    total, done = sum(sizes) * repeats, 0
    for k, size in enumerate(sizes):
        rng = np.random.default_rng([seed, size, 1])  # the test points of d > 2
        chunk = max(1, min(repeats, 2_000_000 // (size * max(dim, 2))))
        for start in range(0, repeats, chunk):
            runs = min(chunk, repeats - start)
            errors[k, start : start + runs], mistakes[k, start : start + runs] = _curve_runs(
                rng, start, runs, size, margin, dim, order, n_test, int(mistake_bound) + 1, seed
            )
            done += runs * size
            if progress is not None:
                progress(done / total)
    sizes_array = np.array(sizes, dtype=np.int64)
    stderr = (
        errors.std(axis=1, ddof=1) / math.sqrt(repeats)
        if repeats > 1
        else np.full(len(sizes), np.nan)
    )
    return GeneralisationCurve(
        n_train=frozen(sizes_array),
        mean_error=frozen(errors.mean(axis=1)),
        stderr=frozen(stderr),
        errors=frozen(errors),
        margin_mistakes=frozen(mistakes),
        stability_bound=frozen(stability_bound(sizes_array, margin)),
        uniform_bound=frozen(uniform_bound(sizes_array, dim, confidence)),
        mistake_bound=mistake_bound,
        margin=margin,
        dim=dim,
        repeats=repeats,
        seed=seed,
        n_test=0 if dim == 2 else n_test,
        confidence=confidence,
        order=order,
        exact=dim == 2,
    )


def _angles_rows(betas: np.ndarray, stars: np.ndarray) -> np.ndarray:
    """Angle between betas[r] and the unit stars[r], row by row."""
    along = np.einsum("rd,rd->r", betas, stars)
    across = np.linalg.norm(betas - along[:, None] * stars, axis=1)
    return np.arctan2(across, along)


# Their names start with "test_" (test error is what they compute); tell pytest they are
# not tests when a test module imports them. Set through the attribute dict, which every
# function has: the type checker knows no __test__ attribute on functions.
vars(test_error_exact_2d)["__test__"] = False
vars(test_error_sample)["__test__"] = False
