"""The perceptron, exactly Algorithm 1.16 of notes-perceptron-yu.txt.

For t = 1, 2, ...: examine example I_t; if y (w·x + b) <= delta (a "mistake"),
set w <- w + y x and, with a bias, b <- b + y; otherwise change nothing.
The run returns a frozen :class:`Trace`: the weights before any update and
after each one, which example caused each update and when. Pages index into
it and never re-run training to move a step.

Speed: for the stream orders (cyclic, permuted, random) the next mistake is
found by scoring a block of the coming examples with one matrix product and
jumping to the first violation; the block doubles while none is found.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import (
    MAX_SAMPLES,
    check_dataset,
    check_number,
    check_seed,
    finite_row_squares,
    frozen,
)

#: documented limits of one run (about 15 s in the worst case on a 2-core machine:
#: 10^6 updates on data that are not separable)
MAX_UPDATES_LIMIT = 1_000_000
MAX_EPOCHS_LIMIT = 10_000_000
#: most examined steps (max_epochs x n) one run may be asked for
MAX_STEPS_LIMIT = 10**10
#: the trace keeps (n_updates + 1) x (d + 1) numbers; max_updates is lowered so that
#: this stays under 2 x 10^7 (160 MB); the stop reason names the limit used
MAX_TRACE_VALUES = 20_000_000

# ---------------------------------------------------------------------------
# Orders (Remark 1.38). Stream orders fix the examined sequence in advance,
# epoch by epoch, and share the signature (n, seed, epoch) -> indices (n,).
# Greedy orders look at the current scores and share the signature
# (scores, norms, delta, slack) -> index of the most violated example (slack: each
# score's rounding error, see ScoreRounding).
# ---------------------------------------------------------------------------


def _cyclic(n: int, seed: int, epoch: int) -> np.ndarray:
    """I_t = t mod n: examples 0, 1, ..., n-1 every epoch."""
    return np.arange(n)


def _permuted(n: int, seed: int, epoch: int) -> np.ndarray:
    """A fresh random permutation of 0..n-1 in each epoch."""
    return np.random.default_rng([seed, epoch]).permutation(n)


def _random(n: int, seed: int, epoch: int) -> np.ndarray:
    """I_t i.i.d. uniform on 0..n-1 (drawn n at a time)."""
    return np.random.default_rng([seed, epoch]).integers(0, n, size=n)


def _first_smallest(values: np.ndarray, tie: float) -> int:
    """The first index whose value is the smallest up to rounding: values within ``tie``
    of the smallest (equal in exact arithmetic, however they were rounded) are a tie,
    won by the lowest index."""
    low = int(np.argmin(values))
    if low:
        earlier = values[:low] <= values[low] + tie
        if earlier.any():
            return int(np.argmax(earlier))
    return low


def _max_residual(scores: np.ndarray, norms: np.ndarray, delta: float, slack: float) -> int:
    """The most violated example: largest (delta - a_i·w)^+, i.e. smallest score (scores
    within 2 slack of each other tie: each may be off by its slack)."""
    return _first_smallest(scores, 2 * slack)


def _max_distance(scores: np.ndarray, norms: np.ndarray, delta: float, slack: float) -> int:
    """Largest violation after dividing by ||a_i||: distance to the half-space."""
    return _first_smallest((scores - delta) / norms, 2 * slack / norms.min())


STREAM_ORDERS = {"cyclic": _cyclic, "permuted": _permuted, "random": _random}
GREEDY_ORDERS = {"max_residual": _max_residual, "max_distance": _max_distance}
#: order name -> what a menu shows (examples numbered from 1, as x₁ … xₙ in the notes)
ORDERS = {
    "cyclic": "cyclic (1, 2, ..., n, repeat)",
    "permuted": "permuted (fresh shuffle each epoch)",
    "random": "random (i.i.d. uniform)",
    "max_residual": "most violated (maximal residual)",
    "max_distance": "most violated, normalised (maximal distance)",
}


#: a computed score y (w·x + b) within ROUNDING_ULPS units of rounding of its size (the
#: sum of the sizes of the terms it adds up) of delta is taken to be delta exactly
ROUNDING_ULPS = 16
_EPSILON = float(np.finfo(np.float64).eps)


def rounding_slack(size: float) -> float:
    """The rounding error allowed in a sum of terms whose sizes add up to ``size``:
    ROUNDING_ULPS ulps of it (0 when ``size`` has overflowed: the sum has too, and is
    taken as it is)."""
    slack = ROUNDING_ULPS * _EPSILON * size
    return slack if slack < math.inf else 0.0  # also 0 for NaN


class ScoreRounding:
    """How far a computed score y (w·x_j + b) can be from the exact one, and the
    mistake test with that slack.

    w is a sum of updates y_i x_i (plus w0), so a score adds up products whose sizes
    sum to at most (Σ over updates ||x_i|| + ||w0||) max_j ||x_j|| (Cauchy-Schwarz),
    plus |b|. Computed two ways (w·x_j in the primal run, Σ α_i y_i K(x_i, x_j) in
    the dual one) an exact 0 can come out as +7.9e-16 one way and -1.1e-14 the other;
    both runs take every score within ROUNDING_ULPS ulps of that size of delta as delta
    (a mistake), so they decide alike. Data on a grid (drawn points) have exact scores
    that are either delta or far from it; float data almost never come that close.

    Parameters
    ----------
    row_sizes : ndarray of shape (n,), ||x_j|| (in a kernel's feature space sqrt K(x_j, x_j));
        or a function of j that returns ||x_j|| (then ``largest`` is required)
    start : float, the size of the start w0 (||w0||)
    largest : float or None, max_j ||x_j|| (None: the largest of ``row_sizes``)
    """

    def __init__(self, row_sizes, start: float = 0.0, largest: float | None = None):
        self.row_sizes = row_sizes
        if largest is None:
            largest = float(row_sizes.max()) if row_sizes.size else 0.0
        self.largest = float(largest)
        self.total = float(start)  # Σ over the updates so far of ||x_i||, plus ||w0||

    def add(self, index: int) -> None:
        """An update on example ``index``: its size joins the sum."""
        sizes = self.row_sizes
        self.total += float(sizes(index) if callable(sizes) else sizes[index])

    def size(self, b: float) -> float:
        """The sum of the sizes of the terms of any score of the run as it stands:
        (Σ ||x_i|| + ||w0||) max_j ||x_j|| + |b|."""
        return (self.total * self.largest if self.total else 0.0) + abs(b)

    def slack(self, b: float) -> float:
        """The rounding error allowed in any score of the run as it stands (0 once the
        sizes overflow: then the scores have overflowed too, and are taken as they are)."""
        return rounding_slack(self.size(b))

    def snap(self, score: float, b: float, delta: float) -> float:
        """A score within rounding of delta as delta (what the trace records)."""
        return delta if abs(score - delta) <= self.slack(b) else score


def example_order(order: str, n: int, seed: int | None, epoch: int) -> np.ndarray:
    """The indices a stream order examines in epoch ``epoch`` (0-based).

    Parameters
    ----------
    order : {"cyclic", "permuted", "random"}
    n : int
    seed : int or None (None means 0)
    epoch : int, >= 0

    Returns
    -------
    ndarray of shape (n,)
    """
    if not isinstance(order, str) or order not in STREAM_ORDERS:
        raise ValueError(
            f"order {order!r:.40} has no fixed stream; choose one of {sorted(STREAM_ORDERS)}."
        )
    n = check_number(n, "n (number of examples)", low=1, high=MAX_SAMPLES, integer=True)
    epoch = check_number(epoch, "epoch", low=0, high=MAX_EPOCHS_LIMIT, integer=True)
    return STREAM_ORDERS[order](n, check_seed(seed), epoch)


def check_steps(steps, n_examined: int) -> np.ndarray:
    """Examined steps (1-based) as int64, each in 1..n_examined; any shape."""
    try:
        raw = np.asarray(steps)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("steps must be whole numbers (examined steps, 1-based).") from None
    if raw.size > 10_000_000:
        raise ValueError(f"{raw.size} steps is too many; ask for at most 10^7 at a time.")
    if raw.dtype.kind not in "iuf" or (
        raw.dtype.kind == "f"
        and raw.size
        and not (np.all(np.isfinite(raw)) and np.all(raw == np.round(raw)))
    ):
        flat = [check_number(v, "step", integer=True) for v in raw.ravel().tolist()]
        raw = np.array(flat, dtype=object).reshape(raw.shape)
    if raw.size and (raw.min() < 1 or raw.max() > n_examined):
        raise ValueError(f"steps must lie in 1..{n_examined} (the examined steps).")
    return raw.astype(np.int64)


def examined_indices(
    steps: np.ndarray, n: int, order: str, seed: int, greedy_indices: np.ndarray | None
) -> np.ndarray:
    """The example examined at each of ``steps`` (checked, 1-based), same shape.

    A greedy order recorded its choices (``greedy_indices``, one per step); a stream
    order examines ``example_order(order, n, seed, epoch)[position]`` at step
    t = epoch * n + position + 1, so nothing needs storing.
    """
    if greedy_indices is not None:
        return greedy_indices[steps - 1]
    epochs, positions = np.divmod(steps - 1, n)
    out = np.empty_like(steps)
    for epoch in np.unique(epochs):
        chosen = epochs == epoch
        out[chosen] = example_order(order, n, seed, int(epoch))[positions[chosen]]
    return out


@dataclass(frozen=True)
class ExaminedStep:
    """What happened at one examined step t (1-based) of a run."""

    step: int
    index: int
    w: np.ndarray
    b: float
    score: float
    updated: bool
    mistake: bool
    updates_before: int


@dataclass(frozen=True, kw_only=True)
class RunRecord:
    """What every perceptron-style run records (the perceptron, its kernel form, SGD),
    and where a step of it is looked up; each field is described in :class:`Trace`."""

    update_indices: np.ndarray
    update_steps: np.ndarray
    update_scores: np.ndarray
    biases: np.ndarray
    n_examined: int
    epochs: int
    converged: bool
    stop_reason: str
    order: str
    seed: int
    delta: float
    bias: bool
    n_samples: int
    greedy_indices: np.ndarray | None = None

    @property
    def n_updates(self) -> int:
        """Updates made in the run."""
        return int(self.update_indices.shape[0])

    @property
    def b(self) -> float:
        """The final bias."""
        return float(self.biases[-1])

    def updates_before_step(self, step: int) -> int:
        """Number of updates made before examined step ``step`` (1-based)."""
        step = check_number(step, "step", low=0, high=self.n_examined + 1, integer=True)
        return int(np.searchsorted(self.update_steps, step, side="left"))

    def indices_at_steps(self, steps) -> np.ndarray:
        """Example index examined at each step in ``steps`` (1-based), same shape."""
        return examined_indices(
            check_steps(steps, self.n_examined),
            self.n_samples,
            self.order,
            self.seed,
            self.greedy_indices,
        )


@dataclass(frozen=True)
class Trace(RunRecord):
    """The complete, read-only record of one perceptron run.

    Attributes
    ----------
    weights : ndarray of shape (n_updates + 1, n_features)
        w before any update (row 0) and after each update.
    biases : ndarray of shape (n_updates + 1,)
        b likewise (all zero with ``bias=False`` and b0 = 0).
    update_indices : ndarray of shape (n_updates,)
        Which example caused each update.
    update_steps : ndarray of shape (n_updates,)
        How many examples had been examined when it happened (1-based step t).
    update_scores : ndarray of shape (n_updates,)
        y (w·x + b) just before the update.
    update_mistakes : ndarray of shape (n_updates,) of bool
        Whether the update was a mistake (score <= delta); always True except
        for the aggressive rule.
    n_examined : int
        Examined steps in the run.
    epochs : int
        ceil(n_examined / n).
    converged : bool
    stop_reason : str
        A sentence a page can show.
    """

    weights: np.ndarray
    update_mistakes: np.ndarray
    aggressive: bool

    @property
    def w(self) -> np.ndarray:
        """The final weight vector."""
        return self.weights[-1]

    def _check_step(self, step) -> int:
        return check_number(step, "step", low=1, high=max(1, self.n_examined), integer=True)

    def example_at(self, step: int, X, y) -> ExaminedStep:
        """Replay examined step ``step`` (1-based): the example and the (w, b) then in force.

        ``X`` and ``y`` are the training data the run used (the trace does not
        copy them).
        """
        step = self._check_step(step)
        X, y = check_dataset(X, y, both_classes=False, copy=False)
        if X.shape != (self.n_samples, self.weights.shape[1]):
            raise ValueError(
                f"X has shape {X.shape} but the trace was run on "
                f"({self.n_samples}, {self.weights.shape[1]}); pass the X and y "
                "given to run_perceptron."
            )
        index = int(self.indices_at_steps([step])[0])
        before = self.updates_before_step(step)
        w, b = self.weights[before], float(self.biases[before])
        score = float(y[index] * (np.dot(w, X[index]) + b))
        updated = before < self.n_updates and int(self.update_steps[before]) == step
        mistake = score <= self.delta
        if updated:  # the run's own score and verdict (a score within rounding of delta
            # counted as delta: ScoreRounding)
            score, mistake = float(self.update_scores[before]), bool(self.update_mistakes[before])
        return ExaminedStep(
            step=step,
            index=index,
            w=w,
            b=b,
            score=score,
            updated=updated,
            mistake=mistake,
            updates_before=before,
        )


class _Recorder:
    """Growable storage for the trace (amortised doubling)."""

    def __init__(self, w0: np.ndarray, b0: float):
        self.rows = [w0.copy()]
        self.biases = [b0]
        self.indices: list[int] = []
        self.steps: list[int] = []
        self.scores: list[float] = []
        self.mistakes: list[bool] = []

    def add(self, w, b, index, step, score, mistake):
        self.rows.append(w)  # callers pass a fresh array (w = w + y x), never one they mutate
        self.biases.append(b)
        self.indices.append(index)
        self.steps.append(step)
        self.scores.append(score)
        self.mistakes.append(mistake)

    def add_block(self, W, B, indices, steps, scores, mistakes):
        self.rows.extend(W)
        self.biases.extend(B.tolist())
        self.indices.extend(indices.tolist())
        self.steps.extend(steps.tolist())
        self.scores.extend(scores.tolist())
        self.mistakes.extend(mistakes.tolist())

    def add_index(self, index, step, score):
        """An update on example ``index`` (a mistake) whose w and b :meth:`rebuild` adds
        later."""
        self.indices.append(index)
        self.steps.append(step)
        self.scores.append(score)

    def rebuild(self, X, labels, bias):
        """The rows and biases of the updates added by :meth:`add_index`: w_k = w_0 +
        y_1 x_1 + ... + y_k x_k as a cumulative sum, the same additions in the same order
        as the loop's w <- w + y x (so the same numbers, bit for bit); b likewise."""
        index = np.asarray(self.indices, dtype=np.int64)
        steps = np.empty((index.size + 1, X.shape[1]))
        steps[0] = self.rows[0]
        np.multiply(labels[index, None], X[index], out=steps[1:])
        self.rows = list(np.cumsum(steps, axis=0))
        addends = np.concatenate(
            [[self.biases[0]], labels[index] if bias else np.zeros(index.size)]
        )
        self.biases = np.cumsum(addends).tolist()
        self.mistakes = [True] * index.size

    @property
    def count(self) -> int:
        return len(self.indices)


def _stop_reason(converged, n_updates, epochs, delta, limit_hit, aggressive):
    if converged:
        return (
            f"converged: every example has y(w·x + b) > {delta:g} after "
            f"{n_updates} updates in {epochs} epoch{'s' if epochs != 1 else ''}"
        )
    if aggressive:
        return (
            f"stopped at the {limit_hit} without a separating hyperplane: the aggressive "
            "rule keeps moving w even on correct examples (Remark 1.19)"
        )
    return (
        f"no separator found after {n_updates} updates ({limit_hit}): "
        "the data may not be linearly separable"
    )


def check_run_settings(n: int, *, delta, order, seed, max_updates, max_epochs):
    """Check the settings every perceptron-style run shares, for n examples.

    Parameters
    ----------
    n : int
        Number of examples (the limit on examined steps is max_epochs x n).
    delta, order, seed, max_updates, max_epochs
        As in :func:`run_perceptron`.

    Returns
    -------
    (delta, seed, max_updates, max_epochs)
        As floats and ints (seed None means 0).

    Raises
    ------
    ValueError
        Naming the setting to fix: delta < 0, an unknown order, a limit out of
        range, or more than 10^10 examined steps.
    """
    delta = check_number(delta, "delta (threshold)", low=0)
    if not isinstance(order, str) or order not in ORDERS:
        raise ValueError(f"unknown order {order!r}; choose one of: {', '.join(ORDERS)}.")
    seed = check_seed(seed)
    max_updates = check_number(
        max_updates, "max_updates", low=1, high=MAX_UPDATES_LIMIT, integer=True
    )
    max_epochs = check_number(max_epochs, "max_epochs", low=1, high=MAX_EPOCHS_LIMIT, integer=True)
    if max_epochs * n > MAX_STEPS_LIMIT:
        raise ValueError(
            f"max_epochs x n = {max_epochs} x {n} examined steps is over the limit "
            f"of {MAX_STEPS_LIMIT:.0e}; lower max_epochs."
        )
    return delta, seed, max_updates, max_epochs


def check_start(w0, b0, dim: int, bias: bool) -> tuple[np.ndarray, float]:
    """The start (w0, b0) of a run on d features: a float64 copy of w0 (zeros for None)
    and b0 as a float (0 without a bias)."""
    if w0 is None:
        w = np.zeros(dim)
    else:
        try:
            w = np.array(w0, dtype=np.float64, copy=True)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"w0 must be {dim} numbers (one weight per feature).") from None
        if w.shape != (dim,):
            raise ValueError(f"w0 must have shape ({dim},) to match X, got {w.shape}.")
        if not np.isfinite(w).all():
            raise ValueError("w0 contains NaN or infinity.")
    b = check_number(b0, "b0 (initial bias)")
    if not bias and b != 0.0:
        raise ValueError("b0 must be 0 when bias=False (the hyperplane goes through the origin).")
    return w, b


