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

from dataclasses import dataclass

import math

import numpy as np

from ._checks import MAX_SAMPLES, check_dataset, check_number, check_seed, frozen

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
    row_sizes : ndarray of shape (n,), ||x_j|| (in a kernel's feature space sqrt K(x_j, x_j))
    start : float, the size of the start w0 (||w0||)
    """

    def __init__(self, row_sizes: np.ndarray, start: float = 0.0):
        self.row_sizes = row_sizes
        self.largest = float(row_sizes.max()) if row_sizes.size else 0.0
        self.total = float(start)  # Σ over the updates so far of ||x_i||, plus ||w0||

    def add(self, index: int) -> None:
        """An update on example ``index``: its size joins the sum."""
        self.total += float(self.row_sizes[index])

    def slack(self, b: float) -> float:
        """The rounding error allowed in any score of the run as it stands (0 once the
        sizes overflow: then the scores have overflowed too, and are taken as they are)."""
        size = self.total * self.largest if self.total else 0.0
        return rounding_slack(size + abs(b))

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
    if raw.dtype.kind not in "iuf" or (raw.dtype.kind == "f" and raw.size and not (
            np.all(np.isfinite(raw)) and np.all(raw == np.round(raw)))):
        flat = [check_number(v, "step", integer=True) for v in raw.ravel().tolist()]
        raw = np.array(flat, dtype=object).reshape(raw.shape)
    if raw.size and (raw.min() < 1 or raw.max() > n_examined):
        raise ValueError(f"steps must lie in 1..{n_examined} (the examined steps).")
    return raw.astype(np.int64)


def examined_indices(steps: np.ndarray, n: int, order: str, seed: int,
                     greedy_indices: np.ndarray | None) -> np.ndarray:
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
        return examined_indices(check_steps(steps, self.n_examined), self.n_samples, self.order,
                                self.seed, self.greedy_indices)


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
            raise ValueError(f"X has shape {X.shape} but the trace was run on "
                             f"({self.n_samples}, {self.weights.shape[1]}); pass the X and y "
                             "given to run_perceptron.")
        index = int(self.indices_at_steps([step])[0])
        before = self.updates_before_step(step)
        w, b = self.weights[before], float(self.biases[before])
        score = float(y[index] * (np.dot(w, X[index]) + b))
        updated = before < self.n_updates and int(self.update_steps[before]) == step
        mistake = score <= self.delta
        if updated:  # the run's own score and verdict (a score within rounding of delta
            # counted as delta: ScoreRounding)
            score, mistake = float(self.update_scores[before]), bool(self.update_mistakes[before])
        return ExaminedStep(step=step, index=index, w=w, b=b, score=score, updated=updated,
                            mistake=mistake, updates_before=before)


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

    @property
    def count(self) -> int:
        return len(self.indices)


def _stop_reason(converged, n_updates, epochs, delta, limit_hit, aggressive):
    if converged:
        return (f"converged: every example has y(w·x + b) > {delta:g} after "
                f"{n_updates} updates in {epochs} epoch{'s' if epochs != 1 else ''}")
    if aggressive:
        return (f"stopped at the {limit_hit} without a separating hyperplane: the aggressive "
                "rule keeps moving w even on correct examples (Remark 1.19)")
    return (f"no separator found after {n_updates} updates ({limit_hit}): "
            "the data may not be linearly separable")


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
    max_updates = check_number(max_updates, "max_updates", low=1, high=MAX_UPDATES_LIMIT,
                               integer=True)
    max_epochs = check_number(max_epochs, "max_epochs", low=1, high=MAX_EPOCHS_LIMIT,
                              integer=True)
    if max_epochs * n > MAX_STEPS_LIMIT:
        raise ValueError(f"max_epochs x n = {max_epochs} x {n} examined steps is over the limit "
                         f"of {MAX_STEPS_LIMIT:.0e}; lower max_epochs.")
    return delta, seed, max_updates, max_epochs


def run_perceptron(X, y, bias=True, delta=0.0, w0=None, b0=0.0, order="cyclic", seed=None,
                   max_updates=100_000, max_epochs=1_000, aggressive=False) -> Trace:
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
    X, y = check_dataset(X, y, both_classes=False, copy=False)  # read only: not copied
    n, dim = X.shape
    delta, seed, max_updates, max_epochs = check_run_settings(
        n, delta=delta, order=order, seed=seed, max_updates=max_updates, max_epochs=max_epochs)
    # the trace's memory: (updates + 1) rows of d weights and a bias
    max_updates = min(max_updates, MAX_TRACE_VALUES // (dim + 1) - 1)
    if max_updates < 1:
        raise ValueError(f"d = {dim} features is too many to record a run; use fewer features.")
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
    labels = y.astype(np.float64)
    step_limit = max_epochs * n
    record = _Recorder(w, b)
    args = (X, labels, w, b, delta, bias, step_limit, max_updates, record, seed)
    if aggressive:
        step, converged, limit_hit = _run_aggressive(*args, order=order)
        greedy = None
    elif order in GREEDY_ORDERS:
        step, converged, limit_hit, greedy = _run_greedy(*args, rule=GREEDY_ORDERS[order])
    else:
        step, converged, limit_hit = _run_stream(*args, order=order)
        greedy = None
    epochs = int(-(-step // n))
    weights = np.array(record.rows, dtype=np.float64).reshape(-1, dim)
    return Trace(
        weights=frozen(weights), biases=frozen(record.biases, dtype=np.float64),
        update_indices=frozen(record.indices, dtype=np.int64),
        update_steps=frozen(record.steps, dtype=np.int64),
        update_scores=frozen(record.scores, dtype=np.float64),
        update_mistakes=frozen(record.mistakes, dtype=bool),
        n_examined=int(step), epochs=epochs, converged=bool(converged),
        stop_reason=_stop_reason(converged, record.count, epochs, delta, limit_hit, aggressive),
        order=order, seed=seed, delta=delta, bias=bool(bias), aggressive=bool(aggressive),
        n_samples=n, greedy_indices=None if greedy is None else frozen(greedy, dtype=np.int64),
    )


def _update(w: np.ndarray, b: float, x: np.ndarray, label: float, bias: bool):
    """The update of Algorithm 1.16 on a mistake: w <- w + y x and, with a bias, b <- b + y.

    With the padded example a = y (x, 1) (Remark 1.17) this is (w, b) <- (w, b) + a.
    Returns a new array: the trace keeps every w_t, so w is never changed in place.
    """
    return w + label * x, (b + label if bias else b)


def _all_correct(X, labels, w, b, delta, rounding: ScoreRounding | None = None) -> bool:
    """Every example has y (w·x + b) > delta (beyond rounding, with ``rounding``)."""
    slack = 0.0 if rounding is None else rounding.slack(b)
    return bool(np.all((X @ w + b) * labels > delta + slack))


def _rounding(X, w) -> ScoreRounding:
    """The rounding of a run's scores: row norms of X, the start ||w0||."""
    return ScoreRounding(row_norms(X), float(row_norms(w[None, :])[0]))


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
        take = min(self.block, self.n - self.position, self.step_limit - self.step,
                   self.n - self.clean)
        if self.cyclic:
            return slice(self.position, self.position + take)
        return self.stream[self.position:self.position + take]

    def advance(self, rows, moves: np.ndarray):
        """Examine ``rows`` (from :meth:`coming`) up to the first where ``moves`` holds.

        Returns ``(offset, index)`` of that example (its place in the block and in X),
        or None when no example of the block moves (all of it is then examined).
        """
        offset = int(moves.argmax())
        if moves[offset]:
            hit = (offset, self.position + offset if self.cyclic else int(rows[offset]))
            self._examine(offset + 1)
            self.clean = 0
            self.block = max(256, offset + 1)
            return hit
        self._examine(moves.shape[0])
        self.clean += moves.shape[0]
        self.block = min(2 * self.block, 1 << 16)
        return None

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


def _run_stream(X, labels, w, b, delta, bias, step_limit, max_updates, record, seed, *,
                order):
    scan = ExampleScan(order, X.shape[0], seed, step_limit)
    rounding = _rounding(X, w)
    while not scan.at_limit():
        rows = scan.coming()
        scores = (X[rows] @ w + b) * labels[rows]  # y (w·x + b) for the block
        # mistake: y (w·x + b) <= delta, up to the rounding of the score
        hit = scan.advance(rows, scores <= delta + rounding.slack(b))
        if hit is not None:
            offset, index = hit
            score = rounding.snap(float(scores[offset]), b, delta)
            w, b = _update(w, b, X[index], labels[index], bias)
            rounding.add(index)
            record.add(w, b, index, scan.step, score, True)
            if record.count >= max_updates:
                return scan.step, _all_correct(X, labels, w, b, delta, rounding), \
                    f"limit of {max_updates} updates"
        if scan.pass_clean():
            # n examples in a row were correct: check every example at once
            if scan.cyclic or _all_correct(X, labels, w, b, delta, rounding):
                return scan.step, True, None
    return (scan.step, _all_correct(X, labels, w, b, delta, rounding),
            f"limit of {step_limit // X.shape[0]} epochs")


def _run_greedy(X, labels, w, b, delta, bias, step_limit, max_updates, record, seed, *,
                rule):
    signed = labels[:, None] * X  # a_i = y_i x_i
    norms = np.sqrt(np.einsum("ij,ij->i", signed, signed) + (1.0 if bias else 0.0))
    norms[norms == 0] = 1.0
    examined: list[int] = []
    step = 0
    rounding = _rounding(X, w)
    while True:
        if step >= step_limit:
            done = _all_correct(X, labels, w, b, delta, rounding)
            return step, done, f"limit of {step_limit // signed.shape[0]} epochs", examined
        scores = signed @ w + labels * b
        slack = rounding.slack(b)
        index = rule(scores, norms, delta, slack)
        step += 1
        examined.append(index)
        if scores[index] > delta + slack:
            return step, True, None, examined  # the most violated one is fine: all are
        # mistake: y (w·x + b) <= delta, up to rounding
        score = rounding.snap(float(scores[index]), b, delta)
        w, b = _update(w, b, X[index], labels[index], bias)
        rounding.add(index)
        record.add(w, b, index, step, score, True)
        if record.count >= max_updates:
            done = _all_correct(X, labels, w, b, delta, rounding)
            return step, done, f"limit of {max_updates} updates", examined


def _run_aggressive(X, labels, w, b, delta, bias, step_limit, max_updates, record, seed, *,
                    order):
    """Remark 1.19: update on every example, w_t = w_0 + sum of y_i x_i.

    The update of :func:`_update` applied to a whole epoch at once: cumulative
    sums of the a_i = y_i x_i (and of the y_i for b) give every w_t of the epoch.
    """
    signed = labels[:, None] * X  # a_i = y_i x_i
    n = signed.shape[0]
    if order in GREEDY_ORDERS:
        raise ValueError("the aggressive rule updates on every example; use a stream order "
                         "(cyclic, permuted or random), not a most-violated order.")
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