def run_perceptron(
    X,
    y,
    bias=True,
    delta=0.0,
    w0=None,
    b0=0.0,
    order="cyclic",
    seed=None,
    max_updates=100_000,
    max_epochs=1_000,
    aggressive=False,
) -> Trace:
    """Run the perceptron (Algorithm 1.16) and record every update.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1}
    bias : bool
        Learn b as well (padding, Remark 1.17); False keeps b = b0 = 0 fixed,
        a hyperplane through the origin.
    delta : float >= 0
        Threshold: a mistake is y (w·x + b) <= delta.
    w0 : ndarray of shape (n_features,) or None
        Initial weights (None: zeros).
    b0 : float
        Initial bias (must be 0 with ``bias=False``).
    order : str
        A key of :data:`ORDERS` (Remark 1.38).
    seed : int or None
        Seed of the permuted and random orders (None means 0).
    max_updates, max_epochs : int
        Limits; the run stops there with ``converged=False``. At most 10^6 and 10^7,
        and max_epochs x n at most 10^10 (a run then ends within seconds);
        max_updates is lowered when the trace would hold more than 2 x 10^7
        numbers ((max_updates + 1) x (d + 1)), and the stop reason names the
        limit used.
    aggressive : bool
        Update on every examined example, mistake or not (Remark 1.19).

    Returns
    -------
    Trace
        Stops converged when every example has y (w·x + b) > delta.
    """
    # read only: not copied; X's entries are checked in the pass that measures its rows
    X, y = check_dataset(X, y, both_classes=False, copy=False, finite=False)
    squares = finite_row_squares(X)
    n, dim = X.shape
    delta, seed, max_updates, max_epochs = check_run_settings(
        n, delta=delta, order=order, seed=seed, max_updates=max_updates, max_epochs=max_epochs
    )
    # the trace's memory: (updates + 1) rows of d weights and a bias
    max_updates = min(max_updates, MAX_TRACE_VALUES // (dim + 1) - 1)
    if max_updates < 1:
        raise ValueError(f"d = {dim} features is too many to record a run; use fewer features.")
    w, b = check_start(w0, b0, dim, bias)
    if order in GREEDY_ORDERS and not aggressive:  # the stacked engine, with one problem
        from .stacked import run_perceptrons

        return run_perceptrons(
            X,
            [(slice(None), y)],
            bias=bias,
            delta=delta,
            w0=w,
            b0=b,
            order=order,
            seed=seed,
            max_updates=max_updates,
            max_epochs=max_epochs,
        )[0]
    labels = y.astype(np.float64)
    step_limit = max_epochs * n
    record = _Recorder(w, b)
    args = (X, labels, w, b, delta, bias, step_limit, max_updates, record, seed)
    if aggressive:
        step, converged, limit_hit = _run_aggressive(*args, order=order)
    else:
        step, converged, limit_hit = _run_stream(*args, order=order, squares=squares)
    epochs = int(-(-step // n))
    weights = np.array(record.rows, dtype=np.float64).reshape(-1, dim)
    return Trace(
        weights=frozen(weights),
        biases=frozen(record.biases, dtype=np.float64),
        update_indices=frozen(record.indices, dtype=np.int64),
        update_steps=frozen(record.steps, dtype=np.int64),
        update_scores=frozen(record.scores, dtype=np.float64),
        update_mistakes=frozen(record.mistakes, dtype=bool),
        n_examined=int(step),
        epochs=epochs,
        converged=bool(converged),
        stop_reason=_stop_reason(converged, record.count, epochs, delta, limit_hit, aggressive),
        order=order,
        seed=seed,
        delta=delta,
        bias=bool(bias),
        aggressive=bool(aggressive),
        n_samples=n,
        greedy_indices=None,
    )


def _update(w: np.ndarray, b: float, x: np.ndarray, label: float, bias: bool):
    """The update of Algorithm 1.16 on a mistake: w <- w + y x and, with a bias, b <- b + y.

    With the padded example a = y (x, 1) (Remark 1.17) this is (w, b) <- (w, b) + a.
    Returns a new array: the trace keeps every w_t, so w is never changed in place.
    """
    return w + label * x, (b + label if bias else b)


def _all_correct(X, labels, w, b, delta, rounding: ScoreRounding | None = None) -> bool:
    """Every example has y (w·x + b) > delta (beyond rounding, with ``rounding``), each
    decided as the plain loop decides it (:func:`_exact_mistake`); one product finds the
    few examples that need it."""
    scores = _scores(X, labels, w, b, slice(None))
    if rounding is None:
        return bool(np.all(scores > delta))
    size = rounding.size(b)
    slack = rounding_slack(size)
    for index in np.flatnonzero(_candidates(scores, delta, size, X.shape[1])).tolist():
        if _exact_mistake(X, labels, w, b, delta, slack, index)[1]:
            return False
    return True


def _rounding(X, w, squares=None) -> ScoreRounding:
    """The rounding of a run's scores: ||x_j|| of each example as it is updated on, the
    largest of them, the start ||w0|| (:func:`vector_size` each; ``squares``, the rows'
    x·x if known, finds the largest)."""
    return ScoreRounding(
        lambda index: vector_size(X[index]), vector_size(w), largest=largest_row_size(X, squares)
    )


def vector_size(x: np.ndarray) -> float:
    """||x|| as the plain loop computes it, sqrt(x·x) (``np.linalg.norm``); where x·x
    overflows or underflows, the scaled form of :func:`row_norms`."""
    square = float(np.dot(x, x))
    if _TINY_SQUARE < square < math.inf or square == 0.0 == float(np.abs(x).max(initial=0)):
        return math.sqrt(square)
    return float(row_norms(x[None, :])[0])


def largest_row_size(X: np.ndarray, squares: np.ndarray | None = None) -> float:
    """max_j ||x_j||, each as :func:`vector_size` computes it, in about one pass over X:
    the squares of all rows in one product (or ``squares``, x_j·x_j computed so) find
    the few rows that can be the longest (the two ways of summing differ by at most
    (d + 1) units of rounding), and only those are measured as the loop measures them."""
    if X.shape[0] == 0:
        return 0.0
    if squares is None:
        squares = np.einsum("ij,ij->i", X, X)
    top = float(squares.max())
    if not _TINY_SQUARE < top < math.inf:  # overflow or tiny numbers: the scaled form
        return float(row_norms(X).max())
    near = np.flatnonzero(squares >= top * (1.0 - 4 * (X.shape[1] + 2) * _EPSILON))
    return max(vector_size(X[j]) for j in near.tolist())


#: x·x below this may have lost digits to underflow (the smallest normal double is 2.2e-308)
_TINY_SQUARE = 1e-280


def row_norms(X: np.ndarray) -> np.ndarray:
    """||x_j|| of every row, without overflow in the squares (1e308 has norm 1e308)."""
    top = np.abs(X).max(axis=1, initial=0.0)
    scaled = X / np.where(top > 0, top, 1.0)[:, None]
    return top * np.sqrt(np.einsum("ij,ij->i", scaled, scaled))


class ExampleScan:
    """The examples in a stream order, scanned in blocks for the next one that moves.

    Every stream-order run (the perceptron, its kernel form, SGD) examines the
    examples one by one and updates at some of them. Scoring a block of coming
    examples with one product and jumping to the first that moves gives the same
    run far faster; the block doubles while nothing moves and drops back to about
    the last gap after a move (one loop turn costs about 400 rows).

    Attributes
    ----------
    step : int
        Examples examined so far (the step t of the last one, 1-based).
    clean : int
        Examples examined since the last move.
    """

    def __init__(self, order: str, n: int, seed: int, step_limit: int):
        self.order, self.n, self.seed, self.step_limit = order, n, seed, step_limit
        self.cyclic = order == "cyclic"
        self.stream = None if self.cyclic else example_order(order, n, seed, 0)
        self.step = self.clean = self.epoch = self.position = 0
        self.block = 256

    def at_limit(self) -> bool:
        """The run has examined ``step_limit`` examples."""
        return self.step >= self.step_limit

    def coming(self):
        """Rows of X to score next (a slice in cyclic order, else indices); never past
        the end of the epoch, the step limit or n examples since the last move."""
        take = min(
            self.block, self.n - self.position, self.step_limit - self.step, self.n - self.clean
        )
        if self.stream is None:  # the cyclic order (and only it) has no stream
            return slice(self.position, self.position + take)
        return self.stream[self.position : self.position + take]

    def advance(self, rows, moves: np.ndarray):
        """Examine ``rows`` (from :meth:`coming`) up to the first where ``moves`` holds.

        Returns ``(offset, index)`` of that example (its place in the block and in X),
        or None when no example of the block moves (all of it is then examined).
        """
        hit = self.find(rows, moves)
        if hit is not None:
            self.moved(hit[0])
        return hit

    def find(self, rows, moves: np.ndarray, start: int = 0):
        """Examine ``rows[start:]`` up to the first where ``moves`` holds, as
        :meth:`advance`, but the example found counts as unmoved until :meth:`moved`
        says otherwise (a candidate the caller checks first)."""
        offset = start + int(moves[start:].argmax()) if start < moves.shape[0] else start
        if offset < moves.shape[0] and moves[offset]:
            self._examine(offset + 1 - start)
            self.clean += offset + 1 - start
            return offset, self.position_of(rows, offset)
        self._examine(moves.shape[0] - start)
        self.clean += moves.shape[0] - start
        self.block = min(2 * self.block, 1 << 16)
        return None

    def position_of(self, rows, offset: int) -> int:
        """The index in X of row ``offset`` of a block from :meth:`coming`."""
        return rows.start + offset if self.cyclic else int(rows[offset])

    def moved(self, offset: int) -> None:
        """The example found at ``offset`` of the block moved the iterate."""
        self.clean = 0
        self.block = max(256, offset + 1)

    def _examine(self, count: int) -> None:
        """Move ``count`` examples on; a finished epoch starts the next one's order."""
        self.step += count
        self.position += count
        if self.position == self.n:
            self.epoch += 1
            self.position = 0
            if not self.cyclic:
                self.stream = example_order(self.order, self.n, self.seed, self.epoch)

    def pass_clean(self) -> bool:
        """n examples in a row left the iterate alone (in cyclic order: all of them).

        True once per such pass: the count starts again, so a caller that finds an
        example still to move (possible in the other orders) simply scans on.
        """
        if self.clean < self.n:
            return False
        self.clean = 0
        return True


#: how far a block product's score y (w·x + b) can be from the loop's (one np.dot per
#: example), per feature, in units of rounding of the score's size: each adds d products
#: and b, so each is within (d + 1) units of the exact score whatever the order of the sum
#: (Higham, Accuracy and Stability of Numerical Algorithms, eq. 3.5); twice that, for both,
#: and twice again for the rounding of the size itself
_BLOCK_ROUNDING = 4 * _EPSILON


def _scores(X, labels, w, b, rows) -> np.ndarray:
    """y (w·x + b) of the examples ``rows`` in one product (rounded as BLAS sums)."""
    scores = X[rows] @ w
    scores += b
    scores *= labels[rows]
    return scores


def _exact_mistake(X, labels, w, b, delta, slack, index):
    """The plain loop's test on one example: its score y (w·x + b), computed with one
    np.dot as the loop computes it, and whether it is a mistake (<= delta, a score
    within ``slack`` of delta counting as delta)."""
    score = float(labels[index] * (np.dot(w, X[index]) + b))
    return score, score <= delta or abs(score - delta) <= slack


def _candidates(scores: np.ndarray, delta: float, size: float, dim: int) -> np.ndarray:
    """The examples of a block the loop could count as mistakes: within the slack and
    the block product's rounding of delta (NaN included, since it hides the sign)."""
    reach = delta + rounding_slack(size) + _BLOCK_ROUNDING * (dim + 2) * size
    return ~(scores > reach) if reach < math.inf else np.ones(scores.shape, dtype=bool)


def _run_stream(
    X, labels, w, b, delta, bias, step_limit, max_updates, record, seed, *, order, squares=None
):
    """The stream orders, as the plain loop runs them (the same scores, bit for bit, the
    same decisions), at the speed of block products: a block of coming examples is
    scored with one product; the first that could be a mistake is scored again as the
    loop scores it, with one np.dot, and decided; until the next update every other
    example of the block keeps its block score."""
    if squares is None:
        squares = np.einsum("ij,ij->i", X, X)
    if order == "cyclic" and largest_row_size(X, squares) < _FLOAT32_SAFE:
        return _run_cyclic(X, labels, w, b, delta, bias, step_limit, max_updates, record, squares)
    n, dim = X.shape
    scan = ExampleScan(order, n, seed, step_limit)
    rounding = _rounding(X, w, squares)
    while not scan.at_limit():
        rows = scan.coming()
        scores = _scores(X, labels, w, b, rows)
        size = rounding.size(b)
        candidates = _candidates(scores, delta, size, dim)
        slack = rounding_slack(size)
        start = 0
        while (hit := scan.find(rows, candidates, start)) is not None:
            offset, index = hit
            score, mistake = _exact_mistake(X, labels, w, b, delta, slack, index)
            if mistake:
                scan.moved(offset)
                recorded = delta if abs(score - delta) <= slack else score
                w, b = _update(w, b, X[index], labels[index], bias)
                rounding.add(index)
                record.add(w, b, index, scan.step, recorded, True)
                if record.count >= max_updates:
                    return (
                        scan.step,
                        _all_correct(X, labels, w, b, delta, rounding),
                        f"limit of {max_updates} updates",
                    )
                break
            start = offset + 1  # within rounding of the block, not for the loop: go on
        if scan.pass_clean():
            # n examples in a row were correct: check every example at once
            if scan.cyclic or _all_correct(X, labels, w, b, delta, rounding):
                return scan.step, True, None
    return (
        scan.step,
        _all_correct(X, labels, w, b, delta, rounding),
        f"limit of {step_limit // X.shape[0]} epochs",
    )


def _run_cyclic(X, labels, w, b, delta, bias, step_limit, max_updates, record, squares):
    """The cyclic order (examples 0, 1, ..., n - 1, repeat), as the plain loop runs it.

    The search for the next mistake reads a float32 copy of the padded examples
    a_j = y_j (x_j, 1), made as the first epoch reaches them (half the memory of X, which
    the scan reads once an epoch): one product scores a block of coming examples within
    the float32 rounding of the exact scores; the first that could be a mistake is then
    scored and decided as the loop does it (one np.dot in float64), and the run goes on
    from there. The updates are the loop's, w is kept in float64 (w <- w + y x, the loop's
    sums exactly), and the trace's rows are those sums again (a cumulative sum in the same
    order). Data whose scores could overflow float32 use :func:`_run_stream`'s float64
    search instead.
    """
    n = X.shape[0]
    sizes = _UpdateSizes(X, squares, vector_size(w), largest_row_size(X, squares))
    padded = _Float32Rows(X, labels, bias)
    rows, weights32 = padded.rows, padded.weights
    label_of = labels.tolist()
    w = w.copy()  # updated in place from here
    score_buffer = np.empty(min(n, _LARGEST_BLOCK), dtype=np.float32)
    over_buffer = np.empty(min(n, _LARGEST_BLOCK), dtype=bool)
    threshold = padded.reach(w, b, delta, sizes, record.count)
    step = position = clean = 0  # examined in all, in this epoch, since the last update
    block = _FIRST_BLOCK
    while step < step_limit:
        take = min(block, n - position, step_limit - step, n - clean)
        end = position + take
        if end > padded.ready:
            padded.make(end)
        over = np.greater(
            np.dot(rows[position:end], weights32, out=score_buffer[:take]),
            threshold,
            out=over_buffer[:take],
        )
        offset, mistake, recorded = _first_mistake(over, position, X, label_of, w, b, delta, sizes)
        if mistake:
            index = position + offset
            step += offset + 1
            position += offset + 1
            clean = 0
            block = offset + 1 if offset >= _FIRST_BLOCK else _FIRST_BLOCK
            if label_of[index] > 0:  # w <- w + y x, y = +1 or -1: the loop's sums exactly
                np.add(w, X[index], out=w)
            else:
                np.subtract(w, X[index], out=w)
            if bias:
                b = b + label_of[index]
            sizes.add(index)
            record.add_index(index, step, recorded)
            if record.count >= max_updates:
                record.rebuild(X, labels, bias)
                return (
                    step,
                    _all_correct(X, labels, w, b, delta, sizes),
                    f"limit of {max_updates} updates",
                )
            threshold = padded.reach(w, b, delta, sizes, record.count)
        else:
            step += take
            position += take
            clean += take
            if block < _LARGEST_BLOCK:
                block *= 2
            if clean >= n:  # n examples in a row were correct: all of them are
                record.rebuild(X, labels, bias)
                return step, True, None
        if position == n:
            position = 0
    record.rebuild(X, labels, bias)
    return step, _all_correct(X, labels, w, b, delta, sizes), f"limit of {step_limit // n} epochs"


def _first_mistake(over, position, X, label_of, w, b, delta, sizes):
    """The first example of a block (scores ``over`` the float32 reach or not) that the
    loop counts as a mistake: ``(offset, True, recorded score)``, or ``(len, False,
    None)``. Each candidate (not over) is scored and decided as the loop does it."""
    take = over.shape[0]
    offset = int(over.argmin())
    while not over[offset]:
        index = position + offset
        score = float(label_of[index] * (np.dot(w, X[index]) + b))
        if score <= delta and delta - score > sizes.slack_high:  # far below: no rounding
            return offset, True, score
        mistake, recorded = sizes.decide(score, b, delta)
        if mistake:
            return offset, True, recorded
        offset += 1
        if offset == take:
            break
        offset += int(over[offset:].argmin())
    return take, False, None


class _UpdateSizes(ScoreRounding):
    """:class:`ScoreRounding` for :func:`_run_cyclic`: the exact sum of the updates' sizes
    (each ||x_i|| as :func:`vector_size` measures it, summed in order) is formed only when
    a decision needs it; an upper bound of it, from the rows' squares, serves the others."""

    def __init__(self, X, squares, start: float, largest: float):
        super().__init__(None, start, largest=largest)
        self.X, self.squares = X, squares
        self.pending: list[int] = []
        self.upper = float(start)
        self.room = 1.0 + 4 * (X.shape[1] + 2) * _EPSILON  # einsum's sums against np.dot's

    @property
    def total(self) -> float:
        """Σ over the updates of ||x_i||, plus ||w0||, as the loop sums it."""
        for index in self.pending:
            self._total += vector_size(self.X[index])
        self.pending.clear()
        return self._total

    @total.setter
    def total(self, value: float) -> None:
        self._total = value
        self.pending = []

    def add(self, index: int) -> None:
        self.pending.append(index)
        square = float(self.squares[index])
        self.upper += (
            math.sqrt(square) * self.room
            if _TINY_SQUARE < square < math.inf
            else vector_size(self.X[index])
        )

    def slack_upper(self, b: float) -> float:
        """At least :meth:`slack` (infinite when the sizes overflow); kept as
        ``slack_high`` for the b it was last asked for."""
        size = (self.upper * self.largest + abs(b)) * (1.0 + 1e-12)
        self.slack_high = ROUNDING_ULPS * _EPSILON * size if size < math.inf else math.inf
        return self.slack_high

    def decide(self, score: float, b: float, delta: float) -> tuple[bool, float]:
        """The loop's verdict on a score: whether it is a mistake (<= delta, a score
        within :meth:`slack` of delta counting as delta) and what the trace records."""
        if abs(score - delta) > self.slack_upper(b):  # beyond rounding even with the bound
            return score <= delta, score
        within = abs(score - delta) <= self.slack(b)
        return score <= delta or within, (delta if within else score)


class _Float32Rows:
    """The padded examples a_j = y_j (x_j, 1) in float32 (without the 1 when there is no
    bias), shape (n, d + 1) or (n, d), made in chunks as the run first reaches them:
    y_j x_j rounds exactly as x_j does, up to its sign."""

    def __init__(self, X, labels, bias):
        n, dim = X.shape
        self.X, self.labels, self.bias = X, labels, bias
        self.rows = np.empty((n, dim + 1 if bias else dim), dtype=np.float32)
        self.ready = 0  # rows made so far
        self.weights = np.empty(self.rows.shape[1], dtype=np.float32)  # (w, b) in float32
        self.norm_w = self.norm_at = 0.0  # ||w|| measured, and Σ ||x_i|| (upper) then

    def reach(self, w, b, delta, sizes, updates) -> np.float32:
        """Copy (w, b) to float32 and return the reach of the float32 scores: above it no
        example is a mistake for the loop (:func:`_float32_reach`). ||w|| is measured every
        _NORM_EVERY updates and bounded in between (||w + y x|| <= ||w|| + ||x||)."""
        dim = self.X.shape[1]
        self.weights[:dim] = w
        if self.bias:
            self.weights[dim] = b
        if updates % _NORM_EVERY == 0:
            self.norm_w, self.norm_at = math.sqrt(float(np.dot(w, w))), sizes.upper
        bound = self.norm_w * _NORM_ROOM + (sizes.upper - self.norm_at)
        return _float32_reach(delta + sizes.slack_upper(b), dim, sizes.largest, bound, b)

    def make(self, end: int) -> None:
        """Make the rows up to ``end`` (and a chunk beyond, to save calls)."""
        start, dim = self.ready, self.X.shape[1]
        stop = min(self.rows.shape[0], max(end, start + _FLOAT32_CHUNK))
        part = self.rows[start:stop]
        part[:, :dim] = self.X[start:stop]
        if self.bias:
            part[:, dim] = 1.0
        part *= self.labels[start:stop, None].astype(np.float32)
        self.ready = stop


def _float32_reach(limit: float, dim: int, largest: float, norm_w: float, b: float):
    """``limit`` (delta and the loop's slack) plus how far a score computed in float32
    can be from the exact one, as the float32 number just above: each a and w rounded
    once and d + 1 products summed lose at most (d + 4) units of float32 rounding of
    ||x|| ||w|| + |b| (Cauchy-Schwarz; Higham, eq. 3.5), with room; numbers below
    float32's normal range lose an absolute amount instead. Infinite (every example is
    then checked as the loop checks it) once the scores could overflow float32."""
    size = largest * norm_w * _NORM_ROOM + abs(b)
    if not size < _FLOAT32_SAFE_SCORE:
        return np.float32(np.inf)
    value = (
        limit
        + _FLOAT32_ROUNDING * (dim + 4) * size
        + (dim + 2) * _FLOAT32_TINY * (largest + norm_w + abs(b) + 1.0)
    )
    # a little above: float32 rounds to nearest, off by at most half a unit (2^-24)
    return np.float32(value * (1.0 + 2.0**-22))


#: float32's unit of rounding, twice (for the data and w rounded once each, and the sum of
#: d + 1 products: Higham, eq. 3.5), twice again for room
_FLOAT32_ROUNDING = 4 * float(np.finfo(np.float32).eps)
#: float32 loses relative accuracy below its smallest normal number (1.2e-38): each rounding
#: of a term there is off by at most this much (2^-120, with room, and itself a normal
#: float32, so the reach rounds to within half a unit), times the term's factor
_FLOAT32_TINY = 2.0**-120
#: rows this long may overflow float32 (3.4e38) in a product: the float64 search instead
_FLOAT32_SAFE = 1e12
#: scores this large (||x|| ||w|| + |b|) could overflow a float32 sum of 10^4 products
_FLOAT32_SAFE_SCORE = 1e30
#: rows made at a time in float32 (8 192 rows of 50 features: 1.6 MB)
_FLOAT32_CHUNK = 8192
#: room for the rounding of ||w|| and of max ||x||, each a few float64 units
_NORM_ROOM = 1.0 + 1e-9
#: ||w|| is measured after every this many updates (one product) and bounded in between
_NORM_EVERY = 8
#: a block search scores this many examples after an update, and doubles the block (up to
#: _LARGEST_BLOCK) while none is a mistake
_FIRST_BLOCK = 256
_LARGEST_BLOCK = 1 << 16


def _run_aggressive(X, labels, w, b, delta, bias, step_limit, max_updates, record, seed, *, order):
    """Remark 1.19: update on every example, w_t = w_0 + sum of y_i x_i.

    The update of :func:`_update` applied to a whole epoch at once: cumulative
    sums of the a_i = y_i x_i (and of the y_i for b) give every w_t of the epoch.
    """
    signed = labels[:, None] * X  # a_i = y_i x_i
    n = signed.shape[0]
    if order in GREEDY_ORDERS:
        raise ValueError(
            "the aggressive rule updates on every example; use a stream order "
            "(cyclic, permuted or random), not a most-violated order."
        )
    step, epoch = 0, 0
    while True:
        if _all_correct(X, labels, w, b, delta) and step > 0:
            return step, True, None
        if step >= step_limit:
            return step, False, f"limit of {step_limit // n} epochs"
        if record.count >= max_updates:
            return step, False, f"limit of {max_updates} updates"
        ids = example_order(order, n, seed, epoch)
        take = min(n, step_limit - step, max_updates - record.count)
        ids = ids[:take]
        increments = signed[ids]
        W = w + np.cumsum(increments, axis=0)
        B = b + np.cumsum(labels[ids]) if bias else np.full(take, b)
        W_before = np.vstack([w[None, :], W[:-1]])
        B_before = np.concatenate([[b], B[:-1]])
        scores = np.einsum("ij,ij->i", increments, W_before) + labels[ids] * B_before
        steps = step + 1 + np.arange(take)
        record.add_block(W, B, ids, steps, scores, scores <= delta)
        w, b = W[-1].copy(), float(B[-1])
        step += take
        epoch += 1
